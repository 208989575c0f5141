// The operators with scalar parameters (op_list.def's Scalars column), beyond what every
// generic suite checks at the defaults:
// - several values of each number (the default, 0, negative, large, tiny), each flag both
//   ways, every compute dtype, special and random inputs, strided: within tolerance of the
//   double reference with the same parameters;
// - every 16-bit input of the one-input operators for two parameter sets;
// - the same bits for 1 and 2 threads with a non-default parameter;
// - aclScalar as CANN reads it: every real dtype converted (ToFloat), null refused with
//   161001 in CANN's order, a complex or wide unsigned dtype refused with 161002, each
//   operator's value rules (ScalarCheck), nothing written on failure;
// - the values are part of phase 1's memo key;
// - each operator's typed parameters (kernels/params.h) read every listed value by name.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hostnn/hostnn.h"
#include "kernels/params.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/capi_ops.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace test {
namespace {

// The operators with scalar parameters whose result is their output or their one input (an
// in-place two-input operator writes its first: tests/inplace_binary_test.cc, checked
// against its out-of-place twin here).
std::vector<Op> ScalarOps() {
  return OpsWhere([](Op op) {
    return GetOpInfo(op).num_scalars() > 0 && (GetOpInfo(op).is_forward || IsGradLike(op));
  });
}

bool IsOneInput(Op op) { return GetOpInfo(op).is_forward; }

int FlagIndex(Op op) {
  for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
    if (GetOpInfo(op).scalars[k].kind == ScalarKind::kFlag) return k;
  }
  return -1;
}

// Whether the operator's value rule (ScalarCheck) refuses v for its k-th parameter.
bool Refused(Op op, int k, double v, bool flag) {
  const ScalarCheck c = GetOpInfo(op).scalars[k].check;
  if (c == ScalarCheck::kNonZero) return !(static_cast<float>(v) != 0.0f);
  return static_cast<float>(v) < 0 &&
         (c == ScalarCheck::kNonNegative || (c == ScalarCheck::kNonNegativeWithFlag && flag));
}

// The parameter sets of an operator: each number takes each value of a list (the others
// at their defaults), each flag both values; sets its ScalarCheck refuses are left out.
std::vector<std::vector<double>> ParameterSets(Op op) {
  const OpInfo& info = GetOpInfo(op);
  const double* defaults = DefaultScalars(op);
  std::vector<std::vector<double>> sets;
  const int flag = FlagIndex(op);
  for (int f = 0; f < (flag >= 0 ? 2 : 1); ++f) {
    for (int k = 0; k < info.num_scalars(); ++k) {
      if (info.scalars[k].kind != ScalarKind::kNumber) continue;
      for (double v : {defaults[k], 0.0, -0.2, 1.0, 100.0, 1e-30, -3.5}) {
        std::vector<double> s(defaults, defaults + kMaxScalars);
        s[k] = v;
        if (flag >= 0) s[flag] = f;
        if (Refused(op, k, v, f == 1)) continue;
        sets.push_back(s);
      }
    }
  }
  return sets;
}

// The values the kernel computes with for self's dtype t: a number CANN converts to self's
// dtype (ScalarConversion::kToSelfDType, Threshold's) rounded to t, the others as given.
std::vector<double> AsComputed(Op op, DType t, std::vector<double> s) {
  for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
    if (GetOpInfo(op).scalars[k].conversion == ScalarConversion::kToSelfDType) {
      s[static_cast<size_t>(k)] = RoundTo(t, static_cast<float>(s[static_cast<size_t>(k)]));
    }
  }
  return s;
}

std::string Describe(Op op, const std::vector<double>& s) {
  std::string r = GetOpInfo(op).name;
  for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
    r += std::string(" ") + GetOpInfo(op).scalars[k].name + "=" + Num(s[k]);
  }
  return r;
}

OpArgs ArgsWith(Op op, const TestTensor& dy, const TestTensor& x, const TestTensor& out,
                const std::vector<double>& s) {
  OpArgs a = MakeArgs(op, dy, x, out);
  for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
    a.scalars[k].given = true;
    a.scalars[k].value = s[k];
    a.scalars[k].dtype = DType::kFloat64;
  }
  return a;
}

