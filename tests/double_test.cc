// DOUBLE through the C API, as a CANN program calls it: the operators whose op_api lists
// DT_DOUBLE for self on Atlas A2 (ComputesDouble: LeakyRelu, LeakyReluBackward, Elu,
// Sigmoid, SigmoidBackward and the in-place forms) compute a DOUBLE input in double, held
// to SPEC 4's DOUBLE bound (4 ULP, or 2^-50 absolute, times |dy| for a gradient) against a
// long-double reference on every SIMD target, over exp's whole range and its specials; a
// narrower out is that double result rounded once. SoftplusBackward casts DOUBLE inputs to
// FLOAT, as its op_api. The operators whose op_api checks out by CanCast from self (or by
// a list holding DOUBLE) widen their result to a DOUBLE out exactly. Then the refusals:
// DOUBLE where op_api's list has none, and nothing written.

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_celu.h"
#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_erfinv.h"
#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "aclnnop/aclnn_softplus.h"
#include "aclnnop/aclnn_softplus_backward.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

using Ld = long double;

TEST(DoubleOps, AreThoseWhoseOpApiListsDouble) {
  std::vector<std::string> names;
  for (Op op : AllOps()) {
    if (ComputesDouble(op)) names.push_back(GetOpInfo(op).name);
  }
  const std::vector<std::string> expected = {"Sigmoid",   "InplaceSigmoid",   "SigmoidBackward",
                                             "LeakyRelu", "InplaceLeakyRelu", "LeakyReluBackward",
                                             "Elu",       "InplaceElu",       "Softmax",
                                             "Glu",       "GluBackward"};
  EXPECT_EQ(names, expected);
}

// Both phases; the status of the first that fails. ws and exec are read once phase 1 has
// returned (through pointers: a by-value argument could be read before the call beside it
// writes it, in whichever order the compiler evaluates arguments).
aclnnStatus RunPhases(aclnnStatus phase1, const uint64_t* ws, aclOpExecutor* const* exec,
                      aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  if (phase1 != ACLNN_SUCCESS) return phase1;
  std::vector<uint64_t> workspace(static_cast<size_t>((*ws + 7) / 8));
  return phase2(*ws ? workspace.data() : nullptr, *ws, *exec, nullptr);
}

// An aclScalar of a double value, destroyed with the holder.
struct Scalar {
  explicit Scalar(double v) : s(aclCreateScalar(&v, ACL_DOUBLE)) {}
  ~Scalar() { aclDestroyScalar(s); }
  aclScalar* s;
};

