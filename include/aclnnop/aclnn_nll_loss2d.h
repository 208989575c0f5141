/* CANN-compatible two-phase API of aclnnNLLLoss2d: aclnnNLLLoss per pixel, self
 * [N, C, H, W] with the classes along dim 1, target [N, H, W]; out target's shape
 * (reduction 0) or one element. */
#ifndef HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_H__
#define HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2dGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
    int64_t ignoreIndex, aclTensor* out, aclTensor* totalWeightOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss2d(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_NLL_LOSS2D_H__ */
