// Option resolution: every knob from the Options field, then its environment variable,
// then the first matching tuning-file entry, then the profile's default; tuning files are
// read and written here. Bad values are errors naming their source, never a silent default.
// Nothing here plans.

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json.h"

extern char** environ;

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kDefaultMinElemsPerCore = 1024;  // Ascend's rule of thumb (SiluGrad)
constexpr int64_t kHostMinElemsPerCore = 16384;    // a fork costs ~1-2 us on the host
constexpr int64_t kMaxMinElemsPerCore = int64_t{1} << 40;


std::string Lower(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

// A strictly positive decimal integer, nothing else (no sign, spaces or suffix).
bool ParsePositive(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0 || v <= 0) return false;
  *value = v;
  return true;
}

// A decimal integer in [0, 2^62], nothing else (no sign, spaces or suffix).
bool ParseBytes(const std::string& text, int64_t* value) {
  if (text.empty() || text.size() > 19) return false;
  for (const char c : text) {
    if (c < '0' || c > '9') return false;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0 || v > (int64_t{1} << 62)) return false;
  *value = v;
  return true;
}

// The value of a HOSTNN_ variable in `env`; empty when unset or set to "".
const std::string& Env(const Environment& env, const char* name) {
  return env.values[VariableIndex(name)];
}

// One integer knob: Options field > environment > tuning entry > default. Values outside
// [lo, hi] are errors naming where they came from.
struct Knob {
  const char* name;  // "num_cores"
  const char* env;   // "HOSTNN_NUM_CORES"
  int64_t lo, hi;
  const char* hint;  // what a valid value looks like, for messages
};

Status ResolveKnob(const Knob& k, int64_t option, const std::string& text, int64_t tuned,
                   const std::string& tuned_from, int64_t fallback,
                   const std::string& fallback_from, int64_t* value, std::string* source) {
  // `label` names the value: "Options.num_cores", "<tuning entry>: num_cores".
  auto out_of_range = [&](int64_t v, const std::string& label) {
    return Status::Invalid(label + " = " + std::to_string(v) + ": expected " + k.hint);
  };
  const std::string option_label = std::string("Options.") + k.name;
  if (option < 0) return out_of_range(option, option_label);
  if (option > 0) {
    if (option < k.lo || option > k.hi) return out_of_range(option, option_label);
    *value = option;
    *source = "Options";
    return Status::Ok();
  }
  if (!text.empty()) {
    int64_t v = 0;
    if (!ParsePositive(text, &v)) {
      return Status::Invalid(std::string(k.env) + "='" + text + "': expected a positive integer (" +
                             k.hint + ")");
    }
    if (v < k.lo || v > k.hi) {
      return Status::Invalid(std::string(k.env) + "=" + text + ": expected " + k.hint);
    }
    *value = v;
    *source = k.env;
    return Status::Ok();
  }
  if (tuned > 0) {
    if (tuned < k.lo || tuned > k.hi) return out_of_range(tuned, tuned_from + ": " + k.name);
    *value = tuned;
    *source = tuned_from;
    return Status::Ok();
  }
  *value = fallback;
  *source = fallback_from;
  return Status::Ok();
}

