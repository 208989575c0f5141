// Helpers in f64 lanes, for the kernels that compute in double: an exp for non-positive
// arguments (LogSoftmax's DOUBLE rows); tanh and sigmoid with the complements a gradient
// needs, and a function of f32 vectors computed in their f64 halves (SituGlu). Every
// operation is a lane operation (MulAdd fused on AVX2 / AVX3 / NEON / SVE, not on SSE4 /
// EMU128 / SCALAR), so the bits are the same on every target of one family.
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

// exp(v) for v <= 0, f64 lanes (LogSoftmax's exp(x - max)). k = rint(v / ln2) by the
// 1.5 * 2^52 rounding trick, r = v - k ln2 with ln2 in two parts (fdlibm's: k * kLn2Hi is exact for |k| <
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

// tanh(z), f64 lanes, and sech(z)^2 = 1 - tanh(z)^2 where asked, both from e = exp(-2|z|):
// tanh|z| = (1 - e) / (1 + e) and sech^2 = 4e / (1 + e)^2, no subtraction near tanh = 1.
// Below |z| = 1/4, where 1 - e cancels, tanh takes its Taylor series to z^15 (truncation
// below 2^-41 relative). A few f64 ULP in all, far below an f32 ULP. +-inf -> +-1 (sech^2
// 0), -0 -> -0, NaN -> NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD TanhF64(DD d, VD z, VD* sech2 = nullptr) {
  const VD one = hn::Set(d, 1.0);
  const VD az = hn::Abs(z);
  const VD e = ExpF64(d, hn::Mul(hn::Set(d, -2.0), az));
  const VD one_plus_e = hn::Add(one, e);
  if (sech2 != nullptr) {
    *sech2 = hn::Div(hn::Mul(hn::Set(d, 4.0), e), hn::Mul(one_plus_e, one_plus_e));
  }
  // tanh z = z + z^3 p(z^2): the series' coefficients from 1/3 to 929569/638512875.
  static constexpr double kSeries[7] = {-0.0014558343870513183, 0.003592128036572481,
                                        -0.008863235529902197,  0.021869488536155203,
                                        -0.05396825396825397,   0.13333333333333333,
                                        -0.3333333333333333};
  const VD z2 = hn::Mul(z, z);
  VD p = hn::Set(d, kSeries[0]);
  for (int i = 1; i < 7; ++i) p = hn::MulAdd(p, z2, hn::Set(d, kSeries[i]));
  const VD small = hn::MulAdd(hn::Mul(z, z2), p, z);
  const VD large = hn::Div(hn::Sub(one, e), one_plus_e);
  return hn::CopySign(hn::IfThenElse(hn::Lt(az, hn::Set(d, 0.25)), small, large), z);
}

// sigmoid(g) = 1 / (1 + exp(-g)), f64 lanes, and 1 - sigmoid(g) where asked: with
// e = exp(-|g|) and r = 1 / (1 + e) they are r and e r by g's sign, never a subtraction.
// sigmoid(-inf) = 0, sigmoid(inf) = 1; NaN -> NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD SigmoidF64(DD d, VD g, VD* one_minus = nullptr) {
  const VD e = ExpF64(d, hn::Neg(hn::Abs(g)));
  const VD r = hn::Div(hn::Set(d, 1.0), hn::Add(hn::Set(d, 1.0), e));
  const VD er = hn::Mul(e, r);
  if (one_minus != nullptr) *one_minus = hn::IfNegativeThenElse(g, r, er);
  return hn::IfNegativeThenElse(g, er, r);
}

// x * y - prod exactly, for prod = x * y rounded (f64 lanes): one fused operation where
// the target fuses, else Dekker's product of halves (2^27 + 1 splits a 53-bit mantissa).
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD ProductErrorF64(DD d, VD x, VD y, VD prod) {
#if HWY_NATIVE_FMA
  (void)d;
  return hn::MulSub(x, y, prod);
#else
  const VD split = hn::Set(d, 134217729.0);
  const VD cx = hn::Mul(split, x), cy = hn::Mul(split, y);
  const VD xh = hn::Sub(cx, hn::Sub(cx, x)), yh = hn::Sub(cy, hn::Sub(cy, y));
  const VD xl = hn::Sub(x, xh), yl = hn::Sub(y, yh);
  VD err = hn::Sub(hn::Mul(xh, yh), prod);
  err = hn::Add(hn::Add(err, hn::Mul(xh, yl)), hn::Mul(xl, yh));
  return hn::Add(err, hn::Mul(xl, yl));
#endif
}

// 2^j for j an integer-valued lane in [-1022, 1023], from its exponent field.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD Pow2F64(DD d, VD j) {
  const hn::RebindToSigned<DD> di;
  const VD biased = hn::Add(j, hn::Set(d, 6755399441055744.0 + 1023.0));  // 1.5 * 2^52 + bias
  return hn::BitCast(d, hn::ShiftLeft<52>(hn::BitCast(di, biased)));
}

