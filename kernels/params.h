// The operators' scalar parameters as typed structs, one per operator that has any (the
// list's Scalars column), as XNNPACK's per-operator params: the middle end fills one once
// per executor in phase 1 (InitParams) and every tile binds it to vectors once (BoundOp,
// kernels/tile-inl.h), so a functor reads p.negative_slope, never a position.
//
// Each struct's Init reads the values by their names in the list (ParamValues::Number):
// that is the one place a list name meets a field, and what CANN's op_api does to a value
// before the kernel sees it (Hardshrink's clamp, ThresholdBackward's flush to 0) happens
// there, once. ParamsOf<Op> says which struct an operator takes; a functor names the
// struct it reads (`using Params`), and the kernel units check the two agree at compile
// time (ParamsMatch). Plain C++: seen by the middle end and by every target's kernels.
//
// A parameter may also pick the kernel rather than feed it: a struct with a member
// `alt_form` chooses its functor's Alt when true (GeGlu's approximate 1, gelu's tanh form;
// PicksAltForm, read once by kernels::GetMap).
#ifndef HOSTNN_KERNELS_PARAMS_H_
#define HOSTNN_KERNELS_PARAMS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <new>
#include <type_traits>

#include "hostnn/op.h"

namespace hostnn {
namespace kernels {

// The values of one call's scalar parameters, found by their list names. numbers: f32, as
// the front end read them (CANN's ToFloat, or in self's dtype: ScalarConversion); exact: the
// same parameters' exact integer values (PromoteIntExact's integer path). Both in the
// list's order, kMaxScalars long.
class ParamValues {
 public:
  ParamValues(Op op, const float* numbers, const int64_t* exact)
      : op_(op), numbers_(numbers), exact_(exact) {}
  float Number(const char* name) const;
  bool Flag(const char* name) const { return Number(name) != 0.0f; }
  int64_t Exact(const char* name) const;
  // For the tests: whether every parameter the list gives the operator was read, and
  // whether a name the list does not give it was asked (read as 0).
  bool ReadAll() const;
  bool AskedUnlisted() const { return asked_unlisted_; }

