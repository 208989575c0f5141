// CrossEntropyLoss and CrossEntropyLossGrad (Kind SoftmaxLoss). Every element of every
// output is checked against a reference in long double built here from the stored inputs:
// logProb within LogSoftmax's bound (2^-21 (|x - max| + 1) + 4 ULP; 16-bit: plus an ULP),
// the loss terms and the gradient within 2^-21 times the sum of the magnitudes of the terms
// they add (plus 4 f32 ULP; 16-bit: plus half their ULP), the mean and sum within the same
// bound over every row's terms. Over the three float dtypes, both target dtypes, with and
// without weights, label smoothing 0 and not, ignoreIndex in and out of the classes, rows
// longer than the softmax kernels' one-call row, strided and transposed views, several teams
// and core counts with the bits the same for each. Then logits of 1e4, the run-time refusal
// of a target outside the classes, the checks in order (nothing written), the empty batch,
// the outputs nothing writes (zlossOut, lseForZlossOut) and the C API.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/loss_check.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
constexpr int64_t kBadReduction = -1;  // the mode of a string that names none

// The scalar parameters as the C API hands them over: the reduction's mode (0 none, 1 mean,
// 2 sum; kBadReduction another string), ignoreIndex, labelSmoothing, lseSquareScaleForZloss
// and (the forward's) returnZloss.
struct Attrs {
  int64_t reduction = 1;
  int64_t ignore = -100;
  double smoothing = 0.0;
  double lse_scale = 0.0;
  bool return_zloss = false;
};

OpArgs CeArgs(Op op, const std::vector<const HostTensor*>& in,
              const std::vector<const HostTensor*>& out, const Attrs& at) {
  OpArgs a;
  a.op = op;
  for (size_t k = 0; k < in.size(); ++k) a.in[k] = in[k] != nullptr ? &in[k]->view() : nullptr;
  for (size_t k = 0; k < out.size(); ++k) {
    a.out[k] = out[k] != nullptr ? &out[k]->view() : nullptr;
  }
  const int64_t ints[2] = {at.reduction, at.ignore};
  for (int k = 0; k < 2; ++k) {
    a.scalars[k] = OpScalar{true, static_cast<double>(ints[k]), DType::kInt64};
    a.scalars[k].int_value = ints[k];
  }
  a.scalars[2] = OpScalar{true, at.smoothing, DType::kFloat64};
  a.scalars[3] = OpScalar{true, at.lse_scale, DType::kFloat64};
  if (op == Op::kCrossEntropyLoss) {
    a.scalars[4] = OpScalar{true, at.return_zloss ? 1.0 : 0.0, DType::kBool};
  }
  return a;
}

using LD = long double;

// One row's log-softmax in long double from the stored logits, and the row's max and lse.
struct RowRef {
  std::vector<LD> lp;
  LD max = 0, lse = 0;
};
RowRef LogSoftmaxRow(const HostTensor& x, int64_t r, int64_t c) {
  RowRef row;
  row.max = -INFINITY;
  for (int64_t j = 0; j < c; ++j) row.max = std::max<LD>(row.max, x.Get(r * c + j));
  LD s = 0;
  for (int64_t j = 0; j < c; ++j) s += std::exp(static_cast<LD>(x.Get(r * c + j)) - row.max);
  row.lse = row.max + std::log(s);
  for (int64_t j = 0; j < c; ++j) row.lp.push_back(static_cast<LD>(x.Get(r * c + j)) - row.lse);
  return row;
}

LD WeightOf(const HostTensor* weight, int64_t c) { return weight == nullptr ? 1 : weight->Get(c); }

