// Command-line helpers shared by the tools (hostnn-tiling, hostnn-scale) and
// hostnn_torch_peer: list splitting, counts with K / M suffixes, the one shape syntax, and the
// edge every main runs behind. Benchmark and tool code only.
#ifndef HOSTNN_BENCH_CLI_UTIL_H_
#define HOSTNN_BENCH_CLI_UTIL_H_

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <new>
#include <string>
#include <vector>

namespace hostnn {
namespace bench {

// The non-empty parts of text between separators.
inline std::vector<std::string> Split(const std::string& text, char sep) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find(sep, start);
    const std::string part =
        text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!part.empty()) parts.push_back(part);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

// A positive count, with an optional K (2^10) or M (2^20) suffix.
inline bool ParseCount(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  int64_t scale = 1;
  std::string digits = text;
  const char last = text.back();
  if (last == 'K' || last == 'k') scale = int64_t{1} << 10;
  if (last == 'M' || last == 'm') scale = int64_t{1} << 20;
  if (scale != 1) digits.pop_back();
  char* end = nullptr;
  const long long v = std::strtoll(digits.c_str(), &end, 10);
  if (digits.empty() || *end != '\0' || v <= 0) return false;
  *value = v * scale;
  return true;
}

// `text` wrapped at ", " to lines of at most `width` columns (the first line is taken to
// start at column `indent` too), continuation lines indented `indent` columns: lists in
// help texts.
inline std::string WrapList(const std::string& text, size_t indent, size_t width = 91) {
  std::string out, line;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(", ", start);
    end = end == std::string::npos ? text.size() : end + 2;
    const std::string piece = text.substr(start, end - start);
    if (!line.empty() && indent + line.size() + piece.size() > width) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += piece;
    start = end;
  }
  return out + line;
}

// One shape, the same on every command line: extents joined by ',' or 'x' (1024,4096 or
// 1024x4096, optionally in brackets, spaces ignored), each a non-negative integer with an
// optional K (2^10) or M (2^20) suffix; "scalar" or "[]" for a 0-d tensor. Extents of 0
// parse (the caller says whether it takes them); anything else is false.
inline bool ParseShape(const std::string& text, std::vector<int64_t>* shape) {
  shape->clear();
  if (text == "scalar" || text == "[]") return true;
  std::string cleaned;
  for (const char c : text) {
    if (c == 'x' || c == 'X') {
      cleaned.push_back(',');
    } else if (c != ' ' && c != '[' && c != ']') {
      cleaned.push_back(c);
    }
  }
  size_t start = 0;
  while (true) {
    const size_t end = cleaned.find(',', start);
    const std::string extent = cleaned.substr(start, end == std::string::npos ? end : end - start);
    int64_t v = 0;
    if (extent == "0") {
      v = 0;
    } else if (!ParseCount(extent, &v)) {
      return false;
    }
    shape->push_back(v);
    if (end == std::string::npos) return true;
    start = end + 1;
  }
}

// A tool's main behind an edge: whatever run() throws (a bug, or out of memory) is reported on
// stderr as "<tool>: out of memory (std::bad_alloc)" or "<tool>: internal error: <what>", and
// the tool exits 1 like any other failure instead of aborting.
inline int GuardedMain(const char* tool, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc& e) {
    std::fprintf(stderr, "%s: out of memory (%s)\n", tool, e.what());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: internal error: %s\n", tool, e.what());
  } catch (...) {
    std::fprintf(stderr, "%s: internal error: an exception that is not a std::exception\n", tool);
  }
  return 1;
}

// Defines main() as GuardedMain(tool, run, ...): one line at the end of each tool's source.
#define HOSTNN_GUARDED_MAIN(tool, run) \
  int main(int argc, char** argv) { return ::hostnn::bench::GuardedMain(tool, run, argc, argv); }

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_CLI_UTIL_H_
