/* CANN-compatible two-phase API of aclnnShrink: out = self - bias where self > lambd,
 * self + bias where self < -lambd, else 0 (signatures of the CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SHRINK_H__
#define HOSTNN_ACLNNOP_ACLNN_SHRINK_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnShrinkGetWorkspaceSize(const aclTensor* self, const aclScalar* lambd,
                                                            const aclScalar* bias, aclTensor* out,
                                                            uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnShrink(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SHRINK_H__ */
