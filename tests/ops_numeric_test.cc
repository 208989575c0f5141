// Numeric accuracy of the two-input operators against the double references at SPEC §4
// tolerances: every elementwise one the list-driven suites run (the gradients, Heaviside,
// AddRelu: EltwiseOpsList) x dtype x SIMD target, over lengths around the vector width and
// the tile length, odd 2-d, 8-d and > 1M-element shapes, and every 16-bit x;
// LogSoftmaxBackward over every reduction template and dim; mixed dtypes (SiluBackward,
// HardsigmoidBackward, LogSoftmaxBackward) and SiluBackward broadcasting.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
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

using tiling::ReductionTemplate;

// Inputs that exercise every branch: x over both saturated tails and the cancellation of
// SiluBackward, dy of both signs.
constexpr double kXLo = -12, kXHi = 12, kDyLo = -4, kDyHi = 4;

// The single-buffered tile length of the host plan for (op, dtype): what a tensor of
// about one tile gets, so tile_len - 1, tile_len and tile_len + 1 straddle a boundary.
int64_t HostTileLen(Op op, DType dtype) {
  TestTensor dy = TestTensor::Dense(dtype, {1}), x = TestTensor::Dense(dtype, {1});
  TestTensor out = TestTensor::Dense(dtype, {1});
  uint64_t ws = 0;
  ExecutorPtr exec;
  const Status s = Prepare(MakeArgs(op, dy, x, out), {}, &ws, &exec);
  EXPECT_TRUE(s.ok()) << s.message();
  return s.ok() ? GetPlan(*exec).elementwise.tile_len : 0;
}

struct ShapeCase {
  std::vector<int64_t> shape;
  int64_t expect_tile_len = 0;  // when set, the plan must use this tile length
};

class EltwiseNumericTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {};

TEST_P(EltwiseNumericTest, EveryShapeOnEveryTarget) {
  const Op op = std::get<0>(GetParam());
  const DType dtype = std::get<1>(GetParam());
  const int64_t tile = HostTileLen(op, dtype);
  ASSERT_GT(tile, 2);

  std::vector<ShapeCase> cases = {{{}}};  // 0-d scalar
  // Around every f32 vector width (4 SSE4/NEON, 8 AVX2, 16 AVX-512) and the main loop's
  // unroll of several vectors.
  for (int64_t n : {1, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129}) {
    cases.push_back({{n}});
  }
  for (int64_t n : {tile - 1, tile, tile + 1}) cases.push_back({{n}, tile});
  cases.push_back({{37, 53}});
  cases.push_back({{2, 3, 1, 4, 5, 1, 3, 2}});
  cases.push_back({{(1 << 20) + 3}});

  std::mt19937_64 rng(0x5EED0001 + static_cast<int>(op) * 7 + static_cast<int>(dtype));
  std::vector<TestTensor> dys, xs;
  for (const ShapeCase& c : cases) {
    dys.push_back(TestTensor::Dense(dtype, c.shape));
    xs.push_back(TestTensor::Dense(dtype, c.shape));
    FillRandom(&dys.back(), rng, kDyLo, kDyHi);
    FillRandom(&xs.back(), rng, kXLo, kXHi);
  }
  ForEachTarget([&](int64_t) {
    for (size_t k = 0; k < cases.size(); ++k) {
      const std::string what = ShapeText(cases[k].shape);
      SCOPED_TRACE(what);
      TestTensor out = TestTensor::Dense(dtype, cases[k].shape);
      out.storage().FillBytes(0xFF);  // NaN in every dtype: an unwritten element fails
      const tiling::Plan plan = RunChecked(op, dys[k], xs[k], out);
      if (cases[k].expect_tile_len) {
        EXPECT_EQ(plan.elementwise.tile_len, cases[k].expect_tile_len);
      }
      EXPECT_EQ(CheckEltwise(op, dys[k], xs[k], out, what), 0);
      EXPECT_TRUE(out.storage().GuardsIntact());
    }
  });
}

