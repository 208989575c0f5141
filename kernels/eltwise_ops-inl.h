// One vector functor per elementwise operator: Apply(d, dy, x) -> dx, all lanes f32.
// Each documents its formula, max error against the exact (double) result of the same
// f32 inputs, and its valid range. Kernels never see shapes or threads. This header holds
// the shared exp and comparison helpers and the first gradients (Silu, LogSigmoid,
// Hardsigmoid); the activation family's are in family_grad_ops-inl.h.
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
// Only called for vectors that hold such lanes (rare), and only those lanes are used; a is
// clamped to [80, 192], so that the other lanes' scales stay normal numbers (an exponent
// field wrapped from a large k made subnormal operands, each a slow microcoded operation).
template <class D, class V>
HWY_INLINE V MulExpFarTail(D d, V dy, V q, V a) {
  const hn::RebindToSigned<D> di;
  V t;
  const V ac = hn::Min(hn::Max(a, hn::Set(d, 80.0f)), hn::Set(d, 192.0f));
  const V r = ReduceNonPositive(d, hn::Neg(ac), 0.0f, &t);
  const auto k = hn::Sub(hn::BitCast(di, t), hn::BitCast(di, hn::Set(d, 12582912.0f)));
  const auto ka = hn::Max(k, hn::Set(di, -126));
  const auto kb = hn::Max(hn::Sub(k, ka), hn::Set(di, -149));
  const V scale_a = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(ka, hn::Set(di, 127))));
  const V v = hn::Mul(dy, hn::Mul(hn::Mul(ExpReduced(d, r), q), scale_a));
#if HOSTNN_HAVE_SCALEF
  // The same single rounding of v 2^kb, without a subnormal factor or a microcoded multiply.
  return ScaleByPow2(d, v, hn::ConvertTo(d, kb));
#else
  // 2^kb for kb in [-149, 0]: 2^(kb + 64) is normal, and times 2^-64 exactly 2^kb.
  const V scale_b = hn::Mul(hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(kb, hn::Set(di, 191)))),
                            hn::Set(d, 5.42101086242752217e-20f));
  return hn::Mul(v, scale_b);
#endif
}

// m 2^k rounded once, for |m| in [0.5, 2^12) and k <= 40, without an operation that
// produces or reads a subnormal number: on x86 each such vector operation is microcoded,
// vscalefps included on Intel cores (Gelu's tanh form, whose far tail makes most results
// of the list's domain subnormal, ran at 3.8 ns an element with vscalefps rounding them on
// a Xeon with AVX-512, 0.82 without). A subnormal result is formed from y = |m| 2^(k+149),
// the result in units of 2^-149 (exact: a power-of-two scaling in the normal range), whose
// rounding to an integer (ties to even) is the result's bits; a normal result is |m| 2^k
// scaled in the normal range. k is clamped at -190 (from there the result is 0 either
// way). The same bits on every target, and the bits of one vscalefps: m 2^k rounded once.
// Lanes with |m| below 0.5 give unspecified values (and no subnormal operation).
#if HOSTNN_HAVE_SCALEF
// AVX-512: both scalings by vscalefps, the rounding to an integer by vcvtps2dq; the
// subnormal lanes' direct scaling is by 2^0, so that no lane's result is subnormal.
template <class D, class V, class VI>
HWY_INLINE V ScaleByPow2Once(D d, V m, VI k) {
  const hn::RebindToSigned<D> di;
  const V am = hn::Max(hn::Abs(m), hn::Set(d, 0.5f));
  const V kf = hn::ConvertTo(d, hn::Min(hn::Max(k, hn::Set(di, -190)), hn::Set(di, 40)));
  const V y = ScaleByPow2(d, am, hn::Add(kf, hn::Set(d, 149.0f)));  // >= 2^-42: normal
  const auto subnormal = hn::Lt(y, hn::Set(d, 8388608.0f));
  const V bits = hn::BitCast(d, hn::NearestInt(y));
  const V normal = ScaleByPow2(d, am, hn::IfThenZeroElse(subnormal, kf));
  return hn::CopySignToAbs(hn::IfThenElse(subnormal, bits, normal), m);
}
#else
// Elsewhere y is a product with 2^(k+149) made from k's bits, rounded to an integer by
// y + 2^23, and a normal result is |m| 2^(k+64) 2^-64, both products normal.
template <class D, class V, class VI>
HWY_INLINE V ScaleByPow2Once(D d, V m, VI k) {
  const hn::RebindToSigned<D> di;
  const V am = hn::Max(hn::Abs(m), hn::Set(d, 0.5f));
  const VI kc = hn::Min(hn::Max(k, hn::Set(di, -190)), hn::Set(di, 40));
  // 2^(k+149) for k <= -30 (exponent field k + 276); above, y is past 2^23 either way.
  const VI ky = hn::Add(hn::Min(kc, hn::Set(di, -30)), hn::Set(di, 276));
  const V y = hn::Mul(am, hn::BitCast(d, hn::ShiftLeft<23>(ky)));
  const V two23 = hn::Set(d, 8388608.0f);
  const auto subnormal = hn::Lt(y, two23);
  const V bits =
      hn::BitCast(d, hn::Sub(hn::BitCast(di, hn::Add(y, two23)), hn::BitCast(di, two23)));
  // |m| 2^(k+64) < 2^-62 exactly where the result is subnormal: the Max keeps those lanes'
  // product normal (a select would not: compilers move the multiply past it).
  const V scale = hn::BitCast(d, hn::ShiftLeft<23>(hn::Add(kc, hn::Set(di, 191))));  // 2^(k+64)
  const V normal = hn::Mul(hn::Max(hn::Mul(am, scale), hn::Set(d, 2.16840434497100887e-19f)),
                           hn::Set(d, 5.42101086242752217e-20f));  // 2^-62, 2^-64
  return hn::CopySignToAbs(hn::IfThenElse(subnormal, bits, normal), m);
}
#endif

