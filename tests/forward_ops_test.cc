// The forward operators of the list through the native API (and the C API where the
// signature matters): every elementwise one against its double reference on every SIMD
// target, every tail length, every 16-bit input, strided and in-place operands, special
// values, thread counts; LogSoftmax over AR, ARA and gathered plans, special rows, output
// dtypes and the round trip through LogSoftmaxBackward. Prints the largest error per
// operator and dtype (the SPEC §4 report for the forward operators).

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/ops.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace {

using test::ForwardEltwiseRef;
using test::ForwardEltwiseWithinTolerance;
using test::UlpError;

// The forward operators of the list, elementwise and reductions.
std::vector<Op> ForwardOps(bool reduction) {
  std::vector<Op> ops;
  for (Op op : test::SuiteOps()) {
    if (GetOpInfo(op).is_forward && GetOpInfo(op).is_reduction == reduction) ops.push_back(op);
  }
  return ops;
}
bool InPlaceOnly(Op op) { return IsInplace(GetOpInfo(op).signature); }

// Largest error seen per "op dtype", in ULP of the dtype, for the report at the end.
std::map<std::string, double>& Worst() {
  static std::map<std::string, double> worst;
  return worst;
}
void Note(Op op, DType t, double got, double exact) {
  if (std::isnan(got) || std::isnan(exact) || std::isinf(exact)) return;
  double& w = Worst()[std::string(GetOpInfo(op).name) + " " + DTypeName(t)];
  w = std::max(w, UlpError(t, got, exact));
}

// out = op(x); an in-place operator writes x (pass out = x).
test::RunResult RunForward(Op op, const test::TestTensor& x, const test::TestTensor& out,
                           int64_t dim = 0, const tiling::Options& options = {}) {
  OpArgs a;
  a.op = op;
  a.in[0] = &x.view();
  a.out[0] = &out.view();
  a.dim = dim;
  return test::RunOp(a, options);
}

// Elements of `out` outside the SPEC rule against the reference of `x` (values as given).
int64_t CheckEltwise(Op op, const std::vector<double>& x, const test::TestTensor& out,
                     const std::string& what) {
  int64_t bad = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double got = out.Get(i), exact = ForwardEltwiseRef(op, x[i]);
    Note(op, out.dtype(), got, exact);
    if (ForwardEltwiseWithinTolerance(out.dtype(), got, exact)) continue;
    if (++bad <= test::kMaxReported) {
      ADD_FAILURE() << what << ": " << GetOpInfo(op).name << "(" << test::Num(x[i])
                    << ") = " << test::Num(got) << ", exact " << test::Num(exact) << " ("
                    << UlpError(out.dtype(), got, exact) << " ULP)";
    }
  }
  return bad;
}

std::vector<double> SpecialX(DType t) {
  std::vector<double> v = {0.0,    -0.0,       1.0,         -1.0,      0.5,    -0.5,    3.0,
                           -3.0,   2.999,      -2.999,      6.0,       -6.0,   17.0,    -17.0,
                           88.0,   -88.0,      89.0,        -104.0,    1000.0, -1000.0, 1e-30,
                           -1e-30, test::kInf, -test::kInf, test::kNaN};
  const test::Limits l = test::LimitsOf(t);
  for (double s : {l.max_finite, l.min_normal, l.min_sub}) {
    v.push_back(s);
    v.push_back(-s);
  }
  for (double& x : v) x = test::RoundTo(t, x);
  return v;
}

// ---- elementwise ------------------------------------------------------------------------

class ForwardEltwiseTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }

  // x (filled from `values`, cycled) -> a fresh output, or x itself when in place.
  void RunAndCheck(const std::vector<double>& values, const std::vector<int64_t>& shape,
                   test::Layout x_layout, test::Layout out_layout, bool in_place,
                   const std::string& what) {
    test::TestTensor x = test::MakeLayout(x_layout, dtype(), shape);
    for (int64_t i = 0; i < x.numel(); ++i) x.Set(i, values[i % values.size()]);
    const std::vector<double> xv = x.Values();
    in_place = in_place || InPlaceOnly(op());
    test::TestTensor out = in_place ? x : test::MakeLayout(out_layout, dtype(), shape);
    const test::RunResult r = RunForward(op(), x, out);
    ASSERT_TRUE(r.status.ok()) << what << ": " << r.status.message();
    EXPECT_EQ(CheckEltwise(op(), xv, out, what), 0);
  }
};

TEST_P(ForwardEltwiseTest, EveryTailLengthOnEveryTarget) {
  std::mt19937_64 rng(0x5EED0601 + static_cast<int>(op()));
  const OpInfo& info = GetOpInfo(op());
  std::vector<double> values(70001);
  for (double& v : values)
    v = test::RandomValue(dtype(), rng, 2 * info.domain_lo, 2 * info.domain_hi);
  test::ForEachTarget([&](int64_t) {
    for (int64_t n = 0; n <= 200; ++n)
      RunAndCheck(values, {n}, test::Layout::kDense, test::Layout::kDense, false,
                  "n=" + std::to_string(n));
    for (int64_t n : {1000, 4097, 70001})
      RunAndCheck(values, {n}, test::Layout::kDense, test::Layout::kDense, false,
                  "n=" + std::to_string(n));
  });
}

