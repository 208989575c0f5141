// The normalisations' row kernels for every compiled SIMD target, and their dispatch entry
// (GetNormRowFns, in the row executor's one form, RowFns): a row of n contiguous f32 elements,
// every sum in double with element i added to partial i % kNormPartials whatever the vector width
// (the partials combined by FoldPartials), every other operation in double lanes without a fused
// multiply-add. So a row's statistics and outputs have the same bits on every target and for any
// thread count. A normalisation is its row function here (and, for a gradient, its column terms)
// and its line in GetNormRowFns.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/norm_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <array>
#include <cmath>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/row_fns.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A row's operands as the f32 lanes they are (a normalisation's row function reads and
// writes f32 only).
HWY_INLINE const float* In(const RowArgs& r, int k) { return static_cast<const float*>(r.in[k]); }
HWY_INLINE float* Out(void* p) { return static_cast<float*>(p); }

using DD = hn::CappedTag<double, kRowPartials>;
using DF = hn::Rebind<float, DD>;

// A vector's lanes summed in a fixed order: halves folded onto halves (lane i + lane i +
// half) down to one lane, in registers.
template <class D>
HWY_INLINE double FoldLanes(D d, hn::Vec<D> v) {
#if HWY_TARGET == HWY_SCALAR  // one lane, and no halves to name
  (void)d;
  return hn::GetLane(v);
#else
  if constexpr (hn::MaxLanes(D()) == 1) {
    (void)d;
    return hn::GetLane(v);
  } else {
    const hn::Half<D> dh;
    return FoldLanes(dh, hn::Add(hn::LowerHalf(dh, v), hn::UpperHalf(dh, v)));
  }
#endif
}

// The kNormPartials partials summed in a fixed order, halves folded onto halves
// (p[i] + p[i + width / 2]) down to one: whole vectors while a half fills one, then the
// last vector's lanes (FoldLanes), the same additions.
HWY_INLINE double FoldPartials(double* HWY_RESTRICT p) {
  const DD dd;
  const size_t N = hn::Lanes(dd);
  for (size_t width = kNormPartials; width > N; width /= 2) {
    const size_t half = width / 2;
    for (size_t k = 0; k < half; k += N) {
      hn::Store(hn::Add(hn::Load(dd, p + k), hn::Load(dd, p + k + half)), dd, p + k);
    }
  }
  return FoldLanes(dd, hn::Load(dd, p));
}

// Operand k of a K-operand term, widened to the f64 lanes of dd from p: a zero vector for
// k >= K, known at compile time, so an operand a term does not read costs no load.
template <int K, int k, class DD64>
HWY_INLINE hn::Vec<DD64> LoadOperand(DD64 dd, const float* p) {
  if constexpr (k < K) {
    return hn::PromoteTo(dd, hn::LoadU(hn::Rebind<float, DD64>(), p));
  } else {
    return hn::Zero(dd);
  }
}

// The generic accumulation of a row: M sums (term returns M f64 vectors, a std::array) of
// term(a[i], b[i], c[i], e[i]) over n elements in double, element i into partial i %
// kNormPartials of each (vectors of at most 16 f64 lanes, so a block of 32 is whole vectors
// on every target); a short last block's missing elements add nothing. term works on f64
// vectors; only the first K of a, b, c, e are read (the others are zero vectors, known at
// compile time, so an unused operand costs no load and no test). Two sums in one pass read
// the operands once (LayerNormBackward's sum(dy g) and sum(dy g xhat); the moments).
template <int K, size_t M, class Term>
HWY_INLINE std::array<double, M> AccumulateSums(const float* HWY_RESTRICT a,
                                                const float* HWY_RESTRICT b,
                                                const float* HWY_RESTRICT c,
                                                const float* HWY_RESTRICT e, size_t n, Term term) {
  const DD dd;
  const size_t N = hn::Lanes(dd);
  HWY_ALIGN double partials[M][kNormPartials] = {};
  const auto load = [&](auto k, const float* p, size_t at) {
    return LoadOperand<K, decltype(k)::value>(dd, p + at);
  };
  using I0 = std::integral_constant<int, 0>;
  using I1 = std::integral_constant<int, 1>;
  using I2 = std::integral_constant<int, 2>;
  using I3 = std::integral_constant<int, 3>;
  const auto add = [&](const float* pa, const float* pb, const float* pc, const float* pe,
                       size_t at, size_t k, size_t valid) {
    const auto t =
        term(dd, load(I0(), pa, at), load(I1(), pb, at), load(I2(), pc, at), load(I3(), pe, at));
    for (size_t m = 0; m < M; ++m) {
      const auto v = valid == N ? t[m] : hn::IfThenElseZero(hn::FirstN(dd, valid), t[m]);
      hn::Store(hn::Add(hn::Load(dd, partials[m] + k), v), dd, partials[m] + k);
    }
  };
  size_t i = 0;
  for (; i + kNormPartials <= n; i += kNormPartials) {
    for (size_t k = 0; k < kNormPartials; k += N) add(a, b, c, e, i + k, k, N);
  }
  if (i < n) {
    const size_t rest = n - i;
    HWY_ALIGN float tails[4][kNormPartials] = {{0}};
    const float* src[4] = {a, b, c, e};
    for (int s = 0; s < K; ++s) {
      for (size_t j = 0; j < rest; ++j) tails[s][j] = src[s][i + j];
    }
    for (size_t k = 0; k < kNormPartials; k += N) {
      add(tails[0], tails[1], tails[2], tails[3], k, k, rest > k ? HWY_MIN(rest - k, N) : 0);
    }
  }
  std::array<double, M> sums;
  for (size_t m = 0; m < M; ++m) sums[m] = FoldPartials(partials[m]);
  return sums;
}
// One sum of term(a[i], b[i], c[i], e[i]).
template <int K, class Term>
HWY_INLINE double AccumulateRow4(const float* a, const float* b, const float* c, const float* e,
                                 size_t n, Term term) {
  return AccumulateSums<K, 1>(a, b, c, e, n, [&](auto d, auto va, auto vb, auto vc, auto ve) {
    return std::array<decltype(va), 1>{term(d, va, vb, vc, ve)};
  })[0];
}
// The same over at most three operands: term(a[i], b[i], c[i]).
template <int K, class Term>
HWY_INLINE double AccumulateRow(const float* a, const float* b, const float* c, size_t n,
                                Term term) {
  return AccumulateRow4<K>(a, b, c, nullptr, n, [&](auto d, auto va, auto vb, auto vc, auto) {
    return term(d, va, vb, vc);
  });
}

