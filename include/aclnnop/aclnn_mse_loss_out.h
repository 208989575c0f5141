/* CANN-compatible two-phase API of aclnnMseLossOut: aclnnMseLoss's terms (self - target)^2
 * over the broadcast shape, with reduction 0 (none: out the terms), 1 (mean) or 2 (sum) taken
 * along dim 0 only, as CANN's op_api reduces them: out is the broadcast shape without its
 * first dim, each element the sum (or mean) of its column's terms, added in row order in
 * double and rounded once. An empty input writes nothing. */
#ifndef HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_OUT_H__
#define HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_OUT_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossOutGetWorkspaceSize(const aclTensor* self,
                                                                const aclTensor* target,
                                                                int64_t reduction, aclTensor* out,
                                                                uint64_t* workspaceSize,
                                                                aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossOut(void* workspace, uint64_t workspaceSize,
                                                aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_OUT_H__ */
