// GroupNorm: self [N, C, ...] normalised over groups of C / group channels, each of HxW
// elements, gamma and beta applied per channel; meanOut and rstdOut [N, group] in self's
// dtype. This suite checks the values of the three dtypes over shapes of 2 to 5 dims and
// group counts from 1 to C, with and without gamma and beta, against a long-double reference
// on every SIMD target (SPEC §4: mean and rstd within 4 ULP, out within 4 ULP or 2^-21 (|x -
// mean| rstd |gamma| + |beta|), 16-bit outputs that plus half an ULP), strided and in-place
// operands, constant groups and special values, the bits for any team and core count, empty
// inputs (meanOut 0 and rstdOut NaN, as the op_api fills them), and every refusal in the
// op_api's order with nothing written. GroupNormBackward the same way: gradInput,
// gradGammaOut and gradBetaOut against the reference (SPEC §4: within 2^-21 times the sum of
// their terms' magnitudes, or 4 ULP), every outputMask, the channel sums' bits for any team
// (summed in fixed blocks of rows), and its refusals.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

// Both phases on the null stream; a null HostTensor pointer passes a null aclTensor.
aclnnStatus RunGroupNorm(HostTensor* x, HostTensor* g, HostTensor* b, int64_t n, int64_t c,
                         int64_t hxw, int64_t group, double eps, HostTensor* y, HostTensor* mean,
                         HostTensor* rstd) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnGroupNormGetWorkspaceSize(
      Acl(x), Acl(g), Acl(b), n, c, hxw, group, eps, const_cast<aclTensor*>(Acl(y)),
      const_cast<aclTensor*>(Acl(mean)), const_cast<aclTensor*>(Acl(rstd)), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnGroupNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// out, mean and rstd against the long-double reference of self's values (shape [N, C, ...]),
// eps as the f32 value the kernel takes; g and b null: 1 and 0.
void ExpectGroupNorm(HostTensor* g, HostTensor* b, HostTensor& y, HostTensor& mean,
                     HostTensor& rstd, const std::vector<double>& x,
                     const std::vector<int64_t>& shape, int64_t group, double eps) {
  const int64_t n = shape[0], c = shape[1], hxw = Numel(shape) / (n * c);
  const int64_t cg = c / group, len = cg * hxw;
  const long double e = static_cast<float>(eps);
  const std::vector<double> gv = g != nullptr ? g->Values() : std::vector<double>(c, 1.0);
  const std::vector<double> bv = b != nullptr ? b->Values() : std::vector<double>(c, 0.0);
  for (int64_t r = 0; r < n * group; ++r) {
    const double* row = x.data() + r * len;
    long double sum = 0, sq = 0;
    for (int64_t i = 0; i < len; ++i) sum += row[i];
    const long double m = sum / len;
    for (int64_t i = 0; i < len; ++i) sq += (row[i] - m) * (row[i] - m);
    const long double s = 1.0L / std::sqrt(sq / len + e);
    const double md = static_cast<double>(m), sd = static_cast<double>(s);
    if (std::isnan(md)) {
      ASSERT_TRUE(std::isnan(mean.Get(r)) && std::isnan(rstd.Get(r))) << "row " << r;
    } else {
      ASSERT_LE(std::fabs(mean.Get(r) - md), NormBound(mean.dtype(), md, 4 * Ulp32(md)))
          << "mean of row " << r << ": got " << Num(mean.Get(r)) << ", exact " << Num(md);
      ASSERT_LE(std::fabs(rstd.Get(r) - sd), NormBound(rstd.dtype(), sd, 4 * Ulp32(sd)))
          << "rstd of row " << r << ": got " << Num(rstd.Get(r)) << ", exact " << Num(sd);
    }
    for (int64_t i = 0; i < len; ++i) {
      const int64_t ch = (r % group) * cg + i / hxw;
      const long double centred = (row[i] - m) * s;
      const double exact = static_cast<double>(centred * gv[ch] + bv[ch]);
      const double got = y.Get(r * len + i);
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(got)) << "out " << r * len + i;
        continue;
      }
      const double f32_bound = std::max(
          4 * Ulp32(exact), std::ldexp(std::fabs(static_cast<double>(centred)) * std::fabs(gv[ch]) +
                                           std::fabs(bv[ch]),
                                       -21));
      ASSERT_LE(std::fabs(got - exact), NormBound(y.dtype(), exact, f32_bound))
          << "out " << r * len + i << " (row " << r << ", channel " << ch << "): got " << Num(got)
          << ", exact " << Num(exact);
    }
  }
}

struct ShapeCase {
  std::vector<int64_t> shape;
  int64_t group;
};
const ShapeCase kShapes[] = {{{2, 6, 5}, 3},         {{1, 4}, 2},       {{3, 8, 2, 3}, 4},
                             {{2, 32, 7, 7}, 8},     {{1, 6, 1000}, 2}, {{4, 3, 17}, 1},
                             {{2, 12, 4, 4, 2}, 12}, {{5, 1}, 1},       {{2, 4, 4099}, 2}};