// f(d, f, i) for the elements i of [0, n): whole vectors of the f64 tag d (f its f32
// rebind), then the tail one element at a time through a one-lane tag (the same operations,
// so the same bits, and never contracted to a fused multiply-add).
template <class F>
HWY_INLINE void ForEachLane(size_t n, F fn) {
  const DD dd;
  const DF df;
  const size_t N = hn::Lanes(dd);
  size_t i = 0;
  for (; i + N <= n; i += N) fn(dd, df, i);
  const hn::CappedTag<double, 1> d1;
  const hn::Rebind<float, decltype(d1)> f1;
  for (; i < n; ++i) fn(d1, f1, i);
}

// f(d, f, i) -> an f64 vector, stored rounded once to f32 at out + i, over n elements.
template <class F>
HWY_INLINE void ForEachOut(float* out, size_t n, F f) {
  ForEachLane(n, [&](auto d, auto fl, size_t i) {
    hn::StoreU(hn::DemoteTo(fl, f(d, fl, i)), fl, out + i);
  });
}

template <class D, class F>
HWY_INLINE hn::Vec<D> Load64(D d, F f, const float* p, size_t at) {
  return hn::PromoteTo(d, hn::LoadU(f, p + at));
}

// n elements' mean = sum(x) / n and centred sum of squares m2 = sum((x - mean)^2) in double,
// x given lane by lane by x_of(d, a, b, c) from the first K of the operands a, b, c (a norm's
// x alone; AddLayerNorm's x1 + x2 and a bias), in the fixed order. One pass where it is as
// accurate as two: about a shift s (the row's first element), sd = sum(x - s) and sdd =
// sum((x - s)^2) together, m2 = sdd - sd^2 / n, mean = s + sd / n. The subtraction cancels
// the part n (mean - s)^2 of sdd, so it is taken only where that part is under 255/256 of
// sdd (m2 >= sdd / 256, i.e. s within about 16 standard deviations of the mean: at most 8 of
// double's 53 bits lost, against the 24 of the f32 results). Otherwise (a row whose first
// element is an outlier; NaN, inf) the centred squares are summed in a second pass about the
// mean, which keeps the variance exact to double precision however large the mean is
// against the spread.
// A decision of the row's values alone, so the bits are the same on every target.
struct Moments {
  double mean, m2;
};
template <int K, class X>
HWY_INLINE Moments MomentsOf(const float* a, const float* b, const float* c, size_t n, X x_of) {
  const hn::CappedTag<double, 1> d1;
  const double shift = hn::GetLane(x_of(d1, LoadOperand<K, 0>(d1, a), LoadOperand<K, 1>(d1, b),
                                        LoadOperand<K, 2>(d1, c)));
  const std::array<double, 2> sums =
      AccumulateSums<K, 2>(a, b, c, nullptr, n, [&](auto d, auto va, auto vb, auto vc, auto) {
        const auto v = hn::Sub(x_of(d, va, vb, vc), hn::Set(d, shift));
        return std::array<decltype(v), 2>{v, hn::Mul(v, v)};
      });
  // 1 / n, a division off the sums' path (they multiply by it), so a short row does not wait
  // on a division after its sums; the bits are this product's on every target.
  const double inv_n = 1.0 / static_cast<double>(n);
  const double sum_d = sums[0], sum_dd = sums[1];
  // Separate statements: no contraction into a fused multiply-add (SSE4 has none).
  const double mean_d = sum_d * inv_n;
  const double square = sum_d * mean_d;
  const double m2 = sum_dd - square;
  if (m2 >= sum_dd * (1.0 / 256.0)) return {shift + mean_d, m2};
  const double mean = AccumulateRow<K>(a, b, c, n, x_of) * inv_n;
  const double centred = AccumulateRow<K>(a, b, c, n, [&](auto d, auto va, auto vb, auto vc) {
    const auto v = hn::Sub(x_of(d, va, vb, vc), hn::Set(d, mean));
    return hn::Mul(v, v);
  });
  return {mean, centred};
}
HWY_INLINE Moments MomentsOf(const float* x, size_t n) {
  return MomentsOf<1>(x, nullptr, nullptr, n, [](auto, auto v, auto, auto) { return v; });
}

