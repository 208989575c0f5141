/* CANN-compatible two-phase API of aclnnLeakyRelu and aclnnInplaceLeakyRelu: out = self
 * where self > 0, else negativeSlope * self (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_H__
#define HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyReluGetWorkspaceSize(const aclTensor* self,
                                                               const aclScalar* negativeSlope,
                                                               aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyRelu(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLeakyReluGetWorkspaceSize(
    aclTensor* selfRef, const aclScalar* negativeSlope, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceLeakyRelu(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_H__ */
