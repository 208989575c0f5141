// LayerNorm and LayerNormWithImplMode: each row of input over its last len(normalizedShape)
// dims to mean 0 and variance 1 (the biased variance, rstd = 1 / sqrt(var + eps)), then
// scaled by weight and shifted by bias; the rows' mean and rstd written when given. The
// list-driven suites cannot build its operands (tests/util/capi_ops.h, HasOwnSuite): this
// suite checks values of every dtype combination against a long-double reference on every
// SIMD target (SPEC §4: mean and rstd within 4 ULP, y within 4 ULP or 2^-21 (|x - mean| rstd
// |gamma| + |beta|), 16-bit outputs that plus half an ULP), rows of any length, strided and
// in-place operands, optional operands left out, constant rows and a large mean, NaN and
// infinities, the bits for any team and core count, empty inputs, implMode, and every
// refusal in CANN's order with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct ArrayDeleter {
  void operator()(aclIntArray* a) const { aclDestroyIntArray(a); }
};
using ArrayPtr = std::unique_ptr<aclIntArray, ArrayDeleter>;
ArrayPtr IntArray(const std::vector<int64_t>& v) {
  return ArrayPtr(aclCreateIntArray(v.data(), v.size()));
}

// Both phases on the null stream: aclnnLayerNorm, or with an implMode WithImplMode.
constexpr int32_t kNoImplMode = std::numeric_limits<int32_t>::min();
aclnnStatus RunLayerNorm(const aclTensor* x, const aclIntArray* norm, const aclTensor* w,
                         const aclTensor* b, double eps, aclTensor* y, aclTensor* mean,
                         aclTensor* rstd, int32_t impl_mode = kNoImplMode) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st =
      impl_mode == kNoImplMode
          ? aclnnLayerNormGetWorkspaceSize(x, norm, w, b, eps, y, mean, rstd, &ws, &exec)
          : aclnnLayerNormWithImplModeGetWorkspaceSize(x, norm, w, b, eps, y, mean, rstd, impl_mode,
                                                       &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  void* wp = ws ? workspace.data() : nullptr;
  return impl_mode == kNoImplMode ? aclnnLayerNorm(wp, ws, exec, nullptr)
                                  : aclnnLayerNormWithImplMode(wp, ws, exec, nullptr);
}

struct Tensors {
  HostTensor* x;
  HostTensor* w;  // null: not given
  HostTensor* b;
  HostTensor* y;
  HostTensor* mean;
  HostTensor* rstd;
};
aclnnStatus RunT(const Tensors& t, const std::vector<int64_t>& norm, double eps,
                 int32_t impl_mode = kNoImplMode) {
  const ArrayPtr a = IntArray(norm);
  const auto acl = [](HostTensor* h) { return h == nullptr ? nullptr : h->acl(); };
  return RunLayerNorm(t.x->acl(), a.get(), acl(t.w), acl(t.b), eps, t.y->acl(), acl(t.mean),
                      acl(t.rstd), impl_mode);
}

// Every output against the long-double reference of the inputs' values, eps as the f32
// value CANN's kernel takes.
void ExpectLayerNorm(const Tensors& t, const std::vector<double>& x, int64_t cols, double eps) {
  const int64_t rows = static_cast<int64_t>(x.size()) / cols;
  const double e = static_cast<float>(eps);
  std::vector<double> g, bv;
  if (t.w != nullptr) g = t.w->Values();
  if (t.b != nullptr) bv = t.b->Values();
  for (int64_t r = 0; r < rows; ++r) {
    long double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += x[r * cols + c];
    const long double mean = sum / cols;
    long double sq = 0;
    for (int64_t c = 0; c < cols; ++c) sq += (x[r * cols + c] - mean) * (x[r * cols + c] - mean);
    const long double rstd = 1.0L / std::sqrt(sq / cols + e);
    const double m = static_cast<double>(mean), s = static_cast<double>(rstd);
    if (t.mean != nullptr && std::isfinite(m)) {
      const double got = t.mean->Get(r);
      ASSERT_LE(std::fabs(got - m), NormBound(t.mean->dtype(), m, 4 * Ulp32(m)))
          << "mean of row " << r << ": got " << Num(got) << ", exact " << Num(m);
    }
    if (t.rstd != nullptr && std::isfinite(s)) {
      const double got = t.rstd->Get(r);
      ASSERT_LE(std::fabs(got - s), NormBound(t.rstd->dtype(), s, 4 * Ulp32(s)))
          << "rstd of row " << r << ": got " << Num(got) << ", exact " << Num(s);
    }
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double centred = (x[i] - mean) * rstd;
      const double gc = g.empty() ? 1.0 : g[c], bc = bv.empty() ? 0.0 : bv[c];
      const double exact = static_cast<double>(centred * gc + bc);
      const double got = t.y->Get(i);
      if (std::isnan(exact)) {
        ASSERT_TRUE(std::isnan(got)) << "y " << i;
        continue;
      }
      const double f32_bound = std::max(
          4 * Ulp32(exact),
          std::ldexp(std::fabs(static_cast<double>(centred)) * std::fabs(gc) + std::fabs(bc), -21));
      ASSERT_LE(std::fabs(got - exact), NormBound(t.y->dtype(), exact, f32_bound))
          << "y " << i << " (row " << r << "): x " << Num(x[i]) << " got " << Num(got) << ", exact "
          << Num(exact);
    }
  }
}

