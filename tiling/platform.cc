// Platform profiles: the host (its cores are the caller's team; L2 and last-level cache
// sizes measured once), Ascend profiles (constants from the hardware documentation) and
// user profiles from JSON files. Nothing here plans or asks OpenMP; option resolution
// lives in options.cc.

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "base/boundary.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json_util.h"

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kAscendBlockBytes = 32;    // UB blocks (DataCopy granularity)
constexpr int64_t kAscendVectorBytes = 256;  // one vector register / repeat
constexpr int64_t kHostBlockBytes = 64;      // a cache line
constexpr int64_t kHostVectorBytes = 64;     // the widest host register is a cache line

int64_t ReadHostUbBytes() {
  long l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l2 <= 0) l2 = 1 << 20;
  int64_t ub = static_cast<int64_t>(l2) / 2;  // the other half holds what streams through
  if (ub < (64 << 10)) ub = 64 << 10;
  if (ub > (1 << 20)) ub = 1 << 20;
  return ub;
}

// Read once per process: on x86 sysconf asks cpuid, which a virtual machine traps (about
// a microsecond each time), and every Prepare plans for the host.
int64_t HostUbBytes() {
  static const int64_t ub = ReadHostUbBytes();
  return ub;
}

bool IsBuiltin(const std::string& name) {
  for (const std::string& n : PlatformNames()) {
    if (n == name) return true;
  }
  return false;
}

bool IsProfileName(const std::string& name) {
  if (name.empty() || name.size() > 64) return false;
  for (const char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.';
    if (!ok) return false;
  }
  return true;
}

Status ParseProfile(const Json& v, const std::string& where, Platform* platform) {
  if (!v.is_object()) {
    return Status::Invalid(where + ": expected an object, found " + JsonTypeName(v));
  }
  HOSTNN_RETURN_IF_ERROR(
      JsonOnlyKeys(v, {"name", "cores", "ub_bytes", "block_bytes", "vector_bytes"}, where));
  for (const char* required : {"name", "cores", "ub_bytes"}) {
    if (!v.contains(required)) {
      return Status::Invalid(where + ": \"" + required + "\" is missing");
    }
  }
  Platform p;
  p.block_bytes = kAscendBlockBytes;
  p.vector_bytes = kAscendVectorBytes;
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "name", where, &p.name));
  if (!IsProfileName(p.name)) {
    return Status::Invalid(where + ": name '" + p.name +
                           "' must be 1-64 letters, digits, '-', '_' or '.'");
  }
  if (IsBuiltin(p.name)) {
    return Status::Invalid(where + ": name '" + p.name + "' is a built-in profile");
  }
  // Any integer here; ValidatePlatform says what the limits are.
  const int64_t kAny = int64_t{1} << 62;
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "cores", -kAny, kAny, where, &p.cores));
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "ub_bytes", -kAny, kAny, where, &p.ub_bytes));
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "block_bytes", -kAny, kAny, where, &p.block_bytes));
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "vector_bytes", -kAny, kAny, where, &p.vector_bytes));
  Status valid = ValidatePlatform(p);
  if (!valid.ok()) return Status::Invalid(where + ": " + valid.message());
  *platform = p;
  return Status::Ok();
}

// The profiles of a parsed platform file.
Status ReadProfiles(const std::string& path, const Json& doc, std::vector<Platform>* platforms) {
  std::vector<Platform> out;
  if (doc.is_object() && doc.contains("platforms")) {
    HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(doc, {"platforms"}, path));
    const Json& list = doc.at("platforms");
    if (!list.is_array() || list.empty()) {
      return Status::Invalid(path + ": \"platforms\" must be a non-empty array");
    }
    for (size_t i = 0; i < list.size(); ++i) {
      Platform p;
      const std::string where = path + ": platforms[" + std::to_string(i) + "]";
      HOSTNN_RETURN_IF_ERROR(
          JsonGuard(where, nullptr, [&] { return ParseProfile(list.at(i), where, &p); }));
      for (const Platform& q : out) {
        if (q.name == p.name) {
          return Status::Invalid(path + ": profile '" + p.name + "' is defined twice");
        }
      }
      out.push_back(p);
    }
  } else {
    Platform p;
    HOSTNN_RETURN_IF_ERROR(ParseProfile(doc, path, &p));
    out.push_back(p);
  }
  *platforms = std::move(out);
  return Status::Ok();
}

Status ParsePlatformFile(const std::string& path, std::vector<Platform>* platforms) {
  Json doc;
  HOSTNN_RETURN_IF_ERROR(ParseJsonFile(path, &doc));
  return ProfilesFromJson(path, doc, platforms);
}

// The last-level cache one core sees: the highest-level data or unified cache Linux lists
// for cpu0 (sysfs: what the hardware reports per instance), else sysconf's, else 8 MiB.
// sysfs comes first because glibc's sysconf derives the L3 from cpuid arithmetic that some
// hypervisors skew (a 32 MiB L3 read as 320 MiB, which kept 4M-element outputs out of the
// streaming stores that make them 12-20% faster).
int64_t ReadLastLevelCacheBytes() {
  int64_t best_bytes = 0;
  int best_level = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction" || level < best_level || size.empty()) continue;
    char* end = nullptr;
    int64_t bytes = static_cast<int64_t>(std::strtoull(size.c_str(), &end, 10));
    if (end != nullptr && (*end == 'K' || *end == 'k')) bytes <<= 10;
    if (end != nullptr && (*end == 'M' || *end == 'm')) bytes <<= 20;
    if (bytes > 0) {
      best_level = level;
      best_bytes = bytes;
    }
  }
  if (best_bytes > 0) return best_bytes;
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return llc > 0 ? static_cast<int64_t>(llc) : int64_t{8} << 20;
}

}  // namespace

