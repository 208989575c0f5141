// One vector functor per forward elementwise operator: Apply(d, x) -> out, all lanes f32,
// built on the backward operators' ExpNonPositive. Each documents its formula, max error
// against the exact (double) result of the same f32 input, and range. Polynomials use MulAdd: one
// rounding on targets with a fused multiply-add (AVX2, AVX3, NEON, SVE), two on those without
// (SSE4, EMU128, SCALAR). Each element's result is therefore bitwise the same on every
// target of one family, and within the documented error on both.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_UNARY_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_UNARY_OPS_INL_H_
#undef HOSTNN_KERNELS_UNARY_OPS_INL_H_
#else
#define HOSTNN_KERNELS_UNARY_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include "kernels/convert-inl.h"      // Bits16 (ReluOp::ApplyBits)
#include "kernels/eltwise_ops-inl.h"  // CompareUnordered
#include "kernels/expm1-inl.h"     // Expm1NonPositive
#include "kernels/f64_lanes-inl.h"        // ExpF64 (SigmoidF64Op)
#include "kernels/family_grad_ops-inl.h"  // the Gelu z functions, ZError
#include "kernels/normal_tail-inl.h"      // XPhi

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Silu: out = x * sigmoid(x) = x / (1 + exp(-x)). With e = exp(-|x|): out = x / (1 + e)
// for x >= 0 and (x e) / (1 + e) for x < 0, so 1 - s is never formed by a subtraction; one
// IEEE division. x is clamped to +-104 for e (exactly 0 from there on): +inf -> +inf.
// For x < -80, where e is subnormal but x e need not be, vectors holding such lanes take
// MulExpFarTail (x <= -192, and -inf, give -0: the exact value rounds to it).
// Lanes: f32. Max error: 3.34 ULP with a fused MulAdd, 3.46 without (measured over every
// float). Valid range:
// all floats; NaN -> x itself (selected, so NaN bits do not depend on operand order).
// f16 / bf16 storage runs this functor too (SPEC 4: a 16-bit result is the f32 result
// rounded once): a cheaper exp (about 2^-17.5 relative) put 8 f16 results one ULP off
// the correctly rounded value (x = -0.668457 gave -0.2264404, not -0.2265625).
struct SiluOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -104.0f)), hn::Set(d, 104.0f));
    const V e = ExpNonPositive(d, hn::Or(xc, hn::Set(d, -0.0f)));  // exp(-|xc|)
    const V num = hn::IfNegativeThenElse(x, hn::Mul(x, e), x);
    V out = hn::Div(num, hn::Add(hn::Set(d, 1.0f), e));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, x, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      // Clamped to the tail's range in every lane (k stays small; other lanes are unused).
      const V xt = hn::Min(hn::Max(x, hn::Set(d, -192.0f)), hn::Set(d, -80.0f));
      V tail = MulExpFarTail(d, xt, hn::Set(d, 1.0f), hn::Neg(xt));
      tail = hn::IfThenElse(hn::Gt(x, hn::Set(d, -192.0f)), tail, hn::Set(d, -0.0f));
      out = hn::IfThenElse(hn::Lt(x, hn::Set(d, -80.0f)), tail, out);
      out = hn::IfThenElse(hn::IsNaN(x), x, out);
    }
    return out;
  }
};

struct LogSigmoid16Op;

