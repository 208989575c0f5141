// Prelu: out = self where self > 0, weight[c] * self elsewhere, c the index along dim 1 (a
// 1-element weight for every element). The generic suites cannot build its weight
// (tests/util/capi_ops.h, HasOwnSuite), so this suite covers it through the C API: values of
// every compute dtype on several shapes against the double reference, mixed dtypes
// (computed in f32, rounded once to out's dtype), strided self, weight and out, weights of
// any rank, empty tensors, and every refusal with its status and nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_prelu.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "tests/reference/reference.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Both phases through the C API on the null stream.
aclnnStatus RunPrelu(const aclTensor* self, const aclTensor* weight, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnPreluGetWorkspaceSize(self, weight, out, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnPrelu(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// The weight index of element i of self (row-major): its index along dim 1, or 0.
int64_t Channel(const std::vector<int64_t>& shape, int64_t weights, int64_t i) {
  if (weights == 1 || shape.size() < 2) return 0;
  int64_t inner = 1;
  for (size_t k = 2; k < shape.size(); ++k) inner *= shape[k];
  return (i / inner) % shape[1];
}

// Checks out against the reference: the exact f32 result of the inputs' values (the
// product rounded once to f32, as the kernel computes it), rounded once to out's dtype.
void ExpectPrelu(const HostTensor& self, const HostTensor& weight, const HostTensor& out) {
  const std::vector<double> x = self.Values(), w = weight.Values();
  for (int64_t i = 0; i < self.numel(); ++i) {
    const double wc = w[static_cast<size_t>(Channel(self.shape(), weight.numel(), i))];
    const double xi = x[static_cast<size_t>(i)];
    const double expected = RoundTo(out.dtype(), RoundTo(DType::kFloat32, PreluRef(xi, wc)));
    const double got = out.Get(i);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "element " << i << ": x " << xi << " w " << wc;
    } else {
      ASSERT_EQ(got, expected) << "element " << i << ": x " << xi << " w " << wc;
    }
  }
}

struct ShapeCase {
  std::vector<int64_t> self, weight;
};
const ShapeCase kShapes[] = {
    {{5}, {1}},           {{}, {1}},           {{}, {}},            {{3, 4}, {4}},
    {{3, 4}, {1}},        {{2, 3, 5, 7}, {3}}, {{2, 3, 5, 7}, {1}}, {{2, 19, 37}, {19}},
    {{1, 16, 3, 2, 5}, {16}}, {{2, 6}, {2, 3}},  {{2, 6, 3}, {6, 1}}, {{4, 1, 9}, {1, 1}},
    {{3, 2, 1029}, {2}}};

class PreluDTypeTest : public ::testing::TestWithParam<DType> {};

TEST_P(PreluDTypeTest, ValuesOnEveryShape) {
  const DType t = GetParam();
  std::mt19937_64 rng(0x9E1u);
  for (const ShapeCase& c : kShapes) {
    SCOPED_TRACE(ShapeText(c.self) + " weight " + ShapeText(c.weight));
    HostTensor self(t, c.self), weight(t, c.weight), out(t, c.self);
    self.Fill(rng, -4.0, 4.0);
    weight.Fill(rng, -2.0, 2.0);
    if (self.numel() > 3) {
      self.Set(0, 0.0);
      self.Set(1, -0.0);
      self.Set(2, kNaN);
    }
    ASSERT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ExpectPrelu(self, weight, out);
  }
}

TEST_P(PreluDTypeTest, StridedSelfWeightAndOut) {
  const DType t = GetParam();
  std::mt19937_64 rng(0x9E2u);
  for (Strides ls : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (Strides lw : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const ShapeCase& c : {ShapeCase{{4, 6, 5}, {6}}, ShapeCase{{3, 6, 7}, {2, 3}},
                                 ShapeCase{{5, 4}, {1}}}) {
        SCOPED_TRACE(ShapeText(c.self) + " weight " + ShapeText(c.weight) + " layouts " +
                     std::to_string(static_cast<int>(ls)) + "/" +
                     std::to_string(static_cast<int>(lw)));
        HostTensor self(t, c.self, ls), weight(t, c.weight, lw), out(t, c.self, lw);
        self.Fill(rng, -4.0, 4.0);
        weight.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectPrelu(self, weight, out);
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Prelu, PreluDTypeTest,
                         ::testing::Values(DType::kFloat32, DType::kFloat16, DType::kBFloat16),
                         [](const auto& info) { return std::string(DTypeName(info.param)); });

// self and weight promoted (any pair of the compute dtypes), computed in f32, cast to out.
TEST(Prelu, MixedDTypesPromoteThenCastToOut) {
  const DType types[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  std::mt19937_64 rng(0x9E3u);
  for (DType ts : types) {
    for (DType tw : types) {
      for (DType to : types) {
        SCOPED_TRACE(std::string(DTypeName(ts)) + " " + DTypeName(tw) + " -> " + DTypeName(to));
        HostTensor self(ts, {3, 5, 11}), weight(tw, {5}), out(to, {3, 5, 11});
        self.Fill(rng, -4.0, 4.0);
        weight.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectPrelu(self, weight, out);
      }
    }
  }
}

// ops-nn's example: self [2, 4], weight [1] = {3}.
TEST(Prelu, TheCannExample) {
  HostTensor self(DType::kFloat32, {2, 4}), weight(DType::kFloat32, {1}),
      out(DType::kFloat32, {2, 4});
  const double x[] = {-2, 1, 2, -3, -4.7, 5.3, -6.9, 7};
  for (int i = 0; i < 8; ++i) self.Set(i, x[i]);
  weight.Set(0, 3.0);
  ASSERT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_SUCCESS);
  const float expected[] = {-6, 1, 2, -9, -14.1f, 5.3f, -20.7f, 7};
  for (int i = 0; i < 8; ++i) EXPECT_FLOAT_EQ(out.Get(i), expected[i]) << i;
}

TEST(Prelu, EmptyTensorsSucceedAndWriteNothing) {
  for (const ShapeCase& c : {ShapeCase{{1, 16, 0, 4}, {16}}, ShapeCase{{0}, {1}},
                             ShapeCase{{2, 0, 3}, {1}}, ShapeCase{{2, 0}, {0}}}) {
    SCOPED_TRACE(ShapeText(c.self) + " weight " + ShapeText(c.weight));
    HostTensor self(DType::kFloat32, c.self), weight(DType::kFloat32, c.weight),
        out(DType::kFloat32, c.self);
    const std::vector<uint8_t> before = out.Snapshot();
    EXPECT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(out.Snapshot(), before);
  }
}

struct Refusal {
  const char* what;
  DType ts, tw, to;
  std::vector<int64_t> self, weight, out;
  aclnnStatus status;
};

TEST(Prelu, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16;
  const Refusal cases[] = {
      {"DOUBLE self", DType::kFloat64, f, f, {2, 3}, {3}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"INT32 weight", f, DType::kInt32, f, {2, 3}, {3}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"INT32 out", h, h, DType::kInt32, {2, 3}, {3}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"DOUBLE out", f, f, DType::kFloat64, {2, 3}, {3}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"9-D self", f, f, f, {1, 2, 1, 1, 1, 1, 1, 1, 2}, {2}, {1, 2, 1, 1, 1, 1, 1, 1, 2},
       ACLNN_ERR_PARAM_INVALID},
      {"9-D weight", f, f, f, {2, 2}, {1, 1, 1, 1, 1, 1, 1, 1, 2}, {2, 2},
       ACLNN_ERR_PARAM_INVALID},
      {"out shape", f, f, f, {2, 3}, {3}, {3, 2}, ACLNN_ERR_PARAM_INVALID},
      {"out broadcast", f, f, f, {1, 3}, {3}, {2, 3}, ACLNN_ERR_PARAM_INVALID},
      {"1-D self, weight of 4", f, f, f, {4}, {2, 2}, {4}, ACLNN_ERR_PARAM_INVALID},
      {"weight not C", f, f, f, {2, 6}, {5}, {2, 6}, ACLNN_ERR_PARAM_INVALID},
      {"weight of size(0)", f, f, f, {3, 2}, {3}, {3, 2}, ACLNN_ERR_PARAM_INVALID},
      {"0-d self, weight of 2", f, f, f, {}, {2}, {}, ACLNN_ERR_PARAM_INVALID},
  };
  std::mt19937_64 rng(0x9E4u);
  for (const Refusal& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor self(c.ts, c.self), weight(c.tw, c.weight), out(c.to, c.out);
    const std::vector<uint8_t> before = out.Snapshot();
    EXPECT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), c.status);
    EXPECT_EQ(out.Snapshot(), before);
  }
  // Null operands and out-parameters: 161001.
  HostTensor self(f, {2, 3}), weight(f, {3}), out(f, {2, 3});
  self.Fill(rng, -1.0, 1.0);
  const std::vector<uint8_t> before = out.Snapshot();
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(nullptr, weight.acl(), out.acl(), &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(self.acl(), nullptr, out.acl(), &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(self.acl(), weight.acl(), nullptr, &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(self.acl(), weight.acl(), out.acl(), nullptr, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  // workspaceSize is checked first, before the operands.
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(nullptr, weight.acl(), out.acl(), nullptr, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(out.Snapshot(), before);
}

// A weight whose two dims cannot merge into one stride splits self's dim 1 in two: on a
// self of rank 8 that would make 9 dims, which is not supported (561000, nothing written).
TEST(Prelu, UnmergeableWeightOnRank8SelfIsRefused) {
  const DType f = DType::kFloat32;
  const std::vector<int64_t> shape{1, 6, 1, 1, 1, 1, 1, 2};
  HostTensor self(f, shape), weight(f, {2, 3}, Strides::kTransposed), out(f, shape);
  const std::vector<uint8_t> before = out.Snapshot();
  EXPECT_EQ(RunPrelu(self.acl(), weight.acl(), out.acl()), ACLNN_ERR_INNER);
  EXPECT_EQ(out.Snapshot(), before);
  // The same weight, dense, merges into one dim and is taken.
  HostTensor dense(f, {2, 3});
  EXPECT_EQ(RunPrelu(self.acl(), dense.acl(), out.acl()), ACLNN_SUCCESS);
}

// A weight whose element count overflows int64 is refused (161002) before its storage is
// looked at, without overflowing (the sanitizer build checks the arithmetic), in both
// operators.
TEST(Prelu, WeightCountBeyondInt64IsRefused) {
  const DType f = DType::kFloat32;
  HostTensor self(f, {2, 3, 4}), out(f, {2, 3, 4}), gw(f, {3});
  float storage[4] = {};
  const int64_t huge = int64_t{1} << 40;
  const std::vector<int64_t> shape{huge, huge, 3}, strides{0, 0, 1};
  aclTensor* weight = aclCreateTensor(shape.data(), 3, ACL_FLOAT, strides.data(), 0,
                                      ACL_FORMAT_ND, shape.data() + 2, 1, storage);
  ASSERT_NE(weight, nullptr);
  const std::vector<uint8_t> before = out.Snapshot();
  EXPECT_EQ(RunPrelu(self.acl(), weight, out.acl()), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(out.Snapshot(), before);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(self.acl(), self.acl(), weight, out.acl(),
                                               gw.acl(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  aclDestroyTensor(weight);
}

// out may be self itself (the same view): each element is read before it is written.
TEST(Prelu, InPlaceOverSelf) {
  std::mt19937_64 rng(0x9E5u);
  HostTensor self(DType::kFloat32, {4, 3, 17}), weight(DType::kFloat32, {3}),
      copy(DType::kFloat32, {4, 3, 17});
  self.Fill(rng, -4.0, 4.0);
  weight.Fill(rng, -2.0, 2.0);
  for (int64_t i = 0; i < self.numel(); ++i) copy.Set(i, self.Get(i));
  ASSERT_EQ(RunPrelu(self.acl(), weight.acl(), self.acl()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectPrelu(copy, weight, self);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
