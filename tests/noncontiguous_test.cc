// Non-contiguous views for inputs and outputs (transposed, strided last dim, element offset
// into a larger storage, stride-0 broadcast inputs) and in-place runs, for every operator,
// dtype and SIMD target: results match the reference and nothing outside the output view
// (nor any input) is written.

#include <gtest/gtest.h>

#include <cstring>
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

// Proves that the run wrote nothing of `t`'s storage outside its view (`before` is the
// storage snapshot taken before the run) and nothing past the storage's ends.
void ExpectOnlyViewWritten(const TestTensor& t, const std::vector<uint8_t>& before,
                           const std::string& what) {
  const std::vector<uint8_t> after = t.storage().Snapshot();
  ASSERT_EQ(after.size(), before.size());
  const int64_t esize = static_cast<int64_t>(DTypeSize(t.dtype()));
  std::vector<bool> in_view(static_cast<size_t>(t.storage().size()), false);
  for (int64_t i = 0; i < t.numel(); ++i) in_view[t.StorageIndex(i)] = true;
  int64_t changed = 0;
  for (int64_t e = 0; e < t.storage().size(); ++e) {
    if (in_view[e]) continue;
    if (std::memcmp(&after[e * esize], &before[e * esize], static_cast<size_t>(esize)) != 0) {
      ++changed;
    }
  }
  EXPECT_EQ(changed, 0) << what << ": storage elements outside the output view were written";
  EXPECT_TRUE(t.storage().GuardsIntact()) << what << ": bytes past the storage were written";
}

void ExpectUnchanged(const TestTensor& t, const std::vector<uint8_t>& before,
                     const std::string& what) {
  EXPECT_TRUE(t.storage().Snapshot() == before) << what << ": an input was modified";
  EXPECT_TRUE(t.storage().GuardsIntact()) << what;
}

struct Combo {
  Layout dy, x, out;
};
const Combo kCombos[] = {
    {Layout::kTransposed, Layout::kTransposed, Layout::kTransposed},
    {Layout::kTransposed, Layout::kDense, Layout::kDense},
    {Layout::kDense, Layout::kTransposed, Layout::kTransposed},
    {Layout::kStride2, Layout::kStride3, Layout::kStride2},
    {Layout::kStride3, Layout::kDense, Layout::kStride3},
    {Layout::kOffset, Layout::kOffset, Layout::kOffset},
    {Layout::kOffset, Layout::kTransposed, Layout::kStride2},
    {Layout::kBroadcast, Layout::kDense, Layout::kDense},
    {Layout::kBroadcast, Layout::kBroadcast, Layout::kTransposed},
    {Layout::kDense, Layout::kBroadcast, Layout::kOffset},
    {Layout::kStride2, Layout::kBroadcast, Layout::kStride3},
};

std::string ComboName(const Combo& c) {
  return std::string("dy ") + LayoutName(c.dy) + ", x " + LayoutName(c.x) + ", out " +
         LayoutName(c.out);
}

const std::vector<std::vector<int64_t>> kShapes = {
    {37}, {7, 5}, {3, 4, 5}, {2, 3, 2, 2, 3, 1, 2, 2}};

class EltwiseViewTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
};

TEST_P(EltwiseViewTest, StridedInputsAndOutputs) {
  std::mt19937_64 rng(0x5EED0201);
  ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& shape : kShapes) {
      for (const Combo& c : kCombos) {
        const std::string what = ShapeText(shape) + " " + ComboName(c);
        SCOPED_TRACE(what);
        TestTensor dy = MakeLayout(c.dy, dtype(), shape), x = MakeLayout(c.x, dtype(), shape);
        FillRandom(&dy, rng, -4.0, 4.0);
        FillRandom(&x, rng, -12.0, 12.0);
        TestTensor out = MakeLayout(c.out, dtype(), shape);
        out.storage().FillBytes(0xFF);  // NaN: an element left unwritten fails the check
        const std::vector<uint8_t> out_before = out.storage().Snapshot();
        const std::vector<uint8_t> dy_before = dy.storage().Snapshot();
        const std::vector<uint8_t> x_before = x.storage().Snapshot();
        RunChecked(op(), dy, x, out);
        EXPECT_EQ(CheckEltwise(op(), dy, x, out, what), 0);
        ExpectOnlyViewWritten(out, out_before, what);
        ExpectUnchanged(dy, dy_before, what);
        ExpectUnchanged(x, x_before, what);
      }
    }
  });
}

