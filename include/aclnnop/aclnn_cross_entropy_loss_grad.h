/* CANN-compatible two-phase API of aclnnCrossEntropyLossGrad, aclnnCrossEntropyLoss's
 * gradient with respect to its input, from the forward's logProb [N, C]: per row n not
 * ignored, with g the row's gradLoss (its element for "none"; the one element for "sum", and
 * over the sum of w_t of the rows not ignored for "mean"), a = g (1 - labelSmoothing) w_t,
 * b = g labelSmoothing / C and W = sum_c w_c (w weightOptional's, 1 without it):
 * out[n, c] = exp(logProb[n, c]) (a + b W) - b w_c - (c == t ? a : 0); 0 for an ignored row.
 * gradLoss, logProb and out one of FLOAT, FLOAT16, BFLOAT16; target INT64; weightOptional
 * FLOAT [C]; gradZlossOptional and lseForZlossOptional (logProb's dtype) are checked but do
 * not act. A target outside [0, C) that is not ignoreIndex is refused when the call runs
 * (nothing written). */
#ifndef HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGradGetWorkspaceSize(
    const aclTensor* gradLoss, const aclTensor* logProb, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* gradZlossOptional,
    const aclTensor* lseForZlossOptional, char* reductionOptional, int64_t ignoreIndex,
    double labelSmoothing, double lseSquareScaleForZloss, const aclTensor* out,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGrad(void* workspace, uint64_t workspaceSize,
                                                          aclOpExecutor* executor,
                                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_GRAD_H__ */
