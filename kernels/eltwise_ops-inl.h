// One vector functor per elementwise operator: Apply(d, dy, x) -> dx, all lanes f32.
// Each documents its formula, max error against the exact (double) result of the same
// f32 inputs, and its valid range. Kernels never see shapes or threads.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_ELTWISE_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
#undef HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
#else
#define HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
#endif

#include <cmath>

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include "kernels/f64_lanes-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// exp(r) * scale for r in [-ln2/2, ln2/2]: a degree-6 polynomial fitted to exp (relative
// error 2.1e-8 before rounding) with every coefficient times `scale` (a power of two, so
// the products are exact), by Horner: the kernels are throughput-bound, not latency-bound
// (Estrin measured the same speed), and Horner's last step rounds once.
template <class D, class V>
HWY_INLINE V ExpReduced(D d, V r, float scale = 1.0f) {
  V p = hn::Set(d, 0.0013941108481958508f * scale);
  p = hn::MulAdd(p, r, hn::Set(d, 0.00837512593716383f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.04166635125875473f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.16666415333747864f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.5f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, scale));
  return hn::MulAdd(p, r, hn::Set(d, scale));
}

// Cody-Waite reduction of na <= 0: k = rint(na / ln 2) (as the float k and, biased by
// `bias`, in the low mantissa bits of *t) and the remainder r = na - k ln2, with Highway's
// two-part ln 2 (the first part has few enough bits that k times it is exact), so r keeps
// well over f32 precision for |k| <= 300.
template <class D, class V>
HWY_INLINE V ReduceNonPositive(D d, V na, float bias, V* t) {
  // 1.5 * 2^23 + bias: adding it rounds na / ln2 to an integer held in the low bits.
  const V round = hn::Set(d, 12582912.0f + bias);
  *t = hn::MulAdd(na, hn::Set(d, 1.44269504088896341f), round);
  const V k = hn::Sub(*t, round);
  const V r = hn::NegMulAdd(k, hn::Set(d, 0.693145751953125f), na);
  return hn::NegMulAdd(k, hn::Set(d, 1.428606765330187045e-6f), r);
}

// AVX-512 scales by 2^k in one instruction (vscalefps: p * 2^k rounded once, subnormal
// results included), where other targets build 2^(k+24) from the rounding constant's bits
// and multiply. Same bits either way: both round the exact p * 2^k once.
#undef HOSTNN_HAVE_SCALEF
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
#define HOSTNN_HAVE_SCALEF 1
template <class D, class V>
HWY_INLINE V ScaleByPow2(D /*d*/, V p, V k) {
  return V{_mm512_scalef_ps(p.raw, k.raw)};
}
#else
#define HOSTNN_HAVE_SCALEF 0
#endif

// exp(na) for na in [-104, 0] (the sigmoid family's e = exp(-|x|); callers clamp),
// cheaper than Highway's Exp: the reduction above, the polynomial scaled by 2^-24, and
// 2^(k+24) made from the rounding constant's bits (always normal for na >= -104), so the
// one multiply that applies it rounds subnormal results once, correctly (AVX-512: the
// unscaled polynomial times 2^k by ScaleByPow2, the same single rounding).
// Lanes: f32. Max error: 1.8 ULP for na >= -87.3; below, subnormals within 0.5 of their
// ULP of the exact product; na = -104 gives exactly 0. NaN lanes give an unspecified
// value: callers select NaN inputs through themselves.
template <class D, class V>
HWY_INLINE V ExpNonPositive(D d, V na) {
  V t;
#if HOSTNN_HAVE_SCALEF
  const V r = ReduceNonPositive(d, na, 0.0f, &t);
  return ScaleByPow2(d, ExpReduced(d, r), hn::Sub(t, hn::Set(d, 12582912.0f)));
#else
  const V r = ReduceNonPositive(d, na, 151.0f, &t);
  const hn::RebindToSigned<D> di;
  const V scale = hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t)));
  return hn::Mul(ExpReduced(d, r, 5.9604644775390625e-8f), scale);  // 2^-24
#endif
}

