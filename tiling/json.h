// A small JSON reader and string quoting for the tiling layer's files (platform profiles,
// tuning files) and plan printouts. Internal: not installed. It reads whole documents into
// a tree; it is not a streaming or general-purpose JSON library.
#ifndef HOSTNN_TILING_JSON_H_
#define HOSTNN_TILING_JSON_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "hostnn/status.h"

namespace hostnn {
namespace tiling {
namespace json {

struct Value {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject };
  Type type = Type::kNull;
  bool boolean = false;
  double number = 0;
  bool is_integer = false;  // a number written without fraction or exponent that fits int64
  int64_t integer = 0;
  std::string string;
  std::vector<Value> array;
  std::vector<std::pair<std::string, Value>> object;  // in document order, keys unique
  int line = 0, column = 0;                           // where the value starts (1-based)

  // The member `key` of an object; null when absent or not an object.
  const Value* Find(const std::string& key) const;
  // "line L, column C".
  std::string Where() const;
};

const char* TypeName(Value::Type type);

// Parses one document (RFC 8259; duplicate keys and nesting deeper than 64 are errors).
// kInvalid: "line L, column C: <what was expected>".
Status Parse(const std::string& text, Value* value);
// Reads and parses a file; messages start with the path.
Status ParseFile(const std::string& path, Value* value);

// A JSON string literal for `text` (quotes and escapes added).
std::string Quote(const std::string& text);

}  // namespace json
}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_JSON_H_
