// RmsNorm: each row of x over gamma's dims (x's last gamma.dim() dims) divided by its root
// mean square, rstd = 1 / sqrt(sum(x^2) / n + epsilon), and scaled by gamma; the rows' rstd
// written to rstdOut (FLOAT). The list-driven suites cannot build its operands
// (tests/util/capi_ops.h, HasOwnSuite): this suite checks values of CANN's five dtype
// combinations against a long-double reference on every SIMD target (SPEC §4: rstd within 4
// ULP, y within 4 ULP or 2^-21 |x| rstd |gamma|, 16-bit outputs that plus half an ULP), rows
// of any length and gammas of several dims, the rstdOut shapes CANN's tiling takes, strided
// and in-place operands, epsilon from 0 to 1, rows far outside f32's square range, NaN and
// infinities, the bits for any team and core count, empty inputs, and every refusal in the
// order of the generated entry point and the tiling, with nothing written. RmsNormGrad the
// same way: dxOut and dgammaOut against the reference (SPEC §4: within 2^-21 times the sum of
// their terms' magnitudes), dgammaOut's bits for any team (its column sums in fixed blocks),
// the rstd shapes its tiling takes, and its refusals.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Both phases on the null stream.
aclnnStatus RunRmsNorm(const aclTensor* x, const aclTensor* gamma, double eps, const aclTensor* y,
                       const aclTensor* rstd) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnRmsNormGetWorkspaceSize(x, gamma, eps, y, rstd, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnRmsNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}
aclnnStatus RunT(HostTensor& x, HostTensor& g, HostTensor& y, HostTensor& rstd, double eps) {
  return RunRmsNorm(x.acl(), g.acl(), eps, y.acl(), rstd.acl());
}

// y and rstd against the long-double reference of the inputs' values, epsilon as the f32
// value CANN's kernel takes.
void ExpectRmsNorm(HostTensor& g, HostTensor& y, HostTensor& rstd, const std::vector<double>& x,
                   int64_t cols, double eps) {
  const int64_t rows = static_cast<int64_t>(x.size()) / cols;
  const long double e = static_cast<float>(eps);
  const std::vector<double> gv = g.Values();
  for (int64_t r = 0; r < rows; ++r) {
    long double sq = 0;
    for (int64_t c = 0; c < cols; ++c)
      sq += static_cast<long double>(x[r * cols + c]) * x[r * cols + c];
    const long double s = 1.0L / std::sqrt(sq / cols + e);
    const double sd = static_cast<double>(s);
    if (std::isnan(sd)) {
      ASSERT_TRUE(std::isnan(rstd.Get(r))) << "rstd of row " << r;
    } else {
      const double got = rstd.Get(r);
      ASSERT_LE(std::fabs(got - sd), 4 * Ulp32(sd))
          << "rstd of row " << r << ": got " << Num(got) << ", exact " << Num(sd);
    }
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double scaled = x[i] * s;
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
          << "y " << i << " (row " << r << "): x " << Num(x[i]) << " got " << Num(got) << ", exact "
          << Num(exact);
    }
  }
}

const TrailingShape kShapes[] = {
    {{2, 16}, {16}},           {{4, 8}, {8}},           {{3, 5}, {5}},
    {{2, 3, 17}, {3, 17}},     {{7, 1}, {1}},           {{9}, {9}},
    {{2, 2, 3, 4}, {2, 3, 4}}, {{3, 1000}, {1000}},     {{2, 4099}, {4099}},
    {{37, 64}, {64}},          {{1, 1, 1, 17}, {1, 17}}};

// CANN's five (x, gamma) combinations; y is x's dtype, rstd FLOAT.
struct DTypeCase {
  DType x, gamma;
};
const DTypeCase kDTypes[] = {{DType::kFloat16, DType::kFloat32},
                             {DType::kBFloat16, DType::kFloat32},
                             {DType::kFloat16, DType::kFloat16},
                             {DType::kBFloat16, DType::kBFloat16},
                             {DType::kFloat32, DType::kFloat32}};

