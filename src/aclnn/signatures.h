/* The C parameter lists of phase 1, one per Signature of op_list.def (hostnn/op.h):
 * HOSTNN_SIG_PARAMS_<Signature> is what comes before (workspaceSize, executor), with the
 * input tensors named in0 .. in6 and the outputs out, out1, out2, out3 (OpArgs::in[k], out[k]), the
 * dim, the aclScalar parameters s0, s1, s2, the bool flag f0, the int64_t attributes i0, i1,
 * the double attributes d0, d1 and the char* attribute c0;
 * HOSTNN_SIG_ARGS_<Signature> passes them on; HOSTNN_SIG_INS_ gives the input slots (one per
 * input tensor of the prototype, up to seven) and HOSTNN_SIG_OUTS_ the output slots (three, or
 * four), null where the prototype has none (an in-place operator's output is its input),
 * HOSTNN_SIG_DIM_ the dim or 0 (-1, the last, for a gated unit without one), HOSTNN_SIG_ARRAY_ the
 * aclIntArray ia0 (and the aclBoolArray ba0) or 0; HOSTNN_SIG_SCALARS_ gives the five numbers s0 ..
 * s4 (null where absent; an attribute among them as HOSTNN_SIG_ATTR makes it) and HOSTNN_SIG_FLAG_
 * f0 (0 where absent), the operator's numbers and flag in the order of its Scalars column. A
 * Signature is a prototype and nothing more: what the operator computes, and so its kernel form, is
 * its list row's Kind (hostnn/op.h), so a new prototype is a block here and a line in hostnn/op.h's
 * enum. Plain macros, so that C (src/cann/forward.c) expands them too. */
#ifndef HOSTNN_SRC_ACLNN_SIGNATURES_H_
#define HOSTNN_SRC_ACLNN_SIGNATURES_H_

#define HOSTNN_SIG_PARAMS_GradEltwise const aclTensor *in0, const aclTensor *in1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwise in0, in1, out
#define HOSTNN_SIG_INS_GradEltwise in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwise out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwise 0
#define HOSTNN_SIG_ARRAY_GradEltwise 0
#define HOSTNN_SIG_SCALARS_GradEltwise 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwise 0

/* The same, where CANN's prototype declares the output const (aclnnGeluBackward). */
#define HOSTNN_SIG_PARAMS_GradEltwiseConstOut \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseConstOut in0, in1, out
#define HOSTNN_SIG_INS_GradEltwiseConstOut in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwiseConstOut out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseConstOut 0
#define HOSTNN_SIG_ARRAY_GradEltwiseConstOut 0
#define HOSTNN_SIG_SCALARS_GradEltwiseConstOut 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseConstOut 0

#define HOSTNN_SIG_PARAMS_GradEltwiseBuffer \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseBuffer in0, in1, in2, out
#define HOSTNN_SIG_INS_GradEltwiseBuffer in0, in1, in2
#define HOSTNN_SIG_OUTS_GradEltwiseBuffer out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseBuffer 0
#define HOSTNN_SIG_ARRAY_GradEltwiseBuffer 0
#define HOSTNN_SIG_SCALARS_GradEltwiseBuffer 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseBuffer 0

#define HOSTNN_SIG_PARAMS_GradSoftmax \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, aclTensor *out
#define HOSTNN_SIG_ARGS_GradSoftmax in0, in1, dim, out
#define HOSTNN_SIG_INS_GradSoftmax in0, in1, 0
#define HOSTNN_SIG_OUTS_GradSoftmax out, 0, 0
#define HOSTNN_SIG_DIM_GradSoftmax dim
#define HOSTNN_SIG_ARRAY_GradSoftmax 0
#define HOSTNN_SIG_SCALARS_GradSoftmax 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSoftmax 0

#define HOSTNN_SIG_PARAMS_Eltwise const aclTensor *in0, aclTensor *out
#define HOSTNN_SIG_ARGS_Eltwise in0, out
#define HOSTNN_SIG_INS_Eltwise in0, 0, 0
#define HOSTNN_SIG_OUTS_Eltwise out, 0, 0
#define HOSTNN_SIG_DIM_Eltwise 0
#define HOSTNN_SIG_ARRAY_Eltwise 0
#define HOSTNN_SIG_SCALARS_Eltwise 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_Eltwise 0

/* The same, where CANN's prototype declares the output const (aclnnRelu, aclnnHardswish,
 * aclnnSquaredRelu). */
#define HOSTNN_SIG_PARAMS_EltwiseConstOut const aclTensor *in0, const aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseConstOut in0, out
#define HOSTNN_SIG_INS_EltwiseConstOut in0, 0, 0
#define HOSTNN_SIG_OUTS_EltwiseConstOut out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseConstOut 0
#define HOSTNN_SIG_ARRAY_EltwiseConstOut 0
#define HOSTNN_SIG_SCALARS_EltwiseConstOut 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseConstOut 0

/* CANN's LogSigmoidForward: `buffer` is documented as unused; it is neither
 * checked nor written, as there. */
#define HOSTNN_SIG_PARAMS_EltwiseBuffer const aclTensor *in0, aclTensor *out, aclTensor *buffer
#define HOSTNN_SIG_ARGS_EltwiseBuffer in0, out, buffer
#define HOSTNN_SIG_INS_EltwiseBuffer in0, 0, ((void)buffer, (const aclTensor*)0)
#define HOSTNN_SIG_OUTS_EltwiseBuffer out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseBuffer 0
#define HOSTNN_SIG_ARRAY_EltwiseBuffer 0
#define HOSTNN_SIG_SCALARS_EltwiseBuffer 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseBuffer 0

#define HOSTNN_SIG_PARAMS_InplaceEltwise const aclTensor* in0
#define HOSTNN_SIG_ARGS_InplaceEltwise in0
#define HOSTNN_SIG_INS_InplaceEltwise in0, 0, 0
#define HOSTNN_SIG_OUTS_InplaceEltwise in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwise 0
#define HOSTNN_SIG_ARRAY_InplaceEltwise 0
#define HOSTNN_SIG_SCALARS_InplaceEltwise 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwise 0

