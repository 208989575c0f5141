// The front end of the PointLoss kind (MseLoss, MseLossOut, MseLossBackward, the
// BinaryCrossEntropyWithLogits family): their checks in the order of CANN's Atlas A2 op_api
// (loss/mse_loss/op_api/aclnn_mse_loss.cpp, aclnn_mse_loss_out.cpp,
// loss/mse_loss_grad_v2/op_host/op_api/aclnn_mse_loss_backward.cpp,
// loss/sigmoid_cross_entropy_with_logits_v2/op_api/, .../sigmoid_cross_entropy_with_logits_grad_v2/
// op_api/,
// activation/log_sigmoid/op_api/aclnn_binary_cross_entropy_with_logits_target_backward.cpp), then
// their middle end (src/exec/loss_executor.h).
#ifndef HOSTNN_SRC_ACLNN_LOSS_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_LOSS_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null tensors (161001); then 161002 for: MseLoss(Out): self's and target's promoted dtype
// not FLOAT, FLOAT16 or BFLOAT16, then self, target or out not one of those three;
// MseLossBackward: gradOutput or target of another dtype than self, self or out not one of
// the three. The reduction outside [0, 2]. More than 8 dims; the inputs not broadcasting;
// their broadcast shape of more elements than an int64 counts; out not their broadcast shape
// (reduction none, and every gradient), not 0-d (MseLoss's
// mean and sum) or not the broadcast shape without its first dim (MseLossOut's). Then
// storage, out's elements apart, out an input exactly or apart from it (the terms), apart
// from every input (a reduction). An empty input runs nothing, but MseLoss's mean and sum,
// which write NaN and 0 to out. The BinaryCrossEntropyWithLogits family
// (docs/loss_embedding_family.md has the table): null self, target, out, gradOutput (the
// weights may be null); then the forward's dtypes (every tensor one of the three, out
// target's), reduction, dims, shapes (target self's, the weights broadcasting with it, out
// their broadcast or one element); the gradients' dims, dtypes, formats (target's and out's
// self's), shapes (target and out self's, gradOutput and the weights broadcasting to it; an
// empty self skips them), reduction. Nothing is written on failure.
Status PrepareLossChecked(const OpArgs& args, const tiling::Options& options,
                          uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_LOSS_FRONT_END_H_