TEST_P(ForwardEltwiseTest, SpecialValuesOnEveryTarget) {
  const std::vector<double> values = SpecialX(dtype());
  test::ForEachTarget([&](int64_t) {
    RunAndCheck(values, {static_cast<int64_t>(values.size())}, test::Layout::kDense,
                test::Layout::kDense, false, "special");
  });
}

TEST_P(ForwardEltwiseTest, WholeRangeOnEveryTarget) {
  // 16-bit: every input; f32: every 4099th bit pattern, both signs (about a million).
  std::vector<double> values;
  if (dtype() == DType::kFloat32) {
    for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 4099) {
      float f;
      const uint32_t u = static_cast<uint32_t>(b);
      std::memcpy(&f, &u, 4);
      values.push_back(f);
    }
  } else {
    for (int64_t i = 0; i < 65536; ++i) {
      const uint16_t h = static_cast<uint16_t>(i);
      values.push_back(dtype() == DType::kFloat16 ? test::F16ToDouble(h) : test::BF16ToDouble(h));
    }
  }
  const int64_t n = static_cast<int64_t>(values.size());
  test::ForEachTarget([&](int64_t) {
    RunAndCheck(values, {n}, test::Layout::kDense, test::Layout::kDense, false, "whole range");
  });
}

TEST_P(ForwardEltwiseTest, StridedAndOffsetOperands) {
  std::mt19937_64 rng(0x5EED0602);
  const OpInfo& info = GetOpInfo(op());
  std::vector<double> values(4000);
  for (double& v : values)
    v = test::RandomValue(dtype(), rng, 2 * info.domain_lo, 2 * info.domain_hi);
  const test::Layout layouts[] = {test::Layout::kDense, test::Layout::kTransposed,
                                  test::Layout::kStride2, test::Layout::kStride3,
                                  test::Layout::kOffset};
  for (test::Layout lx : layouts) {
    for (test::Layout lo : layouts) {
      if (InPlaceOnly(op()) && lo != lx) continue;
      RunAndCheck(values, {37, 53}, lx, lo, false,
                  std::string(test::LayoutName(lx)) + " -> " + test::LayoutName(lo));
    }
  }
}

TEST_P(ForwardEltwiseTest, InPlace) {
  std::mt19937_64 rng(0x5EED0603);
  std::vector<double> values(3001);
  for (double& v : values) v = test::RandomValue(dtype(), rng, -20, 20);
  RunAndCheck(values, {3001}, test::Layout::kDense, test::Layout::kDense, true, "in place");
  RunAndCheck(values, {40, 30}, test::Layout::kTransposed, test::Layout::kTransposed, true,
              "in place, transposed");
}

TEST_P(ForwardEltwiseTest, EmptyAndZeroDim) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{0}, std::vector<int64_t>{3, 0, 2}, std::vector<int64_t>{}}) {
    test::TestTensor x = test::TestTensor::Dense(dtype(), shape);
    for (int64_t i = 0; i < x.numel(); ++i) x.Set(i, 1.5);
    test::TestTensor out = InPlaceOnly(op()) ? x : test::TestTensor::Dense(dtype(), shape);
    uint64_t ws = 99;
    ExecutorPtr exec;
    OpArgs a;
    a.op = op();
    a.in[0] = &x.view();
    a.out[0] = &out.view();
    ASSERT_TRUE(Prepare(a, {}, &ws, &exec).ok());
    EXPECT_EQ(ws, 0u);
    ASSERT_TRUE(Execute(*exec, nullptr, 0).ok());
    if (x.numel() == 1) EXPECT_EQ(CheckEltwise(op(), {1.5}, out, "0-d"), 0);
  }
}

TEST_P(ForwardEltwiseTest, SameBitsForAnyThreadCountAndTarget) {
  std::mt19937_64 rng(0x5EED0604);
  test::TestTensor x = test::TestTensor::Dense(dtype(), {200003});
  test::FillRandom(&x, rng, -20, 20);
  std::vector<uint8_t> firsts[2];  // per family of targets (test::FusedFamily)
  const int saved = omp_get_max_threads();
  test::ForEachTarget([&](int64_t) {
    std::vector<uint8_t>& first = firsts[test::FusedFamily()];
    for (int threads : {1, 2, 3}) {
      omp_set_num_threads(threads);
      test::TestTensor in = test::TestTensor::Dense(dtype(), {200003});
      for (int64_t i = 0; i < in.numel(); ++i) in.Set(i, x.Get(i));
      test::TestTensor out = InPlaceOnly(op()) ? in : test::TestTensor::Dense(dtype(), {200003});
      ASSERT_TRUE(RunForward(op(), in, out).status.ok());
      const uint8_t* p = static_cast<const uint8_t*>(out.view().data);
      const std::vector<uint8_t> bytes(p, p + out.numel() * DTypeSize(dtype()));
      if (first.empty()) first = bytes;
      EXPECT_TRUE(bytes == first) << threads << " threads";
    }
  });
  omp_set_num_threads(saved);
}

