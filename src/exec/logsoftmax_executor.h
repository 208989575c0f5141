// The reduction path of the middle end: LogSoftmax's and LogSoftmaxBackward's plans and
// executors.
#ifndef HOSTNN_SRC_EXEC_LOGSOFTMAX_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_LOGSOFTMAX_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/eltwise_executor.h"

namespace hostnn {
namespace exec {

// Pre: the front end checked every operand (equal shapes, dim in range). Backward: inputs
// dy and y; forward (PrepareLogSoftmax): input x.
Status PrepareLogSoftmax(Op op, const Operands& operands, int64_t dim,
                         const tiling::Options& options, uint64_t* workspace_size,
                         ExecutorPtr* executor);
Status PrepareLogSoftmaxBackward(Op op, const Operands& operands, int64_t dim,
                                 const tiling::Options& options, uint64_t* workspace_size,
                                 ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_LOGSOFTMAX_EXECUTOR_H_