// Values for one operand: the special ones of the dtype, then random ones over the list's
// domain.
std::vector<double> Inputs(Op op, DType t, std::mt19937_64& rng, bool dy) {
  std::vector<double> v = dy ? SpecialDy(t) : SpecialX(t);
  std::uniform_real_distribution<double> u(GetOpInfo(op).domain_lo, GetOpInfo(op).domain_hi);
  while (v.size() < 300) v.push_back(RoundTo(t, dy ? u(rng) / 4 : u(rng)));
  return v;
}

bool WithinTolerance(Op op, DType t, double got, double exact, double dy) {
  return IsOneInput(op) ? ForwardEltwiseWithinTolerance(t, got, exact)
                        : EltwiseWithinTolerance(t, got, exact, dy);
}

TEST(ScalarOps, EveryParameterSetAgainstTheReference) {
  ASSERT_FALSE(ScalarOps().empty());
  std::mt19937_64 rng(5);
  for (Op op : ScalarOps()) {
    for (const std::vector<double>& s : ParameterSets(op)) {
      for (DType t : kComputeTypes) {
        if (!TakesDType(op, t)) continue;
        SCOPED_TRACE(Describe(op, s) + " " + DTypeName(t));
        const std::vector<double> xs = Inputs(op, t, rng, false);
        std::vector<double> dys = Inputs(op, t, rng, true);
        const int64_t n = static_cast<int64_t>(xs.size());
        dys.resize(xs.size(), 1.0);
        // x strided with an offset; every dy meets every x's position in turn.
        TestTensor x = TestTensor::Strided(t, {n}, {2}, 1, {2 * n + 1});
        TestTensor dy = TestTensor::Dense(t, {n});
        for (int64_t i = 0; i < n; ++i) {
          x.Set(i, xs[static_cast<size_t>(i)]);
          dy.Set(i, dys[static_cast<size_t>((i * 7) % n)]);
        }
        TestTensor out = TestTensor::Dense(t, {n});
        const TestTensor& target = GetOpInfo(op).is_forward && IsInplace(GetOpInfo(op).signature)
                                       ? x
                                       : out;
        const std::vector<double> before = x.Values();
        const RunResult r = RunOp(ArgsWith(op, dy, x, target, s));
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        int64_t bad = 0;
        double max_ulp = 0;  // over the results outside the absolute bound's reach
        const std::vector<double> sk = AsComputed(op, t, s);
        for (int64_t i = 0; i < n; ++i) {
          const double xi = before[static_cast<size_t>(i)], dyi = dy.Get(i);
          const double exact = IsOneInput(op) ? ForwardEltwiseRef(op, xi, sk.data())
                                              : EltwiseRef(op, dyi, xi, sk.data());
          const double got = target.Get(i);
          const double scale = IsOneInput(op) ? 1.0 : std::fabs(dyi);
          if (std::isfinite(exact) && std::fabs(exact) > 0x1p-21 * scale * 64) {
            max_ulp = std::max(max_ulp, UlpError(t, got, exact));
          }
          if (!WithinTolerance(op, t, got, exact, dyi) && ++bad <= 3) {
            ADD_FAILURE() << "x " << Num(xi) << " dy " << Num(dyi) << ": got " << Num(got)
                          << ", exact " << Num(exact);
          }
        }
        EXPECT_EQ(bad, 0);
        // The table of the release notes: the largest error per parameter set and dtype.
        std::printf("  %-60s %-9s max ULP %.3f\n", Describe(op, s).c_str(), DTypeName(t), max_ulp);
      }
    }
  }
}

// Every FLOAT16 and BFLOAT16 input of the one-input operators, for two parameter sets.
TEST(ScalarOps, Every16BitInputForTwoParameterSets) {
  for (Op op : ScalarOps()) {
    if (!IsOneInput(op)) continue;
    std::vector<double> a(DefaultScalars(op), DefaultScalars(op) + kMaxScalars), b = a;
    b[0] = Refused(op, 0, -0.2, false) ? 1.5 : -0.2;
    for (const auto& s : {a, b}) {
      for (DType t : {DType::kFloat16, DType::kBFloat16}) {
        if (!TakesDType(op, t)) continue;
        SCOPED_TRACE(Describe(op, s) + " " + DTypeName(t));
        TestTensor x = TestTensor::Dense(t, {65536});
        std::vector<uint16_t> bits(65536);
        for (uint32_t i = 0; i < 65536; ++i) bits[i] = static_cast<uint16_t>(i);
        std::memcpy(x.storage().data(), bits.data(), sizeof(uint16_t) * bits.size());
        TestTensor out = TestTensor::Dense(t, {65536});
        const bool in_place = IsInplace(GetOpInfo(op).signature);
        const std::vector<double> xs = x.Values();
        ASSERT_TRUE(RunOp(ArgsWith(op, x, x, in_place ? x : out, s)).status.ok());
        const TestTensor& got = in_place ? x : out;
        int64_t bad = 0;
        const std::vector<double> sk = AsComputed(op, t, s);
        for (int64_t i = 0; i < 65536; ++i) {
          const double exact = ForwardEltwiseRef(op, xs[static_cast<size_t>(i)], sk.data());
          if (!ForwardEltwiseWithinTolerance(t, got.Get(i), exact) && ++bad <= 3) {
            ADD_FAILURE() << "x " << Num(xs[static_cast<size_t>(i)]) << ": got "
                          << Num(got.Get(i)) << ", exact " << Num(exact);
          }
        }
        EXPECT_EQ(bad, 0);
      }
    }
  }
}

