/* CANN-compatible two-phase API of aclnnSoftplus: out = self where beta * self > threshold,
 * else log(1 + exp(beta * self)) / beta (signatures of the CANN operator document). Phase 1
 * validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftplusGetWorkspaceSize(const aclTensor* self, const aclScalar* beta,
                                                              const aclScalar* threshold,
                                                              aclTensor* out, uint64_t* workspaceSize,
                                                              aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftplus(void* workspace, uint64_t workspaceSize,
                                              aclOpExecutor* executor, const aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTPLUS_H__ */
