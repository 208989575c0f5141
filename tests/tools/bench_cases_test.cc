// The benchmarks' cases (bench/cases.h), which hostnn-scale, the ops benchmark and the peers
// run for every operator of the list: each operator's standard cases prepare and run through
// the C++ API and through the C API, for every compute dtype it takes. An operator whose
// operands the cases do not build (a second input, an int array) fails here, not in the
// main job's scaling table; the C API's call, made from the C++ call's operands, gives the
// same out.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include <string>
#include <vector>

#include "bench/cases.h"
#include "hostnn/op.h"
#include "tests/util/capi_ops.h"
#include "tests/util/operand_roles.h"

namespace hostnn {
namespace {

TEST(BenchCases, EveryOperatorPreparesAndRunsItsStandardCases) {
  for (Op op : AllOps()) {
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      if (!TakesComputeType(GetOpInfo(op).dtypes, dtype)) continue;  // Shrink: no BFLOAT16
      for (const bench::CaseSpec& spec : bench::StandardCases(op, dtype, 4096)) {
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(dtype) + " " +
                     spec.ShapeText());
        bench::CaseData data(spec);
        const Status s = data.Prepare();
        ASSERT_TRUE(s.ok()) << s.message();
        data.Run();
        // The C API call takes the C++ call's operands (tests/util/capi_call.h): out comes back
        // the same, bit for bit (an in-place operator's second call would read its first
        // call's result: only its status is checked).
        const TensorView& out = data.out_view();
        int64_t out_elems = 1;
        for (int64_t d : out.shape) out_elems *= d;
        const size_t out_bytes = static_cast<size_t>(out_elems) * DTypeSize(out.dtype);
        const auto* out_bits = static_cast<const uint8_t*>(out.data);
        const std::vector<uint8_t> want(out_bits, out_bits + out_bytes);
        std::memset(out.data, 0x5A, out_bytes);
        EXPECT_EQ(data.RunCApiCall(), 0);
        if (!IsInplace(GetOpInfo(op).signature)) {
          EXPECT_EQ(std::memcmp(want.data(), out_bits, out_bytes), 0) << "C API's out differs";
        }
        EXPECT_EQ(data.RunCApiPrepare(), 0);
      }
    }
  }
}

// A case hostnn-scale makes from --shape alone: GroupNorm's N, C and HxW come from the shape
// (SetShapeScalars), so the case prepares and runs through both APIs.
TEST(BenchCases, ShapeOnlyCasesTakeGroupNormsShape) {
  for (Op op : AllOps()) {
    if (GetOpInfo(op).shapes != ShapeRule::kChannelGroups) continue;
    SCOPED_TRACE(GetOpInfo(op).name);
    bench::CaseSpec spec{op, DType::kFloat32, {2, 8, 5}, -1, {}};
    bench::SetShapeScalars(&spec);
    bench::CaseData data(spec);
    const Status s = data.Prepare();
    ASSERT_TRUE(s.ok()) << s.message();
    data.Run();
    EXPECT_EQ(data.RunCApiCall(), 0);
  }
}

// Embedding's lookups: a weight of other rows than indices, parsed from rows x d x indices,
// prepares and runs through both APIs, and its out rows are weight rows.
TEST(BenchCases, EmbeddingShapesParseAndRun) {
  std::vector<bench::EmbeddingShape> shapes;
  ASSERT_TRUE(bench::ParseEmbeddingShapes("1000x64x300,4x3x9", &shapes));
  ASSERT_EQ(shapes.size(), 2u);
  EXPECT_EQ(shapes[0].rows, 1000);
  EXPECT_EQ(shapes[0].d, 64);
  EXPECT_EQ(shapes[0].indices, 300);
  for (const char* bad : {"", "1000x64", "1000x64x0", "0x1x1", "1x1x1x1", "ax2x3"}) {
    EXPECT_FALSE(bench::ParseEmbeddingShapes(bad, &shapes)) << bad;
  }
  for (const bench::EmbeddingShape& e :
       {bench::EmbeddingShape{1000, 64, 300}, bench::EmbeddingShape{4, 3, 9}}) {
    const bench::CaseSpec spec = bench::EmbeddingCase(Op::kEmbedding, DType::kBFloat16, e);
    EXPECT_NE(spec.ShapeText().find("of " + std::to_string(e.rows) + " rows"), std::string::npos);
    bench::CaseData data(spec);
    ASSERT_TRUE(data.Prepare().ok());
    data.Run();
    EXPECT_EQ(data.RunCApiCall(), 0);
    const auto* index = static_cast<const int64_t*>(data.RoleView(test::Role::kIndex)->data);
    const auto* weight = static_cast<const uint16_t*>(data.self_data());
    const auto* out = static_cast<const uint16_t*>(data.out_data());
    for (int64_t i = 0; i < e.indices; ++i) {
      ASSERT_TRUE(index[i] >= 0 && index[i] < e.rows);
      for (int64_t c = 0; c < e.d; ++c) ASSERT_EQ(out[i * e.d + c], weight[index[i] * e.d + c]);
    }
  }
}

