// The activation family's gradient functors (SigmoidBackward, GeluBackward, FastGelu-,
// Hardswish-, Mish-, Selu- and GeluErfBackward) and the z functions the Gelu forms share
// with their forward operators: Apply(d, dy, x) -> dx, all lanes f32, built on the helpers
// of eltwise_ops-inl.h. Each documents its formula, max error against the exact (double)
// result of the same f32 inputs, and its valid range.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_FAMILY_GRAD_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_FAMILY_GRAD_OPS_INL_H_
#undef HOSTNN_KERNELS_FAMILY_GRAD_OPS_INL_H_
#else
#define HOSTNN_KERNELS_FAMILY_GRAD_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include "kernels/eltwise_ops-inl.h"
#include "kernels/normal_tail-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Heaviside (a two-input operator of Kind Binary: dy is `input`, x is `values`): 1 where
// input > 0, 0 where input < 0, values where input is +-0. NaN in either gives NaN (SPEC;
// CANN's kernel and PyTorch give 0 for a NaN input and pass a NaN value only where input
// is 0). Lanes: f32. Exact (a selection). Valid range: all floats.
struct HeavisideOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V input, V values) {
    V r = hn::IfThenElseZero(hn::Gt(input, hn::Zero(d)), hn::Set(d, 1.0f));
    r = hn::IfThenElse(hn::Eq(input, hn::Zero(d)), values, r);
    r = hn::IfThenElse(hn::IsNaN(values), values, r);
    return hn::IfThenElse(hn::IsNaN(input), input, r);
  }
};

// Prelu (a two-input operator of Kind Binary: dy is `self`, x is `weight`, which the
// front end broadcasts along dim 1): self where self > 0, else weight * self. Lanes: f32.
// Max error: the product's one rounding (0.5 ULP); a selection elsewhere. Valid range: all
// floats. NaN self -> weight * NaN, a NaN; a NaN weight shows only where self <= 0, as in
// CANN's kernel and PyTorch (select(self > 0, self, self * weight)).
struct PreluOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V self, V weight) {
    return hn::IfThenElse(hn::Gt(self, hn::Zero(d)), self, hn::Mul(weight, self));
  }
};

// SigmoidBackward in f64 lanes (inputs promoting to DOUBLE): dy (y (1 - y)), or (dy y)
// (1 - y) where |y| > 2^500 (y (1 - y) alone could overflow). Max error about 2 ULP
// (double). NaN in either input -> that NaN.
struct SigmoidBackwardF64Op {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V y) {
    const V one_minus_y = hn::Sub(hn::Set(d, 1.0), y);
    V dx = hn::Mul(dy, hn::Mul(y, one_minus_y));
    const auto huge = hn::Gt(hn::Abs(y), hn::Set(d, 0x1p500));
    dx = hn::IfThenElse(huge, hn::Mul(hn::Mul(dy, y), one_minus_y), dx);
    dx = hn::IfThenElse(hn::IsNaN(dy), dy, dx);
    return hn::IfThenElse(hn::IsNaN(y), y, dx);
  }
};

// SigmoidBackward: dx = dy * y * (1 - y), y the forward output (CANN's second input is
// Sigmoid's result, not x). Plain products, no fused steps, so every target gives the same
// bits: 1 - y is exact for y in [0.5, 2] (Sterbenz) and within half an ULP of a result >= 0.5
// below, then two roundings; dy multiplies last, so a subnormal dy meets a normal factor.
// Lanes: f32 (every dtype). Max error: 2.26 ULP (precision_report_test, both families).
// Valid range: all floats. y outside [0, 1] is not a sigmoid but gives the formula: for
// |y| > 2^60, where y (1 - y) alone could overflow although dy y (1 - y) need not, vectors
// holding such lanes compute (dy y) (1 - y) there; y = +-inf gives dy * -inf (NaN for dy = 0,
// as the formula). NaN y -> y itself, NaN dy -> NaN.
struct SigmoidBackwardOp {
  using F64Form = SigmoidBackwardF64Op;  // inputs promoting to DOUBLE (ComputesDouble)
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V y) {
    const V one_minus_y = hn::Sub(hn::Set(d, 1.0f), y);
    V dx = hn::Mul(dy, hn::Mul(y, one_minus_y));
    // Huge y, or NaN in either input (rare).
    const V big = hn::Set(d, 1.152921504606846976e18f);  // 2^60
    const auto rare = hn::Or(CompareUnordered<kNotLessEqual>(d, hn::Abs(y), big),
                             CompareUnordered<kUnordered>(d, dy, dy));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      dx = hn::IfThenElse(hn::Gt(hn::Abs(y), big), hn::Mul(hn::Mul(dy, y), one_minus_y), dx);
      // Select the NaN operand, so NaN bits do not depend on operand order.
      dx = hn::IfThenElse(hn::IsNaN(dy), dy, dx);
      dx = hn::IfThenElse(hn::IsNaN(y), y, dx);
    }
    return dx;
  }
};