TEST(RmsNorm, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x125u);
  ForEachTarget([&](int64_t) {
    for (const DTypeCase& d : kDTypes) {
      for (const TrailingShape& c : kShapes) {
        SCOPED_TRACE(ShapeText(c.x) + " gamma " + ShapeText(c.gamma) + " x " + DTypeName(d.x) +
                     " gamma " + DTypeName(d.gamma));
        int64_t cols = 1;
        for (int64_t v : c.gamma) cols *= v;
        HostTensor x(d.x, c.x), g(d.gamma, c.gamma), y(d.x, c.x),
            rstd(DType::kFloat32, StatsShape(c.x, c.gamma.size()));
        x.Fill(rng, -3.0, 5.0);
        g.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunT(x, g, y, rstd, 1e-6), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectRmsNorm(g, y, rstd, x.Values(), cols, 1e-6);
      }
    }
  });
}

// Strided and transposed views, in place (yOut is x), the rstdOut shapes the tiling takes
// (each dim 1 or x's, as many dims as x or fewer), and epsilon from 0 to 1.
TEST(RmsNorm, StridesInPlaceStatsShapesAndEpsilon) {
  std::mt19937_64 rng(0x126u);
  const DType f = DType::kFloat32;
  const std::vector<int64_t> shape{5, 3, 7}, gamma{3, 7};
  const std::vector<std::vector<int64_t>> stats_shapes{{5, 1, 1}, {5}, {5, 1}, {1, 1, 1, 1, 5}};
  int k = 0;
  for (const Strides lx : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (const Strides ly : {Strides::kDense, Strides::kStep2}) {
      for (const std::vector<int64_t>& ss : stats_shapes) {
        // {1, 1, 1, 1, 5} has more dims than x: refused below, not here.
        if (ss.size() > shape.size()) continue;
        SCOPED_TRACE("layouts " + std::to_string(static_cast<int>(lx)) + "/" +
                     std::to_string(static_cast<int>(ly)) + " rstd " + ShapeText(ss));
        HostTensor x(f, shape, lx), g(f, gamma, ly), y(f, shape, ly), rstd(f, ss);
        x.Fill(rng, -4.0, 4.0);
        g.Fill(rng, -2.0, 2.0);
        const double eps = (k++ % 5) / 4.0;
        ASSERT_EQ(RunT(x, g, y, rstd, eps), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectRmsNorm(g, y, rstd, x.Values(), 21, eps);
      }
    }
  }
  HostTensor x(f, {6, 9}), g(f, {9}), rstd(f, {6, 1});
  x.Fill(rng, -4.0, 4.0);
  g.Fill(rng, -1.0, 1.0);
  const std::vector<double> before = x.Values();
  ASSERT_EQ(RunT(x, g, x, rstd, 1e-6), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ExpectRmsNorm(g, x, rstd, before, 9, 1e-6);
}

// Squares outside f32's range (1e30, 1e-30) are exact in the double sums; a zero row with
// epsilon 0 has rstd +inf and y NaN (0 * inf); NaN gives a NaN row; an infinity gives rstd 0,
// y 0 at the row's finite elements and NaN at the infinite one (inf * 0).
TEST(RmsNorm, FarRangesZeroRowsAndSpecialValues) {
  const DType f = DType::kFloat32;
  HostTensor x(f, {5, 33}), g(f, {33}), y(f, {5, 33}), rstd(f, {5, 1});
  for (int c = 0; c < 33; ++c) {
    g.Set(c, 0.5 + c / 32.0);
    x.Set(c, (c % 2 ? -1.0 : 1.0) * 1.0e30 * (1 + c / 64.0));
    x.Set(33 + c, 1.0e-30 * (c + 1));
    x.Set(66 + c, 0.0);
    x.Set(99 + c, c == 7 ? kNaN : c);
    x.Set(132 + c, c == 3 ? HUGE_VAL : c);
  }
  ASSERT_EQ(RunT(x, g, y, rstd, 0.0), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  std::vector<double> v = x.Values();
  v.resize(66);
  HostTensor y2(f, {2, 33}), r2(f, {2, 1});
  for (int i = 0; i < 66; ++i) y2.Set(i, y.Get(i));
  for (int r = 0; r < 2; ++r) r2.Set(r, rstd.Get(r));
  ExpectRmsNorm(g, y2, r2, v, 33, 0.0);
  EXPECT_EQ(rstd.Get(2), HUGE_VAL);
  EXPECT_TRUE(std::isnan(rstd.Get(3)));
  EXPECT_EQ(rstd.Get(4), 0.0);
  for (int c = 0; c < 33; ++c) {
    EXPECT_TRUE(std::isnan(y.Get(66 + c))) << c;
    EXPECT_TRUE(std::isnan(y.Get(99 + c))) << c;
    if (c == 3) {
      EXPECT_TRUE(std::isnan(y.Get(132 + c)));
    } else {
      EXPECT_EQ(y.Get(132 + c), 0.0) << c;
    }
  }
}

// The bits of y and rstd for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(RmsNorm, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x127u);
  const DType f = DType::kFloat32;
  HostTensor x(f, {97, 1031}), g(f, {1031});
  x.Fill(rng, -3.0, 3.0);
  g.Fill(rng, -1.0, 1.0);
  std::vector<uint8_t> first_y, first_r;
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor y(f, {97, 1031}), rstd(f, {97, 1});
      OpArgs a;
      a.op = Op::kRmsNorm;
      a.in[0] = &x.view();
      a.in[1] = &g.view();
      a.out[0] = &y.view();
      a.out[1] = &rstd.view();
      a.scalars[0] = OpScalar{true, 1e-6, DType::kFloat64};
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      if (first_y.empty()) {
        first_y = y.Snapshot(), first_r = rstd.Snapshot();
        ExpectRmsNorm(g, y, rstd, x.Values(), 1031, 1e-6);
      }
      EXPECT_EQ(y.Snapshot(), first_y);
      EXPECT_EQ(rstd.Snapshot(), first_r);
    }
  }
  omp_set_num_threads(threads);
}