/* The same, where CANN's prototype takes a non-const aclTensor* selfRef. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseRef aclTensor* in0
#define HOSTNN_SIG_ARGS_InplaceEltwiseRef in0
#define HOSTNN_SIG_INS_InplaceEltwiseRef in0, 0, 0
#define HOSTNN_SIG_OUTS_InplaceEltwiseRef in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwiseRef 0
#define HOSTNN_SIG_ARRAY_InplaceEltwiseRef 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseRef 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseRef 0

#define HOSTNN_SIG_PARAMS_Softmax const aclTensor *in0, int64_t dim, aclTensor *out
#define HOSTNN_SIG_ARGS_Softmax in0, dim, out
#define HOSTNN_SIG_INS_Softmax in0, 0, 0
#define HOSTNN_SIG_OUTS_Softmax out, 0, 0
#define HOSTNN_SIG_DIM_Softmax dim
#define HOSTNN_SIG_ARRAY_Softmax 0
#define HOSTNN_SIG_SCALARS_Softmax 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_Softmax 0

/* aclnnLeakyRelu(self, negativeSlope, out) and its kind: one aclScalar parameter. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar const aclTensor *in0, const aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar in0, s0, out
#define HOSTNN_SIG_INS_EltwiseScalar in0, 0, 0
#define HOSTNN_SIG_OUTS_EltwiseScalar out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseScalar 0
#define HOSTNN_SIG_ARRAY_EltwiseScalar 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseScalar 0

/* aclnnInplaceLeakyRelu(selfRef, negativeSlope) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar aclTensor *in0, const aclScalar *s0
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar in0, s0
#define HOSTNN_SIG_INS_InplaceEltwiseScalar in0, 0, 0
#define HOSTNN_SIG_OUTS_InplaceEltwiseScalar in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar 0
#define HOSTNN_SIG_ARRAY_InplaceEltwiseScalar 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar 0

/* aclnnLeakyReluBackward(gradOutput, self, negativeSlope, selfIsResult, out) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalarFlag \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, bool f0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalarFlag in0, in1, s0, f0, out
#define HOSTNN_SIG_INS_GradEltwiseScalarFlag in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwiseScalarFlag out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseScalarFlag 0
#define HOSTNN_SIG_ARRAY_GradEltwiseScalarFlag 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalarFlag s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalarFlag f0

/* aclnnHardshrinkBackward(gradOutput, self, lambd, gradInput) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalar \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalar in0, in1, s0, out
#define HOSTNN_SIG_INS_GradEltwiseScalar in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwiseScalar out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseScalar 0
#define HOSTNN_SIG_ARRAY_GradEltwiseScalar 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalar s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalar 0

/* aclnnHardtanhBackward(gradOutput, self, min, max, out) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalar2 \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, const aclScalar *s1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalar2 in0, in1, s0, s1, out
#define HOSTNN_SIG_INS_GradEltwiseScalar2 in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwiseScalar2 out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseScalar2 0
#define HOSTNN_SIG_ARRAY_GradEltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalar2 s0, s1, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalar2 0

/* aclnnSoftplus(self, beta, threshold, out) and its kind: two aclScalar parameters. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar2 \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar2 in0, s0, s1, out
#define HOSTNN_SIG_INS_EltwiseScalar2 in0, 0, 0
#define HOSTNN_SIG_OUTS_EltwiseScalar2 out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseScalar2 0
#define HOSTNN_SIG_ARRAY_EltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar2 s0, s1, 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseScalar2 0

/* aclnnInplaceThreshold(selfRef, threshold, value) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar2 \
  aclTensor *in0, const aclScalar *s0, const aclScalar *s1
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar2 in0, s0, s1
#define HOSTNN_SIG_INS_InplaceEltwiseScalar2 in0, 0, 0
#define HOSTNN_SIG_OUTS_InplaceEltwiseScalar2 in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_ARRAY_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar2 s0, s1, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar2 0

/* aclnnElu(self, alpha, scale, inputScale, out) and its kind: three aclScalar parameters. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar3 \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar3 in0, s0, s1, s2, out
#define HOSTNN_SIG_INS_EltwiseScalar3 in0, 0, 0
#define HOSTNN_SIG_OUTS_EltwiseScalar3 out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseScalar3 0
#define HOSTNN_SIG_ARRAY_EltwiseScalar3 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar3 s0, s1, s2, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseScalar3 0

/* aclnnInplaceElu(selfRef, alpha, scale, inputScale) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar3 \
  aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar3 in0, s0, s1, s2
#define HOSTNN_SIG_INS_InplaceEltwiseScalar3 in0, 0, 0
#define HOSTNN_SIG_OUTS_InplaceEltwiseScalar3 in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_ARRAY_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar3 s0, s1, s2, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar3 0

/* aclnnEluBackward(gradOutput, alpha, scale, inputScale, isResult, selfOrResult, gradInput):
 * the parameters come between the two inputs (and CANN checks them for null there). */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalarsBetween                                        \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2, \
      bool f0, const aclTensor *in1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalarsBetween in0, s0, s1, s2, f0, in1, out
#define HOSTNN_SIG_INS_GradEltwiseScalarsBetween in0, in1, 0
#define HOSTNN_SIG_OUTS_GradEltwiseScalarsBetween out, 0, 0
#define HOSTNN_SIG_DIM_GradEltwiseScalarsBetween 0
#define HOSTNN_SIG_ARRAY_GradEltwiseScalarsBetween 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalarsBetween s0, s1, s2, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalarsBetween f0

/* aclnnAddRelu(self, other, alpha, out): two inputs and a number, which CANN declares
 * without const (aclScalar* alpha). */
#define HOSTNN_SIG_PARAMS_BinaryScalar \
  const aclTensor *in0, const aclTensor *in1, aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_BinaryScalar in0, in1, s0, out
#define HOSTNN_SIG_INS_BinaryScalar in0, in1, 0
#define HOSTNN_SIG_OUTS_BinaryScalar out, 0, 0
#define HOSTNN_SIG_DIM_BinaryScalar 0
#define HOSTNN_SIG_ARRAY_BinaryScalar 0
#define HOSTNN_SIG_SCALARS_BinaryScalar s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_BinaryScalar 0

