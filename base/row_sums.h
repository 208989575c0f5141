// The fixed order in which a row is added up, which two layers must agree on: the kernels
// (how they sum a row: kernels/kernels.h, kernels/softmax_*) and the planner (where a row's
// chunks may start: tiling/plan.cc). A chunk that started elsewhere would send an element to
// another partial sum or block, and the bits would depend on the chunking. Both take the
// numbers from here; like the rest of base/ it depends only on hostnn/ public headers.
#ifndef HOSTNN_BASE_ROW_SUMS_H_
#define HOSTNN_BASE_ROW_SUMS_H_

#include <cstdint>

#include "hostnn/op.h"

namespace hostnn {

// Element i of a row goes to partial sum i % kRowSumPartials, whatever the SIMD width.
constexpr int64_t kRowSumPartials = 16;
// The softmax family's row functions (LogSoftmax, Softmax and both gradients) first sum each
// partial's terms of a block of kRowSumBlock elements in f32, then add that to the partial
// in double.
constexpr int64_t kRowSumBlock = 64;

// Where op's row chunks may start: a multiple of kRowSumBlock for the row functions that sum
// in blocks (the softmax family's; every forward Rows operator is planned alike), of
// kRowSumPartials for the others (the norms' gradients).
constexpr int64_t RowChunkAlign(Op op) {
  return GetOpInfo(op).is_forward || op == Op::kLogSoftmaxBackward || op == Op::kSoftmaxBackward
             ? kRowSumBlock
             : kRowSumPartials;
}

}  // namespace hostnn

#endif  // HOSTNN_BASE_ROW_SUMS_H_