// LogSigmoid: out = log(sigmoid(x)) = min(x, 0) - log1p(e), e = exp(-|x|) in [0, 1].
// log1p(e) = 2 atanh(e / (2 + e)) = s + s u Q(u) with s = 2e / (2 + e) (one division; 2e
// is exact, so s does not lose bits when e is subnormal) and u = s^2 <= 4/9, Q the atanh
// series' first seven terms (truncation below 2^-29 relative). x < 0: x and -log1p(e)
// have the same sign, so nothing cancels; x >= 0: out = -log1p(e), relative accuracy down
// to the subnormals (log1p(e) = e there). -inf -> -inf, +inf -> +0, -1000 -> -1000.
// Lanes: f32. Max error: 2.80 ULP with a fused MulAdd, 2.82 without (measured over every
// float). Valid range:
// all floats; NaN -> x itself. f16 / bf16 storage runs LogSigmoid16Op.
struct LogSigmoidOp {
  using Narrow = LogSigmoid16Op;  // for f16 / bf16 storage (unary_tiles.cc)
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V na = hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));
    const V e = ExpNonPositive(d, na);
    const V s = hn::Div(hn::Add(e, e), hn::Add(hn::Set(d, 2.0f), e));
    const V log1p_e = Log1pFromS(d, s);
    const V out = hn::Sub(hn::Min(x, hn::Zero(d)), log1p_e);
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};

// LogSigmoid for f16 / bf16 storage, whose results must be the f32 result rounded once
// (SPEC 4: the correctly rounded value except within 2^-21 relative of a midpoint):
// ExpNonPositive16 (about 2^-22.5) and Q as a 4-term polynomial fitted for minimax error
// of log1p (u (Q - Q_exact) / (1 + u Q) at most 2^-27.5 on [0, 4/9], where the truncated
// series' first four terms would leave 2^-19.3). e's error reaches log1p(e) scaled by
// e / ((1 + e) log1p(e)) <= 1, and for x < 0 the sum with x only dilutes it, so the result
// stays below about 2^-22.3 relative with the roundings of s, u and the Horner steps (the
// earlier narrow functor's 2^-15.8 missed the rule). Otherwise as LogSigmoidOp. Checked
// for every 16-bit input on every target (forward_kernels_test).
struct LogSigmoid16Op {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V na = hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));
    const V e = ExpNonPositive16(d, na);
    const V s = hn::Div(hn::Add(e, e), hn::Add(hn::Set(d, 2.0f), e));
    const V u = hn::Mul(s, s);
    V q = hn::Set(d, 0.0005471092299558222f);
    q = hn::MulAdd(q, u, hn::Set(d, 0.0021876408718526363f));
    q = hn::MulAdd(q, u, hn::Set(d, 0.012506727129220963f));
    q = hn::MulAdd(q, u, hn::Set(d, 0.08333302289247513f));
    const V log1p_e = hn::MulAdd(hn::Mul(s, u), q, s);
    const V out = hn::Sub(hn::Min(x, hn::Zero(d)), log1p_e);
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};
// LogSigmoidForward computes what LogSigmoid computes.
using LogSigmoidForwardOp = LogSigmoidOp;

// Hardsigmoid: out = clamp(x/6 + 1/2, 0, 1), computed as (x + 3) * fl(1/6): x + 3 is exact
// where the result is small (x in [-6, -1.5], Sterbenz), so the result keeps its relative
// accuracy down to 0 instead of an absolute 2^-25 from x/6 + 1/2. Lanes: f32. Max error:
// 1.33 ULP (two roundings and fl(1/6)'s 2^-25.4; measured over every float, all targets).
// Valid range: all floats; +inf -> 1, -inf -> 0, NaN -> x itself.
struct HardsigmoidOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V y = hn::Mul(hn::Add(x, hn::Set(d, 3.0f)), hn::Set(d, 1.0f / 6.0f));
    const V out = hn::Min(hn::Max(y, hn::Zero(d)), hn::Set(d, 1.0f));
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};
// InplaceHardsigmoid computes what Hardsigmoid computes.
using InplaceHardsigmoidOp = HardsigmoidOp;

