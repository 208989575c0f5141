// The gated linear units' middle end (Glu, SwiGlu, GeGlu and their gradients): self is
// split along dim into halves a and b, which are two views of self over half its shape
// (b starts half the dim's extent further on). Every operand is then a view over that half
// shape (the gradients' out, too, as its halves da and db), and the units are elementwise
// over it: the elementwise planner cuts the half shape into per-core blocks and UB tiles,
// and each tile runs the kernel on contiguous runs of every operand (direct), or on f32
// copies gathered from any strides and dtypes (gathered).
#ifndef HOSTNN_SRC_EXEC_SPLIT_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_SPLIT_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/eltwise_executor.h"

namespace hostnn {
namespace exec {

// A checked call of a split operator.
struct SplitOperands {
  Operand self;  // the tensor split (x of SwiGlu); its dim extent is even
  Operand dy;    // the gradients' incoming gradient (half shape); unset for the forwards
  Operand act;   // GeGlu's outGelu (an output) / GeGluBackward's gelu (an input); or unset
  Operand out;   // the forwards: half shape; the gradients: self's shape (both halves)
  int64_t dim = 0;            // in [0, rank)
  bool tanh = false;          // GeGlu's approximate 1: gelu's tanh form
  bool activate_left = false;  // GeGluV3: the gate is the first half
};

// Pre: the front end checked every operand (src/aclnn/split_front_end.cc).
Status PrepareSplit(Op op, const SplitOperands& operands, const tiling::Options& options,
                    uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_SPLIT_EXECUTOR_H_
