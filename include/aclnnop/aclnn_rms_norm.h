/* CANN-compatible two-phase API of aclnnRmsNorm: each row of x over gamma's dims (x's last
 * gamma.dim() dims) divided by its root mean square, rms = sqrt(mean(x^2) + epsilon), and
 * scaled by gamma; the rows' rstd = 1 / rms goes to rstdOut (FLOAT, x's shape with the
 * normalised dims 1). docs/norm_family.md has the dtypes, shapes and checks. Signatures of
 * the CANN operator document. Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_RMS_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_RMS_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNormGetWorkspaceSize(
    const aclTensor* x, const aclTensor* gamma, double epsilon, const aclTensor* yOut,
    const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRmsNorm(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_RMS_NORM_H__ */
