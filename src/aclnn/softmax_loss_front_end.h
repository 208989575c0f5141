// The front end of the SoftmaxLoss kind (CrossEntropyLoss, CrossEntropyLossGrad,
// SoftmaxCrossEntropyWithLogits): their
// checks in the order of CANN's generated entry points (the dtypes of each operator's
// definition, loss/cross_entropy_loss/op_host/cross_entropy_loss_def.cpp and its gradient's)
// and their Atlas A2 tiling (cross_entropy_loss_tiling.cpp, cross_entropy_loss_grad_tiling.cpp),
// then their middle end (src/exec/softmax_loss_executor.h).
#ifndef HOSTNN_SRC_ACLNN_SOFTMAX_LOSS_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_SOFTMAX_LOSS_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null tensors (161001: CrossEntropyLoss's input, target and its four outputs; the
// gradient's gradLoss, logProb, target and out); more than 8 dims and bad descriptors as
// they are read; then 161002 for the dtypes (CrossEntropyLoss: input FLOAT, FLOAT16 or
// BFLOAT16, target INT64 or INT32, weightOptional FLOAT, every output input's; the gradient:
// gradLoss one of the three, logProb, gradZlossOptional, lseForZlossOptional and out
// gradLoss's, target INT64, weightOptional FLOAT); then 561002, as CANN's tiling refuses them:
// the reduction not "none", "mean" or "sum" (a null pointer is "mean"), labelSmoothing
// outside [0, 1] (NaN too), and the shapes (input or logProb [N, C] with C >= 1, target [N],
// weightOptional [C]; lossOut or gradLoss [N] for "none", one element (0-d or [1]) for
// "mean" and "sum"; logProbOut and out [N, C]). zlossOut and lseForZlossOut, and the
// gradient's gradZlossOptional and lseForZlossOptional, are checked for their dtypes only:
// nothing reads or writes them (CANN's zloss does not act). Then storage, and lossOut,
// logProbOut and out apart from each other and from every input. Nothing is written on
// failure. Targets are checked against [0, C) (or ignoreIndex) when phase 2 runs.
// SoftmaxCrossEntropyWithLogits, as its op_api: nulls (161001), each descriptor, then 161002
// for every tensor's dtype not FLOAT, FLOAT16 or BFLOAT16, loss or backprop not features',
// features or labels not 2-d; then (161002, CANN checks none) labels not broadcasting to
// features ([N, C], [1, C], [N, 1], [1, 1]), loss not [N], backprop not [N, C]; storage, and
// loss and backprop apart from each other and from both inputs.
Status PrepareSoftmaxLossChecked(const OpArgs& args, const tiling::Options& options,
                                 uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_SOFTMAX_LOSS_FRONT_END_H_