TEST(ScalarOps, SameBitsForOneAndTwoThreads) {
  std::mt19937_64 rng(9);
  for (Op op : ScalarOps()) {
    std::vector<double> s(DefaultScalars(op), DefaultScalars(op) + kMaxScalars);
    s[0] = 0.37;
    const int64_t n = 100003;
    TestTensor x = TestTensor::Dense(DType::kFloat32, {n});
    TestTensor dy = TestTensor::Dense(DType::kFloat32, {n});
    FillRandom(&x, rng, -12, 12);
    FillRandom(&dy, rng, -2, 2);
    std::vector<std::vector<uint8_t>> results;
    for (int threads : {1, 2}) {
      omp_set_num_threads(threads);
      TestTensor xc = TestTensor::Dense(DType::kFloat32, {n});
      for (int64_t i = 0; i < n; ++i) xc.Set(i, x.Get(i));
      TestTensor out = TestTensor::Dense(DType::kFloat32, {n});
      const bool in_place = IsInplace(GetOpInfo(op).signature);
      ASSERT_TRUE(RunOp(ArgsWith(op, dy, xc, in_place ? xc : out, s)).status.ok());
      results.push_back((in_place ? xc : out).storage().Snapshot());
    }
    omp_set_num_threads(2);
    EXPECT_EQ(results[0], results[1]) << GetOpInfo(op).name;
  }
}

// ---- through the C API ------------------------------------------------------------------

struct ScalarCase {
  aclDataType dtype;
  std::vector<uint8_t> bytes;
  double value;  // what CANN's ToFloat reads
};

template <typename T>
ScalarCase Make(aclDataType dt, T v, double value) {
  ScalarCase c{dt, std::vector<uint8_t>(sizeof(T)), value};
  std::memcpy(c.bytes.data(), &v, sizeof(T));
  return c;
}

// Phase 1 and 2 of `op` with its first number given as `s` (others and the flag at their
// defaults); the status of phase 1.
aclnnStatus RunWithScalar(Op op, const aclScalar* s, const aclTensor* dy, const aclTensor* x,
                          aclTensor* out, bool flag = false) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const CApiOp& api = GetCApiOp(op);
  const aclnnStatus st =
      IsOneInput(op)
          ? api.phase1_with(x, nullptr, nullptr, out, 0, s, capi_ops_internal::DefaultNumber(op, 1),
                            capi_ops_internal::DefaultNumber(op, 2), flag, &ws, &exec)
          : api.phase1_with(dy, x, x, out, 0, s, capi_ops_internal::DefaultNumber(op, 1),
                            capi_ops_internal::DefaultNumber(op, 2), flag, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws + 1);
  EXPECT_EQ(GetCApiOp(op).phase2(workspace.data(), ws, exec, nullptr), ACLNN_SUCCESS);
  return st;
}