// exp(na) for na in [-104, 0] for results stored as f16 / bf16 (SPEC 4: the f32 result
// rounded once, so the error must stay well below 2^-21 relative): ExpNonPositive with a
// degree-5 polynomial (constant term exactly 1, the others fitted for minimax relative
// error on [-ln2/2, ln2/2]: 2^-23.3 with the f32 coefficients) in place of the degree-6
// one. With the reduction and the Horner roundings: about 2^-22.5 relative, one multiply-add
// fewer. Subnormal results and na = -104 as ExpNonPositive (bf16 keeps f32's range).
template <class D, class V>
HWY_INLINE V ExpNonPositive16(D d, V na) {
  V t;
#if HOSTNN_HAVE_SCALEF
  const float scale = 1.0f;
  const V r = ReduceNonPositive(d, na, 0.0f, &t);
#else
  // 2^-24: the polynomial scaled so that 2^(k+24) is always normal.
  const float scale = 5.9604644775390625e-8f;
  const V r = ReduceNonPositive(d, na, 151.0f, &t);
#endif
  V p = hn::Set(d, 0.008290312252938747f * scale);
  p = hn::MulAdd(p, r, hn::Set(d, 0.04189793020486832f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.1666763573884964f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.4999915063381195f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.9999997019767761f * scale));
  p = hn::MulAdd(p, r, hn::Set(d, scale));
#if HOSTNN_HAVE_SCALEF
  return ScaleByPow2(d, p, hn::Sub(t, hn::Set(d, 12582912.0f)));
#else
  const hn::RebindToSigned<D> di;
  return hn::Mul(p, hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t))));
#endif
}

// dy * q * exp(-a) for 80 < a < 192, where exp(-a) is below (or near) f32's range but the
// product need not be: BFLOAT16 keeps f32's exponent range, so dy up to 3.4e38 times
// exp(-190) is still a representable result. 2^k is applied in two factors around the
// multiply by dy, 2^max(k, -126) first and the rest (down to 2^-149) last, so nothing
// underflows before the final rounding. Lanes: f32. Max error: 3 ULP of a normal result.
// Only called for vectors that hold such lanes (rare), and only those lanes are used.
template <class D, class V>
HWY_INLINE V MulExpFarTail(D d, V dy, V q, V a) {
  const hn::RebindToSigned<D> di;
  V t;
  const V r = ReduceNonPositive(d, hn::Neg(hn::Min(a, hn::Set(d, 192.0f))), 0.0f, &t);
  const auto k = hn::Sub(hn::BitCast(di, t), hn::BitCast(di, hn::Set(d, 12582912.0f)));
  const auto ka = hn::Max(k, hn::Set(di, -126));
  const auto kb = hn::Max(hn::Sub(k, ka), hn::Set(di, -149));
  const V scale_a = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(ka, hn::Set(di, 127))));
  // 2^kb for kb in [-149, 0]: 2^(kb + 64) is normal, and times 2^-64 exactly 2^kb.
  const V scale_b = hn::Mul(hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(kb, hn::Set(di, 191)))),
                            hn::Set(d, 5.42101086242752217e-20f));
  return hn::Mul(hn::Mul(dy, hn::Mul(hn::Mul(ExpReduced(d, r), q), scale_a)), scale_b);
}

// 1 + x*y with one rounding. Targets without FMA (SSE4, EMU128) add the product's exact
// rounding error (Dekker's two-product), so that at SiluBackward's root, where x*y is
// within an ULP of -1, the factor is the tiny true value and not 0 (dy = inf there must
// give an infinity, not inf * 0 = NaN).
template <class D, class V>
HWY_INLINE V OnePlusProduct(D d, V x, V y) {
  const V one = hn::Set(d, 1.0f);
#if HWY_NATIVE_FMA
  return hn::MulAdd(x, y, one);
#else
  const V split = hn::Set(d, 4097.0f);  // 2^12 + 1 splits a 24-bit mantissa into halves
  const V cx = hn::Mul(split, x), cy = hn::Mul(split, y);
  const V xh = hn::Sub(cx, hn::Sub(cx, x)), yh = hn::Sub(cy, hn::Sub(cy, y));
  const V xl = hn::Sub(x, xh), yl = hn::Sub(y, yh);
  const V prod = hn::Mul(x, y);
  V err = hn::Sub(hn::Mul(xh, yh), prod);
  err = hn::Add(hn::Add(err, hn::Mul(xh, yl)), hn::Mul(xl, yh));
  err = hn::Add(err, hn::Mul(xl, yl));
  return hn::Add(hn::Add(one, prod), err);
#endif
}