aclnnStatus Sigmoid(aclTensor* x, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  if (x == out)
    return RunPhases(aclnnInplaceSigmoidGetWorkspaceSize(x, &ws, &e), &ws, &e, aclnnInplaceSigmoid);
  return RunPhases(aclnnSigmoidGetWorkspaceSize(x, out, &ws, &e), &ws, &e, aclnnSigmoid);
}
aclnnStatus LeakyRelu(aclTensor* x, aclTensor* out, double slope) {
  Scalar s(slope);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  if (x == out)
    return RunPhases(aclnnInplaceLeakyReluGetWorkspaceSize(x, s.s, &ws, &e), &ws, &e,
                     aclnnInplaceLeakyRelu);
  return RunPhases(aclnnLeakyReluGetWorkspaceSize(x, s.s, out, &ws, &e), &ws, &e, aclnnLeakyRelu);
}
aclnnStatus Elu(aclTensor* x, aclTensor* out, double alpha, double scale, double input_scale) {
  Scalar a(alpha), sc(scale), is(input_scale);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  if (x == out) {
    return RunPhases(aclnnInplaceEluGetWorkspaceSize(x, a.s, sc.s, is.s, &ws, &e), &ws, &e,
                     aclnnInplaceElu);
  }
  return RunPhases(aclnnEluGetWorkspaceSize(x, a.s, sc.s, is.s, out, &ws, &e), &ws, &e, aclnnElu);
}
aclnnStatus LeakyReluBackward(aclTensor* dy, aclTensor* x, aclTensor* out, double slope) {
  Scalar s(slope);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnLeakyReluBackwardGetWorkspaceSize(dy, x, s.s, false, out, &ws, &e), &ws, &e,
                   aclnnLeakyReluBackward);
}
aclnnStatus SigmoidBackward(aclTensor* dy, aclTensor* y, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnSigmoidBackwardGetWorkspaceSize(dy, y, out, &ws, &e), &ws, &e,
                   aclnnSigmoidBackward);
}
aclnnStatus SoftplusBackward(aclTensor* dy, aclTensor* x, aclTensor* out, double beta,
                             double threshold) {
  Scalar b(beta), t(threshold);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnSoftplusBackwardGetWorkspaceSize(dy, x, b.s, t.s, out, &ws, &e), &ws, &e,
                   aclnnSoftplusBackward);
}
aclnnStatus Erfinv(aclTensor* x, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnErfinvGetWorkspaceSize(x, out, &ws, &e), &ws, &e, aclnnErfinv);
}
aclnnStatus Celu(aclTensor* x, aclTensor* out, double alpha) {
  Scalar a(alpha);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnCeluGetWorkspaceSize(x, a.s, out, &ws, &e), &ws, &e, aclnnCelu);
}
aclnnStatus Softplus(aclTensor* x, aclTensor* out, double beta, double threshold) {
  Scalar b(beta), t(threshold);
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  return RunPhases(aclnnSoftplusGetWorkspaceSize(x, b.s, t.s, out, &ws, &e), &ws, &e,
                   aclnnSoftplus);
}

// The references, in long double (64-bit significands), from the DOUBLE inputs and the
// parameters as CANN reads them (f32 values).
Ld SigmoidRef(double x) { return 1.0L / (1.0L + std::exp(-static_cast<Ld>(x))); }
Ld LeakyReluRef(double x, float slope) { return x > 0 ? x : static_cast<Ld>(x) * slope; }
Ld LeakyReluBackwardRef(double dy, double x, float slope) {
  if (std::isnan(x)) return x;
  return x > 0 ? dy : static_cast<Ld>(dy) * slope;
}
// x * inputScale carried as hi + lo, so that exp's growth does not magnify the reference's
// own rounding.
Ld EluRef(double x, float alpha, float scale, float input_scale) {
  if (!std::isfinite(alpha) || !std::isfinite(input_scale)) {  // CANN's f32 path
    if (std::isnan(x)) return x;
    const float x32 = static_cast<float>(x);
    return static_cast<float>(static_cast<double>(x32 > 0 ? x32 : -alpha) * scale);
  }
  if (std::isnan(x)) return x;
  if (x > 0) return static_cast<Ld>(x) * scale;
  const Ld hi = static_cast<Ld>(x) * input_scale;
  if (std::isnan(hi)) return hi;
  const Ld lo =
      std::isfinite(hi) ? std::fma(static_cast<Ld>(x), static_cast<Ld>(input_scale), -hi) : 0.0L;
  const Ld base = std::expm1(hi);
  const Ld em1 = std::isfinite(base) ? base + std::exp(hi) * lo : base;
  return static_cast<Ld>(alpha) * scale * em1;
}

double UlpF64(Ld v) {
  const Ld a = std::fabs(v);
  if (a < DBL_MIN) return std::ldexp(1.0, -1074);
  int e = 0;
  std::frexp(static_cast<double>(a), &e);
  return std::ldexp(1.0, e - 53);
}

