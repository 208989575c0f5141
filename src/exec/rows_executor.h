// The row executor: the middle end of every Rows operator (statistics along dim, then each
// element from its row's: Softmax, LogSoftmax in f32 and double lanes, their gradients).
#ifndef HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

// The plan (the reduction planner's, around dim) and the executor of a Rows operator. Pre:
// the front end checked every operand (inputs of out's shape, dim in range). Inputs: the
// operator's (x; or dy and y), in its list order.
Status PrepareRows(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_ROWS_EXECUTOR_H_
