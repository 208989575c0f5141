// Harness shim: the platform query of op_api code. hostnn plays an Atlas A2 (Ascend910B),
// so that is what GetCurrentPlatformInfo() answers; a test may switch the answer for its
// own branches with SocVersionManager or NpuArchManager (hostnn itself keeps behaving as an
// A2).
#ifndef HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_
#define HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_

#include <cstdint>
#include <string>

// The NPU architecture, as newer op_api code and tests name a chip: DAV_2201 is Atlas A2
// (Ascend910B), DAV_3510 Ascend 950.
enum class NpuArch {
  DAV_1001 = 1001,
  DAV_2002 = 2002,
  DAV_2201 = 2201,
  DAV_3002 = 3002,
  DAV_3102 = 3102,
  DAV_3510 = 3510,
  DAV_RESV = 9999
};

namespace op {

// Ordered by generation where tests compare with < and >=: the 910 family first.
enum class SocVersion {
  ASCEND910 = 0,
  ASCEND910B,
  ASCEND910_93,
  ASCEND950,
  ASCEND350,
  ASCEND910E,
  ASCEND310,
  ASCEND310P,
  ASCEND310B,
  ASCEND310C,
  ASCEND610LITE,
  KIRINX90,
  KIRIN9030,
  RESERVED_VERSION = 99999
};

// (NpuArch: at global scope, where CANN's headers declare it.)
using ::NpuArch;

class PlatformInfo {
 public:
  SocVersion GetSocVersion() const;
  NpuArch GetCurNpuArch() const;
  std::string GetSocLongVersion() const;
  int32_t GetDeviceId() const { return 0; }
  bool Valid() const { return true; }
};

const PlatformInfo& GetCurrentPlatformInfo();

// Sets the answer of GetSocVersion() for its lifetime, then restores the previous one.
class SocVersionManager {
 public:
  explicit SocVersionManager(SocVersion version);
  ~SocVersionManager();
  SocVersionManager(const SocVersionManager&) = delete;
  SocVersionManager& operator=(const SocVersionManager&) = delete;

 private:
  SocVersion saved_;
};

// Sets the answer of GetCurNpuArch() for its lifetime (and GetSocVersion()'s to the chip of
// that architecture), then restores both.
class NpuArchManager {
 public:
  explicit NpuArchManager(NpuArch arch);
  ~NpuArchManager();
  NpuArchManager(const NpuArchManager&) = delete;
  NpuArchManager& operator=(const NpuArchManager&) = delete;

 private:
  NpuArch saved_arch_;
  SocVersion saved_soc_;
};

}  // namespace op

#endif  // HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_
