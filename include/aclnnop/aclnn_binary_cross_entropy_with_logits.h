/* CANN-compatible two-phase API of aclnnBinaryCrossEntropyWithLogits: the binary cross entropy
 * of logits self and labels target (one shape),
 *   l = -weight [posWeight target log(sigmoid(self)) + (1 - target) log(1 - sigmoid(self))],
 * weightOptional and posWeightOptional (null: 1) broadcast to target, with reduction 0 (none:
 * out the terms, of the broadcast shape), 1 (mean: out one element, the terms' sum divided by
 * their count) or 2 (sum). self, target and the weights FLOAT, FLOAT16 or BFLOAT16 (any mix),
 * out target's dtype: every term from the exact inputs in double (its exponential and
 * logarithm in f32 lanes), the sum in an order fixed by the shape (so out's bits do not depend
 * on the number of threads), rounded once. An empty self gives NaN for the mean, 0 for the
 * sum. */
#ifndef HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H__
#define HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
    const aclTensor* self, const aclTensor* target, const aclTensor* weightOptional,
    const aclTensor* posWeightOptional, int64_t reduction, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogits(void* workspace,
                                                                  uint64_t workspaceSize,
                                                                  aclOpExecutor* executor,
                                                                  aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_H__ */
