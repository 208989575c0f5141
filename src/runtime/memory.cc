// Host memory behind aclrtMalloc / aclrtMallocHost / the frees / aclrtMemcpy(Async) /
// aclrtMemset. Every allocation is registered with its kind, so frees of foreign pointers
// and copies that run past an allocation's end are refused instead of corrupting memory.

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <map>
#include <mutex>
#include <string>

#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "base/entry_alias.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace runtime {
namespace {

constexpr size_t kAlign = 64;

struct Block {
  size_t bytes = 0;
  bool host = false;  // aclrtMallocHost (freed by aclrtFreeHost), else aclrtMalloc
};
struct Registry {
  std::mutex mu;
  std::map<uintptr_t, Block> blocks;    // start -> block
  std::atomic<uint64_t> generation{0};  // bumped by every change to blocks
};
Registry& GetRegistry() {
  static Registry* r = new Registry();  // never destroyed: usable from static destructors
  return *r;
}

// The block containing address p, or blocks.end().
std::map<uintptr_t, Block>::iterator FindBlock(Registry& r, uintptr_t p) {
  auto it = r.blocks.upper_bound(p);
  if (it == r.blocks.begin()) return r.blocks.end();
  --it;
  return (p < it->first + it->second.bytes) ? it : r.blocks.end();
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
  *bytes = it->second.bytes;
  return true;
}

uint64_t AllocationGeneration() { return GetRegistry().generation.load(std::memory_order_acquire); }

bool RangeWithinAllocation(const void* p, uint64_t bytes) {
  Registry& r = GetRegistry();
  std::lock_guard<std::mutex> lock(r.mu);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  auto it = FindBlock(r, a);
  if (it == r.blocks.end()) return true;  // not ours: the caller vouches for it
  return bytes <= it->first + it->second.bytes - a;
}

namespace {

// aclrtMalloc and aclrtMallocHost: `fn` names the entry point in messages.
aclError Allocate(const char* fn, void** ptr, size_t size, bool host) {
  const std::string who = std::string(fn) + ": ";
  if (ptr == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM, who + (host ? "hostPtr" : "devPtr") + " is null");
  if (size == 0) return Fail(ACL_ERROR_INVALID_PARAM, who + "size is 0");
  if (size > SIZE_MAX - kAlign) return Fail(ACL_ERROR_BAD_ALLOC, who + "size too large");
  const size_t rounded = (size + kAlign - 1) / kAlign * kAlign;
  void* p = std::aligned_alloc(kAlign, rounded);
  if (p == nullptr) {
    return Fail(ACL_ERROR_BAD_ALLOC,
                who + "out of memory allocating " + std::to_string(size) + " bytes");
  }
  Registry& r = GetRegistry();
  try {
    std::lock_guard<std::mutex> lock(r.mu);
    r.blocks[reinterpret_cast<uintptr_t>(p)] = Block{size, host};
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  } catch (...) {
    std::free(p);  // the registry could not take it (out of memory): the edge reports that
    throw;
  }
  *ptr = p;
  return ACL_SUCCESS;
}

// aclrtFree and aclrtFreeHost: only blocks of the matching allocator are taken back.
aclError Release(const char* fn, void* ptr, bool host) {
  const std::string who = std::string(fn) + ": ";
  if (ptr == nullptr)
    return Fail(ACL_ERROR_INVALID_PARAM, who + (host ? "hostPtr" : "devPtr") + " is null");
  Registry& r = GetRegistry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.blocks.find(reinterpret_cast<uintptr_t>(ptr));
    if (it == r.blocks.end()) {
      return Fail(ACL_ERROR_INVALID_PARAM, who + "pointer was not returned by " +
                                               (host ? "aclrtMallocHost" : "aclrtMalloc") +
                                               " (or was already freed)");
    }
    if (it->second.host != host) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  who + "pointer was returned by " +
                      (host ? "aclrtMalloc: free it with aclrtFree"
                            : "aclrtMallocHost: free it with aclrtFreeHost"));
    }
    r.blocks.erase(it);
    r.generation.fetch_add(1, std::memory_order_acq_rel);
  }
  std::free(ptr);
  return ACL_SUCCESS;
}

