// aclnnGlu and aclnnGluBackward with DOUBLE, as CANN computes them: their op_api lists
// DOUBLE on Atlas A2 (SplitV, Sigmoid and Mul, and GluGrad, on the AI CPU). A DOUBLE self
// is computed in double (f64 lanes) and rounded once to a narrower Glu out; GluBackward
// takes DOUBLE for all three tensors together. Checked against a long double reference of
// CANN's composition (the sigmoid, and s (1 - s), doubles) on every SIMD target, over
// exp's range and its specials, dense, strided and in place: Glu within 4 ULP, GluBackward
// within the gated gradients' bound with DOUBLE's 2^-50 (8 ULP plus 2^-50 |dy| max(1, |a|,
// |b|)). Then the dtype rules, with nothing written on a refusal.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

using Ld = long double;
using test::kInf;
using test::kNaN;
using test::Layout;
using test::TestTensor;

// The sigmoid of b and s (1 - s) in long double, s (1 - s) as e / (1 + e)^2 with
// e = exp(-|b|) (no cancellation).
void SigmoidRef(double b, Ld* s, Ld* ds) {
  if (std::isnan(b)) {
    *s = *ds = NAN;
    return;
  }
  const Ld e = std::exp(-std::fabs(static_cast<Ld>(b)));
  *s = b < 0 ? e / (1 + e) : 1 / (1 + e);
  *ds = e / ((1 + e) * (1 + e));
}

// got within `ulps` ULP of exact plus `abs`; a narrower out half an ULP of it more (rounded
// once from the double result), an exact value beyond its range that range's infinity.
// NaN only for NaN.
bool Within(DType t, double got, Ld exact, double ulps, double abs) {
  const double e = static_cast<double>(exact);
  if (std::isnan(e)) return std::isnan(got);
  const double rounded = test::RoundTo(t, e);
  if (std::isinf(got) || std::isinf(rounded)) return got == rounded;
  double bound = ulps * test::UlpOf(DType::kFloat64, e) + abs;
  if (t != DType::kFloat64) bound += 0.5 * test::UlpOf(t, e);
  return std::fabs(static_cast<Ld>(got) - exact) <= bound;
}

// Self's values: random products across exp's range, then the specials (b at exp's clamps,
// beyond them, infinities, NaN, subnormals, signed zeros) in both halves.
void FillSelf(TestTensor* x, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-40.0, 40.0), wide(-800.0, 800.0);
  const double specials[] = {0.0,   -0.0,  745.0,  -745.0, 746.5,   -746.5, 800.0,   -800.0,
                             kInf,  -kInf, kNaN,   5e-324, -5e-324, 1e-300, 0x1p-60, 36.5,
                             -36.5, 1e300, -1e300, 709.7,  -709.7,  1.0,    -1.0,    0.5};
  const int64_t n = x->numel();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = static_cast<int64_t>(rng() % 8);
    x->Set(i, k == 0  ? specials[rng() % (sizeof(specials) / sizeof(specials[0]))]
              : k < 3 ? wide(rng)
                      : u(rng));
  }
}

test::RunResult RunGlu(const TestTensor& x, const TestTensor& out, int64_t dim) {
  OpArgs a;
  a.op = Op::kGlu;
  a.in[0] = &x.view();
  a.out[0] = &out.view();
  a.dim = dim;
  return test::RunOp(a);
}
test::RunResult RunGluBackward(const TestTensor& dy, const TestTensor& x, const TestTensor& out,
                               int64_t dim) {
  OpArgs a;
  a.op = Op::kGluBackward;
  a.in[0] = &dy.view();
  a.in[1] = &x.view();
  a.out[0] = &out.view();
  a.dim = dim;
  return test::RunOp(a);
}

// The element of a tensor of `shape` at (i, j, k) around dim: a1 index i, position j
// along dim, a0 index k.
int64_t At(int64_t j, int64_t i, int64_t k, int64_t r, int64_t a0) { return (i * r + j) * a0 + k; }

