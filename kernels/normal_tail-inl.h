// The erf form of Gelu and its derivative in f32 lanes: x Phi(x) and Phi(x) + x phi(x), with
// Phi the standard normal distribution function and phi its density. Both are built on the
// upper tail Q(a) = P(N > a) = erfc(a / sqrt 2) / 2 for a = |x| (Phi(x) = Q(a) for x < 0,
// 1 - Q(a) above, so nothing cancels for x < 0), written as Q(a) = phi(a) M(a) with M the
// Mills ratio, and on a short series for |x| < 0.5. Coefficients: scripts/fit_normal_tail.py.
// Every operation is an IEEE lane operation (MulAdd fused on AVX2 / AVX3 / NEON / SVE, not on
// SSE4 / EMU128 / SCALAR), so the bits are the same on every target of one family.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_NORMAL_TAIL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_NORMAL_TAIL_INL_H_
#undef HOSTNN_KERNELS_NORMAL_TAIL_INL_H_
#else
#define HOSTNN_KERNELS_NORMAL_TAIL_INL_H_
#endif

#include <hwy/highway.h>

#include "kernels/eltwise_ops-inl.h"  // ProductError

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Below this |x| the series is used, above it the tail; the Mills ratio is fitted on
// [kSeriesBelow, kTailUpTo], a clamped to kTailUpTo (past it every result is 0 or the input).
constexpr float kSeriesBelow = 0.5f;
constexpr float kTailUpTo = 20.0f;
// x below this takes NormalTailFar (phi(a) is then below 2^-120, near f32's normal range).
constexpr float kFarBelow = -13.0f;

template <class V>
HWY_INLINE V HornerF32(V v, const float* c, int n) {
  const hn::DFromV<V> d;
  V s = hn::Set(d, c[n - 1]);
  for (int i = n - 2; i >= 0; --i) s = hn::MulAdd(s, v, hn::Set(d, c[i]));
  return s;
}

// v - x y, one rounding of the exact value with a fused MulAdd; without one, the product's
// rounding error (ProductError) is subtracted after it, so the compensated quotient below
// and the slope's z keep their accuracy on SSE4 / EMU128 too.
template <class V>
HWY_INLINE V SubProduct(V v, V x, V y) {
#if HWY_NATIVE_FMA
  return hn::NegMulAdd(x, y, v);
#else
  const hn::DFromV<V> d;
  const V prod = hn::Mul(x, y);
  return hn::Sub(hn::Sub(v, prod), ProductError(d, x, y, prod));
#endif
}

// What x Phi(x) and its derivative share, for a = min(|x|, kTailUpTo):
//   phi(a) = 2^k exp(r), exp(r) = 1 + r E(r), |r| <= ln2 / 2 (E of degree 5: 2^-28.2
//     relative). a^2 / 2 rounded in f32 is off by up to half its ULP (2^-18 at a = 13, up
//     to 64 ULP once through exp), so it is carried in two parts, a^2 = s + s_lo with s_lo
//     the product's exact error, and s_lo / 2 joins r. ln sqrt(2 pi) (phi's constant) and
//     ln 2 are in two parts too (the high parts have few bits: k ln2_hi + c_hi is exact);
//     the reduction's one inexact step, r - a^2 / 2 for small a, is off by 2^-26 at most.
//   M(a) = P(a) / (a P(a) + N(a)) (2^-29.6 relative on [0.5, 20]; M ~ 1 / a like the Mills
//     ratio), with y = a P rounded and den = y + N; den_err is that sum's exact error. Every
//     user divides something proportional to y (or P) by den, so P's and y's roundings
//     mostly cancel: their weight is H / (a + H) with H = N / P, 0.56 at a = 0.5, 0.16 at
//     a = 2, 1 / a^2 beyond.
// h is clamped to h_max: 86 keeps 2^k normal (k >= -125) for the main path, which
// NormalTailFar replaces below kFarBelow; it clamps to 200 (k >= -290).
template <class D>
struct NormalTail {
  using V = hn::Vec<D>;
  V a, r, e_poly, k, pow2, p, y, den, den_err, inv_den;

