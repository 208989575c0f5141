// The operator list for the kernel units: expands op_list.def with HOSTNN_OP(Name, snake,
// Signature, ...) -> HOSTNN_EW_<Signature>(Name). A unit defines the HOSTNN_EW_ macros of
// the signatures it implements; the others default to HOSTNN_EW_OTHER(Name), which
// defaults to nothing. No include guard: included once per expansion.
#ifndef HOSTNN_EW_OTHER
#define HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_OTHER_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwise
#define HOSTNN_EW_GradEltwise(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwise_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwiseConstOut
#define HOSTNN_EW_GradEltwiseConstOut(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwiseConstOut_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwiseBuffer
#define HOSTNN_EW_GradEltwiseBuffer(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwiseBuffer_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradSoftmax
#define HOSTNN_EW_GradSoftmax(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradSoftmax_DEFAULTED
#endif
#ifndef HOSTNN_EW_Eltwise
#define HOSTNN_EW_Eltwise(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Eltwise_DEFAULTED
#endif
#ifndef HOSTNN_EW_EltwiseConstOut
#define HOSTNN_EW_EltwiseConstOut(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_EltwiseConstOut_DEFAULTED
#endif
#ifndef HOSTNN_EW_EltwiseBuffer
#define HOSTNN_EW_EltwiseBuffer(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_EltwiseBuffer_DEFAULTED
#endif
#ifndef HOSTNN_EW_InplaceEltwise
#define HOSTNN_EW_InplaceEltwise(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_InplaceEltwise_DEFAULTED
#endif
#ifndef HOSTNN_EW_InplaceEltwiseRef
#define HOSTNN_EW_InplaceEltwiseRef(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_InplaceEltwiseRef_DEFAULTED
#endif
#ifndef HOSTNN_EW_Softmax
#define HOSTNN_EW_Softmax(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Softmax_DEFAULTED
#endif
#ifndef HOSTNN_EW_EltwiseScalar
#define HOSTNN_EW_EltwiseScalar(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_EltwiseScalar_DEFAULTED
#endif
#ifndef HOSTNN_EW_InplaceEltwiseScalar
#define HOSTNN_EW_InplaceEltwiseScalar(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_InplaceEltwiseScalar_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwiseScalarFlag
#define HOSTNN_EW_GradEltwiseScalarFlag(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwiseScalarFlag_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwiseScalar
#define HOSTNN_EW_GradEltwiseScalar(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwiseScalar_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradEltwiseScalar2
#define HOSTNN_EW_GradEltwiseScalar2(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradEltwiseScalar2_DEFAULTED
#endif

#include "hostnn/op_list.def"

#ifdef HOSTNN_EW_OTHER_DEFAULTED
#undef HOSTNN_EW_OTHER
#undef HOSTNN_EW_OTHER_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwise_DEFAULTED
#undef HOSTNN_EW_GradEltwise
#undef HOSTNN_EW_GradEltwise_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwiseConstOut_DEFAULTED
#undef HOSTNN_EW_GradEltwiseConstOut
#undef HOSTNN_EW_GradEltwiseConstOut_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwiseBuffer_DEFAULTED
#undef HOSTNN_EW_GradEltwiseBuffer
#undef HOSTNN_EW_GradEltwiseBuffer_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradSoftmax_DEFAULTED
#undef HOSTNN_EW_GradSoftmax
#undef HOSTNN_EW_GradSoftmax_DEFAULTED
#endif
#ifdef HOSTNN_EW_Eltwise_DEFAULTED
#undef HOSTNN_EW_Eltwise
#undef HOSTNN_EW_Eltwise_DEFAULTED
#endif
#ifdef HOSTNN_EW_EltwiseConstOut_DEFAULTED
#undef HOSTNN_EW_EltwiseConstOut
#undef HOSTNN_EW_EltwiseConstOut_DEFAULTED
#endif
#ifdef HOSTNN_EW_EltwiseBuffer_DEFAULTED
#undef HOSTNN_EW_EltwiseBuffer
#undef HOSTNN_EW_EltwiseBuffer_DEFAULTED
#endif
#ifdef HOSTNN_EW_InplaceEltwise_DEFAULTED
#undef HOSTNN_EW_InplaceEltwise
#undef HOSTNN_EW_InplaceEltwise_DEFAULTED
#endif
#ifdef HOSTNN_EW_InplaceEltwiseRef_DEFAULTED
#undef HOSTNN_EW_InplaceEltwiseRef
#undef HOSTNN_EW_InplaceEltwiseRef_DEFAULTED
#endif
#ifdef HOSTNN_EW_Softmax_DEFAULTED
#undef HOSTNN_EW_Softmax
#undef HOSTNN_EW_Softmax_DEFAULTED
#endif
#ifdef HOSTNN_EW_EltwiseScalar_DEFAULTED
#undef HOSTNN_EW_EltwiseScalar
#undef HOSTNN_EW_EltwiseScalar_DEFAULTED
#endif
#ifdef HOSTNN_EW_InplaceEltwiseScalar_DEFAULTED
#undef HOSTNN_EW_InplaceEltwiseScalar
#undef HOSTNN_EW_InplaceEltwiseScalar_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwiseScalarFlag_DEFAULTED
#undef HOSTNN_EW_GradEltwiseScalarFlag
#undef HOSTNN_EW_GradEltwiseScalarFlag_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwiseScalar_DEFAULTED
#undef HOSTNN_EW_GradEltwiseScalar
#undef HOSTNN_EW_GradEltwiseScalar_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradEltwiseScalar2_DEFAULTED
#undef HOSTNN_EW_GradEltwiseScalar2
#undef HOSTNN_EW_GradEltwiseScalar2_DEFAULTED
#endif
