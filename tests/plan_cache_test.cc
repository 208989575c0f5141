// The plan cache behind phase 1 (tiling::MakeSharedPlan): a hit returns exactly what
// MakePlan makes; the options, every HOSTNN_ variable and the problem's team size are part
// of the key; files bypass it so that edits take effect; errors are never kept; old plans are
// dropped past kPlanCacheSize; concurrent callers agree.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace {

class PlanCache : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  void TearDown() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static constexpr int64_t kTeam = 4;  // the host profile's cores, as a caller passes them
  static tiling::Problem Silu(int64_t n) {
    return {Op::kSiluBackward, DType::kFloat32, {n}, 0, kTeam};
  }
  static tiling::Problem LogSoftmax(DType dtype, std::vector<int64_t> shape, int64_t dim) {
    return {Op::kLogSoftmaxBackward, dtype, std::move(shape), dim, kTeam};
  }
  static std::shared_ptr<const tiling::Plan> Shared(const tiling::Problem& p,
                                                    const tiling::Options& o = {}) {
    std::shared_ptr<const tiling::Plan> plan;
    const Status s = tiling::MakeSharedPlan(p, o, &plan);
    EXPECT_TRUE(s.ok()) << s.message();
    return plan;
  }
  static std::string Fresh(const tiling::Problem& p, const tiling::Options& o = {}) {
    tiling::Plan plan;
    const Status s = tiling::MakePlan(p, o, &plan);
    EXPECT_TRUE(s.ok()) << s.message();
    return plan.ToJson();
  }
};

TEST_F(PlanCache, HitIsTheSamePlanAsMakePlan) {
  const tiling::Problem problems[] = {Silu(4194304), Silu(1000),
                                      LogSoftmax(DType::kFloat16, {64, 3, 100}, 1),
                                      LogSoftmax(DType::kFloat32, {1024, 4096}, 0)};
  for (const tiling::Problem& p : problems) {
    const auto first = Shared(p);
    const auto second = Shared(p);
    ASSERT_TRUE(first && second);
    EXPECT_EQ(first.get(), second.get()) << "a repeated problem is planned again";
    EXPECT_EQ(first->ToJson(), Fresh(p));
  }
}

TEST_F(PlanCache, EveryPartOfTheProblemIsInTheKey) {
  const auto base = Shared(LogSoftmax(DType::kFloat32, {64, 3000}, 1));
  const tiling::Problem others[] = {
      LogSoftmax(DType::kFloat32, {64, 3000}, 0), LogSoftmax(DType::kFloat32, {64, 3000}, -2),
      LogSoftmax(DType::kFloat16, {64, 3000}, 1), LogSoftmax(DType::kFloat32, {3000, 64}, 1),
      LogSoftmax(DType::kFloat32, {64, 3000, 1}, 1)};
  for (const tiling::Problem& p : others) {
    const auto plan = Shared(p);
    ASSERT_TRUE(plan);
    EXPECT_NE(plan.get(), base.get());
    EXPECT_EQ(plan->ToJson(), Fresh(p));
  }
}

TEST_F(PlanCache, OptionsEnvironmentAndTeamSizeAreInTheKey) {
  const tiling::Problem p = Silu(4194304);
  const auto base = Shared(p);
  tiling::Options o;
  o.num_cores = 1;
  const auto one_core = Shared(p, o);
  EXPECT_EQ(one_core->elementwise.block_dim, 1);
  EXPECT_EQ(Shared(p)->ToJson(), base->ToJson());

  setenv("HOSTNN_UB_BYTES", "65536", 1);
  const auto small_ub = Shared(p);
  EXPECT_EQ(small_ub->platform.ub_bytes, 65536);
  EXPECT_EQ(small_ub->ToJson(), Fresh(p));
  setenv("HOSTNN_UB_BYTES", "131072", 1);  // the same variable, a new value
  EXPECT_EQ(Shared(p)->platform.ub_bytes, 131072);
  unsetenv("HOSTNN_UB_BYTES");
  EXPECT_EQ(Shared(p).get(), base.get());

  setenv("HOSTNN_PLATFORM", "atlas-a2", 1);
  EXPECT_EQ(Shared(p)->platform.name, "atlas-a2");
  unsetenv("HOSTNN_PLATFORM");

  tiling::Problem wider_team = p;
  wider_team.team = kTeam + 3;
  const auto wider = Shared(wider_team);
  EXPECT_EQ(wider->platform.cores, kTeam + 3);
  EXPECT_NE(wider.get(), base.get());
  EXPECT_EQ(wider->ToJson(), Fresh(wider_team));
}

