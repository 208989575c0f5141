/* CANN-compatible two-phase API of aclnnEluBackward: gradInput = gradOutput * scale where
 * selfOrResult > 0, else gradOutput * inputScale * (selfOrResult + alpha * scale) when
 * isResult, or gradOutput * inputScale * alpha * scale * exp(selfOrResult * inputScale)
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_ELU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_ELU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEluBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclScalar* alpha, const aclScalar* scale,
    const aclScalar* inputScale, bool isResult, const aclTensor* selfOrResult, aclTensor* gradInput,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnEluBackward(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ELU_BACKWARD_H__ */