/* aclnnInplaceAddRelu(selfRef, other, alpha): the same, the result written to selfRef, whose
 * shape is the broadcast shape. */
#define HOSTNN_SIG_PARAMS_InplaceBinaryScalar aclTensor *in0, const aclTensor *in1, aclScalar *s0
#define HOSTNN_SIG_ARGS_InplaceBinaryScalar in0, in1, s0
#define HOSTNN_SIG_INS_InplaceBinaryScalar in0, in1, 0
#define HOSTNN_SIG_OUTS_InplaceBinaryScalar in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceBinaryScalar 0
#define HOSTNN_SIG_ARRAY_InplaceBinaryScalar 0
#define HOSTNN_SIG_SCALARS_InplaceBinaryScalar s0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceBinaryScalar 0

/* The gated linear units (Kind Gated, GatedGrad): self split along dim into halves. Glu and
 * SwiGlu declare out const; GeGlu's second output outGelu is out1 (OpArgs::out[1]) and its
 * int64_t approximate as a number (i0, read as an INT64 aclScalar by capi::Attr). */
#define HOSTNN_SIG_PARAMS_Split const aclTensor *in0, int64_t dim, const aclTensor *out
#define HOSTNN_SIG_ARGS_Split in0, dim, out
#define HOSTNN_SIG_INS_Split in0, 0, 0
#define HOSTNN_SIG_OUTS_Split out, 0, 0
#define HOSTNN_SIG_DIM_Split dim
#define HOSTNN_SIG_ARRAY_Split 0
#define HOSTNN_SIG_SCALARS_Split 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_Split 0

#define HOSTNN_SIG_PARAMS_GradSplit \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, const aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplit in0, in1, dim, out
#define HOSTNN_SIG_INS_GradSplit in0, in1, 0
#define HOSTNN_SIG_OUTS_GradSplit out, 0, 0
#define HOSTNN_SIG_DIM_GradSplit dim
#define HOSTNN_SIG_ARRAY_GradSplit 0
#define HOSTNN_SIG_SCALARS_GradSplit 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSplit 0

#define HOSTNN_SIG_PARAMS_SplitGelu \
  const aclTensor *in0, int64_t dim, int64_t i0, aclTensor *out, aclTensor *out1
#define HOSTNN_SIG_ARGS_SplitGelu in0, dim, i0, out, out1
#define HOSTNN_SIG_INS_SplitGelu in0, 0, 0
#define HOSTNN_SIG_OUTS_SplitGelu out, out1, 0
#define HOSTNN_SIG_DIM_SplitGelu dim
#define HOSTNN_SIG_ARRAY_SplitGelu 0
#define HOSTNN_SIG_SCALARS_SplitGelu HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_SplitGelu 0

#define HOSTNN_SIG_PARAMS_SplitGeluFlag \
  const aclTensor *in0, int64_t dim, int64_t i0, bool f0, aclTensor *out, aclTensor *out1
#define HOSTNN_SIG_ARGS_SplitGeluFlag in0, dim, i0, f0, out, out1
#define HOSTNN_SIG_INS_SplitGeluFlag in0, 0, 0
#define HOSTNN_SIG_OUTS_SplitGeluFlag out, out1, 0
#define HOSTNN_SIG_DIM_SplitGeluFlag dim
#define HOSTNN_SIG_ARRAY_SplitGeluFlag 0
#define HOSTNN_SIG_SCALARS_SplitGeluFlag HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_SplitGeluFlag f0

#define HOSTNN_SIG_PARAMS_GradSplitGelu                                                   \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t dim, int64_t i0, \
      aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitGelu in0, in1, in2, dim, i0, out
#define HOSTNN_SIG_INS_GradSplitGelu in0, in1, in2
#define HOSTNN_SIG_OUTS_GradSplitGelu out, 0, 0
#define HOSTNN_SIG_DIM_GradSplitGelu dim
#define HOSTNN_SIG_ARRAY_GradSplitGelu 0
#define HOSTNN_SIG_SCALARS_GradSplitGelu HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSplitGelu 0

#define HOSTNN_SIG_PARAMS_GradSplitGeluFlag                                               \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t dim, int64_t i0, \
      bool f0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitGeluFlag in0, in1, in2, dim, i0, f0, out
#define HOSTNN_SIG_INS_GradSplitGeluFlag in0, in1, in2
#define HOSTNN_SIG_OUTS_GradSplitGeluFlag out, 0, 0
#define HOSTNN_SIG_DIM_GradSplitGeluFlag dim
#define HOSTNN_SIG_ARRAY_GradSplitGeluFlag 0
#define HOSTNN_SIG_SCALARS_GradSplitGeluFlag HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSplitGeluFlag f0

/* aclnnGeluMul(input, approximateOptional, out): no dim (the last is split); the char*
 * attribute c0 travels as a string aclScalar (capi::Attr), which MakeArgs turns into
 * the number of the mode it names. */
#define HOSTNN_SIG_PARAMS_SplitLastString const aclTensor *in0, char *c0, const aclTensor *out
#define HOSTNN_SIG_ARGS_SplitLastString in0, c0, out
#define HOSTNN_SIG_INS_SplitLastString in0, 0, 0
#define HOSTNN_SIG_OUTS_SplitLastString out, 0, 0
#define HOSTNN_SIG_DIM_SplitLastString (-1)
#define HOSTNN_SIG_ARRAY_SplitLastString 0
#define HOSTNN_SIG_SCALARS_SplitLastString HOSTNN_SIG_STRING_ATTR(c0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_SplitLastString 0

/* aclnnSituGlu(x, dim, beta, linearBeta, activateLeft, out): the double attributes d0, d1
 * travel as DOUBLE aclScalars (capi::Attr), the operator's first two numbers. */
#define HOSTNN_SIG_PARAMS_SplitDoublesFlag \
  const aclTensor *in0, int64_t dim, double d0, double d1, bool f0, const aclTensor *out