// Relu: out = x where x > 0, else +0 (-0 gives +0, as x <= 0 selects the zero). Exact.
// Lanes: f32. Valid range: all floats; +inf -> +inf, -inf -> 0, NaN -> x itself (NaN <= 0
// is false, so the lane keeps x).
// ApplyInt: max(x, 0) in the integer's own lanes (INT8, UINT8, INT32, INT64), exact.
// ApplyBits: FLOAT16 and BFLOAT16 in their own bits, a vector of 16-bit lanes at a time
// (map_tile-inl.h): x where it is above 0 (as a signed integer, the positive numbers) or
// NaN (as the f32 path stores it), +0 elsewhere: the f32 path's bits for every input, with
// twice the lanes and no conversion.
struct ReluOp {
  template <class Tag, class D16>
  static HWY_INLINE hn::Vec<D16> ApplyBits(D16 d16, hn::Vec<D16> x) {
    const hn::RebindToSigned<D16> di16;
    const auto positive = hn::RebindMask(d16, hn::Gt(hn::BitCast(di16, x), hn::Zero(di16)));
    const auto nan = Bits16<Tag>::IsNaN(d16, x);
    return hn::IfThenElse(nan, Bits16<Tag>::StoredNaN(d16, x), hn::IfThenElseZero(positive, x));
  }
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    return hn::IfThenZeroElse(hn::Le(x, hn::Zero(d)), x);
  }
  template <class D>
  static HWY_INLINE hn::Vec<D> ApplyInt(D d, hn::Vec<D> x) {
    return hn::Max(x, hn::Zero(d));
  }
};
// InplaceRelu computes what Relu computes.
using InplaceReluOp = ReluOp;

// Sigmoid of a DOUBLE self, in f64 lanes, as SigmoidOp: (x < 0 ? e : 1) / (1 + e) with
// e = exp(-|x|) (ExpF64: 1.5 ULP), one division. Max error about 2.5 ULP (double);
// +inf -> 1, -inf -> +0, NaN -> NaN.
struct SigmoidF64Op {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V one = hn::Set(d, 1.0);
    const V e = ExpF64(d, hn::Neg(hn::Abs(x)));
    const V out = hn::Div(hn::IfNegativeThenElse(x, e, one), hn::Add(one, e));
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};

// Sigmoid: out = 1 / (1 + exp(-x)). With e = exp(-|x|): out = 1 / (1 + e) for x >= 0 and
// e / (1 + e) for x < 0, so 1 - s is never formed by a subtraction; one IEEE division. x is
// clamped to -104 for e (exactly 0 from there on, where the exact result rounds to 0 too):
// +inf -> 1, -inf -> +0; subnormal results (x < -87.3) keep ExpNonPositive's single
// rounding. Lanes: f32 (every dtype: 16-bit results are this result rounded once).
// Max error: 2.40 ULP over every float (AVX3; 2.34 over every 257th on both target
// families, forward_kernels_test); f16 / bf16 within 0.5 ULP of the exact value but where the f32 result lies
// within its error of a midpoint. Valid range: all floats; NaN -> x itself.
struct SigmoidOp {
  using F64Form = SigmoidF64Op;  // a DOUBLE self (ComputesDouble)
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V one = hn::Set(d, 1.0f);
    const V na = hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));  // -|x|
    const V e = ExpNonPositive(d, na);
    const V out = hn::Div(hn::IfNegativeThenElse(x, e, one), hn::Add(one, e));
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};
// InplaceSigmoid computes what Sigmoid computes.
using InplaceSigmoidOp = SigmoidOp;

