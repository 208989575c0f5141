// The tiling layer's JSON, through nlohmann-json: reading a profile or tuning file into a document
// (syntax errors and duplicate members become a Status naming the file, line and column), typed
// member access with messages that name the file, entry and key, and the one layout every file and
// plan printout is written in. No exception of nlohmann's leaves these functions (JsonGuard keeps
// them out of the code that interprets a document). Internal: not installed, and included only
// by tiling's .cc files, so nlohmann never reaches a public header.
#ifndef HOSTNN_TILING_JSON_UTIL_H_
#define HOSTNN_TILING_JSON_UTIL_H_

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "hostnn/status.h"
#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {

// Members keep the document's order, so messages name the first offending key as written.
using Json = nlohmann::ordered_json;

// Parses one document: RFC 8259, no duplicate member in an object, no nesting deeper than 64.
// kInvalid "line L, column C: <what> (byte B)" (syntax, invalid UTF-8), or naming the entry and
// key where the document is refused: "platforms[0]: \"ub_bytes\": number overflow parsing
// '1e400'" (a number too large for a double), a duplicate member, the nesting.
Status ParseJson(const std::string& text, Json* doc);
// Reads and parses a file; messages start with the path.
Status ParseJsonFile(const std::string& path, Json* doc);

// "a string", "an object", "null", ... for messages.
const char* JsonTypeName(const Json& value);

// The text of one of nlohmann's exceptions without its tag ("[json.exception.type_error.302] ").
std::string JsonWhat(const Json::exception& e);

// read() (code interpreting part of a parsed document), or kInvalid "<where>: <what>" (with
// "\"<key>\": " before <what> when key is not null) when nlohmann throws in it: a value of the
// wrong type (type_error 302), a missing member (out_of_range 403), ... Interpreting code checks
// types first; this keeps a check it lacks from ending the caller's process.
template <typename Read>
Status JsonGuard(const std::string& where, const char* key, Read&& read) {
  try {
    return read();
  } catch (const Json::exception& e) {
    return Status::Invalid(where + ": " + (key == nullptr ? "" : "\"" + std::string(key) + "\": ") +
                           JsonWhat(e));
  }
}

// An integer member: present -> it must be an integer in [lo, hi]; absent -> *value kept. `where`
// names the file and entry in messages.
Status JsonInt(const Json& object, const char* key, int64_t lo, int64_t hi,
               const std::string& where, int64_t* value);
// A string member (absent -> *value kept).
Status JsonString(const Json& object, const char* key, const std::string& where,
                  std::string* value);
// kInvalid naming the first member of `object` not in `known`.
Status JsonOnlyKeys(const Json& object, std::initializer_list<const char*> known,
                    const std::string& where);

// What ReadPlatformFile and ReadTuningFile make of a parsed document (`path` names it in
// messages), uncached: kInvalid naming the file, the entry and the key for anything refused.
// platform.cc and tuning_file.cc; the JSON fuzzer calls them without a file.
Status ProfilesFromJson(const std::string& path, const Json& doc, std::vector<Platform>* platforms);
Status TuningEntriesFromJson(const std::string& path, const Json& doc,
                             std::vector<TuningEntry>* entries);

// A document as hostnn writes its files and plans: an object at the top with one member a line,
// every other value on one line ({"a": 1, "b": [2, 3]}), except that the arrays named in `expanded`
// (of a top-level member) put one element a line.
std::string WriteJson(const Json& doc, std::initializer_list<const char*> expanded = {});

}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_JSON_UTIL_H_
