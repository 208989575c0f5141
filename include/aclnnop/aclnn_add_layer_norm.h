/* CANN-compatible two-phase API of aclnnAddLayerNorm: x = x1 + x2 (+ biasOptional, per
 * column or of x1's shape), then LayerNorm of x over gamma's dims (x1's last gamma.dim()
 * dims): yOut = (x - mean) * rstd * gamma + beta with rstd = 1 / sqrt(var + epsilon) per row,
 * meanOut and rstdOut (FLOAT, x1's shape with the normalised dims 1) the rows' statistics,
 * and xOut x itself where additionalOutput is true. docs/norm_family.md has the dtypes,
 * shapes and checks. Signatures of the CANN operator document. Phase 1 validates and plans;
 * phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNormGetWorkspaceSize(
    const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma, const aclTensor* beta,
    const aclTensor* biasOptional, double epsilon, bool additionalOutput, const aclTensor* yOut,
    const aclTensor* meanOut, const aclTensor* rstdOut, const aclTensor* xOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddLayerNorm(void* workspace, uint64_t workspaceSize,
                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ADD_LAYER_NORM_H__ */
