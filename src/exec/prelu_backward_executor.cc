// PreluBackward's executor, over the plan's channel sums (tiling::ChannelSumsPlan): the
// elements, in the row-major order of self's shape, are rows of S = prod(shape[2:])
// elements, row r = (n, c) with c = r % C (self of rank <= 1: one row of C = 1), cut into
// segments of tiling::kChannelSumSegment; the plan's units (a segment, or whole rows) and
// their cores are the plan's. Each core gathers its units' gradOutput (broadcast) and self
// into f32 scratch, runs the segment kernel (gradInput and the segment's sum in double) and
// scatters gradInput; the segment sums land in the workspace, and after the cores are done
// they are added in a fixed order (see the header).

#include "src/exec/prelu_backward_executor.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

constexpr uint64_t kAlign = 64;
uint64_t AlignUp(uint64_t v) { return (v + kAlign - 1) / kAlign * kAlign; }

// One operand over its own shape (the weight, gradWeight).
core::FusedLayout OwnLayout(const Operand& o) {
  char* first = o.span->first;
  const DType dtype = o.view->dtype;
  const std::vector<int64_t> strides = o.span->strides;
  return core::Fuse(o.view->shape, 1, &first, &dtype, &strides);
}

class PreluBackwardExecutor final : public Executor {
 public:
  PreluBackwardExecutor(Op op, std::shared_ptr<const tiling::Plan> plan,
                        const core::FusedLayout& layout, const core::FusedLayout& w_layout,
                        const core::FusedLayout& gw_layout, DType dtype, int64_t weights)
      : Executor(op, std::move(plan)),
        layout_(layout),
        w_layout_(w_layout),
        gw_layout_(gw_layout),
        dtype_(dtype),
        units_(plan_->channel_sums),
        weights_(weights) {
    codec_ = MakeCodec(dtype);
    kernel_ = kernels::GetPreluBackwardSegment();
    target_ = kernels::ChosenTargetName();
    w_bytes_ = AlignUp(sizeof(float) * static_cast<uint64_t>(units_.channels));
    sums_bytes_ =
        AlignUp(sizeof(double) * static_cast<uint64_t>(units_.rows * units_.segs_per_row));
    core_bytes_ = AlignUp(3 * sizeof(float) * static_cast<uint64_t>(tiling::kChannelSumSegment));
    // The weights, the segment sums, each core's three tiles, the channels' totals.
    totals_at_ = w_bytes_ + sums_bytes_ + core_bytes_ * static_cast<uint64_t>(units_.block_dim);
    workspace_bytes_ = totals_at_ + sizeof(double) * static_cast<uint64_t>(units_.channels);
  }

  std::string KernelPath() const override {
    const DType dtypes[3] = {dtype_, dtype_, dtype_};
    return DescribeKernelPath(target_, false, dtypes, 3, false) + ", per-channel sums";
  }

  void Run(char* workspace) const override {
    float* w = reinterpret_cast<float*>(workspace);
    GatherF32(w_layout_, w_layout_.operands[0], codec_, 0, weights_, w);
    if (weights_ == 1) std::fill(w + 1, w + units_.channels, w[0]);
    launch::LaunchRunCore(units_.block_dim, this, &PreluBackwardExecutor::RunCore, workspace);
    Finish(reinterpret_cast<const double*>(workspace + w_bytes_),
           reinterpret_cast<double*>(workspace + totals_at_), workspace);
  }