std::vector<std::tuple<Op, DType>> EltwiseCases() {
  std::vector<std::tuple<Op, DType>> cases;
  for (Op op : ForwardOps(false)) {
    for (DType t : test::kComputeTypes) {
      if (test::TakesDType(op, t)) cases.emplace_back(op, t);
    }
  }
  return cases;
}
std::string CaseName(const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
  return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
         DTypeName(std::get<1>(info.param));
}
// The list may hold no forward elementwise operator (a tree being built up operator by
// operator): the suite is then empty, not an error.
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ForwardEltwiseTest);
INSTANTIATE_TEST_SUITE_P(Forward, ForwardEltwiseTest, ::testing::ValuesIn(EltwiseCases()),
                         CaseName);

// The limits the SPEC names, exactly.
double RunOne(Op op, DType t, double x) {
  test::TestTensor in = test::TestTensor::Dense(t, {1}), out = test::TestTensor::Dense(t, {1});
  in.Set(0, x);
  EXPECT_TRUE(RunForward(op, in, InPlaceOnly(op) ? in : out).status.ok());
  return InPlaceOnly(op) ? in.Get(0) : out.Get(0);
}

TEST(ForwardLimits, AsTheSpecSays) {
  for (DType t : test::kComputeTypes) {
    SCOPED_TRACE(DTypeName(t));
    EXPECT_EQ(RunOne(Op::kSilu, t, -test::kInf), 0.0);  // -0 or 0
    EXPECT_EQ(RunOne(Op::kSilu, t, test::kInf), test::kInf);
    EXPECT_EQ(RunOne(Op::kLogSigmoid, t, -test::kInf), -test::kInf);
    EXPECT_EQ(RunOne(Op::kLogSigmoid, t, test::kInf), 0.0);
    EXPECT_EQ(RunOne(Op::kLogSigmoid, t, -1000.0), test::RoundTo(t, -1000.0));
    EXPECT_EQ(RunOne(Op::kLogSigmoidForward, t, -1000.0), test::RoundTo(t, -1000.0));
    EXPECT_TRUE(std::isnan(RunOne(Op::kHardsigmoid, t, test::kNaN)));
    EXPECT_TRUE(std::isnan(RunOne(Op::kInplaceHardsigmoid, t, test::kNaN)));
    EXPECT_EQ(RunOne(Op::kHardsigmoid, t, 3.0), 1.0);
    EXPECT_EQ(RunOne(Op::kHardsigmoid, t, -3.0), 0.0);
    EXPECT_EQ(RunOne(Op::kHardsigmoid, t, 0.0), 0.5);
  }
}

// ---- the C API's forward signatures ------------------------------------------------------

// A dense aclTensor over host memory of its own.
class HostTensor {
 public:
  HostTensor(aclDataType dtype, const std::vector<int64_t>& shape)
      : bytes_(static_cast<size_t>(test::NumElements(shape)) * test::ElemSize(dtype) + 8),
        tensor_(test::MakeDense(bytes_.data(), dtype, shape)) {}
  aclTensor* tensor() { return tensor_.get(); }
  void SetF32(int i, float v) { std::memcpy(bytes_.data() + 4 * i, &v, 4); }
  float GetF32(int i) const {
    float v;
    std::memcpy(&v, bytes_.data() + 4 * i, 4);
    return v;
  }

 private:
  std::vector<uint8_t> bytes_;
  test::TensorPtr tensor_;
};

