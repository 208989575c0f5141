// Golden plans of CrossEntropyLoss and CrossEntropyLossGrad on Atlas A2 (48 cores, UB 196608 B;
// atlas-a2-40: 40 cores): the tiling of ops-nn's loss/cross_entropy_loss/op_host/
// cross_entropy_loss_tiling.cpp and loss/cross_entropy_loss_grad/op_host/
// cross_entropy_loss_grad_tiling.cpp. Each value is derived by hand from those rules:
// The forward (N rows of C classes, es the dtype's bytes):
//   cores: N < 48: N cores of one row; else rem = N % 48: front = rem (48 where 0) cores of
//     ceil(N / 48) rows, the other 48 - front of N / 48 (0 where rem is 0);
//   row buffer rb = align32(ceil-rows x 4); reserve = 3 rb + 64 + 4096;
//   input pass bytes = min(floor512((196608 - reserve) / parts), align32(C x es)), parts: f32 1
//     (2 with weights and label smoothing), 16-bit 4 (6); elements = bytes / es;
//   casts (16-bit) 3 x pass bytes; smoothing weights: f32 1 x, 16-bit 2 x pass bytes;
//   row passes: C > elements: ceil(C / elements) (one fewer with a tail) + C % elements; else 0 +
//   C; vector repeats of 8192: n >= 8192: ceil(n / 8192) (one fewer with a tail) + n % 8192; else 0
//   + n; key 1 BFLOAT16, 2 FLOAT16, 3 FLOAT.
// The gradient (rows r = ceil(N / 48) per front core):
//   cores: rem = N % 48: front = rem (48 where 0), tail = 0 if N <= 48 else 48 - front;
//     front rows ceil(N / 48), tail rows N / 48;
//   fixed = align32(8r) + align32(4r) + align32(4r) + align32(r) [+ align32(4r) weight];
//     none: + align32(es r) (+ align32(4r) for 16-bit); mean: + 32 + align32(4 max(48, r));
//   column tile = floor_{512/es}(min((196608 - fixed) / (f32 12, 16-bit 8), C));
//     loops C / tile + tail C % tile (tile 0: no loops, tail C);
//   key (1 BFLOAT16, 2 FLOAT16, 3 FLOAT) x 10 + 1 with a weight.
// These tests pin the planner; they run no operator.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace {

const DType F32 = DType::kFloat32, F16 = DType::kFloat16, BF16 = DType::kBFloat16;

struct Forward {
  const char* platform;
  DType dtype;
  int64_t rows, classes;
  bool weight, smoothing;
  int64_t key, block_dim, front_cores, front_rows, tail_cores, tail_rows;
  int64_t row_buf, input_ub_size, total_buf, ub_loops, ub_tail, vec_loops, vec_tail, tail_vec_loops,
      tail_vec_tail;
};

