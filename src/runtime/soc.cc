// aclrtGetSocName: the SoC of the platform profile the planner uses. It reads the
// selection (tiling::SelectedPlatform) and plans nothing.

#include <mutex>
#include <set>
#include <string>

#include "acl/acl_rt.h"
#include "hostnn/tiling.h"
#include "base/entry_alias.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace runtime {
namespace {

// CANN's SoC name of each built-in profile; a user profile is named by itself.
std::string SocNameOf(const std::string& profile) {
  if (profile == "atlas-a2") return "Ascend910B1";     // 24 AI cores, 48 vector cores
  if (profile == "atlas-a2-40") return "Ascend910B3";  // 20 AI cores, 40 vector cores
  if (profile == "ascend950") return "Ascend950";
  if (profile == "host") return "hostnn-host";
  return profile;
}

// Names handed out so far: a returned pointer stays valid for the life of the process.
const char* Intern(const std::string& name) {
  static std::mutex* mu = new std::mutex();
  static std::set<std::string>* names = new std::set<std::string>();
  std::lock_guard<std::mutex> lock(*mu);
  return names->insert(name).first->c_str();
}

}  // namespace
}  // namespace runtime
}  // namespace hostnn

using hostnn::runtime::Entry;

extern "C" {

const char* aclrtGetSocName(void) {
  return Entry("aclrtGetSocName", nullptr, [&]() -> const char* {
    hostnn::tiling::Platform platform;
    const hostnn::Status s = hostnn::tiling::SelectedPlatform(&platform);
    if (!s.ok()) {
      hostnn::runtime::SetLastError("aclrtGetSocName: " + s.message());
      return nullptr;
    }
    return hostnn::runtime::Intern(hostnn::runtime::SocNameOf(platform.name));
  });
}

// The name the CANN-named libraries forward to (base/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclrtGetSocName)

}  // extern "C"
