// Golden plans: the Atlas A2 SiluGrad rule and Ascend 950's LogSoftmaxGrad templates on
// fixed problems, each value derived by hand in a comment. These tests pin the planners;
// they run no operator.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <string>

#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tools/tiling/ub_table.h"

namespace hostnn {
namespace {

class TilingGolden : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }

  static tiling::Plan MustPlan(Op op, DType dtype, std::vector<int64_t> shape, int64_t dim,
                               tiling::Options options) {
    tiling::Plan plan;
    const Status s = tiling::MakePlan({op, dtype, std::move(shape), dim}, options, &plan);
    EXPECT_TRUE(s.ok()) << s.message();
    return plan;
  }
  static tiling::Options On(const std::string& platform) {
    tiling::Options o;
    o.platform = platform;
    return o;
  }
};

// f32, n = 4194304 on Atlas A2 (48 cores, UB 196608, 32-byte blocks):
//   blocks = 4194304 * 4 / 32 = 524288; cores = max(1, min(48, ceil(4194304 / 1024) = 4096,
//   524288)) = 48; q = 524288 / 48 = 10922, 524288 - 48 * 10922 = 32 big cores:
//   32 cores of 10923 blocks = 87384 elements, 16 of 10922 = 87376.
//   N = 5 single (3 queues + 2 temps), 8 double (+3 queues). single tile =
//   floor(196608 / 32 / 5) * 32 / 4 = 1228 * 8 = 9824; a small core's 87376 > 2 * 9824, so
//   double-buffered: tile = floor(196608 / 32 / 8) * 32 / 4 = 768 * 8 = 6144.
TEST_F(TilingGolden, AtlasA2SiluF32FourMegaElements) {
  const tiling::Plan plan =
      MustPlan(Op::kSiluBackward, DType::kFloat32, {4194304}, 0, On("atlas-a2"));
  const tiling::ElementwisePlan& p = plan.elementwise;
  EXPECT_EQ(p.blocks, 524288);
  EXPECT_EQ(p.block_dim, 48);
  EXPECT_EQ(p.big_cores, 32);
  EXPECT_EQ(p.blocks_per_core, 10922);
  for (int64_t c = 0; c < 48; ++c) EXPECT_EQ(p.CoreLen(c), c < 32 ? 87384 : 87376) << c;
  EXPECT_EQ(p.tile_len, 6144);
  EXPECT_EQ(p.buffer_num, 2);
  EXPECT_EQ(p.ub_divisor, 8);
  EXPECT_EQ(p.CoreTiles(0), 15);  // 14 * 6144 = 86016, then a tail of 1368
  EXPECT_EQ(p.TileLen(0, 14), 1368);
  EXPECT_TRUE(plan.Check().ok());
}

// f32, n = 1000: ceil(1000 / 1024) = 1 core; 125 blocks; single-buffered (1000 <= 2 * 9824),
// tile 9824, so one tile of 1000.
TEST_F(TilingGolden, AtlasA2SiluF32Thousand) {
  const tiling::Plan plan = MustPlan(Op::kSiluBackward, DType::kFloat32, {1000}, 0, On("atlas-a2"));
  const tiling::ElementwisePlan& p = plan.elementwise;
  EXPECT_EQ(p.block_dim, 1);
  EXPECT_EQ(p.blocks, 125);
  EXPECT_EQ(p.CoreLen(0), 1000);
  EXPECT_EQ(p.buffer_num, 1);
  EXPECT_EQ(p.tile_len, 9824);
  EXPECT_EQ(p.CoreTiles(0), 1);
}

