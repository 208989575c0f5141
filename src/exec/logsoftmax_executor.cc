// The LogSoftmaxBackward executor: dx = dy - exp(y) * sum_dim(dy) over the plan's
// (A1, R, A0) view of the shape. Row sums are accumulated in double by one core in a
// fixed order, so results do not depend on the thread count, the template or the platform
// profile. AR plans run a row per unit, ARA plans a block of columns per unit (the units
// and their cores are the plan's); strided or mixed-dtype operands are gathered to f32
// scratch first and scattered back after.

#include "src/exec/logsoftmax_executor.h"

#include <algorithm>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

class LogSoftmaxExecutor final : public Executor {
 public:
  LogSoftmaxExecutor(std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout,
                     DType in, DType out)
      : Executor(Op::kLogSoftmaxBackward, std::move(plan)), layout_(layout) {
    gathered_ = !layout.dense;
    target_ = kernels::ChosenTargetName();
    if (gathered_) {
      kernels_ = kernels::GetLogSoftmax(DType::kFloat32, DType::kFloat32);
      in_bytes_ = out_bytes_ = sizeof(float);
      for (int k = 0; k < 3; ++k) codecs_[k] = MakeCodec(layout.operands[k].dtype);
      workspace_bytes_ = 3 * static_cast<uint64_t>(layout.numel) * sizeof(float);
    } else {
      in_bytes_ = DTypeSize(in);
      out_bytes_ = DTypeSize(out);
      // An output too big to stay in the caches is written with non-temporal stores, by the
      // ARA block kernel only: the row kernels of AR plans end each row with a store fence,
      // which at 1024-element rows costs more than streaming saves (Zen 4, [65536, 1024]
      // dim -1, 1 thread: f32 0.40 ns per element streamed, 0.33 cached; bf16 0.49, 0.41).
      stream_ = plan_->reduction.a0 != 1 &&
                kernels::ChooseStoreMode(static_cast<uint64_t>(layout.numel) * out_bytes_,
                                         plan_->stream_min_bytes) == kernels::StoreMode::kStream;
      kernels_ = kernels::GetLogSoftmax(
          in, out, stream_ ? kernels::StoreMode::kStream : kernels::StoreMode::kCached);
    }
  }

  std::string KernelPath() const override {
    DType dtypes[3];
    for (int k = 0; k < 3; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, !gathered_, dtypes, 3, stream_);
  }

