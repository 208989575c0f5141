/* CANN-compatible two-phase API of aclnnAddRmsNorm: x = x1 + x2, then RmsNorm of x over
 * gamma's dims (x1's last gamma.dim() dims): yOut = x * rstd * gamma with rstd = 1 / sqrt(
 * mean(x^2) + epsilon) per row. rstdOut (FLOAT, x1's shape with the normalised dims 1) and
 * xOut (x itself, x1's dtype) may be null in the two 16-bit modes CANN's op_api names by which
 * of them is given. docs/norm_family.md has the modes, dtypes, shapes and checks. Signatures
 * of the CANN operator document. Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_ADD_RMS_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_ADD_RMS_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus
aclnnAddRmsNormGetWorkspaceSize(const aclTensor* x1, const aclTensor* x2, const aclTensor* gamma,
                                double epsilon, aclTensor* yOut, aclTensor* rstdOut,
                                aclTensor* xOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnAddRmsNorm(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ADD_RMS_NORM_H__ */
