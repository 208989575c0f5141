// The softmax executors, forward (LogSoftmax: out = x - max - log(sum exp(x - max));
// Softmax: out = exp(x - max) / sum exp(x - max)) and backward (LogSoftmaxBackward: dx = dy
// - exp(y) * sum_dim(dy); SoftmaxBackward: dx = y * (dy - sum_dim(dy * y))), over the
// plan's (A1, R, A0) view of the shape. The row function only picks the kernels. Sums
// are accumulated in double by one core in a fixed order, so results do not depend on the
// thread count, the template or the platform profile. AR plans run a row per unit, ARA plans a
// block of columns per unit (the units and their cores are the plan's); strided or mixed-dtype
// operands are gathered to f32 scratch first and scattered back after. The forward computes
// in out's dtype, self cast to it first as CANN does (a DOUBLE out, in double, is
// logsoftmax_f64_executor.cc's). An ARA plan whose cores split each row's columns writes its
// output by rows instead (ReductionPlan::output_by_rows: on Zen 4, two cores storing to
// disjoint lines of the same pages ran 16 to 25 times slower than alone, and [1024, 256] dim 0
// ran 1.2x to 3x slower on two threads than on one).

#include "src/exec/softmax_executor.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"
#include "src/exec/logsoftmax_f64_executor.h"
#include "src/exec/reduction_units.h"

namespace hostnn {
namespace exec {
namespace {

// The columns per ARA kernel call. A tensor that fits in the caches runs the widest
// blocks, and so does the backward (two passes, the second over two inputs: narrower
// blocks measured slower). A forward tensor that streams (its output past
// stream_min_bytes) would otherwise read each block's three passes from memory: its blocks
// are cut so that one block's input, R rows of them, stays within four UBs (two L2s on the
// host profile) for the second and third passes, in whole cache blocks of columns. Zen 4,
// [1024, 65536] dim 0 f32, 2 threads: 4096 columns 0.42 ns per element, 2048 0.37, 1024
// 0.33, 512 (2 MiB) 0.30; the backward 0.44 at 4096 and 0.49 at 512.
int64_t AraBlockCols(const tiling::Plan& plan, size_t in_bytes, bool forward, bool stream) {
  const tiling::ReductionPlan& p = plan.reduction;
  if (!forward || !stream || p.a0 == 1) return kAraBlockCols;
  const int64_t align =
      std::max<int64_t>(1, plan.platform.block_bytes / static_cast<int64_t>(in_bytes));
  const int64_t budget = 4 * plan.platform.ub_bytes / (p.r * static_cast<int64_t>(in_bytes));
  return std::min(kAraBlockCols, std::max(align, budget / align * align));
}

// The row function of a softmax reduction operator.
kernels::RowFunction RowFunctionOf(Op op) {
  return op == Op::kSoftmax || op == Op::kSoftmaxBackward ? kernels::RowFunction::kSoftmax
                                                          : kernels::RowFunction::kLogSoftmax;
}

// Both directions and both row functions over the same units: forward (one input, x) and
// backward (inputs dy and y). Only the kernels differ; the walk over rows (AR) and column
// blocks (ARA), the gathers and the cores are one code.
class SoftmaxExecutor final : public Executor {
 public:
  SoftmaxExecutor(Op op, std::shared_ptr<const tiling::Plan> plan,
                     const core::FusedLayout& layout, DType in, DType out)
      : Executor(op, std::move(plan)), layout_(layout), num_in_(layout.num_operands - 1) {
    forward_ = GetOpInfo(op).is_forward;
    // The forward kernels read and write one dtype: another output dtype goes through f32.
    gathered_ = !layout.dense || (forward_ && in != out);
    target_ = kernels::ChosenTargetName();
    if (gathered_) {
      // LogSoftmax casts self to out's dtype first, as CANN does (one rounding where out is
      // narrower), then computes in f32 like out's own dtype. Softmax computes in self's
      // dtype and casts the result to out's (CANN's op_api appends a Cast): self is widened
      // as it is, and a 16-bit self's result rounded to it before the scatter rounds it
      // to out's.
      const bool cast_result = CastsResultToOut(GetOpInfo(op).dtypes);
      const DType via = forward_ && !cast_result ? out : DType::kUndefined;
      if (forward_ && cast_result && in != out && in != DType::kFloat32)
        round_result_ = kernels::GetToF32Via(DType::kFloat32, in);
      in = out = DType::kFloat32;
      for (int k = 0; k < layout.num_operands; ++k)
        codecs_[k] = MakeCodec(layout.operands[k].dtype, k < num_in_ ? via : DType::kUndefined);
      workspace_bytes_ = layout.num_operands * static_cast<uint64_t>(layout.numel) * sizeof(float);
    } else {
      // An output too big to stay in the caches is written with non-temporal stores, by the
      // ARA block kernels only: the row kernels of AR plans end each row with a store fence,
      // which at 1024-element rows costs more than streaming saves (Zen 4, [65536, 1024]
      // dim -1, 1 thread: f32 0.40 ns per element streamed, 0.33 cached; bf16 0.49, 0.41).
      stream_ = plan_->reduction.a0 != 1 &&
                kernels::ChooseStoreMode(static_cast<uint64_t>(layout.numel) * DTypeSize(out),
                                         plan_->stream_min_bytes) == kernels::StoreMode::kStream;
    }
    in_bytes_ = DTypeSize(in);
    out_bytes_ = DTypeSize(out);
    ara_block_cols_ = AraBlockCols(*plan_, in_bytes_, forward_, stream_);
    const tiling::ReductionPlan& p = plan_->reduction;
    row_split_ = p.output_by_rows;
    if (row_split_) {
      // After the gather scratch: per column of every A1 row, the forward's max and log-sum
      // or the backward's sum (f32), then a flag per core.
      stats_offset_ = workspace_bytes_;
      const uint64_t cols = static_cast<uint64_t>(p.a1) * static_cast<uint64_t>(p.a0);
      workspace_bytes_ +=
          cols * (forward_ ? 2 : 1) * sizeof(float) + static_cast<uint64_t>(p.block_dim);
    }
    const kernels::StoreMode mode =
        stream_ ? kernels::StoreMode::kStream : kernels::StoreMode::kCached;
    if (forward_) {
      forward_kernels_ = kernels::GetSoftmaxForward(RowFunctionOf(op), in, out, mode);
    } else {
      backward_kernels_ = kernels::GetSoftmaxBackward(RowFunctionOf(op), in, out, mode);
    }
  }