// An empty x or rstdOut: refused as the A2 tiling refuses a zero dim (561002), nothing
// written.
TEST(RmsNorm, EmptyInputsAreRefused) {
  const DType f = DType::kFloat32;
  HostTensor g(f, {4}), rstd(f, {2, 1, 1});
  HostTensor x(f, {0, 4}), y(f, {0, 4}), rstd0(f, {0, 1});
  EXPECT_EQ(RunT(x, g, y, rstd0, 1e-6), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("x must not be empty"), std::string::npos);
  HostTensor x2(f, {2, 0, 4}), y2(f, {2, 0, 4});
  const std::vector<uint8_t> r0 = rstd.Snapshot();
  EXPECT_EQ(RunT(x2, g, y2, rstd, 1e-6), ACLNN_ERR_INNER_TILING_ERROR);
  EXPECT_EQ(rstd.Snapshot(), r0);
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(RmsNorm, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType x, g, y, r;
    std::vector<int64_t> xs, gs, ys, rs;
    double eps;
    aclnnStatus status;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4}, st{2, 3, 1};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Case cases[] = {
      // The generated entry point: dtypes, then the definition's combinations (161002).
      {"DOUBLE x", d, f, d, f, s, n, s, st, 1e-6, kInvalid, "x"},
      {"gamma neither FLOAT nor x's", h, bf, h, f, s, n, s, st, 1e-6, kInvalid, "gamma"},
      {"yOut unlike x", h, h, f, f, s, n, s, st, 1e-6, kInvalid, "yOut"},
      {"FLOAT16 rstdOut", f, f, f, h, s, n, s, st, 1e-6, kInvalid, "rstdOut"},
      // The tiling's (561002).
      {"x of no dim", f, f, f, f, {}, n, {}, {}, 1e-6, kTiling, "x"},
      {"9 dims",
       f,
       f,
       f,
       f,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       n,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       {2},
       1e-6,
       kTiling,
       "x"},
      {"gamma of more dims than x", f, f, f, f, {4}, {1, 4}, {4}, {1}, 1e-6, kTiling, "gamma"},
      {"gamma unlike x's last dims", f, f, f, f, s, {3}, s, st, 1e-6, kTiling, "gamma"},
      {"empty gamma", f, f, f, f, {2, 0}, {0}, {2, 0}, {2, 1}, 1e-6, kTiling, "gamma"},
      {"zero rstdOut dim", f, f, f, f, s, n, s, {2, 0, 1}, 1e-6, kTiling, "rstdOut"},
      {"yOut rank", f, f, f, f, s, n, {6, 4}, st, 1e-6, kTiling, "yOut"},
      {"yOut shape", f, f, f, f, s, n, {2, 4, 3}, st, 1e-6, kTiling, "yOut"},
      {"rstdOut dim neither 1 nor x's", f, f, f, f, s, n, s, {2, 2, 1}, 1e-6, kTiling, "rstdOut"},
      {"rstdOut of more dims than x", f, f, f, f, s, n, s, {1, 2, 3, 1}, 1e-6, kTiling, "rstdOut"},
      {"rstdOut of too few elements", f, f, f, f, s, n, s, {1, 3, 1}, 1e-6, kTiling, "rstdOut"},
      {"negative epsilon", f, f, f, f, s, n, s, st, -1e-6, kTiling, "epsilon"},
      // Two faults: the dtype is checked before the shapes, as the generated entry point.
      {"dtype before shape", d, f, d, f, s, {3}, s, st, 1e-6, kInvalid, "x"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x(c.x, c.xs), g(c.g, c.gs), y(c.y, c.ys), rstd(c.r, c.rs);
    const std::vector<uint8_t> y0 = y.Snapshot(), r0 = rstd.Snapshot();
    EXPECT_EQ(RunT(x, g, y, rstd, c.eps), c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(rstd.Snapshot(), r0);
  }
  // Nulls: every tensor is required (161001), named.
  HostTensor x(f, s), g(f, n), y(f, s), rstd(f, st);
  const char* names[] = {"x", "gamma", "yOut", "rstdOut"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(RunRmsNorm(k == 0 ? nullptr : x.acl(), k == 1 ? nullptr : g.acl(), 1e-6,
                         k == 2 ? nullptr : y.acl(), k == 3 ? nullptr : rstd.acl()),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // rstdOut may not overlap yOut: here its six elements are yOut's first six.
  HostTensor both(f, {2, 3, 4});
  const std::vector<uint8_t> b0 = both.Snapshot();
  TensorView alias = both.view();
  alias.shape = {2, 3, 1};
  alias.strides = {3, 1, 1};
  alias.storage_shape = {24};
  OpArgs a;
  a.op = Op::kRmsNorm;
  a.in[0] = &x.view();
  a.in[1] = &g.view();
  a.out[0] = &both.view();
  a.out[1] = &alias;
  const Status overlap = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(overlap.code(), StatusCode::kInvalid) << overlap.message();
  EXPECT_NE(overlap.message().find("rstdOut"), std::string::npos) << overlap.message();
  EXPECT_EQ(both.Snapshot(), b0);
}

// ---- RmsNormGrad ----------------------------------------------------------------------

aclnnStatus RunRmsNormGrad(const aclTensor* dy, const aclTensor* x, const aclTensor* rstd,
                           const aclTensor* gamma, const aclTensor* dx, const aclTensor* dgamma) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st =
      aclnnRmsNormGradGetWorkspaceSize(dy, x, rstd, gamma, dx, dgamma, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnRmsNormGrad(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}
aclnnStatus RunGrad(HostTensor& dy, HostTensor& x, HostTensor& rstd, HostTensor& g, HostTensor& dx,
                    HostTensor& dgamma) {
  return RunRmsNormGrad(dy.acl(), x.acl(), rstd.acl(), g.acl(), dx.acl(), dgamma.acl());
}

// dxOut and dgammaOut against the long-double reference of the inputs' values (the rstd
// given, not recomputed): with m = rstd * sum(dy g x) / n, dx = (dy g - x rstd m) rstd within
// 2^-21 (|dy g| rstd + |x| rstd^2 rstd sum|dy g x| / n) or 4 ULP, dgamma[j] = sum over rows of
// dy x rstd within 2^-21 sum|dy x rstd| or 4 ULP; a 16-bit dx that plus half an ULP.
void ExpectRmsNormGrad(const std::vector<double>& dy, const std::vector<double>& x,
                       const std::vector<double>& rstd, const std::vector<double>& g,
                       HostTensor& dx, HostTensor& dgamma) {
  const int64_t cols = static_cast<int64_t>(g.size());
  const int64_t rows = static_cast<int64_t>(dy.size()) / cols;
  std::vector<long double> dg(static_cast<size_t>(cols), 0.0L), dg_mag(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    const long double s_r = rstd[r];
    long double s = 0, mag = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const long double t = static_cast<long double>(dy[r * cols + c]) * g[c] * x[r * cols + c];
      s += t;
      mag += std::fabs(t);
    }
    const long double m = s_r * s / cols;
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double dyg = static_cast<long double>(dy[i]) * g[c];
      const double exact = static_cast<double>((dyg - x[i] * s_r * m) * s_r);
      const double terms = static_cast<double>(std::fabs(dyg) * s_r +
                                               std::fabs(x[i]) * s_r * s_r * s_r * mag / cols);
      const double got = dx.Get(i);
      const double f32_bound = std::max(4 * Ulp32(exact), std::ldexp(terms, -21));
      ASSERT_LE(std::fabs(got - exact), NormBound(dx.dtype(), exact, f32_bound))
          << "dx " << i << " (row " << r << "): got " << Num(got) << ", exact " << Num(exact);
      const long double t = static_cast<long double>(dy[i]) * x[i] * s_r;
      dg[static_cast<size_t>(c)] += t;
      dg_mag[static_cast<size_t>(c)] += std::fabs(t);
    }
  }
  for (int64_t c = 0; c < cols; ++c) {
    const double exact = static_cast<double>(dg[static_cast<size_t>(c)]);
    const double bound = std::max(
        4 * Ulp32(exact), std::ldexp(static_cast<double>(dg_mag[static_cast<size_t>(c)]), -21));
    const double got = dgamma.Get(c);
    ASSERT_LE(std::fabs(got - exact), bound)
        << "dgamma " << c << ": got " << Num(got) << ", exact " << Num(exact);
  }
}

// RmsNormGrad's inputs drawn: dy in [-2, 2], x in [-3, 3], rstd in [0.25, 2], gamma in [-2, 2].
void FillGradInputs(std::mt19937_64& rng, HostTensor& dy, HostTensor& x, HostTensor& rstd,
                    HostTensor& g) {
  dy.Fill(rng, -2.0, 2.0);
  x.Fill(rng, -3.0, 3.0);
  rstd.Fill(rng, 0.25, 2.0);
  g.Fill(rng, -2.0, 2.0);
}

// x's leading dims (those before gamma's): the rstd shape of CANN's document.
std::vector<int64_t> LeadingShape(const std::vector<int64_t>& x, size_t gamma_dims) {
  return std::vector<int64_t>(x.begin(), x.end() - static_cast<std::ptrdiff_t>(gamma_dims));
}

TEST(RmsNormGrad, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x128u);
  const TrailingShape shapes[] = {
      {{2, 16}, {16}},           {{3, 5}, {5}},       {{2, 3, 17}, {3, 17}}, {{7, 1}, {1}},
      {{2, 2, 3, 4}, {2, 3, 4}}, {{3, 1000}, {1000}}, {{2, 4099}, {4099}},   {{130, 64}, {64}},
      {{197, 33}, {33}}};
  ForEachTarget([&](int64_t) {
    for (const DTypeCase& d : kDTypes) {
      for (const TrailingShape& c : shapes) {
        SCOPED_TRACE(ShapeText(c.x) + " gamma " + ShapeText(c.gamma) + " dy " + DTypeName(d.x) +
                     " gamma " + DTypeName(d.gamma));
        const DType f = DType::kFloat32;
        std::vector<int64_t> rs = LeadingShape(c.x, c.gamma.size());
        if (rs.empty()) rs = {1};
        HostTensor dy(d.x, c.x), x(d.x, c.x), rstd(f, rs), g(d.gamma, c.gamma), dx(d.x, c.x),
            dgamma(f, c.gamma);
        FillGradInputs(rng, dy, x, rstd, g);
        ASSERT_EQ(RunGrad(dy, x, rstd, g, dx, dgamma), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectRmsNormGrad(dy.Values(), x.Values(), rstd.Values(), g.Values(), dx, dgamma);
      }
    }
  });
}

// The rstd shapes the tiling takes ([rows], x's leading dims, the forward's rstdOut shape
// with trailing 1s, fewer dims where x's missing leading dims are 1), strided operands, and dx
// in place over dy or over x.
TEST(RmsNormGrad, RstdShapesStridesAndInPlace) {
  std::mt19937_64 rng(0x129u);
  const DType f = DType::kFloat32;
  struct Case {
    std::vector<int64_t> x, gamma, rstd;
  };
  const Case cases[] = {{{4, 3, 8}, {8}, {4, 3}},
                        {{4, 3, 8}, {8}, {4, 3, 1}},
                        {{4, 1, 8}, {8}, {4}},
                        {{4, 3, 8}, {3, 8}, {4, 1, 1}},
                        {{6, 10}, {10}, {6, 1}}};
  for (const Case& c : cases) {
    for (const Strides l : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      SCOPED_TRACE(ShapeText(c.x) + " rstd " + ShapeText(c.rstd) + " layout " +
                   std::to_string(static_cast<int>(l)));
      HostTensor dy(f, c.x, l), x(f, c.x), rstd(f, c.rstd), g(f, c.gamma, l), dx(f, c.x, l),
          dgamma(f, c.gamma);
      FillGradInputs(rng, dy, x, rstd, g);
      ASSERT_EQ(RunGrad(dy, x, rstd, g, dx, dgamma), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ExpectRmsNormGrad(dy.Values(), x.Values(), rstd.Values(), g.Values(), dx, dgamma);
    }
  }
  for (int over : {0, 1}) {  // dx is dy, then x
    SCOPED_TRACE(over == 0 ? "dx over dy" : "dx over x");
    HostTensor dy(f, {5, 12}), x(f, {5, 12}), rstd(f, {5}), g(f, {12}), dgamma(f, {12});
    FillGradInputs(rng, dy, x, rstd, g);
    const std::vector<double> dyv = dy.Values(), xv = x.Values();
    HostTensor& dx = over == 0 ? dy : x;
    ASSERT_EQ(RunGrad(dy, x, rstd, g, dx, dgamma), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ExpectRmsNormGrad(dyv, xv, rstd.Values(), g.Values(), dx, dgamma);
  }
}

// The bits of dxOut and dgammaOut for 1, 2 and 3 threads and 1 or 48 logical cores: 301 rows,
// so the column sums' blocks of 64 rows end off a core's boundary.
TEST(RmsNormGrad, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x12Au);
  const DType f = DType::kFloat32;
  HostTensor dy(f, {301, 517}), x(f, {301, 517}), rstd(f, {301}), g(f, {517});
  dy.Fill(rng, -2.0, 2.0);
  x.Fill(rng, -3.0, 3.0);
  rstd.Fill(rng, 0.25, 2.0);
  g.Fill(rng, -1.0, 1.0);
  std::vector<uint8_t> first_dx, first_dg;
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor dx(f, {301, 517}), dgamma(f, {517});
      OpArgs a;
      a.op = Op::kRmsNormGrad;
      a.in[0] = &dy.view();
      a.in[1] = &x.view();
      a.in[2] = &rstd.view();
      a.in[3] = &g.view();
      a.out[0] = &dx.view();
      a.out[1] = &dgamma.view();
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      if (first_dx.empty()) {
        first_dx = dx.Snapshot(), first_dg = dgamma.Snapshot();
        ExpectRmsNormGrad(dy.Values(), x.Values(), rstd.Values(), g.Values(), dx, dgamma);
      }
      EXPECT_EQ(dx.Snapshot(), first_dx);
      EXPECT_EQ(dgamma.Snapshot(), first_dg);
    }
  }
  omp_set_num_threads(threads);
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(RmsNormGrad, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType dy, x, r, g, dx, dg;
    std::vector<int64_t> dys, xs, rs, gs, dxs, dgs;
    aclnnStatus status;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4}, lead{2, 3};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Case cases[] = {
      // The generated entry point: dtypes, then the definition's combinations (161002).
      {"DOUBLE dy", d, d, f, f, d, f, s, s, lead, n, s, n, kInvalid, "dy"},
      {"x unlike dy", h, f, f, f, h, f, s, s, lead, n, s, n, kInvalid, "x"},
      {"FLOAT16 rstd", f, f, h, f, f, f, s, s, lead, n, s, n, kInvalid, "rstd"},
      {"gamma neither FLOAT nor dy's", h, h, f, bf, h, f, s, s, lead, n, s, n, kInvalid, "gamma"},
      {"dxOut unlike dy", h, h, f, f, f, f, s, s, lead, n, s, n, kInvalid, "dxOut"},
      {"FLOAT16 dgammaOut", h, h, f, h, h, h, s, s, lead, n, s, n, kInvalid, "dgammaOut"},
      // The tiling's (561002).
      {"x of no dim", f, f, f, f, f, f, {}, {}, {1}, n, {}, n, kTiling, "x"},
      {"gamma of more dims than x",
       f,
       f,
       f,
       f,
       f,
       f,
       {4},
       {4},
       {1},
       {1, 4},
       {4},
       {1, 4},
       kTiling,
       "gamma"},
      {"dy rank", f, f, f, f, f, f, {6, 4}, s, lead, n, s, n, kTiling, "dy"},
      {"dxOut rank", f, f, f, f, f, f, s, s, lead, n, {6, 4}, n, kTiling, "dxOut"},
      {"dgammaOut rank", f, f, f, f, f, f, s, s, lead, n, s, {1, 4}, kTiling, "dgammaOut"},
      {"x unlike dy's shape", f, f, f, f, f, f, s, {3, 2, 4}, lead, n, s, n, kTiling, "x"},
      {"dxOut unlike dy's shape", f, f, f, f, f, f, s, s, lead, n, {3, 2, 4}, n, kTiling, "dxOut"},
      {"dy's last dim 0",
       f,
       f,
       f,
       f,
       f,
       f,
       {2, 3, 0},
       {2, 3, 0},
       lead,
       {0},
       {2, 3, 0},
       {0},
       kTiling,
       "dy"},
      {"rstd unlike x's leading dims", f, f, f, f, f, f, s, s, {3, 2}, n, s, n, kTiling, "rstd"},
      {"rstd of fewer dims, x's next not 1", f, f, f, f, f, f, s, s, {2}, n, s, n, kTiling, "rstd"},
      {"gamma unlike dy's last dims", f, f, f, f, f, f, s, s, lead, {5}, s, n, kTiling, "gamma"},
      {"dgammaOut unlike dy's last dims",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       lead,
       n,
       s,
       {5},
       kTiling,
       "dgammaOut"},
      {"empty dy", f, f, f, f, f, f, {0, 4}, {0, 4}, {0}, n, {0, 4}, n, kTiling, "dy"},
      {"rstd of another element count",
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {2, 3, 2},
       n,
       s,
       n,
       kTiling,
       "rstd"},
      // Two faults: the dtype is checked before the shapes, as the generated entry point.
      {"dtype before shape", d, d, f, f, d, f, s, s, {5}, n, s, n, kInvalid, "dy"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor dy(c.dy, c.dys), x(c.x, c.xs), rstd(c.r, c.rs), g(c.g, c.gs), dx(c.dx, c.dxs),
        dgamma(c.dg, c.dgs);
    const std::vector<uint8_t> dx0 = dx.Snapshot(), dg0 = dgamma.Snapshot();
    EXPECT_EQ(RunGrad(dy, x, rstd, g, dx, dgamma), c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(dx.Snapshot(), dx0);
    EXPECT_EQ(dgamma.Snapshot(), dg0);
  }
  // Nulls: every tensor is required (161001), named.
  HostTensor dy(f, s), x(f, s), rstd(f, lead), g(f, n), dx(f, s), dgamma(f, n);
  HostTensor* all[] = {&dy, &x, &rstd, &g, &dx, &dgamma};
  const char* names[] = {"dy", "x", "rstd", "gamma", "dxOut", "dgammaOut"};
  for (int k = 0; k < 6; ++k) {
    const aclTensor* t[6];
    for (int j = 0; j < 6; ++j) t[j] = j == k ? nullptr : all[j]->acl();
    EXPECT_EQ(RunRmsNormGrad(t[0], t[1], t[2], t[3], t[4], t[5]), ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // dgammaOut may not overlap dxOut: here its four elements are dxOut's first four.
  TensorView alias = dx.view();
  alias.shape = {4};
  alias.strides = {1};
  alias.storage_shape = {24};
  OpArgs a;
  a.op = Op::kRmsNormGrad;
  a.in[0] = &dy.view();
  a.in[1] = &x.view();
  a.in[2] = &rstd.view();
  a.in[3] = &g.view();
  a.out[0] = &dx.view();
  a.out[1] = &alias;
  const std::vector<uint8_t> dx0 = dx.Snapshot();
  const Status overlap = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(overlap.code(), StatusCode::kInvalid) << overlap.message();
  EXPECT_NE(overlap.message().find("dgammaOut"), std::string::npos) << overlap.message();
  EXPECT_EQ(dx.Snapshot(), dx0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
