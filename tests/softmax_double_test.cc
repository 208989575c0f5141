// aclnnSoftmax with DOUBLE, as CANN computes it: op_api lists DOUBLE for self and out on
// Atlas A2, computes in self's dtype and casts the result to out's. A DOUBLE self is
// computed in double (f64 lanes) and rounded once to a narrower out; a FLOAT, FLOAT16 or
// BFLOAT16 self into a DOUBLE out is its own dtype's result widened exactly. Checked
// against a long double reference with compensated sums within SPEC §4: DOUBLE 4 ULP +
// 2^-50 max(y of the row), a narrower out that bound plus half an ULP of out's dtype. Also
// the special rows, in place, and the same bits for any thread count and target.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <limits>
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

// Softmax of one row in long double, PyTorch CPU's limits: NaN or +inf in the row, or a
// row of -inf only, is NaN throughout. The sum of exp(x - max) is compensated (Neumaier).
std::vector<long double> RefRow(const std::vector<double>& x) {
  const size_t n = x.size();
  long double max = -INFINITY;
  bool nan = false;
  for (double v : x) {
    nan = nan || std::isnan(v);
    if (v > max) max = v;
  }
  if (nan || std::isinf(max)) return std::vector<long double>(n, NAN);
  std::vector<long double> e(n);
  long double sum = 0.0L, comp = 0.0L;
  for (size_t i = 0; i < n; ++i) {
    e[i] = std::exp(static_cast<long double>(x[i]) - max);
    const long double t = sum + e[i];
    comp += std::fabs(sum) >= std::fabs(e[i]) ? (sum - t) + e[i] : (e[i] - t) + sum;
    sum = t;
  }
  for (long double& v : e) v /= sum + comp;
  return e;
}

// SPEC §4's DOUBLE bound for Softmax (absolute), plus half an ULP of a narrower out.
double Bound(DType out, double exact, double row_max_y) {
  const double f64 = 4.0 * test::UlpOf(DType::kFloat64, exact) + std::ldexp(row_max_y, -50);
  return out == DType::kFloat64 ? f64 : f64 + 0.5 * test::UlpOf(out, exact);
}

// Elements of out (from a DOUBLE self) outside the bound.
int64_t Check(const TestTensor& x, const TestTensor& out, int64_t dim, const std::string& what) {
  int64_t a1, r, a0;
  test::SplitAroundDim(x.shape(), dim, &a1, &r, &a0);
  int64_t bad = 0;
  std::vector<double> row(r);
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      for (int64_t j = 0; j < r; ++j) row[j] = x.Get((i * r + j) * a0 + k);
      const std::vector<long double> ref = RefRow(row);
      long double max_y = 0.0L;
      for (long double v : ref) max_y = std::isnan(v) ? max_y : std::max(max_y, v);
      for (int64_t j = 0; j < r; ++j) {
        const double got = out.Get((i * r + j) * a0 + k);
        const double exact = static_cast<double>(ref[j]);
        const double bound = Bound(out.dtype(), exact, static_cast<double>(max_y));
        const bool ok = std::isnan(exact) ? std::isnan(got)
                                          : std::fabs(static_cast<long double>(got) - ref[j]) <=
                                                static_cast<long double>(bound);
        if (ok) continue;
        if (++bad <= test::kMaxReported) {
          ADD_FAILURE() << what << ": row (" << i << ", " << k << ") element " << j << " x "
                        << test::Num(row[j]) << ": got " << test::Num(got) << ", exact "
                        << test::Num(exact) << ", bound " << bound;
        }
      }
    }
  }
  return bad;
}

test::RunResult RunSoftmax(const TestTensor& x, const TestTensor& out, int64_t dim) {
  OpArgs a;
  a.op = Op::kSoftmax;
  a.in[0] = &x.view();
  a.out[0] = &out.view();
  a.dim = dim;
  return test::RunOp(a);
}

std::string Name(DType in, DType out, const std::vector<int64_t>& shape, int64_t dim) {
  return std::string(DTypeName(in)) + " -> " + DTypeName(out) + " " + test::ShapeText(shape) +
         " dim " + std::to_string(dim);
}

