/* CANN-compatible two-phase API of aclnnLogSigmoid and aclnnLogSigmoidForward:
 * out = log(sigmoid(self)); LogSigmoidForward's buffer is unused (neither checked nor written)
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs the plan on
 * the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_LOGSIGMOID_H__
#define HOSTNN_ACLNNOP_ACLNN_LOGSIGMOID_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSigmoidGetWorkspaceSize(const aclTensor* self,
                                                                aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSigmoid(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSigmoidForwardGetWorkspaceSize(const aclTensor* self,
                                                                       aclTensor* out,
                                                                       aclTensor* buffer,
                                                                       uint64_t* workspaceSize,
                                                                       aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSigmoidForward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LOGSIGMOID_H__ */