 private:
  int Index(const char* name) const;  // -1 for a name the list does not give op_
  Op op_;
  const float* numbers_;
  const int64_t* exact_;
  mutable unsigned read_ = 0;  // bit k: the list's k-th parameter was read
  mutable bool asked_unlisted_ = false;
};

// An operator without parameters.
struct NoParams {
  static NoParams Init(const ParamValues& /*v*/) { return {}; }
};

// LeakyRelu, InplaceLeakyRelu: any slope, 0 and negative included (PyTorch's).
struct LeakyReluParams {
  float negative_slope;
  static LeakyReluParams Init(const ParamValues& v) { return {v.Number("negativeSlope")}; }
};
// LeakyReluBackward: self_is_result leaves the formula as it is (the front end refuses a
// negative slope with it).
struct LeakyReluBackwardParams {
  float negative_slope;
  bool self_is_result;
  static LeakyReluBackwardParams Init(const ParamValues& v) {
    return {v.Number("negativeSlope"), v.Flag("selfIsResult")};
  }
};
// Hardshrink and HardshrinkBackward: a negative lambd is 0, as CANN's op_api clamps it.
struct ShrinkLambdParams {
  float lambd;
  static ShrinkLambdParams Init(const ParamValues& v) {
    const float lambd = v.Number("lambd");
    return {lambd < 0.0f ? 0.0f : lambd};
  }
};
// Softshrink: lambd, never negative (the front end refuses it).
struct SoftshrinkParams {
  float lambd;
  static SoftshrinkParams Init(const ParamValues& v) { return {v.Number("lambd")}; }
};
// SoftshrinkBackward: HardshrinkBackward's functor, its parameter named lambda by CANN
// (never negative: the clamp changes nothing).
struct SoftshrinkBackwardParams : ShrinkLambdParams {
  static SoftshrinkBackwardParams Init(const ParamValues& v) {
    SoftshrinkBackwardParams p;
    p.lambd = v.Number("lambda");
    return p;
  }
};
// HardtanhBackward: the open interval (min, max) passes dy.
struct HardtanhBackwardParams {
  float min, max;
  static HardtanhBackwardParams Init(const ParamValues& v) {
    return {v.Number("min"), v.Number("max")};
  }
};
// Threshold, InplaceThreshold: both in self's dtype (ScalarConversion::kToSelfDType), so
// integral and within range for an integer self.
struct ThresholdParams {
  float threshold, value;
  static ThresholdParams Init(const ParamValues& v) {
    return {v.Number("threshold"), v.Number("value")};
  }
};
// ThresholdBackward: a threshold within FLT_EPSILON of 0 is 0, as CANN's op_api takes
// ReluGrad's path there. An integer self is compared as its FLOAT value, as CANN's kernels
// cast it: float(self) <= threshold exactly where self <= keep_above, the largest integer
// whose FLOAT value is at most the threshold (float rounding never decreases), so the
// integer path compares integers.
struct ThresholdBackwardParams {
  float threshold;
  int64_t keep_above;
  static ThresholdBackwardParams Init(const ParamValues& v) {
    const float t = v.Number("threshold");
    const float flushed = std::fabs(t) <= 1.1920929e-07f ? 0.0f : t;
    return {flushed, KeepAbove(flushed)};
  }
  // Past +-2^32 (beyond every INT32) the threshold keeps all or none; NaN keeps all.
  static int64_t KeepAbove(float t) {
    constexpr float kEdge = 4294967296.0f;
    if (!(t >= -kEdge)) return -(int64_t{1} << 33);  // -inf, NaN, far below: keep every one
    if (t >= kEdge) return int64_t{1} << 33;
    auto n = static_cast<int64_t>(std::floor(t));
    while (static_cast<float>(n + 1) <= t) ++n;  // FLOAT values that round down onto t
    return n;
  }
};
// AddRelu, InplaceAddRelu: alpha as f32, and exactly for the integer path.
struct AddReluParams {
  float alpha;
  int64_t alpha_exact;
  static AddReluParams Init(const ParamValues& v) {
    return {v.Number("alpha"), v.Exact("alpha")};
  }
};
// Shrink (ONNX's): lambd never negative (refused), bias any value.
struct ShrinkParams {
  float lambd, bias;
  static ShrinkParams Init(const ParamValues& v) { return {v.Number("lambd"), v.Number("bias")}; }
};
// Elu, InplaceElu.
struct EluParams {
  float alpha, scale, input_scale;
  static EluParams Init(const ParamValues& v) {
    return {v.Number("alpha"), v.Number("scale"), v.Number("inputScale")};
  }
};
// Celu, InplaceCelu: alpha never 0 or NaN (refused).
struct CeluParams {
  float alpha;
  static CeluParams Init(const ParamValues& v) { return {v.Number("alpha")}; }
};
// EluBackward: is_result says x is the forward's result, not its input.
struct EluBackwardParams {
  float alpha, scale, input_scale;
  bool is_result;
  static EluBackwardParams Init(const ParamValues& v) {
    return {v.Number("alpha"), v.Number("scale"), v.Number("inputScale"), v.Flag("isResult")};
  }
};
// Softplus and SoftplusBackward.
struct SoftplusParams {
  float beta, threshold;
  static SoftplusParams Init(const ParamValues& v) {
    return {v.Number("beta"), v.Number("threshold")};
  }
};
// Swish and SwishBackward: beta 1 where CANN's betaOptional is null (the list's default).
struct SwishParams {
  float beta;
  static SwishParams Init(const ParamValues& v) { return {v.Number("betaOptional")}; }
};

// GeGlu, GeGluBackward: approximate 1 picks gelu's tanh form (the functor's Alt).
struct GeGluParams {
  bool alt_form;
  static GeGluParams Init(const ParamValues& v) { return {v.Number("approximate") == 1.0f}; }
};
// GeGluV3, GeGluV3Backward: activate_left, the gate is the first half, is the front end's
// business (it hands the kernel the halves swapped); the kernel reads alt_form alone.
struct GeGluV3Params {
  bool alt_form;
  bool activate_left;
  static GeGluV3Params Init(const ParamValues& v) {
    return {v.Number("approximate") == 1.0f, v.Flag("activateLeft")};
  }
};
// GeluMul: approximateOptional "tanh" (its mode 1; "none" or a null pointer is 0) picks
// gelu's tanh form (the functor's Alt).
struct GeluMulParams {
  bool alt_form;
  static GeluMulParams Init(const ParamValues& v) {
    return {v.Number("approximateOptional") == 1.0f};
  }
};

// SituGlu, SituGluGrad: beta scales the gate's tanh, linearBeta the up half's (none where it
// is not above 0, NaN included), both as CANN's kernel reads them: f32. activateLeft, as
// GeGluV3's, is the front end's business (the halves it hands the kernel).
struct SituGluParams {
  float beta, linear_beta;
  bool activate_left;
  static SituGluParams Init(const ParamValues& v) {
    return {v.Number("beta"), v.Number("linearBeta"), v.Flag("activateLeft")};
  }
};

// ClippedSwiglu: alpha scales the gate's sigmoid, limit clamps both halves (the gate from
// above, the other to [-limit, limit]), bias is added to the clamped other half; as CANN's
// kernel reads them, f32. interleaved (the halves' pairing) is the front end's business.
struct ClippedSwigluParams {
  float alpha, limit, bias;
  bool interleaved;
  static ClippedSwigluParams Init(const ParamValues& v) {
    return {v.Number("alpha"), v.Number("limit"), v.Number("bias"), v.Flag("interleaved")};
  }
};

// RReluWithNoise, InplaceRReluWithNoise: the uniform's bounds (CANN's ToFloat), the mode,
// and the generator's key and first position (exact int64 values, taken as unsigned).
struct RReluNoiseParams {
  float lower, upper;
  bool training;
  uint64_t seed, offset;
  static RReluNoiseParams Init(const ParamValues& v) {
    return {v.Number("lower"), v.Number("upper"), v.Flag("training"),
            static_cast<uint64_t>(v.Exact("seed")), static_cast<uint64_t>(v.Exact("offset"))};
  }
};

// LayerNorm: eps as CANN's kernel takes it (an f32 attribute).
struct LayerNormParams {
  float eps;
  static LayerNormParams Init(const ParamValues& v) { return {v.Number("eps")}; }
};
// LayerNormWithImplMode: the same, and implMode (checked by the front end; every mode is
// computed alike).
struct LayerNormImplModeParams {
  float eps;
  int64_t impl_mode;
  static LayerNormImplModeParams Init(const ParamValues& v) {
    return {v.Number("eps"), v.Exact("implMode")};
  }
};

// RmsNorm, AddRmsNorm, InplaceAddRmsNorm: epsilon as CANN's kernel takes it (an f32
// attribute).
struct RmsNormParams {
  float eps;
  static RmsNormParams Init(const ParamValues& v) { return {v.Number("epsilon")}; }
};

// AddLayerNorm: epsilon as CANN's kernel takes it (an f32 attribute); additionalOutput
// (whether xOut is written) is the front end's business (the results it hands the executor).
struct AddLayerNormParams {
  float eps;
  bool additional_output;
  static AddLayerNormParams Init(const ParamValues& v) {
    return {v.Number("epsilon"), v.Flag("additionalOutput")};
  }
};

// GroupNorm: the groups and eps as CANN's kernel takes it (an f32 attribute); N, C and HxW
// describe self, which the front end checks, and the plan's rows carry them.
struct GroupNormParams {
  int64_t group;
  float eps;
  static GroupNormParams Init(const ParamValues& v) {
    (void)v.Exact("N"), (void)v.Exact("C"), (void)v.Exact("HxW");
    return {v.Exact("group"), v.Number("eps")};
  }
};

// GroupNormBackward: the groups (N, C and HxW describe the tensors, which the front end
// checks).
struct GroupNormBackwardParams {
  int64_t group;
  static GroupNormBackwardParams Init(const ParamValues& v) {
    (void)v.Exact("N"), (void)v.Exact("C"), (void)v.Exact("HxW");
    return {v.Exact("group")};
  }
};

// BatchNorm: training or inference, momentum and eps as CANN's kernel takes them (f32
// attributes).
struct BatchNormParams {
  bool training;
  float momentum, eps;
  static BatchNormParams Init(const ParamValues& v) {
    return {v.Flag("training"), v.Number("momentum"), v.Number("eps")};
  }
};
// BatchNormBackward: training or inference, and eps (an f32 attribute).
struct BatchNormBackwardParams {
  bool training;
  float eps;
  static BatchNormBackwardParams Init(const ParamValues& v) {
    return {v.Flag("training"), v.Number("eps")};
  }
};

// EmbeddingDenseBackward: out's rows (numWeights, which the front end checks against out's
// shape), the row left 0 (CANN's uint64_t paddingIdx as int64_t: a negative one, or one past
// the rows, pads nothing) and whether each row is divided by the count of indices naming it.
struct EmbeddingDenseBackwardParams {
  int64_t num_weights, padding_idx;
  bool scale_grad_by_freq;
  static EmbeddingDenseBackwardParams Init(const ParamValues& v) {
    return {v.Exact("numWeights"), v.Exact("paddingIdx"), v.Flag("scaleGradByFreq")};
  }
};

// A loss's reduction: 0 none, 1 mean, 2 sum (the front end refuses any other value).
struct LossParams {
  int64_t reduction;
  static LossParams Init(const ParamValues& v) { return {v.Exact("reduction")}; }
};

// A class loss's reduction (0 none, 1 mean, 2 sum) and the target that reads no class.
struct ClassLossParams {
  int64_t reduction, ignore_index;
  static ClassLossParams Init(const ParamValues& v) {
    return {v.Exact("reduction"), v.Exact("ignoreIndex")};
  }
};

// CrossEntropyLossGrad's: the reduction (0 none, 1 mean, 2 sum: its string's mode), the
// target that reads no class and the label smoothing (CANN's f32 attribute). zloss's
// lse_square_scale is taken and does not act: CANN's zloss is not supported (its documents:
// the value "does not take effect").
struct SoftmaxLossParams {
  int64_t reduction, ignore_index;
  float label_smoothing, lse_square_scale;
  static SoftmaxLossParams Init(const ParamValues& v) {
    return {v.Exact("reductionOptional"), v.Exact("ignoreIndex"), v.Number("labelSmoothing"),
            v.Number("lseSquareScaleForZloss")};
  }
};
// CrossEntropyLoss's: the same, and return_zloss, which does not act either.
struct CrossEntropyLossParams {
  SoftmaxLossParams common;
  bool return_zloss;
  static CrossEntropyLossParams Init(const ParamValues& v) {
    return {SoftmaxLossParams::Init(v), v.Flag("returnZloss")};
  }
};

// Which struct each operator takes: NoParams unless a line below says otherwise.
template <Op kOp>
struct ParamsOf {
  using type = NoParams;
};
#define HOSTNN_PARAMS_OF(Name, Struct) \
  template <>                          \
  struct ParamsOf<Op::k##Name> {       \
    using type = Struct;               \
  };
HOSTNN_PARAMS_OF(LeakyRelu, LeakyReluParams)
HOSTNN_PARAMS_OF(InplaceLeakyRelu, LeakyReluParams)
HOSTNN_PARAMS_OF(LeakyReluBackward, LeakyReluBackwardParams)
HOSTNN_PARAMS_OF(RReluWithNoise, RReluNoiseParams)
HOSTNN_PARAMS_OF(InplaceRReluWithNoise, RReluNoiseParams)
HOSTNN_PARAMS_OF(LayerNorm, LayerNormParams)
HOSTNN_PARAMS_OF(LayerNormWithImplMode, LayerNormImplModeParams)
HOSTNN_PARAMS_OF(RmsNorm, RmsNormParams)
HOSTNN_PARAMS_OF(AddRmsNorm, RmsNormParams)
HOSTNN_PARAMS_OF(InplaceAddRmsNorm, RmsNormParams)
HOSTNN_PARAMS_OF(AddLayerNorm, AddLayerNormParams)
HOSTNN_PARAMS_OF(GroupNorm, GroupNormParams)
HOSTNN_PARAMS_OF(GroupNormBackward, GroupNormBackwardParams)
HOSTNN_PARAMS_OF(BatchNorm, BatchNormParams)
HOSTNN_PARAMS_OF(BatchNormBackward, BatchNormBackwardParams)
HOSTNN_PARAMS_OF(EmbeddingDenseBackward, EmbeddingDenseBackwardParams)
HOSTNN_PARAMS_OF(MseLoss, LossParams)
HOSTNN_PARAMS_OF(MseLossOut, LossParams)
HOSTNN_PARAMS_OF(MseLossBackward, LossParams)
HOSTNN_PARAMS_OF(BinaryCrossEntropyWithLogits, LossParams)
HOSTNN_PARAMS_OF(BinaryCrossEntropyWithLogitsBackward, LossParams)
HOSTNN_PARAMS_OF(BinaryCrossEntropyWithLogitsTargetBackward, LossParams)
HOSTNN_PARAMS_OF(NLLLoss, ClassLossParams)
HOSTNN_PARAMS_OF(NLLLossBackward, ClassLossParams)
HOSTNN_PARAMS_OF(NLLLoss2d, ClassLossParams)
HOSTNN_PARAMS_OF(NLLLoss2dBackward, ClassLossParams)
HOSTNN_PARAMS_OF(CrossEntropyLoss, CrossEntropyLossParams)
HOSTNN_PARAMS_OF(CrossEntropyLossGrad, SoftmaxLossParams)
HOSTNN_PARAMS_OF(Hardshrink, ShrinkLambdParams)
HOSTNN_PARAMS_OF(HardshrinkBackward, ShrinkLambdParams)
HOSTNN_PARAMS_OF(Softshrink, SoftshrinkParams)
HOSTNN_PARAMS_OF(SoftshrinkBackward, SoftshrinkBackwardParams)
HOSTNN_PARAMS_OF(HardtanhBackward, HardtanhBackwardParams)
HOSTNN_PARAMS_OF(Threshold, ThresholdParams)
HOSTNN_PARAMS_OF(InplaceThreshold, ThresholdParams)
HOSTNN_PARAMS_OF(ThresholdBackward, ThresholdBackwardParams)
HOSTNN_PARAMS_OF(AddRelu, AddReluParams)
HOSTNN_PARAMS_OF(InplaceAddRelu, AddReluParams)
HOSTNN_PARAMS_OF(Shrink, ShrinkParams)
HOSTNN_PARAMS_OF(Elu, EluParams)
HOSTNN_PARAMS_OF(InplaceElu, EluParams)
HOSTNN_PARAMS_OF(Celu, CeluParams)
HOSTNN_PARAMS_OF(InplaceCelu, CeluParams)
HOSTNN_PARAMS_OF(EluBackward, EluBackwardParams)
HOSTNN_PARAMS_OF(Softplus, SoftplusParams)
HOSTNN_PARAMS_OF(SoftplusBackward, SoftplusParams)
HOSTNN_PARAMS_OF(Swish, SwishParams)
HOSTNN_PARAMS_OF(SwishBackward, SwishParams)
HOSTNN_PARAMS_OF(GeGlu, GeGluParams)
HOSTNN_PARAMS_OF(GeGluBackward, GeGluParams)
HOSTNN_PARAMS_OF(GeGluV3, GeGluV3Params)
HOSTNN_PARAMS_OF(GeGluV3Backward, GeGluV3Params)
HOSTNN_PARAMS_OF(GeluMul, GeluMulParams)
HOSTNN_PARAMS_OF(SituGlu, SituGluParams)
HOSTNN_PARAMS_OF(SituGluGrad, SituGluParams)
HOSTNN_PARAMS_OF(ClippedSwiglu, ClippedSwigluParams)
HOSTNN_PARAMS_OF(ClippedSwigluGrad, ClippedSwigluParams)
#undef HOSTNN_PARAMS_OF

// One operator's filled struct, as the executor keeps it and hands it to every tile (the
// kernels' one parameter argument, whatever the operator).
constexpr size_t kMaxParamsBytes = 32;
struct OpParams {
  alignas(8) unsigned char bytes[kMaxParamsBytes] = {};
  template <class P>
  const P& As() const {
    return *std::launder(reinterpret_cast<const P*>(bytes));
  }
};

template <class P>
OpParams MakeParams(const ParamValues& v) {
  static_assert(std::is_trivially_copyable_v<P> && sizeof(P) <= kMaxParamsBytes &&
                    alignof(P) <= alignof(OpParams),
                "a params struct is a few plain values");
  OpParams p;
  new (p.bytes) P(P::Init(v));
  return p;
}

// The struct of `op` filled from v (phase 1, once per executor).
OpParams InitParams(Op op, const ParamValues& v);
// Whether p, op's filled struct, picks the Alt form of op's functor (its alt_form; false for
// a struct without one).
bool PicksAltForm(Op op, const OpParams& p);

// Whether a functor reads the struct its operator takes: one that declares `using Params`
// reads that struct (or a base of it); one that does not takes NoParams.
template <class F, class = void>
struct FunctorParams {
  using type = NoParams;
};
template <class F>
struct FunctorParams<F, std::void_t<typename F::Params>> {
  using type = typename F::Params;
};
template <Op kOp, class F>
constexpr bool ParamsMatch() {
  using Listed = typename ParamsOf<kOp>::type;
  using Read = typename FunctorParams<F>::type;
  return std::is_same_v<Listed, Read> ||
         (std::is_base_of_v<Read, Listed> && sizeof(Read) == sizeof(Listed));
}

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_PARAMS_H_
