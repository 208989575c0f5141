// AddRmsNorm: x = x1 + x2, then RmsNorm of x over gamma's dims, with x itself written to xOut
// and the rows' rstd to rstdOut (FLOAT) where CANN's op_api mode asks for them; and
// InplaceAddRmsNorm, the same with x1Ref taking y and x2Ref taking x. This suite checks the
// values of the three dtypes in every mode against a long-double reference on every SIMD
// target (SPEC §4: rstd within 4 ULP, y within 4 ULP or 2^-21 |x| rstd |gamma|, xOut the
// exact sum rounded once, 16-bit outputs their f32 result rounded once), RmsNorm's bits when
// x2 is zero, strided operands and the in-place entry point, NaN and infinities, the bits for
// any team and core count, empty inputs, and every refusal in the op_api's and the tiling's
// order with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Both phases on the null stream; a null HostTensor pointer passes a null aclTensor.
aclnnStatus RunAdd(HostTensor* x1, HostTensor* x2, HostTensor* g, double eps, HostTensor* y,
                   HostTensor* rstd, HostTensor* x_out) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnAddRmsNormGetWorkspaceSize(
      Acl(x1), Acl(x2), Acl(g), eps, const_cast<aclTensor*>(Acl(y)),
      const_cast<aclTensor*>(Acl(rstd)), const_cast<aclTensor*>(Acl(x_out)), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnAddRmsNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}
aclnnStatus RunInplace(HostTensor* x1, HostTensor* x2, HostTensor* g, double eps,
                       HostTensor* rstd) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnInplaceAddRmsNormGetWorkspaceSize(const_cast<aclTensor*>(Acl(x1)),
                                                                const_cast<aclTensor*>(Acl(x2)),
                                                                Acl(g), eps, Acl(rstd), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnInplaceAddRmsNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// y, rstd (null: not written) and xOut (null: not written) against the long-double reference
// of x1 + x2 from the inputs' values, epsilon as the f32 value CANN's kernel takes.
void ExpectAddRmsNorm(HostTensor& g, HostTensor& y, HostTensor* rstd, HostTensor* x_out,
                      const std::vector<double>& x1, const std::vector<double>& x2, int64_t cols,
                      double eps) {
  const int64_t rows = static_cast<int64_t>(x1.size()) / cols;
  const long double e = static_cast<float>(eps);
  const std::vector<double> gv = g.Values();
  for (int64_t r = 0; r < rows; ++r) {
    long double sq = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const long double x = static_cast<long double>(x1[r * cols + c]) + x2[r * cols + c];
      sq += x * x;
    }
    const long double s = 1.0L / std::sqrt(sq / cols + e);
    const double sd = static_cast<double>(s);
    if (rstd != nullptr) {
      const double got = rstd->Get(r);
      if (std::isnan(sd)) {
        ASSERT_TRUE(std::isnan(got)) << "rstd of row " << r;
      } else {
        ASSERT_LE(std::fabs(got - sd), 4 * Ulp32(sd))
            << "rstd of row " << r << ": got " << Num(got) << ", exact " << Num(sd);
      }
    }
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double x = static_cast<long double>(x1[i]) + x2[i];
      if (x_out != nullptr) {
        const double exact = static_cast<double>(x), got = x_out->Get(i);
        if (std::isnan(exact)) {
          ASSERT_TRUE(std::isnan(got)) << "xOut " << i;
        } else {
          ASSERT_LE(std::fabs(got - exact), NormBound(x_out->dtype(), exact, 0.5 * Ulp32(exact)))
              << "xOut " << i << ": x1 " << Num(x1[i]) << " x2 " << Num(x2[i]) << " got "
              << Num(got);
        }
      }
      const long double scaled = x * s;
      const double exact = static_cast<double>(scaled * gv[c]);
      const double got = y.Get(i);
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(got)) << "y " << i << ": got " << Num(got);
        continue;
      }
      const double f32_bound =
          std::max(4 * Ulp32(exact),
                   std::ldexp(std::fabs(static_cast<double>(scaled)) * std::fabs(gv[c]), -21));
      ASSERT_LE(std::fabs(got - exact), NormBound(y.dtype(), exact, f32_bound))
          << "y " << i << " (row " << r << "): x " << Num(static_cast<double>(x)) << " got "
          << Num(got) << ", exact " << Num(exact);
    }
  }
}

