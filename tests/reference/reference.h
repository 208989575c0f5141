// Double-precision references for the two-input elementwise operators (the gradients,
// Heaviside, Prelu, AddRelu: EltwiseRef) and LogSoftmaxBackward, and the SPEC §4 tolerances
// they are held to. Computed from the same (already rounded) inputs as the library sees, in
// double.
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
double HeavisideRef(double input, double values);
double PreluRef(double self, double weight);
double EltwiseRef(Op op, double dy, double x);
// The same with the operator's scalar parameters (its list order): a parameterised
// gradient's reference is <Name>Ref(dy, x, scalars); EltwiseRef(op, dy, x) passes the
// defaults (forward_reference.h, DefaultScalars).
double EltwiseRef(Op op, double dy, double x, const double* scalars);

// LogSoftmaxBackward over a dense row-major tensor of `shape` along dim (normalised).
// Also returns, per element, sum|dy| along the dim (for the tolerance).
void LogSoftmaxBackwardRef(const std::vector<double>& dy, const std::vector<double>& y,
                           const std::vector<int64_t>& shape, int64_t dim, std::vector<double>* out,
                           std::vector<double>* abs_sum);

// SPEC §4's rule for a FLOAT16 / BFLOAT16 result: the f32-accurate result rounded once to
// nearest even. kCorrect: got is the exact value rounded to nearest even (NaN for NaN);
// kInWindow: got is the other neighbour of the exact value, which lies within 2^-21
// (relative) of the midpoint between the two (where an f32 result may fall on either
// side); kWrong: anything else.
enum class Rounding16 { kCorrect, kInWindow, kWrong };
Rounding16 ClassifyRounding16(DType dtype, double got, double exact);
// The midpoint window of ClassifyRounding16 (relative), and the test of |got - exact|
// against an absolute f32 bound plus half a narrow ULP (at the larger of the two values):
// what rounding an f32 result that lies within `f32_bound` of the exact value gives.
constexpr double kMidpointWindow = 1.0 / (1 << 21);
bool WithinF32BoundRounded16(DType dtype, double got, double exact, double f32_bound);

// SPEC §4 acceptance of one element. `got` is the stored result read back as double.
//   FLOAT elementwise: <= 4 ULP, or |err| <= 2^-21 |dy| (cancellation near zero).
//   FLOAT LogSoftmaxBackward: |err| <= 2^-21 (|dy| + exp(y) sum|dy|).
//   FLOAT16 / BFLOAT16: rounded once (ClassifyRounding16 is not kWrong), or, where the
//   FLOAT rule is the absolute bound, within it plus half a narrow ULP
//   (WithinF32BoundRounded16). DOUBLE out: the FLOAT rule.
bool EltwiseWithinTolerance(DType out_dtype, double got, double exact, double dy);
bool LogSoftmaxWithinTolerance(DType out_dtype, double got, double exact, double dy, double y,
                               double abs_sum);

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_REFERENCE_H_
