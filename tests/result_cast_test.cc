// Results cast to out's dtype (src/exec/result_cast.h):
// - the operators that compute in self's dtype and then cast, as CANN appends a Cast
//   (CastsResultToOut: Selu, Erfinv): every self x out pair the rule takes, strided with
//   offsets. out must hold CANN's Cast of the same-dtype result, the cast written out here
//   in double (a float: one rounding; an integer to a float: one rounding of the integer;
//   a float to an integer: toward zero, saturated, NaN to 0; an integer to an integer:
//   wrapped), and that same-dtype result of a float self is within tolerance of the double
//   reference;
// - SeluBackward's INT8 and INT32 (RoundsIntResults): cast to FLOAT, computed in f32,
//   rounded to nearest even and saturated. INT8 over all 65536 (gradOutput, result) pairs,
//   INT32 over random and extreme values, against a double reference of dy * selu'(y) on the
//   FLOAT-cast inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "tests/reference/forward_reference.h"
#include "tests/util/capi_ops.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace {

using test::TestTensor;

bool IsInt(DType d) { return d == DType::kInt8 || d == DType::kInt32; }

double IntMin(DType d) { return d == DType::kInt8 ? -128.0 : -2147483648.0; }
double IntMax(DType d) { return d == DType::kInt8 ? 127.0 : 2147483647.0; }

// CANN's Cast of v (a value of `from`) to `to`, in double.
double CastRef(DType from, DType to, double v) {
  if (!IsInt(to)) return test::RoundTo(to, v);  // v is exact in double: one rounding
  if (IsInt(from)) {                            // the low bits, two's complement
    const uint64_t u = static_cast<uint64_t>(static_cast<int64_t>(v));
    return to == DType::kInt8 ? static_cast<double>(static_cast<int8_t>(u & 0xFF))
                              : static_cast<double>(static_cast<int32_t>(u & 0xFFFFFFFFu));
  }
  if (std::isnan(v)) return 0.0;
  return std::fmin(std::fmax(std::trunc(v), IntMin(to)), IntMax(to)) + 0.0;  // no -0
}

bool SameValue(double got, double want) {
  if (std::isnan(want)) return std::isnan(got);
  return got == want && std::signbit(got) == std::signbit(want);
}

// Inputs of each operator's interest: both branches, limits, NaN; integers for an integer
// self (the values a float self is stored as are rounded by Set).
std::vector<double> SelfValues(Op op, DType self) {
  if (IsInt(self)) {
    std::vector<double> v = {0, 1, -1, 2, -2, 59, 121, 122, 127, -128};
    if (self == DType::kInt32) {
      for (double w : {16777217.0, 2000000000.0, -2000000000.0, 2147483647.0, -2147483648.0,
                       70000.0, 65504.0, -300.0})
        v.push_back(w);
    }
    return v;
  }
  const double inf = std::numeric_limits<double>::infinity();
  if (op == Op::kErfinv) {
    return {-1.0, -0.999, -0.5, -0.0, 0.0, 0.25, 0.7, 0.9999, 1.0, 2.0, -inf, std::nan("")};
  }
  return {-inf, -130.0, -3.7,   -1.0,   -0.5,  -0.0, 0.0,  0.3,  1.0, 2.5, 59.0,
          121.9, 122.0, 127.5, 3000.0, 1e6, 3e9, 1e38, inf, std::nan("")};
}

std::vector<DType> OutDTypes(Op op) {
  if (GetOpInfo(op).dtypes == DTypeRule::kInt32Int8ThenCast) {
    return {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt32, DType::kInt8};
  }
  std::vector<DType> v;
  for (DType t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    if (TakesComputeType(GetOpInfo(op).dtypes, t)) v.push_back(t);  // Shrink: no BFLOAT16
  }
  return v;
}

std::vector<Op> CastingOps() {
  std::vector<Op> ops;
  for (Op op : test::OpsWhereRule(CastsResultToOut)) {
    if (!IsInplace(GetOpInfo(op).signature)) ops.push_back(op);  // one operand
  }
  return ops;
}