#define HOSTNN_SIG_ARGS_SplitDoublesFlag in0, dim, d0, d1, f0, out
#define HOSTNN_SIG_INS_SplitDoublesFlag in0, 0, 0
#define HOSTNN_SIG_OUTS_SplitDoublesFlag out, 0, 0
#define HOSTNN_SIG_DIM_SplitDoublesFlag dim
#define HOSTNN_SIG_ARRAY_SplitDoublesFlag 0
#define HOSTNN_SIG_SCALARS_SplitDoublesFlag HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), 0, 0, 0
#define HOSTNN_SIG_FLAG_SplitDoublesFlag f0

/* aclnnSituGluGrad(gradY, x, dim, beta, linearBeta, activateLeft, out). */
#define HOSTNN_SIG_PARAMS_GradSplitDoublesFlag                                          \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, double d0, double d1, bool f0, \
      const aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitDoublesFlag in0, in1, dim, d0, d1, f0, out
#define HOSTNN_SIG_INS_GradSplitDoublesFlag in0, in1, 0
#define HOSTNN_SIG_OUTS_GradSplitDoublesFlag out, 0, 0
#define HOSTNN_SIG_DIM_GradSplitDoublesFlag dim
#define HOSTNN_SIG_ARRAY_GradSplitDoublesFlag 0
#define HOSTNN_SIG_SCALARS_GradSplitDoublesFlag HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSplitDoublesFlag f0

/* aclnnClippedSwiglu(x, groupIndexOptional, dim, alpha, limit, bias, interleaved, out). */
#define HOSTNN_SIG_PARAMS_SplitGroupDoublesFlag                                         \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, double d0, double d1, double d2, \
      bool f0, const aclTensor *out
#define HOSTNN_SIG_ARGS_SplitGroupDoublesFlag in0, in1, dim, d0, d1, d2, f0, out
#define HOSTNN_SIG_INS_SplitGroupDoublesFlag in0, in1, 0
#define HOSTNN_SIG_OUTS_SplitGroupDoublesFlag out, 0, 0
#define HOSTNN_SIG_DIM_SplitGroupDoublesFlag dim
#define HOSTNN_SIG_ARRAY_SplitGroupDoublesFlag 0
#define HOSTNN_SIG_SCALARS_SplitGroupDoublesFlag \
  HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), HOSTNN_SIG_ATTR(d2), 0, 0
#define HOSTNN_SIG_FLAG_SplitGroupDoublesFlag f0

/* aclnnClippedSwigluGrad(gradY, x, groupIndexOptional, dim, alpha, limit, bias, interleaved,
 * gradXOut). */
#define HOSTNN_SIG_PARAMS_GradSplitGroupDoublesFlag                                          \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t dim, double d0, \
      double d1, double d2, bool f0, const aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitGroupDoublesFlag in0, in1, in2, dim, d0, d1, d2, f0, out
#define HOSTNN_SIG_INS_GradSplitGroupDoublesFlag in0, in1, in2
#define HOSTNN_SIG_OUTS_GradSplitGroupDoublesFlag out, 0, 0
#define HOSTNN_SIG_DIM_GradSplitGroupDoublesFlag dim
#define HOSTNN_SIG_ARRAY_GradSplitGroupDoublesFlag 0
#define HOSTNN_SIG_SCALARS_GradSplitGroupDoublesFlag \
  HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), HOSTNN_SIG_ATTR(d2), 0, 0
#define HOSTNN_SIG_FLAG_GradSplitGroupDoublesFlag f0

/* An int64_t, double or char* attribute as the aclScalar the numbers travel in (C++ only). */
#define HOSTNN_SIG_ATTR(v) hostnn::capi::Attr(v).get()
#define HOSTNN_SIG_INT_ATTR(v) HOSTNN_SIG_ATTR(static_cast<int64_t>(v))
#define HOSTNN_SIG_STRING_ATTR(v) HOSTNN_SIG_ATTR(static_cast<const char*>(v))

/* aclnnPreluBackward(gradOutput, self, weight, gradInput, gradWeight): three inputs and two
 * outputs. */
#define HOSTNN_SIG_PARAMS_GradEltwise2Out \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, aclTensor *out, aclTensor *out1
#define HOSTNN_SIG_ARGS_GradEltwise2Out in0, in1, in2, out, out1
#define HOSTNN_SIG_INS_GradEltwise2Out in0, in1, in2
#define HOSTNN_SIG_OUTS_GradEltwise2Out out, out1, 0
#define HOSTNN_SIG_DIM_GradEltwise2Out 0
#define HOSTNN_SIG_ARRAY_GradEltwise2Out 0
#define HOSTNN_SIG_SCALARS_GradEltwise2Out 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwise2Out 0

/* aclnnRReluWithNoise(self, noise, lower, upper, training, seed, offset, out): noise is
 * declared const and written (training mode), seed and offset are int64_t attributes. */
#define HOSTNN_SIG_PARAMS_EltwiseNoise                                                           \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, const aclScalar *s1, bool f0, \
      int64_t i0, int64_t i1, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseNoise in0, in1, s0, s1, f0, i0, i1, out
#define HOSTNN_SIG_INS_EltwiseNoise in0, in1, 0
#define HOSTNN_SIG_OUTS_EltwiseNoise out, 0, 0
#define HOSTNN_SIG_DIM_EltwiseNoise 0
#define HOSTNN_SIG_ARRAY_EltwiseNoise 0
#define HOSTNN_SIG_SCALARS_EltwiseNoise s0, s1, HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0
#define HOSTNN_SIG_FLAG_EltwiseNoise f0

/* aclnnInplaceRReluWithNoise(self, noise, lower, upper, training, seed, offset): self is
 * declared const, as CANN declares it, and written. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseNoise                                                    \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, const aclScalar *s1, bool f0, \
      int64_t i0, int64_t i1
#define HOSTNN_SIG_ARGS_InplaceEltwiseNoise in0, in1, s0, s1, f0, i0, i1
#define HOSTNN_SIG_INS_InplaceEltwiseNoise in0, in1, 0
#define HOSTNN_SIG_OUTS_InplaceEltwiseNoise in0, 0, 0
#define HOSTNN_SIG_DIM_InplaceEltwiseNoise 0
#define HOSTNN_SIG_ARRAY_InplaceEltwiseNoise 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseNoise \
  s0, s1, HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseNoise f0

/* aclnnLayerNorm(input, normalizedShape, weightOptional, biasOptional, eps, out,
 * meanOutOptional, rstdOutOptional): an aclIntArray, optional tensors (null is no tensor), a
 * double attribute and three outputs. */
