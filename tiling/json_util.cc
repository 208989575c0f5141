// The tiling layer's JSON (see json_util.h): nlohmann-json parses and escapes; this file adds what
// the files' messages and layout need, and keeps nlohmann's exceptions from leaving it: a number
// too large for a double, a value of the wrong type or a missing member is a Status naming the
// file, the entry and the key. It plans nothing and reads no environment.

#include "tiling/json_util.h"

#include <cstdint>
#include <fstream>
#include <limits>
#include <set>
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

// One open object or array while parsing: where the parser is, for messages.
struct Frame {
  bool array = false;
  size_t index = 0;            // array: elements completed so far (the current one's index)
  std::string key;             // object: the member being read
  std::set<std::string> keys;  // object: the members seen
};

// "platforms[0]: \"ub_bytes\": " for the value the parser is reading (empty at the top).
std::string Location(const std::vector<Frame>& frames) {
  std::string entry, key;
  for (size_t i = 0; i < frames.size(); ++i) {
    const Frame& f = frames[i];
    if (f.array) {
      entry += "[" + std::to_string(f.index) + "]";
    } else if (i + 1 == frames.size()) {
      key = f.key;
    } else {
      entry += (entry.empty() ? "" : ".") + f.key;
    }
  }
  return (entry.empty() ? "" : entry + ": ") + (key.empty() ? "" : "\"" + key + "\": ");
}

// A string as JSON: bytes that are not UTF-8 (a file path holds any bytes) are written as
// U+FFFD instead of making nlohmann throw (type_error 316).
std::string Dump(const Json& v) { return v.dump(-1, ' ', false, Json::error_handler_t::replace); }

std::string Inline(const Json& v) {
  if (v.is_object()) {
    std::string out = "{";
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      out += (first ? "" : ", ") + Dump(it.key()) + ": " + Inline(it.value());
      first = false;
    }
    return out + "}";
  }
  if (v.is_array()) {
    std::string out = "[";
    for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Inline(v[i]);
    return out + "]";
  }
  return Dump(v);
}

}  // namespace

std::string JsonWhat(const Json::exception& e) {
  // "[json.exception.out_of_range.406] number overflow parsing '1e400'": the text after the tag.
  const std::string what = e.what();
  const size_t end = what.rfind("[json.exception.", 0) == 0 ? what.find("] ") : std::string::npos;
  return end == std::string::npos ? what : what.substr(end + 2);
}

Status ParseJson(const std::string& text, Json* doc) {
  std::vector<Frame> frames;
  const Json::parser_callback_t refuse = [&](int, Json::parse_event_t event, Json& parsed) {
    switch (event) {
      case Json::parse_event_t::object_start:
      case Json::parse_event_t::array_start:
        if (frames.size() >= static_cast<size_t>(kMaxDepth)) {
          throw Refused{Location(frames) + "nesting deeper than 64"};
        }
        frames.emplace_back();
        frames.back().array = event == Json::parse_event_t::array_start;
        break;
      case Json::parse_event_t::object_end:
      case Json::parse_event_t::array_end:
        frames.pop_back();
        if (!frames.empty() && frames.back().array) ++frames.back().index;
        break;
      case Json::parse_event_t::key: {
        const std::string& key = parsed.get_ref<const std::string&>();
        if (!frames.back().keys.insert(key).second) {
          throw Refused{Location(frames) + "duplicate member " + Dump(key)};
        }
        frames.back().key = key;
        break;
      }
      case Json::parse_event_t::value:
        if (!frames.empty() && frames.back().array) ++frames.back().index;
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
  } catch (const Json::exception& e) {
    // Raised while reading a value, after its key: out_of_range 406 for a number too large
    // for a double ("ub_bytes": 1e400).
    return Status::Invalid(Location(frames) + JsonWhat(e));
  } catch (const Refused& r) {
    return Status::Invalid(r.what);
  }
  return Status::Ok();
}

Status ParseJsonFile(const std::string& path, Json* doc) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Invalid(path + ": cannot be read (no such file?)");
  // Read by hand, not with `<< rdbuf()`: that swallows an allocation failure and leaves a
  // truncated text (a syntax error) where the truth is out of memory.
  std::string text;
  char chunk[1 << 14];
  while (in.read(chunk, sizeof(chunk)) || in.gcount() > 0) {
    text.append(chunk, static_cast<size_t>(in.gcount()));
  }
  if (in.bad()) return Status::Invalid(path + ": cannot be read");
  const Status s = ParseJson(text, doc);
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
  return JsonGuard(where, key, [&] {
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
  });
}

Status JsonString(const Json& object, const char* key, const std::string& where,
                  std::string* value) {
  return JsonGuard(where, key, [&] {
    const auto it = object.find(key);
    if (it == object.end()) return Status::Ok();
    if (!it->is_string()) {
      return Status::Invalid(where + ": \"" + key + "\" must be a string, found " +
                             JsonTypeName(*it));
    }
    *value = it->get<std::string>();
    return Status::Ok();
  });
}

Status JsonOnlyKeys(const Json& object, std::initializer_list<const char*> known,
                    const std::string& where) {
  return JsonGuard(where, nullptr, [&] {
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
  });
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
