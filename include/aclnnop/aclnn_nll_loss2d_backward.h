/* CANN-compatible two-phase API of aclnnNLLLoss2dBackward, the gradient of
 * aclnnNLLLoss2d with respect to self [N, C, H, W]: zero but at each pixel's target class. */
#ifndef HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2dBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, aclTensor* totalWeight,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2dBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_BACKWARD_H__ */