// x * sigmoid(z(x)) for a Z policy of eltwise_ops-inl.h (Gelu's tanh form, FastGelu). With
// e = exp(-|z|), out = x / (1 + e) for x >= 0 and (x e) / (1 + e) for x < 0 (z has x's
// sign), one division. x is clamped to -kClamp in x e, so -inf gives -0, not -inf * 0.
// Where x < 0 the result is small (above -0.171 for Gelu, -0.164 for FastGelu) and exp's
// argument would carry z's rounding (a few 2^-24 relative) times |z|: vectors holding lanes
// with -192 < z < -2 take exp(z) (1 + ZError) there. For z < -80 the result is x q exp(z),
// q = 1 + ZError, normal down to z = -87.3 - ln|x| and subnormal below, rounded once by
// MulExpFarTailOnce (-0 from z = -192 on, where the exact value rounds to it). e is
// computed for -|z| clamped to -80, so that no other operation meets a subnormal number
// (each is a slow microcoded step on x86): from there x / (1 + e) = x for x >= 0, and the
// far tail replaces the lanes below.
// Lanes: f32 (every dtype). Valid range: all floats; +inf -> +inf, -inf -> -0, NaN -> x.
template <class Zf>
struct XSigmoidImpl {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V z = Zf::Z(d, x);
    V e = ExpNonPositive(d, hn::Max(hn::Or(z, hn::Set(d, -0.0f)), hn::Set(d, -80.0f)));
    const V xn = hn::Max(x, hn::Set(d, -Zf::kClamp));
    // Below -192 the result is -0 and z may be infinite: no correction there.
    const auto tail = hn::And(hn::Lt(z, hn::Set(d, kZErrorFrom)), hn::Gt(z, hn::Set(d, -192.0f)));
    V zerr = hn::Zero(d);
    if (HWY_UNLIKELY(!hn::AllFalse(d, tail))) {
      zerr = hn::IfThenElseZero(tail, ZError<Zf>(d, x, z));
      e = hn::MulAdd(e, zerr, e);
    }
    const V num = hn::IfNegativeThenElse(x, hn::Mul(xn, e), x);
    V out = hn::Div(num, hn::Add(hn::Set(d, 1.0f), e));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, z, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      // |x| >= 1 in every lane keeps x q exp(-a) normal before its one rounding (the far
      // lanes have x < -9.6).
      const V far = MulExpFarTailOnce(d, hn::Min(xn, hn::Set(d, -1.0f)),
                                      hn::Add(hn::Set(d, 1.0f), zerr), hn::Neg(z));
      out = hn::IfThenElse(hn::Lt(z, hn::Set(d, -80.0f)), far, out);
      out = hn::IfThenElse(hn::IsNaN(x), x, out);
    }
    return out;
  }
};

// Gelu, as CANN's kernel computes it: the tanh form, x / (1 + exp(-z)) (its document writes
// x Phi(x) and equates it with the tanh approximation). Max error over every 257th float:
// 3.40 ULP at x = -1.825 with a fused MulAdd (AVX3, AVX2), 3.33 at x = -2.503 without (SSE4,
// EMU128); over the tail x in [-16, -1], every 13th float: 3.55 and 3.68 ULP, subnormal
// results included (forward_kernels_test). 16-bit rounded once (every input, both target
// families).
struct GeluOp : XSigmoidImpl<GeluTanhZ> {};
// FastGelu, CANN's formula: out = x / (1 + exp(-1.702 x)). Max error over every 257th float:
// 3.15 ULP at x = -3.19 with a fused MulAdd, 3.87 at x = -3.11 without; 16-bit as Gelu.
struct FastGeluOp : XSigmoidImpl<FastGeluZ> {};
// GeluErf (aclnnGeluV2 with approximate 0): out = x Phi(x) = x erfc(-x / sqrt 2) / 2, the
// erf form, in f32 lanes (XPhi, kernels/normal_tail-inl.h): a series for |x| < 0.5, else
// the normal tail Q(|x|) = phi(|x|) M(|x|) (phi the density, M the Mills ratio), x - |x| Q
// for x >= 0 and -|x| Q below, so no cancellation for x < 0. phi's exponent -x^2 / 2 is
// carried in two parts (x^2 rounded in f32 would cost up to 64 ULP near x = -13).
// Lanes: f32 (every dtype: 16-bit results are this result rounded once). Max error over
// every float: 2.11 ULP at x = -0.641 with a fused MulAdd (AVX3), 2.42 at x = -1.315
// without (SSE4, EMU128); every 257th: 1.83 and 1.94 (forward_kernels_test). f16 / bf16
// within 0.5 ULP of the exact value but where the f32 result lies within its error of a
// midpoint. Valid range: all floats; x < -14.4 gives -0 (the exact value rounds to it),
// -inf -> -0, +inf -> +inf, NaN -> x itself.
struct GeluErfOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    return hn::IfThenElse(hn::IsNaN(x), x, XPhi(d, x));
  }
};

