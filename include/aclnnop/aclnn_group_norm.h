/* CANN-compatible two-phase API of aclnnGroupNorm: self [N, C, *] viewed as N x group rows of
 * C / group channels by HxW elements, each row normalised, out = (x - mean) * rstd * gamma[c]
 * + beta[c] with gamma and beta one value per channel (null: 1 and 0), rstd = 1 / sqrt(var +
 * eps) (the biased variance); meanOut and rstdOut [N, group], self's dtype. N, C and HxW must
 * describe self. docs/norm_family.md has the dtypes, shapes and checks. Signatures of the CANN
 * operator document. Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL:
 * now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNormGetWorkspaceSize(
    const aclTensor* self, const aclTensor* gamma, const aclTensor* beta, int64_t N, int64_t C,
    int64_t HxW, int64_t group, double eps, aclTensor* out, aclTensor* meanOut, aclTensor* rstdOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGroupNorm(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GROUP_NORM_H__ */
