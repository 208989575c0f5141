/* CANN-compatible two-phase API of aclnnPrelu:
 * out = self where self > 0, weight[c] * self elsewhere, c the index along dim 1 (a weight
 * of one element applies to every element; weight has 1 or self.size(1) elements). self and
 * weight are promoted to one compute dtype and the result cast to out's (signatures of the
 * CANN operator document). Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_PRELU_H__
#define HOSTNN_ACLNNOP_ACLNN_PRELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnPreluGetWorkspaceSize(const aclTensor* self,
                                                           const aclTensor* weight,
                                                           aclTensor* out,
                                                           uint64_t* workspaceSize,
                                                           aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnPrelu(void* workspace, uint64_t workspaceSize,
                                           aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_PRELU_H__ */