// The checks of aclrtMemcpy and aclrtMemcpyAsync, in that order; `fn` names the caller.
aclError CheckCopy(const char* fn, void* dst, size_t dest_max, const void* src, size_t count,
                   aclrtMemcpyKind kind) {
  const std::string who = std::string(fn) + ": ";
  if (dst == nullptr || src == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, who + (dst == nullptr ? "dst" : "src") + " is null");
  }
  if (kind < ACL_MEMCPY_HOST_TO_HOST || kind > ACL_MEMCPY_DEVICE_TO_DEVICE) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                who + "unknown kind " + std::to_string(static_cast<int>(kind)));
  }
  if (dest_max < count) {
    return Fail(ACL_ERROR_INVALID_PARAM, who + "count " + std::to_string(count) +
                                             " exceeds destMax " + std::to_string(dest_max));
  }
  if (!RangeWithinAllocation(dst, count)) {
    return Fail(
        ACL_ERROR_INVALID_PARAM,
        who + std::to_string(count) + " bytes run past the end of the destination allocation");
  }
  if (!RangeWithinAllocation(src, count)) {
    return Fail(ACL_ERROR_INVALID_PARAM,
                who + std::to_string(count) + " bytes run past the end of the source allocation");
  }
  return ACL_SUCCESS;
}

}  // namespace
}  // namespace runtime
}  // namespace hostnn

using hostnn::runtime::Entry;
using hostnn::runtime::Fail;

extern "C" {

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
  return Entry("aclrtMalloc", ACLNN_ERR_INNER, [&]() -> aclError {
    if (devPtr != nullptr && size != 0 &&
        (policy < ACL_MEM_MALLOC_HUGE_FIRST || policy > ACL_MEM_MALLOC_NORMAL_ONLY)) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMalloc: unknown policy " + std::to_string(policy));
    }
    return hostnn::runtime::Allocate("aclrtMalloc", devPtr, size, /*host=*/false);
  });
}
HOSTNN_ENTRY_ALIAS(aclrtMalloc)

aclError aclrtMallocHost(void** hostPtr, size_t size) {
  return Entry("aclrtMallocHost", ACLNN_ERR_INNER, [&]() -> aclError {
    return hostnn::runtime::Allocate("aclrtMallocHost", hostPtr, size, /*host=*/true);
  });
}
HOSTNN_ENTRY_ALIAS(aclrtMallocHost)

aclError aclrtFree(void* devPtr) {
  return Entry("aclrtFree", ACLNN_ERR_INNER, [&]() -> aclError {
    return hostnn::runtime::Release("aclrtFree", devPtr, /*host=*/false);
  });
}
HOSTNN_ENTRY_ALIAS(aclrtFree)

aclError aclrtFreeHost(void* hostPtr) {
  return Entry("aclrtFreeHost", ACLNN_ERR_INNER, [&]() -> aclError {
    return hostnn::runtime::Release("aclrtFreeHost", hostPtr, /*host=*/true);
  });
}
HOSTNN_ENTRY_ALIAS(aclrtFreeHost)

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                     aclrtMemcpyKind kind) {
  return Entry("aclrtMemcpy", ACLNN_ERR_INNER, [&]() -> aclError {
    const aclError checked =
        hostnn::runtime::CheckCopy("aclrtMemcpy", dst, destMax, src, count, kind);
    if (checked != ACL_SUCCESS) return checked;
    if (count > 0) std::memmove(dst, src, count);
    return ACL_SUCCESS;
  });
}
HOSTNN_ENTRY_ALIAS(aclrtMemcpy)

aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src, size_t count,
                          aclrtMemcpyKind kind, aclrtStream stream) {
  return Entry("aclrtMemcpyAsync", ACLNN_ERR_INNER, [&]() -> aclError {
    const aclError checked =
        hostnn::runtime::CheckCopy("aclrtMemcpyAsync", dst, destMax, src, count, kind);
    if (checked != ACL_SUCCESS) return checked;
    if (stream == nullptr) {
      if (count > 0) std::memmove(dst, src, count);
      return ACL_SUCCESS;
    }
    const int queued = hostnn::runtime::Enqueue(stream, [dst, src, count] {
      if (count > 0) std::memmove(dst, src, count);
      return hostnn::Status::Ok();
    });
    if (queued != ACL_SUCCESS) {
      return Fail(queued, std::string("aclrtMemcpyAsync: ") + hostnn::runtime::LastError());
    }
    return ACL_SUCCESS;
  });
}
HOSTNN_ENTRY_ALIAS(aclrtMemcpyAsync)

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
  return Entry("aclrtMemset", ACLNN_ERR_INNER, [&]() -> aclError {
    if (devPtr == nullptr) return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: devPtr is null");
    if (maxCount < count) {
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtMemset: count " + std::to_string(count) +
                                               " exceeds maxCount " + std::to_string(maxCount));
    }
    if (!hostnn::runtime::RangeWithinAllocation(devPtr, count)) {
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtMemset: range runs past the end of the allocation");
    }
    if (count > 0) std::memset(devPtr, value, count);
    return ACL_SUCCESS;
  });
}
HOSTNN_ENTRY_ALIAS(aclrtMemset)

}  // extern "C"