  void Run(char* workspace) const override {
    struct Ctx {
      const LogSoftmaxExecutor* self;
      const char* dy;
      const char* y;
      char* out;
      float* scratch;
    } ctx{this, layout_.operands[0].first, layout_.operands[1].first, layout_.operands[2].first,
          reinterpret_cast<float*>(workspace)};
    const int64_t block_dim = plan_->reduction.block_dim;
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->GatherPart(core, c->scratch);
          },
          &ctx);
      ctx.dy = reinterpret_cast<const char*>(ctx.scratch);
      ctx.y = reinterpret_cast<const char*>(ctx.scratch + layout_.numel);
      ctx.out = reinterpret_cast<char*>(ctx.scratch + 2 * layout_.numel);
    }
    launch::LaunchCores(
        block_dim,
        [](const void* p, int64_t core) {
          const Ctx* c = static_cast<const Ctx*>(p);
          c->self->RunCore(core, c->dy, c->y, c->out);
        },
        &ctx);
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->ScatterPart(core, c->scratch + 2 * c->self->layout_.numel);
          },
          &ctx);
    }
  }

 private:
  void PartRange(int64_t core, int64_t* begin, int64_t* len) const {
    const int64_t bd = plan_->reduction.block_dim, n = layout_.numel;
    *begin = n / bd * core + std::min(core, n % bd);
    *len = n / bd + (core < n % bd ? 1 : 0);
  }
  void GatherPart(int64_t core, float* scratch) const {
    int64_t b, len;
    PartRange(core, &b, &len);
    GatherF32(layout_, layout_.operands[0], codecs_[0], b, len, scratch + b);
    GatherF32(layout_, layout_.operands[1], codecs_[1], b, len, scratch + layout_.numel + b);
  }
  void ScatterPart(int64_t core, const float* out32) const {
    int64_t b, len;
    PartRange(core, &b, &len);
    ScatterF32(layout_, layout_.operands[2], codecs_[2], b, len, out32 + b);
  }

  void RunCore(int64_t core, const char* dy, const char* y, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const int64_t ib = static_cast<int64_t>(in_bytes_), ob = static_cast<int64_t>(out_bytes_);
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    if (p.a0 == 1) {  // AR: a unit is one row
      for (int64_t u = begin; u < end; ++u) {
        const int64_t base = p.GetUnit(u).a1_begin * p.r;
        double partials[kernels::kRowPartials] = {0};
        for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
          kernels_.row_sum(dy + (base + c0) * ib,
                           static_cast<size_t>(std::min(p.r_chunk, p.r - c0)), partials);
        }
        const double sum = kernels::CombinePartials(partials);  // the kernel narrows it
        for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
          const int64_t off = base + c0;
          kernels_.row_out(dy + off * ib, y + off * ib, sum, out + off * ob,
                           static_cast<size_t>(std::min(p.r_chunk, p.r - c0)));
        }
      }
      return;
    }
    // ARA: a unit is a1_tile rows of A1 by one A0 tile; columns are summed down R. Each
    // column's sum runs over R in row order whatever the blocking, so this core's adjacent
    // units are merged into blocks of up to kAraBlockCols columns without changing a bit:
    // a narrow tile of a long-strided A0 is a few cache lines per page, which the hardware
    // prefetchers do not follow and which alias in the same cache sets row after row.
    constexpr int64_t kAraBlockCols = 4096;
    double acc[kAraBlockCols];
    float sums[kAraBlockCols];
    for (int64_t u = begin; u < end;) {
      const tiling::ReductionPlan::Unit first = p.GetUnit(u);
      int64_t c_end = first.a0_begin + first.a0_len;
      int64_t next = u + 1;
      for (; next < end; ++next) {
        const tiling::ReductionPlan::Unit unit = p.GetUnit(next);
        if (unit.a1_begin != first.a1_begin || unit.a1_len != first.a1_len ||
            unit.a0_begin != c_end)
          break;
        c_end += unit.a0_len;
      }
      for (int64_t a1 = first.a1_begin; a1 < first.a1_begin + first.a1_len; ++a1) {
        for (int64_t c0 = first.a0_begin; c0 < c_end; c0 += kAraBlockCols) {
          const int64_t w = std::min(kAraBlockCols, c_end - c0);
          const int64_t off = a1 * p.r * p.a0 + c0;
          kernels_.ara_block(dy + off * ib, y + off * ib, out + off * ob, static_cast<size_t>(p.r),
                             static_cast<size_t>(p.a0), static_cast<size_t>(w), acc, sums);
        }
      }
      u = next;
    }
  }

  core::FusedLayout layout_;
  bool gathered_ = false;
  bool stream_ = false;
  const char* target_ = "";
  size_t in_bytes_ = 4, out_bytes_ = 4;
  kernels::LogSoftmaxKernels kernels_{};
  OperandCodec codecs_[3];
};

}  // namespace

Status PrepareLogSoftmaxBackward(Op op, const Operands& operands, int64_t dim,
                                 const tiling::Options& options, uint64_t* workspace_size,
                                 ExecutorPtr* executor) {
  const TensorView& dy = operands.in0.view;
  const TensorView& y = operands.in1.view;
  const TensorView& out = operands.out.view;
  const core::ViewSpan& dy_span = operands.in0.span;
  const core::ViewSpan& y_span = operands.in1.span;
  const core::ViewSpan& out_span = operands.out.span;
  const std::vector<int64_t>& shape = dy.shape;
  // The plan fuses the shape to (A1, R, A0) around dim.
  const tiling::Problem problem{op, dy.dtype, shape, dim, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, out_span.numel == 0, options, &plan));
  if (out_span.numel == 0) {
    executor->reset(new EmptyExecutor(op, DTypeName(dy.dtype)));
    *workspace_size = 0;
    return Status::Ok();
  }
  std::vector<int64_t> strides[3] = {dy_span.strides, y_span.strides, out_span.strides};
  char* firsts[3] = {dy_span.first, y_span.first, out_span.first};
  const DType dtypes[3] = {dy.dtype, y.dtype, out.dtype};
  const core::FusedLayout layout = core::Fuse(shape, 3, firsts, dtypes, strides);

  auto* exec = new LogSoftmaxExecutor(std::move(plan), layout, dy.dtype, out.dtype);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
