// Harness shim: the part of CANN's opdev C++ interface that ops-nn's op_api unit-test
// framework uses, on top of hostnn's C API (aclnn/acl_meta.h).
//
// hostnn's aclTensor, aclTensorList, aclScalar and aclOpExecutor are opaque C objects. The
// framework calls a few member functions on them and releases some with `delete`, so they
// are completed here as member-only handles: no data members, no virtual functions, every
// member forwards `this` to hostnn's C API, and a class `operator delete` hands the object
// back to hostnn's destroy function. Nothing here reads hostnn's memory layout.
#ifndef HOSTNN_OPSNN_UT_OPDEV_COMMON_TYPES_H_
#define HOSTNN_OPSNN_UT_OPDEV_COMMON_TYPES_H_

#include <unistd.h>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

#include "aclnn/aclnn_base.h"

// Argument kinds of CANN that hostnn does not have. Declared so the framework's headers
// compile; nothing defines them, so a test that really uses one fails to link and is
// reported as not built.
extern "C" {
typedef struct aclFloatArray aclFloatArray;
typedef struct aclBoolArray aclBoolArray;
aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
}

// The framework creates every tensor without storage (data NULL), which CANN's phase 1
// and hostnn's accept. Its aclCreateTensor and aclDestroyTensor calls are routed to the
// harness (shim/src/storage.cpp), which passes NULL through, or with OPSNN_UT_STORAGE=1 in
// the environment gives such a tensor a zeroed host buffer of its storage shape and frees
// it with the tensor.
aclTensor* OpsnnUtCreateTensor(const int64_t* view_dims, uint64_t view_dims_num, aclDataType data_type,
                               const int64_t* stride, int64_t offset, aclFormat format,
                               const int64_t* storage_dims, uint64_t storage_dims_num, void* tensor_data);
aclnnStatus OpsnnUtDestroyTensor(const aclTensor* tensor);
#define aclCreateTensor OpsnnUtCreateTensor
#define aclDestroyTensor OpsnnUtDestroyTensor

// securec's memset_s, which glibc does not have.
inline int memset_s(void* dest, size_t dest_max, int c, size_t count) {
  if (dest == nullptr || count > dest_max) return -1;
  std::memset(dest, c, count);
  return 0;
}

// graph status codes, which some tests compare an aclnnStatus with.
namespace ge {
using graphStatus = uint32_t;
constexpr graphStatus GRAPH_SUCCESS = 0;
constexpr graphStatus GRAPH_FAILED = 0xFFFFFFFF;
}  // namespace ge

namespace op {

using DataType = aclDataType;
using Format = aclFormat;

// Where a tensor's storage lives. hostnn's tensors are plain host memory.
enum class TensorPlacement { kOnDeviceHbm, kOnHost, kFollowing };

// IEEE binary16 value, converted by hostnn's own conversions.
struct fp16_t {
  uint16_t val = 0;
  fp16_t() = default;
  fp16_t(float f) : val(aclFloatToFloat16(f)) {}  // NOLINT: implicit as in CANN
  operator float() const { return aclFloat16ToFloat(val); }
};

// A string holder with GetString(), the shape of ge::AscendString that callers expect.
class ShimString {
 public:
  explicit ShimString(std::string s) : s_(std::move(s)) {}
  const char* GetString() const { return s_.c_str(); }

 private:
  std::string s_;
};

}  // namespace op

struct aclTensor {
  aclTensor() = delete;
  aclTensor(const aclTensor&) = delete;
  aclTensor& operator=(const aclTensor&) = delete;

  op::TensorPlacement GetPlacement() const { return op::TensorPlacement::kOnHost; }
  // hostnn has no accessor for the data address; the framework only needs it to move
  // golden data to and from an NPU, which this harness does not do.
  const void* GetStorageAddr() const { return nullptr; }
  void SetStorageAddr(void*) {}
  aclDataType GetDataType() const {
    aclDataType dt = ACL_DT_UNDEFINED;
    aclGetDataType(this, &dt);
    return dt;
  }
  int64_t Size() const {
    int64_t* dims = nullptr;
    uint64_t n = 0;
    if (aclGetViewShape(this, &dims, &n) != ACLNN_SUCCESS) return 0;
    int64_t count = 1;
    for (uint64_t i = 0; i < n; ++i) count *= dims[i];
    delete[] dims;
    return count;
  }
  static void operator delete(void* p) { aclDestroyTensor(static_cast<aclTensor*>(p)); }
};

struct aclTensorList {
  aclTensorList() = delete;
  aclTensorList(const aclTensorList&) = delete;
  aclTensorList& operator=(const aclTensorList&) = delete;

  // hostnn has no accessors for a list's members; an empty view keeps the framework's
  // release loop (which only frees NPU memory) a no-op before aclDestroyTensorList.
  aclTensor* const* GetData() const { return nullptr; }
  uint64_t Size() const { return 0; }
  aclTensor* operator[](uint64_t) const { return nullptr; }
  static void operator delete(void* p) { aclDestroyTensorList(static_cast<aclTensorList*>(p)); }
};

struct aclScalar {
  aclScalar() = delete;
  aclScalar(const aclScalar&) = delete;
  aclScalar& operator=(const aclScalar&) = delete;
  static void operator delete(void* p) { aclDestroyScalar(static_cast<aclScalar*>(p)); }
};

struct aclIntArray {
  aclIntArray() = delete;
  aclIntArray(const aclIntArray&) = delete;
  aclIntArray& operator=(const aclIntArray&) = delete;
  static void operator delete(void* p) { aclDestroyIntArray(static_cast<aclIntArray*>(p)); }
};

struct aclOpExecutor {
  aclOpExecutor() = delete;
  aclOpExecutor(const aclOpExecutor&) = delete;
  aclOpExecutor& operator=(const aclOpExecutor&) = delete;
  static void operator delete(void* p) { aclDestroyAclOpExecutor(static_cast<aclOpExecutor*>(p)); }
};

#endif  // HOSTNN_OPSNN_UT_OPDEV_COMMON_TYPES_H_