// self strided with an offset, out strided the other way: out is the cast of the
// same-dtype result, element by element.
TEST(CastsResultToOut, EverySelfOutPairIsTheCastOfTheSameDTypeResult) {
  ASSERT_FALSE(CastingOps().empty());
  for (Op op : CastingOps()) {
    for (DType self : OutDTypes(op)) {
      const std::vector<double> xs = SelfValues(op, self);
      const int64_t n = static_cast<int64_t>(xs.size());
      TestTensor x = TestTensor::Strided(self, {n}, {3}, 2, {3 * n + 2});
      for (int64_t i = 0; i < n; ++i) x.Set(i, xs[i]);
      TestTensor same = TestTensor::Dense(self, {n});
      test::RunChecked(op, x, x, same);
      for (int64_t i = 0; i < n && !IsInt(self); ++i) {
        const double exact = test::ForwardEltwiseRef(op, x.Get(i));
        EXPECT_TRUE(test::ForwardEltwiseWithinTolerance(self, same.Get(i), exact))
            << GetOpInfo(op).name << " " << DTypeName(self) << " x " << test::Num(x.Get(i))
            << ": got " << test::Num(same.Get(i)) << ", exact " << test::Num(exact);
      }
      for (DType out : OutDTypes(op)) {
        if (out == self) continue;
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(self) + " -> " +
                     DTypeName(out));
        TestTensor o = TestTensor::Strided(out, {n}, {2}, 1, {2 * n + 1});
        test::RunChecked(op, x, x, o);
        for (int64_t i = 0; i < n; ++i) {
          const double want = CastRef(self, out, same.Get(i));
          EXPECT_TRUE(SameValue(o.Get(i), want))
              << "x " << test::Num(x.Get(i)) << ": same-dtype result " << test::Num(same.Get(i))
              << ", cast " << test::Num(want) << ", got " << test::Num(o.Get(i));
        }
      }
    }
  }
}

// A self or out the rule does not take is refused naming it, and nothing is written.
TEST(CastsResultToOut, OtherDTypesAreRefused) {
  for (Op op : CastingOps()) {
    for (DType bad : {DType::kInt64, DType::kUInt8, DType::kFloat64, DType::kBool}) {
      if (bad == DType::kFloat64 && OutTakesDouble(op)) continue;  // tests/double_test.cc
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " out " + DTypeName(bad));
      TestTensor x = TestTensor::Dense(DType::kFloat32, {4});
      TestTensor o = TestTensor::Dense(bad, {4});
      o.storage().FillBytes(0x5A);
      const std::vector<uint8_t> before = o.storage().Snapshot();
      const test::RunResult r = test::RunOp(test::MakeArgs(op, x, x, o));
      EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
      EXPECT_NE(r.status.message().find("out"), std::string::npos) << r.status.message();
      EXPECT_EQ(o.storage().Snapshot(), before) << "written on failure";
    }
  }
}

// ---- SeluBackward's integers ------------------------------------------------------------

constexpr double kScale = 1.0507009873554804934193349852946;
constexpr double kScaleAlpha = 1.0507009873554804934193349852946 * 1.6732632423543772848170429916717;

double RintSat(double v, DType d) {
  return std::fmin(std::fmax(std::nearbyint(v), IntMin(d)), IntMax(d));
}

// dy * selu'(y) on the inputs cast to FLOAT, rounded to nearest even and saturated, from
// an f32 value within 2^-21 of the exact one (the f32 kernel's 4 ULP): any integer between
// the roundings of the two ends.
bool SeluGradIntOk(DType d, double dy, double y, double got, double* exact) {
  const double fdy = test::RoundTo(DType::kFloat32, dy), fy = test::RoundTo(DType::kFloat32, y);
  *exact = fdy * (fy > 0 ? kScale : fy + kScaleAlpha);
  const double slack = std::fabs(*exact) * 0x1p-21;
  return got == std::nearbyint(got) && got >= RintSat(*exact - slack, d) &&
         got <= RintSat(*exact + slack, d);
}

std::vector<Op> RoundingOps() { return test::OpsWhereRule(RoundsIntResults); }