struct ShapeCase {
  std::vector<int64_t> x, norm;
};
const ShapeCase kShapes[] = {{{4, 8}, {8}},
                             {{1, 2, 32}, {32}},
                             {{3, 5}, {5}},
                             {{2, 3, 17}, {3, 17}},
                             {{7, 1}, {1}},
                             {{6}, {6}},
                             {{2, 2, 3, 4}, {2, 3, 4}},
                             {{3, 1000}, {1000}},
                             {{2, 4099}, {4099}},
                             {{37, 64}, {64}}};

// (x, weight and bias, y, mean and rstd) dtypes.
struct DTypeCase {
  DType x, wb, y, stats;
};
const DTypeCase kDTypes[] = {
    {DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32},
    {DType::kFloat16, DType::kFloat16, DType::kFloat16, DType::kFloat32},
    {DType::kBFloat16, DType::kBFloat16, DType::kBFloat16, DType::kFloat32},
    {DType::kFloat16, DType::kFloat32, DType::kFloat16, DType::kFloat16},
    {DType::kBFloat16, DType::kFloat32, DType::kFloat32, DType::kBFloat16},
    {DType::kFloat32, DType::kFloat32, DType::kBFloat16, DType::kFloat16},
};

TEST(LayerNorm, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x1A7u);
  ForEachTarget([&](int64_t) {
    for (const DTypeCase& d : kDTypes) {
      for (const ShapeCase& c : kShapes) {
        SCOPED_TRACE(ShapeText(c.x) + " norm " + ShapeText(c.norm) + " x " + DTypeName(d.x) +
                     " wb " + DTypeName(d.wb) + " y " + DTypeName(d.y) + " stats " +
                     DTypeName(d.stats));
        int64_t cols = 1;
        for (int64_t v : c.norm) cols *= v;
        std::vector<int64_t> stats_shape = c.x;
        for (size_t i = c.x.size() - c.norm.size(); i < c.x.size(); ++i) stats_shape[i] = 1;
        HostTensor x(d.x, c.x), w(d.wb, c.norm), b(d.wb, c.norm), y(d.y, c.x),
            mean(d.stats, stats_shape), rstd(d.stats, stats_shape);
        x.Fill(rng, -3.0, 5.0);
        w.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        const Tensors t{&x, &w, &b, &y, &mean, &rstd};
        ASSERT_EQ(RunT(t, c.norm, 1e-5), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectLayerNorm(t, x.Values(), cols, 1e-5);
      }
    }
  });
}

