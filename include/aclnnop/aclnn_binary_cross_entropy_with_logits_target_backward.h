/* CANN-compatible two-phase API of aclnnBinaryCrossEntropyWithLogitsTargetBackward, the
 * gradient of aclnnBinaryCrossEntropyWithLogits with respect to target:
 *   gradTarget = gradOutput weight [log(1 - sigmoid(self)) - posWeight log(sigmoid(self))],
 * divided by target's element count for reduction 1 (mean). target and gradTarget of self's
 * shape; gradOutput, weightOptional and posWeightOptional (null: 1) broadcast to it. Every
 * tensor FLOAT, FLOAT16 or BFLOAT16 (any mix), gradTarget target's dtype: computed from the
 * exact inputs in double (the logarithms in f32 lanes), rounded once. An empty self writes
 * nothing. */
#ifndef HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_TARGET_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_TARGET_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsTargetBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction,
    aclTensor* gradTarget, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsTargetBackward(
    void* workspace, uint64_t workspaceSize, aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_TARGET_BACKWARD_H__ */
