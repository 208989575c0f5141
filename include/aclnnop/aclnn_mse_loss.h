/* CANN-compatible two-phase API of aclnnMseLoss: the mean squared error (self - target)^2 of
 * self and target broadcast to one shape, with reduction 0 (none: out the terms, of the
 * broadcast shape), 1 (mean: out 0-d, the terms' sum divided by their count) or 2 (sum: out
 * 0-d). self and target FLOAT, FLOAT16 or BFLOAT16 (computed in f32 from the exact inputs, in
 * double for each term and sum), out any of the three (the result rounded once to it). The
 * sums run in an order fixed by the shape, so that out's bits do not depend on the number of
 * threads. An empty input gives NaN for the mean, 0 for the sum. */
#ifndef HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_H__
#define HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLossGetWorkspaceSize(const aclTensor* self,
                                                             const aclTensor* target,
                                                             int64_t reduction, aclTensor* out,
                                                             uint64_t* workspaceSize,
                                                             aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnMseLoss(void* workspace, uint64_t workspaceSize,
                                             aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_MSE_LOSS_H__ */