// Optional operands left out (weight 1, bias 0, no statistics), strided and transposed
// views, in place (out is input), and eps from 0 to 1.
TEST(LayerNorm, OptionalOperandsStridesInPlaceAndEps) {
  std::mt19937_64 rng(0x1A8u);
  const DType f = DType::kFloat32;
  for (const Strides lx : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (const Strides ly : {Strides::kDense, Strides::kStep2}) {
      for (int mask = 0; mask < 16; ++mask) {
        SCOPED_TRACE("layouts " + std::to_string(static_cast<int>(lx)) + "/" +
                     std::to_string(static_cast<int>(ly)) + " given " + std::to_string(mask));
        const std::vector<int64_t> shape{5, 3, 7}, norm{3, 7};
        HostTensor x(f, shape, lx), w(f, norm, ly), b(f, norm), y(f, shape, ly), mean(f, {5}),
            rstd(f, {5, 1, 1});
        x.Fill(rng, -4.0, 4.0);
        w.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        const Tensors t{&x, mask & 1 ? &w : nullptr,    mask & 2 ? &b : nullptr,
                        &y, mask & 4 ? &mean : nullptr, mask & 8 ? &rstd : nullptr};
        const double eps = mask / 15.0;
        ASSERT_EQ(RunT(t, norm, eps), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectLayerNorm(t, x.Values(), 21, eps);
      }
    }
  }
  HostTensor x(f, {6, 9}), y(f, {6, 9}), mean(f, {6}), rstd(f, {6});
  x.Fill(rng, -4.0, 4.0);
  const std::vector<double> before = x.Values();
  const Tensors in_place{&x, nullptr, nullptr, &x, &mean, &rstd};
  ASSERT_EQ(RunT(in_place, {9}, 1e-5), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ExpectLayerNorm(in_place, before, 9, 1e-5);
}

// A constant row has variance 0 and rstd 1 / sqrt(eps); a large mean with a small spread
// keeps its accuracy (the centred second pass); NaN and infinity give NaN rows.
TEST(LayerNorm, ConstantRowsLargeMeansAndSpecialValues) {
  const DType f = DType::kFloat32;
  HostTensor x(f, {4, 33}), y(f, {4, 33}), mean(f, {4}), rstd(f, {4});
  for (int c = 0; c < 33; ++c) {
    x.Set(c, 2.0);
    x.Set(33 + c, 1.0e6 + (c % 5) * 0.0625);
    x.Set(66 + c, c == 7 ? kNaN : c);
    x.Set(99 + c, c == 3 ? HUGE_VAL : c);
  }
  const Tensors t{&x, nullptr, nullptr, &y, &mean, &rstd};
  ASSERT_EQ(RunT(t, {33}, 1e-5), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(mean.Get(0), 2.0);
  EXPECT_EQ(rstd.Get(0), static_cast<float>(1.0 / std::sqrt(static_cast<double>(1e-5f))));
  for (int c = 0; c < 33; ++c) EXPECT_EQ(y.Get(c), 0.0) << c;
  std::vector<double> v = x.Values();
  v.resize(66);
  HostTensor x2(f, {2, 33}), y2(f, {2, 33}), m2(f, {2}), r2(f, {2});
  for (int i = 0; i < 66; ++i) x2.Set(i, v[i]);
  const Tensors t2{&x2, nullptr, nullptr, &y2, &m2, &r2};
  ASSERT_EQ(RunT(t2, {33}, 1e-5), ACLNN_SUCCESS);
  ExpectLayerNorm(t2, v, 33, 1e-5);
  // A NaN row: every output NaN. An infinite row: mean +inf, inf - inf makes the variance,
  // rstd and every y NaN.
  EXPECT_TRUE(std::isnan(mean.Get(2)));
  EXPECT_EQ(mean.Get(3), HUGE_VAL);
  for (int row : {2, 3}) {
    EXPECT_TRUE(std::isnan(rstd.Get(row))) << row;
    for (int c = 0; c < 33; ++c) EXPECT_TRUE(std::isnan(y.Get(row * 33 + c))) << row << " " << c;
  }
}

// The statistics take one pass about a shift (a row's first element) where that is as
// accurate as two, and a second, centred pass where the shift is far from the mean against
// the spread: rows of 16384 whose first 32 elements are 1e4 from the rest (about 16
// standard deviations: the one-pass sums would cancel about 9 bits) and, beside them, rows
// that take one pass.
TEST(LayerNorm, RowsWhoseFirstElementsAreFarFromTheMean) {
  constexpr int64_t kCols = 16384;
  const DType f = DType::kFloat32;
  HostTensor x(f, {3, kCols}), y(f, {3, kCols}), mean(f, {3}), rstd(f, {3});
  std::vector<double> v(3 * kCols);
  for (int64_t c = 0; c < kCols; ++c) {
    const double spread = static_cast<double>(c % 97) / 97.0;
    v[c] = (c < 32 ? 1.0e4 : 0.0) + spread;            // far: the second pass
    v[kCols + c] = (c < 32 ? -3.0e4 : 5.0) + spread;   // far, below
    v[2 * kCols + c] = (c < 32 ? 1.0 : 0.0) + spread;  // near: one pass
  }
  for (int64_t i = 0; i < 3 * kCols; ++i) x.Set(i, v[i]);
  const Tensors t{&x, nullptr, nullptr, &y, &mean, &rstd};
  ASSERT_EQ(RunT(t, {kCols}, 1e-5), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ExpectLayerNorm(t, x.Values(), kCols, 1e-5);
}

// The bits of y, mean and rstd for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(LayerNorm, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x1A9u);
  const DType f = DType::kFloat32;
  HostTensor x(f, {97, 1031}), w(f, {1031}), b(f, {1031});
  x.Fill(rng, -3.0, 3.0);
  w.Fill(rng, -1.0, 1.0);
  b.Fill(rng, -1.0, 1.0);
  std::vector<uint8_t> first_y, first_m, first_r;
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor y(f, {97, 1031}), mean(f, {97}), rstd(f, {97});
      OpArgs a;
      a.op = Op::kLayerNorm;
      a.in[0] = &x.view();
      a.in[1] = &w.view();
      a.in[2] = &b.view();
      a.out[0] = &y.view();
      a.out[1] = &mean.view();
      a.out[2] = &rstd.view();
      a.int_array = {1031};
      a.int_array_given = true;
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      if (first_y.empty()) {
        first_y = y.Snapshot(), first_m = mean.Snapshot(), first_r = rstd.Snapshot();
        ExpectLayerNorm({&x, &w, &b, &y, &mean, &rstd}, x.Values(), 1031, 1e-5);
      }
      EXPECT_EQ(y.Snapshot(), first_y);
      EXPECT_EQ(mean.Snapshot(), first_m);
      EXPECT_EQ(rstd.Snapshot(), first_r);
    }
  }
  omp_set_num_threads(threads);
}

// No row: success, nothing written. Empty rows (a normalised extent of 0): mean 0 and rstd
// NaN for every row, as CANN's op_api fills them.
TEST(LayerNorm, EmptyInputs) {
  const DType f = DType::kFloat32;
  HostTensor x(f, {0, 4}), y(f, {0, 4}), mean(f, {3}), rstd(f, {3});
  const std::vector<uint8_t> m0 = mean.Snapshot();
  ASSERT_EQ(RunT({&x, nullptr, nullptr, &y, &mean, &rstd}, {4}, 1e-5), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mean.Snapshot(), m0);
  HostTensor x2(f, {3, 0}), y2(f, {3, 0}), w2(f, {0});
  ASSERT_EQ(RunT({&x2, &w2, nullptr, &y2, &mean, &rstd}, {0}, 1e-5), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  for (int r = 0; r < 3; ++r) {
    EXPECT_EQ(mean.Get(r), 0.0);
    EXPECT_TRUE(std::isnan(rstd.Get(r)));
  }
}

// implMode 0, 1 and 2 compute alike; 2 asks for FLOAT16 inputs; 3 and -1 are refused.
TEST(LayerNorm, ImplModes) {
  std::mt19937_64 rng(0x1AAu);
  const DType h = DType::kFloat16, f = DType::kFloat32;
  HostTensor x(h, {3, 40}), w(h, {40}), y0(h, {3, 40}), y(h, {3, 40});
  x.Fill(rng, -3.0, 3.0);
  w.Fill(rng, -1.0, 1.0);
  ASSERT_EQ(RunT({&x, &w, nullptr, &y0, nullptr, nullptr}, {40}, 1e-5), ACLNN_SUCCESS);
  for (int mode : {0, 1, 2}) {
    ASSERT_EQ(RunT({&x, &w, nullptr, &y, nullptr, nullptr}, {40}, 1e-5, mode), ACLNN_SUCCESS)
        << mode << ": " << aclGetRecentErrMsg();
    EXPECT_EQ(y.Snapshot(), y0.Snapshot()) << mode;
  }
  for (int mode : {3, -1}) {
    EXPECT_EQ(RunT({&x, &w, nullptr, &y, nullptr, nullptr}, {40}, 1e-5, mode),
              ACLNN_ERR_PARAM_INVALID)
        << mode;
  }
  HostTensor xf(f, {3, 40}), yf(f, {3, 40});
  EXPECT_EQ(RunT({&xf, nullptr, nullptr, &yf, nullptr, nullptr}, {40}, 1e-5, 2),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("implMode"), std::string::npos);
  HostTensor wf(f, {40});
  EXPECT_EQ(RunT({&x, &wf, nullptr, &y, nullptr, nullptr}, {40}, 1e-5, 2), ACLNN_ERR_PARAM_INVALID);
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(LayerNorm, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType x, w, b, y, stats;
    std::vector<int64_t> xs, norm, ws, ys, stats_shape;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4};
  const Case cases[] = {
      {"DOUBLE input", d, f, f, f, f, s, n, n, s, {2, 3}, "input"},
      {"weight neither FLOAT nor input's", h, bf, bf, h, f, s, n, n, s, {2, 3}, "weightOptional"},
      {"weight unlike bias", h, f, h, h, f, s, n, n, s, {2, 3}, "biasOptional"},
      {"DOUBLE out", f, f, f, d, f, s, n, n, s, {2, 3}, "out"},
      {"DOUBLE mean", f, f, f, f, d, s, n, n, s, {2, 3}, "meanOutOptional"},
      {"9 dims",
       f,
       f,
       f,
       f,
       f,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       n,
       n,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       {2},
       "input"},
      {"empty normalizedShape", f, f, f, f, f, s, {}, {}, s, {2, 3}, "normalizedShape"},
      {"more normalised dims than input", f, f, f, f, f, {4}, {1, 4}, {1, 4}, {4}, {1}, "input"},
      {"trailing dims unlike normalizedShape", f, f, f, f, f, s, {3}, {3}, s, {2, 3}, "input"},
      {"weight rank", f, f, f, f, f, s, {3, 4}, {12}, s, {2}, "weightOptional"},
      {"weight dims", f, f, f, f, f, s, n, {5}, s, {2, 3}, "weightOptional"},
      {"out shape", f, f, f, f, f, s, n, n, {2, 4, 3}, {2, 3}, "out"},
      {"mean elements", f, f, f, f, f, s, n, n, s, {5}, "meanOutOptional"},
      // Two faults: the dtype is checked before the shapes, as CANN's op_api.
      {"dtype before shape", d, f, f, f, f, s, {3}, n, s, {2, 3}, "input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x(c.x, c.xs), w(c.w, c.ws), b(c.b, c.ws), y(c.y, c.ys), mean(c.stats, c.stats_shape),
        rstd(f, c.stats_shape);
    const std::vector<uint8_t> y0 = y.Snapshot(), m0 = mean.Snapshot(), r0 = rstd.Snapshot();
    EXPECT_EQ(RunT({&x, &w, &b, &y, &mean, &rstd}, c.norm, 1e-5), ACLNN_ERR_PARAM_INVALID);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(mean.Snapshot(), m0);
    EXPECT_EQ(rstd.Snapshot(), r0);
  }
  // Nulls: input, normalizedShape, out (161001); the optional ones may be null.
  HostTensor x(f, s), y(f, s);
  const ArrayPtr a = IntArray(n);
  EXPECT_EQ(RunLayerNorm(nullptr, a.get(), nullptr, nullptr, 1e-5, y.acl(), nullptr, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunLayerNorm(x.acl(), nullptr, nullptr, nullptr, 1e-5, y.acl(), nullptr, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("normalizedShape"), std::string::npos);
  EXPECT_EQ(RunLayerNorm(x.acl(), a.get(), nullptr, nullptr, 1e-5, nullptr, nullptr, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
  // The outputs may not share memory.
  HostTensor stats(f, {6});
  const ArrayPtr a4 = IntArray({4});
  EXPECT_EQ(
      RunLayerNorm(x.acl(), a4.get(), nullptr, nullptr, 1e-5, y.acl(), stats.acl(), stats.acl()),
      ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
