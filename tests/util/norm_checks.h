// What the normalisation suites share (tests/*norm*_test.cc): the f32 ULP, the bound of an
// output rounded once from its f32 result, a shape's element count, and a nullable tensor's
// aclTensor.
#ifndef HOSTNN_TESTS_UTIL_NORM_CHECKS_H_
#define HOSTNN_TESTS_UTIL_NORM_CHECKS_H_

#include <cstdint>
#include <vector>

#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {

inline double Ulp32(double v) { return UlpOf(DType::kFloat32, v); }

// The bound of an output of dtype `d` whose f32 bound is `f32_bound`: that plus half an ULP
// of d (the f32 result rounded once).
inline double NormBound(DType d, double exact, double f32_bound) {
  return d == DType::kFloat32 ? f32_bound : f32_bound + 0.5 * UlpOf(d, exact);
}

inline int64_t Numel(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (const int64_t v : s) n *= v;
  return n;
}

// x's shape with gamma's dims 1: the statistics outputs' shape in CANN's documents (RmsNorm's,
// AddRmsNorm's and AddLayerNorm's rstdOut, AddLayerNorm's meanOut).
inline std::vector<int64_t> StatsShape(const std::vector<int64_t>& x, size_t gamma_dims) {
  std::vector<int64_t> s = x;
  for (size_t i = x.size() - gamma_dims; i < x.size(); ++i) s[i] = 1;
  return s;
}

// A trailing-dims norm's x and gamma (its last dims), and the shapes the suites of the
// residual norms (AddRmsNorm, AddLayerNorm) run: rows of 1 to 4099 over gammas of 1 to 3 dims.
struct TrailingShape {
  std::vector<int64_t> x, gamma;
};
inline const std::vector<TrailingShape>& ResidualNormShapes() {
  static const std::vector<TrailingShape> shapes = {
      {{2, 16}, {16}},       {{4, 8}, {8}},       {{3, 5}, {5}},
      {{2, 3, 17}, {3, 17}}, {{7, 1}, {1}},       {{9}, {9}},
      {{3, 1000}, {1000}},   {{2, 4099}, {4099}}, {{2, 2, 3, 4}, {2, 3, 4}},
      {{37, 64}, {64}}};
  return shapes;
}

// A null HostTensor pointer passes a null aclTensor.
inline const aclTensor* Acl(HostTensor* t) { return t == nullptr ? nullptr : t->acl(); }

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_NORM_CHECKS_H_
