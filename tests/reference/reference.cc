// Double-precision references (see reference.h): the SPEC's formulas in double, with
// the SPEC's limits for infinite inputs and NaN propagation.

#include "tests/reference/reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "tests/reference/forward_reference.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kTwoPowMinus21 = std::ldexp(1.0, -21);
}  // namespace

double SiluBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy * 0.0;
  if (x == INFINITY) return dy;
  const double s = 1.0 / (1.0 + std::exp(-x));
  // x < -709: s = e^x underflows, but the factor s (1 + x(1 - s)) ~ e^x (1 + x) is a
  // negative real: dy times it is -0 or +0 for a finite dy and -dy (the limit) for an
  // infinite one.
  if (s == 0.0 && std::isinf(dy)) return -dy;
  return dy * s * (1.0 + x * (1.0 - s));
}

double LogSigmoidBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy;
  if (x == INFINITY) return dy * 0.0;
  const double e = std::exp(-std::fabs(x));
  // x > 745: e^-x is a positive real below double's range; an infinite dy gives dy.
  if (x > 0 && e == 0.0 && std::isinf(dy)) return dy;
  return dy * (x < 0 ? 1.0 : e) / (1.0 + e);
}

double HardsigmoidBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  return (x > -3.0 && x < 3.0) ? dy / 6.0 : 0.0;
}

// Heaviside(input, values): dy is input, x is values.
double HeavisideRef(double input, double values) {
  if (std::isnan(input) || std::isnan(values)) return kNaN;
  return input > 0.0 ? 1.0 : input < 0.0 ? 0.0 : values;
}

double SigmoidBackwardRef(double dy, double y) {
  if (std::isnan(y) || std::isnan(dy)) return kNaN;
  // y is Sigmoid's output; the formula in double (y = +-inf: y (1 - y) = -inf, its limit).
  return dy * (y * (1.0 - y));
}

double GeluBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy * 0.0;
  if (x == INFINITY) return dy;
  // The derivative of the tanh form x s(z), z = 2 sqrt(2/pi) (x + 0.044715 x^3):
  // s + x z' s (1 - s), with s and 1 - s from e = exp(-|z|), so that neither is a
  // difference.
  const double c = 2.0 * std::sqrt(2.0 / 3.14159265358979323846);
  const double z = c * (x + 0.044715 * x * x * x);
  const double dz = c * (1.0 + 3.0 * 0.044715 * x * x);
  const double e = std::exp(-std::fabs(z));
  const double s = z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
  const double one_minus_s = z >= 0 ? e / (1.0 + e) : 1.0 / (1.0 + e);
  // Far below, s underflows double, but the factor is a negative real: an infinite dy gives
  // -dy (its limit), a finite one a zero of the product's sign.
  if (s == 0.0 && std::isinf(dy)) return -dy;
  return dy * s * (1.0 + x * dz * one_minus_s);
}

double GeluErfBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy * 0.0;
  if (x == INFINITY) return dy;
  // d/dx x Phi(x) = Phi(x) + x phi(x), in long double; Phi from erfc (no cancellation).
  const long double v = x;
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double cdf = std::erfc(-v / std::sqrt(2.0L)) / 2.0L;
  const long double pdf = std::exp(-v * v / 2.0L) / std::sqrt(2.0L * pi);
  const long double factor = cdf + v * pdf;
  // For finite x the factor is a non-zero real (negative for x < -0.7518) even where it
  // underflows long double (x < -151, where cdf + x pdf sums to +0): an infinite dy gives an
  // infinity of dy's sign times its, a finite one a zero of the product's sign (as for
  // GeluBackward).
  if (factor == 0.0L) return std::isinf(dy) ? -dy : dy * -0.0;
  return static_cast<double>(static_cast<long double>(dy) * factor);
}

double FastGeluBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy * 0.0;
  if (x == INFINITY) return dy;
  // CANN's formula dy ((s - 1) (-1.702 x) + 1) s, s = sigmoid(1.702 x), with s and 1 - s
  // from e = exp(-|1.702 x|), so that neither is a difference.
  const double z = 1.702 * x;
  const double e = std::exp(-std::fabs(z));
  const double s = z >= 0 ? 1.0 / (1.0 + e) : e / (1.0 + e);
  const double one_minus_s = z >= 0 ? e / (1.0 + e) : 1.0 / (1.0 + e);
  // Far below, s underflows double, but the factor is a negative real: an infinite dy gives
  // -dy (its limit), a finite one a zero of the product's sign.
  if (s == 0.0 && std::isinf(dy)) return -dy;
  return dy * s * (1.0 + z * one_minus_s);
}

