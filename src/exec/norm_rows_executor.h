// The normalisations' middle end (ShapeRules TrailingDims and ChannelGroups: LayerNorm,
// RmsNorm, AddRmsNorm, AddLayerNorm, GroupNorm and the gradients):
// the rows of [rows, cols] (cols the product of the normalised dims), each row computed by
// the operator's row function (kernels::GetNorm) with its per-column and per-row operands
// beside it; its statistics written as outputs, and a gradient's column terms summed over
// the rows in a fixed order. A normalisation is its functions and its list line: this
// executor knows none by name.
#ifndef HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "kernels/kernels.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

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

// Pre: the front end checked every operand. cols == 0 (an empty row: LayerNorm's only) writes
// 0 to every stats[0] (the mean) and NaN to every stats[1] (rstd), as CANN's op_api fills
// them; rows == 0 (a gradient's) writes 0 to every column sum. Otherwise each row's result
// (where y is given: a gradient's dx may be masked out) and statistics come from the row
// function, computed in f32 and double and rounded once to each output's dtype, and the
// column sums are added block by block (kNormSumRows) in block order, in double, and rounded
// once; the bits do not depend on the plan, the team or the SIMD target.
Status PrepareNormRows(Op op, const NormRowsOperands& operands, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
