// COMPLEX64 and COMPLEX128 inputs of aclnnSigmoid, aclnnInplaceSigmoid and
// aclnnSigmoidBackward through the C API (ops-nn's case_14, case_15, case_18): their op_api
// lists the complex dtypes, and CANN computes them in complex arithmetic. Checked against a
// long double complex reference of the same formulas (1 / (1 + exp(-z)); dy * y * (1 - y))
// within the formulas' own error bound: 8 ULP of double times the magnitudes their roundings
// scale (the condition near the poles of the sigmoid included; 2^-1020 absolute where
// exp(-z) overflows double), plus half a ULP of each part for a COMPLEX64 out; a real out
// is the real part rounded once. Also C99's limits
// (overflow of exp(-z), NaN and infinite parts), in place, strided views, the promotions
// of SigmoidBackward (a complex promotion only into a complex gradInput), and the
// refusals, with nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

using Cl = std::complex<long double>;
using Cd = std::complex<double>;
constexpr double kEps = 0x1p-53;
const double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::numeric_limits<double>::quiet_NaN();

size_t Bytes(aclDataType t) {
  switch (t) {
    case ACL_COMPLEX128:
      return 16;
    case ACL_COMPLEX64:
    case ACL_DOUBLE:
      return 8;
    case ACL_FLOAT:
      return 4;
    default:
      return 2;
  }
}

// A tensor over host storage: shape, dtype, and an optional transposed view of a 2-D
// shape (strides {1, rows}); the storage's bytes past the view keep a sentinel.
struct Tensor {
  Tensor(aclDataType dt, std::vector<int64_t> shape, bool transposed = false)
      : dtype(dt), shape(std::move(shape)) {
    n = 1;
    for (int64_t d : this->shape) n *= d;
    strides.assign(this->shape.size(), 1);
    for (int i = static_cast<int>(this->shape.size()) - 2; i >= 0; --i)
      strides[i] = strides[i + 1] * this->shape[i + 1];
    if (transposed && this->shape.size() == 2) strides = {1, this->shape[0]};
    bytes.assign(static_cast<size_t>(n) * Bytes(dt), 0x5A);
    t = aclCreateTensor(this->shape.data(), this->shape.size(), dt, strides.data(), 0,
                        ACL_FORMAT_ND, &n, 1, bytes.data());
  }
  ~Tensor() { aclDestroyTensor(t); }
  // The storage index of row-major element i.
  int64_t At(int64_t i) const {
    int64_t at = 0;
    for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
      at += (i % shape[d]) * strides[d];
      i /= shape[d];
    }
    return at;
  }
  void Set(int64_t i, Cd v) {
    char* p = reinterpret_cast<char*>(bytes.data()) + At(i) * Bytes(dtype);
    if (dtype == ACL_COMPLEX128) {
      std::memcpy(p, &v, 16);
    } else if (dtype == ACL_COMPLEX64) {
      const std::complex<float> f(static_cast<float>(v.real()), static_cast<float>(v.imag()));
      std::memcpy(p, &f, 8);
    } else if (dtype == ACL_DOUBLE) {
      const double d = v.real();
      std::memcpy(p, &d, 8);
    } else if (dtype == ACL_FLOAT16 || dtype == ACL_BF16) {
      const uint16_t h =
          dtype == ACL_FLOAT16 ? test::DoubleToF16(v.real()) : test::DoubleToBF16(v.real());
      std::memcpy(p, &h, 2);
    } else {
      const float f = static_cast<float>(v.real());
      std::memcpy(p, &f, 4);
    }
  }
  // The value as stored (what the operator reads), as a complex<double>.
  Cd Get(int64_t i) const {
    const char* p = reinterpret_cast<const char*>(bytes.data()) + At(i) * Bytes(dtype);
    switch (dtype) {
      case ACL_COMPLEX128: {
        Cd v;
        std::memcpy(&v, p, 16);
        return v;
      }
      case ACL_COMPLEX64: {
        std::complex<float> f;
        std::memcpy(&f, p, 8);
        return Cd(f.real(), f.imag());
      }
      case ACL_DOUBLE: {
        double d;
        std::memcpy(&d, p, 8);
        return Cd(d, 0.0);
      }
      case ACL_FLOAT: {
        float f;
        std::memcpy(&f, p, 4);
        return Cd(f, 0.0);
      }
      case ACL_FLOAT16: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return Cd(test::F16ToDouble(h), 0.0);
      }
      default: {
        uint16_t h;
        std::memcpy(&h, p, 2);
        return Cd(test::BF16ToDouble(h), 0.0);
      }
    }
  }
  aclDataType dtype;
  std::vector<int64_t> shape, strides;
  int64_t n = 0;
  std::vector<uint8_t> bytes;
  aclTensor* t = nullptr;
};

