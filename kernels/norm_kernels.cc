// The normalisations' row kernels for every compiled SIMD target, and their dispatch entry
// (GetNormRow): a row of n contiguous f32 elements, every sum in double with element i added
// to partial i % kRowPartials whatever the vector width (the partials combined by
// CombinePartials), every other operation in double lanes without a fused multiply-add. So a
// row's statistics and outputs have the same bits on every target and for any thread count.
// A normalisation is its row function here and its line in GetNormRow.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/norm_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cmath>

#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The generic accumulation of a row: the sum of term(x[i]) over n elements in double, element
// i into partial i % kRowPartials (vectors of at most 16 f64 lanes, so a block of 16 is whole
// vectors on every target); a short last block's missing elements add nothing. term works
// on f64 vectors.
template <class Term>
HWY_INLINE double AccumulateRow(const float* HWY_RESTRICT x, size_t n, Term term) {
  const hn::CappedTag<double, kRowPartials> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const size_t N = hn::Lanes(dd);
  HWY_ALIGN double partials[kRowPartials] = {0};
  HWY_ALIGN float tail[kRowPartials] = {0};
  size_t i = 0;
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kRowPartials; k += N) {
      const auto v = hn::PromoteTo(dd, hn::LoadU(df, x + i + k));
      hn::Store(hn::Add(hn::Load(dd, partials + k), term(dd, v)), dd, partials + k);
    }
  }
  if (i < n) {
    const size_t rest = n - i;
    for (size_t j = 0; j < rest; ++j) tail[j] = x[i + j];
    for (size_t k = 0; k < kRowPartials; k += N) {
      const size_t valid = rest > k ? HWY_MIN(rest - k, N) : 0;
      const auto v = hn::PromoteTo(dd, hn::LoadU(df, tail + k));
      const auto t = hn::IfThenElseZero(hn::FirstN(dd, valid), term(dd, v));
      hn::Store(hn::Add(hn::Load(dd, partials + k), t), dd, partials + k);
    }
  }
  return CombinePartials(partials);
}

// LayerNorm's row: mean = sum(x) / n, var = sum((x - mean)^2) / n (the biased variance, the
// centred sum taken in a second pass so a large mean costs no accuracy), rstd = 1 / sqrt(var +
// eps), all in double and rounded once to f32 for the statistics outputs; then
// y = (x - mean) * rstd * gamma + beta in double lanes, rounded once to f32 (gamma, beta null:
// 1 and 0). n >= 1.
void LayerNormRow(const float* x, const float* const* cols, float* y, size_t n, float eps,
                  float* mean_out, float* rstd_out) {
  const float* HWY_RESTRICT gamma = cols[0];
  const float* HWY_RESTRICT beta = cols[1];
  const double sum = AccumulateRow(x, n, [](auto, auto v) { return v; });
  const double mean = sum / static_cast<double>(n);
  const double sq = AccumulateRow(x, n, [mean](auto d, auto v) {
    const auto c = hn::Sub(v, hn::Set(d, mean));
    return hn::Mul(c, c);
  });
  const double var = sq / static_cast<double>(n);
  const double rstd = 1.0 / std::sqrt(var + static_cast<double>(eps));
  *mean_out = static_cast<float>(mean);
  *rstd_out = static_cast<float>(rstd);

  const hn::CappedTag<double, kRowPartials> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const size_t N = hn::Lanes(dd);
  const auto vmean = hn::Set(dd, mean), vrstd = hn::Set(dd, rstd);
  size_t i = 0;
  const auto out = [&](auto vx, size_t at) {
    auto r = hn::Mul(hn::Sub(vx, vmean), vrstd);
    if (gamma != nullptr) r = hn::Mul(r, hn::PromoteTo(dd, hn::LoadU(df, gamma + at)));
    if (beta != nullptr) r = hn::Add(r, hn::PromoteTo(dd, hn::LoadU(df, beta + at)));
    return hn::DemoteTo(df, r);
  };
  for (; i + N <= n; i += N) hn::StoreU(out(hn::PromoteTo(dd, hn::LoadU(df, x + i)), i), df, y + i);
  for (; i < n; ++i) {
    double r = (static_cast<double>(x[i]) - mean) * rstd;
    if (gamma != nullptr) r = r * static_cast<double>(gamma[i]);
    if (beta != nullptr) r = r + static_cast<double>(beta[i]);
    y[i] = static_cast<float>(r);
  }
}

// RmsNorm's row: ms = sum(x^2) / n in double, rstd = 1 / sqrt(ms + eps) rounded once to f32
// for the statistics output; y = x * rstd * gamma in double lanes, rounded once to f32.
// Unlike LayerNorm nothing is centred: the row's scale alone is taken out. n >= 1.
void RmsNormRow(const float* x, const float* const* cols, float* y, size_t n, float eps,
                float* rstd_out, float* /*unused*/) {
  const float* HWY_RESTRICT gamma = cols[0];
  const double sq = AccumulateRow(x, n, [](auto, auto v) { return hn::Mul(v, v); });
  const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(n) + static_cast<double>(eps));
  *rstd_out = static_cast<float>(rstd);

  const hn::CappedTag<double, kRowPartials> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const size_t N = hn::Lanes(dd);
  const auto vrstd = hn::Set(dd, rstd);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto r = hn::Mul(hn::Mul(hn::PromoteTo(dd, hn::LoadU(df, x + i)), vrstd),
                           hn::PromoteTo(dd, hn::LoadU(df, gamma + i)));
    hn::StoreU(hn::DemoteTo(df, r), df, y + i);
  }
  for (; i < n; ++i) {
    y[i] = static_cast<float>(static_cast<double>(x[i]) * rstd * static_cast<double>(gamma[i]));
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(LayerNormRow);
HWY_EXPORT(RmsNormRow);

NormRowFn GetNormRow(Op op) {
  switch (op) {
    case Op::kLayerNorm:
    case Op::kLayerNormWithImplMode:
      return HOSTNN_PICK(LayerNormRow);
    case Op::kRmsNorm:
      return HOSTNN_PICK(RmsNormRow);
    default:
      return nullptr;
  }
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