// Gelu's tanh form and FastGelu are both x * sigmoid(z(x)); a Z policy gives z and dz/dx
// (Gelu: z = 2 sqrt(2/pi) (x + 0.044715 x^3), so that 0.5 x (1 + tanh(z/2)) = x sigmoid(z);
// FastGelu: z = 1.702 x) and kClamp, the |x| beyond which |z| > 192: e = exp(-|z|) is 0
// and the far tail below is past, so x may be clamped there. The forward functors
// (unary_ops-inl.h: XSigmoidImpl) and the gradients below share them.
constexpr float kGeluC1 = 1.5957691216057308f;    // 2 sqrt(2/pi)
constexpr float kGeluC3 = 0.071354816272600253f;  // 2 sqrt(2/pi) 0.044715
// The constants' remainders: C - float(C), in float (ZErrorFused).
constexpr float kGeluC1Low = static_cast<float>(1.5957691216057308 - static_cast<double>(kGeluC1));
constexpr float kGeluC3Low =
    static_cast<float>(0.071354816272600246 - static_cast<double>(kGeluC3));
struct GeluTanhZ {
  static constexpr float kClamp = 16.0f;  // |z(16)| = 318
  template <class D, class V>
  static HWY_INLINE V Z(D d, V x) {
    return hn::Mul(x, hn::MulAdd(hn::Set(d, kGeluC3), hn::Mul(x, x), hn::Set(d, kGeluC1)));
  }
  // z in f64 lanes from exact constants: x^2 is exact there, about 2^-51 relative in all.
  template <class DW, class VW>
  static HWY_INLINE VW ZWide(DW dw, VW x) {
    const VW p = hn::Add(hn::Mul(hn::Set(dw, 0.071354816272600246), hn::Mul(x, x)),
                         hn::Set(dw, 1.5957691216057308));
    return hn::Mul(x, p);
  }
  // Z(x) - z in f32 lanes where MulAdd is fused (see ZError), for x <= -1.17 (z < -2; the
  // other lanes' values are unspecified), within about 2^-37 absolute (|x| <= 16): with the
  // constants in two parts, C1 = c1 + c1l and C3 = c3 + c3l, and Z's own q = fl(x^2) and
  // u = fl(c3 q + c1) (one rounding), Z(x) - z = (x u - z) + x (U - u), U = C1 + C3 x^2.
  // x u - z, x^2 - q and c3 q - p (p = fl(c3 q)) are exact by MulSub. U - u = (c1 + p - u)
  // + (c3 q - p) + c1l + c3 (x^2 - q) + c3l q, whose first term is computed exactly as
  // (hi - u) + lo, hi and lo the larger and the smaller of c1 and p: u lies in [hi, 2 hi]
  // and hi - u within 2^-18 of -lo relative (q >= 1.37, so p >= 0.098 is far above u's
  // ULP), both differences exact by Sterbenz's lemma. The rest are small terms, rounded
  // at about 2^-44.
  template <class D, class V>
  static HWY_INLINE V ZErrorFused(D d, V x, V z) {
    const V c1 = hn::Set(d, kGeluC1), c3 = hn::Set(d, kGeluC3);
    const V q = hn::Mul(x, x);
    const V u = hn::MulAdd(c3, q, c1);
    const V p = hn::Mul(c3, q);
    const V c1_plus_p_minus_u = hn::Add(hn::Sub(hn::Max(c1, p), u), hn::Min(c1, p));
    V ul = hn::Add(c1_plus_p_minus_u, hn::MulSub(c3, q, p));
    ul = hn::Add(ul, hn::Set(d, kGeluC1Low));
    ul = hn::MulAdd(hn::Set(d, kGeluC3Low), q, ul);
    ul = hn::MulAdd(c3, hn::MulSub(x, x, q), ul);
    return hn::MulAdd(x, ul, hn::MulSub(x, u, z));
  }
  template <class D, class V>
  static HWY_INLINE V Dz(D d, V x) {
    return hn::MulAdd(hn::Set(d, 3.0f * kGeluC3), hn::Mul(x, x), hn::Set(d, kGeluC1));
  }
};
struct FastGeluZ {
  static constexpr float kClamp = 128.0f;  // |z(128)| = 218
  template <class D, class V>
  static HWY_INLINE V Z(D d, V x) {
    return hn::Mul(x, hn::Set(d, 1.702f));
  }
  template <class DW, class VW>
  static HWY_INLINE VW ZWide(DW dw, VW x) {
    return hn::Mul(x, hn::Set(dw, 1.702));
  }
  // 1.702 = c + cl with c = fl(1.702): Z(x) - z = (c x - z) + cl x, the first term exact.
  template <class D, class V>
  static HWY_INLINE V ZErrorFused(D d, V x, V z) {
    return hn::MulAdd(hn::Set(d, static_cast<float>(1.702 - static_cast<double>(1.702f))), x,
                      hn::MulSub(hn::Set(d, 1.702f), x, z));
  }
  template <class D, class V>
  static HWY_INLINE V Dz(D d, V /*x*/) {
    return hn::Set(d, 1.702f);
  }
};

