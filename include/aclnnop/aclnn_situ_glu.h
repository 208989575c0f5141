/* CANN-compatible two-phase API of aclnnSituGlu: x split along dim into two halves, the gate
 * g (the first half with activateLeft, else the second) and up (the other);
 * out = beta * tanh(g / beta) * sigmoid(g) * up', up' = linearBeta * tanh(up / linearBeta)
 * where linearBeta > 0, else up. beta and linearBeta are read as FLOAT values, as CANN's
 * kernel reads them. x 1 to 8 dims, FLOAT, FLOAT16 or BFLOAT16, its extent along dim even;
 * out x's dtype and shape with that extent halved. A null tensor is refused with
 * ACLNN_ERR_PARAM_NULLPTR (161001), a dtype or rank outside these with
 * ACLNN_ERR_PARAM_INVALID (161002); a dim outside [-rank, rank - 1], an odd extent or out's
 * shape as CANN's kernel tiling refuses them: ACLNN_ERR_INNER_TILING_ERROR (561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_SITU_GLU_H__
#define HOSTNN_ACLNNOP_ACLNN_SITU_GLU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGluGetWorkspaceSize(const aclTensor* x, int64_t dim,
                                                             double beta, double linearBeta,
                                                             bool activateLeft,
                                                             const aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSituGlu(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SITU_GLU_H__ */
