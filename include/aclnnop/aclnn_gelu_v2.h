/* CANN-compatible two-phase API of aclnnGeluV2: y = Gelu(x) in the form `approximate`
 * names, 0 (none): x Phi(x), the erf form; 1 (tanh): aclnnGelu's tanh form. Any other value
 * is refused (161002). aclnnGeluErf is hostnn's own name for the erf form (what
 * aclnnGeluV2 runs for approximate 0), with aclnnGelu's parameters. Phase 1 validates and
 * plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GELU_V2_H__
#define HOSTNN_ACLNNOP_ACLNN_GELU_V2_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate,
                                                            aclTensor* y, uint64_t* workspaceSize,
                                                            aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize,
                                            aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluErfGetWorkspaceSize(const aclTensor* x, aclTensor* y,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluErf(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GELU_V2_H__ */
