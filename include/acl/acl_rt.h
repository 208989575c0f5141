/* CANN-compatible runtime subset on host memory: init, devices, streams, memory.
 * "Device" memory is host memory owned by hostnn; streams are worker threads with
 * ordered queues. Plain C: usable from C and C++. */
#ifndef HOSTNN_ACL_ACL_RT_H_
#define HOSTNN_ACL_ACL_RT_H_

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclrtMemcpyKind {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
  ACL_MEMCPY_RESERVED_MIN_ = -0x7FFFFFFF - 1, /* widen the enum to all of int32, so */
  ACL_MEMCPY_RESERVED_MAX_ = 0x7FFFFFFF       /* unknown kinds are refused, not UB */
} aclrtMemcpyKind;

typedef enum aclrtMemMallocPolicy {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2,
  ACL_MEM_MALLOC_RESERVED_MIN_ = -0x7FFFFFFF - 1, /* widen the enum to all of int32 */
  ACL_MEM_MALLOC_RESERVED_MAX_ = 0x7FFFFFFF
} aclrtMemMallocPolicy;

/* Initialise / finalise the runtime. configPath is ignored (may be NULL). */
ACL_FUNC_VISIBILITY aclError aclInit(const char* configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);

/* hostnn has one device, id 0; any other id is refused. */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t* count);
/* The SoC of the platform profile the planner uses (HOSTNN_PLATFORM, host by default):
 * "Ascend910B1" for atlas-a2, "Ascend910B3" for atlas-a2-40, "Ascend950" for ascend950,
 * "hostnn-host" for host, a user profile's own name. NULL (message set) when the
 * environment names no valid profile. The string lives as long as the process. */
ACL_FUNC_VISIBILITY const char* aclrtGetSocName(void);

/* A stream is a worker thread running its queue in order. Destroying a stream drains it. */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream* stream);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
/* Waits for everything queued so far; returns the first failure since the last sync. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);

/* 64-byte aligned host memory. aclrtFree refuses pointers aclrtMalloc did not hand out,
 * aclrtFreeHost those aclrtMallocHost did not. */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void** hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFree(void* devPtr);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void* hostPtr);
/* Copies count bytes; refuses destMax < count, NULL pointers, an unknown kind, and a range
 * that runs past the end of an allocation made by aclrtMalloc. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count,
                                         aclrtMemcpyKind kind);
/* aclrtMemcpy queued on stream: the arguments are checked now (a refusal queues nothing);
 * the copy happens in stream order. A NULL stream copies at once. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void* dst, size_t destMax, const void* src,
                                              size_t count, aclrtMemcpyKind kind,
                                              aclrtStream stream);
/* Sets count bytes to (unsigned char)value; refuses maxCount < count and a range that runs
 * past the end of an allocation. */
ACL_FUNC_VISIBILITY aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value,
                                         size_t count);

/* The message recorded by the last failing call on this thread ("" when none). */
ACL_FUNC_VISIBILITY const char* aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* HOSTNN_ACL_ACL_RT_H_ */
