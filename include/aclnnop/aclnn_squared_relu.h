/* CANN-compatible two-phase API of aclnnSquaredRelu: out = max(0, input)^2 (signatures of the
 * CANN operator document). Phase 1 validates and plans; phase 2 runs the plan on the stream
 * (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SQUARED_RELU_H__
#define HOSTNN_ACLNNOP_ACLNN_SQUARED_RELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSquaredReluGetWorkspaceSize(const aclTensor* input,
                                                                 const aclTensor* out,
                                                                 uint64_t* workspaceSize,
                                                                 aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSquaredRelu(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SQUARED_RELU_H__ */
