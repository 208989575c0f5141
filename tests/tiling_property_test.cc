// Property tests of the planners: thousands of random (shape, dtype, dim, platform, options)
// problems all plan and pass Plan::Check; on small ones every element's owners are counted
// by brute force; plans are pure; and a broken plan is always caught by Check.

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tools/tiling/random_case.h"

namespace hostnn {
namespace {

class TilingProperty : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
};

// Counts, for every element, the (core, tile[, R chunk]) pairs the plan gives it.
std::vector<int> CountOwners(const tiling::Plan& plan) {
  if (plan.kind == tiling::Plan::Kind::kElementwise) {
    const tiling::ElementwisePlan& p = plan.elementwise;
    std::vector<int> owners(static_cast<size_t>(p.n), 0);
    for (int64_t c = 0; c < p.block_dim; ++c) {
      for (int64_t t = 0; t < p.CoreTiles(c); ++t) {
        for (int64_t i = 0; i < p.TileLen(c, t); ++i) ++owners[p.TileBegin(c, t) + i];
      }
    }
    return owners;
  }
  const tiling::ReductionPlan& p = plan.reduction;
  std::vector<int> owners(static_cast<size_t>(p.a1 * p.r * p.a0), 0);
  for (int64_t c = 0; c < p.block_dim; ++c) {
    const int64_t end = p.CoreBegin(c) + p.CoreLen(c);
    for (int64_t t = 0; t < p.CoreTiles(c); ++t) {
      const int64_t first = p.CoreBegin(c) + t * p.units_per_tile;
      for (int64_t u = first; u < std::min(end, first + p.units_per_tile); ++u) {
        const tiling::ReductionPlan::Unit unit = p.GetUnit(u);
        for (int64_t a1 = unit.a1_begin; a1 < unit.a1_begin + unit.a1_len; ++a1) {
          for (int64_t k = 0; k < p.RChunks(); ++k) {
            for (int64_t r = k * p.r_chunk; r < std::min(p.r, (k + 1) * p.r_chunk); ++r) {
              for (int64_t a0 = unit.a0_begin; a0 < unit.a0_begin + unit.a0_len; ++a0) {
                ++owners[(a1 * p.r + r) * p.a0 + a0];
              }
            }
          }
        }
      }
    }
  }
  return owners;
}

// At least 10,000 random plans, every one of them proven by Check.
TEST_F(TilingProperty, SixteenThousandRandomPlansPassCheck) {
  std::mt19937_64 rng(20240611);
  int64_t elementwise = 0, templates[4] = {0, 0, 0, 0};
  constexpr int kCases = 16000;  // enough for every template, the norms always AR
  for (int i = 0; i < kCases; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng);
    tiling::Plan plan;
    const Status s = tiling_sweep::PlanCase(c, &plan);
    ASSERT_TRUE(s.ok()) << c.Describe() << ": " << s.message();
    const std::vector<tiling::UbBuffer>& ub =
        plan.kind == tiling::Plan::Kind::kElementwise ? plan.elementwise.ub : plan.reduction.ub;
    ASSERT_LE(tiling::UbTotal(ub), plan.platform.ub_bytes) << c.Describe();
    if (plan.kind == tiling::Plan::Kind::kElementwise) {
      ++elementwise;
    } else {
      ++templates[static_cast<int>(plan.reduction.tmpl)];
    }
  }
  std::printf(
      "%d random plans checked: %lld elementwise, %lld ar_full_load, %lld ar_recompute, "
      "%lld ara_full_load, %lld ara_recompute\n",
      kCases, static_cast<long long>(elementwise), static_cast<long long>(templates[0]),
      static_cast<long long>(templates[1]), static_cast<long long>(templates[2]),
      static_cast<long long>(templates[3]));
  // The sweep reaches every template.
  EXPECT_GT(elementwise, kCases / 2);
  for (int t = 0; t < 4; ++t) EXPECT_GT(templates[t], 100) << t;
}

// Brute force on small problems: every element has exactly one owner.
TEST_F(TilingProperty, EveryElementOwnedExactlyOnce) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 3000; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng, 1 << 14);
    tiling::Plan plan;
    const Status s = tiling_sweep::PlanCase(c, &plan);
    ASSERT_TRUE(s.ok()) << c.Describe() << ": " << s.message();
    const std::vector<int> owners = CountOwners(plan);
    // A gated unit's plan owns each element of one half of self; EmbeddingDenseBackward's
    // those of out's [weight_rows, D]; NLLLoss's its positions (self's [positions, classes]).
    const OpInfo& info = GetOpInfo(c.problem.op);
    const int64_t halves = info.is_split ? 2 : 1;
    const int64_t numel = c.problem.weight_rows > 0 ? c.problem.weight_rows * c.problem.shape[1]
                          : info.kind == Kind::kClassLoss && info.is_forward
                              ? c.problem.shape[0]
                              : tiling::NumElements(c.problem.shape);
    ASSERT_EQ(static_cast<int64_t>(owners.size()) * halves, numel);
    for (size_t e = 0; e < owners.size(); ++e) {
      ASSERT_EQ(owners[e], 1) << c.Describe() << ": element " << e;
    }
  }
}

