// The API's edge (see boundary.h): describing a caught exception without allocating.

#include "base/boundary.h"

#include <cstdio>
#include <exception>
#include <new>
#include <string>

namespace hostnn {

void DescribeCurrentException(char* buf, size_t size) noexcept {
  if (size == 0) return;
  // Rethrowing the exception being handled reuses its object: no allocation.
  try {
    throw;
  } catch (const std::bad_alloc& e) {
    std::snprintf(buf, size, "out of memory (%s)", e.what());
  } catch (const std::exception& e) {
    std::snprintf(buf, size, "internal error: %s", e.what());
  } catch (...) {
    std::snprintf(buf, size, "internal error: an exception that is not a std::exception");
  }
}

Status CurrentExceptionStatus(std::string_view where) noexcept {
  char what[256];
  DescribeCurrentException(what, sizeof(what));
  try {
    std::string message(where);
    message += ": ";
    message += what;
    return Status::Inner(std::move(message));
  } catch (...) {
    return Status(StatusCode::kInner, std::string());  // an empty string allocates nothing
  }
}

}  // namespace hostnn
