// The optional inputs of a normalisation's tiling problem (tiling::NormInputs): gamma's dtype,
// AddLayerNorm's biasOptional (by element count, as its A2 tiling tells it apart) and
// additionalOutput, AddLayerNormGrad's dsumOptional. The operators' phase 1 fills them from
// the call: on the atlas-a2 profile the plan an operator runs under is the one hostnn-tiling
// prints for the same problem and inputs (tiling::MakePlan), with the key the golden tables
// derive from ops-nn's tiling (tests/tiling_golden_norm_test.cc). The plan cache tells the
// inputs apart, and an input its operator's tiling does not read is refused. Phase 1 only:
// nothing runs.

#include <gtest/gtest.h>

#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "hostnn/tiling.h"

namespace hostnn {
namespace test {
namespace {

constexpr DType kF32 = DType::kFloat32, kF16 = DType::kFloat16, kBf16 = DType::kBFloat16;
using tiling::NormBias;

tiling::NormInputs In(DType param, NormBias bias = NormBias::kNone, bool xout = false,
                      bool dsum = false) {
  return {param, bias, xout, dsum};
}

// The plan cache keeps problems that differ only in their inputs apart.
TEST(NormPlanInputs, SharedPlansTellInputsApart) {
  tiling::Options o;
  o.platform = "atlas-a2";
  tiling::Problem p{Op::kAddLayerNorm, kF16, {96, 5000}, 1};
  std::shared_ptr<const tiling::Plan> plain, row;
  ASSERT_TRUE(tiling::MakeSharedPlan(p, o, &plain).ok());
  p.norm.bias = NormBias::kRow;
  ASSERT_TRUE(tiling::MakeSharedPlan(p, o, &row).ok());
  EXPECT_NE(row.get(), plain.get());
  EXPECT_TRUE(row->norm_inputs.bias == NormBias::kRow);
  p.norm = {};
  std::shared_ptr<const tiling::Plan> again;
  ASSERT_TRUE(tiling::MakeSharedPlan(p, o, &again).ok());
  EXPECT_EQ(again.get(), plain.get());
}

// Inputs an operator's tiling does not read are refused, naming them.
TEST(NormPlanInputs, InputsOfAnotherOperatorRefused) {
  struct Bad {
    tiling::Problem problem;
    const char* names;
  };
  const Bad bad[] = {
      {{Op::kRmsNorm, kF16, {4, 8}, 1, 1, 0, In(kF32, NormBias::kRow)}, "bias"},
      {{Op::kLayerNorm, kF16, {4, 8}, 1, 1, 0, In(kF16, NormBias::kNone, false, true)}, "dsum"},
      {{Op::kAddLayerNormGrad, kF16, {4, 8}, 1, 1, 0, In(kF16, NormBias::kNone, true)},
       "additional output"},
      {{Op::kAddRmsNorm, kF16, {4, 8}, 1, 1, 0, In(kF32)}, "param dtype f32"},
      {{Op::kLayerNorm, kF32, {4, 8}, 1, 1, 0, In(kF16)}, "param dtype f16"},
      {{Op::kRmsNorm, kF16, {4, 8}, 1, 1, 0, In(kBf16)}, "param dtype bf16"},
      {{Op::kSiluBackward, kF16, {4, 8}, 0, 1, 0, In(kF32)}, "param dtype f32"},
  };
  for (const Bad& b : bad) {
    tiling::Plan plan;
    const Status s = tiling::MakePlan(b.problem, {}, &plan);
    EXPECT_EQ(s.code(), StatusCode::kInvalid) << GetOpInfo(b.problem.op).name;
    EXPECT_NE(s.message().find(b.names), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
