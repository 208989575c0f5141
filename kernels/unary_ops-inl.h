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

#include "kernels/eltwise_ops-inl.h"  // CompareUnordered

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

// LogSigmoid: out = log(sigmoid(x)) = min(x, 0) - log1p(e), e = exp(-|x|) in [0, 1].
// log1p(e) = 2 atanh(e / (2 + e)) = s + s u Q(u) with s = 2e / (2 + e) (one division; 2e
// is exact, so s does not lose bits when e is subnormal) and u = s^2 <= 4/9, Q the atanh
// series' first seven terms (truncation below 2^-29 relative). x < 0: x and -log1p(e)
// have the same sign, so nothing cancels; x >= 0: out = -log1p(e), relative accuracy down
// to the subnormals (log1p(e) = e there). -inf -> -inf, +inf -> +0, -1000 -> -1000.
// Lanes: f32. Max error: 2.80 ULP with a fused MulAdd, 2.82 without (measured over every
// float). Valid range:
// all floats; NaN -> x itself. f16 / bf16 storage runs this functor too (SPEC 4): a
// cheaper exp and Q's first three terms (2^-15.8 relative) put 817 f16 and 16 bf16
// results one ULP off the correctly rounded value.
struct LogSigmoidOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V na = hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));
    const V e = ExpNonPositive(d, na);
    const V s = hn::Div(hn::Add(e, e), hn::Add(hn::Set(d, 2.0f), e));
    const V u = hn::Mul(s, s);
    // Q(u) = sum_j u^j / ((2j + 3) 4^(j+1)): 2 atanh(s/2) = s + s u Q(u).
    V q = hn::Set(d, 1.0f / 245760.0f);
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 53248.0f));
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 11264.0f));
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 2304.0f));
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 448.0f));
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 80.0f));
    q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 12.0f));
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
struct ReluOp {
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
// Sigmoid: out = 1 / (1 + exp(-x)). With e = exp(-|x|): out = 1 / (1 + e) for x >= 0 and
// e / (1 + e) for x < 0, so 1 - s is never formed by a subtraction; one IEEE division. x is
// clamped to -104 for e (exactly 0 from there on, where the exact result rounds to 0 too):
// +inf -> 1, -inf -> +0; subnormal results (x < -87.3) keep ExpNonPositive's single
// rounding. Lanes: f32 (every dtype: 16-bit results are this result rounded once).
// Max error: 2.40 ULP over every float (AVX3; 2.34 over every 257th on both target
// families, forward_kernels_test); f16 / bf16 within 0.5 ULP of the exact value but where the f32 result lies
// within its error of a midpoint. Valid range: all floats; NaN -> x itself.
struct SigmoidOp {
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
// sign), one division. z is clamped to -104 for e (0 from there on); x is clamped to
// -kClamp in x e, so -inf gives -0, not -inf * 0. Where x < 0 the result is small (above
// -0.171 for Gelu, -0.164 for FastGelu) and exp's argument would carry z's rounding (a few
// 2^-24 relative) times |z|, up to 104: vectors holding lanes with z < -2 take exp(z) (1 +
// ZError) there, and MulExpFarTail for z < -80 (e subnormal, x e not).
// Lanes: f32 (every dtype). Valid range: all floats; +inf -> +inf, -inf -> -0, NaN -> x.
template <class Zf>
struct XSigmoidImpl {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    using V = hn::Vec<D>;
    const V z = Zf::Z(d, x);
    V e = ExpNonPositive(d, hn::Max(hn::Or(z, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
    const V xn = hn::Max(x, hn::Set(d, -Zf::kClamp));
    V num = hn::IfNegativeThenElse(x, hn::Mul(xn, e), x);
    // Below -104 e is 0 and z may be infinite: no correction there. From -80 e is subnormal
    // and x e a normal number: MulExpFarTail scales instead.
    const auto tail = hn::And(hn::Lt(z, hn::Set(d, kZErrorFrom)), hn::Gt(z, hn::Set(d, -104.0f)));
    if (HWY_UNLIKELY(!hn::AllFalse(d, tail))) {
      const V zerr = hn::IfThenElseZero(tail, ZError<Zf>(d, x, z));
      e = hn::MulAdd(e, zerr, e);
      num = hn::IfNegativeThenElse(x, hn::Mul(xn, e), x);
      const V far = MulExpFarTail(d, xn, hn::Add(hn::Set(d, 1.0f), zerr), hn::Neg(z));
      num = hn::IfThenElse(hn::And(tail, hn::Lt(z, hn::Set(d, -80.0f))), far, num);
    }
    const V out = hn::Div(num, hn::Add(hn::Set(d, 1.0f), e));
    return hn::IfThenElse(hn::IsNaN(x), x, out);
  }
};

// Gelu, as CANN's kernel computes it: the tanh form, x / (1 + exp(-z)) (its document writes
// x Phi(x) and equates it with the tanh approximation). Max error over every 257th float
// (AVX3 and EMU128): 5.16 ULP at x = -10.68 (a result near -2^-146, subnormal); 16-bit
// rounded once (every input, both target families).
struct GeluOp : XSigmoidImpl<GeluTanhZ> {};
// FastGelu, CANN's formula: out = x / (1 + exp(-1.702 x)). Max error over every 257th float
// (AVX3 and EMU128): 29.7 ULP at x = -61.1 (a subnormal result near -2^-144, within 2^-21
// absolute); 16-bit as Gelu.
struct FastGeluOp : XSigmoidImpl<FastGeluZ> {};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_UNARY_OPS_INL_H_
