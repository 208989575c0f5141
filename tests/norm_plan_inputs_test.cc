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

#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr DType kF32 = DType::kFloat32, kF16 = DType::kFloat16, kBf16 = DType::kBFloat16;
using tiling::NormBias;

// One call's expectation: the inputs the problem names and the key, template and rows a pass
// of the golden plan.
struct Want {
  tiling::Problem problem;
  int64_t key;
  const char* tmpl;
  int64_t rows_per_loop;
};

// Prepares `args` on atlas-a2 and checks the executor's plan against MakePlan of w.problem
// and the golden values.
void ExpectPlan(const OpArgs& args, const Want& w) {
  tiling::Options options;
  options.platform = "atlas-a2";
  uint64_t ws = 0;
  ExecutorPtr exec;
  const Status s = Prepare(args, options, &ws, &exec);
  ASSERT_TRUE(s.ok()) << s.message();
  const tiling::Plan& got = GetPlan(*exec);
  tiling::Plan want;
  const Status ps = tiling::MakePlan(w.problem, options, &want);
  ASSERT_TRUE(ps.ok()) << ps.message();
  ASSERT_TRUE(got.norm.planned);
  EXPECT_EQ(got.dtype, want.dtype);
  EXPECT_TRUE(got.norm_inputs == want.norm_inputs);
  EXPECT_EQ(got.norm.kernel, want.norm.kernel);
  EXPECT_EQ(got.norm.tmpl, want.norm.tmpl);
  EXPECT_EQ(got.norm.tiling_key, want.norm.tiling_key);
  EXPECT_EQ(got.norm.rows_per_loop, want.norm.rows_per_loop);
  EXPECT_EQ(got.norm.col_chunk, want.norm.col_chunk);
  EXPECT_EQ(got.norm.tiling_key, w.key);
  EXPECT_EQ(got.norm.tmpl, w.tmpl);
  EXPECT_EQ(got.norm.rows_per_loop, w.rows_per_loop);
  EXPECT_EQ(got.ToJson(), want.ToJson());
}

// The arguments of `op`: its inputs and outputs in the prototype's order (null: not given).
OpArgs Args(Op op, std::initializer_list<const HostTensor*> in,
            std::initializer_list<const HostTensor*> out) {
  OpArgs a;
  a.op = op;
  int k = 0;
  for (const HostTensor* t : in) a.in[k++] = t != nullptr ? &t->view() : nullptr;
  k = 0;
  for (const HostTensor* t : out) a.out[k++] = t != nullptr ? &t->view() : nullptr;
  return a;
}

tiling::NormInputs In(DType param, NormBias bias = NormBias::kNone, bool xout = false,
                      bool dsum = false) {
  return {param, bias, xout, dsum};
}

// AddLayerNorm: x1 (t1), x2 (t2), gamma and beta (tg) [cols], bias (null, [cols] or x1's).
struct AlnCall {
  DType t1, t2, tg;
  int64_t rows, cols;
  int bias;  // 0 none, 1 gamma's shape, 2 x1's shape
  bool xout;
};

void ExpectAddLayerNorm(const AlnCall& c, const Want& w) {
  const DType t = c.t1 == c.t2 ? c.t1 : kF32;
  const std::vector<int64_t> xs = {c.rows, c.cols}, gs = {c.cols}, ms = {c.rows, 1};
  HostTensor x1(c.t1, xs), x2(c.t2, xs), g(c.tg, gs), b(c.tg, gs), y(t, xs), x(t, xs);
  HostTensor mean(kF32, ms), rstd(kF32, ms), bias(t, c.bias == 2 ? xs : gs);
  OpArgs a = Args(Op::kAddLayerNorm, {&x1, &x2, &g, &b, c.bias != 0 ? &bias : nullptr},
                  {&y, &mean, &rstd, &x});
  a.scalars[1] = OpScalar{true, c.xout ? 1.0 : 0.0, DType::kBool};
  ExpectPlan(a, w);
}

TEST(NormPlanInputs, AddLayerNormBiasAndAdditionalOutput) {
  // A per-column bias is a row bias to the tiling: normal_special 62, + 100.
  ExpectAddLayerNorm(
      {kF16, kF16, kF16, 96, 5000, 1, true},
      {{Op::kAddLayerNorm, kF16, {96, 5000}, 1, 1, 0, In(kF16, NormBias::kRow, true)},
       162,
       "normal_special",
       2});
  // Without them: normal, one row a pass.
  ExpectAddLayerNorm({kF16, kF16, kF16, 96, 5000, 0, false},
                     {{Op::kAddLayerNorm, kF16, {96, 5000}, 1}, 0, "normal", 1});
  // A bias of x1's shape: no special_reduce, key + 1.
  ExpectAddLayerNorm(
      {kF16, kF16, kF16, 480, 2032, 2, false},
      {{Op::kAddLayerNorm, kF16, {480, 2032}, 1, 1, 0, In(kF16, NormBias::kFull)}, 1, "normal", 5});
  // One row: a bias of gamma's shape has x1's element count, and the tiling counts it as x1's.
  ExpectAddLayerNorm(
      {kF16, kF16, kF16, 1, 2032, 1, false},
      {{Op::kAddLayerNorm, kF16, {1, 2032}, 1, 1, 0, In(kF16, NormBias::kFull)}, 1, "normal", 1});
}

TEST(NormPlanInputs, AddLayerNormDTypes) {
  // f32 gamma beside f16 x1 and x2: normal, 13 rows a pass (special_reduce with f16 gamma).
  ExpectAddLayerNorm({kF16, kF16, kF32, 4096, 768, 0, false},
                     {{Op::kAddLayerNorm, kF16, {4096, 768}, 1, 1, 0, In(kF32)}, 0, "normal", 13});
  // x1 f16, x2 f32: the tiling computes in FLOAT (gamma f32): normal, + 100, 8 rows a pass.
  ExpectAddLayerNorm(
      {kF16, kF32, kF32, 4096, 768, 0, true},
      {{Op::kAddLayerNorm, kF32, {4096, 768}, 1, 1, 0, In(kF32, NormBias::kNone, true)},
       100,
       "normal",
       8});
}

