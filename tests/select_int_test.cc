// ThresholdBackward's integer dtypes (rule AllSameOrSelectInt), through the C API as a CANN
// program calls them: gradOutput, self and out all INT32, INT8 or UINT8 give gradOutput's
// value where self's FLOAT value lies above the threshold (one within FLT_EPSILON of 0 taken
// as 0), else 0, every bit of gradOutput kept. Checked on every SIMD target against a
// reference that rounds self to FLOAT and compares in double, with values over each dtype's
// whole range, thresholds between integers, at 2^24 (where FLOAT stops holding every
// INT32), past the INT32 range, infinite and NaN, broadcast, transposed and in place. Then
// the refusals of CANN's op_api: other integer dtypes, mixed dtypes, out's dtype or shape;
// nothing is written on a refusal.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold_backward.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kSelectInts[] = {DType::kInt32, DType::kInt8, DType::kUInt8};

TEST(SelectIntOps, AreThresholdBackward) {
  std::vector<std::string> names;
  for (int i = 0; i < kNumOps; ++i) {
    if (SelectsIntExactly(GetOpInfo(static_cast<Op>(i)).dtypes)) {
      names.push_back(GetOpInfo(static_cast<Op>(i)).name);
    }
  }
  EXPECT_EQ(names, std::vector<std::string>{"ThresholdBackward"});
}

// The reference: dy where float(x) > the threshold as CANN's op_api reads it, else 0.
double ThresholdBackwardIntRef(double dy, double x, double threshold) {
  float t = static_cast<float>(threshold);
  if (std::fabs(t) <= std::numeric_limits<float>::epsilon()) t = 0.0f;
  const double xf = static_cast<double>(static_cast<float>(x));
  return xf <= static_cast<double>(t) ? 0.0 : dy;
}

double Lowest(DType d) {
  return d == DType::kInt32 ? -2147483648.0 : d == DType::kInt8 ? -128.0 : 0.0;
}
double Highest(DType d) {
  return d == DType::kInt32 ? 2147483647.0 : d == DType::kInt8 ? 127.0 : 255.0;
}

// self values that meet each threshold: the dtype's ends, small integers, FLOAT's 2^24
// edge and random ones; those outside the dtype are left out.
std::vector<double> SelfValues(DType d, std::mt19937_64& rng) {
  std::vector<double> v = {Lowest(d),    Lowest(d) + 1, -16777218, -16777217, -16777216,
                           -16777215,    -300,          -129,      -3,        -2,
                           -1,           0,             1,         2,         3,
                           100,          127,           128,       255,       16777215,
                           16777216,     16777217,      16777218,  16777219,  2147483520,
                           2147483583,   2147483584,    Highest(d) - 1, Highest(d)};
  std::uniform_real_distribution<double> any(Lowest(d), Highest(d));
  for (int i = 0; i < 35; ++i) v.push_back(std::floor(any(rng)));
  std::vector<double> in;
  for (double x : v) {
    if (x >= Lowest(d) && x <= Highest(d)) in.push_back(x);
  }
  return in;
}

const double kThresholds[] = {0.0,        1e-8,       -1e-8,       1.0,         -1.0,
                              0.5,        -0.5,       2.5,         100.25,      127.5,
                              16777216.0, 16777217.0, -16777216.0, 2147483647.0, 3e9,
                              -3e9,       1e30,       -1e30,       INFINITY,    -INFINITY,
                              NAN};

// Both phases through the C API; the status of the first that fails.
aclnnStatus RunThresholdBackward(aclTensor* dy, aclTensor* x, double threshold, aclTensor* out) {
  aclScalar* t = aclCreateScalar(&threshold, ACL_DOUBLE);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st = aclnnThresholdBackwardGetWorkspaceSize(dy, x, t, out, &ws, &exec);
  if (st == ACLNN_SUCCESS) {
    std::vector<uint64_t> workspace(static_cast<size_t>((ws + 7) / 8));
    st = aclnnThresholdBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr);
  }
  aclDestroyScalar(t);
  return st;
}

TEST(ThresholdBackwardInt, EveryThresholdOverTheWholeRangeOnEveryTarget) {
  std::mt19937_64 rng(0x5EED0941);
  for (DType d : kSelectInts) {
    const std::vector<double> xs = SelfValues(d, rng);
    const int64_t n = static_cast<int64_t>(xs.size());
    std::uniform_real_distribution<double> any(Lowest(d), Highest(d) + 1);
    std::vector<double> dys(xs.size());
    for (double& dy : dys) dy = std::floor(any(rng));
    dys[0] = Highest(d);
    dys[1] = Lowest(d);
    ForEachTarget([&](int64_t) {
      for (double threshold : kThresholds) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " threshold " + Num(threshold));
        Buffer bdy(d, n), bx(d, n), bout(d, n);
        for (int64_t i = 0; i < n; ++i) {
          bdy.Set(i, dys[i]);
          bx.Set(i, xs[i]);
        }
        bout.FillBytes(0xA5);
        const aclDataType t = static_cast<aclDataType>(d);
        TensorPtr tdy = MakeDense(bdy.data(), t, {n}), tx = MakeDense(bx.data(), t, {n});
        TensorPtr tout = MakeDense(bout.data(), t, {n});
        ASSERT_EQ(RunThresholdBackward(tdy.get(), tx.get(), threshold, tout.get()),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_EQ(bout.Get(i), ThresholdBackwardIntRef(dys[i], xs[i], threshold))
              << "dy " << Num(dys[i]) << ", self " << Num(xs[i]);
        }
      }
    });
  }
}