// 1 / v for v in [1, 2] (the sigmoid family's 1 + e). Chosen per target by measurement:
// on AVX2 (Zen 3) a division is 4% faster than rcpps plus a Newton step, because the
// divider runs beside the two FMA pipes these kernels saturate; AVX-512 has a 14-bit
// estimate and, on most cores, a divider at half the AVX2 rate per lane, so there the
// estimate and one Newton step are used. Max error: 0.5 ULP (division), 1 ULP (Newton).
template <class D, class V>
HWY_INLINE V ReciprocalOneToTwo(D d, V v) {
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  const V r0 = hn::ApproximateReciprocal(v);
  return hn::MulAdd(r0, hn::NegMulAdd(v, r0, hn::Set(d, 1.0f)), r0);
#else
  return hn::Div(hn::Set(d, 1.0f), v);
#endif
}

// Comparisons that are true where either operand is NaN, in one instruction where the
// target has it: the operators' rare-lane tests, so that NaN inputs join the rare path
// instead of costing a comparison and a select on every vector. kNotGreaterEqual: !(a >= b)
// (a < b or unordered); kNotLessEqual: !(a <= b); kUnordered: a or b is NaN.
enum UnorderedPredicate { kNotGreaterEqual = 0x19, kNotLessEqual = 0x16, kUnordered = 0x03 };
template <UnorderedPredicate kPredicate, class D, class V>
HWY_INLINE hn::Mask<D> CompareUnordered(D d, V a, V b) {
  (void)d;
#if HWY_TARGET == HWY_AVX3 || HWY_TARGET == HWY_AVX3_DL
  // The values are _CMP_NGE_UQ, _CMP_NLE_UQ and _CMP_UNORD_Q.
  return hn::Mask<D>{_mm512_cmp_ps_mask(a.raw, b.raw, kPredicate)};
#elif HWY_TARGET == HWY_AVX2
  return hn::Mask<D>{_mm256_cmp_ps(a.raw, b.raw, kPredicate)};
#else
  const auto unordered = hn::Or(hn::IsNaN(a), hn::IsNaN(b));
  if (kPredicate == kNotGreaterEqual) return hn::Or(hn::Lt(a, b), unordered);
  if (kPredicate == kNotLessEqual) return hn::Or(hn::Gt(a, b), unordered);
  return unordered;
#endif
}

