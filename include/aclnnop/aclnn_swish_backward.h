/* CANN-compatible two-phase API of aclnnSwishBackward: gradInput = gradOutput * s *
 * (1 + beta * self * (1 - s)), s = sigmoid(beta * self), beta 1.0 where betaOptional is
 * null (signatures of the CANN operator document). Phase 1 validates and plans; phase 2
 * runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SWISH_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_SWISH_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwishBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                   const aclTensor* self,
                                                                   const aclScalar* betaOptional,
                                                                   aclTensor* gradInput,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwishBackward(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SWISH_BACKWARD_H__ */
