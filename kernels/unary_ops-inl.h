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
struct ReluOp {
  template <class D>
  static HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) {
    return hn::IfThenZeroElse(hn::Le(x, hn::Zero(d)), x);
  }
};
// InplaceRelu computes what Relu computes.
using InplaceReluOp = ReluOp;

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_UNARY_OPS_INL_H_
