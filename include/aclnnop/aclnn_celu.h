/* CANN-compatible two-phase API of aclnnCelu and aclnnInplaceCelu: out = max(0, self) +
 * min(0, alpha * (exp(self / alpha) - 1)), alpha non-zero (signatures of the CANN operator
 * document). Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_CELU_H__
#define HOSTNN_ACLNNOP_ACLNN_CELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCeluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                                          aclTensor* out, uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnCelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCeluGetWorkspaceSize(aclTensor* selfRef,
                                                                 const aclScalar* alpha,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceCelu(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_CELU_H__ */
