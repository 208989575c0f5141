/* CANN-compatible two-phase API of aclnnGroupNormBackward, the gradient of aclnnGroupNorm:
 * from gradOut, input, the forward's mean and rstd ([N, group] elements) and gamma (C values,
 * 1 where null), gradInput = (gradOut * gamma[c] - mean(gradOut * gamma) - xhat *
 * mean(gradOut * gamma * xhat)) * rstd over each group's row, xhat = (input - mean) * rstd;
 * gradGammaOut and gradBetaOut the per-channel sums of gradOut * xhat and gradOut. outputMask
 * (3 values) picks the outputs. docs/norm_family.md has the dtypes, shapes and checks.
 * Signatures of the CANN operator document. Phase 1 validates and plans; phase 2 runs the
 * plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
// ops-nn's sample program of this operator (test_aclnn_group_norm_grad.cpp) uses std::array
// without including <array>; CANN's build of it finds the header through its includes.
#include <array>
#endif

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormBackwardGetWorkspaceSize(
    const aclTensor* gradOut, const aclTensor* input, const aclTensor* mean, const aclTensor* rstd,
    const aclTensor* gamma, int64_t N, int64_t C, int64_t HxW, int64_t group,
    const aclBoolArray* outputMask, aclTensor* gradInput, aclTensor* gradGammaOut,
    aclTensor* gradBetaOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormBackward(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_BACKWARD_H__ */