aclnnStatus Run(aclnnStatus phase1, const uint64_t* ws, aclOpExecutor* const* exec,
                aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  if (phase1 != ACLNN_SUCCESS) return phase1;
  std::vector<uint64_t> workspace(static_cast<size_t>((*ws + 7) / 8));
  return phase2(*ws ? workspace.data() : nullptr, *ws, *exec, nullptr);
}
aclnnStatus Sigmoid(Tensor& x, Tensor& out) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  if (&x == &out) {
    return Run(aclnnInplaceSigmoidGetWorkspaceSize(x.t, &ws, &e), &ws, &e, aclnnInplaceSigmoid);
  }
  return Run(aclnnSigmoidGetWorkspaceSize(x.t, out.t, &ws, &e), &ws, &e, aclnnSigmoid);
}
aclnnStatus SigmoidBackward(Tensor& dy, Tensor& y, Tensor& out) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return Run(aclnnSigmoidBackwardGetWorkspaceSize(dy.t, y.t, out.t, &ws, &e), &ws, &e,
             aclnnSigmoidBackward);
}

bool IsNaN(Cd v) { return std::isnan(v.real()) || std::isnan(v.imag()); }

// Whether got is within bound (normwise) of exact, half a float ULP of each part more for a
// COMPLEX64 out; NaN where exact is NaN; an exact part beyond the out's range its infinity.
bool Within(aclDataType out, Cd got, Cl exact, long double bound) {
  if (std::isnan(exact.real()) || std::isnan(exact.imag())) return IsNaN(got);
  if (IsNaN(got)) return false;
  if (out == ACL_COMPLEX64) {
    bound += 0x1p-24L * (std::fabs(exact.real()) + std::fabs(exact.imag())) + 0x1p-149L;
  }
  const long double dr = static_cast<long double>(got.real()) - exact.real();
  const long double di = static_cast<long double>(got.imag()) - exact.imag();
  return std::sqrt(dr * dr + di * di) <= bound + 0x1p-1070L;
}

// Sigmoid's reference, and its bound: exp(-z) (relative eps), 1 + w (eps (1 + |w|)),
// then the division (3 eps |s|): |s|^2 (1 + |w|) scales the middle rounding, the
// condition that grows near the poles z = i pi (2k + 1). Where exp(-z) overflows double
// (Re z < -709.78) the formula gives 0 for an |s| below 2^-1020: that much absolute.
Cl SigmoidRef(Cd z, long double* bound) {
  const Cl w = std::exp(-Cl(z.real(), z.imag()));
  const Cl s = 1.0L / (1.0L + w);
  const long double sw = std::isfinite(std::abs(w)) ? std::abs(s) * (1 + std::abs(w)) : 1.0L;
  *bound = 8 * kEps * std::abs(s) * (1 + std::abs(s) * sw) + 0x1p-1020L;
  return s;
}

// Self's values: random points of a box around the origin, and C99's edges.
std::vector<Cd> SelfValues(std::mt19937_64& rng, int n) {
  std::vector<Cd> v = {{0, 0},      {-0.0, 0},   {0, M_PI}, {0, -M_PI},  {0, 3 * M_PI},
                       {-800, 0},   {-800, 2},   {800, -3}, {-709.5, 3}, {-745, 1},
                       {1e-310, 0}, {0, 1e-310}, {0, 1e10}, {kInf, 0},   {-kInf, 0},
                       {0, kInf},   {kNaN, 0},   {0, kNaN}, {1, 1},      {-1, -1}};
  std::uniform_real_distribution<double> u(-30, 30), w(-1000, 1000);
  while (static_cast<int>(v.size()) < n)
    v.push_back(rng() % 4 ? Cd(u(rng), u(rng)) : Cd(w(rng), u(rng)));
  return v;
}