const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

TEST(GroupNorm, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x301u);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ShapeCase& sc : kShapes) {
        for (int affine = 0; affine < 4; ++affine) {  // gamma given (1), beta given (2)
          SCOPED_TRACE(ShapeText(sc.shape) + " group " + std::to_string(sc.group) + " " +
                       DTypeName(d) + " affine " + std::to_string(affine));
          const int64_t n = sc.shape[0], c = sc.shape[1], hxw = Numel(sc.shape) / (n * c);
          HostTensor x(d, sc.shape), y(d, sc.shape), g(d, {c}), b(d, {c}), mean(d, {n, sc.group}),
              rstd(d, {n, sc.group});
          x.Fill(rng, -3.0, 5.0);
          g.Fill(rng, -2.0, 2.0);
          b.Fill(rng, -1.0, 1.0);
          HostTensor* gp = affine & 1 ? &g : nullptr;
          HostTensor* bp = affine & 2 ? &b : nullptr;
          ASSERT_EQ(RunGroupNorm(&x, gp, bp, n, c, hxw, sc.group, 1e-5, &y, &mean, &rstd),
                    ACLNN_SUCCESS)
              << aclGetRecentErrMsg();
          ExpectGroupNorm(gp, bp, y, mean, rstd, x.Values(), sc.shape, sc.group, 1e-5);
        }
      }
    }
  });
}

// Strided and transposed self and out; out in place (self itself); eps from 1e-12 to 1.
TEST(GroupNorm, StridesInPlaceAndEpsilon) {
  std::mt19937_64 rng(0x302u);
  const std::vector<int64_t> shape{3, 6, 7};
  int k = 0;
  for (const DType d : kDTypes) {
    for (const Strides lx : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const Strides ly : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layouts " +
                     std::to_string(static_cast<int>(lx)) + "/" +
                     std::to_string(static_cast<int>(ly)));
        HostTensor x(d, shape, lx), y(d, shape, ly), g(d, {6}, ly), b(d, {6}), mean(d, {3, 2}),
            rstd(d, {3, 2});
        x.Fill(rng, -4.0, 4.0);
        g.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        const double eps = k++ % 2 ? 1.0 : 1e-12;
        ASSERT_EQ(RunGroupNorm(&x, &g, &b, 3, 6, 7, 2, eps, &y, &mean, &rstd), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectGroupNorm(&g, &b, y, mean, rstd, x.Values(), shape, 2, eps);
        const std::vector<double> before = x.Values();
        ASSERT_EQ(RunGroupNorm(&x, &g, &b, 3, 6, 7, 2, eps, &x, &mean, &rstd), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectGroupNorm(&g, &b, x, mean, rstd, before, shape, 2, eps);
      }
    }
  }
}

