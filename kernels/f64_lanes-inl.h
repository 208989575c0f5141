// Helpers in f64 lanes, for the kernels that compute in double: an exp for non-positive
// arguments (LogSoftmax's DOUBLE rows, the erf forms of Gelu), the normal distribution's
// tail 0.5 erfc(|x| / sqrt 2), and the split of an f32 vector into f64 halves and back.
// Every operation is a lane operation (MulAdd fused on AVX2 / AVX3 / NEON / SVE, not on
// SSE4 / EMU128 / SCALAR), so the bits are the same on every target of one family.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_F64_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_F64_LANES_INL_H_
#undef HOSTNN_KERNELS_F64_LANES_INL_H_
#else
#define HOSTNN_KERNELS_F64_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// exp(v) for v <= 0, f64 lanes (LogSoftmax's exp(x - max), the erf forms' exp(-x^2 / 2)). k = rint(v / ln2) by the 1.5 * 2^52 rounding
// trick, r = v - k ln2 with ln2 in two parts (fdlibm's: k * kLn2Hi is exact for |k| <
// 2^11, so r carries only the rounding of its last subtraction), exp(r) on [-ln2/2, ln2/2]
// by its Taylor polynomial of degree 13 (truncation below 0.05 ULP), and 2^k applied as
// an exponent field of k + 1077 times the polynomial's scale 2^-54: both factors are
// normal down to v = -746 (clamped there: exp(-746) is below half the least subnormal and
// rounds to 0, as -inf must), so the product rounds once, subnormal results included. p(0) = 2^-54
// exactly, so the max's own exp(0) is exactly 1. Max error about 1.5 ULP (Horner roundings). NaN
// lanes give NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD ExpF64(DD d, VD v) {
  constexpr double kScale = 5.5511151231257827e-17;  // 2^-54
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const VD vc = hn::Max(v, hn::Set(d, -746.0));
  const VD round = hn::Set(d, 6755399441055744.0 + 1077.0);  // 1.5 * 2^52, then the bias
  const VD t = hn::MulAdd(vc, hn::Set(d, 1.4426950408889634), round);
  const VD k = hn::Sub(t, round);
  VD r = hn::NegMulAdd(k, hn::Set(d, kLn2Hi), vc);
  r = hn::NegMulAdd(k, hn::Set(d, kLn2Lo), r);
  // 1/13!, 1/12!, ..., 1/1!, 1/0!, each times 2^-54 (exact: a power of two).
  static constexpr double kInvFact[14] = {1.6059043836821613e-10,
                                          2.08767569878681e-09,
                                          2.505210838544172e-08,
                                          2.755731922398589e-07,
                                          2.7557319223985893e-06,
                                          2.48015873015873e-05,
                                          1.984126984126984e-04,
                                          1.388888888888889e-03,
                                          8.333333333333333e-03,
                                          4.1666666666666664e-02,
                                          1.6666666666666666e-01,
                                          0.5,
                                          1.0,
                                          1.0};
  VD p = hn::Set(d, kInvFact[0] * kScale);
  for (int i = 1; i < 14; ++i) p = hn::MulAdd(p, r, hn::Set(d, kInvFact[i] * kScale));
  const hn::RebindToSigned<DD> di;
  const VD scale = hn::BitCast(d, hn::ShiftLeft<52>(hn::BitCast(di, t)));
  const VD e = hn::Mul(p, scale);
  return hn::IfThenElse(hn::IsNaN(v), v, e);
}

