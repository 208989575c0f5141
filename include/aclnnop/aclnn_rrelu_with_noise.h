/* CANN-compatible two-phase API of aclnnRReluWithNoise and aclnnInplaceRReluWithNoise, the
 * randomized leaky ReLU: in training mode each element of self below 0 is multiplied by a
 * slope drawn uniformly from [lower, upper), which is also written to noise (1 for the other
 * elements); in evaluation mode out is LeakyRelu(self) with slope (lower + upper) / 2 and
 * noise is not written. seed and offset select the numbers drawn (docs/activation_params.md).
 * Signatures of the CANN operator document. Phase 1 validates and plans; phase 2 runs the
 * plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H__
#define HOSTNN_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnRReluWithNoiseGetWorkspaceSize(
    const aclTensor* self, const aclTensor* noise, const aclScalar* lower, const aclScalar* upper,
    bool training, int64_t seed, int64_t offset, aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnRReluWithNoise(void* workspace, uint64_t workspaceSize,
                                                    aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRReluWithNoiseGetWorkspaceSize(
    const aclTensor* self, const aclTensor* noise, const aclScalar* lower, const aclScalar* upper,
    bool training, int64_t seed, int64_t offset, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceRReluWithNoise(void* workspace, uint64_t workspaceSize,
                                                           aclOpExecutor* executor,
                                                           aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_RRELU_WITH_NOISE_H__ */
