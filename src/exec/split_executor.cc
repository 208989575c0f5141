// The gated linear units' executor. The halves of self (and of a gradient's out) become
// views over the half shape, so that every operand is walked the same way; the fused
// layout of those views (src/core/layout.cc) then decides the path:
// - direct: every operand of the compute dtype with stride 1 along the fused layout's last
//   dim (a contiguous self is [outer, 2, inner] in memory: each half a run of the last
//   fused dim, rows apart). A tile of the plan is cut at row ends, and the kernel runs on
//   each piece in place;
// - gathered: anything else (strides, Glu's cast to another out dtype). Each operand's
//   tile is gathered into the core's f32 scratch, the f32 kernel runs, and the results are
//   scattered (gather.h).
// Each element's result depends on its inputs only, so the bits do not depend on the
// path, the tiling or the thread count. The tiles are the plan's; this file cuts nothing.

#include "src/exec/split_executor.h"

#include <algorithm>
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

constexpr uint64_t kScratchAlign = 64;

// A view's first element, strides and dtype over the half shape.
struct HalfView {
  char* first = nullptr;
  std::vector<int64_t> strides;
  DType dtype = DType::kFloat32;
};

// The half of a checked operand along dim that starts at element `half` (0 or the half
// extent) of that dim; an operand that already has the half shape for half 0.
HalfView HalfOf(const Operand& v, int64_t dim, int64_t half) {
  HalfView h;
  h.dtype = v.view->dtype;
  h.strides = v.span->strides;
  h.first = v.span->first + half * h.strides[static_cast<size_t>(dim)] *
                                static_cast<int64_t>(DTypeSize(h.dtype));
  return h;
}

class SplitExecutor final : public Executor {
 public:
  // The layout's operands: the inputs (forward: a, b; gradient: dy, a, b[, act]), then the
  // outputs (forward: out[, act]; gradient: da, db).
  SplitExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout,
                int num_in)
      : Executor(op, std::move(plan)), layout_(layout), num_in_(num_in) {}

  void Init(bool direct, bool tanh, DType result_dtype, int64_t scratch_elems,
            uint64_t scratch_per_core) {
    direct_ = direct;
    forward_ = GetOpInfo(op_).is_forward;
    reads_act_ = num_in_ == 4;
    writes_act_ = forward_ && layout_.num_operands == 4;
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    target_ = kernels::ChosenTargetName();
    const DType dtype = direct ? layout_.operands[0].dtype : DType::kFloat32;
    elem_bytes_ = DTypeSize(dtype);
    if (forward_) {
      gated_ = kernels::GetGated(op_, dtype, tanh);
    } else {
      gated_grad_ = kernels::GetGatedGrad(op_, dtype, tanh);
    }
    workspace_bytes_ = direct ? 0 : scratch_per_core * plan_->elementwise.block_dim;
    if (!direct) {
      for (int k = 0; k < layout_.num_operands; ++k) {
        codecs_[k] = MakeCodec(layout_.operands[k].dtype);
      }
      // Glu computes in self's dtype, then casts to out's: a 16-bit result is rounded to
      // self's dtype before the scatter rounds it to out's.
      if (result_dtype != DType::kFloat32 && result_dtype != layout_.operands[num_in_].dtype) {
        to_result_ = kernels::GetFromF32(result_dtype);
        from_result_ = kernels::GetToF32(result_dtype);
      }
    }
  }

  std::string KernelPath() const override {
    DType dtypes[core::kMaxOperands];
    for (int k = 0; k < layout_.num_operands; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, direct_, dtypes, layout_.num_operands, false);
  }

  void Run(char* workspace) const override {
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &SplitExecutor::RunCore,
                          workspace);
  }

 private:
  // The kernel on n elements at the operands' pointers p[] (layout order).
  void Compute(char* const* p, int64_t n) const {
    const size_t len = static_cast<size_t>(n);
    if (forward_) {
      gated_(p[0], p[1], p[2], writes_act_ ? p[3] : nullptr, len);
    } else if (reads_act_) {
      gated_grad_(p[0], p[1], p[2], p[3], p[4], p[5], len);
    } else {
      gated_grad_(p[0], p[1], p[2], nullptr, p[3], p[4], len);
    }
  }

  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int num = layout_.num_operands;
    if (direct_) {
      const int64_t row_len = layout_.rank > 0 ? layout_.shape[layout_.rank - 1] : 1;
      const int64_t es = static_cast<int64_t>(elem_bytes_);
      for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
        const int64_t end = p.TileBegin(core, t) + p.TileLen(core, t);
        for (int64_t i = p.TileBegin(core, t); i < end;) {
          const int64_t row = i / row_len, col = i % row_len;
          const int64_t n = std::min(row_len - col, end - i);
          char* ptr[core::kMaxOperands];
          for (int k = 0; k < num; ++k) {
            ptr[k] = layout_.operands[k].first + (core::RowOffset(layout_, k, row) + col) * es;
          }
          Compute(ptr, n);
          i += n;
        }
      }
      return;
    }
    // One f32 tile per operand in this core's scratch, and one more for a cast result.
    float* scratch = reinterpret_cast<float*>(workspace + core * scratch_per_core_);
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t), len = p.TileLen(core, t);
      char* ptr[core::kMaxOperands];
      for (int k = 0; k < num; ++k) {
        float* tile = scratch + k * scratch_elems_;
        if (k < num_in_) GatherF32(layout_, layout_.operands[k], codecs_[k], s, len, tile);
        ptr[k] = reinterpret_cast<char*>(tile);
      }
      Compute(ptr, len);
      for (int k = num_in_; k < num; ++k) {
        float* tile = reinterpret_cast<float*>(ptr[k]);
        if (k == num_in_ && to_result_ != nullptr) {
          void* narrow = scratch + num * scratch_elems_;
          to_result_(tile, narrow, static_cast<size_t>(len));
          from_result_(narrow, tile, static_cast<size_t>(len));
        }
        ScatterF32(layout_, layout_.operands[k], codecs_[k], s, len, tile);
      }
    }
  }

  core::FusedLayout layout_;
  int num_in_ = 2;
  bool direct_ = false;
  bool forward_ = true;
  bool reads_act_ = false;
  bool writes_act_ = false;
  const char* target_ = "";
  size_t elem_bytes_ = 0;
  int64_t scratch_elems_ = 0;
  uint64_t scratch_per_core_ = 0;
  kernels::GatedFn gated_ = nullptr;
  kernels::GatedGradFn gated_grad_ = nullptr;
  OperandCodec codecs_[core::kMaxOperands];
  kernels::FromF32Fn to_result_ = nullptr;  // f32 to self's dtype (Glu into another dtype)
  kernels::ToF32Fn from_result_ = nullptr;
};

}  // namespace

