/* The C parameter lists of phase 1, one per Signature of op_list.def (hostnn/op.h):
 * HOSTNN_SIG_PARAMS_<Signature> is what comes before (workspaceSize, executor), with the
 * operands named in0, in1, in2, dim and out, the aclScalar parameters s0, s1, s2 and the
 * bool flag f0; HOSTNN_SIG_ARGS_<Signature> passes them on; HOSTNN_SIG_IN1_ / IN2_ / DIM_ /
 * OUT_ give the slot's value, or the null / 0 it stands for when the signature has none
 * (an in-place operator's output is its input); HOSTNN_SIG_SCALARS_ gives s0, s1, s2 (null
 * where absent) and HOSTNN_SIG_FLAG_ f0 (0 where absent), the operator's numbers and flag
 * in the order of its Scalars column. A Signature is a prototype and nothing more: what
 * the operator computes, and so its kernel form, is its list row's Kind (hostnn/op.h), so
 * a new prototype is a block here and a line in hostnn/op.h's enum. Plain macros, so that
 * C (src/cann/forward.c) expands them too. */
#ifndef HOSTNN_SRC_ACLNN_SIGNATURES_H_
#define HOSTNN_SRC_ACLNN_SIGNATURES_H_

#define HOSTNN_SIG_PARAMS_GradEltwise const aclTensor *in0, const aclTensor *in1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwise in0, in1, out
#define HOSTNN_SIG_IN1_GradEltwise in1
#define HOSTNN_SIG_OUT_GradEltwise out
#define HOSTNN_SIG_IN2_GradEltwise 0
#define HOSTNN_SIG_DIM_GradEltwise 0
#define HOSTNN_SIG_SCALARS_GradEltwise 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwise 0

/* The same, where CANN's prototype declares the output const (aclnnGeluBackward). */
#define HOSTNN_SIG_PARAMS_GradEltwiseConstOut \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseConstOut in0, in1, out
#define HOSTNN_SIG_IN1_GradEltwiseConstOut in1
#define HOSTNN_SIG_OUT_GradEltwiseConstOut out
#define HOSTNN_SIG_IN2_GradEltwiseConstOut 0
#define HOSTNN_SIG_DIM_GradEltwiseConstOut 0
#define HOSTNN_SIG_SCALARS_GradEltwiseConstOut 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseConstOut 0

#define HOSTNN_SIG_PARAMS_GradEltwiseBuffer \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseBuffer in0, in1, in2, out
#define HOSTNN_SIG_IN1_GradEltwiseBuffer in1
#define HOSTNN_SIG_OUT_GradEltwiseBuffer out
#define HOSTNN_SIG_IN2_GradEltwiseBuffer in2
#define HOSTNN_SIG_DIM_GradEltwiseBuffer 0
#define HOSTNN_SIG_SCALARS_GradEltwiseBuffer 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseBuffer 0

#define HOSTNN_SIG_PARAMS_GradSoftmax \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, aclTensor *out
#define HOSTNN_SIG_ARGS_GradSoftmax in0, in1, dim, out
#define HOSTNN_SIG_IN1_GradSoftmax in1
#define HOSTNN_SIG_OUT_GradSoftmax out
#define HOSTNN_SIG_IN2_GradSoftmax 0
#define HOSTNN_SIG_DIM_GradSoftmax dim
#define HOSTNN_SIG_SCALARS_GradSoftmax 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSoftmax 0

#define HOSTNN_SIG_PARAMS_Eltwise const aclTensor *in0, aclTensor *out
#define HOSTNN_SIG_ARGS_Eltwise in0, out
#define HOSTNN_SIG_IN1_Eltwise 0
#define HOSTNN_SIG_IN2_Eltwise 0
#define HOSTNN_SIG_DIM_Eltwise 0
#define HOSTNN_SIG_SCALARS_Eltwise 0, 0, 0
#define HOSTNN_SIG_FLAG_Eltwise 0
#define HOSTNN_SIG_OUT_Eltwise out

/* The same, where CANN's prototype declares the output const (aclnnRelu, aclnnHardswish,
 * aclnnSquaredRelu). */
