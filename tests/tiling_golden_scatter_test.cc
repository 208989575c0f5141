// Golden plans of EmbeddingDenseBackward on Atlas A2 (48 cores, UB 196608 B; atlas-a2-40: 40
// cores): the tiling of ops-nn's EmbeddingDenseGradV2 for A2
// (index/embedding_dense_grad_v2/op_host/embedding_dense_grad_v2_tiling.cpp) in its default
// context, after the op_api's cast of grad. Each value is derived by hand in a comment:
//   grad bytes: 4 where (n x D + W x D) x 2 < 104857600, n < 512 or scale (the op_api casts to
//     FLOAT), else grad's own; n grad's rows, W numWeights;
//   mode: small dim where D <= 512 and W <= 16777216, else sorted; key scale + 100 x small;
//   block_dim: min(48, n), with scale min(48, W, n);
//   max_dim: (196608 - 20480 - 96) / (64 x buffers) x 16, buffers 3 for 4-byte grad, 4 else:
//     176032 / 192 = 916 -> 14656; 176032 / 256 = 687 -> 10992; dim_pass min(D, max_dim),
//     dim_reps D / dim_pass, dim_tail the rest;
//   sorted: tail_rows n / block_dim, former_rows one more on n % block_dim cores;
//   small dim: copy_rows n / block_dim, the last core n - copy_rows x (block_dim - 1); UB
//     passes of max_rows = (43776 - D) / (10 + ceil8(D)), halved for a 2-byte grad;
//   scale: scale_rows W / block_dim, one more on W % block_dim cores;
//   workspace: 16777216, + ceil8(W) x 4 with scale, + for a 2-byte grad: small dim W x D x 4,
//     sorted ceil8(dim_pass x block_dim x 2) x 4 + block_dim x 8.
// "UT" marks a shape of ops-nn's own unit tests. These tests pin the planner; they run no
// operator.

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
  int64_t n, d, w;
  bool scale;
  const char* mode;
  int64_t key, grad_bytes, block_dim;
  int64_t dim_pass, dim_reps, dim_tail;
  // sorted: former_cores x former_rows, the rest tail_rows; small dim: copy_rows, the last
  // core's, rows per pass, passes and the last pass's rows (a core, then the last core).
  int64_t former_cores, former_rows, tail_rows;
  int64_t copy_rows, last_core_rows, max_rows, copy_passes, last_pass_rows, last_core_passes,
      last_core_last_pass_rows;
  int64_t scale_rows, scale_former_cores;
  int64_t workspace;
};

