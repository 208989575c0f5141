/* CANN-compatible two-phase API of aclnnHardtanhBackward: out = gradOutput where
 * min < self < max, else 0 (signatures of the CANN operator document). Phase 1 validates
 * and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_HARDTANH_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_HARDTANH_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardtanhBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclScalar* min, const aclScalar* max,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnHardtanhBackward(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_HARDTANH_BACKWARD_H__ */