Status ParseEntry(const json::Value& v, const std::string& where, TuningEntry* entry) {
  if (v.type != json::Value::Type::kObject) {
    return Status::Invalid(where + ": expected an object, found " + json::TypeName(v.type));
  }
  static const char* const kKeys[] = {"op",          "dtype",    "size_class",         "platform",
                                      "num_cores",   "ub_bytes", "min_elems_per_core", "buffer_num",
                                      "measured_us", nullptr};
  HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(v, kKeys, where));
  for (const char* required : {"op", "dtype", "size_class"}) {
    if (v.Find(required) == nullptr) {
      return Status::Invalid(where + ": \"" + required + "\" is missing (\"*\" matches any)");
    }
  }
  TuningEntry e;
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "op", where, &e.op));
  bool is_reduction = false;
  if (e.op != "*" && !LookupOp(e.op, &is_reduction)) {
    return Status::Invalid(where + ": op '" + e.op +
                           "' is unknown; expected \"*\" or one of: " + OpNames());
  }
  std::string dtype;
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "dtype", where, &dtype));
  int64_t bytes = 0;
  if (dtype == "*") {
    e.dtype = dtype;
  } else if (!NormalizeDtype(dtype, &e.dtype, &bytes)) {
    return Status::Invalid(where + ": dtype '" + dtype +
                           "' is unknown; expected \"*\", f32, f16, bf16 or f64");
  }
  const json::Value* size_class = v.Find("size_class");
  if (size_class->type == json::Value::Type::kString && size_class->string == "*") {
    e.size_class = -1;
  } else {
    int64_t k = -1;
    HOSTNN_RETURN_IF_ERROR(JsonInt(v, "size_class", 0, 62, where + " (or \"*\")", &k));
    e.size_class = static_cast<int>(k);
  }
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "platform", where, &e.platform));
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "num_cores", 1, kMaxCores, where, &e.num_cores));
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "ub_bytes", MinUbBytes(16), kMaxUbBytes, where, &e.ub_bytes));
  HOSTNN_RETURN_IF_ERROR(
      JsonInt(v, "min_elems_per_core", 1, kMaxMinElemsPerCore, where, &e.min_elems_per_core));
  int64_t buffer_num = 0;
  HOSTNN_RETURN_IF_ERROR(JsonInt(v, "buffer_num", 1, 2, where, &buffer_num));
  e.buffer_num = static_cast<int>(buffer_num);
  if (const json::Value* us = v.Find("measured_us")) {
    if (us->type != json::Value::Type::kNumber || us->number < 0) {
      return Status::Invalid(where + ": \"measured_us\" must be a non-negative number");
    }
    e.measured_us = us->number;
  }
  if (e.num_cores == 0 && e.ub_bytes == 0 && e.min_elems_per_core == 0 && e.buffer_num == 0) {
    return Status::Invalid(where +
                           ": sets no option (num_cores, ub_bytes, min_elems_per_core "
                           "or buffer_num)");
  }
  *entry = e;
  return Status::Ok();
}

Status ParseTuningFile(const std::string& path, std::vector<TuningEntry>* entries) {
  json::Value doc;
  HOSTNN_RETURN_IF_ERROR(json::ParseFile(path, &doc));
  if (doc.type != json::Value::Type::kObject) {
    return Status::Invalid(path + ": expected an object with \"entries\"");
  }
  static const char* const kKeys[] = {"hostnn_tuning", "entries", nullptr};
  HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(doc, kKeys, path));
  int64_t version = 1;
  HOSTNN_RETURN_IF_ERROR(JsonInt(doc, "hostnn_tuning", 1, 1, path, &version));
  const json::Value* list = doc.Find("entries");
  if (list == nullptr || list->type != json::Value::Type::kArray) {
    return Status::Invalid(path + ": \"entries\" must be an array");
  }
  std::vector<TuningEntry> out;
  for (size_t i = 0; i < list->array.size(); ++i) {
    TuningEntry e;
    HOSTNN_RETURN_IF_ERROR(ParseEntry(
        list->array[i],
        path + ": entries[" + std::to_string(i) + "] (" + list->array[i].Where() + ")", &e));
    out.push_back(e);
  }
  *entries = std::move(out);
  return Status::Ok();
}

bool Matches(const TuningEntry& e, const std::string& op, const std::string& dtype, int size_class,
             const std::string& platform) {
  return (e.op == "*" || e.op == op) && (e.dtype == "*" || e.dtype == dtype) &&
         (e.size_class < 0 || e.size_class == size_class) &&
         (e.platform.empty() || e.platform == platform);
}

}  // namespace

bool LookupOp(const std::string& op, bool* is_reduction) {
  Op found;
  if (!FindOp(op, &found)) return false;
  *is_reduction = GetOpInfo(found).is_reduction;
  return true;
}

bool NormalizeDtype(const std::string& dtype, std::string* canonical, int64_t* elem_bytes) {
  static const struct {
    const char* names[3];
    const char* canonical;
    int64_t bytes;
  } kTable[] = {{{"f32", "float", "float32"}, "f32", 4},
                {{"f16", "float16", "half"}, "f16", 2},
                {{"bf16", "bfloat16", "bf16"}, "bf16", 2},
                {{"f64", "double", "float64"}, "f64", 8}};
  const std::string lower = Lower(dtype);
  for (const auto& row : kTable) {
    for (const char* name : row.names) {
      if (lower == name) {
        *canonical = row.canonical;
        *elem_bytes = row.bytes;
        return true;
      }
    }
  }
  return false;
}