const Golden kGolden[] = {
    // UT case_1: [4, 3] into 10: cast (small), small dim, 4 cores of 1 row; max_rows
    // 43773 / 18 = 2431.
    {"atlas-a2",  DType::kFloat32,
     4,           3,
     10,          false,
     "small dim", 100,
     4,           4,
     3,           1,
     0,           0,
     0,           0,
     1,           1,
     2431,        1,
     1,           1,
     1,           0,
     0,           16777216},
    // 8192 x 4096 into 128256 (f32 stays f32): sorted; 8192 = 32 x 171 + 16 x 170.
    {"atlas-a2", DType::kFloat32,
     8192,       4096,
     128256,     false,
     "sorted",   0,
     4,          48,
     4096,       1,
     0,          32,
     171,        170,
     0,          0,
     0,          0,
     0,          0,
     0,          0,
     0,          16777216},
    // The same in bf16: (33554432 + 525336576) x 2 >= 100 MiB, 8192 rows, no scale: kept 2-byte;
    // workspace + ceil8(4096 x 48 x 2) x 4 + 48 x 8 = 1572864 + 384.
    {"atlas-a2", DType::kBFloat16,
     8192,       4096,
     128256,     false,
     "sorted",   0,
     2,          48,
     4096,       1,
     0,          32,
     171,        170,
     0,          0,
     0,          0,
     0,          0,
     0,          0,
     0,          18350464},
    // With scale: cast; block min(48, 128256, 8192) = 48; 128256 = 48 x 2672; workspace +
    // 128256 x 4 = 513024.
    {"atlas-a2", DType::kBFloat16,
     8192,       4096,
     128256,     true,
     "sorted",   1,
     4,          48,
     4096,       1,
     0,          32,
     171,        170,
     0,          0,
     0,          0,
     0,          0,
     0,          2672,
     0,          17290240},
    // f16 [1000, 20000] into 50: 42000000 bytes, cast; a row in passes 14656 + 5344; 1000 = 40 x
    // 21 + 8 x 20.
    {"atlas-a2", DType::kFloat16,
     1000,       20000,
     50,         false,
     "sorted",   0,
     4,          48,
     14656,      1,
     5344,       40,
     21,         20,
     0,          0,
     0,          0,
     0,          0,
     0,          0,
     0,          16777216},
    // D 512 and W 2^24: still small dim; 100 = 47 x 2 + 6; max_rows 43264 / 522 = 82.
    {"atlas-a2",  DType::kFloat32,
     100,         512,
     16777216,    false,
     "small dim", 100,
     4,           48,
     512,         1,
     0,           0,
     0,           0,
     2,           6,
     82,          1,
     2,           1,
     6,           0,
     0,           16777216},
    // W one past 2^24: sorted; 100 = 4 x 3 + 44 x 2.
    {"atlas-a2", DType::kFloat32,
     100,        512,
     16777217,   false,
     "sorted",   0,
     4,          48,
     512,        1,
     0,          4,
     3,          2,
     0,          0,
     0,          0,
     0,          0,
     0,          0,
     0,          16777216},
    // [10000, 64] into 30000 with scale: key 101; 10000 = 47 x 208 + 224; max_rows 43712 / 74 =
    // 590; 30000 = 48 x 625; workspace + 30000 x 4.
    {"atlas-a2",  DType::kFloat32,
     10000,       64,
     30000,       true,
     "small dim", 101,
     4,           48,
     64,          1,
     0,           0,
     0,           0,
     208,         224,
     590,         1,
     208,         1,
     224,         625,
     0,           16897216},
    // bf16 [100000, 512] into 100000: 204800000 bytes, kept 2-byte; max_rows 82 / 2 = 41;
    // 2083 rows in 51 passes (the last 33), the last core 2099 in 52 (the last 8); workspace +
    // 100000 x 512 x 4.
    {"atlas-a2",  DType::kBFloat16,
     100000,      512,
     100000,      false,
     "small dim", 100,
     2,           48,
     512,         1,
     0,           0,
     0,           0,
     2083,        2099,
     41,          51,
     33,          52,
     8,           0,
     0,           221577216},
    // [3, 1000] into 2 with scale: block min(48, 2, 3) = 2; 3 = 1 x 2 + 1 x 1; 2 = 2 x 1;
    // workspace + 8 x 4.
    {"atlas-a2", DType::kFloat32,
     3,          1000,
     2,          true,
     "sorted",   1,
     4,          2,
     1000,       1,
     0,          1,
     2,          1,
     0,          0,
     0,          0,
     0,          0,
     0,          1,
     0,          16777248},
    // f16 [1, 70000] into 5: cast (one row); one core; 70000 = 4 x 14656 + 11376.
    {"atlas-a2", DType::kFloat16,
     1,          70000,
     5,          false,
     "sorted",   0,
     4,          1,
     14656,      4,
     11376,      0,
     2,          1,
     0,          0,
     0,          0,
     0,          0,
     0,          0,
     0,          16777216},
    // UT ascend950PR_9589_case's shape on A2: [10, 5] into 20: 10 cores of 1; 43771 / 18 = 2431.
    {"atlas-a2",  DType::kFloat32,
     10,          5,
     20,          false,
     "small dim", 100,
     4,           10,
     5,           1,
     0,           0,
     0,           0,
     1,           1,
     2431,        1,
     1,           1,
     1,           0,
     0,           16777216},
    // atlas-a2-40: 8192 = 32 x 205 + 8 x 204.
    {"atlas-a2-40",
     DType::kFloat32,
     8192,
     4096,
     128256,
     false,
     "sorted",
     0,
     4,
     40,
     4096,
     1,
     0,
     32,
     205,
     204,
     0,
     0,
     0,
     0,
     0,
     0,
     0,
     0,
     0,
     16777216},
};

class TilingGoldenScatter : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static Status Plan(DType dtype, std::vector<int64_t> shape, int64_t w, bool scale,
                     const std::string& platform, tiling::Plan* plan) {
    tiling::Problem problem{Op::kEmbeddingDenseBackward, dtype, std::move(shape), 0, 1};
    problem.weight_rows = w;
    problem.scale_grad_by_freq = scale;
    tiling::Options o;
    o.platform = platform;
    return tiling::MakePlan(problem, o, plan);
  }
};

