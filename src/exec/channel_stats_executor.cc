// The per-channel normalisations' executor: segments (one sample's channel each) on the
// reduction plan's cores (the planner makes x's [N, C, spatial...] N * C segments of S),
// their sums in per-segment slots, the channels' statistics from the slots in sample order,
// then the segments' results. A segment of each
// row operand is gathered to f32 (or read in place when every row operand and result is dense
// FLOAT) and handed to the segment functions (kernels::ChannelNormFns); the per-channel
// operands are gathered to f32 once per run and the per-channel outputs written once, after
// every core is done (a forward's running statistics are its inputs too).

#include "src/exec/channel_stats_executor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"
#include "src/exec/own_operand.h"
#include "src/exec/plan_rows.h"

namespace hostnn {
namespace exec {
namespace {

// The per-channel operands in the order the workspace holds their f32 values.
enum ChannelIn { kWeight, kBias, kMean, kVar, kChannelIns };
// The per-channel coefficients step 2 leaves for step 3, in double: the forward's mean, rstd,
// gamma, beta; the gradient's mean, invstd, gradBias and gradWeight, their quotients by M (a,
// b: training) and k = invstd * weight.
enum Coef { kCoefMean, kCoefScale, kCoefA, kCoefB, kCoefK, kCoefAm, kCoefBm, kCoefs };
// An [N, C] input (S = 1) runs its one-element segments a run of at most kLaneRun consecutive
// channels of one sample at a time (kernels::ChannelNormFns' lane functions).
constexpr int64_t kLaneRun = 1024;

class ChannelStatsExecutor final : public Executor {
 public:
  ChannelStatsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan,
                       const ChannelStatsOperands& o, const core::FusedLayout& layout,
                       const OwnOperand (&ins)[kChannelIns], const OwnOperand (&outs)[6])
      : Executor(op, std::move(plan)),
        layout_(layout),
        gradient_(o.dy.view != nullptr),
        has_y_(o.y.view != nullptr),
        training_(o.training),
        n_(o.n),
        c_(o.c),
        s_(o.s),
        momentum_(o.momentum),
        eps_(o.eps),
        fns_(kernels::GetChannelNorm()) {
    for (int k = 0; k < kChannelIns; ++k) ins_[k] = ins[k];
    for (int k = 0; k < 6; ++k) outs_[k] = outs[k];
    // The row operands as fused: x (the forward's) or dy and x, then y where wanted.
    row_operands_ = gradient_ ? 2 : 1;
    const Operand* rows[3] = {gradient_ ? &o.dy : &o.x, &o.x, &o.y};
    bool all_f32 = true;
    int k = 0;
    for (int i = 0; i < 3; ++i) {
      if (i == 1 && !gradient_) continue;
      if (i == 2 && !has_y_) continue;
      dtypes_[k] = rows[i]->view->dtype;
      codecs_[k] = MakeCodec(dtypes_[k]);
      all_f32 = all_f32 && dtypes_[k] == DType::kFloat32;
      ++k;
    }
    fused_ = k;
    direct_ = layout.dense && all_f32;
    target_ = kernels::ChosenTargetName();
    // The sums step 1 needs: the forward's in training; the gradient's where a column sum is
    // asked for, or gradInput in training.
    const bool sums_wanted = outs_[4].given || outs_[5].given;
    needs_sums_ = gradient_ ? (sums_wanted || (has_y_ && training_)) : training_;

    const uint64_t segments = static_cast<uint64_t>(n_) * static_cast<uint64_t>(c_);
    const uint64_t channels = static_cast<uint64_t>(c_);
    uint64_t at = 0;
    ins_at_ = at, at += AlignWorkspace(sizeof(float) * channels * kChannelIns);
    slots_at_ = at, at += needs_sums_ ? AlignWorkspace(sizeof(double) * segments * 2) : 0;
    coef_at_ = at, at += AlignWorkspace(sizeof(double) * channels * kCoefs);
    out_at_ = at, at += AlignWorkspace(sizeof(float) * channels);
    cores_at_ = at;
    const int64_t core_row = s_ == 1 ? kLaneRun : s_;
    core_bytes_ = direct_ ? 0
                          : AlignWorkspace(sizeof(float) * static_cast<uint64_t>(fused_) *
                                           static_cast<uint64_t>(core_row));
    workspace_bytes_ = cores_at_ + core_bytes_ * static_cast<uint64_t>(plan_->reduction.block_dim);
  }