// Many small tiles over several uneven cores, and an Ascend profile's plan run on the
// host: tile and core boundaries fall mid-vector.
TEST_P(EltwiseNumericTest, ManyTilesAndCores) {
  const Op op = std::get<0>(GetParam());
  const DType dtype = std::get<1>(GetParam());
  std::mt19937_64 rng(0x5EED0002);
  struct Case {
    int64_t n;
    tiling::Options options;
    bool many_tiles;  // the small UB gives every core several tiles
  };
  std::vector<Case> cases(2);
  cases[0].many_tiles = true;
  cases[0].n = 100003;
  cases[0].options.num_cores = 3;
  cases[0].options.ub_bytes = 8192;
  cases[0].options.min_elems_per_core = 1;
  cases[1].many_tiles = false;  // 48 cores of about 1042 elements: one tile each
  cases[1].n = 50001;
  cases[1].options.platform = "atlas-a2";
  for (const Case& c : cases) {
    TestTensor dy = TestTensor::Dense(dtype, {c.n}), x = TestTensor::Dense(dtype, {c.n});
    FillRandom(&dy, rng, kDyLo, kDyHi);
    FillRandom(&x, rng, kXLo, kXHi);
    ForEachTarget([&](int64_t) {
      TestTensor out = TestTensor::Dense(dtype, {c.n});
      out.storage().FillBytes(0xFF);
      const tiling::Plan plan = RunChecked(op, dy, x, out, 0, c.options);
      EXPECT_GT(plan.elementwise.block_dim, 1);
      if (c.many_tiles) EXPECT_GT(plan.elementwise.CoreTiles(0), 1);
      EXPECT_EQ(CheckEltwise(op, dy, x, out, "n=" + std::to_string(c.n)), 0);
    });
  }
}

// SPEC 4's 16-bit rule for every elementwise gradient of the list, on every 16-bit x with
// dy in {1, -0.75, 3.5}, on every target: the exact value rounded to nearest even, the
// other neighbour only within 2^-21 (relative) of the midpoint, or, where the FLOAT rule
// is its absolute bound 2^-21 |dy| (SiluBackward's cancellation), within that plus half a
// narrow ULP.
TEST_P(EltwiseNumericTest, Exhaustive16BitRoundedOnceOnEveryTarget) {
  const Op op = std::get<0>(GetParam());
  const DType dtype = std::get<1>(GetParam());
  if (dtype == DType::kFloat32) GTEST_SKIP() << "16-bit rule";
  const double dys[] = {1.0, -0.75, 3.5};
  const int64_t n = 3 * 65536;
  TestTensor dy = TestTensor::Dense(dtype, {n}), x = TestTensor::Dense(dtype, {n});
  for (int64_t i = 0; i < n; ++i) {
    const uint16_t bits = static_cast<uint16_t>(i & 0xFFFF);
    dy.Set(i, dys[i >> 16]);
    x.Set(i, dtype == DType::kFloat16 ? F16ToDouble(bits) : BF16ToDouble(bits));
  }
  const std::vector<double> vdy = dy.Values(), vx = x.Values();
  ForEachTarget([&](int64_t) {
    TestTensor out = TestTensor::Dense(dtype, {n});
    RunChecked(op, dy, x, out);
    int64_t wrong[3] = {0, 0, 0}, window = 0, by_abs = 0;
    double max_steps = 0;
    for (int64_t i = 0; i < n; ++i) {
      const double got = out.Get(i), exact = EltwiseRef(op, vdy[i], vx[i]);
      max_steps = std::max(max_steps, UlpError(dtype, got, exact));
      const Rounding16 r = ClassifyRounding16(dtype, got, exact);
      if (r == Rounding16::kInWindow) ++window;
      if (r != Rounding16::kWrong) continue;
      if (EltwiseWithinTolerance(dtype, got, exact, vdy[i])) {
        ++by_abs;
      } else if (++wrong[i >> 16] <= kMaxReported) {
        ADD_FAILURE() << GetOpInfo(op).name << " " << DTypeName(dtype) << " dy=" << vdy[i]
                      << " x=" << Num(vx[i]) << ": got " << Num(got) << ", exact " << Num(exact)
                      << ", rounded once " << Num(RoundTo(dtype, exact));
      }
    }
    EXPECT_EQ(wrong[0] + wrong[1] + wrong[2], 0)
        << "not rounded once, per dy (1, -0.75, 3.5): " << wrong[0] << ", " << wrong[1] << ", "
        << wrong[2];
    std::printf(
        "  %-19s %-8s %-6s %.0f ULP at most from the correctly rounded value; not correctly "
        "rounded: %lld in the 2^-21 window, %lld within the absolute bound, %lld beyond\n",
        GetOpInfo(op).name, DTypeName(dtype), kernels::ActiveTargetName().c_str(), max_steps,
        static_cast<long long>(window), static_cast<long long>(by_abs),
        static_cast<long long>(wrong[0] + wrong[1] + wrong[2]));
  });
}

