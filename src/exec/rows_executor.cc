// The row executor: one walk for every Rows operator, the softmax family, the normalisations
// and the per-channel normalisations alike, over the plan's (A1, R, A0) view of the shape (a
// normalisation's: [rows, cols], cols the normalised dims' product; BatchNorm's: [N * C, S],
// its segments). The operator's row function (kernels::RowFns: which passes, what they keep)
// is the only part that is its own; this file gathers, walks the units on the plan's cores,
// and writes back:
// - AR plans run a row per unit (R contiguous elements): RowFns::row over one RowArgs, with
//   a normalisation's per-column operands, per-row inputs and statistics beside it. ARA plans
//   (the softmax family's reductions along a dim that is not the last) run a block of columns
//   per unit (R rows apart). Each row or column is reduced by one core in the row function's
//   fixed order, so results do not depend on the thread count, the template or the platform
//   profile.
// - An ARA plan whose cores split each row's columns writes its output by rows instead
//   (ReductionPlan::output_by_rows): the columns' statistics first (ara_stats, into the
//   workspace), then whole rows spread evenly over the cores (cols_out). On Zen 4, two
//   cores storing to disjoint lines of the same pages ran 16 to 25 times slower than alone,
//   and [1024, 256] dim 0 ran 1.2x to 3x slower on two threads than on one.
// - Column sums (a normalisation gradient's dgamma, dbeta) are taken over fixed blocks of
//   kNormSumRows rows instead of the plan's units, a core's blocks contiguous: each block's
//   column terms go to the block's own slots, and Run adds the slots in block order once
//   every core is done.
// - Strided or mixed-dtype operands are gathered to the lanes' type (f32, or f64 for a
//   LogSoftmax into DOUBLE and a Softmax of DOUBLE): the whole tensor into the workspace
//   first and the result scattered back after where the row function also walks columns
//   (ARA); a row at a time into its core's buffer where it takes rows only. A
//   normalisation's per-column and per-row operands are gathered to f32 once per run, its
//   statistics written in their dtypes once every core is done.
// - A per-channel normalisation (RowFns::channels set) runs three steps with a barrier between
//   each: its segments' sums into their own slots (segment_sums), the channels' step on one
//   thread (channels: statistics and coefficients, from the slots in sample order), then the
//   segments' results (row); one-element segments go a run of consecutive channels at a time
//   (RowArgs::lanes). Its per-channel operands are gathered once and its per-channel outputs
//   written once, after every core is done.
// The front halves (rows_prepare.cc: PrepareRows, PrepareNormRows, PrepareChannelStats) turn
// their operators' operands and dtype rules into one RowsSetup (rows_setup.h); the executor
// knows no operator by name.

#include "src/exec/rows_setup.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <string>

#include "kernels/kernels.h"
#include "kernels/row_fns.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"
#include "src/exec/own_operand.h"
#include "src/exec/plan_rows.h"
#include "src/exec/reduction_units.h"
#include "src/exec/rows_executor.h"

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

// A per-channel normalisation of [N, C] (one-element segments) runs at most kLaneRun
// consecutive channels of one sample at a time (the lane kernels of norm_kernels.cc).
constexpr int64_t kLaneRun = 1024;

