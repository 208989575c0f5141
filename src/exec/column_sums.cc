// The ColumnSums stage's combine (see the header).

#include "src/exec/column_sums.h"

#include <cmath>

#include "src/exec/executor.h"

namespace hostnn {
namespace exec {
ColumnSums::ColumnSums(const tiling::ChannelSumsPlan& units, const core::FusedLayout& out,
                       DType dtype, bool one_total)
    : units_(units), out_(out), dtype_(dtype), one_total_(one_total), codec_(MakeCodec(dtype)) {}

uint64_t ColumnSums::slots_bytes() const {
  return AlignWorkspace(sizeof(double) * static_cast<uint64_t>(units_.rows * units_.segs_per_row));
}

uint64_t ColumnSums::totals_bytes() const {
  return sizeof(double) * static_cast<uint64_t>(units_.channels);
}

void ColumnSums::Finish(const double* slots, double* total, float* out32, double divisor) const {
  const int64_t batches = units_.rows / units_.channels;
  for (int64_t c = 0; c < units_.channels; ++c) {
    double t = 0.0;
    for (int64_t nb = 0; nb < batches; ++nb) {
      const double* s = slots + (nb * units_.channels + c) * units_.segs_per_row;
      for (int64_t q = 0; q < units_.segs_per_row; ++q) t += s[q];
    }
    total[c] = t;
  }
  int64_t outputs = units_.channels;
  if (one_total_) {
    double t = 0.0;
    for (int64_t c = 0; c < units_.channels; ++c) t += total[c];
    total[0] = t;
    outputs = 1;
  }
  for (int64_t c = 0; c < outputs; ++c) {
    if (divisor != 1.0) total[c] /= divisor;
    out32[c] = RoundOnceTo(total[c], dtype_);
  }
  ScatterF32(out_, out_.operands[0], codec_, 0, outputs, out32);
}

double RoundToHalfType(double v, DType dtype) {
  if (!std::isfinite(v) || v == 0.0) return v;
  const bool f16 = dtype == DType::kFloat16;
  const int bits = f16 ? 11 : 8, emin = f16 ? -14 : -126;
  const double max = f16 ? 65504.0 : 3.3895313892515355e38;
  int e = 0;
  std::frexp(v, &e);                                 // |v| in [2^(e-1), 2^e)
  const int q = std::max(e - 1, emin) - (bits - 1);  // the exponent of the last kept bit
  const double r = std::ldexp(std::nearbyint(std::ldexp(v, -q)), q);
  return std::fabs(r) > max ? std::copysign(HUGE_VAL, v) : r;
}

}  // namespace exec
}  // namespace hostnn