#define HOSTNN_SIG_PARAMS_EltwiseConstOut const aclTensor *in0, const aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseConstOut in0, out
#define HOSTNN_SIG_IN1_EltwiseConstOut 0
#define HOSTNN_SIG_IN2_EltwiseConstOut 0
#define HOSTNN_SIG_DIM_EltwiseConstOut 0
#define HOSTNN_SIG_SCALARS_EltwiseConstOut 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseConstOut 0
#define HOSTNN_SIG_OUT_EltwiseConstOut out

/* CANN's LogSigmoidForward: `buffer` (here in2) is documented as unused; it is neither
 * checked nor written, as there. */
#define HOSTNN_SIG_PARAMS_EltwiseBuffer const aclTensor *in0, aclTensor *out, aclTensor *in2
#define HOSTNN_SIG_ARGS_EltwiseBuffer in0, out, in2
#define HOSTNN_SIG_IN1_EltwiseBuffer 0
#define HOSTNN_SIG_IN2_EltwiseBuffer ((void)in2, (const aclTensor*)0)
#define HOSTNN_SIG_DIM_EltwiseBuffer 0
#define HOSTNN_SIG_SCALARS_EltwiseBuffer 0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseBuffer 0
#define HOSTNN_SIG_OUT_EltwiseBuffer out

#define HOSTNN_SIG_PARAMS_InplaceEltwise const aclTensor* in0
#define HOSTNN_SIG_ARGS_InplaceEltwise in0
#define HOSTNN_SIG_IN1_InplaceEltwise 0
#define HOSTNN_SIG_IN2_InplaceEltwise 0
#define HOSTNN_SIG_DIM_InplaceEltwise 0
#define HOSTNN_SIG_SCALARS_InplaceEltwise 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwise 0
#define HOSTNN_SIG_OUT_InplaceEltwise in0

/* The same, where CANN's prototype takes a non-const aclTensor* selfRef. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseRef aclTensor* in0
#define HOSTNN_SIG_ARGS_InplaceEltwiseRef in0
#define HOSTNN_SIG_IN1_InplaceEltwiseRef 0
#define HOSTNN_SIG_IN2_InplaceEltwiseRef 0
#define HOSTNN_SIG_DIM_InplaceEltwiseRef 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseRef 0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseRef 0
#define HOSTNN_SIG_OUT_InplaceEltwiseRef in0

#define HOSTNN_SIG_PARAMS_Softmax const aclTensor *in0, int64_t dim, aclTensor *out
#define HOSTNN_SIG_ARGS_Softmax in0, dim, out
#define HOSTNN_SIG_IN1_Softmax 0
#define HOSTNN_SIG_IN2_Softmax 0
#define HOSTNN_SIG_DIM_Softmax dim
#define HOSTNN_SIG_SCALARS_Softmax 0, 0, 0
#define HOSTNN_SIG_FLAG_Softmax 0
#define HOSTNN_SIG_OUT_Softmax out

/* aclnnLeakyRelu(self, negativeSlope, out) and its kind: one aclScalar parameter. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar const aclTensor *in0, const aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar in0, s0, out
#define HOSTNN_SIG_IN1_EltwiseScalar 0
#define HOSTNN_SIG_IN2_EltwiseScalar 0
#define HOSTNN_SIG_DIM_EltwiseScalar 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar s0, 0, 0
#define HOSTNN_SIG_FLAG_EltwiseScalar 0
#define HOSTNN_SIG_OUT_EltwiseScalar out

/* aclnnInplaceLeakyRelu(selfRef, negativeSlope) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar aclTensor *in0, const aclScalar *s0
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar in0, s0
#define HOSTNN_SIG_IN1_InplaceEltwiseScalar 0
#define HOSTNN_SIG_IN2_InplaceEltwiseScalar 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar s0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar 0
#define HOSTNN_SIG_OUT_InplaceEltwiseScalar in0

/* aclnnLeakyReluBackward(gradOutput, self, negativeSlope, selfIsResult, out) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalarFlag \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, bool f0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalarFlag in0, in1, s0, f0, out
#define HOSTNN_SIG_IN1_GradEltwiseScalarFlag in1
#define HOSTNN_SIG_IN2_GradEltwiseScalarFlag 0
#define HOSTNN_SIG_DIM_GradEltwiseScalarFlag 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalarFlag s0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalarFlag f0
#define HOSTNN_SIG_OUT_GradEltwiseScalarFlag out

/* aclnnHardshrinkBackward(gradOutput, self, lambd, gradInput) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalar \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalar in0, in1, s0, out
#define HOSTNN_SIG_IN1_GradEltwiseScalar in1
#define HOSTNN_SIG_IN2_GradEltwiseScalar 0
#define HOSTNN_SIG_DIM_GradEltwiseScalar 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalar s0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalar 0
#define HOSTNN_SIG_OUT_GradEltwiseScalar out

/* aclnnHardtanhBackward(gradOutput, self, min, max, out) and its kind. */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalar2 \
  const aclTensor *in0, const aclTensor *in1, const aclScalar *s0, const aclScalar *s1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalar2 in0, in1, s0, s1, out