// The rounding error of the f32 z: Z(x) - z, Z the exact function. exp(z) carries z's error
// times |z| (up to 192); exp(z) (1 + ZError) undoes that to second order (ZError^2 < 2^-30).
// Where MulAdd is fused (AVX2, AVX3, NEON, SVE) Zf::ZErrorFused computes it in f32 lanes by
// error-free products and sums, without the f64 lanes' conversions of both halves; the
// unfused targets (SSE4, EMU128, SCALAR), where each exact product would take Dekker's
// split, take Z(x) from Zf::ZWide in f64 lanes (plain products and sums, so each target of
// one family gives the same bits). Targets without f64 lanes give 0 there (the error bound
// of the plain f32 z then holds); x86 and Arm targets, SCALAR included, all have them.
template <class Zf, class D, class V>
HWY_INLINE V ZError(D d, V x, V z) {
#if HWY_NATIVE_FMA
  return Zf::ZErrorFused(d, x, z);
#elif HWY_TARGET == HWY_SCALAR
  // One lane: the same double arithmetic without halves, so SCALAR gives SSE4's bits.
  const hn::Rebind<double, D> dw;
  return hn::DemoteTo(d, hn::Sub(Zf::ZWide(dw, hn::PromoteTo(dw, x)), hn::PromoteTo(dw, z)));
#elif HWY_HAVE_FLOAT64
  const hn::RepartitionToWide<D> dw;
  const hn::Half<D> dh;
  const auto half_error = [&](hn::Vec<hn::Half<D>> xh, hn::Vec<hn::Half<D>> zh) {
    return hn::DemoteTo(dh, hn::Sub(Zf::ZWide(dw, hn::PromoteTo(dw, xh)), hn::PromoteTo(dw, zh)));
  };
  const auto lower = half_error(hn::LowerHalf(dh, x), hn::LowerHalf(dh, z));
  const auto upper = half_error(hn::UpperHalf(dh, x), hn::UpperHalf(dh, z));
  return hn::Combine(d, upper, lower);
#else
  (void)x;
  (void)z;
  return hn::Zero(d);
#endif
}
// z below which exp(z) takes ZError: above it |z| times z's error stays under 2^-22.
constexpr float kZErrorFrom = -2.0f;

