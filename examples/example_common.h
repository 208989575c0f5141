// Small helpers shared by the examples, in the style of CANN's sample programs: check a
// status, make a device tensor from host data, copy a result back.
#ifndef HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_
#define HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_

#include <cstdint>
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

// The workspaces of phase-2 calls queued on a stream. A queued call still reads its
// workspace, so they are freed only once the stream is synchronized (FreeAll), as CANN's
// samples do.
class Workspaces {
 public:
  using Phase2 = aclnnStatus (*)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                 aclrtStream stream);
  // Allocates the workspace phase 1 asked for (none for 0 bytes) and queues phase 2.
  int Run(Phase2 phase2, uint64_t workspace_size, aclOpExecutor* executor, aclrtStream stream) {
    void* workspace = nullptr;
    if (workspace_size > 0) {
      if (aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
        return 1;
      blocks_.push_back(workspace);
    }
    return phase2(workspace, workspace_size, executor, stream) == ACL_SUCCESS ? 0 : 1;
  }
  // After aclrtSynchronizeStream.
  void FreeAll() {
    for (void* w : blocks_) aclrtFree(w);
    blocks_.clear();
  }

 private:
  std::vector<void*> blocks_;
};

template <typename T>
inline int CopyBack(const void* device, std::vector<T>* host) {
  const size_t bytes = host->size() * sizeof(T);
  return aclrtMemcpy(host->data(), bytes, device, bytes, ACL_MEMCPY_DEVICE_TO_HOST) == ACL_SUCCESS
             ? 0
             : 1;
}

// Phase 2 of a call whose phase 1 returned `prepared`: a workspace of its size, the run on
// the null stream, the workspace freed.
inline aclnnStatus RunPhase2(aclnnStatus prepared, uint64_t workspace_size, aclOpExecutor* executor,
                             aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  if (prepared != ACL_SUCCESS) return prepared;
  void* workspace = nullptr;
  if (workspace_size > 0 &&
      aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return -1;
  }
  const aclnnStatus ran = run(workspace, workspace_size, executor, nullptr);
  if (workspace != nullptr) aclrtFree(workspace);
  return ran;
}

#endif  // HOSTNN_EXAMPLES_EXAMPLE_COMMON_H_
