// Every operator under every platform profile (and a user profile, and odd options) gives
// bitwise the same output as under host: a plan decides who computes what, never what is
// computed. LogSoftmaxBackward is run through all four reduction templates.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/op_args.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

struct Profile {
  std::string label;
  tiling::Options options;
};

class TilingProfiles : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    char tmpl[] = "/tmp/hostnn_tiling_profiles_XXXXXX";
    const int fd = mkstemp(tmpl);
    ASSERT_GE(fd, 0);
    close(fd);
    platform_file_ = tmpl;
    // A small user profile: 7 cores, the smallest UB, 16-byte blocks.
    std::ofstream(platform_file_) << R"({"name": "tiny-npu", "cores": 7, "ub_bytes": 8192,
                                        "block_bytes": 16, "vector_bytes": 64})";
    auto add = [&](const std::string& label, const std::string& platform, int64_t cores, int64_t ub,
                   int64_t min_elems, int buffers) {
      Profile p{label, {}};
      p.options.platform = platform;
      p.options.platform_file = platform_file_;
      p.options.num_cores = cores;
      p.options.ub_bytes = ub;
      p.options.min_elems_per_core = min_elems;
      p.options.buffer_num = buffers;
      profiles_.push_back(p);
    };
    add("atlas-a2", "atlas-a2", 0, 0, 0, 0);
    add("atlas-a2-40", "atlas-a2-40", 0, 0, 0, 0);
    add("ascend950", "ascend950", 0, 0, 0, 0);
    add("tiny-npu (user file)", "tiny-npu", 0, 0, 0, 0);
    add("ascend950, UB 16384, min 1", "ascend950", 0, 16384, 1, 0);
    add("atlas-a2, single-buffered", "atlas-a2", 0, 0, 0, 1);
    add("host, 5 cores, min 1", "host", 5, 0, 1, 0);
    add("host, UB 8192, double", "host", 0, 8192, 0, 2);
  }
  void TearDown() override { std::remove(platform_file_.c_str()); }

  // Runs the operator with `options`; returns the output bytes and the plan.
  static std::vector<uint8_t> RunOp(const OpArgs& args, test::Buffer* out,
                                    const tiling::Options& options, tiling::Plan* plan) {
    out->FillBytes(0xA5);
    uint64_t ws = 0;
    ExecutorPtr exec;
    Status s = Prepare(args, options, &ws, &exec);
    EXPECT_TRUE(s.ok()) << s.message();
    if (!s.ok()) return {};
    *plan = GetPlan(*exec);
    std::vector<uint8_t> workspace(ws + 64);
    s = Execute(*exec, workspace.data(), ws);
    EXPECT_TRUE(s.ok()) << s.message();
    EXPECT_TRUE(out->GuardsIntact());
    return out->Snapshot();
  }

  // The first element whose bytes differ (NaN signs and payloads included), or -1.
  static int64_t FirstDifference(DType dtype, const std::vector<uint8_t>& got,
                                 const std::vector<uint8_t>& expected) {
    const size_t esize = DTypeSize(dtype);
    for (size_t e = 0; e < got.size() / esize; ++e) {
      if (std::memcmp(&got[e * esize], &expected[e * esize], esize) != 0) {
        return static_cast<int64_t>(e);
      }
    }
    return -1;
  }

  // Host first, then every profile: the bytes must match.
  void ExpectSameEverywhere(const OpArgs& args, test::Buffer* out, const std::string& what) {
    tiling::Options host;
    host.platform = "host";
    tiling::Plan plan;
    const std::vector<uint8_t> expected = RunOp(args, out, host, &plan);
    for (const Profile& p : profiles_) {
      const std::vector<uint8_t> got = RunOp(args, out, p.options, &plan);
      ASSERT_EQ(got.size(), expected.size());
      const int64_t differs = FirstDifference(out->dtype(), got, expected);
      EXPECT_EQ(differs, -1) << what << " differs under " << p.label << " at element " << differs;
      if (plan.kind == tiling::Plan::Kind::kReduction) {
        templates_seen_.insert(tiling::TemplateName(plan.reduction.tmpl));
      }
      ++runs_;
    }
  }

  static void FillInputs(test::Buffer* dy, test::Buffer* x, double lo, double hi,
                         std::mt19937_64* rng, bool specials) {
    for (int64_t i = 0; i < dy->size(); ++i)
      dy->Set(i, test::RandomValue(dy->dtype(), *rng, -1, 1));
    for (int64_t i = 0; i < x->size(); ++i) x->Set(i, test::RandomValue(x->dtype(), *rng, lo, hi));
    if (specials && x->size() > 8) {
      const double kSpecial[] = {NAN, INFINITY, -INFINITY, -0.0, 3.0, -3.0, 0.0, 1e-30};
      for (int k = 0; k < 8; ++k) x->Set(x->size() / 8 * k, kSpecial[k]);
    }
  }

  std::string platform_file_;
  std::vector<Profile> profiles_;
  std::set<std::string> templates_seen_;
  int runs_ = 0;
};

TEST_F(TilingProfiles, ElementwiseOperatorsAreBitwiseTheSame) {
  std::mt19937_64 rng(5);
  const std::vector<std::vector<int64_t>> shapes = {{1}, {1000}, {3, 37, 129}, {70001}};
  for (const Op op : {Op::kSiluBackward, Op::kLogSigmoidBackward, Op::kHardsigmoidBackward}) {
    for (const DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const std::vector<int64_t>& shape : shapes) {
        const int64_t n = tiling::NumElements(shape);
        test::Buffer dy(dtype, n), x(dtype, n), out(dtype, n);
        FillInputs(&dy, &x, -8, 8, &rng, true);
        const TensorView vdy = TensorView::Dense(dy.data(), dtype, shape);
        const TensorView vx = TensorView::Dense(x.data(), dtype, shape);
        const TensorView vout = TensorView::Dense(out.data(), dtype, shape);
        const OpArgs args = test::GradOrForwardArgs(op, &vdy, &vx, &vout);
        ExpectSameEverywhere(args, &out,
                             std::string(GetOpInfo(op).name) + " " + DTypeName(dtype) + " " +
                                 test::ShapeText(shape));
      }
    }
  }
  EXPECT_EQ(runs_, 3 * 3 * 4 * static_cast<int>(profiles_.size()));
  std::printf(
      "%d profile runs of the elementwise operators, every output bitwise equal to "
      "host's\n",
      runs_);
}

