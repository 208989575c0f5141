// Platform profiles: the host (measured once: OpenMP thread count, L2 size), Ascend
// profiles (constants from the hardware documentation) and user profiles from JSON files.
// Nothing here plans; option resolution lives in options.cc.

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json.h"

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

Status ParseProfile(const json::Value& v, const std::string& where, Platform* platform) {
  if (v.type != json::Value::Type::kObject) {
    return Status::Invalid(where + ": expected an object, found " + json::TypeName(v.type));
  }
  static const char* const kKeys[] = {"name",        "cores",        "ub_bytes",
                                      "block_bytes", "vector_bytes", nullptr};
  HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(v, kKeys, where));
  for (const char* required : {"name", "cores", "ub_bytes"}) {
    if (v.Find(required) == nullptr) {
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

Status ParsePlatformFile(const std::string& path, std::vector<Platform>* platforms) {
  json::Value doc;
  HOSTNN_RETURN_IF_ERROR(json::ParseFile(path, &doc));
  std::vector<Platform> out;
  if (doc.type == json::Value::Type::kObject && doc.Find("platforms") != nullptr) {
    static const char* const kKeys[] = {"platforms", nullptr};
    HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(doc, kKeys, path));
    const json::Value& list = *doc.Find("platforms");
    if (list.type != json::Value::Type::kArray || list.array.empty()) {
      return Status::Invalid(path + ": \"platforms\" must be a non-empty array");
    }
    for (size_t i = 0; i < list.array.size(); ++i) {
      Platform p;
      HOSTNN_RETURN_IF_ERROR(ParseProfile(
          list.array[i],
          path + ": platforms[" + std::to_string(i) + "] (" + list.array[i].Where() + ")", &p));
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

}  // namespace

std::string FileStamp(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0) return "";
  return std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
         std::to_string(st.st_mtim.tv_nsec) + ":" + std::to_string(st.st_ino);
}

Platform HostPlatform() {
  Platform p;
  p.name = "host";
  p.cores = omp_get_max_threads();
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
}

Status ReadPlatformFile(const std::string& path, std::vector<Platform>* platforms) {
  return ReadCached<Platform>(path, ParsePlatformFile, platforms);
}

Status FindPlatform(const std::string& name, const std::string& platform_file, Platform* platform) {
  // A named file is read (and must be valid) whatever profile is chosen: a missing or
  // broken file is an error even when a built-in profile is used, never ignored.
  std::vector<Platform> user;
  if (!platform_file.empty()) HOSTNN_RETURN_IF_ERROR(ReadPlatformFile(platform_file, &user));
  if (name == "host") {
    *platform = HostPlatform();
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
}

// ---- JSON member helpers (internal.h) ---------------------------------------------------

Status JsonInt(const json::Value& object, const std::string& key, int64_t lo, int64_t hi,
               const std::string& where, int64_t* value) {
  const json::Value* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (v->type != json::Value::Type::kNumber || !v->is_integer) {
    return Status::Invalid(where + ": \"" + key + "\" must be an integer, found " +
                           (v->type == json::Value::Type::kNumber ? "a fraction or a huge number"
                                                                  : json::TypeName(v->type)));
  }
  if (v->integer < lo || v->integer > hi) {
    return Status::Invalid(where + ": \"" + key + "\" = " + std::to_string(v->integer) +
                           ": expected " + std::to_string(lo) + " to " + std::to_string(hi));
  }
  *value = v->integer;
  return Status::Ok();
}

Status JsonString(const json::Value& object, const std::string& key, const std::string& where,
                  std::string* value) {
  const json::Value* v = object.Find(key);
  if (v == nullptr) return Status::Ok();
  if (v->type != json::Value::Type::kString) {
    return Status::Invalid(where + ": \"" + key + "\" must be a string, found " +
                           json::TypeName(v->type));
  }
  *value = v->string;
  return Status::Ok();
}

Status JsonOnlyKeys(const json::Value& object, const char* const* known, const std::string& where) {
  for (const auto& member : object.object) {
    bool found = false;
    std::string list;
    for (const char* const* k = known; *k != nullptr; ++k) {
      if (member.first == *k) found = true;
      list += std::string(list.empty() ? "" : ", ") + *k;
    }
    if (!found) {
      return Status::Invalid(where + ": unknown key \"" + member.first + "\" (" +
                             member.second.Where() + "); expected: " + list);
    }
  }
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn
