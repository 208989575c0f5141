/* CANN-compatible two-phase API of aclnnRelu and aclnnInplaceRelu: out = self where
 * self > 0, else 0 (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_RELU_H__
#define HOSTNN_ACLNNOP_ACLNN_RELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnReluGetWorkspaceSize(const aclTensor* self, const aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceReluGetWorkspaceSize(aclTensor* selfRef,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRelu(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_RELU_H__ */
