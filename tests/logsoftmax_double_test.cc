// aclnnLogSoftmax with DOUBLE: self DOUBLE into every out dtype, every self into a DOUBLE
// out, and every other mixed pair, as CANN computes them: self cast to out's dtype first
// (one rounding), then LogSoftmax in out's dtype. Checked against a long double reference
// with compensated sums, computed here from the values the cast gives (test_util's own
// rounding, not the library's), within SPEC §4: DOUBLE 2^-50 (|x - max| + 1) + 4 ULP,
// FLOAT 2^-21 (|x - max| + 1) + 4 ULP, FLOAT16 / BFLOAT16 that FLOAT bound plus half a
// narrow ULP. Also the special rows, in place, thread-count determinism, the front end's
// dtype rule, the DOUBLE plan and the f64 exp kernel on every SIMD target.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "kernels/kernels.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

using test::kInf;
using test::kNaN;
using test::Layout;
using test::TestTensor;

constexpr DType kFloatTypes[] = {DType::kFloat64, DType::kFloat32, DType::kFloat16,
                                 DType::kBFloat16};

// LogSoftmax of one row in long double, PyTorch CPU's limits: NaN or +inf in the row, or a
// row of -inf only, is NaN throughout. The sum of exp(x - max) is compensated (Neumaier)
// and keeps the max's own 1s apart, so rows of any length and sums of 1 + 1e-30 are exact
// to long double's precision.
void RefRow(const std::vector<double>& x, std::vector<long double>* out,
            std::vector<long double>* x_minus_max) {
  const size_t n = x.size();
  out->assign(n, 0.0L);
  x_minus_max->assign(n, 0.0L);
  long double max = -INFINITY;
  bool nan = false;
  for (double v : x) {
    nan = nan || std::isnan(v);
    if (v > max) max = v;
  }
  if (nan || std::isinf(max)) {
    for (size_t i = 0; i < n; ++i) (*out)[i] = (*x_minus_max)[i] = NAN;
    return;
  }
  long double sum = 0.0L, comp = 0.0L;
  int64_t ones = 0;
  for (double v : x) {
    if (v == max) {
      ++ones;
      continue;
    }
    const long double e = std::exp(static_cast<long double>(v) - max);
    const long double t = sum + e;
    comp += std::fabs(sum) >= std::fabs(e) ? (sum - t) + e : (e - t) + sum;
    sum = t;
  }
  const long double rest = sum + comp;
  const long double log_sum =
      ones == 1 ? std::log1p(rest) : std::log(static_cast<long double>(ones) + rest);
  for (size_t i = 0; i < n; ++i) {
    (*x_minus_max)[i] = static_cast<long double>(x[i]) - max;
    (*out)[i] = (*x_minus_max)[i] - log_sum;
  }
}

// SPEC §4's bound for LogSoftmax computed in `t` (absolute).
double Bound(DType t, double exact, double x_minus_max) {
  if (t == DType::kFloat64) {
    return std::ldexp(std::fabs(x_minus_max) + 1.0, -50) + 4.0 * test::UlpOf(t, exact);
  }
  const double f32 =
      std::ldexp(std::fabs(x_minus_max) + 1.0, -21) + 4.0 * test::UlpOf(DType::kFloat32, exact);
  return t == DType::kFloat32 ? f32 : f32 + 0.5 * test::UlpOf(t, exact);
}

bool Within(DType t, double got, long double exact_ld, double x_minus_max) {
  const double exact = static_cast<double>(exact_ld);
  if (std::isnan(got) || std::isnan(exact)) return std::isnan(got) && std::isnan(exact);
  // An exact value beyond the type's range rounds to an infinity.
  const double rounded = test::RoundTo(t, exact);
  if (std::isinf(got) || std::isinf(rounded)) return got == rounded;
  return std::fabs(static_cast<long double>(got) - exact_ld) <= Bound(t, exact, x_minus_max);
}