  std::string KernelPath() const override {
    return DescribeKernelPath(target_, direct_, layout_.dense, dtypes_, fused_, false) + ", " +
           GetOpInfo(op_).name + " per-channel segments (double sums in sample order)";
  }

  void Run(char* workspace) const override {
    float* ins = F32(workspace, ins_at_);
    for (int k = 0; k < kChannelIns; ++k) {
      if (ins_[k].given) GatherOwn(ins_[k], c_, ins + k * c_);
    }
    if (gradient_) {  // step 1 reads the channels' means
      double* mean = Coefs(workspace, kCoefMean);
      for (int64_t ch = 0; ch < c_; ++ch) mean[ch] = In(workspace, kMean, ch, 0.0);
    }
    if (needs_sums_) {
      launch::LaunchRunCore(plan_->reduction.block_dim, this, &ChannelStatsExecutor::SumsCore,
                            workspace);
    }
    Channels(workspace);
    if (has_y_) {
      launch::LaunchRunCore(plan_->reduction.block_dim, this, &ChannelStatsExecutor::ResultCore,
                            workspace);
    }
    WriteChannelOutputs(workspace);
  }

 private:
  static float* F32(char* workspace, uint64_t at) {
    return reinterpret_cast<float*>(workspace + at);
  }
  double* Slots(char* workspace, int k) const {
    return reinterpret_cast<double*>(workspace + slots_at_) + k * n_ * c_;
  }
  double* Coefs(char* workspace, int k) const {
    return reinterpret_cast<double*>(workspace + coef_at_) + k * c_;
  }
  // Per-channel input k's value for channel ch, or its default where not given.
  double In(char* workspace, int k, int64_t ch, double absent) const {
    return ins_[k].given ? static_cast<double>(F32(workspace, ins_at_)[k * c_ + ch]) : absent;
  }

  // Segment r's row operands: read in place, or gathered into the core's buffers; and where
  // its result goes.
  struct Segment {
    const float* in[2] = {};
    float* out = nullptr;
  };
  Segment Load(int64_t r, char* workspace, int64_t core, int64_t rows = 1) const {
    Segment seg;
    const int64_t start = r * s_, len = rows * s_;
    if (direct_) {
      for (int k = 0; k < row_operands_; ++k) {
        seg.in[k] = reinterpret_cast<const float*>(layout_.operands[k].first) + start;
      }
      if (has_y_) seg.out = reinterpret_cast<float*>(layout_.operands[row_operands_].first) + start;
      return seg;
    }
    float* buffers = F32(workspace, cores_at_ + static_cast<uint64_t>(core) * core_bytes_);
    for (int k = 0; k < row_operands_; ++k) {
      float* b = buffers + k * len;
      GatherF32(layout_, layout_.operands[k], codecs_[k], start, len, b);
      seg.in[k] = b;
    }
    if (has_y_) seg.out = buffers + row_operands_ * len;
    return seg;
  }

  // f(first, rows) for runs of the core's one-element segments (S = 1) that stay within one
  // sample (consecutive channels) and hold at most kLaneRun.
  template <class F>
  void ForEachLaneRun(int64_t core, F f) const {
    ForEachPlannedRun(plan_->reduction, core, [&](int64_t first, int64_t count) {
      for (int64_t r = first, end = first + count; r < end;) {
        const int64_t sample_end = (r / c_ + 1) * c_;
        const int64_t rows = std::min({end - r, sample_end - r, kLaneRun});
        f(r, rows);
        r += rows;
      }
    });
  }

