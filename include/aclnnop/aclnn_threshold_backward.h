/* CANN-compatible two-phase API of aclnnThresholdBackward: out = gradOutput where self >
 * threshold, else 0, gradOutput and self broadcast to out (signatures of the CANN operator
 * document). Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnThresholdBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                       const aclTensor* self,
                                                                       const aclScalar* threshold,
                                                                       aclTensor* out,
                                                                       uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnThresholdBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor,
                                                       const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_THRESHOLD_BACKWARD_H__ */
