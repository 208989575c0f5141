// The host "device": per-thread error messages, the allocation registry behind
// aclrtMalloc, and streams (a worker thread each, running an ordered queue).
#ifndef HOSTNN_SRC_RUNTIME_RUNTIME_H_
#define HOSTNN_SRC_RUNTIME_RUNTIME_H_

#include <cstdint>
#include <functional>
#include <string>
#include <type_traits>

#include "hostnn/status.h"

namespace hostnn {
namespace runtime {

// The calling thread's most recent error message (aclGetRecentErrMsg).
void SetLastError(const std::string& message);
const char* LastError();

// Records "<fn>: <what the exception being handled is>" (DescribeCurrentException) as the
// calling thread's message, in a per-thread buffer: it allocates nothing, so it works when
// memory is exhausted. Call only inside a catch handler.
void SetLastErrorFromException(const char* fn) noexcept;

// The edge of a C entry point: body()'s result, or `failed` when anything is thrown out of
// body (std::bad_alloc included), with the thread's message naming `fn` and the exception.
// Every extern "C" function of libhostnn runs its body through this (the CANN-named
// libraries forward to those same functions), so nothing thrown ever reaches a C caller.
template <typename Body>
std::invoke_result_t<Body&> Entry(const char* fn, std::invoke_result_t<Body&> failed,
                                  Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    SetLastErrorFromException(fn);
    return failed;
  }
}

// Queues task on `stream` (an aclrtStream). Returns 0 on success, or an ACL error code
// (with the message set) when the stream is unknown or destroyed. Tasks run in order; a
// failing task's status is kept for the next synchronize.
int Enqueue(void* stream, std::function<Status()> task);

// A fresh handle value for an object the C API hands out (streams, executors): never
// null, never reused in the life of the process, and never equal to a handle of another
// kind, so a stale or foreign handle is refused instead of naming a later object that
// happens to live at a freed address. Handles are tokens, never dereferenced.
uintptr_t NewHandle();

// The live aclrtMalloc block that contains address p: true with its start and size
// (the bytes asked for), false when p lies in none.
bool FindAllocation(const void* p, uintptr_t* start, uint64_t* bytes);

// Changes whenever a block is allocated or freed: what phase 1 checked against the blocks
// (a tensor's storage fits the block its data lies in) still holds while it is unchanged.
uint64_t AllocationGeneration();

// Whether [p, p + bytes) lies wholly inside one live allocation of aclrtMalloc, or
// outside all of them. False when it starts inside one and runs past its end.
bool RangeWithinAllocation(const void* p, uint64_t bytes);

}  // namespace runtime
}  // namespace hostnn

#endif  // HOSTNN_SRC_RUNTIME_RUNTIME_H_