TEST(ForwardCApi, LogSigmoidForwardLeavesItsBufferAlone) {
  // CANN documents `buffer` as unused: a null buffer is accepted, a given one is not written.
  HostTensor x(ACL_FLOAT, {8}), out(ACL_FLOAT, {8}), buffer(ACL_FLOAT, {8});
  for (int i = 0; i < 8; ++i) x.SetF32(i, i - 4.0f);
  for (int i = 0; i < 8; ++i) buffer.SetF32(i, 1234.5f);
  for (aclTensor* buf : {static_cast<aclTensor*>(nullptr), buffer.tensor()}) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnLogSigmoidForwardGetWorkspaceSize(x.tensor(), out.tensor(), buf, &ws, &exec),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(aclnnLogSigmoidForward(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
    for (int i = 0; i < 8; ++i) {
      EXPECT_NEAR(out.GetF32(i), ForwardEltwiseRef(Op::kLogSigmoidForward, i - 4.0), 1e-6);
      EXPECT_EQ(buffer.GetF32(i), 1234.5f);
    }
  }
}

TEST(ForwardCApi, InplaceHardsigmoidWritesSelf) {
  HostTensor x(ACL_FLOAT, {2, 4});
  const float in[8] = {-4, -3, -2, 0, 1, 2, 4, 5};
  for (int i = 0; i < 8; ++i) x.SetF32(i, in[i]);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(x.tensor(), &ws, &exec), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnInplaceHardsigmoid(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
  for (int i = 0; i < 8; ++i)
    EXPECT_NEAR(x.GetF32(i), std::fmin(1.0, std::fmax(0.0, in[i] / 6.0 + 0.5)), 1e-7);
  EXPECT_EQ(aclnnInplaceHardsigmoidGetWorkspaceSize(nullptr, &ws, &exec), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclnnInplaceHardsigmoid"), std::string::npos);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("self is null"), std::string::npos);
}

TEST(ForwardCApi, DTypeRules) {
  struct Case {
    Op op;
    aclDataType in, out;
    bool ok;
  };
  const Case cases[] = {
      {Op::kSilu, ACL_FLOAT, ACL_FLOAT16, false},       // out like self
      {Op::kSilu, ACL_DOUBLE, ACL_DOUBLE, false},       // not a compute dtype
      {Op::kHardsigmoid, ACL_INT32, ACL_INT32, true},   // computed in f32, truncated
      {Op::kHardsigmoid, ACL_INT32, ACL_FLOAT, false},  // out like self
      {Op::kHardsigmoid, ACL_FLOAT, ACL_INT32, false},
      {Op::kHardsigmoid, ACL_INT8, ACL_INT8, false},
      {Op::kSilu, ACL_INT32, ACL_INT32, false},
      {Op::kLogSigmoid, ACL_BF16, ACL_BF16, true},
      {Op::kLogSoftmax, ACL_FLOAT, ACL_DOUBLE, true},  // any float out
      {Op::kLogSoftmax, ACL_FLOAT16, ACL_FLOAT, true},
      {Op::kLogSoftmax, ACL_DOUBLE, ACL_DOUBLE, true},  // every float pair: self cast to out's
      {Op::kLogSoftmax, ACL_DOUBLE, ACL_FLOAT, true},
      {Op::kLogSoftmax, ACL_INT32, ACL_DOUBLE, false},
      {Op::kLogSoftmax, ACL_FLOAT, ACL_INT32, false},
      {Op::kSoftmax, ACL_FLOAT, ACL_FLOAT16, true},  // computed in self's dtype, then cast
      {Op::kSoftmax, ACL_BF16, ACL_FLOAT, true},
      {Op::kSoftmax, ACL_DOUBLE, ACL_DOUBLE, true},  // op_api's A2 list has DOUBLE
      {Op::kSoftmax, ACL_DOUBLE, ACL_BF16, true},
      {Op::kSoftmax, ACL_FLOAT, ACL_INT32, false},
      {Op::kSoftmax, ACL_INT32, ACL_FLOAT, false},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(GetOpInfo(c.op).name) + " " + std::to_string(c.in) + " -> " +
                 std::to_string(c.out));
    HostTensor x(c.in, {3, 5}), out(c.out, {3, 5});
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus st =
        test::GetCApiOp(c.op).phase1(x.tensor(), nullptr, nullptr, out.tensor(), 1, &ws, &exec);
    if (c.ok) {
      ASSERT_EQ(st, ACLNN_SUCCESS) << aclGetRecentErrMsg();
      std::vector<char> workspace(ws);
      EXPECT_EQ(test::GetCApiOp(c.op).phase2(ws ? workspace.data() : nullptr, ws, exec, nullptr),
                ACLNN_SUCCESS);
    } else {
      EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID);
      EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dtype"), std::string::npos)
          << aclGetRecentErrMsg();
    }
  }
}

// ---- the checks, in SPEC order, on every forward operator -------------------------------

// Phase 1 must refuse with `code` and a message naming `name`, and write nothing.
void ExpectRefused(Op op, const test::Case& c, aclnnStatus code, const std::string& name) {
  test::Call call(test::GetCApiOp(op), c);
  const aclnnStatus st = call.Phase1();
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, code) << msg;
  EXPECT_TRUE(test::NamesParam(msg, name)) << "message does not name '" << name << "': " << msg;
  EXPECT_NE(msg.find(std::string("aclnn") + GetOpInfo(op).name), std::string::npos) << msg;
  if (!c.null_workspace_size) EXPECT_EQ(call.ws(), test::kWsSentinel) << "*workspaceSize written";
  if (!c.null_executor) EXPECT_EQ(call.exec(), test::ExecSentinel()) << "*executor written";
  EXPECT_TRUE(call.Unchanged()) << "a refused call wrote to a tensor";
  if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(call.exec());
}

class ForwardChecksTest : public ::testing::TestWithParam<Op> {
 protected:
  Op op() const { return GetParam(); }
  const test::CApiOp& api() const { return test::GetCApiOp(op()); }
  const char* name(test::Slot s) const { return api().params[s]; }
  test::Case Default() const {
    test::Case c;
    c.dim = -1;
    if (api().in_place()) c.v[test::kOut] = c.v[test::kDy];
    return c;
  }
};