  HWY_INLINE NormalTail(D d, V x, float h_max) {
    static constexpr float kMillsN[5] = {0.7978854775428772f, 0.5437490940093994f,
                                         0.18927112221717834f, 0.036316949874162674f,
                                         0.0033504802267998457f};
    static constexpr float kMillsP[6] = {1.0f, 1.1369270086288452f, 0.6183558702468872f,
                                         0.19584204256534576f, 0.03632190823554993f,
                                         0.003350396640598774f};
    static constexpr float kExpM1[6] = {1.0f, 0.4999999403953552f, 0.1666652113199234f,
                                        0.04166826605796814f, 0.008368673734366894f,
                                        0.0013820709427818656f};
    a = hn::Min(hn::Abs(x), hn::Set(d, kTailUpTo));
    const V s = hn::Mul(a, a);
    const V half_s_lo = hn::Mul(ProductError(d, a, a, s), hn::Set(d, 0.5f));
    const V h = hn::Min(hn::Mul(s, hn::Set(d, 0.5f)), hn::Set(d, h_max));
    // k = rint(-(h + ln sqrt(2 pi)) / ln2), by the 1.5 * 2^23 rounding constant.
    const V round = hn::Set(d, 12582912.0f);
    const V t = hn::NegMulAdd(hn::Add(h, hn::Set(d, 0.91893853320467274f)),
                              hn::Set(d, 1.44269504088896341f), round);
    k = hn::Sub(t, round);
    r = hn::NegMulAdd(k, hn::Set(d, 0.693145751953125f), hn::Set(d, -0.9189453125f));
    r = hn::Sub(r, h);
    r = hn::NegMulAdd(k, hn::Set(d, 1.428606765330187045e-6f), r);
    r = hn::Sub(r, hn::Sub(half_s_lo, hn::Set(d, 6.779295290471055e-06f)));
    e_poly = HornerF32(r, kExpM1, 6);
    const hn::RebindToSigned<D> di;
    const auto ki = hn::ConvertTo(di, k);
    pow2 = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(hn::Max(ki, hn::Set(di, -126)),
                                                    hn::Set(di, 127))));
    p = HornerF32(a, kMillsP, 6);
    const V n = HornerF32(a, kMillsN, 5);
    y = hn::Mul(a, p);
    den = hn::Add(y, n);
    den_err = hn::Add(hn::Sub(hn::Max(y, n), den), hn::Min(y, n));  // Fast2Sum, larger first
    inv_den = hn::Div(hn::Set(d, 1.0f), den);
  }

  // v exp(r) / (den + den_err): the exp's last step fused with the product (v r rounds,
  // but weighs at most 0.4 of the result), then the quotient corrected by its exact
  // remainder, so it carries about one rounding beyond v's. with_den_err: whether den's
  // rounding counts (it does where v is y; in the slope's z it cancels out).
  HWY_INLINE V ExpTimesOverDen(V v, bool with_den_err) const {
    const V num = hn::MulAdd(hn::Mul(v, r), e_poly, v);
    const V q = hn::Mul(num, inv_den);
    V rem = SubProduct(num, q, den);  // exact: q den is within an ULP of num
    if (with_den_err) rem = hn::NegMulAdd(q, den_err, rem);
    return hn::MulAdd(rem, inv_den, q);
  }
};

// q 2^k for the lanes of NormalTail(d, x, 200) below kFarBelow, where 2^k is below f32's
// normal range but q 2^k (times m) need not be: 2^k is applied in three factors, 2^max(k,
// -120) (q times it stays normal), then 2^(k - that + 50) and 2^-50, so the last multiply
// is the only rounding of a subnormal result. Returns m (q 2^k).
template <class D, class V = hn::Vec<D>>
HWY_INLINE V NormalTailFar(D d, const NormalTail<D>& tail, V q, V m) {
  const hn::RebindToSigned<D> di;
  const auto ki = hn::ConvertTo(di, tail.k);
  const auto ka = hn::Max(ki, hn::Set(di, -120));
  const auto kb = hn::Add(hn::Sub(ki, ka), hn::Set(di, 50 + 127));
  const V scale_a = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(ka, hn::Set(di, 127))));
  const V scale_b = hn::BitCast(d, hn::ShiftLeft<23>(kb));
  return hn::Mul(hn::Mul(hn::Mul(m, hn::Mul(q, scale_a)), scale_b),
                 hn::Set(d, 8.8817841970012523e-16f));  // 2^-50
}

