// Integer storage through the CANN C API, for every operator of the list whose dtype rule
// admits INT32 (ops-nn: Hardsigmoid and InplaceHardsigmoid list INT32 for self and out):
// the result is computed in f32 and truncated toward zero, as Ascend's kernel casts INT32
// to f32 (round to nearest even), computes, and casts back truncating. Checked against a
// double reference of that definition on every SIMD target, dense, strided and in place,
// with the refusals of mixed dtypes.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
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

// The operators whose rule admits INT32 (forward elementwise ones: one input, self).
std::vector<Op> Int32Ops() { return OpsWhereRule(AdmitsInt32); }

// r truncated toward zero into the int32 range.
int32_t TruncToInt32(double r) {
  r = std::trunc(r);
  if (r >= 2147483647.0) return std::numeric_limits<int32_t>::max();
  if (r <= -2147483648.0) return std::numeric_limits<int32_t>::min();
  return static_cast<int32_t>(r);
}

// The reference: x as the f32 the kernel loads (nearest even), the exact (double) result of
// the operator there, truncated toward zero into the int32 range.
int32_t Int32Ref(Op op, int32_t x) {
  return TruncToInt32(ForwardEltwiseRef(op, static_cast<double>(static_cast<float>(x))));
}

// Whether got is the truncation of a result within the f32 bound (SPEC §4: 4 ULP) of the
// exact one: an f32 result (Selu's scale x for x past 2^24, say) may round across an
// integer the exact value does not reach, and then truncates to its neighbour.
bool Int32Within(Op op, int32_t x, int32_t got) {
  const double r = ForwardEltwiseRef(op, static_cast<double>(static_cast<float>(x)));
  const double slack = 4.0 * UlpOf(DType::kFloat32, r);
  const int32_t lo = TruncToInt32(r - slack), hi = TruncToInt32(r + slack);
  return got >= lo && got <= hi;
}

// Inputs: every integer in [-40, 40], the int32 extremes, f32's rounding boundaries
// around 2^24 and 2^31, and random values of every magnitude.
std::vector<int32_t> Inputs(size_t n_random) {
  std::vector<int32_t> v;
  for (int32_t x = -40; x <= 40; ++x) v.push_back(x);
  const int32_t special[] = {std::numeric_limits<int32_t>::min(),
                             std::numeric_limits<int32_t>::min() + 1,
                             std::numeric_limits<int32_t>::max(),
                             std::numeric_limits<int32_t>::max() - 64,
                             (1 << 24) + 1,
                             -(1 << 24) - 1,
                             1 << 30,
                             -(1 << 30)};
  v.insert(v.end(), std::begin(special), std::end(special));
  std::mt19937_64 rng(0x5EED1032);
  for (size_t i = 0; i < n_random; ++i) {
    const int shift = static_cast<int>(rng() % 32);
    v.push_back(static_cast<int32_t>(static_cast<uint32_t>(rng()) >> shift));
  }
  return v;
}


class Int32OpTest : public ::testing::TestWithParam<Op> {};

// ops-nn's l2_hardsigmoid_test_007: a [2, 4] INT32 self and out are accepted and computed.
TEST_P(Int32OpTest, SmallTensorIsComputed) {
  const Op op = GetParam();
  std::vector<int32_t> x = {-7, -3, 0, 2, 3, 4, 100, -100}, out(8, 12345);
  TensorPtr tx = MakeDense(x.data(), ACL_INT32, {2, 4}),
            tout = MakeDense(out.data(), ACL_INT32, {2, 4});
  const std::vector<int32_t> before = x;
  ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<int32_t>& got = GetCApiOp(op).in_place() ? x : out;
  for (size_t i = 0; i < 8; ++i) {
    EXPECT_TRUE(Int32Within(op, before[i], got[i]))
        << "x = " << before[i] << ": got " << got[i] << ", exact truncated " << Int32Ref(op, before[i]);
  }
}

TEST_P(Int32OpTest, DenseOnEveryTarget) {
  const Op op = GetParam();
  const std::vector<int32_t> x = Inputs(200000);
  const int64_t n = static_cast<int64_t>(x.size());
  for (int64_t target : kernels::AvailableTargets()) {
    kernels::ForceTarget(target);
    SCOPED_TRACE(kernels::TargetName(target));
    std::vector<int32_t> in = x, out(x.size(), 12345);
    TensorPtr tx = MakeDense(in.data(), ACL_INT32, {n}),
              tout = MakeDense(out.data(), ACL_INT32, {n});
    ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<int32_t>& got = GetCApiOp(op).in_place() ? in : out;
    int bad = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (!Int32Within(op, x[i], got[i]) && ++bad <= 8) {
        ADD_FAILURE() << "x = " << x[i] << ": got " << got[i] << ", exact truncated "
                      << Int32Ref(op, x[i]);
      }
    }
    EXPECT_EQ(bad, 0);
  }
  kernels::ForceTarget(0);
}