// Hardswish: out = x * clamp(x + 3, 0, 6) / 6. Inside (-3, 3) it is (x * (x + 3)) * fl(1/6):
// x + 3 is exact where the result is small (x in [-6, -1.5], Sterbenz), so the result keeps
// its relative accuracy down to the zero at x = -3; outside, the cases select x or -0 (the
// sign of x * 0, as PyTorch's and CANN's published kernel give it).
// Lanes: f32. Max error: 2.25 ULP (three roundings and fl(1/6)'s 2^-25.4; measured over every
// float, all targets). Valid range: all floats; x <= -3 -> -0, x >= 3 -> x, +inf -> +inf,
// -inf -> -0 (the limit; PyTorch's -inf * 0 is NaN), NaN -> x itself.
struct HardswishOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    V out = hn::Mul(hn::Mul(x, hn::Add(x, hn::Set(d, 3.0f))), hn::Set(d, 1.0f / 6.0f));
    out = hn::IfThenElse(hn::Ge(x, hn::Set(d, 3.0f)), x, out);
    out = hn::IfThenElse(hn::Gt(x, hn::Set(d, -3.0f)), out, hn::Set(d, -0.0f));
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};
// InplaceHardswish computes what Hardswish computes.
using InplaceHardswishOp = HardswishOp;

// Mish: out = x * tanh(softplus(x)) = x * t with t = ((1 + u)^2 - 1) / ((1 + u)^2 + 1), u = e^x.
// With e = exp(-|x|) in [0, 1] (ExpNonPositive): t = n / (n + 2), n = e (e + 2), for x < 0,
// and t = n / (n + 2 e^2), n = 1 + 2e, for x >= 0 (numerator and denominator times e^2), so
// nothing cancels and nothing overflows; t <= 1 keeps x * t finite for every finite x.
// x < -80, where e is subnormal but x e need not be, takes Silu's tail (Mish(x) = x e (1 +
// O(e)) = Silu(x) to f32 precision there): x <= -192 and -inf give -0.
// Lanes: f32. Max error: 3.97 ULP with a fused MulAdd, 4.01 without (that one input within
// 2^-21 absolute; measured over every float; exp's 1.8 ULP passes through t for x < 0).
// Valid range: all floats; +inf -> +inf, -inf -> -0, NaN -> x itself.
struct MishOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V e = ExpNonPositive(d, hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
    const V two_e = hn::Add(e, e);
    const V num =
        hn::IfNegativeThenElse(x, hn::MulAdd(e, e, two_e), hn::Add(hn::Set(d, 1.0f), two_e));
    const V den =
        hn::IfNegativeThenElse(x, hn::Add(num, hn::Set(d, 2.0f)), hn::MulAdd(two_e, e, num));
    V out = hn::Mul(x, hn::Div(num, den));
    // The far tail, or NaN x.
    const auto rare = CompareUnordered<kNotGreaterEqual>(d, x, hn::Set(d, -80.0f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) out = hn::IfThenElse(rare, SiluOp::Apply(d, x), out);
    return out;
  }
};
// InplaceMish computes what Mish computes.
using InplaceMishOp = MishOp;