// Gathered operands (broadcast, mixed dtypes) go through the UB scratch the plan sizes.
TEST_F(TilingProfiles, GatheredOperandsAreBitwiseTheSame) {
  std::mt19937_64 rng(6);
  // SiluBackward, f16 gradOutput broadcast from [129] against a bf16 self of [37, 129],
  // into an f32 gradInput.
  test::Buffer dy(DType::kFloat16, 129), x(DType::kBFloat16, 37 * 129),
      out(DType::kFloat32, 37 * 129);
  FillInputs(&dy, &x, -8, 8, &rng, true);
  const TensorView vdy = TensorView::Dense(dy.data(), DType::kFloat16, {129});
  const TensorView vx = TensorView::Dense(x.data(), DType::kBFloat16, {37, 129});
  const TensorView vout = TensorView::Dense(out.data(), DType::kFloat32, {37, 129});
  OpArgs args;
  args.op = Op::kSiluBackward;
  args.in[0] = &vdy;
  args.in[1] = &vx;
  args.out[0] = &vout;
  ExpectSameEverywhere(args, &out, "SiluBackward broadcast, mixed dtypes");
  // HardsigmoidBackward into a DOUBLE out.
  test::Buffer hdy(DType::kFloat32, 5000), hx(DType::kFloat16, 5000), hout(DType::kFloat64, 5000);
  FillInputs(&hdy, &hx, -4, 4, &rng, true);
  const TensorView hvdy = TensorView::Dense(hdy.data(), DType::kFloat32, {50, 100});
  const TensorView hvx = TensorView::Dense(hx.data(), DType::kFloat16, {50, 100});
  const TensorView hvout = TensorView::Dense(hout.data(), DType::kFloat64, {50, 100});
  args.op = Op::kHardsigmoidBackward;
  args.in[0] = &hvdy;
  args.in[1] = &hvx;
  args.out[0] = &hvout;
  ExpectSameEverywhere(args, &hout, "HardsigmoidBackward into DOUBLE");
}

TEST_F(TilingProfiles, LogSoftmaxIsBitwiseTheSameInEveryTemplate) {
  std::mt19937_64 rng(7);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  const std::vector<Case> cases = {
      {{33, 300}, 1},     // AR full-load
      {{5, 40000}, -1},   // AR recompute (R > 4 * vl^2 on every profile)
      {{17, 2049}, 1},    // an odd R: recompute chunks with a tail
      {{4, 600, 20}, 1},  // ARA: full-load, recompute under a small UB
      {{2, 3000, 3}, 1},  // ARA recompute with many R chunks
      {{3, 5, 7}, 0},     // ARA, A1 == 1
      {{1000, 1}, 1},     // R == 1 folds into A0
      {{}, 0},            // a scalar
  };
  for (const DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const Case& c : cases) {
      const int64_t n = tiling::NumElements(c.shape);
      test::Buffer dy(dtype, n), y(dtype, n), out(dtype, n);
      FillInputs(&dy, &y, -12, 0, &rng, false);
      const TensorView vdy = TensorView::Dense(dy.data(), dtype, c.shape);
      const TensorView vy = TensorView::Dense(y.data(), dtype, c.shape);
      const TensorView vout = TensorView::Dense(out.data(), dtype, c.shape);
      OpArgs args;
      args.op = Op::kLogSoftmaxBackward;
      args.in[0] = &vdy;
      args.in[1] = &vy;
      args.out[0] = &vout;
      args.dim = c.dim;
      ExpectSameEverywhere(args, &out,
                           std::string("LogSoftmaxBackward ") + DTypeName(dtype) + " " +
                               test::ShapeText(c.shape) + " dim " + std::to_string(c.dim));
    }
  }
  // f16 in, DOUBLE out, and a transposed (gathered) view.
  test::Buffer dy(DType::kFloat16, 600), y(DType::kFloat16, 600), out(DType::kFloat64, 600);
  FillInputs(&dy, &y, -12, 0, &rng, false);
  TensorView vdy = TensorView::Dense(dy.data(), DType::kFloat16, {20, 30});
  TensorView vy = TensorView::Dense(y.data(), DType::kFloat16, {20, 30});
  vdy.strides = {1, 20};
  vy.strides = {1, 20};
  const TensorView vout = TensorView::Dense(out.data(), DType::kFloat64, {20, 30});
  OpArgs args;
  args.op = Op::kLogSoftmaxBackward;
  args.in[0] = &vdy;
  args.in[1] = &vy;
  args.out[0] = &vout;
  args.dim = 0;
  ExpectSameEverywhere(args, &out, "LogSoftmaxBackward transposed f16 -> DOUBLE");

  EXPECT_EQ(templates_seen_, (std::set<std::string>{"ar_full_load", "ar_recompute", "ara_full_load",
                                                    "ara_recompute"}));
  std::printf(
      "%d profile runs of LogSoftmaxBackward over %zu templates, every output bitwise "
      "equal to host's\n",
      runs_, templates_seen_.size());
}

}  // namespace
}  // namespace hostnn
