// AddLayerNorm: x = x1 + x2 (+ biasOptional, per column or of x1's shape), then LayerNorm of
// x over gamma's dims with beta, the rows' mean and rstd written to meanOut and rstdOut
// (FLOAT) and x itself to xOut where additionalOutput is true. This suite checks the
// definition's nine dtype combinations against a long-double reference on every SIMD target
// (SPEC §4: mean and rstd within 4 ULP, y within 4 ULP or 2^-21 (|x - mean| rstd |gamma| +
// |beta|), xOut the exact sum rounded once, 16-bit outputs their f32 result rounded once),
// LayerNorm's bits when x2 is zero, strided operands and outputs that are inputs, constant
// rows and special values, the bits for any team and core count, empty inputs, and every
// refusal in the order of the generated entry point and the tiling with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The operands of one call; a null pointer passes a null aclTensor.
struct Call {
  HostTensor *x1 = nullptr, *x2 = nullptr, *gamma = nullptr, *beta = nullptr, *bias = nullptr;
  HostTensor *y = nullptr, *mean = nullptr, *rstd = nullptr, *x = nullptr;
  double eps = 1e-5;
  bool additional = true;
};

// Both phases on the null stream.
aclnnStatus RunAln(const Call& c) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnAddLayerNormGetWorkspaceSize(
      Acl(c.x1), Acl(c.x2), Acl(c.gamma), Acl(c.beta), Acl(c.bias), c.eps, c.additional, Acl(c.y),
      Acl(c.mean), Acl(c.rstd), Acl(c.x), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnAddLayerNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// y, mean, rstd and xOut (null: not checked) against the long-double reference of x1 + x2 +
// bias from the inputs' values (bias: none, cols values per column, or one per element),
// epsilon as the f32 value CANN's kernel takes.
void ExpectAddLayerNorm(const Call& c, const std::vector<double>& x1, const std::vector<double>& x2,
                        const std::vector<double>& bias, int64_t cols) {
  const int64_t rows = static_cast<int64_t>(x1.size()) / cols;
  const long double e = static_cast<float>(c.eps);
  const std::vector<double> gv = c.gamma->Values(), bv = c.beta->Values();
  const bool full = static_cast<int64_t>(bias.size()) == rows * cols && rows > 1;
  std::vector<long double> x(static_cast<size_t>(cols));
  for (int64_t r = 0; r < rows; ++r) {
    long double sum = 0, mag = 0;
    for (int64_t k = 0; k < cols; ++k) {
      const int64_t i = r * cols + k;
      long double v = static_cast<long double>(x1[i]) + x2[i];
      if (!bias.empty()) v += bias[full ? i : k];
      x[k] = v;
      sum += v;
      mag += std::fabs(v);
    }
    const long double m = sum / cols;
    long double sq = 0;
    for (int64_t k = 0; k < cols; ++k) sq += (x[k] - m) * (x[k] - m);
    const long double s = 1.0L / std::sqrt(sq / cols + e);
    const double md = static_cast<double>(m), sd = static_cast<double>(s);
    const double got_m = c.mean->Get(r), got_s = c.rstd->Get(r);
    if (std::isnan(md)) {
      ASSERT_TRUE(std::isnan(got_m)) << "mean of row " << r;
    } else {
      ASSERT_LE(std::fabs(got_m - md),
                4 * Ulp32(md) + std::ldexp(static_cast<double>(mag / cols), -45))
          << "mean of row " << r << ": got " << Num(got_m) << ", exact " << Num(md);
    }
    if (std::isnan(sd)) {
      ASSERT_TRUE(std::isnan(got_s)) << "rstd of row " << r;
    } else {
      ASSERT_LE(std::fabs(got_s - sd), 4 * Ulp32(sd))
          << "rstd of row " << r << ": got " << Num(got_s) << ", exact " << Num(sd);
    }
    for (int64_t k = 0; k < cols; ++k) {
      const int64_t i = r * cols + k;
      if (c.x != nullptr) {
        const double exact = static_cast<double>(x[k]), got = c.x->Get(i);
        if (std::isnan(exact)) {
          ASSERT_TRUE(std::isnan(got)) << "xOut " << i;
        } else {
          ASSERT_LE(std::fabs(got - exact), NormBound(c.x->dtype(), exact, 0.5 * Ulp32(exact)))
              << "xOut " << i << ": got " << Num(got) << ", exact " << Num(exact);
        }
      }
      const long double scaled = (x[k] - m) * s;
      const double exact = static_cast<double>(scaled * gv[k] + bv[k]);
      const double got = c.y->Get(i);
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(got)) << "y " << i << ": got " << Num(got);
        continue;
      }
      const double terms =
          std::fabs(static_cast<double>(scaled)) * std::fabs(gv[k]) + std::fabs(bv[k]);
      const double f32_bound = std::max(4 * Ulp32(exact), std::ldexp(terms, -21));
      ASSERT_LE(std::fabs(got - exact), NormBound(c.y->dtype(), exact, f32_bound))
          << "y " << i << " (row " << r << "): x " << Num(static_cast<double>(x[k])) << " got "
          << Num(got) << ", exact " << Num(exact);
    }
  }
}

