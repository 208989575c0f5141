/* CANN-compatible two-phase API of aclnnGluBackward:
 * the gradient of Glu with respect to self, both halves: out = concat(gradOut * sigmoid(b),
 * gradOut * a * sigmoid(b) * (1 - sigmoid(b))) along dim, self's shape (signatures of the
 * CANN operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_GLU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_GLU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGluBackwardGetWorkspaceSize(const aclTensor* gradOut,
                                                                 const aclTensor* self,
                                                                 int64_t dim,
                                                                 const aclTensor* out,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGluBackward(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GLU_BACKWARD_H__ */
