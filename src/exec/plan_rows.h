// The rows of [rows, cols] one core of a reduction plan over them takes, in order: an AR
// plan's units are ranges of its A1 rows; rows of one element (cols 1) are planned as one long
// A0 (nothing to reduce), whose units are ranges of it. The row executor walks them (the
// softmax family's AR rows, a normalisation's rows, BatchNorm's segments).
#ifndef HOSTNN_SRC_EXEC_PLAN_ROWS_H_
#define HOSTNN_SRC_EXEC_PLAN_ROWS_H_

#include <cstdint>

#include "hostnn/tiling.h"

namespace hostnn {
namespace exec {

// f(first, count) for each run of consecutive rows core `core` takes, in order.
template <class F>
void ForEachPlannedRun(const tiling::ReductionPlan& p, int64_t core, F f) {
  const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
  const bool ar = p.a0 == 1;
  for (int64_t u = begin; u < end; ++u) {
    const tiling::ReductionPlan::Unit unit = p.GetUnit(u);
    f(ar ? unit.a1_begin : unit.a0_begin, ar ? unit.a1_len : unit.a0_len);
  }
}

// f(row) for each row core `core` takes, in order.
template <class F>
void ForEachPlannedRow(const tiling::ReductionPlan& p, int64_t core, F f) {
  ForEachPlannedRun(p, core, [&](int64_t first, int64_t count) {
    for (int64_t row = first; row < first + count; ++row) f(row);
  });
}

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_PLAN_ROWS_H_
