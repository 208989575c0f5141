// Single values to and from f32 by the kernels' own conversions, for the few scalars the
// API layers convert outside any executor: an aclScalar's FLOAT16 or BFLOAT16 value, a
// scalar parameter rounded to self's dtype, CANN's aclFloat16ToFloat and
// aclFloatToFloat16. Converting through the same code as the operators gives a value the
// bits the operators read and write; the middle end is the layer that reaches the kernels.
#ifndef HOSTNN_SRC_EXEC_SCALAR_CONVERSION_H_
#define HOSTNN_SRC_EXEC_SCALAR_CONVERSION_H_

#include "hostnn/dtype.h"

namespace hostnn {
namespace exec {

// The one `src` element at `value` widened to f32 (src FLOAT, FLOAT16 or BFLOAT16: exact).
float ScalarToF32(DType src, const void* value);
// `value` rounded to nearest even to `dst` (FLOAT, FLOAT16 or BFLOAT16), written to `out`
// (one element of dst).
void ScalarFromF32(float value, DType dst, void* out);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_SCALAR_CONVERSION_H_