// Elements of out outside the bound of out's dtype, against self cast to out's dtype.
int64_t Check(const TestTensor& x, const TestTensor& out, int64_t dim, const std::string& what) {
  int64_t a1, r, a0;
  test::SplitAroundDim(x.shape(), dim, &a1, &r, &a0);
  const DType t = out.dtype();
  int64_t bad = 0;
  std::vector<double> row(r);
  std::vector<long double> ref, xmm;
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      for (int64_t j = 0; j < r; ++j) row[j] = test::RoundTo(t, x.Get((i * r + j) * a0 + k));
      RefRow(row, &ref, &xmm);
      for (int64_t j = 0; j < r; ++j) {
        const double got = out.Get((i * r + j) * a0 + k);
        if (Within(t, got, ref[j], static_cast<double>(xmm[j]))) continue;
        if (++bad <= test::kMaxReported) {
          ADD_FAILURE() << what << ": row (" << i << ", " << k << ") element " << j << " x "
                        << test::Num(row[j]) << ": got " << test::Num(got) << ", exact "
                        << test::Num(static_cast<double>(ref[j])) << ", bound "
                        << Bound(t, static_cast<double>(ref[j]), static_cast<double>(xmm[j]));
        }
      }
    }
  }
  return bad;
}

// Element e of a DOUBLE snapshot.
double Bits(const std::vector<uint8_t>& snapshot, int64_t e) {
  double v;
  std::memcpy(&v, &snapshot[static_cast<size_t>(e) * sizeof(double)], sizeof(double));
  return v;
}

test::RunResult RunLogSoftmax(const TestTensor& x, const TestTensor& out, int64_t dim) {
  OpArgs a;
  a.op = Op::kLogSoftmax;
  a.in[0] = &x.view();
  a.out[0] = &out.view();
  a.dim = dim;
  return test::RunOp(a);
}

std::string Name(DType in, DType out, const std::vector<int64_t>& shape, int64_t dim) {
  return std::string(DTypeName(in)) + " -> " + DTypeName(out) + " " + test::ShapeText(shape) +
         " dim " + std::to_string(dim);
}

// ops-nn's unit tests run DOUBLE self into DOUBLE and FLOAT outs on 1-d to 8-d tensors;
// here every dim of each rank, dense and strided (transposed, strided, offset) self and out.
TEST(LogSoftmaxDouble, DoubleSelfEveryRankAndDimDenseAndStrided) {
  const std::vector<std::vector<int64_t>> shapes = {{},
                                                    {8},
                                                    {5, 7},
                                                    {1, 2, 3},
                                                    {2, 3, 4, 5},
                                                    {2, 3, 1, 4, 5},
                                                    {1, 2, 3, 2, 3, 2},
                                                    {2, 1, 3, 2, 2, 3, 2},
                                                    {1, 2, 3, 2, 1, 2, 3, 2}};
  const std::pair<Layout, Layout> layouts[] = {{Layout::kDense, Layout::kDense},
                                               {Layout::kTransposed, Layout::kStride3},
                                               {Layout::kOffset, Layout::kTransposed},
                                               {Layout::kStride2, Layout::kOffset}};
  std::mt19937_64 rng(0x5EED0D01);
  for (DType t_out : {DType::kFloat64, DType::kFloat32}) {
    for (const std::vector<int64_t>& shape : shapes) {
      const int64_t n = std::max<int64_t>(1, static_cast<int64_t>(shape.size()));
      for (int64_t dim = -n; dim < n; ++dim) {
        for (const auto& [lx, lout] : layouts) {
          const std::string what = Name(DType::kFloat64, t_out, shape, dim) + " " +
                                   test::LayoutName(lx) + " -> " + test::LayoutName(lout);
          SCOPED_TRACE(what);
          TestTensor x = test::MakeLayout(lx, DType::kFloat64, shape);
          test::FillRandom(&x, rng, -30, 30);
          TestTensor out = test::MakeLayout(lout, t_out, shape);
          const test::RunResult r = RunLogSoftmax(x, out, dim);
          ASSERT_TRUE(r.status.ok()) << r.status.message();
          EXPECT_EQ(Check(x, out, dim, what), 0);
          EXPECT_TRUE(out.storage().GuardsIntact());
        }
      }
    }
  }
}

// Every (self, out) pair of FLOAT, FLOAT16, BFLOAT16, DOUBLE on AR and ARA shapes, long
// rows and the planner's output-by-rows ARA path, on every SIMD target.
TEST(LogSoftmaxDouble, EveryDTypePairOnEveryTemplateAndTarget) {
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  const Case cases[] = {{{13, 301}, -1}, {{6, 40, 21}, 1},   {{2, 100003}, 1}, {{3, 4000, 5}, 1},
                        {{300, 3}, 0},   {{4, 33, 1500}, 1}, {{2, 5, 1, 9}, 2}};
  std::mt19937_64 rng(0x5EED0D02);
  test::ForEachTarget([&](int64_t) {
    for (DType t_in : kFloatTypes) {
      for (DType t_out : kFloatTypes) {
        for (const Case& c : cases) {
          const std::string what = Name(t_in, t_out, c.shape, c.dim);
          SCOPED_TRACE(what);
          TestTensor x = TestTensor::Dense(t_in, c.shape), out = TestTensor::Dense(t_out, c.shape);
          test::FillRandom(&x, rng, -40, 40);
          out.storage().FillBytes(0xFF);
          const test::RunResult r = RunLogSoftmax(x, out, c.dim);
          ASSERT_TRUE(r.status.ok()) << r.status.message();
          EXPECT_EQ(Check(x, out, c.dim, what), 0);
        }
      }
    }
  });
}