TEST_P(ForwardChecksTest, NullOperandsAndOutParameters) {
  for (test::Slot s : api().slots()) {
    test::Case c = Default();
    c.v[s].null_tensor = true;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, name(s));
  }
  test::Case ws = Default();
  ws.null_workspace_size = true;
  ExpectRefused(op(), ws, ACLNN_ERR_PARAM_NULLPTR, "workspaceSize");
  test::Case ex = Default();
  ex.null_executor = true;
  ExpectRefused(op(), ex, ACLNN_ERR_PARAM_NULLPTR, "executor");
}

TEST_P(ForwardChecksTest, DTypesRanksShapesAndStorage) {
  for (test::Slot s : api().slots()) {
    SCOPED_TRACE(name(s));
    test::Case dtype = Default();  // a dtype the operator does not take at all
    const DTypeRule taken = GetOpInfo(op()).dtypes;
    // (Threshold's rule, ExactIntThenCast, takes INT16 too: threshold_cast_test.cc.)
    dtype.v[s].dtype = CastsIntInputs(taken) || taken == DTypeRule::kExactIntThenCast ? ACL_UINT16
                       : AdmitsExactInt(taken) || AdmitsInt8Lanes(taken)              ? ACL_INT16
                       : AdmitsInt32(taken)                                           ? ACL_INT8
                                                                                      : ACL_INT32;
    ExpectRefused(op(), dtype, ACLNN_ERR_PARAM_INVALID, name(s));
    if (MaxRank(op()) <= kMaxDims) {  // the others take any rank (any_rank_test.cc)
      test::Case rank = Default();
      rank.v[s].shape = {1, 1, 1, 1, 1, 1, 1, 2, 3};
      ExpectRefused(op(), rank, ACLNN_ERR_PARAM_INVALID, name(s));
    }
    test::Case storage = Default();
    storage.v[s].storage = {2};
    ExpectRefused(op(), storage, ACLNN_ERR_PARAM_INVALID, name(s));
  }
  if (!api().in_place()) {
    test::Case shape = Default();
    shape.v[test::kOut].shape = {3, 2};
    ExpectRefused(op(), shape, ACLNN_ERR_PARAM_INVALID, name(test::kOut));
    test::Case overlap = Default();  // out's elements share memory
    overlap.v[test::kOut].strides = {0, 1};
    overlap.v[test::kOut].storage = {3};
    ExpectRefused(op(), overlap, ACLNN_ERR_PARAM_INVALID, name(test::kOut));
    test::Case partial = Default();  // self overlaps out, shifted by one element
    partial.v[test::kDy].share = test::kOut;
    partial.v[test::kDy].offset = 1;
    partial.v[test::kDy].storage = {12};
    partial.v[test::kOut].storage = {12};
    ExpectRefused(op(), partial, ACLNN_ERR_PARAM_INVALID, name(test::kOut));
  }
  const DTypeRule rule = GetOpInfo(op()).dtypes;
  // Rules that cast the result to out's dtype take the pair (tests/result_cast_test.cc).
  if ((rule == DTypeRule::kAllSame || rule == DTypeRule::kAllSameOrInt32 ||
       rule == DTypeRule::kAllSameOrExactInt) &&
      !api().in_place()) {
    test::Case mixed = Default();
    mixed.v[test::kOut].dtype = ACL_FLOAT16;
    ExpectRefused(op(), mixed, ACLNN_ERR_PARAM_INVALID, name(test::kOut));
  }
  if (GetOpInfo(op()).is_reduction) {
    test::Case dim = Default();
    dim.dim = 2;
    dim.v[test::kDy].storage = {2};  // dim is reported before storage
    ExpectRefused(op(), dim, ACLNN_ERR_PARAM_INVALID, "dim");
  }
}

