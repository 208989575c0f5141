/* CANN-compatible two-phase API of aclnnSoftmaxCrossEntropyWithLogits: per row n of
 * features [N, C], with y labels' row (labels [N, C], or [1, C], [N, 1] or [1, 1] broadcast
 * to it) and lse = log(sum_c exp(x_c - max)) + max:
 *   loss[n] = sum_c y_c (lse - x_c)          (loss [N])
 *   backprop[n, c] = exp(x_c - lse) - y_c    (backprop [N, C], softmax minus the labels).
 * features FLOAT, FLOAT16 or BFLOAT16; labels any of the three; loss and backprop features'
 * dtype. Computed in f32 and double, each output rounded once. Empty features: nothing is
 * written. */
#ifndef HOSTNN_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H__
#define HOSTNN_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* features, aclTensor* labels, aclTensor* loss, aclTensor* backprop,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnSoftmaxCrossEntropyWithLogits(void* workspace,
                                                                   uint64_t workspaceSize,
                                                                   aclOpExecutor* executor,
                                                                   aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_SOFTMAX_CROSS_ENTROPY_WITH_LOGITS_H__ */
