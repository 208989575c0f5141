// SoftmaxCrossEntropyWithLogits (Kind SoftmaxLoss, dense labels). Every element of both
// outputs is checked against a reference in long double built here from the stored inputs:
// loss[n] = sum_c y_c (lse - x_c) within 2^-21 times the sum of the magnitudes its terms
// carry (plus 4 f32 ULP), backprop[n, c] = exp(x_c - lse) - y_c within 2^-21 (1 + |y_c|)
// plus 4 f32 ULP; 16-bit outputs plus half their ULP. Over the three float dtypes for
// features and for labels, labels of features' shape and broadcast ([1, C], [N, 1], [1, 1]),
// probability rows and signed labels, rows longer than the softmax kernels' one-call row,
// strided and transposed views, several teams and core counts with the bits the same for
// each. Then logits of 1e4, empty features, the checks in op_api's order (nothing written)
// and the C API.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "hostnn/ops.h"
#include "tests/util/loss_check.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
constexpr Op kOp = Op::kSoftmaxCrossEntropyWithLogits;
using LD = long double;

OpArgs ScewlArgs(const HostTensor* features, const HostTensor* labels, const HostTensor* loss,
                 const HostTensor* backprop) {
  OpArgs a;
  a.op = kOp;
  a.in[0] = features != nullptr ? &features->view() : nullptr;
  a.in[1] = labels != nullptr ? &labels->view() : nullptr;
  a.out[0] = loss != nullptr ? &loss->view() : nullptr;
  a.out[1] = backprop != nullptr ? &backprop->view() : nullptr;
  return a;
}

// The expected loss and backprop; labels broadcast to features' [N, C].
void Expect(const HostTensor& x, const HostTensor& y, LossExpected* loss, LossExpected* backprop) {
  const int64_t n = x.shape()[0], c = x.shape()[1];
  const std::vector<int64_t> to = {n, c};
  for (int64_t r = 0; r < n; ++r) {
    LD max = -INFINITY;
    for (int64_t j = 0; j < c; ++j) max = std::max<LD>(max, x.Get(r * c + j));
    LD s = 0;
    for (int64_t j = 0; j < c; ++j) s += std::exp(static_cast<LD>(x.Get(r * c + j)) - max);
    const LD lse = max + std::log(s);
    LD l = 0, mag = 0;
    for (int64_t j = 0; j < c; ++j) {
      const LD xj = x.Get(r * c + j);
      const LD yj = y.Get(BroadcastIndex(to, y.shape(), r * c + j));
      l += yj * (lse - xj);
      mag += std::fabs(yj) * (std::fabs(xj - max) + std::fabs(lse - max) + 1);
      const double v = static_cast<double>(std::exp(xj - lse) - yj);
      backprop->value.push_back(v);
      backprop->bound.push_back(std::ldexp(1.0 + std::fabs(static_cast<double>(yj)), -21) +
                                4 * UlpOf(DType::kFloat32, v));
    }
    loss->value.push_back(static_cast<double>(l));
    loss->bound.push_back(std::ldexp(static_cast<double>(mag), -21) +
                          4 * UlpOf(DType::kFloat32, static_cast<double>(l)));
  }
}

// Runs the operator over the (team, cores) splits, checking both outputs every time, the bits
// the same for every split.
void RunAllSplits(const HostTensor& x, const HostTensor& y, const HostTensor& loss,
                  const HostTensor& backprop) {
  LossExpected want_loss, want_backprop;
  Expect(x, y, &want_loss, &want_backprop);
  const std::vector<uint8_t> loss_before = loss.Snapshot(), bp_before = backprop.Snapshot();
  std::vector<uint8_t> loss_bits, bp_bits;
  for (const TeamSplit& split : kTeamSplits) {
    SCOPED_TRACE("team " + std::to_string(split.team) + ", cores " + std::to_string(split.cores));
    const Status s = RunOnSplit(ScewlArgs(&x, &y, &loss, &backprop), split);
    ASSERT_TRUE(s.ok()) << s.message();
    ExpectClassLossOut(want_loss, loss, loss_before, "loss");
    ExpectClassLossOut(want_backprop, backprop, bp_before, "backprop");
    if (loss_bits.empty()) {
      loss_bits = loss.ElementBytes(), bp_bits = backprop.ElementBytes();
    } else {
      ASSERT_EQ(loss.ElementBytes(), loss_bits);
      ASSERT_EQ(backprop.ElementBytes(), bp_bits);
    }
  }
}