// CANN casts self to out's dtype before computing: a DOUBLE or FLOAT self into a FLOAT16
// out is computed from the FLOAT16 values. Self (1000.3, 1000) is (1000.5, 1000) in
// FLOAT16 (spacing 0.5): out[0] = -log(1 + e^-0.5) = -0.474, where the uncast values would
// give -log(1 + e^-0.3) = -0.554.
TEST(LogSoftmaxDouble, SelfIsCastToOutsDTypeFirst) {
  for (DType t_in : {DType::kFloat64, DType::kFloat32}) {
    SCOPED_TRACE(DTypeName(t_in));
    TestTensor x = TestTensor::Dense(t_in, {2}), out = TestTensor::Dense(DType::kFloat16, {2});
    x.Set(0, 1000.3);
    x.Set(1, 1000.0);
    ASSERT_TRUE(RunLogSoftmax(x, out, 0).status.ok());
    EXPECT_EQ(Check(x, out, 0, "cast first"), 0);
    EXPECT_NEAR(out.Get(0), -std::log1p(std::exp(-0.5)), 1e-3);
    EXPECT_NEAR(out.Get(1), -0.5 - std::log1p(std::exp(-0.5)), 1e-3);
  }
}

TEST(LogSoftmaxDouble, SpecialRows) {
  const double big = std::numeric_limits<double>::max();
  const std::vector<std::vector<double>> rows = {
      {1.0, kInf, 2.0, 3.0},         // +inf: NaN throughout, as PyTorch
      {-kInf, -kInf, -kInf, -kInf},  // all -inf: NaN
      {0.0, kNaN, 1.0, 2.0},         // NaN: NaN throughout
      {big, big, -big, 0.0},         // huge finite values: no overflow in the sums
      {-kInf, 0.0, 1.0, -kInf},      // -inf beside a finite max: -inf there
      {-big, -big, -big, -big},
      {0.0, -40.0, -45.0, -50.0},  // a sum of 1 + 4e-18: the max's result -4.3e-18
      {1e-300, -1e-300, 0.0, 5e-324},
  };
  const int64_t m = static_cast<int64_t>(rows.size());
  for (int64_t dim : {1, 0}) {
    const std::vector<int64_t> shape =
        dim == 1 ? std::vector<int64_t>{m, 4} : std::vector<int64_t>{4, m};
    TestTensor x = TestTensor::Dense(DType::kFloat64, shape),
               out = TestTensor::Dense(DType::kFloat64, shape);
    for (int64_t i = 0; i < m; ++i) {
      for (int64_t j = 0; j < 4; ++j) x.Set(dim == 1 ? i * 4 + j : j * m + i, rows[i][j]);
    }
    test::ForEachTarget([&](int64_t) {
      ASSERT_TRUE(RunLogSoftmax(x, out, dim).status.ok());
      EXPECT_EQ(Check(x, out, dim, "special rows, dim " + std::to_string(dim)), 0);
      const auto at = [&](int64_t i, int64_t j) {
        return out.Get(dim == 1 ? i * 4 + j : j * m + i);
      };
      EXPECT_TRUE(std::isnan(at(0, 0)) && std::isnan(at(1, 2)) && std::isnan(at(2, 3)));
      EXPECT_EQ(at(4, 0), -kInf);
      EXPECT_EQ(at(4, 3), -kInf);
      // The smallest result keeps its relative accuracy, not only the absolute bound.
      const double tiny = -(std::exp(-40.0L) + std::exp(-45.0L) + std::exp(-50.0L));
      EXPECT_NEAR(at(6, 0), tiny, 4 * test::UlpOf(DType::kFloat64, tiny));
    });
  }
}

