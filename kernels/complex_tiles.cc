// The complex tiles (GetComplexMap, kernels.h): Sigmoid and SigmoidBackward of COMPLEX64 and
// COMPLEX128 operands, which CANN computes in complex arithmetic on its AI CPU. Every
// element in complex<double>, whatever the operands' dtypes: the executor widens the inputs
// (a real one with an imaginary part of +0) and casts the result to out's dtype once.
// Scalar code over std::complex, the same on every SIMD target: complex operands are rare
// and their cost is the C library's exp, sin and cos, not the lanes.
//
// The limits are C99's (Annex G), which std::complex's exp and division follow:
// - Sigmoid 1 / (1 + exp(-z)): exp(-z) overflows where Re z < -709.78, and 1 over an
//   infinite complex is 0 (both parts +-0), so s -> 0 there; Re z > 745 gives exp(-z) = 0
//   and s = 1. At the poles z = i pi (2k + 1), 1 + exp(-z) is 0 but for its rounding: s is
//   as large as that rounding makes it (|s| about 1e16), as CANN's own formula gives. A NaN
//   part gives NaN parts; an infinite imaginary part makes exp(-z) NaN, so s is NaN.
// - SigmoidBackward dy * y * (1 - y), as CANN's SigmoidGrad computes it (no conjugate:
//   PyTorch's sigmoid_backward conjugates y (1 - y) for complex y; CANN's kernel and
//   document do not), the complex products in C's order: (dy * y) * (1 - y).

#include <complex>
#include <cstddef>

#include "kernels/kernels.h"

namespace hostnn {
namespace kernels {
namespace {

using Cd = std::complex<double>;

// in[k] and out[0] hold n complex<double> each, interleaved (re, im); out may be in[k].
void SigmoidComplex(const void* const* in, void* const* out, size_t n, const OpParams&) {
  const Cd* z = static_cast<const Cd*>(in[0]);
  Cd* s = static_cast<Cd*>(out[0]);
  for (size_t i = 0; i < n; ++i) s[i] = 1.0 / (1.0 + std::exp(-z[i]));
}

void SigmoidBackwardComplex(const void* const* in, void* const* out, size_t n, const OpParams&) {
  const Cd* dy = static_cast<const Cd*>(in[0]);
  const Cd* y = static_cast<const Cd*>(in[1]);
  Cd* dx = static_cast<Cd*>(out[0]);
  for (size_t i = 0; i < n; ++i) dx[i] = dy[i] * y[i] * (1.0 - y[i]);
}

}  // namespace

MapFn GetComplexMap(Op op) {
  switch (op) {
    case Op::kSigmoid:
    case Op::kInplaceSigmoid:
      return SigmoidComplex;
    case Op::kSigmoidBackward:
      return SigmoidBackwardComplex;
    default:
      return nullptr;
  }
}

}  // namespace kernels
}  // namespace hostnn