// A plan is a pure function of its inputs: planning twice gives the same plan.
TEST_F(TilingProperty, PlansArePure) {
  std::mt19937_64 rng(99);
  for (int i = 0; i < 500; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng);
    tiling::Plan a, b;
    ASSERT_TRUE(tiling_sweep::PlanCase(c, &a).ok());
    ASSERT_TRUE(tiling_sweep::PlanCase(c, &b).ok());
    ASSERT_EQ(a.ToJson(), b.ToJson()) << c.Describe();
  }
}

// Check catches every kind of broken plan.
TEST_F(TilingProperty, CheckCatchesBrokenPlans) {
  std::mt19937_64 rng(3);
  int elementwise = 0, reduction = 0;
  for (int i = 0; i < 2000; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng, 1 << 20);
    tiling::Plan plan;
    ASSERT_TRUE(tiling_sweep::PlanCase(c, &plan).ok());
    std::vector<tiling::Plan> broken;
    if (plan.kind == tiling::Plan::Kind::kElementwise) {
      ++elementwise;
      tiling::Plan b = plan;
      b.elementwise.blocks_per_core -= 1;  // blocks no longer all dealt
      broken.push_back(b);
      b = plan;
      b.elementwise.tile_len += 1;  // off the block
      broken.push_back(b);
      b = plan;
      b.elementwise.ub.push_back({"extra", plan.platform.ub_bytes, 1});  // over the UB
      broken.push_back(b);
      b = plan;
      b.elementwise.block_dim = plan.platform.cores + 1;
      broken.push_back(b);
    } else {
      ++reduction;
      const tiling::ReductionPlan& p = plan.reduction;
      tiling::Plan b = plan;
      b.reduction.units_per_core += 1;  // block_dim no longer matches
      if (b.reduction.block_dim != (p.units + p.units_per_core) / (p.units_per_core + 1)) {
        broken.push_back(b);
      }
      b = plan;
      b.reduction.units += 1;  // a unit nobody maps to the tensor
      broken.push_back(b);
      b = plan;
      b.reduction.ub.push_back({"extra", plan.platform.ub_bytes, 1});
      broken.push_back(b);
      if (p.r > 1 && (p.tmpl == tiling::ReductionTemplate::kArFullLoad ||
                      p.tmpl == tiling::ReductionTemplate::kAraFullLoad)) {
        b = plan;
        b.reduction.r_chunk = p.r - 1;  // full-load must take all of R
        broken.push_back(b);
      }
      if (p.a0_align > 1) {
        b = plan;
        b.reduction.a0_tile += 1;  // off the A0 base
        broken.push_back(b);
      }
      for (const tiling::TemplateTrial& t : p.trials) {
        if (t.capable && t.tmpl != p.tmpl) {
          b = plan;
          b.reduction.tmpl = t.tmpl;  // not the first capable template
          broken.push_back(b);
          break;
        }
      }
    }
    for (const tiling::Plan& b : broken) {
      const Status s = b.Check();
      ASSERT_FALSE(s.ok()) << c.Describe();
      ASSERT_EQ(s.code(), StatusCode::kInner);
      ASSERT_NE(s.message().find("plan check failed"), std::string::npos);
    }
  }
  EXPECT_GT(elementwise, 0);
  EXPECT_GT(reduction, 0);
}

// The AR templates keep the row partials' alignment whatever the platform: chunks of a
// row start at multiples of 16 elements, and of 64 (the f32 blocks of their row sums) for
// the softmax reductions, so sums do not depend on the plan.
TEST_F(TilingProperty, RowChunksKeepThePartialsAlignment) {
  std::mt19937_64 rng(11);
  int chunked = 0, blocked = 0;
  for (int i = 0; i < 20000; ++i) {
    tiling_sweep::Case c = tiling_sweep::RandomCase(rng);
    if (!GetOpInfo(c.problem.op).is_reduction) continue;
    tiling::Plan plan;
    const Status s = tiling_sweep::PlanCase(c, &plan);
    ASSERT_TRUE(s.ok()) << c.Describe() << ": " << s.message();
    const tiling::ReductionPlan& p = plan.reduction;
    if (p.a0 == 1 && p.r_chunk < p.r) {
      ++chunked;
      ASSERT_EQ(p.r_chunk % 16, 0) << c.Describe();
      const Op op = c.problem.op;
      if (op == Op::kSoftmax || op == Op::kLogSoftmax || op == Op::kSoftmaxBackward ||
          op == Op::kLogSoftmaxBackward) {
        ASSERT_EQ(p.r_chunk % 64, 0) << c.Describe();
        ++blocked;
      }
    }
  }
  EXPECT_GT(chunked, 50);
  EXPECT_GT(blocked, 0);
}

}  // namespace
}  // namespace hostnn
