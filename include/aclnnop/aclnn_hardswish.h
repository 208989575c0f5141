/* CANN-compatible two-phase API of aclnnHardswish and aclnnInplaceHardswish:
 * out = self * clamp(self + 3, 0, 6) / 6 (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_HARDSWISH_H__
#define HOSTNN_ACLNNOP_ACLNN_HARDSWISH_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardswishGetWorkspaceSize(const aclTensor* self,
                                                               const aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardswish(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardswishGetWorkspaceSize(const aclTensor* self,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceHardswish(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_HARDSWISH_H__ */