// The gradient of x sigmoid(z(x)): dx = dy s (1 + x z' (1 - s)), s = sigmoid(z), z' =
// dz/dx. As SiluBackward: with e = exp(-|z|) and r = 1/(1+e), s and 1 - s are r and e r
// (z has x's sign), never a subtraction; 1 + x z'(1-s) with one rounding (it cancels where
// the gradient crosses 0: Gelu at x = -0.7518, FastGelu at x = -0.7512; the SPEC's
// 2^-21 |dy| applies there). x is clamped to +-kClamp, so x = +inf gives
// dy and x = -inf gives dy * -0. For -192 < z < -80, where e dy can be a normal number
// although e is not, vectors holding such lanes take MulExpFarTailAnyDy (s = e and
// 1 - s = 1 there); dy = +-inf at finite x with z <= -192 gives the limit -dy (the factor
// is a negative real below f32's range), not inf * 0 = NaN. Vectors holding lanes with
// z < -2 carry z's rounding into e = exp(z) (1 + ZError) and into the far tail's factor, as
// the forward functors do. e is computed for -|z| clamped to -80, where it is still a
// normal number, and the far tail rounds its subnormal results once without a subnormal
// operation, so that none meets one but for subnormal inputs: each such operation is a
// slow microcoded step on x86 (from |z| = 80 on, 1 + e, s and 1 - s round to what they
// were with the subnormal e). Lanes: f32 (every dtype). Valid
// range: all floats; NaN x -> x itself, NaN dy -> NaN.
template <class Zf>
struct XSigmoidBackwardImpl {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -Zf::kClamp)), hn::Set(d, Zf::kClamp));
    const V z = Zf::Z(d, xc);
    const V dz = Zf::Dz(d, xc);
    V e = ExpNonPositive(d, hn::Max(hn::Or(z, hn::Set(d, -0.0f)), hn::Set(d, -80.0f)));
    const auto tail = hn::Lt(z, hn::Set(d, kZErrorFrom));
    V zerr = hn::Zero(d);
    if (HWY_UNLIKELY(!hn::AllFalse(d, tail))) {
      zerr = hn::IfThenElseZero(tail, ZError<Zf>(d, xc, z));
      e = hn::MulAdd(e, zerr, e);
    }
    const V r = ReciprocalOneToTwo(d, hn::Add(one, e));
    const V er = hn::Mul(e, r);
    const V s = hn::IfNegativeThenElse(x, er, r);
    const V one_minus_s = hn::IfNegativeThenElse(x, r, er);
    V dx = hn::Mul(dy, hn::Mul(s, OnePlusProduct(d, xc, hn::Mul(dz, one_minus_s))));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, z, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      const V a = hn::Neg(z);
      const V q = hn::Mul(OnePlusProduct(d, xc, dz), hn::Add(one, zerr));
      const V far_dx = MulExpFarTailAnyDy(d, dy, q, a);
      const auto far = hn::Lt(z, hn::Set(d, -80.0f));
      // From |z| = 192 on (x finite, or -inf) the product is dy times a factor that rounds
      // to -0 (s = 0 times a negative factor).
      const auto near = hn::Lt(a, hn::Set(d, 192.0f));
      dx = hn::IfThenElse(far, hn::IfThenElse(near, far_dx, hn::Mul(dy, hn::Set(d, -0.0f))), dx);
      const auto huge = hn::And(hn::Ge(a, hn::Set(d, 192.0f)), hn::IsFinite(x));
      dx = hn::IfThenElse(hn::And(huge, hn::IsInf(dy)), hn::Neg(dy), dx);
      dx = hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
    return dx;
  }
};