TEST(RoundsIntResults, SeluBackwardInt8EveryPair) {
  ASSERT_FALSE(RoundingOps().empty());
  for (Op op : RoundingOps()) {
    TestTensor dy = TestTensor::Dense(DType::kInt8, {256, 256});
    TestTensor y = TestTensor::Strided(DType::kInt8, {256, 256}, {1, 256}, 3, {65536 + 3});
    TestTensor o = TestTensor::Dense(DType::kInt8, {256, 256});
    for (int64_t i = 0; i < 65536; ++i) {
      dy.Set(i, static_cast<double>(i / 256 - 128));
      y.Set(i, static_cast<double>(i % 256 - 128));
    }
    test::RunChecked(op, dy, y, o);
    int64_t bad = 0;
    for (int64_t i = 0; i < 65536; ++i) {
      double exact = 0;
      if (!SeluGradIntOk(DType::kInt8, dy.Get(i), y.Get(i), o.Get(i), &exact) && ++bad <= 5) {
        ADD_FAILURE() << GetOpInfo(op).name << " INT8 dy " << dy.Get(i) << " y " << y.Get(i)
                      << ": got " << o.Get(i) << ", exact " << test::Num(exact);
      }
    }
    EXPECT_EQ(bad, 0);
  }
}

TEST(RoundsIntResults, SeluBackwardInt32RandomAndExtremes) {
  for (Op op : RoundingOps()) {
    std::vector<double> dys = {0, 1, -1, 7, -3, 1000, 2147483647.0, -2147483648.0, 16777217.0};
    std::vector<double> ys = {0, 1, -1, -2, 5, -2147483648.0, 2147483647.0, 16777217.0, -7};
    std::mt19937_64 rng(11);
    std::uniform_int_distribution<int32_t> small(-1000, 1000), any(INT32_MIN, INT32_MAX);
    for (int i = 0; i < 2000; ++i) {
      dys.push_back(i % 2 ? small(rng) : any(rng));
      ys.push_back(i % 3 ? small(rng) : any(rng));
    }
    const int64_t n = static_cast<int64_t>(dys.size());  // ys has as many
    TestTensor dy = TestTensor::Dense(DType::kInt32, {n});
    TestTensor y = TestTensor::Strided(DType::kInt32, {n}, {2}, 1, {2 * n + 1});
    TestTensor o = TestTensor::Strided(DType::kInt32, {n}, {2}, 0, {2 * n});
    for (int64_t i = 0; i < n; ++i) {
      dy.Set(i, dys[i]);
      y.Set(i, ys[(i * 7) % n]);
    }
    test::RunChecked(op, dy, y, o);
    for (int64_t i = 0; i < n; ++i) {
      double exact = 0;
      EXPECT_TRUE(SeluGradIntOk(DType::kInt32, dy.Get(i), y.Get(i), o.Get(i), &exact))
          << GetOpInfo(op).name << " INT32 dy " << test::Num(dy.Get(i)) << " y "
          << test::Num(y.Get(i)) << ": got " << test::Num(o.Get(i)) << ", exact "
          << test::Num(exact);
    }
  }
}

// Integers are all of one dtype: INT32 beside INT8 or a float is refused, writing nothing.
TEST(RoundsIntResults, MixedIntegerOperandsAreRefused) {
  for (Op op : RoundingOps()) {
    for (DType other : {DType::kInt8, DType::kFloat32, DType::kInt64}) {
      TestTensor dy = TestTensor::Dense(DType::kInt32, {4});
      TestTensor y = TestTensor::Dense(other, {4});
      TestTensor o = TestTensor::Dense(DType::kInt32, {4});
      o.storage().FillBytes(0x5A);
      const std::vector<uint8_t> before = o.storage().Snapshot();
      const test::RunResult r = test::RunOp(test::MakeArgs(op, dy, y, o));
      EXPECT_EQ(r.status.code(), StatusCode::kInvalid) << DTypeName(other);
      EXPECT_EQ(o.storage().Snapshot(), before) << "written on failure";
    }
  }
}

}  // namespace
}  // namespace hostnn
