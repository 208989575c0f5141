// Golden plans of the normalisations on Atlas A2 (48 cores, UB 196608 B): what ops-nn's A2
// tiling chooses for LayerNorm (LayerNormV4's ladder), LayerNormBackward (LayerNormGradV3),
// RmsNorm, AddRmsNorm, InplaceAddRmsNorm, RmsNormGrad, GroupNorm (GroupNormSilu),
// GroupNormBackward (GroupNormGrad), AddLayerNorm, AddLayerNormGrad and BatchNorm
// (BatchNormV3; BatchNormBackward's A2 kernels are TBE ones without published tiling), each value
// derived by hand in a comment from that tiling code. "UT" marks a shape whose tiling key ops-nn's
// own tiling unit test asserts for Ascend 910B. The tables after AddLayerNormGrad's add the
// optional inputs a problem names (tiling::NormInputs): f32 gamma beside 16-bit x,
// AddLayerNorm's bias and additionalOutput, AddLayerNormGrad's dsum. These tests pin the
// planner; they run no operator.
//
// Notation: rows = the product of the leading dims, cols = the normalised length; e = bytes
// of the dtype, blk = 32 / e elements a block, cA = cols aligned up to blk; ceil split:
// rows_per_core = ceil(rows / 48), block_dim = ceil(rows / rows_per_core).

#include <gtest/gtest.h>

#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace {

struct Golden {
  Op op;
  DType dtype;
  std::vector<int64_t> shape;
  int64_t dim;  // the first normalised dim
  const char* kernel;
  const char* tmpl;
  int64_t key;
  int64_t block_dim;
  int64_t rows_per_core;  // the former cores' rows
  int64_t rows_per_loop;  // rows a UB pass (ops-nn's rowFactor, nRow, ubFormer)
  int64_t col_chunk;      // a row's elements a pass
  int64_t group = 0;      // GroupNorm's groups (shape [N, C, spatial...])
  tiling::NormInputs in = {};  // the optional inputs (default: none, gamma in the dtype)
};

class TilingGoldenNorm : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
  }
  static tiling::Plan MustPlan(const Golden& g, const std::string& platform) {
    tiling::Options o;
    o.platform = platform;
    tiling::Plan plan;
    const Status s = tiling::MakePlan({g.op, g.dtype, g.shape, g.dim, 1, g.group, g.in}, o, &plan);
    EXPECT_TRUE(s.ok()) << s.message();
    return plan;
  }
  static void Expect(const Golden& g) {
    const tiling::Plan plan = MustPlan(g, "atlas-a2");
    const tiling::NormTiling& t = plan.norm;
    const char* param = tiling::ShortDTypeName(g.in.param_dtype);
    const std::string what =
        plan.op + " " + tiling::ShapeText(g.shape) + " " + plan.dtype +
        (param ? std::string(" gamma ") + param : "") + " bias " + tiling::NormBiasName(g.in.bias) +
        (g.in.additional_output ? " additionalOutput" : "") + (g.in.dsum ? " dsum" : "");
    ASSERT_TRUE(t.planned) << what;
    EXPECT_EQ(t.kernel, g.kernel) << what;
    EXPECT_EQ(t.tmpl, g.tmpl) << what;
    EXPECT_EQ(t.tiling_key, g.key) << what;
    EXPECT_EQ(t.block_dim, g.block_dim) << what;
    EXPECT_EQ(t.rows_per_core, g.rows_per_core) << what;
    EXPECT_EQ(t.rows_per_loop, g.rows_per_loop) << what;
    EXPECT_EQ(t.col_chunk, g.col_chunk) << what;
    EXPECT_GE(t.col_chunks, tiling::CeilDiv(t.cols, t.col_chunk)) << what;
    // The A2 kernels take two passes over a row, but for BatchNormV3's welford templates.
    EXPECT_EQ(t.welford, std::string(g.tmpl).rfind("welford", 0) == 0) << what;
    // The host runs A2's cores' rows: ceil(rows / block_dim) a core; BatchNorm's host units
    // are its N * C segments, over A2's cores.
    const bool segments = GetOpInfo(g.op).shapes == ShapeRule::kChannelStats;
    const int64_t host_units = segments ? plan.reduction.units : t.rows;
    const int64_t host_per_core = tiling::CeilDiv(host_units, t.block_dim);
    if (segments ? plan.reduction.a0 == 1 : t.cols > 1) {
      EXPECT_EQ(plan.reduction.units_per_core, host_per_core) << what;
      EXPECT_EQ(plan.reduction.block_dim, tiling::CeilDiv(host_units, host_per_core)) << what;
    }
    EXPECT_TRUE(plan.Check().ok()) << what << ": " << plan.Check().message();
  }
};

constexpr DType kF32 = DType::kFloat32, kF16 = DType::kFloat16, kBf16 = DType::kBFloat16;
// The tables' short names.
constexpr Op kLn = Op::kLayerNorm, kLnImpl = Op::kLayerNormWithImplMode,
             kLnGrad = Op::kLayerNormBackward, kRms = Op::kRmsNorm, kRmsGrad = Op::kRmsNormGrad,
             kAddRms = Op::kAddRmsNorm, kInplace = Op::kInplaceAddRmsNorm, kGn = Op::kGroupNorm,
             kGnGrad = Op::kGroupNormBackward, kAddLn = Op::kAddLayerNorm,
             kAddLnGrad = Op::kAddLayerNormGrad, kBn = Op::kBatchNorm,
             kBnGrad = Op::kBatchNormBackward;
constexpr const char *kV3 = "LayerNormV3", *kV4 = "LayerNormV4", *kV3Grad = "LayerNormGradV3",
                     *kSilu = "GroupNormSilu", *kGnG = "GroupNormGrad", *kAdd = "AddLayerNorm",
                     *kAddGrad = "AddLayerNormGrad", *kBnV3 = "BatchNormV3";

// ---- LayerNorm ---------------------------------------------------------------------------
// The A2 op_api runs LayerNormV4 for its transpose and single_read shapes and LayerNormV3
// otherwise; hostnn plans the latter with LayerNormV4's ladder (transpose, single_read,
// merge_n, common). Keys: transpose 200 + 11 d, single_read 122 (bf16 only), merge_n
// 600 + d (+1000 for cols <= 1280), common 700 + d; d = 0 f32, 1 f16, 2 bf16.
//   transpose: cols <= 64 and cols != cA; rows ceil-split; room = 196608 - 2 * cA * 4 - 1024,
//     rows a pass: the largest f <= min(room / (16 cols + 4), rows_per_core) whose 16-row
//     tiles fit room.
//   single_read: bf16, cols 1024 or 4096; rowMax = (196608 - 256) / 8 = 24544; rows <= 48:
//     one row a core; else nRow = min(24544 / cA, 32) rows a block, 48 cores.
//   merge_n: nRow = ceil(rows / 48) > 2 and cols < (196608 - 2048) / 8 = 24320; 48 cores
//     (rows % 48 of them take nRow, the rest one less); rows a pass min(nRow, able),
//     able = 194560 / 4 / (1 + cA) / 2 (to a multiple of 64 when cA <= 32).
//   common: the rest; min(rows, 48) cores; a row in chunks of min(cols, 193536 / 4 / 2 =
//     24192).
// clang-format off: a shape a line
const Golden kLayerNorm[] = {
    // UT 600: rows 1024 * 99 = 101376, nRow = 2112 > 2, 4096 < 24320 -> merge_n, f32 600;
    // able = 48640 / 4097 / 2 = 11 / 2 = 5 rows a pass (48640 / 4097 = 11).
    {kLn, kF32, {1024, 99, 4096}, 2, kV3, "merge_n", 600, 48, 2112, 5, 4096},
    // UT 200: cols 20 <= 64, cA 24 != 20 -> transpose; 18 rows: 1 a core, 18 cores.
    {kLn, kF32, {18, 20}, 1, kV4, "transpose", 200, 18, 1, 1, 20},
    // UT 222 (bf16 gamma): cA 32 != 20 -> transpose 200 + 22.
    {kLn, kBf16, {18, 20}, 1, kV4, "transpose", 222, 18, 1, 1, 20},
    // 64 rows: nRow 2 (not > 2) -> common 700; 32 cores of 2; 4096 <= 24192 whole.
    {kLn, kF32, {64, 4096}, 1, kV3, "common", 700, 32, 2, 1, 4096},
    // bf16 4096, 8192 rows > 48: nRow = min(24544 / 4096 = 5, 32) = 5; blocks 1638,
    // 1638 = 34 * 48 + 6: 6 cores of 35 blocks (175 rows), 42 of 34, 2 rows left over.
    {kLn, kBf16, {8192, 4096}, 1, kV4, "single_read", 122, 48, 175, 5, 4096},
    // bf16 1024, 16 rows <= 48: one row a core, 16 cores.
    {kLn, kBf16, {16, 1024}, 1, kV4, "single_read", 122, 16, 1, 1, 1024},
    // f16 1024 (not bf16: no single_read): nRow = ceil(4096 / 48) = 86 > 2 -> merge_n,
    // 1024 <= 1280: 1600 + 1; able = 48640 / 1025 / 2 = 47 / 2 = 23.
    {kLn, kF16, {4096, 1024}, 1, kV3, "merge_n", 1601, 48, 86, 23, 1024},
    // 30 rows: nRow 1 -> common; 30 cores of 1; 100000 > 24192: chunks of 24192 (5 of them).
    {kLn, kF32, {30, 100000}, 1, kV3, "common", 700, 30, 1, 1, 24192},
    // cols 48 = cA (f32) -> no transpose; nRow = ceil(5000 / 48) = 105 -> merge_n 1600;
    // able = 48640 / 49 / 2 = 992 / 2 = 496 >= 105.
    {kLn, kF32, {5000, 48}, 1, kV3, "merge_n", 1600, 48, 105, 105, 48},
    // cols 16 = cA; nRow = ceil(100000 / 48) = 2084; able = 48640 / 17 / 2 = 2861 / 2 =
    // 1430, cA 16 <= 32 -> 1430 / 64 * 64 = 1408.
    {kLn, kF32, {100000, 16}, 1, kV3, "merge_n", 1600, 48, 2084, 1408, 16},
    // nRow = ceil(200 / 48) = 5 > 2, but 30000 >= 24320 and > 1280 -> common 702 (bf16);
    // ceil split 5 a core over 40 cores; chunks of 24192.
    {kLn, kBf16, {200, 30000}, 1, kV3, "common", 702, 40, 5, 1, 24192},
    // f16 cols 3 (cA 16) -> transpose 211; 7 rows on 7 cores.
    {kLn, kF16, {7, 3}, 1, kV4, "transpose", 211, 7, 1, 1, 3},
    // WithImplMode plans alike: nRow = ceil(256 / 48) = 6 -> merge_n 601 (2048 > 1280);
    // able = 48640 / 2049 / 2 = 23 / 2 = 11 >= 6.
    {kLnImpl, kF16, {256, 2048}, 1, kV3, "merge_n", 601, 48, 6, 6, 2048},
    // transpose with many rows: 1000 rows of 20 (f32): 21 a core, 48 cores; room =
    // 196608 - 2 * 96 - 1024 = 195392, 195392 / 324 = 603 >= 21: f = 21 (2 tiles of 16:
    // 2 * 64 + 16 * 48 * 16 + 16 * 16 * 8 = 14464 <= room).
    {kLn, kF32, {1000, 20}, 1, kV4, "transpose", 200, 48, 21, 21, 20},
};

