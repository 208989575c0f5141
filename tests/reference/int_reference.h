// References for the integer computations of the rule-PromoteIntExact operators (AddRelu):
// exact integer arithmetic in the promoted dtype's own C++ type, then CANN's Cast to out's
// dtype. Written from the definitions, independently of the library's int64-lane kernels.
#ifndef HOSTNN_TESTS_REFERENCE_INT_REFERENCE_H_
#define HOSTNN_TESTS_REFERENCE_INT_REFERENCE_H_

#include <cstdint>

#include "hostnn/dtype.h"

namespace hostnn {
namespace test {

// relu(self + alpha * other) computed in `promoted` (INT8, UINT8, INT16, INT32 or INT64),
// wrapping as its two's complement type does; self and other are values of their own
// dtypes, alpha any int64 (cast to `promoted` first, as CANN's ConvertToTensor).
int64_t AddReluIntRef(int64_t self, int64_t other, int64_t alpha, DType promoted);

// An integer value as an integer out of dtype `out` holds it: its low bits, read back as
// that dtype.
int64_t WrapIntRef(int64_t v, DType out);
// An integer value as a FLOAT, FLOAT16 or BFLOAT16 out holds it: rounded once to nearest
// even (past FLOAT16's range: infinite). |v| < 2^53.
double CastIntRef(int64_t v, DType out);

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_INT_REFERENCE_H_
