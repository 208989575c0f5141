// Single values through the kernels' conversions (see scalar_conversion.h).

#include "src/exec/scalar_conversion.h"

#include "kernels/kernels.h"

namespace hostnn {
namespace exec {

float ScalarToF32(DType src, const void* value) {
  float out = 0.0f;
  kernels::GetToF32(src)(value, &out, 1);
  return out;
}

void ScalarFromF32(float value, DType dst, void* out) { kernels::GetFromF32(dst)(&value, out, 1); }

}  // namespace exec
}  // namespace hostnn
