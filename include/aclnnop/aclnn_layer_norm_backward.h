/* CANN-compatible two-phase API of aclnnLayerNormBackward, the gradient of aclnnLayerNorm:
 * from gradOut, input, the forward's mean and rstd (one per row) and weightOptional (1 where
 * NULL), per row xhat = (input - mean) * rstd and gradInputOut = (gradOut * weight -
 * mean(gradOut * weight) - xhat * mean(gradOut * weight * xhat)) * rstd; over the rows
 * gradWeightOut = sum(gradOut * xhat) and gradBiasOut = sum(gradOut). outputMask (three bools)
 * says which of the three are computed; biasOptional is only checked. docs/norm_family.md has
 * the dtypes, shapes and checks. Signatures of the CANN operator document. Phase 1 validates
 * and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclIntArray* normalizedShape,
    const aclTensor* mean, const aclTensor* rstd, const aclTensor* weightOptional,
    const aclTensor* biasOptional, const aclBoolArray* outputMask, aclTensor* gradInputOut,
    aclTensor* gradWeightOut, aclTensor* gradBiasOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_BACKWARD_H__ */