// The forward's expected logProb and loss.
void ExpectForward(const HostTensor& x, const HostTensor& target, const HostTensor* weight,
                   const Attrs& at, LossExpected* loss, LossExpected* log_prob) {
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const LD e = static_cast<LD>(static_cast<float>(at.smoothing));  // CANN's f32 attribute
  LD sum = 0, mag = 0, wsum = 0;
  for (int64_t r = 0; r < n; ++r) {
    const RowRef row = LogSoftmaxRow(x, r, c);
    for (int64_t j = 0; j < c; ++j) {
      const double v = static_cast<double>(row.lp[static_cast<size_t>(j)]);
      log_prob->value.push_back(v);
      log_prob->bound.push_back(
          std::ldexp(static_cast<double>(std::fabs(x.Get(r * c + j) - row.max)) + 1.0, -21) +
          4 * UlpOf(DType::kFloat32, v) +
          (x.dtype() == DType::kFloat32 ? 0.0 : 0.5 * UlpOf(x.dtype(), v)));
    }
    const int64_t t = static_cast<int64_t>(target.Get(r));
    LD term = 0, term_mag = 0;
    if (t != at.ignore) {
      const LD w = WeightOf(weight, t);
      const LD lp_t = row.lp[static_cast<size_t>(t)];
      // The magnitudes a term's parts carry: |x - max| and lse (each lp_c is their
      // difference), times the weights.
      const LD lse_mag = std::fabs(row.lse - row.max) + 1;
      term = -(1 - e) * w * lp_t;
      term_mag = (1 - e) * std::fabs(w) *
                 (std::fabs(static_cast<LD>(x.Get(r * c + t)) - row.max) + lse_mag);
      if (e > 0) {
        LD smooth = 0, smooth_mag = 0;
        for (int64_t j = 0; j < c; ++j) {
          const LD wj = WeightOf(weight, j);
          smooth += wj * row.lp[static_cast<size_t>(j)];
          smooth_mag +=
              std::fabs(wj) * (std::fabs(static_cast<LD>(x.Get(r * c + j)) - row.max) + lse_mag);
        }
        term -= e / c * smooth;
        term_mag += e / c * smooth_mag;
      }
      wsum += w;
    }
    sum += term, mag += term_mag;
    if (at.reduction == 0) {
      loss->value.push_back(static_cast<double>(term));
      loss->bound.push_back(std::ldexp(static_cast<double>(term_mag), -21) +
                            4 * UlpOf(DType::kFloat32, static_cast<double>(term)));
    }
  }
  if (at.reduction == 0) return;
  const LD total = at.reduction == 1 ? sum / wsum : sum;
  const LD total_mag = at.reduction == 1 ? mag / std::fabs(wsum) : mag;
  loss->value.push_back(static_cast<double>(total));
  loss->bound.push_back(std::ldexp(static_cast<double>(total_mag), -21) +
                        4 * UlpOf(DType::kFloat32, static_cast<double>(total)));
}

// The gradient's expected out, from the stored logProb.
LossExpected ExpectGradient(const HostTensor& dy, const HostTensor& lp, const HostTensor& target,
                            const HostTensor* weight, const Attrs& at) {
  const int64_t n = lp.shape()[0], c = lp.shape()[1];
  const LD e = static_cast<LD>(static_cast<float>(at.smoothing));
  LD wsum = 0, wall = 0;
  for (int64_t r = 0; r < n; ++r) {
    const int64_t t = static_cast<int64_t>(target.Get(r));
    if (t != at.ignore) wsum += WeightOf(weight, t);
  }
  for (int64_t j = 0; j < c; ++j) wall += WeightOf(weight, j);
  LD g_all = at.reduction == 0 ? 0 : dy.Get(0);
  if (at.reduction == 1) g_all /= wsum;
  LossExpected x;
  for (int64_t r = 0; r < n; ++r) {
    const int64_t t = static_cast<int64_t>(target.Get(r));
    const LD g = at.reduction == 0 ? dy.Get(r) : g_all;
    const LD a = t == at.ignore ? 0 : g * (1 - e) * WeightOf(weight, t);
    const LD b = t == at.ignore ? 0 : g * e / c;
    for (int64_t j = 0; j < c; ++j) {
      const LD p = std::exp(static_cast<LD>(lp.Get(r * c + j)));
      const LD wj = WeightOf(weight, j);
      const LD v = p * (a + b * wall) - b * wj - (j == t ? a : 0);
      const LD m = std::fabs(p * (a + b * wall)) + std::fabs(b * wj) + (j == t ? std::fabs(a) : 0);
      x.value.push_back(static_cast<double>(v));
      x.bound.push_back(t == at.ignore ? 0.0
                                       : std::ldexp(static_cast<double>(m), -21) +
                                             4 * UlpOf(DType::kFloat32, static_cast<double>(v)));
    }
  }
  return x;
}

