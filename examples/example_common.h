// Small helpers shared by the examples, in the style of CANN's sample programs: check a
// status, make a device tensor from host data, copy a result back.
#ifndef HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_
#define HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_

#include <cstdio>
#include <vector>

#include "acl/acl.h"

#define CHECK_RET(cond, what)                                     \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("%s failed: %s\n", what, aclGetRecentErrMsg()); \
      return 1;                                                   \
    }                                                             \
  } while (0)

// Copies host data into new device memory and describes it as a dense ND tensor.
template <typename T>
inline int MakeTensor(const std::vector<T>& host, const std::vector<int64_t>& shape,
                      aclDataType dtype, void** device, aclTensor** tensor) {
  const size_t bytes = host.size() * sizeof(T);
  if (aclrtMalloc(device, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return 1;
  if (aclrtMemcpy(*device, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS)
    return 1;
  std::vector<int64_t> strides(shape.size(), 1);
  for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
    strides[i] = strides[i + 1] * shape[i + 1];
  *tensor = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), 0, ACL_FORMAT_ND,
                            shape.data(), shape.size(), *device);
  return *tensor == nullptr ? 1 : 0;
}

template <typename T>
inline int CopyBack(const void* device, std::vector<T>* host) {
  const size_t bytes = host->size() * sizeof(T);
  return aclrtMemcpy(host->data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
             ? 0
             : 1;
}

#endif  // HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_
