/* CANN-compatible two-phase API of aclnnCrossEntropyLoss: per row n of input [N, C], with
 * t = target[n], lse_n = log sum_c exp(input[n, c]) and logProb[n, c] = input[n, c] - lse_n:
 * l_n = -(1 - labelSmoothing) w_t logProb[n, t] - (labelSmoothing / C) sum_c w_c logProb[n, c]
 * (w weightOptional's, 1 without it; l_n = 0 where t is ignoreIndex); lossOut the l_n
 * ("none", [N]), their sum ("sum") or their sum divided by the sum of w_t over the rows not
 * ignored ("mean", the default: a null reductionOptional); logProbOut the log-probabilities.
 * input, lossOut and logProbOut one of FLOAT, FLOAT16, BFLOAT16; weightOptional FLOAT [C];
 * target INT64 or INT32 [N]; zlossOut and lseForZlossOut of input's dtype, given but not
 * written (lseSquareScaleForZloss and returnZloss do not act). A target outside [0, C) that
 * is not ignoreIndex is refused when the call runs (nothing written). */
#ifndef HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H__
#define HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLossGetWorkspaceSize(
    const aclTensor* input, const aclTensor* target, const aclTensor* weightOptional,
    char* reductionOptional, int64_t ignoreIndex, double labelSmoothing,
    double lseSquareScaleForZloss, bool returnZloss, const aclTensor* lossOut,
    const aclTensor* logProbOut, const aclTensor* zlossOut, const aclTensor* lseForZlossOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnCrossEntropyLoss(void* workspace, uint64_t workspaceSize,
                                                      aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_CROSS_ENTROPY_LOSS_H__ */