Status ProfilesFromJson(const std::string& path, const Json& doc,
                        std::vector<Platform>* platforms) {
  return JsonGuard(path, nullptr, [&] { return ReadProfiles(path, doc, platforms); });
}

std::string FileStamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
}

int64_t LastLevelCacheBytes() {
  static const int64_t bytes = ReadLastLevelCacheBytes();  // sysfs reads: once per process
  return bytes;
}

int64_t DefaultStreamMinBytes(const Platform&, int operands) {
  // The smallest output whose operands (inputs and output, all of its size) no longer fit
  // in the last-level cache together. Measured on a 32 MiB L3 (Zen 4):
  // - two inputs (the gradients): an output of 8 MiB (16-bit, 4M elements: 24 MiB in all)
  //   lost 25% to streaming in LogSoftmaxBackward dim -1 and gained nothing elementwise,
  //   while 16 MiB (f32, 4M: 48 MiB in all) gained 12% (HardsigmoidBackward, SiluBackward);
  // - one input: Hardsigmoid f32 at 4M (16 MiB each way, exactly the L3) ran 0.050 ns per
  //   element cached and 0.147 streamed at 2 threads.
  // (A Zen 3 with the same L3 had measured a small gain already at 8 MiB: 0.47 -> 0.44 ns
  // per element, f32 hardsigmoid backward at 2M.) Every profile's plan runs on this host's
  // cores and caches, so every profile takes it.
  return LastLevelCacheBytes() / std::max(operands, 1) + 1;
}

Platform HostPlatform(int64_t team) {
  Platform p;
  p.name = "host";
  p.cores = team;
  if (p.cores < 1) p.cores = 1;
  if (p.cores > kMaxCores) p.cores = kMaxCores;
  p.ub_bytes = HostUbBytes();
  p.block_bytes = kHostBlockBytes;
  p.vector_bytes = kHostVectorBytes;
  return p;
}

std::vector<std::string> PlatformNames() {
  return {"host", "atlas-a2", "atlas-a2-40", "ascend950"};
}

Status ValidatePlatform(const Platform& p) {
  return StatusBoundary("ValidatePlatform", [&] {
    const std::string who = "platform '" + p.name + "': ";
    if (p.cores < 1 || p.cores > kMaxCores) {
      return Status::Invalid(who + "cores = " + std::to_string(p.cores) + ": expected 1 to " +
                             std::to_string(kMaxCores));
    }
    if (!IsPowerOfTwo(p.block_bytes) || p.block_bytes < 16 || p.block_bytes > 256) {
      return Status::Invalid(who + "block_bytes = " + std::to_string(p.block_bytes) +
                             ": expected a power of two from 16 to 256");
    }
    if (!IsPowerOfTwo(p.vector_bytes) || p.vector_bytes < 16 || p.vector_bytes > 2048) {
      return Status::Invalid(who + "vector_bytes = " + std::to_string(p.vector_bytes) +
                             ": expected a power of two from 16 to 2048");
    }
    const int64_t min_ub = MinUbBytes(p.block_bytes);
    if (p.ub_bytes < min_ub || p.ub_bytes > kMaxUbBytes) {
      return Status::Invalid(who + "ub_bytes = " + std::to_string(p.ub_bytes) + ": expected " +
                             std::to_string(min_ub) + " (128 blocks, at least 8192) to " +
                             std::to_string(kMaxUbBytes));
    }
    return Status::Ok();
  });
}

Status ReadPlatformFile(const std::string& path, std::vector<Platform>* platforms) {
  // Out of memory reading it names the file: "<path>: out of memory (std::bad_alloc)".
  return StatusBoundary(path,
                        [&] { return ReadCached<Platform>(path, ParsePlatformFile, platforms); });
}

Status FindPlatform(const std::string& name, const std::string& platform_file, int64_t team,
                    Platform* platform) {
  return StatusBoundary("FindPlatform", [&] {
    // A named file is read (and must be valid) whatever profile is chosen: a missing or
    // broken file is an error even when a built-in profile is used, never ignored.
    std::vector<Platform> user;
    if (!platform_file.empty()) HOSTNN_RETURN_IF_ERROR(ReadPlatformFile(platform_file, &user));
    if (name == "host") {
      *platform = HostPlatform(team);
      return Status::Ok();
    }
    if (name == "atlas-a2") {
      *platform = Platform{"atlas-a2", 48, 196608, kAscendBlockBytes, kAscendVectorBytes};
      return Status::Ok();
    }
    if (name == "atlas-a2-40") {
      *platform = Platform{"atlas-a2-40", 40, 196608, kAscendBlockBytes, kAscendVectorBytes};
      return Status::Ok();
    }
    if (name == "ascend950") {
      *platform = Platform{"ascend950", 64, 253952, kAscendBlockBytes, kAscendVectorBytes};
      return Status::Ok();
    }
    std::string known;
    for (const std::string& n : PlatformNames()) known += (known.empty() ? "" : ", ") + n;
    for (const Platform& p : user) {
      if (p.name == name) {
        *platform = p;
        return Status::Ok();
      }
      known += ", " + p.name;
    }
    return Status::Invalid("platform '" + name + "' is unknown; expected one of: " + known +
                           (platform_file.empty() ? " (HOSTNN_PLATFORM_FILE adds profiles)" : ""));
  });
}

}  // namespace tiling
}  // namespace hostnn