#define HOSTNN_SIG_IN1_GradEltwiseScalar2 in1
#define HOSTNN_SIG_IN2_GradEltwiseScalar2 0
#define HOSTNN_SIG_DIM_GradEltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalar2 s0, s1, 0
#define HOSTNN_SIG_FLAG_GradEltwiseScalar2 0
#define HOSTNN_SIG_OUT_GradEltwiseScalar2 out

/* aclnnSoftplus(self, beta, threshold, out) and its kind: two aclScalar parameters. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar2 \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar2 in0, s0, s1, out
#define HOSTNN_SIG_IN1_EltwiseScalar2 0
#define HOSTNN_SIG_IN2_EltwiseScalar2 0
#define HOSTNN_SIG_DIM_EltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar2 s0, s1, 0
#define HOSTNN_SIG_FLAG_EltwiseScalar2 0
#define HOSTNN_SIG_OUT_EltwiseScalar2 out

/* aclnnInplaceThreshold(selfRef, threshold, value) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar2 \
  aclTensor *in0, const aclScalar *s0, const aclScalar *s1
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar2 in0, s0, s1
#define HOSTNN_SIG_IN1_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_IN2_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar2 s0, s1, 0
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar2 0
#define HOSTNN_SIG_OUT_InplaceEltwiseScalar2 in0

/* aclnnElu(self, alpha, scale, inputScale, out) and its kind: three aclScalar parameters. */
#define HOSTNN_SIG_PARAMS_EltwiseScalar3 \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2, aclTensor *out
#define HOSTNN_SIG_ARGS_EltwiseScalar3 in0, s0, s1, s2, out
#define HOSTNN_SIG_IN1_EltwiseScalar3 0
#define HOSTNN_SIG_IN2_EltwiseScalar3 0
#define HOSTNN_SIG_DIM_EltwiseScalar3 0
#define HOSTNN_SIG_SCALARS_EltwiseScalar3 s0, s1, s2
#define HOSTNN_SIG_FLAG_EltwiseScalar3 0
#define HOSTNN_SIG_OUT_EltwiseScalar3 out

/* aclnnInplaceElu(selfRef, alpha, scale, inputScale) and its kind. */
#define HOSTNN_SIG_PARAMS_InplaceEltwiseScalar3 \
  aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2
#define HOSTNN_SIG_ARGS_InplaceEltwiseScalar3 in0, s0, s1, s2
#define HOSTNN_SIG_IN1_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_IN2_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_DIM_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_SCALARS_InplaceEltwiseScalar3 s0, s1, s2
#define HOSTNN_SIG_FLAG_InplaceEltwiseScalar3 0
#define HOSTNN_SIG_OUT_InplaceEltwiseScalar3 in0

/* aclnnEluBackward(gradOutput, alpha, scale, inputScale, isResult, selfOrResult, gradInput):
 * the parameters come between the two inputs (and CANN checks them for null there). */
#define HOSTNN_SIG_PARAMS_GradEltwiseScalarsBetween                                        \
  const aclTensor *in0, const aclScalar *s0, const aclScalar *s1, const aclScalar *s2, \
      bool f0, const aclTensor *in1, aclTensor *out