TEST(ScalarOpsCApi, EveryRealScalarDTypeIsReadAsCANNReadsIt) {
  const uint16_t half_0_375 = 0x3600, bf16_neg_0_5 = 0xBF00;
  const std::vector<ScalarCase> cases = {
      Make<double>(ACL_DOUBLE, 0.1, static_cast<float>(0.1)),
      Make<float>(ACL_FLOAT, -0.25f, -0.25),
      Make<uint16_t>(ACL_FLOAT16, half_0_375, 0.375),
      Make<uint16_t>(ACL_BF16, bf16_neg_0_5, -0.5),
      Make<int32_t>(ACL_INT32, -2, -2.0),
      Make<int64_t>(ACL_INT64, 3, 3.0),
      Make<int16_t>(ACL_INT16, -7, -7.0),
      Make<int8_t>(ACL_INT8, -1, -1.0),
      Make<uint8_t>(ACL_UINT8, 200, 200.0),
      Make<uint8_t>(ACL_BOOL, 1, 1.0)};
  for (Op op : ScalarOps()) {
    for (const ScalarCase& c : cases) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " dtype " + std::to_string(c.dtype));
      std::vector<float> x = {-3.0f, -0.5f, 0.0f, 2.0f}, dy = {1.5f, -2.0f, 4.0f, 0.25f};
      std::vector<float> out(4, 9.0f);
      std::vector<uint8_t> bytes = c.bytes;
      aclScalar* s = aclCreateScalar(bytes.data(), c.dtype);
      TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {4}), tdy = MakeDense(dy.data(), ACL_FLOAT, {4});
      TensorPtr tout = MakeDense(out.data(), ACL_FLOAT, {4});
      const std::vector<float> x0 = x;
      if (Refused(op, 0, c.value, false)) {  // the value rule, after the dtype is read
        EXPECT_EQ(RunWithScalar(op, s, tdy.get(), tx.get(), tout.get()), ACLNN_ERR_PARAM_INVALID);
        EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), GetOpInfo(op).scalars[0].name));
        EXPECT_EQ(x, x0);
        for (float v : out) EXPECT_EQ(v, 9.0f);
        aclDestroyScalar(s);
        continue;
      }
      ASSERT_EQ(RunWithScalar(op, s, tdy.get(), tx.get(), tout.get()), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      aclDestroyScalar(s);
      std::vector<double> params(DefaultScalars(op), DefaultScalars(op) + kMaxScalars);
      params[0] = c.value;
      const std::vector<float>& got = IsInplace(GetOpInfo(op).signature) ? x : out;
      for (int i = 0; i < 4; ++i) {
        const double exact = IsOneInput(op) ? ForwardEltwiseRef(op, x0[i], params.data())
                                            : EltwiseRef(op, dy[i], x0[i], params.data());
        // Within the operator's tolerance (exact for the selections): another reading of
        // the scalar would move the result far more.
        EXPECT_TRUE(WithinTolerance(op, DType::kFloat32, got[i], exact, dy[i]))
            << "x " << x0[i] << ": got " << got[i] << ", exact " << exact;
      }
    }
  }
}

TEST(ScalarOpsCApi, NullAndNonRealScalarsAreRefusedInCANNOrder) {
  for (Op op : ScalarOps()) {
    SCOPED_TRACE(GetOpInfo(op).name);
    const char* name = GetOpInfo(op).scalars[0].name;
    std::vector<float> x = {1, 2, 3, 4}, dy = {1, 1, 1, 1}, out(4, 9.0f);
    TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {4}), tdy = MakeDense(dy.data(), ACL_FLOAT, {4});
    TensorPtr tout = MakeDense(out.data(), ACL_FLOAT, {4});
    const std::vector<float> x0 = x;
    // A null scalar: 161001 naming it; one that may be null (Swish's betaOptional) takes
    // its default.
    if (GetOpInfo(op).scalars[0].nullable) {
      EXPECT_EQ(RunWithScalar(op, nullptr, tdy.get(), tx.get(), tout.get()), ACLNN_SUCCESS);
      const double* d = DefaultScalars(op);
      for (int i = 0; i < 4; ++i) {
        const double exact = IsOneInput(op) ? ForwardEltwiseRef(op, x[i], d)
                                            : EltwiseRef(op, dy[i], x[i], d);
        EXPECT_TRUE(WithinTolerance(op, DType::kFloat32, out[i], exact, dy[i])) << out[i];
      }
      continue;
    }
    EXPECT_EQ(RunWithScalar(op, nullptr, tdy.get(), tx.get(), tout.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), name)) << aclGetRecentErrMsg();
    // A null input before it: the input is named. EluBackward's parameters come before its
    // second input, so there the parameter is named first.
    EXPECT_EQ(RunWithScalar(op, nullptr, tdy.get(), nullptr, tout.get()), ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_EQ(NamesParam(aclGetRecentErrMsg(), name), GetOpInfo(op).scalars_before_in1)
        << aclGetRecentErrMsg();
    // Complex and wide unsigned dtypes: 161002 naming it.
    for (aclDataType dt : {ACL_COMPLEX64, ACL_UINT32, ACL_UINT64}) {
      uint64_t raw[2] = {0, 0};
      aclScalar* s = aclCreateScalar(raw, dt);
      ASSERT_NE(s, nullptr);
      EXPECT_EQ(RunWithScalar(op, s, tdy.get(), tx.get(), tout.get()), ACLNN_ERR_PARAM_INVALID);
      EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), name)) << aclGetRecentErrMsg();
      aclDestroyScalar(s);
    }
    EXPECT_EQ(x, x0);
    for (float v : out) EXPECT_EQ(v, 9.0f);
  }
}