// f16 (and bf16), n = 100000 on Atlas A2:
//   block = 32 B = 16 elements; blocks = ceil(100000 * 2 / 32) = 6250;
//   cores = max(1, min(48, ceil(100000 / 1024) = 98, 6250)) = 48;
//   q = 6250 / 48 = 130, 6250 - 48 * 130 = 10: 10 cores of 131 blocks = 2096 elements,
//   38 cores of 130 blocks = 2080 elements (10 * 2096 + 38 * 2080 = 100000, no clipping).
//   N single = 3 queues + 3 f32 casts * 2 + 2 f32 temps * 2 = 13 (double: 16);
//   single tile = floor(196608 / 32 / 13) * 32 / 2 = 472 * 16 = 7552;
//   a small core's 2080 <= 2 * 7552, so single-buffered, tile 7552: one tile a core.
TEST_F(TilingGolden, AtlasA2SiluF16HundredThousand) {
  for (const DType dtype : {DType::kFloat16, DType::kBFloat16}) {
    const tiling::Plan plan = MustPlan(Op::kSiluBackward, dtype, {100000}, 0, On("atlas-a2"));
    const tiling::ElementwisePlan& p = plan.elementwise;
    EXPECT_EQ(p.block_elems, 16) << DTypeName(dtype);
    EXPECT_EQ(p.blocks, 6250) << DTypeName(dtype);
    EXPECT_EQ(p.block_dim, 48) << DTypeName(dtype);
    EXPECT_EQ(p.blocks_per_core, 130) << DTypeName(dtype);
    EXPECT_EQ(p.big_cores, 10) << DTypeName(dtype);
    for (int64_t c = 0; c < 48; ++c) EXPECT_EQ(p.CoreLen(c), c < 10 ? 2096 : 2080) << c;
    EXPECT_EQ(p.ub_divisor, 13) << DTypeName(dtype);
    EXPECT_EQ(p.buffer_num, 1) << DTypeName(dtype);
    EXPECT_EQ(p.tile_len, 7552) << DTypeName(dtype);
    EXPECT_EQ(p.CoreTiles(0), 1) << DTypeName(dtype);
  }
}

// The same rule on the other Ascend profiles.
//   atlas-a2-40: q = 524288 / 40 = 13107, 524288 - 40 * 13107 = 8: 8 cores of 13108 blocks
//   (104864 elements), 32 of 13107 (104856); tile 6144 as on atlas-a2.
//   ascend950 (64 cores, UB 253952): q = 8192, no big cores: 65536 elements a core;
//   single tile = floor(7936 / 5) * 8 = 12696, 65536 > 2 * 12696: double,
//   tile = floor(7936 / 8) * 8 = 7936.
TEST_F(TilingGolden, OtherAscendProfiles) {
  const tiling::Plan a2_40 =
      MustPlan(Op::kSiluBackward, DType::kFloat32, {4194304}, 0, On("atlas-a2-40"));
  EXPECT_EQ(a2_40.elementwise.block_dim, 40);
  EXPECT_EQ(a2_40.elementwise.big_cores, 8);
  EXPECT_EQ(a2_40.elementwise.CoreLen(0), 104864);
  EXPECT_EQ(a2_40.elementwise.CoreLen(39), 104856);
  EXPECT_EQ(a2_40.elementwise.tile_len, 6144);
  const tiling::Plan a950 =
      MustPlan(Op::kSiluBackward, DType::kFloat32, {4194304}, 0, On("ascend950"));
  EXPECT_EQ(a950.elementwise.block_dim, 64);
  EXPECT_EQ(a950.elementwise.big_cores, 0);
  EXPECT_EQ(a950.elementwise.CoreLen(63), 65536);
  EXPECT_EQ(a950.elementwise.buffer_num, 2);
  EXPECT_EQ(a950.elementwise.tile_len, 7936);
}

// Host blocks are 64-byte cache lines. With 4 cores and a 512 KiB UB, f32 n = 4194304:
// 16 elements a block, 262144 blocks, cores = min(4, ceil(4194304 / 4096) = 1024) = 4 (the
// host's minimum per core is 65536 / SiluBackward's Work of 16),
// 65536 blocks = 1048576 elements a core; tile = floor(524288 / 64 / 8) * 64 / 4 = 16384.
TEST_F(TilingGolden, HostWithFixedCoresAndUb) {
  tiling::Options o = On("host");
  o.num_cores = 4;
  o.ub_bytes = 524288;
  const tiling::Plan plan = MustPlan(Op::kSiluBackward, DType::kFloat32, {4194304}, 0, o);
  EXPECT_EQ(plan.elementwise.block_elems, 16);
  EXPECT_EQ(plan.elementwise.block_dim, 4);
  EXPECT_EQ(plan.elementwise.CoreLen(3), 1048576);
  EXPECT_EQ(plan.elementwise.buffer_num, 2);
  EXPECT_EQ(plan.elementwise.tile_len, 16384);
  EXPECT_EQ(plan.min_elems_per_core, 4096);
}

