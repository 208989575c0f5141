// What the Google Benchmark suites (hostnn_bench, hostnn_bench_onednn) share: the sizes
// they sweep, the one-slot case cache and the per-element counters. Benchmark code only.
#ifndef HOSTNN_BENCH_GBENCH_UTIL_H_
#define HOSTNN_BENCH_GBENCH_UTIL_H_

#include <benchmark/benchmark.h>

#include <cstdint>
#include <memory>

#include "bench/cases.h"

namespace hostnn {
namespace bench {

// 4K, 256K, 4M and 64M elements.
constexpr int64_t kSizes[] = {int64_t{1} << 12, int64_t{1} << 18, int64_t{1} << 22,
                              int64_t{1} << 26};

// The most recently used case: benchmarks of one case at several thread counts run back
// to back, so one slot avoids refilling (64M elements take a second) without holding
// every case's buffers at once.
inline CaseData* SharedCase(const CaseSpec& spec) {
  static std::unique_ptr<CaseData> current;
  if (current == nullptr || current->spec().op != spec.op || current->spec().dtype != spec.dtype ||
      current->spec().shape != spec.shape || current->spec().dim != spec.dim) {
    current.reset();  // free the old buffers before allocating the new ones
    current = std::make_unique<CaseData>(spec);
  }
  return current.get();
}

// items/s and bytes/s over the run, and seconds per element (printed with an SI prefix:
// "0.33ns").
inline void SetCounters(benchmark::State& state, double elements, double bytes) {
  const double iters = static_cast<double>(state.iterations());
  state.SetItemsProcessed(static_cast<int64_t>(iters * elements));
  state.SetBytesProcessed(static_cast<int64_t>(iters * bytes));
  state.counters["time_per_elem"] = benchmark::Counter(
      elements, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_GBENCH_UTIL_H_