// LeakyReluBackward: selfIsResult with a negative negativeSlope is refused (CANN's rule);
// with a non-negative one it gives what selfIsResult false gives.
TEST(ScalarOpsCApi, SelfIsResultNeedsANonNegativeSlope) {
  std::vector<float> x = {-3.0f, -0.0f, 0.5f, 2.0f}, dy = {1.5f, -2.0f, 4.0f, 0.25f};
  std::vector<float> out(4, 9.0f), out2(4, 9.0f);
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {4}), tdy = MakeDense(dy.data(), ACL_FLOAT, {4});
  TensorPtr tout = MakeDense(out.data(), ACL_FLOAT, {4}), tout2 = MakeDense(out2.data(), ACL_FLOAT, {4});
  double negative = -0.1, positive = 0.2;
  aclScalar* sn = aclCreateScalar(&negative, ACL_DOUBLE);
  aclScalar* sp = aclCreateScalar(&positive, ACL_DOUBLE);
  EXPECT_EQ(RunWithScalar(Op::kLeakyReluBackward, sn, tdy.get(), tx.get(), tout.get(), true),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "negativeSlope")) << aclGetRecentErrMsg();
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("selfIsResult"), std::string::npos);
  for (float v : out) EXPECT_EQ(v, 9.0f);
  EXPECT_EQ(RunWithScalar(Op::kLeakyReluBackward, sn, tdy.get(), tx.get(), tout.get(), false),
            ACLNN_SUCCESS);
  EXPECT_EQ(RunWithScalar(Op::kLeakyReluBackward, sp, tdy.get(), tx.get(), tout.get(), true),
            ACLNN_SUCCESS);
  EXPECT_EQ(RunWithScalar(Op::kLeakyReluBackward, sp, tdy.get(), tx.get(), tout2.get(), false),
            ACLNN_SUCCESS);
  EXPECT_EQ(out, out2);
  aclDestroyScalar(sn);
  aclDestroyScalar(sp);
}

// Phase 1 twice on the same tensors with different values: each run uses its own value
// (the memo keys the values).
TEST(ScalarOpsCApi, ValuesArePartOfThePhaseOneMemo) {
  for (Op op : ScalarOps()) {
    SCOPED_TRACE(GetOpInfo(op).name);
    std::vector<float> x = {-4.0f, 0.5f}, dy = {1.0f, 1.0f}, out(2, 9.0f);
    TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {2}), tdy = MakeDense(dy.data(), ACL_FLOAT, {2});
    TensorPtr tout = MakeDense(out.data(), ACL_FLOAT, {2});
    std::vector<std::vector<float>> results;
    for (double v : {0.25, 5.0}) {
      x = {-4.0f, 0.5f};
      aclScalar* s = aclCreateScalar(&v, ACL_DOUBLE);
      ASSERT_EQ(RunWithScalar(op, s, tdy.get(), tx.get(), tout.get()), ACLNN_SUCCESS);
      aclDestroyScalar(s);
      results.push_back(IsInplace(GetOpInfo(op).signature) ? x : out);
    }
    EXPECT_NE(results[0], results[1]);
  }
}


