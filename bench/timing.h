// Timing shared by the tools and benchmarks (hostnn-tiling tune, hostnn-scale,
// hostnn_torch_peer): a call repeated until one sample lasts a given time, medians, and
// the progress line long measurements print. Benchmark and tool code only.
#ifndef HOSTNN_BENCH_TIMING_H_
#define HOSTNN_BENCH_TIMING_H_

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

namespace hostnn {
namespace bench {

// Mean ns per call of `iters` calls of fn.
template <typename Fn>
double TimeNs(Fn&& fn, int64_t iters) {
  using Clock = std::chrono::steady_clock;
  const auto t0 = Clock::now();
  for (int64_t i = 0; i < iters; ++i) fn();
  const auto t1 = Clock::now();
  return std::chrono::duration<double, std::nano>(t1 - t0).count() / static_cast<double>(iters);
}

// Repetitions that make one sample last about sample_ms, from a first timing.
template <typename Fn>
int64_t Calibrate(Fn&& fn, double sample_ms) {
  fn();  // warm caches, pages and the OpenMP team
  double one = TimeNs(fn, 1);
  if (one < 20000)
    one = TimeNs(fn, std::max<int64_t>(1, static_cast<int64_t>(20000 / std::max(one, 1.0))));
  const double iters = std::ceil(sample_ms * 1e6 / std::max(one, 1.0));
  return std::clamp<int64_t>(static_cast<int64_t>(iters), 1, int64_t{1} << 24);
}

inline double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// One progress line on stderr, "<prefix>[done/total] text": on a terminal it rewrites
// itself (the last one ends the line); elsewhere (CI logs) a line at most every
// `log_interval` seconds (the first and the last always), so long runs show life without
// flooding the log.
class Progress {
 public:
  Progress(std::string prefix, size_t total, double log_interval = 0)
      : prefix_(std::move(prefix)),
        total_(total),
        interval_(log_interval),
        tty_(isatty(STDERR_FILENO) != 0),
        last_(Clock::now()) {}
  // Step `done` (0-based) of total is under way or finished.
  void Update(size_t done, const std::string& text) {
    const auto now = Clock::now();
    const bool last = done + 1 >= total_;
    if (!tty_ && done > 0 && !last &&
        std::chrono::duration<double>(now - last_).count() < interval_) {
      return;
    }
    last_ = now;
    std::fprintf(stderr, tty_ ? "\r\033[K%s[%zu/%zu] %s" : "%s[%zu/%zu] %s\n", prefix_.c_str(),
                 done + 1, total_, text.c_str());
    std::fflush(stderr);
  }
  // Clears a terminal's line, so that what follows starts on a clean one.
  void Clear() {
    if (tty_) std::fputs("\r\033[K", stderr);
  }

 private:
  using Clock = std::chrono::steady_clock;
  std::string prefix_;
  size_t total_;
  double interval_;
  bool tty_;
  Clock::time_point last_;
};

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_TIMING_H_
