/* CANN-compatible two-phase API of aclnnSoftshrink: out = self - lambd above lambd, self + lambd below -lambd, else 0
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs
 * the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftshrinkGetWorkspaceSize(const aclTensor* self,
                                                                const aclScalar* lambd, aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftshrink(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTSHRINK_H__ */
