// The operator list for the kernel units, by Kind (op_list.def's column; hostnn/op.h):
// expands op_list.def with HOSTNN_OP(Name, snake, Signature, Kind, ...) ->
// HOSTNN_KIND_<Kind>(Name). A unit defines the HOSTNN_KIND_ macros of the kinds it
// implements before including this file; the others expand to nothing (a kernel table's
// switch sends them to its `default:`, no kernel there). A new kind is a line in
// hostnn/op.h's enum and its default below. No include guard: included once per
// expansion; it undefines what it defaulted.

#ifndef HOSTNN_KIND_Unary
#define HOSTNN_KIND_Unary(Name)
#define HOSTNN_KIND_Unary_DEFAULTED
#endif
#ifndef HOSTNN_KIND_Binary
#define HOSTNN_KIND_Binary(Name)
#define HOSTNN_KIND_Binary_DEFAULTED
#endif
#ifndef HOSTNN_KIND_Gated
#define HOSTNN_KIND_Gated(Name)
#define HOSTNN_KIND_Gated_DEFAULTED
#endif
#ifndef HOSTNN_KIND_GatedGrad
#define HOSTNN_KIND_GatedGrad(Name)
#define HOSTNN_KIND_GatedGrad_DEFAULTED
#endif
#ifndef HOSTNN_KIND_Rows
#define HOSTNN_KIND_Rows(Name)
#define HOSTNN_KIND_Rows_DEFAULTED
#endif
#ifndef HOSTNN_KIND_NoiseMap
#define HOSTNN_KIND_NoiseMap(Name)
#define HOSTNN_KIND_NoiseMap_DEFAULTED
#endif
#ifndef HOSTNN_KIND_MapColumnSums
#define HOSTNN_KIND_MapColumnSums(Name)
#define HOSTNN_KIND_MapColumnSums_DEFAULTED
#endif
#ifndef HOSTNN_KIND_Gather
#define HOSTNN_KIND_Gather(Name)
#define HOSTNN_KIND_Gather_DEFAULTED
#endif
#ifndef HOSTNN_KIND_ScatterAdd
#define HOSTNN_KIND_ScatterAdd(Name)
#define HOSTNN_KIND_ScatterAdd_DEFAULTED
#endif

#ifndef HOSTNN_KIND_PointLoss
#define HOSTNN_KIND_PointLoss(Name)
#define HOSTNN_KIND_PointLoss_DEFAULTED
#endif

#ifndef HOSTNN_KIND_ClassLoss
#define HOSTNN_KIND_ClassLoss(Name)
#define HOSTNN_KIND_ClassLoss_DEFAULTED
#endif

#ifndef HOSTNN_KIND_SoftmaxLoss
#define HOSTNN_KIND_SoftmaxLoss(Name)
#define HOSTNN_KIND_SoftmaxLoss_DEFAULTED
#endif

#define HOSTNN_OP(Name, snake, sig, kind, ...) HOSTNN_KIND_##kind(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP

#ifdef HOSTNN_KIND_Unary_DEFAULTED
#undef HOSTNN_KIND_Unary
#undef HOSTNN_KIND_Unary_DEFAULTED
#endif
#ifdef HOSTNN_KIND_Binary_DEFAULTED
#undef HOSTNN_KIND_Binary
#undef HOSTNN_KIND_Binary_DEFAULTED
#endif
#ifdef HOSTNN_KIND_Gated_DEFAULTED
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_Gated_DEFAULTED
#endif
#ifdef HOSTNN_KIND_GatedGrad_DEFAULTED
#undef HOSTNN_KIND_GatedGrad
#undef HOSTNN_KIND_GatedGrad_DEFAULTED
#endif
#ifdef HOSTNN_KIND_Rows_DEFAULTED
#undef HOSTNN_KIND_Rows
#undef HOSTNN_KIND_Rows_DEFAULTED
#endif
#ifdef HOSTNN_KIND_MapColumnSums_DEFAULTED
#undef HOSTNN_KIND_MapColumnSums
#undef HOSTNN_KIND_MapColumnSums_DEFAULTED
#endif
#ifdef HOSTNN_KIND_NoiseMap_DEFAULTED
#undef HOSTNN_KIND_NoiseMap
#undef HOSTNN_KIND_NoiseMap_DEFAULTED
#endif
#ifdef HOSTNN_KIND_Gather_DEFAULTED
#undef HOSTNN_KIND_Gather
#undef HOSTNN_KIND_Gather_DEFAULTED
#endif
#ifdef HOSTNN_KIND_ScatterAdd_DEFAULTED
#undef HOSTNN_KIND_ScatterAdd
#undef HOSTNN_KIND_ScatterAdd_DEFAULTED
#endif
#ifdef HOSTNN_KIND_PointLoss_DEFAULTED
#undef HOSTNN_KIND_PointLoss
#undef HOSTNN_KIND_PointLoss_DEFAULTED
#endif
#ifdef HOSTNN_KIND_ClassLoss_DEFAULTED
#undef HOSTNN_KIND_ClassLoss
#undef HOSTNN_KIND_ClassLoss_DEFAULTED
#endif
#ifdef HOSTNN_KIND_SoftmaxLoss_DEFAULTED
#undef HOSTNN_KIND_SoftmaxLoss
#undef HOSTNN_KIND_SoftmaxLoss_DEFAULTED
#endif