TEST_F(TilingGoldenScatter, AtlasA2MatchesOpsNnRule) {
  for (const Golden& g : kGolden) {
    SCOPED_TRACE(std::string(g.platform) + " " + DTypeName(g.dtype) + " [" + std::to_string(g.n) +
                 ", " + std::to_string(g.d) + "] into " + std::to_string(g.w) +
                 (g.scale ? ", scale" : ""));
    tiling::Plan plan;
    const Status s = Plan(g.dtype, {g.n, g.d}, g.w, g.scale, g.platform, &plan);
    ASSERT_TRUE(s.ok()) << s.message();
    const tiling::ScatterTiling& t = plan.scatter;
    ASSERT_TRUE(t.planned);
    EXPECT_EQ(t.kernel, "EmbeddingDenseGradV2");
    EXPECT_EQ(t.mode, g.mode);
    EXPECT_EQ(t.tiling_key, g.key);
    EXPECT_EQ(t.grad_bytes, g.grad_bytes);
    EXPECT_EQ(t.block_dim, g.block_dim);
    EXPECT_EQ(t.dim_pass, g.dim_pass);
    EXPECT_EQ(t.dim_reps, g.dim_reps);
    EXPECT_EQ(t.dim_tail, g.dim_tail);
    EXPECT_EQ(t.former_cores, g.former_cores);
    EXPECT_EQ(t.former_rows, g.former_rows);
    EXPECT_EQ(t.tail_rows, g.tail_rows);
    EXPECT_EQ(t.copy_rows, g.copy_rows);
    EXPECT_EQ(t.last_core_rows, g.last_core_rows);
    EXPECT_EQ(t.max_rows_in_ub, g.max_rows);
    EXPECT_EQ(t.copy_passes, g.copy_passes);
    EXPECT_EQ(t.last_pass_rows, g.last_pass_rows);
    EXPECT_EQ(t.last_core_passes, g.last_core_passes);
    EXPECT_EQ(t.last_core_last_pass_rows, g.last_core_last_pass_rows);
    EXPECT_EQ(t.scale_rows, g.scale_rows);
    EXPECT_EQ(t.scale_former_cores, g.scale_former_cores);
    EXPECT_EQ(t.workspace_bytes, g.workspace);
    // The host's plan beside it covers out's [W, D] elements.
    EXPECT_EQ(plan.elementwise.n, g.w * g.d);
    const std::string json = plan.ToJson();
    EXPECT_NE(json.find("\"scatter\""), std::string::npos);
    EXPECT_NE(json.find("\"tiling_key\": " + std::to_string(g.key)), std::string::npos) << json;
    EXPECT_NE(plan.ToTable().find("EmbeddingDenseGradV2 (" + std::string(g.mode)),
              std::string::npos)
        << plan.ToTable();
  }
}

// The host plans out's elements and no A2 tiling; the table says what the shape is.
TEST_F(TilingGoldenScatter, HostPlansOutsElements) {
  tiling::Plan plan;
  ASSERT_TRUE(Plan(DType::kFloat32, {8192, 4096}, 1000, false, "host", &plan).ok());
  EXPECT_FALSE(plan.scatter.planned);
  EXPECT_EQ(plan.elementwise.n, 1000 * 4096);
  EXPECT_EQ(plan.weight_rows, 1000);
  EXPECT_NE(plan.ToTable().find("(grad's [rows, D]) into 1000 rows"), std::string::npos)
      << plan.ToTable();
}

// grad's [rows, D] of f32, f16 or bf16 into at least one row. A UB too small for a row pass
// fails ops-nn's tiling: the A2 tiling is not planned, and says why; the host's plan stands.
TEST_F(TilingGoldenScatter, RefusesWhatItCannotPlan) {
  tiling::Plan plan;
  EXPECT_EQ(Plan(DType::kFloat32, {4, 3, 2}, 10, false, "host", &plan).code(),
            StatusCode::kInvalid);
  EXPECT_EQ(Plan(DType::kFloat32, {4, 3}, 0, false, "host", &plan).code(), StatusCode::kInvalid);
  EXPECT_EQ(Plan(DType::kFloat64, {4, 3}, 10, false, "host", &plan).code(), StatusCode::kInvalid);
  EXPECT_EQ(Plan(DType::kInt32, {4, 3}, 10, false, "host", &plan).code(), StatusCode::kInvalid);
  tiling::Problem problem{Op::kEmbeddingDenseBackward, DType::kFloat32, {4, 3}, 0, 1};
  problem.weight_rows = 10;
  tiling::Options o;
  o.platform = "atlas-a2";
  o.ub_bytes = 16384;
  const Status s = tiling::MakePlan(problem, o, &plan);
  ASSERT_TRUE(s.ok()) << s.message();
  EXPECT_FALSE(plan.scatter.planned);
  EXPECT_NE(plan.scatter.why.find("16384 B holds no row pass"), std::string::npos)
      << plan.scatter.why;
  EXPECT_NE(plan.ToTable().find("EmbeddingDenseGradV2 not planned"), std::string::npos);
  EXPECT_NE(plan.ToJson().find("\"planned\": false"), std::string::npos);
}

}  // namespace
}  // namespace hostnn