  // Step 1: each segment's sums into its slots (the forward's mean and centred sum of
  // squares; the gradient's sum(dy) and sum(dy * (x - mean)) with its channel's mean).
  void SumsCore(int64_t core, char* workspace) const {
    double* s0 = Slots(workspace, 0);
    double* s1 = Slots(workspace, 1);
    const double* mean = Coefs(workspace, kCoefMean);  // the gradient's, filled by Run
    if (s_ == 1) {
      ForEachLaneRun(core, [&](int64_t r, int64_t rows) {
        const Segment seg = Load(r, workspace, core, rows);
        const size_t len = static_cast<size_t>(rows);
        if (gradient_) {
          fns_.lane_grad_sums(seg.in[0], seg.in[1], len, mean + r % c_, s0 + r, s1 + r);
        } else {
          fns_.lane_moments(seg.in[0], len, s0 + r, s1 + r);
        }
      });
      return;
    }
    ForEachPlannedRow(plan_->reduction, core, [&](int64_t r) {
      const Segment seg = Load(r, workspace, core);
      const size_t len = static_cast<size_t>(s_);
      if (gradient_) {
        fns_.grad_sums(seg.in[0], seg.in[1], len, mean[r % c_], s0 + r, s1 + r);
      } else {
        fns_.moments(seg.in[0], len, s0 + r, s1 + r);
      }
    });
  }

  // Step 2: per channel, its statistics from the segments in sample order, and the
  // coefficients step 3 takes.
  void Channels(char* workspace) const {
    double* coef[kCoefs];
    for (int k = 0; k < kCoefs; ++k) coef[k] = Coefs(workspace, k);
    const double m = static_cast<double>(n_) * static_cast<double>(s_);  // elements per channel
    const double eps = static_cast<double>(eps_);
    // The slots' per-channel sums, sample by sample over every channel (the slots' order in
    // memory; each channel's sum still in sample order): the forward's batch mean and
    // variance into kCoefMean and kCoefK, the gradient's sum(dy) and sum(dy * (x - mean))
    // into kCoefA and kCoefB.
    if (!gradient_ && training_) Combine(workspace, coef[kCoefMean], coef[kCoefK]);
    if (gradient_ && needs_sums_) {
      SumSlots(Slots(workspace, 0), coef[kCoefA]);
      SumSlots(Slots(workspace, 1), coef[kCoefB]);
    }
    for (int64_t ch = 0; ch < c_; ++ch) {
      const double weight = In(workspace, kWeight, ch, 1.0);
      if (!gradient_) {
        double mean = In(workspace, kMean, ch, 0.0), var = In(workspace, kVar, ch, 1.0);
        if (training_) mean = coef[kCoefMean][ch], var = coef[kCoefK][ch];
        coef[kCoefMean][ch] = mean;
        coef[kCoefScale][ch] = 1.0 / std::sqrt(var + eps);
        coef[kCoefA][ch] = weight;
        coef[kCoefB][ch] = In(workspace, kBias, ch, 0.0);
        coef[kCoefK][ch] = var;  // the batch variance, kept for the saved outputs
        continue;
      }
      const double mean = In(workspace, kMean, ch, 0.0);
      const double invstd = 1.0 / std::sqrt(In(workspace, kVar, ch, 1.0) + eps);
      const double dy_sum = needs_sums_ ? coef[kCoefA][ch] : 0.0;
      const double dy_xc_sum = needs_sums_ ? coef[kCoefB][ch] : 0.0;
      const double grad_weight = dy_xc_sum * invstd, grad_bias = dy_sum;
      coef[kCoefMean][ch] = mean;
      coef[kCoefScale][ch] = invstd;
      coef[kCoefA][ch] = grad_bias;
      coef[kCoefB][ch] = grad_weight;
      coef[kCoefK][ch] = invstd * weight;
      coef[kCoefAm][ch] = grad_bias / m;
      coef[kCoefBm][ch] = grad_weight / m;
    }
  }

  // Every channel's sum of its slots, slots[n * C + ch] added in sample order from 0, into
  // sums[ch]; the samples outermost, so that the slots are read in memory order (a channel's
  // slots lie C apart).
  void SumSlots(const double* slots, double* sums) const {
    std::fill(sums, sums + c_, 0.0);
    for (int64_t n = 0; n < n_; ++n) {
      const double* row = slots + n * c_;
      for (int64_t ch = 0; ch < c_; ++ch) sums[ch] += row[ch];
    }
  }

