// The operators whose CANN op_api checks no rank (MaxRank: Selu, SeluBackward, Silu,
// Hardswish, LogSigmoid, LogSigmoidForward, LogSigmoidBackward, Shrink and the in-place
// forms; GeGluBackward and GeGluV3Backward, in split_checks_test.cc): tensors of more than 8 dims,
// dense or strided, against the double references; the plan of such a tensor is the flat one CANN's
// reshape to 1-D gives; a view whose dims do not merge into 8 is refused with nothing written.
// Every other operator still refuses a ninth dim (checks_test.cc); aclnnGeluV2 and
// aclnnGeluBackwardV2 are in gelu_v2_test.cc.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_selu.h"
#include "hostnn/hostnn.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

std::vector<Op> AnyRankOps() {
  std::vector<Op> v;
  for (int i = 0; i < kNumOps; ++i) {
    if (MaxRank(static_cast<Op>(i)) == kAnyRank) v.push_back(static_cast<Op>(i));
  }
  return v;
}
// Those of one input tensor and its gradient's pair (the gated gradients, GeGluBackward and
// GeGluV3Backward, are split_checks_test.cc's).
std::vector<Op> AnyRankEltwiseOps() {
  std::vector<Op> v;
  for (Op op : AnyRankOps()) {
    if (!GetOpInfo(op).is_split) v.push_back(op);
  }
  return v;
}

// The op_api files of ops-nn's activation family without an OP_CHECK_MAX_DIM; any other
// operator is held to 8 dims.
TEST(AnyRank, TheOperatorsWhoseOpApiChecksNoRank) {
  std::vector<std::string> names;
  for (Op op : AnyRankOps()) names.push_back(GetOpInfo(op).name);
  std::sort(names.begin(), names.end());
  const std::vector<std::string> expected = {"GeGluBackward",
                                             "GeGluV3Backward",
                                             "Hardswish",
                                             "InplaceHardswish",
                                             "InplaceSelu",
                                             "LogSigmoid",
                                             "LogSigmoidBackward",
                                             "LogSigmoidForward",
                                             "Selu",
                                             "SeluBackward",
                                             "Shrink",
                                             "Silu"};
  EXPECT_EQ(names, expected);
}

// Row-major strides of `shape` scaled by `step` (every step-th element of the storage).
std::vector<int64_t> SteppedStrides(const std::vector<int64_t>& shape, int64_t step) {
  std::vector<int64_t> s = ContiguousStrides(shape);
  for (int64_t& v : s) v *= step;
  return s;
}

// A view of `shape` whose dims cannot merge: dim i steps 3^(rank-1-i) elements, where a
// merge needs 2 * 3^(rank-1-i) (every extent is 2).
TestTensor Unmergeable(DType dtype, int rank) {
  std::vector<int64_t> shape(static_cast<size_t>(rank), 2), strides(static_cast<size_t>(rank));
  int64_t step = 1;
  for (int i = rank - 1; i >= 0; --i, step *= 3) strides[static_cast<size_t>(i)] = step;
  return TestTensor::Strided(dtype, shape, strides, 0, {step});
}

// Elements of `out` out of tolerance against the reference of (dy, x), the values before
// the run (a forward operator's: of x alone).
int64_t CheckValues(Op op, const std::vector<double>& dy, const std::vector<double>& x,
                    const TestTensor& out, const std::string& what) {
  const bool forward = GetOpInfo(op).is_forward;
  int64_t bad = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double got = out.Get(i);
    const double exact = forward ? ForwardEltwiseRef(op, x[i]) : EltwiseRef(op, dy[i], x[i]);
    const bool ok = forward ? ForwardEltwiseWithinTolerance(out.dtype(), got, exact)
                            : EltwiseWithinTolerance(out.dtype(), got, exact, dy[i]);
    if (!ok && ++bad <= kMaxReported) {
      ADD_FAILURE() << GetOpInfo(op).name << " " << what << " element " << i
                    << ": x=" << Num(x[i]) << " got=" << Num(got) << " exact=" << Num(exact);
    }
  }
  return bad;
}

class AnyRankTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
  bool inplace() const { return IsInplace(GetOpInfo(op()).signature); }
  // Where the result is: x for an in-place operator, else out.
  TestTensor& Result(TestTensor& x, TestTensor& out) const { return inplace() ? x : out; }

  // Fills dy and x, runs op into its result and checks every element against the
  // reference of the values before the run; the plan is one flat row of every element.
  void RunAndCheck(TestTensor& dy, TestTensor& x, TestTensor& out, const std::string& what) {
    std::mt19937_64 rng(0x5EED0931);
    FillRandom(&dy, rng, -4.0, 4.0);
    FillRandom(&x, rng, GetOpInfo(op()).domain_lo, GetOpInfo(op()).domain_hi);
    const std::vector<double> vdy = dy.Values(), vx = x.Values();
    TestTensor& result = Result(x, out);
    const tiling::Plan plan = RunChecked(op(), dy, x, result);
    EXPECT_EQ(plan.shape, std::vector<int64_t>{result.numel()}) << "planned as one flat row";
    EXPECT_EQ(CheckValues(op(), vdy, vx, result, what), 0);
  }
};

TEST_P(AnyRankTest, DenseTensorsOfNineAndTwelveDims) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{2, 1, 3, 1, 2, 1, 2, 1, 3}, {1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 5}}) {
    const std::string what = ShapeText(shape);
    SCOPED_TRACE(what);
    TestTensor dy = TestTensor::Dense(dtype(), shape), x = TestTensor::Dense(dtype(), shape);
    TestTensor out = TestTensor::Dense(dtype(), shape);
    out.storage().FillBytes(0xFF);  // NaN: an element left unwritten fails the check
    RunAndCheck(dy, x, out, what);
  }
}

// Ten dims with every other element of the storage, and with two dims swapped: gathered
// through the merged dims (1 and 4 of them), nothing outside the output view written.
TEST_P(AnyRankTest, StridedViewsOfTenDimsMergeAndRun) {
  const std::vector<int64_t> shape = {2, 1, 3, 2, 1, 2, 1, 1, 3, 4};
  const int64_t n = NumelOf(shape);
  std::vector<int64_t> swapped = SteppedStrides(shape, 1);
  std::swap(swapped[3], swapped[5]);  // dims 3 and 5 (both of extent 2) exchange strides
  for (const std::vector<int64_t>& strides : {SteppedStrides(shape, 2), swapped}) {
    const std::string what = "strides " + ShapeText(strides);
    SCOPED_TRACE(what);
    TestTensor dy = TestTensor::Strided(dtype(), shape, strides, 1, {2 * n + 1});
    TestTensor x = TestTensor::Strided(dtype(), shape, strides, 1, {2 * n + 1});
    TestTensor out = TestTensor::Strided(dtype(), shape, strides, 1, {2 * n + 1});
    out.storage().FillBytes(0xFF);
    const std::vector<uint8_t> before = out.storage().Snapshot();
    RunAndCheck(dy, x, out, what);
    if (inplace()) continue;
    const std::vector<uint8_t> after = out.storage().Snapshot();
    std::vector<bool> in_view(static_cast<size_t>(2 * n + 1), false);
    for (int64_t i = 0; i < n; ++i) in_view[static_cast<size_t>(out.StorageIndex(i))] = true;
    const size_t esize = DTypeSize(dtype());
    int64_t written = 0;
    for (size_t e = 0; e < in_view.size(); ++e) {
      written += !in_view[e] && !std::equal(before.begin() + e * esize,
                                            before.begin() + (e + 1) * esize,
                                            after.begin() + e * esize);
    }
    EXPECT_EQ(written, 0) << "storage elements outside the output view were written";
  }
}