std::string EltwiseName(const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
  return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
         DTypeName(std::get<1>(info.param));
}

INSTANTIATE_TEST_SUITE_P(AllOps, EltwiseNumericTest,
                         ::testing::Combine(::testing::ValuesIn(EltwiseOpsList()),
                                            ::testing::ValuesIn(kComputeTypes)),
                         EltwiseName);

// ---- LogSoftmaxBackward ---------------------------------------------------------------

enum class YKind { kLogSoftmax, kArbitrary };

struct LsmCase {
  std::vector<int64_t> shape;
  std::vector<int64_t> dims;
  tiling::Options options;
  int expect_tmpl = -1;  // a ReductionTemplate the plan must use, or -1
  YKind y_kind = YKind::kLogSoftmax;
};

// A fixed UB, so that the template a shape gets does not depend on this machine's L2.
tiling::Options Ub(int64_t bytes) {
  tiling::Options o;
  o.ub_bytes = bytes;
  return o;
}
const tiling::Options kHostLikeUb = Ub(256 << 10);
const tiling::Options kSmallUb = Ub(8192);  // forces the recompute templates on modest shapes

std::vector<LsmCase> LogSoftmaxCases() {
  const int ar_full = static_cast<int>(ReductionTemplate::kArFullLoad);
  const int ar_re = static_cast<int>(ReductionTemplate::kArRecompute);
  const int ara_full = static_cast<int>(ReductionTemplate::kAraFullLoad);
  const int ara_re = static_cast<int>(ReductionTemplate::kAraRecompute);
  std::vector<LsmCase> c;
  c.push_back({{}, {0, -1}, kHostLikeUb, ar_full});
  c.push_back({{1}, {0, -1}, kHostLikeUb, ar_full});
  c.push_back({{17}, {0}, kHostLikeUb, ar_full, YKind::kArbitrary});
  c.push_back({{37, 53}, {0, 1, -1, -2}, {}});
  c.push_back(
      {{2, 3, 1, 4, 5, 1, 3, 2}, {0, 1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7, -8}, {}});
  c.push_back({{3, 9, 33}, {-1, 1, 0}, {}, -1, YKind::kArbitrary});
  // AR full-load: rows of every length class around the 16 partial sums.
  c.push_back({{64, 15}, {1}, kHostLikeUb, ar_full});
  c.push_back({{40, 1000}, {-1}, kHostLikeUb, ar_full});
  c.push_back({{9, 16}, {1}, kHostLikeUb, ar_full, YKind::kArbitrary});
  // AR recompute: a UB-forced one and a row longer than the host UB holds.
  c.push_back({{3, 5003}, {1}, kSmallUb, ar_re});
  c.push_back({{2, 70001}, {-1}, {}, ar_re});  // > 1 MiB, the largest host UB
  c.push_back({{4, 999}, {-1}, kSmallUb, ar_re, YKind::kArbitrary});
  // ARA full-load: non-last dims, A0 not a multiple of the vector width, A0 > 1024.
  c.push_back({{8, 50, 37}, {1}, kHostLikeUb, ara_full});
  c.push_back({{100, 37}, {0}, kHostLikeUb, ara_full});
  c.push_back({{3, 8, 2500}, {1, -2}, kHostLikeUb, ara_full});
  c.push_back({{5, 7, 9}, {1}, kHostLikeUb, ara_full, YKind::kArbitrary});
  // ARA recompute: R does not fit the (small) UB beside an A0 tile.
  c.push_back({{4, 300, 40}, {1}, kSmallUb, ara_re});
  c.push_back({{2, 200, 130}, {-2}, kSmallUb, ara_re, YKind::kArbitrary});
  return c;
}

