// The LogSoftmax forward executor for a DOUBLE out: computed in double, as CANN computes it
// after casting self to DOUBLE.
#ifndef HOSTNN_SRC_EXEC_LOGSOFTMAX_F64_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_LOGSOFTMAX_F64_EXECUTOR_H_

#include <memory>

#include "hostnn/tiling.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"

namespace hostnn {
namespace exec {

// Pre: layout's operands are (self, out), out DOUBLE, self FLOAT, FLOAT16, BFLOAT16 or
// DOUBLE; plan is the forward's reduction plan for DOUBLE.
Executor* MakeLogSoftmaxF64Executor(Op op, std::shared_ptr<const tiling::Plan> plan,
                                    const core::FusedLayout& layout);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_LOGSOFTMAX_F64_EXECUTOR_H_