#define HOSTNN_SIG_ARGS_GradEltwiseScalarsBetween in0, s0, s1, s2, f0, in1, out
#define HOSTNN_SIG_IN1_GradEltwiseScalarsBetween in1
#define HOSTNN_SIG_IN2_GradEltwiseScalarsBetween 0
#define HOSTNN_SIG_DIM_GradEltwiseScalarsBetween 0
#define HOSTNN_SIG_SCALARS_GradEltwiseScalarsBetween s0, s1, s2
#define HOSTNN_SIG_FLAG_GradEltwiseScalarsBetween f0
#define HOSTNN_SIG_OUT_GradEltwiseScalarsBetween out

/* aclnnAddRelu(self, other, alpha, out): two inputs and a number, which CANN declares
 * without const (aclScalar* alpha). */
#define HOSTNN_SIG_PARAMS_BinaryScalar \
  const aclTensor *in0, const aclTensor *in1, aclScalar *s0, aclTensor *out
#define HOSTNN_SIG_ARGS_BinaryScalar in0, in1, s0, out
#define HOSTNN_SIG_IN1_BinaryScalar in1
#define HOSTNN_SIG_IN2_BinaryScalar 0
#define HOSTNN_SIG_DIM_BinaryScalar 0
#define HOSTNN_SIG_SCALARS_BinaryScalar s0, 0, 0
#define HOSTNN_SIG_FLAG_BinaryScalar 0
#define HOSTNN_SIG_OUT_BinaryScalar out

/* aclnnInplaceAddRelu(selfRef, other, alpha): the same, the result written to selfRef, whose
 * shape is the broadcast shape. */
#define HOSTNN_SIG_PARAMS_InplaceBinaryScalar aclTensor *in0, const aclTensor *in1, aclScalar *s0
#define HOSTNN_SIG_ARGS_InplaceBinaryScalar in0, in1, s0
#define HOSTNN_SIG_IN1_InplaceBinaryScalar in1
#define HOSTNN_SIG_IN2_InplaceBinaryScalar 0
#define HOSTNN_SIG_DIM_InplaceBinaryScalar 0
#define HOSTNN_SIG_SCALARS_InplaceBinaryScalar s0, 0, 0
#define HOSTNN_SIG_FLAG_InplaceBinaryScalar 0
#define HOSTNN_SIG_OUT_InplaceBinaryScalar in0

/* The gated linear units (hostnn/op.h, IsSplit): self split along dim into halves. Glu and
 * SwiGlu declare out const; GeGlu's second output outGelu travels in slot in2 and its
 * int64_t approximate as a number (i0, read as an INT64 aclScalar by capi::IntAttr). */
#define HOSTNN_SIG_PARAMS_Split const aclTensor *in0, int64_t dim, const aclTensor *out
#define HOSTNN_SIG_ARGS_Split in0, dim, out
#define HOSTNN_SIG_IN1_Split 0
#define HOSTNN_SIG_IN2_Split 0
#define HOSTNN_SIG_DIM_Split dim
#define HOSTNN_SIG_SCALARS_Split 0, 0, 0
#define HOSTNN_SIG_FLAG_Split 0
#define HOSTNN_SIG_OUT_Split out

#define HOSTNN_SIG_PARAMS_GradSplit \
  const aclTensor *in0, const aclTensor *in1, int64_t dim, const aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplit in0, in1, dim, out
#define HOSTNN_SIG_IN1_GradSplit in1
#define HOSTNN_SIG_IN2_GradSplit 0
#define HOSTNN_SIG_DIM_GradSplit dim
#define HOSTNN_SIG_SCALARS_GradSplit 0, 0, 0
#define HOSTNN_SIG_FLAG_GradSplit 0
#define HOSTNN_SIG_OUT_GradSplit out

#define HOSTNN_SIG_PARAMS_SplitGelu \
  const aclTensor *in0, int64_t dim, int64_t i0, aclTensor *out, aclTensor *in2