  // Every channel's batch mean and biased variance from its segments' means and centred sums
  // of squares, in sample order in double: mean = sum(mean_n) / N (every segment has S
  // elements), var = sum(m2_n + S * (mean_n - mean)^2) / (N * S), each segment's spread taken
  // about the channel's mean (no cancellation; an infinite element gives an infinite mean, as
  // the plain sum does). Into mean[ch] and var[ch], sample by sample as SumSlots.
  void Combine(char* workspace, double* mean, double* var) const {
    const double* means = Slots(workspace, 0);
    const double* m2s = Slots(workspace, 1);
    SumSlots(means, mean);
    for (int64_t ch = 0; ch < c_; ++ch) mean[ch] = mean[ch] / static_cast<double>(n_);
    const double seg = static_cast<double>(s_);
    std::fill(var, var + c_, 0.0);
    for (int64_t n = 0; n < n_; ++n) {
      const double* mean_n = means + n * c_;
      const double* m2_n = m2s + n * c_;
      for (int64_t ch = 0; ch < c_; ++ch) {
        const double delta = mean_n[ch] - mean[ch];
        var[ch] += m2_n[ch] + seg * (delta * delta);
      }
    }
    const double m = static_cast<double>(n_) * seg;
    for (int64_t ch = 0; ch < c_; ++ch) var[ch] = var[ch] / m;
  }

  // Step 3: each segment's result from its channel's coefficients.
  void ResultCore(int64_t core, char* workspace) const {
    const double* coef[kCoefs];
    for (int k = 0; k < kCoefs; ++k) coef[k] = Coefs(workspace, k);
    if (s_ == 1) {
      ForEachLaneRun(core, [&](int64_t r, int64_t rows) {
        const Segment seg = Load(r, workspace, core, rows);
        const int64_t ch = r % c_;
        const size_t len = static_cast<size_t>(rows);
        if (!gradient_) {
          fns_.lane_normalise(seg.in[0], len, coef[kCoefMean] + ch, coef[kCoefScale] + ch,
                              coef[kCoefA] + ch, coef[kCoefB] + ch, seg.out);
        } else if (training_) {
          fns_.lane_grad(seg.in[0], seg.in[1], len, coef[kCoefMean] + ch, coef[kCoefScale] + ch,
                         coef[kCoefAm] + ch, coef[kCoefBm] + ch, coef[kCoefK] + ch, seg.out);
        } else {
          fns_.lane_scale(seg.in[0], len, coef[kCoefK] + ch, seg.out);
        }
        if (!direct_) {
          ScatterF32(layout_, layout_.operands[row_operands_], codecs_[row_operands_], r, rows,
                     seg.out);
        }
      });
      return;
    }
    ForEachPlannedRow(plan_->reduction, core, [&](int64_t r) {
      const Segment seg = Load(r, workspace, core);
      const int64_t ch = r % c_;
      const size_t len = static_cast<size_t>(s_);
      if (!gradient_) {
        fns_.normalise(seg.in[0], len, coef[kCoefMean][ch], coef[kCoefScale][ch], coef[kCoefA][ch],
                       coef[kCoefB][ch], seg.out);
      } else if (training_) {
        fns_.grad(seg.in[0], seg.in[1], len, coef[kCoefMean][ch], coef[kCoefScale][ch],
                  coef[kCoefAm][ch], coef[kCoefBm][ch], coef[kCoefK][ch], seg.out);
      } else {
        fns_.scale(seg.in[0], len, coef[kCoefK][ch], seg.out);
      }
      if (!direct_) {
        ScatterF32(layout_, layout_.operands[row_operands_], codecs_[row_operands_], r * s_, s_,
                   seg.out);
      }
    });
  }

  // The per-channel outputs, each rounded once from double: the forward's saved mean and
  // variance and running statistics (training), the gradient's gradWeight and gradBias.
  void WriteChannelOutputs(char* workspace) const {
    float* out = F32(workspace, out_at_);
    const double* coef[kCoefs];
    for (int k = 0; k < kCoefs; ++k) coef[k] = Coefs(workspace, k);
    const auto write = [&](const OwnOperand& o, auto value) {
      if (!o.given) return;
      for (int64_t ch = 0; ch < c_; ++ch) out[ch] = static_cast<float>(value(ch));
      WriteOwn(o, out, c_);
    };
    if (gradient_) {
      write(outs_[4], [&](int64_t ch) { return coef[kCoefB][ch]; });
      write(outs_[5], [&](int64_t ch) { return coef[kCoefA][ch]; });
      return;
    }
    if (!training_) return;
    const double m = static_cast<double>(n_) * static_cast<double>(s_);
    const double mom = static_cast<double>(momentum_);
    // The unbiased variance's factor M / (M - 1): NaN for one element per channel (0 / 0).
    const double unbias = m > 1.0 ? m / (m - 1.0) : std::numeric_limits<double>::quiet_NaN();
    write(outs_[0], [&](int64_t ch) { return coef[kCoefMean][ch]; });
    write(outs_[1], [&](int64_t ch) { return coef[kCoefK][ch]; });
    write(outs_[2], [&](int64_t ch) {
      return (1.0 - mom) * In(workspace, kMean, ch, 0.0) + mom * coef[kCoefMean][ch];
    });
    write(outs_[3], [&](int64_t ch) {
      return (1.0 - mom) * In(workspace, kVar, ch, 1.0) + mom * (coef[kCoefK][ch] * unbias);
    });
  }

