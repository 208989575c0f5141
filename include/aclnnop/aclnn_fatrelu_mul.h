/* CANN-compatible two-phase API of aclnnFatreluMul: input split along its last dim into
 * x1 (the first half) and x2 (the second); out = (x1 > threshold ? x1 : 0) * x2, threshold
 * a tensor of one element (any rank, 0 to 8) read when phase 2 runs. As CANN's kernel, an
 * x1 equal to the threshold gives 0; a NaN x1 gives NaN. input 2 to 8 dims, its last dim
 * even and at most 1024, the other dims' product at most 200000; threshold and out input's
 * dtype (FLOAT, FLOAT16 or BFLOAT16), out input's shape with the last dim halved. A shape
 * outside these, or a threshold of other than one element, is refused as CANN's kernel
 * tiling refuses it: ACLNN_ERR_INNER_TILING_ERROR (561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_FATRELU_MUL_H__
#define HOSTNN_ACLNNOP_ACLNN_FATRELU_MUL_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnFatreluMulGetWorkspaceSize(const aclTensor* input,
                                                                const aclTensor* threshold,
                                                                const aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnFatreluMul(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_FATRELU_MUL_H__ */
