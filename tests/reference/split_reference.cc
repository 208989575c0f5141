// The gated linear units in double (split_reference.h). Each formula is written so that no
// step cancels: 1 - sigmoid(v) is sigmoid(-v), the erf gelu uses erfc (1 + erf(v / sqrt 2)
// loses every digit below v = -6 even in double), and the tanh gelu 0.5 v (1 + tanh(u)) is
// v sigmoid(2u), its derivative s (1 + v z' (1 - s)) with s = sigmoid(z), z = 2u.

#include "tests/reference/split_reference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace split_ref {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kTanhC = 0.044715;

// z = 2 sqrt(2/pi) (v + 0.044715 v^3) of the tanh form, and its derivative.
double TanhZ(double v) { return 2.0 * std::sqrt(2.0 / kPi) * (v + kTanhC * v * v * v); }
double TanhDz(double v) { return 2.0 * std::sqrt(2.0 / kPi) * (1.0 + 3.0 * kTanhC * v * v); }

// v rounded once (RNE) to dtype.
double Round(DType dtype, double v) {
  switch (dtype) {
    case DType::kFloat16:
      return F16ToDouble(DoubleToF16(v));
    case DType::kBFloat16:
      return BF16ToDouble(DoubleToBF16(v));
    default:
      return static_cast<double>(static_cast<float>(v));
  }
}

// The unit of Bound: one f32 ULP (of the f32 nearest to v, the largest finite one's where
// that is infinite; UlpOf floors it at the smallest normal's), or one 16-bit ULP at v.
double UnitUlp(DType dtype, double v) {
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) return UlpOf(dtype, v);
  const float f = static_cast<float>(v);
  return UlpOf(DType::kFloat32, std::isinf(f) ? FLT_MAX : static_cast<double>(f));
}

double UlpsAllowed(DType dtype) {
  return dtype == DType::kFloat16 || dtype == DType::kBFloat16 ? 1.0 : 8.0;
}

}  // namespace

double Sigmoid(double v) {
  // exp(-v) is inf for v < -709 (and at -inf) and gives 0, the limit; NaN stays NaN.
  return 1.0 / (1.0 + std::exp(-v));
}

double Silu(double v) {
  if (v == -INFINITY) return -0.0;
  if (v == INFINITY) return INFINITY;
  return v * Sigmoid(v);
}

double SiluGrad(double v) {
  if (v == -INFINITY) return 0.0;
  if (v == INFINITY) return 1.0;
  return Sigmoid(v) * (1.0 + v * Sigmoid(-v));
}

double Gelu(double v, int64_t approximate) {
  if (v == -INFINITY) return -0.0;
  if (v == INFINITY) return INFINITY;
  if (approximate == 0) return v * 0.5 * std::erfc(-v / std::sqrt(2.0));
  return v * Sigmoid(TanhZ(v));
}

double GeluGrad(double v, int64_t approximate) {
  if (v == -INFINITY) return 0.0;
  if (v == INFINITY) return 1.0;
  if (approximate == 0) {
    // Phi(v) + v phi(v).
    return 0.5 * std::erfc(-v / std::sqrt(2.0)) + v * std::exp(-0.5 * v * v) / std::sqrt(2.0 * kPi);
  }
  const double z = TanhZ(v);
  return Sigmoid(z) * (1.0 + v * TanhDz(v) * Sigmoid(-z));
}

namespace {

// SituGlu's parts: the gated half's beta tanh(g / beta) sigmoid(g) and its derivative
// sigmoid(g) (sech^2(g / beta) + beta tanh(g / beta) (1 - sigmoid(g))), sech^2 as 1 / cosh^2
// (no 1 - tanh^2 cancelling near tanh = 1; cosh(+-inf) = inf gives 0); the up half's
// transform and its derivative.
double SituGate(double g, double beta) { return beta * std::tanh(g / beta) * Sigmoid(g); }
double SituGateGrad(double g, double beta) {
  const double z = g / beta, c = std::cosh(z);
  return Sigmoid(g) * (1.0 / (c * c) + beta * std::tanh(z) * Sigmoid(-g));
}
double SituUp(double up, double linear_beta) {
  return linear_beta > 0.0 ? linear_beta * std::tanh(up / linear_beta) : up;
}
double SituUpGrad(double up, double linear_beta) {
  if (!(linear_beta > 0.0)) return 1.0;
  const double c = std::cosh(up / linear_beta);
  return 1.0 / (c * c);
}

}  // namespace

