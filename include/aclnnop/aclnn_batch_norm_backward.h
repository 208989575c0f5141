/* CANN-compatible two-phase API of aclnnBatchNormBackward, the gradient of aclnnBatchNorm:
 * per channel, from the forward's saveMean and saveInvstd (training; saveInvstd the variance,
 * Atlas A2's meaning) or runningMean and runningVar (inference), with invstd = 1 /
 * sqrt(var + eps): gradWeight = sum(gradOut * xhat), gradBias = sum(gradOut), xhat = (input -
 * mean) * invstd, and gradInput = weight * invstd * (gradOut - (gradBias + xhat * gradWeight)
 * / M) in training (M the elements per channel), weight * invstd * gradOut in inference.
 * outputMask (3 values) picks the outputs. docs/norm_family.md has the dtypes, shapes and
 * checks. Signatures of the CANN operator document. Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* weight,
    const aclTensor* runningMean, const aclTensor* runningVar, const aclTensor* saveMean,
    const aclTensor* saveInvstd, bool training, double eps, const aclBoolArray* outputMask,
    aclTensor* gradInput, aclTensor* gradWeight, aclTensor* gradBias, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_BACKWARD_H__ */
