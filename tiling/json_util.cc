// The tiling layer's JSON (see json_util.h): nlohmann-json parses and escapes; this file adds what
// the files' messages and layout need. It plans nothing and reads no environment.

#include "tiling/json_util.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace hostnn {
namespace tiling {
namespace {

constexpr int kMaxDepth = 64;

// Thrown by the parse callback to stop at a document hostnn refuses.
struct Refused {
  std::string what;
};

std::string Inline(const Json& v) {
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += (first ? "" : ", ") + Json(it.key()).dump() + ": " + Inline(it.value());
      first = false;
    }
    return out + "}";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Inline(v[i]);
    return out + "]";
  }
  return v.dump();
}

}  // namespace

Status ParseJson(const std::string& text, Json* doc) {
  std::vector<std::set<std::string>> keys;  // the members seen, per open object
  int open = 0;
  const Json::parser_callback_t refuse = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (++open > kMaxDepth) throw Refused{"nesting deeper than 64"};
        if (event == Json::parse_event_t::object_start) keys.emplace_back();
        break;
      case Json::parse_event_t::object_end:
        keys.pop_back();
        --open;
        break;
      case Json::parse_event_t::array_end:
        --open;
        break;
      case Json::parse_event_t::key: {
        const std::string& key = parsed.get_ref<const std::string&>();
        if (!keys.back().insert(key).second) {
          throw Refused{"duplicate member " + Json(key).dump()};
        }
        break;
      }
      case Json::parse_event_t::value:
        break;
    }
    return true;
  };
  try {
    *doc = Json::parse(text, refuse);
  } catch (const Json::parse_error& e) {
    // "[json.exception.parse_error.101] parse error at line 1, column 14: syntax error ..."
    std::string what = e.what();
    const std::string at = "parse error at ";
    const size_t start = what.find(at);
    if (start != std::string::npos) what = what.substr(start + at.size());
    return Status::Invalid(what + " (byte " + std::to_string(e.byte) + ")");
  } catch (const Refused& r) {
    return Status::Invalid(r.what);
  }
  return Status::Ok();
}

Status ParseJsonFile(const std::string& path, Json* doc) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Invalid(path + ": cannot be read (no such file?)");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::Invalid(path + ": cannot be read");
  const Status s = ParseJson(text.str(), doc);
  if (!s.ok()) return Status::Invalid(path + ": " + s.message());
  return Status::Ok();
}

const char* JsonTypeName(const Json& value) {
  switch (value.type()) {
    case Json::value_t::null:
      return "null";
    case Json::value_t::boolean:
      return "a boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return "a number";
    case Json::value_t::string:
      return "a string";
    case Json::value_t::array:
      return "an array";
    case Json::value_t::object:
      return "an object";
    case Json::value_t::binary:
    case Json::value_t::discarded:
      break;
  }
  return "an unknown value";
}

Status JsonInt(const Json& object, const char* key, int64_t lo, int64_t hi,
               const std::string& where, int64_t* value) {
  const auto it = object.find(key);
  if (it == object.end()) return Status::Ok();
  const bool fits =
      it->is_number_integer() &&
      !(it->is_number_unsigned() &&
        it->get<uint64_t>() > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()));
  if (!fits) {
    return Status::Invalid(where + ": \"" + key + "\" must be an integer, found " +
                           (it->is_number() ? "a fraction or a huge number" : JsonTypeName(*it)));
  }
  const int64_t v = it->get<int64_t>();
  if (v < lo || v > hi) {
    return Status::Invalid(where + ": \"" + key + "\" = " + std::to_string(v) + ": expected " +
                           std::to_string(lo) + " to " + std::to_string(hi));
  }
  *value = v;
  return Status::Ok();
}

Status JsonString(const Json& object, const char* key, const std::string& where,
                  std::string* value) {
  const auto it = object.find(key);
  if (it == object.end()) return Status::Ok();
  if (!it->is_string()) {
    return Status::Invalid(where + ": \"" + key + "\" must be a string, found " +
                           JsonTypeName(*it));
  }
  *value = it->get<std::string>();
  return Status::Ok();
}

Status JsonOnlyKeys(const Json& object, std::initializer_list<const char*> known,
                    const std::string& where) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool found = false;
    std::string list;
    for (const char* k : known) {
      found = found || it.key() == k;
      list += std::string(list.empty() ? "" : ", ") + k;
    }
    if (!found) {
      return Status::Invalid(where + ": unknown key \"" + it.key() + "\"; expected: " + list);
    }
  }
  return Status::Ok();
}

std::string WriteJson(const Json& doc, std::initializer_list<const char*> expanded) {
  if (!doc.is_object()) return Inline(doc) + "\n";
  std::string out = "{";
  bool first = true;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    out += std::string(first ? "\n  " : ",\n  ") + Json(it.key()).dump() + ": ";
    first = false;
    bool expand = false;
    for (const char* name : expanded) expand = expand || it.key() == name;
    if (!expand || !it->is_array() || it->empty()) {
      out += Inline(it.value());
      continue;
    }
    out += "[";
    for (size_t i = 0; i < it->size(); ++i) out += (i ? ",\n    " : "\n    ") + Inline((*it)[i]);
    out += "\n  ]";
  }
  return out + (first ? "}\n" : "\n}\n");
}

}  // namespace tiling
}  // namespace hostnn