TEST_F(PlanCache, ErrorsAreNeverKept) {
  const tiling::Problem p = Silu(4096);
  setenv("HOSTNN_BUFFER_NUM", "3", 1);
  std::shared_ptr<const tiling::Plan> plan;
  for (int i = 0; i < 2; ++i) {
    const Status s = tiling::MakeSharedPlan(p, {}, &plan);
    EXPECT_EQ(s.code(), StatusCode::kInvalid);
    EXPECT_NE(s.message().find("HOSTNN_BUFFER_NUM=3"), std::string::npos) << s.message();
    EXPECT_EQ(plan, nullptr) << "an error must leave the output alone";
  }
  unsetenv("HOSTNN_BUFFER_NUM");
  EXPECT_TRUE(tiling::MakeSharedPlan(p, {}, &plan).ok());
  ASSERT_NE(plan, nullptr);
  tiling::Options bad;
  bad.ub_bytes = 5;
  EXPECT_EQ(tiling::MakeSharedPlan(p, bad, &plan).code(), StatusCode::kInvalid);
  EXPECT_EQ(plan->ToJson(), Fresh(p)) << "a failed call replaced the caller's plan";
}

TEST_F(PlanCache, AnEditedTuningFileTakesEffectAtOnce) {
  char tmpl[] = "/tmp/hostnn_plan_cache_XXXXXX";
  ASSERT_NE(mkdtemp(tmpl), nullptr);
  const std::string path = std::string(tmpl) + "/tuning.json";
  auto write = [&](int cores, const char* pad) {
    std::ofstream(path) << R"({"hostnn_tuning": 1, "entries": [{"op": "*", "dtype": "*", )"
                        << R"("size_class": "*", "num_cores": )" << cores << "}]}" << pad;
  };
  const tiling::Problem p = Silu(4194304);
  tiling::Options o;
  o.tuning_file = path;
  o.min_elems_per_core = 1;
  write(1, "");
  EXPECT_EQ(Shared(p, o)->platform.cores, 1);
  write(3, "\n");  // a different size, so the file's stamp changes even within one tick
  EXPECT_EQ(Shared(p, o)->platform.cores, 3);
  setenv("HOSTNN_TUNING_FILE", path.c_str(), 1);
  o.tuning_file.clear();
  write(2, "\n\n");
  EXPECT_EQ(Shared(p, o)->platform.cores, 2);
  std::remove(path.c_str());
  rmdir(tmpl);
}

TEST_F(PlanCache, TheLeastRecentlyUsedPlanIsDropped) {
  std::weak_ptr<const tiling::Plan> oldest = Shared(Silu(5));
  std::weak_ptr<const tiling::Plan> kept = Shared(Silu(6));
  for (int i = 0; i < tiling::kPlanCacheSize - 1; ++i) {
    Shared(Silu(6));  // keeps Silu(6) the most recently used
    Shared(Silu(1000 + i));
  }
  EXPECT_TRUE(oldest.expired()) << "the cache holds more than kPlanCacheSize plans";
  EXPECT_FALSE(kept.expired()) << "a recently used plan was dropped";
}

TEST_F(PlanCache, ConcurrentCallersStressGetEqualPlans) {
  std::vector<std::thread> threads;
  std::vector<std::string> wrong(8);
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([t, &wrong] {
      for (int i = 0; i < 400; ++i) {
        const tiling::Problem p = Silu(1 + (i * 7 + t) % 97 * 4099);
        std::shared_ptr<const tiling::Plan> plan;
        if (!tiling::MakeSharedPlan(p, {}, &plan).ok() || plan->elementwise.n != p.shape[0]) {
          wrong[t] = "problem " + std::to_string(p.shape[0]);
          return;
        }
      }
    });
  }
  for (std::thread& th : threads) th.join();
  for (const std::string& w : wrong) EXPECT_EQ(w, "");
}

}  // namespace
}  // namespace hostnn
