// PreluBackward's executor: a Map pass (gradInput) with a ColumnSums stage (gradWeight)
// over the plan's channel sums (tiling::ChannelSumsPlan): the elements, in the row-major
// order of self's shape, are rows of S = prod(shape[2:]) elements, row r = (n, c) with c =
// r % C (self of rank <= 1: one row of C = 1), cut into segments of
// tiling::kChannelSumSegment; the plan's units (a segment, or whole rows) and their cores
// are the plan's. Each core gathers its units' gradOutput (broadcast) and self into f32
// scratch, runs the segment kernel (gradInput and the segment's sum in double) and scatters
// gradInput; the segments' sums land in the stage's slots, which it adds in a fixed order
// after the cores are done (src/exec/column_sums.h).

#include "src/exec/prelu_backward_executor.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/column_sums.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

class PreluBackwardExecutor final : public Executor {
 public:
  PreluBackwardExecutor(Op op, std::shared_ptr<const tiling::Plan> plan,
                        const core::FusedLayout& layout, const core::FusedLayout& w_layout,
                        const core::FusedLayout& gw_layout, DType dtype, int64_t weights)
      : Executor(op, std::move(plan)),
        layout_(layout),
        w_layout_(w_layout),
        dtype_(dtype),
        sums_(plan_->channel_sums, gw_layout, dtype, weights == 1),
        weights_(weights) {
    codec_ = MakeCodec(dtype);
    kernel_ = kernels::GetPreluBackwardSegment();
    target_ = kernels::ChosenTargetName();
    const tiling::ChannelSumsPlan& units = sums_.units();
    w_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(units.channels));
    core_bytes_ =
        AlignWorkspace(3 * sizeof(float) * static_cast<uint64_t>(tiling::kChannelSumSegment));
    // The weights, the segments' sums, each core's three tiles, the channels' totals.
    totals_at_ =
        w_bytes_ + sums_.slots_bytes() + core_bytes_ * static_cast<uint64_t>(units.block_dim);
    workspace_bytes_ = totals_at_ + sums_.totals_bytes();
  }

  std::string KernelPath() const override {
    const DType dtypes[3] = {dtype_, dtype_, dtype_};
    return DescribeKernelPath(target_, false, layout_.dense, dtypes, 3, false) + ", per-channel sums";
  }

  void Run(char* workspace) const override {
    const int64_t channels = sums_.units().channels;
    float* w = reinterpret_cast<float*>(workspace);
    GatherF32(w_layout_, w_layout_.operands[0], codec_, 0, weights_, w);
    if (weights_ == 1) std::fill(w + 1, w + channels, w[0]);
    launch::LaunchRunCore(sums_.units().block_dim, this, &PreluBackwardExecutor::RunCore,
                          workspace);
    // The weights are no longer needed: their room holds the rounded sums.
    sums_.Finish(reinterpret_cast<const double*>(workspace + w_bytes_),
                 reinterpret_cast<double*>(workspace + totals_at_), w);
  }

 private:
  // gradInput of the core's units, and each segment's sum of the gradWeight term into its
  // slot (the ColumnSums stage).
  void RunCore(int64_t core, char* workspace) const {
    const tiling::ChannelSumsPlan& units = sums_.units();
    const float* w = reinterpret_cast<const float*>(workspace);
    double* slots = reinterpret_cast<double*>(workspace + w_bytes_);
    float* dy =
        reinterpret_cast<float*>(workspace + w_bytes_ + sums_.slots_bytes() + core * core_bytes_);
    float* x = dy + tiling::kChannelSumSegment;
    float* gi = x + tiling::kChannelSumSegment;
    for (int64_t u = units.UnitBegin(core); u < units.UnitEnd(core); ++u) {
      int64_t row, offset, len;  // the unit's first row, its offset in that row, its length
      units.Unit(u, &row, &offset, &len);
      const int64_t start = row * units.row_len + offset;
      GatherF32(layout_, layout_.operands[0], codec_, start, len, dy);
      GatherF32(layout_, layout_.operands[1], codec_, start, len, x);
      sums_.ForEachSegment(start, len, [&](int64_t s, int64_t n, int64_t slot, int64_t r) {
        slots[slot] = kernel_(dy + s, x + s, w[r % units.channels], gi + s, static_cast<size_t>(n));
      });
      ScatterF32(layout_, layout_.operands[2], codec_, start, len, gi);
    }
  }

  core::FusedLayout layout_, w_layout_;
  DType dtype_;
  ColumnSums sums_;  // gradWeight, over the plan's channel sums
  int64_t weights_;
  uint64_t w_bytes_ = 0, core_bytes_ = 0;
  uint64_t totals_at_ = 0;  // where the channels' totals start in the workspace
  OperandCodec codec_;
  kernels::PreluBackwardSegmentFn kernel_ = nullptr;
  const char* target_ = "";
};

}  // namespace

Status PreparePreluBackward(Op op, const PreluBackwardOperands& o, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor) {
  const std::vector<int64_t>& shape = o.x.view->shape;
  const DType dtype = o.x.view->dtype;
  tiling::Problem problem{op, dtype, shape, 0, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  const bool empty = o.x.span->numel == 0;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, empty, options, &plan));
  if (empty) {
    return PrepareEmpty(op, dtype, workspace_size, executor);
  }
  const Operand* all[3] = {&o.dy, &o.x, &o.grad_input};
  std::vector<int64_t> strides[3];
  char* firsts[3];
  DType dtypes[3];
  for (int k = 0; k < 3; ++k) {
    firsts[k] = all[k]->span->first;
    dtypes[k] = dtype;
    if (!core::BroadcastStrides(all[k]->view->shape, all[k]->span->strides, shape, &strides[k])) {
      return Status::Inner(std::string(GetOpInfo(op).name) +
                           ": gradOutput does not broadcast to self");
    }
  }
  core::FusedLayout layout, w_layout, grad_weight_layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, 3, firsts, dtypes, strides, &layout));
  HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.w, &w_layout));
  HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.grad_weight, &grad_weight_layout));
  auto* exec = new PreluBackwardExecutor(op, std::move(plan), layout, w_layout, grad_weight_layout,
                                         dtype, o.w.span->numel);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