// out is the very same view as dy, or as x: every element is read before it is written.
TEST_P(EltwiseViewTest, InPlace) {
  std::mt19937_64 rng(0x5EED0202);
  const Layout layouts[] = {Layout::kDense, Layout::kTransposed, Layout::kStride2, Layout::kOffset};
  ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{1000}, {7, 5}, {3, 4, 5}}) {
      for (Layout l : layouts) {
        for (bool onto_dy : {true, false}) {
          const std::string what = ShapeText(shape) + " " + LayoutName(l) +
                                   " out = " + (onto_dy ? "gradOutput" : "self");
          SCOPED_TRACE(what);
          TestTensor dy = MakeLayout(l, dtype(), shape), x = MakeLayout(l, dtype(), shape);
          FillRandom(&dy, rng, -4.0, 4.0);
          FillRandom(&x, rng, -12.0, 12.0);
          const std::vector<double> vdy = dy.Values(), vx = x.Values();
          const TestTensor& out = onto_dy ? dy : x;
          const std::vector<uint8_t> before = out.storage().Snapshot();
          RunChecked(op(), dy, x, out);
          EXPECT_EQ(CheckEltwiseValues(op(), vdy, vx, out, what), 0);
          ExpectOnlyViewWritten(out, before, what);
        }
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(AllOps, EltwiseViewTest,
                         ::testing::Combine(::testing::ValuesIn(EltwiseOpsList()),
                                            ::testing::ValuesIn(kComputeTypes)),
                         [](const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
                           return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

// SiluBackward broadcasting by shape, with strided operands on both sides.
TEST(NonContiguousTest, SiluBackwardBroadcastStridedViews) {
  std::mt19937_64 rng(0x5EED0203);
  struct Case {
    std::vector<int64_t> dy, x;
    Layout ldy, lx, lout;
  };
  const Case cases[] = {
      {{5}, {3, 4, 5}, Layout::kStride2, Layout::kTransposed, Layout::kOffset},
      {{4, 1, 5}, {3, 1}, Layout::kTransposed, Layout::kStride3, Layout::kStride2},
      {{}, {6, 7}, Layout::kDense, Layout::kOffset, Layout::kTransposed},
      {{6, 7}, {1, 7}, Layout::kBroadcast, Layout::kStride2, Layout::kStride3},
  };
  for (DType dtype : kComputeTypes) {
    ForEachTarget([&](int64_t) {
      for (const Case& c : cases) {
        std::vector<int64_t> shape;
        ASSERT_TRUE(BroadcastShapesForTest(c.dy, c.x, &shape));
        const std::string what = std::string(DTypeName(dtype)) + " dy " + ShapeText(c.dy) + " " +
                                 LayoutName(c.ldy) + ", x " + ShapeText(c.x) + " " +
                                 LayoutName(c.lx) + ", out " + LayoutName(c.lout);
        SCOPED_TRACE(what);
        TestTensor dy = MakeLayout(c.ldy, dtype, c.dy), x = MakeLayout(c.lx, dtype, c.x);
        FillRandom(&dy, rng, -4.0, 4.0);
        FillRandom(&x, rng, -12.0, 12.0);
        TestTensor out = MakeLayout(c.lout, dtype, shape);
        out.storage().FillBytes(0xFF);
        const std::vector<uint8_t> before = out.storage().Snapshot();
        RunChecked(Op::kSiluBackward, dy, x, out);
        EXPECT_EQ(CheckEltwise(Op::kSiluBackward, dy, x, out, what), 0);
        ExpectOnlyViewWritten(out, before, what);
      }
    });
  }
}

// Mixed dtypes go through the same gathered path: strided narrow inputs, wide outputs.
TEST(NonContiguousTest, MixedDTypesStrided) {
  std::mt19937_64 rng(0x5EED0204);
  const std::vector<int64_t> shape = {6, 9};
  ForEachTarget([&](int64_t) {
    {
      TestTensor dy = MakeLayout(Layout::kTransposed, DType::kFloat16, shape);
      TestTensor x = MakeLayout(Layout::kStride2, DType::kBFloat16, shape);
      FillRandom(&dy, rng, -4.0, 4.0);
      FillRandom(&x, rng, -12.0, 12.0);
      TestTensor out = MakeLayout(Layout::kOffset, DType::kFloat32, shape);
      out.storage().FillBytes(0xFF);
      const std::vector<uint8_t> before = out.storage().Snapshot();
      RunChecked(Op::kSiluBackward, dy, x, out);
      EXPECT_EQ(CheckEltwise(Op::kSiluBackward, dy, x, out, "silu f16/bf16 -> f32"), 0);
      ExpectOnlyViewWritten(out, before, "silu f16/bf16 -> f32");
    }
    for (DType tout : {DType::kFloat64, DType::kFloat16, DType::kBFloat16}) {
      TestTensor dy = MakeLayout(Layout::kStride3, DType::kBFloat16, shape);
      TestTensor x = MakeLayout(Layout::kTransposed, DType::kFloat32, shape);
      FillRandom(&dy, rng, -4.0, 4.0);
      FillRandom(&x, rng, -4.0, 4.0);
      TestTensor out = MakeLayout(Layout::kStride2, tout, shape);
      out.storage().FillBytes(0xFF);
      const std::vector<uint8_t> before = out.storage().Snapshot();
      const std::string what = std::string("hardsigmoid bf16/f32 -> ") + DTypeName(tout);
      RunChecked(Op::kHardsigmoidBackward, dy, x, out);
      EXPECT_EQ(CheckEltwise(Op::kHardsigmoidBackward, dy, x, out, what), 0);
      ExpectOnlyViewWritten(out, before, what);
    }
  });
}

// ---- LogSoftmaxBackward ------------------------------------------------------------------

class LogSoftmaxViewTest : public ::testing::TestWithParam<DType> {};

TEST_P(LogSoftmaxViewTest, StridedInputsAndOutputs) {
  const DType dtype = GetParam();
  std::mt19937_64 rng(0x5EED0205);
  const std::vector<std::vector<int64_t>> shapes = {{7, 5}, {3, 4, 5}, {2, 3, 2, 2, 3, 1, 2, 2}};
  ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& shape : shapes) {
      for (int64_t dim : {0, 1, -1}) {
        for (const Combo& c : kCombos) {
          const std::string what =
              ShapeText(shape) + " dim " + std::to_string(dim) + " " + ComboName(c);
          SCOPED_TRACE(what);
          TestTensor dy = MakeLayout(c.dy, dtype, shape), y = MakeLayout(c.x, dtype, shape);
          FillRandom(&dy, rng, -4.0, 4.0);
          // A stride-0 y repeats one row, so it cannot be a log-softmax along dim 0.
          if (c.x == Layout::kBroadcast) {
            FillRandom(&y, rng, -6.0, 0.0);
          } else {
            FillLogSoftmax(&y, dim, rng);
          }
          TestTensor out = MakeLayout(c.out, dtype, shape);
          out.storage().FillBytes(0xFF);
          const std::vector<uint8_t> out_before = out.storage().Snapshot();
          const std::vector<uint8_t> dy_before = dy.storage().Snapshot();
          const std::vector<uint8_t> y_before = y.storage().Snapshot();
          RunChecked(Op::kLogSoftmaxBackward, dy, y, out, dim);
          EXPECT_EQ(CheckLogSoftmax(dy, y, out, dim, what), 0);
          ExpectOnlyViewWritten(out, out_before, what);
          ExpectUnchanged(dy, dy_before, what);
          ExpectUnchanged(y, y_before, what);
        }
      }
    }
  });
}

TEST_P(LogSoftmaxViewTest, InPlace) {
  const DType dtype = GetParam();
  std::mt19937_64 rng(0x5EED0206);
  const Layout layouts[] = {Layout::kDense, Layout::kTransposed, Layout::kStride2, Layout::kOffset};
  ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{9, 40}, {4, 6, 5}}) {
      for (int64_t dim : {-1, 0}) {
        for (Layout l : layouts) {
          for (bool onto_dy : {true, false}) {
            const std::string what = ShapeText(shape) + " dim " + std::to_string(dim) + " " +
                                     LayoutName(l) +
                                     " out = " + (onto_dy ? "gradOutput" : "output");
            SCOPED_TRACE(what);
            TestTensor dy = MakeLayout(l, dtype, shape), y = MakeLayout(l, dtype, shape);
            FillRandom(&dy, rng, -4.0, 4.0);
            FillLogSoftmax(&y, dim, rng);
            const std::vector<double> vdy = dy.Values(), vy = y.Values();
            const TestTensor& out = onto_dy ? dy : y;
            const std::vector<uint8_t> before = out.storage().Snapshot();
            RunChecked(Op::kLogSoftmaxBackward, dy, y, out, dim);
            EXPECT_EQ(CheckLogSoftmaxValues(vdy, vy, out, dim, what), 0);
            ExpectOnlyViewWritten(out, before, what);
          }
        }
      }
    }
  });
}

