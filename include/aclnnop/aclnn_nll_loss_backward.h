/* CANN-compatible two-phase API of aclnnNLLLossBackward, the gradient of
 * aclnnNLLLoss with respect to self: out of self's shape, zero but out[n, t] =
 * -weight[t] g for each row's target t (not ignoreIndex), g = gradOutput[n] (reduction 0),
 * gradOutput (2) or gradOutput / totalWeight (1, mean). */
#ifndef HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weight, int64_t reduction, int64_t ignoreIndex, const aclTensor* totalWeight,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossBackward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_BACKWARD_H__ */