Forward ForwardRef(Unit unit, double a, double b, const Attrs& at) {
  Forward f;
  const bool left = at.activate_left;
  switch (unit) {
    case Unit::kGlu:
      f.out = a * Sigmoid(b);
      break;
    case Unit::kSwiGlu:
      f.out = Silu(a) * b;
      break;
    case Unit::kGeGlu:
      f.gelu = Gelu(left ? a : b, at.approximate);
      f.out = left ? f.gelu * b : a * f.gelu;
      break;
    case Unit::kFatrelu:
      f.out = (std::isnan(a) || a > at.threshold ? a : 0.0) * b;
      break;
    case Unit::kSituGlu:
      f.out = SituGate(left ? a : b, at.beta) * SituUp(left ? b : a, at.linear_beta);
      break;
    case Unit::kClippedSwiglu: {  // comparisons, as the kernel: NaN stays, a NaN limit no-op
      const double gate = a > at.limit ? at.limit : a;
      double other = b < -at.limit ? -at.limit : b;
      other = other > at.limit ? at.limit : other;
      f.out = gate * Sigmoid(at.alpha * gate) * (other + at.bias);
      break;
    }
  }
  return f;
}

Backward BackwardRef(Unit unit, double dy, double a, double b, double gelu, const Attrs& at) {
  Backward g;
  switch (unit) {
    case Unit::kGlu:
      g.da = dy * Sigmoid(b);
      g.db = dy * a * (Sigmoid(b) * Sigmoid(-b));
      break;
    case Unit::kSwiGlu:
      g.da = dy * b * SiluGrad(a);
      g.db = dy * Silu(a);
      break;
    case Unit::kGeGlu:
      if (at.activate_left) {
        g.da = dy * b * GeluGrad(a, at.approximate);
        g.db = dy * gelu;
      } else {
        g.da = dy * gelu;
        g.db = dy * a * GeluGrad(b, at.approximate);
      }
      break;
    case Unit::kFatrelu:  // no gradient operator in CANN
      g.da = g.db = std::nan("");
      break;
    case Unit::kClippedSwiglu: {  // a the gate; the masks compare the inputs (NaN: 0)
      const double gate = a > at.limit ? at.limit : a;
      double other = b < -at.limit ? -at.limit : b;
      other = other > at.limit ? at.limit : other;
      const double z = at.alpha * gate, s = Sigmoid(z);
      g.da = a <= at.limit ? dy * (other + at.bias) * s * (1.0 + z * Sigmoid(-z)) : 0.0;
      g.db = b <= at.limit && b >= -at.limit ? dy * gate * s : 0.0;
      break;
    }
    case Unit::kSituGlu: {
      const double gate = at.activate_left ? a : b, up = at.activate_left ? b : a;
      const double d_gate = dy * SituUp(up, at.linear_beta) * SituGateGrad(gate, at.beta);
      const double d_up = dy * SituGate(gate, at.beta) * SituUpGrad(up, at.linear_beta);
      g.da = at.activate_left ? d_gate : d_up;
      g.db = at.activate_left ? d_up : d_gate;
      break;
    }
  }
  return g;
}

void PairPositions(const std::vector<int64_t>& full_shape, int64_t d, int64_t i, int64_t* pos_a,
                   int64_t* pos_b) {
  int64_t inner = 1;
  for (size_t k = static_cast<size_t>(d) + 1; k < full_shape.size(); ++k) inner *= full_shape[k];
  const int64_t n = full_shape[d], h = n / 2;
  const int64_t k = i % inner, j = (i / inner) % h, o = i / (inner * h);
  *pos_a = (o * n + j) * inner + k;
  *pos_b = *pos_a + h * inner;
}

std::vector<int64_t> HalfShape(const std::vector<int64_t>& full_shape, int64_t d) {
  std::vector<int64_t> s = full_shape;
  s[d] /= 2;
  return s;
}

double GradSlack(double dy, double a, double b) {
  // Only finite operands count: an infinite one makes the exact result infinite or NaN
  // (matched exactly), or a zero that the formula gives exactly (sigmoid(+-inf) (1 - ...)).
  auto mag = [](double v) { return std::isfinite(v) ? std::fabs(v) : 0.0; };
  return std::ldexp(1.0, -21) * mag(dy) * std::max({1.0, mag(a), mag(b)});
}

double Bound(DType dtype, double exact, double slack) {
  return UlpsAllowed(dtype) * UnitUlp(dtype, exact) + slack;
}

bool WithinTolerance(DType dtype, double got, double exact, double slack) {
  if (std::isnan(exact) || std::isnan(got)) return std::isnan(exact) && std::isnan(got);
  if (std::isinf(exact)) return got == exact;
  if (std::isinf(got)) return Round(dtype, exact) == got;
  return std::fabs(got - exact) <= Bound(dtype, exact, slack);
}

double ErrorUlp(DType dtype, double got, double exact) {
  if (std::isnan(exact) || std::isnan(got)) {
    return std::isnan(exact) && std::isnan(got) ? 0.0 : INFINITY;
  }
  if (std::isinf(exact) || std::isinf(got)) return Round(dtype, exact) == got ? 0.0 : INFINITY;
  return std::fabs(got - exact) / UnitUlp(dtype, exact);
}

}  // namespace split_ref
}  // namespace test
}  // namespace hostnn
