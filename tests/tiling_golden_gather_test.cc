// Golden plans of Embedding on Atlas A2 (48 cores, UB 196608 B): the tiling of ops-nn's
// GatherV2 for A2 (experimental/index/gather_v2/op_host/gather_v2_tiling.cpp), which
// Embedding's op_api runs along dim 0. Each value is derived by hand in a comment:
//   total = indices x inner; block_dim = min(total, 48); per_core = ceil(total / block_dim);
//   last_core = total - per_core * (block_dim - 1), or 0 when that is not positive;
//   tile_count = floor(floor((196608 - 8192) / (x + i)) / 32) * 32, x and i the bytes of
//   weight's and the indices' dtypes (188416 / (x + i)).
// "UT" marks a shape of ops-nn's own op_api unit tests. These tests pin the planner; they run
// no operator.

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace {

struct Golden {
  DType dtype, index_dtype;
  int64_t indices, inner;
  int64_t block_dim, per_core, last_core, tile_count;
};

const Golden kGolden[] = {
    // 8192 x 4096 = 33554432; per ceil(/48) = 699051; last 33554432 - 47 * 699051 = 699035;
    // tile 188416 / (4 + 8) = 15701 -> 15680.
    {DType::kFloat32, DType::kInt64, 8192, 4096, 48, 699051, 699035, 15680},
    // UT case_1: [4] indices of [10, 3]: 12 elements on 12 cores of 1; tile 188416 / 8 = 23552.
    {DType::kFloat32, DType::kInt32, 4, 3, 12, 1, 1, 23552},
    // UT high_performance case_33: [8192, 80] indices of [2268, 32]: 20971520; per 436907;
    // last 20971520 - 47 * 436907 = 436891.
    {DType::kFloat32, DType::kInt32, 655360, 32, 48, 436907, 436891, 23552},
    // 1000: per ceil(1000 / 48) = 21, last 1000 - 987 = 13; tile 188416 / 10 = 18841 -> 18816.
    {DType::kFloat16, DType::kInt64, 10, 100, 48, 21, 13, 18816},
    // 50: per 2, 47 * 2 = 94 > 50: last 0 (the first 25 cores hold every element).
    {DType::kBFloat16, DType::kInt64, 50, 1, 48, 2, 0, 18816},
    // one element: one core; tile 188416 / 16 = 11776.
    {DType::kFloat64, DType::kInt64, 1, 1, 1, 1, 1, 11776},
    // 16 x 128256 = 2052096 = 48 x 42752; tile 188416 / 24 = 7850 -> 7840.
    {DType::kComplex128, DType::kInt64, 16, 128256, 48, 42752, 42752, 7840},
    // 192: per 4, last 4; tile 188416 / 5 = 37683 -> 37664.
    {DType::kInt8, DType::kInt32, 64, 3, 48, 4, 4, 37664},
    // 485: per ceil(485 / 48) = 11, 47 * 11 = 517 > 485: last 0; tile 188416 / 9 = 20935
    // -> 20928.
    {DType::kBool, DType::kInt64, 97, 5, 48, 11, 0, 20928},
    // 768000 = 48 x 16000; tile 188416 / 12 = 15701 -> 15680.
    {DType::kComplex64, DType::kInt32, 1000, 768, 48, 16000, 16000, 15680},
    // 21: 21 cores of 1; tile 188416 / 6 = 31402 -> 31392.
    {DType::kFloat16, DType::kInt32, 3, 7, 21, 1, 1, 31392},
    // 47: 47 cores of 1; tile 15680.
    {DType::kFloat32, DType::kInt64, 47, 1, 47, 1, 1, 15680},
    // 8192 x 4096 bf16 with INT32 indices: per 699051, last 699035; tile 188416 / 6 -> 31392.
    {DType::kBFloat16, DType::kInt32, 8192, 4096, 48, 699051, 699035, 31392},
    // INT64 weight, 49 x 2 = 98: per ceil(98 / 48) = 3, 47 * 3 = 141 > 98: last 0; tile
    // 188416 / 16 = 11776.
    {DType::kInt64, DType::kInt64, 49, 2, 48, 3, 0, 11776},
};

class TilingGoldenGather : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static tiling::Plan MustPlan(DType dtype, DType index_dtype, std::vector<int64_t> shape,
                               const std::string& platform) {
    tiling::Problem problem{Op::kEmbedding, dtype, std::move(shape), 0, 1};
    problem.index_dtype = index_dtype;
    tiling::Options o;
    o.platform = platform;
    tiling::Plan plan;
    const Status s = tiling::MakePlan(problem, o, &plan);
    EXPECT_TRUE(s.ok()) << s.message();
    return plan;
  }
};

TEST_F(TilingGoldenGather, AtlasA2MatchesOpsNnRule) {
  for (const Golden& g : kGolden) {
    SCOPED_TRACE(std::string(DTypeName(g.dtype)) + " " + DTypeName(g.index_dtype) + " [" +
                 std::to_string(g.indices) + ", " + std::to_string(g.inner) + "]");
    const tiling::Plan plan = MustPlan(g.dtype, g.index_dtype, {g.indices, g.inner}, "atlas-a2");
    const tiling::GatherTiling& t = plan.gather;
    ASSERT_TRUE(t.planned);
    EXPECT_EQ(t.kernel, "GatherV2");
    EXPECT_EQ(t.total, g.indices * g.inner);
    EXPECT_EQ(t.block_dim, g.block_dim);
    EXPECT_EQ(t.per_core, g.per_core);
    EXPECT_EQ(t.last_core, g.last_core);
    EXPECT_EQ(t.tile_count, g.tile_count);
    // The plan names what it was made for, in JSON and the table.
    const std::string json = plan.ToJson();
    EXPECT_NE(json.find("\"gather\""), std::string::npos);
    EXPECT_NE(json.find("\"per_core\": " + std::to_string(g.per_core)), std::string::npos) << json;
    EXPECT_NE(plan.ToTable().find("GatherV2 along dim 0"), std::string::npos);
  }
}

// The host's plan is its own elementwise plan of out's elements; no A2 tiling beside it.
TEST_F(TilingGoldenGather, HostPlansOutsElements) {
  const tiling::Plan plan = MustPlan(DType::kFloat32, DType::kInt32, {8192, 4096}, "host");
  EXPECT_FALSE(plan.gather.planned);
  EXPECT_EQ(plan.kind, tiling::Plan::Kind::kElementwise);
  EXPECT_EQ(plan.elementwise.n, 8192 * 4096);
  EXPECT_EQ(plan.index_dtype, DType::kInt32);
  EXPECT_NE(plan.ToTable().find("i32 indices"), std::string::npos) << plan.ToTable();
}

// Embedding plans out as [indices, row length] with INT32 or INT64 indices only.
TEST_F(TilingGoldenGather, RefusesOtherShapesAndIndexDTypes) {
  tiling::Plan plan;
  tiling::Problem problem{Op::kEmbedding, DType::kFloat32, {4, 3, 2}, 0, 1};
  EXPECT_EQ(tiling::MakePlan(problem, tiling::Options(), &plan).code(), StatusCode::kInvalid);
  problem.shape = {4, 3};
  problem.index_dtype = DType::kFloat32;
  EXPECT_EQ(tiling::MakePlan(problem, tiling::Options(), &plan).code(), StatusCode::kInvalid);
}

}  // namespace
}  // namespace hostnn
