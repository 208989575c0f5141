/* CANN-compatible two-phase API of aclnnMish and aclnnInplaceMish:
 * out = self * tanh(softplus(self)) (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_MISH_H__
#define HOSTNN_ACLNNOP_ACLNN_MISH_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMishGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnMish(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMishGetWorkspaceSize(aclTensor* selfRef,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceMish(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_MISH_H__ */
