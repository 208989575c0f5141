// Target-independent parts of the back end: the store-mode threshold and the SIMD target
// queries. The kernels and their dispatch tables are in eltwise_tiles.cc, conversions.cc
// and logsoftmax_kernels.cc (one foreach_target unit each, so they compile in parallel).

#include <unistd.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <cstdlib>

#include "kernels/kernels.h"

namespace hostnn {
namespace kernels {

uint64_t StreamMinBytes() {
  static const uint64_t bytes = [] {
    // A quarter of the last-level cache: with two inputs of the output's size the working
    // set is then 3/4 of it, and measured on a 32 MiB L3 (Zen 3) streaming already wins
    // there (f32 hardsigmoid at 2M elements, 8 MiB out: 0.47 -> 0.44 ns per element; at
    // 4M: 0.62 -> 0.50) while a 4 MiB output gains nothing.
    long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
    if (llc <= 0) llc = 8L << 20;
    return static_cast<uint64_t>(llc) / 4;
  }();
  return bytes;
}

StoreMode ChooseStoreMode(uint64_t out_bytes, int64_t min_bytes) {
  const uint64_t threshold = min_bytes >= 0 ? static_cast<uint64_t>(min_bytes) : StreamMinBytes();
  return out_bytes >= threshold ? StoreMode::kStream : StoreMode::kCached;
}

std::vector<int64_t> AvailableTargets() { return hwy::SupportedAndGeneratedTargets(); }

void ForceTarget(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

std::string TargetName(int64_t target) { return hwy::TargetName(target); }

std::string ActiveTargetName() {
  const int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
  // The best compiled target the CPU supports: the lowest set bit.
  return supported ? hwy::TargetName(supported & -supported) : "none";
}

}  // namespace kernels
}  // namespace hostnn