class RowsExecutor final : public Executor {
 public:
  RowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, RowsSetup&& s)
      : Executor(op, std::move(plan)),
        layout_(s.layout),
        beside_rows_(std::move(s.beside_rows)),
        row_operands_(s.row_operands),
        results_(s.results),
        fns_(s.fns),
        lane_bytes_(s.lane_bytes),
        direct_(s.direct),
        stream_(s.stream),
        round_result_(s.round_result),
        narrow_f64_(s.narrow_f64),
        out_slot_(s.out_slot),
        row_len_(s.row_len),
        rows_(s.rows),
        col_len_(s.col_len),
        channel_len_(s.channel_len),
        groups_(s.groups),
        eps_(s.eps),
        beside_channels_(std::move(s.beside_channels)),
        channels_(s.channels),
        samples_(s.samples),
        sums_taken_(s.sums_taken),
        momentum_(s.momentum) {
    for (int k = 0; k < kRowArrays; ++k) codecs_[k] = s.codecs[k];
    target_ = kernels::ChosenTargetName();
    // A row function that walks columns too gathers the whole tensor (its units may be
    // columns); one that takes rows only gathers a row at a time.
    whole_gather_ = !direct_ && fns_.ara_block != nullptr;
    ara_block_cols_ = AraBlockCols(*plan_, fns_, stream_);
    for (int k = 0; k < 2 && beside_rows_ != nullptr; ++k) {
      if (beside_rows_->col_sums[k].given) sum_slot_[k] = num_sums_++;
    }
    const tiling::ReductionPlan& p = plan_->reduction;
    blocks_ = (rows_ + kNormSumRows - 1) / kNormSumRows;
    // The workspace, in order: the per-column operands, the per-row inputs and statistics
    // (f32), the column sums' slots (col_len doubles per block and sum) and Run's f32 scratch
    // of the sums; the whole tensor's scratch (a slot per input and the result, in the
    // lanes); output_by_rows' statistics of every column and a flag per core; each core's
    // row of every row operand and result.
    const uint64_t col_in_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(col_len_));
    const uint64_t row_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(rows_));
    // A per-channel normalisation's come first: its per-channel inputs (f32), the segments'
    // sums (two doubles each, where taken), the coefficients (double) and one output's f32
    // values.
    uint64_t at = 0;
    if (channels_ > 0) {
      const uint64_t c = static_cast<uint64_t>(channels_);
      const uint64_t segments = static_cast<uint64_t>(samples_) * c;
      chan_ins_at_ = at, at += AlignWorkspace(sizeof(float) * c * kernels::kChannelIns);
      chan_slots_at_ = at, at += sums_taken_ ? AlignWorkspace(sizeof(double) * segments * 2) : 0;
      coefs_at_ = at, at += AlignWorkspace(sizeof(double) * c * kernels::kChannelCoefs);
      chan_out_at_ = at, at += AlignWorkspace(sizeof(float) * c);
    }
    for (int k = 0; k < kernels::kNormColumnOperands; ++k) cols_at_[k] = at, at += col_in_bytes;
    for (int k = 0; k < 2; ++k) row_in_at_[k] = at, at += row_bytes;
    for (int k = 0; k < 2; ++k) stats_at_[k] = at, at += row_bytes;
    slots_at_ = at;
    if (num_sums_ > 0) {
      at += AlignWorkspace(sizeof(double) * static_cast<uint64_t>(num_sums_) *
                           static_cast<uint64_t>(blocks_) * static_cast<uint64_t>(col_len_));
      sums_scratch_at_ = at;
      at += col_in_bytes;
    }
    whole_at_ = at;
    if (whole_gather_) {
      at +=
          static_cast<uint64_t>(out_slot_ + 1) * static_cast<uint64_t>(layout_.numel) * lane_bytes_;
    }
    row_split_ = p.output_by_rows && fns_.ara_stats != nullptr;
    if (row_split_) {
      stats_offset_ = at;
      at += StatsBytes() + static_cast<uint64_t>(p.block_dim);
    }
    cores_at_ = at;
    row_gather_ = !direct_ && !whole_gather_ && channels_ == 0;
    plain_rows_ = !row_gather_ && channels_ == 0 && beside_rows_ == nullptr && results_ == 1 &&
                  row_operands_ <= 2;
    if (direct_ || whole_gather_) {
      core_bytes_ = 0;
    } else if (channels_ > 0) {  // a segment, or a run of kLaneRun one-element segments
      const int64_t core_row = row_len_ == 1 ? kLaneRun : row_len_;
      core_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(row_operands_ + results_) *
                                   static_cast<uint64_t>(core_row));
    } else {
      core_bytes_ = static_cast<uint64_t>(row_operands_ + 2) *
                    AlignWorkspace(sizeof(float) * static_cast<uint64_t>(row_len_));
    }
    workspace_bytes_ = cores_at_ + core_bytes_ * static_cast<uint64_t>(p.block_dim);
  }

  std::string KernelPath() const override {
    if (lane_bytes_ == sizeof(double)) {
      const DType in = layout_.operands[0].dtype;
      std::string s = std::string(target_) + (direct_ ? ", direct" : ", gathered to f64");
      if (in == DType::kFloat16 || in == DType::kBFloat16)
        s += std::string(", ") + kernels::ConversionName(in);
      s += ", f64 lanes";
      if (narrow_f64_ != nullptr)
        s += std::string(", rounded to ") + DTypeName(layout_.operands[row_operands_].dtype);
      return s;
    }
    DType dtypes[kRowArrays];
    const int num = row_operands_ + results_;
    for (int k = 0; k < num; ++k) dtypes[k] = layout_.operands[k].dtype;
    std::string path = DescribeKernelPath(target_, direct_, layout_.dense, dtypes, num, stream_);
    if (fns_.path_note != nullptr) path += std::string(", ") + GetOpInfo(op_).name + fns_.path_note;
    if (num_sums_ > 0) {
      path += ", column sums over blocks of " + std::to_string(kNormSumRows) + " rows";
    }
    return path;
  }

  void Run(char* workspace) const override {
    if (channels_ > 0) {
      RunChannels(workspace);
      return;
    }
    if (beside_rows_ != nullptr) GatherBesideRows(workspace);
    Ctx ctx;
    ctx.self = this;
    ctx.workspace = workspace;
    for (int k = 0; k < row_operands_ + results_; ++k) ctx.base[k] = layout_.operands[k].first;
    const int64_t block_dim = plan_->reduction.block_dim;
    if (whole_gather_) {
      char* scratch = workspace + whole_at_;
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->GatherPart(core, c->workspace + c->self->whole_at_);
          },
          &ctx);
      const uint64_t slot_bytes = static_cast<uint64_t>(layout_.numel) * lane_bytes_;
      for (int k = 0; k < row_operands_; ++k) ctx.base[k] = scratch + k * slot_bytes;
      ctx.base[row_operands_] = scratch + out_slot_ * slot_bytes;
    }
    bool by_rows = row_split_;
    if (row_split_) {
      ctx.stats = workspace + stats_offset_;
      ctx.within = ctx.stats + StatsBytes();
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->within[core] = c->self->StatsCore(core, c->base, c->stats);
          },
          &ctx);
      // A column the row function cannot carry in its statistics (a backward sum beyond
      // f32's range, rare) needs the block path: the whole tensor then runs by blocks.
      for (int64_t core = 0; core < block_dim; ++core) by_rows = by_rows && ctx.within[core];
    }
    const launch::CoreFn out_fn = [](const void* p, int64_t core) {
      const Ctx* c = static_cast<const Ctx*>(p);
      c->self->OutRowsCore(core, c->base, c->stats);
    };
    const launch::CoreFn unit_fn = [](const void* p, int64_t core) {
      const Ctx* c = static_cast<const Ctx*>(p);
      c->self->RunCore(core, *c);
    };
    launch::LaunchCores(block_dim, by_rows ? out_fn : unit_fn, &ctx);
    if (whole_gather_) {
      launch::LaunchCores(
          block_dim,
          [](const void* p, int64_t core) {
            const Ctx* c = static_cast<const Ctx*>(p);
            c->self->ScatterPart(core, c->base[c->self->row_operands_]);
          },
          &ctx);
    }
    if (beside_rows_ == nullptr) return;
    for (int k = 0; k < 2; ++k)
      WriteOwn(beside_rows_->stats[k], F32(workspace, stats_at_[k]), rows_);
    if (num_sums_ > 0) FinishSums(workspace);
  }

 private:
  // What the cores of one run share: each row operand's and result's first element (in
  // place, or the whole tensor's scratch), and output_by_rows' statistics.
  struct Ctx {
    const RowsExecutor* self = nullptr;
    char* workspace = nullptr;
    char* base[kRowArrays] = {};
    char* stats = nullptr;
    char* within = nullptr;
  };

  // A per-channel normalisation: its per-channel inputs gathered, step 1 (the segments' sums,
  // where taken), step 2 (the channels), step 3 (the segments' results, where wanted), each
  // after the one before on every core; then its per-channel outputs.
  void RunChannels(char* workspace) const {
    float* ins = F32(workspace, chan_ins_at_);
    for (int k = 0; k < kernels::kChannelIns; ++k) {
      const OwnOperand& in = beside_channels_->ins[k];
      if (in.given) GatherOwn(in, channels_, ins + k * channels_);
    }
    const kernels::ChannelArgs c = ChannelTemplate(workspace);
    if (fns_.channel_means != nullptr) fns_.channel_means(c);
    const int64_t block_dim = plan_->reduction.block_dim;
    if (sums_taken_)
      launch::LaunchRunCore(block_dim, this, &RowsExecutor::SegmentsCore<true>, workspace);
    fns_.channels(c);
    if (results_ > 0) {
      launch::LaunchRunCore(block_dim, this, &RowsExecutor::SegmentsCore<false>, workspace);
    }
    float* values = F32(workspace, chan_out_at_);
    for (int k = 0; k < kernels::kChannelOuts; ++k) {
      const OwnOperand& out = beside_channels_->outs[k];
      if (out.given && fns_.channel_output != nullptr && fns_.channel_output(c, k, values)) {
        WriteOwn(out, values, channels_);
      }
    }
  }
  kernels::ChannelArgs ChannelTemplate(char* workspace) const {
    kernels::ChannelArgs c;
    c.n = samples_;
    c.c = channels_;
    c.s = row_len_;
    c.sums_taken = sums_taken_;
    c.momentum = momentum_;
    c.eps = eps_;
    const float* ins = F32(workspace, chan_ins_at_);
    for (int k = 0; k < kernels::kChannelIns; ++k) {
      c.ins[k] = beside_channels_->ins[k].given ? ins + k * channels_ : nullptr;
    }
    for (int k = 0; k < 2 && sums_taken_; ++k) c.slots[k] = ChannelSlots(workspace, k);
    for (int k = 0; k < kernels::kChannelCoefs; ++k) c.coefs[k] = Coefs(workspace, k);
    return c;
  }
  double* ChannelSlots(char* workspace, int k) const {
    return reinterpret_cast<double*>(workspace + chan_slots_at_) + k * samples_ * channels_;
  }
  double* Coefs(char* workspace, int k) const {
    return reinterpret_cast<double*>(workspace + coefs_at_) + k * channels_;
  }

  // f(first, rows, lanes, channel) for the core's segments: each alone, or (S = 1) runs of
  // consecutive one-element segments within one sample of at most kLaneRun.
  template <class F>
  void ForEachSegmentRun(int64_t core, F f) const {
    if (row_len_ != 1) {
      ForEachPlannedRun(plan_->reduction, core, [&](int64_t first, int64_t count) {
        int64_t channel = first % channels_;  // then counted: no division per segment
        for (int64_t r = first; r < first + count; ++r) {
          f(r, int64_t{1}, false, channel);
          if (++channel == channels_) channel = 0;
        }
      });
      return;
    }
    ForEachPlannedRun(plan_->reduction, core, [&](int64_t first, int64_t count) {
      for (int64_t r = first, end = first + count; r < end;) {
        const int64_t sample_end = (r / channels_ + 1) * channels_;
        const int64_t rows = std::min({end - r, sample_end - r, kLaneRun});
        f(r, rows, true, r % channels_);
        r += rows;
      }
    });
  }
  // Segments [r, r + rows) in the core's *a, placed as PlaceRow places a row (in place, or
  // gathered into the core's buffers), with their first channel.
  void Segments(int64_t r, int64_t rows, bool lanes, int64_t channel, char* const* base,
                float* buffers, kernels::RowArgs* a) const {
    const int64_t start = r * row_len_, len = rows * row_len_;
    a->n = static_cast<size_t>(len);
    a->lanes = lanes;
    a->channel = static_cast<size_t>(channel);
    PlaceRow(base, start, len, buffers, a);
  }
  // What a core's segments read: each row operand and result in place, and the core's buffers
  // where they are gathered (null: read in place).
  float* CoreBuffers(char* workspace, int64_t core, char** base) const {
    for (int k = 0; k < row_operands_ + results_; ++k) base[k] = layout_.operands[k].first;
    return direct_ ? nullptr
                   : F32(workspace, cores_at_ + static_cast<uint64_t>(core) * core_bytes_);
  }
  // Step 1 (kSums: each segment's sums into its slots) or step 3 (each segment's result from
  // its channel's coefficients) on one core.
  template <bool kSums>
  void SegmentsCore(int64_t core, char* workspace) const {
    const double* coefs[kernels::kChannelCoefs];
    for (int k = 0; k < kernels::kChannelCoefs; ++k) coefs[k] = Coefs(workspace, k);
    char* base[kRowArrays];
    float* buffers = CoreBuffers(workspace, core, base);
    double* const slots[2] = {ChannelSlots(workspace, 0), ChannelSlots(workspace, 1)};
    kernels::RowArgs a;
    a.coefs = coefs;
    ForEachSegmentRun(core, [&](int64_t r, int64_t rows, bool lanes, int64_t channel) {
      Segments(r, rows, lanes, channel, base, buffers, &a);
      if (kSums) {
        a.sums[0] = slots[0] + r;
        a.sums[1] = slots[1] + r;
        fns_.segment_sums(fns_, a);
        return;
      }
      fns_.row(fns_, a);
      if (buffers != nullptr) ScatterRow(r * row_len_, rows * row_len_, a);
    });
  }

  // The per-column and per-row operands, to f32 once per run.
  void GatherBesideRows(char* workspace) const {
    for (int k = 0; k < kernels::kNormColumnOperands; ++k) {
      if (beside_rows_->cols[k].given)
        GatherOwn(beside_rows_->cols[k], col_len_, F32(workspace, cols_at_[k]));
    }
    for (int k = 0; k < 2; ++k) {
      if (beside_rows_->row_in[k].given) {
        GatherOwn(beside_rows_->row_in[k], rows_, F32(workspace, row_in_at_[k]));
      }
    }
  }

  static float* F32(char* workspace, uint64_t at) {
    return reinterpret_cast<float*>(workspace + at);
  }
  // The slots of block `block` of the slot-th column sum given.
  double* Slots(char* workspace, int slot, int64_t block) const {
    return reinterpret_cast<double*>(workspace + slots_at_) + (slot * blocks_ + block) * col_len_;
  }

  void GatherPart(int64_t core, char* scratch) const {
    int64_t b, len;
    plan_->reduction.ElementPart(layout_.numel, core, &b, &len);
    const int64_t n = layout_.numel;
    for (int k = 0; k < row_operands_; ++k) {
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
    const core::FusedOperand& out = layout_.operands[row_operands_];
    const OperandCodec& codec = codecs_[row_operands_];
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
        ScatterF32(layout_, out, codec, b + k0, m, narrowed);
      }
      return;
    }
    float* out32 = reinterpret_cast<float*>(result);  // this executor's scratch
    if (round_result_ != nullptr) round_result_(out32 + b, out32 + b, static_cast<size_t>(len));
    ScatterF32(layout_, out, codec, b, len, out32 + b);
  }

  // The column sums: per column, the blocks' partial sums added in block order, rounded once.
  void FinishSums(char* workspace) const {
    float* out32 = F32(workspace, sums_scratch_at_);
    for (int k = 0; k < 2; ++k) {
      if (sum_slot_[k] < 0) continue;
      for (int64_t c = 0; c < col_len_; ++c) {
        double total = 0.0;
        for (int64_t b = 0; b < blocks_; ++b) total += Slots(workspace, sum_slot_[k], b)[c];
        out32[c] = static_cast<float>(total);
      }
      WriteOwn(beside_rows_->col_sums[k], out32, col_len_);
    }
  }

  // The inputs from element offset `off`.
  void Inputs(char* const* base, int64_t off, const void* at[2]) const {
    for (int k = 0; k < row_operands_; ++k) {
      at[k] = base[k] + off * static_cast<int64_t>(fns_.in_bytes);
    }
  }
  // The row function's statistics of column `col` (of A1 x A0).
  void Stats(char* stats, int64_t col, void* at[2]) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    for (int k = 0; k < fns_.num_stats; ++k)
      at[k] = stats + (k * p.a1 * p.a0 + col) * static_cast<int64_t>(fns_.stat_bytes);
  }

  // What every row of a run shares: the length, the chunk, eps, the per-column operands.
  kernels::RowArgs RowTemplate(char* workspace) const {
    kernels::RowArgs a;
    a.n = static_cast<size_t>(row_len_);
    a.r_chunk = static_cast<size_t>(plan_->reduction.r_chunk);
    a.channel_len = static_cast<size_t>(channel_len_);
    a.eps = eps_;
    for (int k = 0; k < kernels::kNormColumnOperands && beside_rows_ != nullptr; ++k) {
      a.cols[k] = beside_rows_->cols[k].given ? F32(workspace, cols_at_[k]) : nullptr;
    }
    return a;
  }

  // One row: gathered (or read in place), its column terms added, computed and scattered
  // (where the result is wanted: a gradient's dx may be masked out). *a is the core's, from
  // `shared`: each row sets what is its own.
  void RunRow(int64_t row, const kernels::RowArgs& shared, kernels::RowArgs* a, const Ctx& c,
              float* core_rows, double* const* sums) const {
    if (beside_rows_ != nullptr) {  // a normalisation's per-row values
      for (int k = 0; k < 2; ++k) {
        if (beside_rows_->row_in[k].given) a->row_in[k] = F32(c.workspace, row_in_at_[k])[row];
        a->stats[k] = F32(c.workspace, stats_at_[k]) + row;
      }
    }
    // Channel-held columns: this row's group of channels.
    const int64_t group_at = channel_len_ > 0 ? (row % groups_) * (row_len_ / channel_len_) : 0;
    for (int k = 0; k < kernels::kNormColumnOperands && channel_len_ > 0; ++k) {
      if (shared.cols[k] != nullptr) a->cols[k] = shared.cols[k] + group_at;
    }
    const int64_t s = row * row_len_;
    PlaceRow(c.base, s, row_len_, core_rows, a);
    // The column terms read the row's inputs before the result may overwrite them (in place);
    // channel-held sums from this row's group of channels.
    if (sums != nullptr) {
      double* const row_sums[2] = {sums[0] != nullptr ? sums[0] + group_at : nullptr,
                                   sums[1] != nullptr ? sums[1] + group_at : nullptr};
      if (results_ > 0 && fns_.row_sums) {  // in the row's output pass
        a->sums[0] = row_sums[0];
        a->sums[1] = row_sums[1];
      } else {
        fns_.columns(fns_, *a, row_sums);
      }
    }
    if (results_ == 0) return;
    fns_.row(fns_, *a);
    if (core_rows != nullptr) ScatterRow(s, row_len_, *a);
  }

  // The row operands' elements [start, start + len) in *a: where `base` says (in place, or in
  // the whole tensor's scratch; in the row function's element sizes), or gathered into
  // `buffers` (len f32 each; null: not gathered; a dense row is one conversion call,
  // GatherF32's dense case, else a walk); and where the results go.
  void PlaceRow(char* const* base, int64_t start, int64_t len, float* buffers,
                kernels::RowArgs* a) const {
    // Each pointer stored once, straight into *a (a pair staged on the stack and copied cost
    // a failed store forwarding per row).
    if (buffers == nullptr) {
      const int64_t in_at = start * static_cast<int64_t>(fns_.in_bytes);
      const int64_t out_at = start * static_cast<int64_t>(fns_.out_bytes);
      for (int k = 0; k < row_operands_; ++k) a->in[k] = base[k] + in_at;
      a->out = results_ > 0 ? base[row_operands_] + out_at : nullptr;
      a->out2 = results_ > 1 ? base[row_operands_ + 1] + out_at : nullptr;
      return;
    }
    for (int k = 0; k < row_operands_; ++k) {
      float* buffer = buffers + k * len;
      GatherF32(layout_, layout_.operands[k], codecs_[k], start, len, buffer);
      a->in[k] = buffer;
    }
    a->out = results_ > 0 ? buffers + row_operands_ * len : nullptr;
    a->out2 = results_ > 1 ? buffers + (row_operands_ + 1) * len : nullptr;
  }
  // The results PlaceRow put in the buffers, scattered to their operands.
  void ScatterRow(int64_t start, int64_t len, const kernels::RowArgs& a) const {
    for (int k = 0; k < results_; ++k) {
      const int at = row_operands_ + k;
      ScatterF32(layout_, layout_.operands[at], codecs_[at], start, len,
                 static_cast<float*>(k == 0 ? a.out : a.out2));
    }
  }

  void RunCore(int64_t core, const Ctx& c) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    if (fns_.ara_block != nullptr && p.a0 != 1) {
      // ARA: a unit is a1_tile rows of A1 by one A0 tile; columns are reduced down R.
      const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
      const void* at[2] = {nullptr, nullptr};
      char* const out = c.base[row_operands_];
      ForEachAraBlock(p, core, ara_block_cols_, [&](int64_t a1, int64_t c0, size_t w) {
        const int64_t off = a1 * p.r * p.a0 + c0;
        Inputs(c.base, off, at);
        fns_.ara_block(fns_, at, out + off * static_cast<int64_t>(fns_.out_bytes), r, stride, w);
      });
      return;
    }
    float* core_rows = row_gather_
                           ? F32(c.workspace, cores_at_ + static_cast<uint64_t>(core) * core_bytes_)
                           : nullptr;
    const kernels::RowArgs shared = RowTemplate(c.workspace);
    kernels::RowArgs a = shared;
    if (num_sums_ > 0) {
      // Whole blocks, a core's contiguous: block b of sum k has its own slots.
      const int64_t cores = p.block_dim;
      const int64_t first = blocks_ * core / cores, last = blocks_ * (core + 1) / cores;
      for (int64_t b = first; b < last; ++b) {
        double* sums[2] = {};
        for (int k = 0; k < 2; ++k) {
          if (sum_slot_[k] < 0) continue;
          sums[k] = Slots(c.workspace, sum_slot_[k], b);
          std::fill(sums[k], sums[k] + col_len_, 0.0);
        }
        const int64_t end = std::min(rows_, (b + 1) * kNormSumRows);
        for (int64_t row = b * kNormSumRows; row < end; ++row) {
          RunRow(row, shared, &a, c, core_rows, sums);
        }
      }
      return;
    }
    // AR: a unit is a run of rows (a normalisation of one-element rows: a run of A0).
    if (plain_rows_) {
      // Rows with nothing beside them (the softmax family's), in place or in the whole
      // tensor's scratch: a row's operands placed and nothing else per row, so that a short
      // row costs its call alone.
      ForEachPlannedRow(p, core, [&](int64_t row) {
        PlaceRow(c.base, row * row_len_, row_len_, nullptr, &a);
        fns_.row(fns_, a);
      });
      return;
    }
    ForEachPlannedRow(p, core,
                      [&](int64_t row) { RunRow(row, shared, &a, c, core_rows, nullptr); });
  }

  // output_by_rows' first phase: this core's columns' statistics. False when a column
  // needs the block path.
  bool StatsCore(int64_t core, char* const* base, char* stats) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const size_t r = static_cast<size_t>(p.r), stride = static_cast<size_t>(p.a0);
    const void* at[2] = {nullptr, nullptr};
    void* st[2] = {nullptr, nullptr};
    bool within = true;
    ForEachAraBlock(p, core, ara_block_cols_, [&](int64_t a1, int64_t c0, size_t w) {
      Inputs(base, a1 * p.r * p.a0 + c0, at);
      Stats(stats, a1 * p.a0 + c0, st);
      within = fns_.ara_stats(fns_, at, r, stride, w, st) && within;
    });
    return within;
  }

  // output_by_rows' second phase: an even share of the A1 x R rows, each whole.
  void OutRowsCore(int64_t core, char* const* base, char* stats) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    int64_t begin, end;
    RowShare(p, core, &begin, &end);
    const void* at[2] = {nullptr, nullptr};
    void* st[2] = {nullptr, nullptr};
    char* const out = base[row_operands_];
    for (int64_t t = begin; t < end; ++t) {
      const int64_t off = t * p.a0;
      Inputs(base, off, at);
      Stats(stats, t / p.r * p.a0, st);
      fns_.cols_out(fns_, at, st, out + off * static_cast<int64_t>(fns_.out_bytes),
                    static_cast<size_t>(p.a0));
    }
  }

  uint64_t StatsBytes() const {
    const tiling::ReductionPlan& p = plan_->reduction;
    return static_cast<uint64_t>(p.a1) * static_cast<uint64_t>(p.a0) *
           static_cast<uint64_t>(fns_.num_stats) * fns_.stat_bytes;
  }

  core::FusedLayout layout_;                       // the row operands, then the results
  std::unique_ptr<const BesideRows> beside_rows_;  // null: none
  int row_operands_ = 1;
  int results_ = 1;
  kernels::RowFns fns_;
  size_t lane_bytes_ = sizeof(float);
  bool direct_ = false;
  bool stream_ = false;
  kernels::ToF32Fn round_result_ = nullptr;
  kernels::ToF32Fn narrow_f64_ = nullptr;
  int out_slot_ = 1;
  int64_t row_len_ = 0;
  int64_t rows_ = 0, col_len_ = 0, channel_len_ = 0, groups_ = 1;
  float eps_ = 0.0f;
  std::unique_ptr<const BesideChannels> beside_channels_;  // null: none
  int64_t channels_ = 0, samples_ = 0;
  bool sums_taken_ = false;
  float momentum_ = 0.0f;
  uint64_t chan_ins_at_ = 0, chan_slots_at_ = 0, coefs_at_ = 0, chan_out_at_ = 0;
  OperandCodec codecs_[kRowArrays];
  const char* target_ = "";
  bool whole_gather_ = false;
  bool row_gather_ = false;  // a row at a time into the core's buffers
  bool plain_rows_ = false;  // rows with nothing beside them, not gathered a row at a time
  int64_t ara_block_cols_ = kAraBlockCols;
  bool row_split_ = false;
  uint64_t stats_offset_ = 0;
  int num_sums_ = 0;
  int sum_slot_[2] = {-1, -1};  // each column sum's slots, -1 where it is not wanted
  int64_t blocks_ = 0;
  uint64_t cols_at_[kernels::kNormColumnOperands] = {}, row_in_at_[2] = {}, stats_at_[2] = {},
           slots_at_ = 0, sums_scratch_at_ = 0, whole_at_ = 0, cores_at_ = 0;
  uint64_t core_bytes_ = 0;
};

