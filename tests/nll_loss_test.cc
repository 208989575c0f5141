// NLLLoss, NLLLoss2d and their gradients (Kind ClassLoss). Every element of every output is
// checked against a reference in long double built here from the row-major walk of the
// positions: a term -weight[t] self[.., t, ..] is one product, so the none reduction and the
// gradients within half an f32 ULP (16-bit: plus half their ULP); the sums and the weights'
// total within SPEC §4's bound (2^-21 times the sum of the magnitudes of their terms; the
// mean's over the total's magnitude); untouched and ignored positions exactly +0. Over the
// three float dtypes, the three target dtypes, the outputs' dtypes, ignoreIndex in and out of
// the classes, strided and transposed views, several teams and core counts with the bits the
// same for each. Then the run-time refusal of a target outside the classes, the checks in
// each op_api's order (nothing written), the empty inputs and the C API.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss2d_backward.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/loss_check.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
const DType kTargetTypes[] = {DType::kInt64, DType::kInt32, DType::kUInt8};

bool IsGrad(Op op) { return op == Op::kNLLLossBackward || op == Op::kNLLLoss2dBackward; }
bool Is2d(Op op) { return op == Op::kNLLLoss2d || op == Op::kNLLLoss2dBackward; }

OpArgs ClassArgs(Op op, const std::vector<const HostTensor*>& in,
                 const std::vector<const HostTensor*>& out, int64_t reduction,
                 int64_t ignore_index) {
  OpArgs a;
  a.op = op;
  for (size_t k = 0; k < in.size(); ++k) a.in[k] = in[k] != nullptr ? &in[k]->view() : nullptr;
  for (size_t k = 0; k < out.size(); ++k) {
    a.out[k] = out[k] != nullptr ? &out[k]->view() : nullptr;
  }
  const int64_t v[2] = {reduction, ignore_index};
  for (int k = 0; k < 2; ++k) {
    a.scalars[k] = OpScalar{true, static_cast<double>(v[k]), DType::kInt64};
    a.scalars[k].int_value = v[k];
  }
  return a;
}

// self [outer, C, inner] as the operator reads it.
struct Geometry {
  int64_t outer, classes, inner;
};
Geometry GeometryOf(Op op, const std::vector<int64_t>& self) {
  if (Is2d(op)) return {self[0], self[1], self[2] * self[3]};
  if (self.size() == 1) return {1, self[0], 1};
  return {self[0], self[1], 1};
}

// The forward: out (the terms, or their mean or sum) and totalWeightOut.
void ExpectForward(Op op, const HostTensor& self, const HostTensor& target,
                   const HostTensor& weight, int64_t reduction, int64_t ignore, LossExpected* out,
                   LossExpected* total) {
  const Geometry g = GeometryOf(op, self.shape());
  long double sum = 0, mag = 0, wsum = 0, wmag = 0;
  for (int64_t p = 0; p < g.outer * g.inner; ++p) {
    const int64_t t = static_cast<int64_t>(target.Get(p));
    long double term = 0;
    if (t != ignore) {
      const int64_t o = p / g.inner, i = p % g.inner;
      const long double w = weight.Get(t);
      term = -w * static_cast<long double>(self.Get((o * g.classes + t) * g.inner + i));
      wsum += w, wmag += std::fabs(w);
    }
    sum += term, mag += std::fabs(term);
    if (reduction == 0) {
      out->value.push_back(static_cast<double>(term));
      out->bound.push_back(0.5 * UlpOf(DType::kFloat32, static_cast<double>(term)));
    }
  }
  if (reduction == 0) return;
  if (reduction == 1) {
    out->value.push_back(static_cast<double>(sum / wsum));
    out->bound.push_back(std::ldexp(static_cast<double>(mag / std::fabs(wsum)), -21) +
                         UlpOf(DType::kFloat32, static_cast<double>(sum / wsum)));
  } else {
    out->value.push_back(static_cast<double>(sum));
    out->bound.push_back(std::ldexp(static_cast<double>(mag), -21));
  }
  total->value.push_back(static_cast<double>(wsum));
  total->bound.push_back(std::ldexp(static_cast<double>(wmag), -21));
}