// x * q * exp(-a) for 80 < a, with |x q| in [0.5, 256] (the forward tails of Gelu's tanh form
// and FastGelu), rounded once: m = x q P(r) is a normal number and the result m 2^k, most
// often subnormal, is rounded from it in one step by ScaleByPow2Once, so that no
// operation produces or reads a subnormal number: the forward operators' far tails (below
// x = -9.7 for Gelu) ran 2x to 4x slower for them. Lanes: f32. Max error: m's (the polynomial and
// two products, about 2 ULP) and the final rounding, subnormal results within half their ULP of m
// 2^k. Lanes with a < 80 (clamped there) or |x q| outside that range give unspecified values:
// callers select the tail's lanes, and keep |x| >= 1 elsewhere so that no lane is subnormal.
template <class D, class V>
HWY_INLINE V MulExpFarTailOnce(D d, V x, V q, V a) {
  const hn::RebindToSigned<D> di;
  V t;
  const V ac = hn::Min(hn::Max(a, hn::Set(d, 80.0f)), hn::Set(d, 192.0f));
  const V r = ReduceNonPositive(d, hn::Neg(ac), 0.0f, &t);
  const V m = hn::Mul(x, hn::Mul(ExpReduced(d, r), q));
  return ScaleByPow2Once(d, m,
                         hn::Sub(hn::BitCast(di, t), hn::BitCast(di, hn::Set(d, 12582912.0f))));
}

// dy * q * exp(-a) as MulExpFarTail, for 1 <= |q| < 2^10 (the gradients of x sigmoid(z)),
// rounded once and without a subnormal operation: dy = md 2^e with md in [1, 2) from dy's
// bits, m = md q P(r) (normal), and m 2^(k + e) rounded by ScaleByPow2Once. dy = 0 or
// subnormal gives a zero of the product's sign (its exponent field 0 puts k + e below
// -190), dy = +-inf or NaN gives dy q (a rare path). Max error as MulExpFarTail's; only
// the tail's lanes are used.
template <class D, class V>
HWY_INLINE V MulExpFarTailAnyDy(D d, V dy, V q, V a) {
  const hn::RebindToSigned<D> di;
  V t;
  const V ac = hn::Min(hn::Max(a, hn::Set(d, 80.0f)), hn::Set(d, 192.0f));
  const V r = ReduceNonPositive(d, hn::Neg(ac), 0.0f, &t);
  const auto k = hn::Sub(hn::BitCast(di, t), hn::BitCast(di, hn::Set(d, 12582912.0f)));
  const auto dy_bits = hn::BitCast(di, dy);
  const auto field = hn::And(hn::ShiftRight<23>(dy_bits), hn::Set(di, 0xFF));
  // md: dy's sign and mantissa with the exponent of 1.
  const V md =
      hn::BitCast(d, hn::Or(hn::And(dy_bits, hn::Set(di, static_cast<int32_t>(0x807FFFFF))),
                            hn::Set(di, 0x3F800000)));
  const V m = hn::Mul(md, hn::Mul(ExpReduced(d, r), q));
  V out = ScaleByPow2Once(d, m, hn::Add(k, hn::Sub(field, hn::Set(di, 127))));
  const auto special = hn::RebindMask(d, hn::Eq(field, hn::Set(di, 255)));
  if (HWY_UNLIKELY(!hn::AllFalse(d, special))) out = hn::IfThenElse(special, hn::Mul(dy, q), out);
  return out;
}

// The rounding error of prod = fl(x * y): x * y - prod exactly (barring underflow), by the
// fused MulSub, or Dekker's two-product on targets without FMA (SSE4, EMU128).
template <class D, class V>
HWY_INLINE V ProductError(D d, V x, V y, V prod) {
#if HWY_NATIVE_FMA
  (void)d;
  return hn::MulSub(x, y, prod);
#else
  const V split = hn::Set(d, 4097.0f);  // 2^12 + 1 splits a 24-bit mantissa into halves
  const V cx = hn::Mul(split, x), cy = hn::Mul(split, y);
  const V xh = hn::Sub(cx, hn::Sub(cx, x)), yh = hn::Sub(cy, hn::Sub(cy, y));
  const V xl = hn::Sub(x, xh), yl = hn::Sub(y, yh);
  V err = hn::Sub(hn::Mul(xh, yh), prod);
  err = hn::Add(hn::Add(err, hn::Mul(xh, yl)), hn::Mul(xl, yh));
  return hn::Add(err, hn::Mul(xl, yl));
#endif
}

// 1 + x*y with one rounding. Targets without FMA (SSE4, EMU128) add the product's exact
// rounding error (ProductError), so that at SiluBackward's root, where x*y is within an
// ULP of -1, the factor is the tiny true value and not 0 (dy = inf there must give an
// infinity, not inf * 0 = NaN).
template <class D, class V>
HWY_INLINE V OnePlusProduct(D d, V x, V y) {
  const V one = hn::Set(d, 1.0f);
#if HWY_NATIVE_FMA
  return hn::MulAdd(x, y, one);
#else
  const V prod = hn::Mul(x, y);
  return hn::Add(hn::Add(one, prod), ProductError(d, x, y, prod));
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

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
