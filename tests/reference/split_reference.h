// Double-precision references for the gated linear units (Glu, SwiGlu, GeGlu, GeGluV3,
// GeluMul, FatreluMul, SituGlu and the gradients), and their tolerance. self is split along
// dim into halves a (the first) and b (the second); every value here is one element pair
// (a, b) of those halves. Computed in double from the same, already rounded, inputs as the
// kernels see; nothing here calls hostnn.
#ifndef HOSTNN_TESTS_REFERENCE_SPLIT_REFERENCE_H_
#define HOSTNN_TESTS_REFERENCE_SPLIT_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"

namespace hostnn {
namespace test {
namespace split_ref {

// The unary parts, with their limits at the infinities (sigmoid(-inf) = 0, silu(-inf) = -0,
// gelu(-inf) = -0, silu'(-inf) = gelu'(-inf) = 0, silu'(inf) = gelu'(inf) = 1); NaN in
// gives NaN. approximate 0 is the erf form of gelu, 1 the tanh form.
double Sigmoid(double v);
double Silu(double v);
double SiluGrad(double v);
double Gelu(double v, int64_t approximate);
double GeluGrad(double v, int64_t approximate);

// Which unit: Glu gates a with sigmoid(b), SwiGlu multiplies silu(a) by b, GeGlu
// multiplies a by gelu(b) (with activate_left: gelu(a) by b), Fatrelu multiplies a, where it
// is above the threshold (else 0; NaN stays NaN), by b, SituGlu multiplies
// beta tanh(g / beta) sigmoid(g) by up' (g the gate: b, or a with activate_left; up the other
// half; up' = linear_beta tanh(up / linear_beta) where linear_beta > 0, else up), ClippedSwiglu
// multiplies A sigmoid(alpha A) by B + bias (A = min(a, limit), B = b clamped to [-limit,
// limit] as torch clamps: a limit below 0 gives limit; a the gate). ClippedSwiglu's gradient
// is 0 where a > limit (for a) or b is outside [-limit, limit] (for b), as its masks say.
enum class Unit { kGlu, kSwiGlu, kGeGlu, kFatrelu, kSituGlu, kClippedSwiglu };

// A unit's attributes (each unit reads its own): approximate 0 is gelu's erf form, 1 its tanh
// form; activate_left makes a the gate; FatreluMul's threshold; SituGlu's beta and
// linear_beta, ClippedSwiglu's alpha, limit and bias, as the kernel reads them (f32 values).
struct Attrs {
  int64_t approximate = 0;
  bool activate_left = false;
  double threshold = 0.0, beta = 1.0, linear_beta = 0.0;
  double alpha = 1.702, limit = 7.0, bias = 1.0;
};

// The forward of one pair: out, and for GeGlu the gate's gelu (outGelu; 0 otherwise).
struct Forward {
  double out = 0, gelu = 0;
};
Forward ForwardRef(Unit unit, double a, double b, const Attrs& attrs);

// The gradient of one pair from dy (the forward's gradient); GeGlu's takes `gelu`, the
// forward's outGelu as given to the operator (its dy * gelu half uses it as it is).
struct Backward {
  double da = 0, db = 0;
};
Backward BackwardRef(Unit unit, double dy, double a, double b, double gelu, const Attrs& attrs);

// Where the pair of element i of the half shape lies in the full (row-major) shape split
// along d (0 <= d < rank): the flat positions of its a and b.
void PairPositions(const std::vector<int64_t>& full_shape, int64_t d, int64_t i, int64_t* pos_a,
                   int64_t* pos_b);
// full_shape with the extent of d halved.
std::vector<int64_t> HalfShape(const std::vector<int64_t>& full_shape, int64_t d);

// The absolute slack of a gradient's element: 2^-21 |dy| max(1, |a|, |b|) (the f32
// rounding of the intermediate sigmoid, 1 - sigmoid and silu' terms).
double GradSlack(double dy, double a, double b);

// The bound on |got - exact| for a result of dtype: FLOAT 8 ULP of the f32 nearest to
// exact (the ULP floored at the smallest normal's); FLOAT16 / BFLOAT16 one ULP of that
// format at exact; plus slack.
double Bound(DType dtype, double exact, double slack);

// Whether got meets the bound: a NaN exact value asks for NaN (and NaN matches nothing
// else); an infinite exact value, or one beyond the format's range, asks for the infinity
// it rounds to (unless the slack is infinite, an infinite input's).
bool WithinTolerance(DType dtype, double got, double exact, double slack);

// |got - exact| in ULP of dtype as Bound counts them (0 for matching NaNs and infinities).
double ErrorUlp(DType dtype, double got, double exact);

}  // namespace split_ref
}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_SPLIT_REFERENCE_H_