// Every rank and dim, dense and strided self and out, into every float out dtype.
TEST(SoftmaxDouble, DoubleSelfEveryRankDimAndLayout) {
  const std::vector<std::vector<int64_t>> shapes = {
      {}, {8}, {5, 7}, {1, 2, 3}, {2, 3, 4, 5}, {2, 3, 1, 4, 5}, {1, 2, 3, 2, 1, 2, 3, 2}};
  const std::pair<Layout, Layout> layouts[] = {{Layout::kDense, Layout::kDense},
                                               {Layout::kTransposed, Layout::kStride3},
                                               {Layout::kOffset, Layout::kTransposed}};
  std::mt19937_64 rng(0x5EED5D01);
  for (DType t_out : {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
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
          const test::RunResult r = RunSoftmax(x, out, dim);
          ASSERT_TRUE(r.status.ok()) << r.status.message();
          EXPECT_EQ(Check(x, out, dim, what), 0);
          EXPECT_TRUE(out.storage().GuardsIntact());
        }
      }
    }
  }
}

// AR rows short and long, ARA blocks, one vector of columns and the output-by-rows path,
// on every SIMD target, into a DOUBLE and a FLOAT out.
TEST(SoftmaxDouble, EveryTemplateOnEveryTarget) {
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  const Case cases[] = {{{13, 301}, -1}, {{6, 40, 21}, 1},   {{2, 100003}, 1}, {{3, 4000, 5}, 1},
                        {{300, 3}, 0},   {{4, 33, 1500}, 1}, {{2, 5, 1, 9}, 2}};
  std::mt19937_64 rng(0x5EED5D02);
  test::ForEachTarget([&](int64_t) {
    for (DType t_out : {DType::kFloat64, DType::kFloat32}) {
      for (const Case& c : cases) {
        const std::string what = Name(DType::kFloat64, t_out, c.shape, c.dim);
        SCOPED_TRACE(what);
        TestTensor x = TestTensor::Dense(DType::kFloat64, c.shape);
        TestTensor out = TestTensor::Dense(t_out, c.shape);
        test::FillRandom(&x, rng, -40, 40);
        out.storage().FillBytes(0xFF);
        const test::RunResult r = RunSoftmax(x, out, c.dim);
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        EXPECT_EQ(Check(x, out, c.dim, what), 0);
      }
    }
  });
}

// A 32- or 16-bit self is computed in its own dtype (the f32 kernels, a 16-bit result
// rounded to it) and widened exactly into a DOUBLE out: the bits of the same-dtype call.
TEST(SoftmaxDouble, NarrowSelfIntoDoubleOutIsItsOwnResultWidened) {
  std::mt19937_64 rng(0x5EED5D03);
  for (DType t_in : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const auto& [shape, dim] :
         {std::pair<std::vector<int64_t>, int64_t>{{7, 301}, 1}, {{5, 40, 9}, 1}, {{300, 3}, 0}}) {
      SCOPED_TRACE(Name(t_in, DType::kFloat64, shape, dim));
      TestTensor x = TestTensor::Dense(t_in, shape);
      test::FillRandom(&x, rng, -20, 20);
      TestTensor own = TestTensor::Dense(t_in, shape);
      TestTensor wide = test::MakeLayout(Layout::kTransposed, DType::kFloat64, shape);
      ASSERT_TRUE(RunSoftmax(x, own, dim).status.ok());
      ASSERT_TRUE(RunSoftmax(x, wide, dim).status.ok());
      for (int64_t e = 0; e < x.numel(); ++e) ASSERT_EQ(wide.Get(e), own.Get(e)) << "element " << e;
    }
  }
}

TEST(SoftmaxDouble, SpecialRows) {
  const double big = std::numeric_limits<double>::max();
  const std::vector<std::vector<double>> rows = {
      {1.0, kInf, 2.0, 3.0},         // +inf: NaN throughout, as PyTorch
      {-kInf, -kInf, -kInf, -kInf},  // all -inf: NaN
      {0.0, kNaN, 1.0, 2.0},         // NaN: NaN throughout
      {big, big, -big, 0.0},         // huge finite values: no overflow in the sums
      {-kInf, 0.0, 1.0, -kInf},      // -inf beside a finite max: 0 there
      {-big, -big, -big, -big},
      {0.0, -700.0, -720.0, -745.0},  // subnormal and underflowing exps
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
      ASSERT_TRUE(RunSoftmax(x, out, dim).status.ok());
      EXPECT_EQ(Check(x, out, dim, "special rows, dim " + std::to_string(dim)), 0);
      const auto at = [&](int64_t i, int64_t j) {
        return out.Get(dim == 1 ? i * 4 + j : j * m + i);
      };
      EXPECT_TRUE(std::isnan(at(0, 0)) && std::isnan(at(1, 2)) && std::isnan(at(2, 3)));
      EXPECT_EQ(at(3, 0), 0.5);
      EXPECT_EQ(at(4, 0), 0.0);
      EXPECT_EQ(at(4, 3), 0.0);
      EXPECT_EQ(at(5, 1), 0.25);
      // exp(-700) keeps its relative accuracy (a normal double), exp(-745) is the smallest
      // subnormal or 0 within the absolute bound.
      EXPECT_NEAR(at(6, 1), std::exp(-700.0L), 4 * test::UlpOf(DType::kFloat64, std::exp(-700.0)));
    });
  }
}

