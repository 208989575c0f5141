/* CANN-compatible two-phase API of aclnnSoftmaxBackward:
 * out = output * (gradOutput - sum_dim(gradOutput * output)), output being Softmax's result
 * (signatures of the CANN operator document). Phase 1 validates and plans; phase 2 runs the
 * plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                     const aclTensor* output,
                                                                     int64_t dim, aclTensor* out,
                                                                     uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxBackward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTMAX_BACKWARD_H__ */