TEST_P(ForwardChecksTest, ComputesDenseStridedEmptyAndInPlace) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    if (!test::TakesDType(GetParam(), static_cast<DType>(dt))) continue;  // Shrink: no BF16
    SCOPED_TRACE(dt);
    test::Case dense = Default();
    dense.AllDType(dt);
    test::Call call(api(), dense);
    call.FillValues(1);
    call.ExpectComputes();
  }
  test::Case strided = Default();
  strided.v[test::kDy].shape = {2, 3};
  strided.v[test::kDy].strides = {1, 2};  // transposed
  if (api().in_place()) strided.v[test::kOut] = strided.v[test::kDy];
  test::Call strided_call(api(), strided);
  strided_call.FillValues(2);
  strided_call.ExpectComputes();
  if (!api().in_place()) {
    test::Case same = Default();  // out is self's very view: in place
    same.v[test::kDy].share = test::kOut;
    test::Call in_place(api(), same);
    in_place.FillValues(3);
    const std::vector<double> x = in_place.Values(test::kOut);
    ASSERT_EQ(in_place.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(in_place.Phase2(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    in_place.ExpectForwardResult(x);
  }
  test::Case empty = Default();
  empty.AllShape({2, 0});
  test::Call call(api(), empty);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(call.ws(), 0u);
  EXPECT_EQ(call.Phase2(), ACLNN_SUCCESS);
  EXPECT_TRUE(call.Unchanged());
}

INSTANTIATE_TEST_SUITE_P(Forward, ForwardChecksTest, ::testing::ValuesIn(test::ForwardOpsVector()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return std::string(GetOpInfo(info.param).name);
                         });

// ---- LogSoftmax and Softmax --------------------------------------------------------------

struct SoftmaxCase {
  std::vector<int64_t> shape;
  int64_t dim;
};

// The dtype a forward reduction's result is held to: out's (f32's rule for DOUBLE), or for
// Softmax, which computes in a 16-bit self's dtype and casts the result to a FLOAT out,
// self's.
DType ResultDType(Op op, DType self, DType out) {
  const bool self16 = self == DType::kFloat16 || self == DType::kBFloat16;
  if (op == Op::kSoftmax && self16 && out == DType::kFloat32) return self;
  return out == DType::kFloat64 ? DType::kFloat32 : out;
}

// Checks out = op(x) along dim (LogSoftmax or Softmax) against the double reference; x and
// out any views.
int64_t CheckSoftmaxForward(Op op, const test::TestTensor& x, const test::TestTensor& out,
                            int64_t dim, const std::string& what) {
  int64_t a1, r, a0;
  test::SplitAroundDim(x.shape(), dim, &a1, &r, &a0);
  const DType t = ResultDType(op, x.dtype(), out.dtype());
  int64_t bad = 0;
  std::vector<double> row(r), ref, aux;
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      for (int64_t j = 0; j < r; ++j) row[j] = x.Get((i * r + j) * a0 + k);
      test::ReductionForwardRef(op, row, {r}, 0, &ref, &aux);
      for (int64_t j = 0; j < r; ++j) {
        const double got = out.Get((i * r + j) * a0 + k);
        Note(op, t, got, ref[j]);
        // f32: the SPEC's bound; 16-bit: the f32 result rounded once (that bound plus half
        // a narrow ULP).
        if (test::ReductionForwardWithinTolerance(op, t, got, ref[j], aux[j])) continue;
        if (++bad <= test::kMaxReported) {
          ADD_FAILURE() << what << ": row (" << i << ", " << k << ") element " << j << " x "
                        << test::Num(row[j]) << ": got " << test::Num(got) << ", exact "
                        << test::Num(ref[j]);
        }
      }
    }
  }
  return bad;
}

class LogSoftmaxForwardTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
  // The gradient whose y this operator's output is.
  Op backward() const {
    return op() == Op::kSoftmax ? Op::kSoftmaxBackward : Op::kLogSoftmaxBackward;
  }
};

const SoftmaxCase kSoftmaxCases[] = {{{1}, 0},
                                     {{7}, -1},
                                     {{}, 0},
                                     {{4, 1}, 1},
                                     {{3, 70001}, -1},    // AR recompute
                                     {{300, 257}, 1},     // AR full-load
                                     {{16, 300, 33}, 1},  // ARA
                                     {{2, 50, 1500}, -2},
                                     {{3, 4000, 20}, 1},
                                     {{5, 3, 2}, 0}};

TEST_P(LogSoftmaxForwardTest, EveryTemplateOnEveryTarget) {
  const DType t = dtype();
  std::mt19937_64 rng(0x5EED0701);
  test::ForEachTarget([&](int64_t) {
    for (const SoftmaxCase& c : kSoftmaxCases) {
      const std::string what = test::ShapeText(c.shape) + " dim " + std::to_string(c.dim);
      test::TestTensor x = test::TestTensor::Dense(t, c.shape),
                       out = test::TestTensor::Dense(t, c.shape);
      test::FillRandom(&x, rng, -30, 30);
      const test::RunResult r = RunForward(op(), x, out, c.dim);
      ASSERT_TRUE(r.status.ok()) << what << ": " << r.status.message();
      EXPECT_EQ(CheckSoftmaxForward(op(), x, out, c.dim, what), 0);
    }
  });
}

