// Golden plans of MseLossBackward on Atlas A2 (48 cores, UB 196608 B; atlas-a2-40: 40 cores):
// the tiling of ops-nn's MseLossGradV2 (loss/mse_loss_grad_v2/op_host/
// mse_loss_grad_v2_tiling.cpp), which the A2 op_api runs when its three inputs have one shape.
// Each value is derived by hand in a comment:
//   bytes per element: 4 queues x the dtype's bytes, + 4 f32 casts x 4 for a 16-bit dtype:
//     f32 16, f16 and bf16 24; max tile ceil(196608 / that): f32 12288, 16-bit 8192;
//   loops ceil(n / max tile); used = min(cores, loops) = block_dim;
//   n % used == 0: used x n / used; else used - 1 cores of n / (used - 1) and the last core
//     n % (used - 1) (block_dim back to used - 1 where that is 0);
//   tiles per core ceil(loops / the full cores); double buffered for n > 65536;
//   tiling key 1 FLOAT, 2 FLOAT16, 3 BFLOAT16.
// These tests pin the planner; they run no operator.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace {

struct Golden {
  const char* platform;
  DType dtype;
  std::vector<int64_t> shape;
  int64_t key, bytes_per_element, max_tile, loops;
  int64_t block_dim, full_cores, block_length, pad, tiles;
  bool double_buffer;
};

// clang-format off (a plan a line)
const Golden kGolden[] = {
    // 12 elements: one tile, one core.
    {"atlas-a2", DType::kFloat32, {4, 3}, 1, 16, 12288, 1, 1, 1, 12, 0, 1, false},
    // 1024 f16: one tile of the 8192 a 16-bit dtype takes.
    {"atlas-a2", DType::kFloat16, {1024}, 2, 24, 8192, 1, 1, 1, 1024, 0, 1, false},
    // 19200 = 2 x 9600: two tiles, two cores, no pad.
    {"atlas-a2", DType::kFloat32, {64, 300}, 1, 16, 12288, 2, 2, 2, 9600, 0, 1, false},
    // 100000 f32: ceil(100000 / 12288) = 9 loops; 100000 % 9 = 1, so 8 cores of 12500, pad 0:
    // block_dim back to 8; ceil(9 / 8) = 2 tiles.
    {"atlas-a2", DType::kFloat32, {100, 1000}, 1, 16, 12288, 9, 8, 8, 12500, 0, 2, true},
    // 100000 bf16: 13 loops; 100000 % 13 = 4: 12 cores of 8333, the 13th 100000 % 12 = 4.
    {"atlas-a2", DType::kBFloat16, {100, 1000}, 3, 24, 8192, 13, 13, 12, 8333, 4, 2, true},
    // 65536 f32 (not above 65536: single buffered): 6 loops; 65536 % 6 = 4: 5 x 13107, pad 1.
    {"atlas-a2", DType::kFloat32, {256, 256}, 1, 16, 12288, 6, 6, 5, 13107, 1, 2, false},
    // 65537: double buffered; 5 x 13107, pad 2.
    {"atlas-a2", DType::kFloat32, {65537}, 1, 16, 12288, 6, 6, 5, 13107, 2, 2, true},
    // 48 x 8192 f16: 48 loops, every core one full tile.
    {"atlas-a2", DType::kFloat16, {48, 8192}, 2, 24, 8192, 48, 48, 48, 8192, 0, 1, true},
    // One more: 49 loops on 48 cores; 393217 % 48 = 1: 47 x 8366 and 393217 % 47 = 15.
    {"atlas-a2", DType::kFloat16, {393217}, 2, 24, 8192, 49, 48, 47, 8366, 15, 2, true},
    // [4096, 32000] f32: 131072000 / 12288 -> 10667 loops; % 48 = 32: 47 x 2788765, pad 45;
    // ceil(10667 / 47) = 227 tiles.
    {"atlas-a2",
     DType::kFloat32,
     {4096, 32000},
     1,
     16,
     12288,
     10667,
     48,
     47,
     2788765,
     45,
     227,
     true},
    // [8192, 1000] bf16 on 40 cores: 1000 loops, 8192000 / 40 = 204800 each, 25 tiles.
    {"atlas-a2-40", DType::kBFloat16, {8192, 1000}, 3, 24, 8192, 1000, 40, 40, 204800, 0, 25, true},
    // 41 x 12288 f32 on 40 cores: 41 loops; 503808 % 40 = 8: 39 x 12918, pad 6.
    {"atlas-a2-40", DType::kFloat32, {41, 12288}, 1, 16, 12288, 41, 40, 39, 12918, 6, 2, true},
    // 12289: 2 loops; 12289 % 2 = 1, so one core of 12289 (pad 12289 % 1 = 0: block_dim 1),
    // 2 tiles.
    {"atlas-a2", DType::kFloat32, {12289}, 1, 16, 12288, 2, 1, 1, 12289, 0, 2, false},
    // One bf16 element (a 0-d problem).
    {"atlas-a2", DType::kBFloat16, {}, 3, 24, 8192, 1, 1, 1, 1, 0, 1, false},
};
// clang-format on

class TilingGoldenLoss : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static Status Plan(Op op, DType dtype, std::vector<int64_t> shape, const std::string& platform,
                     tiling::Plan* plan) {
    tiling::Problem problem{op, dtype, std::move(shape), 0, 1};
    tiling::Options o;
    o.platform = platform;
    return tiling::MakePlan(problem, o, plan);
  }
};