// clang-format off (a plan a line)
const Forward kForward[] = {
    // 4 rows < 48 cores: 4 x 1 row; rb 32, reserve 4256; align32(20) = 32 bytes: 8 elements,
    // one pass of 0 + 5.
    {"atlas-a2", F32, 4, 5, false, false, 3, 4, 4, 1, 0, 0, 32, 8, 4256, 0, 5, 0, 8, 0, 5},
    // The same with weights and smoothing: parts 2, smoothing weights 32 B: total 4288.
    {"atlas-a2", F32, 2, 5, true, true, 3, 2, 2, 1, 0, 0, 32, 8, 4288, 0, 5, 0, 8, 0, 5},
    // [64, 32000] f32: 64 % 48 = 16 cores of 2, 32 of 1; the pass holds the row (128000 B):
    // 32000 = 3 x 8192 + 7424 repeats.
    {"atlas-a2", F32, 64,    32000, false, false, 3, 48,   16, 2,   32,
     1,          32,  32000, 4256,  0,     32000, 3, 7424, 3,  7424},
    // bf16 with weights and smoothing: parts 6, floor512(192352 / 6) = 31744 B = 15872
    // elements; 32000 = 2 x 15872 + 256; total 4256 + 3 x 31744 + 2 x 31744 = 162976.
    {"atlas-a2", BF16, 64,    32000,  true, true, 1, 48,   16, 2,  32,
     1,          32,   15872, 162976, 2,    256,  1, 7680, 0,  256},
    // [8192, 1000] f32, weight without smoothing: 8192 % 48 = 32 cores of 171, 16 of 170;
    // rb align32(684) = 704, reserve 6272.
    {"atlas-a2", F32, 8192, 1000, true, false, 3, 48,   32, 171, 16,
     170,        704, 1000, 6272, 0,    1000,  0, 1000, 0,  1000},
    // f16: the row's 2000 B aligned to 2016: 1008 elements; casts 3 x 2016: total 12320.
    {"atlas-a2", F16, 8192, 1000,  false, false, 2, 48,   32, 171, 16,
     170,        704, 1008, 12320, 0,     1000,  0, 1008, 0,  1000},
    // [4096, 128256] f32: 16 cores of 86, 32 of 85; rb 352, reserve 5216; floor512(191392) =
    // 190976 B = 47744 elements; 128256 = 2 x 47744 + 32768 (4 whole repeats, no tail).
    {"atlas-a2", F32, 4096,  128256, false, false, 3, 48,   16, 86, 32,
     85,         352, 47744, 5216,   2,     32768, 5, 6784, 4,  0},
    // bf16, weights and smoothing: floor512(191392 / 6) = 31744 B: 128256 = 8 x 15872 + 1280.
    {"atlas-a2", BF16, 4096,  128256, true, true, 1, 48,   16, 86,  32,
     85,         352,  15872, 163936, 8,    1280, 1, 7680, 0,  1280},
    // ops-nn's own test shape, [49, 112595] bf16 with a weight: 1 core of 2 rows, 47 of 1;
    // floor512(192352 / 4) = 47616 B = 23808 elements; 112595 = 4 x 23808 + 17363.
    {"atlas-a2", BF16, 49,    112595, true, false, 1, 48,   1, 2,  47,
     1,          32,   23808, 147104, 4,    17363, 2, 7424, 2, 979},
    // 48 rows of 8192: one row a core, exactly one repeat.
    {"atlas-a2", F32, 48,   8192, false, false, 3, 48, 48, 1, 0,
     0,          32,  8192, 4256, 0,     8192,  1, 0,  1,  0},
    // f16 smoothing without a weight (no weight buffer): 16385 x 2 aligned to 32800 B.
    {"atlas-a2", F16, 100,   16385,  false, true,  2, 48, 4, 3, 44,
     2,          32,  16400, 102656, 0,     16385, 2, 16, 2, 1},
    // 30 rows of 7 f16: 32 B, 16 elements.
    {"atlas-a2", F16, 30, 7, false, false, 2, 30, 30, 1, 0, 0, 32, 16, 4352, 0, 7, 0, 16, 0, 7},
    // 40 cores: 8192 % 40 = 32 of 205, 8 of 204; rb align32(820) = 832.
    {"atlas-a2-40", F32, 8192, 1000, false, false, 3, 40,   32, 205, 8,
     204,           832, 1000, 6656, 0,     1000,  0, 1000, 0,  1000},
};

struct Grad {
  const char* platform;
  DType dtype;
  int64_t rows, classes;
  bool weight;
  int64_t reduction;
  int64_t key, block_dim, front_cores, front_rows, tail_cores, tail_rows;
  int64_t fixed, col_tile, col_loops, col_tail;
};

