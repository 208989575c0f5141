/* CANN-compatible two-phase API of aclnnSoftplusBackward: gradInput = gradOutput where
 * beta * self > threshold, else gradOutput * sigmoid(beta * self) (signatures of the CANN
 * operator document). Phase 1 validates and plans; phase 2 runs the plan on the stream
 * (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftplusBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclScalar* beta,
    const aclScalar* threshold, aclTensor* gradInput, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftplusBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_BACKWARD_H__ */
