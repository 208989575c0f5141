/* CANN-compatible two-phase API of aclnnLeakyReluBackward: out = gradOutput where
 * self > 0, else gradOutput * negativeSlope; selfIsResult says self is the forward result
 * (the same formula; refused with a negative negativeSlope). Signatures of the CANN
 * operator document. Phase 1 validates and plans; phase 2 runs the plan on the stream
 * (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyReluBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclScalar* negativeSlope,
    bool selfIsResult, aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLeakyReluBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LEAKY_RELU_BACKWARD_H__ */