// Targets: classes at random, about one in five ignoreIndex.
void FillTargets(HostTensor* target, int64_t classes, int64_t ignore, std::mt19937_64& rng) {
  std::uniform_int_distribution<int64_t> pick(0, classes - 1);
  std::uniform_int_distribution<int> fifth(0, 4);
  for (int64_t r = 0; r < target->numel(); ++r) {
    target->Set(r, static_cast<double>(fifth(rng) == 0 ? ignore : pick(rng)));
  }
}

// Runs op over the (team, cores) splits, checking each output every time (none of `untouched`
// written), the bits the same for every split.
void RunAllSplits(Op op, const std::vector<const HostTensor*>& in,
                  const std::vector<const HostTensor*>& out, const Attrs& at,
                  const std::vector<LossExpected>& want,
                  const std::vector<const HostTensor*>& untouched) {
  std::vector<std::vector<uint8_t>> before, first, untouched_before;
  for (const HostTensor* o : out) before.push_back(o->Snapshot());
  for (const HostTensor* o : untouched) untouched_before.push_back(o->Snapshot());
  for (const TeamSplit& split : kTeamSplits) {
    std::vector<const HostTensor*> all_out = out;
    all_out.insert(all_out.end(), untouched.begin(), untouched.end());
    const Status s = RunOnSplit(CeArgs(op, in, all_out, at), split);
    ASSERT_TRUE(s.ok()) << s.message();
    for (size_t k = 0; k < out.size(); ++k) {
      ExpectClassLossOut(want[k], *out[k], before[k], GetOpInfo(op).out_names[k]);
      if (first.size() <= k) {
        first.push_back(out[k]->ElementBytes());
      } else {
        ASSERT_EQ(out[k]->ElementBytes(), first[k])
            << "team " << split.team << ", cores " << split.cores;
      }
    }
    for (size_t k = 0; k < untouched.size(); ++k) {
      ASSERT_EQ(untouched[k]->Snapshot(), untouched_before[k]) << "an output nothing writes";
    }
  }
}

Strides LayoutOf(int variant) {
  return variant % 4 == 1   ? Strides::kStep2
         : variant % 4 == 3 ? Strides::kTransposed
                            : Strides::kDense;
}

const std::vector<int64_t> kShapes[] = {{4, 5}, {3, 1}, {33, 1000}, {3, 4100}, {700, 3}};

std::vector<int64_t> LossShape(int64_t n, int64_t reduction) {
  return reduction == 0 ? std::vector<int64_t>{n} : std::vector<int64_t>{};
}

