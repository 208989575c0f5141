// The operator list for the kernel units, by kernel form: expands op_list.def with
// HOSTNN_OP(Name, snake, Signature, ...) -> HOSTNN_EW_<Form>(Name), the form of each
// signature being HOSTNN_SIG_FORM_<Signature> (src/aclnn/signatures.h): Unary (one input),
// Binary (two), Reduction, Split or GradSplit. A unit defines the HOSTNN_EW_ macros of the forms it
// implements before including this file; the others expand to HOSTNN_EW_OTHER(Name), which
// defaults to nothing. No include guard: included once per expansion; it undefines what
// it defaulted.
#include "src/aclnn/signatures.h"

#ifndef HOSTNN_EW_OTHER
#define HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_OTHER_DEFAULTED
#endif
#ifndef HOSTNN_EW_Unary
#define HOSTNN_EW_Unary(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Unary_DEFAULTED
#endif
#ifndef HOSTNN_EW_Binary
#define HOSTNN_EW_Binary(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Binary_DEFAULTED
#endif
#ifndef HOSTNN_EW_Reduction
#define HOSTNN_EW_Reduction(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Reduction_DEFAULTED
#endif
#ifndef HOSTNN_EW_Split
#define HOSTNN_EW_Split(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_Split_DEFAULTED
#endif
#ifndef HOSTNN_EW_GradSplit
#define HOSTNN_EW_GradSplit(Name) HOSTNN_EW_OTHER(Name)
#define HOSTNN_EW_GradSplit_DEFAULTED
#endif

#define HOSTNN_EW_FORM_(form, Name) HOSTNN_EW_##form(Name)
#define HOSTNN_EW_FORM(form, Name) HOSTNN_EW_FORM_(form, Name)
#define HOSTNN_OP(Name, snake, sig, ...) HOSTNN_EW_FORM(HOSTNN_SIG_FORM_##sig, Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_EW_FORM
#undef HOSTNN_EW_FORM_

#ifdef HOSTNN_EW_OTHER_DEFAULTED
#undef HOSTNN_EW_OTHER
#undef HOSTNN_EW_OTHER_DEFAULTED
#endif
#ifdef HOSTNN_EW_Unary_DEFAULTED
#undef HOSTNN_EW_Unary
#undef HOSTNN_EW_Unary_DEFAULTED
#endif
#ifdef HOSTNN_EW_Binary_DEFAULTED
#undef HOSTNN_EW_Binary
#undef HOSTNN_EW_Binary_DEFAULTED
#endif
#ifdef HOSTNN_EW_Reduction_DEFAULTED
#undef HOSTNN_EW_Reduction
#undef HOSTNN_EW_Reduction_DEFAULTED
#endif
#ifdef HOSTNN_EW_Split_DEFAULTED
#undef HOSTNN_EW_Split
#undef HOSTNN_EW_Split_DEFAULTED
#endif
#ifdef HOSTNN_EW_GradSplit_DEFAULTED
#undef HOSTNN_EW_GradSplit
#undef HOSTNN_EW_GradSplit_DEFAULTED
#endif