// Glu's out against CANN's composition, Sigmoid's double result times a (so a = inf beside
// a sigmoid that is 0 in double is NaN): 4 ULP, plus 4 * 2^-1074 times max(1, |a|): a
// sigmoid below double's normal range (b < -708) carries its error in units of 2^-1074,
// which a huge a scales (1e300 times a sigmoid of 3e-309 is a normal 3e-9).
int64_t CheckGlu(const TestTensor& x, const TestTensor& out, int64_t dim, const std::string& what) {
  int64_t a1, r, a0;
  test::SplitAroundDim(x.shape(), dim, &a1, &r, &a0);
  const int64_t h = r / 2;
  int64_t bad = 0;
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t j = 0; j < h; ++j) {
      for (int64_t k = 0; k < a0; ++k) {
        const double a = x.Get(At(j, i, k, r, a0)), b = x.Get(At(j + h, i, k, r, a0));
        Ld s, ds;
        SigmoidRef(b, &s, &ds);
        const Ld exact = static_cast<Ld>(a) * static_cast<double>(s);
        const double got = out.Get(At(j, i, k, h, a0));
        if (Within(out.dtype(), got, exact, 4.0, std::ldexp(std::max(1.0, std::fabs(a)), -1072)))
          continue;
        if (++bad <= test::kMaxReported) {
          ADD_FAILURE() << what << ": a " << test::Num(a) << ", b " << test::Num(b) << ": got "
                        << test::Num(got) << ", exact " << test::Num(static_cast<double>(exact));
        }
      }
    }
  }
  return bad;
}

// GluBackward's da = dy s and db = dy a s (1 - s), s (1 - s) a double as CANN's composition
// has it: the gated gradients' bound (tests/reference/split_reference.h) with DOUBLE's
// 2^-50, 8 ULP plus 2^-50 |dy| max(1, |a|, |b|).
int64_t CheckGluBackward(const TestTensor& dy, const TestTensor& x, const TestTensor& out,
                         int64_t dim, const std::string& what) {
  int64_t a1, r, a0;
  test::SplitAroundDim(x.shape(), dim, &a1, &r, &a0);
  const int64_t h = r / 2;
  int64_t bad = 0;
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t j = 0; j < h; ++j) {
      for (int64_t k = 0; k < a0; ++k) {
        const double g = dy.Get(At(j, i, k, h, a0));
        const double a = x.Get(At(j, i, k, r, a0)), b = x.Get(At(j + h, i, k, r, a0));
        Ld s, ds;
        SigmoidRef(b, &s, &ds);
        // s (1 - s) is a double in CANN's composition too: a = inf beside one that is 0
        // in double (|b| past 745) is NaN, as the formula in double.
        const Ld da = static_cast<Ld>(g) * s, db = static_cast<Ld>(g) * a * static_cast<double>(ds);
        const double got_da = out.Get(At(j, i, k, r, a0)), got_db = out.Get(At(j + h, i, k, r, a0));
        const double slack =
            std::ldexp(std::fabs(g) * std::max({1.0, std::fabs(a), std::fabs(b)}), -50);
        const bool ok = Within(DType::kFloat64, got_da, da, 8.0, slack) &&
                        Within(DType::kFloat64, got_db, db, 8.0, slack);
        if (ok) continue;
        if (++bad <= test::kMaxReported) {
          ADD_FAILURE() << what << ": dy " << test::Num(g) << ", a " << test::Num(a) << ", b "
                        << test::Num(b) << ": da " << test::Num(got_da) << " (exact "
                        << test::Num(static_cast<double>(da)) << "), db " << test::Num(got_db)
                        << " (exact " << test::Num(static_cast<double>(db)) << ")";
        }
      }
    }
  }
  return bad;
}

struct Case {
  std::vector<int64_t> shape;
  int64_t dim;
};
const Case kCases[] = {{{2}, 0},       {{6, 10}, 1},    {{6, 10}, 0},
                       {{3, 8, 5}, 1}, {{4, 7, 2}, -1}, {{2, 3, 4, 6}, 2},
                       {{1000, 2}, 1}, {{2, 3001}, 0},  {{3, 2, 1, 2, 2, 1, 2, 4}, 7}};

