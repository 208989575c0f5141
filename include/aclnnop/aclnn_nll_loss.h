/* CANN-compatible two-phase API of aclnnNLLLoss, the negative log likelihood loss:
 * per row n of self [N, C] (or of self [C], one row), with t = target[n] and
 * w = weight[t] (0 where t is ignoreIndex): l_n = -w self[n, t]; out the l_n (reduction 0,
 * [N]), their sum (2) or their sum divided by the weights' total (1, mean); totalWeightOut
 * the weights' total (mean and sum). self and weight one of FLOAT, FLOAT16, BFLOAT16; target
 * INT64, INT32 or UINT8; out and totalWeightOut a dtype self's casts to. A target outside
 * [0, C) that is not ignoreIndex is refused when the call runs (nothing written). */
#ifndef HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_H__
#define HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLossGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weight, int64_t reduction,
    int64_t ignoreIndex, aclTensor* out, aclTensor* totalWeightOut, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnNLLLoss(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_NLL_LOSS_H__ */