// Each operator's divisors, from the buffers of one tile:
//   silu_backward, logsigmoid_backward: 3 queues, 2 f32 temps: f32 5 / 8; 16-bit
//   3 + 3 * 2 + 2 * 2 = 13 / 16. hardsigmoid_backward: 3 queues, 1 f32 temp: f32 4 / 7;
//   16-bit 3 + 6 + 2 = 11 / 14.
TEST_F(TilingGolden, UbDivisorTables) {
  struct Row {
    Op op;
    int64_t f32_single, f32_double, f16_single, f16_double;
  };
  for (const Row& row :
       {Row{Op::kSiluBackward, 5, 8, 13, 16}, Row{Op::kLogSigmoidBackward, 5, 8, 13, 16},
        Row{Op::kHardsigmoidBackward, 4, 7, 11, 14}}) {
    const tiling::EltwiseUbSpec* spec = tiling::FindEltwiseUbSpec(row.op);
    const char* name = GetOpInfo(row.op).snake_name;
    ASSERT_NE(spec, nullptr) << name;
    const tiling::UbDivisor f32 = tiling::MakeUbDivisor(*spec, 4);
    const tiling::UbDivisor f16 = tiling::MakeUbDivisor(*spec, 2);
    EXPECT_EQ(f32.single_buffered, row.f32_single) << name;
    EXPECT_EQ(f32.double_buffered, row.f32_double) << name;
    EXPECT_EQ(f16.single_buffered, row.f16_single) << name;
    EXPECT_EQ(f16.double_buffered, row.f16_double) << name;
  }
  EXPECT_EQ(tiling::MakeUbDivisor(*tiling::FindEltwiseUbSpec(Op::kSiluBackward), 2).single_why,
            "3 queues + 3 f32 casts x 2 + 2 f32 temps x 2 = 13");
  EXPECT_EQ(tiling::FindEltwiseUbSpec(Op::kLogSoftmaxBackward), nullptr);
}

// The UB specs are the operator list's: queues for the operands in slots in0, in1 and out
// (never in2, LogSigmoidBackward's unread buffer), f32 temps from UbTemps.
// PreluBackward's units: [8, 64, 1024] is 512 rows (n, c) of 1024, 8 whole rows per
// 8192-element unit: 64 units, 48 cores on Atlas A2 (min of the elementwise plan's 48 and
// 64); [2, 3, 20000] is 6 rows of 3 segments (8192, 8192, 3616): 18 units.
TEST_F(TilingGolden, PreluBackwardChannelSums) {
  const tiling::Plan a = MustPlan(Op::kPreluBackward, DType::kFloat32, {8, 64, 1024}, 0,
                                  On("atlas-a2"));
  EXPECT_EQ(a.channel_sums.rows, 512);
  EXPECT_EQ(a.channel_sums.channels, 64);
  EXPECT_EQ(a.channel_sums.rows_per_unit, 8);
  EXPECT_EQ(a.channel_sums.units, 64);
  EXPECT_EQ(a.channel_sums.block_dim, std::min<int64_t>(a.elementwise.block_dim, 64));
  const tiling::Plan b = MustPlan(Op::kPreluBackward, DType::kFloat32, {2, 3, 20000}, 0, {});
  EXPECT_EQ(b.channel_sums.segs_per_row, 3);
  EXPECT_EQ(b.channel_sums.units, 18);
  int64_t row = 0, offset = 0, len = 0;
  b.channel_sums.Unit(5, &row, &offset, &len);  // row 1's last segment
  EXPECT_EQ(row, 1);
  EXPECT_EQ(offset, 16384);
  EXPECT_EQ(len, 3616);
  // Only PreluBackward has them.
  EXPECT_EQ(MustPlan(Op::kPrelu, DType::kFloat32, {8, 64, 1024}, 0, {}).channel_sums.units, 0);
}

// A gated linear unit's queues are over the half shape: self's two halves, GeGlu's outGelu
// or its gradient's gelu, and the output (a gradient's in its two halves).
TEST_F(TilingGolden, SplitUbSpecsNameTheHalves) {
  const std::pair<Op, const char*> cases[] = {
      {Op::kGlu, "self.a self.b out "},
      {Op::kSwiGluGrad, "yGrad x.a x.b out.a out.b "},
      {Op::kGeGluV3, "self.a self.b out outGelu "},
      {Op::kGeGluBackward, "gradOutput self.a self.b gelu gradInput.a gradInput.b "},
  };
  for (const auto& c : cases) {
    const tiling::EltwiseUbSpec* spec = tiling::FindEltwiseUbSpec(c.first);
    ASSERT_NE(spec, nullptr) << GetOpInfo(c.first).snake_name;
    std::string queues;
    for (const std::string& q : spec->queues) queues += q + " ";
    EXPECT_EQ(queues, c.second);
  }
}