// SiluBackward: s = 1/(1+exp(-x)); dx = dy * s * (1 + x*(1-s)).
// With e = exp(-|x|) and r = 1/(1+e): s = r and 1-s = e*r for x >= 0, s = e*r and 1-s = r
// for x < 0, so neither is formed by a subtraction; one division (or reciprocal) serves
// both. dy multiplies last, so a subnormal dy meets a normal factor. x is clamped to
// +-104: e is exactly 0 from there on, and the clamp keeps x*(1-s) finite, so x = +inf
// gives dy*1 and x = -inf gives dy*0. For -192 < x < -80, where e*dy can be a normal
// number although e is not, vectors holding such lanes take MulExpFarTail. dy = +-inf
// gives the limit: an infinity of the sign of dy times the factor's, also for finite
// x <= -192 where the factor underflows (-dy there); at x = -inf the factor is exactly 0
// and inf * 0 has no limit: NaN, as the exact (double) formula gives.
// Lanes: f32. Max error (measured over every 97th float, all targets): 4 ULP for x >= -0.5
// and x <= -6; 5.4 ULP between, where 1 + x*(1-s) cancels (dx = 0 at x = -1.28), as with
// Highway's Exp; never more than 2^-21.9 |dy| absolute.
// Valid range: all floats; NaN x -> x itself, NaN dy -> NaN (the select on x keeps NaN
// bits independent of how the compiler orders operands, so tiles agree bitwise).
struct SiluBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 104.0f));
    const V e = ExpNonPositive(d, hn::Or(xc, hn::Set(d, -0.0f)));  // xc is in [-104, 104]
    const V r = ReciprocalOneToTwo(d, hn::Add(one, e));
    const V er = hn::Mul(e, r);
    const V s = hn::IfNegativeThenElse(x, er, r);
    const V one_minus_s = hn::IfNegativeThenElse(x, r, er);
    V dx = hn::Mul(dy, hn::Mul(s, OnePlusProduct(d, xc, one_minus_s)));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, x, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      // s = e (r = 1 there) and 1 + x*(1-s) = 1 + x.
      const V a = hn::Neg(x);
      const V tail = MulExpFarTail(d, dy, hn::Sub(one, a), a);
      const auto far = hn::Lt(x, hn::Set(d, -80.0f));
      dx = hn::IfThenElse(hn::And(far, hn::Lt(a, hn::Set(d, 192.0f))), tail, dx);
      // Finite x <= -192: the factor e^x (1 + x) is negative and below f32's range (dy*0
      // above), so an infinite dy gives the limit -dy, not inf * 0 = NaN.
      const auto huge = hn::And(hn::Ge(a, hn::Set(d, 192.0f)), hn::IsFinite(x));
      dx = hn::IfThenElse(hn::And(huge, hn::IsInf(dy)), hn::Neg(dy), dx);
      dx = hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
    return dx;
  }
};

// LogSigmoidBackward: dx = dy / (1 + exp(x)) = dy * (x < 0 ? 1 : e) / (1 + e), e = exp(-|x|).
// For 80 < x < 192, where e*dy can be a normal number although e is not, vectors holding
// such lanes take MulExpFarTail.
// Lanes: f32. Max error: 3.3 ULP. Valid range: all floats; x = -inf -> dy, +inf -> dy*0
// (NaN for dy = +-inf: no limit), finite x >= 192 with dy = +-inf -> dy (the limit; the
// factor underflows there), NaN x -> x itself, NaN dy -> NaN. f16 / bf16 storage runs
// LogSigmoidBackwardImpl<true> (LogSigmoidBackward16Op): ExpNonPositive16 (about 2^-22.5
// relative) instead of ExpNonPositive. e's error reaches the factor scaled by e / (1 + e)
// <= 1/2 (x < 0) or 1 / (1 + e) <= 1 (x >= 0). Adding the worst cases of 1 + e, the
// reciprocal (1 ULP on AVX-512, 0.5 elsewhere) and the two products gives 2^-21.0 relative
// for x >= 0 (the f32 functor's own sum is 2^-21.2): no margin by construction, so SPEC 4's
// rounded-once rule rests on the exhaustive check, every 16-bit x with dy in {1, -0.75,
// 3.5} on every target (ops_numeric_test; f16 on AVX3 puts 10 results in the 2^-21 window
// and none outside it, bf16 none at all). The earlier degree-4 exp and bare 14-bit
// reciprocal (2^-13.7) put up to 14 f16 results per dy one ULP off.
template <bool kNarrow>
struct LogSigmoidBackwardImpl {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V na = hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));
    const V e = kNarrow ? ExpNonPositive16(d, na) : ExpNonPositive(d, na);
    const V r = ReciprocalOneToTwo(d, hn::Add(hn::Set(d, 1.0f), e));
    V dx = hn::Mul(dy, hn::IfNegativeThenElse(x, r, hn::Mul(e, r)));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotLessEqual>(d, x, hn::Set(d, 80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      const V tail = MulExpFarTail(d, dy, hn::Set(d, 1.0f), x);  // e/(1+e) = e there
      const auto far = hn::Gt(x, hn::Set(d, 80.0f));
      dx = hn::IfThenElse(hn::And(far, hn::Lt(x, hn::Set(d, 192.0f))), tail, dx);
      // Finite x >= 192: the factor e^-x is positive and below f32's range (dy*0 above),
      // so an infinite dy gives the limit dy, not inf * 0 = NaN.
      const auto huge = hn::And(hn::Ge(x, hn::Set(d, 192.0f)), hn::IsFinite(x));
      dx = hn::IfThenElse(hn::And(huge, hn::IsInf(dy)), dy, dx);
      dx = hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
    return dx;
  }
};
struct LogSigmoidBackwardOp : LogSigmoidBackwardImpl<false> {};
struct LogSigmoidBackward16Op : LogSigmoidBackwardImpl<true> {};

