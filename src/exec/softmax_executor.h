// The reduction path of the middle end: the softmax family's plans and executors.
#ifndef HOSTNN_SRC_EXEC_SOFTMAX_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_SOFTMAX_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

// The plan and executor of a softmax reduction (LogSoftmax, Softmax and their gradients,
// the operators of Kind Rows: a reduction along dim). Pre: the front end checked
// every operand (equal shapes, dim in range). Backward: inputs dy and y; forward: input x.
Status PrepareSoftmax(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_SOFTMAX_EXECUTOR_H_