// HardswishBackward's middle segment is [-3, 3] (as PyTorch's), V2's (-3, 3).
double HardswishBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x < -3.0) return 0.0;
  if (x > 3.0) return dy;
  return dy * (x / 3.0 + 0.5);
}
double HardswishBackwardV2Ref(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x <= -3.0) return 0.0;
  if (x >= 3.0) return dy;
  return dy * (x / 3.0 + 0.5);
}

// dy * (t + x s (1 - t^2)), t = tanh(log1p(e^x)), s = sigmoid(x).
double MishBackwardRef(double dy, double x) {
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x == -INFINITY) return dy * 0.0;
  if (x == INFINITY) return dy;
  const double s = 1.0 / (1.0 + std::exp(-x));
  // x < -709: e^x underflows, but the factor ~ e^x (1 + x) is a negative real: dy times
  // it is a zero of the opposite sign for a finite dy, -dy (the limit) for an infinite one.
  if (s == 0.0) return std::isinf(dy) ? -dy : dy * -0.0;
  const double t = std::tanh(std::log1p(std::exp(x)));
  return dy * (t + x * s * (1.0 - t * t));
}

// From the forward result y: dy * scale for y > 0, dy * (y + scale * alpha) for y <= 0.
double SeluBackwardRef(double dy, double y) {
  if (std::isnan(y) || std::isnan(dy)) return kNaN;
  const double scale = 1.0507009873554804934193349852946;
  const double scale_alpha = scale * 1.6732632423543772848170429916717;
  if (y == -INFINITY && dy == 0.0) return -dy;  // the limit of 0 * (y + c): a zero
  return y > 0 ? dy * scale : dy * (y + scale_alpha);
}

// scalars[0] = negativeSlope (as the f32 the kernels get); scalars[1] = selfIsResult, which
// leaves the formula as it is. NaN in either gives NaN.
double LeakyReluBackwardRef(double dy, double x, const double* scalars) {
  if (std::isnan(x)) return kNaN;
  const double slope = static_cast<float>(scalars[0]);
  return x > 0 ? dy : dy * slope;
}

// The shrinks' gradient: 0 on [-lambd, lambd], dy elsewhere (a negative lambd is 0, as
// CANN's op_api clamps it); NaN in either gives NaN.
double HardshrinkBackwardRef(double dy, double x, const double* scalars) {
  const double lambd = std::max(0.0, static_cast<double>(static_cast<float>(scalars[0])));
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  return x >= -lambd && x <= lambd ? 0.0 : dy;
}
double SoftshrinkBackwardRef(double dy, double x, const double* scalars) {
  return HardshrinkBackwardRef(dy, x, scalars);
}

// dy strictly inside (min, max), 0 elsewhere (scalars: min, max); NaN in either gives NaN.
double HardtanhBackwardRef(double dy, double x, const double* scalars) {
  const double lo = static_cast<float>(scalars[0]), hi = static_cast<float>(scalars[1]);
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  return x <= lo || x >= hi ? 0.0 : dy;
}

// x = selfOrResult (scalars: alpha, scale, inputScale, isResult): dy scale for x > 0;
// otherwise dy inputScale (x + alpha scale) for a result, dy inputScale alpha scale
// e^(x inputScale) for an input. NaN in either input gives NaN.
double EluBackwardRef(double dy, double x, const double* scalars) {
  const long double alpha = static_cast<float>(scalars[0]), scale = static_cast<float>(scalars[1]);
  const long double input_scale = static_cast<float>(scalars[2]);
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  if (x > 0) return static_cast<double>(dy * scale);
  if (scalars[3] != 0) return static_cast<double>(dy * input_scale * (x + alpha * scale));
  const long double t = x * input_scale, c = input_scale * alpha * scale;
  // e^t > 0 for every finite t, even where long double underflows: an infinite dy gives an
  // infinity.
  if (std::isinf(dy) && std::isfinite(static_cast<double>(t)) && c != 0) {
    return std::copysign(HUGE_VAL, dy) * (c < 0 ? -1 : 1);
  }
  return static_cast<double>(dy * c * std::exp(t));
}

// dy where x > threshold (as f32; within FLT_EPSILON of 0: 0), else 0; NaN in either: NaN.
// self > 0 ? self : weight * self (self NaN: NaN).
double PreluRef(double self, double weight) {
  if (std::isnan(self)) return kNaN;
  return self > 0.0 ? self : weight * self;
}