// Parameter combinations the one-at-a-time sets never reach: an exponent pushed past f32's
// range by a negative inputScale or a tiny alpha, a zero factor against an overflowing
// exponential, 1/alpha beyond f32, an infinite dy where beta x overflows.
TEST(ScalarOps, CombinationsAtTheExtremes) {
  struct Case {
    Op op;
    std::vector<double> scalars;
    std::vector<double> xs;
  };
  const std::vector<Case> cases = {
      {Op::kEluBackward, {1, 1, -1, 0}, {-89, -88.5, -100, -0.5, 3}},
      {Op::kEluBackward, {0, 1, -1, 0}, {-89, -100, -1}},
      {Op::kEluBackward, {1, 0, -2, 0}, {-60, -1}},
      {Op::kElu, {1e-30, 1, -1, 0}, {-89, -150, -200, -1}},
      {Op::kElu, {0, 1, -1, 0}, {-89, -200, -0.0, 0.0}},
      {Op::kCelu, {1e-39, 0, 0, 0}, {0.0, -1e-45, -1e-39, 1}},
      {Op::kCelu, {-1e-40, 0, 0, 0}, {-1e-39, -1e-41, 0.0, 2}},
      {Op::kCelu, {-0.01, 0, 0, 0}, {-0.5, -0.9, -1.5, -3}},
      {Op::kSoftplus, {1, 20, 0, 0}, {-104, -200, -1e30, 5}},
      {Op::kSwishBackward, {100, 0, 0, 0}, {-1e37, -1e30, -5}},
      {Op::kSoftplusBackward, {100, 20, 0, 0}, {-1e37, -1e30, -5}},
  };
  for (const Case& c : cases) {
    for (DType t : kComputeTypes) {
      if (!TakesDType(c.op, t)) continue;
      SCOPED_TRACE(Describe(c.op, c.scalars) + " " + DTypeName(t));
      const int64_t n = static_cast<int64_t>(c.xs.size());
      for (double dyv : {0.5, kInf, -kInf}) {
        TestTensor x = TestTensor::Dense(t, {n}), dy = TestTensor::Dense(t, {n});
        TestTensor out = TestTensor::Dense(t, {n});
        for (int64_t i = 0; i < n; ++i) {
          x.Set(i, c.xs[static_cast<size_t>(i)]);
          dy.Set(i, dyv);
        }
        const std::vector<double> before = x.Values();
        ASSERT_TRUE(RunOp(ArgsWith(c.op, dy, x, out, c.scalars)).status.ok());
        for (int64_t i = 0; i < n; ++i) {
          const double xi = before[static_cast<size_t>(i)];
          const double exact = IsOneInput(c.op) ? ForwardEltwiseRef(c.op, xi, c.scalars.data())
                                                : EltwiseRef(c.op, dyv, xi, c.scalars.data());
          EXPECT_TRUE(WithinTolerance(c.op, t, out.Get(i), exact, dyv))
              << "x " << Num(xi) << " dy " << Num(dyv) << ": got " << Num(out.Get(i))
              << ", exact " << Num(exact);
        }
      }
    }
  }
}

// Threshold's numbers are converted to self's dtype before the comparison, as CANN's op_api
// makes tensors of self's dtype from them: an integer self truncates them (4.9 -> 4, 10.7 ->
// 10, saturated to the type), a FLOAT16 self rounds them (1.0006 -> 1.0009766, so the
// FLOAT16 value 1.0009766 is not above it).
TEST(ScalarOps, ThresholdTakesItsNumbersInSelfDType) {
  for (DType t : {DType::kInt8, DType::kUInt8, DType::kInt32, DType::kInt64}) {
    SCOPED_TRACE(DTypeName(t));
    TestTensor x = TestTensor::Dense(t, {4}), out = TestTensor::Dense(t, {4});
    const double xs[4] = {3, 4, 5, 100};
    for (int64_t i = 0; i < 4; ++i) x.Set(i, xs[i]);
    ASSERT_TRUE(RunOp(ArgsWith(Op::kThreshold, x, x, out, {4.9, 10.7, 0, 0})).status.ok());
    const double want[4] = {10, 10, 5, 100};
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out.Get(i), want[i]) << "x " << xs[i];
    // Beyond the type's range: saturated (a threshold of 1e10 is the type's largest, so
    // every element takes the value, -1e10 saturated).
    ASSERT_TRUE(RunOp(ArgsWith(Op::kThreshold, x, x, out, {1e10, -1e10, 0, 0})).status.ok());
    const double lowest = t == DType::kInt8    ? -128.0
                          : t == DType::kUInt8 ? 0.0
                          : t == DType::kInt32 ? -2147483648.0
                                               : -1e10;  // INT64 holds it
    for (int64_t i = 0; i < 4; ++i) EXPECT_EQ(out.Get(i), lowest);
  }
  TestTensor x = TestTensor::Dense(DType::kFloat16, {2}), out = TestTensor::Dense(DType::kFloat16, {2});
  x.Set(0, 1.0009765625);
  x.Set(1, 1.001953125);
  ASSERT_TRUE(RunOp(ArgsWith(Op::kThreshold, x, x, out, {1.0006, -1.0, 0, 0})).status.ok());
  EXPECT_EQ(out.Get(0), -1.0);
  EXPECT_EQ(out.Get(1), 1.001953125);
}

