// expm1 over the whole f32 range, log1p on [-1/2, 1], and the pieces that keep an exponent's rounding
// out of the result: the Elu family (Selu, Elu, Celu and their gradients), Softplus and
// Swish. exp(t) grows the relative error of t by |t|: where t is a product or quotient of
// the input and a parameter (x * inputScale, x / alpha), the operator passes t as hi + lo
// (ProductError: lo is hi's rounding error) and the correction e^hi * lo restores f32
// accuracy up to |t| = 88. Lanes: f32.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_EXPM1_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_EXPM1_INL_H_
#undef HOSTNN_KERNELS_EXPM1_INL_H_
#else
#define HOSTNN_KERNELS_EXPM1_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>

#include "kernels/eltwise_ops-inl.h"  // ReduceNonPositive

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// expm1(r) = r + r^2 P(r) for |r| <= ln2/2: P of degree 4, fitted for minimax relative error
// of expm1 with f32 coefficients (scripts/fit_expm1_log1p.py): 2^-26.1 before rounding, where
// the Taylor polynomial to r^6 (two multiply-adds more) left 2^-30. The r^2 P term is at most
// 0.18 r, so its roundings reach the result scaled by that.
template <class D, class V>
HWY_INLINE V Expm1Reduced(D d, V r) {
  V p = hn::Set(d, 0.0013870315160602331f);
  p = hn::MulAdd(p, r, hn::Set(d, 0.008366258814930916f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.04166743904352188f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.1666654646396637f));
  p = hn::MulAdd(p, r, hn::Set(d, 0.4999999701976776f));
  return hn::MulAdd(hn::Mul(r, r), p, r);
}

// expm1(v) = exp(v) - 1 for v clamped to [-20, 89] (below -17.4 it rounds to -1; above
// 88.72 it overflows to +inf): v = k ln2 + r (ReduceNonPositive's reduction, valid for
// either sign), expm1(v) = 2 (2^(k-1) expm1(r) + (2^(k-1) - 1/2)), where expm1(r) =
// r + r^2 P(r) (Expm1Reduced: 2^-26.1 relative on |r| <= ln2/2 before rounding) keeps its
// relative accuracy as r -> 0, 2^(k-1) - 1/2 is exact for the k whose result it can
// change, and the sum does not cancel (for k < 0 both terms are negative or the first is
// the smaller by 2^k/4; for k > 0 the second is at least twice the first's magnitude).
// Halving keeps 2^(k-1) normal up to k = 128 and the final doubling is exact (or
// overflows as the exact result does). Max error: within Selu's 1.91 ULP, which adds two
// roundings to it. NaN lanes give an unspecified value: callers select NaN inputs
// through themselves.
template <class D, class V>
HWY_INLINE V ExpMinusOne(D d, V v) {
  const V vc = hn::Min(hn::Max(v, hn::Set(d, -20.0f)), hn::Set(d, 89.0f));
  V t;
  const V r = ReduceNonPositive(d, vc, 126.0f, &t);  // t's low bits: k - 1 + 127
  const hn::RebindToSigned<D> di;
  const V half_pow2k = hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t)));
  const V half = hn::MulAdd(half_pow2k, Expm1Reduced(d, r), hn::Sub(half_pow2k, hn::Set(d, 0.5f)));
  return hn::Add(half, half);
}

// ExpMinusOne for v in [-20, 0] only (callers clamp), without the clamp and the halving
// that positive arguments need: Selu's and the t <= 0 paths' expm1. Where MulAdd is fused the
// reduction takes ln 2 as one f32, L = ln 2 + 1.9e-9: r = v - k L is rounded once, and the
// result is e^(v - k (L - ln 2)) - 1, off by at most e^v |k| 1.9e-9 <= 1e-9 absolute (k <= -1,
// where the result is below -0.29: under 0.04 ULP), one multiply-add fewer than
// ReduceNonPositive's two-part ln 2, which targets without a fused MulAdd keep (there k L
// would round). NaN lanes give an unspecified value.
template <class D, class V>
HWY_INLINE V Expm1NonPositive(D d, V v) {
  V t;
#if HWY_NATIVE_FMA
  const V round = hn::Set(d, 12582912.0f + 127.0f);  // t's low bits: k + 127
  t = hn::MulAdd(v, hn::Set(d, 1.44269504088896341f), round);
  const V r = hn::NegMulAdd(hn::Sub(t, round), hn::Set(d, 0.693147182464599609375f), v);
#else
  const V r = ReduceNonPositive(d, v, 127.0f, &t);  // t's low bits: k + 127
#endif
  const hn::RebindToSigned<D> di;
  const V pow2k = hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t)));
  return hn::MulAdd(pow2k, Expm1Reduced(d, r), hn::Sub(pow2k, hn::Set(d, 1.0f)));
}

