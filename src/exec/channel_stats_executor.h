// The per-channel normalisations' middle end (ShapeRule ChannelStats: BatchNorm and its
// gradient): x [N, C, ...] as N * C segments of S elements (S the product of the dims after
// C), segment r one sample's channel r % C. Three steps, each bitwise independent of the team:
//   1. every segment's sums (kernels::ChannelNormFns), on the plan's cores, into its own slots;
//   2. per channel, its N segments' sums combined in sample order, in double (the channel's
//      statistics, the per-channel outputs);
//   3. every segment's result from its channel's coefficients, on the plan's cores.
// Step 1 is skipped where nothing needs the sums (inference with no column sum asked for),
// step 3 where no y is wanted (a gradient's gradInput masked out).
#ifndef HOSTNN_SRC_EXEC_CHANNEL_STATS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_CHANNEL_STATS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct ChannelStatsOperands {
  // x [N, C, ...]; dy (a gradient's gradOut, x's shape; view null: the forward); y the result
  // of x's shape (output, or gradInput; view null: not wanted).
  Operand x, dy, y;
  // Per-channel inputs of C elements, view null where not given: weight (1) and bias (0, the
  // forward's); mean (0) and var (1): the running statistics a forward in inference or a
  // gradient in inference reads, the forward's saved mean and variance a gradient in training
  // reads, the running statistics a forward in training updates (running_out).
  Operand weight, bias, mean, var;
  // Per-channel outputs of C elements, view null where not wanted: the forward's saved mean
  // and variance (training), and its running mean and variance updated (training: the same
  // tensors as mean and var); the gradient's gradWeight and gradBias.
  Operand save_mean, save_var, running_mean, running_var, grad_weight, grad_bias;
  int64_t n = 0, c = 0, s = 0;
  bool training = true;
  float momentum = 0.1f, eps = 1e-5f;  // the f32 values CANN's kernel attributes hold
};

// Pre: the front end checked every operand and n * c * s > 0. The forward in training:
// per channel, mean and the biased variance var of its N * S elements (each segment's mean
// and centred sum of squares in double, combined in sample order about the channel's mean), y =
// (x - mean) * rstd * weight + bias with rstd = 1 / sqrt(var + eps) in double lanes, rounded
// once; save_mean = mean, save_var = var; running_mean = (1 - momentum) * running_mean +
// momentum * mean and running_var likewise with the unbiased var * M / (M - 1) (M = N * S;
// NaN for M = 1). In inference: y from the running statistics, nothing else written. The
// gradient: invstd = 1 / sqrt(var + eps); gradBias = sum(dy), gradWeight = sum(dy * (x -
// mean)) * invstd (the segments' double sums added in sample order); gradInput = (dy -
// (gradBias + xhat * gradWeight) / M) * invstd * weight in training, dy * invstd * weight in
// inference. Every per-channel output rounded once from double.
Status PrepareChannelStats(Op op, const ChannelStatsOperands& operands,
                           const tiling::Options& options, uint64_t* workspace_size,
                           ExecutorPtr* executor);

// An empty x (a forward's): save_mean (where given) filled with 0 and save_var with NaN, each
// whole whatever its shape, as CANN's op_api fills them; nothing else runs.
Status PrepareChannelStatsEmpty(Op op, const ChannelStatsOperands& operands,
                                uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_CHANNEL_STATS_EXECUTOR_H_
