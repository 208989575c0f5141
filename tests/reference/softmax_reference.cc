// Double-precision references of the softmax reductions (see softmax_reference.h).

#include "tests/reference/softmax_reference.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
const double kTwoPowMinus21 = std::ldexp(1.0, -21);

// The (A1, R, A0) view of shape around dim.
void Fuse(const std::vector<int64_t>& shape, int64_t dim, int64_t* a1, int64_t* r, int64_t* a0) {
  *a1 = *r = *a0 = 1;
  for (int64_t i = 0; i < static_cast<int64_t>(shape.size()); ++i) {
    (i < dim ? *a1 : i == dim ? *r : *a0) *= shape[i];
  }
}

// 16-bit results: rounded once from the exact value, or within the FLOAT bound of it and
// then rounded (where the f32 value SPEC §4 computes may already be that far off).
bool Within(DType dtype, double got, double exact, double f32_bound) {
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact);
  if (got == exact) return true;
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    return ClassifyRounding16(dtype, got, exact) != Rounding16::kWrong ||
           WithinF32BoundRounded16(dtype, got, exact, f32_bound);
  }
  return std::fabs(got - exact) <= f32_bound;
}

}  // namespace

void SoftmaxRowRef(const double* x, int64_t n, double* out, double* top) {
  bool nan = false;
  double max = -INFINITY;
  for (int64_t i = 0; i < n; ++i) {
    if (std::isnan(x[i])) nan = true;
    max = std::max(max, x[i]);
  }
  if (nan || max == INFINITY || max == -INFINITY) {
    for (int64_t i = 0; i < n; ++i) out[i] = kNaN;
    *top = kNaN;
    return;
  }
  long double sum = 0.0L;
  for (int64_t i = 0; i < n; ++i) sum += std::exp(static_cast<long double>(x[i]) - max);
  for (int64_t i = 0; i < n; ++i) {
    out[i] = static_cast<double>(std::exp(static_cast<long double>(x[i]) - max) / sum);
  }
  *top = static_cast<double>(1.0L / sum);
}

void ReductionForwardRef(Op op, const std::vector<double>& x, const std::vector<int64_t>& shape,
                         int64_t dim, std::vector<double>* exact, std::vector<double>* aux) {
  int64_t a1, r, a0;
  Fuse(shape, dim, &a1, &r, &a0);
  exact->assign(x.size(), 0.0);
  aux->assign(x.size(), 0.0);
  std::vector<double> row(r), ref(r), row_aux(r);
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      for (int64_t j = 0; j < r; ++j) row[j] = x[(i * r + j) * a0 + k];
      if (op == Op::kSoftmax) {
        double top;
        SoftmaxRowRef(row.data(), r, ref.data(), &top);
        std::fill(row_aux.begin(), row_aux.end(), top);
      } else {
        LogSoftmaxRowRef(row.data(), r, ref.data(), row_aux.data());
      }
      for (int64_t j = 0; j < r; ++j) {
        (*exact)[(i * r + j) * a0 + k] = ref[j];
        (*aux)[(i * r + j) * a0 + k] = row_aux[j];
      }
    }
  }
}

bool ReductionForwardWithinTolerance(Op op, DType dtype, double got, double exact, double aux) {
  if (op != Op::kSoftmax) return LogSoftmaxForwardWithinTolerance(dtype, got, exact, aux);
  const double f32_bound = 4.0 * UlpOf(DType::kFloat32, exact) + kTwoPowMinus21 * aux;
  return Within(dtype, got, exact, f32_bound);
}

void ReductionBackwardRef(Op op, const std::vector<double>& dy, const std::vector<double>& y,
                          const std::vector<int64_t>& shape, int64_t dim,
                          std::vector<double>* exact, std::vector<double>* aux) {
  if (op != Op::kSoftmaxBackward) return LogSoftmaxBackwardRef(dy, y, shape, dim, exact, aux);
  int64_t a1, r, a0;
  Fuse(shape, dim, &a1, &r, &a0);
  exact->assign(dy.size(), 0.0);
  aux->assign(dy.size(), 0.0);
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      long double sum = 0, asum = 0;
      for (int64_t j = 0; j < r; ++j) {
        const int64_t idx = (i * r + j) * a0 + k;
        sum += static_cast<long double>(dy[idx]) * y[idx];
        asum += std::fabs(static_cast<long double>(dy[idx]) * y[idx]);
      }
      for (int64_t j = 0; j < r; ++j) {
        const int64_t idx = (i * r + j) * a0 + k;
        (*exact)[idx] = static_cast<double>(y[idx] * (dy[idx] - sum));
        (*aux)[idx] = static_cast<double>(asum);
      }
    }
  }
}

bool ReductionBackwardWithinTolerance(Op op, DType dtype, double got, double exact, double dy,
                                      double y, double aux) {
  if (op != Op::kSoftmaxBackward) return LogSoftmaxWithinTolerance(dtype, got, exact, dy, y, aux);
  const double f32_bound = kTwoPowMinus21 * (std::fabs(dy) * std::fabs(y) + std::fabs(y) * aux) +
                           4.0 * UlpOf(DType::kFloat32, exact);
  return Within(dtype, got, exact, f32_bound);
}

}  // namespace test
}  // namespace hostnn