// Strided inputs into every output dtype, DOUBLE included.
TEST_P(LogSoftmaxViewTest, StridedIntoEveryOutputDType) {
  const DType dtype = GetParam();
  std::mt19937_64 rng(0x5EED0207);
  const std::vector<int64_t> shape = {5, 33};
  ForEachTarget([&](int64_t) {
    for (DType tout : {DType::kFloat64, DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (int64_t dim : {1, 0}) {
        const std::string what =
            std::string("out ") + DTypeName(tout) + " dim " + std::to_string(dim);
        SCOPED_TRACE(what);
        TestTensor dy = MakeLayout(Layout::kTransposed, dtype, shape);
        TestTensor y = MakeLayout(Layout::kStride2, dtype, shape);
        FillRandom(&dy, rng, -4.0, 4.0);
        FillLogSoftmax(&y, dim, rng);
        TestTensor out = MakeLayout(Layout::kOffset, tout, shape);
        out.storage().FillBytes(0xFF);
        const std::vector<uint8_t> before = out.storage().Snapshot();
        RunChecked(Op::kLogSoftmaxBackward, dy, y, out, dim);
        EXPECT_EQ(CheckLogSoftmax(dy, y, out, dim, what), 0);
        ExpectOnlyViewWritten(out, before, what);
      }
    }
  });
}

INSTANTIATE_TEST_SUITE_P(AllDTypes, LogSoftmaxViewTest, ::testing::ValuesIn(kComputeTypes),
                         [](const ::testing::TestParamInfo<DType>& info) {
                           return std::string(DTypeName(info.param));
                         });

// A strided last dim is gathered in blocks of rows (src/exec/gather.cc): rows past a block,
// columns past a chunk, blocks cut short where the second-last dim wraps, and tiles that
// start and end inside rows (small UBs, several cores). Every tiling gives the reference's
// values and the same bits as the default plan.
TEST(NonContiguousTest, BlockedGatherEdgesUnderEveryTiling) {
  std::mt19937_64 rng(0x5EED0301);
  const std::vector<std::vector<int64_t>> shapes = {{40, 150}, {3, 7, 70}, {2, 33, 65}};
  std::vector<tiling::Options> tilings(3);
  tilings[1].num_cores = 3;
  tilings[1].ub_bytes = 8192;
  tilings[1].min_elems_per_core = 1;
  tilings[2].num_cores = 7;
  tilings[2].ub_bytes = 12288;
  tilings[2].min_elems_per_core = 1;
  tilings[2].buffer_num = 1;
  for (Op op : GradOpsList()) {  // the forward operators: forward_ops_test
    const bool reduction = GetOpInfo(op).is_reduction;
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const std::vector<int64_t>& shape : shapes) {
        for (int64_t dim : reduction ? std::vector<int64_t>{-1, 0} : std::vector<int64_t>{0}) {
          const std::string what = std::string(GetOpInfo(op).name) + " " + DTypeName(dtype) + " " +
                                   ShapeText(shape) +
                                   (reduction ? " dim " + std::to_string(dim) : "");
          SCOPED_TRACE(what);
          // dy transposed; for LogSoftmaxBackward y too (the executor gathers both).
          TestTensor dy = MakeLayout(Layout::kTransposed, dtype, shape);
          TestTensor x = MakeLayout(reduction ? Layout::kTransposed : Layout::kDense, dtype, shape);
          FillRandom(&dy, rng, -4.0, 4.0);
          if (reduction) {
            FillReductionOutput(op, &x, dim, rng);
          } else {
            FillRandom(&x, rng, -12.0, 12.0);
          }
          std::vector<uint8_t> first;
          for (size_t t = 0; t < tilings.size(); ++t) {
            TestTensor out = MakeLayout(Layout::kDense, dtype, shape);
            out.storage().FillBytes(0xFF);
            RunChecked(op, dy, x, out, dim, tilings[t]);
            EXPECT_EQ(reduction ? CheckLogSoftmax(dy, x, out, dim, what, op)
                                : CheckEltwise(op, dy, x, out, what),
                      0)
                << "tiling " << t;
            if (t == 0) {
              first = out.storage().Snapshot();
            } else {
              EXPECT_TRUE(out.storage().Snapshot() == first)
                  << "tiling " << t << " changed the bits";
            }
          }
        }
      }
    }
  }
}

