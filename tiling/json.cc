// The JSON reader of json.h: a recursive-descent parser over a string, with the line and
// column of every value for error messages. It never throws and never reads past the text.

#include "tiling/json.h"

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace hostnn {
namespace tiling {
namespace json {
namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(const std::string& text) : text_(text) {}

  Status Document(Value* value) {
    SkipSpace();
    HOSTNN_RETURN_IF_ERROR(ParseValue(value, 0));
    SkipSpace();
    if (pos_ != text_.size()) return Error("expected the end of the document");
    return Status::Ok();
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Invalid("line " + std::to_string(line_) + ", column " + std::to_string(column_) +
                           ": " + what);
  }

  bool AtEnd() const { return pos_ >= text_.size(); }
  char Peek() const { return AtEnd() ? '\0' : text_[pos_]; }
  void Advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    ++pos_;
  }
  void SkipSpace() {
    while (!AtEnd() && (Peek() == ' ' || Peek() == '\t' || Peek() == '\n' || Peek() == '\r')) {
      Advance();
    }
  }
  bool Consume(const char* word) {
    size_t n = 0;
    while (word[n] != '\0') ++n;
    if (text_.compare(pos_, n, word) != 0) return false;
    for (size_t i = 0; i < n; ++i) Advance();
    return true;
  }

  Status ParseValue(Value* v, int depth) {
    if (depth > kMaxDepth) return Error("nesting deeper than 64 levels");
    v->line = line_;
    v->column = column_;
    const char c = Peek();
    if (c == '{') return ParseObject(v, depth);
    if (c == '[') return ParseArray(v, depth);
    if (c == '"') {
      v->type = Value::Type::kString;
      return ParseString(&v->string);
    }
    if (c == '-' || (c >= '0' && c <= '9')) return ParseNumber(v);
    if (Consume("true")) {
      v->type = Value::Type::kBool;
      v->boolean = true;
      return Status::Ok();
    }
    if (Consume("false")) {
      v->type = Value::Type::kBool;
      return Status::Ok();
    }
    if (Consume("null")) return Status::Ok();
    if (AtEnd()) return Error("expected a value, found the end of the text");
    return Error(std::string("expected a value, found '") + c + "'");
  }

  Status ParseObject(Value* v, int depth) {
    v->type = Value::Type::kObject;
    Advance();  // {
    SkipSpace();
    if (Peek() == '}') {
      Advance();
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      if (Peek() != '"') return Error("expected a member name in double quotes");
      std::string key;
      HOSTNN_RETURN_IF_ERROR(ParseString(&key));
      if (v->Find(key) != nullptr) return Error("duplicate member \"" + key + "\"");
      SkipSpace();
      if (Peek() != ':') return Error("expected ':' after member \"" + key + "\"");
      Advance();
      SkipSpace();
      Value member;
      HOSTNN_RETURN_IF_ERROR(ParseValue(&member, depth + 1));
      v->object.emplace_back(std::move(key), std::move(member));
      SkipSpace();
      if (Peek() == ',') {
        Advance();
        continue;
      }
      if (Peek() == '}') {
        Advance();
        return Status::Ok();
      }
      return Error("expected ',' or '}' in an object");
    }
  }

  Status ParseArray(Value* v, int depth) {
    v->type = Value::Type::kArray;
    Advance();  // [
    SkipSpace();
    if (Peek() == ']') {
      Advance();
      return Status::Ok();
    }
    while (true) {
      SkipSpace();
      Value item;
      HOSTNN_RETURN_IF_ERROR(ParseValue(&item, depth + 1));
      v->array.push_back(std::move(item));
      SkipSpace();
      if (Peek() == ',') {
        Advance();
        continue;
      }
      if (Peek() == ']') {
        Advance();
        return Status::Ok();
      }
      return Error("expected ',' or ']' in an array");
    }
  }

  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      out->push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
      out->push_back(static_cast<char>(0xC0 | (cp >> 6)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
      out->push_back(static_cast<char>(0xE0 | (cp >> 12)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
      out->push_back(static_cast<char>(0xF0 | (cp >> 18)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
      out->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
  }

  Status ParseHex4(uint32_t* cp) {
    *cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char c = Peek();
      uint32_t digit = 0;
      if (c >= '0' && c <= '9') {
        digit = static_cast<uint32_t>(c - '0');
      } else if (c >= 'a' && c <= 'f') {
        digit = static_cast<uint32_t>(c - 'a' + 10);
      } else if (c >= 'A' && c <= 'F') {
        digit = static_cast<uint32_t>(c - 'A' + 10);
      } else {
        return Error("expected four hex digits after \\u");
      }
      *cp = *cp * 16 + digit;
      Advance();
    }
    return Status::Ok();
  }

  Status ParseString(std::string* out) {
    Advance();  // "
    while (true) {
      if (AtEnd()) return Error("unterminated string");
      const char c = Peek();
      if (c == '"') {
        Advance();
        return Status::Ok();
      }
      if (static_cast<unsigned char>(c) < 0x20) return Error("control character in a string");
      if (c != '\\') {
        out->push_back(c);
        Advance();
        continue;
      }
      Advance();  // backslash
      const char e = Peek();
      if (AtEnd()) return Error("unterminated escape");
      Advance();
      switch (e) {
        case '"':
          out->push_back('"');
          break;
        case '\\':
          out->push_back('\\');
          break;
        case '/':
          out->push_back('/');
          break;
        case 'b':
          out->push_back('\b');
          break;
        case 'f':
          out->push_back('\f');
          break;
        case 'n':
          out->push_back('\n');
          break;
        case 'r':
          out->push_back('\r');
          break;
        case 't':
          out->push_back('\t');
          break;
        case 'u': {
          uint32_t cp = 0;
          HOSTNN_RETURN_IF_ERROR(ParseHex4(&cp));
          if (cp >= 0xD800 && cp < 0xDC00) {  // a surrogate pair
            uint32_t low = 0;
            if (!Consume("\\u")) return Error("expected a low surrogate after a high one");
            HOSTNN_RETURN_IF_ERROR(ParseHex4(&low));
            if (low < 0xDC00 || low >= 0xE000) return Error("invalid low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return Error("unpaired low surrogate");
          }
          AppendUtf8(cp, out);
          break;
        }
        default:
          return Error(std::string("invalid escape '\\") + e + "'");
      }
    }
  }

  Status ParseNumber(Value* v) {
    const size_t begin = pos_;
    bool integral = true;
    if (Peek() == '-') Advance();
    if (Peek() == '0') {
      Advance();
    } else if (Peek() >= '1' && Peek() <= '9') {
      while (Peek() >= '0' && Peek() <= '9') Advance();
    } else {
      return Error("expected a digit");
    }
    if (Peek() == '.') {
      integral = false;
      Advance();
      if (!(Peek() >= '0' && Peek() <= '9')) return Error("expected a digit after '.'");
      while (Peek() >= '0' && Peek() <= '9') Advance();
    }
    if (Peek() == 'e' || Peek() == 'E') {
      integral = false;
      Advance();
      if (Peek() == '+' || Peek() == '-') Advance();
      if (!(Peek() >= '0' && Peek() <= '9')) return Error("expected a digit in the exponent");
      while (Peek() >= '0' && Peek() <= '9') Advance();
    }
    const std::string literal = text_.substr(begin, pos_ - begin);
    v->type = Value::Type::kNumber;
    v->number = std::strtod(literal.c_str(), nullptr);
    if (integral) {
      errno = 0;
      const long long i = std::strtoll(literal.c_str(), nullptr, 10);
      if (errno == 0) {
        v->is_integer = true;
        v->integer = i;
      }
    }
    return Status::Ok();
  }

  const std::string& text_;
  size_t pos_ = 0;
  int line_ = 1;
  int column_ = 1;
};

}  // namespace

const Value* Value::Find(const std::string& key) const {
  if (type != Type::kObject) return nullptr;
  for (const auto& member : object) {
    if (member.first == key) return &member.second;
  }
  return nullptr;
}

std::string Value::Where() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

const char* TypeName(Value::Type type) {
  switch (type) {
    case Value::Type::kNull:
      return "null";
    case Value::Type::kBool:
      return "a boolean";
    case Value::Type::kNumber:
      return "a number";
    case Value::Type::kString:
      return "a string";
    case Value::Type::kArray:
      return "an array";
    case Value::Type::kObject:
      return "an object";
  }
  return "?";
}

Status Parse(const std::string& text, Value* value) {
  Value v;
  HOSTNN_RETURN_IF_ERROR(Parser(text).Document(&v));
  *value = std::move(v);
  return Status::Ok();
}

Status ParseFile(const std::string& path, Value* value) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Invalid(path + ": cannot be opened for reading");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return Status::Invalid(path + ": read error");
  Status s = Parse(text.str(), value);
  if (!s.ok()) return Status::Invalid(path + ": " + s.message());
  return Status::Ok();
}

std::string Quote(const std::string& text) {
  std::string out = "\"";
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out.push_back(c);
        }
    }
  }
  out += "\"";
  return out;
}

}  // namespace json
}  // namespace tiling
}  // namespace hostnn
