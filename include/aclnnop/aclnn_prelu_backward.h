/* CANN-compatible two-phase API of aclnnPreluBackward:
 * gradInput = gradOutput where self > 0, weight[c] * gradOutput elsewhere; gradWeight[c] =
 * the sum over channel c of gradOutput * self where self is not > 0 (one weight: the sum
 * over every element). c is the index along dim 1; gradOutput broadcasts to self's shape
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs the
 * plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_PRELU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_PRELU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPreluBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* weight,
    aclTensor* gradInput, aclTensor* gradWeight, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnPreluBackward(void* workspace, uint64_t workspace_size,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_PRELU_BACKWARD_H__ */
