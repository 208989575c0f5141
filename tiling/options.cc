// Option resolution: every knob from the Options field, then its environment variable,
// then the first matching tuning-file entry (tuning_file.cc), then the profile's default;
// and the environment snapshot, the one place hostnn reads the environment. Bad values
// are errors naming their source, never a silent default. Nothing here plans.

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "base/boundary.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"

extern char** environ;

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kDefaultMinElemsPerCore = 1024;  // Ascend's rule of thumb (SiluGrad)
// On the host a second core costs its start (a fork and a join of the team, 0.5 to 2 us),
// which a call earns back once half its elements take one core longer than that; costlier
// operators sooner, so the default is divided by the operator's Work (op_list.def). 65536
// is where the cheapest operators (Work 1) earn it on the current cores measured
// (docs/tiling.md, "Cores for small calls": a Zen 5 and a Sapphire Rapids-class Xeon, where a
// Relu element costs 0.05 to 0.09 ns); the first-generation Zen the rule was first
// measured on (0.16 ns) would take a quarter of it.
constexpr int64_t kHostMinElemsPerCore = 65536;

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

}  // namespace

const char* ShortDTypeName(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
      return "f32";
    case DType::kFloat16:
      return "f16";
    case DType::kBFloat16:
      return "bf16";
    case DType::kFloat64:
      return "f64";
    case DType::kInt32:
      return "i32";
    case DType::kInt8:
      return "i8";
    case DType::kUInt8:
      return "u8";
    case DType::kInt16:
      return "i16";
    case DType::kInt64:
      return "i64";
    case DType::kBool:
      return "bool";
    case DType::kComplex64:
      return "c64";
    case DType::kComplex128:
      return "c128";
    default:  // tiling plans only the storage dtypes above
      return nullptr;
  }
}

bool ParseDType(const std::string& name, DType* dtype) {
  static const struct {
    const char* names[4];
    DType dtype;
  } kTable[] = {{{"f32", "float", "float32", nullptr}, DType::kFloat32},
                {{"f16", "float16", "half", nullptr}, DType::kFloat16},
                {{"bf16", "bfloat16", nullptr, nullptr}, DType::kBFloat16},
                {{"f64", "double", "float64", nullptr}, DType::kFloat64},
                {{"i32", "int32", nullptr, nullptr}, DType::kInt32},
                {{"i8", "int8", nullptr, nullptr}, DType::kInt8},
                {{"u8", "uint8", nullptr, nullptr}, DType::kUInt8},
                {{"i16", "int16", nullptr, nullptr}, DType::kInt16},
                {{"i64", "int64", nullptr, nullptr}, DType::kInt64},
                {{"bool", nullptr, nullptr, nullptr}, DType::kBool},
                {{"c64", "complex64", nullptr, nullptr}, DType::kComplex64},
                {{"c128", "complex128", nullptr, nullptr}, DType::kComplex128}};
  const std::string lower = Lower(name);
  for (const auto& row : kTable) {
    for (const char* n : row.names) {
      if (n != nullptr && lower == n) {
        *dtype = row.dtype;
        return true;
      }
    }
  }
  return false;
}

const char* NormBiasName(NormBias bias) {
  switch (bias) {
    case NormBias::kFull:
      return "full";
    case NormBias::kRow:
      return "row";
    default:
      return "none";
  }
}

bool ParseNormBias(const std::string& name, NormBias* bias) {
  const std::string lower = Lower(name);
  for (const NormBias b : {NormBias::kNone, NormBias::kFull, NormBias::kRow}) {
    if (lower == NormBiasName(b)) {
      *bias = b;
      return true;
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

Status SelectedPlatform(Platform* platform, int64_t team) {
  return StatusBoundary("SelectedPlatform", [&] {
    const Environment env = ReadEnvironment();
    const std::string& name = Env(env, "HOSTNN_PLATFORM");
    if (name.empty()) return FindPlatform("host", "", team, platform);
    Status found = FindPlatform(name, Env(env, "HOSTNN_PLATFORM_FILE"), team, platform);
    if (!found.ok()) return Status(found.code(), "HOSTNN_PLATFORM: " + found.message());
    return Status::Ok();
  });
}

Status Resolve(const Options& options, const Problem& problem, Resolved* resolved) {
  return StatusBoundary("Resolve",
                        [&] { return ResolveIn(ReadEnvironment(), options, problem, resolved); });
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
  Status found = FindPlatform(name, platform_file, problem.team, &r.platform);
  if (!found.ok()) {
    return Status(found.code(), (name_from == "default" ? "" : name_from + ": ") + found.message());
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
    for (size_t i = 0; i < entries.size(); ++i) {
      if (TuningEntryMatches(entries[i], problem, name)) {
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
                                     tuned_from, r.platform.ub_bytes, profile, &r.platform.ub_bytes,
                                     &from));
  sources << "; ub_bytes " << r.platform.ub_bytes << " (" << from << ")";
  const int work = IsValidOp(problem.op) ? GetOpInfo(problem.op).work : 1;
  const bool host = r.platform.name == "host";
  const int64_t default_min = host ? kHostMinElemsPerCore / work : kDefaultMinElemsPerCore;
  const std::string default_from =
      host && work > 1
          ? "default, " + std::to_string(kHostMinElemsPerCore) + " / work " + std::to_string(work)
          : "default";
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kMinElems, options.min_elems_per_core, Env(env, kMinElems.env),
                                     tuned.min_elems_per_core, tuned_from, default_min,
                                     default_from, &r.min_elems_per_core, &from));
  sources << "; min_elems_per_core " << r.min_elems_per_core << " (" << from << ")";
  int64_t buffer_num = 0;
  HOSTNN_RETURN_IF_ERROR(ResolveKnob(kBuffers, options.buffer_num, Env(env, kBuffers.env),
                                     tuned.buffer_num, tuned_from, 0, "planner", &buffer_num,
                                     &from));
  r.buffer_num = static_cast<int>(buffer_num);
  sources << "; buffer_num " << (buffer_num == 0 ? std::string("auto") : std::to_string(buffer_num))
          << " (" << from << ")";

  // The executors' store mode: outputs of at least stream_min_bytes stream past the
  // caches. Resolved here with the others, so that a bad value fails phase 1 like any
  // other setting and the plan carries a definite threshold.
  const std::string& stream = Env(env, "HOSTNN_STREAM_MIN_BYTES");
  if (!stream.empty()) {
    if (!ParseBytes(stream, &r.stream_min_bytes)) {
      return Status::Invalid("HOSTNN_STREAM_MIN_BYTES='" + stream +
                             "': expected a byte count (a decimal integer from 0 to 2^62)");
    }
    from = "HOSTNN_STREAM_MIN_BYTES";
  } else {
    // The gradients read two inputs (dy and x or y), the forward operators one. (An
    // operator outside the list is refused after the options, by the planner.)
    const bool one_input = IsValidOp(problem.op) && GetOpInfo(problem.op).is_forward;
    r.stream_min_bytes = DefaultStreamMinBytes(r.platform, one_input ? 2 : 3);
    from = profile;
  }
  sources << "; stream_min_bytes " << r.stream_min_bytes << " (" << from << ")";

  HOSTNN_RETURN_IF_ERROR(ValidatePlatform(r.platform));
  r.sources = sources.str();
  *resolved = r;
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn
