// The SoftmaxLoss kind's middle end (CrossEntropyLoss, CrossEntropyLossGrad,
// SoftmaxCrossEntropyWithLogits): a loss of each row's log-softmax, from checked operands
// (src/aclnn/softmax_loss_front_end.cc).
#ifndef HOSTNN_SRC_EXEC_SOFTMAX_LOSS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_SOFTMAX_LOSS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct SoftmaxLossOperands {
  // rows_in [rows, classes]: the forward's input, the gradient's logProb; target [rows];
  // weight [classes] (view null: none).
  Operand rows_in, target, weight;
  Operand grad_loss;       // the gradient's: [rows] (none) or one element
  Operand loss, log_prob;  // the forward's outputs
  Operand out;             // the gradient's
  // SoftmaxCrossEntropyWithLogits': labels [rows, classes] or broadcast to it (any of the
  // three float dtypes); rows_in is features, loss [rows] and log_prob backprop [rows, classes].
  Operand labels;
  int64_t rows = 0, classes = 1;
  // The scalar parameters in the list's order: the reduction's mode (0 none, 1 mean, 2 sum),
  // ignoreIndex, labelSmoothing, lseSquareScaleForZloss (and the forward's returnZloss).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand and the attributes. Phase 2 first reads every
// target (Executor::CheckRunValues): one that is neither ignoreIndex nor in [0, classes) is
// refused with kInvalid, naming it, and nothing is written. Then, per row n with t its target,
// w_c the weight (1 without one), W = sum_c w_c and e labelSmoothing:
// - the forward writes logProb[n, :] with LogSoftmax's kernels (the bits of
//   aclnnLogSoftmax of the row), and the row's loss in double from the row's max and log-sum,
//   l_n = -(1 - e) w_t lp_t - (e / C) (sum_c w_c (x_c - max) - log_sum W) (0 for an ignored
//   row): lossOut the l_n rounded once (none), or their sum, and for the mean over the sum
//   of w_t of the rows not ignored, each added in row order in double, so the bits do not
//   depend on the thread count; rounded once to f32 and to the dtype. No rows: nothing
//   (none), NaN (mean) or 0 (sum);
// - the gradient writes, with g the row's gradLoss (the one element for a sum, over the sum
//   of w_t of the rows not ignored, in row order in double, for a mean), a = g (1 - e) w_t
//   and b = g e / C: out[n, c] = exp(lp_c) (a + b W) - b w_c (kernels::SoftmaxLossKernels's
//   f32 row), and at c = t a expm1(lp_t) + b (W exp(lp_t) - w_t) in double; an ignored row
//   +0. No rows: nothing.
// zlossOut, lseForZlossOut, gradZlossOptional and lseForZlossOptional are not touched.
// SoftmaxCrossEntropyWithLogits (dense labels y, nothing to check when it runs): per row,
// from its max and log-sum lse' (LogSoftmax's), loss[n] = -sum_c y_c (x_c - (max + lse')) in
// double (kernels::SoftmaxLossKernels::shifted_sum), rounded once to f32 and to the dtype,
// and backprop[n, c] = exp((x_c - max) - lse') - y_c in f32 lanes, rounded once. No rows:
// nothing.
Status PrepareSoftmaxLoss(Op op, const SoftmaxLossOperands& operands,
                          const tiling::Options& options, uint64_t* workspace_size,
                          ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_SOFTMAX_LOSS_EXECUTOR_H_
