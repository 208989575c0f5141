// One vector functor per gated linear unit, built on the elementwise operators' functors
// (SigmoidOp, SiluOp, the Gelu forms and their gradients), f32 lanes but for SituGlu's (f64
// lanes): a and b are the two halves of self along the split dim, and each functor has the
// Map's form (kernels/map_tile-inl.h): a forward's Apply(d, a, b) returns out, GeGlu's
// Apply(d, a, b, &act) also sets act to the gate's activation (its outGelu; kHasAct),
// FatreluMul's Apply(d, a, b, t) reads a third input (kIn = 3); a gradient's
// Apply(d, dy, a, b, &db) returns da and sets db, GeGlu's Apply(d, dy, a, b, act, &db) also
// reads the forward's outGelu (kReadsAct). A functor with parameters is bound to them once
// per tile (Bound: SituGlu's beta and linearBeta). Each output element takes the functor it
// is built on plus one or two products, each rounded once; 16-bit storage runs the same f32
// functor and rounds its result once (SPEC 4).
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_GLU_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_GLU_OPS_INL_H_
#undef HOSTNN_KERNELS_GLU_OPS_INL_H_
#else
#define HOSTNN_KERNELS_GLU_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

#include "kernels/eltwise_ops-inl.h"
#include "kernels/f64_lanes-inl.h"
#include "kernels/family_grad_ops-inl.h"
#include "kernels/params.h"
#include "kernels/unary_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Glu of a DOUBLE self (ComputesDouble): a * sigmoid(b) in f64 lanes (SigmoidF64Op, then
// the product), as op_api's AI CPU path of SplitV, Sigmoid and Mul computes it.
struct GluF64Op {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V a, V b) {
    return hn::Mul(a, SigmoidF64Op::Apply(d, b));
  }
};

// Glu: out = a * sigmoid(b) (SigmoidOp, 2.4 ULP, then the product). Max error 2.9 ULP.
// NaN in either half -> NaN; a = +-inf with b = -inf is inf * 0 = NaN, as the formula.
struct GluOp {
  using F64Form = GluF64Op;  // a DOUBLE self (ComputesDouble)
  static constexpr bool kHasAct = false;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V a, V b) {
    return hn::Mul(a, SigmoidOp::Apply(d, b));
  }
};

// SwiGlu: out = silu(a) * b (SiluOp, 3.5 ULP, then the product). Max error 4 ULP.
struct SwiGluOp {
  static constexpr bool kHasAct = false;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V a, V b) {
    return hn::Mul(SiluOp::Apply(d, a), b);
  }
};

// GeGlu: act = gelu(b), out = a * act, gelu the erf form (GeluErfOp, 2.1 ULP with a fused
// MulAdd, 2.4 without) or the tanh form (GeluOp, 3.4 ULP). activateLeft swaps the halves
// before the kernel (the front end's views, src/aclnn/split_front_end.cc), so one functor
// serves both.
template <class Gelu>
struct GeGluOpT {
  static constexpr bool kHasAct = true;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V a, V b, V* act) {
    *act = Gelu::Apply(d, b);
    return hn::Mul(a, *act);
  }
};
using GeGluErfOp = GeGluOpT<GeluErfOp>;
using GeGluTanhOp = GeGluOpT<GeluOp>;
// The list's GeGlu and GeGluV3: the erf form, whose Alt (the tanh form) approximate 1 picks
// (PicksAltForm, kernels/params.h); P is the operator's parameters.
template <class P>
struct GeGluForms : GeGluErfOp {
  using Params = P;
  using Form = GeGluErfOp;  // the loop both operators share (glu_tiles.cc)
  using Alt = GeGluTanhOp;
};
using GeGluOp = GeGluForms<GeGluParams>;
using GeGluV3Op = GeGluForms<GeGluV3Params>;

