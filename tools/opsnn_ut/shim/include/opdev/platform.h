// Harness shim: the platform query of op_api code. hostnn plays an Atlas A2 (Ascend910B),
// so that is what GetCurrentPlatformInfo() answers; a test may switch the answer for its
// own branches with SocVersionManager (hostnn itself keeps behaving as an A2).
#ifndef HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_
#define HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_

#include <cstdint>
#include <string>

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

class PlatformInfo {
 public:
  SocVersion GetSocVersion() const;
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

}  // namespace op

#endif  // HOSTNN_OPSNN_UT_OPDEV_PLATFORM_H_