// x Phi(x). |x| < 0.5: x (1/2 + x S(x^2)) as fma(x, x S, x / 2) (x S weighs at most 0.6 of
// the sum), with x's sign (x = -0, and x / 2 rounding to -0, would give +0). Otherwise
// x - a Q(a) for x >= 0 (fma: a Q weighs Q / (1 - Q) <= 0.45 of the result) and -a Q(a)
// below, a Q = phi(a) a M = (y exp(r) / den) 2^k. Below kFarBelow NormalTailFar scales
// (x < -14.4 rounds to -0, -inf included). NaN lanes are the caller's.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V XPhi(D d, V x) {
  static constexpr float kPhiSmall[5] = {0.3989422917366028f, -0.06649097800254822f,
                                         0.009982075542211533f, -0.0012320001842454076f,
                                         0.00019118894124403596f};
  const V x_s = hn::Mul(x, HornerF32(hn::Mul(x, x), kPhiSmall, 5));
  const V series = hn::CopySign(hn::MulAdd(x, x_s, hn::Mul(x, hn::Set(d, 0.5f))), x);
  const NormalTail<D> tail(d, x, 86.0f);
  const V a_q = tail.ExpTimesOverDen(tail.y, true);  // a Q(a) / 2^k
  V out = hn::NegMulAdd(a_q, tail.pow2, hn::Max(x, hn::Zero(d)));
  out = hn::IfThenElse(hn::Lt(tail.a, hn::Set(d, kSeriesBelow)), series, out);
  const auto far = hn::Lt(x, hn::Set(d, kFarBelow));
  if (HWY_UNLIKELY(!hn::AllFalse(d, far))) {
    const NormalTail<D> deep(d, x, 200.0f);
    const V q = deep.ExpTimesOverDen(deep.y, true);
    out = hn::IfThenElse(far, NormalTailFar(d, deep, q, hn::Set(d, -1.0f)), out);
  }
  return out;
}

// dy (Phi(x) + x phi(x)), the derivative of x Phi(x) times dy. |x| < 0.5: 1/2 + x T(x^2).
// Otherwise, with Phi + x phi = phi(a) (M(a) - a) for x < 0 and 1 - that for x >= 0:
// M - a = z / den with z = P - a den (one rounding; den's own rounding cancels from z / den
// but for M / (M - a), small past the factor's zero at x = -0.7518, where it cancels and
// the error is absolute). Below kFarBelow NormalTailFar scales, so that a huge dy (bf16
// keeps f32's range) meets the factor before its scale underflows: finite x < -20 give
// -dy 0 (an infinite dy: -dy, the limit), -inf gives dy * 0. NaN in either -> NaN.
template <class D, class V = hn::Vec<D>>
HWY_INLINE V DyTimesPhiPlusXDensity(D d, V dy, V x) {
  static constexpr float kSlopeSmall[5] = {0.7978845834732056f, -0.265962690114975f,
                                           0.05985734984278679f, -0.009575734846293926f,
                                           0.0012486239429563284f};
  const V series = hn::MulAdd(x, HornerF32(hn::Mul(x, x), kSlopeSmall, 5), hn::Set(d, 0.5f));
  const NormalTail<D> tail(d, x, 86.0f);
  const V z = SubProduct(tail.p, tail.a, tail.den);
  const V slope = hn::Mul(tail.ExpTimesOverDen(z, false), tail.pow2);  // phi (M - a)
  V factor = hn::IfNegativeThenElse(x, slope, hn::Sub(hn::Set(d, 1.0f), slope));
  factor = hn::IfThenElse(hn::Lt(tail.a, hn::Set(d, kSeriesBelow)), series, factor);
  factor = hn::IfThenElse(hn::IsNaN(x), x, factor);
  V dx = hn::Mul(dy, factor);
  const auto far = hn::Lt(x, hn::Set(d, kFarBelow));
  if (HWY_UNLIKELY(!hn::AllFalse(d, far))) {
    const NormalTail<D> deep(d, x, 200.0f);
    const V q = deep.ExpTimesOverDen(SubProduct(deep.p, deep.a, deep.den), false);
    V far_dx = NormalTailFar(d, deep, q, dy);
    // x = -inf: the factor is 0 (x phi(x) -> 0), so dy * 0 (NaN for an infinite dy).
    far_dx = hn::IfThenElse(hn::Eq(x, hn::Set(d, -HUGE_VALF)), hn::Mul(dy, hn::Zero(d)), far_dx);
    dx = hn::IfThenElse(far, far_dx, dx);
  }
  return dx;
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_NORMAL_TAIL_INL_H_
