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

#include <hwy/highway.h>
#include <hwy/contrib/math/math-inl.h>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// exp(-|x|) for the sigmoid family, in (0, 1]. |x| is clamped to 200 first: exp(-200)
// is 0 in f32, and Highway's Exp is only valid on [-FLT_MAX, 104] (not for -inf).
template <class D, class V>
HWY_INLINE V ExpNegAbs(D d, V x) {
  const V a = hn::Min(hn::Abs(x), hn::Set(d, 200.0f));
  return hn::Exp(d, hn::Neg(a));
}

// SiluBackward: s = 1/(1+exp(-x)); dx = dy * s * (1 + x*(1-s)).
// Lanes: f32. Max error: 4 ULP, or 2^-21*|dy| absolute where the result cancels (x near
// -2.4). Valid range: all floats; x = -inf -> 0, x = +inf -> dy, NaN -> NaN.
// s and 1-s are both formed from e = exp(-|x|) so neither loses precision to 1 - s.
struct SiluBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V e = ExpNegAbs(d, x);
    const V inv = hn::Div(one, hn::Add(one, e));
    const auto pos = hn::Ge(x, hn::Zero(d));
    const V s = hn::Mul(hn::IfThenElse(pos, one, e), inv);
    const V one_minus_s = hn::Mul(hn::IfThenElse(pos, e, one), inv);
    const V xc = hn::Min(hn::Max(x, hn::Set(d, -200.0f)), hn::Set(d, 200.0f));
    const V r = hn::Mul(hn::Mul(dy, s), hn::MulAdd(xc, one_minus_s, one));
    return hn::IfThenElse(hn::IsNaN(x), x, r);
  }
};

// LogSigmoidBackward: dx = dy / (1 + exp(x)) = dy * (x < 0 ? 1 : e) / (1 + e), e = exp(-|x|).
// Lanes: f32. Max error: 3 ULP. Valid range: all floats; x = -inf -> dy, +inf -> 0,
// NaN -> NaN.
struct LogSigmoidBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const V one = hn::Set(d, 1.0f);
    const V e = ExpNegAbs(d, x);
    const V num = hn::IfThenElse(hn::Lt(x, hn::Zero(d)), one, e);
    const V r = hn::Mul(dy, hn::Div(num, hn::Add(one, e)));
    return hn::IfThenElse(hn::IsNaN(x), x, r);
  }
};

// HardsigmoidBackward: dx = dy / 6 where -3 < x < 3 (strict), else 0.
// Lanes: f32. Max error: 0.5 ULP (one correctly rounded division). Valid range: all
// floats; NaN in either input -> NaN (the comparison alone would give 0).
struct HardsigmoidBackwardOp {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V x) {
    const auto inside = hn::And(hn::Gt(x, hn::Set(d, -3.0f)), hn::Lt(x, hn::Set(d, 3.0f)));
    V r = hn::IfThenElseZero(inside, hn::Div(dy, hn::Set(d, 6.0f)));
    r = hn::IfThenElse(hn::IsNaN(dy), dy, r);
    return hn::IfThenElse(hn::IsNaN(x), x, r);
  }
};

// exp(y) for LogSoftmaxBackward's y = log-probabilities. Lanes: f32. Max error: 1 ULP
// (Highway's Exp). Valid range: all floats; y > 88.72 -> inf, NaN -> NaN, y < -104 -> 0.
template <class D, class V>
HWY_INLINE V ExpAnyRange(D d, V y) {
  const V hi = hn::Set(d, 88.7228393554688f);
  V r = hn::Exp(d, hn::Min(y, hi));
  r = hn::IfThenElse(hn::Gt(y, hi), hn::Set(d, HUGE_VALF), r);
  return hn::IfThenElse(hn::IsNaN(y), y, r);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_ELTWISE_OPS_INL_H_
