// The ColumnSums stage: per column (channel), the sum of a term over every row, in an order
// fixed by the shape. An executor appends it to its own pass (PreluBackward's gradWeight
// beside its gradInput; next, dgamma and dbeta beside a norm's dx): its cores leave one
// double per segment in the stage's slots, and Finish combines them.
#ifndef HOSTNN_SRC_EXEC_COLUMN_SUMS_H_
#define HOSTNN_SRC_EXEC_COLUMN_SUMS_H_

#include <algorithm>
#include <cstdint>

#include "hostnn/tiling.h"
#include "src/core/layout.h"
#include "src/exec/gather.h"

namespace hostnn {
namespace exec {

// Over the plan's channel sums (tiling::ChannelSumsPlan): rows of row_len elements, row r
// of column r % channels, each cut into segments of tiling::kChannelSumSegment. Each
// segment is summed whole by one core (the row function's fixed order) into its own slot;
// Finish adds the slots per column in (n, segment) order, and with one total the columns
// in column order, in double, and rounds once to the output's dtype. So the sums have the
// same bits for any team size and plan. No atomics.
class ColumnSums {
 public:
  // out: the sums' operand over its own shape (channels elements, or 1 with one_total).
  ColumnSums(const tiling::ChannelSumsPlan& units, const core::FusedLayout& out, DType dtype,
             bool one_total);
  const tiling::ChannelSumsPlan& units() const { return units_; }
  // Workspace: the segments' slots, then Finish's totals.
  uint64_t slots_bytes() const;
  uint64_t totals_bytes() const;
  // fn(s, n, slot, row) for the segments of elements [start, start + len) (a unit of the
  // plan): n elements from offset s of the unit, of row `row`, summed into slots[slot].
  template <class Fn>
  void ForEachSegment(int64_t start, int64_t len, Fn fn) const {
    for (int64_t s = 0; s < len;) {
      const int64_t e = start + s, row = e / units_.row_len, in_row = e % units_.row_len;
      const int64_t n = std::min(len - s, units_.row_len - in_row);
      fn(s, n, row * units_.segs_per_row + in_row / tiling::kChannelSumSegment, row);
      s += n;
    }
  }
  // After every core's segments: the totals, divided by `divisor` (a mean's count), rounded
  // once, written to out. out32: scratch of `channels` floats.
  void Finish(const double* slots, double* totals, float* out32, double divisor = 1.0) const;

 private:
  tiling::ChannelSumsPlan units_;
  core::FusedLayout out_;
  DType dtype_;
  bool one_total_;
  OperandCodec codec_;
};

// v rounded once (to nearest even) to FLOAT16 or BFLOAT16, as a double (exact in f32).
double RoundToHalfType(double v, DType dtype);
// v rounded once to `dtype` (FLOAT, FLOAT16 or BFLOAT16), as the f32 a codec stores exactly.
inline float RoundOnceTo(double v, DType dtype) {
  return dtype == DType::kFloat32 ? static_cast<float>(v)
                                  : static_cast<float>(RoundToHalfType(v, dtype));
}

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_COLUMN_SUMS_H_