class LogSoftmaxNumericTest : public ::testing::TestWithParam<DType> {};

TEST_P(LogSoftmaxNumericTest, EveryDimAndTemplateOnEveryTarget) {
  const DType dtype = GetParam();
  std::mt19937_64 rng(0x5EED0003 + static_cast<int>(dtype));
  for (const LsmCase& c : LogSoftmaxCases()) {
    for (int64_t dim : c.dims) {
      const std::string what = ShapeText(c.shape) + " dim " + std::to_string(dim) +
                               (c.y_kind == YKind::kArbitrary ? " arbitrary y" : "");
      SCOPED_TRACE(what);
      TestTensor dy = TestTensor::Dense(dtype, c.shape), y = TestTensor::Dense(dtype, c.shape);
      FillRandom(&dy, rng, kDyLo, kDyHi);
      if (c.y_kind == YKind::kLogSoftmax) {
        FillLogSoftmax(&y, dim, rng);
      } else {
        FillRandom(&y, rng, -10.0, 1.5);
      }
      ForEachTarget([&](int64_t) {
        TestTensor out = TestTensor::Dense(dtype, c.shape);
        out.storage().FillBytes(0xFF);
        const tiling::Plan plan = RunChecked(Op::kLogSoftmaxBackward, dy, y, out, dim, c.options);
        ASSERT_EQ(plan.kind, tiling::Plan::Kind::kReduction);
        if (c.expect_tmpl >= 0) {
          EXPECT_EQ(static_cast<int>(plan.reduction.tmpl), c.expect_tmpl)
              << "ran " << tiling::TemplateName(plan.reduction.tmpl) << ": "
              << plan.reduction.reason;
        }
        EXPECT_EQ(CheckLogSoftmax(dy, y, out, dim, what), 0);
        EXPECT_TRUE(out.storage().GuardsIntact());
      });
    }
  }
}

// A tensor of more than 2^20 elements, reduced along rows (AR, several cores) and along
// the middle dim of a 3-d shape (ARA, several A0 tiles).
TEST_P(LogSoftmaxNumericTest, OverAMillionElements) {
  const DType dtype = GetParam();
  std::mt19937_64 rng(0x5EED0004);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  for (const Case& c : {Case{{1031, 1021}, 1}, Case{{5, 97, 2203}, 1}}) {
    const std::vector<int64_t>& shape = c.shape;
    const int64_t dim = c.dim;
    TestTensor dy = TestTensor::Dense(dtype, shape);
    FillRandom(&dy, rng, kDyLo, kDyHi);
    TestTensor y = TestTensor::Dense(dtype, shape);
    FillLogSoftmax(&y, dim, rng);
    ForEachTarget([&](int64_t) {
      TestTensor out = TestTensor::Dense(dtype, shape);
      RunChecked(Op::kLogSoftmaxBackward, dy, y, out, dim);
      EXPECT_EQ(CheckLogSoftmax(dy, y, out, dim, ShapeText(shape)), 0);
    });
  }
}