// expm1(v + lo), f64 lanes, where lo is a correction far below v's ULP (the rounding error
// of the product that made v, ProductErrorF64; zero for none): exp's growth multiplies v's
// relative error by |v|, so a product's rounding must be carried to keep a few ULP up to
// v = 709. k = rint(v / ln2), r = v - k ln2 (ln2 in two parts, as ExpF64) + lo, expm1(r)
// = r + r^2 (1/2! + r/3! + ... + r^12/14!) on |r| <= ln2/2 (truncation below 2^-60
// relative), then 2^k (1 + p) - 1 formed as 2^k p + (2^k - 1), whose subtraction is exact
// for k <= 53, in one fused rounding; past k = 53 as 2 (2^(k-1) p + 2^(k-1)), so that 2^k
// overflows only where the result does. v is clamped to [-40, 710]: expm1 is -1 in double
// below -38 and +inf past 709.79. Max error about 1.5 ULP; -inf -> -1, +inf -> +inf, NaN ->
// NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD ExpM1F64(DD d, VD v, VD lo) {
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const VD one = hn::Set(d, 1.0);
  const VD vc = hn::Min(hn::Max(v, hn::Set(d, -40.0)), hn::Set(d, 710.0));
  const VD round = hn::Set(d, 6755399441055744.0);  // 1.5 * 2^52: rounds to an integer
  const VD k = hn::Sub(hn::MulAdd(vc, hn::Set(d, 1.4426950408889634), round), round);
  VD r = hn::NegMulAdd(k, hn::Set(d, kLn2Hi), vc);
  r = hn::NegMulAdd(k, hn::Set(d, kLn2Lo), r);
  // lo where v is in range: an infinite v's lo is NaN, and a product past 2^996 overflows
  // the split of targets without FMA (ProductErrorF64), where the clamp decides anyway.
  r = hn::Add(
      r, hn::IfThenElseZero(hn::And(hn::Lt(hn::Abs(v), hn::Set(d, 710.0)), hn::IsFinite(lo)), lo));
  // 1/14!, 1/13!, ..., 1/2!.
  static constexpr double kInvFact[13] = {1.1470745597729725e-11,
                                          1.6059043836821613e-10,
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
                                          0.5};
  VD q = hn::Set(d, kInvFact[0]);
  for (int i = 1; i < 13; ++i) q = hn::MulAdd(q, r, hn::Set(d, kInvFact[i]));
  const VD p = hn::MulAdd(hn::Mul(r, r), q, r);
  const VD big = hn::Set(d, 53.0);
  const VD s = Pow2F64(d, hn::Min(k, big));
  const VD near = hn::MulAdd(s, p, hn::Sub(s, one));
  const VD h = Pow2F64(d, hn::Max(hn::Sub(k, one), big));
  const VD far = hn::Mul(hn::MulAdd(h, p, h), hn::Set(d, 2.0));
  const VD out = hn::IfThenElse(hn::Gt(k, big), far, near);
  return hn::IfThenElse(hn::IsNaN(v), v, out);
}

// f64 lanes rounded to f32 as IEEE rounds them: Highway's EMU128 and SCALAR demotions
// saturate at +-FLT_MAX (infinities included), so those targets put back the infinities
// of the lanes at or past FLT_MAX + half its ULP (2^128 - 2^103), where rounding overflows;
// the SIMD targets' conversions round so already.
template <class DF, class VW>
HWY_INLINE hn::Vec<DF> DemoteF64(DF df, VW w) {
  const hn::Vec<DF> f = hn::DemoteTo(df, w);
#if HWY_TARGET == HWY_EMU128 || HWY_TARGET == HWY_SCALAR
  const hn::Rebind<double, DF> dw;
  const VW past = hn::IfThenElseZero(hn::Ge(hn::Abs(w), hn::Set(dw, 3.4028235677973366e38)),
                                     hn::Set(dw, 1.0));
  const hn::Vec<DF> inf = hn::CopySign(hn::Set(df, HUGE_VALF), f);
  return hn::IfThenElse(hn::Gt(hn::DemoteTo(df, past), hn::Zero(df)), inf, f);
#else
  return f;
#endif
}

// fn computed in f64 lanes on f32 vectors: fn(dw, second, v...) takes each f64 half of the
// vectors v (lanes of one order) and returns that half's result, and sets *second to a
// second result; both rounded once to f32. So a function of f32 inputs holds its f32 result
// to half an ULP plus fn's own error in double.
template <class D, class Fn, class... V>
HWY_INLINE hn::Vec<D> InF64Lanes(D d, const Fn& fn, hn::Vec<D>* second, V... v) {
#if HWY_TARGET == HWY_SCALAR
  const hn::Rebind<double, D> dw;
  hn::Vec<decltype(dw)> s = hn::Zero(dw);
  const auto r = fn(dw, &s, hn::PromoteTo(dw, v)...);
  if (second != nullptr) *second = DemoteF64(d, s);
  return DemoteF64(d, r);
#elif HWY_HAVE_FLOAT64
  const hn::RepartitionToWide<D> dw;
  const hn::Half<D> dh;
  hn::Vec<decltype(dw)> s_lo = hn::Zero(dw), s_hi = hn::Zero(dw);
  const auto lo = fn(dw, &s_lo, hn::PromoteTo(dw, hn::LowerHalf(dh, v))...);
  const auto hi = fn(dw, &s_hi, hn::PromoteTo(dw, hn::UpperHalf(dh, v))...);
  if (second != nullptr) {
    *second = hn::Combine(d, DemoteF64(dh, s_hi), DemoteF64(dh, s_lo));
  }
  return hn::Combine(d, DemoteF64(dh, hi), DemoteF64(dh, lo));
#else
#error "InF64Lanes needs f64 lanes: every x86 and Arm64 target has them"
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_F64_LANES_INL_H_