const Grad kGrad[] = {
    // ops-nn's example, [2, 3] bf16, weight, mean: r 1; 32 + 32 + 32 + 32 + 32 + 32 + 192 = 384;
    // min(.., 3) = 3 floors to 0 on 256: no column loop, tail 3.
    {"atlas-a2", BF16, 2, 3, true, 1, 11, 2, 2, 1, 0, 0, 384, 0, 0, 3},
    // [4, 5] f32 none: 4 x 32 + 32 (gradLoss) = 160; 5 floors to 0 on 128.
    {"atlas-a2", F32, 4, 5, false, 0, 30, 4, 4, 1, 0, 0, 160, 0, 0, 5},
    // [64, 32000] f32 mean: r 2; 128 + 32 + 192 = 352; (196256 / 12) = 16354 -> 16256;
    // 32000 = 1 x 16256 + 15744.
    {"atlas-a2", F32, 64, 32000, false, 1, 30, 48, 16, 2, 32, 1, 352, 16256, 1, 15744},
    // f16 none with a weight: 5 x 32 + 32 + 32 = 224; 196384 / 8 = 24548 -> 24320.
    {"atlas-a2", F16, 64, 32000, true, 0, 21, 48, 16, 2, 32, 1, 224, 24320, 1, 7680},
    // [8192, 1000] f32 sum with a weight: r 171; 1376 + 704 + 704 + 192 + 704 = 3680;
    // min(16077, 1000) = 1000 -> 896: 1 x 896 + 104.
    {"atlas-a2", F32, 8192, 1000, true, 2, 31, 48, 32, 171, 16, 170, 3680, 896, 1, 104},
    // bf16 mean: 2976 + 32 + 704 = 3712; min(.., 1000) -> 768: 1 x 768 + 232.
    {"atlas-a2", BF16, 8192, 1000, false, 1, 10, 48, 32, 171, 16, 170, 3712, 768, 1, 232},
    // [4096, 128256] f32 mean: r 86; 704 + 352 + 352 + 96 + 32 + 352 = 1888; 194720 / 12 =
    // 16226 -> 16128: 7 x 16128 + 15360.
    {"atlas-a2", F32, 4096, 128256, false, 1, 30, 48, 16, 86, 32, 85, 1888, 16128, 7, 15360},
    // f16 sum with a weight: 1856; 194752 / 8 = 24344 -> 24320: 5 x 24320 + 6656.
    {"atlas-a2", F16, 4096, 128256, true, 2, 21, 48, 16, 86, 32, 85, 1856, 24320, 5, 6656},
    // 48 rows: every core one row, no tail cores (tail rows 48 / 48 = 1 unused); 100 floors
    // to 0 on 128.
    {"atlas-a2", F32, 48, 100, false, 2, 30, 48, 48, 1, 0, 1, 128, 0, 0, 100},
    // 49 rows of 300 bf16 none: 1 core of 2, 47 of 1; 4 x 32 + 32 + 32 = 192; 300 -> 256.
    {"atlas-a2", BF16, 49, 300, false, 0, 10, 48, 1, 2, 47, 1, 192, 256, 1, 44},
    // [100, 129] f32 mean: 129 -> 128: 1 x 128 + 1.
    {"atlas-a2", F32, 100, 129, false, 1, 30, 48, 4, 3, 44, 2, 352, 128, 1, 1},
    // 40 cores: 32 of 205, 8 of 204; 1664 + 832 + 832 + 224 + 32 + 832 = 4416.
    {"atlas-a2-40", F32, 8192, 1000, false, 1, 30, 40, 32, 205, 8, 204, 4416, 896, 1, 104},
};
// clang-format on

class TilingGoldenCrossEntropy : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static Status Plan(Op op, DType dtype, int64_t rows, int64_t classes,
                     const tiling::SoftmaxLossInputs& in, const std::string& platform,
                     tiling::Plan* plan) {
    tiling::Problem problem{op, dtype, {rows, classes}, 0, 1};
    problem.softmax_loss = in;
    tiling::Options o;
    o.platform = platform;
    return tiling::MakePlan(problem, o, plan);
  }
};

