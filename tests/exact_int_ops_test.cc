// Integer dtypes computed exactly, through the CANN C API, for every operator of the list
// whose dtype rule is AllSameOrExactInt (ops-nn: Relu and InplaceRelu take INT8, UINT8,
// INT32 and INT64): the functor runs in the integer's own lanes, so results keep every bit
// (an INT64 past 2^53, an INT32 past 2^24). Checked against the operator's double
// reference on every SIMD target, dense, strided and in place, with the refusals.

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hostnn/op.h"
#include "kernels/kernels.h"
#include "tests/reference/forward_reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {
namespace {

std::vector<Op> ExactIntOps() { return OpsWhereRule(AdmitsExactInt); }

template <typename T>
struct IntType;
template <>
struct IntType<int8_t> {
  static constexpr aclDataType kAcl = ACL_INT8;
};
template <>
struct IntType<uint8_t> {
  static constexpr aclDataType kAcl = ACL_UINT8;
};
template <>
struct IntType<int32_t> {
  static constexpr aclDataType kAcl = ACL_INT32;
};
template <>
struct IntType<int64_t> {
  static constexpr aclDataType kAcl = ACL_INT64;
};

// The reference where a double holds the integer and the result exactly (|x| <= 2^53); the
// caller checks larger magnitudes separately.
template <typename T>
bool RefExact(Op op, T x, T* want) {
  const double r = ForwardEltwiseRef(op, static_cast<double>(x));
  if (static_cast<double>(x) > 9007199254740992.0 || static_cast<double>(x) < -9007199254740992.0)
    return false;
  *want = static_cast<T>(r);
  return true;
}

// Every small value, the type's extremes and random values of every magnitude.
template <typename T>
std::vector<T> Inputs(size_t n_random) {
  std::vector<T> v;
  for (int x = -40; x <= 40; ++x) {
    if (x >= static_cast<int>(std::numeric_limits<T>::min()) || sizeof(T) > 1) {
      v.push_back(static_cast<T>(x));
    }
  }
  const T lim[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(),
                   static_cast<T>(std::numeric_limits<T>::min() + 1),
                   static_cast<T>(std::numeric_limits<T>::max() - 1)};
  v.insert(v.end(), std::begin(lim), std::end(lim));
  std::mt19937_64 rng(0x1E7AC7);
  for (size_t i = 0; i < n_random; ++i) {
    const int shift = static_cast<int>(rng() % (8 * sizeof(T)));
    v.push_back(static_cast<T>(static_cast<T>(rng()) >> shift));
  }
  return v;
}

template <typename T>
void ExpectDenseOnEveryTarget(Op op) {
  const std::vector<T> x = Inputs<T>(50000);
  const int64_t n = static_cast<int64_t>(x.size());
  for (int64_t target : kernels::AvailableTargets()) {
    kernels::ForceTarget(target);
    SCOPED_TRACE(kernels::TargetName(target));
    std::vector<T> in = x, out(x.size(), T(7));
    TensorPtr tx = MakeDense(in.data(), IntType<T>::kAcl, {n}),
              tout = MakeDense(out.data(), IntType<T>::kAcl, {n});
    ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<T>& got = GetCApiOp(op).in_place() ? in : out;
    int bad = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      T want;
      if (!RefExact(op, x[i], &want)) continue;
      if (got[i] != want && ++bad <= 8) {
        ADD_FAILURE() << "x = " << +x[i] << ": got " << +got[i] << ", expected " << +want;
      }
    }
    EXPECT_EQ(bad, 0);
  }
  kernels::ForceTarget(0);
}

// A transposed self (gathered as is) and, unless in place, an out written with stride 2.
template <typename T>
void ExpectStrided(Op op) {
  const int64_t rows = 37, cols = 53;
  std::vector<T> storage = Inputs<T>(rows * cols);
  storage.resize(rows * cols);
  const std::vector<T> before = storage;
  TensorPtr tx =
      MakeTensor(storage.data(), IntType<T>::kAcl, {rows, cols}, {1, rows}, 0, {cols, rows});
  std::vector<T> out(2 * rows * cols, T(7));
  TensorPtr tout =
      MakeTensor(out.data(), IntType<T>::kAcl, {rows, cols}, {2 * cols, 2}, 0, {2 * rows * cols});
  ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const T xi = before[j * rows + i];
      const T got = GetCApiOp(op).in_place() ? storage[j * rows + i] : out[2 * (i * cols + j)];
      T want;
      if (RefExact(op, xi, &want)) ASSERT_EQ(+got, +want) << "x = " << +xi;
      if (!GetCApiOp(op).in_place()) ASSERT_EQ(+out[2 * (i * cols + j) + 1], 7);
    }
  }
}