#define HOSTNN_SIG_PARAMS_LayerNorm                                                         \
  const aclTensor *in0, const aclIntArray *ia0, const aclTensor *in1, const aclTensor *in2, \
      double d0, aclTensor *out, aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_LayerNorm in0, ia0, in1, in2, d0, out, out1, out2
#define HOSTNN_SIG_INS_LayerNorm in0, in1, in2
#define HOSTNN_SIG_OUTS_LayerNorm out, out1, out2
#define HOSTNN_SIG_DIM_LayerNorm 0
#define HOSTNN_SIG_ARRAY_LayerNorm ia0
#define HOSTNN_SIG_SCALARS_LayerNorm HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_LayerNorm 0

/* aclnnLayerNormWithImplMode: the same and an int32_t implMode. */
#define HOSTNN_SIG_PARAMS_LayerNormImplMode                                                 \
  const aclTensor *in0, const aclIntArray *ia0, const aclTensor *in1, const aclTensor *in2, \
      double d0, aclTensor *out, aclTensor *out1, aclTensor *out2, int32_t i0
#define HOSTNN_SIG_ARGS_LayerNormImplMode in0, ia0, in1, in2, d0, out, out1, out2, i0
#define HOSTNN_SIG_INS_LayerNormImplMode in0, in1, in2
#define HOSTNN_SIG_OUTS_LayerNormImplMode out, out1, out2
#define HOSTNN_SIG_DIM_LayerNormImplMode 0
#define HOSTNN_SIG_ARRAY_LayerNormImplMode ia0
#define HOSTNN_SIG_SCALARS_LayerNormImplMode HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0
#define HOSTNN_SIG_FLAG_LayerNormImplMode 0

/* aclnnRmsNorm(x, gamma, epsilon, yOut, rstdOut): CANN generates it from the kernel's
 * definition; every tensor is required. */
#define HOSTNN_SIG_PARAMS_RmsNorm \
  const aclTensor *in0, const aclTensor *in1, double d0, const aclTensor *out, const aclTensor *out1
#define HOSTNN_SIG_ARGS_RmsNorm in0, in1, d0, out, out1
#define HOSTNN_SIG_INS_RmsNorm in0, in1, 0
#define HOSTNN_SIG_OUTS_RmsNorm out, out1, 0
#define HOSTNN_SIG_DIM_RmsNorm 0
#define HOSTNN_SIG_ARRAY_RmsNorm 0
#define HOSTNN_SIG_SCALARS_RmsNorm HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_RmsNorm 0

/* aclnnRmsNormGrad(dy, x, rstd, gamma, dxOut, dgammaOut): generated from the kernel's
 * definition; four inputs, two outputs, every tensor required. */
#define HOSTNN_SIG_PARAMS_RmsNormGrad                                                     \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      const aclTensor *out, const aclTensor *out1
#define HOSTNN_SIG_ARGS_RmsNormGrad in0, in1, in2, in3, out, out1
#define HOSTNN_SIG_INS_RmsNormGrad in0, in1, in2, in3
#define HOSTNN_SIG_OUTS_RmsNormGrad out, out1, 0
#define HOSTNN_SIG_DIM_RmsNormGrad 0
#define HOSTNN_SIG_ARRAY_RmsNormGrad 0
#define HOSTNN_SIG_SCALARS_RmsNormGrad 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_RmsNormGrad 0

/* aclnnLayerNormBackward(gradOut, input, normalizedShape, mean, rstd, weightOptional,
 * biasOptional, outputMask, gradInputOut, gradWeightOut, gradBiasOut): six inputs (two
 * optional), an aclIntArray and an aclBoolArray, three outputs (each one written where
 * outputMask says so). */
#define HOSTNN_SIG_PARAMS_LayerNormBackward                                                      \
  const aclTensor *in0, const aclTensor *in1, const aclIntArray *ia0, const aclTensor *in2,      \
      const aclTensor *in3, const aclTensor *in4, const aclTensor *in5, const aclBoolArray *ba0, \
      aclTensor *out, aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_LayerNormBackward in0, in1, ia0, in2, in3, in4, in5, ba0, out, out1, out2
#define HOSTNN_SIG_INS_LayerNormBackward in0, in1, in2, in3, in4, in5
#define HOSTNN_SIG_OUTS_LayerNormBackward out, out1, out2
#define HOSTNN_SIG_DIM_LayerNormBackward 0
#define HOSTNN_SIG_ARRAY_LayerNormBackward ia0, ba0
#define HOSTNN_SIG_SCALARS_LayerNormBackward 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_LayerNormBackward 0

/* aclnnAddRmsNorm(x1, x2, gamma, epsilon, yOut, rstdOut, xOut): rstdOut and xOut may be null
 * (the op_api's three modes). */
#define HOSTNN_SIG_PARAMS_AddRmsNorm                                                           \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, double d0, aclTensor *out, \
      aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_AddRmsNorm in0, in1, in2, d0, out, out1, out2
#define HOSTNN_SIG_INS_AddRmsNorm in0, in1, in2
#define HOSTNN_SIG_OUTS_AddRmsNorm out, out1, out2
#define HOSTNN_SIG_DIM_AddRmsNorm 0
#define HOSTNN_SIG_ARRAY_AddRmsNorm 0
#define HOSTNN_SIG_SCALARS_AddRmsNorm HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_AddRmsNorm 0

/* aclnnInplaceAddRmsNorm(x1Ref, x2Ref, gamma, epsilon, rstdOut): generated from the kernel's
 * definition; x1Ref takes yOut and x2Ref xOut (the outputs' slots name the inputs). */
