// Host memory behind aclrtMalloc / aclrtFree / aclrtMemcpy / aclrtMemset. Every
// allocation is registered, so frees of foreign pointers and copies that run past an
// allocation's end are refused instead of corrupting memory.

#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <atomic>
#include <mutex>
#include <string>

#include "acl/acl_rt.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace runtime {
namespace {

constexpr size_t kAlign = 64;

struct Registry {
  std::mutex mu;
  std::map<uintptr_t, size_t> blocks;  // start -> bytes
  std::atomic<uint64_t> generation{0};  // bumped by every change to blocks
};
Registry& GetRegistry() {
  static Registry* r = new Registry();  // never destroyed: usable from static destructors
  return *r;
}

// The block containing address p, or blocks.end().
std::map<uintptr_t, size_t>::iterator FindBlock(Registry& r, uintptr_t p) {
  auto it = r.blocks.upper_bound(p);
  if (it == r.blocks.begin()) return r.blocks.end();
  --it;
  return (p < it->first + it->second) ? it : r.blocks.end();
}

aclError Fail(aclError code, const std::string& message) {
  SetLastError(message);
  return code;
}

}  // namespace

bool FindAllocation(const void* p, uintptr_t* start, uint64_t* bytes) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  auto it = FindBlock(r, reinterpret_cast<uintptr_t>(p));
  if (it == r.blocks.end()) return false;
  *start = it->first;
  *bytes = it->second;
  return true;
}

uint64_t AllocationGeneration() {
  return GetRegistry().generation.load(std::memory_order_acquire);
}

bool RangeWithinAllocation(const void* p, uint64_t bytes) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = FindBlock(r, a);
  if (it == r.blocks.end()) return true;  // not ours: the caller vouches for it
  return bytes <= it->first + it->second - a;
}

}  // namespace runtime
}  // namespace hostnn

using hostnn::runtime::Fail;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: devPtr is null");
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: size is 0");
  if (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy " + std::to_string(policy));
  }
  if (size > SIZE_MAX - hostnn::runtime::kAlign) return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: size too large");
  const size_t rounded = (size + hostnn::runtime::kAlign - 1) / hostnn::runtime::kAlign * hostnn::runtime::kAlign;
  void* p = std::aligned_alloc(hostnn::runtime::kAlign, rounded);
  if (p == nullptr) {
    return Fail(ACL_ERROR_BAD_ALLOC, "aclrtMalloc: out of memory allocating " + std::to_string(size) + " bytes");
  }
  auto& r = hostnn::runtime::GetRegistry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    r.blocks[reinterpret_cast<uintptr_t>(p)] = size;
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  *devPtr = p;
  return ACL_SUCCESS;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return aclrtMalloc(hostPtr, size, ACL_MEM_MALLOC_NORMAL_ONLY);
}

aclError aclrtFree(void* devPtr) {
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: devPtr is null");
  auto& r = hostnn::runtime::GetRegistry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.blocks.find(reinterpret_cast<uintptr_t>(devPtr));
    if (it == r.blocks.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtFree: pointer was not returned by aclrtMalloc (or was already freed)");
    }
    r.blocks.erase(it);
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  std::free(devPtr);
  return ACL_SUCCESS;
}

aclError aclrtFreeHost(void* hostPtr) { return aclrtFree(hostPtr); }

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
  if (dst == nullptr || src == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, std::string("aclrtMemcpy: ") + (dst == nullptr ? "dst" : "src") + " is null");
  }
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: unknown kind " + std::to_string(static_cast<int>(kind)));
  }
  if (destMax < count) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: count " + std::to_string(count) +
                                             " exceeds destMax " + std::to_string(destMax));
  }
  if (!hostnn::runtime::RangeWithinAllocation(dst, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: " + std::to_string(count) + " bytes run past the end of the destination allocation");
  }
  if (!hostnn::runtime::RangeWithinAllocation(src, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemcpy: " + std::to_string(count) + " bytes run past the end of the source allocation");
  }
  if (count > 0) std::memmove(dst, src, count);
  return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is null");
  if (maxCount < count) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) + " exceeds maxCount " + std::to_string(maxCount));
  }
  if (!hostnn::runtime::RangeWithinAllocation(devPtr, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: range runs past the end of the allocation");
  }
  if (count > 0) std::memset(devPtr, value, count);
  return ACL_SUCCESS;
}

}  // extern "C"