  std::string KernelPath() const override {
    DType dtypes[3];
    for (int k = 0; k < layout_.num_operands; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, !gathered_, dtypes, layout_.num_operands, stream_);
  }

  void Run(char* workspace) const override {
    struct Ctx {
      const SoftmaxExecutor* self;
      const char* in[2];
      char* out;
      float* scratch;
      float* stats;
      char* within;
    } ctx{this,
          {layout_.operands[0].first, layout_.operands[1].first},
          layout_.operands[num_in_].first,
          reinterpret_cast<float*>(workspace),
          nullptr,
          nullptr};
    const int64_t block_dim = plan_->reduction.block_dim;
    const int64_t n = layout_.numel;
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->GatherPart(core, c->scratch);
          },
          &ctx);
      for (int k = 0; k < num_in_; ++k)
        ctx.in[k] = reinterpret_cast<const char*>(ctx.scratch + k * n);
      ctx.out = reinterpret_cast<char*>(ctx.scratch + num_in_ * n);
    }
    bool by_rows = row_split_;
    if (row_split_) {
      ctx.stats = reinterpret_cast<float*>(workspace + stats_offset_);
      ctx.within = reinterpret_cast<char*>(ctx.stats) + StatsBytes();
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->within[core] = c->self->StatsCore(core, c->in, c->stats);
          },
          &ctx);
      // A backward column sum beyond f32's range (rare) needs the block kernel's double
      // path: the whole tensor then runs by column blocks.
      for (int64_t core = 0; core < block_dim; ++core) by_rows = by_rows && ctx.within[core];
    }
    const launch::CoreFn out_fn = [](const void* p, int64_t core) {
      const Ctx* c = static_cast<const Ctx*>(p);
      c->self->OutRowsCore(core, c->in, c->stats, c->out);
    };
    const launch::CoreFn block_fn = [](const void* p, int64_t core) {
      const Ctx* c = static_cast<const Ctx*>(p);
      c->self->RunCore(core, c->in, c->out);
    };
    launch::LaunchCores(block_dim, by_rows ? out_fn : block_fn, &ctx);
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->ScatterPart(core, c->scratch + c->self->num_in_ * c->self->layout_.numel);
          },
          &ctx);
    }
  }

 private:
  void GatherPart(int64_t core, float* scratch) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    for (int k = 0; k < num_in_; ++k) {
      GatherF32(layout_, layout_.operands[k], codecs_[k], b, len, scratch + k * layout_.numel + b);
    }
  }
  void ScatterPart(int64_t core, const float* out32) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    if (round_result_ != nullptr) {  // out32 is this executor's scratch
      round_result_(out32 + b, const_cast<float*>(out32) + b, static_cast<size_t>(len));
    }
    ScatterF32(layout_, layout_.operands[num_in_], codecs_[num_in_], b, len, out32 + b);
  }

  // One row of r elements at element offset `base`, in chunks of r_chunk.
  void RunRow(int64_t base, const char* const* in, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const int64_t ib = static_cast<int64_t>(in_bytes_), ob = static_cast<int64_t>(out_bytes_);
    double partials[kernels::kRowPartials] = {0};
    if (forward_) {
      const kernels::SoftmaxForwardKernels& k = forward_kernels_;
      if (p.r_chunk >= p.r && p.r <= static_cast<int64_t>(kernels::kRowWholeMax)) {
        k.row_whole(in[0] + base * ib, static_cast<size_t>(p.r), out + base * ob);
        return;
      }
      float max = -std::numeric_limits<float>::infinity();
      for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
        k.row_max(in[0] + (base + c0) * ib, static_cast<size_t>(std::min(p.r_chunk, p.r - c0)),
                  &max);
      }
      for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
        k.row_sum_exp(in[0] + (base + c0) * ib, static_cast<size_t>(std::min(p.r_chunk, p.r - c0)),
                      max, partials);
      }
      const double stat =
          kernels::RowStat(k, in[0] + base * ib, static_cast<size_t>(p.r), in_bytes_,
                           static_cast<size_t>(p.r_chunk), max, partials);
      for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
        const int64_t off = base + c0;
        k.row_out(in[0] + off * ib, max, stat, out + off * ob,
                  static_cast<size_t>(std::min(p.r_chunk, p.r - c0)));
      }
      return;
    }
    const kernels::SoftmaxBackwardKernels& k = backward_kernels_;
    for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
      k.row_sum(in[0] + (base + c0) * ib, in[1] + (base + c0) * ib,
                static_cast<size_t>(std::min(p.r_chunk, p.r - c0)), partials);
    }
    const double sum = kernels::CombinePartials(partials);  // the kernel narrows it
    for (int64_t c0 = 0; c0 < p.r; c0 += p.r_chunk) {
      const int64_t off = base + c0;
      k.row_out(in[0] + off * ib, in[1] + off * ib, sum, out + off * ob,
                static_cast<size_t>(std::min(p.r_chunk, p.r - c0)));
    }
  }

  template <class Fn>
  void ForEachAraBlock(int64_t core, Fn fn) const {
    exec::ForEachAraBlock(plan_->reduction, core, ara_block_cols_, fn);
  }

  void RunCore(int64_t core, const char* const* in, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const int64_t ib = static_cast<int64_t>(in_bytes_), ob = static_cast<int64_t>(out_bytes_);
    if (p.a0 == 1) {  // AR: a unit is one row
      const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
      for (int64_t u = begin; u < end; ++u) RunRow(p.GetUnit(u).a1_begin * p.r, in, out);
      return;
    }
    // ARA: a unit is a1_tile rows of A1 by one A0 tile; columns are reduced down R.
    double acc[kAraBlockCols];
    float sums[kAraBlockCols];  // backward: the narrowed sums; forward: the columns' max
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    ForEachAraBlock(core, [&](int64_t a1, int64_t c0, size_t w) {
      const int64_t off = a1 * p.r * p.a0 + c0;
      if (forward_) {
        forward_kernels_.ara_block(in[0] + off * ib, out + off * ob, r, stride, w, sums, acc);
      } else {
        backward_kernels_.ara_block(in[0] + off * ib, in[1] + off * ib, out + off * ob, r, stride,
                                    w, acc, sums);
      }
    });
  }

  // output_by_rows' first phase: this core's columns' statistics (forward: max, then log-sum, at
  // stats[a1 * a0 + c] and stats[A1 * A0 + a1 * a0 + c]; backward: the sums). False when
  // a backward sum is beyond f32's range.
  bool StatsCore(int64_t core, const char* const* in, float* stats) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const int64_t ib = static_cast<int64_t>(in_bytes_);
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    float* second = stats + p.a1 * p.a0;
    double acc[kAraBlockCols];
    bool within = true;
    ForEachAraBlock(core, [&](int64_t a1, int64_t c0, size_t w) {
      const int64_t off = a1 * p.r * p.a0 + c0, col = a1 * p.a0 + c0;
      if (forward_) {
        forward_kernels_.ara_stats(in[0] + off * ib, r, stride, w, stats + col, acc, second + col);
      } else {
        within = backward_kernels_.ara_sums(in[0] + off * ib, in[1] + off * ib, r, stride, w, acc,
                                            stats + col) &&
                 within;
      }
    });
    return within;
  }

  // output_by_rows' second phase: an even share of the A1 x R rows, each whole.
  void OutRowsCore(int64_t core, const char* const* in, const float* stats, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const int64_t ib = static_cast<int64_t>(in_bytes_), ob = static_cast<int64_t>(out_bytes_);
    int64_t begin, end;
    RowShare(p, core, &begin, &end);
    const float* second = stats + p.a1 * p.a0;
    const size_t w = static_cast<size_t>(p.a0);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t off = t * p.a0, col = t / p.r * p.a0;
      if (forward_) {
        forward_kernels_.cols_out(in[0] + off * ib, stats + col, second + col, out + off * ob, w);
      } else {
        backward_kernels_.cols_out(in[0] + off * ib, in[1] + off * ib, stats + col, out + off * ob,
                                   w);
      }
    }
  }

  uint64_t StatsBytes() const {
    const tiling::ReductionPlan& p = plan_->reduction;
    return static_cast<uint64_t>(p.a1) * static_cast<uint64_t>(p.a0) * (forward_ ? 2 : 1) *
           sizeof(float);
  }

  core::FusedLayout layout_;
  int64_t ara_block_cols_ = kAraBlockCols;
  bool row_split_ = false;
  uint64_t stats_offset_ = 0;
  int num_in_ = 2;
  bool forward_ = false;
  bool gathered_ = false;
  bool stream_ = false;
  const char* target_ = "";
  size_t in_bytes_ = 4, out_bytes_ = 4;
  kernels::SoftmaxBackwardKernels backward_kernels_{};
  kernels::SoftmaxForwardKernels forward_kernels_{};
  OperandCodec codecs_[3];
  kernels::ToF32Fn round_result_ = nullptr;  // the result rounded to self's dtype, or null
};

