/* CANN-compatible two-phase API of aclnnLogSoftmax:
 * out = self - max_dim(self) - log(sum_dim(exp(self - max_dim(self)))) (signatures of the CANN
 * operator document). Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_LOGSOFTMAX_H__
#define HOSTNN_ACLNNOP_ACLNN_LOGSOFTMAX_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmaxGetWorkspaceSize(const aclTensor* self, int64_t dim,
                                                                aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnLogSoftmax(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_LOGSOFTMAX_H__ */
