// One vector functor per gated linear unit, built on the elementwise operators' functors
// (SigmoidOp, SiluOp, the Gelu forms and their gradients), all lanes f32: a and b are the
// two halves of self along the split dim, and each functor has the Map's form
// (kernels/map_tile-inl.h): a forward's Apply(d, a, b) returns out, GeGlu's
// Apply(d, a, b, &act) also sets act to the gate's activation (its outGelu; kHasAct),
// FatreluMul's Apply(d, a, b, t) reads a third input (kIn = 3); a
// gradient's Apply(d, dy, a, b, &db) returns da and sets db, GeGlu's
// Apply(d, dy, a, b, act, &db) also reads the forward's outGelu (kReadsAct). Each output
// element takes the functor it is built on plus one or two products, each rounded once;
// 16-bit storage runs the same f32 functor and rounds its result once (SPEC 4).
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_GLU_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_GLU_OPS_INL_H_
#undef HOSTNN_KERNELS_GLU_OPS_INL_H_
#else
#define HOSTNN_KERNELS_GLU_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include "kernels/eltwise_ops-inl.h"
#include "kernels/family_grad_ops-inl.h"
#include "kernels/params.h"
#include "kernels/unary_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// Glu: out = a * sigmoid(b) (SigmoidOp, 2.4 ULP, then the product). Max error 2.9 ULP.
// NaN in either half -> NaN; a = +-inf with b = -inf is inf * 0 = NaN, as the formula.
struct GluOp {
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
// MulAdd, 2.4 without) or the tanh form (GeluOp, 5.2 ULP at subnormal results, a few
// elsewhere). activateLeft swaps the halves before the kernel (the front end's views,
// src/aclnn/split_front_end.cc), so one functor serves both.
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

// GluBackward: s = sigmoid(b); da = dy s, db = dy (a s (1 - s)). With e = exp(-|b|) and
// r = 1 / (1 + e), s is r or e r by b's sign and s (1 - s) = e r^2 whatever the sign, so
// 1 - s is never a subtraction (it keeps its relative accuracy for large b). a meets
// s (1 - s) <= 1/4 before dy does, so a product overflows only where the result does.
// b is clamped to +-104 for e (0 beyond: s (1 - s) is then below f32's range).
// Max error: 3 ULP (da), 5 ULP (db). NaN in any input -> NaN.
struct GluBackwardOp {
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

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_GLU_OPS_INL_H_