// The gradient: zero but -weight[t] g at each position's class.
LossExpected ExpectGradient(Op op, const HostTensor& dy, const HostTensor& self,
                            const HostTensor& target, const HostTensor& weight,
                            const HostTensor& total_weight, int64_t reduction, int64_t ignore) {
  const Geometry g = GeometryOf(op, self.shape());
  LossExpected x;
  x.value.assign(static_cast<size_t>(self.numel()), 0.0);
  x.bound.assign(static_cast<size_t>(self.numel()), 0.0);
  long double factor = reduction == 0 ? 0 : dy.Get(0);
  if (reduction == 1) factor /= static_cast<long double>(total_weight.Get(0));
  for (int64_t p = 0; p < g.outer * g.inner; ++p) {
    const int64_t t = static_cast<int64_t>(target.Get(p));
    if (t == ignore) continue;
    const int64_t o = p / g.inner, i = p % g.inner;
    const long double f = reduction == 0 ? dy.Get(p) : factor;
    const long double v = -static_cast<long double>(weight.Get(t)) * f;
    const size_t e = static_cast<size_t>((o * g.classes + t) * g.inner + i);
    x.value[e] = static_cast<double>(v);
    x.bound[e] = UlpOf(DType::kFloat32, static_cast<double>(v));
  }
  return x;
}

// Targets: classes drawn at random, about one in five ignoreIndex (a UINT8 target names the
// first 256 classes at most, and never a negative ignoreIndex).
void FillTargets(HostTensor* target, int64_t classes, int64_t ignore, std::mt19937_64& rng) {
  const bool u8 = target->dtype() == DType::kUInt8;
  std::uniform_int_distribution<int64_t> pick(0,
                                              (u8 ? std::min<int64_t>(classes, 256) : classes) - 1);
  std::uniform_int_distribution<int> fifth(0, 4);
  for (int64_t p = 0; p < target->numel(); ++p) {
    const bool ignored = fifth(rng) == 0 && (ignore >= 0 || !u8);
    target->Set(p, static_cast<double>(ignored ? ignore : pick(rng)));
  }
}

// Runs op over several (team, cores) splits and checks its outputs each time, their bits the
// same for every split.
void RunAllSplits(Op op, const std::vector<const HostTensor*>& in,
                  const std::vector<const HostTensor*>& out, int64_t reduction, int64_t ignore,
                  const std::vector<LossExpected>& want) {
  std::vector<std::vector<uint8_t>> before, first;
  for (const HostTensor* o : out) before.push_back(o->Snapshot());
  for (const TeamSplit& split : kTeamSplits) {
    const Status s = RunOnSplit(ClassArgs(op, in, out, reduction, ignore), split);
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t k = 0; k < out.size(); ++k) {
      // totalWeightOut is written for the mean and sum only.
      if (k == 1 && reduction == 0) {
        ASSERT_EQ(out[k]->Snapshot(), before[k]);
        continue;
      }
      ExpectClassLossOut(want[k], *out[k], before[k], k == 0 ? "out" : "totalWeightOut");
      if (first.size() <= k) {
        first.push_back(out[k]->ElementBytes());
      } else {
        ASSERT_EQ(out[k]->ElementBytes(), first[k])
            << "team " << split.team << ", cores " << split.cores;
      }
    }
  }
}

// A run's ignoreIndex (outside the classes, or class 1) and layout, by its number.
int64_t IgnoreIndexOf(int variant, int64_t classes) {
  return variant % 2 == 0 ? -100 : std::min<int64_t>(1, classes - 1);
}
Strides LayoutOf(int variant) {
  return variant % 4 == 1   ? Strides::kStep2
         : variant % 4 == 3 ? Strides::kTransposed
                            : Strides::kDense;
}

struct Case {
  Op op;
  std::vector<int64_t> self;
};
const Case kForwardCases[] = {
    {Op::kNLLLoss, {4, 5}},         {Op::kNLLLoss, {6}},
    {Op::kNLLLoss, {3000, 7}},      {Op::kNLLLoss, {33, 1000}},
    {Op::kNLLLoss2d, {2, 3, 4, 5}}, {Op::kNLLLoss2d, {1, 4, 33, 40}},
    {Op::kNLLLoss2d, {3, 1, 2, 2}},
};

std::vector<int64_t> OutShape(Op op, const std::vector<int64_t>& self, int64_t reduction) {
  if (reduction != 0 || self.size() == 1) return {1};
  if (Is2d(op)) return {self[0], self[2], self[3]};
  return {self[0]};
}
std::vector<int64_t> TargetShape(Op op, const std::vector<int64_t>& self) {
  if (Is2d(op)) return {self[0], self[2], self[3]};
  if (self.size() == 1) return {};
  return {self[0]};
}

