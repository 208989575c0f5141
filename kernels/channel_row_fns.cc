// The per-channel normalisations' row functions (ShapeRule ChannelStats: BatchNorm and its
// gradient) in the row executor's form (RowFns): x [N, C, ...] as N * C segments of S
// elements, segment r one sample's channel r % C, in three steps the executor runs with a
// barrier between each, every one bitwise independent of the team:
//   1. every segment's sums (segment_sums, norm_kernels.cc's SIMD functions) into its own
//      slots;
//   2. per channel, its N segments' sums combined in sample order, in double (channels: the
//      channel's statistics and the coefficients step 3 reads; channel_output: the
//      per-channel outputs, each rounded once from double);
//   3. every segment's result from its channel's coefficients (row, norm_kernels.cc's).
// An [N, C] input (S = 1) takes runs of consecutive channels of one sample at a time
// (RowArgs::lanes: the lane kernels, with the segment kernels' bits). This file holds step 2,
// in scalar double: target-independent.

#include <cmath>
#include <limits>

#include "kernels/row_fns.h"

namespace hostnn {
namespace kernels {
namespace {

// Per-channel input k's value for channel ch, or its default where not given.
double In(const ChannelArgs& c, int k, int64_t ch, double absent) {
  return c.ins[k] != nullptr ? static_cast<double>(c.ins[k][ch]) : absent;
}

// ---- Step 2 ---------------------------------------------------------------------------
// Every channel's sum of its slots, slots[n * C + ch] added in sample order from 0, into
// sums[ch]; the samples outermost, so that the slots are read in memory order (a channel's
// slots lie C apart).
void SumSlots(const ChannelArgs& c, const double* slots, double* sums) {
  for (int64_t ch = 0; ch < c.c; ++ch) sums[ch] = 0.0;
  for (int64_t n = 0; n < c.n; ++n) {
    const double* row = slots + n * c.c;
    for (int64_t ch = 0; ch < c.c; ++ch) sums[ch] += row[ch];
  }
}

// Every channel's batch mean and biased variance from its segments' means and centred sums
// of squares, in sample order in double: mean = sum(mean_n) / N (every segment has S
// elements), var = sum(m2_n + S * (mean_n - mean)^2) / (N * S), each segment's spread taken
// about the channel's mean (no cancellation; an infinite element gives an infinite mean, as
// the plain sum does). Into mean[ch] and var[ch], sample by sample as SumSlots.
void Combine(const ChannelArgs& c, double* mean, double* var) {
  const double* means = c.slots[0];
  const double* m2s = c.slots[1];
  SumSlots(c, means, mean);
  for (int64_t ch = 0; ch < c.c; ++ch) mean[ch] = mean[ch] / static_cast<double>(c.n);
  const double seg = static_cast<double>(c.s);
  for (int64_t ch = 0; ch < c.c; ++ch) var[ch] = 0.0;
  for (int64_t n = 0; n < c.n; ++n) {
    const double* mean_n = means + n * c.c;
    const double* m2_n = m2s + n * c.c;
    for (int64_t ch = 0; ch < c.c; ++ch) {
      const double delta = mean_n[ch] - mean[ch];
      var[ch] += m2_n[ch] + seg * (delta * delta);
    }
  }
  const double m = static_cast<double>(c.n) * seg;
  for (int64_t ch = 0; ch < c.c; ++ch) var[ch] = var[ch] / m;
}

// The forward's: mean and variance (the batch's in training, else the running ones), rstd,
// weight and bias.
template <bool kTraining>
void ForwardChannels(const ChannelArgs& c) {
  double* const* coef = c.coefs;
  const double eps = static_cast<double>(c.eps);
  if (kTraining) Combine(c, coef[kCoefMean], coef[kCoefK]);
  for (int64_t ch = 0; ch < c.c; ++ch) {
    double mean = In(c, kChannelMean, ch, 0.0), var = In(c, kChannelVar, ch, 1.0);
    if (kTraining) mean = coef[kCoefMean][ch], var = coef[kCoefK][ch];
    coef[kCoefMean][ch] = mean;
    coef[kCoefScale][ch] = 1.0 / std::sqrt(var + eps);
    coef[kCoefA][ch] = In(c, kChannelWeight, ch, 1.0);
    coef[kCoefB][ch] = In(c, kChannelBias, ch, 0.0);
    coef[kCoefK][ch] = var;  // the batch variance, kept for the saved outputs
  }
}

// The gradient's step 1 reads the channels' means.
void GradChannelMeans(const ChannelArgs& c) {
  for (int64_t ch = 0; ch < c.c; ++ch) c.coefs[kCoefMean][ch] = In(c, kChannelMean, ch, 0.0);
}
// The gradient's: gradBias = sum(dy), gradWeight = sum(dy * (x - mean)) * invstd, and
// gradInput's coefficients.
void GradChannels(const ChannelArgs& c) {
  double* const* coef = c.coefs;
  const double m = static_cast<double>(c.n) * static_cast<double>(c.s);  // elements per channel
  const double eps = static_cast<double>(c.eps);
  if (c.sums_taken) {
    SumSlots(c, c.slots[0], coef[kCoefA]);
    SumSlots(c, c.slots[1], coef[kCoefB]);
  }
  for (int64_t ch = 0; ch < c.c; ++ch) {
    const double weight = In(c, kChannelWeight, ch, 1.0);
    const double mean = In(c, kChannelMean, ch, 0.0);
    const double invstd = 1.0 / std::sqrt(In(c, kChannelVar, ch, 1.0) + eps);
    const double dy_sum = c.sums_taken ? coef[kCoefA][ch] : 0.0;
    const double dy_xc_sum = c.sums_taken ? coef[kCoefB][ch] : 0.0;
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

// The per-channel outputs, each rounded once from double: the forward's saved mean and
// variance and running statistics (training; in inference it writes none), the gradient's
// gradWeight and gradBias.
template <class F>
void Values(const ChannelArgs& c, float* values, F value) {
  for (int64_t ch = 0; ch < c.c; ++ch) values[ch] = static_cast<float>(value(ch));
}
bool TrainingOutput(const ChannelArgs& c, int k, float* values) {
  const double* const* coef = c.coefs;
  const double m = static_cast<double>(c.n) * static_cast<double>(c.s);
  const double mom = static_cast<double>(c.momentum);
  // The unbiased variance's factor M / (M - 1): NaN for one element per channel (0 / 0).
  const double unbias = m > 1.0 ? m / (m - 1.0) : std::numeric_limits<double>::quiet_NaN();
  switch (k) {
    case kChannelSaveMean:
      Values(c, values, [&](int64_t ch) { return coef[kCoefMean][ch]; });
      return true;
    case kChannelSaveVar:
      Values(c, values, [&](int64_t ch) { return coef[kCoefK][ch]; });
      return true;
    case kChannelRunningMean:
      Values(c, values, [&](int64_t ch) {
        return (1.0 - mom) * In(c, kChannelMean, ch, 0.0) + mom * coef[kCoefMean][ch];
      });
      return true;
    case kChannelRunningVar:
      Values(c, values, [&](int64_t ch) {
        return (1.0 - mom) * In(c, kChannelVar, ch, 1.0) + mom * (coef[kCoefK][ch] * unbias);
      });
      return true;
    default:
      return false;
  }
}
bool GradOutput(const ChannelArgs& c, int k, float* values) {
  const double* const* coef = c.coefs;
  if (k == kChannelGradWeight) {
    Values(c, values, [&](int64_t ch) { return coef[kCoefB][ch]; });
    return true;
  }
  if (k == kChannelGradBias) {
    Values(c, values, [&](int64_t ch) { return coef[kCoefA][ch]; });
    return true;
  }
  return false;
}

}  // namespace

RowFns GetChannelRowFns(Op op, bool training) {
  RowFns f;
  if (GetOpInfo(op).shapes != ShapeRule::kChannelStats) return f;
  const bool forward = GetOpInfo(op).is_forward;
  SetChannelSegmentFns(forward, training, &f);
  f.path_note = " per-channel segments (double sums in sample order)";
  if (forward) {
    f.channels = training ? ForwardChannels<true> : ForwardChannels<false>;
    f.channel_output = training ? TrainingOutput : nullptr;
    return f;
  }
  f.num_in = 2;
  f.channel_means = GradChannelMeans;
  f.channels = GradChannels;
  f.channel_output = GradOutput;
  return f;
}

}  // namespace kernels
}  // namespace hostnn
