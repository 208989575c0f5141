/* CANN-compatible two-phase API of aclnnSigmoid and aclnnInplaceSigmoid:
 * out = 1 / (1 + exp(-self)) (signatures of the CANN operator document; InplaceSigmoid takes
 * a non-const selfRef, as there). Phase 1 validates and plans; phase 2 runs the plan on the
 * stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SIGMOID_H__
#define HOSTNN_ACLNNOP_ACLNN_SIGMOID_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoidGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSigmoid(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoidGetWorkspaceSize(aclTensor* selfRef,
                                                                    uint64_t* workspaceSize,
                                                                    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceSigmoid(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SIGMOID_H__ */
