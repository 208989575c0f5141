// INT8 storage through the CANN C API for the operators whose rule is Int32Int8ThenCast
// (Selu, InplaceSelu): every int8 value against a double reference of CANN's definition
// (its kernel computes in half precision and converts as numpy's astype(int8) does):
// x >= 0 gives trunc(x * 1.05078125), FLOAT16's nearest scale, wrapped into int8; x < 0
// gives ceil(scale alpha (e^x - 1)). Dense on every SIMD target at every tail length,
// strided, and in place.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hostnn/op.h"
#include "kernels/kernels.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {
namespace {

std::vector<Op> Int8LaneOps() { return OpsWhereRule(AdmitsInt8Lanes); }

// CANN's Selu of an int8, in double: the positive branch's product truncated and wrapped
// modulo 256 (numpy's astype), the negative branch rounded up.
int8_t SeluInt8Ref(int x) {
  double r;
  if (x >= 0) {
    r = std::trunc(x * 1.05078125);
  } else {
    r = std::ceil((std::exp(static_cast<double>(x)) - 1.0) * 1.75809934085);
  }
  const int w = ((static_cast<int>(r) % 256) + 256) % 256;  // modulo 256, into [0, 256)
  return static_cast<int8_t>(w >= 128 ? w - 256 : w);
}

TEST(SeluInt8Reference, KnownValues) {
  EXPECT_EQ(SeluInt8Ref(0), 0);
  EXPECT_EQ(SeluInt8Ref(59), 61);    // 61.996: truncated, not rounded
  EXPECT_EQ(SeluInt8Ref(121), 127);
  EXPECT_EQ(SeluInt8Ref(122), -128);  // 128.19 wraps
  EXPECT_EQ(SeluInt8Ref(127), -123);
  EXPECT_EQ(SeluInt8Ref(-1), -1);
  EXPECT_EQ(SeluInt8Ref(-128), -1);
}

class Int8LaneOpTest : public ::testing::TestWithParam<Op> {};

// All 256 values in a row of each length 1..80 (every vector tail), on every target.
TEST_P(Int8LaneOpTest, EveryValueAndTailOnEveryTarget) {
  const Op op = GetParam();
  for (int64_t target : kernels::AvailableTargets()) {
    kernels::ForceTarget(target);
    SCOPED_TRACE(kernels::TargetName(target));
    for (int64_t n : {int64_t{256}, int64_t{1}, int64_t{7}, int64_t{33}, int64_t{64},
                      int64_t{80}, int64_t{1000}}) {
      std::vector<int8_t> x(static_cast<size_t>(n)), out(x.size(), 99);
      for (int64_t i = 0; i < n; ++i) x[i] = static_cast<int8_t>((i * 37 + 11) % 256 - 128);
      if (n == 256) {
        for (int64_t i = 0; i < n; ++i) x[i] = static_cast<int8_t>(i - 128);
      }
      const std::vector<int8_t> before = x;
      TensorPtr tx = MakeDense(x.data(), ACL_INT8, {n}), tout = MakeDense(out.data(), ACL_INT8, {n});
      ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<int8_t>& got = GetCApiOp(op).in_place() ? x : out;
      for (int64_t i = 0; i < n; ++i) {
        ASSERT_EQ(got[i], SeluInt8Ref(before[i])) << "n " << n << ", x = " << int{before[i]};
      }
    }
  }
  kernels::ForceTarget(0);
}

// A transposed self and, unless in place, an out with stride 2 (gathered as int8).
TEST_P(Int8LaneOpTest, StridedOperands) {
  const Op op = GetParam();
  const int64_t rows = 16, cols = 16;
  std::vector<int8_t> storage(rows * cols);
  for (int64_t i = 0; i < rows * cols; ++i) storage[i] = static_cast<int8_t>(i - 128);
  const std::vector<int8_t> before = storage;
  TensorPtr tx = MakeTensor(storage.data(), ACL_INT8, {rows, cols}, {1, rows}, 0, {cols, rows});
  std::vector<int8_t> out(2 * rows * cols, 77);
  TensorPtr tout =
      MakeTensor(out.data(), ACL_INT8, {rows, cols}, {2 * cols, 2}, 0, {2 * rows * cols});
  ASSERT_EQ(RunBoth(op, tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) {
      const int8_t xi = before[j * rows + i];
      const int8_t got = GetCApiOp(op).in_place() ? storage[j * rows + i] : out[2 * (i * cols + j)];
      ASSERT_EQ(got, SeluInt8Ref(xi)) << "(" << i << ", " << j << ") x = " << int{xi};
      if (!GetCApiOp(op).in_place()) ASSERT_EQ(out[2 * (i * cols + j) + 1], 77);
    }
  }
}

// self and out one tensor.
TEST_P(Int8LaneOpTest, InPlace) {
  const Op op = GetParam();
  std::vector<int8_t> x(256);
  for (int i = 0; i < 256; ++i) x[i] = static_cast<int8_t>(i - 128);
  const std::vector<int8_t> before = x;
  TensorPtr t = MakeDense(x.data(), ACL_INT8, {256});
  ASSERT_EQ(RunBoth(op, t.get(), t.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int i = 0; i < 256; ++i) ASSERT_EQ(x[i], SeluInt8Ref(before[i])) << int{before[i]};
}

INSTANTIATE_TEST_SUITE_P(AdmittingInt8, Int8LaneOpTest, ::testing::ValuesIn(Int8LaneOps()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(GetOpInfo(info.param).name);
                         });

}  // namespace
}  // namespace test
}  // namespace hostnn
