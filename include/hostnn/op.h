// The operators, from the operator list (hostnn/op_list.def): the Op enum and a constexpr
// table of what the rest of the library needs to know of each. Tiling, the front end, the
// kernels, the tests and the tools all read it here, so an operator is declared once.
#ifndef HOSTNN_OP_H_
#define HOSTNN_OP_H_

#include <string>

#include "hostnn/dtype.h"
#include "hostnn/tensor.h"

namespace hostnn {

enum class Op : int {
#define HOSTNN_OP(Name, ...) k##Name,
#include "hostnn/op_list.def"
#undef HOSTNN_OP
};

constexpr int kNumOps = 0
#define HOSTNN_OP(Name, ...) +1
#include "hostnn/op_list.def"
#undef HOSTNN_OP
    ;

// The shape of an operator's phase-1 parameter list (op_list.def, "Signature").
enum class Signature {
  kGradEltwise,            // (in0, in1, out): out = f(in0, in1) elementwise
  kGradEltwiseConstOut,    // the same, declared as CANN's const aclTensor* out (GeluBackward)
  kGradEltwiseBuffer,      // (in0, in1, in2, out): the same; in2 is checked and never read
  kGradSoftmax,            // (in0, in1, dim, out): a reduction along dim
  kEltwise,                // (in0, out): out = f(in0) elementwise
  kEltwiseConstOut,        // the same, declared as CANN's const aclTensor* out (Relu, ...)
  kEltwiseBuffer,          // (in0, out, buffer): the same; buffer is neither checked nor written
  kInplaceEltwise,         // (in0): in0 = f(in0) elementwise, in place
  kInplaceEltwiseRef,      // the same, declared as CANN's aclTensor* selfRef (not const)
  kSoftmax,                // (in0, dim, out): a reduction along dim
  kEltwiseScalar,          // (in0, s0, out): out = f(in0; s0) elementwise, s0 an aclScalar
  kInplaceEltwiseScalar,   // (in0, s0): the same in place, CANN's aclTensor* selfRef
  kGradEltwiseScalarFlag,  // (in0, in1, s0, f0, out): out = f(in0, in1; s0, f0), f0 a bool
  kGradEltwiseScalar,      // (in0, in1, s0, out): out = f(in0, in1; s0)
  kGradEltwiseScalar2,     // (in0, in1, s0, s1, out): out = f(in0, in1; s0, s1)
  kEltwiseScalar2,         // (in0, s0, s1, out): out = f(in0; s0, s1)
  kInplaceEltwiseScalar2,  // (in0, s0, s1): the same in place (aclTensor* selfRef)
  kEltwiseScalar3,         // (in0, s0, s1, s2, out): out = f(in0; s0, s1, s2)
  kInplaceEltwiseScalar3,  // (in0, s0, s1, s2): the same in place (aclTensor* selfRef)
  kGradEltwiseScalarsBetween,  // (in0, s0, s1, s2, f0, in1, out): out = f(in0, in1; s0, s1,
                               // s2, f0), the parameters between the two inputs (EluBackward)
  kBinaryScalar,               // (in0, in1, s0, out): out = f(in0, in1; s0), CANN's aclScalar* s0
  kInplaceBinaryScalar,        // (in0, in1, s0): in0 = f(in0, in1; s0) (aclTensor* selfRef)
  // The gated linear units: in0 (self) split along dim into halves a (first) and b.
  kSplit,                 // (in0, dim, out): out = f(a, b), half of in0's shape (const out)
  kGradSplit,             // (in0, in1, dim, out): out = the gradient of in1 (self) from in0 (the
                          // forward's gradient, half shape): both halves, in1's shape (const out)
  kSplitGelu,             // (in0, dim, i0, out, out1): out = f(a, b) and out1 = the gate's gelu,
                          // i0 an int64_t attribute (GeGlu's approximate)
  kSplitGeluFlag,         // (in0, dim, i0, f0, out, out1): the same with a bool flag (activateLeft)
  kGradSplitGelu,         // (in0, in1, in2, dim, i0, out): GeGlu's gradient, in2 the forward's gelu
  kGradSplitGeluFlag,     // (in0, in1, in2, dim, i0, f0, out): the same with the flag
  kSplitLastString,       // (in0, c0, out): in0 split along its last dim (no dim parameter),
                          // c0 a char* attribute (GeluMul's approximateOptional); out half in0's
                          // shape (const out)
  kSplitDoublesFlag,      // (in0, dim, d0, d1, f0, out): d0, d1 double attributes, f0 a bool
                          // (SituGlu's beta, linearBeta, activateLeft; const out)
  kGradSplitDoublesFlag,  // (in0, in1, dim, d0, d1, f0, out): its gradient (const out)
  kSplitGroupDoublesFlag,      // (in0, in1, dim, d0, d1, d2, f0, out): in1 an optional tensor
                               // (ClippedSwiglu's groupIndexOptional), d0-d2 double attributes
  kGradSplitGroupDoublesFlag,  // (in0, in1, in2, dim, d0, d1, d2, f0, out): its gradient, in2
                               // the optional tensor (const out)
  kGradEltwise2Out,            // (in0, in1, in2, out, out1): two outputs, out elementwise and
                               // out1 reduced per channel (PreluBackward: OpArgs::out[1])
  kEltwiseNoise,               // (in0, in1, s0, s1, f0, i0, i1, out): out = f(in0; s0, s1, f0)
                               // with in1 written too (RReluWithNoise: noise, lower, upper,
                               // training, seed, offset)
  kInplaceEltwiseNoise,        // (in0, in1, s0, s1, f0, i0, i1): the same in place (CANN
                               // declares in0 const: const aclTensor* self)
  kLayerNorm,                  // (in0, ia0, in1, in2, d0, out, out1, out2): ia0 an aclIntArray
                               // (normalizedShape), in1 and in2 optional, d0 a double (eps),
                               // out1 and out2 optional statistics outputs
  kLayerNormImplMode,          // the same and an int32_t i0 (implMode)
  kRmsNorm,                    // (in0, in1, d0, out, out1): in1 the weight, d0 a double
                               // (epsilon), out1 a statistics output
  kRmsNormGrad,                // (in0, in1, in2, in3, out, out1): four inputs (dy, x, rstd,
                               // gamma), two outputs (every tensor const, as CANN declares)
  kLayerNormBackward,          // (in0, in1, ia0, in2, in3, in4, in5, ba0, out, out1, out2): an
                               // aclIntArray (normalizedShape) after in1, an aclBoolArray ba0
                               // (outputMask) after in5; in4, in5 optional
  kAddRmsNorm,                 // (in0, in1, in2, d0, out, out1, out2): x1, x2 and the weight,
                               // d0 a double (epsilon); out1 a statistics output and out2 a
                               // second result of in0's shape (x1 + x2), both nullable
  kInplaceAddRmsNorm,          // (in0, in1, in2, d0, out1): the same in place, in0 taking out
                               // and in1 out2 (CANN's x1Ref and x2Ref)
  kAddLayerNorm,               // (in0, in1, in2, in3, in4, d0, f0, out, out1, out2, out3): x1,
                               // x2, gamma, beta and a nullable bias (in4), d0 a double
                               // (epsilon), f0 a bool (additionalOutput); y, two statistics
                               // outputs and a second result of in0's shape (x), all required
  kAddLayerNormGrad,           // (in0, in1, in2, in3, in4, in5, in6, out, out1, out2): dy, x1,
                               // x2, rstd, mean, gamma and a nullable dsum (in6); dx and two
                               // column sums (every tensor const, as CANN declares)
  kGroupNorm,                  // (in0, in1, in2, i0, i1, i2, i3, d0, out, out1, out2): in1, in2
                               // optional; int64_t N, C, HxW, group and a double eps
  kGroupNormBackward,          // (in0, in1, in2, in3, in4, i0, i1, i2, i3, ba0, out, out1, out2):
                               // in4 optional, int64_t N, C, HxW, group, an aclBoolArray
                               // (outputMask) picking the outputs
  kBatchNorm,                  // (in0, in1, in2, in3, in4, f0, d0, d1, out, out1, out2): in1 to
                               // in4 optional (in3, in4 written back in training), a bool
                               // (training), doubles momentum and eps; out1, out2 optional in
                               // inference
  kBatchNormBackward,          // (in0 .. in6, f0, d0, ba0, out, out1, out2): in2 to in6 optional,
                               // a bool (training), a double (eps), an aclBoolArray (outputMask)
                               // picking the outputs
  kEmbeddingDenseBackward,     // (in0, in1, i0, i1, f0, out): uint64_t numWeights and
                               // paddingIdx (carried as int64_t), a bool (scaleGradByFreq)
  kLoss,                       // (in0, in1, i0, out): an int64_t reduction (MseLoss)
  kGradLoss,                   // (in0, in1, in2, i0, out): the same for a loss's gradient,
                               // in0 the forward's gradient (MseLossBackward)
  kWeightedLoss,               // (in0, in1, in2, in3, i0, out): a loss with two optional
                               // weights, in2 and in3 (BinaryCrossEntropyWithLogits)
  kGradWeightedLoss,           // (in0 .. in4, i0, out): its gradients, in0 the forward's
                               // gradient, in3 and in4 optional
  kClassLoss,                  // (in0, in1, in2, i0, i1, out, out1): int64_t reduction and
                               // ignoreIndex, two outputs (NLLLoss: out1 totalWeightOut)
  kGradClassLoss,              // (in0, in1, in2, in3, i0, i1, in4, out): its gradient, in0
                               // the forward's gradient, in4 (totalWeight) after the integers
  kGradClassLossRef,           // the same, in4 declared without const (NLLLoss2dBackward)
  kCrossEntropyLoss,           // (in0, in1, in2, c0, i0, d0, d1, f0, out, out1, out2, out3): in2
                               // optional; a char* reduction, int64_t ignoreIndex, doubles
                               // labelSmoothing and lseSquareScaleForZloss, a bool
                               // returnZloss, four outputs
  kGradCrossEntropyLoss,       // (in0 .. in5, c0, i0, d0, d1, out): in3 to in5 optional, the
                               // forward's attributes but returnZloss (CrossEntropyLossGrad)
  kSoftmaxCrossEntropy,        // (in0, in1, out, out1): in1 and both outputs declared without
                               // const (SoftmaxCrossEntropyWithLogits)
};
// Whether a prototype has an aclIntArray (OpArgs::int_array).
constexpr bool HasIntArray(Signature s) {
  return s == Signature::kLayerNorm || s == Signature::kLayerNormImplMode ||
         s == Signature::kLayerNormBackward;
}

// What an operator computes, and so the engine and kernel form it runs on (op_list.def,
// "Kind"; docs/design.md, "One engine per kind").
enum class Kind {
  kUnary,          // a Map of one input: out = f(in0) elementwise
  kBinary,         // a Map of two inputs: out = f(in0, in1) elementwise
  kGated,          // a Map of in0's two halves along dim: out = f(a, b) (the gated units)
  kGatedGrad,      // their gradients: da, db from in0 (the forward's gradient) and in1's halves
  kRows,           // statistics along dim, then each element from its row's (the softmaxes)
  kMapColumnSums,  // out[0] elementwise and out[1] summed per channel (PreluBackward)
  kNoiseMap,       // a Map of in0 whose elements draw a uniform number each, from a
                   // counter-based generator keyed by the element's index, written to in1
                   // as well as used (RReluWithNoise's training mode; its evaluation mode
                   // is a LeakyRelu)
  kGather,         // rows of in0 picked by the index tensor in1: out[i, :] = in0[in1[i], :]
                   // (Embedding), every index checked against in0's rows when phase 2 runs
  kScatterAdd,     // rows of in0 added into the rows of out that the index tensor in1 names,
                   // each row's terms in index order (EmbeddingDenseBackward); every index
                   // checked against out's rows when phase 2 runs
  kPointLoss,      // a loss whose terms are elementwise over its broadcast inputs: the terms
                   // written (reduction none), or summed in an order fixed by the shape
                   // into one total or per-column totals (mean, sum); its gradient's terms
                   // scaled by the reduction's divisor (MseLoss, MseLossOut,
                   // MseLossBackward, the BinaryCrossEntropyWithLogits family:
                   // src/exec/loss_executor.h)
  kClassLoss,      // a loss that reads one class per position, the one the index tensor
                   // in1 names: out = -weight[t] self[.., t, ..] per position, written
                   // (none) or summed in a fixed order with the weights' total (mean, sum);
                   // its gradient zero but at the named classes (NLLLoss, NLLLoss2d and their
                   // gradients: src/exec/class_loss_executor.h); every target checked when
                   // phase 2 runs
  kSoftmaxLoss,    // a class loss of each row's log-softmax: the row's log-softmax along
                   // its classes (written as an output), then the class its target names
                   // picked from it, with label smoothing's weighted row sum (CrossEntropyLoss);
                   // its gradient a row from the log-probabilities
                   // (src/exec/softmax_loss_executor.h); every target checked when phase 2 runs
};
// The losses' kinds (docs/loss_embedding_family.md): their own front ends and executors.
constexpr bool IsLossKind(Kind k) {
  return k == Kind::kPointLoss || k == Kind::kClassLoss || k == Kind::kSoftmaxLoss;
}
// The kinds that read an index tensor (their own front end, src/aclnn/index_front_end.cc,
// and executors, src/exec/index_executor.h, scatter_executor.h).
constexpr bool IsIndexKind(Kind k) { return k == Kind::kGather || k == Kind::kScatterAdd; }
// The kinds that split self along dim into two halves: the front end makes them views of
// their own (src/aclnn/split_front_end.cc) for the Map executor.
constexpr bool IsSplit(Kind k) { return k == Kind::kGated || k == Kind::kGatedGrad; }
// Whether a prototype has an int64_t dim: the reductions' and the gated units' that split
// along one.
constexpr bool HasDim(Signature s) {
  return s == Signature::kGradSoftmax || s == Signature::kSoftmax || s == Signature::kSplit ||
         s == Signature::kGradSplit || s == Signature::kSplitGelu ||
         s == Signature::kSplitGeluFlag || s == Signature::kGradSplitGelu ||
         s == Signature::kGradSplitGeluFlag || s == Signature::kSplitDoublesFlag ||
         s == Signature::kGradSplitDoublesFlag || s == Signature::kSplitGroupDoublesFlag ||
         s == Signature::kGradSplitGroupDoublesFlag;
}
// Whether a gated unit splits its self's last dim, whatever OpArgs::dim holds: its prototype
// has no dim (GeluMul, FatreluMul).
constexpr bool SplitsLastDim(Kind k, Signature s) { return IsSplit(k) && !HasDim(s); }
// Whether a gated unit's dim, split extent and half-shaped operands are checked by CANN's
// kernel tiling (561002) rather than an op_api (161002): SituGlu, SituGluGrad,
// ClippedSwiglu and ClippedSwigluGrad, whose entry points CANN generates from their
// kernels' definitions.
constexpr bool TilingChecksSplit(Signature s) {
  return s == Signature::kSplitDoublesFlag || s == Signature::kGradSplitDoublesFlag ||
         s == Signature::kSplitGroupDoublesFlag || s == Signature::kGradSplitGroupDoublesFlag;
}

// True for the in-place signatures, whose output is their first input (InplaceAddRmsNorm's
// first output; its second is its second input).
constexpr bool IsInplace(Signature s) {
  return s == Signature::kInplaceEltwise || s == Signature::kInplaceEltwiseRef ||
         s == Signature::kInplaceEltwiseScalar || s == Signature::kInplaceEltwiseScalar2 ||
         s == Signature::kInplaceEltwiseScalar3 || s == Signature::kInplaceBinaryScalar ||
         s == Signature::kInplaceEltwiseNoise || s == Signature::kInplaceAddRmsNorm;
}
// True for the signatures whose scalar parameters come before their second input (CANN
// checks them for null in that order).
constexpr bool ScalarsBeforeIn1(Signature s) {
  return s == Signature::kGradEltwiseScalarsBetween;
}

// Whether an empty input succeeds before any dtype, dim or shape check. CANN's Softmax,
// SoftmaxBackward and LogSoftmaxBackward return at once when self (or gradOutput or output)
// is empty, so an out of another shape or dtype is taken; every other operator checks
// first. Nothing runs either way.
constexpr bool EmptyInputSkipsChecks(Op op) {
  return op == Op::kSoftmax || op == Op::kSoftmaxBackward || op == Op::kLogSoftmaxBackward;
}
// Whether an empty input succeeds after the null, dtype, promotion and rank checks, before
// the shapes are compared (and nothing is written, whatever the output's shape): CANN's
// op_api returns there, before its broadcast check (HardshrinkBackward).
constexpr bool EmptyInputSkipsShapes(Op op) { return op == Op::kHardshrinkBackward; }

// What an operator's op_api asks of its tensors' formats (aclFormat), beyond being an
// aclFormat value, which every entry point asks (core::CheckDims). hostnn computes every
// format as the view its shape and strides describe, as the op_api hands it to the kernel.
enum class FormatRule {
  kAny,        // any format (a private one too: most op_api files check none)
  kNoPrivate,  // no private format, checked after the dtypes, before the ranks (Gelu)
  kOneFormat,  // every tensor in in0's format, checked after the shapes and the scalar
               // parameters' values (FastGelu, FastGeluBackward, Hardsigmoid, Shrink)
};
constexpr FormatRule FormatRuleOf(Op op) {
  return op == Op::kGelu ? FormatRule::kNoPrivate
         : op == Op::kFastGelu || op == Op::kFastGeluBackward || op == Op::kHardsigmoid ||
                 op == Op::kInplaceHardsigmoid || op == Op::kShrink
             ? FormatRule::kOneFormat
             : FormatRule::kAny;
}

// The most dims an operator's tensors may have. CANN's op_api refuses more than 8 (its
// OP_CHECK_MAX_DIM) but for the operators whose files have no such check: those take any
// rank, and a view of more than 8 dims runs as one flat row (CANN reshapes it to 1-D); and
// RReluWithNoise, whose op_api checks 32. An entry point over another operator's checks
// sets its own (OpArgs::max_rank: GeluV2).
constexpr int kAnyRank = 1 << 30;
constexpr int kNoiseMaxRank = 32;
constexpr int MaxRank(Op op) {
  return op == Op::kRReluWithNoise || op == Op::kInplaceRReluWithNoise ? kNoiseMaxRank
         : op == Op::kSelu || op == Op::kInplaceSelu || op == Op::kSeluBackward ||
                 op == Op::kSilu || op == Op::kHardswish || op == Op::kInplaceHardswish ||
                 op == Op::kLogSigmoid || op == Op::kLogSigmoidForward ||
                 op == Op::kLogSigmoidBackward || op == Op::kShrink || op == Op::kGeGluBackward ||
                 op == Op::kGeGluV3Backward
             ? kAnyRank
             : kMaxDims;
}

// The operators whose op_api lists DOUBLE for self (and every input) on Atlas A2, which
// CANN runs on the AI CPU in double: inputs promoting to DOUBLE are computed in f64 lanes
// (an elementwise or gated functor's F64Form, kernels/f64_tiles.cc; Softmax's f64 row
// functions, kernels/softmax_f64_kernels.cc) and the result cast to out's dtype once. Their out may
// be DOUBLE whatever the inputs' dtypes (OutTakesDouble).
constexpr bool ComputesDouble(Op op) {
  return op == Op::kLeakyRelu || op == Op::kInplaceLeakyRelu || op == Op::kLeakyReluBackward ||
         op == Op::kElu || op == Op::kInplaceElu || op == Op::kSigmoid ||
         op == Op::kInplaceSigmoid || op == Op::kSigmoidBackward || op == Op::kSoftmax ||
         op == Op::kGlu || op == Op::kGluBackward;
}
// The operators whose op_api lists DOUBLE for its inputs but hands its kernel FLOAT: a
// DOUBLE input is cast to FLOAT first (one rounding), computed in f32, and the result cast
// to out's dtype (SoftplusBackward, whose op_api casts both inputs to FLOAT).
constexpr bool CastsDoubleToFloat(Op op) { return op == Op::kSoftplusBackward; }
// Whether an operator's inputs may be DOUBLE.
constexpr bool TakesDoubleInputs(Op op) { return ComputesDouble(op) || CastsDoubleToFloat(op); }
// The operators whose op_api checks out by CanCast from the dtype it computes in (self's,
// or the inputs' promotion): out may be any float dtype or complex (Threshold's integers
// any integer too, rule ExactIntThenCast), and a complex promotion (SigmoidBackward's) only
// a complex out. SigmoidBackward's list holds the same dtypes.
constexpr bool OutCheckedByCanCast(Op op) {
  return op == Op::kLeakyRelu || op == Op::kLeakyReluBackward || op == Op::kElu ||
         op == Op::kEluBackward || op == Op::kCelu || op == Op::kSoftplus || op == Op::kErfinv ||
         op == Op::kHardsigmoidBackward || op == Op::kSigmoidBackward || op == Op::kThreshold;
}
// The operators whose op_api lists COMPLEX64 and COMPLEX128 for its inputs, which CANN
// computes in complex arithmetic on its AI CPU (Sigmoid: 1 / (1 + exp(-z)); SigmoidBackward:
// dy * y * (1 - y)): computed in complex<double> (kernels/complex_tiles.cc) and cast to
// out's dtype (a real out takes the real part).
constexpr bool TakesComplexInputs(Op op) {
  return op == Op::kSigmoid || op == Op::kInplaceSigmoid || op == Op::kSigmoidBackward;
}
// The operators whose out may be DOUBLE beside 16- or 32-bit inputs: those, and those
// whose out list holds DOUBLE (Sigmoid, SigmoidBackward, SoftplusBackward). A result
// computed in f32 is widened exactly.
constexpr bool OutTakesDouble(Op op) { return TakesDoubleInputs(op) || OutCheckedByCanCast(op); }
// The operators whose out may be COMPLEX64 or COMPLEX128: a real result cast to complex,
// its imaginary part +0 (CANN's Cast). Those checked by CanCast, and those whose out
// lists hold the complex dtypes (Sigmoid, InplaceSigmoid's selfRef).
constexpr bool OutTakesComplex(Op op) {
  return OutCheckedByCanCast(op) || op == Op::kSigmoid || op == Op::kInplaceSigmoid;
}

// Which dtypes an operator's operands may take. The compute dtypes are FLOAT, FLOAT16
// and BFLOAT16; "any float" adds DOUBLE. An integer dtype is computed in f32 and
// truncated back (kernels/convert-inl.h, the I32 storage tag).
enum class DTypeRule {
  kAllSame,                 // every operand one compute dtype
  kAllSameOrInt32,          // every operand one compute dtype, or every operand INT32
  kInt32Int8ThenCast,       // self and out each a compute dtype, INT32 or INT8: computed in
                            // self's dtype (INT32 in f32, truncated; INT8 by the functor's
                            // ApplyInt8 in int8 lanes), then cast to out's (Selu, as CANN)
  kAllSameOrInt32Int8Rint,  // every operand one compute dtype, or all INT32, or all INT8:
                            // cast to FLOAT, computed in f32, rounded to nearest even and
                            // saturated back (SeluBackward's CAST_RINT)
  kAllSameOrExactInt,       // every operand one compute dtype, or every operand one of
                            // INT8, UINT8, INT32, INT64, computed exactly in that type
  kExactIntThenCast,        // self a compute dtype, computed in it, or INT8, UINT8, INT16,
                            // INT32, INT64, computed exactly in its own lanes (INT16 in
                            // INT32's, as op_api casts it); then cast to out's dtype, any of
                            // those self casts to (CanCast: a float to a float; an integer
                            // to an integer or a float) (Threshold, as CANN)
  kAllSameOrSelectInt,      // every operand one compute dtype, or every operand one of
                            // INT32, INT8, UINT8: the result selects an input's value or 0,
                            // exactly, in int64 lanes (ThresholdBackward)
  kAllSameOrFloatOut,       // every operand a compute dtype: all the same, or a FLOAT out
  kInputsAnyOutAnyFloat,    // inputs: any compute dtypes; out: any float dtype
  kInputsSameOutAnyFloat,   // inputs: one compute dtype; out: any float dtype
  kAnyFloat,                // every operand any float dtype; inputs are cast to out's first
  kInputsAnyOutAny,         // inputs and out: any compute dtypes (CANN's promote, then cast)
  kInputsAnyIntSelfOutAny,  // the same, and in1 (self) may be an integer or BOOL, cast to
                            // FLOAT first (SoftplusBackward, as CANN casts both inputs)
  kFloatThenCast,           // self and out each a compute dtype: computed in self's, then
                            // cast to out's (CANN's op_api appends a Cast)
  kFloatOrHalfThenCast,     // the same, FLOAT and FLOAT16 only (Shrink's op_api list)
  kIntToFloatThenCast,      // self: a compute dtype (computed in it), or an integer or BOOL
                            // (cast to FLOAT first); then cast to out's compute dtype
  kPromoteIntExact,         // inputs: a compute dtype or INT8, UINT8, INT16, INT32, INT64,
                            // promoted (PromoteType). A float promotion is computed in f32
                            // (an integer input cast to FLOAT first); an integer one exactly
                            // in the promoted dtype, wrapping (AddRelu, as CANN). out: any of
                            // those dtypes the promoted one casts to (CanCast: a float never
                            // to an integer)
  kNormFloat,               // in0 a compute dtype; in1, in2 (optional) FLOAT or in0's, and
                            // each other's when both are given; every output any compute
                            // dtype (LayerNorm: computed in f32 with double statistics)
  kNormOutLikeInput,        // in0 a compute dtype; in1 FLOAT or in0's; out in0's; out1
                            // FLOAT (RmsNorm's five combinations: computed in f32 with double
                            // statistics)
  kNormGradLikeDy,          // in0, in1 and out one compute dtype; in3 FLOAT or that one; in2
                            // and out1 FLOAT (RmsNormGrad's five combinations: computed in f32
                            // with double sums)
  kNormLikeInput,           // in0 a compute dtype; every other input and output in0's but
                            // out1, FLOAT (AddRmsNorm's three combinations: computed in f32
                            // with double statistics)
  kNormAddMixed,            // in0 and in1 one compute dtype, or one 16-bit and the other FLOAT
                            // (then FLOAT); in2, in3 FLOAT or that dtype, each other's; in4,
                            // out and out3 that dtype, out1 and out2 FLOAT (AddLayerNorm's
                            // nine combinations: computed in f32 with double statistics)
  kNormGradLikeAll,         // in0, in1, in2, in5, in6 and out one compute dtype; in3, in4,
                            // out1 and out2 FLOAT (AddLayerNormGrad's three combinations:
                            // computed in f32 with double sums)
  kNormGradAny,             // in0 and in1 one compute dtype; in2, in3, in5 and every output any
                            // compute dtype; in4 FLOAT or in1's (LayerNormBackward: computed in
                            // f32 with double sums, cast to each output's dtype)
  kNormChannelAny,          // in0 a compute dtype (a gradient's in0 and in1 one); every other
                            // tensor any compute dtype, each its own (BatchNorm: computed in f32
                            // with double statistics, cast to each output's dtype)
  kPromoteOutAnyFloat,      // inputs: any float or integer dtypes whose PromoteType is a
                            // compute dtype (an integer input is cast to it first, as CANN
                            // casts to the promoted type); out: any float dtype
  kGatherAny,               // in0 and out one dtype of the twelve a copy takes (the three
                            // compute dtypes, DOUBLE, INT8 to INT64, UINT8, BOOL, COMPLEX64,
                            // COMPLEX128); in1 INT32 or INT64 (Embedding: copied exactly)
  kScatterFloat,            // in0 and out each a compute dtype, each its own; in1 FLOAT,
                            // FLOAT16, DOUBLE, INT8, UINT8, INT16, INT32, INT64 or BOOL, read as
                            // a row number truncated toward zero (EmbeddingDenseBackward:
                            // summed in double, rounded once to out's dtype)
  kInputsSameOutAny,        // inputs one compute dtype, out any compute dtype (the result
                            // cast to it: MseLossBackward)
  kInputsAnyOutLikeTarget,  // inputs any compute dtypes, out the target's dtype (the result
                            // computed from the exact inputs, rounded once to it: the
                            // BinaryCrossEntropyWithLogits family)
  kClassFloat,              // self a compute dtype, the weights (and a gradient's gradOutput,
                            // totalWeight) self's; the target INT64, INT32 or UINT8; the
                            // outputs a dtype self's casts to (NLLLoss: computed in double,
                            // rounded once to f32 and to each output's dtype)
  kSoftmaxLossFloat,        // the float tensors one compute dtype (FLOAT, FLOAT16,
                            // BFLOAT16), the weight FLOAT; the target INT64 or INT32 (the
                            // gradient's INT64) (CrossEntropyLoss: computed in f32 and
                            // double, rounded once to the dtype); SoftmaxCrossEntropyWithLogits'
                            // labels any of the three, its outputs features' dtype
};

// How the operands' shapes relate.
enum class ShapeRule {
  kBroadcast,      // in0 and in1 broadcast to out's shape
  kEqual,          // every shape equals in0's
  kChannelWeight,  // a weight of 1 or C = in0.size(1) elements (1 for in0 of rank <= 1),
                   // any rank, applied along dim 1 (Prelu's in1, PreluBackward's in2)
  kGroupRows,      // a gated unit's last input, optional, is a 1-D INT64 tensor of row
                   // counts read when phase 2 runs: only the first sum rows of the split's
                   // [pre, cut * after] view are computed, a gradient's other rows zeroed
                   // (ClippedSwiglu's in1 and ClippedSwigluGrad's in2, groupIndexOptional)
  kOneElement,     // a gated unit's in1 holds one element, any rank (0 to 8), the same for
                   // every output element (FatreluMul's threshold); out is in0's half
  kChannelGroups,  // in0 [N, C, ...] (at least 2 dims) normalised over groups of C / group
                   // channels (GroupNorm): rows N * group of (C / group) * HxW elements;
                   // in1 and in2 (optional) hold one value per channel; out equals in0; out1
                   // and out2 are [N, group]
  kTrailingDims,   // the normalised dims are in0's last len(int_array) (LayerNorm's
                   // normalizedShape, which they equal), or in1's rank where the prototype
                   // has no aclIntArray (RmsNorm's gamma); in1 and in2 have those dims
                   // (per-column operands; LayerNorm's optional); out equals in0; out1 and
                   // out2 hold one statistic per row (LayerNorm's optional). AddRmsNorm:
                   // in1 and out2 equal in0 (rows), in2 is the weight (gamma's dims)
  kChannelStats,   // in0 [N, C, ...] (2 to 8 dims) normalised per channel over every dim
                   // but 1 (BatchNorm): every per-channel tensor holds C values; out (and a
                   // gradient's in1) equals in0
  kFlatNoise,      // out equals in0; in1 (RReluWithNoise's noise) has any shape, and in
                   // training mode at least in0's element count: its first numel(in0)
                   // elements in row-major order pair with in0's in row-major order
  kIndexRows,      // in0 [rows, D] (2 dims); in1 indices of any shape (0 to 8 dims); out
                   // in1's shape followed by D (Embedding)
  kScatterRows,    // in0 [..., D] (1 to 8 dims), whose leading dims hold as many rows as
                   // in1 (any shape) has elements; out [numWeights, D]
                   // (EmbeddingDenseBackward)
  kLossBroadcast,  // the inputs broadcast to one shape; out that shape with reduction none
                   // (and for a gradient), else 0-d (MseLoss) or that shape without its
                   // first dim (MseLossOut, which sums along dim 0)
  kLossWeights,    // self and target of one shape, the optional weights broadcast to it: the
                   // forward's out their broadcast shape (none) or one element (mean, sum);
                   // a gradient's gradOutput and weights broadcast to self's shape, out's
                   // (the BinaryCrossEntropyWithLogits family)
  kClassTarget,    // self [N, C] or [C], target [N] or 0-d, weight [C]; out [N] (none with a
                   // batch) or one element, out1 one element; a gradient's out self's shape
                   // (NLLLoss, NLLLossBackward)
  kClassRows,      // input [N, C] (C >= 1), target [N], weight [C]; the loss [N] (none)
                   // or one element, logProb [N, C]; a gradient's gradLoss [N] (none) or
                   // one element, out [N, C] (CrossEntropyLoss, CrossEntropyLossGrad)
  kLabelRows,      // features [N, C], labels [N, C] or broadcast to it ([1, C], [N, 1]); the
                   // loss [N], backprop [N, C] (SoftmaxCrossEntropyWithLogits)
  kClassTarget2d,  // self [N, C, H, W], target [N, H, W], weight C elements; out target's
                   // shape (none) or one element (NLLLoss2d, NLLLoss2dBackward)
};
// The normalisations' shape rules: statistics over rows, their own front end
// (src/aclnn/norm_front_end.cc) and executor (src/exec/rows_executor.h).
constexpr bool IsNormShape(ShapeRule s) {
  return s == ShapeRule::kTrailingDims || s == ShapeRule::kChannelGroups;
}
// The whole normalisation family: the row norms and the per-channel ones (ShapeRule
// kChannelStats: BatchNorm, with its own front end, src/aclnn/batch_norm_front_end.cc, on the
// row executor, src/exec/rows_executor.h).
constexpr bool IsNormFamily(ShapeRule s) { return IsNormShape(s) || s == ShapeRule::kChannelStats; }

// The SPEC §4 rule results are held to (tests/reference/).
enum class Tolerance {
  kEltwise,            // gradients: 4 ULP or 2^-21 |dy|; 16-bit: 1 ULP
  kLogSoftmax,         // LogSoftmaxBackward: 2^-21 (|dy| + exp(y) sum|dy|); 16-bit: 1 ULP
  kForward,            // forward elementwise: 4 ULP or 2^-21; 16-bit: 1 ULP
  kLogSoftmaxForward,  // 2^-21 (|x - max| + 1) + 4 ULP; 16-bit: that plus 1 ULP
  kSoftmaxForward,     // 4 ULP + 2^-21 max(y of the row); 16-bit: that plus half an ULP
  kSoftmax,            // SoftmaxBackward: 2^-21 (|dy| y + y sum|dy y|) + 4 ULP; 16-bit: + 1 ULP
  kNormForward,        // LayerNorm, RmsNorm: mean, rstd 4 ULP; y 4 ULP or 2^-21 (|x - mean|
                       // rstd |gamma| + |beta|; RmsNorm's mean and beta 0); 16-bit: that
                       // plus half an ULP
  kNormBackward,  // RmsNormGrad, LayerNormBackward: dx and the column sums within 2^-21 times the
                  // sum of the magnitudes of their terms, or 4 ULP; 16-bit: that plus half an ULP
  kExact,         // a copy: every output element bitwise the element it copies (Embedding)
  kScatterSum,    // a sum of rows: within 2^-21 times the sum of the magnitudes of its terms
                  // (after the division by the count); 16-bit: that plus half an ULP
                  // (EmbeddingDenseBackward)
  kLoss,          // a loss: its terms (reduction none) and its gradients as the forward
                  // operators (4 ULP or 2^-21); a mean or sum within 2^-21 times the sum of
                  // the magnitudes of its terms (after the division); 16-bit: that plus half
                  // an ULP (MseLoss, MseLossOut, MseLossBackward, the
                  // BinaryCrossEntropyWithLogits family; NLLLoss: a term is one product,
                  // rounded once)
};

// Whether an operator's integer inputs are cast to the inputs' promoted dtype.
constexpr bool PromotesInputs(DTypeRule rule) { return rule == DTypeRule::kPromoteOutAnyFloat; }
// Whether an operator takes integer inputs and casts them to a float dtype first (the
// promoted one, or FLOAT).
constexpr bool CastsIntInputs(DTypeRule rule) {
  return PromotesInputs(rule) || rule == DTypeRule::kIntToFloatThenCast ||
         rule == DTypeRule::kPromoteIntExact || rule == DTypeRule::kInputsAnyIntSelfOutAny;
}
// Whether an operator computes integer inputs whose promotion is an integer exactly in that
// promoted dtype (and casts a float promotion's integer inputs to FLOAT).
constexpr bool PromotesToExactInt(DTypeRule rule) { return rule == DTypeRule::kPromoteIntExact; }
// Whether an operator computes in self's dtype (FLOAT for an integer self it casts) and
// then casts the result to out's dtype, as CANN appends a Cast (exec/result_cast.h).
constexpr bool CastsResultToOut(DTypeRule rule) {
  return rule == DTypeRule::kFloatThenCast || rule == DTypeRule::kFloatOrHalfThenCast ||
         rule == DTypeRule::kInt32Int8ThenCast || rule == DTypeRule::kIntToFloatThenCast ||
         rule == DTypeRule::kExactIntThenCast;
}
// Whether an operator's operands may take the compute dtype t: every rule takes FLOAT,
// FLOAT16 and BFLOAT16 but FloatOrHalfThenCast, whose list stops at FLOAT16.
constexpr bool TakesComputeType(DTypeRule rule, DType t) {
  return t == DType::kFloat32 || t == DType::kFloat16 ||
         (t == DType::kBFloat16 && rule != DTypeRule::kFloatOrHalfThenCast);
}
// Whether an operator's INT32 and INT8 operands (all of one dtype) are cast to FLOAT,
// computed in f32 and rounded back to nearest even (no integer kernel).
constexpr bool RoundsIntResults(DTypeRule rule) {
  return rule == DTypeRule::kAllSameOrInt32Int8Rint;
}
// Whether an operator's operands may be INT32 (computed in f32, truncated).
constexpr bool AdmitsInt32(DTypeRule rule) {
  return rule == DTypeRule::kAllSameOrInt32 || rule == DTypeRule::kInt32Int8ThenCast;
}
// Whether an operator's operands may be INT8, computed in int8 lanes by its ApplyInt8.
constexpr bool AdmitsInt8Lanes(DTypeRule rule) { return rule == DTypeRule::kInt32Int8ThenCast; }
// Whether an operator's operands may be integers computed exactly in their own type (the
// functor's ApplyInt in integer lanes): INT8, UINT8, INT32, INT64.
constexpr bool AdmitsExactInt(DTypeRule rule) {
  return rule == DTypeRule::kAllSameOrExactInt || rule == DTypeRule::kExactIntThenCast;
}
// The dtype an operator computes a self of dtype t in: INT32 for an INT16 self of rule
// ExactIntThenCast (op_api casts it), else t.
constexpr DType ComputedSelfDType(DTypeRule rule, DType t) {
  return rule == DTypeRule::kExactIntThenCast && t == DType::kInt16 ? DType::kInt32 : t;
}
// Whether an operator's INT32, INT8 and UINT8 operands (all of one dtype) run on the Binary
// integer path (int64 lanes, the functor's BoundPromotedInt) without a promotion: its result
// selects one of its inputs' values.
constexpr bool SelectsIntExactly(DTypeRule rule) {
  return rule == DTypeRule::kAllSameOrSelectInt;
}
// Whether an operator's integer inputs (whose promotion is an integer) run on the Binary
// integer path in int64 lanes: the exact promotions (PromotesToExactInt) and the
// selections (SelectsIntExactly).
constexpr bool RunsIntLanes(DTypeRule rule) {
  return PromotesToExactInt(rule) || SelectsIntExactly(rule);
}

// A scalar parameter of an operator (op_list.def, "Scalars"), in CANN's parameter order:
// a number passed as an aclScalar (read as CANN's op_api reads it, aclScalar::ToFloat: the
// kernels take it as an f32 value), or a bool flag passed as a C bool.
// A number takes any real aclScalar dtype (a float, a signed integer, UINT8 or BOOL).
// An int is a C int64_t attribute (GeGlu's approximate), carried as a number. A string is a
// C char* attribute naming one of the parameter's `modes` (GeluMul's approximateOptional),
// carried as a number: the index of that name, -1 for a name not among them (a null
// pointer leaves it unset: the default).
enum class ScalarKind { kNumber, kFlag, kInt, kString };
// A rule on a number's value, checked after the shapes (as CANN's op_api orders it).
enum class ScalarCheck {
  kAny,
  kNonNegativeWithFlag,  // below 0 refused while the operator's flag is set
                         // (LeakyReluBackward: selfIsResult with a negative negativeSlope)
  kNonNegative,          // below 0 refused (Softshrink's lambd)
  kNonZero,              // 0 (either sign) and NaN refused (Celu's alpha)
  kZeroOrOne,            // only 0 and 1 taken (GeGlu's approximate: 0 erf, 1 tanh)
  kPositive,             // 0 and below refused, as the f32 value (NaN passes, as the
                         // comparison lets it: ClippedSwigluGrad's limit)
};
// How a number reaches the kernel: CANN's ToFloat (f32), or converted to self's dtype first,
// as CANN's op_api makes a tensor of self's dtype from it (Threshold: a 16-bit self rounds
// it to nearest even, an integer self truncates it toward zero, saturated).
enum class ScalarConversion { kToFloat, kToSelfDType };
struct ScalarParam {
  const char* name = nullptr;  // CANN's parameter name; nullptr past the last one
  ScalarKind kind = ScalarKind::kNumber;
  double default_value = 0.0;  // PyTorch's default: what tests, benchmarks and tools use
  ScalarCheck check = ScalarCheck::kAny;
  ScalarConversion conversion = ScalarConversion::kToFloat;
  bool nullable = false;  // a null aclScalar means the default (Swish's betaOptional)
  // kString: the names it takes, space-separated, in the order of their numbers
  // ("none tanh": none 0, tanh 1); nullptr for the other kinds.
  const char* modes = nullptr;
};
constexpr int kMaxScalars = 5;

// A string parameter's modes (ScalarParam::modes): mode k's name, "" past the last; and
// the number of the mode `name` names exactly ("Tanh" and "none " name none), -1 for none.
inline std::string ModeName(const ScalarParam& p, int k) {
  const char* m = p.modes;
  for (int i = 0; m != nullptr && *m != '\0'; ++i) {
    const char* end = m;
    while (*end != '\0' && *end != ' ') ++end;
    if (i == k) return std::string(m, end);
    for (m = end; *m == ' ';) ++m;
  }
  return "";
}
inline int ModeIndex(const ScalarParam& p, const char* name) {
  for (int k = 0;; ++k) {
    const std::string m = ModeName(p, k);
    if (m.empty()) return -1;
    if (m == name) return k;
  }
}

// The most tensors an operator reads and writes (op_list.def's Inputs and Outputs).
constexpr int kMaxIn = 7;
constexpr int kMaxOut = 4;

struct OpInfo {
  Op op;
  const char* name;        // "SiluBackward"
  const char* snake_name;  // "silu_backward"
  Signature signature;
  Kind kind;
  // CANN's names of the tensors it reads and writes, in its prototype's order; nullptr
  // past the last. An in-place operator's one output is its first input (same name).
  const char* in_names[kMaxIn];
  const char* out_names[kMaxOut];
  DTypeRule dtypes;
  ShapeRule shapes;
  const char* ub_temps;  // space-separated f32 intermediates per tile ("" for none)
  double domain_lo, domain_hi;
  Tolerance tolerance;
  bool is_reduction;  // kind Rows: the reduction planner and executor
  bool is_forward;    // one input tensor, `self` (one name in Inputs), rather than (dy, x);
                      // or self and a one-element parameter (ShapeRule::kOneElement) or
                      // row counts (kGroupRows), or self and its noise (Kind NoiseMap),
                      // or a forward norm's input and its per-column operands
                      // (Tolerance kNormForward), or rows and their indices (Kind Gather,
                      // ScatterAdd: in0 is read as the rows it holds, not a gradient's dy),
                      // or a loss's input and target (Signature kLoss, kWeightedLoss,
                      // kClassLoss)
  bool scalars_before_in1;  // the scalar parameters come before in1 in the C prototype
  bool is_split;      // kind Gated or GatedGrad: splits self along dim into halves
  ScalarParam scalars[kMaxScalars];  // its scalar parameters, in CANN's order
  int work;  // an element's cost against the cheapest operators, 1 to 16 (the list's Work)

