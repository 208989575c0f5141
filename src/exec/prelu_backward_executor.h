// PreluBackward's middle end: gradInput elementwise and gradWeight, a sum per channel, from
// checked operands (src/aclnn/prelu_front_end.cc).
#ifndef HOSTNN_SRC_EXEC_PRELU_BACKWARD_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_PRELU_BACKWARD_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct PreluBackwardOperands {
  Operand dy;           // gradOutput: broadcasts to x's shape
  Operand x;            // self
  Operand w;            // weight: 1 or C elements, any rank
  Operand grad_input;   // x's shape
  Operand grad_weight;  // [C], or weight's shape when it has 1 element
};

// Pre: the front end checked every operand (one dtype, shapes). The units and cores are the
// plan's (tiling::ChannelSumsPlan). gradWeight's sums are the same bits for any team size
// and plan: each segment (of tiling::kChannelSumSegment) is summed whole by one core,
// and the segments are added per channel in (n, segment) order, the channels in c order
// for a single weight, in double, rounded once to gradWeight's dtype.
Status PreparePreluBackward(Op op, const PreluBackwardOperands& operands,
                            const tiling::Options& options, uint64_t* workspace_size,
                            ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_PRELU_BACKWARD_EXECUTOR_H_