#define HOSTNN_SIG_PARAMS_InplaceAddRmsNorm \
  aclTensor *in0, aclTensor *in1, const aclTensor *in2, double d0, const aclTensor *out1
#define HOSTNN_SIG_ARGS_InplaceAddRmsNorm in0, in1, in2, d0, out1
#define HOSTNN_SIG_INS_InplaceAddRmsNorm in0, in1, in2
#define HOSTNN_SIG_OUTS_InplaceAddRmsNorm in0, out1, in1
#define HOSTNN_SIG_DIM_InplaceAddRmsNorm 0
#define HOSTNN_SIG_ARRAY_InplaceAddRmsNorm 0
#define HOSTNN_SIG_SCALARS_InplaceAddRmsNorm HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceAddRmsNorm 0

/* aclnnAddLayerNorm(x1, x2, gamma, beta, biasOptional, epsilon, additionalOutput, yOut,
 * meanOut, rstdOut, xOut): generated from the kernel's definition; biasOptional may be null,
 * every other tensor is required; a double and a bool attribute, four outputs. */
#define HOSTNN_SIG_PARAMS_AddLayerNorm                                                       \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3,    \
      const aclTensor *in4, double d0, bool f0, const aclTensor *out, const aclTensor *out1, \
      const aclTensor *out2, const aclTensor *out3
#define HOSTNN_SIG_ARGS_AddLayerNorm in0, in1, in2, in3, in4, d0, f0, out, out1, out2, out3
#define HOSTNN_SIG_INS_AddLayerNorm in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_AddLayerNorm out, out1, out2, out3
#define HOSTNN_SIG_DIM_AddLayerNorm 0
#define HOSTNN_SIG_ARRAY_AddLayerNorm 0
#define HOSTNN_SIG_SCALARS_AddLayerNorm HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_AddLayerNorm f0

/* aclnnAddLayerNormGrad(dy, x1, x2, rstd, mean, gamma, dsumOptional, dxOut, dgammaOut,
 * dbetaOut): generated from the kernel's definition; seven inputs (dsumOptional may be null),
 * three outputs, every tensor const as CANN declares. */
#define HOSTNN_SIG_PARAMS_AddLayerNormGrad                                                    \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3,     \
      const aclTensor *in4, const aclTensor *in5, const aclTensor *in6, const aclTensor *out, \
      const aclTensor *out1, const aclTensor *out2
#define HOSTNN_SIG_ARGS_AddLayerNormGrad in0, in1, in2, in3, in4, in5, in6, out, out1, out2
#define HOSTNN_SIG_INS_AddLayerNormGrad in0, in1, in2, in3, in4, in5, in6
#define HOSTNN_SIG_OUTS_AddLayerNormGrad out, out1, out2
#define HOSTNN_SIG_DIM_AddLayerNormGrad 0
#define HOSTNN_SIG_ARRAY_AddLayerNormGrad 0
#define HOSTNN_SIG_SCALARS_AddLayerNormGrad 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_AddLayerNormGrad 0

/* aclnnGroupNorm(self, gamma, beta, N, C, HxW, group, eps, out, meanOut, rstdOut): gamma and
 * beta optional; four int64_t attributes and a double. */
#define HOSTNN_SIG_PARAMS_GroupNorm                                                         \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t i0, int64_t i1, \
      int64_t i2, int64_t i3, double d0, aclTensor *out, aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_GroupNorm in0, in1, in2, i0, i1, i2, i3, d0, out, out1, out2
#define HOSTNN_SIG_INS_GroupNorm in0, in1, in2
#define HOSTNN_SIG_OUTS_GroupNorm out, out1, out2
#define HOSTNN_SIG_DIM_GroupNorm 0
#define HOSTNN_SIG_ARRAY_GroupNorm 0
#define HOSTNN_SIG_SCALARS_GroupNorm                                         \
  HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), HOSTNN_SIG_INT_ATTR(i2), \
      HOSTNN_SIG_INT_ATTR(i3), HOSTNN_SIG_ATTR(d0)
#define HOSTNN_SIG_FLAG_GroupNorm 0

/* aclnnGroupNormBackward(gradOut, input, mean, rstd, gamma, N, C, HxW, group, outputMask,
 * gradInput, gradGammaOut, gradBetaOut): gamma optional, four int64_t attributes, an
 * aclBoolArray; each output written where outputMask says so. */
#define HOSTNN_SIG_PARAMS_GroupNormBackward                                               \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      const aclTensor *in4, int64_t i0, int64_t i1, int64_t i2, int64_t i3,               \
      const aclBoolArray *ba0, aclTensor *out, aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_GroupNormBackward \
  in0, in1, in2, in3, in4, i0, i1, i2, i3, ba0, out, out1, out2
#define HOSTNN_SIG_INS_GroupNormBackward in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_GroupNormBackward out, out1, out2
#define HOSTNN_SIG_DIM_GroupNormBackward 0
#define HOSTNN_SIG_ARRAY_GroupNormBackward 0, ba0
#define HOSTNN_SIG_SCALARS_GroupNormBackward                                 \
  HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), HOSTNN_SIG_INT_ATTR(i2), \
      HOSTNN_SIG_INT_ATTR(i3), 0
#define HOSTNN_SIG_FLAG_GroupNormBackward 0

/* aclnnBatchNorm(input, weight, bias, runningMean, runningVar, training, momentum, eps,
 * output, saveMean, saveInvstd): the four per-channel inputs optional (runningMean and
 * runningVar updated in training), a bool and two double attributes. */
#define HOSTNN_SIG_PARAMS_BatchNorm                                                   \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, aclTensor *in3,   \
      aclTensor *in4, bool f0, double d0, double d1, aclTensor *out, aclTensor *out1, \
      aclTensor *out2
#define HOSTNN_SIG_ARGS_BatchNorm in0, in1, in2, in3, in4, f0, d0, d1, out, out1, out2
#define HOSTNN_SIG_INS_BatchNorm in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_BatchNorm out, out1, out2
#define HOSTNN_SIG_DIM_BatchNorm 0
#define HOSTNN_SIG_ARRAY_BatchNorm 0
#define HOSTNN_SIG_SCALARS_BatchNorm HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), 0, 0, 0
#define HOSTNN_SIG_FLAG_BatchNorm f0

