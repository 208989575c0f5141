// The normalisations' middle end (ShapeRule TrailingDims: LayerNorm): the reduction plan's AR
// rows of x viewed as [rows, cols] (cols the product of the normalised dims), each row
// normalised by the operator's row kernel (kernels::NormRows) with the per-column operands
// beside it, and its statistics written as outputs.
#ifndef HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct NormRowsOperands {
  Operand x, y;         // input and out: one shape, [rows, cols] in row-major order
  Operand gamma, beta;  // per-column operands of cols elements each; view null: none
  Operand mean, rstd;   // per-row statistics outputs of rows elements each; null: none
  int64_t rows = 0, cols = 0;
  // The scalar parameters in the list's order (ToFloat values, exact integers); the
  // executor reads them by name once (kernels/params.h).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand; rows > 0. cols == 0 (an empty row) writes 0 to
// every mean and NaN to every rstd, as CANN's op_api fills them. Otherwise each row's y,
// mean and rstd come from the row kernel, computed in f32 and double and rounded once to
// each output's dtype; the bits do not depend on the plan, the team or the SIMD target.
Status PrepareNormRows(Op op, const NormRowsOperands& operands, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_NORM_ROWS_EXECUTOR_H_
