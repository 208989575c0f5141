// The command-line helpers hostnn-tiling and hostnn-scale share (bench/cli_util.h: the one
// shape syntax, help-text wrapping, the edge behind each main) and the tools' random cases
// (every operator of the operator list). Runs no operator and starts no tool (the tools
// themselves, given hostile files: tests/scripts/tool_files.sh).

#include <gtest/gtest.h>

#include <new>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cli_util.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tools/tiling/ops_table.h"
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

// What a tool's code throws is a message and exit 1, not an abort.
TEST(TilingTools, MainsExitOneOnAnException) {
  int (*const throws_bad_alloc)(int, char**) = [](int, char**) -> int { throw std::bad_alloc(); };
  int (*const throws_error)(int, char**) = [](int, char**) -> int {
    throw std::runtime_error("no such thing");
  };
  int (*const returns)(int, char**) = [](int argc, char**) { return argc; };
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(bench::GuardedMain("tool", throws_bad_alloc, 0, nullptr), 1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "tool: out of memory (std::bad_alloc)\n");
  ::testing::internal::CaptureStderr();
  EXPECT_EQ(bench::GuardedMain("tool", throws_error, 0, nullptr), 1);
  EXPECT_EQ(::testing::internal::GetCapturedStderr(), "tool: internal error: no such thing\n");
  EXPECT_EQ(bench::GuardedMain("tool", returns, 3, nullptr), 3);
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

// hostnn-tiling ops: one line per operator of the list, naming its entry point and every
// parameter of its phase 1 (tensors and scalars), then the two written over the list.
TEST(OpsTable, ListsEveryOperatorWithItsParameters) {
  const std::string table = hostnn::tiling_tool::OpsTable();
  for (hostnn::Op op : hostnn::AllOps()) {
    const hostnn::OpInfo& info = hostnn::GetOpInfo(op);
    const std::string head = std::string(info.snake_name) + " ";
    const size_t at = table.rfind("\n" + head) != std::string::npos ? table.rfind("\n" + head) + 1
                      : table.compare(0, head.size(), head) == 0 ? 0
                                                                  : std::string::npos;
    ASSERT_NE(at, std::string::npos) << info.snake_name;
    const std::string line = table.substr(at, table.find('\n', at) - at);
    EXPECT_NE(line.find(std::string("aclnn") + info.name + "("), std::string::npos) << line;
    // The signature and the dtype rule, in brackets after the parameters.
    static const char* const kRules[] = {
#define HOSTNN_OP(Name, snake, sig, kind, ins, outs, dtypes, ...) #dtypes,
#include "hostnn/op_list.def"
#undef HOSTNN_OP
    };
    const std::string rule = kRules[static_cast<int>(op)];
    EXPECT_NE(line.find(", " + rule + "]"), std::string::npos) << line;
    for (int k = 0; k < info.num_in(); ++k) {
      EXPECT_NE(line.find(info.in_names[k]), std::string::npos) << line;
    }
    for (int k = 0; k < info.num_out(); ++k) {
      EXPECT_NE(line.find(info.out_names[k]), std::string::npos) << line;
    }
    for (int k = 0; k < info.num_scalars(); ++k) {
      EXPECT_NE(line.find(info.scalars[k].name), std::string::npos) << line;
    }
  }
  EXPECT_NE(table.find("aclnnGeluV2("), std::string::npos);
  EXPECT_NE(table.find("aclnnGeluBackwardV2("), std::string::npos);
}