// Labels as a probability per row (nonnegative, summing to about 1) or signed values.
void FillLabels(HostTensor* y, bool probabilities, std::mt19937_64& rng) {
  y->Fill(rng, probabilities ? 0.0 : -2.0, 2.0);
  if (!probabilities) return;
  const int64_t c = y->shape()[1];
  for (int64_t r = 0; r < y->shape()[0]; ++r) {
    double s = 0;
    for (int64_t j = 0; j < c; ++j) s += y->Get(r * c + j);
    for (int64_t j = 0; j < c; ++j) y->Set(r * c + j, s > 0 ? y->Get(r * c + j) / s : 0.0);
  }
}

Strides LayoutOf(int variant) {
  return variant % 3 == 1   ? Strides::kStep2
         : variant % 3 == 2 ? Strides::kTransposed
                            : Strides::kDense;
}

TEST(SoftmaxCrossEntropyWithLogitsTest, MatchesReference) {
  const std::vector<int64_t> shapes[] = {{4, 5}, {3, 1}, {33, 1000}, {3, 4100}, {700, 3}, {1, 7}};
  std::mt19937_64 rng(31);
  int runs = 0;
  for (const auto& shape : shapes) {
    const int64_t n = shape[0], c = shape[1];
    for (const DType dtype : kFloatTypes) {
      for (const DType ldtype : kFloatTypes) {
        const int variant = runs++;
        // Labels of features' shape most of the time; the three broadcasts in turn.
        const int form = variant % 6 < 3 ? 0 : variant % 6 - 2;
        const std::vector<int64_t> lshape = form == 0   ? shape
                                            : form == 1 ? std::vector<int64_t>{1, c}
                                            : form == 2 ? std::vector<int64_t>{n, 1}
                                                        : std::vector<int64_t>{1, 1};
        const Strides layout = LayoutOf(variant);
        const bool probabilities = variant % 2 == 0;
        SCOPED_TRACE("features " + ShapeText(shape) + " " + DTypeName(dtype) + ", labels " +
                     ShapeText(lshape) + " " + DTypeName(ldtype) +
                     (probabilities ? " probabilities" : " signed"));
        HostTensor x(dtype, shape, layout), y(ldtype, lshape, LayoutOf(variant + 1));
        HostTensor loss(dtype, {n}, layout), backprop(dtype, shape, LayoutOf(variant + 2));
        x.Fill(rng, -8.0, 8.0);
        FillLabels(&y, probabilities, rng);
        RunAllSplits(x, y, loss, backprop);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// Logits of 1e4: the max taken out, nothing overflows.
TEST(SoftmaxCrossEntropyWithLogitsTest, LargeLogitsDoNotOverflow) {
  HostTensor x(DType::kFloat32, {2, 3}), y(DType::kFloat32, {2, 3});
  HostTensor loss(DType::kFloat32, {2}), backprop(DType::kFloat32, {2, 3});
  const double v[] = {1e4, 1e4 - 1, -1e4, -1e4, -1e4 + 2, 1e4};
  const double p[] = {0.0, 1.0, 0.0, 1.0, 0.0, 0.0};
  for (int e = 0; e < 6; ++e) x.Set(e, v[e]), y.Set(e, p[e]);
  RunAllSplits(x, y, loss, backprop);
  EXPECT_NEAR(loss.Get(1), 2e4, 1e-2);  // lse - x for the row's smallest
  EXPECT_NEAR(backprop.Get(5), 1.0, 1e-6);
}

// Empty features (no rows, or rows of no classes): nothing is run or written, as CANN's.
TEST(SoftmaxCrossEntropyWithLogitsTest, EmptyFeaturesWriteNothing) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 3}, {4, 0}}) {
    SCOPED_TRACE(ShapeText(shape));
    HostTensor x(DType::kFloat16, shape), y(DType::kFloat16, shape);
    HostTensor loss(DType::kFloat16, {shape[0]}), backprop(DType::kFloat16, shape);
    for (int64_t e = 0; e < loss.numel(); ++e) loss.Set(e, 0.25);
    const std::vector<uint8_t> before = loss.Snapshot();
    const Status s = hostnn::Run(ScewlArgs(&x, &y, &loss, &backprop));
    ASSERT_TRUE(s.ok()) << s.message();
    EXPECT_EQ(loss.Snapshot(), before);
  }
}

