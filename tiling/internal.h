// Helpers shared by the tiling sources: integer arithmetic of the planners, the operator
// list, and parsed files cached by their (size, mtime, inode) stamp. Internal: not installed.
// ReadEnvironment is the one place that reads the environment.
#ifndef HOSTNN_TILING_INTERNAL_H_
#define HOSTNN_TILING_INTERNAL_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hostnn/op.h"
#include "hostnn/status.h"
#include "hostnn/tiling.h"
#include "tiling/json.h"

namespace hostnn {
namespace tiling {

inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t AlignDown(int64_t v, int64_t a) { return v / a * a; }
inline int64_t AlignUp(int64_t v, int64_t a) { return CeilDiv(v, a) * a; }
inline bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// The operators of op_list.def: true when `op` is one (and whether it is a reduction).
bool LookupOp(const std::string& op, bool* is_reduction);

// The HOSTNN_ variables Resolve reads: the one list behind EnvironmentVariables() and
// Environment::values.
constexpr const char* kEnvironmentVariables[] = {
    "HOSTNN_PLATFORM", "HOSTNN_PLATFORM_FILE",      "HOSTNN_TUNING_FILE", "HOSTNN_NUM_CORES",
    "HOSTNN_UB_BYTES", "HOSTNN_MIN_ELEMS_PER_CORE", "HOSTNN_BUFFER_NUM", "HOSTNN_STREAM_MIN_BYTES"};

// The HOSTNN_ variables of the environment, in kEnvironmentVariables order, read in one
// pass. Unset and set-to-empty both read as "" (and mean "not set").
struct Environment {
  static constexpr int kCount =
      static_cast<int>(sizeof(kEnvironmentVariables) / sizeof(kEnvironmentVariables[0]));
  std::string values[kCount];
  bool set[kCount] = {};
  bool operator==(const Environment& o) const {
    for (int i = 0; i < kCount; ++i) {
      if (values[i] != o.values[i]) return false;
    }
    return true;
  }
};
Environment ReadEnvironment();
// The index of a HOSTNN_ variable in Environment::values (-1 when it is not one).
int VariableIndex(const char* name);
// Files can change between calls (their parsed contents are cached by stamp in
// ReadCached), so a plan that depends on one is never kept by a cache.
bool PlanReadsAFile(const Options& options, const Environment& env);
// Resolve against a snapshot of the environment (Resolve reads a fresh one).
Status ResolveIn(const Environment& env, const Options& options, const Problem& problem,
                 Resolved* resolved);

// "size:mtime_ns:inode" of a file, or empty when it cannot be stat'ed.
std::string FileStamp(const std::string& path);

// `parse(path, out)`, cached per (path, stamp): a file is parsed again only once it
// changes. Thread-safe.
template <typename T>
Status ReadCached(const std::string& path, Status (*parse)(const std::string&, std::vector<T>*),
                  std::vector<T>* out) {
  static std::mutex mu;
  static std::map<std::string, std::pair<std::string, std::vector<T>>> cache;
  const std::string stamp = FileStamp(path);
  if (stamp.empty()) return Status::Invalid(path + ": cannot be read (no such file?)");
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(path);
    if (it != cache.end() && it->second.first == stamp) {
      *out = it->second.second;
      return Status::Ok();
    }
  }
  std::vector<T> parsed;
  HOSTNN_RETURN_IF_ERROR(parse(path, &parsed));
  std::lock_guard<std::mutex> lock(mu);
  cache[path] = {stamp, parsed};
  *out = std::move(parsed);
  return Status::Ok();
}

// An integer member: present -> it must be an integer in [lo, hi]; absent -> *value kept.
// `where` names the file and entry in messages.
Status JsonInt(const json::Value& object, const std::string& key, int64_t lo, int64_t hi,
               const std::string& where, int64_t* value);
// A string member (absent -> *value kept).
Status JsonString(const json::Value& object, const std::string& key, const std::string& where,
                  std::string* value);
// kInvalid naming the first member of `object` not in `known` (a null-terminated list).
Status JsonOnlyKeys(const json::Value& object, const char* const* known, const std::string& where);

}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_INTERNAL_H_
