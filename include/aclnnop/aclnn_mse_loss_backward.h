/* CANN-compatible two-phase API of aclnnMseLossBackward, the gradient of aclnnMseLoss:
 * out = 2 (self - target) gradOutput, divided by self's element count for reduction 1 (mean),
 * the three inputs broadcast to out's shape and of one dtype (FLOAT, FLOAT16 or BFLOAT16), out
 * any of the three: ((self - target) * cof) * gradOutput in f32, in the order of CANN's
 * MseLossGradV2 kernel (cof 2, or 1 / numel(self) * 2 in f32), rounded once to out's dtype. An
 * empty input writes nothing. */
#ifndef HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossBackward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_BACKWARD_H__ */
