// The elementwise planner, Ascend's SiluGrad rule: cores = max(1, min(cores, ceil(n /
// min_elems), blocks)); blocks dealt q or q+1 per core (the first blocks % cores take
// q+1); tile = floor(UB / block / N) * block / elem_bytes, N the op's UB divisor.
// Pure functions of their arguments: no threads, no SIMD.

#include <algorithm>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {
namespace {
int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
}  // namespace

UbDivisor MakeUbDivisor(const EltwiseUbSpec& spec, int64_t elem_bytes) {
  const int64_t casts = elem_bytes == 2 ? 2 * spec.io_buffers : 0;
  const int64_t temps = CeilDiv(spec.f32_temps * 4, elem_bytes);
  UbDivisor d;
  d.single_buffered = spec.io_buffers + casts + temps;
  d.double_buffered = d.single_buffered + spec.io_buffers;
  return d;
}

ElementwisePlan PlanElementwise(int64_t n, int64_t elem_bytes, const EltwiseUbSpec& spec,
                                const Resolved& resolved) {
  const UbDivisor divisor = MakeUbDivisor(spec, elem_bytes);
  const Platform& pf = resolved.platform;
  ElementwisePlan p;
  p.n = n;
  p.elem_bytes = elem_bytes;
  p.block_elems = std::max<int64_t>(1, pf.block_bytes / elem_bytes);
  p.blocks = CeilDiv(n, p.block_elems);
  p.block_dim = std::max<int64_t>(
      1, std::min({pf.cores, CeilDiv(n, resolved.min_elems_per_core), p.blocks}));
  p.blocks_per_core = p.blocks / p.block_dim;
  p.big_cores = p.blocks % p.block_dim;

  const int64_t ub_blocks = pf.ub_bytes / pf.block_bytes;
  const int64_t single_tile = ub_blocks / divisor.single_buffered * pf.block_bytes / elem_bytes;
  const int64_t double_tile = ub_blocks / divisor.double_buffered * pf.block_bytes / elem_bytes;
  const int64_t small_core_elems = p.blocks_per_core * p.block_elems;
  if (resolved.buffer_num != 0) {
    p.buffer_num = resolved.buffer_num;
  } else {
    p.buffer_num = small_core_elems > 2 * single_tile ? 2 : 1;
  }
  p.tile_len = p.buffer_num == 2 ? double_tile : single_tile;
  p.ub_divisor = p.buffer_num == 2 ? divisor.double_buffered : divisor.single_buffered;
  const int64_t tile_bytes = p.tile_len * elem_bytes;
  p.ub = {{"gradOutput", tile_bytes, p.buffer_num},
          {"self", tile_bytes, p.buffer_num},
          {"out", tile_bytes, p.buffer_num}};
  if (spec.io_buffers > 3) p.ub.push_back({"extra_io", tile_bytes, p.buffer_num * (spec.io_buffers - 3)});
  if (elem_bytes == 2) p.ub.push_back({"cast_f32", p.tile_len * 4, spec.io_buffers});
  if (spec.f32_temps > 0) p.ub.push_back({"tmp_f32", p.tile_len * 4, spec.f32_temps});
  return p;
}

int64_t ElementwisePlan::CoreBegin(int64_t core) const {
  const int64_t block = core * blocks_per_core + std::min(core, big_cores);
  return std::min(n, block * block_elems);
}

int64_t ElementwisePlan::CoreLen(int64_t core) const {
  return CoreBegin(core + 1) - CoreBegin(core);
}

int64_t ElementwisePlan::CoreTiles(int64_t core) const {
  return tile_len > 0 ? CeilDiv(CoreLen(core), tile_len) : 0;
}

}  // namespace tiling
}  // namespace hostnn
