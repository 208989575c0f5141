// Special inputs for every operator, dtype and SIMD target: signed zeros, ±3 and their
// neighbours, ±inf, NaN in either input, ±100, denormals and huge |dy|, checked against the
// double reference and against the limits SPEC §4 states outright.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/hostnn.h"
#include "kernels/kernels.h"
#include "tests/reference/reference.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

class EltwiseSpecialTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }

  // Runs the op on the pairs (dys[i], xs[i]) on the active target; returns the outputs.
  std::vector<double> RunPairs(const std::vector<double>& dys, const std::vector<double>& xs) {
    const int64_t n = static_cast<int64_t>(dys.size());
    TestTensor dy = TestTensor::Dense(dtype(), {n}), x = TestTensor::Dense(dtype(), {n});
    for (int64_t i = 0; i < n; ++i) {
      dy.Set(i, dys[i]);
      x.Set(i, xs[i]);
    }
    TestTensor out = TestTensor::Dense(dtype(), {n});
    out.storage().FillBytes(0x55);
    RunChecked(op(), dy, x, out);
    return out.Values();
  }

  // Runs the op on (dys[i], xs[i]) on every target and checks against the reference.
  void CheckPairsOnEveryTarget(const std::vector<double>& dys, const std::vector<double>& xs,
                               const std::string& what) {
    const int64_t n = static_cast<int64_t>(dys.size());
    ASSERT_GT(n, 0);
    TestTensor dy = TestTensor::Dense(dtype(), {n}), x = TestTensor::Dense(dtype(), {n});
    for (int64_t i = 0; i < n; ++i) {
      dy.Set(i, dys[i]);
      x.Set(i, xs[i]);
    }
    ForEachTarget([&](int64_t) {
      TestTensor out = TestTensor::Dense(dtype(), {n});
      out.storage().FillBytes(0x55);
      RunChecked(op(), dy, x, out);
      EXPECT_EQ(CheckEltwise(op(), dy, x, out, what), 0);
    });
  }
};

// The cross product of special dy and x, against the reference at SPEC tolerances.
TEST_P(EltwiseSpecialTest, CrossProductMatchesReference) {
  std::vector<double> dys, xs;
  for (double vdy : SpecialDy(dtype())) {
    for (double vx : SpecialX(dtype())) {
      if (HugeTimesUnderflow(vdy, vx) || InfiniteAtSiluRoot(op(), dtype(), vdy, vx)) continue;
      dys.push_back(vdy);
      xs.push_back(vx);
    }
  }
  CheckPairsOnEveryTarget(dys, xs, "special values");
}

// Huge |dy| with |x| > 80, where exp(-|x|) is an f32 subnormal (or below it) but
// dy * exp(-|x|) is a normal number: BFLOAT16 keeps f32's range, so such a result must still
// be within 1 BFLOAT16 ULP; FLOAT and FLOAT16 meet their tolerance trivially.
TEST_P(EltwiseSpecialTest, HugeGradientWithUnderflowingExp) {
  const double dy_max = LimitsOf(dtype()).max_finite;
  std::vector<double> dys, xs;
  for (double vdy : {kHugeDy, 1e30, dy_max / 3, dy_max}) {
    for (double vx : {88.0, 95.0, 100.0, 120.0, 150.0}) {
      for (double sign : {1.0, -1.0}) {
        dys.push_back(RoundTo(dtype(), std::min(vdy, dy_max)));
        xs.push_back(RoundTo(dtype(), sign * vx));
      }
    }
  }
  CheckPairsOnEveryTarget(dys, xs, "huge dy, |x| > 80");
}

// dy = ±inf at the representable x nearest SiluBackward's cancellation root: the exact
// factor 1 + x(1 - s) there is tiny but not zero, so the exact result is an infinity.
TEST_P(EltwiseSpecialTest, InfiniteGradientAtSiluCancellationRoot) {
  if (op() != Op::kSiluBackward) GTEST_SKIP() << "only SiluBackward cancels";
  const double root = RoundTo(dtype(), kSiluRoot);
  const std::vector<double> xs = {root, root, Adjacent(dtype(), root, true),
                                  Adjacent(dtype(), root, false)};
  const std::vector<double> dys = {kInf, -kInf, kInf, -kInf};
  CheckPairsOnEveryTarget(dys, xs, "dy = +-inf at x = " + Num(root));
}