// ---- LayerNormBackward -------------------------------------------------------------------
// LayerNormGradV3 (the A2 op_api's fused gradient): single_read (cols in [768, 12176] and
// cA <= (196608 - 320 - 1024) / 16 = 12204), transpose (cols <= 64, cols != cA), common
// (cols <= 768), workspace (the rest). Key template * 100 + 10 + d, templates single_read 1,
// workspace 2, transpose 3, common 4; d = 1 f32, 2 f16, 4 bf16. Rows ceil-split.
//   single_read: 12204 / cA rows a pass. transpose: room = 196608 - 768 - cA * 32, the
//   largest f <= min(room / (16 cols + 12), rows_per_core) whose tiles fit. common: room =
//   196608 - 12 cA, the largest f <= room / (16 cA + 44) with 4 f32 rows, 3 row-sum blocks
//   and the broadcast (ceil(f / 8) * 256 B) in room. workspace: chunks of
//   min((196608 - 192) / 24 to 16 = 8176, cols to 16).
const Golden kLayerNormBackward[] = {
    // UT 112: 4096 in range, cA 4096: 12204 / 4096 = 2 rows a pass; 48 rows, 1 a core.
    {kLnGrad, kF16, {48, 4096}, 1, kV3Grad, "single_read", 112, 48, 1, 2, 4096},
    // UT 412: 16 <= 768; f16 16 = cA -> no transpose; common. room = 196608 - 192 = 196416;
    // f = 196416 / (256 + 44) = 654: whole = 654 * 64 = 41856, row sums 2624, broadcast
    // 656 * 32 = 20992: 4 * 41856 + 3 * 2624 + 20992 = 196288 <= room, 20992 <= 41856.
    {kLnGrad, kF16, {48, 16}, 1, kV3Grad, "common", 412, 48, 1, 654, 16},
    // 20 <= 64, cA 24 -> transpose 311; 21 a core; room = 196608 - 768 - 768 = 195072,
    // 195072 / 332 = 587 >= 21; f = 21 fits (2 tiles).
    {kLnGrad, kF32, {1000, 20}, 1, kV3Grad, "transpose", 311, 48, 21, 21, 20},
    // 20000 > 12176 -> workspace 214; ceil(100 / 48) = 3 a core, 34 cores; chunks of 8176.
    {kLnGrad, kBf16, {100, 20000}, 1, kV3Grad, "workspace", 214, 34, 3, 1, 8176},
    // 768 in range -> single_read 111; 86 a core; 12204 / 768 = 15 rows a pass.
    {kLnGrad, kF32, {4096, 768}, 1, kV3Grad, "single_read", 111, 48, 86, 15, 768},
    // 767 < 768 -> common 411; cA 768: room = 196608 - 9216 = 187392, f = 187392 / 12332 =
    // 15: whole 46080, 4 * 46080 + 3 * 64 + 16 * 32 = 185024 <= room.
    {kLnGrad, kF32, {4096, 767}, 1, kV3Grad, "common", 411, 48, 86, 15, 767},
    // 12176 = cA (bf16) <= 12204 -> single_read 114; 10 rows on 10 cores; 1 row a pass.
    {kLnGrad, kBf16, {10, 12176}, 1, kV3Grad, "single_read", 114, 10, 1, 1, 12176},
    // 12177 > 12176 -> workspace 214; 2 chunks of 8176.
    {kLnGrad, kBf16, {10, 12177}, 1, kV3Grad, "workspace", 214, 10, 1, 1, 8176},
    // f16 50 (cA 64) -> transpose 312; 3 rows on 3 cores.
    {kLnGrad, kF16, {3, 50}, 1, kV3Grad, "transpose", 312, 3, 1, 1, 50},
    // f32 64 = cA -> common 411; 1366 a core; room = 196608 - 768 = 195840,
    // f = 195840 / 1068 = 183: 4 * 46848 + 3 * 736 + 184 * 32 = 195488 <= 195840.
    {kLnGrad, kF32, {65536, 64}, 1, kV3Grad, "common", 411, 48, 1366, 183, 64},
};

// ---- RmsNorm, AddRmsNorm, InplaceAddRmsNorm, RmsNormGrad -----------------------------------
// Rows ceil-split throughout; UB = 196608 - 1024 = 195584.
// RmsNorm: merge_n 2 (cA <= 2000; 195584 / (16 cA + 260) rows a pass), split_d 1 (cA over
//   10240 f32 / 12288 16-bit; chunks ceil(cols / (t * 16)) * 16, t = ceil(cols / 12288 or
//   10240)), else normal 0 (a row a pass).
const Golden kRmsNorm[] = {
    // cA 2560 in (2000, 12288] -> normal 0.
    {kRms, kF16, {24, 1, 2560}, 2, "RmsNorm", "normal", 0, 24, 1, 1, 2560},
    // UT 1: 25600 > 12288 -> split_d; t = 3, ceil(25600 / 48) * 16 = 534 * 16 = 8544.
    {kRms, kF16, {24, 1, 25600}, 2, "RmsNorm", "split_d", 1, 24, 1, 1, 8544},
    // UT 2: cA 256 <= 2000 -> merge_n; 195584 / 4356 = 44 rows a pass.
    {kRms, kF16, {24, 1, 256}, 2, "RmsNorm", "merge_n", 2, 24, 1, 44, 256},
    // f32 20000 > 10240 -> split_d; t = 2, ceil(20000 / 32) * 16 = 625 * 16 = 10000.
    {kRms, kF32, {1, 24, 20000}, 2, "RmsNorm", "split_d", 1, 24, 1, 1, 10000},
    // bf16 4096 -> normal; 86 a core.
    {kRms, kBf16, {4096, 4096}, 1, "RmsNorm", "normal", 0, 48, 86, 1, 4096},
    // cA 2000 <= 2000 -> merge_n; 195584 / 32260 = 6; 3 a core, 34 cores.
    {kRms, kF32, {100, 2000}, 1, "RmsNorm", "merge_n", 2, 34, 3, 6, 2000},
    // cA 2008 > 2000 -> normal.
    {kRms, kF32, {100, 2001}, 1, "RmsNorm", "normal", 0, 34, 3, 1, 2001},
    // cA 10248 > 10240 -> split_d; t = 2, ceil(10241 / 32) * 16 = 321 * 16 = 5136.
    {kRms, kF32, {2, 10241}, 1, "RmsNorm", "split_d", 1, 2, 1, 1, 5136},
};

// AddRmsNorm (and InplaceAddRmsNorm, the same kernel): key dtype * 10 + mode, dtype f16 1,
// f32 2, bf16 3. split_d 1 (cols over 10240 f32 / 12288 16-bit: chunks of
// ceil(cols / (t * blk)) * blk, t = ceil(cols / 9696 f32 or 12096)), single_n 3 (one row a
// core), merge_n 2 (cA <= 2000: 195584 / (cA * (24 f32, 18 16-bit) + 260) rows), multi_n 4
// (f16, cols = cA: (195584 - 256 - 2 cA) / (16 cA + 64) rows), else normal 0.
const Golden kAddRmsNorm[] = {
    // UT 13: 24 rows -> one a core -> single_n, f16.
    {kAddRms, kF16, {24, 1, 2560}, 2, "AddRmsNorm", "single_n", 13, 24, 1, 1, 2560},
    // UT 11: 25600 > 12288 -> split_d; t = ceil(25600 / 12096) = 3, ceil(25600 / 48) * 16 = 8544.
    {kAddRms, kF16, {24, 1, 25600}, 2, "AddRmsNorm", "split_d", 11, 24, 1, 1, 8544},
    // UT 23: f32, one row a core -> single_n.
    {kAddRms, kF32, {24, 1, 256}, 2, "AddRmsNorm", "single_n", 23, 24, 1, 1, 256},
    // 86 a core, cA 256 -> merge_n 22; 195584 / (6144 + 260) = 30.
    {kAddRms, kF32, {4096, 256}, 1, "AddRmsNorm", "merge_n", 22, 48, 86, 30, 256},
    // f16 4096 = cA -> multi_n 14; (195584 - 256 - 8192) / 65600 = 2.
    {kAddRms, kF16, {4096, 4096}, 1, "AddRmsNorm", "multi_n", 14, 48, 86, 2, 4096},
    // f16 4095 != cA 4096 -> normal 10.
    {kAddRms, kF16, {4096, 4095}, 1, "AddRmsNorm", "normal", 10, 48, 86, 1, 4095},
    // bf16 (not f16) -> normal 30.
    {kAddRms, kBf16, {4096, 4096}, 1, "AddRmsNorm", "normal", 30, 48, 86, 1, 4096},
    // f32 10241 > 10240 -> split_d 21; t = ceil(10241 / 9696) = 2, ceil(10241 / 16) * 8 = 5128;
    // 3 a core, 34 cores.
    {kAddRms, kF32, {100, 10241}, 1, "AddRmsNorm", "split_d", 21, 34, 3, 1, 5128},
    // InplaceAddRmsNorm: bf16 128, 21 a core -> merge_n 32; 195584 / (2304 + 260) = 76.
    {kInplace, kBf16, {1000, 128}, 1, "AddRmsNorm", "merge_n", 32, 48, 21, 76, 128},
    // InplaceAddRmsNorm: 48 rows, one a core -> single_n 23.
    {kInplace, kF32, {48, 8192}, 1, "AddRmsNorm", "single_n", 23, 48, 1, 1, 8192},
};

