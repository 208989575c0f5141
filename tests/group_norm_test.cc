// GroupNorm: self [N, C, ...] normalised over groups of C / group channels, each of HxW
// elements, gamma and beta applied per channel; meanOut and rstdOut [N, group] in self's
// dtype. This suite checks the values of the three dtypes over shapes of 2 to 5 dims and
// group counts from 1 to C, with and without gamma and beta, against a long-double reference
// on every SIMD target (SPEC §4: mean and rstd within 4 ULP, out within 4 ULP or 2^-21 (|x -
// mean| rstd |gamma| + |beta|), 16-bit outputs that plus half an ULP), strided and in-place
// operands, constant groups and special values, the bits for any team and core count, empty
// inputs (meanOut 0 and rstdOut NaN, as the op_api fills them), and every refusal in the
// op_api's order with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_group_norm.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

const aclTensor* Acl(HostTensor* t) { return t == nullptr ? nullptr : t->acl(); }

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

double Ulp32(double v) { return UlpOf(DType::kFloat32, v); }
double Bound(DType d, double exact, double f32_bound) {
  return d == DType::kFloat32 ? f32_bound : f32_bound + 0.5 * UlpOf(d, exact);
}
int64_t Numel(const std::vector<int64_t>& s) {
  int64_t n = 1;
  for (const int64_t v : s) n *= v;
  return n;
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
      ASSERT_LE(std::fabs(mean.Get(r) - md), Bound(mean.dtype(), md, 4 * Ulp32(md)))
          << "mean of row " << r << ": got " << Num(mean.Get(r)) << ", exact " << Num(md);
      ASSERT_LE(std::fabs(rstd.Get(r) - sd), Bound(rstd.dtype(), sd, 4 * Ulp32(sd)))
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
      ASSERT_LE(std::fabs(got - exact), Bound(y.dtype(), exact, f32_bound))
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

}  // namespace
}  // namespace test
}  // namespace hostnn
