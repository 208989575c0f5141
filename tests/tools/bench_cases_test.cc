// The benchmarks' cases (bench/cases.h), which hostnn-scale, the ops benchmark and the peers
// run for every operator of the list: each operator's standard cases prepare and run through
// the C++ API and through the C API, for every compute dtype it takes. An operator whose
// operands the cases do not build (a second input, an int array) fails here, not in the
// main job's scaling table.

#include <gtest/gtest.h>

#include <string>

#include "bench/cases.h"
#include "hostnn/op.h"

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
        EXPECT_EQ(data.RunCApiCall(), 0);
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

}  // namespace
}  // namespace hostnn