TEST(GluDouble, EveryTargetLayoutAndOutDType) {
  std::mt19937_64 rng(0x5EED6101);
  test::ForEachTarget([&](int64_t) {
    for (DType t_out : {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const Case& c : kCases) {
        for (Layout l : {Layout::kDense, Layout::kTransposed, Layout::kOffset}) {
          std::vector<int64_t> half = c.shape;
          const int64_t d = c.dim < 0 ? c.dim + static_cast<int64_t>(c.shape.size()) : c.dim;
          half[d] /= 2;
          const std::string what = std::string(DTypeName(t_out)) + " " + test::ShapeText(c.shape) +
                                   " dim " + std::to_string(c.dim) + " " + test::LayoutName(l);
          SCOPED_TRACE(what);
          TestTensor x = test::MakeLayout(l, DType::kFloat64, c.shape);
          FillSelf(&x, rng);
          TestTensor out = test::MakeLayout(l, t_out, half);
          const test::RunResult res = RunGlu(x, out, c.dim);
          ASSERT_TRUE(res.status.ok()) << res.status.message();
          EXPECT_EQ(CheckGlu(x, out, c.dim, what), 0);
          EXPECT_TRUE(out.storage().GuardsIntact());
        }
      }
    }
  });
}

// A huge a beside a sigmoid below double's normal range (b in [-745, -708]): the product is
// a normal number that inherits the subnormal sigmoid's error, within the bound above.
TEST(GluDouble, HugeATimesASubnormalSigmoid) {
  constexpr int64_t kN = 4096;  // b across [-745, -708]
  TestTensor x = TestTensor::Dense(DType::kFloat64, {kN, 2});
  for (int64_t i = 0; i < kN; ++i) {
    x.Set(2 * i, i % 2 ? -1e300 : 1e300);
    x.Set(2 * i + 1, -708.0 - 37.0 * static_cast<double>(i) / kN);
  }
  test::ForEachTarget([&](int64_t) {
    TestTensor out = TestTensor::Dense(DType::kFloat64, {kN, 1});
    ASSERT_TRUE(RunGlu(x, out, 1).status.ok());
    EXPECT_EQ(CheckGlu(x, out, 1, "huge a"), 0);
  });
}

// A 32- or 16-bit self into a DOUBLE out: its own dtype's result, widened exactly.
TEST(GluDouble, NarrowSelfIntoDoubleOutIsItsOwnResultWidened) {
  std::mt19937_64 rng(0x5EED6102);
  for (DType t_in : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    SCOPED_TRACE(DTypeName(t_in));
    TestTensor x = TestTensor::Dense(t_in, {6, 40});
    test::FillRandom(&x, rng, -10, 10);
    TestTensor own = TestTensor::Dense(t_in, {6, 20}),
               wide = TestTensor::Dense(DType::kFloat64, {6, 20});
    ASSERT_TRUE(RunGlu(x, own, 1).status.ok());
    const test::RunResult r = RunGlu(x, wide, 1);
    ASSERT_TRUE(r.status.ok()) << r.status.message();
    for (int64_t e = 0; e < own.numel(); ++e) ASSERT_EQ(wide.Get(e), own.Get(e)) << "element " << e;
  }
}

TEST(GluBackwardDouble, EveryTargetAndLayout) {
  std::mt19937_64 rng(0x5EED6103);
  std::uniform_real_distribution<double> u(-4.0, 4.0);
  test::ForEachTarget([&](int64_t) {
    for (const Case& c : kCases) {
      for (Layout l : {Layout::kDense, Layout::kTransposed, Layout::kStride2}) {
        std::vector<int64_t> half = c.shape;
        const int64_t d = c.dim < 0 ? c.dim + static_cast<int64_t>(c.shape.size()) : c.dim;
        half[d] /= 2;
        const std::string what =
            test::ShapeText(c.shape) + " dim " + std::to_string(c.dim) + " " + test::LayoutName(l);
        SCOPED_TRACE(what);
        TestTensor dy = test::MakeLayout(l, DType::kFloat64, half);
        for (int64_t i = 0; i < dy.numel(); ++i) dy.Set(i, i % 17 == 0 ? 1e300 : u(rng));
        TestTensor x = test::MakeLayout(l, DType::kFloat64, c.shape);
        FillSelf(&x, rng);
        TestTensor out = test::MakeLayout(l, DType::kFloat64, c.shape);
        const test::RunResult res = RunGluBackward(dy, x, out, c.dim);
        ASSERT_TRUE(res.status.ok()) << res.status.message();
        EXPECT_EQ(CheckGluBackward(dy, x, out, c.dim, what), 0);
        EXPECT_TRUE(out.storage().GuardsIntact());
      }
    }
  });
}