// dy = +-inf where the factor underflows f32 (SiluBackward at finite x <= -192,
// LogSigmoidBackward at finite x >= 192): the factor is a non-zero real, so the limit is
// an infinity with the sign of dy times the factor's (negative for SiluBackward, positive
// for LogSigmoidBackward), not inf * 0 = NaN. At x = -inf (SiluBackward) or +inf
// (LogSigmoidBackward) the factor is exactly 0 and inf * 0 has no limit: NaN.
TEST_P(EltwiseSpecialTest, InfiniteGradientWhereTheFactorUnderflows) {
  // dy = +-inf at |x| where the factor underflows f32 (SiluBackward's for x <= -192,
  // LogSigmoidBackward's for x >= 192) but is a non-zero real: the limit is an infinity of
  // dy's sign times the factor's; where the factor is 0 (x = +-inf, Silu at -inf, or
  // HardsigmoidBackward outside (-3, 3)) the reference says what the exact formula gives.
  std::vector<double> xs_abs = {
      191.5, 192.0, 192.5, 200.0, 1000.0, 1e30, 3e38, LimitsOf(dtype()).max_finite, kInf};
  std::vector<double> dys, xs, expect;
  for (double sign : {-1.0, 1.0}) {
    for (double a : xs_abs) {
      const double x = RoundTo(dtype(), sign * a);
      if (std::isnan(x)) continue;
      for (double dy : {kInf, -kInf}) {
        dys.push_back(dy);
        xs.push_back(x);
        expect.push_back(EltwiseRef(op(), dy, x));
      }
    }
  }
  ForEachTarget([&](int64_t) {
    const std::vector<double> got = RunPairs(dys, xs);
    for (size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(expect[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << "dy=" << dys[i] << " x=" << xs[i] << " got " << got[i];
      } else {
        EXPECT_EQ(got[i], expect[i]) << "dy=" << dys[i] << " x=" << xs[i];
      }
    }
  });
  CheckPairsOnEveryTarget(dys, xs, "dy = +-inf where the factor underflows");
  // A finite dy there is within the SPEC's rule of the reference; where the product
  // underflows, to a zero of the exact product's sign.
  std::vector<double> finite_dys, finite_xs;
  for (double sign : {-1.0, 1.0}) {
    for (double a : xs_abs) {
      const double x = RoundTo(dtype(), sign * a);
      if (!std::isfinite(x) || a < 192) continue;
      for (double dy : {1.0, -1.0, 1e30}) {
        if (!std::isfinite(RoundTo(dtype(), dy))) continue;
        finite_dys.push_back(RoundTo(dtype(), dy));
        finite_xs.push_back(x);
      }
    }
  }
  ForEachTarget([&](int64_t) {
    const std::vector<double> got = RunPairs(finite_dys, finite_xs);
    for (size_t i = 0; i < got.size(); ++i) {
      const double exact = EltwiseRef(op(), finite_dys[i], finite_xs[i]);
      EXPECT_TRUE(EltwiseWithinTolerance(dtype(), got[i], exact, finite_dys[i]))
          << "dy=" << finite_dys[i] << " x=" << finite_xs[i] << " got " << got[i] << ", exact "
          << exact;
      if (RoundTo(dtype(), exact) == 0.0) {
        EXPECT_EQ(std::signbit(got[i]), std::signbit(exact))
            << "dy=" << finite_dys[i] << " x=" << finite_xs[i];
      }
    }
  });
}

// NaN in dy or in x gives NaN, whatever the other input.
TEST_P(EltwiseSpecialTest, NaNPropagates) {
  std::vector<double> dys, xs;
  for (double v : SpecialX(dtype())) {
    dys.push_back(kNaN);
    xs.push_back(v);
  }
  for (double v : SpecialDy(dtype())) {
    dys.push_back(v);
    xs.push_back(kNaN);
  }
  ForEachTarget([&](int64_t) {
    const std::vector<double> got = RunPairs(dys, xs);
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(std::isnan(got[i])) << "dy=" << dys[i] << " x=" << xs[i] << " got " << got[i];
    }
  });
}