// GeluMul: out = gelu(a) * b, a the first half of the last dim, no outGelu; gelu the erf
// form (GeluErfOp) or the tanh form (GeluOp). The same two roundings as GeGluV3's out with
// activateLeft (a product is the same either way round), so the same bound: 2.1 ULP plus
// the product for the erf form (2.4 without a fused MulAdd), a few ULP for the tanh form.
// NaN in either half -> NaN; gelu(-inf) = -0 times an infinite b is NaN, as the formula.
template <class Gelu>
struct GeluMulOpT {
  static constexpr bool kHasAct = false;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V a, V b) {
    return hn::Mul(Gelu::Apply(d, a), b);
  }
};
// The list's GeluMul: the erf form, whose Alt approximateOptional "tanh" picks.
struct GeluMulOp : GeluMulOpT<GeluErfOp> {
  using Params = GeluMulParams;
  using Alt = GeluMulOpT<GeluOp>;
};

// FatreluMul: out = (a > t ? a : 0) * b, a the first half of the last dim, t the threshold
// (a third input: its one element in every lane). "Greater than", as CANN's kernel compares
// (its document's formula keeps a = t; the kernel gives 0 there); NaN a gives NaN, as
// Threshold (SPEC; CANN's select would give 0 * b). The selection is exact, so the one
// rounding is the product's: 0.5 ULP (a 16-bit product is exact in f32 and rounded once).
struct FatreluMulOp {
  static constexpr bool kHasAct = false;
  static constexpr size_t kIn = 3;
  template <class D, class V>
  static HWY_INLINE V Apply(D /*d*/, V a, V b, V t) {
    const V kept = hn::IfThenElseZero(hn::Gt(a, t), a);
    return hn::Mul(hn::IfThenElse(hn::IsNaN(a), a, kept), b);
  }
};

// SituGlu and SituGluGrad's shared part: beta, linearBeta and the up half's transform
// up' = linearBeta tanh(up / linearBeta) where linearBeta > 0, else up, in f64 lanes. The
// divisions are products with 1 / beta and 1 / linearBeta in double (CANN's kernel
// multiplies by the reciprocals too, in f32).
template <class D>
struct SituGluBound {
  double beta, inv_beta, linear_beta, inv_linear_beta;
  bool linear;
  SituGluBound(D /*d*/, const SituGluParams& p)
      : beta(p.beta),
        inv_beta(1.0 / static_cast<double>(p.beta)),
        linear_beta(p.linear_beta),
        inv_linear_beta(1.0 / static_cast<double>(p.linear_beta)),
        linear(p.linear_beta > 0.0f) {}
  // up', and d up' / d up where slope is given.
  template <class DW, class VW>
  HWY_INLINE VW UpPrime(DW dw, VW up, VW* slope) const {
    if (!linear) {
      if (slope != nullptr) *slope = hn::Set(dw, 1.0);
      return up;
    }
    const VW t = TanhF64(dw, hn::Mul(up, hn::Set(dw, inv_linear_beta)), slope);
    return hn::Mul(hn::Set(dw, linear_beta), t);
  }
};

// SituGlu: out = beta tanh(g / beta) sigmoid(g) up', g the gate (the kernel's second input:
// activateLeft picks which half the front end hands it). Every step in f64 lanes
// (InF64Lanes, TanhF64, SigmoidF64: a few f64 ULP each), so the f32 result is within half
// an ULP plus 2^-40 relative, and 16-bit storage rounds that once. A degenerate parameter
// gives the formula's IEEE values, as CANN's kernel: beta 0 gives +-0 (g / 0 = +-inf, tanh
// +-1, times 0) and NaN at g = 0 (0 / 0); an infinite beta or linearBeta gives NaN (tanh 0
// times inf). NaN in either half -> NaN.
struct SituGluOp {
  static constexpr bool kHasAct = false;
  using Params = SituGluParams;
  template <class D>
  struct Bound : SituGluBound<D> {
    using SituGluBound<D>::SituGluBound;
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> up, hn::Vec<D> gate) const {
      const auto wide = [this](auto dw, auto* /*second*/, auto u, auto g) {
        const auto t = TanhF64(dw, hn::Mul(g, hn::Set(dw, this->inv_beta)));
        const auto situ_a = hn::Mul(hn::Mul(hn::Set(dw, this->beta), t), SigmoidF64(dw, g));
        return hn::Mul(situ_a, this->UpPrime(dw, u, static_cast<decltype(u)*>(nullptr)));
      };
      return InF64Lanes(d, wide, nullptr, up, gate);
    }
  };
};

