// Platform profiles and option resolution. The host profile is measured once (OpenMP
// thread count, L2 size); Ascend profiles are constants from the hardware documentation.
// Resolution order for every knob: explicit Options field, then environment, then default.

#include <omp.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kAscendBlockBytes = 32;
constexpr int64_t kHostBlockBytes = 64;
constexpr int64_t kDefaultMinElemsPerCore = 1024;     // Ascend's rule of thumb
constexpr int64_t kHostMinElemsPerCore = 16384;       // a fork costs ~1-2 us on the host

int64_t HostUbBytes() {
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 <= 0) l2 = 1 << 20;
  int64_t ub = static_cast<int64_t>(l2) / 2;  // the other half holds what streams through
  if (ub < (64 << 10)) ub = 64 << 10;
  if (ub > (1 << 20)) ub = 1 << 20;
  return ub;
}

// Parses a strictly positive decimal integer. False on anything else.
bool ParsePositive(const char* text, int64_t* value) {
  if (text == nullptr || *text == '\0') return false;
  errno = 0;
  char* end = nullptr;
  long long v = std::strtoll(text, &end, 10);
  if (errno != 0 || *end != '\0' || v <= 0) return false;
  *value = v;
  return true;
}

Status EnvInt(const char* name, int64_t* value) {
  const char* text = std::getenv(name);
  if (text == nullptr) return Status::Ok();
  if (!ParsePositive(text, value)) {
    return Status::Invalid(std::string(name) + "='" + text +
                           "': expected a positive integer");
  }
  return Status::Ok();
}

}  // namespace

Platform HostPlatform() {
  Platform p;
  p.name = "host";
  p.cores = omp_get_max_threads();
  if (p.cores < 1) p.cores = 1;
  p.ub_bytes = HostUbBytes();
  p.block_bytes = kHostBlockBytes;
  return p;
}

std::vector<std::string> PlatformNames() { return {"host", "atlas-a2", "atlas-a2-40", "ascend950"}; }

Status FindPlatform(const std::string& name, Platform* platform) {
  if (name == "host") {
    *platform = HostPlatform();
  } else if (name == "atlas-a2") {
    *platform = Platform{"atlas-a2", 48, 196608, kAscendBlockBytes};
  } else if (name == "atlas-a2-40") {
    *platform = Platform{"atlas-a2-40", 40, 196608, kAscendBlockBytes};
  } else if (name == "ascend950") {
    *platform = Platform{"ascend950", 64, 253952, kAscendBlockBytes};
  } else {
    std::string known;
    for (const auto& n : PlatformNames()) known += (known.empty() ? "" : ", ") + n;
    return Status::Invalid("platform '" + name + "' is unknown; expected one of: " + known);
  }
  return Status::Ok();
}

Status Resolve(const Options& options, Resolved* resolved) {
  Resolved r;
  std::string name = options.platform;
  if (name.empty()) {
    const char* env = std::getenv("HOSTNN_PLATFORM");
    name = (env != nullptr && *env != '\0') ? env : "host";
  }
  HOSTNN_RETURN_IF_ERROR(FindPlatform(name, &r.platform));
  r.min_elems_per_core = (name == "host") ? kHostMinElemsPerCore : kDefaultMinElemsPerCore;

  int64_t v = 0;
  if (options.num_cores < 0) return Status::Invalid("Options.num_cores must be >= 1");
  if (options.num_cores > 0) {
    r.platform.cores = options.num_cores;
  } else {
    HOSTNN_RETURN_IF_ERROR(EnvInt("HOSTNN_NUM_CORES", &v));
    if (v > 0) r.platform.cores = v;
  }
  v = 0;
  if (options.ub_bytes < 0) return Status::Invalid("Options.ub_bytes must be >= 1");
  if (options.ub_bytes > 0) {
    r.platform.ub_bytes = options.ub_bytes;
  } else {
    HOSTNN_RETURN_IF_ERROR(EnvInt("HOSTNN_UB_BYTES", &v));
    if (v > 0) r.platform.ub_bytes = v;
  }
  v = 0;
  if (options.min_elems_per_core < 0) return Status::Invalid("Options.min_elems_per_core must be >= 1");
  if (options.min_elems_per_core > 0) {
    r.min_elems_per_core = options.min_elems_per_core;
  } else {
    HOSTNN_RETURN_IF_ERROR(EnvInt("HOSTNN_MIN_ELEMS_PER_CORE", &v));
    if (v > 0) r.min_elems_per_core = v;
  }
  if (options.buffer_num != 0 && options.buffer_num != 1 && options.buffer_num != 2) {
    return Status::Invalid("Options.buffer_num must be 1 or 2 (or 0 for automatic), got " +
                           std::to_string(options.buffer_num));
  }
  r.buffer_num = options.buffer_num;
  if (r.platform.cores > 4096) {
    return Status::Invalid("core count " + std::to_string(r.platform.cores) + " exceeds 4096");
  }
  if (r.platform.ub_bytes < 1024) {
    return Status::Invalid("UB of " + std::to_string(r.platform.ub_bytes) +
                           " bytes is too small (at least 1024)");
  }
  *resolved = r;
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn
