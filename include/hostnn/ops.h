// The native C++ API: the operators of hostnn/op_list.def over TensorViews. The CANN C API in
// include/aclnnop/ is a thin layer over this. Two phases, as in CANN: Prepare validates,
// resolves and plans (nothing is touched), Execute runs the plan. All functions are
// thread-safe; an Executor must not be run by two threads at once.
#ifndef HOSTNN_OPS_H_
#define HOSTNN_OPS_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "hostnn/status.h"
#include "hostnn/tensor.h"
#include "hostnn/tiling.h"

namespace hostnn {

// A scalar parameter's value. Not `given`, the operator's default (PyTorch's, in
// op_list.def) is used; `null` is CANN's null aclScalar, refused (kNullptr). `dtype` is the
// aclScalar's (a flag's: BOOL). The kernels compute with `value` rounded to f32, as
// CANN's op_api reads it.
struct OpScalar {
  bool given = false;
  double value = 0.0;
  DType dtype = DType::kFloat64;
  bool null = false;
  // An INT64 scalar's exact value, for where `value` cannot hold it (past 2^53; the C API
  // sets it). Below 2^53 `value` is used.
  int64_t int_value = 0;
};

// The operands of one call, by slot: in[k] is the operator's k-th input and out[k] its k-th
// output in CANN's parameter order, named GetOpInfo(op).in_names[k] and out_names[k] (the
// list's Inputs and Outputs: SiluBackward's in[0] is gradOutput, in[1] self, out[0]
// gradInput; GeGlu's out[1] is outGelu). Slots past the operator's own are ignored; an
// in-place operator writes in[0] and ignores out[0]. `dim` is a reduction's or a gated
// unit's dim. `scalars` are the operator's scalar parameters in its list order
// (GetOpInfo(op).scalars); those left unset take their defaults.
struct OpArgs {
  Op op = Op::kSiluBackward;
  const TensorView* in[kMaxIn] = {};
  const TensorView* out[kMaxOut] = {};
  int64_t dim = 0;
  // An aclIntArray parameter (LayerNorm's normalizedShape): its values, and whether one was
  // given (CANN's null aclIntArray is refused, kNullptr).
  std::vector<int64_t> int_array;
  bool int_array_given = false;
  // An aclBoolArray parameter (LayerNormBackward's outputMask): its values, and whether one
  // was given.
  std::vector<bool> bool_array;
  bool bool_array_given = false;
  OpScalar scalars[kMaxScalars];
  // The most dims a tensor may have; 0: the operator's own (MaxRank(op)). An entry point
  // that checks its tensors by another operator's rules sets its own (aclnnGeluV2: any).
  int max_rank = 0;
  // Set: the formats are not checked by the operator's FormatRuleOf (such an entry point:
  // aclnnGeluV2, whose op_api checks no format, over Gelu's checks).
  bool any_format = false;
};


class Executor;
struct ExecutorDeleter {
  void operator()(const Executor* e) const;
};
using ExecutorPtr = std::unique_ptr<Executor, ExecutorDeleter>;

// Phase 1. Checks in SPEC order (null -> kNullptr; dtype, rank, shape, broadcast, dim,
// storage bounds, output overlap -> kInvalid), then plans. On success *executor holds the
// plan and *workspace_size the scratch bytes Execute needs. Nothing is written anywhere
// on failure (the out-parameters included).
Status Prepare(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size,
               ExecutorPtr* executor);

// Phase 2. A workspace smaller than asked, or null with a non-zero size, is kInvalid and
// nothing is written. May be called again on the same executor.
Status Execute(const Executor& executor, void* workspace, uint64_t workspace_size);

// The plan an executor will run.
const tiling::Plan& GetPlan(const Executor& executor);
// What an executor runs, for reports: the SIMD target its kernels were chosen for, direct
// or gathered operands, how 16-bit dtypes are converted, and whether the output is written
// with non-temporal stores ("AVX3, direct, f16 F16C, stream stores").
std::string KernelPath(const Executor& executor);

// Both phases in one call, with an internally allocated workspace.
Status Run(const OpArgs& args, const tiling::Options& options = {});

}  // namespace hostnn

#endif  // HOSTNN_OPS_H_