// HardsigmoidBackward: dx = dy / 6 where -3 < x < 3 (strict), else 0.
// dy / 6 is dy times the float nearest 1/6 (relative error 2^-25.4), one rounding: a
// divider would take several cycles a vector, and this kernel runs at the speed of the
// caches. Lanes: f32. Max error: 1 ULP (normal and subnormal results alike). Valid range:
// all floats; NaN in either input -> NaN (the comparison alone would give 0).
struct HardsigmoidBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const auto inside = hn::And(hn::Gt(x, hn::Set(d, -3.0f)), hn::Lt(x, hn::Set(d, 3.0f)));
    V r = hn::IfThenElseZero(inside, hn::Mul(dy, hn::Set(d, 1.0f / 6.0f)));
    if (HWY_UNLIKELY(!hn::AllFalse(d, CompareUnordered<kUnordered>(d, dy, x)))) {
      r = hn::IfThenElse(hn::IsNaN(dy), dy, r);
      r = hn::IfThenElse(hn::IsNaN(x), x, r);
    }
    return r;
  }
};

// exp(y) for LogSoftmaxBackward's y = log-probabilities (any float). The reduction and
// polynomial of ExpNonPositive; 2^k for k in [-150, 128] is 2^(k-m) * 2^m with m = -24
// below zero (subnormal results round once) and m = 1 above (2^128 is not a float), so
// 2^(k-m) is always normal and made from the rounding constant's bits.
// Lanes: f32. Max error: 1.8 ULP (normal results; Highway's Exp: 1 ULP, at 1.5x the
// cost). Valid range: all floats; y > 88.7228 -> inf, y <= -104 -> 0, NaN y -> y.
template <class D, class V>
HWY_INLINE V ExpAnyRange(D d, V y) {
#if HOSTNN_HAVE_SCALEF
  // One path for every y: 2^k for k up to 129 overflows to inf inside ScaleByPow2, so the
  // clamp at 89 (> 88.7228, where exp overflows) gives inf there and for +inf.
  const V yc = hn::Min(hn::Max(y, hn::Set(d, -104.0f)), hn::Set(d, 89.0f));
  V t;
  const V r = ReduceNonPositive(d, yc, 0.0f, &t);  // the reduction holds for |y| <= 104 too
  const V e = ScaleByPow2(d, ExpReduced(d, r), hn::Sub(t, hn::Set(d, 12582912.0f)));
  return hn::IfThenElse(hn::IsNaN(y), y, e);
#else
  // Log-probabilities are <= 0: then ExpNonPositive (fewer operations, the same bits for
  // every lane <= 0, as both round p * 2^(k+24) * 2^-24 once) serves the whole vector.
  if (HWY_LIKELY(hn::AllFalse(d, hn::Gt(y, hn::Zero(d))))) {
    const V e = ExpNonPositive(d, hn::Max(y, hn::Set(d, -104.0f)));
    return hn::IfThenElse(hn::IsNaN(y), y, e);
  }
  const V hi = hn::Set(d, 88.7228393554688f);
  const V yc = hn::Min(hn::Max(y, hn::Set(d, -104.0f)), hi);
  const V bias = hn::IfNegativeThenElse(yc, hn::Set(d, 151.0f), hn::Set(d, 126.0f));
  const V round = hn::Add(hn::Set(d, 12582912.0f), bias);
  const V t = hn::MulAdd(yc, hn::Set(d, 1.44269504088896341f), round);
  const V k = hn::Sub(t, round);
  V r = hn::NegMulAdd(k, hn::Set(d, 0.693145751953125f), yc);
  r = hn::NegMulAdd(k, hn::Set(d, 1.428606765330187045e-6f), r);
  const hn::RebindToSigned<D> di;
  const V scale = hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t)));
  const V m = hn::IfNegativeThenElse(yc, hn::Set(d, 5.9604644775390625e-8f), hn::Set(d, 2.0f));
  V e = hn::Mul(hn::Mul(ExpReduced(d, r), scale), m);
  e = hn::IfThenElse(hn::Gt(y, hi), hn::Set(d, HUGE_VALF), e);
  return hn::IfThenElse(hn::IsNaN(y), y, e);
