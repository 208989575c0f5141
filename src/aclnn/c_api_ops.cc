// Every operator's two CANN entry points, generated from the operator list: phase 1 packs
// the operands into OpArgs by the operator's Signature (src/aclnn/signatures.h) and goes
// to capi::GetWorkspaceSize; phase 2 goes to capi::Launch. Both run inside the edge every C
// entry point has (runtime::Entry), so nothing thrown below reaches the caller, whatever
// operator the list adds. The public headers are included (all of them, through the
// generated aclnnop_all.h), so a definition that drifts from its declaration does not
// compile.

#include "hostnn/aclnnop_all.h"
#include "src/aclnn/c_api.h"
#include "src/aclnn/signatures.h"
#include "base/entry_alias.h"
#include "src/runtime/runtime.h"

extern "C" {

#define HOSTNN_OP(Name, snake, sig, ...)                                                      \
  aclnnStatus aclnn##Name##GetWorkspaceSize(HOSTNN_SIG_PARAMS_##sig, uint64_t* workspaceSize, \
                                            aclOpExecutor** executor) {                       \
    return hostnn::runtime::Entry("aclnn" #Name "GetWorkspaceSize", ACLNN_ERR_INNER, [&] {    \
      return hostnn::capi::GetWorkspaceSize(                                                  \
          hostnn::capi::MakeArgs(hostnn::Op::k##Name, {HOSTNN_SIG_INS_##sig},                 \
                                 {HOSTNN_SIG_OUTS_##sig}, HOSTNN_SIG_DIM_##sig,               \
                                 hostnn::capi::Arrays(HOSTNN_SIG_ARRAY_##sig),                \
                                 HOSTNN_SIG_SCALARS_##sig, HOSTNN_SIG_FLAG_##sig),            \
          workspaceSize, executor);                                                           \
    });                                                                                       \
  }                                                                                           \
  aclnnStatus aclnn##Name(HOSTNN_PHASE2_PARAMS) {                                             \
    return hostnn::runtime::Entry("aclnn" #Name, ACLNN_ERR_INNER, [&] {                       \
      return hostnn::capi::Launch(hostnn::Op::k##Name, HOSTNN_PHASE2_ARGS);                   \
    });                                                                                       \
  }                                                                                           \
  HOSTNN_ENTRY_ALIAS(aclnn##Name##GetWorkspaceSize)                                           \
  HOSTNN_ENTRY_ALIAS(aclnn##Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP

}  // extern "C"
