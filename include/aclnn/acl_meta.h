/* CANN-compatible tensor descriptions (aclTensor) and executors (aclOpExecutor).
 * offset and strides count elements; storageDims describes the whole allocation. */
#ifndef HOSTNN_ACLNN_ACL_META_H_
#define HOSTNN_ACLNN_ACL_META_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensor aclTensor;
typedef struct aclOpExecutor aclOpExecutor;
typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_NULLPTR 561103

/* Describes a view; nothing is copied or validated here beyond what must be stored
 * (the operators validate). stride may be NULL (row-major contiguous). Returns NULL when
 * viewDims/storageDims are NULL with a non-zero count or a count is negative. */
ACL_FUNC_VISIBILITY aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum,
                                               aclDataType dataType, const int64_t* stride,
                                               int64_t offset, aclFormat format,
                                               const int64_t* storageDims, uint64_t storageDimsNum,
                                               void* tensorData);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor* tensor);

/* Makes an executor runnable any number of times (until aclDestroyAclOpExecutor). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNN_ACL_META_H_ */
