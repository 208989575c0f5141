/* CANN-compatible two-phase API of aclnnEmbedding: out[i..., :] = weight[indices[i...], :],
 * the rows of a 2-D weight picked by an INT32 or INT64 index tensor and copied exactly
 * (signatures of the CANN operator document). Phase 1 validates the descriptors and plans;
 * phase 2 checks every index against weight's rows (a negative or too large one is refused
 * with ACLNN_ERR_PARAM_INVALID before anything is written), then copies. */
#ifndef HOSTNN_ACLNNOP_ACLNN_EMBEDDING_H__
#define HOSTNN_ACLNNOP_ACLNN_EMBEDDING_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbeddingGetWorkspaceSize(const aclTensor* weight,
                                                               const aclTensor* indices,
                                                               const aclTensor* out,
                                                               uint64_t* workspaceSize,
                                                               aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnEmbedding(void* workspace, uint64_t workspaceSize,
                                               aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_EMBEDDING_H__ */
