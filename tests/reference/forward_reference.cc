// Double-precision references for the forward operators (see forward_reference.h).

#include "tests/reference/forward_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "tests/reference/reference.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kTwoPowMinus21 = std::ldexp(1.0, -21);
}  // namespace

void LogSoftmaxRowRef(const double* x, int64_t n, double* out, double* x_minus_max) {
  bool nan = false;
  double max = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) nan = true;
    max = std::max(max, x[i]);
  }
  // +inf: inf - inf; all -inf: -inf - -inf; both NaN for the whole row, as PyTorch.
  if (nan || max == INFINITY || max == -INFINITY) {
    for (int64_t i = 0; i < n; ++i) out[i] = x_minus_max[i] = kNaN;
    return;
  }
  // The max's own exp(0) = 1 apart, so that a sum of 1 + 1e-30 keeps its 1e-30: log1p of
  // the rest when one element is at the max.
  long double rest = 0.0L;
  int64_t at_max = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (x[i] == max) {
      ++at_max;
    } else {
      rest += std::exp(static_cast<long double>(x[i]) - max);
    }
  }
  const long double log_sum =
      at_max == 1 ? std::log1p(rest) : std::log(static_cast<long double>(at_max) + rest);
  for (int64_t i = 0; i < n; ++i) {
    const long double d = static_cast<long double>(x[i]) - max;
    x_minus_max[i] = static_cast<double>(d);
    out[i] = static_cast<double>(d - log_sum);
  }
}

double SiluRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -0.0;
  if (x == INFINITY) return INFINITY;
  // x / (1 + e^-x): for x < -709 e^-x is inf and the quotient -0, the limit's sign.
  return x / (1.0 + std::exp(-x));
}

double LogSigmoidRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -INFINITY;
  if (x == INFINITY) return 0.0;
  return std::min(x, 0.0) - std::log1p(std::exp(-std::fabs(x)));
}
// LogSigmoidForward computes what LogSigmoid computes.
double LogSigmoidForwardRef(double x) { return LogSigmoidRef(x); }

double HardsigmoidRef(double x) {
  if (std::isnan(x)) return kNaN;
  // x / 6 + 1/2 in double: exact to 2^-53 relative, far below any f32 ULP.
  return std::min(1.0, std::max(0.0, x / 6.0 + 0.5));
}
// InplaceHardsigmoid computes what Hardsigmoid computes.
double InplaceHardsigmoidRef(double x) { return HardsigmoidRef(x); }

double ReluRef(double x) {
  if (std::isnan(x)) return kNaN;
  return x > 0.0 ? x : 0.0;
}
// InplaceRelu computes what Relu computes.
double InplaceReluRef(double x) { return ReluRef(x); }
double SigmoidRef(double x) {
  if (std::isnan(x)) return kNaN;
  // exp(-x) overflows to inf below x = -709 and gives +0, the limit (and f32's rounding).
  return 1.0 / (1.0 + std::exp(-x));
}
// InplaceSigmoid computes what Sigmoid computes.
double InplaceSigmoidRef(double x) { return SigmoidRef(x); }

double GeluRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -0.0;
  if (x == INFINITY) return INFINITY;
  // The tanh form 0.5 x (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), written as
  // x / (1 + exp(-2u)): 1 + tanh(u) would cancel for x < 0 even in double.
  const double z = 2.0 * std::sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
  return x / (1.0 + std::exp(-z));
}

double FastGeluRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -0.0;
  if (x == INFINITY) return INFINITY;
  // CANN's formula with its constant 1.702; below x = -417 exp overflows and gives -0.
  return x / (1.0 + std::exp(-1.702 * x));
}
double HardswishRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x <= -3.0) return -0.0;  // x * 0
  if (x >= 3.0) return x;
  return x * (x + 3.0) / 6.0;  // exact to 2^-52 relative
}
// InplaceHardswish computes what Hardswish computes.
double InplaceHardswishRef(double x) { return HardswishRef(x); }

double MishRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -0.0;  // the limit of x e^x
  return x * std::tanh(std::log1p(std::exp(x)));
}
// InplaceMish computes what Mish computes.
double InplaceMishRef(double x) { return MishRef(x); }

// CANN's constants (the document's digits).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;
double SeluRef(double x) {
  if (std::isnan(x)) return kNaN;
  return x > 0 ? kSeluScale * x : kSeluScale * kSeluAlpha * std::expm1(x);
}
// InplaceSelu computes what Selu computes.
double InplaceSeluRef(double x) { return SeluRef(x); }

double SquaredReluRef(double x) {
  if (std::isnan(x)) return kNaN;
  return x > 0 ? x * x : 0.0;  // exact for f32 inputs
}

