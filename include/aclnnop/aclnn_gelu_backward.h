/* CANN-compatible two-phase API of aclnnGeluBackward: gradInput = gradOutput * d/dself of
 * Gelu's tanh form, as CANN's kernel computes it (signatures of the CANN operator document,
 * whose gradInput is declared const). Phase 1 validates and plans; phase 2 runs the plan on
 * the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                  const aclTensor* self,
                                                                  const aclTensor* gradInput,
                                                                  uint64_t* workspaceSize,
                                                                  aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluBackward(void* workspace, uint64_t workspace_size,
                                                  aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_H__ */
