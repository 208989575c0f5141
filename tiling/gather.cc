// Embedding's Atlas A2 tiling (tiling::GatherTiling): the rule of ops-nn's GatherV2 tiling
// for A2, which Embedding's op_api runs along dim 0. Pure functions: no threads, no SIMD.

#include <algorithm>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {

namespace {
constexpr int64_t kReservedUbBytes = 8 * 1024;  // kept out of the tile
constexpr int64_t kTileAlign = 32;              // tile_count a multiple of this many elements
}  // namespace

GatherTiling PlanGatherA2(int64_t indices, int64_t inner, int64_t x_bytes, int64_t index_bytes,
                          const Platform& pf) {
  GatherTiling t;
  t.planned = true;
  t.kernel = "GatherV2";
  t.indices = indices;
  t.inner = inner;
  t.total = indices * inner;
  t.x_bytes = x_bytes;
  t.index_bytes = index_bytes;
  t.tile_count = (pf.ub_bytes - kReservedUbBytes) / (x_bytes + index_bytes);
  t.tile_count = std::max<int64_t>(1, t.tile_count / kTileAlign * kTileAlign);
  t.block_dim = std::max<int64_t>(1, std::min(t.total, pf.cores));
  t.per_core = (t.total + t.block_dim - 1) / t.block_dim;
  const int64_t former = t.per_core * (t.block_dim - 1);
  t.last_core = t.total > former ? t.total - former : 0;
  return t;
}

}  // namespace tiling
}  // namespace hostnn