// RmsNormGrad: split_n 1 (cols <= 6080: min(buffer / cA, rows_per_core) rows a pass,
// buffer 6080, or for cA <= 640 ((195584 - 10 cA) / (24 cA + 268)) * cA), else split_d 2
// (chunks of 4096, a row a pass).
const Golden kRmsNormGrad[] = {
    // 8192 > 6080 -> split_d; 21 a core (1000 = 47 * 21 + 13).
    {kRmsGrad, kF32, {1000, 8192}, 1, "RmsNormGrad", "split_d", 2, 48, 21, 1, 4096},
    // cA 256 <= 640: (195584 - 2560) / 6412 = 30 rows; min(30, 21) = 21.
    {kRmsGrad, kBf16, {1000, 256}, 1, "RmsNormGrad", "split_n", 1, 48, 21, 21, 256},
    // 6080 <= 6080: 6080 / 6080 = 1 row a pass; 2084 a core.
    {kRmsGrad, kF16, {100000, 6080}, 1, "RmsNormGrad", "split_n", 1, 48, 2084, 1, 6080},
    // 6081 -> split_d; 10 rows on 10 cores.
    {kRmsGrad, kF32, {10, 6081}, 1, "RmsNormGrad", "split_d", 2, 10, 1, 1, 4096},
    // cA 1000 > 640: 6080 / 1000 = 6 rows a pass; 1366 a core.
    {kRmsGrad, kF32, {65536, 1000}, 1, "RmsNormGrad", "split_n", 1, 48, 1366, 6, 1000},
    // 7 rows on 7 cores; (195584 - 640) / 1804 = 108 rows, min(108, 1) = 1.
    {kRmsGrad, kF16, {7, 64}, 1, "RmsNormGrad", "split_n", 1, 7, 1, 1, 64},
};

// ---- GroupNorm, GroupNormBackward ---------------------------------------------------------
// rows = N * G groups of cols = C / G * HxW. GroupNorm runs GroupNormSilu (SiLU off) on A2:
// per = ceil(N * G / 48) groups a core over ceil(N * G / per) cores, all on one core when
// HxW < blk unless HxW is 1 with C / G >= blk; HxW 1 with G = C deals whole samples
// (ceil(N / 48) a core, one core when C is not whole blocks). Key: HxW < blk: hw_one
// 108 / 1071 (HxW 1) or basic 106 / 1051; small_shape 102 / 1011 (HxW a multiple of 8 f32,
// 16 b16, <= 4096, C + per <= 4000 f32, 2700 b16); high_perf 104 / 1031 (C + per within
// those); else basic. A group in passes of 8192 elements.
const Golden kGroupNorm[] = {
    // UT 106: HxW 4160 > 4096; per = ceil(12288 / 48) = 256, C + per = 4224 > 4000 -> basic.
    {kGn, kF32, {384, 3968, 64, 65}, 1, kSilu, "basic", 106, 48, 256, 1, 8192, 32},
    // UT 1051: f16, C + per = 4224 > 2700 -> basic.
    {kGn, kF16, {384, 3968, 64, 66}, 1, kSilu, "basic", 1051, 48, 256, 1, 8192, 32},
    // UT 1011: HxW 144 = 9 * 16 <= 4096, per = ceil(768 / 48) = 16, 64 + 16 <= 2700; cols 2 * 144.
    {kGn, kF16, {24, 64, 12, 12}, 1, kSilu, "small_shape", 1011, 48, 16, 1, 288, 32},
    // UT 1031: HxW 8192 > 4096; per 1 (32 groups on 32 cores), 32 + 1 <= 2700 -> high_perf.
    {kGn, kF16, {1, 32, 128, 64}, 1, kSilu, "high_perf", 1031, 32, 1, 1, 8192, 32},
    // UT 102: f32, HxW 144 = 18 * 8.
    {kGn, kF32, {24, 64, 12, 12}, 1, kSilu, "small_shape", 102, 48, 16, 1, 288, 32},
    // UT 104: f32, HxW 8192 > 4096 -> high_perf.
    {kGn, kF32, {1, 32, 128, 64}, 1, kSilu, "high_perf", 104, 32, 1, 1, 8192, 32},
    // UT 1071: HxW 1, G = C = 32 = 2 blocks of f16: whole samples, ceil(24 / 48) = 1 a core,
    // 24 cores of 32 groups; cols 1.
    {kGn, kF16, {24, 32, 1, 1}, 1, kSilu, "hw_one", 1071, 24, 32, 1, 1, 32},
    // UT 108: HxW 1, G = C = 31 (not whole f32 blocks): one core of 24 * 31 = 744 groups.
    {kGn, kF32, {24, 31, 1, 1}, 1, kSilu, "hw_one", 108, 1, 744, 1, 1, 31},
    // HxW 256 = 32 * 8; per = ceil(64 / 48) = 2 over 32 cores; 32 + 2 <= 4000; cols 4 * 256.
    {kGn, kF32, {8, 32, 16, 16}, 1, kSilu, "small_shape", 102, 32, 2, 1, 1024, 8},
    // cols 10 * 4096 = 40960: 5 passes of 8192; per 2 over 32 cores.
    {kGn, kF16, {2, 320, 64, 64}, 1, kSilu, "small_shape", 1011, 32, 2, 1, 8192, 32},
    // HxW 9 < 16 (bf16) -> one core of all 32 groups, basic 1051; cols 128 * 9 = 1152.
    {kGn, kBf16, {1, 4096, 3, 3}, 1, kSilu, "basic", 1051, 1, 32, 1, 1152, 32},
    // HxW 1, G = C = 64 (8 f32 blocks): ceil(4 / 48) = 1 sample a core, 4 cores of 64.
    {kGn, kF32, {4, 64, 1, 1}, 1, kSilu, "hw_one", 108, 4, 64, 1, 1, 64},
    // HxW 1, C / G = 16 >= 8: no single core; 8 groups on 8 cores; cols 16.
    {kGn, kF32, {2, 64, 1, 1}, 1, kSilu, "hw_one", 108, 8, 1, 1, 16, 4},
    // HxW 49 not 16-aligned; per = ceil(3200 / 48) = 67, 128 + 67 <= 2700 -> high_perf;
    // 3200 / 67 -> 48 cores; cols 4 * 49.
    {kGn, kBf16, {100, 128, 7, 7}, 1, kSilu, "high_perf", 1031, 48, 67, 1, 196, 32},
    // HxW 5 < 8 -> one core of 9 groups, basic 106; cols 10 * 5.
    {kGn, kF32, {3, 30, 5}, 1, kSilu, "basic", 106, 1, 9, 1, 50, 3},
};

// GroupNormBackward runs GroupNormGrad: key dtype (f32 0, f16 1, bf16 2) + 10 for N > 2.
// per = ceil(N * G / 48) groups, cores ceil(N * G / per), the last of them one fewer when
// N * G % cores != 0 (host: the ceil split, the same cores). Bytes b = 4 (f32) or 6 (16-bit
// with its f32 copy), blk 8 or 16; reserve = 1024 + 3 * b * (C / G to blk); extra = 0 when
// HxW % 8 == 0 or C / G == 1, else 8 * (HxW to blk); groups a pass
// g0 = (196608 - reserve - extra) / (3 * b * (C / G * HxW to blk)); channels a pass
// c1 = (196608 - reserve) / (3 * b * (HxW to blk)). HxW 1: hw_one; g0 > 0: groups; c1 >= 1:
// channel(s), C / G over c1 channels; else hw_chunks of ((196608 - reserve) / 3b to 8 blk).
const Golden kGroupNormBackward[] = {
    // ops-nn's UT shape (N 12, C 64, 128 x 128, G 32; f32): cpg 2, reserve 1024 + 96 = 1120;
    // g0 = 195488 / (12 * 32768) = 0, c1 = 195488 / (12 * 16384) = 0 -> hw_chunks of
    // 195488 / 12 = 16290 to 64 = 16256; per = ceil(384 / 48) = 8; N > 2: key 10.
    // (2 channels of 2 chunks each: 4 passes a group, checked below)
    {kGnGrad, kF32, {12, 64, 128, 128}, 1, kGnG, "hw_chunks", 10, 48, 8, 1, 16256, 32},
    // cpg 4, reserve 1120, HxW 256: g0 = 195488 / (12 * 1024) = 15; per 2 over 32 cores.
    {kGnGrad, kF32, {8, 32, 16, 16}, 1, kGnG, "groups", 10, 32, 2, 15, 1024, 8},
    // bf16 cpg 20, reserve 1024 + 18 * 32 = 1600; c1 = 195008 / (18 * 16384) = 0 -> hw_chunks
    // 195008 / 18 = 10833 to 128 = 10752; N 2: key 2.
    {kGnGrad, kBf16, {2, 640, 128, 128}, 1, kGnG, "hw_chunks", 2, 32, 2, 1, 10752, 32},
    // f16 cpg 16, HxW 49: reserve 1024 + 18 * 16 = 1312, extra 8 * 64 = 512; g0 = 194784 /
    // (18 * 784) = 13; per = ceil(400 / 48) = 9 over 45 cores (400 % 45 = 40 of 9, 5 of 8).
    {kGnGrad, kF16, {100, 64, 7, 7}, 1, kGnG, "groups", 11, 45, 9, 13, 784, 4},
    // HxW 1 -> hw_one; cpg 1: reserve 1024 + 96 = 1120, g0 = 195488 / 96 = 2036; per =
    // ceil(128 / 48) = 3 over 43 cores; N 2: key 0.
    {kGnGrad, kF32, {2, 64, 1, 1}, 1, kGnG, "hw_one", 0, 43, 3, 2036, 1, 64},
    // cpg 4, HxW 4096: g0 = 195488 / (12 * 16384) = 0; c1 = 195488 / 49152 = 3 channels a
    // pass (12288 elements); 4 groups on 4 cores.
    {kGnGrad, kF32, {1, 16, 64, 64}, 1, kGnG, "channels", 0, 4, 1, 1, 12288, 4},
    // f16 cpg 32, reserve 1024 + 18 * 32 = 1600; c1 = 195008 / (18 * 4096) = 2 channels
    // (8192); 32 groups on 32 cores; N 4: key 11.
    {kGnGrad, kF16, {4, 256, 64, 64}, 1, kGnG, "channels", 11, 32, 1, 1, 8192, 8},
    // cpg 1, HxW 7: extra 0 (cpg 1), reserve 1024 + 96; g0 = 195488 / (12 * 8) = 2036;
    // per = ceil(2048 / 48) = 43 over 48 cores.
    {kGnGrad, kF32, {64, 32, 7}, 1, kGnG, "groups", 10, 48, 43, 2036, 7, 32},
    // bf16 cpg 8, HxW 3000: reserve 1024 + 18 * 16 = 1312; g0 = 195296 / (18 * 24000) = 0,
    // c1 = 195296 / (18 * 3008) = 3 channels (9000); 6 groups on 6 cores; N 3: key 12.
    {kGnGrad, kBf16, {3, 16, 3000}, 1, kGnG, "channels", 12, 6, 1, 1, 9000, 2},
};

// clang-format on

