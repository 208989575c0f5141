// The reduction planner for LogSoftmaxBackward: the tensor is fused to (A1, R, A0) around
// `dim`, and the first capable template in priority order wins:
//   AR full-load   (A0 == 1, a whole row fits the UB)
//   AR recompute   (A0 == 1, R in chunks: a sum pass, then an output pass)
//   ARA full-load  (A0 > 1, A0 tiled, all of R for one A0 tile fits the UB)
//   ARA recompute  (A0 > 1, A0 tiled, R in chunks)
// A unit (one row, or one A0 tile of one a1) is reduced by one core from start to end.

#include <algorithm>
#include <string>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {
namespace {

int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
int64_t AlignDown(int64_t v, int64_t a) { return v / a * a; }

// Chunks of a row start at multiples of 16 so that the 16 partial sums see the same
// elements whatever the chunking (kernels::kRowPartials).
constexpr int64_t kRowAlign = 16;
// Widest A0 tile: bounds the per-core sum arrays (kernels keep them on the stack).
constexpr int64_t kMaxA0Tile = 1024;

// UB bytes one element of (dy, y, out) needs: the three tiles, the f32 exp(y) temporary,
// and for 16-bit storage the three f32 cast buffers.
int64_t BytesPerElement(int64_t elem_bytes) {
  int64_t b = 3 * elem_bytes + 4;
  if (elem_bytes == 2) b += 3 * 4;
  return b;
}

}  // namespace

const char* TemplateName(ReductionTemplate t) {
  switch (t) {
    case ReductionTemplate::kArFullLoad: return "ar_full_load";
    case ReductionTemplate::kArRecompute: return "ar_recompute";
    case ReductionTemplate::kAraFullLoad: return "ara_full_load";
    case ReductionTemplate::kAraRecompute: return "ara_recompute";
  }
  return "?";
}

ReductionPlan PlanReduction(int64_t a1, int64_t r, int64_t a0, int64_t elem_bytes,
                            const Resolved& resolved) {
  const Platform& pf = resolved.platform;
  ReductionPlan p;
  p.a1 = a1;
  p.r = r;
  p.a0 = a0;
  p.elem_bytes = elem_bytes;
  const int64_t per_elem = BytesPerElement(elem_bytes);
  const int64_t ub = pf.ub_bytes;
  const std::string ub_text = "UB " + std::to_string(ub) + " B";

  if (a0 == 1) {
    p.a0_tile = 1;
    const int64_t row_bytes = r * per_elem;
    if (row_bytes <= ub) {
      p.tmpl = ReductionTemplate::kArFullLoad;
      p.r_chunk = r;
      p.reason = "A0 == 1 and a row of " + std::to_string(r) + " needs " +
                 std::to_string(row_bytes) + " B <= " + ub_text;
    } else {
      p.tmpl = ReductionTemplate::kArRecompute;
      p.r_chunk = std::max(kRowAlign, AlignDown(ub / per_elem, kRowAlign));
      p.reason = "A0 == 1 but a row of " + std::to_string(r) + " needs " +
                 std::to_string(row_bytes) + " B > " + ub_text + ": chunks of " +
                 std::to_string(p.r_chunk);
    }
    p.ub = {{"dy", p.r_chunk * elem_bytes, 1},
            {"y", p.r_chunk * elem_bytes, 1},
            {"out", p.r_chunk * elem_bytes, 1},
            {"exp_y_f32", p.r_chunk * 4, 1}};
    if (elem_bytes == 2) p.ub.push_back({"cast_f32", p.r_chunk * 4, 3});
  } else {
    const int64_t sums_per_col = 8 + 4;  // double accumulator + f32 sum
    int64_t tile = std::min(kMaxA0Tile, CeilDiv(a0, kRowAlign) * kRowAlign);
    // At least one row of the tile must fit beside its sums.
    const int64_t max_tile = AlignDown(ub / (per_elem + sums_per_col), kRowAlign);
    tile = std::max<int64_t>(kRowAlign, std::min(tile, max_tile));
    p.a0_tile = std::min(tile, a0);
    const int64_t sums_bytes = tile * sums_per_col;
    const int64_t rows_fit = std::max<int64_t>(1, (ub - sums_bytes) / (tile * per_elem));
    if (rows_fit >= r) {
      p.tmpl = ReductionTemplate::kAraFullLoad;
      p.r_chunk = r;
      p.reason = "A0 == " + std::to_string(a0) + " > 1; an A0 tile of " +
                 std::to_string(p.a0_tile) + " with all " + std::to_string(r) +
                 " rows fits the " + ub_text;
    } else {
      p.tmpl = ReductionTemplate::kAraRecompute;
      p.r_chunk = rows_fit;
      p.reason = "A0 == " + std::to_string(a0) + " > 1; an A0 tile of " +
                 std::to_string(p.a0_tile) + " fits only " + std::to_string(rows_fit) +
                 " of " + std::to_string(r) + " rows in the " + ub_text;
    }
    p.ub = {{"dy", p.r_chunk * tile * elem_bytes, 1},
            {"y", p.r_chunk * tile * elem_bytes, 1},
            {"out", p.r_chunk * tile * elem_bytes, 1},
            {"exp_y_f32", p.r_chunk * tile * 4, 1},
            {"sum_f64", tile * 8, 1},
            {"sum_f32", tile * 4, 1}};
    if (elem_bytes == 2) p.ub.push_back({"cast_f32", p.r_chunk * tile * 4, 3});
  }

  p.units = a1 * CeilDiv(a0, p.a0_tile);
  const int64_t elems = a1 * r * a0;
  p.block_dim = std::max<int64_t>(
      1, std::min({pf.cores, p.units, CeilDiv(elems, resolved.min_elems_per_core)}));
  p.units_per_core = p.units / p.block_dim;
  p.big_cores = p.units % p.block_dim;
  return p;
}

int64_t ReductionPlan::CoreBegin(int64_t core) const {
  return std::min(units, core * units_per_core + std::min(core, big_cores));
}

int64_t ReductionPlan::CoreLen(int64_t core) const { return CoreBegin(core + 1) - CoreBegin(core); }

}  // namespace tiling
}  // namespace hostnn
