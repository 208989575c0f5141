// Harness shim: the conversions of the framework's IntArrayDesc, FloatArrayDesc and
// BoolArrayDesc (declared by op_api_ut_common/array_desc.h) through hostnn's C API. The
// framework's own version constructs CANN's C++ objects, which hostnn does not have.
// hostnn has no float or bool arrays: those are looked up weakly and come back null.
#include <cstdio>

#include "op_api_ut_common/array_desc.h"

extern "C" {
__attribute__((weak)) aclFloatArray* aclCreateFloatArray(const float* value, uint64_t size);
__attribute__((weak)) aclBoolArray* aclCreateBoolArray(const bool* value, uint64_t size);
__attribute__((weak)) aclnnStatus aclDestroyFloatArray(const aclFloatArray* array);
__attribute__((weak)) aclnnStatus aclDestroyBoolArray(const aclBoolArray* array);
}

namespace {
void ReleaseInt(aclIntArray* p) { Release(p); }
void ReleaseFloat(aclFloatArray* p) {
  if (p != nullptr && &aclDestroyFloatArray != nullptr) aclDestroyFloatArray(p);
}
void ReleaseBool(aclBoolArray* p) {
  if (p != nullptr && &aclDestroyBoolArray != nullptr) aclDestroyBoolArray(p);
}
}  // namespace

aclIntArray* IntArrayDesc::ToAclTypeRawPtr() const { return aclCreateIntArray(arr_.data(), arr_.size()); }

unique_ptr<aclIntArray, void (*)(aclIntArray*)> IntArrayDesc::ToAclType() const {
  return {ToAclTypeRawPtr(), ReleaseInt};
}

aclFloatArray* FloatArrayDesc::ToAclTypeRawPtr() const {
  if (&aclCreateFloatArray == nullptr) {
    std::fprintf(stderr, "opsnn_ut: hostnn has no aclCreateFloatArray; passing NULL\n");
    return nullptr;
  }
  return aclCreateFloatArray(arr_.data(), arr_.size());
}

unique_ptr<aclFloatArray, void (*)(aclFloatArray*)> FloatArrayDesc::ToAclType() const {
  return {ToAclTypeRawPtr(), ReleaseFloat};
}

aclBoolArray* BoolArrayDesc::ToAclTypeRawPtr() const {
  if (&aclCreateBoolArray == nullptr) {
    std::fprintf(stderr, "opsnn_ut: hostnn has no aclCreateBoolArray; passing NULL\n");
    return nullptr;
  }
  std::vector<char> bytes(arr_.begin(), arr_.end());
  return aclCreateBoolArray(reinterpret_cast<const bool*>(bytes.data()), bytes.size());
}

unique_ptr<aclBoolArray, void (*)(aclBoolArray*)> BoolArrayDesc::ToAclType() const {
  return {ToAclTypeRawPtr(), ReleaseBool};
}