// Selu: out = scale * x for x > 0, scale * alpha * expm1(x) for x <= 0 (scale = 1.0507...,
// alpha = 1.6732..., their product fl(1.7580993...)): expm1 keeps the result's relative
// accuracy near 0, where exp(x) - 1 would cancel. Lanes: f32. Max error: 1.84 ULP with a
// fused MulAdd, 1.91 without (measured over every float). Valid range: all floats; +inf ->
// +inf (scale * x overflows where the exact value rounds past FLT_MAX), -inf ->
// -scale * alpha, NaN -> x itself.
struct SeluOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V xn = hn::Max(hn::Min(x, hn::Zero(d)), hn::Set(d, -20.0f));
    const V neg = hn::Mul(hn::Set(d, 1.7580993408473768f), Expm1NonPositive(d, xn));
    // scale * x with scale in two parts (the high part rounded down): one rounding with a
    // fused MulAdd, and never a false overflow where the exact product rounds to FLT_MAX.
    const V pos =
        hn::MulAdd(x, hn::Set(d, 1.0507009029388428f), hn::Mul(x, hn::Set(d, 8.4416638e-08f)));
    const V out = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), pos, neg);
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
  // INT8, as CANN's kernel computes it (in half precision, then numpy's astype(int8)): x < 0
  // gives -1 (scale alpha (e^x - 1) lies in (-1.76, -1.11], rounded up), x >= 0 gives x
  // times FLOAT16's scale 1.05078125 = 269/256 truncated, wrapped into int8 (122 -> -128,
  // 127 -> -123). trunc(269 x / 256) = x + floor(13 x / 256), which counts the thresholds
  // 20, 40, 60, 79, 99, 119 that x reaches; the int8 add wraps. Exact on every target.
  template <class D>
  static HWY_INLINE hn::Vec<D> ApplyInt8(D d, hn::Vec<D> x) {
    static constexpr int8_t kSteps[6] = {19, 39, 59, 78, 98, 118};  // 13 x / 256 passes k
    hn::Vec<D> t = hn::Zero(d);
    for (const int8_t s : kSteps) t = hn::Sub(t, hn::VecFromMask(d, hn::Gt(x, hn::Set(d, s))));
    return hn::IfThenElse(hn::Lt(x, hn::Zero(d)), hn::Set(d, int8_t{-1}), hn::Add(x, t));
  }
};
// InplaceSelu computes what Selu computes.
using InplaceSeluOp = SeluOp;

// SquaredRelu: out = max(0, x)^2, one rounding. Lanes: f32. Max error: 0.5 ULP. Valid
// range: all floats; x <= 0 -> +0, x > 1.8e19 -> +inf (as the exact value rounds), +inf ->
// +inf, -inf -> +0, NaN -> x itself.
struct SquaredReluOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    const hn::Vec<D> r = hn::Max(x, hn::Zero(d));
    return hn::IfThenElse(hn::IsNaN(x), x, hn::Mul(r, r));
  }
};

// log(v) for v in [2^-24, 1] (normal): v = 2^m f with f in [sqrt(1/2), sqrt(2)) from the bits,
// g = f - 1 exact, log(v) = m ln2 + log1p(g) (Log1pFromS, s = 2g / (2 + g), |s| <= 0.35),
// with ln 2 in two parts so m ln2_hi is exact. Lanes: f32. Max error: 1 ULP (and 2^-24
// absolute near v = 1, where log1p(g) = g keeps it relative). Other v: unspecified.
template <class D, class V>
HWY_INLINE V LogUnit(D d, V v) {
  const hn::RebindToSigned<D> di;
  const auto bits = hn::BitCast(di, v);
  // Signed: an arithmetic shift.
  const auto m = hn::ShiftRight<23>(hn::Sub(bits, hn::Set(di, 0x3f3504f3)));
  const V f = hn::BitCast(d, hn::Sub(bits, hn::ShiftLeft<23>(m)));
  const V g = hn::Sub(f, hn::Set(d, 1.0f));
  const V log1p_g = Log1pFromS(d, hn::Div(hn::Add(g, g), hn::Add(hn::Set(d, 2.0f), g)));
  const V mf = hn::ConvertTo(d, m);
  const V lo = hn::MulAdd(mf, hn::Set(d, 1.428606765330187045e-6f), log1p_g);
  return hn::MulAdd(mf, hn::Set(d, 0.693145751953125f), lo);
}