TEST_F(TilingGolden, UbSpecsComeFromTheOperatorList) {
  for (const Op op : AllOps()) {
    if (GetOpInfo(op).is_split) continue;  // tests/split_ops_test.cc
    const OpInfo& info = GetOpInfo(op);
    const tiling::EltwiseUbSpec* spec = tiling::FindEltwiseUbSpec(op);
    if (info.is_reduction) {
      EXPECT_EQ(spec, nullptr) << info.snake_name;
      continue;
    }
    ASSERT_NE(spec, nullptr) << info.snake_name;
    std::string queues, temps;
    for (const std::string& q : spec->queues) queues += q + " ";
    for (const std::string& t : spec->f32_temps) temps += (temps.empty() ? "" : " ") + t;
    // The operands the kernel loads and stores: in0, in1 (every input of a loss), out.
    std::string expected;
    const int loaded = info.kind == Kind::kPointLoss ? info.num_in() : 2;
    for (int k = 0; k < info.num_in() && k < loaded; ++k) {
      expected += std::string(info.in_names[k]) + " ";
    }
    expected += std::string(info.out_names[0]) + " ";
    EXPECT_EQ(queues, expected) << info.snake_name;
    EXPECT_EQ(temps, info.ub_temps) << info.snake_name;
  }
}

// hostnn-tiling ub prints exactly what docs/tiling.md shows.
TEST_F(TilingGolden, UbTableText) {
  EXPECT_EQ(tiling_tool::UbTable(Op::kSiluBackward),
            "silu_backward: queues gradOutput, self, gradInput; f32 temps sigmoid, "
            "one_minus_sigmoid\n"
            "  f32        single  5 = 3 queues + 2 f32 temps = 5\n"
            "             double  8 = 3 queues x 2 buffers + 2 f32 temps = 8\n"
            "  f16, bf16  single 13 = 3 queues + 3 f32 casts x 2 + 2 f32 temps x 2 = 13\n"
            "             double 16 = 3 queues x 2 buffers + 3 f32 casts x 2 + 2 f32 temps x 2 = "
            "16\n");
  EXPECT_EQ(tiling_tool::UbTable(Op::kLogSigmoidBackward).substr(0, 95),
            "logsigmoid_backward: queues gradOutput, self, gradInput; f32 temps exp_neg_abs_x, "
            "one_plus_exp\n");
  EXPECT_EQ(tiling_tool::UbTable(Op::kHardsigmoidBackward),
            "hardsigmoid_backward: queues gradOutput, self, out; f32 temps mask\n"
            "  f32        single  4 = 3 queues + 1 f32 temp = 4\n"
            "             double  7 = 3 queues x 2 buffers + 1 f32 temp = 7\n"
            "  f16, bf16  single 11 = 3 queues + 3 f32 casts x 2 + 1 f32 temp x 2 = 11\n"
            "             double 14 = 3 queues x 2 buffers + 3 f32 casts x 2 + 1 f32 temp x 2 = "
            "14\n");
  EXPECT_EQ(tiling_tool::UbTable(Op::kLogSoftmaxBackward), "");
}

// hardsigmoid f16, n = 100000 on Atlas A2: the same cores as SiluGrad, but N = 11:
// floor(6144 / 11) = 558 blocks -> tile 8928.
TEST_F(TilingGolden, HardsigmoidHasItsOwnDivisor) {
  const tiling::Plan plan =
      MustPlan(Op::kHardsigmoidBackward, DType::kFloat16, {100000}, 0, On("atlas-a2"));
  EXPECT_EQ(plan.elementwise.ub_divisor, 11);
  EXPECT_EQ(plan.elementwise.tile_len, 8928);
  EXPECT_EQ(plan.elementwise.block_dim, 48);
}

// ---- LogSoftmaxBackward on Ascend 950 (64 cores, UB 253952, 32-byte blocks, 256-byte
// vectors: vl_f32 = 64) ---------------------------------------------------------------

