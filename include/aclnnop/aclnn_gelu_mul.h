/* CANN-compatible two-phase API of aclnnGeluMul: input split along its last dim into
 * x1 (the first half) and x2 (the second); out = gelu(x1) * x2, gelu in the form
 * approximateOptional names: "none" (or a null pointer) the erf form, "tanh" the tanh form.
 * input 2 to 8 dims, its last dim even and at most 1024, the other dims' product at most
 * 200000; out input's dtype (FLOAT, FLOAT16 or BFLOAT16) and shape with the last dim halved.
 * A shape or approximateOptional outside these is refused as CANN's kernel tiling refuses
 * it: ACLNN_ERR_INNER_TILING_ERROR (561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_GELU_MUL_H__
#define HOSTNN_ACLNNOP_ACLNN_GELU_MUL_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluMulGetWorkspaceSize(const aclTensor* input,
                                                             char* approximateOptional,
                                                             const aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnGeluMul(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_GELU_MUL_H__ */