// A row's mean and rstd as LayerNormRow takes them, from its moments (MomentsOf's x_of), the
// statistics written rounded once.
struct Centred {
  double mean, rstd;
};
template <int K, class X>
HWY_INLINE Centred CenteredStatsOf(const RowArgs& r, const float* a, const float* b, const float* c,
                                   X x_of) {
  const Moments mo = MomentsOf<K>(a, b, c, r.n, x_of);
  const double var = mo.m2 * (1.0 / static_cast<double>(r.n));
  const double rstd = 1.0 / std::sqrt(var + static_cast<double>(r.eps));
  *r.stats[0] = static_cast<float>(mo.mean);
  *r.stats[1] = static_cast<float>(rstd);
  return {mo.mean, rstd};
}
HWY_INLINE Centred CenteredStats(const RowArgs& r) {
  return CenteredStatsOf<1>(r, In(r, 0), nullptr, nullptr,
                            [](auto, auto v, auto, auto) { return v; });
}

// LayerNorm's row: mean = sum(x) / n, var = sum((x - mean)^2) / n (the biased variance,
// MomentsOf's), rstd = 1 / sqrt(var + eps), all in double and rounded once to f32 for the
// statistics; then y = (x - mean) * rstd * gamma + beta in double lanes, rounded once to f32
// (gamma, beta null: 1 and 0).
void LayerNormRow(const RowFns&, const RowArgs& r) {
  const float* x = In(r, 0);
  const float* HWY_RESTRICT gamma = r.cols[0];
  const float* HWY_RESTRICT beta = r.cols[1];
  const size_t n = r.n;
  const Centred stats = CenteredStats(r);
  const double mean = stats.mean, rstd = stats.rstd;
  ForEachOut(Out(r.out), n, [&](auto d, auto f, size_t i) {
    auto v = hn::Mul(hn::Sub(Load64(d, f, x, i), hn::Set(d, mean)), hn::Set(d, rstd));
    if (gamma != nullptr) v = hn::Mul(v, Load64(d, f, gamma, i));
    if (beta != nullptr) v = hn::Add(v, Load64(d, f, beta, i));
    return v;
  });
}

// GroupNorm's row: LayerNorm's statistics over the row (its group's channels), then per
// channel c of channel_len elements y = (x - mean) * rstd * gamma[c] + beta[c] in double
// lanes, rounded once (gamma, beta null: 1 and 0); the same operations as LayerNormRow's, with
// the channel's value for every element of the channel.
void GroupNormRow(const RowFns&, const RowArgs& r) {
  const float* x = In(r, 0);
  const size_t len = r.channel_len, channels = r.n / len;
  const Centred stats = CenteredStats(r);
  const double mean = stats.mean, rstd = stats.rstd;
  for (size_t c = 0; c < channels; ++c) {
    const float* xc = x + c * len;
    const bool has_gamma = r.cols[0] != nullptr, has_beta = r.cols[1] != nullptr;
    const double g = has_gamma ? static_cast<double>(r.cols[0][c]) : 1.0;
    const double b = has_beta ? static_cast<double>(r.cols[1][c]) : 0.0;
    ForEachOut(Out(r.out) + c * len, len, [&](auto d, auto f, size_t i) {
      auto v = hn::Mul(hn::Sub(Load64(d, f, xc, i), hn::Set(d, mean)), hn::Set(d, rstd));
      if (has_gamma) v = hn::Mul(v, hn::Set(d, g));
      if (has_beta) v = hn::Add(v, hn::Set(d, b));
      return v;
    });
  }
}

// RmsNorm's row: rstd = 1 / sqrt(sum(x^2) / n + eps) in double, rounded once to f32 for the
// statistics output; y = x * rstd * gamma in double lanes, rounded once to f32. Unlike
// LayerNorm nothing is centred: the row's scale alone is taken out.
void RmsNormRow(const RowFns&, const RowArgs& r) {
  const float* x = In(r, 0);
  const float* HWY_RESTRICT gamma = r.cols[0];
  const size_t n = r.n;
  const double sq = AccumulateRow<1>(x, nullptr, nullptr, n,
                                     [](auto, auto v, auto, auto) { return hn::Mul(v, v); });
  const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(n) + static_cast<double>(r.eps));
  *r.stats[0] = static_cast<float>(rstd);
  ForEachOut(Out(r.out), n, [&](auto d, auto f, size_t i) {
    return hn::Mul(hn::Mul(Load64(d, f, x, i), hn::Set(d, rstd)), Load64(d, f, gamma, i));
  });
}

// AddRmsNorm's row: x = x1 + x2 in double lanes (exact unless the two are more than 29
// binades apart), rstd from x as RmsNormRow takes it; x rounded once to f32 for out2 (where
// given) and y = x * rstd * gamma in double lanes, rounded once. With x2 zero the bits are
// RmsNormRow's.
void AddRmsNormRow(const RowFns&, const RowArgs& r) {
  const float* x1 = In(r, 0);
  const float* x2 = In(r, 1);
  const float* HWY_RESTRICT gamma = r.cols[0];
  float* y = Out(r.out);
  float* x_out = Out(r.out2);
  const size_t n = r.n;
  const double sq = AccumulateRow<2>(x1, x2, nullptr, n, [](auto, auto a, auto b, auto) {
    const auto x = hn::Add(a, b);
    return hn::Mul(x, x);
  });
  const double rstd = 1.0 / std::sqrt(sq / static_cast<double>(n) + static_cast<double>(r.eps));
  *r.stats[0] = static_cast<float>(rstd);
  ForEachLane(n, [&](auto d, auto f, size_t i) {
    const auto x = hn::Add(Load64(d, f, x1, i), Load64(d, f, x2, i));
    const auto v = hn::Mul(hn::Mul(x, hn::Set(d, rstd)), Load64(d, f, gamma, i));
    // Every load before either store: y and x_out may be x1 and x2 themselves (in place).
    if (x_out != nullptr) hn::StoreU(hn::DemoteTo(f, x), f, x_out + i);
    hn::StoreU(hn::DemoteTo(f, v), f, y + i);
  });
}

