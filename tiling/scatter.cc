// EmbeddingDenseBackward's Atlas A2 tiling (tiling::ScatterTiling): the rule of ops-nn's
// EmbeddingDenseGradV2 tiling for A2 in its default (non-deterministic) context, after the
// op_api's casts. Pure functions: no threads, no SIMD.

#include <algorithm>
#include <string>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {

namespace {
constexpr int64_t kReservedUbBytes = 20480;        // kept out of the row buffers
constexpr int64_t kIndexBufferBytes = 3 * 32;      // three 32-byte blocks of indices
constexpr int64_t kGradAlign = 64 / 4;             // a row pass: a multiple of 64 B of f32
constexpr int64_t kSmallDim = 512;                 // the small-dim kernel's widest row
constexpr int64_t kSmallDimMaxWeights = 16777216;  // and most rows of out (2^24)
constexpr int64_t kSortParts = 10;                 // the small-dim kernel's sort scratch per row
constexpr int64_t kVectorElems = 256;              // one repeat of the vector unit, in f32
constexpr int64_t kSystemWorkspace = 16 * 1024 * 1024;
// The op_api keeps a 16-bit grad uncast only for a large problem: grad and out together
// 100 MiB or more in 16 bits, 512 rows or more, no scaleGradByFreq.
constexpr int64_t kCastBelowBytes = 100 * 1024 * 1024;
constexpr int64_t kCastBelowRows = 512;

// What ops-nn's tiling refuses ("Do not have enough ub size."): kept as a reason, not a plan.
ScatterTiling NotPlanned(ScatterTiling t, const Platform& pf, const char* what) {
  t.planned = false;
  t.why = "a UB of " + std::to_string(pf.ub_bytes) + " B holds no " + what +
          " (ops-nn's tiling fails there)";
  return t;
}
}  // namespace

ScatterTiling PlanScatterA2(int64_t grad_rows, int64_t dim, int64_t num_weights, bool scale,
                            DType dtype, const Platform& pf) {
  ScatterTiling t;
  t.planned = true;
  t.kernel = "EmbeddingDenseGradV2";
  t.grad_rows = grad_rows;
  t.dim = dim;
  t.num_weights = num_weights;
  t.scale = scale;
  const int64_t bytes = static_cast<int64_t>(DTypeSize(dtype));
  const bool cast = (grad_rows * dim + num_weights * dim) * 2 < kCastBelowBytes ||
                    grad_rows < kCastBelowRows || scale;
  t.grad_bytes = cast ? 4 : bytes;
  const bool small = dim <= kSmallDim && num_weights <= kSmallDimMaxWeights;
  t.mode = small ? "small dim" : "sorted";
  t.tiling_key = (scale ? 1 : 0) + (small ? 100 : 0);
  t.block_dim = std::min(pf.cores, scale ? std::min(num_weights, grad_rows) : grad_rows);
  const int64_t buffers = t.grad_bytes == 4 ? 3 : 4;
  const int64_t ub_left = pf.ub_bytes - kReservedUbBytes - kIndexBufferBytes;
  t.max_dim = ub_left > 0 ? ub_left / (kGradAlign * 4 * buffers) * kGradAlign : 0;
  if (t.max_dim < 1 || t.block_dim < 1) return NotPlanned(t, pf, "row pass");
  t.dim_pass = std::min(dim, t.max_dim);
  t.dim_reps = dim / t.dim_pass;
  t.dim_tail = dim - t.dim_pass * t.dim_reps;
  if (small) {
    t.copy_rows = grad_rows / t.block_dim;
    t.last_core_rows = grad_rows - t.copy_rows * (t.block_dim - 1);
    const int64_t per_row = kSortParts + CeilDiv(dim, 8) * 8;
    t.max_rows_in_ub = ((pf.ub_bytes - kReservedUbBytes) / 4 - dim - kVectorElems) / per_row;
    if (t.grad_bytes == 2) t.max_rows_in_ub /= 2;
    if (t.max_rows_in_ub < 1) return NotPlanned(t, pf, "row of the small-dim kernel");
    t.copy_passes = CeilDiv(t.copy_rows, t.max_rows_in_ub);
    t.last_core_passes = CeilDiv(t.last_core_rows, t.max_rows_in_ub);
    t.last_pass_rows = t.copy_rows - t.max_rows_in_ub * (t.copy_passes - 1);
    t.last_core_last_pass_rows = t.last_core_rows - t.max_rows_in_ub * (t.last_core_passes - 1);
  } else {
    t.tail_rows = grad_rows / t.block_dim;
    t.former_rows = t.tail_rows + 1;
    t.former_cores = grad_rows % t.block_dim;
  }
  if (scale) {
    t.scale_rows = num_weights / t.block_dim;
    t.scale_former_cores = num_weights % t.block_dim;
  }
  int64_t ws = kSystemWorkspace + (scale ? CeilDiv(num_weights, 8) * 8 * 4 : 0);
  if (t.grad_bytes != 4) {
    ws += small ? num_weights * dim * 4
                : CeilDiv(t.dim_pass * t.block_dim * 2, 8) * 8 * 4 + t.block_dim * 2 * 4;
  }
  t.workspace_bytes = ws;
  return t;
}

}  // namespace tiling
}  // namespace hostnn