TEST_F(TilingGoldenLoss, MseLossBackwardMatchesOpsNnRule) {
  for (const Golden& g : kGolden) {
    int64_t n = 1;
    for (const int64_t d : g.shape) n *= d;
    SCOPED_TRACE(std::string(g.platform) + " " + DTypeName(g.dtype) + " " + std::to_string(n));
    tiling::Plan plan;
    const Status s = Plan(Op::kMseLossBackward, g.dtype, g.shape, g.platform, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    const tiling::LossTiling& t = plan.loss;
    ASSERT_TRUE(t.planned);
    EXPECT_EQ(t.kernel, "MseLossGradV2");
    EXPECT_EQ(t.tiling_key, g.key);
    EXPECT_EQ(t.total_length, n);
    EXPECT_EQ(t.bytes_per_element, g.bytes_per_element);
    EXPECT_EQ(t.max_tile_length, g.max_tile);
    EXPECT_EQ(t.loops, g.loops);
    EXPECT_EQ(t.block_dim, g.block_dim);
    EXPECT_EQ(t.full_cores, g.full_cores);
    EXPECT_EQ(t.block_length, g.block_length);
    EXPECT_EQ(t.pad_length, g.pad);
    EXPECT_EQ(t.tile_num, g.tiles);
    EXPECT_EQ(t.double_buffer, g.double_buffer);
    EXPECT_TRUE(plan.Check().ok());
    const std::string json = plan.ToJson();
    EXPECT_NE(json.find("\"loss\""), std::string::npos);
    EXPECT_NE(json.find("\"block_length\": " + std::to_string(g.block_length)), std::string::npos)
        << json;
    EXPECT_NE(plan.ToTable().find("MseLossGradV2, tiling key " + std::to_string(g.key)),
              std::string::npos)
        << plan.ToTable();
  }
}

// MseLoss's A2 tiling is not published (ops-nn's is its arch35 kernel's): not planned, and
// the plan says why; the host plans every profile, the A2 tiling only A2's.
TEST_F(TilingGoldenLoss, MseLossIsNotPlannedAndTheHostPlansAll) {
  tiling::Plan plan;
  ASSERT_TRUE(Plan(Op::kMseLoss, DType::kFloat32, {64, 300}, "atlas-a2", &plan).ok());
  EXPECT_FALSE(plan.loss.planned);
  EXPECT_NE(plan.loss.why.find("arch35"), std::string::npos) << plan.loss.why;
  EXPECT_NE(plan.ToTable().find("MseLoss not planned"), std::string::npos) << plan.ToTable();
  EXPECT_NE(plan.ToJson().find("\"planned\": false"), std::string::npos);
  ASSERT_TRUE(Plan(Op::kMseLossBackward, DType::kFloat32, {64, 300}, "host", &plan).ok());
  EXPECT_FALSE(plan.loss.planned);
  EXPECT_TRUE(plan.loss.why.empty());
  // The loss's one total: segments of 8192 over every element.
  EXPECT_EQ(plan.channel_sums.rows, 1);
  EXPECT_EQ(plan.channel_sums.units, 3);  // 19200 = 8192 + 8192 + 2816
}

// NLLLoss's and NLLLossGrad's A2 tilings are not published either (ops-nn's are their arch35
// kernels'): not planned, the kernel named. The host plans the forward's positions and the
// gradient's every element of self's [positions, classes].
TEST_F(TilingGoldenLoss, NllLossIsNotPlannedAndTheHostPlansPositions) {
  const struct {
    Op op;
    const char* kernel;
    int64_t planned_elements;
  } cases[] = {{Op::kNLLLoss, "NLLLoss", 64},
               {Op::kNLLLoss2d, "NLLLoss", 64},
               {Op::kNLLLossBackward, "NLLLossGrad", 64 * 300},
               {Op::kNLLLoss2dBackward, "NLLLossGrad", 64 * 300}};
  for (const auto& c : cases) {
    SCOPED_TRACE(GetOpInfo(c.op).name);
    tiling::Plan plan;
    ASSERT_TRUE(Plan(c.op, DType::kBFloat16, {64, 300}, "atlas-a2", &plan).ok());
    EXPECT_FALSE(plan.loss.planned);
    EXPECT_NE(plan.loss.why.find("arch35"), std::string::npos) << plan.loss.why;
    EXPECT_NE(plan.ToTable().find(std::string(c.kernel) + " not planned"), std::string::npos)
        << plan.ToTable();
    ASSERT_TRUE(Plan(c.op, DType::kFloat16, {64, 300}, "host", &plan).ok());
    EXPECT_TRUE(plan.loss.why.empty());
    EXPECT_EQ(plan.elementwise.n, c.planned_elements);
  }
  // Self as [positions, classes] only, in a compute dtype.
  tiling::Plan plan;
  EXPECT_FALSE(Plan(Op::kNLLLoss, DType::kFloat32, {64, 3, 100}, "host", &plan).ok());
  EXPECT_FALSE(Plan(Op::kNLLLoss, DType::kFloat64, {64, 300}, "host", &plan).ok());
}

}  // namespace
}  // namespace hostnn