// A transposed self (gathered through f32 scratch) and, unless in place, an out written
// with stride 2: the same values as the dense path.
TEST_P(Int32OpTest, StridedOperands) {
  const Op op = GetParam();
  const int64_t rows = 37, cols = 53;
  const std::vector<int32_t> x = Inputs(rows * cols);
  std::vector<int32_t> storage(x.begin(), x.begin() + rows * cols);  // [cols, rows] storage
  TensorPtr tx = MakeTensor(storage.data(), ACL_INT32, {rows, cols}, {1, rows}, 0, {cols, rows});
  std::vector<int32_t> out(2 * rows * cols, 777);
  TensorPtr tout =
      MakeTensor(out.data(), ACL_INT32, {rows, cols}, {2 * cols, 2}, 0, {2 * rows * cols});
  const std::vector<int32_t> before = storage;
  ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const int32_t xi = before[j * rows + i];
      const int32_t got =
          GetCApiOp(op).in_place() ? storage[j * rows + i] : out[2 * (i * cols + j)];
      ASSERT_TRUE(Int32Within(op, xi, got)) << "(" << i << ", " << j << ") x = " << xi << ": got "
                                            << got << ", exact truncated " << Int32Ref(op, xi);
      if (!GetCApiOp(op).in_place()) ASSERT_EQ(out[2 * (i * cols + j) + 1], 777);
    }
  }
}

TEST_P(Int32OpTest, InPlaceAndEmpty) {
  const Op op = GetParam();
  std::vector<int32_t> x = Inputs(5000);
  const std::vector<int32_t> before = x;
  const int64_t n = static_cast<int64_t>(x.size());
  TensorPtr t = MakeDense(x.data(), ACL_INT32, {n});
  ASSERT_EQ(RunBoth(op, t.get(), t.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_TRUE(Int32Within(op, before[i], x[i])) << before[i] << ": got " << x[i];
  }
  int32_t dummy = 5;
  TensorPtr e = MakeTensor(&dummy, ACL_INT32, {3, 0}, {}, 0, {1});
  EXPECT_EQ(RunBoth(op, e.get(), e.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(dummy, 5);
}

// self and out must share one dtype (unless the rule casts the result): INT32 beside a
// float is refused naming both, other integer dtypes are refused naming the list, and
// nothing is written.
TEST_P(Int32OpTest, MixedAndOtherIntegerDTypesAreRefused) {
  const Op op = GetParam();
  if (GetCApiOp(op).in_place()) GTEST_SKIP() << "one operand";
  struct Case {
    aclDataType self, out;
    const char* says;
  };
  // Selu's rule takes INT8 too (tests/selu_int8_test.cc), and casts its result to any
  // out it takes (tests/result_cast_test.cc): only the dtype outside its list is refused.
  const bool int8 = AdmitsInt8Lanes(GetOpInfo(op).dtypes);
  const bool casts = CastsResultToOut(GetOpInfo(op).dtypes);
  const Case all_cases[] = {
      {ACL_INT32, ACL_FLOAT, "expected INT32 like self, got FLOAT"},
      {ACL_FLOAT16, ACL_INT32, "expected FLOAT16 like self, got INT32"},
      {ACL_INT64, ACL_INT64,
       int8 ? "FLOAT, FLOAT16, BFLOAT16, INT32 or INT8, got INT64"
            : "FLOAT, FLOAT16, BFLOAT16 or INT32, got INT64"},
      {ACL_INT8, ACL_INT32,
       int8 ? "expected INT8 like self, got INT32" : "FLOAT, FLOAT16, BFLOAT16 or INT32, got INT8"}};
  std::vector<Case> cases;
  for (const Case& c : all_cases) {
    if (!casts || c.self == ACL_INT64) cases.push_back(c);
  }
  for (const Case& c : cases) {
    std::vector<int64_t> x(8, 1), out(8, 99);
    TensorPtr tx = MakeDense(x.data(), c.self, {2, 4}), tout = MakeDense(out.data(), c.out, {2, 4});
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    EXPECT_EQ(GetCApiOp(op).phase1(tx.get(), nullptr, nullptr, tout.get(), 0, &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find(c.says), std::string::npos) << msg;
    EXPECT_NE(msg.find(GetOpInfo(op).name), std::string::npos) << msg;
    for (int64_t v : out) EXPECT_EQ(v, 99);
  }
}

INSTANTIATE_TEST_SUITE_P(AdmittingInt32, Int32OpTest, ::testing::ValuesIn(Int32Ops()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(GetOpInfo(info.param).name);
                         });

// The list holds at least the operators ops-nn documents with INT32.
TEST(Int32Ops, HardsigmoidAndItsInPlaceVariantAdmitInt32) {
  EXPECT_TRUE(AdmitsInt32(GetOpInfo(Op::kHardsigmoid).dtypes));
  EXPECT_TRUE(AdmitsInt32(GetOpInfo(Op::kInplaceHardsigmoid).dtypes));
  EXPECT_FALSE(AdmitsInt32(GetOpInfo(Op::kSilu).dtypes));
}

}  // namespace
}  // namespace test
}  // namespace hostnn
