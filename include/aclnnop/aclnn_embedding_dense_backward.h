/* CANN-compatible two-phase API of aclnnEmbeddingDenseBackward, the gradient of aclnnEmbedding:
 * out[w, :] = the sum of grad's rows whose index is w (in index order), out [numWeights, D] and
 * grad [..., D] with as many rows as indices has elements; the row paddingIdx stays 0, and with
 * scaleGradByFreq each row is divided by the number of indices naming it (signatures of the
 * CANN operator document). Indices of FLOAT, FLOAT16, DOUBLE, INT8, UINT8, INT16, INT32, INT64
 * or BOOL are read as row numbers (a float truncated toward zero). Phase 1 validates the
 * descriptors and plans; phase 2 checks every index against [0, numWeights) (one outside is
 * refused with ACLNN_ERR_PARAM_INVALID before anything is written), then sums in double, in a
 * fixed order, so that out's bits do not depend on the number of threads. */
#ifndef HOSTNN_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H__
#define HOSTNN_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingDenseBackwardGetWorkspaceSize(
    const aclTensor* grad, const aclTensor* indices, uint64_t numWeights, uint64_t paddingIdx,
    bool scaleGradByFreq, const aclTensor* out, uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingDenseBackward(void* workspace, uint64_t workspaceSize,
                                                            aclOpExecutor* executor,
                                                            aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_EMBEDDING_DENSE_BACKWARD_H__ */