// Rows of two where dy[0] nearly equals exp(y[0]) * (dy[0] + dy[1]), so that dx[0] cancels to
// a small fraction of |dy|. The fp32 computation the SPEC prescribes carries an absolute error
// of a few 2^-24 (|dy| + exp(y) sum|dy|) there (the FLOAT rule allows 2^-21 times that sum),
// which can exceed one FLOAT16 / BFLOAT16 ULP of such a small result: SPEC §4 accepts the
// 16-bit result within that FLOAT bound plus half a narrow ULP (the FLOAT result rounded
// once), and a failure here is a summation error beyond it.
TEST_P(LogSoftmaxNumericTest, SixteenBitResultsNearCancellation) {
  const DType dtype = GetParam();
  if (dtype == DType::kFloat32) GTEST_SKIP() << "FLOAT has an absolute bound for cancellation";
  std::mt19937_64 rng(0x5EED0009);
  const int64_t rows = 4096;
  TestTensor dy = TestTensor::Dense(dtype, {rows, 2}), y = TestTensor::Dense(dtype, {rows, 2});
  std::uniform_real_distribution<double> prob(0.2, 0.8);
  for (int64_t i = 0; i < rows; ++i) {
    const double p = prob(rng);
    y.Set(2 * i, std::log(p));
    y.Set(2 * i + 1, std::log1p(-p));
    const double p0 = std::exp(y.Get(2 * i));
    const double dy0 = RandomValue(dtype, rng, 0.5, 4.0);
    double dy1 = RoundTo(dtype, dy0 * (1 - p0) / p0);  // dx[0] = dy0 - p0 (dy0 + dy1) ~ 0
    for (int64_t k = 0; k < static_cast<int64_t>(rng() % 3); ++k) dy1 = Adjacent(dtype, dy1, true);
    dy.Set(2 * i, dy0);
    dy.Set(2 * i + 1, dy1);
  }
  ForEachTarget([&](int64_t) {
    TestTensor out = TestTensor::Dense(dtype, {rows, 2});
    RunChecked(Op::kLogSoftmaxBackward, dy, y, out, 1);
    EXPECT_EQ(CheckLogSoftmax(dy, y, out, 1, "rows of 2 near cancellation"), 0);
  });
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, LogSoftmaxNumericTest, ::testing::ValuesIn(kComputeTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(DTypeName(info.param));
                         });

// ---- mixed dtypes ---------------------------------------------------------------------

// SiluBackward's Ascend 950 mode: any input dtypes with a FLOAT gradInput.
TEST(MixedDTypeTest, SiluBackwardMixedInputsFloatOut) {
  std::mt19937_64 rng(0x5EED0005);
  const std::vector<int64_t> shape = {37, 53};
  for (DType tdy : kComputeTypes) {
    for (DType tx : kComputeTypes) {
      const std::string what = std::string("dy ") + DTypeName(tdy) + " x " + DTypeName(tx);
      SCOPED_TRACE(what);
      TestTensor dy = TestTensor::Dense(tdy, shape), x = TestTensor::Dense(tx, shape);
      FillRandom(&dy, rng, kDyLo, kDyHi);
      FillRandom(&x, rng, kXLo, kXHi);
      ForEachTarget([&](int64_t) {
        TestTensor out = TestTensor::Dense(DType::kFloat32, shape);
        out.storage().FillBytes(0xFF);
        RunChecked(Op::kSiluBackward, dy, x, out);
        EXPECT_EQ(CheckEltwise(Op::kSiluBackward, dy, x, out, what), 0);
      });
    }
  }
}