 private:
  void RunCore(int64_t core, char* workspace) const {
    const float* w = reinterpret_cast<const float*>(workspace);
    double* sums = reinterpret_cast<double*>(workspace + w_bytes_);
    float* dy = reinterpret_cast<float*>(workspace + w_bytes_ + sums_bytes_ + core * core_bytes_);
    float* x = dy + tiling::kChannelSumSegment;
    float* gi = x + tiling::kChannelSumSegment;
    for (int64_t u = units_.UnitBegin(core); u < units_.UnitEnd(core); ++u) {
      int64_t row, offset, len;  // the unit's first row, its offset in that row, its length
      units_.Unit(u, &row, &offset, &len);
      const int64_t start = row * units_.row_len + offset;
      GatherF32(layout_, layout_.operands[0], codec_, start, len, dy);
      GatherF32(layout_, layout_.operands[1], codec_, start, len, x);
      for (int64_t s = 0; s < len;) {  // one segment: a row's part
        const int64_t r = (start + s) / units_.row_len;
        const int64_t n = std::min(len - s, units_.row_len - (start + s) % units_.row_len);
        const int64_t seg =
            r * units_.segs_per_row + ((start + s) % units_.row_len) / tiling::kChannelSumSegment;
        sums[seg] = kernel_(dy + s, x + s, w[r % units_.channels], gi + s, static_cast<size_t>(n));
        s += n;
      }
      ScatterF32(layout_, layout_.operands[2], codec_, start, len, gi);
    }
  }

  // gradWeight: per channel, the segments in (n, segment) order; one weight: the channels
  // in c order. Rounded once to gradWeight's dtype.
  void Finish(const double* sums, double* total, char* workspace) const {
    const int64_t batches = units_.rows / units_.channels;
    for (int64_t c = 0; c < units_.channels; ++c) {
      double t = 0.0;
      for (int64_t nb = 0; nb < batches; ++nb) {
        const double* s = sums + (nb * units_.channels + c) * units_.segs_per_row;
        for (int64_t q = 0; q < units_.segs_per_row; ++q) t += s[q];
      }
      total[c] = t;
    }
    int64_t outputs = units_.channels;
    if (weights_ == 1) {
      double t = 0.0;
      for (int64_t c = 0; c < units_.channels; ++c) t += total[c];
      total[0] = t;
      outputs = 1;
    }
    float* out = reinterpret_cast<float*>(workspace);  // the weights are no longer needed
    for (int64_t c = 0; c < outputs; ++c) {
      out[c] = dtype_ == DType::kFloat32 ? static_cast<float>(total[c])
                                         : static_cast<float>(RoundToHalfType(total[c], dtype_));
    }
    ScatterF32(gw_layout_, gw_layout_.operands[0], codec_, 0, outputs, out);
  }

  core::FusedLayout layout_, w_layout_, gw_layout_;
  DType dtype_;
  tiling::ChannelSumsPlan units_;  // the plan's
  int64_t weights_;
  uint64_t w_bytes_ = 0, sums_bytes_ = 0, core_bytes_ = 0;
  uint64_t totals_at_ = 0;  // where the channels' totals start in the workspace
  OperandCodec codec_;
  kernels::PreluBackwardSegmentFn kernel_ = nullptr;
  const char* target_ = "";
};

}  // namespace

double RoundToHalfType(double v, DType dtype) {
  if (!std::isfinite(v) || v == 0.0) return v;
  const bool f16 = dtype == DType::kFloat16;
  const int bits = f16 ? 11 : 8, emin = f16 ? -14 : -126;
  const double max = f16 ? 65504.0 : 3.3895313892515355e38;
  int e = 0;
  std::frexp(v, &e);                                 // |v| in [2^(e-1), 2^e)
  const int q = std::max(e - 1, emin) - (bits - 1);  // the exponent of the last kept bit
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  return std::fabs(r) > max ? std::copysign(HUGE_VAL, v) : r;
}

Status PreparePreluBackward(Op op, const PreluBackwardOperands& o, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor) {
  const std::vector<int64_t>& shape = o.x.view->shape;
  const DType dtype = o.x.view->dtype;
  tiling::Problem problem{op, dtype, shape, 0, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  const bool empty = o.x.span->numel == 0;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, empty, options, &plan));
  if (empty) {
    executor->reset(new EmptyExecutor(op, DTypeName(dtype)));
    *workspace_size = 0;
    return Status::Ok();
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
  const core::FusedLayout layout = core::Fuse(shape, 3, firsts, dtypes, strides);
  auto* exec = new PreluBackwardExecutor(op, std::move(plan), layout, OwnLayout(o.w),
                                         OwnLayout(o.grad_weight), dtype, o.w.span->numel);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