/* aclnnBatchNormBackward(gradOut, input, weight, runningMean, runningVar, saveMean,
 * saveInvstd, training, eps, outputMask, gradInput, gradWeight, gradBias): the five
 * per-channel inputs optional, a bool, a double, an aclBoolArray picking the outputs. */
#define HOSTNN_SIG_PARAMS_BatchNormBackward                                                 \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3,   \
      const aclTensor *in4, const aclTensor *in5, const aclTensor *in6, bool f0, double d0, \
      const aclBoolArray *ba0, aclTensor *out, aclTensor *out1, aclTensor *out2
#define HOSTNN_SIG_ARGS_BatchNormBackward \
  in0, in1, in2, in3, in4, in5, in6, f0, d0, ba0, out, out1, out2
#define HOSTNN_SIG_INS_BatchNormBackward in0, in1, in2, in3, in4, in5, in6
#define HOSTNN_SIG_OUTS_BatchNormBackward out, out1, out2
#define HOSTNN_SIG_DIM_BatchNormBackward 0
#define HOSTNN_SIG_ARRAY_BatchNormBackward 0, ba0
#define HOSTNN_SIG_SCALARS_BatchNormBackward HOSTNN_SIG_ATTR(d0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_BatchNormBackward f0

/* aclnnEmbeddingDenseBackward(grad, indices, numWeights, paddingIdx, scaleGradByFreq, out):
 * two uint64_t attributes, carried as int64_t (a paddingIdx above INT64_MAX is a negative one:
 * no padding row), and a bool. */
#define HOSTNN_SIG_PARAMS_EmbeddingDenseBackward                                 \
  const aclTensor *in0, const aclTensor *in1, uint64_t i0, uint64_t i1, bool f0, \
      const aclTensor *out
#define HOSTNN_SIG_ARGS_EmbeddingDenseBackward in0, in1, i0, i1, f0, out
#define HOSTNN_SIG_INS_EmbeddingDenseBackward in0, in1, 0
#define HOSTNN_SIG_OUTS_EmbeddingDenseBackward out, 0, 0
#define HOSTNN_SIG_DIM_EmbeddingDenseBackward 0
#define HOSTNN_SIG_ARRAY_EmbeddingDenseBackward 0
#define HOSTNN_SIG_SCALARS_EmbeddingDenseBackward \
  HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0, 0, 0
#define HOSTNN_SIG_FLAG_EmbeddingDenseBackward f0

/* A loss with its reduction as an int64_t (0 none, 1 mean, 2 sum): aclnnMseLoss, and its
 * gradient, whose in0 is the forward's gradient (aclnnMseLossBackward). */
#define HOSTNN_SIG_PARAMS_Loss \
  const aclTensor *in0, const aclTensor *in1, int64_t i0, aclTensor *out
#define HOSTNN_SIG_ARGS_Loss in0, in1, i0, out
#define HOSTNN_SIG_INS_Loss in0, in1, 0
#define HOSTNN_SIG_OUTS_Loss out, 0, 0
#define HOSTNN_SIG_DIM_Loss 0
#define HOSTNN_SIG_ARRAY_Loss 0
#define HOSTNN_SIG_SCALARS_Loss HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_Loss 0

#define HOSTNN_SIG_PARAMS_GradLoss \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t i0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradLoss in0, in1, in2, i0, out
#define HOSTNN_SIG_INS_GradLoss in0, in1, in2
#define HOSTNN_SIG_OUTS_GradLoss out, 0, 0
#define HOSTNN_SIG_DIM_GradLoss 0
#define HOSTNN_SIG_ARRAY_GradLoss 0
#define HOSTNN_SIG_SCALARS_GradLoss HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradLoss 0

/* aclnnBinaryCrossEntropyWithLogits(self, target, weightOptional, posWeightOptional,
 * reduction, out): two nullable weights and an int64_t reduction. */
#define HOSTNN_SIG_PARAMS_WeightedLoss                                                    \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      int64_t i0, aclTensor *out
#define HOSTNN_SIG_ARGS_WeightedLoss in0, in1, in2, in3, i0, out
#define HOSTNN_SIG_INS_WeightedLoss in0, in1, in2, in3
#define HOSTNN_SIG_OUTS_WeightedLoss out, 0, 0
#define HOSTNN_SIG_DIM_WeightedLoss 0
#define HOSTNN_SIG_ARRAY_WeightedLoss 0
#define HOSTNN_SIG_SCALARS_WeightedLoss HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_WeightedLoss 0

/* Its gradients (gradOutput, self, target, weightOptional, posWeightOptional, reduction,
 * out): aclnnBinaryCrossEntropyWithLogitsBackward, ...TargetBackward. */
#define HOSTNN_SIG_PARAMS_GradWeightedLoss                                                \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      const aclTensor *in4, int64_t i0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradWeightedLoss in0, in1, in2, in3, in4, i0, out
#define HOSTNN_SIG_INS_GradWeightedLoss in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_GradWeightedLoss out, 0, 0
#define HOSTNN_SIG_DIM_GradWeightedLoss 0
#define HOSTNN_SIG_ARRAY_GradWeightedLoss 0
#define HOSTNN_SIG_SCALARS_GradWeightedLoss HOSTNN_SIG_INT_ATTR(i0), 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_GradWeightedLoss 0

/* aclnnNLLLoss(self, target, weight, reduction, ignoreIndex, out, totalWeightOut): two int64_t
 * attributes between the inputs and the two outputs. */
#define HOSTNN_SIG_PARAMS_ClassLoss                                                       \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t i0, int64_t i1, \
      aclTensor *out, aclTensor *out1
#define HOSTNN_SIG_ARGS_ClassLoss in0, in1, in2, i0, i1, out, out1
#define HOSTNN_SIG_INS_ClassLoss in0, in1, in2
#define HOSTNN_SIG_OUTS_ClassLoss out, out1, 0
#define HOSTNN_SIG_DIM_ClassLoss 0
#define HOSTNN_SIG_ARRAY_ClassLoss 0
#define HOSTNN_SIG_SCALARS_ClassLoss HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0, 0, 0
#define HOSTNN_SIG_FLAG_ClassLoss 0