TEST(CrossEntropyLossTest, ForwardMatchesReference) {
  std::mt19937_64 rng(21);
  int runs = 0;
  for (const auto& shape : kShapes) {
    const int64_t n = shape[0], c = shape[1];
    for (const DType dtype : kFloatTypes) {
      for (int64_t reduction = 0; reduction <= 2; ++reduction) {
        const int variant = runs++;
        Attrs at;
        at.reduction = reduction;
        at.ignore = variant % 2 == 0 ? -100 : std::min<int64_t>(1, c - 1);
        at.smoothing = variant % 3 == 1 ? 0.1 : variant % 3 == 2 ? 1.0 : 0.0;
        at.lse_scale = variant % 5 == 4 ? 0.5 : 0.0;  // does not act
        at.return_zloss = variant % 7 == 6;           // does not act
        const bool weighted = variant % 2 == 0;
        const DType tdtype = variant % 4 < 2 ? DType::kInt64 : DType::kInt32;
        const Strides layout = LayoutOf(variant);
        SCOPED_TRACE("input " + ShapeText(shape) + " " + DTypeName(dtype) + " target " +
                     DTypeName(tdtype) + " reduction " + std::to_string(reduction) + " ignore " +
                     std::to_string(at.ignore) + " smoothing " + std::to_string(at.smoothing) +
                     (weighted ? " weighted" : ""));
        HostTensor x(dtype, shape, layout), target(tdtype, {n}, layout);
        HostTensor weight(DType::kFloat32, {c}, layout);
        HostTensor loss(dtype, LossShape(n, reduction), layout), lp(dtype, shape, layout);
        HostTensor zloss(dtype, {1}), lse(dtype, {n});
        x.Fill(rng, -8.0, 8.0);
        weight.Fill(rng, 0.25, 2.0);
        FillTargets(&target, c, at.ignore, rng);
        LossExpected want_loss, want_lp;
        ExpectForward(x, target, weighted ? &weight : nullptr, at, &want_loss, &want_lp);
        RunAllSplits(Op::kCrossEntropyLoss, {&x, &target, weighted ? &weight : nullptr},
                     {&loss, &lp}, at, {want_loss, want_lp}, {&zloss, &lse});
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(CrossEntropyLossTest, GradientMatchesReference) {
  std::mt19937_64 rng(22);
  int runs = 0;
  for (const auto& shape : kShapes) {
    const int64_t n = shape[0], c = shape[1];
    for (const DType dtype : kFloatTypes) {
      for (int64_t reduction = 0; reduction <= 2; ++reduction) {
        const int variant = runs++;
        Attrs at;
        at.reduction = reduction;
        at.ignore = variant % 2 == 0 ? -100 : std::min<int64_t>(1, c - 1);
        at.smoothing = variant % 3 == 1 ? 0.1 : variant % 3 == 2 ? 1.0 : 0.0;
        const bool weighted = variant % 2 == 1;
        const Strides layout = LayoutOf(variant);
        SCOPED_TRACE("logProb " + ShapeText(shape) + " " + DTypeName(dtype) + " reduction " +
                     std::to_string(reduction) + " ignore " + std::to_string(at.ignore) +
                     " smoothing " + std::to_string(at.smoothing) + (weighted ? " weighted" : ""));
        HostTensor dy(dtype, LossShape(n, reduction), layout), lp(dtype, shape, layout);
        HostTensor target(DType::kInt64, {n}, layout), weight(DType::kFloat32, {c}, layout);
        HostTensor out(dtype, shape, layout);
        dy.Fill(rng, -4.0, 4.0);
        weight.Fill(rng, 0.25, 2.0);
        // logProb as the forward writes it: each row's log-softmax of random logits, stored.
        HostTensor logits(DType::kFloat32, shape);
        logits.Fill(rng, -8.0, 8.0);
        for (int64_t r = 0; r < n; ++r) {
          const RowRef row = LogSoftmaxRow(logits, r, c);
          for (int64_t j = 0; j < c; ++j) {
            lp.Set(r * c + j, static_cast<double>(row.lp[static_cast<size_t>(j)]));
          }
        }
        FillTargets(&target, c, at.ignore, rng);
        const LossExpected want = ExpectGradient(dy, lp, target, weighted ? &weight : nullptr, at);
        RunAllSplits(Op::kCrossEntropyLossGrad,
                     {&dy, &lp, &target, weighted ? &weight : nullptr, nullptr, nullptr}, {&out},
                     at, {want}, {});
        if (HasFatalFailure()) return;
      }
    }
  }
}

// logProb as a caller may pass it, not written by a log-softmax: values above 0 too, up to 80
// (the row kernel's exp takes its general path for the vectors that hold one).
TEST(CrossEntropyLossTest, GradientOfAnyLogProb) {
  std::mt19937_64 rng(23);
  const std::vector<int64_t> shape = {5, 37};
  for (const DType dtype : kFloatTypes) {
    for (int64_t reduction = 0; reduction <= 1; ++reduction) {
      SCOPED_TRACE(std::string(DTypeName(dtype)) + " reduction " + std::to_string(reduction));
      Attrs at;
      at.reduction = reduction;
      at.smoothing = reduction == 1 ? 0.1 : 0.0;
      HostTensor dy(dtype, LossShape(shape[0], reduction)), lp(dtype, shape);
      HostTensor target(DType::kInt64, {shape[0]}), out(dtype, shape);
      dy.Fill(rng, -4.0, 4.0);
      lp.Fill(rng, -3.0, 2.0);
      if (dtype != DType::kFloat16) lp.Set(3, 80.0), lp.Set(2 * 37 + 20, 70.0);  // f16: inf
      FillTargets(&target, shape[1], at.ignore, rng);
      const LossExpected want = ExpectGradient(dy, lp, target, nullptr, at);
      RunAllSplits(Op::kCrossEntropyLossGrad, {&dy, &lp, &target, nullptr, nullptr, nullptr},
                   {&out}, at, {want}, {});
      if (HasFatalFailure()) return;
    }
  }
}

// Logits of 1e4: the max taken out, nothing overflows; logProb and the loss stay exact.
TEST(CrossEntropyLossTest, LargeLogitsDoNotOverflow) {
  HostTensor x(DType::kFloat32, {2, 3}), target(DType::kInt64, {2});
  HostTensor loss(DType::kFloat32, {2}), lp(DType::kFloat32, {2, 3});
  HostTensor zloss(DType::kFloat32, {1}), lse(DType::kFloat32, {2});
  const double v[] = {1e4, 1e4 - 1, -1e4, -1e4, -1e4 + 2, 1e4};
  for (int e = 0; e < 6; ++e) x.Set(e, v[e]);
  target.Set(0, 1), target.Set(1, 0);
  Attrs at;
  at.reduction = 0;
  LossExpected want_loss, want_lp;
  ExpectForward(x, target, nullptr, at, &want_loss, &want_lp);
  RunAllSplits(Op::kCrossEntropyLoss, {&x, &target, nullptr}, {&loss, &lp}, at,
               {want_loss, want_lp}, {&zloss, &lse});
  EXPECT_NEAR(loss.Get(1), 2e4, 1e-2);  // -(x - max - log(sum)) for the row's smallest
}

// A target outside [0, C) that is not ignoreIndex: refused when the call runs, nothing written.
TEST(CrossEntropyLossTest, TargetOutsideTheClassesIsRefusedAtRun) {
  for (const int64_t bad : {int64_t{-1}, int64_t{5}, int64_t{-100}}) {
    for (const Op op : {Op::kCrossEntropyLoss, Op::kCrossEntropyLossGrad}) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " target " + std::to_string(bad));
      HostTensor x(DType::kFloat32, {3, 5}), target(DType::kInt64, {3});
      HostTensor dy(DType::kFloat32, {}), loss(DType::kFloat32, {}), lp(DType::kFloat32, {3, 5});
      HostTensor zloss(DType::kFloat32, {1}), lse(DType::kFloat32, {3});
      std::mt19937_64 rng(3);
      x.Fill(rng, -1.0, 1.0), dy.Fill(rng, 0.5, 1.0);
      target.Set(0, 2), target.Set(1, static_cast<double>(bad)), target.Set(2, 4);
      Attrs at;
      at.ignore = bad == -100 ? -1 : -100;
      const std::vector<uint8_t> loss_before = loss.Snapshot(), lp_before = lp.Snapshot();
      const OpArgs a = op == Op::kCrossEntropyLoss
                           ? CeArgs(op, {&x, &target, nullptr}, {&loss, &lp, &zloss, &lse}, at)
                           : CeArgs(op, {&dy, &x, &target}, {&lp}, at);
      const Status s = hostnn::Run(a);
      ASSERT_EQ(s.code(), StatusCode::kInvalid) << s.message();
      EXPECT_NE(s.message().find("target element 1"), std::string::npos) << s.message();
      EXPECT_EQ(loss.Snapshot(), loss_before);
      EXPECT_EQ(lp.Snapshot(), lp_before);
    }
  }
}

// No rows: nothing written for none, NaN (mean) or 0 (sum); the gradient writes nothing.
TEST(CrossEntropyLossTest, EmptyBatch) {
  for (int64_t reduction = 0; reduction <= 2; ++reduction) {
    HostTensor x(DType::kFloat16, {0, 3}), target(DType::kInt64, {0});
    HostTensor loss(DType::kFloat16, LossShape(0, reduction)), lp(DType::kFloat16, {0, 3});
    HostTensor zloss(DType::kFloat16, {1}), lse(DType::kFloat16, {0});
    const std::vector<uint8_t> before = loss.Snapshot();
    Attrs at;
    at.reduction = reduction;
    const Status s = hostnn::Run(
        CeArgs(Op::kCrossEntropyLoss, {&x, &target, nullptr}, {&loss, &lp, &zloss, &lse}, at));
    ASSERT_TRUE(s.ok()) << s.message();
    if (reduction == 0) {
      EXPECT_EQ(loss.Snapshot(), before);
    } else if (reduction == 1) {
      EXPECT_TRUE(std::isnan(loss.Get(0)));
    } else {
      EXPECT_EQ(loss.Get(0), 0.0);
    }
  }
  HostTensor dy(DType::kFloat32, {}), lp(DType::kFloat32, {0, 4}), target(DType::kInt64, {0});
  HostTensor out(DType::kFloat32, {0, 4});
  const Status s = hostnn::Run(CeArgs(Op::kCrossEntropyLossGrad, {&dy, &lp, &target}, {&out}, {}));
  EXPECT_TRUE(s.ok()) << s.message();
}

// Each operand in turn behind a null address, its view starting one element into its
// storage: phase 1 takes it (CANN's never reads the address) and computes no address from
// it, phase 2 refuses it and writes nothing.
TEST(CrossEntropyLossTest, NullDataAtAnOffsetTakenByPhase1RefusedByPhase2) {
  const DType F = DType::kFloat32;
  HostTensor x(F, {3, 5}), target(DType::kInt64, {3}), weight(F, {5});
  HostTensor loss(F, {3}), lp(F, {3, 5}), zloss(F, {3}), lse(F, {3});
  HostTensor dy(F, {3}), out(F, {3, 5});
  for (int64_t e = 0; e < 3; ++e) target.Set(e, e);
  Attrs at;
  at.reduction = 0;
  for (const Op op : {Op::kCrossEntropyLoss, Op::kCrossEntropyLossGrad}) {
    const bool fwd = op == Op::kCrossEntropyLoss;
    const std::vector<const HostTensor*> in =
        fwd ? std::vector<const HostTensor*>{&x, &target, &weight}
            : std::vector<const HostTensor*>{&dy, &lp, &target, &weight};
    const std::vector<const HostTensor*> outs =
        fwd ? std::vector<const HostTensor*>{&loss, &lp, &zloss, &lse}
            : std::vector<const HostTensor*>{&out};
    const size_t written = fwd ? 2 : 1;
    for (size_t k = 0; k < in.size() + written; ++k) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " operand " + std::to_string(k));
      OpArgs a = CeArgs(op, in, outs, at);
      const TensorView*& slot = k < in.size() ? a.in[k] : a.out[k - in.size()];
      const TensorView null_view = NullDataAtAnOffset(*slot);
      slot = &null_view;
      std::vector<std::vector<uint8_t>> before;
      for (const HostTensor* o : outs) before.push_back(o->Snapshot());
      const Status s = hostnn::Run(a);
      ASSERT_FALSE(s.ok());
      EXPECT_NE(s.message().find("null address"), std::string::npos) << s.message();
      for (size_t o = 0; o < outs.size(); ++o) EXPECT_EQ(outs[o]->Snapshot(), before[o]);
    }
  }
}