class ExactIntOpTest : public ::testing::TestWithParam<Op> {};

TEST_P(ExactIntOpTest, DenseOnEveryTarget) {
  ExpectDenseOnEveryTarget<int8_t>(GetParam());
  ExpectDenseOnEveryTarget<uint8_t>(GetParam());
  ExpectDenseOnEveryTarget<int32_t>(GetParam());
  ExpectDenseOnEveryTarget<int64_t>(GetParam());
}

TEST_P(ExactIntOpTest, StridedOperands) {
  ExpectStrided<int8_t>(GetParam());
  ExpectStrided<uint8_t>(GetParam());
  ExpectStrided<int32_t>(GetParam());
  ExpectStrided<int64_t>(GetParam());
}

// self and out share one dtype; an integer dtype outside the list is refused naming it, and
// nothing is written. (Threshold's rule, ExactIntThenCast, casts its result to out's dtype
// and takes INT16: threshold_cast_test.cc.)
TEST_P(ExactIntOpTest, MixedAndOtherDTypesAreRefused) {
  const Op op = GetParam();
  if (GetOpInfo(op).dtypes == DTypeRule::kExactIntThenCast) {
    GTEST_SKIP() << "casts to out's dtype: threshold_cast_test.cc";
  }
  struct Case {
    aclDataType self, out;
    const char* says;
  };
  const Case cases[] = {{ACL_INT32, ACL_INT64, "expected INT32 like self, got INT64"},
                        {ACL_INT8, ACL_FLOAT, "expected INT8 like self, got FLOAT"},
                        {ACL_INT16, ACL_INT16, "got INT16"},
                        {ACL_UINT32, ACL_UINT32, "got UINT32"}};
  for (const Case& c : cases) {
    if (GetCApiOp(op).in_place() && c.self != c.out) continue;  // one operand
    std::vector<int64_t> x(8, 1), out(8, 99);
    TensorPtr tx = MakeDense(x.data(), c.self, {2, 4}), tout = MakeDense(out.data(), c.out, {2, 4});
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    EXPECT_EQ(GetCApiOp(op).phase1(tx.get(), nullptr, nullptr, tout.get(), 0, &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
    for (int64_t v : out) EXPECT_EQ(v, 99);
  }
}

INSTANTIATE_TEST_SUITE_P(AdmittingExactInt, ExactIntOpTest, ::testing::ValuesIn(ExactIntOps()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(GetOpInfo(info.param).name);
                         });

// Relu past the magnitudes a double or a float holds: every bit of a positive value is
// kept, every negative one gives 0 (a path through f32 would round 2^24 + 1 and 2^62 + 1).
TEST(ExactInt, ReluKeepsEveryBitOfLargeIntegers) {
  std::vector<int64_t> x64 = {(int64_t{1} << 62) + 1, -(int64_t{1} << 62) - 1,
                              std::numeric_limits<int64_t>::max(),
                              std::numeric_limits<int64_t>::min(), (int64_t{1} << 53) + 1},
                       out64(5, 7);
  std::vector<int32_t> x32 = {(1 << 24) + 1, -(1 << 24) - 1, std::numeric_limits<int32_t>::max(),
                              std::numeric_limits<int32_t>::min()},
                       out32(4, 7);
  TensorPtr a = MakeDense(x64.data(), ACL_INT64, {5}), b = MakeDense(out64.data(), ACL_INT64, {5});
  ASSERT_EQ(RunBoth(Op::kRelu, a.get(), b.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (size_t i = 0; i < x64.size(); ++i) EXPECT_EQ(out64[i], x64[i] > 0 ? x64[i] : 0);
  TensorPtr c = MakeDense(x32.data(), ACL_INT32, {4}), d = MakeDense(out32.data(), ACL_INT32, {4});
  ASSERT_EQ(RunBoth(Op::kRelu, c.get(), d.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (size_t i = 0; i < x32.size(); ++i) EXPECT_EQ(out32[i], x32[i] > 0 ? x32[i] : 0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
