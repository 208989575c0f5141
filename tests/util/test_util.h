// Test helpers, independent of the library's own conversions: IEEE binary16 / bfloat16
// encode (round-to-nearest-even from double) and decode, ULP distances, and typed host
// buffers. Nothing here calls hostnn's kernels.
#ifndef HOSTNN_TESTS_UTIL_TEST_UTIL_H_
#define HOSTNN_TESTS_UTIL_TEST_UTIL_H_

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "kernels/kernels.h"
#include "kernels/params.h"

namespace hostnn {
namespace test {

// double -> binary16 / bfloat16 bits, one rounding (RNE), overflow -> inf, NaN -> qNaN.
uint16_t DoubleToF16(double v);
uint16_t DoubleToBF16(double v);
double F16ToDouble(uint16_t h);
double BF16ToDouble(uint16_t h);

// Element i of a buffer of `dtype` (FLOAT, FLOAT16, BFLOAT16, DOUBLE) as double / set from
// double with one RNE rounding to the storage type.
double LoadAsDouble(DType dtype, const void* base, int64_t i);
void StoreFromDouble(DType dtype, void* base, int64_t i, double v);

// Distance in units in the last place of `dtype` between a stored result and the exact
// value (the exact value is not rounded first for FLOAT; for 16-bit types both are
// compared as RNE-rounded encodings, so 0 means "correctly rounded"). NaN vs NaN is 0;
// NaN vs number is +inf.
double UlpError(DType dtype, double got, double exact);

// ULP of `dtype` at |v| (the spacing of representable values there).
double UlpOf(DType dtype, double v);

// A value exactly representable in `dtype`, drawn from [lo, hi].
double RandomValue(DType dtype, std::mt19937_64& rng, double lo, double hi);

// A host buffer of n elements of dtype, with a canary pattern in `guard` bytes on each
// side; GuardsIntact() proves nothing outside [0, n) was written.
class Buffer {
 public:
  Buffer(DType dtype, int64_t n, int64_t guard_bytes = 256);
  void* data() { return bytes_.data() + guard_; }
  const void* data() const { return bytes_.data() + guard_; }
  DType dtype() const { return dtype_; }
  int64_t size() const { return n_; }
  double Get(int64_t i) const { return LoadAsDouble(dtype_, data(), i); }
  void Set(int64_t i, double v) { StoreFromDouble(dtype_, data(), i, v); }
  void Fill(double v) {
    for (int64_t i = 0; i < n_; ++i) Set(i, v);
  }
  // Fills the raw bytes with a pattern (to detect unwritten or overwritten elements).
  void FillBytes(uint8_t pattern) {
    std::memset(data(), pattern, static_cast<size_t>(n_ * esize_));
  }
  std::vector<uint8_t> Snapshot() const {
    const uint8_t* p = bytes_.data() + guard_;
    return std::vector<uint8_t>(p, p + n_ * esize_);
  }
  bool GuardsIntact() const;

 private:
  DType dtype_;
  int64_t n_, esize_, guard_;
  std::vector<uint8_t> bytes_;
};

std::string ShapeText(const std::vector<int64_t>& shape);

// The parameters of `op` at their defaults (op_list.def), as a kernel takes them
// (kernels/params.h): for tests that call a kernel directly.
inline const kernels::OpParams& KernelParams(Op op) {
  static const std::vector<kernels::OpParams> table = [] {
    std::vector<kernels::OpParams> t;
    for (Op o : AllOps()) {
      float numbers[kMaxScalars] = {};
      int64_t exact[kMaxScalars] = {};
      for (int k = 0; k < GetOpInfo(o).num_scalars(); ++k) {
        numbers[k] = static_cast<float>(GetOpInfo(o).scalars[k].default_value);
        exact[k] = static_cast<int64_t>(GetOpInfo(o).scalars[k].default_value);
      }
      t.push_back(kernels::InitParams(o, kernels::ParamValues(o, numbers, exact)));
    }
    return t;
  }();
  return table[static_cast<size_t>(op)];
}

// The Map kernel (kernels::GetMap) of op at its default parameters.
inline kernels::MapFn MapKernel(Op op, DType dtype,
                                kernels::StoreMode mode = kernels::StoreMode::kCached) {
  return kernels::GetMap(op, dtype, KernelParams(op), mode);
}
// A Map kernel on n elements of one input (a forward operator) or two (a gradient: dy, x).
inline void RunMap(kernels::MapFn fn, const void* x, void* out, size_t n,
                   const kernels::OpParams& params) {
  const void* in[1] = {x};
  void* outs[1] = {out};
  fn(in, outs, n, params);
}
inline void RunMap(kernels::MapFn fn, const void* dy, const void* x, void* out, size_t n,
                   const kernels::OpParams& params) {
  const void* in[2] = {dy, x};
  void* outs[1] = {out};
  fn(in, outs, n, params);
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_TEST_UTIL_H_
