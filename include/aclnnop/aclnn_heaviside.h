/* CANN-compatible two-phase API of aclnnHeaviside:
 * out = 0 where input < 0, values where input == 0, 1 where input > 0 (input and values
 * broadcast to out; signatures of the CANN operator document). Phase 1 validates and plans;
 * phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_HEAVISIDE_H__
#define HOSTNN_ACLNNOP_ACLNN_HEAVISIDE_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHeavisideGetWorkspaceSize(const aclTensor* input,
                                                               const aclTensor* values,
                                                               aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnHeaviside(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_HEAVISIDE_H__ */
