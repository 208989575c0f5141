/* CANN-compatible two-phase API of aclnnBatchNorm: input [N, C, ...] (2 to 8 dims) normalised
 * per channel over every other dim. Training: each channel's batch mean and biased variance,
 * output = (input - mean) / sqrt(var + eps) * weight + bias, saveMean the mean and saveInvstd
 * the variance (Atlas A2's meaning), runningMean and runningVar (where given) updated with
 * momentum, the variance unbiased. Inference: the running statistics instead, saveMean and
 * saveInvstd untouched. weight, bias, runningMean, runningVar optional (1, 0, 0, 1).
 * docs/norm_family.md has the dtypes, shapes and checks. Signatures of the CANN operator
 * document. Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNormGetWorkspaceSize(
    const aclTensor* input, const aclTensor* weight, const aclTensor* bias, aclTensor* runningMean,
    aclTensor* runningVar, bool training, double momentum, double eps, aclTensor* output,
    aclTensor* saveMean, aclTensor* saveInvstd, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnBatchNorm(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_BATCH_NORM_H__ */