// ClippedSwiglu: with A = min(a, limit) and B = min(max(b, -limit), limit) + bias (torch's
// clamp: a limit below 0 gives limit), out = A sigmoid(alpha A) B; a the gate (the first
// half, or the even elements: the front end's views). The clamps compare (a > limit, ...), so
// a NaN half stays NaN and a NaN limit clamps nothing, the same on every target. In f64
// lanes as SituGlu: the f32 result within half an ULP plus 2^-40 relative (alpha A in f32
// would carry |alpha A| times its rounding into sigmoid). NaN in -> NaN.
// ClippedSwiglu and its gradient's shared part: the parameters in double, and the clamps in
// f64 lanes (comparisons: a NaN input stays NaN, a NaN limit clamps nothing).
template <class D>
struct ClippedSwigluBound {
  double alpha, limit, bias;
  ClippedSwigluBound(D /*d*/, const ClippedSwigluParams& p)
      : alpha(p.alpha), limit(p.limit), bias(p.bias) {}
  // A = min(a, limit).
  template <class DW, class VW>
  HWY_INLINE VW Gate(DW dw, VW a) const {
    const VW lim = hn::Set(dw, limit);
    return hn::IfThenElse(hn::Gt(a, lim), lim, a);
  }
  // B + bias, B = b clamped to [-limit, limit].
  template <class DW, class VW>
  HWY_INLINE VW Other(DW dw, VW b) const {
    const VW lim = hn::Set(dw, limit), neg_lim = hn::Neg(lim);
    const VW o = hn::IfThenElse(hn::Lt(b, neg_lim), neg_lim, b);
    return hn::Add(hn::IfThenElse(hn::Gt(o, lim), lim, o), hn::Set(dw, bias));
  }
};

struct ClippedSwigluOp {
  static constexpr bool kHasAct = false;
  using Params = ClippedSwigluParams;
  template <class D>
  struct Bound : ClippedSwigluBound<D> {
    using ClippedSwigluBound<D>::ClippedSwigluBound;
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> b, hn::Vec<D> a) const {
      const auto wide = [this](auto dw, auto* /*second*/, auto other, auto gate) {
        const auto g = this->Gate(dw, gate);
        const auto s = SigmoidF64(dw, hn::Mul(hn::Set(dw, this->alpha), g));
        return hn::Mul(hn::Mul(g, s), this->Other(dw, other));
      };
      return InF64Lanes(d, wide, nullptr, b, a);
    }
  };
};

// GluBackward of DOUBLE operands (ComputesDouble), in f64 lanes. With e = exp(-|b|) (ExpF64:
// 0 past |b| = 746, where s (1 - s) is below double's range) and q = 1 + e: s = (b < 0 ? e :
// 1) / q and s (1 - s) = e / q^2, one division each (GluBackwardOp's e r r measured 3.6 and
// 6.9 ULP in double). Max error (4M elements of tests/glu_double_test.cc's inputs on each
// target, intermediates in double's normal range): 3.2 ULP (da), 5.6 ULP (db).
struct GluBackwardF64Op {
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V a, V b, V* db) {
    const V e = ExpF64(d, hn::Neg(hn::Abs(b)));
    const V q = hn::Add(hn::Set(d, 1.0), e);
    V s = hn::Div(hn::IfNegativeThenElse(b, e, hn::Set(d, 1.0)), q);
    V ds = hn::Div(e, hn::Mul(q, q));
    s = hn::IfThenElse(hn::IsNaN(b), b, s);
    ds = hn::IfThenElse(hn::IsNaN(b), b, ds);
    *db = hn::Mul(dy, hn::Mul(a, ds));
    return hn::Mul(dy, s);
  }
};

