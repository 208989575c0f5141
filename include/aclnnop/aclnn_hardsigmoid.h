/* CANN-compatible two-phase API of aclnnHardsigmoid and aclnnInplaceHardsigmoid:
 * out = max(0, min(1, self / 6 + 1 / 2)) (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_HARDSIGMOID_H__
#define HOSTNN_ACLNNOP_ACLNN_HARDSIGMOID_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardsigmoidGetWorkspaceSize(const aclTensor* self,
                                                                 aclTensor* out,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardsigmoid(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardsigmoidGetWorkspaceSize(const aclTensor* self,
                                                                        uint64_t* workspaceSize,
                                                                        aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardsigmoid(void* workspace, uint64_t workspaceSize,
                                                        aclOpExecutor* executor,
                                                        aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_HARDSIGMOID_H__ */