// The definition's nine combinations: x1, x2, gamma (and beta); bias, yOut and xOut take the
// compute dtype (FLOAT where x1 and x2 differ).
struct Combo {
  DType x1, x2, gamma;
};
const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16;
const Combo kCombos[] = {{f, h, f},   {f, bf, f}, {h, f, f},    {bf, f, f}, {h, h, f},
                         {bf, bf, f}, {h, h, h},  {bf, bf, bf}, {f, f, f}};
DType ComputeOf(const Combo& c) { return c.x1 == c.x2 ? c.x1 : f; }

// Every combination and shape, without a bias, with one per column and with one of x1's
// shape, on every SIMD target.
TEST(AddLayerNorm, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x301u);
  ForEachTarget([&](int64_t) {
    for (const Combo& k : kCombos) {
      const DType t = ComputeOf(k);
      for (const TrailingShape& s : ResidualNormShapes()) {
        for (int bias_kind : {0, 1, 2}) {
          SCOPED_TRACE(ShapeText(s.x) + " gamma " + ShapeText(s.gamma) + " " + DTypeName(k.x1) +
                       "/" + DTypeName(k.x2) + "/" + DTypeName(k.gamma) + " bias " +
                       std::to_string(bias_kind));
          const std::vector<int64_t> st = StatsShape(s.x, s.gamma.size());
          HostTensor x1(k.x1, s.x), x2(k.x2, s.x), g(k.gamma, s.gamma), b(k.gamma, s.gamma),
              bias(t, bias_kind == 2 ? s.x : s.gamma), y(t, s.x), x(t, s.x), mean(f, st),
              rstd(f, st);
          x1.Fill(rng, -3.0, 5.0);
          x2.Fill(rng, -4.0, 2.0);
          g.Fill(rng, -2.0, 2.0);
          b.Fill(rng, -1.0, 1.0);
          bias.Fill(rng, -1.0, 1.0);
          Call c{&x1, &x2, &g, &b, bias_kind ? &bias : nullptr, &y, &mean, &rstd, &x, 1e-5, true};
          ASSERT_EQ(RunAln(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
          ExpectAddLayerNorm(c, x1.Values(), x2.Values(),
                             bias_kind ? bias.Values() : std::vector<double>{}, Numel(s.gamma));
        }
      }
    }
  });
}

// additionalOutput false: xOut is checked but not written.
TEST(AddLayerNorm, AdditionalOutputFalseLeavesXOut) {
  std::mt19937_64 rng(0x302u);
  for (const DType d : {f, h, bf}) {
    SCOPED_TRACE(DTypeName(d));
    HostTensor x1(d, {5, 77}), x2(d, {5, 77}), g(d, {77}), b(d, {77}), y(d, {5, 77}), x(d, {5, 77}),
        mean(f, {5, 1}), rstd(f, {5, 1});
    x1.Fill(rng, -3.0, 3.0);
    x2.Fill(rng, -3.0, 3.0);
    g.Fill(rng, -2.0, 2.0);
    b.Fill(rng, -2.0, 2.0);
    const std::vector<uint8_t> x0 = x.Snapshot();
    Call c{&x1, &x2, &g, &b, nullptr, &y, &mean, &rstd, &x, 1e-5, false};
    ASSERT_EQ(RunAln(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    c.x = nullptr;
    ExpectAddLayerNorm(c, x1.Values(), x2.Values(), {}, 77);
    EXPECT_EQ(x.Snapshot(), x0);
  }
}

// With x2 zero and no bias, x is x1 and every bit of y, mean and rstd is LayerNorm's.
TEST(AddLayerNorm, ZeroX2GivesLayerNormsBits) {
  std::mt19937_64 rng(0x303u);
  for (const Combo& k : {Combo{f, f, f}, Combo{h, h, f}, Combo{bf, bf, bf}}) {
    SCOPED_TRACE(DTypeName(k.x1));
    const DType d = k.x1;
    HostTensor x1(d, {13, 515}), x2(d, {13, 515}), g(k.gamma, {515}), b(k.gamma, {515}),
        y(d, {13, 515}), x(d, {13, 515}), mean(f, {13, 1}), rstd(f, {13, 1});
    HostTensor y_ref(d, {13, 515}), m_ref(f, {13, 1}), r_ref(f, {13, 1});
    x1.Fill(rng, -3.0, 3.0);
    for (int64_t i = 0; i < x2.numel(); ++i) x2.Set(i, 0.0);
    g.Fill(rng, -1.0, 1.0);
    b.Fill(rng, -1.0, 1.0);
    ASSERT_EQ(RunAln({&x1, &x2, &g, &b, nullptr, &y, &mean, &rstd, &x, 1e-5, true}), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const int64_t last = 515;
    aclIntArray* norm = aclCreateIntArray(&last, 1);
    ASSERT_EQ(aclnnLayerNormGetWorkspaceSize(x1.acl(), norm, g.acl(), b.acl(), 1e-5,
                                             const_cast<aclTensor*>(y_ref.acl()),
                                             const_cast<aclTensor*>(m_ref.acl()),
                                             const_cast<aclTensor*>(r_ref.acl()), &ws, &exec),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<char> workspace(ws);
    ASSERT_EQ(aclnnLayerNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr), ACLNN_SUCCESS);
    aclDestroyIntArray(norm);
    EXPECT_EQ(y.Snapshot(), y_ref.Snapshot());
    EXPECT_EQ(mean.Snapshot(), m_ref.Snapshot());
    EXPECT_EQ(rstd.Snapshot(), r_ref.Snapshot());
    EXPECT_EQ(x.Snapshot(), x1.Snapshot());
  }
}

// Strided and transposed operands, a strided full bias; outputs that are inputs exactly
// (yOut x2, xOut x1).
TEST(AddLayerNorm, StridesAndAliases) {
  std::mt19937_64 rng(0x304u);
  const std::vector<int64_t> shape{5, 3, 7}, gamma{3, 7}, st{5, 1, 1};
  for (const DType d : {f, h, bf}) {
    for (const Strides l1 : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const Strides l2 : {Strides::kDense, Strides::kStep2}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layouts " +
                     std::to_string(static_cast<int>(l1)) + "/" +
                     std::to_string(static_cast<int>(l2)));
        HostTensor x1(d, shape, l1), x2(d, shape, l2), g(d, gamma, l2), b(d, gamma, l1),
            bias(d, shape, l1), y(d, shape, l2), x(d, shape, l1), mean(f, st, l2), rstd(f, st);
        x1.Fill(rng, -4.0, 4.0);
        x2.Fill(rng, -4.0, 4.0);
        g.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -2.0, 2.0);
        bias.Fill(rng, -1.0, 1.0);
        const std::vector<double> v1 = x1.Values(), v2 = x2.Values(), vb = bias.Values();
        Call c{&x1, &x2, &g, &b, &bias, &y, &mean, &rstd, &x, 0.25, true};
        ASSERT_EQ(RunAln(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectAddLayerNorm(c, v1, v2, vb, 21);
        // The outputs crossed onto the inputs: yOut is x2, xOut is x1.
        c.y = &x2;
        c.x = &x1;
        ASSERT_EQ(RunAln(c), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectAddLayerNorm(c, v1, v2, vb, 21);
      }
    }
  }
}

// A constant row (rstd 1 / sqrt(epsilon), y beta), a large mean over a small spread, a NaN
// (its row NaN, xOut NaN at that element only), an infinity (mean infinite, rstd and y NaN),
// opposite infinities summing to NaN.
TEST(AddLayerNorm, ConstantRowsFarMeansAndSpecialValues) {
  HostTensor x1(f, {5, 33}), x2(f, {5, 33}), g(f, {33}), b(f, {33}), y(f, {5, 33}), x(f, {5, 33}),
      mean(f, {5, 1}), rstd(f, {5, 1});
  for (int c = 0; c < 33; ++c) {
    g.Set(c, 0.5 + c / 32.0);
    b.Set(c, c / 8.0 - 1.0);
    x1.Set(c, 3.0);
    x2.Set(c, 4.0);
    x1.Set(33 + c, 1.0e6);
    x2.Set(33 + c, c / 128.0);
    x1.Set(66 + c, c == 7 ? kNaN : c);
    x2.Set(66 + c, 1.0);
    x1.Set(99 + c, c == 3 ? HUGE_VAL : c);
    x2.Set(99 + c, 1.0);
    x1.Set(132 + c, c == 5 ? HUGE_VAL : 1.0);
    x2.Set(132 + c, c == 5 ? -HUGE_VAL : 1.0);
  }
  Call call{&x1, &x2, &g, &b, nullptr, &y, &mean, &rstd, &x, 1e-4, true};
  ASSERT_EQ(RunAln(call), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  std::vector<double> v1 = x1.Values(), v2 = x2.Values();
  v1.resize(66);
  v2.resize(66);
  HostTensor y2(f, {2, 33}), x_2(f, {2, 33}), m2(f, {2, 1}), r2(f, {2, 1});
  for (int i = 0; i < 66; ++i) y2.Set(i, y.Get(i)), x_2.Set(i, x.Get(i));
  for (int r = 0; r < 2; ++r) m2.Set(r, mean.Get(r)), r2.Set(r, rstd.Get(r));
  ExpectAddLayerNorm({&x1, &x2, &g, &b, nullptr, &y2, &m2, &r2, &x_2, 1e-4, true}, v1, v2, {}, 33);
  EXPECT_EQ(rstd.Get(0), static_cast<double>(static_cast<float>(1.0 / std::sqrt(1e-4f))));
  for (int c = 0; c < 33; ++c) {
    EXPECT_EQ(y.Get(c), b.Get(c)) << c;
    EXPECT_TRUE(std::isnan(y.Get(66 + c))) << c;
    EXPECT_EQ(std::isnan(x.Get(66 + c)), c == 7) << c;
    EXPECT_TRUE(std::isnan(y.Get(99 + c))) << c;
    EXPECT_EQ(std::isnan(x.Get(132 + c)), c == 5) << c;
  }
  EXPECT_TRUE(std::isnan(mean.Get(2)));
  EXPECT_TRUE(std::isnan(rstd.Get(2)));
  EXPECT_EQ(mean.Get(3), HUGE_VAL);
  EXPECT_TRUE(std::isnan(rstd.Get(3)));
  EXPECT_TRUE(std::isnan(mean.Get(4)));
}

// The bits of y, mean, rstd and xOut for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(AddLayerNorm, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x305u);
  for (const Combo& k : {Combo{f, f, f}, Combo{bf, bf, f}, Combo{h, f, f}}) {
    const DType t = ComputeOf(k);
    HostTensor x1(k.x1, {97, 1031}), x2(k.x2, {97, 1031}), g(k.gamma, {1031}), b(k.gamma, {1031}),
        bias(t, {97, 1031});
    x1.Fill(rng, -3.0, 3.0);
    x2.Fill(rng, -3.0, 3.0);
    g.Fill(rng, -1.0, 1.0);
    b.Fill(rng, -1.0, 1.0);
    bias.Fill(rng, -1.0, 1.0);
    std::vector<uint8_t> first[4];
    for (int team : {1, 2, 3}) {
      for (int cores : {0, 1, 48}) {
        SCOPED_TRACE(std::string(DTypeName(k.x1)) + "/" + DTypeName(k.x2) + " threads " +
                     std::to_string(team) + " cores " + std::to_string(cores));
        omp_set_num_threads(team);
        HostTensor y(t, {97, 1031}), mean(f, {97, 1}), rstd(f, {97, 1}), x(t, {97, 1031});
        OpArgs a;
        a.op = Op::kAddLayerNorm;
        a.in[0] = &x1.view();
        a.in[1] = &x2.view();
        a.in[2] = &g.view();
        a.in[3] = &b.view();
        a.in[4] = &bias.view();
        a.out[0] = &y.view();
        a.out[1] = &mean.view();
        a.out[2] = &rstd.view();
        a.out[3] = &x.view();
        a.scalars[0] = OpScalar{true, 1e-5, DType::kFloat64};
        a.scalars[1] = OpScalar{true, 1.0, DType::kBool};
        tiling::Options options;
        options.num_cores = cores;
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        if (first[0].empty()) {
          first[0] = y.Snapshot(), first[1] = mean.Snapshot(), first[2] = rstd.Snapshot();
          first[3] = x.Snapshot();
          ExpectAddLayerNorm({&x1, &x2, &g, &b, &bias, &y, &mean, &rstd, &x, 1e-5, true},
                             x1.Values(), x2.Values(), bias.Values(), 1031);
        }
        EXPECT_EQ(y.Snapshot(), first[0]);
        EXPECT_EQ(mean.Snapshot(), first[1]);
        EXPECT_EQ(rstd.Snapshot(), first[2]);
        EXPECT_EQ(x.Snapshot(), first[3]);
      }
    }
  }
  omp_set_num_threads(threads);
}

// The A2 tiling takes no empty tensor: an empty leading dim (meanOut empty too) or an empty
// normalised dim is refused (561002), nothing written.
TEST(AddLayerNorm, EmptyInputsRefused) {
  for (const TrailingShape& s : {TrailingShape{{0, 4}, {4}}, TrailingShape{{2, 0}, {0}}}) {
    SCOPED_TRACE(ShapeText(s.x));
    const std::vector<int64_t> st = StatsShape(s.x, 1);
    HostTensor x1(f, s.x), x2(f, s.x), g(f, s.gamma), b(f, s.gamma), y(f, s.x), x(f, s.x),
        mean(f, st), rstd(f, st);
    const std::vector<uint8_t> m0 = mean.Snapshot();
    EXPECT_EQ(RunAln({&x1, &x2, &g, &b, nullptr, &y, &mean, &rstd, &x, 1e-5, true}),
              ACLNN_ERR_INNER_TILING_ERROR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("x1 must not be empty"), std::string::npos)
        << aclGetRecentErrMsg();
    EXPECT_EQ(mean.Snapshot(), m0);
  }
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(AddLayerNorm, RefusalsWriteNothing) {
  const DType d = DType::kFloat64;
  using Shape = std::vector<int64_t>;
  struct Case {
    const char* what;
    DType x1, x2, g, b, bias, y, m, r, x;
    Shape x1s, x2s, gs, bs, biass, ys, ms, rs, xs;
    aclnnStatus status;
    const char* names;
  };
  const Shape s{2, 3, 4}, n{4}, st{2, 3, 1}, g2{3, 4}, st2{2, 1, 1};
  const Shape nine{1, 1, 1, 1, 1, 1, 1, 2, 4}, nine_st{1, 1, 1, 1, 1, 1, 1, 2, 1};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const Case cases[] = {
      // The definition's dtypes (161002).
      {"DOUBLE x1", d, f, f, f, f, f, f, f, f, s, s, n, n, n, s, st, st, s, kInvalid, "x1"},
      {"FLOAT16 x1, BFLOAT16 x2",
       h,
       bf,
       f,
       f,
       h,
       h,
       f,
       f,
       h,
       s,
       s,
       n,
       n,
       n,
       s,
       st,
       st,
       s,
       kInvalid,
       "x2"},
      {"FLOAT16 gamma, mixed x",
       f,
       h,
       h,
       h,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       n,
       n,
       s,
       st,
       st,
       s,
       kInvalid,
       "gamma"},
      {"beta unlike gamma",
       h,
       h,
       f,
       h,
       h,
       h,
       f,
       f,
       h,
       s,
       s,
       n,
       n,
       n,
       s,
       st,
       st,
       s,
       kInvalid,
       "beta"},
      {"FLOAT bias, FLOAT16 x", h, h, f, f, f, h, f, f, h, s, s, n, n, n, s, st, st, s, kInvalid,
       "biasOptional"},
      {"FLOAT16 yOut, mixed x",
       h,
       f,
       f,
       f,
       f,
       h,
       f,
       f,
       f,
       s,
       s,
       n,
       n,
       n,
       s,
       st,
       st,
       s,
       kInvalid,
       "yOut"},
      {"FLOAT16 meanOut", h,        h, h, h, h, h, h, f, h, s, s, n, n, n, s, st, st, s,
       kInvalid,          "meanOut"},
      {"BFLOAT16 rstdOut", bf,       bf, bf, bf, bf, bf, f, bf, bf, s, s, n, n, n, s, st, st, s,
       kInvalid,           "rstdOut"},
      {"xOut unlike x1", bf,    bf, bf, bf, bf, bf, f, f, h, s, s, n, n, n, s, st, st, s,
       kInvalid,         "xOut"},
      // The tiling's shapes (561002).
      {"x1 of no dim", f, f, f, f, f, f, f, f, f, {}, {}, n, n, n, {}, {}, {}, {}, kTiling, "x1"},
      {"x1 of 9 dims", f, f, f, f,    f,       f,       f,    f,       f,   nine,
       nine,           n, n, n, nine, nine_st, nine_st, nine, kTiling, "x1"},
      {"gamma of no dim", f,      f, f, f, f, f, f, f, f, s, s, {}, {}, n, s, st, st, s,
       kTiling,           "gamma"},
      {"x2 rank", f, f, f, f, f, f, f, f, f, s, {6, 4}, n, n, n, s, st, st, s, kTiling, "x2"},
      {"meanOut rank", f,      f, f,       f,        f, f, f, f, f, s, s, n, n, n, s,
       {6, 1},         {6, 1}, s, kTiling, "meanOut"},
      {"beta of no dim", f, f, f, f, f, f, f, f, f, s, s, n, {}, n, s, st, st, s, kTiling, "beta"},
      {"gamma of more dims than x1",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       {4},
       {4},
       {1, 4},
       {1, 4},
       n,
       {4},
       {1},
       {1},
       {4},
       kTiling,
       "gamma"},
      {"yOut shape", f,  f,  f, f,       f,     f, f, f, f, s, s, n, n, n,
       {2, 4, 3},    st, st, s, kTiling, "yOut"},
      {"xOut shape", f,  f,         f,       f,     f, f, f, f, f, s, s, n, n, n, s,
       st,           st, {3, 2, 4}, kTiling, "xOut"},
      {"beta unlike gamma",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       {1, 4},
       n,
       s,
       st,
       st,
       s,
       kTiling,
       "beta"},
      {"rstdOut unlike meanOut",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       n,
       n,
       s,
       st,
       {2, 1, 1},
       s,
       kTiling,
       "rstdOut"},
      {"gamma unlike x1's last dims",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {3},
       {3},
       {3},
       s,
       st,
       st,
       s,
       kTiling,
       "gamma"},
      {"meanOut's normalised dim not 1",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       n,
       n,
       n,
       s,
       s,
       s,
       s,
       kTiling,
       "meanOut"},
      {"meanOut's leading dims",
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       g2,
       g2,
       g2,
       s,
       st,
       st,
       s,
       kTiling,
       "meanOut"},
      // hostnn's: a bias of neither gamma's nor x1's shape.
      {"bias shape",  f, f, f, f, f, f, f, f, f, s, s, n, n, {3, 4}, s, st, st, s, kTiling,
       "biasOptional"},
      // Two faults: the dtypes before the shapes.
      {"dtype before shape",
       f,
       f,
       f,
       f,
       f,
       f,
       h,
       f,
       f,
       s,
       s,
       n,
       n,
       n,
       {7},
       st,
       st,
       s,
       kInvalid,
       "meanOut"},
  };
  (void)st2;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x1(c.x1, c.x1s), x2(c.x2, c.x2s), g(c.g, c.gs), b(c.b, c.bs), bias(c.bias, c.biass),
        y(c.y, c.ys), mean(c.m, c.ms), rstd(c.r, c.rs), x(c.x, c.xs);
    const std::vector<uint8_t> y0 = y.Snapshot(), m0 = mean.Snapshot(), r0 = rstd.Snapshot(),
                               x0 = x.Snapshot();
    EXPECT_EQ(RunAln({&x1, &x2, &g, &b, &bias, &y, &mean, &rstd, &x, 1e-5, true}), c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(mean.Snapshot(), m0);
    EXPECT_EQ(rstd.Snapshot(), r0);
    EXPECT_EQ(x.Snapshot(), x0);
  }
  // Nulls (161001): every tensor but biasOptional, in the prototype's order.
  HostTensor x1(f, s), x2(f, s), g(f, n), b(f, n), y(f, s), mean(f, st), rstd(f, st), x(f, s);
  const char* names[] = {"x1", "x2", "gamma", "beta", "yOut", "meanOut", "rstdOut", "xOut"};
  for (int k = 0; k < 8; ++k) {
    HostTensor* t[8] = {&x1, &x2, &g, &b, &y, &mean, &rstd, &x};
    t[k] = nullptr;
    EXPECT_EQ(RunAln({t[0], t[1], t[2], t[3], nullptr, t[4], t[5], t[6], t[7], 1e-5, true}),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // Outputs that share memory: meanOut and rstdOut one tensor.
  const std::vector<uint8_t> y0 = y.Snapshot(), m0 = mean.Snapshot();
  EXPECT_EQ(RunAln({&x1, &x2, &g, &b, nullptr, &y, &mean, &mean, &x, 1e-5, true}),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rstdOut"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(y.Snapshot(), y0);
  EXPECT_EQ(mean.Snapshot(), m0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