TEST(SoftmaxDouble, InPlace) {
  std::mt19937_64 rng(0x5EED5D04);
  for (const auto& c : {std::pair<std::vector<int64_t>, int64_t>{{7, 3001}, 1},
                        {{5, 30, 300}, 1},
                        {{4, 64, 512}, 1}}) {
    const std::vector<int64_t>& shape = c.first;
    const int64_t dim = c.second;
    for (Layout l : {Layout::kDense, Layout::kTransposed}) {
      TestTensor x = test::MakeLayout(l, DType::kFloat64, shape);
      test::FillRandom(&x, rng, -20, 20);
      TestTensor original = TestTensor::Dense(DType::kFloat64, shape);
      for (int64_t i = 0; i < x.numel(); ++i) original.Set(i, x.Get(i));
      ASSERT_TRUE(RunSoftmax(x, x, dim).status.ok());
      EXPECT_EQ(Check(original, x, dim, "in place " + std::string(test::LayoutName(l))), 0);
    }
  }
}

// The same bits for any thread count, and on every SIMD target of one family: AR rows,
// ARA blocks, and ARA written by rows ([4, 64, 2048] from 4 cores on).
TEST(SoftmaxDouble, SameBitsForAnyThreadCountAndTarget) {
  std::mt19937_64 rng(0x5EED5D05);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  for (const Case& c : {Case{{64, 3001}, -1}, Case{{8, 500, 40}, 1}, Case{{4, 64, 2048}, 1},
                        Case{{3, 1000, 7}, 1}}) {
    SCOPED_TRACE(test::ShapeText(c.shape));
    TestTensor x = TestTensor::Dense(DType::kFloat64, c.shape);
    test::FillRandom(&x, rng, -20, 20);
    const int saved = omp_get_max_threads();
    std::vector<uint8_t> firsts[2];  // per family of targets (test::FusedFamily)
    bool by_rows = false;
    test::ForEachTarget([&](int64_t) {
      std::vector<uint8_t>& first = firsts[test::FusedFamily()];
      for (int threads : {1, 2, 3, 4, 7}) {
        omp_set_num_threads(threads);
        TestTensor out = TestTensor::Dense(DType::kFloat64, c.shape);
        const test::RunResult r = RunSoftmax(x, out, c.dim);
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        by_rows = by_rows || r.plan.reduction.output_by_rows;
        if (first.empty()) {
          first = out.storage().Snapshot();
          EXPECT_EQ(Check(x, out, c.dim, "first run"), 0);
        } else {
          EXPECT_TRUE(out.storage().Snapshot() == first)
              << kernels::ActiveTargetName() << ", " << threads << " threads";
        }
      }
    });
    omp_set_num_threads(saved);
    if (c.shape.size() == 3 && c.shape[2] == 2048) {
      EXPECT_TRUE(by_rows) << "no plan wrote the output by rows";
    }
  }
}

// DOUBLE for self and out, any pair with the compute dtypes; other dtypes refused, with
// nothing written.
TEST(SoftmaxDouble, DTypeRule) {
  const DType floats[] = {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  for (DType t_in : floats) {
    for (DType t_out : floats) {
      TestTensor x = TestTensor::Dense(t_in, {2, 3}), out = TestTensor::Dense(t_out, {2, 3});
      x.storage().Fill(0.5);
      EXPECT_TRUE(RunSoftmax(x, out, 1).status.ok())
          << DTypeName(t_in) << " -> " << DTypeName(t_out);
      EXPECT_NEAR(out.Get(0), 1.0 / 3.0, 0.01);
    }
  }
  for (const bool bad_self : {true, false}) {
    TestTensor x = TestTensor::Dense(bad_self ? DType::kInt32 : DType::kFloat64, {2, 3});
    TestTensor out = TestTensor::Dense(bad_self ? DType::kFloat64 : DType::kComplex128, {2, 3});
    out.storage().FillBytes(0x5A);
    const std::vector<uint8_t> before = out.storage().Snapshot();
    const test::RunResult r = RunSoftmax(x, out, 1);
    EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
    EXPECT_NE(r.status.message().find(bad_self ? "self" : "out"), std::string::npos)
        << r.status.message();
    EXPECT_EQ(out.storage().Snapshot(), before);
  }
}

}  // namespace
}  // namespace hostnn