// Every table, each shape on its own.
// ---- AddLayerNorm, AddLayerNormGrad --------------------------------------------------------
// AddLayerNorm (no bias, additionalOutput off): rows ceil-split; c32 = cols aligned to 32
// elements. special_reduce 70 (f16, cA <= 2040): (196608 - 8 c32 - 2304) / (6 c32 + 8 +
// 8 c32 + 256) rows, when over 1; normal 0: (196608 - 2e c32 - 512) / (3e c32 + 8 + 12 c32)
// rows, when over 1; single_row 20: 3e cols + (8 + 2e) cols + 520 < 196608; single_row_ext
// 30: 2e cols + (8 + 2e) cols + 520 < 196608; slice 10: room = 196608 - (2e cols + 2e +
// 4 cols + 512), col = room / (3e + 8) over 2048 and not whole blocks, then to blocks;
// slice_ext 50: (196608 - 520) / (5e + 12) to blocks. Rows a pass at most the core's rows;
// a row under 500 turns 0 into big_n 40 and 70 into 80, at most 255 rows a pass.
const Golden kAddLayerNorm[] = {
    // UT 001 (key 0): f16 2560 = cA > 2040; room 196608 - 10752 = 185856, a row 15360 + 8 +
    // 30720 = 46088: 4 rows, but 24 rows on 24 cores: 1.
    {kAddLn, kF16, {24, 1, 2560}, 2, kAdd, "normal", 0, 24, 1, 1, 2560},
    // UT 302 (key 20): normal (196608 - 41472) / 184328 < 1; single_row 18 x 10240 + 520 =
    // 184840 < 196608. ceil(1024 / 48) = 22 a core, ceil(1024 / 22) = 47 cores.
    {kAddLn, kBf16, {1, 1024, 10240}, 2, kAdd, "single_row", 20, 47, 22, 1, 10240},
    // UT 303 (key 30): single_row 18 x 11264 + 520 = 203272 too big; single_row_ext 16 x 11264
    // + 520 = 180744 fits.
    {kAddLn, kBf16, {1, 1024, 11264}, 2, kAdd, "single_row_ext", 30, 47, 22, 1, 11264},
    // UT 80: f16 320 <= 2040: (196608 - 2560 - 2304) / (1920 + 8 + 2560 + 256) = 191744 / 4744
    // = 40 rows, 22 a core -> 22; 320 < 500: big_n_special_reduce 80.
    {kAddLn, kF16, {1, 1024, 320}, 2, kAdd, "big_n_special_reduce", 80, 47, 22, 22, 320},
    // f16 2032 (cA 2032 <= 2040, c32 2048): (196608 - 16384 - 2304) / (12288 + 8 + 16384 + 256)
    // = 177920 / 28936 = 6 rows; 10 a core, 48 cores.
    {kAddLn, kF16, {480, 2032}, 1, kAdd, "special_reduce", 70, 48, 10, 6, 2032},
    // f16 2040: cA 2048 > 2040 -> normal: (196608 - 8704) / (12288 + 8 + 24576) = 5, 1 a core.
    {kAddLn, kF16, {48, 2040}, 1, kAdd, "normal", 0, 48, 1, 1, 2040},
    // f32 768: (196608 - 6656) / (9216 + 8 + 9216) = 189952 / 18440 = 10; 86 a core, 48 cores.
    {kAddLn, kF32, {4096, 768}, 1, kAdd, "normal", 0, 48, 86, 10, 768},
    // f32 200 (c32 224): (196608 - 2304) / 5384 = 36, 1 a core; 200 < 500: big_n 40.
    {kAddLn, kF32, {8, 200}, 1, kAdd, "big_n", 40, 8, 1, 1, 200},
    // bf16 100 (c32 128): (196608 - 1024) / (768 + 8 + 1536) = 84; 42 a core -> 42; big_n.
    {kAddLn, kBf16, {2000, 100}, 1, kAdd, "big_n", 40, 48, 42, 42, 100},
    // f16 64: (196608 - 512 - 2304) / (384 + 8 + 512 + 256) = 193792 / 1160 = 167; 2084 a
    // core (ceil(100000 / 48)); 64 < 500: 80.
    {kAddLn, kF16, {100000, 64}, 1, kAdd, "big_n_special_reduce", 80, 48, 2084, 167, 64},
    // f16 16 (c32 32): (196608 - 256 - 2304) / (192 + 8 + 256 + 256) = 194048 / 712 = 272,
    // capped at 255.
    {kAddLn, kF16, {100000, 16}, 1, kAdd, "big_n_special_reduce", 80, 48, 2084, 255, 16},
    // f16 2048 > 2040: (196608 - 8704) / 36872 = 5; ceil(64 / 48) = 2 a core, 32 cores.
    {kAddLn, kF16, {64, 2048}, 1, kAdd, "normal", 0, 32, 2, 2, 2048},
    // f32 6144: normal (196608 - 49664) / 147464 < 1; single_row 28 x 6144 + 520 = 172552.
    {kAddLn, kF32, {16, 6144}, 1, kAdd, "single_row", 20, 16, 1, 1, 6144},
    // f32 8192: single_row 229896, single_row_ext 24 x 8192 + 520 = 197128, both too big;
    // slice: room 196608 - 98824 = 97784 > 2048 x 20; 97784 / 20 = 4889, not whole blocks
    // -> 4888.
    {kAddLn, kF32, {16, 8192}, 1, kAdd, "slice", 10, 16, 1, 1, 4888},
    // f16 12288: single_row_ext 16 x 12288 + 520 too big; slice: room 196608 - 98820 = 97788,
    // / 14 = 6984 (6984 % 16 = 8) -> 6976.
    {kAddLn, kF16, {8, 12288}, 1, kAdd, "slice", 10, 8, 1, 1, 6976},
    // f32 40000: slice's constants (12 x 40000 + ...) exceed the UB; slice_ext: 196088 / 32 =
    // 6127 -> 6120.
    {kAddLn, kF32, {4, 40000}, 1, kAdd, "slice_ext", 50, 4, 1, 1, 6120},
    // bf16 100000: slice_ext 196088 / 22 = 8913 -> 8912.
    {kAddLn, kBf16, {2, 100000}, 1, kAdd, "slice_ext", 50, 2, 1, 1, 8912},
    // Trailing dims: [3, 7, 5000] from dim 1 is 3 rows of 35000: slice_ext 8912 (f16).
    {kAddLn, kF16, {3, 7, 5000}, 1, kAdd, "slice_ext", 50, 3, 1, 1, 8912},
    // [3, 7, 500] from dim 1: rows of 3500 (c32 3520): (196608 - 14592) / (21120 + 8 + 42240)
    // = 2 rows, 1 a core.
    {kAddLn, kF16, {3, 7, 500}, 1, kAdd, "normal", 0, 3, 1, 1, 3500},
};

// AddLayerNormGrad (no dsum; ops-nn's keys add 1 with it): rows ceil-split, every core
// launched; UB 196608 - 1280 = 195328; c8, c16: cols aligned to 8, 16. f32: n = (48832 -
// 4 c8) / (5 c8 + 16) rows, else cut_d chunks of rounddown(48816 / 9 = 5424, 8) = 5416 (ops-nn's
// round-down takes a block off a multiple). 16-bit: n = (195328 - 12 c8 - 2 c16) / (64 +
// 16 c8 + 8 c16), else chunks of rounddown(195328 / 38 = 5140, 16) = 5120. Keys: f32 10 / 40,
// f16 20 / 50, bf16 30 / 60 (cut_n / cut_d). Rows a pass at most the core's rows.
const Golden kAddLayerNormGrad[] = {
    // UT 005 (41 with dsum): f32 12288: 48832 - 49152 < 0 -> cut_d 40, chunks of 5416.
    {kAddLnGrad, kF32, {40, 1, 12288}, 2, kAddGrad, "cut_d", 40, 40, 1, 1, 5416},
    // UT 001 (21 with dsum): f16 133 (c8 136, c16 144): (195328 - 1632 - 288) / (64 + 2176 +
    // 1152) = 193408 / 3392 = 57 rows; 1 a core.
    {kAddLnGrad, kF16, {40, 1, 133}, 2, kAddGrad, "cut_n", 20, 40, 1, 1, 133},
    // UT (910B, 21 with dsum, every core launched): 8 rows on 8 cores.
    {kAddLnGrad, kF16, {8, 1, 133}, 2, kAddGrad, "cut_n", 20, 8, 1, 1, 133},
    // f32 1024: (48832 - 4096) / 5136 = 8; 86 a core.
    {kAddLnGrad, kF32, {4096, 1024}, 1, kAddGrad, "cut_n", 10, 48, 86, 8, 1024},
    // f32 5424: (48832 - 21696) / 27136 = 1, the longest whole row; 21 a core.
    {kAddLnGrad, kF32, {1000, 5424}, 1, kAddGrad, "cut_n", 10, 48, 21, 1, 5424},
    // f32 5425 (c8 5432): 27104 / 27176 = 0 -> cut_d, 5416.
    {kAddLnGrad, kF32, {1000, 5425}, 1, kAddGrad, "cut_d", 40, 48, 21, 1, 5416},
    // f32 5432: cut_d, 2 chunks; ceil(96 / 48) = 2 a core.
    {kAddLnGrad, kF32, {96, 5432}, 1, kAddGrad, "cut_d", 40, 48, 2, 1, 5416},
    // bf16 4096: (195328 - 57344) / (64 + 98304) = 1; 43 a core, 48 cores.
    {kAddLnGrad, kBf16, {2048, 4096}, 1, kAddGrad, "cut_n", 30, 48, 43, 1, 4096},
    // bf16 8192: (195328 - 114688) / 196672 = 0 -> cut_d 60, 5120; 2 a core, 32 cores.
    {kAddLnGrad, kBf16, {64, 8192}, 1, kAddGrad, "cut_d", 60, 32, 2, 1, 5120},
    // f16 16000: 195328 - 224000 < 0 -> cut_d 50; 3 a core, 34 cores.
    {kAddLnGrad, kF16, {100, 16000}, 1, kAddGrad, "cut_d", 50, 34, 3, 1, 5120},
    // f16 64: (195328 - 896) / 1600 = 121; 105 a core -> 105.
    {kAddLnGrad, kF16, {5000, 64}, 1, kAddGrad, "cut_n", 20, 48, 105, 105, 64},
    // Trailing dims: bf16 [2, 3, 10] from dim 1, 2 rows of 30 (c8 = c16 = 32): (195328 - 448)
    // / 832 = 234, 1 a core.
    {kAddLnGrad, kBf16, {2, 3, 10}, 1, kAddGrad, "cut_n", 30, 2, 1, 1, 30},
    // f32 [7, 5, 3] from dim 1: 7 rows of 15 (c8 16): 48768 / 96 = 508, 1 a core.
    {kAddLnGrad, kF32, {7, 5, 3}, 1, kAddGrad, "cut_n", 10, 7, 1, 1, 15},
};

// clang-format off
// ---- The optional inputs: f32 gamma, AddLayerNorm's bias and additionalOutput, dsum ----------
// Each problem names its inputs (tiling::NormInputs); the plain call's goldens above leave them.
constexpr DType kSame = DType::kUndefined;  // gamma in the dtype
constexpr tiling::NormInputs In(DType param, tiling::NormBias bias = tiling::NormBias::kNone,
                                bool additional_output = false, bool dsum = false) {
  return {param, bias, additional_output, dsum};
}
const tiling::NormInputs kGammaF32 = In(kF32);

