// The functors of the operators with scalar parameters whose results are made of
// exponentials (Elu, Celu, Softplus, Swish and their gradients); the selections and sums
// are in param_ops-inl.h, which explains the Bound convention. Where the exponent is a
// product of the input and a parameter, it is carried as hi + lo (kernels/expm1-inl.h), so
// the error stays within f32's few ULP for every parameter value. All lanes f32. Each
// documents its formula, max error against the exact (double) result of the same f32
// inputs and parameters, and its range.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_EXP_PARAM_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_EXP_PARAM_OPS_INL_H_
#undef HOSTNN_KERNELS_EXP_PARAM_OPS_INL_H_
#else
#define HOSTNN_KERNELS_EXP_PARAM_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>

#include "kernels/eltwise_ops-inl.h"  // ExpNonPositive
#include "kernels/expm1-inl.h"
#include "kernels/f64_lanes-inl.h"  // ExpM1F64 (EluF64Op)
#include "kernels/params.h"
#include "kernels/unary_ops-inl.h"  // SiluOp, LogSigmoidOp

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Elu of a DOUBLE self, in f64 lanes: scale * x for x > 0, alpha * scale * expm1(x *
// inputScale) otherwise, the parameters as CANN's op_api reads them (f32 values, so alpha *
// scale is exact in double), x * inputScale carried as hi + lo (ExpM1F64). With an
// infinite or NaN alpha or inputScale, CANN casts self to FLOAT and computes in f32 (its
// Threshold and Muls): so does this form, scale * (x > 0 ? x : -alpha) on x rounded to
// f32, rounded to f32. NaN x gives NaN. Max error about 2.5 ULP (double).
struct EluF64Op {
  using Params = EluParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V scale, input_scale, alpha_scale, neg_alpha;
    bool special;
    Bound(D d, const Params& p)
        : scale(hn::Set(d, p.scale)),
          input_scale(hn::Set(d, p.input_scale)),
          alpha_scale(hn::Set(d, static_cast<double>(p.alpha) * p.scale)),
          neg_alpha(hn::Set(d, -static_cast<double>(p.alpha))),
          special(!std::isfinite(p.alpha) || !std::isfinite(p.input_scale)) {}
    // v rounded to f32 and widened back.
    static HWY_INLINE V ToF32(D d, V v) {
      const hn::Rebind<float, D> df;
      return hn::PromoteTo(d, DemoteF64(df, v));
    }
    HWY_INLINE V Apply(D d, V x) const {
      if (special) {
        const V x32 = ToF32(d, x);
        const V kept = hn::IfThenElse(hn::Gt(x32, hn::Zero(d)), x32, neg_alpha);
        return hn::IfThenElse(hn::IsNaN(x), x, ToF32(d, hn::Mul(kept, scale)));
      }
      const V t = hn::Mul(x, input_scale);
      V tail = hn::Mul(alpha_scale, ExpM1F64(d, t, ProductErrorF64(d, x, input_scale, t)));
      tail = hn::IfThenElse(hn::IsNaN(t), t, tail);  // -inf * 0: NaN, as the exact formula
      const V out = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), hn::Mul(x, scale), tail);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
};

