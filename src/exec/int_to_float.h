// Integer inputs cast to a float dtype, for the operators that promote their inputs
// (DTypeRule::kPromoteOutAnyFloat): CANN casts such an input to the promoted dtype before
// the kernel, so each element is rounded once, to nearest even, to that dtype's precision
// (an INT32 above 2^24 to FLOAT's 24 bits, to FLOAT16's 11 or BFLOAT16's 8), and is
// infinite past FLOAT16's range. The result is widened to f32 exactly for the kernels.
#ifndef HOSTNN_SRC_EXEC_INT_TO_FLOAT_H_
#define HOSTNN_SRC_EXEC_INT_TO_FLOAT_H_

#include "hostnn/dtype.h"
#include "kernels/kernels.h"

namespace hostnn {
namespace exec {

// The conversion of `src` (IsPromotableIntType) by way of `via` (FLOAT, FLOAT16 or
// BFLOAT16); nullptr for any other pair.
kernels::ToF32Fn GetIntToF32Via(DType src, DType via);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_INT_TO_FLOAT_H_