// f32 gamma beside 16-bit x. LayerNormV4 (layer_norm_v4_*_tiling.cpp): the dtype key is x * 10
// + gamma (f32 0), so transpose 210 / 220, merge_n 600 (+1000), common 700; single_read asks
// for bf16 gamma (its IsCapable, and the op_api's IsV4SocCheck asks x's dtype = weight's), so
// a bf16 row of 1024 or 4096 goes to merge_n on LayerNormV3; transpose aligns gamma's buffers
// to its own 8-element blocks. LayerNormGradV3: dtype key f16/f32 3, bf16/f32 5, its UB split
// read from dy's dtype alone. RmsNorm (rms_norm_tiling.cpp, CalMixDtypeTiling): cA to 16, UB
// 195584: merge_n 2 (cA <= 2000, 195584 / (16 cA + 288) rows), normal 0 (16 cA + 512 <
// 195584), single_row 3 (14 cA + 512 < 195584), split_d 1 ((195584 - 2560) / 16 = 12064 a
// chunk).
const Golden kMixedParam[] = {
    // cols 17 <= 64, cA 32 != 17 -> transpose 210; 21 a core, 48 cores; gamma 24 x 4 = 96 B
    // twice: room 195392 / (16 x 17 + 4) = 707 >= 21; f = 21 fits (14464 B).
    {kLn, kF16, {1000, 17}, 1, kV4, "transpose", 210, 48, 21, 21, 17, 0, kGammaF32},
    // UT 220 (bf16 x, f32 gamma and beta): cols 20, cA 32 -> transpose; 18 rows on 18 cores.
    {kLn, kBf16, {18, 20}, 1, kV4, "transpose", 220, 18, 1, 1, 20, 0, kGammaF32},
    // bf16 40 (cA 48) -> transpose 220; ceil(64 / 48) = 2 a core, 32 cores.
    {kLn, kBf16, {64, 40}, 1, kV4, "transpose", 220, 32, 2, 2, 40, 0, kGammaF32},
    // bf16 1024 with f32 gamma: no single_read (122 with bf16 gamma) -> merge_n on V3, 86 a
    // core, 1024 <= 1280: 1600; able = 48640 / 1025 / 2 = 23.
    {kLn, kBf16, {4096, 1024}, 1, kV3, "merge_n", 1600, 48, 86, 23, 1024, 0, kGammaF32},
    // f16 2048: nRow 20 > 2 -> merge_n 600 (601 with f16 gamma); able = 48640 / 2049 / 2 = 11.
    {kLn, kF16, {960, 2048}, 1, kV3, "merge_n", 600, 48, 20, 11, 2048, 0, kGammaF32},
    // nRow 1 -> common 700 (701 with f16 gamma); chunks of 24192.
    {kLn, kF16, {48, 30000}, 1, kV3, "common", 700, 48, 1, 1, 24192, 0, kGammaF32},
    // WithImplMode alike: bf16 1280, nRow 100 -> merge_n 1600; able = 48640 / 1281 / 2 = 18.
    {kLnImpl, kBf16, {4800, 1280}, 1, kV3, "merge_n", 1600, 48, 100, 18, 1280, 0, kGammaF32},
    // LayerNormGradV3: UT 113, UT 112's shape with f32 gamma: single_read, 2 rows a pass.
    {kLnGrad, kF16, {48, 4096}, 1, kV3Grad, "single_read", 113, 48, 1, 2, 4096, 0, kGammaF32},
    // UT 115: bf16 x, f32 gamma.
    {kLnGrad, kBf16, {48, 4096}, 1, kV3Grad, "single_read", 115, 48, 1, 2, 4096, 0, kGammaF32},
    // bf16 20000 -> workspace 215; 3 a core, 34 cores; chunks of 8176.
    {kLnGrad, kBf16, {100, 20000}, 1, kV3Grad, "workspace", 215, 34, 3, 1, 8176, 0, kGammaF32},
    // f16 50 (cA 64) -> transpose 313.
    {kLnGrad, kF16, {3, 50}, 1, kV3Grad, "transpose", 313, 3, 1, 1, 50, 0, kGammaF32},
    // bf16 16 = cA -> common 415, UT 412's budget: 654 rows a pass.
    {kLnGrad, kBf16, {48, 16}, 1, kV3Grad, "common", 415, 48, 1, 654, 16, 0, kGammaF32},
    // RmsNorm merge_n 2: 195584 / (1024 + 288) = 149 rows a pass (152 with f16 gamma: 260 B a
    // row); ceil(10000 / 48) = 209 a core, 48 cores.
    {kRms, kF16, {10000, 64}, 1, "RmsNorm", "merge_n", 2, 48, 209, 149, 64, 0, kGammaF32},
    // cA 12176: 16 x 12176 + 512 = 195328 < 195584 -> normal 0.
    {kRms, kF16, {48, 12176}, 1, "RmsNorm", "normal", 0, 48, 1, 1, 12176, 0, kGammaF32},
    // cA 12192: 195584 not < 195584; 14 x 12192 + 512 = 171200 -> single_row 3.
    {kRms, kF16, {48, 12190}, 1, "RmsNorm", "single_row", 3, 48, 1, 1, 12190, 0, kGammaF32},
    // bf16 12288 (normal 0 with bf16 gamma): 197120 over -> single_row 3.
    {kRms, kBf16, {48, 12288}, 1, "RmsNorm", "single_row", 3, 48, 1, 1, 12288, 0, kGammaF32},
    // UT 3 (mix_dtype_3): cA 12288: 197120 over; 14 x 12288 + 512 = 172544 -> single_row.
    {kRms, kF16, {24, 1, 12288}, 2, "RmsNorm", "single_row", 3, 24, 1, 1, 12288, 0, kGammaF32},
    // UT 1 (mix_dtype_1): 25600 -> split_d, chunks of 12064 (8544 with f16 gamma).
    {kRms, kF16, {24, 1, 25600}, 2, "RmsNorm", "split_d", 1, 24, 1, 1, 12064, 0, kGammaF32},
    // cA 13936: 14 x 13936 + 512 = 195616 over -> split_d 1, chunks of 12064.
    {kRms, kF16, {8, 13936}, 1, "RmsNorm", "split_d", 1, 8, 1, 1, 12064, 0, kGammaF32},
    // bf16 100000 -> split_d 1, 12064 (chunks of 11120 with bf16 gamma); 2 a core.
    {kRms, kBf16, {96, 100000}, 1, "RmsNorm", "split_d", 1, 48, 2, 1, 12064, 0, kGammaF32},
};