// SPEC 4 for DOUBLE: 4 ULP of the exact value, or 2^-50 absolute (times |dy| for a
// gradient); NaN where the exact value is NaN; an infinity, or a value past DBL_MAX,
// exactly that infinity.
bool WithinDoubleBound(double got, Ld exact, double abs_scale) {
  if (std::isnan(exact)) return std::isnan(got);
  if (std::fabs(exact) > static_cast<Ld>(DBL_MAX)) return got == static_cast<double>(exact);
  if (!std::isfinite(got)) return false;
  const Ld err = std::fabs(static_cast<Ld>(got) - exact);
  return err <= 4 * static_cast<Ld>(UlpF64(exact)) ||
         err <= std::ldexp(static_cast<Ld>(abs_scale), -50);
}

// Inputs over exp's whole double range: the edges of ExpM1F64's clamps and of the
// reductions, subnormals, infinities, NaN, and random doubles with full mantissas.
std::vector<double> DoubleInputs() {
  std::vector<double> v = {0.0,     -0.0,     5e-324,   -5e-324,   1e-300, -1e-300, 1e-20, -1e-20,
                           0.25,    -0.25,    0.3465,   -0.3466,   0.5,    -0.5,    1.0,   -1.0,
                           2.0,     -2.0,     20.0,     -20.0,     36.7,   -36.7,   38.0,  -38.0,
                           40.0,    -40.0,    41.0,     -41.0,     700.0,  -700.0,  709.7, -709.7,
                           709.8,   -709.8,   744.5,    -744.5,    746.0,  -746.0,  1e300, -1e300,
                           DBL_MAX, -DBL_MAX, INFINITY, -INFINITY, NAN};
  std::mt19937_64 rng(0xD0B1E);
  std::uniform_real_distribution<double> near(-40.0, 40.0), far(-800.0, 800.0);
  for (int i = 0; i < 300; ++i) v.push_back(near(rng));
  for (int i = 0; i < 100; ++i) v.push_back(far(rng));
  return v;
}

// One DOUBLE forward operator: its call (x == out: in place) and its reference.
struct ForwardCase {
  std::string name;
  std::function<aclnnStatus(aclTensor*, aclTensor*)> run;
  std::function<Ld(double)> ref;
};

std::vector<ForwardCase> ForwardCases() {
  std::vector<ForwardCase> cases;
  cases.push_back({"Sigmoid", Sigmoid, SigmoidRef});
  for (double slope : {0.01, 0.0, -2.5, 3e38}) {
    cases.push_back({"LeakyRelu slope " + Num(slope),
                     [=](aclTensor* x, aclTensor* o) { return LeakyRelu(x, o, slope); },
                     [=](double x) { return LeakyReluRef(x, static_cast<float>(slope)); }});
  }
  const double kEluParams[][3] = {
      {1, 1, 1},  {0.5, 2, 0.25}, {1.5, 1, -3},     {1, 1, 100}, {1e-3, 1e3, 1e-5},
      {2, -1, 1}, {1, 1, 1e-30},  {INFINITY, 1, 1}, {NAN, 2, 1}, {1, 1, INFINITY}};
  for (const auto& p : kEluParams) {
    const double a = p[0], s = p[1], is = p[2];
    cases.push_back({"Elu alpha " + Num(a) + " scale " + Num(s) + " inputScale " + Num(is),
                     [=](aclTensor* x, aclTensor* o) { return Elu(x, o, a, s, is); },
                     [=](double x) {
                       return EluRef(x, static_cast<float>(a), static_cast<float>(s),
                                     static_cast<float>(is));
                     }});
  }
  return cases;
}

