// Tuning files: (operator, dtype, size class[, profile]) -> options, as hostnn-tiling tune writes
// them and Resolve reads them (options.cc). Parsing, writing and matching entries; nothing here
// resolves, plans or reads the environment.

#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "base/boundary.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json_util.h"

namespace hostnn {
namespace tiling {
namespace {

Status ParseEntry(const Json& v, const std::string& where, TuningEntry* entry) {
  if (!v.is_object()) {
    return Status::Invalid(where + ": expected an object, found " + JsonTypeName(v));
  }
  HOSTNN_RETURN_IF_ERROR(
      JsonOnlyKeys(v,
                   {"op", "dtype", "size_class", "platform", "num_cores", "ub_bytes",
                    "min_elems_per_core", "buffer_num", "measured_us"},
                   where));
  for (const char* required : {"op", "dtype", "size_class"}) {
    if (!v.contains(required)) {
      return Status::Invalid(where + ": \"" + required + "\" is missing (\"*\" matches any)");
    }
  }
  TuningEntry e;
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "op", where, &e.op));
  Op op;
  if (e.op != "*" && !FindOp(e.op, &op)) {
    return Status::Invalid(where + ": op '" + e.op +
                           "' is unknown; expected \"*\" or one of: " + OpNames());
  }
  std::string dtype;
  HOSTNN_RETURN_IF_ERROR(JsonString(v, "dtype", where, &dtype));
  DType parsed;
  if (dtype == "*") {
    e.dtype = dtype;
  } else if (ParseDType(dtype, &parsed)) {
    e.dtype = ShortDTypeName(parsed);
  } else {
    return Status::Invalid(where + ": dtype '" + dtype +
                           "' is unknown; expected \"*\", f32, f16, bf16, f64, i32, i16, i8, u8 or i64");
  }
  const Json& size_class = v.at("size_class");
  if (size_class.is_string() && size_class.get<std::string>() == "*") {
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
  HOSTNN_RETURN_IF_ERROR(JsonGuard(where, "measured_us", [&] {
    if (!v.contains("measured_us")) return Status::Ok();
    const Json& us = v.at("measured_us");
    if (!us.is_number() || us.get<double>() < 0) {
      return Status::Invalid(where + ": \"measured_us\" must be a non-negative number");
    }
    e.measured_us = us.get<double>();
    return Status::Ok();
  }));
  if (e.num_cores == 0 && e.ub_bytes == 0 && e.min_elems_per_core == 0 && e.buffer_num == 0) {
    return Status::Invalid(where +
                           ": sets no option (num_cores, ub_bytes, min_elems_per_core "
                           "or buffer_num)");
  }
  *entry = e;
  return Status::Ok();
}

// The entries of a parsed tuning file.
Status ReadEntries(const std::string& path, const Json& doc, std::vector<TuningEntry>* entries) {
  if (!doc.is_object()) {
    return Status::Invalid(path + ": expected an object with \"entries\"");
  }
  HOSTNN_RETURN_IF_ERROR(JsonOnlyKeys(doc, {"hostnn_tuning", "entries"}, path));
  int64_t version = 1;
  HOSTNN_RETURN_IF_ERROR(JsonInt(doc, "hostnn_tuning", 1, 1, path, &version));
  if (!doc.contains("entries") || !doc.at("entries").is_array()) {
    return Status::Invalid(path + ": \"entries\" must be an array");
  }
  const Json& list = doc.at("entries");
  std::vector<TuningEntry> out;
  for (size_t i = 0; i < list.size(); ++i) {
    TuningEntry e;
    const std::string where = path + ": entries[" + std::to_string(i) + "]";
    HOSTNN_RETURN_IF_ERROR(
        JsonGuard(where, nullptr, [&] { return ParseEntry(list.at(i), where, &e); }));
    out.push_back(e);
  }
  *entries = std::move(out);
  return Status::Ok();
}

Status ParseTuningFile(const std::string& path, std::vector<TuningEntry>* entries) {
  Json doc;
  HOSTNN_RETURN_IF_ERROR(ParseJsonFile(path, &doc));
  return TuningEntriesFromJson(path, doc, entries);
}

}  // namespace

Status TuningEntriesFromJson(const std::string& path, const Json& doc,
                             std::vector<TuningEntry>* entries) {
  return JsonGuard(path, nullptr, [&] { return ReadEntries(path, doc, entries); });
}

bool TuningEntryMatches(const TuningEntry& e, const Problem& problem, const std::string& platform) {
  const char* op = IsValidOp(problem.op) ? GetOpInfo(problem.op).snake_name : "";
  const char* dtype = ShortDTypeName(problem.dtype);
  return (e.op == "*" || e.op == op) &&
         (e.dtype == "*" || (dtype != nullptr && e.dtype == dtype)) &&
         (e.size_class < 0 || e.size_class == SizeClass(NumElements(problem.shape))) &&
         (e.platform.empty() || e.platform == platform);
}

Status ReadTuningFile(const std::string& path, std::vector<TuningEntry>* entries) {
  return StatusBoundary(path,
                        [&] { return ReadCached<TuningEntry>(path, ParseTuningFile, entries); });
}

std::string TuningFileJson(const std::vector<TuningEntry>& entries) {
  Json list = Json::array();
  for (const TuningEntry& e : entries) {
    Json entry;
    entry["op"] = e.op;
    entry["dtype"] = e.dtype;
    if (e.size_class < 0) {
      entry["size_class"] = "*";
    } else {
      entry["size_class"] = e.size_class;
    }
    if (!e.platform.empty()) entry["platform"] = e.platform;
    if (e.num_cores > 0) entry["num_cores"] = e.num_cores;
    if (e.ub_bytes > 0) entry["ub_bytes"] = e.ub_bytes;
    if (e.min_elems_per_core > 0) entry["min_elems_per_core"] = e.min_elems_per_core;
    if (e.buffer_num > 0) entry["buffer_num"] = e.buffer_num;
    // Informational: to a tenth of a microsecond; a time too large to scale (it would become
    // inf, written as null, which no reader takes back) is kept as it is.
    const double tenths = std::round(e.measured_us * 10) / 10;
    if (e.measured_us > 0) entry["measured_us"] = std::isfinite(tenths) ? tenths : e.measured_us;
    list.push_back(std::move(entry));
  }
  Json doc;
  doc["hostnn_tuning"] = 1;
  doc["entries"] = std::move(list);
  return WriteJson(doc, {"entries"});
}

}  // namespace tiling
}  // namespace hostnn
