/* CANN-compatible two-phase API of aclnnAddRelu and aclnnInplaceAddRelu:
 * out = relu(self + alpha * other) (self and other broadcast to out; in place, other
 * broadcasts to selfRef; signatures of the CANN operator document). Phase 1 validates and
 * plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_ADD_RELU_H__
#define HOSTNN_ACLNNOP_ACLNN_ADD_RELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddReluGetWorkspaceSize(const aclTensor* self,
                                                             const aclTensor* other,
                                                             aclScalar* alpha, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRelu(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddReluGetWorkspaceSize(aclTensor* selfRef,
                                                                    const aclTensor* other,
                                                                    aclScalar* alpha,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddRelu(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ADD_RELU_H__ */
