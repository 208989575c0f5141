// Double-precision references for the four operators, each with its SPEC §4 tolerance.
// Computed from the same (already rounded) inputs as the library sees, in double.
#ifndef HOSTNN_TESTS_REFERENCE_REFERENCE_H_
#define HOSTNN_TESTS_REFERENCE_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/ops.h"

namespace hostnn {
namespace test {

// Elementwise references: dx from (dy, x), limits at ±inf, NaN in -> NaN out.
double SiluBackwardRef(double dy, double x);
double LogSigmoidBackwardRef(double dy, double x);
double HardsigmoidBackwardRef(double dy, double x);
double EltwiseRef(Op op, double dy, double x);

// LogSoftmaxBackward over a dense row-major tensor of `shape` along dim (normalised).
// Also returns, per element, sum|dy| along the dim (for the tolerance).
void LogSoftmaxBackwardRef(const std::vector<double>& dy, const std::vector<double>& y,
                           const std::vector<int64_t>& shape, int64_t dim, std::vector<double>* out,
                           std::vector<double>* abs_sum);

// SPEC §4 acceptance of one element. `got` is the stored result read back as double.
//   FLOAT elementwise: <= 4 ULP, or |err| <= 2^-21 |dy| (cancellation near zero).
//   FLOAT LogSoftmaxBackward: |err| <= 2^-21 (|dy| + exp(y) sum|dy|).
//   FLOAT16 / BFLOAT16: <= 1 ULP of the narrow type, or within 2^-21 |dy| plus half a
//   narrow ULP (the FLOAT absolute bound, then one rounding). DOUBLE out: the FLOAT rule.
bool EltwiseWithinTolerance(DType out_dtype, double got, double exact, double dy);
bool LogSoftmaxWithinTolerance(DType out_dtype, double got, double exact, double dy, double y,
                               double abs_sum);

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_REFERENCE_H_