// gradOutput [2, 1] broadcast to self [2, 3] (ops-nn's case), a transposed self and out,
// and out the very view of gradOutput.
TEST(ThresholdBackwardInt, BroadcastTransposedAndInPlace) {
  for (DType d : kSelectInts) {
    SCOPED_TRACE(DTypeName(d));
    const aclDataType t = static_cast<aclDataType>(d);
    const double lo = Lowest(d) == 0 ? 0 : -5;
    Buffer bdy(d, 2), bx(d, 6), bout(d, 6);
    bdy.Set(0, 7);
    bdy.Set(1, Highest(d));
    for (int64_t i = 0; i < 6; ++i) bx.Set(i, lo + 2 * static_cast<double>(i));  // storage
    bout.FillBytes(0xA5);
    // self and out [2, 3] transposed over [3, 2] storages: element (r, c) at c * 2 + r.
    TensorPtr tdy = MakeDense(bdy.data(), t, {2, 1});
    TensorPtr tx = MakeTensor(bx.data(), t, {2, 3}, {1, 2}, 0, {3, 2});
    TensorPtr tout = MakeTensor(bout.data(), t, {2, 3}, {1, 2}, 0, {3, 2});
    ASSERT_EQ(RunThresholdBackward(tdy.get(), tx.get(), 0.5, tout.get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int64_t r = 0; r < 2; ++r) {
      for (int64_t c = 0; c < 3; ++c) {
        const int64_t at = c * 2 + r;
        EXPECT_EQ(bout.Get(at), ThresholdBackwardIntRef(bdy.Get(r), bx.Get(at), 0.5))
            << "(" << r << ", " << c << ")";
      }
    }
    Buffer idy(d, 6), ix(d, 6);
    for (int64_t i = 0; i < 6; ++i) {
      idy.Set(i, Highest(d) - static_cast<double>(i));
      ix.Set(i, lo + static_cast<double>(i));
    }
    const std::vector<double> before = {idy.Get(0), idy.Get(1), idy.Get(2),
                                        idy.Get(3), idy.Get(4), idy.Get(5)};
    TensorPtr pdy = MakeDense(idy.data(), t, {6}), px = MakeDense(ix.data(), t, {6});
    ASSERT_EQ(RunThresholdBackward(pdy.get(), px.get(), -1.0, pdy.get()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < 6; ++i) {
      EXPECT_EQ(idy.Get(i), ThresholdBackwardIntRef(before[i], ix.Get(i), -1.0)) << i;
    }
  }
}

// Phase 1 refuses with 161002 and writes nothing (neither out nor the out-parameters).
void ExpectRefused(DType dy_t, DType x_t, DType out_t, const std::vector<int64_t>& out_shape) {
  SCOPED_TRACE(std::string(DTypeName(dy_t)) + ", " + DTypeName(x_t) + " -> " +
               DTypeName(out_t));
  Buffer bdy(dy_t, 6), bx(x_t, 6), bout(out_t, 8);
  bout.FillBytes(0xA5);
  const std::vector<uint8_t> before = bout.Snapshot();
  TensorPtr tdy = MakeDense(bdy.data(), static_cast<aclDataType>(dy_t), {2, 3});
  TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(x_t), {2, 3});
  TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), out_shape);
  double zero = 0.0;
  aclScalar* t = aclCreateScalar(&zero, ACL_DOUBLE);
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  EXPECT_EQ(aclnnThresholdBackwardGetWorkspaceSize(tdy.get(), tx.get(), t, tout.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_FALSE(std::string(aclGetRecentErrMsg()).empty());
  EXPECT_EQ(ws, kWsSentinel);
  EXPECT_EQ(exec, ExecSentinel());
  EXPECT_EQ(bout.Snapshot(), before);
  aclDestroyScalar(t);
}

// ops-nn's cases: INT64 (A2's list stops at INT32, INT8, UINT8), INT64 beside INT32, an out
// of [2, 4]; and INT16, BOOL, a float beside an integer, an out of another dtype.
TEST(ThresholdBackwardInt, RefusalsAsCANNsOpApi) {
  ExpectRefused(DType::kInt64, DType::kInt64, DType::kInt64, {2, 3});
  ExpectRefused(DType::kInt64, DType::kInt32, DType::kInt32, {2, 3});
  ExpectRefused(DType::kInt32, DType::kInt32, DType::kInt32, {2, 4});
  ExpectRefused(DType::kInt16, DType::kInt16, DType::kInt16, {2, 3});
  ExpectRefused(DType::kBool, DType::kBool, DType::kBool, {2, 3});
  ExpectRefused(DType::kFloat32, DType::kInt32, DType::kInt32, {2, 3});
  ExpectRefused(DType::kInt8, DType::kInt8, DType::kUInt8, {2, 3});
  ExpectRefused(DType::kInt32, DType::kInt32, DType::kFloat32, {2, 3});
}

// An empty INT32 call (ops-nn's l2_test_empty_tensor) succeeds with no workspace.
TEST(ThresholdBackwardInt, EmptyTensorsSucceed) {
  int32_t storage[1] = {0};
  TensorPtr tdy = MakeDense(storage, ACL_INT32, {2, 0});
  TensorPtr tx = MakeDense(storage, ACL_INT32, {2, 0});
  TensorPtr tout = MakeDense(storage, ACL_INT32, {2, 0});
  double zero = 0.0;
  aclScalar* t = aclCreateScalar(&zero, ACL_DOUBLE);
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnThresholdBackwardGetWorkspaceSize(tdy.get(), tx.get(), t, tout.get(), &ws, &exec),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(aclnnThresholdBackward(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
  aclDestroyScalar(t);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
