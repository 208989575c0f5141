// The API's edge: what becomes of an exception that reaches a function promising a Status.
// hostnn reports errors as values; an exception can still arise inside (std::bad_alloc from
// any allocation, a library bug), and one that left a C entry point or a Status function
// would end the caller's process. Every such function runs its body through StatusBoundary
// (here) or runtime::Entry (src/runtime/runtime.h, the C entry points), so whatever the
// code below them comes to throw is caught at the edge by construction.
// It lives in base/, beneath every layer, because such edges are in several of them (the
// native API's Status functions, the planner's hostnn/tiling.h ones, the runtime's streams);
// like the rest of base/ it depends only on hostnn/ public headers and the standard library.
#ifndef HOSTNN_BASE_BOUNDARY_H_
#define HOSTNN_BASE_BOUNDARY_H_

#include <cstddef>
#include <string_view>

#include "hostnn/status.h"

namespace hostnn {

// What the exception being handled is, for a message: "out of memory (std::bad_alloc)",
// "internal error: <what()>", or "internal error: an exception that is not a
// std::exception". Call only inside a catch handler. Writes at most `size` bytes
// (terminated) and allocates nothing, so it works when memory is exhausted.
void DescribeCurrentException(char* buf, size_t size) noexcept;

// kInner "<where>: <DescribeCurrentException>" for the exception being handled; call only
// inside a catch handler. When memory is so short that even the message cannot be built,
// kInner with an empty message.
Status CurrentExceptionStatus(std::string_view where) noexcept;

// body() (a Status), or kInner naming `where` and the exception when it throws.
template <typename Body>
Status StatusBoundary(std::string_view where, Body&& body) noexcept {
  try {
    return body();
  } catch (...) {
    return CurrentExceptionStatus(where);
  }
}

}  // namespace hostnn

#endif  // HOSTNN_BASE_BOUNDARY_H_
