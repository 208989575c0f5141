/* CANN-compatible two-phase API of aclnnClippedSwiglu: x viewed as [pre, M], pre the product
 * of the dims before dim, M that of dim and the dims after it, split into the gate A and B:
 * A = x[:, :M/2], B = x[:, M/2:] (the halves along dim), or with interleaved A = x[:, 0::2],
 * B = x[:, 1::2] (the even and odd elements of each row of M). With A' = min(A, limit) and
 * B' = min(max(B, -limit), limit), out = A' * sigmoid(alpha * A') * (B' + bias), out x's
 * shape with dim's extent halved. groupIndexOptional (null, or a 1-D INT64 tensor read when
 * phase 2 runs): only the first sum(groupIndexOptional) rows of [pre, M] are computed (a sum
 * below 0 none, above pre all); the rest of out is left as it is. alpha, limit and bias are
 * read as FLOAT values, as CANN's kernel reads them. With interleaved, out's dims from dim on
 * must be one strided run and x's pairs lie in a strided run of its trailing dims (any
 * contiguous tensor's do; ACLNN_ERR_PARAM_INVALID otherwise). x and out FLOAT, FLOAT16 or
 * BFLOAT16, one dtype, 1 to 8 dims, x's extent along dim even. A null x or out is refused with
 * ACLNN_ERR_PARAM_NULLPTR (161001), a dtype or rank outside these with ACLNN_ERR_PARAM_INVALID
 * (161002); a dim outside [-rank, rank - 1], an odd extent, a groupIndexOptional of other
 * than 1 dim or of more than 12152 elements, out's shape as CANN's kernel tiling refuses
 * them: ACLNN_ERR_INNER_TILING_ERROR (561002).
 * Phase 1 validates and plans; phase 2 runs the plan on the stream (NULL: now). */
#ifndef HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H__
#define HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H__

#include "aclnn/aclnn_base.h"

#ifdef __cplusplus
extern "C" {
#endif

ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwigluGetWorkspaceSize(
    const aclTensor* x, const aclTensor* groupIndexOptional, int64_t dim, double alpha,
    double limit, double bias, bool interleaved, const aclTensor* out, uint64_t* workspaceSize,
    aclOpExecutor** executor);

ACL_FUNC_VISIBILITY aclnnStatus aclnnClippedSwiglu(void* workspace, uint64_t workspaceSize,
                                                   aclOpExecutor* executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNNOP_ACLNN_CLIPPED_SWIGLU_H__ */