// Erfinv: the inverse of erf on (-1, 1), after Giles ("Approximating the erfinv function",
// 2010): w = -log(1 - x^2), and erfinv(x) = x p(w) with p a polynomial in w - 2.5 for w < 5
// and in sqrt(w) - 3 above (to w = 15.9 at |x| = 1 - 2^-24); the two degree-9 polynomials
// are refitted for relative error (5.6e-9 and 5.8e-9, 2^-27.4, against a double Newton
// inversion of erf), below an f32 rounding. 1 - x^2 is 1 - |x|^2 with one rounding for
// |x| < 1/2 and (1 - |x|)(1 + |x|) above, where 1 - |x| is exact, so w is accurate where
// erfinv is steep. Lanes: f32. Max error: 3.18 ULP (measured over every float, both target
// families). Valid range: all floats; +-1 -> +-inf, |x| > 1 -> NaN, +-0 -> +-0, NaN -> NaN.
struct ErfinvOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V one = hn::Set(d, 1.0f);
    const V a = hn::Abs(x);
    const V small = hn::NegMulAdd(a, a, one);
    const V large = hn::Mul(hn::Sub(one, a), hn::Add(one, a));
    const V one_minus_sq = hn::IfThenElse(hn::Lt(a, hn::Set(d, 0.5f)), small, large);
    // Clamped into LogUnit's range: |x| >= 1 and NaN lanes are replaced below.
    const V w = hn::Neg(LogUnit(d, hn::Max(one_minus_sq, hn::Set(d, 5.9604645e-8f))));
    const V v1 = hn::Sub(w, hn::Set(d, 2.5f));
    V p1 = hn::Set(d, -8.7911835093e-09f);
    p1 = hn::MulAdd(p1, v1, hn::Set(d, 2.3232710808e-08f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, 4.6617241735e-07f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, -3.4627055747e-06f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, -4.9633558711e-06f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, 2.1834444253e-04f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, -1.2527418650e-03f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, -4.1773867848e-03f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, 2.4664028615e-01f));
    p1 = hn::MulAdd(p1, v1, hn::Set(d, 1.5014093593e+00f));
    // The tail (w >= 5, |x| > 0.9966) only for vectors that hold such a lane (or NaN, or
    // |x| > 1, whose lanes are replaced below): the same bits, a square root and ten
    // MulAdds fewer for the others.
    V p = p1;
    const auto central = hn::Lt(w, hn::Set(d, 5.0f));
    if (HWY_UNLIKELY(!hn::AllTrue(d, central))) {
      const V v2 = hn::Sub(hn::Sqrt(w), hn::Set(d, 3.0f));
      V p2 = hn::Set(d, 1.2896781549e-04f);
      p2 = hn::MulAdd(p2, v2, hn::Set(d, -3.1872780406e-04f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, -7.6623472529e-05f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, 1.4958621182e-03f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, -3.5869862303e-03f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, 5.6831704041e-03f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, -7.6394102142e-03f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, 9.4456844072e-03f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, 1.0016750868e+00f));
      p2 = hn::MulAdd(p2, v2, hn::Set(d, 2.8329767957e+00f));
      p = hn::IfThenElse(central, p1, p2);
    }
    V out = hn::Mul(x, p);
    const auto rare = CompareUnordered<kNotLessEqual>(d, a, hn::Set(d, 0.99999994f));
    if (HWY_UNLIKELY(!hn::AllFalse(d, rare))) {
      out = hn::IfThenElse(hn::Eq(a, one), hn::CopySign(hn::Set(d, HUGE_VALF), x), out);
      out = hn::IfThenElse(hn::Gt(a, one), hn::Set(d, NAN), out);
      out = hn::IfThenElse(hn::IsNaN(x), x, out);
    }
    return out;
  }
};
// InplaceErfinv computes what Erfinv computes.
using InplaceErfinvOp = ErfinvOp;

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_UNARY_OPS_INL_H_
