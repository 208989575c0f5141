// The middle end's operand hand-over and the elementwise path: after the front end's
// checks, resolve (broadcast, fuse, dense or gathered), plan and build the executor.
#ifndef HOSTNN_SRC_EXEC_ELTWISE_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_ELTWISE_EXECUTOR_H_

#include <cstdint>
#include <memory>

#include "hostnn/ops.h"
#include "src/core/check.h"

namespace hostnn {
namespace exec {

// A checked operand: its view and where its elements lie (core::CheckStorage).
struct Operand {
  const TensorView* view = nullptr;
  const core::ViewSpan* span = nullptr;
};
// The inputs the computation reads, in slot order (a gradient: dy, then x or y; a forward
// operator: x), then the output.
struct Operands {
  Operand in[2];
  int num_in = 1;
  Operand out;
  // The scalar parameters' values in the list's order, as f32 (CANN's ToFloat, or in
  // self's dtype), and exactly as integers for an integer computation (rule
  // PromoteIntExact). The executor turns them into the operator's typed parameters once
  // (kernels/params.h).
  float scalars[kMaxScalars] = {};
  int64_t int_scalars[kMaxScalars] = {};
};

// Pre: the front end checked every operand; the inputs broadcast to out's shape. The
// plan's UB spec is the operator's own. One input (a forward operator) or two (a
// gradient: dy, x).
Status PrepareEltwise(Op op, const Operands& operands, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor);

// Resolves the options for `problem` (even when it is empty, so that a bad setting is
// reported either way), then plans and checks it unless it is empty, through the plan
// cache (tiling::MakeSharedPlan). Errors carry the operator's name.
Status PlanOp(Op op, const tiling::Problem& problem, bool empty, const tiling::Options& options,
              std::shared_ptr<const tiling::Plan>* plan);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_ELTWISE_EXECUTOR_H_