// GluBackward: s = sigmoid(b); da = dy s, db = dy (a s (1 - s)). With e = exp(-|b|) and
// r = 1 / (1 + e), s is r or e r by b's sign and s (1 - s) = e r^2 whatever the sign, so
// 1 - s is never a subtraction (it keeps its relative accuracy for large b). a meets
// s (1 - s) <= 1/4 before dy does, so a product overflows only where the result does.
// b is clamped to +-104 for e (0 beyond: s (1 - s) is then below f32's range).
// Max error: 3 ULP (da), 5 ULP (db). NaN in any input -> NaN.
struct GluBackwardOp {
  using F64Form = GluBackwardF64Op;  // DOUBLE operands (ComputesDouble)
  static constexpr bool kReadsAct = false;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V a, V b, V* db) {
    const V one = hn::Set(d, 1.0f);
    const V na = hn::Max(hn::Or(b, hn::Set(d, -0.0f)), hn::Set(d, -104.0f));  // -|b|
    const V e = ExpNonPositive(d, na);
    const V r = hn::Div(one, hn::Add(one, e));
    const V er = hn::Mul(e, r);
    V s = hn::IfNegativeThenElse(b, er, r);
    V ds = hn::Mul(er, r);
    s = hn::IfThenElse(hn::IsNaN(b), b, s);
    ds = hn::IfThenElse(hn::IsNaN(b), b, ds);
    *db = hn::Mul(dy, hn::Mul(a, ds));
    return hn::Mul(dy, s);
  }
};

// SwiGluGrad: da = (dy silu'(a)) b (SiluBackwardOp: 5.4 ULP, within 2^-21.9 |dy| where
// silu' crosses 0), db = dy silu(a) (SiluOp). Max error: 6 ULP or 2^-21.9 |dy b| (da),
// 4 ULP (db).
struct SwiGluGradOp {
  static constexpr bool kReadsAct = false;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V a, V b, V* db) {
    *db = hn::Mul(dy, SiluOp::Apply(d, a));
    return hn::Mul(SiluBackwardOp::Apply(d, dy, a), b);
  }
};

// GeGluBackward (activateLeft false; true swaps the halves and the gradients in the
// front end's views): da = dy act (act the forward's outGelu, one rounding), db = (dy gelu'(b)) a,
// gelu' of the erf form (GeluErfBackwardOp: 2.8 ULP, 3.7 without a fused MulAdd) or the
// tanh form (GeluBackwardOp: a few ULP); either within 2^-21 |dy| where gelu' crosses 0.
// Max error: 0.5 ULP (da); about 3.3 ULP (erf; 4.2 without a fused MulAdd) or 6 ULP
// (tanh), or 2^-21 |dy a| near the zero of gelu', for db.
template <class GeluGrad>
struct GeGluBackwardOpT {
  static constexpr bool kReadsAct = true;
  template <class D, class V>
  static HWY_INLINE V Apply(D d, V dy, V a, V b, V act, V* db) {
    *db = hn::Mul(GeluGrad::Apply(d, dy, b), a);
    return hn::Mul(dy, act);
  }
};
using GeGluErfBackwardOp = GeGluBackwardOpT<GeluErfBackwardOp>;
using GeGluTanhBackwardOp = GeGluBackwardOpT<GeluBackwardOp>;
// The list's GeGluBackward and GeGluV3Backward, as GeGluForms.
template <class P>
struct GeGluBackwardForms : GeGluErfBackwardOp {
  using Params = P;
  using Form = GeGluErfBackwardOp;
  using Alt = GeGluTanhBackwardOp;
};
using GeGluBackwardOp = GeGluBackwardForms<GeGluParams>;
using GeGluV3BackwardOp = GeGluBackwardForms<GeGluV3Params>;