#define HOSTNN_SIG_ARGS_SplitGelu in0, dim, i0, out, in2
#define HOSTNN_SIG_IN1_SplitGelu 0
#define HOSTNN_SIG_IN2_SplitGelu in2
#define HOSTNN_SIG_DIM_SplitGelu dim
#define HOSTNN_SIG_SCALARS_SplitGelu HOSTNN_SIG_INT_ATTR(i0), 0, 0
#define HOSTNN_SIG_FLAG_SplitGelu 0
#define HOSTNN_SIG_OUT_SplitGelu out

#define HOSTNN_SIG_PARAMS_SplitGeluFlag \
  const aclTensor *in0, int64_t dim, int64_t i0, bool f0, aclTensor *out, aclTensor *in2
#define HOSTNN_SIG_ARGS_SplitGeluFlag in0, dim, i0, f0, out, in2
#define HOSTNN_SIG_IN1_SplitGeluFlag 0
#define HOSTNN_SIG_IN2_SplitGeluFlag in2
#define HOSTNN_SIG_DIM_SplitGeluFlag dim
#define HOSTNN_SIG_SCALARS_SplitGeluFlag HOSTNN_SIG_INT_ATTR(i0), 0, 0
#define HOSTNN_SIG_FLAG_SplitGeluFlag f0
#define HOSTNN_SIG_OUT_SplitGeluFlag out

#define HOSTNN_SIG_PARAMS_GradSplitGelu                                                   \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t dim, int64_t i0, \
      aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitGelu in0, in1, in2, dim, i0, out
#define HOSTNN_SIG_IN1_GradSplitGelu in1
#define HOSTNN_SIG_IN2_GradSplitGelu in2
#define HOSTNN_SIG_DIM_GradSplitGelu dim
#define HOSTNN_SIG_SCALARS_GradSplitGelu HOSTNN_SIG_INT_ATTR(i0), 0, 0
#define HOSTNN_SIG_FLAG_GradSplitGelu 0
#define HOSTNN_SIG_OUT_GradSplitGelu out

#define HOSTNN_SIG_PARAMS_GradSplitGeluFlag                                               \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, int64_t dim, int64_t i0, \
      bool f0, aclTensor *out
#define HOSTNN_SIG_ARGS_GradSplitGeluFlag in0, in1, in2, dim, i0, f0, out
#define HOSTNN_SIG_IN1_GradSplitGeluFlag in1
#define HOSTNN_SIG_IN2_GradSplitGeluFlag in2
#define HOSTNN_SIG_DIM_GradSplitGeluFlag dim
#define HOSTNN_SIG_SCALARS_GradSplitGeluFlag HOSTNN_SIG_INT_ATTR(i0), 0, 0
#define HOSTNN_SIG_FLAG_GradSplitGeluFlag f0
#define HOSTNN_SIG_OUT_GradSplitGeluFlag out

/* An int64_t attribute as the aclScalar the numbers travel in (C++ only). */
#define HOSTNN_SIG_INT_ATTR(v) hostnn::capi::IntAttr(v).get()

/* aclnnPreluBackward(gradOutput, self, weight, gradInput, gradWeight): three inputs and two
 * outputs; the second output travels with the first (capi::TwoOutputs). */
#define HOSTNN_SIG_PARAMS_GradEltwise2Out \
  const aclTensor *in0, const aclTensor *in1, const aclTensor *in2, aclTensor *out, aclTensor *out2
#define HOSTNN_SIG_ARGS_GradEltwise2Out in0, in1, in2, out, out2
#define HOSTNN_SIG_IN1_GradEltwise2Out in1
#define HOSTNN_SIG_IN2_GradEltwise2Out in2
#define HOSTNN_SIG_DIM_GradEltwise2Out 0
#define HOSTNN_SIG_SCALARS_GradEltwise2Out 0, 0, 0
#define HOSTNN_SIG_FLAG_GradEltwise2Out 0
#define HOSTNN_SIG_OUT_GradEltwise2Out hostnn::capi::TwoOutputs(out, out2)

/* Phase 2 is the same for every operator. */
#define HOSTNN_PHASE2_PARAMS \
  void *workspace, uint64_t workspaceSize, aclOpExecutor *executor, aclrtStream stream
#define HOSTNN_PHASE2_ARGS workspace, workspaceSize, executor, stream

#endif /* HOSTNN_SRC_ACLNN_SIGNATURES_H_ */
