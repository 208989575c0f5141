// The LogSoftmax forward in double over the plan's (A1, R, A0) view of the shape: a row
// per AR unit, blocks of columns per ARA unit, or, where the plan writes the output by rows
// (ReductionPlan::output_by_rows), the columns' statistics first and then whole rows
// spread over the cores. Each row or column is reduced by one core in a fixed order
// (kernels::LogSoftmaxF64Kernels), so the bits do not depend on the thread count. A
// strided or non-DOUBLE self is gathered (exactly widened) into a double scratch, which
// the kernels then overwrite in place and which is scattered to out.

#include "src/exec/logsoftmax_f64_executor.h"

#include <algorithm>
#include <string>

#include "kernels/kernels.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"
#include "src/exec/reduction_units.h"

namespace hostnn {
namespace exec {
namespace {

class LogSoftmaxF64Executor final : public Executor {
 public:
  LogSoftmaxF64Executor(Op op, std::shared_ptr<const tiling::Plan> plan,
                        const core::FusedLayout& layout)
      : Executor(op, std::move(plan)), layout_(layout) {
    gathered_ = !layout.dense || layout.operands[0].dtype != DType::kFloat64;
    target_ = kernels::ChosenTargetName();
    kernels_ = kernels::GetLogSoftmaxF64();
    if (gathered_) {
      codec_ = MakeCodec(layout.operands[0].dtype);
      workspace_bytes_ = static_cast<uint64_t>(layout.numel) * sizeof(double);
    }
    const tiling::ReductionPlan& p = plan_->reduction;
    by_rows_ = p.output_by_rows;
    if (by_rows_) {
      // After the scratch: per column of every A1 row, its max, then its log-sum.
      stats_offset_ = workspace_bytes_;
      workspace_bytes_ +=
          2 * static_cast<uint64_t>(p.a1) * static_cast<uint64_t>(p.a0) * sizeof(double);
    }
  }

  std::string KernelPath() const override {
    const DType in = layout_.operands[0].dtype;
    std::string s = std::string(target_) + (gathered_ ? ", gathered to f64" : ", direct");
    if (in == DType::kFloat16 || in == DType::kBFloat16)
      s += std::string(", ") + kernels::ConversionName(in);
    return s + ", f64 lanes";
  }

  void Run(char* workspace) const override {
    struct Ctx {
      const LogSoftmaxF64Executor* self;
      const double* x;
      double* out;
      double* stats;
    } ctx{this, reinterpret_cast<const double*>(layout_.operands[0].first),
          reinterpret_cast<double*>(layout_.operands[1].first), nullptr};
    const int64_t block_dim = plan_->reduction.block_dim;
    double* scratch = reinterpret_cast<double*>(workspace);
    if (gathered_) {
      ctx.x = ctx.out = scratch;  // computed in place
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->GatherPart(core, c->out);
          },
          &ctx);
    }
    if (by_rows_) {
      ctx.stats = reinterpret_cast<double*>(workspace + stats_offset_);
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->StatsCore(core, c->x, c->stats);
          },
          &ctx);
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->OutRowsCore(core, c->x, c->stats, c->out);
          },
          &ctx);
    } else {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->RunCore(core, c->x, c->out);
          },
          &ctx);
    }
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->ScatterPart(core, c->out);
          },
          &ctx);
    }
  }

 private:
  void GatherPart(int64_t core, double* scratch) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    GatherF64(layout_, layout_.operands[0], codec_, b, len, scratch + b);
  }
  void ScatterPart(int64_t core, const double* scratch) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    ScatterF64(layout_, layout_.operands[1], b, len, scratch + b);
  }

  void RunCore(int64_t core, const double* x, double* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    if (p.a0 == 1) {  // AR: a unit is one row, taken whole (its sums do not depend on chunks)
      const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
      for (int64_t u = begin; u < end; ++u) {
        const int64_t base = p.GetUnit(u).a1_begin * p.r;
        kernels_.row(x + base, static_cast<size_t>(p.r), out + base);
      }
      return;
    }
    double max[kAraBlockCols], ls[kAraBlockCols];
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    ForEachAraBlock(p, core, kAraBlockCols, [&](int64_t a1, int64_t c0, size_t w) {
      const int64_t off = a1 * p.r * p.a0 + c0;
      kernels_.ara_block(x + off, out + off, r, stride, w, max, ls);
    });
  }

  // output_by_rows' first phase: this core's columns' max at stats[a1 * a0 + c] and
  // log-sum at stats[A1 * A0 + a1 * a0 + c].
  void StatsCore(int64_t core, const double* x, double* stats) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    double* second = stats + p.a1 * p.a0;
    ForEachAraBlock(p, core, kAraBlockCols, [&](int64_t a1, int64_t c0, size_t w) {
      const int64_t off = a1 * p.r * p.a0 + c0, col = a1 * p.a0 + c0;
      kernels_.ara_stats(x + off, r, stride, w, stats + col, second + col);
    });
  }

  // output_by_rows' second phase: an even share of the A1 x R rows, each whole.
  void OutRowsCore(int64_t core, const double* x, const double* stats, double* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    int64_t begin, end;
    RowShare(p, core, &begin, &end);
    const double* second = stats + p.a1 * p.a0;
    for (int64_t t = begin; t < end; ++t) {
      const int64_t off = t * p.a0, col = t / p.r * p.a0;
      kernels_.cols_out(x + off, stats + col, second + col, out + off, static_cast<size_t>(p.a0));
    }
  }

  core::FusedLayout layout_;
  bool gathered_ = false;
  bool by_rows_ = false;
  uint64_t stats_offset_ = 0;
  const char* target_ = "";
  kernels::LogSoftmaxF64Kernels kernels_{};
  OperandCodec codec_;
};

}  // namespace

Executor* MakeLogSoftmaxF64Executor(Op op, std::shared_ptr<const tiling::Plan> plan,
                                    const core::FusedLayout& layout) {
  return new LogSoftmaxF64Executor(op, std::move(plan), layout);
}

}  // namespace exec
}  // namespace hostnn