// SPEC §4: infinite x gives the formula's limit, exactly where the dtype holds it.
TEST_P(EltwiseSpecialTest, InfiniteXGivesTheLimit) {
  std::vector<double> finite_dy;
  for (double v : SpecialDy(dtype())) {
    if (std::isfinite(v)) finite_dy.push_back(v);
  }
  std::vector<double> dys, xs;
  for (double v : finite_dy) {
    dys.insert(dys.end(), {v, v});
    xs.insert(xs.end(), {-kInf, kInf});
  }
  ForEachTarget([&](int64_t) {
    const std::vector<double> got = RunPairs(dys, xs);
    for (size_t i = 0; i < got.size(); ++i) {
      const bool neg = xs[i] < 0;
      double limit = 0;
      switch (op()) {
        case Op::kSiluBackward:
          limit = neg ? 0.0 : dys[i];
          break;
        case Op::kLogSigmoidBackward:
          limit = neg ? dys[i] : 0.0;
          break;
        default:  // the others: what the reference says
          limit = EltwiseRef(op(), dys[i], xs[i]);
          break;
      }
      // inf * 0 has no limit (SigmoidBackward's y = +-inf with dy = 0): NaN, as the formula.
      if (std::isnan(limit)) {
        EXPECT_TRUE(std::isnan(got[i])) << "dy=" << dys[i] << " x=" << xs[i] << " got " << got[i];
        continue;
      }
      if (RoundTo(dtype(), limit) == limit) {
        EXPECT_EQ(got[i], limit) << "dy=" << dys[i] << " x=" << xs[i];
      } else {  // a limit the dtype cannot hold (dy times a constant): the SPEC's rounding
        EXPECT_TRUE(EltwiseWithinTolerance(dtype(), got[i], limit, dys[i]))
            << "dy=" << dys[i] << " x=" << xs[i] << " got " << got[i] << ", limit " << limit;
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(AllOps, EltwiseSpecialTest,
                         ::testing::Combine(::testing::ValuesIn(EltwiseOpsList()),
                                            ::testing::ValuesIn(kComputeTypes)),
                         [](const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
                           return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

// HardsigmoidBackward's window is strict and compared on x itself: ±3 give 0, the
// neighbours inside give dy/6, the neighbours outside give 0.
class HardsigmoidEdgeTest : public ::testing::TestWithParam<DType> {};

TEST_P(HardsigmoidEdgeTest, StrictWindowAtPlusMinusThree) {
  const DType t = GetParam();
  const double below3 = Adjacent(t, 3.0, false), above3 = Adjacent(t, 3.0, true);
  const double below_m3 = Adjacent(t, -3.0, false), above_m3 = Adjacent(t, -3.0, true);
  ASSERT_LT(below3, 3.0);
  ASSERT_GT(above_m3, -3.0);
  struct Case {
    double x;
    bool inside;
  };
  const Case cases[] = {{3.0, false},    {-3.0, false},     {below3, true}, {above_m3, true},
                        {above3, false}, {below_m3, false}, {0.0, true},    {-0.0, true}};
  for (double dy : {1.0, -5.5, 6.0, 0.375}) {
    for (const Case& c : cases) {
      TestTensor tdy = TestTensor::Dense(t, {}), tx = TestTensor::Dense(t, {});
      tdy.Set(0, dy);
      tx.Set(0, c.x);
      ForEachTarget([&](int64_t) {
        TestTensor out = TestTensor::Dense(t, {});
        RunChecked(Op::kHardsigmoidBackward, tdy, tx, out);
        const double got = out.Get(0);
        if (c.inside) {
          EXPECT_NE(got, 0.0) << "x=" << Num(c.x) << " dy=" << dy;
          EXPECT_TRUE(EltwiseWithinTolerance(t, got, dy / 6.0, dy))
              << "x=" << Num(c.x) << " dy=" << dy << " got " << Num(got);
        } else {
          EXPECT_EQ(got, 0.0) << "x=" << Num(c.x) << " dy=" << dy;
        }
      });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, HardsigmoidEdgeTest, ::testing::ValuesIn(kComputeTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(DTypeName(info.param));
                         });

// ---- LogSoftmaxBackward ------------------------------------------------------------------

// Rows of a real log-softmax with one special value planted in dy or y per row.
class LogSoftmaxSpecialTest : public ::testing::TestWithParam<DType> {};

TEST_P(LogSoftmaxSpecialTest, SpecialRowsMatchReference) {
  const DType t = GetParam();
  const Limits l = LimitsOf(t);
  const double large = t == DType::kFloat16 ? 60000.0 : 1e30;
  struct Plant {
    bool in_dy;
    double value;
  };
  const std::vector<Plant> plants = {
      {true, kNaN},   {true, kInf},      {true, -kInf},      {false, kNaN},
      {false, -kInf}, {false, kInf},     {false, -100.0},    {false, 0.0},
      {false, -0.0},  {true, l.min_sub}, {true, -l.max_sub}, {true, large},
      {true, -large}, {true, 0.0},       {false, l.min_sub}, {false, -88.0},
  };
  const int64_t rows = static_cast<int64_t>(plants.size()), r = 37;
  std::mt19937_64 rng(0x5EED0101);
  // The same rows laid out for AR ([rows, r], dim -1) and ARA ([r, rows], dim 0).
  TestTensor dy_ar = TestTensor::Dense(t, {rows, r}), y_ar = TestTensor::Dense(t, {rows, r});
  FillRandom(&dy_ar, rng, -4.0, 4.0);
  FillLogSoftmax(&y_ar, -1, rng);
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t at = (i * 7) % r;
    (plants[i].in_dy ? dy_ar : y_ar).Set(i * r + at, plants[i].value);
  }
  TestTensor dy_ara = TestTensor::Dense(t, {r, rows}), y_ara = TestTensor::Dense(t, {r, rows});
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < r; ++j) {
      dy_ara.Set(j * rows + i, dy_ar.Get(i * r + j));
      y_ara.Set(j * rows + i, y_ar.Get(i * r + j));
    }
  }
  ForEachTarget([&](int64_t) {
    TestTensor out_ar = TestTensor::Dense(t, {rows, r});
    const tiling::Plan ar = RunChecked(Op::kLogSoftmaxBackward, dy_ar, y_ar, out_ar, -1);
    EXPECT_EQ(ar.reduction.a0, 1);
    EXPECT_EQ(CheckLogSoftmax(dy_ar, y_ar, out_ar, -1, "AR special rows"), 0);
    TestTensor out_ara = TestTensor::Dense(t, {r, rows});
    const tiling::Plan ara = RunChecked(Op::kLogSoftmaxBackward, dy_ara, y_ara, out_ara, 0);
    EXPECT_GT(ara.reduction.a0, 1);
    EXPECT_EQ(CheckLogSoftmax(dy_ara, y_ara, out_ara, 0, "ARA special rows"), 0);
    // The limits, spelled out: NaN in dy poisons its whole row, NaN in y only its element,
    // y = -inf (probability 0) passes dy through unchanged.
    for (int64_t i = 0; i < rows; ++i) {
      const int64_t at = (i * 7) % r;
      const Plant& p = plants[i];
      if (p.in_dy && std::isnan(p.value)) {
        for (int64_t j = 0; j < r; ++j) EXPECT_TRUE(std::isnan(out_ar.Get(i * r + j))) << j;
      }
      if (!p.in_dy && std::isnan(p.value)) {
        EXPECT_TRUE(std::isnan(out_ar.Get(i * r + at)));
        EXPECT_FALSE(std::isnan(out_ar.Get(i * r + (at + 1) % r)));
      }
      if (!p.in_dy && p.value == -kInf) {
        EXPECT_EQ(out_ar.Get(i * r + at), dy_ar.Get(i * r + at));
        EXPECT_EQ(out_ara.Get(at * rows + i), dy_ar.Get(i * r + at));
      }
    }
  });
}

// A row whose dy sum overflows f32 although every dy and every result do not: f32 [2, 4]
// dim 1 with every dy = 2e38 and y = ln 0.25 gave -inf everywhere (the double row sum was
// rounded to f32 first); the exact result is about 0. The sum now meets exp(y) in double,
// for rows (AR), columns (ARA) and gathered views, on every target, and the bits do not
// depend on the core count.
TEST_P(LogSoftmaxSpecialTest, RowSumBeyondF32RangeStaysFinite) {
  const DType t = GetParam();
  if (t == DType::kFloat16) GTEST_SKIP() << "FLOAT16 sums of its range never leave f32's";
  struct Shape {
    std::vector<int64_t> shape;
    int64_t dim;
    Layout layout;
  };
  const Shape shapes[] = {{{2, 4}, 1, Layout::kDense},
                          {{4, 2}, 0, Layout::kDense},
                          {{3, 1000}, -1, Layout::kDense},
                          {{1000, 3}, 0, Layout::kDense},
                          {{2, 4}, 1, Layout::kTransposed},
                          {{5, 2, 6}, 1, Layout::kDense},
                          // ARA whose cores split the rows' columns (by rows, below)
                          {{6, 600}, 0, Layout::kDense}};
  {  // the case as reported: every dy = 2e38, y = ln 0.25; the exact result is about 0
    TestTensor dy = TestTensor::Dense(t, {2, 4}), y = TestTensor::Dense(t, {2, 4});
    for (int64_t i = 0; i < 8; ++i) {
      dy.Set(i, RoundTo(t, 2e38));
      y.Set(i, RoundTo(t, std::log(0.25)));
    }
    ForEachTarget([&](int64_t) {
      TestTensor out = TestTensor::Dense(t, {2, 4});
      RunChecked(Op::kLogSoftmaxBackward, dy, y, out, 1);
      EXPECT_EQ(CheckLogSoftmax(dy, y, out, 1, "every dy 2e38"), 0);
      // In FLOAT exp(y) is 0.25 within 1e-7, so the result is tiny beside dy.
      for (int64_t i = 0; i < 8 && t == DType::kFloat32; ++i) {
        EXPECT_LT(std::fabs(out.Get(i)), 1e33) << out.Get(i);
      }
    });
  }
  for (const Shape& sh : shapes) {
    const std::string what =
        ShapeText(sh.shape) + " dim " + std::to_string(sh.dim) + " " + LayoutName(sh.layout);
    SCOPED_TRACE(what);
    const int64_t rank = static_cast<int64_t>(sh.shape.size());
    const int64_t r = sh.shape[(sh.dim + rank) % rank];
    TestTensor dy = MakeLayout(sh.layout, t, sh.shape), y = MakeLayout(sh.layout, t, sh.shape);
    const int64_t n = NumelOf(sh.shape);
    for (int64_t i = 0; i < n; ++i) {
      dy.Set(i, RoundTo(t, (i % 3 == 2 ? -1.0 : 2.0) * 1e38));  // sums of 2e38 * (r / 3)
      y.Set(i, RoundTo(t, -std::log(static_cast<double>(r))));
    }
    std::vector<uint8_t> first;
    ForEachTarget([&](int64_t) {
      for (int64_t cores : {1, 3}) {
        tiling::Options options;
        options.num_cores = cores;
        options.min_elems_per_core = 1;
        // A small UB cuts A0 into several tiles, so that 3 cores split each row's
        // columns: the executor's by-rows output path, whose sums beyond f32 must fall
        // back to the block kernels' double path.
        if (cores == 3) options.ub_bytes = 8192;
        TestTensor out = TestTensor::Dense(t, sh.shape);
        RunChecked(Op::kLogSoftmaxBackward, dy, y, out, sh.dim, options);
        EXPECT_EQ(CheckLogSoftmax(dy, y, out, sh.dim, what), 0);
        for (int64_t i = 0; i < n; ++i) {
          ASSERT_TRUE(std::isfinite(out.Get(i))) << "element " << i << ": " << out.Get(i);
        }
        if (cores == 1) {
          first = out.storage().Snapshot();
        } else {
          EXPECT_TRUE(out.storage().Snapshot() == first) << "the core count changed the bits";
        }
      }
    });
  }
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, LogSoftmaxSpecialTest, ::testing::ValuesIn(kComputeTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(DTypeName(info.param));
                         });

}  // namespace
}  // namespace test
}  // namespace hostnn
