// Harness shim: optional storage for the tensors the framework creates without data (see
// opdev/common_types.h). By default NULL passes through, as CANN receives it (hostnn's
// phase 1 takes it, as CANN's). With OPSNN_UT_STORAGE=1 each gets a zeroed host buffer
// covering its storage shape (8 bytes an element for a dtype without a fixed size), freed
// when the framework destroys it; a storage over 1 GiB keeps NULL data.
#include <cstdlib>
#include <map>
#include <mutex>

#include "opdev/common_types.h"
#include "opdev/data_type_utils.h"

#undef aclCreateTensor
#undef aclDestroyTensor

namespace {
constexpr uint64_t kMaxBytes = uint64_t{1} << 30;
std::mutex g_mu;
std::map<const aclTensor*, void*> g_buffers;

bool NullDataWanted() {
  const char* v = std::getenv("OPSNN_UT_STORAGE");
  return v == nullptr || v[0] != '1';
}
}  // namespace

aclTensor* OpsnnUtCreateTensor(const int64_t* view_dims, uint64_t view_dims_num, aclDataType data_type,
                               const int64_t* stride, int64_t offset, aclFormat format,
                               const int64_t* storage_dims, uint64_t storage_dims_num, void* tensor_data) {
  void* buffer = nullptr;
  if (tensor_data == nullptr && (storage_dims != nullptr || storage_dims_num == 0) && !NullDataWanted()) {
    uint64_t count = 1;
    for (uint64_t i = 0; i < storage_dims_num; ++i) {
      count = storage_dims[i] > 0 ? count * static_cast<uint64_t>(storage_dims[i]) : 0;
    }
    size_t elem = op::TypeSize(data_type);
    if (elem == 0) elem = 8;
    if (count > 0 && count <= kMaxBytes / elem) {
      buffer = std::calloc(count, elem);
      tensor_data = buffer;
    }
  }
  aclTensor* t = aclCreateTensor(view_dims, view_dims_num, data_type, stride, offset, format, storage_dims,
                                 storage_dims_num, tensor_data);
  if (t == nullptr) {
    std::free(buffer);
  } else if (buffer != nullptr) {
    std::lock_guard<std::mutex> lock(g_mu);
    g_buffers[t] = buffer;
  }
  return t;
}

aclnnStatus OpsnnUtDestroyTensor(const aclTensor* tensor) {
  aclnnStatus ret = aclDestroyTensor(tensor);
  std::lock_guard<std::mutex> lock(g_mu);
  auto it = g_buffers.find(tensor);
  if (it != g_buffers.end()) {
    std::free(it->second);
    g_buffers.erase(it);
  }
  return ret;
}