// HardswishBackward: dx = dy * (x / 3 + 1/2) on the middle segment, 0 left, dy right of it:
// [-3, 3] with kClosed (HardswishBackward, as PyTorch), (-3, 3) otherwise (V2: x = -3 gives
// 0, x = 3 gives dy). (x + 1.5) * fl(1/3): x + 1.5 is exact near the zero at -1.5 (Sterbenz),
// so the factor keeps its relative accuracy there and is exactly 0 at -1.5 (an infinite dy
// gives NaN there, as the exact formula does). Lanes: f32. Max error: 2.4 ULP
// (precision_report_test). Valid range: all floats; the left segment is 0 whatever dy (the
// formula's "0"), x = +inf -> dy, -inf -> 0; NaN in either input -> NaN.
template <bool kClosed>
struct HardswishBackwardImpl {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V factor = hn::Mul(hn::Add(x, hn::Set(d, 1.5f)), hn::Set(d, 1.0f / 3.0f));
    V r = hn::Mul(dy, factor);
    const V three = hn::Set(d, 3.0f), minus_three = hn::Set(d, -3.0f);
    r = hn::IfThenElse(kClosed ? hn::Gt(x, three) : hn::Ge(x, three), dy, r);
    r = hn::IfThenElseZero(kClosed ? hn::Ge(x, minus_three) : hn::Gt(x, minus_three), r);
    if (HWY_UNLIKELY(!hn::AllFalse(d, CompareUnordered<kUnordered>(d, dy, x)))) {
      r = hn::IfThenElse(hn::IsNaN(dy), dy, r);
      r = hn::IfThenElse(hn::IsNaN(x), x, r);
    }
    return r;
  }
};
struct HardswishBackwardOp : HardswishBackwardImpl<true> {};
struct HardswishBackwardV2Op : HardswishBackwardImpl<false> {};

// MishBackward: dx = dy * (t + x s (1 - t^2)), t = tanh(softplus(x)), s = sigmoid(x). With
// e = exp(-|x|) the factor is (N D + 4 x q) / D^2, N / D = t as in MishOp and q = e (1 + e)
// for x < 0, e^2 (1 + e) for x >= 0: nothing subtracts but at the factor's zero (x0 =
// -1.19243), where a polynomial takes over (below). x is clamped to +-104 in x q (e is 0
// there), so +inf gives dy. x < -80 (e subnormal, dy e need not be): the factor is e (1 + x)
// (1 + O(e)), SiluBackward's, whose far tail and limits serve. Lanes: f32. Max error: 112
// ULP, within 2^-21 |dy| near x0 (precision_report_test). Valid range: all floats; NaN in
// either input -> NaN.
struct MishBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 104.0f));
    const V e = ExpNonPositive(d, hn::Or(xc, hn::Set(d, -0.0f)));
    const V two_e = hn::Add(e, e);
    const V ee = hn::Mul(e, e);
    const V n = hn::IfNegativeThenElse(x, hn::MulAdd(e, e, two_e), hn::Add(one, two_e));
    const V den = hn::IfNegativeThenElse(x, hn::Add(n, hn::Set(d, 2.0f)), hn::MulAdd(two_e, e, n));
    const V q = hn::Mul(hn::IfNegativeThenElse(x, e, ee), hn::Add(one, e));
    const V num = hn::MulAdd(n, den, hn::Mul(hn::Mul(hn::Set(d, 4.0f), xc), q));
    V factor = hn::Div(num, hn::Mul(den, den));
    // Within 1/64 of the zero x0 the two terms of num cancel (to 2^-12 of themselves at the
    // 16-bit x nearest x0, where an f32 error of 2 ULP would be several of the result's
    // 16-bit ULP): there the factor is its Taylor polynomial in h = x - x0 (degree 5,
    // truncation below 2^-30 relative), h from one exact subtraction (Sterbenz) of x0's high
    // part and one of its low part, so it keeps its relative accuracy down to the zero.
    const V h = hn::Sub(hn::Sub(x, hn::Set(d, -1.1924312114715576f)), hn::Set(d, -3.0439380e-09f));
    const auto near_zero = hn::Lt(hn::Abs(h), hn::Set(d, 0.015625f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, near_zero))) {
      V p = hn::Set(d, -0.015821126561733f);
      p = hn::MulAdd(p, h, hn::Set(d, -0.020271822716684f));
      p = hn::MulAdd(p, h, hn::Set(d, 0.041907821043610f));
      p = hn::MulAdd(p, h, hn::Set(d, 0.204731264080106f));
      p = hn::MulAdd(p, h, hn::Set(d, 0.266947914049534f));
      factor = hn::IfThenElse(near_zero, hn::Mul(p, h), factor);
    }
    V dx = hn::Mul(dy, factor);
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, x, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      dx = hn::IfThenElse(rare, SiluBackwardOp::Apply(d, dy, x), dx);
    }
    return dx;
  }
};