// The upper tail of the standard normal distribution, Q(a) = P(N > a) = erfc(a / sqrt 2) / 2,
// for a = |x| >= 0 in f64 lanes, with a relative error near 2^-40 (far below f32's).
// erfc(z) = t exp(-z^2 + g(t)), t = 2 / (2 + z), where g is smooth on t in [1/16, 1]
// (z in [0, 30]) and given by its Chebyshev series of degree 18 (interpolated at the
// Chebyshev nodes in 40-digit arithmetic: |error| < 5.3e-13, scripts/fit_erfc.py), summed by
// Clenshaw's recurrence. z^2 / 2 = a^2 / 4 is formed from a^2 = x^2 (x an f32 widened to
// double: exact), so the exponent carries no rounding of z. Past z = 30 (a = 42.4) the exp
// underflows to 0, as Q does. NaN a gives NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD NormalTailF64(DD d, VD a) {
  static constexpr double kG[19] = {
      -0.6145972619979386,     0.6088711666935733,     0.014390627557117706,
      -0.008389354970540292,   -0.0005750109082128096, 0.00029604191041857937,
      1.7600785718523224e-05,  -1.4386636062344534e-05, -1.0073446799991075e-07,
      7.637010436934333e-07,   -5.5351784509463016e-08, -3.79150372540279e-08,
      6.992943163501956e-09,   1.433348136063182e-09,  -5.794745809913951e-10,
      -1.0742885109164768e-11, 3.543633269599596e-11,  -4.3701401270696005e-12,
      -1.3980945414119053e-12};
  const VD half_z2 = hn::Mul(hn::Mul(a, a), hn::Set(d, 0.25));  // z^2 / 2, exact
  const VD z = hn::Min(hn::Mul(a, hn::Set(d, 0.70710678118654752440)), hn::Set(d, 30.0));
  const VD t = hn::Div(hn::Set(d, 2.0), hn::Add(hn::Set(d, 2.0), z));
  // y = (32 t - 17) / 15 maps [1/16, 1] onto [-1, 1].
  const VD y = hn::MulAdd(t, hn::Set(d, 32.0 / 15.0), hn::Set(d, -17.0 / 15.0));
  const VD y2 = hn::Add(y, y);
  VD b1 = hn::Zero(d), b2 = hn::Zero(d);
  for (int k = 18; k >= 1; --k) {
    const VD b0 = hn::Add(hn::MulSub(y2, b1, b2), hn::Set(d, kG[k]));
    b2 = b1;
    b1 = b0;
  }
  const VD g = hn::Add(hn::MulSub(y, b1, b2), hn::Set(d, kG[0]));
  // exp(-z^2 + g) with -z^2 = -2 half_z2: the sum rounds once (relative 2^-53 of z^2).
  const VD e = ExpF64(d, hn::Min(hn::MulAdd(half_z2, hn::Set(d, -2.0), g), hn::Zero(d)));
  return hn::Mul(hn::Mul(t, e), hn::Set(d, 0.5));
}

// v rounded to f32 as IEEE does (to nearest even, past FLT_MAX to inf). Highway's portable
// DemoteTo (EMU128, SCALAR) saturates, infinities included, so those targets round lane by
// lane here; the others' DemoteTo is the hardware's IEEE conversion.
template <class DF, class VD>
HWY_INLINE hn::Vec<DF> DemoteF64(DF df, VD v) {
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
  const hn::Rebind<double, DF> dd;
  HWY_ALIGN double in[HWY_MAX_BYTES / sizeof(double)];
  HWY_ALIGN float out[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, dd, in);
  for (size_t i = 0; i < hn::Lanes(dd); ++i) {
    const double a = std::fabs(in[i]);
    // 0x1.ffffffp127, the midpoint above FLT_MAX, rounds (to even) up to inf; the cast
    // itself only ever sees values within float's range (or NaN).
    const float r = a >= 3.4028235677973366e38 ? HUGE_VALF
                    : a > 3.4028234663852886e38 ? 3.4028234663852886e38f
                                                 : static_cast<float>(a);
    out[i] = std::signbit(in[i]) ? -r : r;
  }
  return hn::Load(df, out);
#else
  return hn::DemoteTo(df, v);
#endif
}

// out = f(dd, a, b) for the f32 vectors a and b, computed in f64 lanes: each half widened
// (exactly), f applied, and the f64 results rounded once to f32.
template <class D, class F>
HWY_INLINE hn::Vec<D> OnF64Lanes(D d, hn::Vec<D> a, hn::Vec<D> b, F f) {
#if HWY_TARGET == HWY_SCALAR
  const hn::Rebind<double, D> dd;
  return DemoteF64(d, f(dd, hn::PromoteTo(dd, a), hn::PromoteTo(dd, b)));
#else
  const hn::Half<D> dh;
  const hn::Rebind<double, decltype(dh)> dd;
  const auto lo = f(dd, hn::PromoteTo(dd, hn::LowerHalf(dh, a)),
                    hn::PromoteTo(dd, hn::LowerHalf(dh, b)));
  const auto hi = f(dd, hn::PromoteTo(dd, hn::UpperHalf(dh, a)),
                    hn::PromoteTo(dd, hn::UpperHalf(dh, b)));
  return hn::Combine(d, DemoteF64(dh, hi), DemoteF64(dh, lo));
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_F64_LANES_INL_H_
