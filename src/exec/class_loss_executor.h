// The ClassLoss kind's middle end (NLLLoss, NLLLoss2d and their gradients): a loss that reads
// one class per position, the one its target names, from checked operands
// (src/aclnn/class_loss_front_end.cc).
#ifndef HOSTNN_SRC_EXEC_CLASS_LOSS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_CLASS_LOSS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct ClassLossOperands {
  // self viewed as [outer, classes, inner]: the classes along one dim (NLLLoss's [N, C] and [C],
  // NLLLoss2d's [N, C, H, W] with inner H * W); a position is one (o, i), target [outer, inner].
  Operand self, target, weight;
  Operand grad_output, total_weight;  // a gradient's (its totalWeight input)
  Operand out, total_weight_out;      // the forward's outputs, a gradient's out
  int64_t outer = 1, classes = 1, inner = 1;
  // The scalar parameters in the list's order: reduction (0 none, 1 mean, 2 sum), ignoreIndex.
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand (dtypes, shapes, storage, overlap) and the
// reduction. Phase 2 first reads every target (Executor::CheckRunValues): one that is neither
// ignoreIndex nor in [0, classes) is refused with kInvalid, naming it, and nothing is
// written. Then, with w the weight of a position's class (0 where the target is ignoreIndex)
// and x self's element at it:
// - the forward writes -w x per position (reduction none: one product rounded once; an
//   ignored position +0), or the sum of those terms and of the weights in double, a fixed
//   chunk of positions at a time with the chunks added in order, so that the bits do not
//   depend on the thread count (mean: the terms' sum divided by the weights'); out the loss
//   and totalWeightOut the weights' total (mean, sum), each rounded once to f32 and to its
//   dtype. An empty self writes nothing (none), NaN (mean) or 0 (sum), and totalWeightOut 0;
// - the gradient writes zeros over out but at each position's class, -w g rounded once
//   (g gradOutput's element of the position, or its one element; divided by totalWeight's
//   for the mean). An empty self writes nothing.
Status PrepareClassLoss(Op op, const ClassLossOperands& operands, const tiling::Options& options,
                        uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_CLASS_LOSS_EXECUTOR_H_