// AddLayerNorm's bias (key + 1 of x1's size, + 2 a row) and additionalOutput (+ 100), read
// from AddLayerNormTilingImpl and Tiling4AddLayerNorm. A row bias sits whole beside gamma in
// special_reduce's, normal's, slice's and slice_ext's budgets (2 or 4 x c32 B; slice_ext per
// element); a bias of x1's size is a row queue the kernel shares and takes no budget, but it
// rules out special_reduce. additionalOutput is a fourth row queue (e x c32 B a row) in
// normal, single_row, slice and slice_ext; single_row_ext and special_reduce ignore it.
// normal_special 60 (f16 x and gamma with a row bias): when normal takes between 0 and 2
// rows and (196608 - 10 c32 - 512) / (14 c32 + 8) more than 2. single_row_less_tensor 90
// (additionalOutput on): f32 x and gamma without a bias, 12 B an element; or 16-bit x, f32
// gamma, no or a row bias, 14 B an element; plus 520 B, after single_row_ext. f32 gamma (and
// beta) beside 16-bit x takes 4 bytes an element in every budget, and no special_reduce (it
// asks for f16 gamma).
constexpr tiling::NormBias kFull = tiling::NormBias::kFull, kRowBias = tiling::NormBias::kRow;
const Golden kAddLayerNormInputs[] = {
    // AddLayerNorm f16 768 with f32 gamma: no special_reduce; normal: (196608 - 8 x 768 - 512)
    // / (6 x 768 + 8 + 12 x 768) = 189952 / 13832 = 13 rows; 86 a core.
    {kAddLn, kF16, {4096, 768}, 1, kAdd, "normal", 0, 48, 86, 13, 768, 0, kGammaF32},
    // bf16 9000: single_row (6 + 8 + 8) x 9000 + 520 = 198520 over; single_row_ext (4 + 8 + 8)
    // x 9000 + 520 = 180520 -> 30 (single_row 20 with bf16 gamma).
    {kAddLn, kBf16, {16, 9000}, 1, kAdd, "single_row_ext", 30, 16, 1, 1, 9000, 0, kGammaF32},
    // f16 12288: slice: room 196608 - (8 x 12288 + 4 + 4 x 12288 + 512) = 48636, / 14 = 3474
    // (3474 % 16 = 2) -> 3472 (6976 with f16 gamma).
    {kAddLn, kF16, {8, 12288}, 1, kAdd, "slice", 10, 8, 1, 1, 3472, 0, kGammaF32},
    // bf16 100000: slice_ext (196608 - 520) / (6 + 8 + 12) = 7541 -> 7536.
    {kAddLn, kBf16, {2, 100000}, 1, kAdd, "slice_ext", 50, 2, 1, 1, 7536, 0, kGammaF32},
    // UT 100 (f32, additionalOutput): normal (196608 - 20992) / (40960 + 8 + 30720) = 2 rows,
    // 1 a core; 24 cores.
    {kAddLn, kF32, {24, 1, 2560}, 2, kAdd, "normal", 100, 24, 1, 1, 2560, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // UT 22 (bias_bc, a row bias): normal (196608 - 61952) / 184328 < 1; single_row (6 + 8 + 4)
    // x 10240 + 520 = 184840 (no bias term) -> 20 + 2; 22 a core, 47 cores.
    {kAddLn, kBf16, {1, 1024, 10240}, 2, kAdd, "single_row", 22, 47, 22, 1, 10240, 0,
     In(kSame, kRowBias)},
    // UT 21 (a bias of x1's shape): the same single_row, + 1.
    {kAddLn, kBf16, {1, 1024, 10240}, 2, kAdd, "single_row", 21, 47, 22, 1, 10240, 0,
     In(kSame, kFull)},
    // UT 11 (slice, a bias of x1's shape): 12288 over single_row_ext (197128); slice room
    // 97788 / 14 = 6984 -> 6976, + 1.
    {kAddLn, kBf16, {1, 1024, 12288}, 2, kAdd, "slice", 11, 47, 22, 1, 6976, 0, In(kSame, kFull)},
    // UT 41 (big_n, a bias of x1's shape): 480 (c32 480): (196608 - 2432) / 8648 = 22, 22 a
    // core; 480 < 500 -> 40 + 1.
    {kAddLn, kBf16, {1, 1024, 480}, 2, kAdd, "big_n", 41, 47, 22, 22, 480, 0, In(kSame, kFull)},
    // UT 51 (slice_ext, a bias of x1's shape): 196088 / 22 = 8913 -> 8912, + 1.
    {kAddLn, kBf16, {1, 1024, 58172}, 2, kAdd, "slice_ext", 51, 47, 22, 1, 8912, 0,
     In(kSame, kFull)},
    // UT 62 (special_normal, f16, a row bias): cA 5120 > 2040; normal (196608 - 31232) / 92168
    // = 1.79; normal_special (196608 - 51712) / 71688 = 2.02 -> 2 rows, 1 a core, 40 cores.
    {kAddLn, kF16, {1, 40, 5120}, 2, kAdd, "normal_special", 62, 40, 1, 1, 5120, 0,
     In(kSame, kRowBias)},
    // UT 190 (mix_input_x1: x1 bf16, x2, gamma and beta f32, additionalOutput): computed in
    // f32; single_row_ext 24 x 12288 over; less tensor 12 x 12288 + 520 = 147976 -> 190;
    // 6 a core, 43 cores.
    {kAddLn, kF32, {1, 256, 12288}, 2, kAdd, "single_row_less_tensor", 190, 43, 6, 1, 12288, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // UT 100 (mix_input_gamma: bf16 x, f32 gamma, additionalOutput): normal (196608 - 41472) /
    // (40960 + 8 + 61440) = 1.51 -> 1 row; 3 a core, 34 cores.
    {kAddLn, kBf16, {1, 100, 5120}, 2, kAdd, "normal", 100, 34, 3, 1, 5120, 0,
     In(kF32, tiling::NormBias::kNone, true)},
    // f16 x, f32 gamma, a row bias, additionalOutput: single_row_ext 20 x 12288 over; less
    // tensor 14 x 12288 + 520 = 172552 -> 192.
    {kAddLn, kF16, {1, 100, 12288}, 2, kAdd, "single_row_less_tensor", 192, 34, 3, 1, 12288, 0,
     In(kF32, kRowBias, true)},
    // UT 172 (f16 640, a row bias, additionalOutput): special_reduce (196608 - 5120 - 1280 -
    // 2304) / 9224 = 20 rows -> 70 + 100 + 2.
    {kAddLn, kF16, {1, 1024, 640}, 2, kAdd, "special_reduce", 172, 47, 22, 20, 640, 0,
     In(kSame, kRowBias, true)},
    // UT 82 (f16 320, a row bias): (196608 - 5504) / 4744 = 40, 22 a core; 320 < 500 -> 80 + 2.
    {kAddLn, kF16, {1, 1024, 320}, 2, kAdd, "big_n_special_reduce", 82, 47, 22, 22, 320, 0,
     In(kSame, kRowBias)},
    // UT 170 (f16 640, additionalOutput): (196608 - 7424) / 9224 = 20 -> 170.
    {kAddLn, kF16, {1, 1024, 640}, 2, kAdd, "special_reduce", 170, 47, 22, 20, 640, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // f16 2032, a row bias: special_reduce (196608 - 16384 - 4096 - 2304) / 28936 = 6 -> 72.
    {kAddLn, kF16, {480, 2032}, 1, kAdd, "special_reduce", 72, 48, 10, 6, 2032, 0,
     In(kSame, kRowBias)},
    // The same with a bias of x1's size: no special_reduce; normal (196608 - 8704) / 36872 = 5
    // -> 1.
    {kAddLn, kF16, {480, 2032}, 1, kAdd, "normal", 1, 48, 10, 5, 2032, 0, In(kSame, kFull)},
    // UT 80's shape with a row bias and additionalOutput: (196608 - 2560 - 640 - 2304) / 4744
    // = 40, 22 a core; 320 < 500 -> 80 + 100 + 2.
    {kAddLn, kF16, {1, 1024, 320}, 2, kAdd, "big_n_special_reduce", 182, 47, 22, 22, 320, 0,
     In(kSame, kRowBias, true)},
    // f16 5000 (c32 5024), a row bias: normal (196608 - 30144 - 512) / 90440 = 1.83, under 2;
    // normal_special (196608 - 50240 - 512) / 70344 = 2.07 -> 2 rows, 62.
    {kAddLn, kF16, {96, 5000}, 1, kAdd, "normal_special", 62, 48, 2, 2, 5000, 0,
     In(kSame, kRowBias)},
    // With additionalOutput normal is 165952 / 100488 = 1.65 -> normal_special 162.
    {kAddLn, kF16, {96, 5000}, 1, kAdd, "normal_special", 162, 48, 2, 2, 5000, 0,
     In(kSame, kRowBias, true)},
    // No bias: normal (196608 - 20608) / 90440 = 1 row -> 0.
    {kAddLn, kF16, {96, 5000}, 1, kAdd, "normal", 0, 48, 2, 1, 5000},
    // f32 768, additionalOutput: normal (196608 - 6656) / (12288 + 8 + 9216) = 8 rows -> 100.
    {kAddLn, kF32, {4096, 768}, 1, kAdd, "normal", 100, 48, 86, 8, 768, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // UT 302's shape, additionalOutput: single_row (8 + 8 + 4) x 10240 + 520 over;
    // single_row_ext 16 x 10240 + 520 = 164360 -> 130.
    {kAddLn, kBf16, {1, 1024, 10240}, 2, kAdd, "single_row_ext", 130, 47, 22, 1, 10240, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // f32 16000, additionalOutput, no bias: single_row_ext 24 x 16000 over; less tensor 12 x
    // 16000 + 520 = 192520 -> 190.
    {kAddLn, kF32, {4, 16000}, 1, kAdd, "single_row_less_tensor", 190, 4, 1, 1, 16000, 0,
     In(kSame, tiling::NormBias::kNone, true)},
    // f16 12000, f32 gamma, a row bias, additionalOutput: single_row_ext 20 x 12000 over; less
    // tensor 14 x 12000 + 520 = 168520 -> 90 + 100 + 2.
    {kAddLn, kF16, {4, 12000}, 1, kAdd, "single_row_less_tensor", 192, 4, 1, 1, 12000, 0,
     In(kF32, kRowBias, true)},
    // The same with a bias of x1's size: no less tensor; slice: room 196608 - (96000 + 4 +
    // 48000 + 512) = 52092, / (8 + 8) = 3255 -> 3248, 10 + 100 + 1.
    {kAddLn, kF16, {4, 12000}, 1, kAdd, "slice", 111, 4, 1, 1, 3248, 0, In(kF32, kFull, true)},
    // f32 8192, a row bias: slice room 196608 - (65536 + 32768 + 8 + 32768 + 512) = 65016,
    // / 20 = 3250 -> 3248, 12.
    {kAddLn, kF32, {16, 8192}, 1, kAdd, "slice", 12, 16, 1, 1, 3248, 0, In(kSame, kRowBias)},
    // A bias of x1's size leaves slice's budget: 4888, 11.
    {kAddLn, kF32, {16, 8192}, 1, kAdd, "slice", 11, 16, 1, 1, 4888, 0, In(kSame, kFull)},
    // f32 40000, a row bias: slice_ext 196088 / (12 + 8 + 4 + 12) = 5446 -> 5440, 52.
    {kAddLn, kF32, {4, 40000}, 1, kAdd, "slice_ext", 52, 4, 1, 1, 5440, 0, In(kSame, kRowBias)},
};

// AddLayerNormGrad with dsum (add_layer_norm_grad_tiling.cpp, hasDxInput): one more row
// buffer, key + 1. f32: n = (48832 - 4 c8) / (6 c8 + 16), else chunks of rounddown((48832 -
// 16) / 10 = 4881, 8) = 4872. 16-bit: n = (195328 - 12 c8 - 2 c16) / (64 + 20 c8 + 10 c16),
// else chunks of rounddown(195328 / 44 = 4439, 16) = 4416.
const tiling::NormInputs kDsum = In(kSame, tiling::NormBias::kNone, false, true);
const Golden kAddLayerNormGradDsum[] = {
    // UT 005 with dsum (41): cut_d, 4872.
    {kAddLnGrad, kF32, {40, 1, 12288}, 2, kAddGrad, "cut_d", 41, 40, 1, 1, 4872, 0, kDsum},
    // UT 001 with dsum (21): (195328 - 1920) / (64 + 2720 + 1440) = 45 rows, 1 a core.
    {kAddLnGrad, kF16, {40, 1, 133}, 2, kAddGrad, "cut_n", 21, 40, 1, 1, 133, 0, kDsum},
    // f32 1024: (48832 - 4096) / 6160 = 7 rows (8 without dsum).
    {kAddLnGrad, kF32, {4096, 1024}, 1, kAddGrad, "cut_n", 11, 48, 86, 7, 1024, 0, kDsum},
    // f32 4880, the longest whole row: (48832 - 19520) / 29296 = 1.
    {kAddLnGrad, kF32, {1000, 4880}, 1, kAddGrad, "cut_n", 11, 48, 21, 1, 4880, 0, kDsum},
    // f32 4881 (c8 4888): 29280 / 29344 = 0 -> cut_d 41.
    {kAddLnGrad, kF32, {1000, 4881}, 1, kAddGrad, "cut_d", 41, 48, 21, 1, 4872, 0, kDsum},
    // f32 5424 (a whole row without dsum): 27136 / 32560 = 0 -> cut_d.
    {kAddLnGrad, kF32, {1000, 5424}, 1, kAddGrad, "cut_d", 41, 48, 21, 1, 4872, 0, kDsum},
    // bf16 4096: (195328 - 57344) / (64 + 81920 + 40960) = 1 -> 31.
    {kAddLnGrad, kBf16, {2048, 4096}, 1, kAddGrad, "cut_n", 31, 48, 43, 1, 4096, 0, kDsum},
    // f16 16000: cut_d 51, chunks of 4416; 3 a core, 34 cores.
    {kAddLnGrad, kF16, {100, 16000}, 1, kAddGrad, "cut_d", 51, 34, 3, 1, 4416, 0, kDsum},
    // f16 64: (195328 - 896) / 1984 = 98 rows (121 without dsum); 105 a core.
    {kAddLnGrad, kF16, {5000, 64}, 1, kAddGrad, "cut_n", 21, 48, 105, 98, 64, 0, kDsum},
};

// clang-format on

// ---- BatchNorm (BatchNormV3), BatchNormBackward ----------------------------------------------
// x [N, C, spatial...] as BatchNormV3's [R1, A, R0] = [N, C, prod(spatial)]; rows = the C
// channels of N x R0 (training, C >= 64). Channels ceil-split: ceil(C / 48) a core.
// full_reduce (R1 R0 < 8192): a = min(core's channels, 98304 / rN / (R1 R0)) (rN 8 f32,
// 7 16-bit), dropping until 20 align16(a) + rN rS <= 98304, rS = align16(a R1 R0A) (R0 1:
// align16(R1 align(a, R0A))), R0A = R0 aligned to 8 (f32) / 16; key 2000, 2001 when R0 = 1.
// welford: aU = align16(core's channels), at most 512; chunks of c = floorAlign((49152 - 10 aU)
// / 5, 16); R0 in ceil(R0 / c) chunks: 1001 when one or even, else 1000; when R0A <= c / 2 and
// N > 1, c / R0A samples a chunk: 1003 when one chunk or even, else 1002, + 10 when R0 = R0A.
const Golden kBatchNorm[] = {
    // UT 1000: R1 R0 = 12766 >= 8192 -> welford; 6 a core, 43 cores; aU 16; c =
    // floorAlign(48992 / 5 = 9798, 16) = 9792; R0 in 2 chunks, the last 2974 -> 1000; R0A
    // 12768 > 4896.
    {kBn, kF32, {1, 256, 13, 982}, 1, kBnV3, "welford_r0_split", 1000, 43, 6, 16, 9792},
    // UT 1001: R0 9000 in one chunk -> 1001; N 1.
    {kBn, kF32, {1, 256, 1, 9000}, 1, kBnV3, "welford_r0_split", 1001, 43, 6, 16, 9000},
    // UT 1002: R0 196, R0A 200 <= 4896: 9792 / 200 = 48 samples a chunk, 6 chunks, the last
    // 16 -> 1002 (196 != 200).
    {kBn, kF32, {256, 256, 14, 14}, 1, kBnV3, "welford_r1_split", 1002, 43, 6, 16, 9408},
    // UT 1003: 96 = 2 x 48 samples -> 1003.
    {kBn, kF32, {96, 256, 14, 14}, 1, kBnV3, "welford_r1_split", 1003, 43, 6, 16, 9408},
    // UT 1012: R0 224 = R0A: 9792 / 224 = 43 a chunk, 6 chunks, the last 41 -> 1002 + 10.
    {kBn, kF32, {256, 256, 14, 16}, 1, kBnV3, "welford_r1_split", 1012, 43, 6, 16, 9632},
    // UT 1013: 86 = 2 x 43 -> 1003 + 10.
    {kBn, kF32, {86, 256, 14, 16}, 1, kBnV3, "welford_r1_split", 1013, 43, 6, 16, 9632},
    // UT 1002 (full_reduce not capable): R1 R0 = 4800: a = min(28, 12288 / 4800 = 2); rS =
    // align16(4800 x 8) = 38400, 8 x 38400 > 98304 for a = 2 and 1 -> welford: 28 a core,
    // aU 32, c = floorAlign(48832 / 5, 16) = 9760; R0A 8: 1220 samples a chunk, 4 chunks,
    // the last 1140 -> 1002.
    {kBn, kF32, {4800, 1344, 1, 1}, 1, kBnV3, "welford_r1_split", 1002, 48, 28, 32, 1220},
    // UT 2000: R1 R0 = 2250: 43 a core, 48 cores; a = min(43, 12288 / 2250 = 5); rS =
    // align16(5 x 10 x 232) = 11600: 320 + 92800 <= 98304 -> 5.
    {kBn, kF32, {10, 2048, 15, 15}, 1, kBnV3, "full_reduce", 2000, 48, 43, 5, 2250},
    // UT 2001: R0 1, R1 500: a = min(43, 24); rS = align16(500 x align(24, 8)) = 12000: 640
    // + 96000 <= 98304 -> 24.
    {kBn, kF32, {500, 2048, 1, 1}, 1, kBnV3, "full_reduce_a_parallel", 2001, 48, 43, 24, 500},
    // bf16 [2, 64, 1000]: R 2000; 2 a core, 32 cores; a = min(2, 14043 / 2000 = 7); rS =
    // align16(2 x 2 x 1008) = 4032: 320 + 7 x 4032 <= 98304 -> 2.
    {kBn, kBf16, {2, 64, 1000}, 1, kBnV3, "full_reduce", 2000, 32, 2, 2, 2000},
    // f16 [4, 64, 8, 8]: R 256; a = min(2, 54) = 2; rS = align16(2 x 4 x 64) = 512 -> 2.
    {kBn, kF16, {4, 64, 8, 8}, 1, kBnV3, "full_reduce", 2000, 32, 2, 2, 256},
    // f32 [64, 128] (R0 1): 3 a core, 43 cores; a = min(3, 192); rS = align16(64 x 8) = 512.
    {kBn, kF32, {64, 128}, 1, kBnV3, "full_reduce_a_parallel", 2001, 43, 3, 3, 64},
    // f32 [8192, 64]: R1 R0 = 8192 -> welford; aU 16, c 9792; R0A 8: 1224 samples a chunk,
    // 7 chunks, the last 848 -> 1002.
    {kBn, kF32, {8192, 64}, 1, kBnV3, "welford_r1_split", 1002, 32, 2, 16, 1224},
    // f32 [8191, 64]: R 8191 < 8192 but a = min(2, 12288 / 8191 = 1): rS = align16(8191 x 8)
    // = 65536, 8 x 65536 > 98304 -> welford, as [8192, 64] (the last chunk 847).
    {kBn, kF32, {8191, 64}, 1, kBnV3, "welford_r1_split", 1002, 32, 2, 16, 1224},
    // f16 [32, 96, 7, 7]: R 1568; 2 a core, 48 cores; a = min(2, 8); R0A 64: rS =
    // align16(2 x 32 x 64) = 4096, 320 + 7 x 4096 <= 98304 -> 2.
    {kBn, kF16, {32, 96, 7, 7}, 1, kBnV3, "full_reduce", 2000, 48, 2, 2, 1568},
    // bf16 [2, 512, 64, 64]: R 8192 -> welford; 11 a core, 47 cores; aU 16, c 9792; R0 4096
    // = R0A <= 4896: 2 samples a chunk, one chunk -> 1003 + 10.
    {kBn, kBf16, {2, 512, 64, 64}, 1, kBnV3, "welford_r1_split", 1013, 47, 11, 16, 8192},
    // f32 [1, 1000, 100000]: 21 a core, 48 cores; aU 32, c 9760; R0 in 11 chunks, the last
    // 2400 -> 1000.
    {kBn, kF32, {1, 1000, 100000}, 1, kBnV3, "welford_r0_split", 1000, 48, 21, 32, 9760},
    // f32 [2, 30000, 3]: R 6; 625 a core; a = min(625, 2048); R0A 8: rS = align16(625 x 2 x 8)
    // = 10000: 20 x 640 + 8 x 10000 = 92800 <= 98304 -> 625.
    {kBn, kF32, {2, 30000, 3}, 1, kBnV3, "full_reduce", 2000, 48, 625, 625, 6},
    // f32 [4, 30000, 4096]: welford; aU capped at 512: c = floorAlign(44032 / 5, 16) = 8800;
    // R0 4096 = R0A <= 4400: 2 samples a chunk, 2 chunks, even -> 1003 + 10.
    {kBn, kF32, {4, 30000, 4096}, 1, kBnV3, "welford_r1_split", 1013, 48, 625, 512, 8192},
};

// Where the A2 op_api runs a TBE kernel, whose tiling ops-nn does not publish: BatchNorm
// with C < 64 (BNTrainingReduce, BNTrainingUpdate) and BatchNormBackward (BNTrainingUpdateGrad,
// BNTrainingReduceGrad; BatchNormGradV3 is Ascend 950's). No tiling is planned; the plan
// names the kernels.
struct Unpublished {
  Op op;
  DType dtype;
  std::vector<int64_t> shape;
  const char* kernel;
};
const Unpublished kBatchNormTbe[] = {
    {kBn, kF16, {8, 32, 4, 4}, "BNTrainingReduce + BNTrainingUpdate"},
    {kBn, kF32, {4, 63, 10}, "BNTrainingReduce + BNTrainingUpdate"},
    {kBn, kBf16, {1024, 1}, "BNTrainingReduce + BNTrainingUpdate"},
    {kBnGrad, kF32, {8, 64, 4, 4}, "BNTrainingUpdateGrad + BNTrainingReduceGrad"},
    {kBnGrad, kBf16, {256, 256, 14, 14}, "BNTrainingUpdateGrad + BNTrainingReduceGrad"},
    {kBnGrad, kF16, {2, 8}, "BNTrainingUpdateGrad + BNTrainingReduceGrad"},
    {kBnGrad, kF32, {2, 512, 64, 64}, "BNTrainingUpdateGrad + BNTrainingReduceGrad"},
};

TEST_F(TilingGoldenNorm, GoldenPlans) {
  struct Table {
    const char* name;
    const Golden* begin;
    const Golden* end;
  };
  const Table tables[] = {
      {"LayerNorm", std::begin(kLayerNorm), std::end(kLayerNorm)},
      {"LayerNormBackward", std::begin(kLayerNormBackward), std::end(kLayerNormBackward)},
      {"RmsNorm", std::begin(kRmsNorm), std::end(kRmsNorm)},
      {"AddRmsNorm", std::begin(kAddRmsNorm), std::end(kAddRmsNorm)},
      {"RmsNormGrad", std::begin(kRmsNormGrad), std::end(kRmsNormGrad)},
      {"GroupNorm", std::begin(kGroupNorm), std::end(kGroupNorm)},
      {"GroupNormBackward", std::begin(kGroupNormBackward), std::end(kGroupNormBackward)},
      {"AddLayerNorm", std::begin(kAddLayerNorm), std::end(kAddLayerNorm)},
      {"AddLayerNormGrad", std::begin(kAddLayerNormGrad), std::end(kAddLayerNormGrad)},
      {"BatchNorm", std::begin(kBatchNorm), std::end(kBatchNorm)},
      {"MixedParam", std::begin(kMixedParam), std::end(kMixedParam)},
      {"AddLayerNormInputs", std::begin(kAddLayerNormInputs), std::end(kAddLayerNormInputs)},
      {"AddLayerNormGradDsum", std::begin(kAddLayerNormGradDsum), std::end(kAddLayerNormGradDsum)}};
  for (const Table& t : tables) {
    SCOPED_TRACE(t.name);
    for (const Golden* g = t.begin; g != t.end; ++g) Expect(*g);
  }
}

// GroupNormGrad's hw_chunks take each channel's HxW apart: 2 channels of 16384 in chunks of
// 16256 are 2 x 2 = 4 passes, not ceil(32768 / 16256) = 3.
TEST_F(TilingGoldenNorm, GroupNormBackwardChunksEachChannel) {
  const tiling::Plan plan = MustPlan(
      {Op::kGroupNormBackward, kF32, {12, 64, 128, 128}, 1, "", "", 0, 0, 0, 0, 0, 32}, "atlas-a2");
  EXPECT_EQ(plan.norm.col_chunks, 4);
}

// GroupNormGrad refuses more than 8000 channels a group (aligned): no A2 tiling.
TEST_F(TilingGoldenNorm, GroupNormBackwardRefusesWideGroups) {
  const tiling::Plan plan = MustPlan(
      {Op::kGroupNormBackward, kF32, {2, 8192, 2}, 1, "", "", 0, 0, 0, 0, 0, 1}, "atlas-a2");
  EXPECT_FALSE(plan.norm.planned);
  EXPECT_EQ(plan.reduction.a1, 2);
  EXPECT_EQ(plan.reduction.r, 16384);
}

// A group that does not divide the channels is refused.
TEST_F(TilingGoldenNorm, GroupMustDivideTheChannels) {
  tiling::Plan plan;
  const Status s =
      tiling::MakePlan({Op::kGroupNorm, kF32, {2, 30, 4}, 1, 1, 4}, tiling::Options{}, &plan);
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
}

// merge_n deals the remainder one row to each of the first cores: 100 rows of 1024 (f16) on
// 48 cores are 4 x 3 + 44 x 2; the host's split is 3 a core over 34 cores.
TEST_F(TilingGoldenNorm, MergeNDealsTheRemainder) {
  const tiling::Plan plan =
      MustPlan({Op::kLayerNorm, kF16, {100, 1024}, 1, "", "", 0, 0, 0, 0, 0}, "atlas-a2");
  const tiling::NormTiling& t = plan.norm;
  EXPECT_EQ(t.tmpl, "merge_n");
  EXPECT_EQ(t.block_dim, 48);
  EXPECT_EQ(t.former_cores, 4);
  EXPECT_EQ(t.rows_per_core, 3);
  EXPECT_EQ(t.tail_rows, 2);
  EXPECT_EQ(plan.reduction.units_per_core, 3);
  EXPECT_EQ(plan.reduction.block_dim, 34);
}

// single_read's blocks: 8192 rows of 4096 (bf16) in blocks of 5: 6 x 175 + 42 x 170 + 2.
TEST_F(TilingGoldenNorm, SingleReadBlocksRoundRobin) {
  const tiling::Plan plan =
      MustPlan({Op::kLayerNorm, kBf16, {8192, 4096}, 1, "", "", 0, 0, 0, 0, 0}, "atlas-a2");
  const tiling::NormTiling& t = plan.norm;
  EXPECT_EQ(t.former_cores, 6);
  EXPECT_EQ(t.tail_rows, 170);
  EXPECT_EQ(t.leftover_rows, 2);
}

// atlas-a2-40 plans with 40 cores: RmsNorm of 1000 rows: ceil(1000 / 40) = 25 a core.
TEST_F(TilingGoldenNorm, BatchNormTbeKernelsPlanNoTiling) {
  for (const Unpublished& u : kBatchNormTbe) {
    const tiling::Plan plan =
        MustPlan({u.op, u.dtype, u.shape, 1, "", "", 0, 0, 0, 0, 0}, "atlas-a2");
    const std::string what = plan.op + " " + tiling::ShapeText(u.shape);
    EXPECT_FALSE(plan.norm.planned) << what;
    EXPECT_EQ(plan.norm.kernel, u.kernel) << what;
    EXPECT_NE(plan.norm.why.find("does not publish"), std::string::npos) << what;
    EXPECT_NE(plan.ToJson().find("\"planned\": false"), std::string::npos) << what;
  }
}

TEST_F(TilingGoldenNorm, BatchNormWelfordAndHostSegments) {
  // [256, 256, 14, 14]: 43 A2 cores of 6 channels (the last 4); the host's 65536 segments
  // ceil-split over them: 1525 a core.
  const tiling::Plan plan =
      MustPlan({Op::kBatchNorm, kF32, {256, 256, 14, 14}, 1, "", "", 0, 0, 0, 0, 0}, "atlas-a2");
  EXPECT_TRUE(plan.norm.welford);
  EXPECT_EQ(plan.norm.rows, 256);
  EXPECT_EQ(plan.norm.cols, 256 * 196);
  EXPECT_EQ(plan.norm.former_cores, 42);
  EXPECT_EQ(plan.norm.tail_rows, 4);
  EXPECT_EQ(plan.norm.col_chunks, 6);
  EXPECT_EQ(plan.reduction.units_per_core, 1525);
  EXPECT_EQ(plan.reduction.block_dim, 43);
}

TEST_F(TilingGoldenNorm, BatchNormRandomShapesCheck) {
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> exp(0, 14), small(1, 40);
  const DType dtypes[] = {kF32, kF16, kBf16};
  for (int i = 0; i < 1500; ++i) {
    const int64_t n = (int64_t{1} << (exp(rng) % 11)) + small(rng) % 3;
    const int64_t c = (int64_t{1} << (exp(rng) % 13)) + small(rng) % 5;
    const int64_t s = (int64_t{1} << exp(rng)) + small(rng) % 7;
    tiling::Options o;
    o.platform = i % 2 ? "atlas-a2" : "atlas-a2-40";
    tiling::Plan plan;
    const Status st = tiling::MakePlan({Op::kBatchNorm, dtypes[i % 3], {n, c, s}, 1}, o, &plan);
    ASSERT_TRUE(st.ok()) << n << " x " << c << " x " << s << ": " << st.message();
    EXPECT_EQ(plan.norm.planned, c >= 64) << n << " x " << c << " x " << s;
    EXPECT_FALSE(plan.norm.kernel.empty());
  }
}

TEST_F(TilingGoldenNorm, AddLayerNormGradLaunchesEveryCore) {
  // ops-nn's 910B unit test (40 cores): 8 rows, SetBlockDim(40).
  const tiling::Plan plan =
      MustPlan({Op::kAddLayerNormGrad, kF16, {8, 1, 133}, 2, "", "", 0, 0, 0, 0, 0}, "atlas-a2-40");
  EXPECT_EQ(plan.norm.block_dim, 8);
  EXPECT_EQ(plan.norm.launched_cores, 40);
}

TEST_F(TilingGoldenNorm, FortyCores) {
  const tiling::Plan plan =
      MustPlan({Op::kRmsNorm, kF32, {1000, 256}, 1, "", "", 0, 0, 0, 0, 0}, "atlas-a2-40");
  EXPECT_TRUE(plan.norm.planned);
  EXPECT_EQ(plan.norm.block_dim, 40);
  EXPECT_EQ(plan.norm.rows_per_core, 25);
  EXPECT_EQ(plan.reduction.block_dim, 40);
}

// The host profile, Ascend 950 and the operators without an A2 reading keep the reduction
// plan alone.
TEST_F(TilingGoldenNorm, OnlyAtlasA2PlansTheA2Tiling) {
  const Golden rms{Op::kRmsNorm, kF32, {1000, 256}, 1, "", "", 0, 0, 0, 0, 0};
  EXPECT_FALSE(MustPlan(rms, "host").norm.planned);
  EXPECT_FALSE(MustPlan(rms, "ascend950").norm.planned);
  EXPECT_TRUE(MustPlan(rms, "atlas-a2").norm.planned);
  // GroupNorm without its group: rows fused around dim, no A2 tiling.
  const Golden gn{Op::kGroupNormBackward, kF32, {8, 32, 16, 16}, 3, "", "", 0, 0, 0, 0, 0};
  EXPECT_FALSE(MustPlan(gn, "atlas-a2").norm.planned);
}

// A UB overridden below what a template assumes leaves no row a pass: no A2 tiling (ops-nn's
// would fail), and the plan still checks.
TEST_F(TilingGoldenNorm, ATinyUbPlansNoA2Tiling) {
  tiling::Options o;
  o.platform = "atlas-a2";
  o.ub_bytes = 16384;
  tiling::Plan plan;
  ASSERT_TRUE(tiling::MakePlan({Op::kRmsNorm, kF16, {100, 1551}, 1}, o, &plan).ok());
  EXPECT_FALSE(plan.norm.planned);  // merge_n: 15360 / (1552 * 16 + 260) = 0 rows
}

// Every normalisation with an A2 reading, over random shapes and dtypes: the plan checks
// (the cores' rows add up, the chunks cover a row, the host's cores within A2's).
TEST_F(TilingGoldenNorm, RandomShapesCheck) {
  std::mt19937_64 rng(5);
  const Op ops[] = {Op::kLayerNorm,         Op::kLayerNormWithImplMode, Op::kLayerNormBackward,
                    Op::kRmsNorm,           Op::kRmsNormGrad,           Op::kAddRmsNorm,
                    Op::kInplaceAddRmsNorm, Op::kAddLayerNorm,          Op::kAddLayerNormGrad};
  const DType dtypes[] = {kF32, kF16, kBf16};
  std::uniform_int_distribution<int64_t> exp(0, 17);
  for (int i = 0; i < 4000; ++i) {
    const Op op = ops[i % std::size(ops)];
    const DType dtype = dtypes[(i / std::size(ops)) % 3];
    const int64_t rows = (int64_t{1} << exp(rng)) + exp(rng);
    const int64_t cols = (int64_t{1} << exp(rng)) + exp(rng) * 3;
    tiling::Options o;
    o.platform = i % 2 ? "atlas-a2" : "atlas-a2-40";
    tiling::Plan plan;
    const Status s = tiling::MakePlan({op, dtype, {rows, cols}, 1}, o, &plan);
    ASSERT_TRUE(s.ok()) << GetOpInfo(op).snake_name << " " << rows << " x " << cols << ": "
                        << s.message();
    ASSERT_TRUE(plan.norm.planned);
    EXPECT_FALSE(plan.norm.tmpl.empty());
  }
  // GroupNorm and its gradient over random [N, C, HxW] and groups.
  std::uniform_int_distribution<int64_t> small(1, 64);
  for (int i = 0; i < 2000; ++i) {
    const Op op = i % 2 ? Op::kGroupNorm : Op::kGroupNormBackward;
    const int64_t group = small(rng), n = small(rng);
    const int64_t channels = group * (i % 3 ? small(rng) : 1);
    const int64_t hw = (int64_t{1} << (exp(rng) % 15)) + small(rng) % 3;
    tiling::Options o;
    o.platform = "atlas-a2";
    tiling::Plan plan;
    const Status s =
        tiling::MakePlan({op, dtypes[i % 3], {n, channels, hw}, 1, 1, group}, o, &plan);
    ASSERT_TRUE(s.ok()) << n << " x " << channels << " x " << hw << " / " << group << ": "
                        << s.message();
    EXPECT_TRUE(plan.norm.planned) << GetOpInfo(op).snake_name << " " << n << " x " << channels
                                   << " x " << hw << " / " << group;
    EXPECT_EQ(plan.norm.rows, n * group);
  }
}

}  // namespace
}  // namespace hostnn