// The plan, the fused layout and the executor, for either direction: `inputs` are the
// operands read (dy and y, or x), all of out's shape.
Status PrepareReduction(Op op, const Operands& operands, int64_t dim,
                        const tiling::Options& options, uint64_t* workspace_size,
                        ExecutorPtr* executor) {
  const TensorView& in0 = *operands.in[0].view;
  const TensorView& out = *operands.out[0].view;
  const core::ViewSpan& out_span = *operands.out[0].span;
  const std::vector<int64_t>& shape = in0.shape;
  // The plan fuses the shape to (A1, R, A0) around dim. LogSoftmax computes in out's dtype
  // (self is cast to it first), Softmax and the backward in their inputs'.
  const bool forward = GetOpInfo(op).is_forward;
  const DType compute =
      forward && !CastsResultToOut(GetOpInfo(op).dtypes) ? out.dtype : in0.dtype;
  const tiling::Problem problem{op, compute, shape, dim, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, out_span.numel == 0, options, &plan));
  if (out_span.numel == 0) {
    executor->reset(new EmptyExecutor(op, DTypeName(compute)));
    *workspace_size = 0;
    return Status::Ok();
  }
  const int num = operands.num_in + 1;
  std::vector<int64_t> strides[3];
  char* firsts[3];
  DType dtypes[3];
  for (int k = 0; k < num; ++k) {
    const Operand& v = k < operands.num_in ? operands.in[k] : operands.out[0];
    strides[k] = v.span->strides;
    firsts[k] = v.span->first;
    dtypes[k] = v.view->dtype;
  }
  const core::FusedLayout layout = core::Fuse(shape, num, firsts, dtypes, strides);
  // The double executor is LogSoftmax's (Softmax takes no DOUBLE: the front end refuses it).
  Executor* exec = forward && out.dtype == DType::kFloat64 &&
                           RowFunctionOf(op) == kernels::RowFunction::kLogSoftmax
                       ? MakeLogSoftmaxF64Executor(op, std::move(plan), layout)
                       : new SoftmaxExecutor(op, std::move(plan), layout, in0.dtype, out.dtype);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace

Status PrepareSoftmax(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor) {
  return PrepareReduction(op, operands, dim, options, workspace_size, executor);
}

}  // namespace exec
}  // namespace hostnn