// A gathered run's scratch is bounded by the work: each core needs three of its longest
// tile, which is the plan's tile length or all the core owns when that is less. A
// 12-element transposed SiluBackward asked for 614 KiB (three host UB tiles), 644 MB with
// a 1 GiB UB, and many cores with a large UB asked for more than the machine has. Checked
// against the bound before anything is allocated, then run with exactly that workspace.
TEST(NonContiguousTest, GatheredWorkspaceIsBoundedByTheWork) {
  std::mt19937_64 rng(0x5EED0501);
  struct Sized {
    std::vector<int64_t> shape;
    tiling::Options options;
  };
  std::vector<Sized> cases(4);
  cases[0].shape = {3, 4};
  cases[1].shape = {3, 4};
  cases[1].options.ub_bytes = int64_t{1} << 30;
  cases[2].shape = {512, 257};
  cases[2].options.ub_bytes = int64_t{1} << 30;
  cases[2].options.num_cores = 64;
  cases[2].options.min_elems_per_core = 1;
  cases[3].shape = {1000, 33};
  cases[3].options.platform = "atlas-a2";
  for (Op op : EltwiseOpsList()) {
    for (const Sized& c : cases) {
      const std::string what = std::string(GetOpInfo(op).name) + " " + ShapeText(c.shape) + " ub " +
                               std::to_string(c.options.ub_bytes) + " cores " +
                               std::to_string(c.options.num_cores);
      SCOPED_TRACE(what);
      TestTensor dy = MakeLayout(Layout::kTransposed, DType::kFloat32, c.shape);
      TestTensor x = MakeLayout(Layout::kDense, DType::kFloat32, c.shape);
      TestTensor out = MakeLayout(Layout::kDense, DType::kFloat32, c.shape);
      FillRandom(&dy, rng, -4.0, 4.0);
      FillRandom(&x, rng, -12.0, 12.0);
      uint64_t ws = 0;
      ExecutorPtr exec;
      const Status s = Prepare(MakeArgs(op, dy, x, out), c.options, &ws, &exec);
      ASSERT_TRUE(s.ok()) << s.message();
      const tiling::ElementwisePlan& p = GetPlan(*exec).elementwise;
      const uint64_t n = static_cast<uint64_t>(NumelOf(c.shape));
      // Per core: three f32 buffers of at most its elements, rounded up to 64 bytes.
      uint64_t bound = 0;
      for (int64_t core = 0; core < p.block_dim; ++core) {
        bound = std::max<uint64_t>(bound, p.CoreLen(core));
      }
      bound = std::min<uint64_t>(bound, static_cast<uint64_t>(p.tile_len));
      bound = (3 * bound * sizeof(float) + 63) / 64 * 64 * static_cast<uint64_t>(p.block_dim);
      EXPECT_LE(ws, bound);
      EXPECT_LE(ws, 3 * sizeof(float) * n + 64 * static_cast<uint64_t>(p.block_dim) +
                        3 * sizeof(float) * static_cast<uint64_t>(p.block_dim * p.block_elems));
      ASSERT_LE(ws, uint64_t{64} << 20) << "workspace sized by the UB, not by the work";
      std::vector<uint64_t> workspace(static_cast<size_t>((ws + 7) / 8));
      ASSERT_TRUE(Execute(*exec, ws ? workspace.data() : nullptr, ws).ok());
      EXPECT_EQ(CheckEltwise(op, dy, x, out, what), 0);
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
