// Harness shim: op::TypeSize, the bytes of one element of a dtype.
#ifndef HOSTNN_OPSNN_UT_OPDEV_DATA_TYPE_UTILS_H_
#define HOSTNN_OPSNN_UT_OPDEV_DATA_TYPE_UTILS_H_

#include "opdev/common_types.h"

namespace op {

inline size_t TypeSize(DataType dtype) {
  switch (dtype) {
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_DOUBLE: case ACL_INT64: case ACL_UINT64: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
  }
}

}  // namespace op

#endif  // HOSTNN_OPSNN_UT_OPDEV_DATA_TYPE_UTILS_H_
