// Harness shim: GetCurrentPlatformInfo() answers Atlas A2 (Ascend910B) unless a test's
// SocVersionManager says otherwise.
#include "opdev/platform.h"

namespace op {
namespace {
thread_local SocVersion g_soc = SocVersion::ASCEND910B;
}  // namespace

SocVersion PlatformInfo::GetSocVersion() const { return g_soc; }

std::string PlatformInfo::GetSocLongVersion() const {
  return g_soc == SocVersion::ASCEND910B ? "Ascend910B1" : "Unknown";
}

const PlatformInfo& GetCurrentPlatformInfo() {
  static const PlatformInfo info;
  return info;
}

SocVersionManager::SocVersionManager(SocVersion version) : saved_(g_soc) { g_soc = version; }
SocVersionManager::~SocVersionManager() { g_soc = saved_; }

}  // namespace op