// erfinv by Newton's method on erf (erfc for x >= 1/2, where 1 - x is exact in double),
// from a rough start, to convergence in double.
double ErfinvRef(double x) {
  if (std::isnan(x) || std::fabs(x) > 1.0) return kNaN;
  if (std::fabs(x) == 1.0) return x * INFINITY;
  if (x == 0.0) return x;
  const double a = std::fabs(x);
  double y = a < 0.9 ? a * 0.886 : 0.8 * std::sqrt(-std::log((1.0 - a) * (1.0 + a)));
  for (int i = 0; i < 100; ++i) {
    const double slope = 2.0 / std::sqrt(M_PI) * std::exp(-y * y);
    const double f = a < 0.5 ? std::erf(y) - a : (1.0 - a) - std::erfc(y);
    const double next = y - f / slope;
    if (next == y) break;
    y = next;
  }
  return std::copysign(y, x);
}
// InplaceErfinv computes what Erfinv computes.
double InplaceErfinvRef(double x) { return ErfinvRef(x); }

// scalars[0] = negativeSlope, taken as the f32 the kernels get (CANN's ToFloat).
double LeakyReluRef(double x, const double* scalars) {
  const double slope = static_cast<float>(scalars[0]);
  return x > 0 ? x : x * slope;  // exact in double: one product of two floats
}
double InplaceLeakyReluRef(double x, const double* scalars) { return LeakyReluRef(x, scalars); }

// scalars[0] = lambd; Hardshrink's negative lambd is 0 (CANN's op_api clamps it).
double HardshrinkRef(double x, const double* scalars) {
  const double lambd = std::fmax(static_cast<float>(scalars[0]), 0.0);
  if (std::isnan(x)) return kNaN;
  return x >= -lambd && x <= lambd ? 0.0 : x;
}
double SoftshrinkRef(double x, const double* scalars) {
  const double lambd = static_cast<float>(scalars[0]);
  if (std::isnan(x)) return kNaN;
  if (x > lambd) return x - lambd;
  if (x < -lambd) return x + lambd;
  return 0.0;
}

double GeluErfRef(double x) {
  if (std::isnan(x)) return kNaN;
  if (x == -INFINITY) return -0.0;
  if (x == INFINITY) return INFINITY;
  // x Phi(x) in long double, Phi(x) = erfc(-x / sqrt 2) / 2 (not (1 + erf) / 2, which
  // cancels for x < 0).
  const long double v = x;
  return static_cast<double>(v * std::erfc(-v / std::sqrt(2.0L)) / 2.0L);
}

// scale x for x > 0, alpha scale expm1(x inputScale) otherwise (scalars: alpha, scale,
// inputScale); with an infinite or NaN alpha or inputScale, scale (x > 0 ? x : -alpha), as
// CANN's op_api computes it.
double EluRef(double x, const double* scalars) {
  const double alpha = static_cast<float>(scalars[0]), scale = static_cast<float>(scalars[1]);
  const double input_scale = static_cast<float>(scalars[2]);
  if (std::isnan(x)) return x;
  if (!std::isfinite(alpha) || !std::isfinite(input_scale)) return scale * (x > 0 ? x : -alpha);
  if (x > 0) return scale * x;
  const long double t = static_cast<long double>(x) * input_scale;
  return static_cast<double>(static_cast<long double>(alpha) * scale * std::expm1(t));
}
double InplaceEluRef(double x, const double* scalars) { return EluRef(x, scalars); }

// x for x > 0, alpha expm1(x / alpha) otherwise (scalars[0] = alpha, non-zero).
double CeluRef(double x, const double* scalars) {
  const long double alpha = static_cast<float>(scalars[0]);
  if (std::isnan(x)) return x;
  if (x > 0) return x;
  return static_cast<double>(alpha * std::expm1(x / alpha));
}
double InplaceCeluRef(double x, const double* scalars) { return CeluRef(x, scalars); }

// x where x > threshold, else value (scalars: threshold, value, already in x's dtype);
// NaN -> NaN.
double ThresholdRef(double x, const double* scalars) {
  if (std::isnan(x)) return x;
  return x > scalars[0] ? x : scalars[1];
}
double InplaceThresholdRef(double x, const double* scalars) { return ThresholdRef(x, scalars); }

// x sigmoid(beta x) (scalars[0] = beta); an infinite x gives its limit (x or +-0).
double SwishRef(double x, const double* scalars) {
  const long double beta = static_cast<float>(scalars[0]);
  const long double z = beta * x;
  if (std::isnan(x) || std::isnan(static_cast<double>(z))) return kNaN;
  if (std::isinf(x)) return z > 0 ? x : std::copysign(0.0, x);
  return static_cast<double>(x / (1.0L + std::exp(-z)));
}

// x - bias above lambd, x + bias below -lambd, 0 between (scalars: lambd, bias); NaN -> NaN.
double ShrinkRef(double x, const double* scalars) {
  const double lambd = static_cast<float>(scalars[0]), bias = static_cast<float>(scalars[1]);
  if (std::isnan(x)) return x;
  if (x > lambd) return x - bias;
  if (x < -lambd) return x + bias;
  return 0.0;
}

