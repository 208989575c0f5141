/* CANN-compatible two-phase API of aclnnSoftshrinkBackward: gradInput = 0 for self in [-lambda, lambda], else gradOutput
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftshrinkBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclScalar* lambda, aclTensor* gradInput,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftshrinkBackward(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_BACKWARD_H__ */