TEST(DoubleCompute, ForwardWithinTheDoubleBoundOnEveryTarget) {
  const std::vector<double> xs = DoubleInputs();
  const int64_t n = static_cast<int64_t>(xs.size());
  for (const ForwardCase& c : ForwardCases()) {
    SCOPED_TRACE(c.name);
    ForEachTarget([&](int64_t) {
      Buffer bx(DType::kFloat64, n), bout(DType::kFloat64, n), bin(DType::kFloat64, n);
      for (int64_t i = 0; i < n; ++i) bx.Set(i, xs[i]), bin.Set(i, xs[i]);
      bout.FillBytes(0xA5);
      TensorPtr tx = MakeDense(bx.data(), ACL_DOUBLE, {n});
      TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {n});
      TensorPtr tin = MakeDense(bin.data(), ACL_DOUBLE, {n});
      ASSERT_EQ(c.run(tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(c.run(tin.get(), tin.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      int bad = 0;
      for (int64_t i = 0; i < n && bad < 5; ++i) {
        const Ld exact = c.ref(xs[i]);
        const bool ok = WithinDoubleBound(bout.Get(i), exact, 1.0);
        bad += !ok;
        EXPECT_TRUE(ok) << "x " << Num(xs[i]) << ": got " << Num(bout.Get(i)) << ", exact "
                        << Num(static_cast<double>(exact));
        // In place: the same bits.
        const double a = bout.Get(i), b = bin.Get(i);
        EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "in place, x " << Num(xs[i]);
      }
      EXPECT_TRUE(bout.GuardsIntact());
    });
  }
}

// ops-nn's case_different_dtype: a FLOAT16 gradOutput beside a DOUBLE self promotes to
// DOUBLE; here gradOutput [2, 1] is broadcast to self [2, 3], which is transposed over a
// [3, 2] storage, so the inputs are gathered and widened.
TEST(DoubleCompute, LeakyReluBackwardPromotesToDoubleBroadcastAndStrided) {
  const std::vector<double> xs = DoubleInputs();
  const int64_t n = static_cast<int64_t>(xs.size());
  std::mt19937_64 rng(0xBAC);
  ForEachTarget([&](int64_t) {
    for (double slope : {0.01, -0.5}) {
      // Dense, all DOUBLE, and dy FLOAT16.
      for (DType dy_t : {DType::kFloat64, DType::kFloat16, DType::kFloat32}) {
        SCOPED_TRACE(std::string("gradOutput ") + DTypeName(dy_t) + ", slope " + Num(slope));
        Buffer bdy(dy_t, n), bx(DType::kFloat64, n), bout(DType::kFloat64, n);
        for (int64_t i = 0; i < n; ++i) {
          bdy.Set(i, RandomValue(dy_t, rng, -100.0, 100.0));
          bx.Set(i, xs[i]);
        }
        TensorPtr tdy = MakeDense(bdy.data(), static_cast<aclDataType>(dy_t), {n});
        TensorPtr tx = MakeDense(bx.data(), ACL_DOUBLE, {n});
        TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {n});
        ASSERT_EQ(LeakyReluBackward(tdy.get(), tx.get(), tout.get(), slope), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < n; ++i) {
          const Ld exact = LeakyReluBackwardRef(bdy.Get(i), xs[i], static_cast<float>(slope));
          EXPECT_TRUE(WithinDoubleBound(bout.Get(i), exact, std::fabs(bdy.Get(i))))
              << "x " << Num(xs[i]) << ": got " << Num(bout.Get(i));
        }
      }
      Buffer bdy(DType::kFloat16, 2), bx(DType::kFloat64, 6), bout(DType::kFloat64, 6);
      bdy.Set(0, 1.5);
      bdy.Set(1, -3.0);
      for (int64_t i = 0; i < 6; ++i) bx.Set(i, xs[static_cast<size_t>(i) * 7]);
      TensorPtr tdy = MakeDense(bdy.data(), ACL_FLOAT16, {2, 1});
      TensorPtr tx = MakeTensor(bx.data(), ACL_DOUBLE, {2, 3}, {1, 2}, 0, {3, 2});
      TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {2, 3});
      ASSERT_EQ(LeakyReluBackward(tdy.get(), tx.get(), tout.get(), slope), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      for (int64_t r = 0; r < 2; ++r) {
        for (int64_t c = 0; c < 3; ++c) {
          const double x = bx.Get(c * 2 + r), dy = bdy.Get(r);
          EXPECT_TRUE(WithinDoubleBound(bout.Get(r * 3 + c),
                                        LeakyReluBackwardRef(dy, x, static_cast<float>(slope)),
                                        std::fabs(dy)))
              << "(" << r << ", " << c << ")";
        }
      }
    }
  });
}

// SigmoidBackward: inputs promoting to DOUBLE (both DOUBLE, or a FLOAT16 gradOutput beside
// a DOUBLE output) are computed in double; output over the whole double range, huge and
// infinite values included (the formula, not a sigmoid's range).
TEST(DoubleCompute, SigmoidBackwardWithinTheDoubleBoundOnEveryTarget) {
  const std::vector<double> ys = DoubleInputs();
  const int64_t n = static_cast<int64_t>(ys.size());
  std::mt19937_64 rng(0x51B);
  ForEachTarget([&](int64_t) {
    for (DType dy_t : {DType::kFloat64, DType::kFloat16}) {
      for (DType out_t : {DType::kFloat64, DType::kFloat32}) {
        SCOPED_TRACE(std::string("gradOutput ") + DTypeName(dy_t) + ", gradInput " +
                     DTypeName(out_t));
        Buffer bdy(dy_t, n), by(DType::kFloat64, n), bout(out_t, n), wide(DType::kFloat64, n);
        for (int64_t i = 0; i < n; ++i) {
          bdy.Set(i, i % 17 == 0 ? 0.0 : RandomValue(dy_t, rng, -100.0, 100.0));
          by.Set(i, ys[i]);
        }
        TensorPtr tdy = MakeDense(bdy.data(), static_cast<aclDataType>(dy_t), {n});
        TensorPtr ty = MakeDense(by.data(), ACL_DOUBLE, {n});
        TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), {n});
        TensorPtr twide = MakeDense(wide.data(), ACL_DOUBLE, {n});
        ASSERT_EQ(SigmoidBackward(tdy.get(), ty.get(), tout.get()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ASSERT_EQ(SigmoidBackward(tdy.get(), ty.get(), twide.get()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        int bad = 0;
        for (int64_t i = 0; i < n && bad < 5; ++i) {
          const Ld y = ys[i], dy = bdy.Get(i);
          const Ld exact = dy * (y * (1.0L - y));
          const bool ok = WithinDoubleBound(wide.Get(i), exact, std::fabs(bdy.Get(i)));
          bad += !ok;
          EXPECT_TRUE(ok) << "dy " << Num(bdy.Get(i)) << ", y " << Num(ys[i]) << ": got "
                          << Num(wide.Get(i)) << ", exact " << Num(static_cast<double>(exact));
          const double want =
              out_t == DType::kFloat32 ? static_cast<float>(wide.Get(i)) : wide.Get(i);
          const double got = bout.Get(i);
          EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want))) << "y " << Num(ys[i]);
        }
      }
    }
  });
}

// SoftplusBackward's op_api casts DOUBLE inputs to FLOAT and computes in f32: the result of
// the FLOAT call on the inputs rounded to FLOAT, widened to a DOUBLE gradInput.
TEST(DoubleInputs, SoftplusBackwardCastsThemToFloat) {
  std::mt19937_64 rng(0x5F7);
  std::uniform_real_distribution<double> any(-30.0, 30.0);
  const int64_t n = 257;
  Buffer bdy(DType::kFloat64, n), bx(DType::kFloat64, n), bout(DType::kFloat64, n);
  Buffer fdy(DType::kFloat32, n), fx(DType::kFloat32, n), fout(DType::kFloat32, n);
  for (int64_t i = 0; i < n; ++i) {
    bdy.Set(i, any(rng));
    bx.Set(i, i % 9 == 0 ? 1e-300 * i : any(rng));
    fdy.Set(i, static_cast<float>(bdy.Get(i)));
    fx.Set(i, static_cast<float>(bx.Get(i)));
  }
  TensorPtr tdy = MakeDense(bdy.data(), ACL_DOUBLE, {n}),
            tx = MakeDense(bx.data(), ACL_DOUBLE, {n});
  TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {n});
  TensorPtr sdy = MakeDense(fdy.data(), ACL_FLOAT, {n}), sx = MakeDense(fx.data(), ACL_FLOAT, {n});
  TensorPtr sout = MakeDense(fout.data(), ACL_FLOAT, {n});
  for (double beta : {1.0, 0.5, -2.0}) {
    SCOPED_TRACE("beta " + Num(beta));
    ASSERT_EQ(SoftplusBackward(tdy.get(), tx.get(), tout.get(), beta, 20.0), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(SoftplusBackward(sdy.get(), sx.get(), sout.get(), beta, 20.0), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int64_t i = 0; i < n; ++i) {
      EXPECT_EQ(bout.Get(i), fout.Get(i)) << "dy " << Num(bdy.Get(i)) << ", x " << Num(bx.Get(i));
    }
  }
}

// A DOUBLE self with a FLOAT, FLOAT16 or BFLOAT16 out: the double result rounded once (CANN
// casts it), the same bits as the DOUBLE out rounded by this test's own RNE; and with a
// strided DOUBLE out (gathered and scattered).
TEST(DoubleCompute, NarrowOrStridedOutIsTheDoubleResultRoundedOnce) {
  const std::vector<double> xs = DoubleInputs();
  const int64_t n = static_cast<int64_t>(xs.size());
  for (const ForwardCase& c : ForwardCases()) {
    SCOPED_TRACE(c.name);
    Buffer bx(DType::kFloat64, n), wide(DType::kFloat64, n);
    for (int64_t i = 0; i < n; ++i) bx.Set(i, xs[i]);
    TensorPtr tx = MakeDense(bx.data(), ACL_DOUBLE, {n});
    TensorPtr twide = MakeDense(wide.data(), ACL_DOUBLE, {n});
    ASSERT_EQ(c.run(tx.get(), twide.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (DType out_t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      Buffer bout(out_t, n);
      TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), {n});
      ASSERT_EQ(c.run(tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < n; ++i) {
        const double w = wide.Get(i);
        const double want = out_t == DType::kFloat32   ? static_cast<float>(w)
                            : out_t == DType::kFloat16 ? F16ToDouble(DoubleToF16(w))
                                                       : BF16ToDouble(DoubleToBF16(w));
        const double got = bout.Get(i);
        EXPECT_TRUE(got == want || (std::isnan(got) && std::isnan(want)))
            << DTypeName(out_t) << " x " << Num(xs[i]) << ": got " << Num(got) << ", want "
            << Num(want);
      }
    }
    // out [n] every other element of a [2n] storage.
    Buffer strided(DType::kFloat64, 2 * n);
    TensorPtr tstr = MakeTensor(strided.data(), ACL_DOUBLE, {n}, {2}, 0, {2 * n});
    ASSERT_EQ(c.run(tx.get(), tstr.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (int64_t i = 0; i < n; ++i) {
      const double a = strided.Get(2 * i), b = wide.Get(i);
      EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << "strided, x " << Num(xs[i]);
    }
  }
}

// A 16- or 32-bit self with a DOUBLE out, where op_api lets it through (CanCast from the
// dtype it computes in, or Sigmoid's out list): the result in self's dtype, widened exactly.
TEST(DoubleOut, IsTheSelfDTypeResultWidened) {
  using Run = std::function<aclnnStatus(aclTensor*, aclTensor*)>;
  const std::vector<std::pair<std::string, Run>> ops = {
      {"Sigmoid", Sigmoid},
      {"LeakyRelu", [](aclTensor* x, aclTensor* o) { return LeakyRelu(x, o, 0.2); }},
      {"Elu", [](aclTensor* x, aclTensor* o) { return Elu(x, o, 1.5, 1.0, 0.5); }},
      {"Celu", [](aclTensor* x, aclTensor* o) { return Celu(x, o, 2.0); }},
      {"Softplus", [](aclTensor* x, aclTensor* o) { return Softplus(x, o, 1.0, 20.0); }},
      {"Erfinv", Erfinv}};
  std::mt19937_64 rng(0x0D0B);
  const int64_t n = 77;
  for (const auto& [name, run] : ops) {
    for (DType self_t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      SCOPED_TRACE(name + " self " + DTypeName(self_t));
      Buffer bx(self_t, n), narrow(self_t, n), bout(DType::kFloat64, n);
      const double range = name == "Erfinv" ? 1.0 : 12.0;
      for (int64_t i = 0; i < n; ++i) bx.Set(i, RandomValue(self_t, rng, -range, range));
      TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(self_t), {n});
      TensorPtr tn = MakeDense(narrow.data(), static_cast<aclDataType>(self_t), {n});
      TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {n});
      ASSERT_EQ(run(tx.get(), tn.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(run(tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < n; ++i) {
        EXPECT_EQ(bout.Get(i), narrow.Get(i)) << "x " << Num(bx.Get(i));
      }
    }
  }
}

TEST(DoubleCompute, EmptyDoubleSucceedsAndWritesNothing) {
  Buffer bx(DType::kFloat64, 4), bout(DType::kFloat64, 4);
  bout.FillBytes(0xA5);
  const std::vector<uint8_t> before = bout.Snapshot();
  TensorPtr tx = MakeDense(bx.data(), ACL_DOUBLE, {2, 0, 3});
  TensorPtr tout = MakeDense(bout.data(), ACL_DOUBLE, {2, 0, 3});
  EXPECT_EQ(Sigmoid(tx.get(), tout.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(Elu(tx.get(), tout.get(), 1, 1, 1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(LeakyReluBackward(tx.get(), tx.get(), tout.get(), 0.1), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(bout.Snapshot(), before);
}

// Phase 1 refuses with 161002, names the parameter, and writes nothing.
void ExpectRefused(const std::string& what, DType self_t, DType out_t,
                   const std::function<aclnnStatus(aclTensor*, aclTensor*)>& run,
                   const std::string& param) {
  SCOPED_TRACE(what + ": " + DTypeName(self_t) + " -> " + DTypeName(out_t));
  Buffer bx(self_t, 6), bout(out_t, 6);
  bout.FillBytes(0xA5);
  const std::vector<uint8_t> before = bout.Snapshot();
  TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(self_t), {2, 3});
  TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), {2, 3});
  EXPECT_EQ(run(tx.get(), tout.get()), ACLNN_ERR_PARAM_INVALID);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_TRUE(NamesParam(msg, param)) << msg;
  EXPECT_NE(msg.find("DOUBLE"), std::string::npos) << msg;
  EXPECT_EQ(bout.Snapshot(), before);
}

// Celu's and Softplus's op_api lists stop at BFLOAT16 for self (their out may be DOUBLE);
// a DOUBLE self cannot be cast to an integer out; InplaceCelu's selfRef is its self.
TEST(DoubleRefusals, AsCANNsOpApi) {
  ExpectRefused(
      "Celu", DType::kFloat64, DType::kFloat64,
      [](aclTensor* x, aclTensor* o) { return Celu(x, o, 1.0); }, "self");
  ExpectRefused(
      "Softplus", DType::kFloat64, DType::kFloat32,
      [](aclTensor* x, aclTensor* o) { return Softplus(x, o, 1.0, 20.0); }, "self");
  ExpectRefused(
      "Elu", DType::kFloat64, DType::kInt32,
      [](aclTensor* x, aclTensor* o) { return Elu(x, o, 1, 1, 1); }, "out");
  ExpectRefused(
      "LeakyRelu", DType::kFloat64, DType::kInt64,
      [](aclTensor* x, aclTensor* o) { return LeakyRelu(x, o, 0.1); }, "out");
}

}  // namespace
}  // namespace test
}  // namespace hostnn