// x where fl32(beta x) > threshold (the comparison CANN's kernel and PyTorch make), else
// log(1 + e^(beta x)) / beta (scalars: beta, threshold), as max(s, 0) + log1p(e^-|s|).
double SoftplusRef(double x, const double* scalars) {
  const double beta = static_cast<float>(scalars[0]), threshold = static_cast<float>(scalars[1]);
  const long double s = static_cast<long double>(beta) * x;
  if (std::isnan(static_cast<double>(s)) || std::isnan(x)) return kNaN;
  if (static_cast<float>(beta * x) > threshold) return x;
  const long double sp = std::max(s, 0.0L) + std::log1p(std::exp(-std::fabs(s)));
  return static_cast<double>(sp / beta);
}

// Each operator of the list whose Kind is Unary (hostnn/op.h) has <Name>Ref(x), or
// <Name>Ref(x, scalars) if it has parameters; the others have none here.
namespace {
template <class F>
double CallRef(F ref, double x, const double* scalars) {
  if constexpr (std::is_invocable_v<F, double, const double*>) {
    return ref(x, scalars);
  } else {
    (void)scalars;
    return ref(x);
  }
}
}  // namespace
#define HOSTNN_REF_Unary(Name) \
  case Op::k##Name:            \
    return CallRef(Name##Ref, x, scalars);
#define HOSTNN_REF_Binary(Name) \
  case Op::k##Name:             \
    return std::numeric_limits<double>::quiet_NaN();
#define HOSTNN_REF_Rows(Name) HOSTNN_REF_Binary(Name)
#define HOSTNN_REF_Gated(Name) HOSTNN_REF_Binary(Name)
#define HOSTNN_REF_GatedGrad(Name) HOSTNN_REF_Binary(Name)
#define HOSTNN_REF_MapColumnSums(Name) HOSTNN_REF_Binary(Name)
#define HOSTNN_REF_NoiseMap(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_Gather(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_ScatterAdd(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_PointLoss(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_ClassLoss(Name) HOSTNN_REF_MapColumnSums(Name)
#define HOSTNN_REF_SoftmaxLoss(Name) HOSTNN_REF_MapColumnSums(Name)
double ForwardEltwiseRef(Op op, double x, const double* scalars) {
  switch (op) {
#define HOSTNN_OP(Name, snake, sig, kind, ...) HOSTNN_REF_##kind(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  }
  return std::numeric_limits<double>::quiet_NaN();
}
#undef HOSTNN_REF_Unary
#undef HOSTNN_REF_Binary
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
double ForwardEltwiseRef(Op op, double x) { return ForwardEltwiseRef(op, x, DefaultScalars(op)); }

const double* DefaultScalars(Op op) {
  static const std::vector<std::vector<double>> table = [] {
    std::vector<std::vector<double>> t;
    for (Op o : AllOps()) {
      std::vector<double> v(kMaxScalars, 0.0);
      for (int k = 0; k < GetOpInfo(o).num_scalars(); ++k) {
        v[k] = GetOpInfo(o).scalars[k].default_value;
      }
      t.push_back(v);
    }
    return t;
  }();
  return table[static_cast<size_t>(op)].data();
}

bool ForwardEltwiseWithinTolerance(DType dtype, double got, double exact) {
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact);
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    return ClassifyRounding16(dtype, got, exact) != Rounding16::kWrong;
  }
  if (UlpError(DType::kFloat32, got, exact) <= 4.0) return true;
  return std::isfinite(got) && std::fabs(got - exact) <= kTwoPowMinus21;
}

namespace {
double LogSoftmaxF32Bound(double exact, double x_minus_max) {
  return kTwoPowMinus21 * (std::fabs(x_minus_max) + 1.0) + 4.0 * UlpOf(DType::kFloat32, exact);
}
}  // namespace

double LogSoftmaxForwardBound(DType dtype, double exact, double x_minus_max) {
  const double f32_bound = LogSoftmaxF32Bound(exact, x_minus_max);
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    return f32_bound + 0.5 * UlpOf(dtype, exact);
  }
  return f32_bound;
}

bool LogSoftmaxForwardWithinTolerance(DType dtype, double got, double exact, double x_minus_max) {
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact);
  if (std::isinf(got) || std::isinf(exact)) {
    if (got == exact) return true;
    // A finite exact value beyond the type's range rounds to an infinity.
    const double rounded = dtype == DType::kFloat32 ? static_cast<double>(static_cast<float>(exact))
                           : dtype == DType::kFloat16 ? F16ToDouble(DoubleToF16(exact))
                                                      : BF16ToDouble(DoubleToBF16(exact));
    return rounded == got;
  }
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    return ClassifyRounding16(dtype, got, exact) != Rounding16::kWrong ||
           WithinF32BoundRounded16(dtype, got, exact, LogSoftmaxF32Bound(exact, x_minus_max));
  }
  return std::fabs(got - exact) <= LogSoftmaxForwardBound(dtype, exact, x_minus_max);
}

}  // namespace test
}  // namespace hostnn