// An empty problem's plan: the operator and dtype named, nothing to walk.
std::shared_ptr<const tiling::Plan> EmptyPlan(Op op, const char* dtype) {
  auto plan = std::make_shared<tiling::Plan>();
  plan->op = GetOpInfo(op).snake_name;
  plan->dtype = dtype;
  plan->kind = tiling::Plan::Kind::kReduction;
  return plan;
}

// An empty normalisation's (MakeEmptyRowsExecutor).
class EmptyRowsExecutor final : public Executor {
 public:
  EmptyRowsExecutor(Op op, const char* dtype, const BesideRows& parts, int64_t rows, int64_t cols,
                    int64_t sum_len)
      : Executor(op, EmptyPlan(op, dtype)),
        beside_rows_(parts),
        rows_(rows),
        cols_(cols),
        sum_len_(sum_len) {
    workspace_bytes_ =
        AlignWorkspace(sizeof(float) * static_cast<uint64_t>(std::max(rows, sum_len)));
  }
  std::string KernelPath() const override { return "empty rows: statistics filled"; }
  void Run(char* workspace) const override {
    float* values = reinterpret_cast<float*>(workspace);
    if (cols_ == 0) {
      std::fill(values, values + rows_, 0.0f);
      WriteOwn(beside_rows_.stats[0], values, rows_);
      std::fill(values, values + rows_, std::numeric_limits<float>::quiet_NaN());
      WriteOwn(beside_rows_.stats[1], values, rows_);
      return;
    }
    std::fill(values, values + sum_len_, 0.0f);
    for (int k = 0; k < 2; ++k) WriteOwn(beside_rows_.col_sums[k], values, sum_len_);
  }
  bool runs_nothing() const override {
    if (cols_ == 0) return !beside_rows_.stats[0].given && !beside_rows_.stats[1].given;
    return !beside_rows_.col_sums[0].given && !beside_rows_.col_sums[1].given;
  }