// GeluBackward, as CANN's GeluGrad kernel computes it: the derivative of the tanh form
// (not of the erf form its document writes). Max error: within 2^-21 |dy| around the
// cancellation at x = -0.7518 and for x < -4 (factor below 2^-11), a few ULP elsewhere
// (precision_report_test).
struct GeluBackwardOp : XSigmoidBackwardImpl<GeluTanhZ> {};
// FastGeluBackward, CANN's formula: dx = dy s (1 + 1.702 x (1 - s)), s = sigmoid(1.702 x).
// Max error: as GeluBackward's (cancellation at x = -0.7512, tail below 2^-11).
struct FastGeluBackwardOp : XSigmoidBackwardImpl<FastGeluZ> {};
// SeluBackward(gradOutput, result): from the forward result y, dx = dy * scale for y > 0
// and dy * (y + scale * alpha) for y <= 0 (scale * alpha * e^x = y + scale * alpha), as
// CANN's kernel and PyTorch's elu_backward(is_result) select. y + scale * alpha is (y + c_hi)
// + c_lo with the constant in two parts: the first sum is exact near the factor's zero
// (Sterbenz), so the factor is never a false 0 (dy = +-inf gives an infinity there, as the
// exact formula does). y = -inf: the limit of dy * (y + c), an infinity for dy != 0 and a
// zero for dy = 0 (not inf * 0). Lanes: f32. Max error: 1.5 ULP (relative to the factor;
// precision_report_test). Valid range: all floats (y below -scale * alpha, which Selu never
// gives, follows the same line); NaN in either input -> NaN.
struct SeluBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V y) {
    const V neg = hn::Add(hn::Add(y, hn::Set(d, 1.7580993175506592f)), hn::Set(d, 2.3296717e-08f));
    const V factor = hn::IfThenElse(hn::Gt(y, hn::Zero(d)), hn::Set(d, 1.0507009873554805f), neg);
    V dx = hn::Mul(dy, factor);
    if (HWY_UNLIKELY(!hn::AllFalse(d, hn::IsInf(y)))) {
      const auto zero_dy = hn::Eq(dy, hn::Zero(d));
      dx = hn::IfThenElse(hn::And(hn::Eq(y, hn::Set(d, -HUGE_VALF)), zero_dy), hn::Neg(dy), dx);
    }
    return dx;
  }
};

// GeluErfBackward (aclnnGeluBackwardV2 with approximate "none"): dx = dy (Phi(x) + x phi(x)),
// the derivative of x Phi(x), Phi(x) = erfc(-x / sqrt 2) / 2, phi(x) = exp(-x^2 / 2) /
// sqrt(2 pi), in f32 lanes (DyTimesPhiPlusXDensity, kernels/normal_tail-inl.h): a series
// for |x| < 0.5, else phi(|x|) (M(|x|) - |x|) for x < 0 and 1 minus that above (M the Mills
// ratio). The factor cancels near x = -0.7518 (terms near 0.3): there its error is absolute,
// within 2^-21 |dy|. Below x = -13 the scale 2^k of phi is applied after dy (a huge bf16 dy
// times a factor below f32's range can be a normal number). At x = +-inf x phi(x) is 0 (the
// limit): factor 1 or 0. An infinite dy at finite x < -0.7518 gives -dy (as GeluBackward).
// Lanes: f32. Max error over every float (dy = 1) for x outside [-1.5, -0.5]: 2.77 ULP at
// x = -1.711 with a fused MulAdd (AVX3), 3.72 at x = -1.721 without (EMU128); inside,
// around the factor's zero, within 4 ULP or 2^-24.2 |dy| (2^-24.0 without). Valid range:
// all floats; NaN -> NaN.
struct GeluErfBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    return DyTimesPhiPlusXDensity(d, dy, x);
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_FAMILY_GRAD_OPS_INL_H_