// AddLayerNorm's row: x = x1 + x2 + bias in double lanes (the bias in[2], of x1's shape, or
// cols[2], per column; none: x1 + x2, exact unless the two are more than 29 binades apart),
// LayerNorm's statistics of x (MomentsOf's, in the fixed order), then x rounded once to f32 for
// out2 (where given) and y = (x - mean) * rstd * gamma + beta in double lanes, rounded once;
// every vector is read before either result is stored, so y and x may be the inputs
// themselves. With x2 zero and no bias the bits are LayerNormRow's.
void AddLayerNormRow(const RowFns&, const RowArgs& r) {
  const float* x1 = In(r, 0);
  const float* x2 = In(r, 1);
  const float* bias = In(r, 2) != nullptr ? In(r, 2) : r.cols[2];
  const float* HWY_RESTRICT gamma = r.cols[0];
  const float* HWY_RESTRICT beta = r.cols[1];
  float* y = Out(r.out);
  float* x_out = Out(r.out2);
  const Centred stats =
      bias != nullptr ? CenteredStatsOf<3>(
                            r, x1, x2, bias,
                            [](auto, auto a, auto b, auto c) { return hn::Add(hn::Add(a, b), c); })
                      : CenteredStatsOf<2>(r, x1, x2, nullptr, [](auto, auto a, auto b, auto) {
                          return hn::Add(a, b);
                        });
  const double mean = stats.mean, rstd = stats.rstd;
  ForEachLane(r.n, [&](auto d, auto f, size_t i) {
    auto x = hn::Add(Load64(d, f, x1, i), Load64(d, f, x2, i));
    if (bias != nullptr) x = hn::Add(x, Load64(d, f, bias, i));
    auto v = hn::Mul(hn::Sub(x, hn::Set(d, mean)), hn::Set(d, rstd));
    v = hn::Add(hn::Mul(v, Load64(d, f, gamma, i)), Load64(d, f, beta, i));
    if (x_out != nullptr) hn::StoreU(hn::DemoteTo(f, x), f, x_out + i);
    hn::StoreU(hn::DemoteTo(f, v), f, y + i);
  });
}

// RmsNormGrad's row, from the forward's rstd (row_in[0]): with m = rstd * sum(dy * gamma * x)
// / n (the mean of dy * gamma times the normalised x * rstd), dx = (dy * gamma - x * rstd * m)
// * rstd, in double, rounded once to f32.
void RmsNormGradRow(const RowFns&, const RowArgs& r) {
  const float* dy = In(r, 0);
  const float* x = In(r, 1);
  const float* HWY_RESTRICT gamma = r.cols[0];
  const size_t n = r.n;
  const double rstd = static_cast<double>(r.row_in[0]);
  const double s = AccumulateRow<3>(dy, gamma, x, n, [](auto, auto vdy, auto vg, auto vx) {
    return hn::Mul(hn::Mul(vdy, vg), vx);
  });
  const double rstd_m = rstd * (rstd * s / static_cast<double>(n));
  ForEachOut(Out(r.out), n, [&](auto d, auto f, size_t i) {
    const auto dyg = hn::Mul(Load64(d, f, dy, i), Load64(d, f, gamma, i));
    return hn::Mul(hn::Sub(dyg, hn::Mul(Load64(d, f, x, i), hn::Set(d, rstd_m))), hn::Set(d, rstd));
  });
}

// RmsNormGrad's column terms: dgamma[j] += dy[j] * x[j] * rstd, in double lanes.
void RmsNormGradColumns(const RowFns&, const RowArgs& r, double* const* sums) {
  double* HWY_RESTRICT dgamma = sums[0];
  const auto add = [&](auto d, auto f, size_t i) {
    const auto t = hn::Mul(hn::Mul(Load64(d, f, In(r, 0), i), Load64(d, f, In(r, 1), i)),
                           hn::Set(d, static_cast<double>(r.row_in[0])));
    hn::StoreU(hn::Add(hn::LoadU(d, dgamma + i), t), d, dgamma + i);
  };
  ForEachLane(r.n, add);
}

// xhat = (x - mean) * rstd in double lanes: LayerNormBackward's fused output pass and its
// columns function both take it from here.
template <class D, class V>
HWY_INLINE V XHat(D d, V vx, double mean, double rstd) {
  return hn::Mul(hn::Sub(vx, hn::Set(d, mean)), hn::Set(d, rstd));
}

// LayerNormBackward's column terms of the lanes at i, each where it is wanted (null: not):
// dgamma += dy * xhat, dbeta += dy. LayerNormGradRow's output pass and LayerNormGradColumns
// both add through this, so their bits agree by construction.
template <class D, class V>
HWY_INLINE void AddColumnTerms(D d, size_t i, V vdy, V vxhat, double* HWY_RESTRICT dgamma,
                               double* HWY_RESTRICT dbeta) {
  if (dgamma != nullptr) {
    hn::StoreU(hn::Add(hn::LoadU(d, dgamma + i), hn::Mul(vdy, vxhat)), d, dgamma + i);
  }
  if (dbeta != nullptr) hn::StoreU(hn::Add(hn::LoadU(d, dbeta + i), vdy), d, dbeta + i);
}