// Degenerate parameters are evaluated as the formulas' comparisons and products evaluate
// them, as CANN does (docs/activation_params.md): a NaN lambd passes Softshrink's and
// Shrink's `>= 0` check and gives 0 everywhere (every comparison with it is false); a NaN
// min of HardtanhBackward drops its comparison (gradOutput where self < max), a NaN max
// its own; Celu with alpha = +inf gives NaN for self <= 0 (inf * 0), self above.
TEST(ScalarOps, DegenerateParametersAreEvaluatedLiterally) {
  const double xs[] = {-3, -1, -0.25, 0, 0.25, 1, 3};
  const int64_t n = 7;
  const double nan = std::nan(""), inf = INFINITY;
  for (DType t : kComputeTypes) {
    SCOPED_TRACE(DTypeName(t));
    TestTensor x = TestTensor::Dense(t, {n}), dy = TestTensor::Dense(t, {n});
    TestTensor out = TestTensor::Dense(t, {n});
    for (int64_t i = 0; i < n; ++i) x.Set(i, xs[i]), dy.Set(i, static_cast<double>(i + 1));
    struct Case {
      Op op;
      std::vector<double> params;
      double (*want)(double x, double dy);
    };
    const Case cases[] = {
        {Op::kSoftshrink, {nan}, [](double, double) { return 0.0; }},
        {Op::kShrink, {nan, 0.0}, [](double, double) { return 0.0; }},
        {Op::kShrink, {nan, 2.0}, [](double, double) { return 0.0; }},
        {Op::kHardtanhBackward, {nan, 1.0}, [](double v, double d) { return v < 1.0 ? d : 0.0; }},
        {Op::kHardtanhBackward, {-1.0, nan}, [](double v, double d) { return v > -1.0 ? d : 0.0; }},
        {Op::kCelu, {inf}, [](double v, double) { return v > 0.0 ? v : std::nan(""); }},
    };
    for (const Case& c : cases) {
      if (!TakesDType(c.op, t)) continue;
      SCOPED_TRACE(std::string(GetOpInfo(c.op).name) + " " + Num(c.params[0]));
      out.storage().FillBytes(0x5A);
      const RunResult r = RunOp(ArgsWith(c.op, dy, x, out, c.params));
      ASSERT_TRUE(r.status.ok()) << r.status.message();
      for (int64_t i = 0; i < n; ++i) {
        const double want = c.want(xs[i], dy.Get(i)), got = out.Get(i);
        EXPECT_TRUE(std::isnan(want) ? std::isnan(got) : got == want)
            << "x " << xs[i] << ": got " << Num(got) << ", expected " << Num(want);
      }
    }
  }
}

// Each operator's typed parameters (kernels/params.h) read every parameter the list gives
// it, by a name the list gives it (GeGlu's approximate too, which picks its kernel).
TEST(ScalarParams, EveryListedParameterIsReadByName) {
  for (Op op : AllOps()) {
    const OpInfo& info = GetOpInfo(op);
    SCOPED_TRACE(info.name);
    const float numbers[kMaxScalars] = {};
    const int64_t exact[kMaxScalars] = {};
    const kernels::ParamValues values(op, numbers, exact);
    kernels::InitParams(op, values);
    EXPECT_FALSE(values.AskedUnlisted());
    EXPECT_TRUE(values.ReadAll());
  }
}

