/* CANN-compatible two-phase API of aclnnInplaceAddRmsNorm: aclnnAddRmsNorm in place, x1Ref
 * taking the normalised result (yOut) and x2Ref the sum x1 + x2 (xOut); rstdOut (FLOAT) is
 * required. docs/norm_family.md has the dtypes, shapes and checks. Signatures of the CANN
 * operator document. Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL:
 * now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H__
#define HOSTNN_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddRmsNormGetWorkspaceSize(
    aclTensor* x1Ref, aclTensor* x2Ref, const aclTensor* gamma, double epsilon,
    const aclTensor* rstdOut, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceAddRmsNorm(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_INPLACE_ADD_RMS_NORM_H__ */
