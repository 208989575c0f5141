// Elementwise executors: dense operands of one dtype go straight to the kernel tile by
// tile; anything else (strides, broadcast, mixed dtypes) is gathered into the core's f32
// scratch in the workspace, computed, and scattered to the output. The tiles are the
// plan's (tiling::ElementwisePlan): this file walks them, it never cuts its own.

#include "src/exec/eltwise_executor.h"

#include <algorithm>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

constexpr uint64_t kScratchAlign = 64;

class EltwiseExecutor final : public Executor {
 public:
  EltwiseExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout)
      : Executor(op, std::move(plan)), layout_(layout) {}

  // scratch_elems: the longest tile any core runs; scratch_per_core: bytes for three of
  // them, aligned.
  void Init(bool direct, int64_t scratch_elems, uint64_t scratch_per_core) {
    const tiling::Plan& plan = *plan_;
    direct_ = direct;
    target_ = kernels::ChosenTargetName();
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    workspace_bytes_ = direct ? 0 : scratch_per_core * plan.elementwise.block_dim;
    if (direct) {
      elem_bytes_ = DTypeSize(layout_.operands[0].dtype);
      // An output too big to stay in the caches is written with non-temporal stores.
      stream_ = kernels::ChooseStoreMode(layout_.numel * elem_bytes_, plan.stream_min_bytes) ==
                kernels::StoreMode::kStream;
      direct_fn_ =
          kernels::GetEltwise(op_, layout_.operands[0].dtype,
                              stream_ ? kernels::StoreMode::kStream : kernels::StoreMode::kCached);
    } else {
      f32_fn_ = kernels::GetEltwise(op_, DType::kFloat32);
      for (int k = 0; k < layout_.num_operands; ++k)
        codecs_[k] = MakeCodec(layout_.operands[k].dtype);
    }
  }

  std::string KernelPath() const override {
    DType dtypes[core::kMaxOperands];
    for (int k = 0; k < layout_.num_operands; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, direct_, dtypes, layout_.num_operands, stream_);
  }

  void Run(char* workspace) const override {
    struct Ctx {
      const EltwiseExecutor* self;
      char* workspace;
    } ctx{this, workspace};
    launch::LaunchCores(
        plan_->elementwise.block_dim,
        [](const void* p, int64_t core) {
          const Ctx* c = static_cast<const Ctx*>(p);
          c->self->RunCore(core, c->workspace);
        },
        &ctx);
  }

 private:
  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    if (direct_) {
      const int64_t es = static_cast<int64_t>(elem_bytes_);
      const char* dy = layout_.operands[0].first;
      const char* x = layout_.operands[1].first;
      char* out = layout_.operands[2].first;
      for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
        const int64_t s = p.TileBegin(core, t), len = p.TileLen(core, t);
        direct_fn_(dy + s * es, x + s * es, out + s * es, static_cast<size_t>(len));
      }
      return;
    }
    float* a = reinterpret_cast<float*>(workspace + core * scratch_per_core_);
    float* b = a + scratch_elems_;
    float* o = b + scratch_elems_;
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t), len = p.TileLen(core, t);
      GatherF32(layout_, layout_.operands[0], codecs_[0], s, len, a);
      GatherF32(layout_, layout_.operands[1], codecs_[1], s, len, b);
      f32_fn_(a, b, o, static_cast<size_t>(len));
      ScatterF32(layout_, layout_.operands[2], codecs_[2], s, len, o);
    }
  }

  core::FusedLayout layout_;
  bool direct_ = false;
  bool stream_ = false;
  const char* target_ = "";
  size_t elem_bytes_ = 0;
  int64_t scratch_elems_ = 0;
  uint64_t scratch_per_core_ = 0;
  kernels::EltwiseFn direct_fn_ = nullptr;
  kernels::EltwiseFn f32_fn_ = nullptr;
  OperandCodec codecs_[core::kMaxOperands];
};

}  // namespace

Status PlanOp(Op op, const tiling::Problem& problem, bool empty, const tiling::Options& options,
              std::shared_ptr<const tiling::Plan>* plan) {
  Status s;
  if (empty) {
    tiling::Resolved resolved;
    s = tiling::Resolve(options, problem, &resolved);
  } else {
    s = tiling::MakeSharedPlan(problem, options, plan);
  }
  if (!s.ok())
    return Status(s.code(), std::string(GetOpInfo(op).name) + ": tiling: " + s.message());
  return Status::Ok();
}

Status PrepareEltwise(Op op, const Operands& operands, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(op);
  const TensorView& grad_output = operands.in0.view;
  const TensorView& self = operands.in1.view;
  const TensorView& out = operands.out.view;
  const core::ViewSpan& dy_span = operands.in0.span;
  const core::ViewSpan& x_span = operands.in1.span;
  const core::ViewSpan& out_span = operands.out.span;
  const DType dtypes[3] = {grad_output.dtype, self.dtype, out.dtype};
  DType widest = out.dtype;  // the plan counts elements of the widest storage dtype
  for (DType d : dtypes) {
    if (DTypeSize(d) > DTypeSize(widest)) widest = d;
  }
  tiling::Problem problem{op, widest, out.shape, 0, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, out_span.numel == 0, options, &plan));
  if (out_span.numel == 0) {
    executor->reset(new EmptyExecutor(op, DTypeName(out.dtype)));
    *workspace_size = 0;
    return Status::Ok();
  }
  std::vector<int64_t> strides[3];
  if (!core::BroadcastStrides(grad_output.shape, dy_span.strides, out.shape, &strides[0]) ||
      !core::BroadcastStrides(self.shape, x_span.strides, out.shape, &strides[1])) {
    return Status::Inner(std::string(info.name) + ": operands do not broadcast to the output");
  }
  strides[2] = out_span.strides;
  char* firsts[3] = {dy_span.first, x_span.first, out_span.first};
  const core::FusedLayout layout = core::Fuse(out.shape, 3, firsts, dtypes, strides);

  const bool same_dtype = dtypes[0] == dtypes[1] && dtypes[1] == dtypes[2];
  const bool direct = layout.dense && same_dtype;
  // A core's scratch holds three of its longest tile: the plan's tile length, or all the
  // core owns when that is less (a small tensor, or a large UB, must not ask for the UB).
  const tiling::ElementwisePlan& ep = plan->elementwise;
  int64_t most = 0;  // elements of the busiest core
  for (int64_t core = 0; core < ep.block_dim; ++core) most = std::max(most, ep.CoreLen(core));
  const int64_t scratch_elems = std::min(ep.tile_len, most);
  const uint64_t scratch =
      (3 * static_cast<uint64_t>(scratch_elems) * sizeof(float) + kScratchAlign - 1) /
      kScratchAlign * kScratchAlign;
  auto* exec = new EltwiseExecutor(op, std::move(plan), layout);
  exec->Init(direct, scratch_elems, scratch);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