TEST(LogSoftmaxDouble, InPlace) {
  std::mt19937_64 rng(0x5EED0D03);
  for (const auto& c : {std::pair<std::vector<int64_t>, int64_t>{{7, 3001}, 1},
                        {{5, 30, 300}, 1},
                        {{4, 64, 512}, 1}}) {
    const std::vector<int64_t>& shape = c.first;
    const int64_t dim = c.second;
    for (Layout l : {Layout::kDense, Layout::kTransposed}) {
      TestTensor x = test::MakeLayout(l, DType::kFloat64, shape);
      test::FillRandom(&x, rng, -20, 20);
      const TestTensor original = [&] {
        TestTensor c = TestTensor::Dense(DType::kFloat64, shape);
        for (int64_t i = 0; i < x.numel(); ++i) c.Set(i, x.Get(i));
        return c;
      }();
      ASSERT_TRUE(RunLogSoftmax(x, x, dim).status.ok());
      EXPECT_EQ(Check(original, x, dim, "in place " + std::string(test::LayoutName(l))), 0);
    }
  }
}

// The same bits for any thread count, and on every SIMD target of one family (those with a
// fused multiply-add, and those without): AR rows, ARA blocks, one vector of columns, and
// ARA written by rows (which [4, 64, 2048] takes from 4 cores on).
TEST(LogSoftmaxDouble, SameBitsForAnyThreadCountAndTarget) {
  std::mt19937_64 rng(0x5EED0D04);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  for (DType t_in : {DType::kFloat64, DType::kFloat32}) {
    for (const Case& c : {Case{{64, 3001}, -1}, Case{{8, 500, 40}, 1}, Case{{4, 64, 2048}, 1},
                          Case{{3, 1000, 7}, 1}}) {
      TestTensor x = TestTensor::Dense(t_in, c.shape);
      test::FillRandom(&x, rng, -20, 20);
      const int saved = omp_get_max_threads();
      std::vector<uint8_t> firsts[2];  // per family of targets (test::FusedFamily)
      bool by_rows = false;
      test::ForEachTarget([&](int64_t) {
        std::vector<uint8_t>& first = firsts[test::FusedFamily()];
        for (int threads : {1, 2, 3, 4, 7}) {
          omp_set_num_threads(threads);
          TestTensor out = TestTensor::Dense(DType::kFloat64, c.shape);
          const test::RunResult r = RunLogSoftmax(x, out, c.dim);
          ASSERT_TRUE(r.status.ok()) << r.status.message();
          by_rows = by_rows || r.plan.reduction.output_by_rows;
          if (first.empty()) {
            first = out.storage().Snapshot();
            EXPECT_EQ(Check(x, out, c.dim, "first run"), 0);
          } else if (out.storage().Snapshot() != first) {
            // Where and how: a second run of the same call tells a race from a difference
            // the plan or the target makes.
            const std::vector<uint8_t> got = out.storage().Snapshot();
            TestTensor again = TestTensor::Dense(DType::kFloat64, c.shape);
            const bool rerun_same = RunLogSoftmax(x, again, c.dim).status.ok() &&
                                    again.storage().Snapshot() == got;
            int64_t differ = 0, at = -1;
            for (int64_t e = 0; e < out.numel(); ++e) {
              if (std::memcmp(&got[e * 8], &first[e * 8], 8) == 0) continue;
              if (differ++ == 0) at = e;
            }
            const tiling::ReductionPlan& p = r.plan.reduction;
            ADD_FAILURE() << DTypeName(t_in) << " " << test::ShapeText(c.shape) << " dim " << c.dim
                          << ", " << kernels::ActiveTargetName() << ", " << threads
                          << " threads: " << differ << " elements differ from the family's first"
                          << " run, the first at " << at << " (" << test::Num(out.Get(at))
                          << " vs " << test::Num(Bits(first, at)) << "); plan block_dim "
                          << p.block_dim << ", a1_tile " << p.a1_tile << ", a0_tile " << p.a0_tile
                          << ", by rows " << p.output_by_rows << "; a rerun gives "
                          << (rerun_same ? "the same bits" : "other bits") << "; "
                          << Check(x, out, c.dim, "differing run") << " out of bound";
          }
        }
      });
      omp_set_num_threads(saved);
      if (c.shape.size() == 3 && c.shape[2] == 2048)
        EXPECT_TRUE(by_rows) << "no plan wrote the output by rows";
    }
  }
}

