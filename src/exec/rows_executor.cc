// The row executor: one walk for every Rows operator over the plan's (A1, R, A0) view of the
// shape. The operator's row function (kernels::RowFns: which passes, what they keep) is the
// only part that is its own; this file walks the units on the plan's cores:
// - AR plans run a row per unit (R contiguous elements), ARA plans a block of columns per
//   unit (R rows apart); each row or column is reduced by one core in the row function's
//   fixed order, so results do not depend on the thread count, the template or the
//   platform profile.
// - An ARA plan whose cores split each row's columns writes its output by rows instead
//   (ReductionPlan::output_by_rows): the columns' statistics first (ara_stats, into the
//   workspace), then whole rows spread evenly over the cores (cols_out). On Zen 4, two
//   cores storing to disjoint lines of the same pages ran 16 to 25 times slower than alone,
//   and [1024, 256] dim 0 ran 1.2x to 3x slower on two threads than on one.
// - Strided or mixed-dtype operands are gathered to the lanes' type (f32, or f64 for a
//   LogSoftmax into DOUBLE and a Softmax of DOUBLE) in the workspace first and the result
//   scattered back after. LogSoftmax computes in out's dtype, self cast to it first as CANN
//   does; Softmax in self's, the result cast to out's, as CANN's op_api appends a Cast.

#include "src/exec/rows_executor.h"

#include <algorithm>
#include <string>

#include "kernels/kernels.h"
#include "kernels/row_fns.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"
#include "src/exec/reduction_units.h"

namespace hostnn {
namespace exec {
namespace {

// The columns per ARA call. A tensor that fits in the caches runs the widest blocks, and so
// does a row function that reads its input twice (the backward: narrower blocks measured
// slower). One whose output streams (past stream_min_bytes) and that reads its input three
// times (the forward) would read each block's passes from memory: its blocks are cut so that
// one block's input, R rows of it, stays within four UBs (two L2s on the host profile) for
// the second and third passes, in whole cache blocks of columns. Zen 4, [1024, 65536] dim 0
// f32, 2 threads: 4096 columns 0.42 ns per element, 2048 0.37, 1024 0.33, 512 (2 MiB)
// 0.30; the backward 0.44 at 4096 and 0.49 at 512.
int64_t AraBlockCols(const tiling::Plan& plan, const kernels::RowFns& f, bool stream) {
  const tiling::ReductionPlan& p = plan.reduction;
  if (f.block_passes < 3 || !stream || p.a0 == 1) return kAraBlockCols;
  const int64_t in_bytes = static_cast<int64_t>(f.in_bytes);
  const int64_t align = std::max<int64_t>(1, plan.platform.block_bytes / in_bytes);
  const int64_t budget = 4 * plan.platform.ub_bytes / (p.r * in_bytes);
  return std::min(kAraBlockCols, std::max(align, budget / align * align));
}

class RowsExecutor final : public Executor {
 public:
  RowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout,
               DType in, DType out)
      : Executor(op, std::move(plan)), layout_(layout), num_in_(layout.num_operands - 1) {
    const bool forward = GetOpInfo(op).is_forward;
    lane_bytes_ = kernels::RowLaneBytes(op, in, out);
    target_ = kernels::ChosenTargetName();
    if (lane_bytes_ == sizeof(double)) {
      // Widened exactly to double and computed in place in the scratch; a narrower out
      // (Softmax's) takes the double result rounded once to its dtype.
      gathered_ = !layout.dense || in != DType::kFloat64 || out != DType::kFloat64;
      if (gathered_) codecs_[0] = MakeCodec(layout.operands[0].dtype);
      if (out != DType::kFloat64) {
        narrow_f64_ = kernels::GetToF32Via(DType::kFloat64, out);
        codecs_[num_in_] = MakeCodec(out);
      }
      out_slot_ = 0;
    } else {
      // The forward kernels read and write one dtype: another output dtype goes through f32.
      gathered_ = !layout.dense || (forward && in != out);
      if (gathered_) {
        // LogSoftmax casts self to out's dtype first, as CANN does (one rounding where out
        // is narrower), then computes in f32 like out's own dtype. Softmax computes in
        // self's dtype and casts the result to out's (CANN's op_api appends a Cast): self is
        // widened as it is, and a 16-bit self's result rounded to it before the scatter
        // rounds it to out's.
        const bool cast_result = CastsResultToOut(GetOpInfo(op).dtypes);
        const DType via = forward && !cast_result ? out : DType::kUndefined;
        if (forward && cast_result && in != out && in != DType::kFloat32)
          round_result_ = kernels::GetToF32Via(DType::kFloat32, in);
        for (int k = 0; k < layout.num_operands; ++k)
          codecs_[k] = MakeCodec(layout.operands[k].dtype, k < num_in_ ? via : DType::kUndefined);
      } else {
        // An output too big to stay in the caches is written with non-temporal stores, by
        // the ARA block kernels only: the row kernels of AR plans end each row with a store
        // fence, which at 1024-element rows costs more than streaming saves (Zen 4,
        // [65536, 1024] dim -1, 1 thread: f32 0.40 ns per element streamed, 0.33 cached;
        // bf16 0.49, 0.41).
        stream_ = plan_->reduction.a0 != 1 &&
                  kernels::ChooseStoreMode(static_cast<uint64_t>(layout.numel) * DTypeSize(out),
                                           plan_->stream_min_bytes) == kernels::StoreMode::kStream;
      }
      out_slot_ = num_in_;
    }
    if (gathered_) {
      in = out = lane_bytes_ == sizeof(double) ? DType::kFloat64 : DType::kFloat32;
      workspace_bytes_ =
          static_cast<uint64_t>(out_slot_ + 1) * static_cast<uint64_t>(layout.numel) * lane_bytes_;
    }
    fns_ = kernels::GetRowFns(op, in, out,
                              stream_ ? kernels::StoreMode::kStream : kernels::StoreMode::kCached);
    ara_block_cols_ = AraBlockCols(*plan_, fns_, stream_);
    const tiling::ReductionPlan& p = plan_->reduction;
    row_split_ = p.output_by_rows;
    if (row_split_) {
      // After the scratch: the row function's statistics per column of every A1 row, then a
      // flag per core.
      stats_offset_ = workspace_bytes_;
      workspace_bytes_ += StatsBytes() + static_cast<uint64_t>(p.block_dim);
    }
  }