TEST(NormPlanInputs, AddLayerNormGradDsum) {
  for (const bool dsum_given : {false, true}) {
    SCOPED_TRACE(dsum_given ? "dsum" : "no dsum");
    const std::vector<int64_t> xs = {4096, 1024}, gs = {1024}, ms = {4096, 1};
    HostTensor dy(kF32, xs), x1(kF32, xs), x2(kF32, xs), rstd(kF32, ms), mean(kF32, ms),
        g(kF32, gs), dsum(kF32, xs), dx(kF32, xs), dg(kF32, gs), db(kF32, gs);
    const OpArgs a =
        Args(Op::kAddLayerNormGrad, {&dy, &x1, &x2, &rstd, &mean, &g, dsum_given ? &dsum : nullptr},
             {&dx, &dg, &db});
    ExpectPlan(a, {{Op::kAddLayerNormGrad, kF32, xs, 1, 1, 0,
                    In(kF32, NormBias::kNone, false, dsum_given)},
                   dsum_given ? 11 : 10,
                   "cut_n",
                   dsum_given ? 7 : 8});
  }
}

TEST(NormPlanInputs, LayerNormGammaDType) {
  // bf16 rows of 1024: single_read with bf16 weight; f32 weight (or, weight absent, an f32
  // bias, in whose dtype the op_api fills the weight) -> merge_n 1600.
  struct Case {
    DType weight, bias;  // kUndefined: not given
    int64_t key;
    const char* tmpl;
    int64_t rows;
  };
  const DType kNone = DType::kUndefined;
  for (const Case& c :
       {Case{kBf16, kBf16, 122, "single_read", 23}, Case{kNone, kNone, 122, "single_read", 23},
        Case{kF32, kF32, 1600, "merge_n", 23}, Case{kNone, kF32, 1600, "merge_n", 23}}) {
    for (const Op op : {Op::kLayerNorm, Op::kLayerNormWithImplMode}) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " key " + std::to_string(c.key));
      const std::vector<int64_t> xs = {4096, 1024}, gs = {1024};
      HostTensor x(kBf16, xs), out(kBf16, xs);
      HostTensor w(c.weight == kNone ? kF32 : c.weight, gs), b(c.bias == kNone ? kF32 : c.bias, gs);
      OpArgs a =
          Args(op, {&x, c.weight != kNone ? &w : nullptr, c.bias != kNone ? &b : nullptr}, {&out});
      a.int_array = gs;
      a.int_array_given = true;
      const DType param = c.weight != kNone ? c.weight : c.bias != kNone ? c.bias : kBf16;
      ExpectPlan(a, {{op, kBf16, xs, 1, 1, 0, In(param)}, c.key, c.tmpl, c.rows});
    }
  }
}

TEST(NormPlanInputs, LayerNormBackwardGammaDType) {
  for (const DType weight : {kF16, kF32}) {
    const std::vector<int64_t> xs = {48, 4096}, gs = {4096}, ms = {48, 1};
    HostTensor dy(kF16, xs), x(kF16, xs), mean(kF32, ms), rstd(kF32, ms), w(weight, gs);
    HostTensor dx(kF16, xs), dw(kF32, gs), db(kF32, gs);
    OpArgs a = Args(Op::kLayerNormBackward, {&dy, &x, &mean, &rstd, &w}, {&dx, &dw, &db});
    a.int_array = gs;
    a.int_array_given = true;
    a.bool_array = {true, true, true};
    a.bool_array_given = true;
    ExpectPlan(a, {{Op::kLayerNormBackward, kF16, xs, 1, 1, 0, In(weight)},
                   weight == kF32 ? 113 : 112,
                   "single_read",
                   2});
  }
}

TEST(NormPlanInputs, RmsNormGammaDType) {
  // bf16 rows of 12288: normal 0 with bf16 gamma, the mixed ladder's single_row 3 with f32.
  for (const DType gamma : {kBf16, kF32}) {
    const std::vector<int64_t> xs = {48, 12288}, gs = {12288}, rs = {48, 1};
    HostTensor x(kBf16, xs), g(gamma, gs), y(kBf16, xs), rstd(kF32, rs);
    const OpArgs a = Args(Op::kRmsNorm, {&x, &g}, {&y, &rstd});
    ExpectPlan(a, {{Op::kRmsNorm, kBf16, xs, 1, 1, 0, In(gamma)},
                   gamma == kF32 ? 3 : 0,
                   gamma == kF32 ? "single_row" : "normal",
                   1});
  }
  // RmsNormGrad's A2 tiling reads dy's dtype alone: f32 gamma plans as f16's.
  for (const DType gamma : {kF16, kF32}) {
    const std::vector<int64_t> xs = {48, 1024}, gs = {1024}, rs = {48, 1};
    HostTensor dy(kF16, xs), x(kF16, xs), rstd(kF32, rs), g(gamma, gs), dx(kF16, xs), dg(kF32, gs);
    const OpArgs a = Args(Op::kRmsNormGrad, {&dy, &x, &rstd, &g}, {&dx, &dg});
    ExpectPlan(a, {{Op::kRmsNormGrad, kF16, xs, 1, 1, 0, In(gamma)}, 1, "split_n", 1});
  }
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
  EXPECT_EQ(plain->norm.tiling_key, 0);
  EXPECT_EQ(row->norm.tiling_key, 62);
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