// relu(self + alpha * other), alpha = scalars[0] as the kernel reads it (f32).
double AddReluRef(double self, double other, const double* scalars) {
  const double v = self + static_cast<double>(static_cast<float>(scalars[0])) * other;
  if (std::isnan(v)) return kNaN;
  return v > 0.0 ? v : 0.0;
}
double InplaceAddReluRef(double self, double other, const double* scalars) {
  return AddReluRef(self, other, scalars);
}

double ThresholdBackwardRef(double dy, double x, const double* scalars) {
  double threshold = static_cast<float>(scalars[0]);
  if (std::fabs(threshold) <= 1.1920928955078125e-07) threshold = 0.0;
  if (std::isnan(x) || std::isnan(dy)) return kNaN;
  return x > threshold ? dy : 0.0;
}

// dy s (1 + z (1 - s)), z = beta x, s = sigmoid(z) (scalars[0] = beta); the limits for an
// infinite z (dy, or dy * 0); an infinite dy where the factor underflows even long double
// keeps the factor's sign. NaN in either input gives NaN.
double SwishBackwardRef(double dy, double x, const double* scalars) {
  const long double beta = static_cast<float>(scalars[0]);
  const long double z = beta * x;
  if (std::isnan(x) || std::isnan(dy) || std::isnan(static_cast<double>(z))) return kNaN;
  if (std::isinf(static_cast<double>(z))) return z > 0 ? dy : dy * 0.0;
  const long double s = 1.0L / (1.0L + std::exp(-z));
  const long double factor = s * (1.0L + z * (1.0L - s));
  if (std::isinf(dy) && factor == 0) return z < 0 ? -dy : dy;
  return static_cast<double>(dy * factor);
}

// dy where fl32(beta x) > threshold, else dy sigmoid(beta x) (scalars: beta, threshold).
double SoftplusBackwardRef(double dy, double x, const double* scalars) {
  const double beta = static_cast<float>(scalars[0]), threshold = static_cast<float>(scalars[1]);
  const long double s = static_cast<long double>(beta) * x;
  if (std::isnan(static_cast<double>(s)) || std::isnan(x) || std::isnan(dy)) return kNaN;
  if (static_cast<float>(beta * x) > threshold) return dy;
  if (std::isinf(dy) && std::isfinite(static_cast<double>(s))) return dy;  // sigmoid(s) > 0
  return static_cast<double>(dy / (1.0L + std::exp(-s)));
}

// Each operator of the list whose Kind is Binary (hostnn/op.h) has <Name>Ref(dy, x), or
// <Name>Ref(dy, x, scalars) if it has parameters; the other operators have none here.
namespace {
template <class F>
double CallRef(F ref, double dy, double x, const double* scalars) {
  if constexpr (std::is_invocable_v<F, double, double, const double*>) {
    return ref(dy, x, scalars);
  } else {
    (void)scalars;
    return ref(dy, x);
  }
}
}  // namespace
#define HOSTNN_REF_Binary(Name) \
  case Op::k##Name:             \
    return CallRef(Name##Ref, dy, x, scalars);
#define HOSTNN_REF_Unary(Name) \
  case Op::k##Name:            \
    return kNaN;
#define HOSTNN_REF_Rows(Name) HOSTNN_REF_Unary(Name)
#define HOSTNN_REF_Gated(Name) HOSTNN_REF_Unary(Name)
#define HOSTNN_REF_GatedGrad(Name) HOSTNN_REF_Unary(Name)
#define HOSTNN_REF_MapColumnSums(Name) HOSTNN_REF_Unary(Name)
#define HOSTNN_REF_NoiseMap(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_Gather(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_ScatterAdd(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_PointLoss(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_ClassLoss(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_SoftmaxLoss(Name) HOSTNN_REF_MapColumnSums(Name)
double EltwiseRef(Op op, double dy, double x, const double* scalars) {
  switch (op) {
#define HOSTNN_OP(Name, snake, sig, kind, ...) HOSTNN_REF_##kind(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  }
  return kNaN;
}
double EltwiseRef(Op op, double dy, double x) { return EltwiseRef(op, dy, x, DefaultScalars(op)); }
#undef HOSTNN_REF_Binary
#undef HOSTNN_REF_Unary
#undef HOSTNN_REF_Rows
#undef HOSTNN_REF_Gated
#undef HOSTNN_REF_GatedGrad
#undef HOSTNN_REF_MapColumnSums
#undef HOSTNN_REF_NoiseMap
#undef HOSTNN_REF_Gather
#undef HOSTNN_REF_ScatterAdd
#undef HOSTNN_REF_PointLoss
#undef HOSTNN_REF_ClassLoss
#undef HOSTNN_REF_SoftmaxLoss

void LogSoftmaxBackwardRef(const std::vector<double>& dy, const std::vector<double>& y,
                           const std::vector<int64_t>& shape, int64_t dim, std::vector<double>* out,
                           std::vector<double>* abs_sum) {
  int64_t a1 = 1, r = 1, a0 = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    if (i < dim) a1 *= shape[i];
    if (i == dim) r = shape[i];
    if (i > dim) a0 *= shape[i];
  }
  out->assign(dy.size(), 0.0);
  abs_sum->assign(dy.size(), 0.0);
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      double sum = 0, asum = 0;
      for (int64_t j = 0; j < r; ++j) {
        sum += dy[(i * r + j) * a0 + k];
        asum += std::fabs(dy[(i * r + j) * a0 + k]);
      }
      for (int64_t j = 0; j < r; ++j) {
        const int64_t idx = (i * r + j) * a0 + k;
        (*out)[idx] = dy[idx] - std::exp(y[idx]) * sum;
        (*abs_sum)[idx] = asum;
      }
    }
  }
}

