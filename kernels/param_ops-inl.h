// The functors of the operators with scalar parameters (op_list.def's Scalars column): each
// names its parameters' struct (`using Params`, kernels/params.h) and declares
// `template <class D> struct Bound`, built once per tile from it (Bound(d, p): the values
// set into vectors there, never per element) and applied as Bound::Apply(d, x) for a
// forward operator or Apply(d, dy, x) for a gradient (kernels/tile-inl.h, BoundOp). All
// lanes f32. Each documents its formula, max error against the exact (double) result of
// the same f32 inputs and parameters, and its range.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_PARAM_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_PARAM_OPS_INL_H_
#undef HOSTNN_KERNELS_PARAM_OPS_INL_H_
#else
#define HOSTNN_KERNELS_PARAM_OPS_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "kernels/int_lanes-inl.h"
#include "kernels/params.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// LeakyRelu: x for x > 0, negativeSlope * x otherwise (any slope, 0 and negative
// included, as PyTorch's leaky_relu). -0 gives -0 * slope; NaN stays
// NaN (NaN * slope).
// Lanes: f32. Max error: 0.5 ULP (one product). Valid range: all floats; +inf -> +inf,
// -inf -> -inf * slope (NaN for a slope of 0, as PyTorch).
struct LeakyReluOp {
  using Params = LeakyReluParams;
  using F64Form = LeakyReluOp;  // a DOUBLE self: the same selection in f64 lanes
  template <class D>
  struct Bound {
    hn::Vec<D> slope;
    Bound(D d, const Params& p) : slope(hn::Set(d, p.negative_slope)) {}
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> x) const {
      return hn::IfThenElse(hn::Gt(x, hn::Zero(d)), x, hn::Mul(x, slope));
    }
  };
};
// InplaceLeakyRelu computes what LeakyRelu computes.
using InplaceLeakyReluOp = LeakyReluOp;

// LeakyReluBackward: dx = dy where x > 0, dy * negativeSlope otherwise (selfIsResult
// leaves the formula as it is: a result has x's sign for
// any negativeSlope >= 0, and the front end refuses a negative one with it). A NaN x gives
// NaN (SPEC: NaN in, NaN out; PyTorch's leaky_relu_backward takes the second branch).
// Lanes: f32. Max error: 0.5 ULP. Valid range: all floats.
struct LeakyReluBackwardOp {
  using Params = LeakyReluBackwardParams;
  using F64Form = LeakyReluBackwardOp;  // DOUBLE inputs: the same selection in f64 lanes
  template <class D>
  struct Bound {
    hn::Vec<D> slope;
    Bound(D d, const Params& p) : slope(hn::Set(d, p.negative_slope)) {}
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> dy, hn::Vec<D> x) const {
      const hn::Vec<D> dx = hn::IfThenElse(hn::Gt(x, hn::Zero(d)), dy, hn::Mul(dy, slope));
      return hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
  };
};

// Hardshrink: x outside [-lambd, lambd], else 0 (a negative lambd is 0, as CANN's op_api
// clamps it: ShrinkLambdParams). NaN stays NaN (it is in no interval).
// Lanes: f32. Exact (a selection). Valid range: all floats.
struct HardshrinkOp {
  using Params = ShrinkLambdParams;
  template <class D>
  struct Bound {
    hn::Vec<D> lambd;
    Bound(D d, const Params& p) : lambd(hn::Set(d, p.lambd)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> x) const {
      return hn::IfThenZeroElse(hn::And(hn::Ge(x, hn::Neg(lambd)), hn::Le(x, lambd)), x);
    }
  };
};