// A constant group has variance 0: rstd 1 / sqrt(eps) and out beta; a large common offset
// (1e4 + small values) keeps the centred sum's accuracy; a NaN makes its group NaN; an
// infinity gives a NaN group (inf - inf).
TEST(GroupNorm, ConstantOffsetAndSpecialValues) {
  const DType f = DType::kFloat32;
  HostTensor x(f, {1, 8, 16}), y(f, {1, 8, 16}), g(f, {8}), b(f, {8}), mean(f, {1, 4}),
      rstd(f, {1, 4});
  for (int ch = 0; ch < 8; ++ch) g.Set(ch, 0.5 + ch), b.Set(ch, ch - 3.0);
  for (int i = 0; i < 32; ++i) {
    x.Set(i, 2.5);                         // group 0: constant
    x.Set(32 + i, 1.0e4 + (i % 5) / 8.0);  // group 1: offset
    x.Set(64 + i, i == 9 ? std::numeric_limits<double>::quiet_NaN() : i);
    x.Set(96 + i, i == 4 ? HUGE_VAL : i);
  }
  ASSERT_EQ(RunGroupNorm(&x, &g, &b, 1, 8, 16, 4, 1e-5, &y, &mean, &rstd), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<double> v = x.Values();
  v.resize(64);
  HostTensor y2(f, {1, 4, 16}), g2(f, {4}), b2(f, {4}), m2(f, {1, 2}), r2(f, {1, 2});
  for (int i = 0; i < 64; ++i) y2.Set(i, y.Get(i));
  for (int ch = 0; ch < 4; ++ch) g2.Set(ch, g.Get(ch)), b2.Set(ch, b.Get(ch));
  for (int r = 0; r < 2; ++r) m2.Set(r, mean.Get(r)), r2.Set(r, rstd.Get(r));
  ExpectGroupNorm(&g2, &b2, y2, m2, r2, v, {1, 4, 16}, 2, 1e-5);
  EXPECT_EQ(y.Get(0), b.Get(0));
  EXPECT_EQ(y.Get(31), b.Get(1));
  for (int i = 64; i < 128; ++i) EXPECT_TRUE(std::isnan(y.Get(i))) << i;
  EXPECT_TRUE(std::isnan(mean.Get(2)));
  EXPECT_EQ(mean.Get(3), HUGE_VAL);
  EXPECT_TRUE(std::isnan(rstd.Get(3)));
}

// The bits of out, mean and rstd for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(GroupNorm, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x303u);
  for (const DType d : {DType::kFloat32, DType::kBFloat16}) {
    HostTensor x(d, {6, 32, 9, 11}), g(d, {32}), b(d, {32});
    x.Fill(rng, -3.0, 3.0);
    g.Fill(rng, -1.0, 1.0);
    b.Fill(rng, -1.0, 1.0);
    std::vector<uint8_t> first[3];
    for (int team : {1, 2, 3}) {
      for (int cores : {0, 1, 48}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " threads " + std::to_string(team) + " cores " +
                     std::to_string(cores));
        omp_set_num_threads(team);
        HostTensor y(d, {6, 32, 9, 11}), mean(d, {6, 8}), rstd(d, {6, 8});
        OpArgs a;
        a.op = Op::kGroupNorm;
        a.in[0] = &x.view();
        a.in[1] = &g.view();
        a.in[2] = &b.view();
        a.out[0] = &y.view();
        a.out[1] = &mean.view();
        a.out[2] = &rstd.view();
        const double values[] = {6, 32, 99, 8};
        for (int k = 0; k < 4; ++k) {
          a.scalars[k] = OpScalar{true, values[k], DType::kInt64};
          a.scalars[k].int_value = static_cast<int64_t>(values[k]);
        }
        a.scalars[4] = OpScalar{true, 1e-5, DType::kFloat64};
        tiling::Options options;
        options.num_cores = cores;
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        if (first[0].empty()) {
          first[0] = y.Snapshot(), first[1] = mean.Snapshot(), first[2] = rstd.Snapshot();
          ExpectGroupNorm(&g, &b, y, mean, rstd, x.Values(), {6, 32, 9, 11}, 8, 1e-5);
        }
        EXPECT_EQ(y.Snapshot(), first[0]);
        EXPECT_EQ(mean.Snapshot(), first[1]);
        EXPECT_EQ(rstd.Snapshot(), first[2]);
      }
    }
  }
  omp_set_num_threads(threads);
}

