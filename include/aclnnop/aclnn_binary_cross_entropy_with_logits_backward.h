/* CANN-compatible two-phase API of aclnnBinaryCrossEntropyWithLogitsBackward, the gradient of
 * aclnnBinaryCrossEntropyWithLogits with respect to self:
 *   out = gradOutput weight [(1 + (posWeight - 1) target) sigmoid(self) - posWeight target],
 * divided by self's element count for reduction 1 (mean). target and out of self's shape;
 * gradOutput, weightOptional and posWeightOptional (null: 1) broadcast to it. Every tensor
 * FLOAT, FLOAT16 or BFLOAT16 (any mix), out target's dtype: computed from the exact inputs
 * in double (the sigmoid in f32 lanes), rounded once. An empty self writes nothing. */
#ifndef HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
    const aclTensor* gradOutput, const aclTensor* self, const aclTensor* target,
    const aclTensor* weightOptional, const aclTensor* posWeightOptional, int64_t reduction,
    aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnBinaryCrossEntropyWithLogitsBackward(void* workspace,
                                                                          uint64_t workspaceSize,
                                                                          aclOpExecutor* executor,
                                                                          aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_BINARY_CROSS_ENTROPY_WITH_LOGITS_BACKWARD_H__ */
