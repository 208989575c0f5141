// Per-thread error messages: each thread sees the message of its own last failure.

#include "src/runtime/runtime.h"

#include <cstdio>

#include "acl/acl_rt.h"
#include "base/boundary.h"
#include "base/entry_alias.h"

namespace hostnn {
namespace runtime {
namespace {
thread_local std::string g_last_error;
// A message recorded at an entry point's edge, where allocating may be what failed.
thread_local char g_edge_error[512];
thread_local bool g_edge_error_current = false;
}  // namespace

void SetLastError(const std::string& message) {
  g_last_error = message;  // may throw (out of memory): then the edge records its own
  g_edge_error_current = false;
}

void SetLastErrorFromException(const char* fn) noexcept {
  char what[400];
  DescribeCurrentException(what, sizeof(what));
  std::snprintf(g_edge_error, sizeof(g_edge_error), "%s: %s", fn, what);
  g_edge_error_current = true;
}

const char* LastError() { return g_edge_error_current ? g_edge_error : g_last_error.c_str(); }

}  // namespace runtime
}  // namespace hostnn

extern "C" const char* aclGetRecentErrMsg(void) {
  return hostnn::runtime::Entry("aclGetRecentErrMsg", "",
                                [] { return hostnn::runtime::LastError(); });
}
HOSTNN_ENTRY_ALIAS(aclGetRecentErrMsg)