// The checks, in the generated entry points' and the tiling's order; nothing written when one
// fails.
TEST(CrossEntropyLossTest, ChecksInOrder) {
  using V = std::vector<int64_t>;
  const DType F = DType::kFloat32, H = DType::kFloat16, I64 = DType::kInt64;
  struct Check {
    DType x, target, weight, loss, lp;
    V x_shape, target_shape, weight_shape, loss_shape, lp_shape;
    Attrs at;
    StatusCode code;
    const char* param;  // the parameter the message names
  };
  Attrs mean, bad_mode, bad_smoothing, none;
  bad_mode.reduction = kBadReduction;
  bad_smoothing.smoothing = 1.5;
  none.reduction = 0;
  const StatusCode kParam = StatusCode::kInvalid, kTiling = StatusCode::kInnerTiling;
  const Check checks[] = {
      // dtypes (161002) before the attributes and shapes (561002).
      {DType::kFloat64, I64, F, F, F, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, bad_mode, kParam, "input"},
      {F, DType::kInt16, F, F, F, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, mean, kParam, "target"},
      {H, I64, H, H, H, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, mean, kParam, "weightOptional"},
      {F, I64, F, H, F, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, mean, kParam, "lossOut"},
      {F, I64, F, F, H, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, mean, kParam, "logProbOut"},
      // the attributes before the shapes.
      {F, I64, F, F, F, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, bad_mode, kTiling, "reductionOptional"},
      {F, I64, F, F, F, V{2, 3}, V{5}, V{3}, V{}, V{2, 3}, bad_smoothing, kTiling,
       "labelSmoothing"},
      {F, I64, F, F, F, V{2, 3, 1}, V{2}, V{3}, V{}, V{2, 3}, mean, kTiling, "input"},
      {F, I64, F, F, F, V{2, 0}, V{2}, V{0}, V{}, V{2, 0}, mean, kTiling, "input"},
      {F, I64, F, F, F, V{2, 3}, V{3}, V{3}, V{}, V{2, 3}, mean, kTiling, "target"},
      {F, I64, F, F, F, V{2, 3}, V{2}, V{4}, V{}, V{2, 3}, mean, kTiling, "weightOptional"},
      {F, I64, F, F, F, V{2, 3}, V{2}, V{3}, V{2}, V{2, 3}, mean, kTiling, "lossOut"},
      {F, I64, F, F, F, V{2, 3}, V{2}, V{3}, V{1}, V{2, 3}, none, kTiling, "lossOut"},
      {F, I64, F, F, F, V{2, 3}, V{2}, V{3}, V{}, V{3, 2}, mean, kTiling, "logProbOut"},
  };
  for (const Check& c : checks) {
    SCOPED_TRACE(std::string("expecting ") + c.param);
    HostTensor x(c.x, c.x_shape), target(c.target, c.target_shape);
    HostTensor weight(c.weight, c.weight_shape), loss(c.loss, c.loss_shape), lp(c.lp, c.lp_shape);
    HostTensor zloss(c.x, {1}), lse(c.x, {2});
    const std::vector<uint8_t> loss_before = loss.Snapshot(), lp_before = lp.Snapshot();
    const Status s = hostnn::Run(
        CeArgs(Op::kCrossEntropyLoss, {&x, &target, &weight}, {&loss, &lp, &zloss, &lse}, c.at));
    ASSERT_EQ(s.code(), c.code) << s.message();
    EXPECT_NE(s.message().find(c.param), std::string::npos) << s.message();
    EXPECT_EQ(loss.Snapshot(), loss_before);
    EXPECT_EQ(lp.Snapshot(), lp_before);
  }
  // Nulls: 161001, every output required.
  HostTensor x(F, {2, 3}), target(I64, {2}), loss(F, {}), lp(F, {2, 3}), zloss(F, {1});
  const Status null_out = hostnn::Run(
      CeArgs(Op::kCrossEntropyLoss, {&x, &target, nullptr}, {&loss, &lp, &zloss, nullptr}, {}));
  ASSERT_EQ(null_out.code(), StatusCode::kNullptr) << null_out.message();
  EXPECT_NE(null_out.message().find("lseForZlossOut is null"), std::string::npos);
  // logProbOut over the input: refused.
  HostTensor lse(F, {2});
  const Status over_input = hostnn::Run(
      CeArgs(Op::kCrossEntropyLoss, {&x, &target, nullptr}, {&loss, &x, &zloss, &lse}, {}));
  EXPECT_EQ(over_input.code(), StatusCode::kInvalid) << over_input.message();

  // The gradient: target INT64 only, gradLoss's dtype for logProb, the optional zloss
  // inputs and out; gradLoss [N] for none, one element otherwise; out logProb's shape.
  struct GradCheck {
    DType dy, lp, target, zloss, out;
    V dy_shape, out_shape;
    Attrs at;
    StatusCode code;
    const char* param;
  };
  const GradCheck grad_checks[] = {
      {F, F, DType::kInt32, F, F, V{}, V{2, 3}, mean, kParam, "target"},
      {F, H, I64, F, F, V{}, V{2, 3}, mean, kParam, "logProb"},
      {F, F, I64, H, F, V{}, V{2, 3}, mean, kParam, "gradZlossOptional"},
      {F, F, I64, F, H, V{}, V{2, 3}, mean, kParam, "out"},
      {F, F, I64, F, F, V{}, V{2, 3}, bad_mode, kTiling, "reductionOptional"},
      {F, F, I64, F, F, V{2}, V{2, 3}, mean, kTiling, "gradLoss"},
      {F, F, I64, F, F, V{}, V{2, 3}, none, kTiling, "gradLoss"},
      {F, F, I64, F, F, V{}, V{2, 4}, mean, kTiling, "out"},
  };
  for (const GradCheck& c : grad_checks) {
    SCOPED_TRACE(std::string("gradient expecting ") + c.param);
    HostTensor dy(c.dy, c.dy_shape), glp(c.lp, {2, 3}), gtarget(c.target, {2});
    HostTensor gz(c.zloss, {}), out(c.out, c.out_shape);
    const std::vector<uint8_t> before = out.Snapshot();
    const Status s = hostnn::Run(CeArgs(
        Op::kCrossEntropyLossGrad, {&dy, &glp, &gtarget, nullptr, &gz, nullptr}, {&out}, c.at));
    ASSERT_EQ(s.code(), c.code) << s.message();
    EXPECT_NE(s.message().find(c.param), std::string::npos) << s.message();
    EXPECT_EQ(out.Snapshot(), before);
  }
}

