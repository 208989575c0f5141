/* CANN-compatible two-phase API of aclnnGeGluBackward and
 * aclnnGeGluV3Backward: the gradient of GeGlu (V3) with respect to self, both halves, from
 * gradOutput and the forward's outGelu (`gelu`): gradInput = concat(gradOutput * gelu,
 * gradOutput * a * gelu'(b)) along dim (activateLeft: the halves' roles swapped).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_GEGLU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_GEGLU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                   const aclTensor* self,
                                                                   const aclTensor* gelu,
                                                                   int64_t dim,
                                                                   int64_t approximate,
                                                                   aclTensor* gradInput,
                                                                   uint64_t* workspaceSize,
                                                                   aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluBackward(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3BackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                     const aclTensor* self,
                                                                     const aclTensor* gelu,
                                                                     int64_t dim,
                                                                     int64_t approximate,
                                                                     bool activateLeft,
                                                                     aclTensor* gradInput,
                                                                     uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeGluV3Backward(void* workspace, uint64_t workspaceSize,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GEGLU_BACKWARD_H__ */