// An empty self succeeds after the checks: with rows but no element per row (HxW or C 0)
// meanOut is 0 and rstdOut NaN, as the op_api fills them; with N 0 nothing is written.
TEST(GroupNorm, EmptyInputsFillTheStatistics) {
  for (const DType d : kDTypes) {
    SCOPED_TRACE(DTypeName(d));
    HostTensor x(d, {2, 4, 0}), y(d, {2, 4, 0}), mean(d, {2, 2}), rstd(d, {2, 2});
    ASSERT_EQ(RunGroupNorm(&x, nullptr, nullptr, 2, 4, 0, 2, 1e-5, &y, &mean, &rstd), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int r = 0; r < 4; ++r) {
      EXPECT_EQ(mean.Get(r), 0.0) << r;
      EXPECT_TRUE(std::isnan(rstd.Get(r))) << r;
    }
    HostTensor xc(d, {3, 0, 5}), yc(d, {3, 0, 5}), mc(d, {3, 1}), rc(d, {3, 1});
    ASSERT_EQ(RunGroupNorm(&xc, nullptr, nullptr, 3, 0, 5, 1, 1e-5, &yc, &mc, &rc), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int r = 0; r < 3; ++r) EXPECT_TRUE(mc.Get(r) == 0.0 && std::isnan(rc.Get(r))) << r;
    HostTensor x0(d, {0, 4, 3}), y0(d, {0, 4, 3}), m0(d, {0, 2}), r0(d, {0, 2});
    EXPECT_EQ(RunGroupNorm(&x0, nullptr, nullptr, 0, 4, 3, 2, 1e-5, &y0, &m0, &r0), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(GroupNorm, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType x, g, y, m;
    std::vector<int64_t> xs, gs, ys, ms;
    int64_t n, c, hxw, group;
    double eps;
    const char* names;
  };
  const std::vector<int64_t> s{2, 4, 3}, cs{4}, st{2, 2};
  const Case cases[] = {
      // Dtypes: self in the list, every other tensor self's.
      {"DOUBLE self", d, d, d, d, s, cs, s, st, 2, 4, 3, 2, 1e-5, "self"},
      {"gamma unlike self", f, h, f, f, s, cs, s, st, 2, 4, 3, 2, 1e-5, "gamma"},
      {"out unlike self", h, h, f, h, s, cs, s, st, 2, 4, 3, 2, 1e-5, "out"},
      {"FLOAT meanOut with FLOAT16 self", h, h, h, f, s, cs, s, st, 2, 4, 3, 2, 1e-5, "meanOut"},
      // The attributes.
      {"group 0", f, f, f, f, s, cs, s, st, 2, 4, 3, 0, 1e-5, "group"},
      {"group not dividing C", f, f, f, f, s, cs, s, {2, 3}, 2, 4, 3, 3, 1e-5, "group"},
      {"eps 0", f, f, f, f, s, cs, s, st, 2, 4, 3, 2, 0.0, "eps"},
      {"negative eps", f, f, f, f, s, cs, s, st, 2, 4, 3, 2, -1.0, "eps"},
      // The shapes.
      {"self of 1 dim", f, f, f, f, {8}, cs, {8}, st, 2, 4, 1, 2, 1e-5, "self"},
      {"self of 9 dims",
       f,
       f,
       f,
       f,
       {2, 4, 1, 1, 1, 1, 1, 1, 3},
       cs,
       {2, 4, 1, 1, 1, 1, 1, 1, 3},
       st,
       2,
       4,
       3,
       2,
       1e-5,
       "self"},
      {"out shape", f, f, f, f, s, cs, {2, 3, 4}, st, 2, 4, 3, 2, 1e-5, "out"},
      {"meanOut shape", f, f, f, f, s, cs, s, {4, 1}, 2, 4, 3, 2, 1e-5, "meanOut"},
      {"N unlike self", f, f, f, f, s, cs, s, {3, 2}, 3, 4, 3, 2, 1e-5, "N"},
      {"C unlike self", f, f, f, f, s, {2}, s, st, 2, 2, 3, 2, 1e-5, "C"},
      {"HxW unlike self", f, f, f, f, s, cs, s, st, 2, 4, 4, 2, 1e-5, "HxW"},
      {"gamma of 2 dims", f, f, f, f, s, {1, 4}, s, st, 2, 4, 3, 2, 1e-5, "gamma"},
      {"gamma of 3 values", f, f, f, f, s, {3}, s, st, 2, 4, 3, 2, 1e-5, "gamma"},
      // Two faults: the dtypes first, the attributes before the shapes.
      {"dtype before attribute", d, d, d, d, s, cs, s, st, 2, 4, 3, 0, 1e-5, "self"},
      {"attribute before shape", f, f, f, f, s, cs, {9}, st, 2, 4, 3, 0, 1e-5, "group"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x(c.x, c.xs), g(c.g, c.gs), y(c.y, c.ys), mean(c.m, c.ms), rstd(c.m, c.ms);
    const std::vector<uint8_t> y0 = y.Snapshot(), m0 = mean.Snapshot(), r0 = rstd.Snapshot();
    EXPECT_EQ(RunGroupNorm(&x, &g, nullptr, c.n, c.c, c.hxw, c.group, c.eps, &y, &mean, &rstd),
              ACLNN_ERR_PARAM_INVALID);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(mean.Snapshot(), m0);
    EXPECT_EQ(rstd.Snapshot(), r0);
  }
  // Nulls (161001): self, out, meanOut, rstdOut; gamma and beta may be null.
  HostTensor x(f, s), y(f, s), mean(f, st), rstd(f, st);
  const char* names[] = {"self", "out", "meanOut", "rstdOut"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(
        RunGroupNorm(k == 0 ? nullptr : &x, nullptr, nullptr, 2, 4, 3, 2, 1e-5,
                     k == 1 ? nullptr : &y, k == 2 ? nullptr : &mean, k == 3 ? nullptr : &rstd),
        ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // Formats: NHWC self (channels last) and out of another format than self; meanOut and
  // rstdOut over one memory.
  OpArgs a;
  a.op = Op::kGroupNorm;
  TensorView xv = x.view(), yv = y.view();
  a.in[0] = &xv;
  a.out[0] = &yv;
  a.out[1] = &mean.view();
  a.out[2] = &rstd.view();
  const double values[] = {2, 4, 3, 2};
  for (int k = 0; k < 4; ++k) {
    a.scalars[k] = OpScalar{true, values[k], DType::kInt64};
    a.scalars[k].int_value = static_cast<int64_t>(values[k]);
  }
  const std::vector<uint8_t> y0 = y.Snapshot();
  xv.format = yv.format = 1;  // NHWC
  Status status = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(status.code(), StatusCode::kInvalid) << status.message();
  EXPECT_NE(status.message().find("NHWC"), std::string::npos) << status.message();
  xv.format = 0;  // NCHW
  status = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(status.code(), StatusCode::kInvalid) << status.message();
  EXPECT_NE(status.message().find("out"), std::string::npos) << status.message();
  yv.format = 0;
  a.out[2] = &mean.view();
  status = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(status.code(), StatusCode::kInvalid) << status.message();
  EXPECT_EQ(y.Snapshot(), y0);
  a.out[2] = &rstd.view();
  EXPECT_TRUE(hostnn::Run(a, tiling::Options()).ok());
}

// ---- GroupNormBackward ---------------------------------------------------------------------

aclnnStatus RunBackward(HostTensor* dy, HostTensor* x, HostTensor* mean, HostTensor* rstd,
                        HostTensor* g, int64_t n, int64_t c, int64_t hxw, int64_t group,
                        const std::vector<bool>* mask, HostTensor* dx, HostTensor* dgamma,
                        HostTensor* dbeta) {
  bool values[4] = {};
  for (size_t k = 0; mask != nullptr && k < mask->size() && k < 4; ++k) values[k] = (*mask)[k];
  aclBoolArray* m = mask != nullptr ? aclCreateBoolArray(values, mask->size()) : nullptr;
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st = aclnnGroupNormBackwardGetWorkspaceSize(
      Acl(dy), Acl(x), Acl(mean), Acl(rstd), Acl(g), n, c, hxw, group, m,
      const_cast<aclTensor*>(Acl(dx)), const_cast<aclTensor*>(Acl(dgamma)),
      const_cast<aclTensor*>(Acl(dbeta)), &ws, &exec);
  if (m != nullptr) aclDestroyBoolArray(m);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnGroupNormBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// The forward's statistics of x (shape [N, C, ...]) stored in mean and rstd.
void StoreStats(const std::vector<double>& x, int64_t rows, HostTensor& mean, HostTensor& rstd) {
  const int64_t len = static_cast<int64_t>(x.size()) / rows;
  for (int64_t r = 0; r < rows; ++r) {
    long double sum = 0, sq = 0;
    for (int64_t i = 0; i < len; ++i) sum += x[r * len + i];
    const long double m = sum / len;
    for (int64_t i = 0; i < len; ++i) sq += (x[r * len + i] - m) * (x[r * len + i] - m);
    mean.Set(r, static_cast<double>(m));
    rstd.Set(r, static_cast<double>(1.0L / std::sqrt(sq / len + 1e-5L)));
  }
}

// gradInput, gradGammaOut, gradBetaOut (each null: not checked) against the long-double
// reference from the stored inputs.
void ExpectBackward(const std::vector<double>& dy, const std::vector<double>& x,
                    const std::vector<double>& mean, const std::vector<double>& rstd, HostTensor* g,
                    const std::vector<int64_t>& shape, int64_t group, HostTensor* dx,
                    HostTensor* dgamma, HostTensor* dbeta) {
  const int64_t n = shape[0], c = shape[1], hxw = Numel(shape) / (n * c);
  const int64_t cg = c / group, len = cg * hxw;
  const std::vector<double> gv = g != nullptr ? g->Values() : std::vector<double>(c, 1.0);
  std::vector<long double> sg(c, 0), sb(c, 0), mg(c, 0), mb(c, 0);
  for (int64_t r = 0; r < n * group; ++r) {
    const long double m = mean[r], s = rstd[r];
    long double s1 = 0, s2 = 0, a1 = 0, a2 = 0;
    for (int64_t i = 0; i < len; ++i) {
      const int64_t ch = (r % group) * cg + i / hxw, at = r * len + i;
      const long double xhat = (x[at] - m) * s, dyg = dy[at] * gv[ch];
      s1 += dyg, s2 += dyg * xhat, a1 += std::fabs(dyg), a2 += std::fabs(dyg * xhat);
      sg[ch] += dy[at] * xhat, mg[ch] += std::fabs(dy[at] * xhat);
      sb[ch] += dy[at], mb[ch] += std::fabs(dy[at]);
    }
    if (dx == nullptr) continue;
    for (int64_t i = 0; i < len; ++i) {
      const int64_t ch = (r % group) * cg + i / hxw, at = r * len + i;
      const long double xhat = (x[at] - m) * s, dyg = dy[at] * gv[ch];
      const double exact = static_cast<double>((dyg - (s1 / len + xhat * (s2 / len))) * s);
      const double terms = static_cast<double>(
          (std::fabs(dyg) + a1 / len + std::fabs(xhat) * a2 / len) * std::fabs(s));
      const double got = dx->Get(at);
      ASSERT_LE(std::fabs(got - exact),
                NormBound(dx->dtype(), exact, std::max(4 * Ulp32(exact), std::ldexp(terms, -21))))
          << "gradInput " << at << " (row " << r << "): got " << Num(got) << ", exact "
          << Num(exact);
    }
  }
  for (int64_t ch = 0; ch < c; ++ch) {
    const struct {
      HostTensor* out;
      long double sum, mag;
      const char* name;
    } sums[] = {{dgamma, sg[ch], mg[ch], "gradGammaOut"}, {dbeta, sb[ch], mb[ch], "gradBetaOut"}};
    for (const auto& t : sums) {
      if (t.out == nullptr) continue;
      const double exact = static_cast<double>(t.sum), got = t.out->Get(ch);
      ASSERT_LE(std::fabs(got - exact),
                NormBound(t.out->dtype(), exact,
                          std::max(4 * Ulp32(exact), std::ldexp(static_cast<double>(t.mag), -21))))
          << t.name << " " << ch << ": got " << Num(got) << ", exact " << Num(exact);
    }
  }
}

TEST(GroupNormBackward, EveryShapeDTypeAndMaskOnEveryTarget) {
  std::mt19937_64 rng(0x311u);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ShapeCase& sc : kShapes) {
        for (int variant = 0; variant < 4; ++variant) {  // gamma given (1); masks below
          SCOPED_TRACE(ShapeText(sc.shape) + " group " + std::to_string(sc.group) + " " +
                       DTypeName(d) + " variant " + std::to_string(variant));
          const int64_t n = sc.shape[0], c = sc.shape[1], hxw = Numel(sc.shape) / (n * c);
          HostTensor dy(d, sc.shape), x(d, sc.shape), g(d, {c}), mean(d, {n, sc.group}),
              rstd(d, {n, sc.group}), dx(d, sc.shape), dgamma(d, {c}), dbeta(d, {c});
          dy.Fill(rng, -2.0, 2.0);
          x.Fill(rng, -3.0, 5.0);
          g.Fill(rng, -2.0, 2.0);
          StoreStats(x.Values(), n * sc.group, mean, rstd);
          HostTensor* gp = variant & 1 ? &g : nullptr;
          // Every output, or (variant 2, 3) dx alone and the two sums alone.
          const std::vector<bool> mask = variant < 2    ? std::vector<bool>{true, true, true}
                                         : variant == 2 ? std::vector<bool>{true, false, false}
                                                        : std::vector<bool>{false, true, true};
          const std::vector<uint8_t> dx0 = dx.Snapshot(), dg0 = dgamma.Snapshot();
          ASSERT_EQ(RunBackward(&dy, &x, &mean, &rstd, gp, n, c, hxw, sc.group, &mask, &dx, &dgamma,
                                &dbeta),
                    ACLNN_SUCCESS)
              << aclGetRecentErrMsg();
          ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), gp, sc.shape,
                         sc.group, mask[0] ? &dx : nullptr, mask[1] ? &dgamma : nullptr,
                         mask[2] ? &dbeta : nullptr);
          if (!mask[0]) {
            EXPECT_EQ(dx.Snapshot(), dx0);
          }
          if (!mask[1]) {
            EXPECT_EQ(dgamma.Snapshot(), dg0);
          }
        }
      }
    }
  });
}

