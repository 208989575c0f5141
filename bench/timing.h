// Timing shared by the benchmark tools (hostnn-scale, hostnn_torch_peer): a call repeated
// until one sample lasts a given time, and medians. Benchmark code only.
#ifndef HOSTNN_BENCH_TIMING_H_
#define HOSTNN_BENCH_TIMING_H_

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
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

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_TIMING_H_