int64_t NumElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (const int64_t d : shape) n *= d;
  return n;
}

int SizeClass(int64_t n) {
  int k = 0;
  while (k < 62 && (int64_t{1} << k) < n) ++k;
  return k;
}

Status ReadTuningFile(const std::string& path, std::vector<TuningEntry>* entries) {
  return ReadCached<TuningEntry>(path, ParseTuningFile, entries);
}

std::string TuningFileJson(const std::vector<TuningEntry>& entries) {
  std::ostringstream o;
  o << "{\n  \"hostnn_tuning\": 1,\n  \"entries\": [";
  for (size_t i = 0; i < entries.size(); ++i) {
    const TuningEntry& e = entries[i];
    o << (i ? "," : "") << "\n    {\"op\": " << json::Quote(e.op)
      << ", \"dtype\": " << json::Quote(e.dtype) << ", \"size_class\": "
      << (e.size_class < 0 ? std::string("\"*\"") : std::to_string(e.size_class));
    if (!e.platform.empty()) o << ", \"platform\": " << json::Quote(e.platform);
    if (e.num_cores > 0) o << ", \"num_cores\": " << e.num_cores;
    if (e.ub_bytes > 0) o << ", \"ub_bytes\": " << e.ub_bytes;
    if (e.min_elems_per_core > 0) o << ", \"min_elems_per_core\": " << e.min_elems_per_core;
    if (e.buffer_num > 0) o << ", \"buffer_num\": " << e.buffer_num;
    if (e.measured_us > 0) {
      std::ostringstream us;
      us.precision(1);
      us << std::fixed << e.measured_us;
      o << ", \"measured_us\": " << us.str();
    }
    o << "}";
  }
  o << (entries.empty() ? "" : "\n  ") << "]\n}\n";
  return o.str();
}

std::vector<std::string> EnvironmentVariables() {
  return std::vector<std::string>(std::begin(kEnvironmentVariables),
                                  std::end(kEnvironmentVariables));
}

int VariableIndex(const char* name) {
  for (int i = 0; i < Environment::kCount; ++i) {
    if (std::strcmp(kEnvironmentVariables[i], name) == 0) return i;
  }
  return -1;
}

Environment ReadEnvironment() {
  // One pass over the environment instead of a getenv per variable: Prepare resolves the
  // options on every call, and most environments hold no HOSTNN_ variable at all.
  static constexpr char kPrefix[] = "HOSTNN_";
  Environment env;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const char* text = *entry;
    if (text[0] != 'H' || std::strncmp(text, kPrefix, sizeof(kPrefix) - 1) != 0) continue;
    const char* eq = std::strchr(text, '=');
    if (eq == nullptr) continue;
    const size_t name_len = static_cast<size_t>(eq - text);
    for (int i = 0; i < Environment::kCount; ++i) {
      // The first definition wins, as with getenv.
      const char* name = kEnvironmentVariables[i];
      if (std::strlen(name) == name_len && std::strncmp(name, text, name_len) == 0) {
        if (!env.set[i]) env.values[i] = eq + 1;
        env.set[i] = true;
      }
    }
  }
  return env;
}

Status SelectedPlatform(Platform* platform) {
  const Environment env = ReadEnvironment();
  const std::string& name = Env(env, "HOSTNN_PLATFORM");
  if (name.empty()) return FindPlatform("host", "", platform);
  Status found = FindPlatform(name, Env(env, "HOSTNN_PLATFORM_FILE"), platform);
  if (!found.ok()) return Status::Invalid("HOSTNN_PLATFORM: " + found.message());
  return Status::Ok();
}

Status Resolve(const Options& options, const Problem& problem, Resolved* resolved) {
  return ResolveIn(ReadEnvironment(), options, problem, resolved);
}

