/* CANN-compatible two-phase API of aclnnGelu: out = self * sigmoid(z),
 * z = 2 sqrt(2/pi) (self + 0.044715 self^3), i.e. the tanh approximation
 * 0.5 self (1 + tanh(z / 2)) that CANN's kernel computes (signatures of the CANN operator
 * document). Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GELU_H__
#define HOSTNN_ACLNNOP_ACLNN_GELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluGetWorkspaceSize(const aclTensor* self, aclTensor* out,
                                                          uint64_t* workspaceSize,
                                                          aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGelu(void* workspace, uint64_t workspaceSize,
                                          aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GELU_H__ */