namespace {
// A 16-bit value as a double, its infinities replaced by the value one ULP above the
// largest finite one (2^16 for FLOAT16, 2^128 for BFLOAT16): the far end of the last
// rounding interval, where the midpoint to an overflow lies.
double FiniteEnd(DType dtype, double v) {
  if (!std::isinf(v)) return v;
  return std::copysign(std::ldexp(1.0, dtype == DType::kFloat16 ? 16 : 128), v);
}
}  // namespace

Rounding16 ClassifyRounding16(DType dtype, double got, double exact) {
  if (std::isnan(got) || std::isnan(exact)) {
    return std::isnan(got) && std::isnan(exact) ? Rounding16::kCorrect : Rounding16::kWrong;
  }
  const double steps = UlpError(dtype, got, exact);  // steps from the rounded exact value
  if (steps == 0) return Rounding16::kCorrect;
  if (steps > 1 || std::isinf(exact)) return Rounding16::kWrong;
  const double rounded = dtype == DType::kFloat16 ? F16ToDouble(DoubleToF16(exact))
                                                  : BF16ToDouble(DoubleToBF16(exact));
  const double mid = 0.5 * (FiniteEnd(dtype, got) + FiniteEnd(dtype, rounded));
  return std::fabs(exact - mid) <= kMidpointWindow * std::fabs(mid) ? Rounding16::kInWindow
                                                                    : Rounding16::kWrong;
}

bool WithinF32BoundRounded16(DType dtype, double got, double exact, double f32_bound) {
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact);
  if (std::isinf(got) || std::isinf(exact))
    return ClassifyRounding16(dtype, got, exact) != Rounding16::kWrong;
  const double half_ulp = 0.5 * std::max(UlpOf(dtype, exact), UlpOf(dtype, got));
  return std::fabs(got - exact) <= f32_bound + half_ulp;
}

bool EltwiseWithinTolerance(DType out_dtype, double got, double exact, double dy) {
  if (std::isnan(exact) || std::isnan(got)) return std::isnan(exact) && std::isnan(got);
  if (out_dtype == DType::kFloat16 || out_dtype == DType::kBFloat16) {
    return ClassifyRounding16(out_dtype, got, exact) != Rounding16::kWrong ||
           WithinF32BoundRounded16(out_dtype, got, exact, kTwoPowMinus21 * std::fabs(dy));
  }
  if (UlpError(DType::kFloat32, got, exact) <= 4.0) return true;
  return std::fabs(got - exact) <= kTwoPowMinus21 * std::fabs(dy);
}

bool LogSoftmaxWithinTolerance(DType out_dtype, double got, double exact, double dy, double y,
                               double abs_sum) {
  if (std::isnan(exact) || std::isnan(got)) return std::isnan(exact) && std::isnan(got);
  const double f32_bound = kTwoPowMinus21 * (std::fabs(dy) + std::exp(y) * abs_sum);
  if (out_dtype == DType::kFloat16 || out_dtype == DType::kBFloat16) {
    // Where the result cancels, the fp32 value v that SPEC §4 computes may already be
    // f32_bound away from the exact result, which can be several narrow ULPs of a result
    // that small; rounding v to the narrow type then adds half a narrow ULP.
    return ClassifyRounding16(out_dtype, got, exact) != Rounding16::kWrong ||
           WithinF32BoundRounded16(out_dtype, got, exact, f32_bound);
  }
  if (got == exact) return true;
  return std::fabs(got - exact) <= f32_bound;
}

}  // namespace test
}  // namespace hostnn
