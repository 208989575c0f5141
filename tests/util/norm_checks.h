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

// A null HostTensor pointer passes a null aclTensor.
inline const aclTensor* Acl(HostTensor* t) { return t == nullptr ? nullptr : t->acl(); }

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_NORM_CHECKS_H_