// out may be self itself: the same bits as out of place.
TEST(GluBackwardDouble, InPlaceOnSelf) {
  std::mt19937_64 rng(0x5EED6104);
  for (const Case& c : {Case{{6, 10}, 1}, Case{{8, 3, 5}, 0}, Case{{2, 3001}, 0}}) {
    std::vector<int64_t> half = c.shape;
    half[c.dim] /= 2;
    TestTensor dy = TestTensor::Dense(DType::kFloat64, half);
    test::FillRandom(&dy, rng, -3, 3);
    TestTensor x = TestTensor::Dense(DType::kFloat64, c.shape);
    FillSelf(&x, rng);
    TestTensor out = TestTensor::Dense(DType::kFloat64, c.shape);
    ASSERT_TRUE(RunGluBackward(dy, x, out, c.dim).status.ok());
    ASSERT_TRUE(RunGluBackward(dy, x, x, c.dim).status.ok());
    EXPECT_EQ(x.storage().Snapshot(), out.storage().Snapshot()) << test::ShapeText(c.shape);
  }
}

// GluBackward's three tensors share self's dtype (op_api's OP_CHECK_DTYPE_NOT_MATCH), DOUBLE
// included; a mix is refused with nothing written. Glu's out takes DOUBLE beside any float
// self; an integer self is refused.
TEST(GluDouble, DTypeRules) {
  const DType floats[] = {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  for (DType t : floats) {
    TestTensor dy = TestTensor::Dense(t, {2, 2}), x = TestTensor::Dense(t, {2, 4});
    TestTensor out = TestTensor::Dense(t, {2, 4});
    dy.storage().Fill(1.0);
    x.storage().Fill(0.5);
    EXPECT_TRUE(RunGluBackward(dy, x, out, 1).status.ok()) << DTypeName(t);
  }
  for (DType other : {DType::kFloat32, DType::kFloat16}) {
    for (int slot = 0; slot < 3; ++slot) {
      TestTensor dy = TestTensor::Dense(slot == 0 ? other : DType::kFloat64, {2, 2});
      TestTensor x = TestTensor::Dense(slot == 1 ? other : DType::kFloat64, {2, 4});
      TestTensor out = TestTensor::Dense(slot == 2 ? other : DType::kFloat64, {2, 4});
      out.storage().FillBytes(0x5A);
      const std::vector<uint8_t> before = out.storage().Snapshot();
      const test::RunResult r = RunGluBackward(dy, x, out, 1);
      EXPECT_EQ(r.status.code(), StatusCode::kInvalid) << slot;
      EXPECT_EQ(out.storage().Snapshot(), before);
    }
  }
  for (DType t_in : floats) {
    for (DType t_out : floats) {
      TestTensor x = TestTensor::Dense(t_in, {2, 4}), out = TestTensor::Dense(t_out, {2, 2});
      x.storage().Fill(0.0);
      EXPECT_TRUE(RunGlu(x, out, 1).status.ok()) << DTypeName(t_in) << " -> " << DTypeName(t_out);
      EXPECT_EQ(out.Get(0), 0.0);
    }
  }
  TestTensor x = TestTensor::Dense(DType::kInt32, {2, 4}),
             out = TestTensor::Dense(DType::kFloat64, {2, 2});
  out.storage().FillBytes(0x5A);
  const std::vector<uint8_t> before = out.storage().Snapshot();
  EXPECT_EQ(RunGlu(x, out, 1).status.code(), StatusCode::kInvalid);
  EXPECT_EQ(out.storage().Snapshot(), before);
}

}  // namespace
}  // namespace hostnn