 private:
  BesideRows beside_rows_;
  int64_t rows_, cols_, sum_len_;
};

// An empty per-channel normalisation's (MakeEmptyChannelsExecutor).
class EmptyChannelsExecutor final : public Executor {
 public:
  EmptyChannelsExecutor(Op op, const OwnOperand& mean, int64_t mean_len, const OwnOperand& var,
                        int64_t var_len)
      : Executor(op, EmptyPlan(op, "")), mean_(mean), var_(var), lens_{mean_len, var_len} {
    workspace_bytes_ = AlignWorkspace(
        sizeof(float) * static_cast<uint64_t>(std::max({mean_len, var_len, int64_t{1}})));
  }
  std::string KernelPath() const override { return "empty input: saved statistics filled"; }
  void Run(char* workspace) const override {
    float* values = reinterpret_cast<float*>(workspace);
    std::fill(values, values + lens_[0], 0.0f);
    WriteOwn(mean_, values, lens_[0]);
    std::fill(values, values + lens_[1], std::numeric_limits<float>::quiet_NaN());
    WriteOwn(var_, values, lens_[1]);
  }
  bool runs_nothing() const override { return !mean_.given && !var_.given; }

 private:
  OwnOperand mean_, var_;
  int64_t lens_[2];
};

// The executor made, its workspace size in *workspace_size.
Status Install(Executor* exec, uint64_t* workspace_size, ExecutorPtr* executor) {
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace

Status MakeRowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, RowsSetup&& setup,
                        uint64_t* workspace_size, ExecutorPtr* executor) {
  return Install(new RowsExecutor(op, std::move(plan), std::move(setup)), workspace_size, executor);
}

Status MakeEmptyRowsExecutor(Op op, DType dtype, const BesideRows& parts, int64_t rows,
                             int64_t cols, int64_t sum_len, uint64_t* workspace_size,
                             ExecutorPtr* executor) {
  return Install(new EmptyRowsExecutor(op, DTypeName(dtype), parts, rows, cols, sum_len),
                 workspace_size, executor);
}

Status MakeEmptyChannelsExecutor(Op op, const OwnOperand& save_mean, int64_t mean_len,
                                 const OwnOperand& save_var, int64_t var_len,
                                 uint64_t* workspace_size, ExecutorPtr* executor) {
  return Install(new EmptyChannelsExecutor(op, save_mean, mean_len, save_var, var_len),
                 workspace_size, executor);
}

}  // namespace exec
}  // namespace hostnn
