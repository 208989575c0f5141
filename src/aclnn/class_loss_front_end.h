// The front end of the ClassLoss kind (NLLLoss, NLLLoss2d, NLLLossBackward,
// NLLLoss2dBackward): their checks in the order of CANN's Atlas A2 op_api
// (loss/nll_loss/op_api/aclnn_nll_loss.cpp, aclnn_nll_loss2d.cpp,
// loss/nll_loss_grad/op_api/aclnn_nll_loss_backward.cpp, aclnn_nll_loss2d_backward.cpp), then
// their middle end (src/exec/class_loss_executor.h).
#ifndef HOSTNN_SRC_ACLNN_CLASS_LOSS_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_CLASS_LOSS_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null tensors (161001, every tensor required); then 161002 for, in each op_api's order:
// - NLLLoss, NLLLoss2d: dtypes (weight's not self's, out's or totalWeightOut's not one self's
//   casts to, self's not FLOAT, FLOAT16 or BFLOAT16, target's not INT64, UINT8 or INT32),
//   the reduction outside [0, 2], shapes (self [N, C] with target [N], or [C] with a 0-d
//   target; NLLLoss2d's self [N, C, H, W] with target [N, H, W]; weight [C] (NLLLoss2d: C
//   along its first dim, C elements); out [N] (none with a batch; NLLLoss2d: target's shape)
//   or one element; totalWeightOut one element; a self with no classes but a target with
//   elements);
// - NLLLossBackward: dtypes (weight, gradOutput and totalWeight not self's, out's not one
//   self's casts to, self's or target's as above), the reduction, shapes (self and target as
//   the forward's, totalWeight one element, gradOutput [N] (none with a batch) or one
//   element, out self's); NLLLoss2dBackward: dtypes (every float tensor self's), shapes
//   (gradOutput target's (none) or one element, then as NLLLoss2d's, out self's,
//   totalWeight one element), then the reduction.
// More than 8 dims and bad descriptors are refused as they are read. An empty self runs
// nothing but the forward's fill (mean NaN, sum 0, totalWeightOut 0). Then storage, and the
// outputs apart from each other and from every input. Nothing is written on failure.
// Targets are checked against [0, C) (or ignoreIndex) when phase 2 runs.
Status PrepareClassLossChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_CLASS_LOSS_FRONT_END_H_
