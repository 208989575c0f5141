// The command-line helpers hostnn-tiling and hostnn-scale share (bench/cli_util.h: the one
// shape syntax, help-text wrapping) and the tools' random cases (every operator of the
// operator list). Runs no operator and starts no tool.

#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>
#include <vector>

#include "bench/cli_util.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tools/tiling/random_case.h"

namespace hostnn {
namespace {

TEST(TilingTools, OneShapeSyntax) {
  struct Case {
    const char* text;
    std::vector<int64_t> shape;
  };
  for (const Case& c :
       {Case{"4194304", {4194304}}, Case{"1024,4096", {1024, 4096}},
        Case{"1024x4096", {1024, 4096}}, Case{"[1024, 4096]", {1024, 4096}},
        Case{"4Kx1K", {4096, 1024}}, Case{"2M", {2097152}}, Case{"3X5x7", {3, 5, 7}},
        Case{"8,0", {8, 0}}, Case{"scalar", {}}, Case{"[]", {}}}) {
    std::vector<int64_t> shape = {99};
    ASSERT_TRUE(bench::ParseShape(c.text, &shape)) << c.text;
    EXPECT_EQ(shape, c.shape) << c.text;
  }
  for (const char* bad : {"", "abc", "4,", "x4", "4,,5", "-3", "1.5", "4G", "4K5"}) {
    std::vector<int64_t> shape;
    EXPECT_FALSE(bench::ParseShape(bad, &shape)) << bad;
  }
}

TEST(TilingTools, HelpListsWrap) {
  EXPECT_EQ(bench::WrapList("aaaa, bbbb, cccc", 4, 14), "aaaa,\n    bbbb, cccc");
  EXPECT_EQ(bench::WrapList("aaaa, bbbb, cccc", 4, 13), "aaaa,\n    bbbb,\n    cccc");
  EXPECT_EQ(bench::WrapList("aaaa, bbbb, cccc", 0, 80), "aaaa, bbbb, cccc");
  // Every operator of the list appears once.
  const std::string ops = bench::WrapList(OpNames(), 25);
  for (const Op op : AllOps()) EXPECT_NE(ops.find(GetOpInfo(op).snake_name), std::string::npos);
}

// The sweep draws every operator of the operator list and every built-in profile.
TEST(TilingTools, RandomCasesCoverTheOperatorList) {
  std::mt19937_64 rng(5);
  std::set<int> ops;
  std::set<std::string> platforms;
  for (int i = 0; i < 2000; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng, 1 << 16);
    ops.insert(static_cast<int>(c.problem.op));
    if (!c.custom) platforms.insert(c.options.platform);
    if (GetOpInfo(c.problem.op).is_reduction && !GetOpInfo(c.problem.op).is_forward)
      EXPECT_NE(c.problem.dtype, DType::kFloat64);
  }
  EXPECT_EQ(ops.size(), static_cast<size_t>(kNumOps));
  EXPECT_EQ(platforms.size(), tiling::PlatformNames().size());
}

}  // namespace
}  // namespace hostnn
