// The Gather kind's middle end (Embedding), from operands the front end checked
// (src/aclnn/index_front_end.cc): weight [rows, D], indices of any shape, out of indices'
// shape followed by D.
#ifndef HOSTNN_SRC_EXEC_INDEX_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_INDEX_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct GatherOperands {
  Operand weight, indices, out;
};

// Pre: the front end checked every operand (weight 2-D and not empty, indices INT32 or INT64
// and not empty, out of indices' shape followed by weight's row length and of weight's dtype,
// out apart from both). The plan is the Map plan of out's elements as [n, D] (n indices):
// each core copies its elements, row by row, from the weight row its index names. Phase 2
// first checks every index (Executor::CheckRunValues): one outside [0, rows) is refused with
// kInvalid, naming it, and nothing is written. A copy: every element bitwise its source.
Status PrepareGather(Op op, const GatherOperands& operands, const tiling::Options& options,
                     uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_INDEX_EXECUTOR_H_
