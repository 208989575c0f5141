/* CANN-compatible two-phase API of aclnnThreshold and aclnnInplaceThreshold: out = self
 * where self > threshold, else value (signatures of the CANN operator document). Phase 1
 * validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_THRESHOLD_H__
#define HOSTNN_ACLNNOP_ACLNN_THRESHOLD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnThresholdGetWorkspaceSize(const aclTensor* self,
                                                               const aclScalar* threshold,
                                                               const aclScalar* value, aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnThreshold(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceThresholdGetWorkspaceSize(aclTensor* selfRef,
                                                                      const aclScalar* threshold,
                                                                      const aclScalar* value,
                                                                      uint64_t* workspaceSize,
                                                                      aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceThreshold(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_THRESHOLD_H__ */
