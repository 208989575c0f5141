/* CANN-compatible two-phase API of aclnnAddLayerNormGrad: the gradient of AddLayerNorm. From
 * dy, the forward's inputs x1 and x2 (x = x1 + x2), its mean and rstd (FLOAT, one per row) and
 * gamma: per row xhat = (x - mean) * rstd, dxOut = (dy * gamma - mean(dy * gamma) - xhat *
 * mean(dy * gamma * xhat)) * rstd + dsumOptional; per column dgammaOut = sum(dy * xhat) and
 * dbetaOut = sum(dy) over the rows (FLOAT). docs/norm_family.md has the dtypes, shapes and
 * checks. Signatures of the CANN operator document. Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormGradGetWorkspaceSize(
    const aclTensor* dy, const aclTensor* x1, const aclTensor* x2, const aclTensor* rstd,
    const aclTensor* mean, const aclTensor* gamma, const aclTensor* dsumOptional,
    const aclTensor* dxOut, const aclTensor* dgammaOut, const aclTensor* dbetaOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormGrad(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_GRAD_H__ */
