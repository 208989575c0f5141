// The argument objects of aclnn operators besides aclTensor (tensor lists, int arrays,
// scalars) and the aclTensor queries (aclGetViewShape and its siblings). Every entry
// point checks its pointers first: a refusal sets the message and writes nothing. Each runs
// inside runtime::Entry: an exception (out of memory) is 561000, or null for the creators.

#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "base/entry_alias.h"
#include "src/aclnn/c_api.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace capi {
namespace {

aclnnStatus Refuse(aclnnStatus code, const std::string& message) {
  runtime::SetLastError(message);
  return code;
}

// Bytes of one value of `dtype`; 0 for types without a fixed byte size (strings, 4- and
// 1-bit types) and unknown values.
size_t ScalarBytes(aclDataType dtype) {
  switch (dtype) {
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
      return 1;
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_FLOAT:
    case ACL_INT32:
    case ACL_UINT32:
    case ACL_COMPLEX32:
      return 4;
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_DOUBLE:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    default:
      return 0;
  }
}

// A new[] copy of v for the caller to delete[] (never null, even when v is empty).
int64_t* CopyOut(const std::vector<int64_t>& v) {
  int64_t* out = new int64_t[v.size() == 0 ? 1 : v.size()];
  if (!v.empty()) std::memcpy(out, v.data(), v.size() * sizeof(int64_t));
  return out;
}

// The checks every aclGet* query shares: tensor and each output pointer non-null.
aclnnStatus CheckQuery(const char* fn, const aclTensor* tensor,
                       std::initializer_list<std::pair<const char*, const void*>> outputs) {
  if (tensor == nullptr)
    return Refuse(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": tensor is null");
  for (const auto& out : outputs) {
    if (out.second == nullptr) {
      return Refuse(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": " + out.first + " is null");
    }
  }
  return ACLNN_SUCCESS;
}

}  // namespace
}  // namespace capi
}  // namespace hostnn

using hostnn::capi::CheckQuery;
using hostnn::capi::CopyOut;
using hostnn::capi::Refuse;
using hostnn::runtime::Entry;

namespace {

// A new array object holding a copy of size values (aclCreateIntArray and its kin); null,
// with the message set, for a null value with a non-zero size or a size past what memory
// holds (value + size would wrap).
template <class Array, class T>
Array* CreateArray(const char* fn, const T* value, uint64_t size) {
  if (value == nullptr && size > 0) {
    Refuse(ACLNN_ERR_PARAM_NULLPTR,
           std::string(fn) + ": value is null with size " + std::to_string(size));
    return nullptr;
  }
  if (size > static_cast<uint64_t>(PTRDIFF_MAX) / sizeof(T)) {
    Refuse(ACLNN_ERR_PARAM_INVALID,
           std::string(fn) + ": size " + std::to_string(size) + " is more than memory holds");
    return nullptr;
  }
  auto array = std::make_unique<Array>();  // freed if filling it throws
  array->values.assign(value, value + size);
  return array.release();
}

// An array's element count into *size; a null argument is refused, nothing written.
template <class Array>
aclnnStatus GetSize(const char* fn, const char* param, const Array* array, uint64_t* size) {
  if (array == nullptr)
    return Refuse(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": " + param + " is null");
  if (size == nullptr) return Refuse(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": size is null");
  *size = array->values.size();
  return ACLNN_SUCCESS;
}

}  // namespace