TEST_P(LogSoftmaxForwardTest, StridedOperandsAndOtherOutputDTypes) {
  const DType t = dtype();
  std::mt19937_64 rng(0x5EED0702);
  for (test::Layout lx :
       {test::Layout::kTransposed, test::Layout::kStride2, test::Layout::kOffset}) {
    for (int64_t dim : {0, 1, -1}) {
      test::TestTensor x = test::MakeLayout(lx, t, {33, 65, 7});
      test::FillRandom(&x, rng, -10, 10);
      test::TestTensor out = test::MakeLayout(test::Layout::kStride3, t, {33, 65, 7});
      ASSERT_TRUE(RunForward(op(), x, out, dim).status.ok());
      EXPECT_EQ(CheckSoftmaxForward(op(), x, out, dim, test::LayoutName(lx)), 0);
    }
  }
  // LogSoftmax: self cast to out's dtype first (DOUBLE too); Softmax: the result cast.
  const std::vector<DType> outs =
      op() == Op::kSoftmax
          ? std::vector<DType>{DType::kFloat32, DType::kFloat16, DType::kBFloat16}
          : std::vector<DType>{DType::kFloat32, DType::kFloat64};
  for (DType out_t : outs) {
    test::TestTensor x = test::TestTensor::Dense(t, {20, 300});
    test::FillRandom(&x, rng, -10, 10);
    test::TestTensor out = test::TestTensor::Dense(out_t, {20, 300});
    ASSERT_TRUE(RunForward(op(), x, out, 1).status.ok());
    if (op() != Op::kSoftmax || out_t == t) {
      EXPECT_EQ(CheckSoftmaxForward(op(), x, out, 1, std::string("out ") + DTypeName(out_t)), 0);
      continue;
    }
    // Softmax's result in self's dtype, then cast to out's (as CANN's Cast after the
    // kernel; two roundings from a 16-bit self to the other 16-bit type): the same-dtype
    // run's values, rounded to out's, bit for bit.
    test::TestTensor same = test::TestTensor::Dense(t, {20, 300});
    ASSERT_TRUE(RunForward(op(), x, same, 1).status.ok());
    for (int64_t i = 0; i < out.numel(); ++i) {
      ASSERT_EQ(out.Get(i), test::RoundTo(out_t, same.Get(i))) << "element " << i;
    }
  }
}

TEST_P(LogSoftmaxForwardTest, SpecialRows) {
  const DType t = dtype();
  const double big = test::RoundTo(t, test::LimitsOf(t).max_finite);
  const std::vector<std::vector<double>> rows = {
      {1.0, test::kInf, 2.0, 3.0},                           // +inf: NaN throughout, as PyTorch
      {-test::kInf, -test::kInf, -test::kInf, -test::kInf},  // all -inf: NaN
      {0.0, test::kNaN, 1.0, 2.0},                           // NaN: NaN throughout
      {big, big, -big, 0.0},                                 // huge finite values: no overflow
      {-test::kInf, 0.0, 1.0, -test::kInf},  // -inf elements among finite ones: -inf there
      {-big, -big, -big, -big},
  };
  for (int64_t dim : {1, 0}) {
    const std::vector<int64_t> shape =
        dim == 1 ? std::vector<int64_t>{6, 4} : std::vector<int64_t>{4, 6};
    test::TestTensor x = test::TestTensor::Dense(t, shape), out = test::TestTensor::Dense(t, shape);
    for (int64_t i = 0; i < 6; ++i) {
      for (int64_t j = 0; j < 4; ++j) x.Set(dim == 1 ? i * 4 + j : j * 6 + i, rows[i][j]);
    }
    test::ForEachTarget([&](int64_t) {
      ASSERT_TRUE(RunForward(op(), x, out, dim).status.ok());
      EXPECT_EQ(CheckSoftmaxForward(op(), x, out, dim, "special rows, dim " + std::to_string(dim)), 0);
    });
  }
}

TEST_P(LogSoftmaxForwardTest, SameBitsForAnyThreadCountAndTarget) {
  const DType t = dtype();
  std::mt19937_64 rng(0x5EED0703);
  for (const SoftmaxCase& c : {SoftmaxCase{{64, 3001}, -1}, SoftmaxCase{{8, 500, 40}, 1}}) {
    test::TestTensor x = test::TestTensor::Dense(t, c.shape);
    test::FillRandom(&x, rng, -20, 20);
    std::vector<uint8_t> firsts[2];  // per family of targets (test::FusedFamily)
    const int saved = omp_get_max_threads();
    test::ForEachTarget([&](int64_t) {
      std::vector<uint8_t>& first = firsts[test::FusedFamily()];
      for (int threads : {1, 2, 3}) {
        omp_set_num_threads(threads);
        test::TestTensor out = test::TestTensor::Dense(t, c.shape);
        ASSERT_TRUE(RunForward(op(), x, out, c.dim).status.ok());
        const uint8_t* p = static_cast<const uint8_t*>(out.view().data);
        const std::vector<uint8_t> bytes(p, p + out.numel() * DTypeSize(t));
        if (first.empty()) first = bytes;
        EXPECT_TRUE(bytes == first) << threads << " threads";
      }
    });
    omp_set_num_threads(saved);
  }
}

