/* CANN-compatible two-phase API of aclnnSelu and aclnnInplaceSelu:
 * out = scale * (max(0, self) + min(0, alpha * (exp(self) - 1))) (signatures of the CANN
 * operator document). Phase 1 validates and plans; phase 2 runs the plan on the stream
 * (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SELU_H__
#define HOSTNN_ACLNNOP_ACLNN_SELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSeluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSeluGetWorkspaceSize(aclTensor* selfRef,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSelu(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SELU_H__ */
