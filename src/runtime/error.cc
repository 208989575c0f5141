// Per-thread error messages: each thread sees the message of its own last failure.

#include "src/runtime/runtime.h"

#include "acl/acl_rt.h"
#include "src/cann/entry_alias.h"

namespace hostnn {
namespace runtime {
namespace {
thread_local std::string g_last_error;
}

void SetLastError(const std::string& message) { g_last_error = message; }
const char* LastError() { return g_last_error.c_str(); }

}  // namespace runtime
}  // namespace hostnn

extern "C" const char* aclGetRecentErrMsg(void) { return hostnn::runtime::LastError(); }
HOSTNN_ENTRY_ALIAS(aclGetRecentErrMsg)
