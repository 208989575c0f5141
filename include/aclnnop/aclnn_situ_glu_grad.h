/* CANN-compatible two-phase API of aclnnSituGluGrad, the gradient of aclnnSituGlu: from
 * gradY (x's shape with dim's extent halved) and x, out = x's gradient, both halves: with
 * t = tanh(g / beta) and s = sigmoid(g), the gate's gradient
 * gradY * up' * s * (1 - t^2 + beta * t * (1 - s)) and up's gradient
 * gradY * beta * t * s * (1 - tanh^2(up / linearBeta)) where linearBeta > 0, else
 * gradY * beta * t * s (g, up, up' as in aclnn_situ_glu.h). gradY, x and out one dtype
 * (FLOAT, FLOAT16 or BFLOAT16), 1 to 8 dims; out x's shape. Refusals as aclnnSituGlu's
 * (gradY's shape and out's in the tiling's place: 561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SITU_GLU_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_SITU_GLU_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGluGradGetWorkspaceSize(
    const aclTensor* gradY, const aclTensor* x, int64_t dim, double beta, double linearBeta,
    bool activateLeft, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGluGrad(void* workspace, uint64_t workspaceSize,
                                                 aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SITU_GLU_GRAD_H__ */
