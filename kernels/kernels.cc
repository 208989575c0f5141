// Target-independent parts of the back end: the Map kernels' one getter, the store-mode
// choice and the SIMD target queries. The kernels and their dispatch tables are in the other units
// of kernels/, one foreach_target unit per kernel family so that they compile in parallel
// (HOSTNN_KERNEL_UNITS in CMakeLists.txt lists them).

#include <hwy/highway.h>
#include <hwy/targets.h>

#include <atomic>
#include <string>

#include "kernels/kernels.h"
#include "kernels/map_tables.h"

namespace hostnn {
namespace kernels {

MapFn GetMap(Op op, DType dtype, const OpParams& params, StoreMode mode) {
  switch (GetOpInfo(op).kind) {
    case Kind::kUnary:
      return GetUnaryMap(op, dtype, mode);
    case Kind::kBinary:
      return GetBinaryMap(op, dtype, mode);
    case Kind::kGated:
    case Kind::kGatedGrad:
      if (mode == StoreMode::kStream) return nullptr;
      return GetGatedMap(op, dtype, PicksAltForm(op, params));
    default:  // not a Map
      break;
  }
  return nullptr;
}

StoreMode ChooseStoreMode(uint64_t out_bytes, int64_t min_bytes) {
  return out_bytes >= static_cast<uint64_t>(min_bytes) ? StoreMode::kStream : StoreMode::kCached;
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