// Each value lands in its own field, with what CANN's op_api does to it first.
TEST(ScalarParams, ValuesLandInTheirNamedFields) {
  const auto init = [](Op op, std::vector<float> numbers, std::vector<int64_t> exact = {}) {
    numbers.resize(kMaxScalars);
    exact.resize(kMaxScalars);
    return kernels::InitParams(op, kernels::ParamValues(op, numbers.data(), exact.data()));
  };
  const auto tanh = init(Op::kHardtanhBackward, {-2.0f, 3.0f});
  EXPECT_EQ(tanh.As<kernels::HardtanhBackwardParams>().min, -2.0f);
  EXPECT_EQ(tanh.As<kernels::HardtanhBackwardParams>().max, 3.0f);
  const auto elu = init(Op::kEluBackward, {0.5f, 2.0f, 3.0f, 1.0f});
  EXPECT_EQ(elu.As<kernels::EluBackwardParams>().alpha, 0.5f);
  EXPECT_EQ(elu.As<kernels::EluBackwardParams>().scale, 2.0f);
  EXPECT_EQ(elu.As<kernels::EluBackwardParams>().input_scale, 3.0f);
  EXPECT_TRUE(elu.As<kernels::EluBackwardParams>().is_result);
  const auto leaky = init(Op::kLeakyReluBackward, {0.25f, 1.0f});
  EXPECT_EQ(leaky.As<kernels::LeakyReluBackwardParams>().negative_slope, 0.25f);
  EXPECT_TRUE(leaky.As<kernels::LeakyReluBackwardParams>().self_is_result);
  const auto shrink = init(Op::kShrink, {0.5f, -1.5f});
  EXPECT_EQ(shrink.As<kernels::ShrinkParams>().lambd, 0.5f);
  EXPECT_EQ(shrink.As<kernels::ShrinkParams>().bias, -1.5f);
  const auto threshold = init(Op::kThreshold, {1.0f, 7.0f});
  EXPECT_EQ(threshold.As<kernels::ThresholdParams>().threshold, 1.0f);
  EXPECT_EQ(threshold.As<kernels::ThresholdParams>().value, 7.0f);
  // A negative lambd is 0 for Hardshrink and its gradient (CANN's op_api clamps it).
  EXPECT_EQ(init(Op::kHardshrink, {-0.5f}).As<kernels::ShrinkLambdParams>().lambd, 0.0f);
  EXPECT_EQ(init(Op::kHardshrinkBackward, {-0.5f}).As<kernels::ShrinkLambdParams>().lambd, 0.0f);
  // SoftshrinkBackward's is named lambda, read by HardshrinkBackward's functor.
  EXPECT_EQ(init(Op::kSoftshrinkBackward, {0.75f}).As<kernels::ShrinkLambdParams>().lambd, 0.75f);
  // A threshold within FLT_EPSILON of 0 is 0 for ThresholdBackward, not for Threshold.
  EXPECT_EQ(init(Op::kThresholdBackward, {1e-8f}).As<kernels::ThresholdBackwardParams>().threshold,
            0.0f);
  EXPECT_EQ(init(Op::kThresholdBackward, {1e-6f}).As<kernels::ThresholdBackwardParams>().threshold,
            1e-6f);
  EXPECT_EQ(init(Op::kThreshold, {1e-8f, 0.0f}).As<kernels::ThresholdParams>().threshold, 1e-8f);
  // AddRelu's alpha as f32 and exactly, past 2^53.
  const int64_t big = (int64_t{1} << 60) + 1;
  const auto add = init(Op::kAddRelu, {static_cast<float>(big)}, {big});
  EXPECT_EQ(add.As<kernels::AddReluParams>().alpha, static_cast<float>(big));
  EXPECT_EQ(add.As<kernels::AddReluParams>().alpha_exact, big);
  EXPECT_EQ(init(Op::kSwishBackward, {0.5f}).As<kernels::SwishParams>().beta, 0.5f);
  EXPECT_EQ(init(Op::kSoftplus, {2.0f, 10.0f}).As<kernels::SoftplusParams>().threshold, 10.0f);
  // GeGlu's approximate 1 picks the functor's Alt form (gelu's tanh form), 0 the erf form;
  // an operator without such a parameter never picks one.
  EXPECT_TRUE(kernels::PicksAltForm(Op::kGeGlu, init(Op::kGeGlu, {1.0f})));
  EXPECT_FALSE(kernels::PicksAltForm(Op::kGeGlu, init(Op::kGeGlu, {0.0f})));
  const auto v3 = init(Op::kGeGluV3Backward, {1.0f, 1.0f});
  EXPECT_TRUE(kernels::PicksAltForm(Op::kGeGluV3Backward, v3));
  EXPECT_TRUE(v3.As<kernels::GeGluV3Params>().activate_left);
  EXPECT_FALSE(init(Op::kGeGluV3, {0.0f, 1.0f}).As<kernels::GeGluV3Params>().alt_form);
  EXPECT_FALSE(kernels::PicksAltForm(Op::kElu, init(Op::kElu, {1.0f, 1.0f, 1.0f})));
}

}  // namespace
}  // namespace test
}  // namespace hostnn