  core::FusedLayout layout_;  // the row operands (x; or dy, x), then y where wanted
  OwnOperand ins_[kChannelIns];
  OwnOperand outs_[6];  // save_mean, save_var, running_mean, running_var, grad_weight, grad_bias
  bool gradient_, has_y_, training_;
  int64_t n_, c_, s_;
  float momentum_, eps_;
  kernels::ChannelNormFns fns_;
  int row_operands_ = 1, fused_ = 0;
  bool direct_ = false, needs_sums_ = false;
  OperandCodec codecs_[3];
  DType dtypes_[3] = {};
  const char* target_ = "";
  uint64_t ins_at_ = 0, slots_at_ = 0, coef_at_ = 0, out_at_ = 0, cores_at_ = 0;
  uint64_t core_bytes_ = 0;
};

// An empty forward: the saved outputs filled (0 and NaN), each over its own elements.
class EmptyChannelsExecutor final : public Executor {
 public:
  EmptyChannelsExecutor(Op op, const OwnOperand& mean, int64_t mean_len, const OwnOperand& var,
                        int64_t var_len)
      : Executor(op, EmptyPlan(op)), mean_(mean), var_(var), lens_{mean_len, var_len} {
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
  static std::shared_ptr<const tiling::Plan> EmptyPlan(Op op) {
    auto plan = std::make_shared<tiling::Plan>();
    plan->op = GetOpInfo(op).snake_name;
    plan->kind = tiling::Plan::Kind::kReduction;
    return plan;
  }
  OwnOperand mean_, var_;
  int64_t lens_[2];
};

}  // namespace

Status PrepareChannelStatsEmpty(Op op, const ChannelStatsOperands& o, uint64_t* workspace_size,
                                ExecutorPtr* executor) {
  OwnOperand mean, var;
  HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.save_mean, &mean));
  HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.save_var, &var));
  // The span's element count: 0 for any shape with a zero extent (whose other extents a
  // product may not hold).
  const auto len = [](const Operand& v) { return v.view == nullptr ? int64_t{0} : v.span->numel; };
  auto* exec = new EmptyChannelsExecutor(op, mean, len(o.save_mean), var, len(o.save_var));
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

Status PrepareChannelStats(Op op, const ChannelStatsOperands& o, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor) {
  OwnOperand ins[kChannelIns], outs[6];
  const Operand* in_ops[kChannelIns] = {&o.weight, &o.bias, &o.mean, &o.var};
  for (int k = 0; k < kChannelIns; ++k) HOSTNN_RETURN_IF_ERROR(MakeOwn(op, *in_ops[k], &ins[k]));
  const Operand* out_ops[6] = {&o.save_mean,   &o.save_var,    &o.running_mean,
                               &o.running_var, &o.grad_weight, &o.grad_bias};
  for (int k = 0; k < 6; ++k) HOSTNN_RETURN_IF_ERROR(MakeOwn(op, *out_ops[k], &outs[k]));
  const DType dtype = o.x.view->dtype;
  // Planned over x's own shape, [N, C, spatial...]: the planner makes the N * C segments.
  const tiling::Problem problem{op, dtype, o.x.view->shape, 1, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseGiven(op, o.x.view->shape, {&o.dy, &o.x, &o.y}, &layout));
  auto* exec = new ChannelStatsExecutor(op, std::move(plan), o, layout, ins, outs);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