// SituGluGrad, the derivatives of SituGlu's out = a(g) up' with t = tanh(g / beta), s =
// sigmoid(g): d gate = dy up' s (sech^2(g / beta) + beta t (1 - s)), d up = dy beta t s
// up'', up'' = sech^2(up / linearBeta) where linearBeta > 0, else 1. sech^2 and 1 - s come
// without a subtraction (TanhF64, SigmoidF64); the sum in d gate cancels where the gate's
// gradient crosses 0 (g < 0), in double, so its error stays below 2^-28 of the f32 result
// for any f32 g. In f64 lanes as the forward: each f32 result within half an ULP plus
// that. The infinities give the formula's limits (g = +-inf: d gate 0); NaN in -> NaN.
struct SituGluGradOp {
  static constexpr bool kReadsAct = false;
  using Params = SituGluParams;
  template <class D>
  struct Bound : SituGluBound<D> {
    using SituGluBound<D>::SituGluBound;
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> dy, hn::Vec<D> up, hn::Vec<D> gate,
                                hn::Vec<D>* d_gate) const {
      const auto wide = [this](auto dw, auto* dg, auto dyw, auto u, auto g) {
        using VW = std::remove_pointer_t<decltype(dg)>;
        VW sech2, one_minus_s, slope;
        const VW beta_t =
            hn::Mul(hn::Set(dw, this->beta),
                    TanhF64(dw, hn::Mul(g, hn::Set(dw, this->inv_beta)), &sech2));
        const VW sig = SigmoidF64(dw, g, &one_minus_s);
        const VW up_prime = this->UpPrime(dw, u, &slope);
        const VW bracket = hn::MulAdd(beta_t, one_minus_s, sech2);
        *dg = hn::Mul(hn::Mul(hn::Mul(dyw, up_prime), sig), bracket);
        return hn::Mul(hn::Mul(dyw, hn::Mul(beta_t, sig)), slope);
      };
      return InF64Lanes(d, wide, d_gate, dy, up, gate);
    }
  };
};

// ClippedSwigluGrad, the derivatives of ClippedSwiglu's out = A s (B + bias), s =
// sigmoid(alpha A), A = min(a, limit), B = b clamped to [-limit, limit]: d a = dy (B + bias)
// s (1 + alpha A (1 - s)) where a <= limit, d b = dy A s where -limit <= b <= limit, and 0
// elsewhere: the masks compare the inputs as CANN's kernel does (a NaN input, or a NaN
// limit, gives a 0 where its mask stands; its clamp keeps a NaN, which reaches the other
// half's gradient). 1 - s without a subtraction (SigmoidF64); the bracket cancels where
// alpha A is near -1.28, in double, so its error stays far below f32's. In f64 lanes as the
// forward: each f32 result within half an ULP plus 2^-40 relative.
struct ClippedSwigluGradOp {
  static constexpr bool kReadsAct = false;
  using Params = ClippedSwigluParams;
  template <class D>
  struct Bound : ClippedSwigluBound<D> {
    using ClippedSwigluBound<D>::ClippedSwigluBound;
    // b the other half, a the gate: returns d b, sets d a.
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> dy, hn::Vec<D> b, hn::Vec<D> a,
                                hn::Vec<D>* d_a) const {
      const auto wide = [this](auto dw, auto* da, auto dyw, auto other, auto gate) {
        using VW = std::remove_pointer_t<decltype(da)>;
        const VW lim = hn::Set(dw, this->limit), neg_lim = hn::Neg(lim), zero = hn::Zero(dw);
        const auto keep_a = hn::Le(gate, lim);
        const auto keep_b = hn::And(hn::Le(other, lim), hn::Ge(other, neg_lim));
        const VW g = this->Gate(dw, gate);
        const VW o = this->Other(dw, other);
        const VW alpha = hn::Set(dw, this->alpha);
        VW one_minus_s;
        const VW s = SigmoidF64(dw, hn::Mul(alpha, g), &one_minus_s);
        const VW bracket = hn::MulAdd(hn::Mul(alpha, g), one_minus_s, hn::Set(dw, 1.0));
        *da = hn::IfThenElse(keep_a, hn::Mul(hn::Mul(hn::Mul(dyw, o), s), bracket), zero);
        return hn::IfThenElse(keep_b, hn::Mul(hn::Mul(dyw, g), s), zero);
      };
      return InF64Lanes(d, wide, d_a, dy, b, a);
    }
  };
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_GLU_OPS_INL_H_
