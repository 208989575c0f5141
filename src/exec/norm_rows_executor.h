// The normalisations' middle end (ShapeRule TrailingDims: LayerNorm, RmsNorm): the reduction
// plan's AR rows of x viewed as [rows, cols] (cols the product of the normalised dims), each
// row normalised by the operator's row function (kernels::GetNormRow) with the per-column
// operands beside it, and its statistics written as outputs. A normalisation is its row
// function and its list line: this executor knows none by name.
#ifndef HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct NormRowsOperands {
  Operand x, y;  // input and out: one shape, [rows, cols] in row-major order
  // Per-column operands of cols elements each (LayerNorm's weight and bias, RmsNorm's
  // gamma), and per-row statistics outputs of rows elements each (LayerNorm's mean and rstd,
  // RmsNorm's rstd), in the row function's order; view null: none.
  Operand cols_in[2];
  Operand stats[2];
  int64_t rows = 0, cols = 0;
  // The scalar parameters in the list's order (ToFloat values, exact integers); the
  // executor reads them by name once (kernels/params.h).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand; rows > 0. cols == 0 (an empty row: LayerNorm's
// only) writes 0 to every stats[0] (the mean) and NaN to every stats[1] (rstd), as CANN's
// op_api fills them. Otherwise each row's y and statistics come from the row function,
// computed in f32 and double and rounded once to each output's dtype; the bits do not depend
// on the plan, the team or the SIMD target.
Status PrepareNormRows(Op op, const NormRowsOperands& operands, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
