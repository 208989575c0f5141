/* CANN-compatible tensor descriptions (aclTensor), the other argument objects of aclnn
 * operators (aclTensorList, aclIntArray, aclBoolArray, aclFloatArray, aclScalar) and
 * executors (aclOpExecutor).
 * offset and strides count elements; storageDims describes the whole allocation. */
#ifndef HOSTNN_ACLNN_ACL_META_H_
#define HOSTNN_ACLNN_ACL_META_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct aclTensor aclTensor;
typedef struct aclTensorList aclTensorList;
typedef struct aclIntArray aclIntArray;
typedef struct aclBoolArray aclBoolArray;
typedef struct aclFloatArray aclFloatArray;
typedef struct aclScalar aclScalar;
typedef struct aclOpExecutor aclOpExecutor;
typedef int32_t aclnnStatus;

#define ACLNN_SUCCESS 0
#define ACLNN_ERR_PARAM_NULLPTR 161001
#define ACLNN_ERR_PARAM_INVALID 161002
#define ACLNN_ERR_RUNTIME_ERROR 361001
#define ACLNN_ERR_INNER 561000
#define ACLNN_ERR_INNER_TILING_ERROR 561002
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

/* What aclCreateTensor was given. The arrays of aclGetViewShape, aclGetViewStrides and
 * aclGetStorageShape are allocated with new[] and belong to the caller (delete[] them);
 * a tensor created with NULL strides reports its row-major strides. A null argument ->
 * ACLNN_ERR_PARAM_NULLPTR, nothing written. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims,
                                                uint64_t* viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                                                  uint64_t* stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                                                   uint64_t* storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format);

/* A list of tensors. The list takes the tensors over: aclDestroyTensorList destroys them
 * too. Returns NULL (message set) when value is NULL with a non-zero size or an entry is
 * NULL. */
ACL_FUNC_VISIBILITY aclTensorList* aclCreateTensorList(const aclTensor* const* value,
                                                       uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensorList(const aclTensorList* array);
ACL_FUNC_VISIBILITY aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList,
                                                     uint64_t* size);

/* A copy of size int64 values. Returns NULL (message set) when value is NULL with a
 * non-zero size. */
ACL_FUNC_VISIBILITY aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyIntArray(const aclIntArray* array);
/* The same for bool values (the norms' and losses' outputMask) and float values. */
ACL_FUNC_VISIBILITY aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
ACL_FUNC_VISIBILITY aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
/* An array's element count. A null array or size -> ACLNN_ERR_PARAM_NULLPTR, nothing
 * written. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size);

/* A copy of the one value of dataType at `value`. Returns NULL (message set) when value is
 * NULL or dataType has no fixed element size. */
ACL_FUNC_VISIBILITY aclScalar* aclCreateScalar(void* value, aclDataType dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyScalar(const aclScalar* scalar);

/* Makes an executor runnable any number of times (until aclDestroyAclOpExecutor). */
ACL_FUNC_VISIBILITY aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACLNN_ACL_META_H_ */
