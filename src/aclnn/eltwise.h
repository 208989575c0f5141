// The shared middle of the three elementwise operators: after an operator's own checks,
// resolve (broadcast, fuse, dense or gathered), plan and build the executor.
#ifndef HOSTNN_SRC_ACLNN_ELTWISE_H_
#define HOSTNN_SRC_ACLNN_ELTWISE_H_

#include <memory>

#include "hostnn/ops.h"
#include "src/core/check.h"

namespace hostnn {

// Pre: every view passed the checks; both inputs broadcast to out's shape. The plan's UB
// spec is the operator's own (tiling::FindEltwiseUbSpec).
Status PrepareEltwise(Op op, const TensorView& grad_output, const core::ViewSpan& dy_span,
                      const TensorView& self, const core::ViewSpan& x_span, const TensorView& out,
                      const core::ViewSpan& out_span, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor);

// Resolves the options for `problem` (even when it is empty, so that a bad setting is
// reported either way), then plans and checks it unless it is empty, through the plan
// cache (tiling::MakeSharedPlan). Errors carry the operator's name.
Status PlanOp(Op op, const tiling::Problem& problem, bool empty, const tiling::Options& options,
              std::shared_ptr<const tiling::Plan>* plan);

// A named operand of an operator's front end.
struct NamedView {
  const char* param;
  const TensorView* view;
  core::ViewSpan* span;
};
// Null check of every operand (kNullptr names the first missing one).
Status CheckNotNull(const char* op, std::initializer_list<NamedView> views);
// Rank then dims of every operand.
Status CheckRanksAndDims(const char* op, std::initializer_list<NamedView> views);
// Storage bounds of every operand (fills the spans).
Status CheckStorages(const char* op, std::initializer_list<NamedView> views);
// The output does not overlap itself; each input overlaps it only as the same view.
Status CheckOutputAliasing(const char* op, const NamedView& out, std::initializer_list<NamedView> inputs);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_ELTWISE_H_