  constexpr int num_in() const {
    int n = 0;
    while (n < kMaxIn && in_names[n] != nullptr) ++n;
    return n;
  }
  constexpr int num_out() const {
    int n = 0;
    while (n < kMaxOut && out_names[n] != nullptr) ++n;
    return n;
  }
  constexpr int num_scalars() const {
    int n = 0;
    while (n < kMaxScalars && scalars[n].name != nullptr) ++n;
    return n;
  }
};

// Whether a CANN parameter name is of an optional operand, which may be null: CANN names
// every one "...Optional" (weightOptional, meanOutOptional, posWeightOptional).
constexpr bool IsOptionalName(const char* name) {
  constexpr char kTail[] = "Optional";
  constexpr int kTailLen = sizeof(kTail) - 1;
  int n = 0;
  while (name != nullptr && name[n] != '\0') ++n;
  if (n <= kTailLen) return false;
  for (int k = 0; k < kTailLen; ++k) {
    if (name[n - kTailLen + k] != kTail[k]) return false;
  }
  return true;
}
static_assert(IsOptionalName("weightOptional") && !IsOptionalName("Optional") &&
                  !IsOptionalName("weight") && !IsOptionalName(nullptr),
              "an optional operand's name ends in Optional");

namespace op_list_internal {
// An Inputs name that is not there.
constexpr bool IsAbsent(const char* name) { return name == nullptr; }
#define HOSTNN_OP_UNPACK(...) __VA_ARGS__
constexpr OpInfo kOpInfos[] = {
#define HOSTNN_OP_SECOND_(first, second, ...) second
#define HOSTNN_OP_IN1_(...) HOSTNN_OP_SECOND_(__VA_ARGS__, nullptr, nullptr)
#define HOSTNN_OP(Name, snake, sig, kind, ins, outs, dtypes, shapes, temps, domain, tol, scalars, \
                  work)                                                                           \
  {Op::k##Name,                                                                                   \
   #Name,                                                                                         \
   #snake,                                                                                        \
   Signature::k##sig,                                                                             \
   Kind::k##kind,                                                                                 \
   {HOSTNN_OP_UNPACK ins},                                                                        \
   {HOSTNN_OP_UNPACK outs},                                                                       \
   DTypeRule::k##dtypes,                                                                          \
   ShapeRule::k##shapes,                                                                          \
   temps,                                                                                         \
   HOSTNN_OP_UNPACK domain,                                                                       \
   Tolerance::k##tol,                                                                             \
   Kind::k##kind == Kind::kRows,                                                                  \
   IsAbsent(HOSTNN_OP_IN1_ ins) || Kind::k##kind == Kind::kNoiseMap ||                            \
       IsIndexKind(Kind::k##kind) || Tolerance::k##tol == Tolerance::kNormForward ||              \
       Signature::k##sig == Signature::kLoss || Signature::k##sig == Signature::kWeightedLoss ||  \
       Signature::k##sig == Signature::kClassLoss ||                                              \
       Signature::k##sig == Signature::kCrossEntropyLoss ||                                       \
       Signature::k##sig == Signature::kSoftmaxCrossEntropy ||                                    \
       (Kind::k##kind == Kind::kGated && (ShapeRule::k##shapes == ShapeRule::kOneElement ||       \
                                          ShapeRule::k##shapes == ShapeRule::kGroupRows)),        \
   ScalarsBeforeIn1(Signature::k##sig),                                                           \
   IsSplit(Kind::k##kind),                                                                        \
   {HOSTNN_OP_UNPACK scalars},                                                                    \
   work},
#include "hostnn/op_list.def"
#undef HOSTNN_OP
};
#undef HOSTNN_OP_IN1_
#undef HOSTNN_OP_SECOND_
#undef HOSTNN_OP_UNPACK
static_assert(sizeof(kOpInfos) / sizeof(kOpInfos[0]) == kNumOps, "one entry per operator");
constexpr bool WorksArePowersOfTwo() {
  for (const OpInfo& info : kOpInfos) {
    if (info.work < 1 || info.work > 16 || (info.work & (info.work - 1)) != 0) return false;
  }
  return true;
}
static_assert(WorksArePowersOfTwo(), "an operator's Work is 1, 2, 4, 8 or 16");
}  // namespace op_list_internal

constexpr const OpInfo& GetOpInfo(Op op) {
  return op_list_internal::kOpInfos[static_cast<int>(op)];
}
// A gated unit's optional row counts (ShapeRule::kGroupRows): the slot of its last input
// (ClippedSwiglu's in1, ClippedSwigluGrad's in2); -1 for none.
constexpr int CountsSlot(const OpInfo& info) {
  return info.shapes == ShapeRule::kGroupRows ? info.num_in() - 1 : -1;
}
// Whether a gated unit has GeGlu's half-shaped second operand: the forward's out1 (outGelu),
// the gradient's in2 (gelu).
constexpr bool HasGeluOperand(const OpInfo& info) {
  return info.is_split &&
         (info.is_forward ? info.num_out() > 1 : info.num_in() > 2 && CountsSlot(info) != 2);
}
constexpr bool IsValidOp(Op op) {
  return static_cast<int>(op) >= 0 && static_cast<int>(op) < kNumOps;
}
// Every operator, in list order: for (Op op : AllOps()).
struct OpRange {
  struct It {
    int k;
    Op operator*() const { return static_cast<Op>(k); }
    It& operator++() {
      ++k;
      return *this;
    }
    bool operator!=(const It& o) const { return k != o.k; }
  };
  It begin() const { return {0}; }
  It end() const { return {kNumOps}; }
};
constexpr OpRange AllOps() { return {}; }

// Looks up an operator by snake_case name; false when unknown.
bool FindOp(const std::string& snake_name, Op* op);
// "silu_backward, logsigmoid_backward, ..." (help texts and messages).
std::string OpNames(const char* separator = ", ");

}  // namespace hostnn

#endif  // HOSTNN_OP_H_
