// Harness shim: GetCurrentPlatformInfo() answers Atlas A2 (Ascend910B) unless a test's
// SocVersionManager or NpuArchManager says otherwise.
#include "opdev/platform.h"

namespace op {
namespace {
thread_local SocVersion g_soc = SocVersion::ASCEND910B;
thread_local NpuArch g_arch = NpuArch::DAV_2201;

SocVersion SocOf(NpuArch arch) {
  switch (arch) {
    case NpuArch::DAV_2201:
      return SocVersion::ASCEND910B;
    case NpuArch::DAV_3510:
      return SocVersion::ASCEND950;
    case NpuArch::DAV_1001:
      return SocVersion::ASCEND910;
    case NpuArch::DAV_2002:
      return SocVersion::ASCEND310P;
    case NpuArch::DAV_3002:
      return SocVersion::ASCEND310B;
    default:
      return SocVersion::RESERVED_VERSION;
  }
}
}  // namespace

SocVersion PlatformInfo::GetSocVersion() const { return g_soc; }
NpuArch PlatformInfo::GetCurNpuArch() const { return g_arch; }

std::string PlatformInfo::GetSocLongVersion() const {
  return g_soc == SocVersion::ASCEND910B ? "Ascend910B1" : "Unknown";
}

const PlatformInfo& GetCurrentPlatformInfo() {
  static const PlatformInfo info;
  return info;
}

SocVersionManager::SocVersionManager(SocVersion version) : saved_(g_soc) { g_soc = version; }
SocVersionManager::~SocVersionManager() { g_soc = saved_; }

NpuArchManager::NpuArchManager(NpuArch arch) : saved_arch_(g_arch), saved_soc_(g_soc) {
  g_arch = arch;
  g_soc = SocOf(arch);
}
NpuArchManager::~NpuArchManager() {
  g_arch = saved_arch_;
  g_soc = saved_soc_;
}

}  // namespace op