/* Its gradient (gradOutput, self, target, weight, reduction, ignoreIndex, totalWeight, out):
 * the fifth input after the integers (aclnnNLLLossBackward). */
#define HOSTNN_SIG_PARAMS_GradClassLoss                                                   \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      int64_t i0, int64_t i1, const aclTensor *in4, aclTensor *out
#define HOSTNN_SIG_ARGS_GradClassLoss in0, in1, in2, in3, i0, i1, in4, out
#define HOSTNN_SIG_INS_GradClassLoss in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_GradClassLoss out, 0, 0
#define HOSTNN_SIG_DIM_GradClassLoss 0
#define HOSTNN_SIG_ARRAY_GradClassLoss 0
#define HOSTNN_SIG_SCALARS_GradClassLoss HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0, 0, 0
#define HOSTNN_SIG_FLAG_GradClassLoss 0

/* The same where CANN declares totalWeight without const (aclnnNLLLoss2dBackward). */
#define HOSTNN_SIG_PARAMS_GradClassLossRef                                                \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3, \
      int64_t i0, int64_t i1, aclTensor *in4, aclTensor *out
#define HOSTNN_SIG_ARGS_GradClassLossRef in0, in1, in2, in3, i0, i1, in4, out
#define HOSTNN_SIG_INS_GradClassLossRef in0, in1, in2, in3, in4
#define HOSTNN_SIG_OUTS_GradClassLossRef out, 0, 0
#define HOSTNN_SIG_DIM_GradClassLossRef 0
#define HOSTNN_SIG_ARRAY_GradClassLossRef 0
#define HOSTNN_SIG_SCALARS_GradClassLossRef HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_INT_ATTR(i1), 0, 0, 0
#define HOSTNN_SIG_FLAG_GradClassLossRef 0

/* aclnnCrossEntropyLoss(input, target, weightOptional, reductionOptional, ignoreIndex,
 * labelSmoothing, lseSquareScaleForZloss, returnZloss, lossOut, logProbOut, zlossOut,
 * lseForZlossOut): a char* reduction, an int64_t, two doubles and a bool between three inputs
 * and four outputs, every tensor const. */
#define HOSTNN_SIG_PARAMS_CrossEntropyLoss                                                \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, char *c0, int64_t i0, \
      double d0, double d1, bool f0, const aclTensor *out, const aclTensor *out1,         \
      const aclTensor *out2, const aclTensor *out3
#define HOSTNN_SIG_ARGS_CrossEntropyLoss in0, in1, in2, c0, i0, d0, d1, f0, out, out1, out2, out3
#define HOSTNN_SIG_INS_CrossEntropyLoss in0, in1, in2
#define HOSTNN_SIG_OUTS_CrossEntropyLoss out, out1, out2, out3
#define HOSTNN_SIG_DIM_CrossEntropyLoss 0
#define HOSTNN_SIG_ARRAY_CrossEntropyLoss 0
#define HOSTNN_SIG_SCALARS_CrossEntropyLoss \
  HOSTNN_SIG_STRING_ATTR(c0), HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), 0
#define HOSTNN_SIG_FLAG_CrossEntropyLoss f0

/* aclnnCrossEntropyLossGrad(gradLoss, logProb, target, weightOptional, gradZlossOptional,
 * lseForZlossOptional, reductionOptional, ignoreIndex, labelSmoothing, lseSquareScaleForZloss,
 * out): six inputs, the forward's attributes but returnZloss, one output. */
#define HOSTNN_SIG_PARAMS_GradCrossEntropyLoss                                                \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, const aclTensor *in3,     \
      const aclTensor *in4, const aclTensor *in5, char *c0, int64_t i0, double d0, double d1, \
      const aclTensor *out
#define HOSTNN_SIG_ARGS_GradCrossEntropyLoss in0, in1, in2, in3, in4, in5, c0, i0, d0, d1, out
#define HOSTNN_SIG_INS_GradCrossEntropyLoss in0, in1, in2, in3, in4, in5
#define HOSTNN_SIG_OUTS_GradCrossEntropyLoss out, 0, 0
#define HOSTNN_SIG_DIM_GradCrossEntropyLoss 0
#define HOSTNN_SIG_ARRAY_GradCrossEntropyLoss 0
#define HOSTNN_SIG_SCALARS_GradCrossEntropyLoss \
  HOSTNN_SIG_STRING_ATTR(c0), HOSTNN_SIG_INT_ATTR(i0), HOSTNN_SIG_ATTR(d0), HOSTNN_SIG_ATTR(d1), 0
#define HOSTNN_SIG_FLAG_GradCrossEntropyLoss 0

/* aclnnSoftmaxCrossEntropyWithLogits(features, labels, loss, backprop): two inputs and two
 * outputs, labels and the outputs declared without const. */
#define HOSTNN_SIG_PARAMS_SoftmaxCrossEntropy \
  const aclTensor *in0, aclTensor *in1, aclTensor *out, aclTensor *out1
#define HOSTNN_SIG_ARGS_SoftmaxCrossEntropy in0, in1, out, out1
#define HOSTNN_SIG_INS_SoftmaxCrossEntropy in0, in1, 0
#define HOSTNN_SIG_OUTS_SoftmaxCrossEntropy out, out1, 0
#define HOSTNN_SIG_DIM_SoftmaxCrossEntropy 0
#define HOSTNN_SIG_ARRAY_SoftmaxCrossEntropy 0
#define HOSTNN_SIG_SCALARS_SoftmaxCrossEntropy 0, 0, 0, 0, 0
#define HOSTNN_SIG_FLAG_SoftmaxCrossEntropy 0

/* Phase 2 is the same for every operator. */
#define HOSTNN_PHASE2_PARAMS \
  void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream
#define HOSTNN_PHASE2_ARGS workspace, workspaceSize, executor, stream

#endif /* HOSTNN_SRC_ACLNN_SIGNATURES_H_ */