// The bits of all three outputs for 1, 2 and 3 threads and 1 or 48 cores, over 130 rows (three
// blocks of the fixed column-sum order).
TEST(GroupNormBackward, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x312u);
  const std::vector<int64_t> shape{65, 8, 5, 3};
  HostTensor dy(DType::kFloat32, shape), x(DType::kFloat32, shape), g(DType::kFloat32, {8}),
      mean(DType::kFloat32, {65, 2}), rstd(DType::kFloat32, {65, 2});
  dy.Fill(rng, -2.0, 2.0);
  x.Fill(rng, -3.0, 3.0);
  g.Fill(rng, -1.0, 1.0);
  StoreStats(x.Values(), 130, mean, rstd);
  std::vector<uint8_t> first[3];
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor dx(DType::kFloat32, shape), dgamma(DType::kFloat32, {8}),
          dbeta(DType::kFloat32, {8});
      OpArgs a;
      a.op = Op::kGroupNormBackward;
      a.in[0] = &dy.view();
      a.in[1] = &x.view();
      a.in[2] = &mean.view();
      a.in[3] = &rstd.view();
      a.in[4] = &g.view();
      a.out[0] = &dx.view();
      a.out[1] = &dgamma.view();
      a.out[2] = &dbeta.view();
      a.bool_array = {true, true, true};
      a.bool_array_given = true;
      const double values[] = {65, 8, 15, 2};
      for (int k = 0; k < 4; ++k) {
        a.scalars[k] = OpScalar{true, values[k], DType::kInt64};
        a.scalars[k].int_value = static_cast<int64_t>(values[k]);
      }
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      if (first[0].empty()) {
        first[0] = dx.Snapshot(), first[1] = dgamma.Snapshot(), first[2] = dbeta.Snapshot();
        ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), &g, shape, 2, &dx,
                       &dgamma, &dbeta);
      }
      EXPECT_EQ(dx.Snapshot(), first[0]);
      EXPECT_EQ(dgamma.Snapshot(), first[1]);
      EXPECT_EQ(dbeta.Snapshot(), first[2]);
    }
  }
  omp_set_num_threads(threads);
}

