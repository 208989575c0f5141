// How a core walks its units of a reduction plan (the row executor's walks).
#ifndef HOSTNN_SRC_EXEC_REDUCTION_UNITS_H_
#define HOSTNN_SRC_EXEC_REDUCTION_UNITS_H_

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "hostnn/tiling.h"
#include "kernels/row_fns.h"

namespace hostnn {
namespace exec {

// The widest block of columns an ARA call takes (the row function keeps the block's column
// statistics on its stack): a run of whole row segments, which the prefetchers follow.
constexpr int64_t kAraBlockCols = static_cast<int64_t>(kernels::kAraBlockCols);

// Calls fn(a1, c0, w) for this core's ARA units, adjacent units of one A1 row merged
// and cut into blocks of at most block_cols columns. Each column's reduction runs over R
// in row order whatever the blocking, so merging changes no bit: a narrow tile of a
// long-strided A0 is a few cache lines per page, which the hardware prefetchers do not
// follow and which alias in the same cache sets row after row.
template <class Fn>
void ForEachAraBlock(const tiling::ReductionPlan& p, int64_t core, int64_t block_cols, Fn fn) {
  const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
  for (int64_t u = begin; u < end;) {
    const tiling::ReductionPlan::Unit first = p.GetUnit(u);
    int64_t c_end = first.a0_begin + first.a0_len;
    int64_t next = u + 1;
    for (; next < end; ++next) {
      const tiling::ReductionPlan::Unit unit = p.GetUnit(next);
      if (unit.a1_begin != first.a1_begin || unit.a1_len != first.a1_len || unit.a0_begin != c_end)
        break;
      c_end += unit.a0_len;
    }
    for (int64_t a1 = first.a1_begin; a1 < first.a1_begin + first.a1_len; ++a1) {
      for (int64_t c0 = first.a0_begin; c0 < c_end; c0 += block_cols) {
        fn(a1, c0, static_cast<size_t>(std::min(block_cols, c_end - c0)));
      }
    }
    u = next;
  }
}

// output_by_rows' second phase: core's even share [*begin, *end) of the A1 x R rows.
inline void RowShare(const tiling::ReductionPlan& p, int64_t core, int64_t* begin, int64_t* end) {
  const int64_t rows = p.a1 * p.r, block_dim = p.block_dim;
  *begin = rows / block_dim * core + std::min(core, rows % block_dim);
  *end = *begin + rows / block_dim + (core < rows % block_dim ? 1 : 0);
}

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_REDUCTION_UNITS_H_