// Elu: scale * x for x > 0, alpha * scale * expm1(x * inputScale) for x <= 0 (EluParams),
// as PyTorch's elu and CANN's kernel. With an infinite or NaN
// alpha or inputScale, CANN's op_api computes scale * (x > 0 ? x : -alpha) instead, and so
// does this functor. x * inputScale is carried as hi + lo. NaN x gives NaN.
// Max error: 3.3 ULP (ScaledExpm1 with alpha * scale rounded once), 0.5 ULP for x > 0.
// Valid range: all floats and parameters.
struct EluOp {
  using Params = EluParams;
  using F64Form = EluF64Op;  // a DOUBLE self (ComputesDouble)
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V scale, input_scale, neg_alpha;
    ScaledExpm1<D> neg;
    bool special, non_positive;
    Bound(D d, const Params& p)
        : scale(hn::Set(d, p.scale)),
          input_scale(hn::Set(d, p.input_scale)),
          neg_alpha(hn::Set(d, -p.alpha)),
          neg(d, static_cast<double>(p.alpha) * p.scale, p.input_scale < 0.0f),
          special(!std::isfinite(p.alpha) || !std::isfinite(p.input_scale)),
          non_positive(p.input_scale >= 0.0f) {}
    HWY_INLINE V Apply(D d, V x) const {
      const auto pos = hn::Gt(x, hn::Zero(d));
      if (special) {
        const V out = hn::Mul(hn::IfThenElse(pos, x, neg_alpha), scale);
        return hn::IfThenElse(hn::IsNaN(x), x, out);
      }
      const V t = hn::Mul(x, input_scale);
      // inputScale >= 0: t <= 0 wherever the tail is taken (x <= 0).
      V tail = non_positive ? neg.ApplyNonPositive(d, t)
                            : neg.Apply(d, t, ProductError(d, x, input_scale, t));
      tail = hn::IfThenElse(hn::IsNaN(t), t, tail);  // -inf * 0: NaN, as the exact formula
      const V out = hn::IfThenElse(pos, hn::Mul(x, scale), tail);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
};
// InplaceElu computes what Elu computes.
using InplaceEluOp = EluOp;

// Celu: x for x > 0, alpha * expm1(x / alpha) otherwise (alpha never 0 or
// NaN: the front end refuses them), as PyTorch's celu and CANN's max(0, x) + min(0,
// alpha (e^(x/alpha) - 1)) for either sign of alpha. x / alpha is carried as hi + lo from
// 1/alpha in two parts (no division per element), or, where 1/alpha is not a normal f32
// (|alpha| below 2.9e-39, or infinite), divided. NaN x, or inf / inf, gives NaN.
// Max error: 3.3 ULP. Valid range: all floats; a negative alpha lets t = x / alpha grow,
// and the result overflows to -inf as the exact one does.
struct CeluOp {
  using Params = CeluParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V alpha, inv_hi, inv_lo;
    ScaledExpm1<D> neg;
    bool non_positive, divide;
    Bound(D d, const Params& p)
        : alpha(hn::Set(d, p.alpha)),
          inv_hi(hn::Set(d, static_cast<float>(1.0 / p.alpha))),
          inv_lo(hn::Set(d, static_cast<float>(1.0 / p.alpha - static_cast<float>(1.0 / p.alpha)))),
          neg(d, p.alpha, p.alpha < 0.0f),
          non_positive(p.alpha > 0.0f),
          // |alpha| below 1/FLT_MAX (or infinite): 1/alpha is not a normal f32; divide.
          divide(!std::isnormal(static_cast<float>(1.0 / p.alpha))) {}
    HWY_INLINE V Apply(D d, V x) const {
      V t, tail;
      if (divide) {
        t = hn::Div(x, alpha);
        tail = neg.Apply(d, t, hn::Zero(d));
      } else {
        t = hn::Mul(x, inv_hi);
        if (non_positive) {  // alpha > 0: t <= 0 where the tail is taken
          tail = neg.ApplyNonPositive(d, t);
        } else {
          tail = neg.Apply(d, t, hn::MulAdd(x, inv_lo, ProductError(d, x, inv_hi, t)));
        }
      }
      tail = hn::IfThenElse(hn::IsNaN(t), t, tail);  // inf / inf: NaN, as the exact formula
      const V out = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, tail);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
};
// InplaceCelu computes what Celu computes.
using InplaceCeluOp = CeluOp;

// EluBackward (EluBackwardParams; x is selfOrResult): dy * scale
// for x > 0; otherwise, with isResult, dy * inputScale * (x + alpha scale) (x the forward
// result: x + alpha scale = alpha scale e^t, formed with alpha scale in two parts so that
// it keeps its relative accuracy where it cancels), and without, dy * c * e^(x inputScale),
// c = inputScale alpha scale rounded once (e^t with t as hi + lo for t > -1; below, the
// result is within 2^-21 |dy| of the exact one anyway; a negative inputScale takes c e^t
// through ScaledExpm1, and dy c e^t through c 2^-64 where c e^t alone overflows). NaN in
// either input gives NaN. Max error: 4 ULP or 2^-21 |dy|. Valid range: all floats.
struct EluBackwardOp {
  using Params = EluBackwardParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V scale, input_scale, as_hi, as_lo, c;
    ScaledExpm1<D> c_expm1;  // c (e^t - 1), its far path where e^t overflows but c e^t need not
    ScaledExpm1<D> c_expm1_small;  // the same for c 2^-64: where c e^t overflows but dy c e^t not
    bool is_result, non_positive;
    // alpha scale and c = inputScale alpha scale, each product in double.
    static double AlphaScale(const Params& p) { return static_cast<double>(p.alpha) * p.scale; }
    static double C(const Params& p) {
      return static_cast<double>(p.input_scale) * p.alpha * p.scale;
    }
    Bound(D d, const Params& p)
        : scale(hn::Set(d, p.scale)),
          input_scale(hn::Set(d, p.input_scale)),
          as_hi(hn::Set(d, static_cast<float>(AlphaScale(p)))),
          as_lo(hn::Set(d, static_cast<float>(AlphaScale(p) -
                                              static_cast<float>(AlphaScale(p))))),
          c(hn::Set(d, static_cast<float>(C(p)))),
          c_expm1(d, C(p), p.input_scale < 0.0f),
          c_expm1_small(d, C(p) * 0x1p-64, p.input_scale < 0.0f),
          is_result(p.is_result),
          non_positive(p.input_scale >= 0.0f) {}
    HWY_INLINE V Apply(D d, V dy, V x) const {
      V factor;
      if (is_result) {
        factor = hn::Mul(input_scale, hn::Add(hn::Add(x, as_hi), as_lo));
      } else {
        const V t = hn::Mul(x, input_scale);
        const V lo = ProductError(d, x, input_scale, t);
        V e = ExpNonPositive(d, hn::Max(hn::Min(t, hn::Zero(d)), hn::Set(d, -104.0f)));
        if (non_positive) {  // inputScale >= 0: t <= 0 where the factor is taken
          e = hn::MulAdd(e, hn::IfThenElseZero(hn::IsFinite(lo), lo), e);  // e^(t + lo)
          factor = hn::Mul(c, e);
        } else {
          // t > -1: c e^t = c (e^t - 1) + c, by ScaledExpm1, which keeps c e^t finite where
          // e^t alone overflows (t > 88.7) and gives 0 for c = 0.
          const V near = hn::Add(c_expm1.Apply(d, t, lo), c);
          factor = hn::IfThenElse(hn::Gt(t, hn::Set(d, -1.0f)), near, hn::Mul(c, e));
        }
        factor = hn::IfThenElse(hn::IsNaN(t), t, factor);  // -inf * 0
      }
      V dx = hn::Mul(dy, hn::IfThenElse(hn::Gt(x, hn::Zero(d)), scale, factor));
      if (!is_result && !non_positive &&
          HWY_UNLIKELY(!hn::AllFalse(d, hn::And(hn::IsInf(factor), hn::IsFinite(x))))) {
        // c e^t overflowed f32, dy c e^t need not: (dy (c 2^-64 e^t)) 2^64, two roundings.
        const V t = hn::Mul(x, input_scale);
        const V small = hn::Add(c_expm1_small.Apply(d, t, ProductError(d, x, input_scale, t)),
                                hn::Mul(c, hn::Set(d, 0x1p-64f)));
        const V rescaled = hn::Mul(hn::Mul(dy, small), hn::Set(d, 0x1p64f));
        dx = hn::IfThenElse(hn::And(hn::IsInf(factor), hn::Le(x, hn::Zero(d))), rescaled, dx);
      }
      if (!is_result && HWY_UNLIKELY(!hn::AllFalse(d, hn::IsInf(dy)))) {
        // An infinite dy times a factor that underflowed f32 (c e^t below 2^-149, but not 0):
        // the exact product is infinite.
        const auto lost = hn::And(hn::And(hn::IsInf(dy), hn::Eq(factor, hn::Zero(d))),
                                  hn::And(hn::Le(x, hn::Zero(d)), hn::IsFinite(x)));
        dx = hn::IfThenElse(hn::And(lost, hn::Ne(c, hn::Zero(d))), hn::Mul(dy, hn::CopySign(hn::Set(d, 1.0f), c)), dx);
      }
      return hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
  };
};

// Softplus: x where beta x > threshold (the product rounded to f32, as CANN's kernel and
// PyTorch compare it), else log(1 + e^(beta x)) / beta (SoftplusParams; any
// values, beta = 0 giving +inf below the threshold). With s = beta x as hi + lo:
// log1p(e^s) = max(s, 0) + log1p(e^-|s|) (LogSigmoid's log1p, nothing cancels) plus
// sigmoid(s) lo, then one division by beta. log1p by Log1pFromSFitted (two multiply-adds
// fewer than the series, and closer). NaN x, or 0 * inf, gives NaN.
// Max error (every 127th float and around each split, forward_kernels_test): 2.63 ULP at
// beta = 1; 4.14 ULP at beta = 0.3 (x = -8.59, a result of 0.244, where the SPEC's 2^-21
// absolute is 16 ULP), the same with the series. Valid range: all floats and parameters.
struct SoftplusOp {
  using Params = SoftplusParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V beta, threshold;
    bool unit;
    Bound(D d, const Params& p)
        : beta(hn::Set(d, p.beta)), threshold(hn::Set(d, p.threshold)), unit(p.beta == 1.0f) {}
    HWY_INLINE V Apply(D d, V x) const {
      if (unit) {  // beta = 1: no product to correct, no division
        // max(x, 0) + log1p(e), e = exp(-|x|): -LogSigmoid(-x), +0 for x <= -104.
        const V e = ExpNonPositive(d, hn::Max(hn::Or(x, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
        const V log1p_e = Log1pFromSFitted(d, hn::Div(hn::Add(e, e), hn::Add(hn::Set(d, 2.0f), e)));
        const V out =
            hn::IfThenElse(hn::Gt(x, threshold), x, hn::Add(hn::Max(x, hn::Zero(d)), log1p_e));
        return hn::IfThenElse(hn::IsNaN(x), x, out);
      }
      const V s = hn::Mul(beta, x);
      const V lo = ProductError(d, beta, x, s);
      const V e = ExpNonPositive(d, hn::Max(hn::Or(s, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
      const V log1p_e = Log1pFromSFitted(d, hn::Div(hn::Add(e, e), hn::Add(hn::Set(d, 2.0f), e)));
      V sp = hn::Add(hn::Max(s, hn::Zero(d)), log1p_e);
      // d/ds log1p(e^s) = sigmoid(s), e or 1 within a factor (1 + e) the correction bears.
      const V sigmoid = hn::IfNegativeThenElse(s, e, hn::Set(d, 1.0f));
      sp = hn::MulAdd(sigmoid, hn::IfThenElseZero(hn::IsFinite(lo), lo), sp);
      const V out = hn::IfThenElse(hn::Gt(s, threshold), x, hn::Div(sp, beta));
      return hn::IfThenElse(hn::IsNaN(s), s, hn::IfThenElse(hn::IsNaN(x), x, out));
    }
  };
};

// SoftplusBackward: dy where beta x > threshold (the f32 product, as the forward), else
// dy sigmoid(beta x), the sigmoid by Sigmoid's functor. The
// product's rounding moves sigmoid by at most 2^-24 |s| (1 - sigmoid) relative, within
// 2^-21 |dy| absolute. NaN in either input, or 0 * inf, gives NaN.
// Max error: 4 ULP or 2^-21 |dy|. Valid range: all floats and parameters.
struct SoftplusBackwardOp {
  using Params = SoftplusParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V beta, threshold;
    Bound(D d, const Params& p) : beta(hn::Set(d, p.beta)), threshold(hn::Set(d, p.threshold)) {}
    HWY_INLINE V Apply(D d, V dy, V x) const {
      const V s = hn::Mul(beta, x);
      const V sigmoid = SigmoidOp::Apply(d, s);
      V below = hn::Mul(dy, sigmoid);
      if (HWY_UNLIKELY(!hn::AllFalse(d, hn::IsInf(dy)))) {
        // sigmoid(s) > 0 for every finite s: an infinite dy stays infinite where it underflows.
        const auto lost = hn::And(hn::And(hn::IsInf(dy), hn::Eq(sigmoid, hn::Zero(d))), hn::IsFinite(x));
        below = hn::IfThenElse(lost, dy, below);
      }
      const V dx = hn::IfThenElse(hn::Gt(s, threshold), dy, below);
      return hn::IfThenElse(hn::IsNaN(s), s, hn::IfThenElse(hn::IsNaN(x), x, dx));
    }
  };
};

// Swish: x sigmoid(beta x) (beta is CANN's betaOptional, 1 where null; any value). With
// z = beta x as hi + lo and e = exp(-|z|) corrected for lo: x / (1 + e) for z >= 0 and
// x e / (1 + e) for z < 0, one division, as Silu computes it; for -192 < z < -80, where
// e is subnormal but x e need not be, MulExpFarTail. x = +-inf gives x where sigmoid -> 1, +-0 where it -> 0 (the limits);
// beta = 0 with an infinite x, or NaN x, gives NaN.
// Max error: 3.5 ULP, or 2^-21 absolute for results below it. Valid range: all floats.
struct SwishOp {
  using Params = SwishParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V beta;
    bool silu;
    Bound(D d, const Params& p) : beta(hn::Set(d, p.beta)), silu(p.beta == 1.0f) {}
    HWY_INLINE V Apply(D d, V x) const {
      if (silu) return SiluOp::Apply(d, x);  // beta = 1: Silu's functor, the same formula
      const V one = hn::Set(d, 1.0f);
      const V z = hn::Mul(beta, x);
      V lo = ProductError(d, beta, x, z);
      lo = hn::IfThenElseZero(hn::IsFinite(lo), lo);
      const V c = hn::IfNegativeThenElse(z, lo, hn::Neg(lo));  // -|hi + lo| = -|hi| + c
      V e = ExpNonPositive(d, hn::Max(hn::Or(z, hn::Set(d, -0.0f)), hn::Set(d, -104.0f)));
      e = hn::MulAdd(e, c, e);
      const V limit = hn::Set(d, 3.40282347e38f);
      const V xc = hn::Min(hn::Max(x, hn::Neg(limit)), limit);  // inf * 0 -> the limit 0
      V num = hn::IfNegativeThenElse(z, hn::Mul(xc, e), x);
      const auto far = hn::Lt(z, hn::Set(d, -80.0f));
      if (HWY_UNLIKELY(!hn::AllFalse(d, far))) {
        const V zt = hn::Min(hn::Max(z, hn::Set(d, -192.0f)), hn::Set(d, -80.0f));
        V tail = MulExpFarTail(d, xc, hn::Add(one, c), hn::Neg(zt));
        tail = hn::IfThenElse(hn::Gt(z, hn::Set(d, -192.0f)), tail, hn::Mul(xc, hn::Zero(d)));
        num = hn::IfThenElse(far, tail, num);
      }
      const V out = hn::Div(num, hn::Add(one, e));
      return hn::IfThenElse(hn::IsNaN(z), z, hn::IfThenElse(hn::IsNaN(x), x, out));
    }
  };
};

// SwishBackward: dy s (1 + z (1 - s)), z = beta x, s = sigmoid(z) (beta: CANN's
// betaOptional, 1 where null). As SiluBackward: with e = exp(-|z|) and r = 1 / (1 + e), s
// and 1 - s are r and e r, never a subtraction, and 1 + z (1 - s) is rounded once; z is
// clamped to +-104, where e is 0, so an infinite x gives dy or dy * 0. An infinite dy where
// the factor underflowed f32 (z far below 0, the factor a tiny negative number) gives -dy.
// NaN in either input gives NaN. Max error: 4 ULP or 2^-21 |dy|. Valid range: all floats.
struct SwishBackwardOp {
  using Params = SwishParams;
  template <class D>
  struct Bound {
    using V = hn::Vec<D>;
    V beta;
    bool silu;
    Bound(D d, const Params& p) : beta(hn::Set(d, p.beta)), silu(p.beta == 1.0f) {}
    HWY_INLINE V Apply(D d, V dy, V x) const {
      if (silu) return SiluBackwardOp::Apply(d, dy, x);  // beta = 1: SiluBackward's functor
      const V one = hn::Set(d, 1.0f);
      const V z = hn::Mul(beta, x);
      const V zc = hn::Min(hn::Max(z, hn::Set(d, -104.0f)), hn::Set(d, 104.0f));
      const V e = ExpNonPositive(d, hn::Or(zc, hn::Set(d, -0.0f)));
      const V r = hn::Div(one, hn::Add(one, e));
      const V er = hn::Mul(e, r);
      const V s = hn::IfNegativeThenElse(z, er, r);
      const V one_minus_s = hn::IfNegativeThenElse(z, r, er);
      const V factor = hn::Mul(s, OnePlusProduct(d, zc, one_minus_s));
      V dx = hn::Mul(dy, factor);
      if (HWY_UNLIKELY(!hn::AllFalse(d, hn::IsInf(dy)))) {
        const auto lost = hn::And(hn::And(hn::IsInf(dy), hn::Eq(factor, hn::Zero(d))), hn::IsFinite(x));
        dx = hn::IfThenElse(lost, hn::Neg(dy), dx);
      }
      return hn::IfThenElse(hn::IsNaN(z), z, hn::IfThenElse(hn::IsNaN(dy), dy, dx));
    }
  };
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_EXP_PARAM_OPS_INL_H_
