/* CANN-compatible two-phase API of aclnnLayerNorm and aclnnLayerNormWithImplMode: each row of
 * input over its last len(normalizedShape) dims normalised to mean 0 and variance 1, then
 * scaled by weightOptional and shifted by biasOptional; the rows' mean and rstd =
 * 1 / sqrt(var + eps) go to meanOutOptional and rstdOutOptional when given (the optional
 * tensors may be NULL). docs/norm_family.md has the dtypes, shapes and checks. Signatures of
 * the CANN operator document. Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNorm(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

/* implMode: 0 high precision, 1 high performance, 2 keep FLOAT16 (every input FLOAT16). hostnn
 * computes every mode the same way, at the first one's precision. */
ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplModeGetWorkspaceSize(
    const aclTensor* input, const aclIntArray* normalizedShape, const aclTensor* weightOptional,
    const aclTensor* biasOptional, double eps, aclTensor* out, aclTensor* meanOutOptional,
    aclTensor* rstdOutOptional, int32_t implMode, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLayerNormWithImplMode(void* workspace, uint64_t workspaceSize,
                                                           aclOpExecutor* executor,
                                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LAYER_NORM_H__ */