// The C API: both phases of each entry point, the same bits as hostnn::Run; a null
// reductionOptional is "mean".
TEST(CrossEntropyLossTest, CApiMatchesRun) {
  std::mt19937_64 rng(5);
  HostTensor x(DType::kBFloat16, {8, 6}), target(DType::kInt64, {8}), weight(DType::kFloat32, {6});
  HostTensor loss(DType::kBFloat16, {1}), lp(DType::kBFloat16, {8, 6});
  HostTensor zloss(DType::kBFloat16, {1}), lse(DType::kBFloat16, {8});
  HostTensor loss2(DType::kBFloat16, {1}), lp2(DType::kBFloat16, {8, 6});
  x.Fill(rng, -3.0, 3.0);
  weight.Fill(rng, 0.5, 1.5);
  FillTargets(&target, 6, -100, rng);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnCrossEntropyLossGetWorkspaceSize(x.acl(), target.acl(), weight.acl(), nullptr,
                                                  -100, 0.2, 0.0, false, loss.acl(), lp.acl(),
                                                  zloss.acl(), lse.acl(), &ws, &exec),
            0);
  std::vector<char> workspace(ws + 64);
  ASSERT_EQ(aclnnCrossEntropyLoss(ws > 0 ? workspace.data() : nullptr, ws, exec, nullptr), 0);
  Attrs at;
  at.smoothing = 0.2;
  ASSERT_TRUE(hostnn::Run(CeArgs(Op::kCrossEntropyLoss, {&x, &target, &weight},
                                 {&loss2, &lp2, &zloss, &lse}, at))
                  .ok());
  EXPECT_EQ(loss.ElementBytes(), loss2.ElementBytes());
  EXPECT_EQ(lp.ElementBytes(), lp2.ElementBytes());
  char sum[] = "sum", bogus[] = "avg";
  EXPECT_EQ(aclnnCrossEntropyLossGetWorkspaceSize(x.acl(), target.acl(), weight.acl(), bogus, -100,
                                                  0.0, 0.0, false, loss.acl(), lp.acl(),
                                                  zloss.acl(), lse.acl(), &ws, &exec),
            561002);

  HostTensor dy(DType::kBFloat16, {}), grad(DType::kBFloat16, {8, 6});
  dy.Set(0, 1.5);
  ASSERT_EQ(aclnnCrossEntropyLossGradGetWorkspaceSize(dy.acl(), lp.acl(), target.acl(),
                                                      weight.acl(), nullptr, nullptr, sum, -100,
                                                      0.2, 0.0, grad.acl(), &ws, &exec),
            0);
  std::vector<char> workspace2(ws + 64);
  ASSERT_EQ(aclnnCrossEntropyLossGrad(ws > 0 ? workspace2.data() : nullptr, ws, exec, nullptr), 0);
  Attrs gat;
  gat.reduction = 2;
  gat.smoothing = 0.2;
  const LossExpected want = ExpectGradient(dy, lp, target, &weight, gat);
  for (int64_t e = 0; e < grad.numel(); ++e) {
    const double w = want.value[static_cast<size_t>(e)];
    EXPECT_NEAR(grad.Get(e), w, want.bound[static_cast<size_t>(e)] + UlpOf(DType::kBFloat16, w))
        << e;
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