// LayerNormBackward's row, from the forward's mean (row_in[0]) and rstd (row_in[1]): with
// xhat = (x - mean) * rstd and g = gamma (1 where cols[0] is null), a = sum(dy * g) / n and
// b = sum(dy * g * xhat) / n in double (both in one pass), dx = (dy * g - (a + xhat * b)) *
// rstd, rounded once. AddLayerNormGrad's too: x = x1 + x2 (in[1] + in[2], in double lanes)
// and dx + dsum (in[3]) where given; with x2 zero and no dsum the bits are LayerNormBackward's.
// The column terms where r.sums asks for them, in the output pass where xhat is at hand
// (AddColumnTerms, as LayerNormGradColumns adds them), each vector's terms added before its
// dx is stored (dx may be dy or x itself).
void LayerNormGradRow(const RowFns&, const RowArgs& r) {
  const float* dy = In(r, 0);
  const float* x = In(r, 1);
  const float* x2 = In(r, 2);
  const float* dsum = In(r, 3);
  const float* HWY_RESTRICT gamma = r.cols[0];
  double* HWY_RESTRICT dgamma = r.sums[0];
  double* HWY_RESTRICT dbeta = r.sums[1];
  const size_t n = r.n;
  const double mean = static_cast<double>(r.row_in[0]), rstd = static_cast<double>(r.row_in[1]);
  // The pair of sums: dy * g and dy * g * xhat.
  const auto pair = [&](auto d, auto dyg, auto vx) {
    return std::array<decltype(dyg), 2>{dyg, hn::Mul(dyg, XHat(d, vx, mean, rstd))};
  };
  std::array<double, 2> s;
  if (x2 != nullptr) {  // AddLayerNormGrad: gamma given
    s = AccumulateSums<4, 2>(dy, gamma, x, x2, n, [&](auto d, auto vdy, auto vg, auto v1, auto v2) {
      return pair(d, hn::Mul(vdy, vg), hn::Add(v1, v2));
    });
  } else if (gamma != nullptr) {
    s = AccumulateSums<3, 2>(
        dy, gamma, x, nullptr, n,
        [&](auto d, auto vdy, auto vg, auto vx, auto) { return pair(d, hn::Mul(vdy, vg), vx); });
  } else {
    s = AccumulateSums<2, 2>(
        dy, x, nullptr, nullptr, n,
        [&](auto d, auto vdy, auto vx, auto, auto) { return pair(d, vdy, vx); });
  }
  const double inv_n = 1.0 / static_cast<double>(n);  // off the sums' path, as MomentsOf's
  const double a = s[0] * inv_n, b = s[1] * inv_n;
  ForEachOut(Out(r.out), n, [&](auto d, auto f, size_t i) {
    const auto vdy = Load64(d, f, dy, i);
    auto dyg = vdy;
    if (gamma != nullptr) dyg = hn::Mul(dyg, Load64(d, f, gamma, i));
    auto vx = Load64(d, f, x, i);
    if (x2 != nullptr) vx = hn::Add(vx, Load64(d, f, x2, i));
    const auto vxhat = XHat(d, vx, mean, rstd);
    AddColumnTerms(d, i, vdy, vxhat, dgamma, dbeta);
    const auto inner = hn::Add(hn::Set(d, a), hn::Mul(vxhat, hn::Set(d, b)));
    const auto v = hn::Mul(hn::Sub(dyg, inner), hn::Set(d, rstd));
    return dsum != nullptr ? hn::Add(v, Load64(d, f, dsum, i)) : v;
  });
}

// LayerNormBackward's column terms, each sum where it is wanted (null: not): dgamma[j] +=
// dy[j] * xhat[j] (sums[0]), dbeta[j] += dy[j] (sums[1]), in double lanes; AddLayerNormGrad's
// with x = x1 + x2 (in[1] + in[2]).
void LayerNormGradColumns(const RowFns&, const RowArgs& r, double* const* sums) {
  double* HWY_RESTRICT dgamma = sums[0];
  double* HWY_RESTRICT dbeta = sums[1];
  const float* x2 = In(r, 2);
  const double mean = static_cast<double>(r.row_in[0]), rstd = static_cast<double>(r.row_in[1]);
  const auto add = [&](auto d, auto f, size_t i) {
    const auto vdy = Load64(d, f, In(r, 0), i);
    auto vxhat = hn::Zero(d);  // read only for dgamma
    if (dgamma != nullptr) {
      auto vx = Load64(d, f, In(r, 1), i);
      if (x2 != nullptr) vx = hn::Add(vx, Load64(d, f, x2, i));
      vxhat = XHat(d, vx, mean, rstd);
    }
    AddColumnTerms(d, i, vdy, vxhat, dgamma, dbeta);
  };
  ForEachLane(r.n, add);
}