Status PrepareSplit(Op op, const SplitOperands& operands, const tiling::Options& options,
                    uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(op);
  const bool forward = info.is_forward;
  const TensorView& self = *operands.self.view;
  const int64_t dim = operands.dim;
  std::vector<int64_t> half_shape = self.shape;
  const int64_t half = half_shape[static_cast<size_t>(dim)] / 2;
  half_shape[static_cast<size_t>(dim)] = half;

  // An empty self has no element to point at (its first element may be null): nothing to
  // view, plan or run.
  const bool empty = operands.self.span->numel == 0;
  if (empty) {
    tiling::Problem problem{op, self.dtype, self.shape, dim, launch::TeamSize()};
    std::shared_ptr<const tiling::Plan> plan;
    HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, true, options, &plan));
    executor->reset(new EmptyExecutor(op, DTypeName(self.dtype)));
    *workspace_size = 0;
    return Status::Ok();
  }

  // The operands in layout order. activateLeft makes the first half the gate: the halves
  // swap (and so do the gradient's), so the kernel always gates with its second input.
  const bool swap = operands.activate_left;
  std::vector<HalfView> views;
  if (!forward) views.push_back(HalfOf(operands.dy, dim, 0));
  views.push_back(HalfOf(operands.self, dim, swap ? half : 0));
  views.push_back(HalfOf(operands.self, dim, swap ? 0 : half));
  if (!forward && operands.act.view != nullptr) views.push_back(HalfOf(operands.act, dim, 0));
  const int num_in = static_cast<int>(views.size());
  if (forward) {
    views.push_back(HalfOf(operands.out, dim, 0));
    if (operands.act.view != nullptr) views.push_back(HalfOf(operands.act, dim, 0));
  } else {
    views.push_back(HalfOf(operands.out, dim, swap ? half : 0));
    views.push_back(HalfOf(operands.out, dim, swap ? 0 : half));
  }
  const int num = static_cast<int>(views.size());

  DType widest = self.dtype;  // the plan counts elements of the widest storage dtype
  bool same_dtype = true;
  for (const HalfView& v : views) {
    if (DTypeSize(v.dtype) > DTypeSize(widest)) widest = v.dtype;
    same_dtype = same_dtype && v.dtype == self.dtype;
  }
  // The planner halves self's shape along dim itself (tiling/plan.cc).
  tiling::Problem problem{op, widest, self.shape, dim, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  char* firsts[core::kMaxOperands];
  DType dtypes[core::kMaxOperands];
  std::vector<int64_t> strides[core::kMaxOperands];
  for (int k = 0; k < num; ++k) {
    firsts[k] = views[static_cast<size_t>(k)].first;
    dtypes[k] = views[static_cast<size_t>(k)].dtype;
    strides[k] = views[static_cast<size_t>(k)].strides;
  }
  const core::FusedLayout layout = core::Fuse(half_shape, num, firsts, dtypes, strides);
  bool unit_rows = true;  // every operand contiguous along the last fused dim
  for (int k = 0; k < num && layout.rank > 0; ++k) {
    unit_rows = unit_rows && layout.operands[k].strides[layout.rank - 1] == 1;
  }
  const bool direct = same_dtype && unit_rows;

  const tiling::ElementwisePlan& ep = plan->elementwise;
  int64_t most = 0;  // elements of the busiest core
  for (int64_t core = 0; core < ep.block_dim; ++core) most = std::max(most, ep.CoreLen(core));
  const int64_t scratch_elems = std::min(ep.tile_len, most);
  const uint64_t scratch = (static_cast<uint64_t>(num + 1) * scratch_elems * sizeof(float) +
                            kScratchAlign - 1) /
                           kScratchAlign * kScratchAlign;
  auto* exec = new SplitExecutor(op, std::move(plan), layout, num_in);
  exec->Init(direct, operands.tanh, self.dtype, scratch_elems, scratch);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