extern "C" {

aclnnStatus aclGetViewShape(const aclTensor* tensor, int64_t** viewDims, uint64_t* viewDimsNum) {
  return Entry("aclGetViewShape", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s = CheckQuery("aclGetViewShape", tensor,
                                     {{"viewDims", viewDims}, {"viewDimsNum", viewDimsNum}});
    if (s != ACLNN_SUCCESS) return s;
    *viewDims = CopyOut(tensor->view.shape);
    *viewDimsNum = tensor->view.shape.size();
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetViewStrides(const aclTensor* tensor, int64_t** stridesValue,
                              uint64_t* stridesNum) {
  return Entry("aclGetViewStrides", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s = CheckQuery("aclGetViewStrides", tensor,
                                     {{"stridesValue", stridesValue}, {"stridesNum", stridesNum}});
    if (s != ACLNN_SUCCESS) return s;
    const hostnn::TensorView& v = tensor->view;
    const std::vector<int64_t> strides =
        v.strides.empty() ? hostnn::ContiguousStrides(v.shape) : v.strides;
    *stridesValue = CopyOut(strides);
    *stridesNum = strides.size();
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetViewOffset(const aclTensor* tensor, int64_t* offset) {
  return Entry("aclGetViewOffset", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s = CheckQuery("aclGetViewOffset", tensor, {{"offset", offset}});
    if (s != ACLNN_SUCCESS) return s;
    *offset = tensor->view.offset;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetStorageShape(const aclTensor* tensor, int64_t** storageDims,
                               uint64_t* storageDimsNum) {
  return Entry("aclGetStorageShape", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s =
        CheckQuery("aclGetStorageShape", tensor,
                   {{"storageDims", storageDims}, {"storageDimsNum", storageDimsNum}});
    if (s != ACLNN_SUCCESS) return s;
    *storageDims = CopyOut(tensor->view.storage_shape);
    *storageDimsNum = tensor->view.storage_shape.size();
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetDataType(const aclTensor* tensor, aclDataType* dataType) {
  return Entry("aclGetDataType", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s = CheckQuery("aclGetDataType", tensor, {{"dataType", dataType}});
    if (s != ACLNN_SUCCESS) return s;
    *dataType = static_cast<aclDataType>(tensor->view.dtype);
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetFormat(const aclTensor* tensor, aclFormat* format) {
  return Entry("aclGetFormat", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    const aclnnStatus s = CheckQuery("aclGetFormat", tensor, {{"format", format}});
    if (s != ACLNN_SUCCESS) return s;
    *format = tensor->format;
    return ACLNN_SUCCESS;
  });
}

aclTensorList* aclCreateTensorList(const aclTensor* const* value, uint64_t size) {
  return Entry("aclCreateTensorList", nullptr, [&]() -> aclTensorList* {
    if (value == nullptr && size > 0) {
      Refuse(ACLNN_ERR_PARAM_NULLPTR,
             "aclCreateTensorList: value is null with size " + std::to_string(size));
      return nullptr;
    }
    std::set<const aclTensor*> seen;
    for (uint64_t i = 0; i < size; ++i) {
      if (value[i] == nullptr) {
        Refuse(ACLNN_ERR_PARAM_NULLPTR,
               "aclCreateTensorList: value[" + std::to_string(i) + "] is null");
        return nullptr;
      }
      if (!seen.insert(value[i]).second) {
        // The list owns its tensors: one tensor twice would be destroyed twice.
        Refuse(ACLNN_ERR_PARAM_INVALID, "aclCreateTensorList: value[" + std::to_string(i) +
                                            "] is a tensor already in the list");
        return nullptr;
      }
    }
    auto list = std::make_unique<aclTensorList>();  // freed if filling it throws
    list->tensors.assign(value, value + size);
    return list.release();
  });
}

aclnnStatus aclDestroyTensorList(const aclTensorList* array) {
  return Entry("aclDestroyTensorList", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    if (array == nullptr) return ACLNN_SUCCESS;
    for (const aclTensor* t : array->tensors) delete t;
    delete array;
    return ACLNN_SUCCESS;
  });
}

aclIntArray* aclCreateIntArray(const int64_t* value, uint64_t size) {
  return Entry("aclCreateIntArray", nullptr,
               [&] { return CreateArray<aclIntArray>("aclCreateIntArray", value, size); });
}

aclnnStatus aclDestroyIntArray(const aclIntArray* array) {
  return Entry("aclDestroyIntArray", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    delete array;
    return ACLNN_SUCCESS;
  });
}

aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size) {
  return Entry("aclCreateBoolArray", nullptr,
               [&] { return CreateArray<aclBoolArray>("aclCreateBoolArray", value, size); });
}

aclnnStatus aclDestroyBoolArray(const aclBoolArray* array) {
  return Entry("aclDestroyBoolArray", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    delete array;
    return ACLNN_SUCCESS;
  });
}

aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size) {
  return Entry("aclCreateFloatArray", nullptr,
               [&] { return CreateArray<aclFloatArray>("aclCreateFloatArray", value, size); });
}

aclnnStatus aclDestroyFloatArray(const aclFloatArray* array) {
  return Entry("aclDestroyFloatArray", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    delete array;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclGetIntArraySize(const aclIntArray* array, uint64_t* size) {
  return Entry("aclGetIntArraySize", ACLNN_ERR_INNER,
               [&] { return GetSize("aclGetIntArraySize", "array", array, size); });
}

aclnnStatus aclGetBoolArraySize(const aclBoolArray* array, uint64_t* size) {
  return Entry("aclGetBoolArraySize", ACLNN_ERR_INNER,
               [&] { return GetSize("aclGetBoolArraySize", "array", array, size); });
}

aclnnStatus aclGetFloatArraySize(const aclFloatArray* array, uint64_t* size) {
  return Entry("aclGetFloatArraySize", ACLNN_ERR_INNER,
               [&] { return GetSize("aclGetFloatArraySize", "array", array, size); });
}

aclnnStatus aclGetTensorListSize(const aclTensorList* tensorList, uint64_t* size) {
  return Entry("aclGetTensorListSize", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    if (tensorList == nullptr)
      return Refuse(ACLNN_ERR_PARAM_NULLPTR, "aclGetTensorListSize: tensorList is null");
    if (size == nullptr)
      return Refuse(ACLNN_ERR_PARAM_NULLPTR, "aclGetTensorListSize: size is null");
    *size = tensorList->tensors.size();
    return ACLNN_SUCCESS;
  });
}

aclScalar* aclCreateScalar(void* value, aclDataType dataType) {
  return Entry("aclCreateScalar", nullptr, [&]() -> aclScalar* {
    if (value == nullptr) {
      Refuse(ACLNN_ERR_PARAM_NULLPTR, "aclCreateScalar: value is null");
      return nullptr;
    }
    const size_t bytes = hostnn::capi::ScalarBytes(dataType);
    if (bytes == 0) {
      Refuse(ACLNN_ERR_PARAM_INVALID, "aclCreateScalar: dataType " +
                                          std::to_string(static_cast<int>(dataType)) +
                                          " has no fixed size; expected a numeric or BOOL type");
      return nullptr;
    }
    auto* scalar = new aclScalar();
    scalar->dtype = dataType;
    std::memcpy(scalar->bytes, value, bytes);
    return scalar;
  });
}

aclnnStatus aclDestroyScalar(const aclScalar* scalar) {
  return Entry("aclDestroyScalar", ACLNN_ERR_INNER, [&]() -> aclnnStatus {
    delete scalar;
    return ACLNN_SUCCESS;
  });
}

// The names the CANN-named libraries forward to (base/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclGetViewShape)
HOSTNN_ENTRY_ALIAS(aclGetViewStrides)
HOSTNN_ENTRY_ALIAS(aclGetViewOffset)
HOSTNN_ENTRY_ALIAS(aclGetStorageShape)
HOSTNN_ENTRY_ALIAS(aclGetDataType)
HOSTNN_ENTRY_ALIAS(aclGetFormat)
HOSTNN_ENTRY_ALIAS(aclCreateTensorList)
HOSTNN_ENTRY_ALIAS(aclDestroyTensorList)
HOSTNN_ENTRY_ALIAS(aclCreateIntArray)
HOSTNN_ENTRY_ALIAS(aclDestroyIntArray)
HOSTNN_ENTRY_ALIAS(aclCreateBoolArray)
HOSTNN_ENTRY_ALIAS(aclDestroyBoolArray)
HOSTNN_ENTRY_ALIAS(aclCreateFloatArray)
HOSTNN_ENTRY_ALIAS(aclDestroyFloatArray)
HOSTNN_ENTRY_ALIAS(aclGetIntArraySize)
HOSTNN_ENTRY_ALIAS(aclGetBoolArraySize)
HOSTNN_ENTRY_ALIAS(aclGetFloatArraySize)
HOSTNN_ENTRY_ALIAS(aclGetTensorListSize)
HOSTNN_ENTRY_ALIAS(aclCreateScalar)
HOSTNN_ENTRY_ALIAS(aclDestroyScalar)

}  // extern "C"