// GroupNormBackward's sums of one channel c of the row (channel_len elements), from the
// forward's mean (row_in[0]) and rstd (row_in[1]): *dy_sum = sum(dy), *dy_xhat_sum = sum(dy *
// xhat) with xhat = (x - mean) * rstd, in double in the fixed order.
HWY_INLINE void ChannelSums(const RowArgs& r, size_t c, double* dy_sum, double* dy_xhat_sum) {
  const size_t len = r.channel_len;
  const float* dy = In(r, 0) + c * len;
  const float* x = In(r, 1) + c * len;
  const double mean = static_cast<double>(r.row_in[0]), rstd = static_cast<double>(r.row_in[1]);
  const std::array<double, 2> s = AccumulateSums<2, 2>(
      dy, x, nullptr, nullptr, len, [&](auto d, auto vdy, auto vx, auto, auto) {
        const auto t = hn::Mul(vdy, hn::Mul(hn::Sub(vx, hn::Set(d, mean)), hn::Set(d, rstd)));
        return std::array<decltype(t), 2>{vdy, t};
      });
  *dy_sum = s[0];
  *dy_xhat_sum = s[1];
}

// GroupNormBackward's row: LayerNormGradRow's dx with gamma held per channel (1 where cols[0]
// is null): a = sum_c g_c sum(dy) / n and b = sum_c g_c sum(dy * xhat) / n over the row's
// channels in order, then per channel dx = (dy * g_c - (a + xhat * b)) * rstd in double lanes,
// rounded once. The channels' sums are the column terms too: added to r.sums where given, as
// GroupNormGradColumns adds them.
void GroupNormGradRow(const RowFns&, const RowArgs& r) {
  const size_t len = r.channel_len, channels = r.n / len;
  const float* gamma = r.cols[0];
  const double mean = static_cast<double>(r.row_in[0]), rstd = static_cast<double>(r.row_in[1]);
  double s1 = 0.0, s2 = 0.0;
  for (size_t c = 0; c < channels; ++c) {
    double dy_sum, dy_xhat_sum;
    ChannelSums(r, c, &dy_sum, &dy_xhat_sum);
    if (r.sums[0] != nullptr) r.sums[0][c] += dy_xhat_sum;
    if (r.sums[1] != nullptr) r.sums[1][c] += dy_sum;
    const double g = gamma != nullptr ? static_cast<double>(gamma[c]) : 1.0;
    // Products and sums in separate statements: a compiler may fuse a * b + c written as one
    // expression into an FMA on the targets that have it, which would change the bits.
    const double t1 = g * dy_sum, t2 = g * dy_xhat_sum;
    s1 += t1;
    s2 += t2;
  }
  const double a = s1 / static_cast<double>(r.n), b = s2 / static_cast<double>(r.n);
  for (size_t c = 0; c < channels; ++c) {
    const float* dy = In(r, 0) + c * len;
    const float* x = In(r, 1) + c * len;
    const double g = gamma != nullptr ? static_cast<double>(gamma[c]) : 1.0;
    ForEachOut(Out(r.out) + c * len, len, [&](auto d, auto f, size_t i) {
      const auto dyg = hn::Mul(Load64(d, f, dy, i), hn::Set(d, g));
      const auto xhat = hn::Mul(hn::Sub(Load64(d, f, x, i), hn::Set(d, mean)), hn::Set(d, rstd));
      const auto inner = hn::Add(hn::Set(d, a), hn::Mul(xhat, hn::Set(d, b)));
      return hn::Mul(hn::Sub(dyg, inner), hn::Set(d, rstd));
    });
  }
}

// GroupNormBackward's column terms, one per channel of the row (sums[k][c] is its group's
// channel c), each where it is wanted: dgamma += sum(dy * xhat), dbeta += sum(dy).
void GroupNormGradColumns(const RowFns&, const RowArgs& r, double* const* sums) {
  const size_t channels = r.n / r.channel_len;
  for (size_t c = 0; c < channels; ++c) {
    double dy_sum, dy_xhat_sum;
    ChannelSums(r, c, &dy_sum, &dy_xhat_sum);
    if (sums[0] != nullptr) sums[0][c] += dy_xhat_sum;
    if (sums[1] != nullptr) sums[1][c] += dy_sum;
  }
}

// BatchNorm's segment functions: one sample's channel (a segment) of n contiguous f32 elements
// at a time; every sum in double, element i into partial i % kNormPartials as the norms' rows,
// every other operation in double lanes without a fused multiply-add, rounded once to f32:
// the same bits on every target. Moments: *mean = sum(x) / n, *m2 = sum((x - mean)^2) (a
// second, centred pass); GradSums: *dy_sum = sum(dy), *dy_xc_sum = sum(dy * (x - mean));
// Normalise: y = (x - mean) * rstd * gamma + beta; Grad: dx = (dy - (a + xhat * b)) * k,
// xhat = (x - mean) * invstd; Scale: out = in * k.
void SegmentMoments(const float* x, size_t n, double* mean, double* m2) {
  const Moments mo = MomentsOf(x, n);
  *mean = mo.mean;
  *m2 = mo.m2;
}

void SegmentGradSums(const float* dy, const float* x, size_t n, double mean, double* dy_sum,
                     double* dy_xc_sum) {
  *dy_sum = AccumulateRow<1>(dy, nullptr, nullptr, n, [](auto, auto v, auto, auto) { return v; });
  *dy_xc_sum = AccumulateRow<2>(dy, x, nullptr, n, [mean](auto d, auto vdy, auto vx, auto) {
    return hn::Mul(vdy, hn::Sub(vx, hn::Set(d, mean)));
  });
}

void SegmentNormalise(const float* x, size_t n, double mean, double rstd, double gamma, double beta,
                      float* y) {
  ForEachOut(y, n, [&](auto d, auto f, size_t i) {
    const auto v = hn::Mul(hn::Sub(Load64(d, f, x, i), hn::Set(d, mean)), hn::Set(d, rstd));
    return hn::Add(hn::Mul(v, hn::Set(d, gamma)), hn::Set(d, beta));
  });
}