  std::string KernelPath() const override {
    if (lane_bytes_ == sizeof(double)) {
      const DType in = layout_.operands[0].dtype;
      std::string s = std::string(target_) + (gathered_ ? ", gathered to f64" : ", direct");
      if (in == DType::kFloat16 || in == DType::kBFloat16)
        s += std::string(", ") + kernels::ConversionName(in);
      s += ", f64 lanes";
      if (narrow_f64_ != nullptr)
        s += std::string(", rounded to ") + DTypeName(layout_.operands[num_in_].dtype);
      return s;
    }
    DType dtypes[3];
    for (int k = 0; k < layout_.num_operands; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, !gathered_, layout_.dense, dtypes, layout_.num_operands, stream_);
  }

  void Run(char* workspace) const override {
    struct Ctx {
      const RowsExecutor* self;
      const char* in[2];
      char* out;
      char* scratch;
      char* stats;
      char* within;
    } ctx{this, {nullptr, nullptr}, layout_.operands[num_in_].first, workspace, nullptr, nullptr};
    for (int k = 0; k < num_in_; ++k) ctx.in[k] = layout_.operands[k].first;
    const int64_t block_dim = plan_->reduction.block_dim;
    const uint64_t slot_bytes = static_cast<uint64_t>(layout_.numel) * lane_bytes_;
    if (gathered_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->GatherPart(core, c->scratch);
          },
          &ctx);
      for (int k = 0; k < num_in_; ++k) ctx.in[k] = workspace + k * slot_bytes;
      ctx.out = workspace + out_slot_ * slot_bytes;
    }
    bool by_rows = row_split_;
    if (row_split_) {
      ctx.stats = workspace + stats_offset_;
      ctx.within = ctx.stats + StatsBytes();
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->within[core] = c->self->StatsCore(core, c->in, c->stats);
          },
          &ctx);
      // A column the row function cannot carry in its statistics (a backward sum beyond
      // f32's range, rare) needs the block path: the whole tensor then runs by blocks.
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
            c->self->ScatterPart(core, c->out);
          },
          &ctx);
    }
  }

 private:
  void GatherPart(int64_t core, char* scratch) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    const int64_t n = layout_.numel;
    for (int k = 0; k < num_in_; ++k) {
      if (lane_bytes_ == sizeof(double)) {
        GatherF64(layout_, layout_.operands[k], codecs_[k], b, len,
                  reinterpret_cast<double*>(scratch) + k * n + b);
      } else {
        GatherF32(layout_, layout_.operands[k], codecs_[k], b, len,
                  reinterpret_cast<float*>(scratch) + k * n + b);
      }
    }
  }
  void ScatterPart(int64_t core, char* result) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    const core::FusedOperand& out = layout_.operands[num_in_];
    if (lane_bytes_ == sizeof(double)) {
      const double* r64 = reinterpret_cast<const double*>(result) + b;
      if (narrow_f64_ == nullptr) {
        ScatterF64(layout_, out, b, len, r64);
        return;
      }
      constexpr int64_t kChunk = 1024;
      alignas(64) float narrowed[kChunk];
      for (int64_t k0 = 0; k0 < len; k0 += kChunk) {
        const int64_t m = std::min(kChunk, len - k0);
        narrow_f64_(r64 + k0, narrowed, static_cast<size_t>(m));
        ScatterF32(layout_, out, codecs_[num_in_], b + k0, m, narrowed);
      }
      return;
    }
    float* out32 = reinterpret_cast<float*>(result);  // this executor's scratch
    if (round_result_ != nullptr) round_result_(out32 + b, out32 + b, static_cast<size_t>(len));
    ScatterF32(layout_, out, codecs_[num_in_], b, len, out32 + b);
  }

  // The inputs from element offset `off`.
  void Inputs(const char* const* in, int64_t off, const void* at[2]) const {
    for (int k = 0; k < num_in_; ++k) at[k] = in[k] + off * static_cast<int64_t>(fns_.in_bytes);
  }
  char* Out(char* out, int64_t off) const {
    return out + off * static_cast<int64_t>(fns_.out_bytes);
  }
  // The row function's statistics of column `col` (of A1 x A0).
  void Stats(char* stats, int64_t col, void* at[2]) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    for (int k = 0; k < fns_.num_stats; ++k)
      at[k] = stats + (k * p.a1 * p.a0 + col) * static_cast<int64_t>(fns_.stat_bytes);
  }

  void RunCore(int64_t core, const char* const* in, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const void* at[2] = {nullptr, nullptr};
    if (p.a0 == 1) {  // AR: a unit is one row
      const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
      for (int64_t u = begin; u < end; ++u) {
        const int64_t base = p.GetUnit(u).a1_begin * p.r;
        Inputs(in, base, at);
        fns_.row(fns_, at, Out(out, base), static_cast<size_t>(p.r),
                 static_cast<size_t>(p.r_chunk));
      }
      return;
    }
    // ARA: a unit is a1_tile rows of A1 by one A0 tile; columns are reduced down R.
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    ForEachAraBlock(p, core, ara_block_cols_, [&](int64_t a1, int64_t c0, size_t w) {
      const int64_t off = a1 * p.r * p.a0 + c0;
      Inputs(in, off, at);
      fns_.ara_block(fns_, at, Out(out, off), r, stride, w);
    });
  }

  // output_by_rows' first phase: this core's columns' statistics. False when a column
  // needs the block path.
  bool StatsCore(int64_t core, const char* const* in, char* stats) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    const void* at[2] = {nullptr, nullptr};
    void* st[2] = {nullptr, nullptr};
    bool within = true;
    ForEachAraBlock(p, core, ara_block_cols_, [&](int64_t a1, int64_t c0, size_t w) {
      Inputs(in, a1 * p.r * p.a0 + c0, at);
      Stats(stats, a1 * p.a0 + c0, st);
      within = fns_.ara_stats(fns_, at, r, stride, w, st) && within;
    });
    return within;
  }

  // output_by_rows' second phase: an even share of the A1 x R rows, each whole.
  void OutRowsCore(int64_t core, const char* const* in, char* stats, char* out) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    int64_t begin, end;
    RowShare(p, core, &begin, &end);
    const void* at[2] = {nullptr, nullptr};
    void* st[2] = {nullptr, nullptr};
    for (int64_t t = begin; t < end; ++t) {
      const int64_t off = t * p.a0;
      Inputs(in, off, at);
      Stats(stats, t / p.r * p.a0, st);
      fns_.cols_out(fns_, at, st, Out(out, off), static_cast<size_t>(p.a0));
    }
  }

  uint64_t StatsBytes() const {
    const tiling::ReductionPlan& p = plan_->reduction;
    return static_cast<uint64_t>(p.a1) * static_cast<uint64_t>(p.a0) *
           static_cast<uint64_t>(fns_.num_stats) * fns_.stat_bytes;
  }

  core::FusedLayout layout_;
  int num_in_ = 1;
  size_t lane_bytes_ = sizeof(float);
  int out_slot_ = 1;  // the gathered result's scratch slot (after the inputs; f64: in place)
  kernels::RowFns fns_;
  int64_t ara_block_cols_ = kAraBlockCols;
  bool row_split_ = false;
  uint64_t stats_offset_ = 0;
  bool gathered_ = false;
  bool stream_ = false;
  const char* target_ = "";
  OperandCodec codecs_[3];
  kernels::ToF32Fn round_result_ = nullptr;  // the result rounded to self's dtype, or null
  kernels::ToF32Fn narrow_f64_ = nullptr;    // a double result rounded to out's, or null
};

}  // namespace

Status PrepareRows(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor) {
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
    return PrepareEmpty(op, compute, workspace_size, executor);
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
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, num, firsts, dtypes, strides, &layout));
  auto* exec = new RowsExecutor(op, std::move(plan), layout, in0.dtype, out.dtype);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
