// The front end's part for the channel-weight operators (shape rule ChannelWeight): Prelu's
// shape check and the views that hand its weight to the elementwise middle end, and
// PreluBackward's checks (two outputs) before its own middle end (src/exec/).
#ifndef HOSTNN_SRC_ACLNN_PRELU_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_PRELU_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/core/check.h"

namespace hostnn {

// C of a channel weight: self.size(1), or 1 for self of rank <= 1.
int64_t ChannelCount(const std::vector<int64_t>& self_shape);

// Prelu's shapes in CANN's order: out equals self, then weight has 1 or C elements (any
// rank). 161002 naming the parameter otherwise.
Status CheckChannelWeightShapes(const char* op, const char* self_param, const TensorView& self,
                                const char* weight_param, const TensorView& weight,
                                const char* out_param, const TensorView& out);

// self, weight and out as the elementwise middle end takes them: the weight broadcast along
// dim 1 (a 1-element weight as a scalar). A weight of several non-mergeable dims splits
// dim 1 of self and out into those dims, so every stride stays exact.
struct ChannelWeightViews {
  TensorView self, weight, out;
  core::ViewSpan self_span, weight_span, out_span;
};
Status MakeChannelWeightViews(const char* op, const TensorView& self,
                              const core::ViewSpan& self_span, const TensorView& weight,
                              const core::ViewSpan& weight_span, const TensorView& out,
                              const core::ViewSpan& out_span, ChannelWeightViews* views);

// PreluBackward's phase 1 (signature GradEltwise2Out): every check in CANN's order, then the
// executor (src/exec/prelu_backward_executor.h). Nothing is written on failure.
Status PreparePreluBackward(const OpArgs& args, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_PRELU_FRONT_END_H_