TEST(NllLossTest, ForwardMatchesReference) {
  std::mt19937_64 rng(11);
  int runs = 0;
  for (const Case& c : kForwardCases) {
    const Geometry g = GeometryOf(c.op, c.self);
    for (const DType dtype : kFloatTypes) {
      for (int64_t reduction = 0; reduction <= 2; ++reduction) {
        const int variant = runs++;
        const DType tdtype = kTargetTypes[variant % 3];
        const int64_t ignore = IgnoreIndexOf(variant, g.classes);
        const Strides layout = LayoutOf(variant);
        const DType out_dtype = variant % 5 == 4 ? DType::kFloat64 : kFloatTypes[variant % 3];
        SCOPED_TRACE(std::string(GetOpInfo(c.op).name) + " self " + ShapeText(c.self) + " " +
                     DTypeName(dtype) + " target " + DTypeName(tdtype) + " out " +
                     DTypeName(out_dtype) + " reduction " + std::to_string(reduction) + " ignore " +
                     std::to_string(ignore));
        HostTensor self(dtype, c.self, layout);
        HostTensor target(tdtype, TargetShape(c.op, c.self), layout);
        HostTensor weight(dtype, {g.classes}, layout);
        HostTensor out(out_dtype, OutShape(c.op, c.self, reduction), layout);
        HostTensor total(kFloatTypes[(variant + 1) % 3], {1});
        self.Fill(rng, -8.0, 8.0);
        weight.Fill(rng, 0.25, 2.0);
        FillTargets(&target, g.classes, ignore, rng);
        LossExpected want_out, want_total;
        ExpectForward(c.op, self, target, weight, reduction, ignore, &want_out, &want_total);
        RunAllSplits(c.op, {&self, &target, &weight}, {&out, &total}, reduction, ignore,
                     {want_out, want_total});
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(NllLossTest, GradientMatchesReference) {
  std::mt19937_64 rng(12);
  int runs = 0;
  for (const Case& fc : kForwardCases) {
    const Case c{fc.op == Op::kNLLLoss ? Op::kNLLLossBackward : Op::kNLLLoss2dBackward, fc.self};
    const Geometry g = GeometryOf(c.op, c.self);
    for (const DType dtype : kFloatTypes) {
      for (int64_t reduction = 0; reduction <= 2; ++reduction) {
        const int variant = runs++;
        const DType tdtype = kTargetTypes[variant % 3];
        const int64_t ignore = IgnoreIndexOf(variant, g.classes);
        const Strides layout = LayoutOf(variant);
        // NLLLossBackward's out: any dtype self's casts to; NLLLoss2dBackward's self's.
        const DType out_dtype = Is2d(c.op) ? dtype : kFloatTypes[variant % 3];
        SCOPED_TRACE(std::string(GetOpInfo(c.op).name) + " self " + ShapeText(c.self) + " " +
                     DTypeName(dtype) + " target " + DTypeName(tdtype) + " out " +
                     DTypeName(out_dtype) + " reduction " + std::to_string(reduction) + " ignore " +
                     std::to_string(ignore));
        HostTensor dy(dtype, OutShape(c.op, c.self, reduction), layout);
        HostTensor self(dtype, c.self, layout);
        HostTensor target(tdtype, TargetShape(c.op, c.self), layout);
        HostTensor weight(dtype, {g.classes}, layout);
        HostTensor total(dtype, {1});
        HostTensor out(out_dtype, c.self, layout);
        dy.Fill(rng, -4.0, 4.0);
        self.Fill(rng, -8.0, 8.0);
        weight.Fill(rng, 0.25, 2.0);
        total.Fill(rng, 0.5, 40.0);
        FillTargets(&target, g.classes, ignore, rng);
        const LossExpected want =
            ExpectGradient(c.op, dy, self, target, weight, total, reduction, ignore);
        RunAllSplits(c.op, {&dy, &self, &target, &weight, &total}, {&out}, reduction, ignore,
                     {want});
        if (HasFatalFailure()) return;
      }
    }
  }
}

// A target outside [0, C) that is not ignoreIndex: refused when the call runs, nothing written.
TEST(NllLossTest, TargetOutsideTheClassesIsRefusedAtRun) {
  for (const int64_t bad : {int64_t{-1}, int64_t{5}, int64_t{-100}}) {
    for (const Op op : {Op::kNLLLoss, Op::kNLLLossBackward}) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " target " + std::to_string(bad));
      HostTensor dy(DType::kFloat32, {1}), self(DType::kFloat32, {3, 5});
      HostTensor target(DType::kInt64, {3}), weight(DType::kFloat32, {5});
      HostTensor total_in(DType::kFloat32, {1});
      HostTensor out(DType::kFloat32,
                     IsGrad(op) ? std::vector<int64_t>{3, 5} : std::vector<int64_t>{1});
      HostTensor total(DType::kFloat32, {1});
      std::mt19937_64 rng(3);
      for (HostTensor* t : {&dy, &self, &weight, &total_in}) t->Fill(rng, 0.5, 1.0);
      target.Set(0, 2), target.Set(1, static_cast<double>(bad)), target.Set(2, 4);
      const std::vector<uint8_t> out_before = out.Snapshot(), total_before = total.Snapshot();
      const int64_t ignore = bad == -100 ? -1 : -100;
      const OpArgs a =
          IsGrad(op) ? ClassArgs(op, {&dy, &self, &target, &weight, &total_in}, {&out}, 1, ignore)
                     : ClassArgs(op, {&self, &target, &weight}, {&out, &total}, 1, ignore);
      const Status s = hostnn::Run(a);
      ASSERT_EQ(s.code(), StatusCode::kInvalid) << s.message();
      EXPECT_NE(s.message().find("target element 1"), std::string::npos) << s.message();
      EXPECT_EQ(out.Snapshot(), out_before);
      EXPECT_EQ(total.Snapshot(), total_before);
    }
  }
}

// An empty self: nothing written for none, NaN (mean) or 0 (sum) and a total of 0.
TEST(NllLossTest, EmptySelf) {
  for (const Op op : {Op::kNLLLoss, Op::kNLLLoss2d}) {
    for (int64_t reduction = 0; reduction <= 2; ++reduction) {
      const std::vector<int64_t> shape =
          Is2d(op) ? std::vector<int64_t>{0, 3, 2, 2} : std::vector<int64_t>{0, 3};
      HostTensor self(DType::kFloat32, shape), target(DType::kInt64, TargetShape(op, shape));
      HostTensor weight(DType::kFloat32, {3});
      HostTensor out(DType::kFloat32, OutShape(op, shape, reduction));
      HostTensor total(DType::kFloat16, {1});
      const std::vector<uint8_t> out_before = out.Snapshot(), total_before = total.Snapshot();
      const Status s =
          hostnn::Run(ClassArgs(op, {&self, &target, &weight}, {&out, &total}, reduction, -100));
      ASSERT_TRUE(s.ok()) << s.message();
      if (reduction == 0) {
        EXPECT_EQ(out.Snapshot(), out_before);
        EXPECT_EQ(total.Snapshot(), total_before);
      } else {
        if (reduction == 1) {
          EXPECT_TRUE(std::isnan(out.Get(0)));
        } else {
          EXPECT_EQ(out.Get(0), 0.0);
        }
        EXPECT_EQ(total.Get(0), 0.0);
      }
    }
  }
  // A gradient of an empty self writes nothing.
  HostTensor dy(DType::kFloat32, {1}), self(DType::kFloat32, {0, 4});
  HostTensor target(DType::kInt32, {0}), weight(DType::kFloat32, {4}), total(DType::kFloat32, {1});
  HostTensor out(DType::kFloat32, {0, 4});
  const Status s = hostnn::Run(
      ClassArgs(Op::kNLLLossBackward, {&dy, &self, &target, &weight, &total}, {&out}, 1, -100));
  EXPECT_TRUE(s.ok()) << s.message();
  // A self of no classes with a target: out of bounds.
  HostTensor none(DType::kFloat32, {0}), scalar_target(DType::kInt64, {}),
      no_weight(DType::kFloat32, {0});
  HostTensor out1(DType::kFloat32, {1}), total1(DType::kFloat32, {1});
  const Status bounds = hostnn::Run(
      ClassArgs(Op::kNLLLoss, {&none, &scalar_target, &no_weight}, {&out1, &total1}, 1, -100));
  EXPECT_EQ(bounds.code(), StatusCode::kInvalid);
  EXPECT_NE(bounds.message().find("out of bounds"), std::string::npos) << bounds.message();
}

// The checks, in each op_api's order; nothing written when one fails.
TEST(NllLossTest, ChecksInTheOpApisOrder) {
  struct Check {
    Op op;
    DType self, weight, out;
    DType target;
    std::vector<int64_t> self_shape, target_shape, weight_shape, out_shape;
    int64_t reduction;
    const char* param;  // the parameter the message names
  };
  using V = std::vector<int64_t>;
  const DType F = DType::kFloat32, H = DType::kFloat16, I64 = DType::kInt64;
  const Check checks[] = {
      // weight's dtype before the reduction and the shapes.
      {Op::kNLLLoss, F, H, F, I64, V{2, 3}, V{5}, V{3}, V{1}, 7, "weight"},
      // out's dtype: self's does not cast to an integer.
      {Op::kNLLLoss, F, F, DType::kInt32, I64, V{2, 3}, V{2}, V{3}, V{1}, 1, "out"},
      {Op::kNLLLoss, DType::kFloat64, DType::kFloat64, F, I64, V{2, 3}, V{2}, V{3}, V{1}, 1,
       "self"},
      {Op::kNLLLoss, F, F, F, DType::kInt16, V{2, 3}, V{2}, V{3}, V{1}, 1, "target"},
      // the reduction before the shapes.
      {Op::kNLLLoss, F, F, F, I64, V{2, 3}, V{5}, V{3}, V{1}, 3, "reduction"},
      {Op::kNLLLoss, F, F, F, I64, V{2, 3, 4}, V{2}, V{3}, V{1}, 1, "self"},
      {Op::kNLLLoss, F, F, F, I64, V{2, 3}, V{3}, V{3}, V{1}, 1, "target"},
      {Op::kNLLLoss, F, F, F, I64, V{2, 3}, V{2}, V{4}, V{1}, 1, "weight"},
      {Op::kNLLLoss, F, F, F, I64, V{2, 3}, V{2}, V{3}, V{1}, 0, "out"},
      {Op::kNLLLoss, F, F, F, I64, V{2, 3}, V{2}, V{3}, V{2}, 2, "out"},
      {Op::kNLLLoss2d, F, F, F, I64, V{2, 3, 4}, V{2, 4}, V{3}, V{1}, 1, "self"},
      {Op::kNLLLoss2d, F, F, F, I64, V{2, 3, 4, 5}, V{2, 5, 4}, V{3}, V{1}, 1, "target"},
      {Op::kNLLLoss2d, F, F, F, I64, V{2, 3, 4, 5}, V{2, 4, 5}, V{3}, V{2, 4, 5, 1}, 0, "out"},
  };
  for (const Check& c : checks) {
    SCOPED_TRACE(std::string(GetOpInfo(c.op).name) + " expecting " + c.param);
    HostTensor self(c.self, c.self_shape), target(c.target, c.target_shape);
    HostTensor weight(c.weight, c.weight_shape), out(c.out, c.out_shape);
    HostTensor total(F, {1});
    const std::vector<uint8_t> before = out.Snapshot();
    const Status s =
        hostnn::Run(ClassArgs(c.op, {&self, &target, &weight}, {&out, &total}, c.reduction, -100));
    ASSERT_EQ(s.code(), StatusCode::kInvalid) << s.message();
    EXPECT_NE(s.message().find(c.param), std::string::npos) << s.message();
    EXPECT_EQ(out.Snapshot(), before);
  }
  // Nulls: 161001, in the prototype's order (NLLLoss2dBackward: out before totalWeight).
  HostTensor dy(F, {1}), self(F, {2, 3, 1, 1}), target(I64, {2, 1, 1}), weight(F, {3});
  HostTensor total(F, {1}), out(F, {2, 3, 1, 1});
  const Status s = hostnn::Run(ClassArgs(
      Op::kNLLLoss2dBackward, {&dy, &self, &target, &weight, nullptr}, {nullptr}, 1, -100));
  ASSERT_EQ(s.code(), StatusCode::kNullptr) << s.message();
  EXPECT_NE(s.message().find("out is null"), std::string::npos) << s.message();
  // NLLLoss2dBackward checks the shapes before the reduction: a gradOutput of two elements
  // with reduction 5 names gradOutput.
  HostTensor dy2(F, {2});
  const Status order = hostnn::Run(
      ClassArgs(Op::kNLLLoss2dBackward, {&dy2, &self, &target, &weight, &total}, {&out}, 5, -100));
  ASSERT_EQ(order.code(), StatusCode::kInvalid);
  EXPECT_NE(order.message().find("gradOutput"), std::string::npos) << order.message();
  // Its out: self's dtype (NLLLossBackward's: any self's casts to).
  HostTensor out_h(H, {2, 3, 1, 1});
  const Status dtype = hostnn::Run(
      ClassArgs(Op::kNLLLoss2dBackward, {&dy, &self, &target, &weight, &total}, {&out_h}, 1, -100));
  ASSERT_EQ(dtype.code(), StatusCode::kInvalid);
  EXPECT_NE(dtype.message().find("out"), std::string::npos) << dtype.message();
  // The two outputs sharing memory are refused.
  HostTensor self2(F, {2, 3}), target2(I64, {2}), weight2(F, {3});
  const Status alias =
      hostnn::Run(ClassArgs(Op::kNLLLoss, {&self2, &target2, &weight2}, {&total, &total}, 1, -100));
  ASSERT_EQ(alias.code(), StatusCode::kInvalid) << alias.message();
  EXPECT_NE(alias.message().find("share memory"), std::string::npos) << alias.message();
}

// The C API: both phases of each entry point, the same bits as hostnn::Run.
TEST(NllLossTest, CApiMatchesRun) {
  std::mt19937_64 rng(5);
  HostTensor self(DType::kFloat32, {8, 6}), target(DType::kInt64, {8}),
      weight(DType::kFloat32, {6});
  HostTensor out(DType::kFloat32, {1}), total(DType::kFloat32, {1});
  HostTensor out2(DType::kFloat32, {1}), total2(DType::kFloat32, {1});
  self.Fill(rng, -3.0, 3.0);
  weight.Fill(rng, 0.5, 1.5);
  FillTargets(&target, 6, -100, rng);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnNLLLossGetWorkspaceSize(self.acl(), target.acl(), weight.acl(), 1, -100, out.acl(),
                                         total.acl(), &ws, &exec),
            0);
  std::vector<char> workspace(ws + 64);
  ASSERT_EQ(aclnnNLLLoss(ws > 0 ? workspace.data() : nullptr, ws, exec, nullptr), 0);
  ASSERT_TRUE(
      hostnn::Run(ClassArgs(Op::kNLLLoss, {&self, &target, &weight}, {&out2, &total2}, 1, -100))
          .ok());
  EXPECT_EQ(out.ElementBytes(), out2.ElementBytes());
  EXPECT_EQ(total.ElementBytes(), total2.ElementBytes());

  HostTensor dy(DType::kFloat32, {1}), grad(DType::kFloat32, {8, 6});
  dy.Set(0, 1.5);
  ASSERT_EQ(aclnnNLLLossBackwardGetWorkspaceSize(dy.acl(), self.acl(), target.acl(), weight.acl(),
                                                 1, -100, total.acl(), grad.acl(), &ws, &exec),
            0);
  std::vector<char> workspace2(ws + 64);
  ASSERT_EQ(aclnnNLLLossBackward(ws > 0 ? workspace2.data() : nullptr, ws, exec, nullptr), 0);
  const LossExpected want =
      ExpectGradient(Op::kNLLLossBackward, dy, self, target, weight, total, 1, -100);
  for (int64_t e = 0; e < grad.numel(); ++e) {
    ASSERT_NEAR(grad.Get(e), want.value[static_cast<size_t>(e)],
                UlpOf(DType::kFloat32, want.value[static_cast<size_t>(e)]));
  }

  HostTensor self4(DType::kFloat16, {2, 3, 2, 2}), target4(DType::kUInt8, {2, 2, 2});
  HostTensor weight4(DType::kFloat16, {3}), out4(DType::kFloat32, {2, 2, 2}),
      total4(DType::kFloat32, {1});
  self4.Fill(rng, -3.0, 3.0);
  weight4.Fill(rng, 0.5, 1.5);
  FillTargets(&target4, 3, -100, rng);
  ASSERT_EQ(aclnnNLLLoss2dGetWorkspaceSize(self4.acl(), target4.acl(), weight4.acl(), 0, -100,
                                           out4.acl(), total4.acl(), &ws, &exec),
            0);
  std::vector<char> workspace3(ws + 64);
  ASSERT_EQ(aclnnNLLLoss2d(ws > 0 ? workspace3.data() : nullptr, ws, exec, nullptr), 0);
  LossExpected want4, unused;
  ExpectForward(Op::kNLLLoss2d, self4, target4, weight4, 0, -100, &want4, &unused);
  for (int64_t e = 0; e < out4.numel(); ++e) {
    EXPECT_EQ(out4.Get(e),
              static_cast<double>(static_cast<float>(want4.value[static_cast<size_t>(e)])));
  }
  HostTensor dy4(DType::kFloat16, {2, 2, 2}), grad4(DType::kFloat16, {2, 3, 2, 2});
  HostTensor total4h(DType::kFloat16, {1});
  dy4.Fill(rng, -1.0, 1.0);
  ASSERT_EQ(
      aclnnNLLLoss2dBackwardGetWorkspaceSize(dy4.acl(), self4.acl(), target4.acl(), weight4.acl(),
                                             0, -100, total4h.acl(), grad4.acl(), &ws, &exec),
      0);
  std::vector<char> workspace4(ws + 64);
  ASSERT_EQ(aclnnNLLLoss2dBackward(ws > 0 ? workspace4.data() : nullptr, ws, exec, nullptr), 0);
  const LossExpected want_grad4 =
      ExpectGradient(Op::kNLLLoss2dBackward, dy4, self4, target4, weight4, total4h, 0, -100);
  for (int64_t e = 0; e < grad4.numel(); ++e) {
    const double w = want_grad4.value[static_cast<size_t>(e)];
    EXPECT_NEAR(grad4.Get(e), w, UlpOf(DType::kFloat16, w)) << e;
  }
}

// Outputs of every dtype self's casts to: DOUBLE and the complex dtypes hold the f32 result
// (a complex one with a +0 imaginary part), as CANN's Cast of the f32 loss.
TEST(NllLossTest, OutputsOfEveryDTypeSelfCastsTo) {
  std::mt19937_64 rng(9);
  HostTensor self(DType::kFloat32, {5, 7}), target(DType::kInt64, {5}),
      weight(DType::kFloat32, {7});
  self.Fill(rng, -3.0, 3.0);
  weight.Fill(rng, 0.5, 1.5);
  FillTargets(&target, 7, -100, rng);
  HostTensor out(DType::kFloat32, {5}), total(DType::kFloat32, {1});
  ASSERT_TRUE(
      hostnn::Run(ClassArgs(Op::kNLLLoss, {&self, &target, &weight}, {&out, &total}, 0, -100))
          .ok());
  HostTensor out_c(DType::kComplex64, {5}), out_z(DType::kComplex128, {5});
  for (HostTensor* o : {&out_c, &out_z}) {
    const Status s =
        hostnn::Run(ClassArgs(Op::kNLLLoss, {&self, &target, &weight}, {o, &total}, 0, -100));
    ASSERT_TRUE(s.ok()) << s.message();
    for (int64_t e = 0; e < 5; ++e) {
      const uint8_t* at = o->Bytes(e);
      double re = 0, im = 0;
      if (o->dtype() == DType::kComplex64) {
        float parts[2];
        std::memcpy(parts, at, sizeof(parts));
        re = parts[0], im = parts[1];
      } else {
        double parts[2];
        std::memcpy(parts, at, sizeof(parts));
        re = parts[0], im = parts[1];
      }
      EXPECT_EQ(re, out.Get(e)) << e;
      EXPECT_EQ(im, 0.0) << e;
    }
  }
  HostTensor dy(DType::kFloat32, {5}), grad(DType::kFloat32, {5, 7}),
      grad_d(DType::kFloat64, {5, 7});
  dy.Fill(rng, -1.0, 1.0);
  for (HostTensor* g : {&grad, &grad_d}) {
    const Status s = hostnn::Run(
        ClassArgs(Op::kNLLLossBackward, {&dy, &self, &target, &weight, &total}, {g}, 0, -100));
    ASSERT_TRUE(s.ok()) << s.message();
  }
  for (int64_t e = 0; e < 35; ++e) EXPECT_EQ(grad_d.Get(e), grad.Get(e)) << e;
}

}  // namespace
}  // namespace test
}  // namespace hostnn
