// Command-line helpers shared by the benchmark tools (hostnn-scale, hostnn_torch_peer):
// list splitting and counts with K / M suffixes. Benchmark code only.
#ifndef HOSTNN_BENCH_CLI_UTIL_H_
#define HOSTNN_BENCH_CLI_UTIL_H_

#include <cstdint>
#include <cstdlib>
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

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_CLI_UTIL_H_