// Softshrink: x - lambd above lambd, x + lambd below -lambd, 0 between (lambd never
// negative: the front end refuses it). NaN stays NaN.
// Lanes: f32. Max error: 0.5 ULP (one sum). Valid range: all floats; +-inf -> +-inf.
struct SoftshrinkOp {
  using Params = SoftshrinkParams;
  template <class D>
  struct Bound {
    hn::Vec<D> lambd;
    Bound(D d, const Params& p) : lambd(hn::Set(d, p.lambd)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> x) const {
      const hn::Vec<D> below = hn::IfThenElseZero(hn::Lt(x, hn::Neg(lambd)), hn::Add(x, lambd));
      const hn::Vec<D> out = hn::IfThenElse(hn::Gt(x, lambd), hn::Sub(x, lambd), below);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
};

// The shrinks' gradient: 0 for x in [-lambd, lambd], dy elsewhere (a negative lambd is 0,
// as CANN's op_api clamps HardshrinkBackward's: ShrinkLambdParams), as PyTorch's
// hardshrink_backward and softshrink_backward. NaN in either input gives NaN
// (SPEC), a NaN dy inside the interval included.
// Lanes: f32. Exact (a selection). Valid range: all floats.
struct ShrinkBackwardOp {
  using Params = ShrinkLambdParams;
  template <class D>
  struct Bound {
    hn::Vec<D> lambd;
    Bound(D d, const Params& p) : lambd(hn::Set(d, p.lambd)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> dy, hn::Vec<D> x) const {
      const auto inside = hn::And(hn::Ge(x, hn::Neg(lambd)), hn::Le(x, lambd));
      const hn::Vec<D> dx = hn::IfThenZeroElse(hn::AndNot(hn::IsNaN(dy), inside), dy);
      return hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
  };
};
using HardshrinkBackwardOp = ShrinkBackwardOp;
// SoftshrinkBackward computes what HardshrinkBackward computes (its lambd is never negative).
using SoftshrinkBackwardOp = ShrinkBackwardOp;

// HardtanhBackward: dy for min < x < max, 0 elsewhere, as CANN's kernel golden and
// PyTorch's hardtanh_backward (the ends give 0). A min above max gives 0 everywhere. NaN
// in either input gives NaN (SPEC), outside the interval too.
// Lanes: f32. Exact (a selection). Valid range: all floats.
struct HardtanhBackwardOp {
  using Params = HardtanhBackwardParams;
  template <class D>
  struct Bound {
    hn::Vec<D> lo, hi;
    Bound(D d, const Params& p) : lo(hn::Set(d, p.min)), hi(hn::Set(d, p.max)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> dy, hn::Vec<D> x) const {
      const auto outside = hn::Or(hn::Le(x, lo), hn::Ge(x, hi));
      const hn::Vec<D> dx = hn::IfThenZeroElse(hn::AndNot(hn::IsNaN(dy), outside), dy);
      return hn::IfThenElse(hn::IsNaN(x), x, dx);
    }
  };
};

// Threshold: x where x > threshold, else value (both converted to self's dtype by the
// front end, as CANN's op_api converts them: ScalarConversion). NaN x
// stays NaN (SPEC; CANN's and PyTorch's x > threshold would give value).
// Lanes: f32, or the integer's own (BoundInt: INT8, UINT8, INT32, INT64, exact). Exact.
// Valid range: all values.
struct ThresholdOp {
  using Params = ThresholdParams;
  template <class D>
  struct Bound {
    hn::Vec<D> threshold, value;
    Bound(D d, const Params& p) : threshold(hn::Set(d, p.threshold)), value(hn::Set(d, p.value)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> x) const {
      const hn::Vec<D> out = hn::IfThenElse(hn::Gt(x, threshold), x, value);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
  template <class D>
  struct BoundInt {
    using T = hn::TFromD<D>;
    hn::Vec<D> threshold, value;
    // The values are integral and within T's range (the front end saturates them); the
    // ends of INT32 and INT64 round up to 2^31 and 2^63 in f32, and are taken as T's max.
    static T Integral(float v) {
      const float top = static_cast<float>(std::numeric_limits<T>::max());
      return v >= top ? std::numeric_limits<T>::max() : static_cast<T>(v);
    }
    BoundInt(D d, const Params& p)
        : threshold(hn::Set(d, Integral(p.threshold))), value(hn::Set(d, Integral(p.value))) {}
    HWY_INLINE hn::Vec<D> ApplyInt(D /*d*/, hn::Vec<D> x) const {
      return hn::IfThenElse(hn::Gt(x, threshold), x, value);
    }
  };
};
// InplaceThreshold computes what Threshold computes.
using InplaceThresholdOp = ThresholdOp;

// ThresholdBackward: dy where x > threshold, else 0 (threshold as f32; one within
// FLT_EPSILON of 0 is 0, as CANN's op_api takes ReluGrad's path there:
// ThresholdBackwardParams). NaN in either
// input gives NaN (SPEC; PyTorch passes dy for a NaN x).
// Lanes: f32. Exact (a selection). Valid range: all floats.
//
// The integer form (rule AllSameOrSelectInt; kernels/integer_tiles.cc): INT32, INT8 or
// UINT8 widened to int64 lanes, dy where x > keep_above (x's FLOAT value above the
// threshold), else 0. Exact: dy's value, every bit of it.
struct ThresholdBackwardOp {
  using Params = ThresholdBackwardParams;
  template <class D>
  struct Bound {
    hn::Vec<D> threshold;
    Bound(D d, const Params& p) : threshold(hn::Set(d, p.threshold)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> dy, hn::Vec<D> x) const {
      const hn::Vec<D> dx = hn::IfThenElseZero(hn::Gt(x, threshold), dy);
      return hn::IfThenElse(hn::IsNaN(x), x, hn::IfThenElse(hn::IsNaN(dy), dy, dx));
    }
  };
  template <class D>
  struct BoundPromotedInt {
    hn::Vec<hn::RebindToSigned<D>> keep_above;
    BoundPromotedInt(D /*d*/, const Params& p, const WrapToWidth<D>& /*w*/)
        : keep_above(hn::Set(hn::RebindToSigned<D>(), p.keep_above)) {}
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> dy, hn::Vec<D> x) const {
      const hn::RebindToSigned<D> di;
      return hn::IfThenElseZero(hn::RebindMask(d, hn::Gt(hn::BitCast(di, x), keep_above)), dy);
    }
  };
};

// AddRelu: relu(self + alpha * other), in one fused multiply-add where
// the target has one (0.5 ULP), two roundings elsewhere (within 2^-24 |alpha other| of
// it where the sum cancels). relu as Relu's: -0 and below give +0, NaN stays NaN.
// Lanes: f32. Valid range: all floats; inf - inf gives NaN.
//
// The integer form (rule PromoteIntExact; kernels/integer_tiles.cc): self + alpha * other
// in the promoted integer dtype, wrapping (uint64 lanes, then wrapped to its width), then
// relu. A UINT8 promotion's values are never negative, so its relu, which CANN skips,
// changes nothing. Exact.
struct AddReluOp {
  using Params = AddReluParams;
  template <class D>
  struct Bound {
    hn::Vec<D> alpha;
    Bound(D d, const Params& p) : alpha(hn::Set(d, p.alpha)) {}
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> self, hn::Vec<D> other) const {
      const hn::Vec<D> sum = hn::MulAdd(other, alpha, self);
      return hn::IfThenZeroElse(hn::Le(sum, hn::Zero(d)), sum);
    }
  };
  template <class D>
  struct BoundPromotedInt {
    hn::Vec<D> alpha;
    WrapToWidth<D> wrap;
    BoundPromotedInt(D d, const Params& p, const WrapToWidth<D>& w)
        : alpha(hn::Set(d, static_cast<uint64_t>(p.alpha_exact))), wrap(w) {}
    HWY_INLINE hn::Vec<D> Apply(D d, hn::Vec<D> self, hn::Vec<D> other) const {
      return ReluSigned(d, wrap(hn::Add(self, MulWrap64(d, other, alpha))));
    }
  };
};
// InplaceAddRelu computes what AddRelu computes.
using InplaceAddReluOp = AddReluOp;

// Shrink (ONNX's): x - bias above lambd, x + bias below -lambd, 0 between (lambd never
// negative: the front end refuses it; bias any value). NaN stays NaN (SPEC; CANN's
// kernel gives 0).
// Lanes: f32. Max error: 0.5 ULP (one sum). Valid range: all floats.
struct ShrinkOp {
  using Params = ShrinkParams;
  template <class D>
  struct Bound {
    hn::Vec<D> lambd, bias;
    Bound(D d, const Params& p) : lambd(hn::Set(d, p.lambd)), bias(hn::Set(d, p.bias)) {}
    HWY_INLINE hn::Vec<D> Apply(D /*d*/, hn::Vec<D> x) const {
      const hn::Vec<D> below = hn::IfThenElseZero(hn::Lt(x, hn::Neg(lambd)), hn::Add(x, bias));
      const hn::Vec<D> out = hn::IfThenElse(hn::Gt(x, lambd), hn::Sub(x, bias), below);
      return hn::IfThenElse(hn::IsNaN(x), x, out);
    }
  };
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_PARAM_OPS_INL_H_
