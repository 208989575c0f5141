// The in-place two-input operators (InplaceAddRelu): selfRef = f(selfRef, other; alpha), other
// broadcast to selfRef. Each is checked against its out-of-place twin (AddRelu, which every
// list-driven suite covers) bit for bit, and against the double reference, on dense,
// broadcast and strided operands of every compute dtype, for several alphas; then the
// refusals of the in-place form: a selfRef that is not the broadcast shape, null operands,
// an other that partly overlaps selfRef. Nothing is written on a refusal.

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add_relu.h"
#include "tests/reference/reference.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace test {
namespace {

struct Pair {
  Op in_place, twin;
};
const Pair kPairs[] = {{Op::kInplaceAddRelu, Op::kAddRelu}};

OpArgs Args(Op op, const TestTensor& self, const TestTensor& other, const TestTensor& out,
            double alpha) {
  OpArgs a = MakeArgs(op, self, other, out);
  a.scalars[0].given = true;
  a.scalars[0].value = alpha;
  return a;
}

class InplaceBinaryTest : public ::testing::TestWithParam<std::tuple<Pair, DType>> {
 protected:
  Pair pair() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
};

TEST_P(InplaceBinaryTest, SameBitsAsTheOutOfPlaceFormAndWithinTolerance) {
  std::mt19937_64 rng(0x5EED0901);
  struct Shapes {
    std::vector<int64_t> self, other;
    Layout layout;
  };
  const Shapes cases[] = {{{4, 257}, {4, 257}, Layout::kDense},
                          {{3, 4, 5}, {3, 1, 5}, Layout::kDense},    // other broadcast
                          {{6, 7}, {7}, Layout::kTransposed},        // strided selfRef
                          {{33, 65}, {33, 65}, Layout::kStride2},
                          {{}, {}, Layout::kDense},                  // 0-d
                          {{2, 3}, {}, Layout::kDense}};             // 0-d other
  for (double alpha : {1.0, 1.2, -0.5, 0.0}) {
    for (const Shapes& c : cases) {
      const std::string what = ShapeText(c.self) + " other " + ShapeText(c.other) + " " +
                               LayoutName(c.layout) + " alpha " + std::to_string(alpha);
      SCOPED_TRACE(what);
      TestTensor self = MakeLayout(c.layout, dtype(), c.self);
      TestTensor other = TestTensor::Dense(dtype(), c.other);
      FillRandom(&self, rng, -4.0, 4.0);
      FillRandom(&other, rng, -4.0, 4.0);
      const std::vector<double> before = self.Values(), vother = other.Values();
      TestTensor twin_out = TestTensor::Dense(dtype(), c.self);
      ASSERT_TRUE(RunOp(Args(pair().twin, self, other, twin_out, alpha)).status.ok());
      const TestTensor unused = TestTensor::Dense(dtype(), {1});
      const RunResult r = RunOp(Args(pair().in_place, self, other, unused, alpha));
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      const int64_t n = self.numel(), m = other.numel();
      const double scalars[] = {alpha};
      for (int64_t i = 0; i < n; ++i) {
        // other's element for selfRef's element i (its trailing dims, broadcast).
        int64_t j = 0;
        if (m > 1) {
          const std::vector<int64_t>& so = c.other;
          int64_t flat = i, stride = 1;
          for (int d = static_cast<int>(c.self.size()) - 1,
                   e = static_cast<int>(so.size()) - 1;
               d >= 0; --d, --e) {
            const int64_t idx = flat % c.self[d];
            flat /= c.self[d];
            if (e >= 0 && so[e] > 1) j += idx * stride;
            if (e >= 0) stride *= so[e];
          }
        }
        ASSERT_EQ(self.Get(i), twin_out.Get(i)) << "element " << i;
        const double exact = EltwiseRef(pair().twin, before[i], vother[j], scalars);
        EXPECT_TRUE(EltwiseWithinTolerance(dtype(), self.Get(i), exact, before[i]))
            << "element " << i << ": got " << self.Get(i) << ", exact " << exact;
      }
    }
  }
}

TEST_P(InplaceBinaryTest, RefusalsWriteNothing) {
  std::mt19937_64 rng(0x5EED0902);
  const TestTensor unused = TestTensor::Dense(dtype(), {1});
  // other broadcasts with selfRef to a shape that is not selfRef's.
  TestTensor self = TestTensor::Dense(dtype(), {3, 1});
  TestTensor other = TestTensor::Dense(dtype(), {3, 4});
  FillRandom(&self, rng, -4.0, 4.0);
  FillRandom(&other, rng, -4.0, 4.0);
  const std::vector<uint8_t> snapshot = self.storage().Snapshot();
  RunResult r = RunOp(Args(pair().in_place, self, other, unused, 1.0));
  EXPECT_EQ(r.status.code(), StatusCode::kInvalid) << r.status.message();
  EXPECT_EQ(self.storage().Snapshot(), snapshot);
  // other lies in selfRef's storage, shifted by one element: a partial overlap.
  TestTensor base = TestTensor::Dense(dtype(), {2, 3});
  FillRandom(&base, rng, -4.0, 4.0);
  TestTensor shifted = base;
  shifted.view().offset = 1;
  shifted.view().shape = {5};
  shifted.view().storage_shape = {6};
  base.view().storage_shape = {6};
  TestTensor flat = base;
  flat.view().shape = {5};
  const std::vector<uint8_t> before = base.storage().Snapshot();
  r = RunOp(Args(pair().in_place, flat, shifted, unused, 1.0));
  EXPECT_EQ(r.status.code(), StatusCode::kInvalid) << r.status.message();
  EXPECT_EQ(base.storage().Snapshot(), before);
  // The very same view as both inputs is in place on both: accepted.
  r = RunOp(Args(pair().in_place, base, base, unused, 2.0));
  EXPECT_TRUE(r.status.ok()) << r.status.message();
}

TEST_P(InplaceBinaryTest, CApiNullsAndEmpty) {
  if (dtype() != DType::kFloat32) GTEST_SKIP() << "dtype-independent";
  std::vector<float> self(6, 1.0f), other(6, 2.0f);
  const std::vector<int64_t> shape = {2, 3}, strides = {3, 1};
  aclTensor* ts = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                  shape.data(), 2, self.data());
  aclTensor* to = aclCreateTensor(shape.data(), 2, ACL_FLOAT, strides.data(), 0, ACL_FORMAT_ND,
                                  shape.data(), 2, other.data());
  double one = 1.0;
  aclScalar* alpha = aclCreateScalar(&one, ACL_DOUBLE);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnInplaceAddReluGetWorkspaceSize(nullptr, to, alpha, &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceAddReluGetWorkspaceSize(ts, nullptr, alpha, &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnInplaceAddReluGetWorkspaceSize(ts, to, nullptr, &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("alpha"), std::string::npos)
      << aclGetRecentErrMsg();
  for (float v : self) EXPECT_EQ(v, 1.0f);
  ASSERT_EQ(aclnnInplaceAddReluGetWorkspaceSize(ts, to, alpha, &ws, &exec), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnInplaceAddRelu(nullptr, ws, exec, nullptr), ACLNN_SUCCESS);
  for (float v : self) EXPECT_EQ(v, 3.0f);
  const std::vector<int64_t> empty = {2, 0}, empty_strides = {0, 1};
  aclTensor* te = aclCreateTensor(empty.data(), 2, ACL_FLOAT, empty_strides.data(), 0,
                                  ACL_FORMAT_ND, empty.data(), 2, self.data());
  ASSERT_EQ(aclnnInplaceAddReluGetWorkspaceSize(te, te, alpha, &ws, &exec), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(aclnnInplaceAddRelu(nullptr, ws, exec, nullptr), ACLNN_SUCCESS);
  aclDestroyTensor(ts);
  aclDestroyTensor(to);
  aclDestroyTensor(te);
  aclDestroyScalar(alpha);
}

INSTANTIATE_TEST_SUITE_P(
    Ops, InplaceBinaryTest,
    ::testing::Combine(::testing::ValuesIn(kPairs), ::testing::ValuesIn(kComputeTypes)),
    [](const ::testing::TestParamInfo<std::tuple<Pair, DType>>& info) {
      return std::string(GetOpInfo(std::get<0>(info.param).in_place).name) + "_" +
             DTypeName(std::get<1>(info.param));
    });

}  // namespace
}  // namespace test
}  // namespace hostnn
