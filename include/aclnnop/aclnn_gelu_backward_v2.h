/* CANN-compatible two-phase API of aclnnGeluBackwardV2: gradInput = gradOutput * d/dself of
 * Gelu in the form `approximate` names: "none", the erf form x Phi(x); "tanh",
 * aclnnGeluBackward's tanh form. A null approximate is refused with 161001, any other
 * string with 161002. aclnnGeluErfBackward is hostnn's own name for the erf form's
 * gradient (what "none" runs). Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H__
#define HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, char* approximate, aclTensor* gradInput,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluBackwardV2(void* workspace, uint64_t workspace_size,
                                                    aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluErfBackwardGetWorkspaceSize(const aclTensor* gradOutput,
                                                                     const aclTensor* self,
                                                                     aclTensor* gradInput,
                                                                     uint64_t* workspaceSize,
                                                                     aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluErfBackward(void* workspace, uint64_t workspace_size,
                                                     aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GELU_BACKWARD_V2_H__ */
