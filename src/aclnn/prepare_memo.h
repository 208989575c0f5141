// Phase 1's memo: a call whose arguments (every operand's descriptor and the dim), options
// and settings (the HOSTNN_ environment, the team size, the SIMD targets) equal those of an
// earlier successful call on the same thread gets that call's executor again, with no
// checks, resolve or plan. Sound because phase 1 is a pure function of these and of the
// aclrtMalloc blocks (a storage must fit its block): it reads no tensor contents, and an
// entry is used only while no block has been allocated or freed since it was kept.
// (Ascend's aclnn cache does the same for repeated calls.) Errors are never kept, and a
// plan that depends on a file never is.
#ifndef HOSTNN_SRC_ACLNN_PREPARE_MEMO_H_
#define HOSTNN_SRC_ACLNN_PREPARE_MEMO_H_

#include <cstdint>
#include <memory>

#include "hostnn/ops.h"
#include "src/exec/executor.h"

namespace hostnn {

class PrepareMemo {
 public:
  // Words of a key: op, dim, team, targets, the entry point's rank limit and format flag,
  // the int array's length and values (<= 8), then per operand (6) a presence flag, data, dtype,
  // offset, format and rank, shape, stride and storage counts with their values (<= 8 each), then
  // per scalar parameter whether it is given, its dtype and its value's bits (an INT64 one's exact
  // value).
  static constexpr int kMaxWords =
      6 + 2 * (1 + kMaxDims) + (kMaxIn + kMaxOut) * (5 + 3 * (1 + kMaxDims)) + 3 * kMaxScalars;

  // Builds the key of `args` (not cacheable: rank or storage over 8 dims, options other
  // than the defaults, or a plan read from a file).
  PrepareMemo(const OpArgs& args, const tiling::Options& options);
  // The executor an equal call made, and its workspace size; false when there is none.
  bool Find(uint64_t* workspace_size, std::shared_ptr<const Executor>* executor) const;
  // Keeps a successful call's executor (the least recently used entry makes room).
  void Keep(uint64_t workspace_size, std::shared_ptr<const Executor> executor) const;

 private:
  bool cacheable_ = false;
  int words_ = 0;
  uint64_t hash_ = 0;
  int64_t key_[kMaxWords];
};

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_PREPARE_MEMO_H_
