/* CANN-compatible two-phase API of aclnnClippedSwigluGrad, the gradient of
 * aclnnClippedSwiglu: x viewed as [pre, M] and split into the gate A and B as the forward
 * splits it (the halves along dim, or with interleaved the even and odd elements of each
 * row of M), gradY [pre, M/2] in the order of the forward's out. With A' = min(A, limit),
 * B' = min(max(B, -limit), limit) and s = sigmoid(alpha * A'):
 *   dA = gradY * (B' + bias) * s * (1 + alpha * A' * (1 - s)) where A <= limit, else 0;
 *   dB = gradY * A' * s where -limit <= B <= limit, else 0;
 * written to gradXOut (x's shape) where x holds A and B. groupIndexOptional (null, or a 1-D
 * INT64 tensor of any length read when phase 2 runs): only the first sum(groupIndexOptional)
 * rows of [pre, M] are computed (a sum below 0 none, above pre all), and gradXOut's other
 * rows are set to +0. alpha, limit and bias are read as FLOAT values, as CANN's kernel reads
 * them. With interleaved, gradY's dims from dim on must be one strided run, x's pairs lie in
 * a strided run of its trailing dims, and gradXOut's dims from there on one strided run too
 * (any contiguous tensor's are; ACLNN_ERR_PARAM_INVALID otherwise). gradY, x and gradXOut
 * FLOAT, FLOAT16 or BFLOAT16, one dtype, 1 to 8 dims. A null gradY, x or gradXOut is refused
 * with ACLNN_ERR_PARAM_NULLPTR (161001), a dtype or rank outside these with
 * ACLNN_ERR_PARAM_INVALID (161002); a limit of 0 or below (as a FLOAT), a dim outside
 * [-rank, rank - 1], an odd extent along dim, gradY's shape other than x's with dim's extent
 * halved, a groupIndexOptional of other than 1 dim, gradXOut's shape other than x's, as
 * CANN's kernel tiling refuses them: ACLNN_ERR_INNER_TILING_ERROR (561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_GRAD_H__
#define HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_GRAD_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwigluGradGetWorkspaceSize(
    const aclTensor* gradY, const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim,
    double alpha, double limit, double bias, bool interleaved, const aclTensor* gradXOut,
    uint64_t* workspaceSize, aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwigluGrad(void* workspace, uint64_t workspaceSize,
                                                       aclOpExecutor* executor,
                                                       aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_GRAD_H__ */