// The front end takes DOUBLE for self and out, and names the four dtypes otherwise.
TEST(LogSoftmaxDouble, DTypeRule) {
  for (DType t_in : kFloatTypes) {
    for (DType t_out : kFloatTypes) {
      TestTensor x = TestTensor::Dense(t_in, {2, 3}), out = TestTensor::Dense(t_out, {2, 3});
      x.storage().Fill(0.5);
      EXPECT_TRUE(RunLogSoftmax(x, out, 1).status.ok())
          << DTypeName(t_in) << " -> " << DTypeName(t_out);
    }
  }
  for (const bool bad_self : {true, false}) {
    TestTensor x = TestTensor::Dense(bad_self ? DType::kInt32 : DType::kFloat64, {2, 3});
    TestTensor out = TestTensor::Dense(bad_self ? DType::kFloat64 : DType::kInt64, {2, 3});
    out.storage().FillBytes(0x5A);
    const std::vector<uint8_t> before = out.storage().Snapshot();
    const test::RunResult r = RunLogSoftmax(x, out, 1);
    EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
    EXPECT_NE(r.status.message().find(std::string(bad_self ? "self" : "out") +
                                      " dtype: expected FLOAT, FLOAT16, BFLOAT16 or DOUBLE, got " +
                                      (bad_self ? "INT32" : "INT64")),
              std::string::npos)
        << r.status.message();
    EXPECT_EQ(out.storage().Snapshot(), before);
  }
}

// DOUBLE plans: 8-byte elements and f64 intermediates in the UB; the backward still
// computes in f32 and refuses a DOUBLE input.
TEST(LogSoftmaxDouble, Plans) {
  for (const auto& [shape, dim] : {std::pair<std::vector<int64_t>, int64_t>{{64, 3001}, 1},
                                   {{4, 70001}, 1},
                                   {{8, 500, 40}, 1},
                                   {{3, 4000, 20}, 1}}) {
    tiling::Plan plan;
    const Status s = tiling::MakePlan({Op::kLogSoftmax, DType::kFloat64, shape, dim}, {}, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(plan.dtype, "f64");
    EXPECT_EQ(plan.reduction.elem_bytes, 8);
    bool f64_buffer = false;
    for (const tiling::UbBuffer& b : plan.reduction.ub) {
      EXPECT_EQ(b.name.find("_f32"), std::string::npos) << b.name;
      f64_buffer = f64_buffer || b.name.find("_f64") != std::string::npos;
    }
    EXPECT_TRUE(f64_buffer) << test::ShapeText(shape);
    EXPECT_LE(tiling::UbTotal(plan.reduction.ub), plan.platform.ub_bytes);
  }
  tiling::Plan plan;
  EXPECT_FALSE(
      tiling::MakePlan({Op::kLogSoftmaxBackward, DType::kFloat64, {4, 5}, 0}, {}, &plan).ok());
}

// The f64 exp of the sums, on every target: within 2 ULP of long double's over [-745, 0],
// exactly 1 at 0, 0 at -inf, NaN at NaN.
TEST(LogSoftmaxDouble, ExpKernelOnEveryTarget) {
  std::vector<double> v;
  std::mt19937_64 rng(0x5EED0D05);
  std::uniform_real_distribution<double> u(-745.0, 0.0), small(-1.0, 0.0);
  for (int i = 0; i < 200000; ++i) v.push_back(i % 2 ? u(rng) : small(rng) * std::exp2(-(i % 60)));
  for (double s : {0.0, -0.0, -0.34657359027997264, -0.34657359027997270, -708.0, -709.5, -744.0})
    v.push_back(s);
  test::ForEachTarget([&](int64_t) {
    const kernels::SoftmaxF64Kernels k = kernels::GetSoftmaxF64(kernels::RowFunction::kLogSoftmax);
    std::vector<double> got(v.size());
    k.exp(v.data(), got.data(), v.size());
    int64_t bad = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      const long double exact = std::exp(static_cast<long double>(v[i]));
      const double ulp = test::UlpOf(DType::kFloat64, static_cast<double>(exact));
      // Below the normal range only the subnormal spacing counts.
      const double err = std::fabs(static_cast<double>(static_cast<long double>(got[i]) - exact));
      if (err <= 2.0 * ulp) continue;
      if (++bad <= test::kMaxReported)
        ADD_FAILURE() << "exp(" << test::Num(v[i]) << ") = " << test::Num(got[i]) << ", exact "
                      << test::Num(static_cast<double>(exact)) << " (" << err / ulp << " ULP)";
    }
    EXPECT_EQ(bad, 0);
    const double special[] = {0.0, -kInf, kNaN, -1000.0};
    double out[4];
    k.exp(special, out, 4);
    EXPECT_EQ(out[0], 1.0);
    EXPECT_EQ(out[1], 0.0);
    EXPECT_TRUE(std::isnan(out[2]));
    EXPECT_EQ(out[3], 0.0);
  });
}

}  // namespace
}  // namespace hostnn