void SegmentGrad(const float* dy, const float* x, size_t n, double mean, double invstd, double a,
                 double b, double k, float* dx) {
  ForEachOut(dx, n, [&](auto d, auto f, size_t i) {
    const auto xhat = hn::Mul(hn::Sub(Load64(d, f, x, i), hn::Set(d, mean)), hn::Set(d, invstd));
    const auto inner = hn::Add(hn::Set(d, a), hn::Mul(xhat, hn::Set(d, b)));
    return hn::Mul(hn::Sub(Load64(d, f, dy, i), inner), hn::Set(d, k));
  });
}

// The same over n one-element segments (an [N, C] input, S = 1): n consecutive channels of one
// sample, each lane with its channel's coefficients (arrays of n doubles). Lane i computes
// what the Segment function computes for a segment of one element (0 + x, a square of x -
// mean, the same output expression), so the bits are the same as that path's.
void LaneMoments(const float* x, size_t n, double* mean, double* m2) {
  ForEachLane(n, [&](auto d, auto f, size_t i) {
    const auto m = hn::Add(hn::Zero(d), Load64(d, f, x, i));
    const auto c = hn::Sub(Load64(d, f, x, i), m);
    hn::StoreU(m, d, mean + i);
    hn::StoreU(hn::Add(hn::Zero(d), hn::Mul(c, c)), d, m2 + i);
  });
}

void LaneGradSums(const float* dy, const float* x, size_t n, const double* mean, double* dy_sum,
                  double* dy_xc_sum) {
  ForEachLane(n, [&](auto d, auto f, size_t i) {
    const auto vdy = Load64(d, f, dy, i);
    hn::StoreU(hn::Add(hn::Zero(d), vdy), d, dy_sum + i);
    const auto t = hn::Mul(vdy, hn::Sub(Load64(d, f, x, i), hn::LoadU(d, mean + i)));
    hn::StoreU(hn::Add(hn::Zero(d), t), d, dy_xc_sum + i);
  });
}

void LaneNormalise(const float* x, size_t n, const double* mean, const double* rstd,
                   const double* gamma, const double* beta, float* y) {
  ForEachOut(y, n, [&](auto d, auto f, size_t i) {
    const auto v =
        hn::Mul(hn::Sub(Load64(d, f, x, i), hn::LoadU(d, mean + i)), hn::LoadU(d, rstd + i));
    return hn::Add(hn::Mul(v, hn::LoadU(d, gamma + i)), hn::LoadU(d, beta + i));
  });
}

void LaneGrad(const float* dy, const float* x, size_t n, const double* mean, const double* invstd,
              const double* a, const double* b, const double* k, float* dx) {
  ForEachOut(dx, n, [&](auto d, auto f, size_t i) {
    const auto xhat =
        hn::Mul(hn::Sub(Load64(d, f, x, i), hn::LoadU(d, mean + i)), hn::LoadU(d, invstd + i));
    const auto inner = hn::Add(hn::LoadU(d, a + i), hn::Mul(xhat, hn::LoadU(d, b + i)));
    return hn::Mul(hn::Sub(Load64(d, f, dy, i), inner), hn::LoadU(d, k + i));
  });
}

void LaneScale(const float* in, size_t n, const double* k, float* out) {
  ForEachOut(out, n, [&](auto d, auto f, size_t i) {
    return hn::Mul(Load64(d, f, in, i), hn::LoadU(d, k + i));
  });
}

void SegmentScale(const float* in, size_t n, double k, float* out) {
  ForEachOut(out, n,
             [&](auto d, auto f, size_t i) { return hn::Mul(Load64(d, f, in, i), hn::Set(d, k)); });
}