TEST_P(LogSoftmaxForwardTest, RoundTripThroughTheBackward) {
  // y = op(x), then dx = its backward (dy, y): dx against the double
  // reference of the backward from the y the forward produced, under the backward's rule.
  const DType t = dtype();
  std::mt19937_64 rng(0x5EED0704);
  for (const SoftmaxCase& c : {SoftmaxCase{{40, 1000}, 1}, SoftmaxCase{{6, 300, 9}, 1}}) {
    test::TestTensor x = test::TestTensor::Dense(t, c.shape),
                     y = test::TestTensor::Dense(t, c.shape);
    test::FillRandom(&x, rng, -12, 12);
    ASSERT_TRUE(RunForward(op(), x, y, c.dim).status.ok());
    EXPECT_EQ(CheckSoftmaxForward(op(), x, y, c.dim, "forward"), 0);
    test::TestTensor dy = test::TestTensor::Dense(t, c.shape),
                     dx = test::TestTensor::Dense(t, c.shape);
    test::FillRandom(&dy, rng, -2, 2);
    test::RunChecked(backward(), dy, y, dx, c.dim);
    EXPECT_EQ(test::CheckLogSoftmax(dy, y, dx, c.dim, "round trip", backward()), 0);
  }
}

// SoftmaxBackward where dy - sum(dy y) overflows f32 though the result does not (dy = 3e38
// beside -3e38): the exact result, not inf or NaN, along a row and down a column.
TEST(SoftmaxBackwardSpecial, DifferenceBeyondF32) {
  const std::vector<std::vector<double>> rows = {{3e38, -3e38, 0.25, 0.75},
                                                 {3e38, -3e38, 0.0, 1.0},
                                                 {-3e38, 3e38, 0.5, 0.5}};
  for (const std::vector<double>& r : rows) {
    for (int64_t dim : {-1, 0}) {
      const std::vector<int64_t> shape =
          dim == -1 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2, 1};
      test::TestTensor dy = test::TestTensor::Dense(DType::kFloat32, shape),
                       y = test::TestTensor::Dense(DType::kFloat32, shape),
                       dx = test::TestTensor::Dense(DType::kFloat32, shape);
      for (int64_t i = 0; i < 2; ++i) {
        dy.Set(i, r[i]);
        y.Set(i, r[2 + i]);
      }
      test::ForEachTarget([&](int64_t) {
        test::RunChecked(Op::kSoftmaxBackward, dy, y, dx, dim);
        EXPECT_EQ(test::CheckLogSoftmax(dy, y, dx, dim, "dy - s beyond f32",
                                        Op::kSoftmaxBackward),
                  0);
        for (int64_t i = 0; i < 2; ++i) EXPECT_TRUE(std::isfinite(dx.Get(i))) << dx.Get(i);
      });
    }
  }
}

TEST_P(LogSoftmaxForwardTest, DimAndShape) {
  if (dtype() != DType::kFloat32) GTEST_SKIP() << "dtype-independent";
  test::TestTensor x = test::TestTensor::Dense(DType::kFloat32, {3, 4});
  test::TestTensor out = test::TestTensor::Dense(DType::kFloat32, {3, 4});
  for (int64_t dim : {2, -3, 100}) {
    const test::RunResult r = RunForward(op(), x, out, dim);
    EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
    EXPECT_NE(r.status.message().find("dim"), std::string::npos) << r.status.message();
  }
  test::TestTensor scalar = test::TestTensor::Dense(DType::kFloat32, {});
  test::TestTensor scalar_out = test::TestTensor::Dense(DType::kFloat32, {});
  scalar.Set(0, 7.0);
  for (int64_t dim : {0, -1}) {
    ASSERT_TRUE(RunForward(op(), scalar, scalar_out, dim).status.ok());
    EXPECT_EQ(scalar_out.Get(0), op() == Op::kSoftmax ? 1.0 : 0.0);
  }
  EXPECT_FALSE(RunForward(op(), scalar, scalar_out, 1).status.ok());
  test::TestTensor wrong = test::TestTensor::Dense(DType::kFloat32, {4, 3});
  const test::RunResult r = RunForward(op(), x, wrong, 1);
  EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
  EXPECT_NE(r.status.message().find("out"), std::string::npos) << r.status.message();
}

INSTANTIATE_TEST_SUITE_P(Forward, LogSoftmaxForwardTest,
                         ::testing::Combine(::testing::Values(Op::kLogSoftmax, Op::kSoftmax),
                                            ::testing::ValuesIn(test::kComputeTypes)),
                         [](const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
                           return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

// Printed when the run ends: the largest error each operator and dtype showed, over every
// target and case that ran (run the binary alone for the whole table).
class ReportLargestErrors : public ::testing::Environment {
 public:
  void TearDown() override {
    if (Worst().empty()) return;
    std::printf(
        "\nLargest error against the double reference, in ULP of the dtype, over every\n"
        "SIMD target and every case of this run:\n");
    for (const auto& [name, ulp] : Worst()) std::printf("  %-32s %6.3f\n", name.c_str(), ulp);
  }
};
const ::testing::Environment* const kReport =
    ::testing::AddGlobalTestEnvironment(new ReportLargestErrors);

}  // namespace
}  // namespace hostnn