TEST_F(TilingGoldenCrossEntropy, ForwardMatchesOpsNnRule) {
  for (const Forward& g : kForward) {
    SCOPED_TRACE(std::string(g.platform) + " " + DTypeName(g.dtype) + " [" +
                 std::to_string(g.rows) + ", " + std::to_string(g.classes) + "]");
    tiling::Plan plan;
    tiling::SoftmaxLossInputs in;
    in.weight = g.weight, in.smoothing = g.smoothing;
    const Status s = Plan(Op::kCrossEntropyLoss, g.dtype, g.rows, g.classes, in, g.platform, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    const tiling::SoftmaxLossTiling& t = plan.softmax_loss;
    ASSERT_TRUE(t.planned) << t.why;
    EXPECT_EQ(t.kernel, "CrossEntropyLoss");
    EXPECT_EQ(t.tiling_key, g.key);
    EXPECT_EQ(t.block_dim, g.block_dim);
    EXPECT_EQ(t.front_cores, g.front_cores);
    EXPECT_EQ(t.front_rows, g.front_rows);
    EXPECT_EQ(t.tail_cores, g.tail_cores);
    EXPECT_EQ(t.tail_rows, g.tail_rows);
    EXPECT_EQ(t.row_buf_bytes, g.row_buf);
    EXPECT_EQ(t.input_ub_size, g.input_ub_size);
    EXPECT_EQ(t.total_buf_bytes, g.total_buf);
    EXPECT_EQ(t.ub_loops, g.ub_loops);
    EXPECT_EQ(t.ub_tail, g.ub_tail);
    EXPECT_EQ(t.vec_loops, g.vec_loops);
    EXPECT_EQ(t.vec_tail, g.vec_tail);
    EXPECT_EQ(t.tail_vec_loops, g.tail_vec_loops);
    EXPECT_EQ(t.tail_vec_tail, g.tail_vec_tail);
    EXPECT_EQ(t.workspace_bytes, 16 * 1024 * 1024 + 768);
    EXPECT_TRUE(plan.Check().ok());
    EXPECT_NE(plan.ToJson().find("\"input_ub_size\": " + std::to_string(g.input_ub_size)),
              std::string::npos);
    EXPECT_NE(plan.ToTable().find("CrossEntropyLoss, tiling key " + std::to_string(g.key)),
              std::string::npos)
        << plan.ToTable();
  }
}

TEST_F(TilingGoldenCrossEntropy, GradientMatchesOpsNnRule) {
  for (const Grad& g : kGrad) {
    SCOPED_TRACE(std::string(g.platform) + " " + DTypeName(g.dtype) + " [" +
                 std::to_string(g.rows) + ", " + std::to_string(g.classes) + "] reduction " +
                 std::to_string(g.reduction));
    tiling::Plan plan;
    tiling::SoftmaxLossInputs in;
    in.weight = g.weight, in.reduction = g.reduction;
    const Status s =
        Plan(Op::kCrossEntropyLossGrad, g.dtype, g.rows, g.classes, in, g.platform, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    const tiling::SoftmaxLossTiling& t = plan.softmax_loss;
    ASSERT_TRUE(t.planned) << t.why;
    EXPECT_EQ(t.kernel, "CrossEntropyLossGrad");
    EXPECT_EQ(t.tiling_key, g.key);
    EXPECT_EQ(t.block_dim, g.block_dim);
    EXPECT_EQ(t.front_cores, g.front_cores);
    EXPECT_EQ(t.front_rows, g.front_rows);
    EXPECT_EQ(t.tail_cores, g.tail_cores);
    EXPECT_EQ(t.tail_rows, g.tail_rows);
    EXPECT_EQ(t.row_buf_bytes, g.fixed);
    EXPECT_EQ(t.col_tile, g.col_tile);
    EXPECT_EQ(t.col_loops, g.col_loops);
    EXPECT_EQ(t.col_tail, g.col_tail);
    EXPECT_TRUE(plan.Check().ok());
    EXPECT_NE(plan.ToTable().find("column passes   " + std::to_string(g.col_loops) + " x " +
                                  std::to_string(g.col_tile)),
              std::string::npos)
        << plan.ToTable();
  }
}

// Rows a core holds past what the UB takes: not planned, and the plan says why (ops-nn's
// unsigned arithmetic would wrap); the host plans every profile, the A2 tiling only A2's.
TEST_F(TilingGoldenCrossEntropy, TooManyRowsPerCoreAndTheHost) {
  tiling::Plan plan;
  // 48 x 16100 rows: 3 x align32(64400) + 4160 = 197408 > 196608.
  ASSERT_TRUE(Plan(Op::kCrossEntropyLoss, F32, 48 * 16100, 1, {}, "atlas-a2", &plan).ok());
  EXPECT_FALSE(plan.softmax_loss.planned);
  EXPECT_NE(plan.softmax_loss.why.find("would wrap"), std::string::npos) << plan.softmax_loss.why;
  EXPECT_NE(plan.ToTable().find("CrossEntropyLoss not planned"), std::string::npos);
  // 48 x 11600 rows of a gradient: 92800 + 46400 + 46400 + 11616 = 197216 > 196608.
  ASSERT_TRUE(
      Plan(Op::kCrossEntropyLossGrad, F32, 48 * 11600, 1, {false, false, 2}, "atlas-a2", &plan)
          .ok());
  EXPECT_FALSE(plan.softmax_loss.planned);
  EXPECT_NE(plan.ToJson().find("\"planned\": false"), std::string::npos);
  ASSERT_TRUE(Plan(Op::kCrossEntropyLoss, F32, 64, 300, {}, "host", &plan).ok());
  EXPECT_FALSE(plan.softmax_loss.planned);
  EXPECT_TRUE(plan.softmax_loss.why.empty());
  // A reduction outside 0..2 is not a problem to plan.
  EXPECT_FALSE(
      Plan(Op::kCrossEntropyLossGrad, F32, 4, 5, {false, false, 3}, "atlas-a2", &plan).ok());
}

}  // namespace
}  // namespace hostnn