// [1024, 4096] f32, dim -1 -> (A1, R, A0) = (1024, 4096, 1). AR full-load: R <= 4 * 64^2;
// binary tmp = align(power of two below ceil(4096 / 64) = 64 -> 32, 8) * 4 = 128 B a row;
// a row needs 2 * 4096 * (3 * 4) + 128 = 98432 B; (253952 - 1024) / 98432 = 2 rows a tile.
// 16 rows a core (ceil(1024 / 64)), block_dim 64.
TEST_F(TilingGolden, Ascend950ArFullLoad) {
  const tiling::Plan plan =
      MustPlan(Op::kLogSoftmaxBackward, DType::kFloat32, {1024, 4096}, -1, On("ascend950"));
  const tiling::ReductionPlan& p = plan.reduction;
  EXPECT_EQ(p.tmpl, tiling::ReductionTemplate::kArFullLoad);
  EXPECT_EQ(p.a1, 1024);
  EXPECT_EQ(p.r, 4096);
  EXPECT_EQ(p.a0, 1);
  EXPECT_EQ(p.r_chunk, 4096);
  EXPECT_EQ(p.units_per_tile, 2);
  EXPECT_EQ(p.units_per_core, 16);
  EXPECT_EQ(p.block_dim, 64);
  EXPECT_EQ(p.reason, "A0 == 1, R = 4096 <= 16384, 2 rows of 98432 B fit the UB");
  ASSERT_EQ(p.trials.size(), 4u);
  EXPECT_TRUE(p.trials[1].capable);   // AR recompute could, but comes later
  EXPECT_FALSE(p.trials[2].capable);  // ARA needs A0 > 1
}

// [64, 100000] f32: R > 16384, so AR recompute. UB less a block and 64 cache blocks:
// 253952 - 32 - 2048 = 251872; 24 B an element (dy, y x 2 buffers, f32 out x 2):
// 251872 / 24 = 10494, down to a multiple of lcm(32, 8, 8, 64) = 64 (64: the row sums'
// f32 blocks): chunks of 10432, ceil(100000 / 10432) = 10 of them. One row a core on 64
// cores.
TEST_F(TilingGolden, Ascend950ArRecompute) {
  const tiling::Plan plan =
      MustPlan(Op::kLogSoftmaxBackward, DType::kFloat32, {64, 100000}, 1, On("ascend950"));
  const tiling::ReductionPlan& p = plan.reduction;
  EXPECT_EQ(p.tmpl, tiling::ReductionTemplate::kArRecompute);
  EXPECT_EQ(p.r_chunk, 10432);
  EXPECT_EQ(p.r_align, 64);
  EXPECT_EQ(p.RChunks(), 10);
  EXPECT_EQ(p.block_dim, 64);
  EXPECT_FALSE(p.trials[0].capable);
  EXPECT_EQ(p.trials[0].why, "R = 100000 > 4 * vl_f32^2 = 16384");
}

// [7, 3, 5] f32, dim 0 -> (1, 7, 15): ARA full-load. A0 base = 256 / 4 = 64 columns; a
// column of all R needs 7 * 2 * (4 + 2 * 4) = 168 B; 253952 / 64 / (168 + 4) = 23 >= 1;
// A0 inner = min(23, ceil(15 / 64) = 1) -> a tile of 64 (15 used), one A1 row: one unit.
TEST_F(TilingGolden, Ascend950AraFullLoad) {
  const tiling::Plan plan =
      MustPlan(Op::kLogSoftmaxBackward, DType::kFloat32, {7, 3, 5}, 0, On("ascend950"));
  const tiling::ReductionPlan& p = plan.reduction;
  EXPECT_EQ(p.tmpl, tiling::ReductionTemplate::kAraFullLoad);
  EXPECT_EQ(p.a1, 1);
  EXPECT_EQ(p.r, 7);
  EXPECT_EQ(p.a0, 15);
  EXPECT_EQ(p.a0_tile, 64);
  EXPECT_EQ(p.a0_align, 64);
  EXPECT_EQ(p.units, 1);
  EXPECT_EQ(p.block_dim, 1);
}

