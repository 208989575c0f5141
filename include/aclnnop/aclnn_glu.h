/* CANN-compatible two-phase API of aclnnGlu:
 * out = a * sigmoid(b), a and b the first and second halves of self along dim (its
 * extent even); out has self's shape with that extent halved (signatures of the CANN
 * operator document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_GLU_H__
#define HOSTNN_ACLNNOP_ACLNN_GLU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGluGetWorkspaceSize(const aclTensor* self,
                                                         int64_t dim,
                                                         const aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGlu(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GLU_H__ */