#endif
}

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
  template <class D, class V>
  static HWY_INLINE V Dz(D d, V /*x*/) {
    return hn::Set(d, 1.702f);
  }
};

// The rounding error of the f32 z: z(x) - z, with z(x) from Zf::ZWide in f64 lanes (plain
// products and sums, so every target gives the same bits). exp(z) carries z's error times
// |z| (up to 104); exp(z) (1 + ZError) undoes that to second order (ZError^2 < 2^-34). Targets
// without f64 lanes give 0 (the error bound of the plain f32 z then holds); x86 and Arm
// targets, SCALAR included, all have them.
template <class Zf, class D, class V>
HWY_INLINE V ZError(D d, V x, V z) {
#if HWY_TARGET == HWY_SCALAR
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
// although e is not, vectors holding such lanes take MulExpFarTail (s = e and 1 - s = 1
// there); dy = +-inf at finite x with z <= -192 gives the limit -dy (the factor is a
// negative real below f32's range), not inf * 0 = NaN. Vectors holding lanes with z < -2
// carry z's rounding into e = exp(z) (1 + ZError) and into MulExpFarTail's factor, as the
// forward functors do. Lanes: f32 (every dtype). Valid
// range: all floats; NaN x -> x itself, NaN dy -> NaN.
template <class Zf>
struct XSigmoidBackwardImpl {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -Zf::kClamp)), hn::Set(d, Zf::kClamp));
    const V z = Zf::Z(d, xc);
    const V dz = Zf::Dz(d, xc);
    V e = ExpNonPositive(d, hn::Max(hn::Or(z, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
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
      const V far_dx = MulExpFarTail(d, dy, q, a);
      const auto far = hn::Lt(z, hn::Set(d, -80.0f));
      dx = hn::IfThenElse(hn::And(far, hn::Lt(a, hn::Set(d, 192.0f))), far_dx, dx);
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
// sqrt(2 pi), in f64 lanes (NormalTailF64 for Phi's tail; x^2 / 2 is exact), rounded once
// to f32. The sum cancels near x = -0.7518 (terms near 0.3, so its error stays near
// 2^-52 absolute). At x = +-inf x phi(x) is 0 (the limit): factor 1 or 0. An infinite dy
// where the factor underflows double (x < -38) gives -dy (as GeluBackward).
// Lanes: f32. Max error: 0.5 ULP plus about 2^-40 relative (correctly rounded but for
// near-midpoints). Valid range: all floats; NaN -> NaN.
struct GeluErfBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    return OnF64Lanes(d, dy, x, [](auto dd, auto g, auto v) {
      const auto q = NormalTailF64(dd, hn::Abs(v));
      const auto neg = hn::Lt(v, hn::Zero(dd));
      const auto phi = hn::IfThenElse(neg, q, hn::Sub(hn::Set(dd, 1.0), q));
      const auto density = hn::Mul(
          ExpF64(dd, hn::Mul(hn::Mul(v, v), hn::Set(dd, -0.5))), hn::Set(dd, 0.39894228040143267794));
      const auto x_density = hn::IfThenElseZero(hn::IsFinite(v), hn::Mul(v, density));
      auto factor = hn::Add(phi, x_density);
      factor = hn::IfThenElse(hn::IsNaN(v), v, factor);
      const auto limit = hn::And(hn::Eq(factor, hn::Zero(dd)),
                                 hn::And(hn::IsInf(g), hn::IsFinite(v)));
      return hn::IfThenElse(limit, hn::Neg(g), hn::Mul(g, factor));
    });
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