// [32, 512, 64] f32, dim 1: ARA full-load needs 64 * (512 * 24 + 4) = 786688 B > UB. ARA
// recompute: A0 base = 32 / 4 = 8; R chunks of 128, 4 loops, 2 cache slots; a column needs
// 128 * 2 * 12 + 4 * 2 + 4 = 3084 B: 253952 / 8 / 3084 = 10 bases fit; to spread over 64
// cores, ceil(32 * 8 / 64) = 4 bases: tiles of 32, 32 x 2 = 64 units, one a core.
TEST_F(TilingGolden, Ascend950AraRecompute) {
  const tiling::Plan plan =
      MustPlan(Op::kLogSoftmaxBackward, DType::kFloat32, {32, 512, 64}, 1, On("ascend950"));
  const tiling::ReductionPlan& p = plan.reduction;
  EXPECT_EQ(p.tmpl, tiling::ReductionTemplate::kAraRecompute);
  EXPECT_EQ(p.trials[2].why, "one A0 tile of 64 columns with all 512 rows needs 786688 B > UB");
  EXPECT_EQ(p.r_chunk, 128);
  EXPECT_EQ(p.a0_tile, 32);
  EXPECT_EQ(p.a0_align, 8);
  EXPECT_EQ(p.units, 64);
  EXPECT_EQ(p.block_dim, 64);
}

// Output by rows: the cores split each row's columns (2 cores, A0 tiles of 16 or 128
// columns). The backward always goes by rows then; the forward while a core's share of a
// row is at most 4 KiB ([1024, 256] f32: 512 B; [1024, 4096] f32: 8 KiB, by blocks).
// [1024, 4] has one A0 tile (by blocks), an AR plan has A0 = 1.
TEST_F(TilingGolden, HostOutputByRows) {
  tiling::Options o = On("host");
  o.num_cores = 2;
  o.ub_bytes = 524288;
  const auto by_rows = [&](Op op, std::vector<int64_t> shape, int64_t dim) {
    const tiling::Plan plan = MustPlan(op, DType::kFloat32, shape, dim, o);
    EXPECT_NE(plan.ToTable().find("output          by rows") != std::string::npos,
              !plan.reduction.output_by_rows);
    EXPECT_NE(plan.ToJson().find("\"output_by_rows\": true") != std::string::npos,
              !plan.reduction.output_by_rows);
    return plan.reduction.output_by_rows;
  };
  EXPECT_TRUE(by_rows(Op::kLogSoftmaxBackward, {1024, 256}, 0));
  EXPECT_TRUE(by_rows(Op::kLogSoftmaxBackward, {1024, 4096}, 0));
  EXPECT_TRUE(by_rows(Op::kLogSoftmax, {1024, 256}, 0));
  EXPECT_FALSE(by_rows(Op::kLogSoftmax, {1024, 4096}, 0));
  EXPECT_FALSE(by_rows(Op::kLogSoftmax, {1024, 4}, 0));
  EXPECT_FALSE(by_rows(Op::kLogSoftmaxBackward, {256, 1024}, -1));
  o.num_cores = 1;
  EXPECT_FALSE(by_rows(Op::kLogSoftmaxBackward, {1024, 256}, 0));
}

// R == 1 folds A1 into A0, as Ascend does: [1000, 1] dim 1 -> (1, 1, 1000).
TEST_F(TilingGolden, UnitReductionFoldsIntoA0) {
  const tiling::Plan plan =
      MustPlan(Op::kLogSoftmaxBackward, DType::kBFloat16, {1000, 1}, 1, On("ascend950"));
  EXPECT_EQ(plan.reduction.a1, 1);
  EXPECT_EQ(plan.reduction.r, 1);
  EXPECT_EQ(plan.reduction.a0, 1000);
  EXPECT_EQ(plan.reduction.tmpl, tiling::ReductionTemplate::kAraFullLoad);
}

// A smaller UB pushes a row out of full-load: ub 65536, [8, 16384] f32: a row needs
// 2 * 16384 * 12 + 512 = 393728 B > 64512, so AR recompute with chunks of
// align64((65536 - 32 - 2048) / 24 = 2644) = 2624.
TEST_F(TilingGolden, SmallUbFallsToRecompute) {
  tiling::Options o = On("ascend950");
  o.ub_bytes = 65536;
  const tiling::Plan plan = MustPlan(Op::kLogSoftmaxBackward, DType::kFloat32, {8, 16384}, -1, o);
  EXPECT_EQ(plan.reduction.tmpl, tiling::ReductionTemplate::kArRecompute);
  EXPECT_EQ(plan.reduction.trials[0].why, "a row needs 393728 B > UB - 1024 reserved");
  EXPECT_EQ(plan.reduction.r_chunk, 2624);
  EXPECT_EQ(plan.reduction.r_chunk % 64, 0);  // the row sums' f32 blocks
}

}  // namespace
}  // namespace hostnn