// log1p(g) = 2 atanh(s / 2) for s = 2g / (2 + g), |s| <= 2/3 (g in [-1/2, 1]): s + s u Q(u),
// u = s^2, Q the atanh series' first seven terms (truncation below 2^-29 relative). Shared by
// LogSigmoid (g = e), LogUnit and Softplus. Lanes: f32.
template <class D, class V>
HWY_INLINE V Log1pFromS(D d, V s) {
  const V u = hn::Mul(s, s);
  // Q(u) = sum_j u^j / ((2j + 3) 4^(j+1)): 2 atanh(s/2) = s + s u Q(u).
  V q = hn::Set(d, 1.0f / 245760.0f);
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 53248.0f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 11264.0f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 2304.0f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 448.0f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 80.0f));
  q = hn::MulAdd(q, u, hn::Set(d, 1.0f / 12.0f));
  return hn::MulAdd(hn::Mul(s, u), q, s);
}

// log1p(g) as Log1pFromS with Q of degree 4 fitted for minimax relative error of log1p on
// u in [0, 4/9] with f32 coefficients (scripts/fit_expm1_log1p.py): 2^-33 before rounding,
// against the seven-term series' 2^-29, two multiply-adds fewer. Softplus's log1p(e).
template <class D, class V>
HWY_INLINE V Log1pFromSFitted(D d, V s) {
  const V u = hn::Mul(s, s);
  V q = hn::Set(d, 0.00011838566570077091f);
  q = hn::MulAdd(q, u, hn::Set(d, 0.000418825657106936f));
  q = hn::MulAdd(q, u, hn::Set(d, 0.0022355634719133377f));
  q = hn::MulAdd(q, u, hn::Set(d, 0.012499671429395676f));
  q = hn::MulAdd(q, u, hn::Set(d, 0.0833333432674408f));
  return hn::MulAdd(hn::Mul(s, u), q, s);
}

// expm1(hi + lo) for |lo| <= ulp(hi): expm1(hi) + e^hi lo. A lo that is not finite (hi
// infinite, or a two-product that overflowed, where lo no longer matters) counts as 0.
template <class D, class V>
HWY_INLINE V Expm1Split(D d, V hi, V lo) {
  const V em1 = ExpMinusOne(d, hi);
  const V fixed = hn::MulAdd(hn::Add(em1, hn::Set(d, 1.0f)), hn::IfThenElseZero(hn::IsFinite(lo), lo), em1);
  return hn::IfThenElse(hn::IsFinite(em1), fixed, em1);  // an overflow stays +inf
}

// a * expm1(t) for t = hi + lo of any size, a a parameter (Elu's alpha * scale, Celu's
// alpha), set once per tile. Up to t = 88.7 one product of a and Expm1Split; above (only
// where the operator's parameters let t grow: a negative inputScale or alpha), where
// e^t overflows f32 but a e^t need not, a e^88 and a e^176 (computed in double) times
// e^(t - 88) or e^(t - 176) (t - 88 is exact there, Sterbenz), which covers every a down
// to the subnormals. a = 0 gives +-0. Max error: 1 ULP more than ExpMinusOne's, 3.3 ULP in all.
template <class D>
struct ScaledExpm1 {
  using V = hn::Vec<D>;
  V a, a88, a176;
  bool grows;
  ScaledExpm1(D d, double a_value, bool t_may_exceed_88)
      : a(hn::Set(d, static_cast<float>(a_value))),
        a88(hn::Set(d, static_cast<float>(a_value * std::exp(88.0)))),
        a176(hn::Set(d, static_cast<float>(a_value * std::exp(176.0)))),
        grows(t_may_exceed_88 && a_value != 0.0) {}
  // For t <= 0 (the operator's parameters keep it there): a expm1(t), without the lo
  // correction, whose share of the result is at most lo (below 0.5 ULP) there.
  HWY_INLINE V ApplyNonPositive(D d, V t) const {
    return hn::Mul(a, Expm1NonPositive(d, hn::Max(t, hn::Set(d, -20.0f))));
  }
  HWY_INLINE V Apply(D d, V hi, V lo) const {
    // Capped at FLT_MAX, so that a = 0 gives 0 and not 0 * inf; a larger a e^t takes the
    // far path below.
    V out = hn::Mul(a, hn::Min(Expm1Split(d, hi, lo), hn::Set(d, 3.40282347e38f)));
    if (grows) {
      const auto big = hn::Gt(hi, hn::Set(d, 88.5f));
      if (HWY_UNLIKELY(!hn::AllFalse(d, big))) {
        const V one = hn::Set(d, 1.0f);
        const V e88 = hn::Add(Expm1Split(d, hn::Sub(hi, hn::Set(d, 88.0f)), lo), one);
        const V e176 = hn::Add(Expm1Split(d, hn::Sub(hi, hn::Set(d, 176.0f)), lo), one);
        const V far = hn::IfThenElse(hn::Gt(hi, hn::Set(d, 176.5f)), hn::Mul(a176, e176),
                                     hn::Mul(a88, e88));
        out = hn::IfThenElse(big, far, out);
      }
    }
    return out;
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_EXPM1_INL_H_