const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

// Mode 0 (rstdOut and xOut given), every dtype and shape, on every SIMD target.
TEST(AddRmsNorm, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x201u);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const TrailingShape& c : ResidualNormShapes()) {
        SCOPED_TRACE(ShapeText(c.x) + " gamma " + ShapeText(c.gamma) + " " + DTypeName(d));
        HostTensor x1(d, c.x), x2(d, c.x), g(d, c.gamma), y(d, c.x), x(d, c.x),
            rstd(DType::kFloat32, StatsShape(c.x, c.gamma.size()));
        x1.Fill(rng, -3.0, 5.0);
        x2.Fill(rng, -4.0, 2.0);
        g.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunAdd(&x1, &x2, &g, 1e-6, &y, &rstd, &x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectAddRmsNorm(g, y, &rstd, &x, x1.Values(), x2.Values(), Numel(c.gamma), 1e-6);
      }
    }
  });
}

// Modes 1 (xOut, no rstdOut) and 2 (neither): 16-bit only, gamma [1, x1's last dim], rows
// over every leading dim; what is not asked for is not written.
TEST(AddRmsNorm, ModesWithoutRstd) {
  std::mt19937_64 rng(0x202u);
  for (const DType d : {DType::kFloat16, DType::kBFloat16}) {
    for (const std::vector<int64_t>& s :
         std::vector<std::vector<int64_t>>{{2, 16}, {3, 2, 40}, {17}, {5, 1}, {2, 2, 2, 300}}) {
      for (const bool with_x : {true, false}) {
        SCOPED_TRACE(ShapeText(s) + " " + DTypeName(d) + (with_x ? " mode 1" : " mode 2"));
        HostTensor x1(d, s), x2(d, s), g(d, {1, s.back()}), y(d, s), x(d, s);
        x1.Fill(rng, -3.0, 3.0);
        x2.Fill(rng, -3.0, 3.0);
        g.Fill(rng, -2.0, 2.0);
        const std::vector<uint8_t> x0 = x.Snapshot();
        ASSERT_EQ(RunAdd(&x1, &x2, &g, 1e-5, &y, nullptr, with_x ? &x : nullptr), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectAddRmsNorm(g, y, nullptr, with_x ? &x : nullptr, x1.Values(), x2.Values(), s.back(),
                         1e-5);
        if (!with_x) {
          EXPECT_EQ(x.Snapshot(), x0);
        }
      }
    }
  }
}

// With x2 zero, x is x1 and every bit of y and rstd is RmsNorm's.
TEST(AddRmsNorm, ZeroX2GivesRmsNormsBits) {
  std::mt19937_64 rng(0x203u);
  for (const DType d : kDTypes) {
    SCOPED_TRACE(DTypeName(d));
    HostTensor x1(d, {13, 515}), x2(d, {13, 515}), g(d, {515}), y(d, {13, 515}), x(d, {13, 515}),
        rstd(DType::kFloat32, {13, 1});
    HostTensor y_ref(d, {13, 515}), r_ref(DType::kFloat32, {13, 1});
    x1.Fill(rng, -3.0, 3.0);
    for (int64_t i = 0; i < x2.numel(); ++i) x2.Set(i, 0.0);
    g.Fill(rng, -1.0, 1.0);
    ASSERT_EQ(RunAdd(&x1, &x2, &g, 1e-6, &y, &rstd, &x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(
        aclnnRmsNormGetWorkspaceSize(x1.acl(), g.acl(), 1e-6, y_ref.acl(), r_ref.acl(), &ws, &exec),
        ACLNN_SUCCESS);
    std::vector<char> workspace(ws);
    ASSERT_EQ(aclnnRmsNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(y.Snapshot(), y_ref.Snapshot());
    EXPECT_EQ(rstd.Snapshot(), r_ref.Snapshot());
    EXPECT_EQ(x.Snapshot(), x1.Snapshot());
  }
}

// Strided and transposed operands; outputs that are inputs exactly (yOut x2, xOut x1); and
// InplaceAddRmsNorm, whose x1Ref takes y and x2Ref x, strided too.
TEST(AddRmsNorm, StridesAliasesAndInPlace) {
  std::mt19937_64 rng(0x204u);
  const std::vector<int64_t> shape{5, 3, 7}, gamma{3, 7}, st{5, 1, 1};
  for (const DType d : kDTypes) {
    for (const Strides l1 : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const Strides l2 : {Strides::kDense, Strides::kStep2}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layouts " +
                     std::to_string(static_cast<int>(l1)) + "/" +
                     std::to_string(static_cast<int>(l2)));
        HostTensor x1(d, shape, l1), x2(d, shape, l2), g(d, gamma, l2), y(d, shape, l2),
            x(d, shape, l1), rstd(DType::kFloat32, st);
        x1.Fill(rng, -4.0, 4.0);
        x2.Fill(rng, -4.0, 4.0);
        g.Fill(rng, -2.0, 2.0);
        const std::vector<double> v1 = x1.Values(), v2 = x2.Values();
        ASSERT_EQ(RunAdd(&x1, &x2, &g, 0.25, &y, &rstd, &x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectAddRmsNorm(g, y, &rstd, &x, v1, v2, 21, 0.25);
        // The outputs crossed onto the inputs: yOut is x2, xOut is x1.
        ASSERT_EQ(RunAdd(&x1, &x2, &g, 0.25, &x2, &rstd, &x1), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectAddRmsNorm(g, x2, &rstd, &x1, v1, v2, 21, 0.25);
        // In place: x1Ref takes y, x2Ref x.
        x1.Fill(rng, -4.0, 4.0);
        x2.Fill(rng, -4.0, 4.0);
        const std::vector<double> w1 = x1.Values(), w2 = x2.Values();
        ASSERT_EQ(RunInplace(&x1, &x2, &g, 1e-6, &rstd), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectAddRmsNorm(g, x1, &rstd, &x2, w1, w2, 21, 1e-6);
      }
    }
  }
}

// Far ranges (squares past f32's), a sum that cancels to a zero row with epsilon 0 (rstd +inf, y
// NaN), NaN and an infinite sum (rstd 0; y NaN where x is infinite, 0 elsewhere); opposite
// infinities sum to NaN.
TEST(AddRmsNorm, CancellationFarRangesAndSpecialValues) {
  const DType f = DType::kFloat32;
  HostTensor x1(f, {6, 33}), x2(f, {6, 33}), g(f, {33}), y(f, {6, 33}), x(f, {6, 33}),
      rstd(f, {6, 1});
  for (int c = 0; c < 33; ++c) {
    g.Set(c, 0.5 + c / 32.0);
    x1.Set(c, 1.0e30 * (1 + c / 64.0));
    x2.Set(c, -3.0e29 * c);
    x1.Set(33 + c, 1.0e-30 * (c + 1));
    x2.Set(33 + c, 3.0e-31 * c);
    x1.Set(66 + c, 2.0 + c);
    x2.Set(66 + c, -2.0 - c);
    x1.Set(99 + c, c == 7 ? kNaN : c);
    x2.Set(99 + c, 1.0);
    x1.Set(132 + c, c == 3 ? HUGE_VAL : c);
    x2.Set(132 + c, 1.0);
    x1.Set(165 + c, c == 5 ? HUGE_VAL : 1.0);
    x2.Set(165 + c, c == 5 ? -HUGE_VAL : 1.0);
  }
  ASSERT_EQ(RunAdd(&x1, &x2, &g, 0.0, &y, &rstd, &x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  // The first two rows against the reference.
  std::vector<double> v1 = x1.Values(), v2 = x2.Values();
  v1.resize(66);
  v2.resize(66);
  HostTensor y2(f, {2, 33}), x_2(f, {2, 33}), r2(f, {2, 1});
  for (int i = 0; i < 66; ++i) y2.Set(i, y.Get(i)), x_2.Set(i, x.Get(i));
  for (int r = 0; r < 2; ++r) r2.Set(r, rstd.Get(r));
  ExpectAddRmsNorm(g, y2, &r2, &x_2, v1, v2, 33, 0.0);
  EXPECT_EQ(rstd.Get(2), HUGE_VAL);
  EXPECT_TRUE(std::isnan(rstd.Get(3)));
  EXPECT_EQ(rstd.Get(4), 0.0);
  EXPECT_TRUE(std::isnan(rstd.Get(5)));
  for (int c = 0; c < 33; ++c) {
    EXPECT_EQ(x.Get(66 + c), 0.0) << c;
    EXPECT_TRUE(std::isnan(y.Get(66 + c))) << c;
    EXPECT_TRUE(std::isnan(y.Get(99 + c))) << c;
    EXPECT_EQ(std::isnan(x.Get(99 + c)), c == 7) << c;
    if (c == 3) {
      EXPECT_TRUE(std::isnan(y.Get(132 + c)));
      EXPECT_EQ(x.Get(132 + c), HUGE_VAL);
    } else {
      EXPECT_EQ(y.Get(132 + c), 0.0) << c;
    }
    EXPECT_EQ(std::isnan(x.Get(165 + c)), c == 5) << c;
  }
}

// The bits of y, rstd and xOut for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(AddRmsNorm, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x205u);
  for (const DType d : {DType::kFloat32, DType::kBFloat16}) {
    HostTensor x1(d, {97, 1031}), x2(d, {97, 1031}), g(d, {1031});
    x1.Fill(rng, -3.0, 3.0);
    x2.Fill(rng, -3.0, 3.0);
    g.Fill(rng, -1.0, 1.0);
    std::vector<uint8_t> first[3];
    for (int team : {1, 2, 3}) {
      for (int cores : {0, 1, 48}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " threads " + std::to_string(team) + " cores " +
                     std::to_string(cores));
        omp_set_num_threads(team);
        HostTensor y(d, {97, 1031}), rstd(DType::kFloat32, {97, 1}), x(d, {97, 1031});
        OpArgs a;
        a.op = Op::kAddRmsNorm;
        a.in[0] = &x1.view();
        a.in[1] = &x2.view();
        a.in[2] = &g.view();
        a.out[0] = &y.view();
        a.out[1] = &rstd.view();
        a.out[2] = &x.view();
        a.scalars[0] = OpScalar{true, 1e-6, DType::kFloat64};
        tiling::Options options;
        options.num_cores = cores;
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        if (first[0].empty()) {
          first[0] = y.Snapshot(), first[1] = rstd.Snapshot(), first[2] = x.Snapshot();
          ExpectAddRmsNorm(g, y, &rstd, &x, x1.Values(), x2.Values(), 1031, 1e-6);
        }
        EXPECT_EQ(y.Snapshot(), first[0]);
        EXPECT_EQ(rstd.Snapshot(), first[1]);
        EXPECT_EQ(x.Snapshot(), first[2]);
      }
    }
  }
  omp_set_num_threads(threads);
}

// AddRmsNorm: an empty x1 or gamma succeeds after the op_api's checks and writes nothing.
// InplaceAddRmsNorm: its tiling refuses an empty x1Ref (561002).
TEST(AddRmsNorm, EmptyInputs) {
  const DType f = DType::kFloat32;
  HostTensor x1(f, {0, 4}), x2(f, {0, 4}), g(f, {4}), y(f, {0, 4}), x(f, {0, 4}), rstd(f, {0, 1});
  EXPECT_EQ(RunAdd(&x1, &x2, &g, 1e-6, &y, &rstd, &x), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  HostTensor a1(f, {2, 3}), a2(f, {2, 3}), g0(f, {0}), ay(f, {2, 3}), ax(f, {2, 3}), ar(f, {2, 1});
  const std::vector<uint8_t> y0 = ay.Snapshot(), x0 = ax.Snapshot(), r0 = ar.Snapshot();
  EXPECT_EQ(RunAdd(&a1, &a2, &g0, 1e-6, &ay, &ar, &ax), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(ay.Snapshot(), y0);
  EXPECT_EQ(ax.Snapshot(), x0);
  EXPECT_EQ(ar.Snapshot(), r0);
  EXPECT_EQ(RunInplace(&x1, &x2, &g, 1e-6, &rstd), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("x1Ref must not be empty"), std::string::npos)
      << aclGetRecentErrMsg();
}

// Every refusal of AddRmsNorm: its status, a message naming what is wrong, nothing written.
TEST(AddRmsNorm, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType x1, x2, g, y, r, x;
    std::vector<int64_t> x1s, x2s, gs, ys, rs, xs;
    bool no_rstd, no_x;  // rstdOut, xOut passed as null
    double eps;
    aclnnStatus status;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4}, st{2, 3, 1}, g1{1, 4};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Case cases[] = {
      // The op_api's dtypes (161002).
      {"DOUBLE x1", d, d, d, d, f, d, s, s, n, s, st, s, false, false, 1e-6, kInvalid, "x1"},
      {"x2 unlike x1", f, h, f, f, f, f, s, s, n, s, st, s, false, false, 1e-6, kInvalid, "x2"},
      {"FLOAT gamma, 16-bit x1", h, h, f, h, f, h, s, s, n, s, st, s, false, false, 1e-6, kInvalid,
       "gamma"},
      {"yOut unlike x1", h, h, h, f, f, h, s, s, n, s, st, s, false, false, 1e-6, kInvalid, "yOut"},
      {"xOut unlike yOut", bf, bf, bf, bf, f, h, s, s, n, s, st, s, false, false, 1e-6, kInvalid,
       "xOut"},
      {"FLOAT16 rstdOut", f, f, f, f, h, f, s, s, n, s, st, s, false, false, 1e-6, kInvalid,
       "rstdOut"},
      {"FLOAT without rstdOut", f, f, f, f, f, f, s, s, g1, s, st, s, true, false, 1e-6, kInvalid,
       "x1"},
      // The op_api's shapes (161002).
      {"x1 of no dim", f, f, f, f, f, f, {}, {}, n, {}, {}, {}, false, false, 1e-6, kInvalid, "x1"},
      {"9 dims",
       f,
       f,
       f,
       f,
       f,
       f,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       n,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       {1, 1, 1, 1, 1, 1, 1, 2, 1},
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       false,
       false,
       1e-6,
       kInvalid,
       "x1"},
      {"x2 shape", f, f, f, f, f, f, s, {2, 4, 3}, n, s, st, s, false, false, 1e-6, kInvalid, "x2"},
      {"yOut shape",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       {6, 4},
       st,
       s,
       false,
       false,
       1e-6,
       kInvalid,
       "yOut"},
      {"xOut shape",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       s,
       st,
       {2, 12},
       false,
       false,
       1e-6,
       kInvalid,
       "xOut"},
      {"gamma of 3 dims without rstdOut",
       h,
       h,
       h,
       h,
       f,
       h,
       s,
       s,
       {1, 1, 4},
       s,
       st,
       s,
       true,
       false,
       1e-6,
       kInvalid,
       "gamma"},
      // The tiling's (561002).
      {"gamma of more dims than x1",
       f,
       f,
       f,
       f,
       f,
       f,
       {4},
       {4},
       {1, 4},
       {4},
       {1},
       {4},
       false,
       false,
       1e-6,
       kTiling,
       "gamma"},
      {"gamma of 1 dim without rstdOut", h, h, h, h, f, h, s, s, n, s, st, s, true, true, 1e-6,
       kTiling, "gamma"},
      {"rstdOut rank",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       s,
       {2, 3},
       s,
       false,
       false,
       1e-6,
       kTiling,
       "rstdOut"},
      {"gamma unlike x1's last dims",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {3},
       s,
       st,
       s,
       false,
       false,
       1e-6,
       kTiling,
       "gamma"},
      {"rstdOut's normalised dim not 1",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       s,
       {2, 3, 4},
       s,
       false,
       false,
       1e-6,
       kTiling,
       "rstdOut"},
      {"rstdOut's leading dims",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       s,
       {2, 1, 1},
       s,
       false,
       false,
       1e-6,
       kTiling,
       "rstdOut"},
      {"gamma's first dim not 1 without rstdOut",
       bf,
       bf,
       bf,
       bf,
       f,
       bf,
       s,
       s,
       {2, 4},
       s,
       st,
       s,
       true,
       false,
       1e-6,
       kTiling,
       "gamma"},
      {"gamma's last dim without rstdOut",
       bf,
       bf,
       bf,
       bf,
       f,
       bf,
       s,
       s,
       {1, 3},
       s,
       st,
       s,
       true,
       true,
       1e-6,
       kTiling,
       "gamma"},
      {"negative epsilon", f, f, f, f, f, f, s, s, n, s, st, s, false, false, -1e-6, kTiling,
       "epsilon"},
      // Two faults: the dtypes before the shapes, the op_api's shapes before the tiling's.
      {"dtype before shape",
       d,
       d,
       d,
       d,
       f,
       d,
       s,
       {3},
       n,
       s,
       st,
       s,
       false,
       false,
       1e-6,
       kInvalid,
       "x1"},
      {"op_api shape before tiling",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {3},
       {5},
       st,
       s,
       false,
       false,
       1e-6,
       kInvalid,
       "yOut"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x1(c.x1, c.x1s), x2(c.x2, c.x2s), g(c.g, c.gs), y(c.y, c.ys), rstd(c.r, c.rs),
        x(c.x, c.xs);
    const std::vector<uint8_t> y0 = y.Snapshot(), r0 = rstd.Snapshot(), x0 = x.Snapshot();
    EXPECT_EQ(RunAdd(&x1, &x2, &g, c.eps, &y, c.no_rstd ? nullptr : &rstd, c.no_x ? nullptr : &x),
              c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(rstd.Snapshot(), r0);
    EXPECT_EQ(x.Snapshot(), x0);
  }
  // Nulls (161001): x1, x2, gamma, yOut; xOut where rstdOut is given.
  HostTensor x1(f, s), x2(f, s), g(f, n), y(f, s), rstd(f, st), x(f, s);
  const char* names[] = {"x1", "x2", "gamma", "yOut", "xOut"};
  for (int k = 0; k < 5; ++k) {
    EXPECT_EQ(RunAdd(k == 0 ? nullptr : &x1, k == 1 ? nullptr : &x2, k == 2 ? nullptr : &g, 1e-6,
                     k == 3 ? nullptr : &y, &rstd, k == 4 ? nullptr : &x),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // Outputs that share memory: rstdOut over yOut's first six elements; then xOut one
  // element past x1 in one storage.
  HostTensor both(f, {2, 3, 4});
  const std::vector<uint8_t> b0 = both.Snapshot();
  TensorView alias = both.view();
  alias.shape = {2, 3, 1};
  alias.strides = {3, 1, 1};
  alias.storage_shape = {24};
  OpArgs a;
  a.op = Op::kAddRmsNorm;
  a.in[0] = &x1.view();
  a.in[1] = &x2.view();
  a.in[2] = &g.view();
  a.out[0] = &both.view();
  a.out[1] = &alias;
  a.out[2] = &x.view();
  a.scalars[0] = OpScalar{true, 1e-6, DType::kFloat64};
  const Status overlap = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(overlap.code(), StatusCode::kInvalid) << overlap.message();
  EXPECT_NE(overlap.message().find("rstdOut"), std::string::npos) << overlap.message();
  EXPECT_EQ(both.Snapshot(), b0);
  HostTensor big(f, {2, 3, 5});
  TensorView in1 = big.view(), shifted = big.view();
  in1.shape = shifted.shape = {2, 3, 4};
  in1.strides = shifted.strides = {15, 5, 1};
  in1.storage_shape = shifted.storage_shape = {30};
  shifted.offset = 1;
  const std::vector<uint8_t> big0 = big.Snapshot(), y0 = y.Snapshot();
  a.in[0] = &in1;
  a.out[0] = &y.view();
  a.out[1] = &rstd.view();
  a.out[2] = &shifted;
  const Status partial = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(partial.code(), StatusCode::kInvalid) << partial.message();
  EXPECT_NE(partial.message().find("xOut"), std::string::npos) << partial.message();
  EXPECT_EQ(big.Snapshot(), big0);
  EXPECT_EQ(y.Snapshot(), y0);
}

// InplaceAddRmsNorm's refusals: every tensor required (161001), the definition's dtypes
// (161002), the tiling's shapes (561002); x1Ref and x2Ref untouched.
TEST(AddRmsNorm, InplaceRefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType x1, x2, g, r;
    std::vector<int64_t> x1s, x2s, gs, rs;
    double eps;
    aclnnStatus status;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4}, st{2, 3, 1};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Case cases[] = {
      {"DOUBLE x1Ref", d, d, d, f, s, s, n, st, 1e-6, kInvalid, "x1Ref"},
      {"x2Ref unlike x1Ref", f, h, f, f, s, s, n, st, 1e-6, kInvalid, "x2Ref"},
      {"FLOAT gamma, 16-bit x1Ref", h, h, f, f, s, s, n, st, 1e-6, kInvalid, "gamma"},
      {"FLOAT16 rstdOut", h, h, h, h, s, s, n, st, 1e-6, kInvalid, "rstdOut"},
      {"x1Ref of no dim", f, f, f, f, {}, {}, n, {}, 1e-6, kTiling, "x1Ref"},
      {"x2Ref shape", f, f, f, f, s, {2, 4, 3}, n, st, 1e-6, kTiling, "x2Ref"},
      {"gamma unlike x1Ref's last dims", f, f, f, f, s, s, {3}, st, 1e-6, kTiling, "gamma"},
      {"rstdOut shape", f, f, f, f, s, s, n, {2, 1, 1}, 1e-6, kTiling, "rstdOut"},
      {"negative epsilon", f, f, f, f, s, s, n, st, -1.0, kTiling, "epsilon"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x1(c.x1, c.x1s), x2(c.x2, c.x2s), g(c.g, c.gs), rstd(c.r, c.rs);
    const std::vector<uint8_t> a0 = x1.Snapshot(), b0 = x2.Snapshot(), r0 = rstd.Snapshot();
    EXPECT_EQ(RunInplace(&x1, &x2, &g, c.eps, &rstd), c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(x1.Snapshot(), a0);
    EXPECT_EQ(x2.Snapshot(), b0);
    EXPECT_EQ(rstd.Snapshot(), r0);
  }
  HostTensor x1(f, s), x2(f, s), g(f, n), rstd(f, st);
  const char* names[] = {"x1Ref", "x2Ref", "gamma", "rstdOut"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(RunInplace(k == 0 ? nullptr : &x1, k == 1 ? nullptr : &x2, k == 2 ? nullptr : &g,
                         1e-6, k == 3 ? nullptr : &rstd),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // x1Ref and x2Ref the same tensor: two outputs over one memory.
  const std::vector<uint8_t> a0 = x1.Snapshot();
  EXPECT_EQ(RunInplace(&x1, &x1, &g, 1e-6, &rstd), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(x1.Snapshot(), a0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
