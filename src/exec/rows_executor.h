// The row executor: the middle end of every Rows operator, one executor walking the rows of
// each (statistics along them, then each element from its row's): the softmax family along
// dim (Softmax, LogSoftmax in f32 and double lanes, their gradients), and the normalisations
// (ShapeRules TrailingDims and ChannelGroups: LayerNorm, RmsNorm, AddRmsNorm, AddLayerNorm,
// GroupNorm and the gradients) over the rows of [rows, cols], cols the product of the
// normalised dims, each row with its per-column and per-row operands beside it, its
// statistics written as outputs, and a gradient's column terms summed over the rows in a
// fixed order; and the per-channel normalisations (ShapeRule ChannelStats: BatchNorm and its
// gradient) over x's N * C segments, their statistics per channel. An operator is its row
// function (kernels/row_fns.h) and its list line: the executor knows none by name.
#ifndef HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "kernels/kernels.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

// The plan (the reduction planner's, around dim) and the row executor of the softmax family
// (a Rows operator reduced along dim). Pre: the front end checked every operand (inputs of
// out's shape, dim in range). Inputs: the operator's (x; or dy and y), in its list order.
Status PrepareRows(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor);

// The rows a gradient's column sums are taken over in one block: block b's partial sums (rows
// [b * kNormSumRows, (b + 1) * kNormSumRows), in row order, in double) are one core's, and
// the blocks are added in block order. A constant, so the sums' bits do not depend on the
// plan or the team.
constexpr int64_t kNormSumRows = 64;

struct NormRowsOperands {
  // Row operands and the results, one shape, [rows, cols] in row-major order: x (a forward
  // norm), x1 and x2 (AddRmsNorm; AddLayerNorm's, and its bias where of x1's shape), or dy
  // and x (a gradient; AddLayerNormGrad's dy, x1, x2 and dsum); the operands given come first (view
  // null: none after). y is out[0] (y or dx; view null: not wanted), y2 a second result beside it
  // (AddRmsNorm's xOut = x1 + x2; view null: none, and none without y).
  Operand rows_in[kernels::kNormRowOperands];
  Operand y, y2;
  // Per-column operands of cols elements each (LayerNorm's weight and bias, RmsNorm's gamma,
  // AddLayerNorm's gamma, beta and a per-column bias in cols_in[2]),
  // per-row inputs of rows elements each (RmsNormGrad's rstd), per-row statistics outputs
  // of rows elements each (LayerNorm's mean and rstd, RmsNorm's rstd), and per-column outputs
  // summed over the rows (RmsNormGrad's dgamma; LayerNormBackward's dgamma and dbeta), in the
  // functions' order; view null: none.
  Operand cols_in[kernels::kNormColumnOperands];
  Operand row_in[2];
  Operand stats[2];
  Operand col_sums[2];
  int64_t rows = 0, cols = 0;
  // Per-column operands held per channel (GroupNorm's gamma and beta): a row is cols /
  // channel_len channels of channel_len elements each, row r's being channel group r % groups
  // of the operand's groups * cols / channel_len values. 0: one value per column.
  int64_t channel_len = 0, groups = 1;
  // The scalar parameters in the list's order (ToFloat values, exact integers); the
  // executor reads them by name once (kernels/params.h).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
  // What the plan is made for (tiling::Problem): the dtype ops-nn's tiling reads (undefined:
  // rows_in[0]'s; AddLayerNorm's FLOAT where x1 and x2 differ) and the optional inputs its A2
  // tiling reads (gamma's dtype, AddLayerNorm's bias and additionalOutput, AddLayerNormGrad's
  // dsum), as the front end found them in the call.
  DType plan_dtype = DType::kUndefined;
  tiling::NormInputs norm_inputs;
};

// The plan (the reduction planner's, over [rows, cols]; GroupNorm's over its groups) and the
// row executor of a normalisation. Pre: the front end checked every operand. cols == 0 (an
// empty row: LayerNorm's only) writes 0 to every stats[0] (the mean) and NaN to every
// stats[1] (rstd), as CANN's op_api fills them; rows == 0 (a gradient's) writes 0 to every
// column sum. Otherwise each row's result (where y is given: a gradient's dx may be masked
// out) and statistics come from the row function, computed in f32 and double and rounded once
// to each output's dtype, and the column sums are added block by block (kNormSumRows) in
// block order, in double, and rounded once; the bits do not depend on the plan, the team or
// the SIMD target.
Status PrepareNormRows(Op op, const NormRowsOperands& operands, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor);

// A per-channel normalisation (ShapeRule ChannelStats: BatchNorm and its gradient): x [N, C,
// ...] as N * C segments of S elements (S the product of the dims after C), segment r one
// sample's channel r % C, in three steps, each bitwise independent of the team:
//   1. every segment's sums, on the plan's cores, into its own slots;
//   2. per channel, its N segments' sums combined in sample order, in double (the channel's
//      statistics, the per-channel outputs);
//   3. every segment's result from its channel's coefficients, on the plan's cores.
// Step 1 is skipped where nothing needs the sums (inference with no column sum asked for),
// step 3 where no y is wanted (a gradient's gradInput masked out).
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

#endif  // HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_
