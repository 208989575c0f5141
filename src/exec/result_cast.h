// The Cast CANN appends to an operator whose out dtype differs from the dtype it computes
// in (Selu and Erfinv compute in self's dtype, then cast; SeluBackward's integer kernel
// rounds its f32 result back): a tile of the computed dtype converted to out's dtype, as
// CANN's Cast converts it:
// - float to float: rounded once to nearest even (widening is exact); to complex, the real
//   part so, the imaginary part +0;
// - integer to float: rounded once to nearest even from the integer itself (an INT32
//   above 2^24 to FLOAT's 24 bits; past FLOAT16's range, infinite; DOUBLE exact below
//   2^53); to complex, the real part so, the imaginary part +0;
// - float to integer: toward zero (kTruncate, aclnnCast's rule) or to nearest even
//   (kNearestEven, a kernel's CAST_RINT), saturated to the integer's range, NaN to 0;
// - integer to integer: the low bits kept (two's complement wrap, as PyTorch's .to()).
#ifndef HOSTNN_SRC_EXEC_RESULT_CAST_H_
#define HOSTNN_SRC_EXEC_RESULT_CAST_H_

#include <cstddef>
#include <cstdint>

#include "hostnn/dtype.h"

namespace hostnn {
namespace exec {

enum class FloatToInt { kTruncate, kNearestEven };

class ResultCast {
 public:
  ResultCast() = default;
  // from: FLOAT, FLOAT16, BFLOAT16, INT8, UINT8, INT16, INT32 or INT64; to: those, or
  // DOUBLE, COMPLEX64 or COMPLEX128 (a complex's imaginary part +0), or from an integer
  // UINT16, UINT32 or UINT64 (the low bits kept).
  ResultCast(DType from, DType to, FloatToInt rounding);
  bool active() const { return from_ != to_; }
  // n elements of `from` at src to n of `to` at dst (no overlap).
  void Run(const void* src, void* dst, size_t n) const;

 private:
  DType from_ = DType::kUndefined, to_ = DType::kUndefined;
  FloatToInt rounding_ = FloatToInt::kTruncate;
};

// n integers of `from` (INT8, UINT8, INT16, INT32 or INT64) at src widened to int64.
void IntToInt64(DType from, const void* src, int64_t* dst, size_t n);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_RESULT_CAST_H_