// Each operand in turn behind a null address, its view starting one element into its
// storage: phase 1 takes it (CANN's never reads the address) and computes no address from
// it, phase 2 refuses it and writes nothing.
TEST(SoftmaxCrossEntropyWithLogitsTest, NullDataAtAnOffsetTakenByPhase1RefusedByPhase2) {
  const DType F = DType::kFloat32;
  HostTensor x(F, {3, 5}), y(F, {3, 5}), loss(F, {3}), backprop(F, {3, 5});
  for (int k = 0; k < 4; ++k) {
    SCOPED_TRACE("operand " + std::to_string(k));
    OpArgs a = ScewlArgs(&x, &y, &loss, &backprop);
    const TensorView*& slot = k < 2 ? a.in[k] : a.out[k - 2];
    const TensorView null_view = NullDataAtAnOffset(*slot);
    slot = &null_view;
    const std::vector<uint8_t> loss_before = loss.Snapshot(), bp_before = backprop.Snapshot();
    const Status s = hostnn::Run(a);
    ASSERT_FALSE(s.ok());
    EXPECT_NE(s.message().find("null address"), std::string::npos) << s.message();
    EXPECT_EQ(loss.Snapshot(), loss_before);
    EXPECT_EQ(backprop.Snapshot(), bp_before);
  }
}

