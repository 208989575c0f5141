// Target-independent parts of the back end: the store-mode threshold and the SIMD target
// queries. The kernels and their dispatch tables are in eltwise_tiles.cc, conversions.cc
// and logsoftmax_kernels.cc (one foreach_target unit each, so they compile in parallel).

#include <unistd.h>

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>

#include "kernels/kernels.h"

namespace hostnn {
namespace kernels {

// The last-level cache one core sees: the highest-level data or unified cache Linux lists
// for cpu0 (sysfs: what the hardware reports per instance), else sysconf's, else 8 MiB.
// sysfs comes first because glibc's sysconf derives the L3 from cpuid arithmetic that some
// hypervisors skew (a 32 MiB L3 read as 320 MiB, which kept 4M-element outputs out of the
// streaming stores that make them 12-20% faster).
uint64_t LastLevelCacheBytes() {
  uint64_t best_bytes = 0;
  int best_level = 0;
  for (int index = 0; index < 16; ++index) {
    const std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size)) break;
    if (type == "Instruction" || level < best_level || size.empty()) continue;
    char* end = nullptr;
    uint64_t bytes = std::strtoull(size.c_str(), &end, 10);
    if (end != nullptr && (*end == 'K' || *end == 'k')) bytes <<= 10;
    if (end != nullptr && (*end == 'M' || *end == 'm')) bytes <<= 20;
    if (bytes > 0) {
      best_level = level;
      best_bytes = bytes;
    }
  }
  if (best_bytes > 0) return best_bytes;
  long llc = sysconf(_SC_LEVEL3_CACHE_SIZE);
  if (llc <= 0) llc = sysconf(_SC_LEVEL2_CACHE_SIZE);
  return llc > 0 ? static_cast<uint64_t>(llc) : uint64_t{8} << 20;
}

uint64_t StreamMinBytes() {
  static const uint64_t bytes = [] {
    // A third of the last-level cache: from there two inputs of the output's size and the
    // output no longer fit in it together. On a 32 MiB L3 (Zen 4) an output of 8 MiB
    // (16-bit, 4M elements: 24 MiB in all) lost 25% to streaming in LogSoftmaxBackward dim
    // -1 and gained nothing elementwise, while 16 MiB (f32, 4M: 48 MiB in all) gained 12%
    // (HardsigmoidBackward, SiluBackward). (A Zen 3 with the same L3 had measured a small
    // gain already at 8 MiB: 0.47 -> 0.44 ns per element, f32 hardsigmoid at 2M.)
    return LastLevelCacheBytes() / 3;
  }();
  return bytes;
}

StoreMode ChooseStoreMode(uint64_t out_bytes, int64_t min_bytes) {
  const uint64_t threshold = min_bytes >= 0 ? static_cast<uint64_t>(min_bytes) : StreamMinBytes();
  return out_bytes >= threshold ? StoreMode::kStream : StoreMode::kCached;
}

std::vector<int64_t> AvailableTargets() { return hwy::SupportedAndGeneratedTargets(); }

// Bumped by ForceTarget (hwy::SupportedTargets asks cpuid, which a VM may trap: far too
// slow for a per-call key).
std::atomic<int64_t> g_targets_stamp{0};
int64_t TargetsStamp() { return g_targets_stamp.load(std::memory_order_acquire); }

void ForceTarget(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
  g_targets_stamp.fetch_add(1, std::memory_order_acq_rel);
}

std::string TargetName(int64_t target) { return hwy::TargetName(target); }

std::string ActiveTargetName() {
  const int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
  // The best compiled target the CPU supports: the lowest set bit.
  return supported ? hwy::TargetName(supported & -supported) : "none";
}

}  // namespace kernels
}  // namespace hostnn