// The per-channel row functions (RowFns::segment_sums, RowFns::row; kernels/channel_row_fns.cc
// says the steps): a segment, or with RowArgs::lanes a run of one-element segments of
// consecutive channels, its coefficients from RowArgs::coefs at its (first) channel.
// Step 1, the forward's: each segment's mean and centred sum of squares.
void MomentSumsRow(const RowFns&, const RowArgs& a) {
  if (a.lanes) {
    LaneMoments(In(a, 0), a.n, a.sums[0], a.sums[1]);
  } else {
    SegmentMoments(In(a, 0), a.n, a.sums[0], a.sums[1]);
  }
}
// Step 1, the gradient's: sum(dy) and sum(dy * (x - mean)) with the channel's mean.
void GradSumsRow(const RowFns&, const RowArgs& a) {
  const double* mean = a.coefs[kCoefMean] + a.channel;
  if (a.lanes) {
    LaneGradSums(In(a, 0), In(a, 1), a.n, mean, a.sums[0], a.sums[1]);
  } else {
    SegmentGradSums(In(a, 0), In(a, 1), a.n, *mean, a.sums[0], a.sums[1]);
  }
}
// Step 3: y = (x - mean) * rstd * gamma + beta.
void NormaliseSegmentsRow(const RowFns&, const RowArgs& a) {
  const double* const* c = a.coefs;
  const size_t ch = a.channel;
  if (a.lanes) {
    LaneNormalise(In(a, 0), a.n, c[kCoefMean] + ch, c[kCoefScale] + ch, c[kCoefA] + ch,
                  c[kCoefB] + ch, Out(a.out));
  } else {
    SegmentNormalise(In(a, 0), a.n, c[kCoefMean][ch], c[kCoefScale][ch], c[kCoefA][ch],
                     c[kCoefB][ch], Out(a.out));
  }
}
// Step 3, the gradient in training: dx = (dy - (a + xhat * b)) * k.
void GradSegmentsRow(const RowFns&, const RowArgs& a) {
  const double* const* c = a.coefs;
  const size_t ch = a.channel;
  if (a.lanes) {
    LaneGrad(In(a, 0), In(a, 1), a.n, c[kCoefMean] + ch, c[kCoefScale] + ch, c[kCoefAm] + ch,
             c[kCoefBm] + ch, c[kCoefK] + ch, Out(a.out));
  } else {
    SegmentGrad(In(a, 0), In(a, 1), a.n, c[kCoefMean][ch], c[kCoefScale][ch], c[kCoefAm][ch],
                c[kCoefBm][ch], c[kCoefK][ch], Out(a.out));
  }
}
// Step 3, the gradient in inference: dx = dy * k.
void ScaleSegmentsRow(const RowFns&, const RowArgs& a) {
  const double* k = a.coefs[kCoefK] + a.channel;
  if (a.lanes) {
    LaneScale(In(a, 0), a.n, k, Out(a.out));
  } else {
    SegmentScale(In(a, 0), a.n, *k, Out(a.out));
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
HWY_EXPORT(AddRmsNormRow);
HWY_EXPORT(AddLayerNormRow);
HWY_EXPORT(GroupNormRow);
HWY_EXPORT(GroupNormGradRow);
HWY_EXPORT(GroupNormGradColumns);
HWY_EXPORT(RmsNormGradRow);
HWY_EXPORT(RmsNormGradColumns);
HWY_EXPORT(LayerNormGradRow);
HWY_EXPORT(LayerNormGradColumns);

HWY_EXPORT(MomentSumsRow);
HWY_EXPORT(GradSumsRow);
HWY_EXPORT(NormaliseSegmentsRow);
HWY_EXPORT(GradSegmentsRow);
HWY_EXPORT(ScaleSegmentsRow);

void SetChannelSegmentFns(bool forward, bool training, RowFns* f) {
  if (forward) {
    f->segment_sums = HOSTNN_PICK(MomentSumsRow);
    f->row = HOSTNN_PICK(NormaliseSegmentsRow);
    return;
  }
  f->segment_sums = HOSTNN_PICK(GradSumsRow);
  f->row = training ? HOSTNN_PICK(GradSegmentsRow) : HOSTNN_PICK(ScaleSegmentsRow);
}

namespace {
// A forward norm's eps from its params struct (kernels/params.h, ParamsOf).
template <Op kOp>
float EpsOf(const OpParams& params) {
  return params.As<typename ParamsOf<kOp>::type>().eps;
}
}  // namespace

namespace {
// The row function and its traits, as GetNormRowFns hands them out.
RowFns NormRowFnsOf(RowFns::RowFn row, RowFns::ColumnsFn columns, bool row_sums,
                    float (*eps)(const OpParams&)) {
  RowFns f;
  f.row = row;
  f.columns = columns;
  f.row_sums = row_sums;
  f.eps = eps;
  f.path_note = " rows (double statistics)";
  return f;
}
}  // namespace

RowFns GetNormRowFns(Op op) {
  switch (op) {
    case Op::kLayerNorm:
      return NormRowFnsOf(HOSTNN_PICK(LayerNormRow), nullptr, false, &EpsOf<Op::kLayerNorm>);
    case Op::kLayerNormWithImplMode:
      return NormRowFnsOf(HOSTNN_PICK(LayerNormRow), nullptr, false,
                          &EpsOf<Op::kLayerNormWithImplMode>);
    case Op::kRmsNorm:
      return NormRowFnsOf(HOSTNN_PICK(RmsNormRow), nullptr, false, &EpsOf<Op::kRmsNorm>);
    case Op::kAddRmsNorm:
      return NormRowFnsOf(HOSTNN_PICK(AddRmsNormRow), nullptr, false, &EpsOf<Op::kAddRmsNorm>);
    case Op::kInplaceAddRmsNorm:
      return NormRowFnsOf(HOSTNN_PICK(AddRmsNormRow), nullptr, false,
                          &EpsOf<Op::kInplaceAddRmsNorm>);
    case Op::kAddLayerNorm:
      return NormRowFnsOf(HOSTNN_PICK(AddLayerNormRow), nullptr, false, &EpsOf<Op::kAddLayerNorm>);
    case Op::kGroupNorm:
      return NormRowFnsOf(HOSTNN_PICK(GroupNormRow), nullptr, false, &EpsOf<Op::kGroupNorm>);
    case Op::kGroupNormBackward:
      return NormRowFnsOf(HOSTNN_PICK(GroupNormGradRow), HOSTNN_PICK(GroupNormGradColumns), true,
                          nullptr);
    case Op::kRmsNormGrad:
      return NormRowFnsOf(HOSTNN_PICK(RmsNormGradRow), HOSTNN_PICK(RmsNormGradColumns), false,
                          nullptr);
    case Op::kLayerNormBackward:
    case Op::kAddLayerNormGrad:
      return NormRowFnsOf(HOSTNN_PICK(LayerNormGradRow), HOSTNN_PICK(LayerNormGradColumns), true,
                          nullptr);
    default:
      return {};
  }
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