// The checks in op_api's order (nulls, dtypes, ranks) and then the shapes; nothing written
// when one fails.
TEST(SoftmaxCrossEntropyWithLogitsTest, ChecksInOrder) {
  using V = std::vector<int64_t>;
  const DType F = DType::kFloat32, H = DType::kFloat16, B = DType::kBFloat16;
  struct Check {
    DType x, y, loss, bp;
    V x_shape, y_shape, loss_shape, bp_shape;
    const char* param;  // the parameter the message names
  };
  const Check checks[] = {
      // dtypes before the ranks: each in the list, then the outputs features'.
      {DType::kFloat64, F, F, F, V{2}, V{2, 3}, V{2}, V{2, 3}, "features"},
      {F, DType::kInt32, F, F, V{2}, V{2, 3}, V{2}, V{2, 3}, "labels"},
      {F, F, DType::kInt64, F, V{2, 3}, V{2, 3}, V{2}, V{2, 3}, "loss"},
      {F, F, F, DType::kFloat64, V{2, 3}, V{2, 3}, V{2}, V{2, 3}, "backprop"},
      {F, F, H, F, V{2, 3}, V{2, 3}, V{2}, V{2, 3}, "loss"},
      {B, B, B, H, V{2, 3}, V{2, 3}, V{2}, V{2, 3}, "backprop"},
      // then the ranks (op_api's), then the shapes.
      {F, F, F, F, V{16}, V{16}, V{16}, V{16, 4}, "features"},
      {F, F, F, F, V{2, 3}, V{2, 3, 1}, V{2}, V{2, 3}, "labels"},
      {F, F, F, F, V{2, 3}, V{3, 3}, V{2}, V{2, 3}, "labels"},
      {F, F, F, F, V{2, 3}, V{2, 2}, V{2}, V{2, 3}, "labels"},
      {F, F, F, F, V{2, 3}, V{2, 3}, V{2, 1}, V{2, 3}, "loss"},
      {F, F, F, F, V{2, 3}, V{2, 3}, V{3}, V{2, 3}, "loss"},
      {F, F, F, F, V{2, 3}, V{2, 3}, V{2}, V{3, 2}, "backprop"},
  };
  for (const Check& c : checks) {
    SCOPED_TRACE(std::string("expecting ") + c.param);
    HostTensor x(c.x, c.x_shape), y(c.y, c.y_shape), loss(c.loss, c.loss_shape);
    HostTensor backprop(c.bp, c.bp_shape);
    const std::vector<uint8_t> loss_before = loss.Snapshot(), bp_before = backprop.Snapshot();
    const Status s = hostnn::Run(ScewlArgs(&x, &y, &loss, &backprop));
    ASSERT_EQ(s.code(), StatusCode::kInvalid) << s.message();
    EXPECT_NE(s.message().find(c.param), std::string::npos) << s.message();
    EXPECT_EQ(loss.Snapshot(), loss_before);
    EXPECT_EQ(backprop.Snapshot(), bp_before);
  }
  HostTensor x(F, {2, 3}), y(F, {2, 3}), loss(F, {2}), backprop(F, {2, 3});
  const HostTensor* given[] = {&x, &y, &loss, &backprop};
  const char* names[] = {"features", "labels", "loss", "backprop"};
  for (int k = 0; k < 4; ++k) {
    const HostTensor* t[4] = {given[0], given[1], given[2], given[3]};
    t[k] = nullptr;
    const Status s = hostnn::Run(ScewlArgs(t[0], t[1], t[2], t[3]));
    ASSERT_EQ(s.code(), StatusCode::kNullptr) << s.message();
    EXPECT_NE(s.message().find(std::string(names[k]) + " is null"), std::string::npos)
        << s.message();
  }
  // An output over an input or over the other output: refused.
  HostTensor wide(F, {2, 3});
  EXPECT_EQ(hostnn::Run(ScewlArgs(&x, &y, &loss, &x)).code(), StatusCode::kInvalid);
  EXPECT_EQ(hostnn::Run(ScewlArgs(&x, &wide, &loss, &wide)).code(), StatusCode::kInvalid);
}

// The C API: both phases, the same bits as hostnn::Run; mixed dtypes of features and labels.
TEST(SoftmaxCrossEntropyWithLogitsTest, CApiMatchesRun) {
  std::mt19937_64 rng(5);
  HostTensor x(DType::kBFloat16, {8, 6}), y(DType::kFloat32, {8, 6});
  HostTensor loss(DType::kBFloat16, {8}), backprop(DType::kBFloat16, {8, 6});
  HostTensor loss2(DType::kBFloat16, {8}), backprop2(DType::kBFloat16, {8, 6});
  x.Fill(rng, -3.0, 3.0);
  FillLabels(&y, true, rng);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x.acl(), y.acl(), loss.acl(),
                                                               backprop.acl(), &ws, &exec),
            0);
  std::vector<char> workspace(ws + 64);
  ASSERT_EQ(
      aclnnSoftmaxCrossEntropyWithLogits(ws > 0 ? workspace.data() : nullptr, ws, exec, nullptr),
      0);
  ASSERT_TRUE(hostnn::Run(ScewlArgs(&x, &y, &loss2, &backprop2)).ok());
  EXPECT_EQ(loss.ElementBytes(), loss2.ElementBytes());
  EXPECT_EQ(backprop.ElementBytes(), backprop2.ElementBytes());
  HostTensor bad(DType::kFloat32, {8});
  EXPECT_EQ(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x.acl(), y.acl(), bad.acl(),
                                                               backprop.acl(), &ws, &exec),
            161002);
  EXPECT_EQ(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(x.acl(), nullptr, loss.acl(),
                                                               backprop.acl(), &ws, &exec),
            161001);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
