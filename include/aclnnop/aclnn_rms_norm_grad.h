/* CANN-compatible two-phase API of aclnnRmsNormGrad, the gradient of aclnnRmsNorm: from dy, x,
 * the forward's rstd (FLOAT, one per row) and gamma, dxOut = (dy * gamma - x * rstd * m) *
 * rstd with m = rstd * mean(dy * gamma * x) over the row, and dgammaOut (FLOAT, gamma's shape)
 * = the sum over the rows of dy * x * rstd. docs/norm_family.md has the dtypes, shapes and
 * checks. Signatures of the CANN operator document. Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_RMS_NORM_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_RMS_NORM_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* x, const aclTensor* rstd, const aclTensor* gamma,
    const aclTensor* dxOut, const aclTensor* dgammaOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormGrad(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_RMS_NORM_GRAD_H__ */