// Nine dims that no two of merge: refused in phase 1 (kInvalid, naming the operator and the
// shape), nothing written. Eight such dims run.
TEST_P(AnyRankTest, AViewThatKeepsNineDimsIsRefused) {
  TestTensor dy = Unmergeable(dtype(), 9), x = Unmergeable(dtype(), 9);
  TestTensor out = Unmergeable(dtype(), 9);
  std::mt19937_64 rng(0x5EED0932);
  FillRandom(&dy, rng, -1.0, 1.0);
  FillRandom(&x, rng, -1.0, 1.0);
  out.storage().FillBytes(0x5A);
  const std::vector<uint8_t> x_before = x.storage().Snapshot();
  const std::vector<uint8_t> out_before = out.storage().Snapshot();
  const RunResult r = RunOp(MakeArgs(op(), dy, x, Result(x, out)));
  EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
  EXPECT_NE(r.status.message().find(GetOpInfo(op()).name), std::string::npos)
      << r.status.message();
  EXPECT_NE(r.status.message().find("more than 8 dims"), std::string::npos)
      << r.status.message();
  EXPECT_EQ(x.storage().Snapshot(), x_before);
  EXPECT_EQ(out.storage().Snapshot(), out_before);

  TestTensor dy8 = Unmergeable(dtype(), 8), x8 = Unmergeable(dtype(), 8);
  TestTensor out8 = Unmergeable(dtype(), 8);
  FillRandom(&dy8, rng, -1.0, 1.0);
  FillRandom(&x8, rng, -1.0, 1.0);
  const std::vector<double> vdy = dy8.Values(), vx = x8.Values();
  TestTensor& result = Result(x8, out8);
  RunChecked(op(), dy8, x8, result);
  EXPECT_EQ(CheckValues(op(), vdy, vx, result, "8 unmergeable dims"), 0);
}

INSTANTIATE_TEST_SUITE_P(AnyRankOps, AnyRankTest,
                         ::testing::ValuesIn(WithComputeTypes(AnyRankEltwiseOps())),
                         [](const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
                           return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

// An operator whose op_api checks OP_CHECK_MAX_DIM(.., 8) still refuses a dense ninth dim
// (every one: checks_test.cc), and OpArgs::max_rank lifts the limit for an entry point that
// takes any rank (aclnnGeluV2 over Gelu's checks).
TEST(AnyRank, MaxRankOfTheArgumentsOverridesTheOperators) {
  const std::vector<int64_t> shape = {3, 1, 1, 1, 1, 1, 1, 1, 1, 3};
  TestTensor x = TestTensor::Dense(DType::kFloat32, shape);
  TestTensor out = TestTensor::Dense(DType::kFloat32, shape);
  std::mt19937_64 rng(0x5EED0933);
  FillRandom(&x, rng, -3.0, 3.0);
  OpArgs a = MakeArgs(Op::kGelu, x, x, out);
  EXPECT_EQ(RunOp(a).status.code(), StatusCode::kInvalid);
  a.max_rank = kAnyRank;
  const RunResult r = RunOp(a);
  ASSERT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_EQ(CheckValues(Op::kGelu, x.Values(), x.Values(), out, "max_rank"), 0);
  a.max_rank = 9;
  EXPECT_EQ(RunOp(a).status.code(), StatusCode::kInvalid);
}

// "Any rank" stops where aclCreateTensor does: 1024 dims. A Selu of 1024 dims (two of them
// 2 and 3) runs through the C API; aclCreateTensor refuses 1025.
TEST(AnyRank, UpToTheThousandAndTwentyFourDimsOfAclCreateTensor) {
  std::vector<int64_t> shape(1024, 1);
  shape[5] = 2;
  shape[1023] = 3;
  std::vector<float> x = {-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 2.0f}, y(6, -9.0f);
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, shape);
  TensorPtr ty = MakeDense(y.data(), ACL_FLOAT, shape);
  ASSERT_NE(tx, nullptr);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnSeluGetWorkspaceSize(tx.get(), ty.get(), &ws, &exec), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnSelu(nullptr, ws, exec, nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(
        ForwardEltwiseWithinTolerance(DType::kFloat32, y[i], ForwardEltwiseRef(Op::kSelu, x[i])))
        << "x = " << x[i] << ": got " << y[i];
  }
  shape.push_back(1);
  EXPECT_EQ(MakeDense(x.data(), ACL_FLOAT, shape), nullptr);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
