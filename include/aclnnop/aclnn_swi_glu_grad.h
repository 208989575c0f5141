/* CANN-compatible two-phase API of aclnnSwiGluGrad:
 * the gradient of SwiGlu with respect to x, both halves: out = concat(yGrad * b *
 * silu'(a), yGrad * silu(a)) along dim, x's shape (signatures of the CANN operator
 * document).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now).
 */
#ifndef HOSTNN_ACLNNOP_ACLNN_SWI_GLU_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_SWI_GLU_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluGradGetWorkspaceSize(const aclTensor* yGrad,
                                                                const aclTensor* x,
                                                                int64_t dim,
                                                                const aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSwiGluGrad(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SWI_GLU_GRAD_H__ */