Status ResolveIn(const Environment& env, const Options& options, const Problem& problem,
                 Resolved* resolved) {
  Resolved r;
  std::ostringstream sources;

  const std::string platform_file =
      !options.platform_file.empty() ? options.platform_file : Env(env, "HOSTNN_PLATFORM_FILE");
  std::string name = options.platform;
  std::string name_from = "Options";
  if (name.empty()) {
    name = Env(env, "HOSTNN_PLATFORM");
    name_from = "HOSTNN_PLATFORM";
  }
  if (name.empty()) {
    name = "host";
    name_from = "default";
  }
  Status found = FindPlatform(name, platform_file, &r.platform);
  if (!found.ok()) {
    return Status::Invalid((name_from == "default" ? "" : name_from + ": ") + found.message());
  }
  sources << "platform " << name << " (" << name_from
          << (platform_file.empty() ? "" : ", profiles from " + platform_file) << ")";

  // The tuning entry for this problem, if any.
  const std::string tuning_file =
      !options.tuning_file.empty() ? options.tuning_file : Env(env, "HOSTNN_TUNING_FILE");
  TuningEntry tuned;
  std::string tuned_from;
  if (!tuning_file.empty()) {
    std::vector<TuningEntry> entries;
    HOSTNN_RETURN_IF_ERROR(ReadTuningFile(tuning_file, &entries));
    std::string dtype = problem.dtype;
    int64_t bytes = 0;
    NormalizeDtype(problem.dtype, &dtype, &bytes);
    const int size_class = SizeClass(NumElements(problem.shape));
    for (size_t i = 0; i < entries.size(); ++i) {
      if (Matches(entries[i], problem.op, dtype, size_class, name)) {
        tuned = entries[i];
        tuned_from = "tuning file " + tuning_file + " entry " + std::to_string(i);
        break;
      }
    }
  }

  const int64_t min_ub = MinUbBytes(r.platform.block_bytes);
  const std::string ub_hint = std::to_string(min_ub) + " to " + std::to_string(kMaxUbBytes) +
                              " bytes (128 blocks of " + std::to_string(r.platform.block_bytes) +
                              " B, at least 8192) for platform " + name;
  const Knob kCores{"num_cores", "HOSTNN_NUM_CORES", 1, kMaxCores, "1 to 4096"};
  const Knob kUb{"ub_bytes", "HOSTNN_UB_BYTES", min_ub, kMaxUbBytes, ub_hint.c_str()};
  const Knob kMinElems{"min_elems_per_core", "HOSTNN_MIN_ELEMS_PER_CORE", 1, kMaxMinElemsPerCore,
                       "1 to 2^40"};
  const Knob kBuffers{"buffer_num", "HOSTNN_BUFFER_NUM", 1, 2, "1 or 2"};
  const std::string profile = "profile";

  std::string from;
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kCores, options.num_cores, Env(env, kCores.env),
                                     tuned.num_cores, tuned_from, r.platform.cores, profile,
                                     &r.platform.cores, &from));
  sources << "; cores " << r.platform.cores << " (" << from << ")";
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kUb, options.ub_bytes, Env(env, kUb.env), tuned.ub_bytes,
                                     tuned_from, r.platform.ub_bytes, profile,
                                     &r.platform.ub_bytes, &from));
  sources << "; ub_bytes " << r.platform.ub_bytes << " (" << from << ")";
  const int64_t default_min =
      r.platform.name == "host" ? kHostMinElemsPerCore : kDefaultMinElemsPerCore;
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kMinElems, options.min_elems_per_core,
                                     Env(env, kMinElems.env), tuned.min_elems_per_core, tuned_from,
                                     default_min, "default", &r.min_elems_per_core, &from));
  sources << "; min_elems_per_core " << r.min_elems_per_core << " (" << from << ")";
  int64_t buffer_num = 0;
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kBuffers, options.buffer_num, Env(env, kBuffers.env),
                                     tuned.buffer_num, tuned_from, 0, "planner", &buffer_num,
                                     &from));
  r.buffer_num = static_cast<int>(buffer_num);
  sources << "; buffer_num " << (buffer_num == 0 ? std::string("auto") : std::to_string(buffer_num))
          << " (" << from << ")";

  // Not a tiling knob (the kernels' store mode), but read and checked here with the others
  // so that a bad value fails phase 1 like any other setting.
  const std::string& stream = Env(env, "HOSTNN_STREAM_MIN_BYTES");
  if (!stream.empty()) {
    if (!ParseBytes(stream, &r.stream_min_bytes)) {
      return Status::Invalid("HOSTNN_STREAM_MIN_BYTES='" + stream +
                             "': expected a byte count (a decimal integer from 0 to 2^62)");
    }
    sources << "; stream_min_bytes " << r.stream_min_bytes << " (HOSTNN_STREAM_MIN_BYTES)";
  }

  HOSTNN_RETURN_IF_ERROR(ValidatePlatform(r.platform));
  r.sources = sources.str();
  *resolved = r;
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn
