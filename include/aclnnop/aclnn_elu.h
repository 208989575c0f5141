/* CANN-compatible two-phase API of aclnnElu and aclnnInplaceElu: out = scale * self for
 * self > 0, else alpha * scale * (exp(self * inputScale) - 1) (signatures of the CANN
 * operator document). Phase 1 validates and plans; phase 2 runs the plan on the stream
 * (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_ELU_H__
#define HOSTNN_ACLNNOP_ACLNN_ELU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnEluGetWorkspaceSize(const aclTensor* self, const aclScalar* alpha,
                                                         const aclScalar* scale,
                                                         const aclScalar* inputScale, aclTensor* out,
                                                         uint64_t* workspaceSize,
                                                         aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnElu(void* workspace, uint64_t workspaceSize,
                                         aclOpExecutor* executor, aclrtStream stream);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceEluGetWorkspaceSize(aclTensor* selfRef,
                                                                const aclScalar* alpha,
                                                                const aclScalar* scale,
                                                                const aclScalar* inputScale,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnInplaceElu(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_ELU_H__ */