TEST(ComplexSigmoid, ComplexSelfIntoComplexOut) {
  std::mt19937_64 rng(0x5EEDC001);
  const std::vector<Cd> values = SelfValues(rng, 600);
  const int64_t n = static_cast<int64_t>(values.size());
  for (aclDataType in_t : {ACL_COMPLEX128, ACL_COMPLEX64}) {
    for (aclDataType out_t : {ACL_COMPLEX128, ACL_COMPLEX64}) {
      for (bool transposed : {false, true}) {
        SCOPED_TRACE(std::to_string(in_t) + " -> " + std::to_string(out_t) +
                     (transposed ? " transposed" : ""));
        Tensor x(in_t, {20, n / 20}, transposed), out(out_t, {20, n / 20}, !transposed);
        for (int64_t i = 0; i < n; ++i) x.Set(i, values[i]);
        ASSERT_EQ(Sigmoid(x, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        int bad = 0;
        for (int64_t i = 0; i < n; ++i) {
          long double bound;
          const Cl exact = SigmoidRef(x.Get(i), &bound);
          const Cd got = out.Get(i);
          if (Within(out_t, got, exact, bound)) continue;
          if (++bad <= 10) {
            ADD_FAILURE() << "z = " << x.Get(i) << ": got " << got << ", exact ("
                          << static_cast<double>(exact.real()) << ","
                          << static_cast<double>(exact.imag()) << ")";
          }
        }
        EXPECT_EQ(bad, 0);
      }
    }
  }
}

// C99's limits, element by element: exp(-z) overflowing gives 0, underflowing 1, NaN and
// an infinite imaginary part NaN.
TEST(ComplexSigmoid, Limits) {
  const Cd z[] = {{-800, 0}, {-800, 2}, {800, -3}, {0, kInf}, {kNaN, 0}, {0, 0}};
  Tensor x(ACL_COMPLEX128, {6}), out(ACL_COMPLEX128, {6});
  for (int i = 0; i < 6; ++i) x.Set(i, z[i]);
  ASSERT_EQ(Sigmoid(x, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(std::abs(out.Get(0)), 0.0);
  EXPECT_EQ(std::abs(out.Get(1)), 0.0);
  EXPECT_EQ(out.Get(2), Cd(1, 0));
  EXPECT_TRUE(IsNaN(out.Get(3)));
  EXPECT_TRUE(IsNaN(out.Get(4)));
  EXPECT_EQ(out.Get(5), Cd(0.5, 0));
}

// A complex self into a real out: the real part of the complex result, rounded once (CANN's
// Cast of a complex to a real dtype); the bits of the COMPLEX128 call's real part.
TEST(ComplexSigmoid, ComplexSelfIntoRealOutIsTheRealPart) {
  std::mt19937_64 rng(0x5EEDC002);
  const std::vector<Cd> values = SelfValues(rng, 200);
  const int64_t n = static_cast<int64_t>(values.size());
  for (aclDataType in_t : {ACL_COMPLEX128, ACL_COMPLEX64}) {
    Tensor x(in_t, {n}), wide(ACL_COMPLEX128, {n});
    for (int64_t i = 0; i < n; ++i) x.Set(i, values[i]);
    ASSERT_EQ(Sigmoid(x, wide), ACLNN_SUCCESS);
    for (aclDataType out_t : {ACL_DOUBLE, ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(std::to_string(in_t) + " -> " + std::to_string(out_t));
      Tensor out(out_t, {n});
      ASSERT_EQ(Sigmoid(x, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < n; ++i) {
        const double re = wide.Get(i).real();
        const double want = out_t == ACL_DOUBLE    ? re
                            : out_t == ACL_FLOAT   ? static_cast<double>(static_cast<float>(re))
                            : out_t == ACL_FLOAT16 ? test::F16ToDouble(test::DoubleToF16(re))
                                                   : test::BF16ToDouble(test::DoubleToBF16(re));
        const double got = out.Get(i).real();
        EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
            << "z = " << x.Get(i) << ": got " << got << ", want " << want;
      }
    }
  }
}

TEST(ComplexSigmoid, InPlaceGivesTheOutOfPlaceBits) {
  std::mt19937_64 rng(0x5EEDC003);
  const std::vector<Cd> values = SelfValues(rng, 100);
  const int64_t n = static_cast<int64_t>(values.size());
  for (aclDataType t : {ACL_COMPLEX128, ACL_COMPLEX64}) {
    Tensor x(t, {n}), out(t, {n});
    for (int64_t i = 0; i < n; ++i) x.Set(i, values[i]);
    ASSERT_EQ(Sigmoid(x, out), ACLNN_SUCCESS);
    ASSERT_EQ(Sigmoid(x, x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(x.bytes, out.bytes);
  }
}

// dy * y * (1 - y) in the promotion of the two dtypes, cast to gradInput: a complex
// promotion into a complex gradInput, COMPLEX64 with DOUBLE giving COMPLEX128; gradOutput
// broadcast along a dim.
TEST(ComplexSigmoid, BackwardPromotionsAndBroadcast) {
  struct Case {
    aclDataType dy, y, out;
  };
  const Case cases[] = {{ACL_COMPLEX128, ACL_COMPLEX128, ACL_COMPLEX128},
                        {ACL_COMPLEX64, ACL_COMPLEX64, ACL_COMPLEX64},
                        {ACL_FLOAT, ACL_COMPLEX64, ACL_COMPLEX64},
                        {ACL_COMPLEX64, ACL_DOUBLE, ACL_COMPLEX128},
                        {ACL_COMPLEX64, ACL_FLOAT16, ACL_COMPLEX128},
                        {ACL_COMPLEX128, ACL_BF16, ACL_COMPLEX64}};
  std::mt19937_64 rng(0x5EEDC004);
  std::uniform_real_distribution<double> u(-3, 3);
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(c.dy) + ", " + std::to_string(c.y) + " -> " +
                 std::to_string(c.out));
    Tensor dy(c.dy, {8, 1}), y(c.y, {8, 30}), out(c.out, {8, 30}, true);
    for (int64_t i = 0; i < dy.n; ++i) dy.Set(i, Cd(u(rng), u(rng)));
    for (int64_t i = 0; i < y.n; ++i) y.Set(i, Cd(u(rng), u(rng)));
    ASSERT_EQ(SigmoidBackward(dy, y, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (int64_t i = 0; i < out.n; ++i) {
      const Cd g = dy.Get(i / 30), v = y.Get(i);
      const Cl gl(g.real(), g.imag()), vl(v.real(), v.imag());
      const Cl exact = gl * vl * (1.0L - vl);
      const long double bound = 8 * kEps * std::abs(gl) * std::abs(vl) * (1 + std::abs(vl));
      EXPECT_TRUE(Within(c.out, out.Get(i), exact, bound))
          << "dy " << g << ", y " << v << ": got " << out.Get(i);
    }
  }
}

// Refused, with nothing written: a complex promotion into a real gradInput (CanCast), and
// a complex self into an integer out (Sigmoid's out list). The operators whose lists have
// no complex input refuse one in complex_out_test.
TEST(ComplexSigmoid, Refusals) {
  for (aclDataType real : {ACL_FLOAT, ACL_DOUBLE, ACL_FLOAT16}) {
    Tensor dy(ACL_COMPLEX64, {4}), y(ACL_FLOAT, {4}), out(real, {4});
    const std::vector<uint8_t> before = out.bytes;
    EXPECT_EQ(SigmoidBackward(dy, y, out), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradInput"), std::string::npos)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.bytes, before);
  }
  Tensor x(ACL_COMPLEX64, {4}), out(ACL_INT32, {4});
  const std::vector<uint8_t> before = out.bytes;
  EXPECT_EQ(Sigmoid(x, out), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(out.bytes, before);
}

}  // namespace
}  // namespace hostnn