// EmbeddingDenseBackward's case on the same grid: grad [indices, d] summed into out [rows, d]
// through both APIs; each out row is the sum of the grad rows its indices name (a double
// reference; a row of one or a few f32 terms is within 1e-5 of it).
TEST(BenchCases, EmbeddingGradientCasesRun) {
  for (const bench::EmbeddingShape& e :
       {bench::EmbeddingShape{1000, 64, 300}, bench::EmbeddingShape{4, 3, 9}}) {
    const bench::CaseSpec spec =
        bench::EmbeddingCase(Op::kEmbeddingDenseBackward, DType::kFloat32, e);
    EXPECT_NE(spec.ShapeText().find("of " + std::to_string(e.rows) + " rows"), std::string::npos);
    bench::CaseData data(spec);
    EXPECT_EQ(data.out_view().shape, (std::vector<int64_t>{e.rows, e.d}));
    EXPECT_GT(data.Bytes(), static_cast<double>(e.rows * e.d * 4));
    const auto* index = static_cast<const int64_t*>(data.RoleView(test::Role::kIndex)->data);
    const auto* grad = static_cast<const float*>(data.self_data());
    std::vector<double> want(static_cast<size_t>(e.rows * e.d), 0.0);
    for (int64_t i = 0; i < e.indices; ++i) {
      ASSERT_TRUE(index[i] >= 0 && index[i] < e.rows);
      for (int64_t c = 0; c < e.d; ++c) want[index[i] * e.d + c] += grad[i * e.d + c];
    }
    for (int api = 0; api < 2; ++api) {
      std::memset(data.out_data(), 0xFF, static_cast<size_t>(e.rows * e.d) * 4);
      if (api == 0) {
        ASSERT_TRUE(data.Prepare().ok());
        data.Run();
      } else {
        ASSERT_EQ(data.RunCApiCall(), 0);
      }
      const auto* out = static_cast<const float*>(data.out_data());
      for (int64_t k = 0; k < e.rows * e.d; ++k) {
        ASSERT_NEAR(out[k], want[static_cast<size_t>(k)], 1e-5 * (1 + std::fabs(want[k])))
            << "api " << api << " element " << k;
      }
    }
  }
}

TEST(BenchCases, NormShapesParse) {
  std::vector<bench::NormShape> shapes;
  ASSERT_TRUE(bench::ParseNormShapes("4096x64,1Kx1K,64x64K", &shapes));
  ASSERT_EQ(shapes.size(), 3u);
  EXPECT_EQ(shapes[0].rows, 4096);
  EXPECT_EQ(shapes[0].length, 64);
  EXPECT_EQ(shapes[1].rows, 1024);
  EXPECT_EQ(shapes[1].length, 1024);
  EXPECT_EQ(shapes[2].length, 65536);
  EXPECT_EQ(bench::NormShapeText(shapes[2]), "64x65536");
  for (const char* bad : {"", "4096", "4096x", "x64", "0x64", "64x0", "4096x64,", "2x3x4", "ax2"}) {
    EXPECT_FALSE(bench::ParseNormShapes(bad, &shapes)) << bad;
  }
  const std::vector<bench::NormShape> grid = bench::DefaultNormShapes();
  ASSERT_FALSE(grid.empty());
  EXPECT_EQ(grid.front().rows, 4096);
  EXPECT_EQ(grid.front().length, 64);
}

// Every norm's case on a grid cell is rows x length of x's elements, reads back as that cell
// (NormShapeOf), moves the arrays its call must (Passes: a forward 2, a gradient 3,
// AddRmsNorm 4), and prepares and runs through both APIs; GroupNorm's in 8 groups where the
// rows divide, else in 1.
TEST(BenchCases, NormGridCasesAreRowsByLength) {
  const bench::NormShape cells[] = {{16, 64}, {24, 6}, {3, 1000}};
  int norms = 0;
  for (Op op : AllOps()) {
    if (!bench::IsNormOp(op)) continue;
    ++norms;
    for (const bench::NormShape& cell : cells) {
      for (DType dtype : {DType::kFloat32, DType::kBFloat16}) {
        if (!bench::BenchTakes(op, dtype)) continue;
        const bench::CaseSpec spec = bench::NormCase(op, dtype, cell);
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + bench::NormShapeText(cell) + " " +
                     spec.ShapeText());
        EXPECT_EQ(spec.Elements(), cell.rows * cell.length);
        const bench::NormShape back = bench::NormShapeOf(spec);
        EXPECT_EQ(back.rows, cell.rows);
        EXPECT_EQ(back.length, cell.length);
        if (GetOpInfo(op).shapes == ShapeRule::kChannelGroups) {
          EXPECT_EQ(spec.ScalarValue(3), cell.rows % 8 == 0 ? 8.0 : 1.0);
          EXPECT_EQ(spec.ScalarValue(0) * spec.ScalarValue(1) * spec.ScalarValue(2),
                    static_cast<double>(cell.rows * cell.length));
        }
        bench::CaseData data(spec);
        // One read of each row input and one write of each row result: a forward's x and y
        // (AddRmsNorm's and AddLayerNorm's x1, x2, y and xOut), a gradient's dy and x and dx
        // (AddLayerNormGrad's dy, x1, x2 and dx).
        const double passes = GetOpInfo(op).is_forward
                                  ? (test::RowResults(GetOpInfo(op)) > 1 ? 4 : 2)
                                  : (op == Op::kAddLayerNormGrad ? 4 : 3);
        EXPECT_EQ(data.Passes(), passes);
        EXPECT_EQ(data.Bytes(), passes * static_cast<double>(spec.Elements()) *
                                    static_cast<double>(DTypeSize(dtype)));
        const Status s = data.Prepare();
        ASSERT_TRUE(s.ok()) << s.message();
        data.Run();
        data.Roofline(1);
        EXPECT_EQ(data.RunCApiCall(), 0);
      }
    }
  }
  EXPECT_GE(norms, 7);
  // Another operator's case has no grid cell.
  const bench::NormShape none =
      bench::NormShapeOf(bench::CaseSpec{Op::kRelu, DType::kFloat32, {64}, -1, {}});
  EXPECT_EQ(none.rows, 0);
  EXPECT_EQ(none.length, 0);
}

}  // namespace
}  // namespace hostnn
