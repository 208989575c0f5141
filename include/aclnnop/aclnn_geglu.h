/* CANN-compatible two-phase API of aclnnGeGlu and aclnnGeGluV3:
 * self split along dim into halves a and b; outGelu = gelu(b) and out = a * gelu(b)
 * (V3 with activateLeft: outGelu = gelu(a), out = gelu(a) * b). approximate 0 is the erf
 * form of gelu, 1 the tanh form (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_GEGLU_H__
#define HOSTNN_ACLNNOP_ACLNN_GEGLU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluGetWorkspaceSize(const aclTensor* self,
                                                           int64_t dim,
                                                           int64_t approximate,
                                                           aclTensor* out,
                                                           aclTensor* outGelu,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGlu(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3GetWorkspaceSize(const aclTensor* self,
                                                             int64_t dim,
                                                             int64_t approximate,
                                                             bool activateLeft,
                                                             aclTensor* out,
                                                             aclTensor* outGelu,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GEGLU_H__ */