// The bits of all three outputs on every SIMD target (the per-channel sums weighted by gamma in
// double), and of the column sums with dx (added in the row's pass) and without it (their own
// pass).
TEST(GroupNormBackward, SameBitsOnEveryTargetWithAndWithoutGradInput) {
  std::mt19937_64 rng(0x3A5u);
  const DType f = DType::kFloat32;
  const std::vector<int64_t> shape{6, 12, 5, 7};
  const int64_t n = 6, c = 12, hxw = 35, group = 3;
  HostTensor dy(f, shape), x(f, shape), g(f, {c}), mean(f, {n, group}), rstd(f, {n, group});
  dy.Fill(rng, -2.0, 2.0);
  x.Fill(rng, -3.0, 5.0);
  g.Fill(rng, -2.0, 2.0);
  StoreStats(x.Values(), n * group, mean, rstd);
  std::vector<uint8_t> first[3];
  ForEachTarget([&](int64_t) {
    HostTensor dx(f, shape), dgamma(f, {c}), dbeta(f, {c}), dgamma2(f, {c}), dbeta2(f, {c});
    const std::vector<bool> all{true, true, true}, sums{false, true, true};
    ASSERT_EQ(RunBackward(&dy, &x, &mean, &rstd, &g, n, c, hxw, group, &all, &dx, &dgamma, &dbeta),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    ASSERT_EQ(
        RunBackward(&dy, &x, &mean, &rstd, &g, n, c, hxw, group, &sums, nullptr, &dgamma2, &dbeta2),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(dgamma2.Snapshot(), dgamma.Snapshot());
    EXPECT_EQ(dbeta2.Snapshot(), dbeta.Snapshot());
    if (first[0].empty()) {
      first[0] = dx.Snapshot(), first[1] = dgamma.Snapshot(), first[2] = dbeta.Snapshot();
      return;
    }
    EXPECT_EQ(dx.Snapshot(), first[0]);
    EXPECT_EQ(dgamma.Snapshot(), first[1]);
    EXPECT_EQ(dbeta.Snapshot(), first[2]);
  });
}

// gradOut of another shape than input with the same element count (the op_api reshapes both
// to [N, C, HxW]): read in row-major order; a strided one of another shape is refused.
TEST(GroupNormBackward, GradOutShapedUnlikeInput) {
  std::mt19937_64 rng(0x313u);
  const DType f = DType::kFloat32;
  HostTensor dy(f, {2, 12}), x(f, {2, 4, 3}), mean(f, {2, 2}), rstd(f, {2, 2}), g(f, {4}),
      dx(f, {2, 4, 3}), dgamma(f, {4}), dbeta(f, {4});
  dy.Fill(rng, -2.0, 2.0);
  x.Fill(rng, -3.0, 3.0);
  g.Fill(rng, -1.0, 1.0);
  StoreStats(x.Values(), 4, mean, rstd);
  const std::vector<bool> all{true, true, true};
  ASSERT_EQ(RunBackward(&dy, &x, &mean, &rstd, &g, 2, 4, 3, 2, &all, &dx, &dgamma, &dbeta),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), &g, {2, 4, 3}, 2, &dx,
                 &dgamma, &dbeta);
  HostTensor strided(f, {2, 12}, Strides::kStep2);
  const std::vector<uint8_t> dx0 = dx.Snapshot();
  EXPECT_EQ(RunBackward(&strided, &x, &mean, &rstd, &g, 2, 4, 3, 2, &all, &dx, &dgamma, &dbeta),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("contiguous"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dx.Snapshot(), dx0);
}

// Empty gradOut and input, or no output asked for: success, nothing written (the A2 op_api
// returns before the kernel).
TEST(GroupNormBackward, EmptyInputsWriteNothing) {
  const DType f = DType::kFloat32;
  HostTensor dy(f, {2, 4, 0}), x(f, {2, 4, 0}), mean(f, {2, 2}), rstd(f, {2, 2}), g(f, {4}),
      dx(f, {2, 4, 0}), dgamma(f, {4}), dbeta(f, {4});
  const std::vector<uint8_t> g0 = dgamma.Snapshot(), b0 = dbeta.Snapshot();
  const std::vector<bool> all{true, true, true}, none{false, false, false};
  EXPECT_EQ(RunBackward(&dy, &x, &mean, &rstd, &g, 2, 4, 0, 2, &all, &dx, &dgamma, &dbeta),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dgamma.Snapshot(), g0);
  EXPECT_EQ(dbeta.Snapshot(), b0);
  HostTensor dy2(f, {2, 4, 3}), x2(f, {2, 4, 3});
  EXPECT_EQ(RunBackward(&dy2, &x2, &mean, &rstd, &g, 2, 4, 3, 2, &none, nullptr, nullptr, nullptr),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(GroupNormBackward, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType dy, x, m, g, out;
    std::vector<int64_t> dys, xs, ms, gs, dxs, dgs;
    int64_t n, c, hxw, group;
    std::vector<bool> mask;
    bool mask_null;
    const char* names;
  };
  const std::vector<int64_t> s{2, 4, 3}, cs{4}, st{2, 2};
  const std::vector<bool> all{true, true, true};
  const Case cases[] = {
      {"null outputMask", f, f, f, f, f, s, s, st, cs, s, cs, 2, 4, 3, 2, all, true, "outputMask"},
      {"outputMask of 2",
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       st,
       cs,
       s,
       cs,
       2,
       4,
       3,
       2,
       {true, true},
       false,
       "outputMask"},
      {"DOUBLE gradOut", d, d, d, d, d, s, s, st, cs, s, cs, 2, 4, 3, 2, all, false, "gradOut"},
      {"input unlike gradOut", f, h, f, f, f, s, s, st, cs, s, cs, 2, 4, 3, 2, all, false, "input"},
      {"FLOAT mean with FLOAT16 gradOut", h, h, f, h, h, s, s, st, cs, s, cs, 2, 4, 3, 2, all,
       false, "mean"},
      {"gradInput unlike gradOut", h, h, h, h, f, s, s, st, cs, s, cs, 2, 4, 3, 2, all, false,
       "gradInput"},
      {"group 0", f, f, f, f, f, s, s, st, cs, s, cs, 2, 4, 3, 0, all, false, "group"},
      {"group not dividing C",
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {2, 3},
       cs,
       s,
       cs,
       2,
       4,
       3,
       3,
       all,
       false,
       "group"},
      {"C / group past 8000",
       f,
       f,
       f,
       f,
       f,
       {1, 8002, 1},
       {1, 8002, 1},
       {1, 1},
       {8002},
       {1, 8002, 1},
       {8002},
       1,
       8002,
       1,
       1,
       all,
       false,
       "C"},
      {"gradOut count",
       f,
       f,
       f,
       f,
       f,
       {2, 4, 2},
       s,
       st,
       cs,
       s,
       cs,
       2,
       4,
       3,
       2,
       all,
       false,
       "gradOut"},
      {"mean count", f, f, f, f, f, s, s, {2, 3}, cs, s, cs, 2, 4, 3, 2, all, false, "mean"},
      {"gamma count", f, f, f, f, f, s, s, st, {3}, s, cs, 2, 4, 3, 2, all, false, "gamma"},
      {"gradInput shape",
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       st,
       cs,
       {2, 12},
       cs,
       2,
       4,
       3,
       2,
       all,
       false,
       "gradInput"},
      {"gradGammaOut shape",
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       st,
       cs,
       s,
       {1, 4},
       2,
       4,
       3,
       2,
       all,
       false,
       "gradGammaOut"},
      {"dtype before attribute", d, d, d, d, d, s, s, st, cs, s, cs, 2, 4, 3, 0, all, false,
       "gradOut"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor dy(c.dy, c.dys), x(c.x, c.xs), mean(c.m, c.ms), rstd(c.m, c.ms), g(c.g, c.gs),
        dx(c.out, c.dxs), dgamma(c.m, c.dgs), dbeta(c.m, c.dgs);
    const std::vector<uint8_t> a0 = dx.Snapshot(), b0 = dgamma.Snapshot(), c0 = dbeta.Snapshot();
    EXPECT_EQ(RunBackward(&dy, &x, &mean, &rstd, &g, c.n, c.c, c.hxw, c.group,
                          c.mask_null ? nullptr : &c.mask, &dx, &dgamma, &dbeta),
              ACLNN_ERR_PARAM_INVALID);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(dx.Snapshot(), a0);
    EXPECT_EQ(dgamma.Snapshot(), b0);
    EXPECT_EQ(dbeta.Snapshot(), c0);
  }
  // Null inputs (161001); an output outputMask asks for null (161002, as the op_api).
  HostTensor dy(f, s), x(f, s), mean(f, st), rstd(f, st), g(f, cs), dx(f, s), dgamma(f, cs),
      dbeta(f, cs);
  const char* names[] = {"gradOut", "input", "mean", "rstd"};
  for (int k = 0; k < 4; ++k) {
    EXPECT_EQ(RunBackward(k == 0 ? nullptr : &dy, k == 1 ? nullptr : &x, k == 2 ? nullptr : &mean,
                          k == 3 ? nullptr : &rstd, &g, 2, 4, 3, 2, &all, &dx, &dgamma, &dbeta),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  EXPECT_EQ(RunBackward(&dy, &x, &mean, &rstd, &g, 2, 4, 3, 2, &all, &dx, nullptr, &dbeta),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradGammaOut"), std::string::npos);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