// HardsigmoidBackward: every input pair (promoted) into every float output dtype.
TEST(MixedDTypeTest, HardsigmoidBackwardPromotion) {
  std::mt19937_64 rng(0x5EED0006);
  const std::vector<int64_t> shape = {3, 1001};
  for (DType tdy : kComputeTypes) {
    for (DType tx : kComputeTypes) {
      TestTensor dy = TestTensor::Dense(tdy, shape), x = TestTensor::Dense(tx, shape);
      FillRandom(&dy, rng, -1000.0, 1000.0);
      FillRandom(&x, rng, -4.0, 4.0);
      for (DType tout : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
        const std::string what =
            std::string("dy ") + DTypeName(tdy) + " x " + DTypeName(tx) + " out " + DTypeName(tout);
        SCOPED_TRACE(what);
        ForEachTarget([&](int64_t) {
          TestTensor out = TestTensor::Dense(tout, shape);
          out.storage().FillBytes(0xFF);
          RunChecked(Op::kHardsigmoidBackward, dy, x, out);
          EXPECT_EQ(CheckEltwise(Op::kHardsigmoidBackward, dy, x, out, what), 0);
        });
      }
    }
  }
}

// LogSoftmaxBackward: the fp32 result cast to every output dtype, on AR and ARA shapes.
TEST(MixedDTypeTest, LogSoftmaxBackwardOutputDTypes) {
  std::mt19937_64 rng(0x5EED0007);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  const Case cases[] = {{{13, 301}, -1}, {{6, 40, 21}, 1}, {{2, 3000}, 1}};
  for (DType tin : kComputeTypes) {
    for (const Case& c : cases) {
      TestTensor dy = TestTensor::Dense(tin, c.shape), y = TestTensor::Dense(tin, c.shape);
      FillRandom(&dy, rng, kDyLo, kDyHi);
      FillLogSoftmax(&y, c.dim, rng);
      for (DType tout : {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        const std::string what = std::string("in ") + DTypeName(tin) + " out " + DTypeName(tout) +
                                 " " + ShapeText(c.shape);
        SCOPED_TRACE(what);
        ForEachTarget([&](int64_t) {
          TestTensor out = TestTensor::Dense(tout, c.shape);
          out.storage().FillBytes(0xFF);
          RunChecked(Op::kLogSoftmaxBackward, dy, y, out, c.dim);
          EXPECT_EQ(CheckLogSoftmax(dy, y, out, c.dim, what), 0);
        });
      }
    }
  }
}

// ---- SiluBackward broadcasting ----------------------------------------------------------

TEST(BroadcastTest, SiluBackwardNumPyRules) {
  struct Case {
    std::vector<int64_t> dy, x;
  };
  const Case cases[] = {
      {{4, 1, 5}, {3, 1}},
      {{3, 1}, {4, 1, 5}},
      {{}, {6, 7}},
      {{6, 7}, {}},
      {{1}, {33}},
      {{33}, {1}},
      {{2, 1, 4}, {1, 3, 1}},
      {{7, 1}, {1, 9}},
      {{17}, {3, 4, 17}},
      {{1, 1, 1}, {}},
      {{5, 1, 1, 1, 1, 1, 1, 2}, {3, 1, 1, 1, 1, 1, 1}},
  };
  std::mt19937_64 rng(0x5EED0008);
  for (DType dtype : kComputeTypes) {
    for (const Case& c : cases) {
      std::vector<int64_t> shape;
      ASSERT_TRUE(BroadcastShapesForTest(c.dy, c.x, &shape));
      const std::string what = std::string(DTypeName(dtype)) + " dy " + ShapeText(c.dy) + " x " +
                               ShapeText(c.x) + " -> " + ShapeText(shape);
      SCOPED_TRACE(what);
      TestTensor dy = TestTensor::Dense(dtype, c.dy), x = TestTensor::Dense(dtype, c.x);
      FillRandom(&dy, rng, kDyLo, kDyHi);
      FillRandom(&x, rng, kXLo, kXHi);
      ForEachTarget([&](int64_t) {
        TestTensor out = TestTensor::Dense(dtype, shape);
        out.storage().FillBytes(0xFF);
        RunChecked(Op::kSiluBackward, dy, x, out);
        EXPECT_EQ(CheckEltwise(Op::kSiluBackward, dy, x, out, what), 0);
        EXPECT_TRUE(out.storage().GuardsIntact());
      });
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
