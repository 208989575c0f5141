// BinaryCrossEntropyWithLogits, its Backward and TargetBackward (Kind PointLoss, ShapeRule
// LossWeights). Every element of out is checked against a reference in long double built
// here from the row-major walk of the broadcast shape and the textbook formulas (log of the
// sigmoid, not the kernels' softplus form): the terms and gradients within SPEC §4's 4 ULP
// of f32 or 2^-21 times the magnitudes their formula adds, whichever is larger, the sums
// within SPEC §4's bound (2^-21 times the sum of the magnitudes of their terms), a 16-bit out
// that plus half its ULP. Over the dtypes of every operand, the weights given or not and
// broadcast, strided and transposed views, several teams and core counts with out's bits the
// same for each. Then logits of 1e4, the checks in the op_api's order (nothing written), the
// empty inputs and sums over several segments.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_target_backward.h"
#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/loss_check.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

constexpr Op kForward = Op::kBinaryCrossEntropyWithLogits;
constexpr Op kBackward = Op::kBinaryCrossEntropyWithLogitsBackward;
constexpr Op kTargetBackward = Op::kBinaryCrossEntropyWithLogitsTargetBackward;
const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

// log(sigmoid(x)) in long double, without overflow: -log(1 + e^-x) for x >= 0, x - log(1 +
// e^x) below.
long double LogSigmoid(long double x) {
  return x >= 0 ? -std::log1p(std::exp(-x)) : x - std::log1p(std::exp(x));
}

// A term and the sum of the magnitudes its formula adds.
struct Term {
  long double value, magnitude;
};

// in: the forward's (self, target, weight, posWeight) or a gradient's (gradOutput, self,
// target, weight, posWeight) values at one element, an absent weight 1.
Term TermOf(Op op, const long double* v, long double scale) {
  if (op == kForward) {
    const long double x = v[0], t = v[1], w = v[2], pw = v[3];
    const long double a = pw * t * LogSigmoid(x), b = (1 - t) * LogSigmoid(-x);
    return {-w * (a + b), std::fabs(w) * (std::fabs(a) + std::fabs(b))};
  }
  const long double dy = v[0], x = v[1], t = v[2], w = v[3], pw = v[4];
  const long double f = dy * w * scale;
  if (op == kBackward) {  // d/dx of -w [pw t log s(x) + (1 - t) log(1 - s(x))]
    // s(x) - 1 is -s(-x), taken as such (a long double subtraction would lose it for x > 45).
    const long double s = 1 / (1 + std::exp(-x)), s_neg = 1 / (1 + std::exp(x));
    const long double a = -pw * t * s_neg, b = (1 - t) * s;
    return {f * (a + b), std::fabs(f) * (std::fabs(a) + std::fabs(b))};
  }
  // d/dt: -w [pw log s(x) - log(1 - s(x))]
  const long double a = pw * LogSigmoid(x), b = LogSigmoid(-x);
  return {f * (b - a), std::fabs(f) * (std::fabs(a) + std::fabs(b))};
}

// The expected out over the broadcast `shape`: the terms, or their mean or sum.
LossExpected Expect(Op op, const std::vector<const HostTensor*>& in,
                    const std::vector<int64_t>& shape, int64_t reduction) {
  const int64_t n = tiling::NumElements(shape);
  const HostTensor& self = *in[op == kForward ? 0 : 1];
  const long double scale =
      op != kForward && reduction == 1 ? 1.0L / static_cast<long double>(self.numel()) : 1.0L;
  LossExpected x;
  long double sum = 0, mag = 0;
  for (int64_t e = 0; e < n; ++e) {
    long double v[5];
    for (size_t k = 0; k < in.size(); ++k) {
      v[k] = in[k] == nullptr ? 1.0L : in[k]->Get(BroadcastIndex(shape, in[k]->shape(), e));
    }
    const Term t = TermOf(op, v, scale);
    if (op != kForward || reduction == 0) {
      x.value.push_back(static_cast<double>(t.value));
      x.bound.push_back(std::max(4 * UlpOf(DType::kFloat32, static_cast<double>(t.value)),
                                 std::ldexp(static_cast<double>(t.magnitude), -21)));
    }
    sum += t.value, mag += std::fabs(t.value);
  }
  if (op == kForward && reduction != 0) {
    if (reduction == 1) sum /= static_cast<long double>(n), mag /= static_cast<long double>(n);
    x.value.push_back(n == 0 && reduction == 1 ? std::numeric_limits<double>::quiet_NaN()
                                               : static_cast<double>(sum));
    x.bound.push_back(std::ldexp(static_cast<double>(mag), -21));
  }
  return x;
}

// Logits over [-8, 8], labels over [-0.5, 1.5] (soft labels, and outside [0, 1] where the
// terms cancel), weights over [-2, 3].
void FillInputs(Op op, const std::vector<HostTensor*>& in, std::mt19937_64& rng) {
  const int self = op == kForward ? 0 : 1;
  for (size_t k = 0; k < in.size(); ++k) {
    if (in[k] == nullptr) continue;
    const int s = static_cast<int>(k);
    if (s == self) {
      in[k]->Fill(rng, -8.0, 8.0);
    } else if (s == self + 1) {
      in[k]->Fill(rng, -0.5, 1.5);
    } else {
      in[k]->Fill(rng, -2.0, 3.0);
    }
  }
}

struct Case {
  std::vector<int64_t> self;                // self's and target's shape
  std::vector<int64_t> weight, pos_weight;  // {-1}: absent
  std::vector<int64_t> shape;               // the forward's broadcast (out's for none)
  std::vector<int64_t> grad_output;         // a gradient's gradOutput
};

const std::vector<int64_t> kAbsent = {-1};

const Case kCases[] = {
    {{4, 3}, kAbsent, kAbsent, {4, 3}, {4, 3}},
    {{4, 3}, {3}, kAbsent, {4, 3}, {}},
    {{4, 3}, kAbsent, {1, 3}, {4, 3}, {1, 3}},
    {{4, 3}, {4, 1}, {3}, {4, 3}, {4, 3}},
    {{2, 3, 129}, {2, 3, 129}, {129}, {2, 3, 129}, {}},
    {{37}, {}, {}, {37}, {37}},
    {{}, kAbsent, kAbsent, {}, {}},                       // 0-d
    {{5, 33}, {2, 5, 33}, kAbsent, {2, 5, 33}, {5, 33}},  // the forward's weight adds a dim
};

std::unique_ptr<HostTensor> Maybe(DType dt, const std::vector<int64_t>& shape, Strides s) {
  if (shape == kAbsent) return nullptr;
  return std::make_unique<HostTensor>(dt, shape, s);
}

TEST(BinaryCrossEntropyWithLogits, EveryReductionDTypeWeightLayoutAndCoreSplit) {
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  std::mt19937_64 rng(17);
  int run = 0;
  for (const DType sdt : kFloatTypes) {
    for (const DType tdt : kFloatTypes) {
      for (const Case& c : kCases) {
        for (const int64_t reduction : {0, 1, 2}) {
          const DType wdt = kFloatTypes[run % 3], pdt = kFloatTypes[(run / 3) % 3];
          const Strides sl = layouts[run % 3], tl = layouts[(run / 3) % 3],
                        ol = layouts[(run / 9) % 3];
          ++run;
          SCOPED_TRACE(std::string(DTypeName(sdt)) + ", " + DTypeName(tdt) + ", weights " +
                       DTypeName(wdt) + ", " + DTypeName(pdt) + "; " + ShapeText(c.self) +
                       ", weight " + ShapeText(c.weight) + ", posWeight " +
                       ShapeText(c.pos_weight) + ", reduction " + std::to_string(reduction));
          HostTensor self(sdt, c.self, sl), target(tdt, c.self, tl);
          auto weight = Maybe(wdt, c.weight, Strides::kDense);
          auto pos_weight = Maybe(pdt, c.pos_weight, ol);
          HostTensor out(tdt, reduction == 0 ? c.shape : std::vector<int64_t>{}, ol);
          FillInputs(kForward, {&self, &target, weight.get(), pos_weight.get()}, rng);
          const std::vector<const HostTensor*> in = {&self, &target, weight.get(),
                                                     pos_weight.get()};
          RunLossAllSplits(kForward, in, reduction, out, Expect(kForward, in, c.shape, reduction));
        }
      }
    }
  }
}

TEST(BinaryCrossEntropyWithLogitsBackward, BothGradientsEveryDTypeWeightLayoutAndCoreSplit) {
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  std::mt19937_64 rng(19);
  int run = 0;
  for (const Op op : {kBackward, kTargetBackward}) {
    for (const DType xdt : kFloatTypes) {
      for (const DType tdt : kFloatTypes) {
        for (const Case& c : kCases) {
          if (c.shape != c.self) continue;  // a gradient's weights broadcast to self's shape
          for (const int64_t reduction : {0, 1, 2}) {
            const DType gdt = kFloatTypes[run % 3], wdt = kFloatTypes[(run / 3) % 3];
            const Strides xl = layouts[run % 3], gl = layouts[(run / 3) % 3],
                          ol = layouts[(run / 9) % 3];
            ++run;
            SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(xdt) + ", " +
                         DTypeName(tdt) + ", gradOutput " + DTypeName(gdt) + ", weights " +
                         DTypeName(wdt) + "; " + ShapeText(c.self) + ", gradOutput " +
                         ShapeText(c.grad_output) + ", weight " + ShapeText(c.weight) +
                         ", reduction " + std::to_string(reduction));
            HostTensor dy(gdt, c.grad_output, gl), self(xdt, c.self, xl), target(tdt, c.self);
            auto weight = Maybe(wdt, c.weight, gl);
            auto pos_weight = Maybe(wdt, c.pos_weight, Strides::kDense);
            HostTensor out(tdt, c.self, ol);
            FillInputs(op, {&dy, &self, &target, weight.get(), pos_weight.get()}, rng);
            const std::vector<const HostTensor*> in = {&dy, &self, &target, weight.get(),
                                                       pos_weight.get()};
            RunLossAllSplits(op, in, reduction, out, Expect(op, in, c.self, reduction));
          }
        }
      }
    }
  }
}

// Contiguous operands of one dtype run the kernels on their memory (the direct path); the
// same values in strided views are gathered into f32 tiles. Both give the same bits for
// every dtype, operator, reduction and a length with a partial last vector.
TEST(BinaryCrossEntropyWithLogits, DirectAndGatheredPathsAgree) {
  std::mt19937_64 rng(23);
  const std::vector<int64_t> shape = {3, 1001};
  for (const DType dt : kFloatTypes) {
    for (const Op op : {kForward, kBackward, kTargetBackward}) {
      for (const bool weights : {false, true}) {
        for (const int64_t reduction : {0, 1, 2}) {
          SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(dt) +
                       (weights ? ", weights" : "") + ", reduction " + std::to_string(reduction));
          const int n_in = GetOpInfo(op).num_in();
          std::vector<std::unique_ptr<HostTensor>> dense(n_in), strided(n_in);
          std::vector<const HostTensor*> din(n_in), sin(n_in);
          for (int k = 0; k < n_in; ++k) {
            if (!weights && k >= n_in - 2) continue;
            dense[k] = std::make_unique<HostTensor>(dt, shape);
            strided[k] = std::make_unique<HostTensor>(dt, shape, Strides::kStep2);
            dense[k]->Fill(rng, -4.0, 4.0);
            for (int64_t i = 0; i < dense[k]->numel(); ++i) strided[k]->Set(i, dense[k]->Get(i));
            din[k] = dense[k].get(), sin[k] = strided[k].get();
          }
          const std::vector<int64_t> out_shape =
              op == kForward && reduction != 0 ? std::vector<int64_t>{} : shape;
          HostTensor dout(dt, out_shape), sout(dt, out_shape, Strides::kStep2);
          RunLossAllSplits(op, din, reduction, dout, Expect(op, din, shape, reduction));
          ASSERT_TRUE(hostnn::Run(LossArgs(op, sin, sout, reduction), {}).ok());
          ASSERT_EQ(dout.ElementBytes(), sout.ElementBytes());
        }
      }
    }
  }
}

// Logits of magnitude 1e4 and 1e30 (f32) do not overflow: the terms, the sum and both
// gradients stay finite and within their bounds. Past |x| = 80 the kernels take e^-|x| in
// double; at 30 with a label of 1 the gradient is -s(-30), which a subtraction 1 - s(30)
// would lose.
TEST(BinaryCrossEntropyWithLogits, LargeLogitsStayFinite) {
  const double logits[] = {1e4, -1e4, 1e30, -1e30, 88.0, -88.0, 0.0, 20.0, 30.0, -30.0, 79.0, 81.0};
  const double labels[] = {1.0, 0.0, 0.25, 1.0, 0.0, 0.25, 1.0, 0.25, 1.0, 0.0, 1.0, 1.0};
  const int64_t n = 12;
  HostTensor self(DType::kFloat32, {n}), target(DType::kFloat32, {n}), dy(DType::kFloat32, {n});
  for (int64_t i = 0; i < n; ++i) {
    self.Set(i, logits[i]);
    target.Set(i, labels[i]);
    dy.Set(i, 0.5);
  }
  for (const int64_t reduction : {0, 2}) {
    HostTensor out(DType::kFloat32,
                   reduction == 0 ? std::vector<int64_t>{n} : std::vector<int64_t>{});
    const std::vector<const HostTensor*> in = {&self, &target, nullptr, nullptr};
    RunLossAllSplits(kForward, in, reduction, out, Expect(kForward, in, {n}, reduction));
    for (int64_t i = 0; i < out.numel(); ++i) EXPECT_TRUE(std::isfinite(out.Get(i)));
  }
  for (const Op op : {kBackward, kTargetBackward}) {
    for (const bool pos_weight : {false, true}) {
      HostTensor out(DType::kFloat32, {n});
      const std::vector<const HostTensor*> in = {&dy, &self, &target, nullptr,
                                                 pos_weight ? &dy : nullptr};
      RunLossAllSplits(op, in, 0, out, Expect(op, in, {n}, 0));
      for (int64_t i = 0; i < n; ++i) EXPECT_TRUE(std::isfinite(out.Get(i)));
    }
  }
}

// Sums over several of the fixed segments (8192 elements), with both weights: within the
// bound, and the same bits for any core count.
TEST(BinaryCrossEntropyWithLogits, LongSumsHoldTheBoundAndTheirBits) {
  std::mt19937_64 rng(29);
  const std::vector<int64_t> shape = {3, 10000};
  HostTensor self(DType::kFloat32, shape), target(DType::kBFloat16, shape);
  HostTensor weight(DType::kFloat16, {10000}), pos_weight(DType::kFloat32, {3, 1});
  FillInputs(kForward, {&self, &target, &weight, &pos_weight}, rng);
  for (const int64_t reduction : {1, 2}) {
    SCOPED_TRACE("reduction " + std::to_string(reduction));
    HostTensor out(DType::kBFloat16, {1});
    const std::vector<const HostTensor*> in = {&self, &target, &weight, &pos_weight};
    RunLossAllSplits(kForward, in, reduction, out, Expect(kForward, in, shape, reduction));
  }
}

// An empty self: the forward's mean is NaN and its sum 0 (CANN's op_api fills out), its
// terms and both gradients write nothing.
TEST(BinaryCrossEntropyWithLogits, EmptyInputs) {
  HostTensor self(DType::kFloat32, {0, 3}), target(DType::kFloat32, {0, 3});
  for (const int64_t reduction : {1, 2}) {
    HostTensor out(DType::kFloat32, {1});
    ASSERT_TRUE(
        hostnn::Run(LossArgs(kForward, {&self, &target, nullptr, nullptr}, out, reduction), {})
            .ok());
    if (reduction == 1) {
      EXPECT_TRUE(std::isnan(out.Get(0)));
    } else {
      EXPECT_EQ(out.Get(0), 0.0);
    }
  }
  HostTensor terms(DType::kFloat32, {0, 3}), dy(DType::kFloat32, {});
  ASSERT_TRUE(
      hostnn::Run(LossArgs(kForward, {&self, &target, nullptr, nullptr}, terms, 0), {}).ok());
  for (const Op op : {kBackward, kTargetBackward}) {
    ASSERT_TRUE(
        hostnn::Run(LossArgs(op, {&dy, &self, &target, nullptr, nullptr}, terms, 1), {}).ok());
  }
  // Through the C API: workspace 0, phase 2 runs.
  uint64_t ws = 1;
  aclOpExecutor* exec = nullptr;
  HostTensor mean(DType::kFloat32, {});
  ASSERT_EQ(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(self.acl(), target.acl(), nullptr,
                                                              nullptr, 1, mean.acl(), &ws, &exec),
            0);
  std::vector<char> w(ws + 1);
  ASSERT_EQ(aclnnBinaryCrossEntropyWithLogits(w.data(), ws, exec, nullptr), 0);
  EXPECT_TRUE(std::isnan(mean.Get(0)));
}

// The checks, in each op_api's order, each with its status; a message naming the parameter;
// out untouched.
TEST(BinaryCrossEntropyWithLogits, ChecksInTheOpApiOrder) {
  HostTensor self(DType::kFloat32, {2, 3}), target(DType::kFloat32, {2, 3});
  HostTensor out(DType::kFloat32, {2, 3}), scalar(DType::kFloat32, {}), pair(DType::kFloat32, {2});
  HostTensor i32(DType::kInt32, {2, 3}), f64(DType::kFloat64, {2, 3}), f16(DType::kFloat16, {2, 3});
  HostTensor wrong(DType::kFloat32, {3, 2}), odd(DType::kFloat32, {4}), row(DType::kFloat32, {3});
  HostTensor wide(DType::kFloat32, {5, 2, 3});
  const std::vector<uint8_t> before = out.Snapshot();
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const auto fwd = [&](const HostTensor* x, const HostTensor* t, const HostTensor* w,
                       const HostTensor* pw, int64_t reduction, const HostTensor* o) {
    return aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
        x ? x->acl() : nullptr, t ? t->acl() : nullptr, w ? w->acl() : nullptr,
        pw ? pw->acl() : nullptr, reduction, o ? o->acl() : nullptr, &ws, &exec);
  };
  const auto bwd = [&](bool target_grad, const HostTensor* dy, const HostTensor* x,
                       const HostTensor* t, const HostTensor* w, int64_t reduction,
                       const HostTensor* o) {
    auto* f = target_grad ? aclnnBinaryCrossEntropyWithLogitsTargetBackwardGetWorkspaceSize
                          : aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize;
    return f(dy ? dy->acl() : nullptr, x ? x->acl() : nullptr, t ? t->acl() : nullptr,
             w ? w->acl() : nullptr, nullptr, reduction, o ? o->acl() : nullptr, &ws, &exec);
  };
  struct Bad {
    const char* what;
    aclnnStatus status, got;
  };
  const Bad bads[] = {
      {"null self", 161001, fwd(nullptr, &target, nullptr, nullptr, 1, &scalar)},
      {"null target", 161001, fwd(&self, nullptr, nullptr, nullptr, 1, &scalar)},
      {"null out", 161001, fwd(&self, &target, nullptr, nullptr, 1, nullptr)},
      {"INT32 self", 161002, fwd(&i32, &target, nullptr, nullptr, 0, &out)},
      {"DOUBLE target", 161002, fwd(&self, &f64, nullptr, nullptr, 0, &f64)},
      {"out not target's dtype", 161002, fwd(&self, &target, nullptr, nullptr, 0, &f16)},
      {"INT32 weight", 161002, fwd(&self, &target, &i32, nullptr, 0, &out)},
      {"reduction 3", 161002, fwd(&self, &target, nullptr, nullptr, 3, &scalar)},
      {"reduction -1", 161002, fwd(&self, &target, nullptr, nullptr, -1, &scalar)},
      {"target of another shape", 161002, fwd(&self, &wrong, nullptr, nullptr, 0, &out)},
      {"weight not broadcasting", 161002, fwd(&self, &target, &odd, nullptr, 0, &out)},
      {"posWeight not broadcasting", 161002, fwd(&self, &target, nullptr, &odd, 0, &out)},
      {"none into another shape", 161002, fwd(&self, &target, nullptr, nullptr, 0, &wrong)},
      {"none into target's shape past the weight's", 161002,
       fwd(&self, &target, &wide, nullptr, 0, &out)},
      {"mean into 2 elements", 161002, fwd(&self, &target, nullptr, nullptr, 1, &pair)},
      {"gradient's null gradOutput", 161001, bwd(false, nullptr, &self, &target, nullptr, 0, &out)},
      {"gradient's null out", 161001, bwd(true, &scalar, &self, &target, nullptr, 0, nullptr)},
      {"gradient's DOUBLE gradOutput", 161002, bwd(false, &f64, &self, &target, nullptr, 0, &out)},
      {"gradient's out not target's dtype", 161002,
       bwd(true, &scalar, &self, &target, nullptr, 0, &f16)},
      {"gradient's target of another shape", 161002,
       bwd(false, &scalar, &self, &wrong, nullptr, 0, &out)},
      {"gradient's out of another shape", 161002,
       bwd(true, &scalar, &self, &target, nullptr, 0, &wrong)},
      {"gradient's gradOutput wider than self", 161002,
       bwd(false, &wide, &self, &target, nullptr, 0, &out)},
      {"gradient's weight not broadcasting", 161002,
       bwd(true, &scalar, &self, &target, &odd, 0, &out)},
      {"gradient's reduction 5", 161002, bwd(false, &scalar, &self, &target, nullptr, 5, &out)},
  };
  for (const Bad& b : bads) EXPECT_EQ(b.got, b.status) << b.what;
  const auto message_of = [&](Op op, const std::vector<const HostTensor*>& in, const HostTensor& o,
                              int64_t reduction) {
    return hostnn::Run(LossArgs(op, in, o, reduction), {}).message();
  };
  EXPECT_NE(message_of(kForward, {&self, &target, nullptr, nullptr}, f16, 0).find("target's"),
            std::string::npos);
  EXPECT_NE(message_of(kForward, {&self, &target, &odd, nullptr}, out, 0).find("weightOptional"),
            std::string::npos);
  EXPECT_NE(message_of(kForward, {&self, &target, nullptr, nullptr}, pair, 2).find("one element"),
            std::string::npos);
  EXPECT_NE(message_of(kTargetBackward, {&scalar, &self, &target, nullptr, &row}, wrong, 0)
                .find("gradTarget"),
            std::string::npos);
  // The gradients' target and out of self's format (ND here); the forward does not check.
  TensorView nchw = out.view();
  nchw.format = 0;  // NCHW
  for (const Op op : {kBackward, kTargetBackward}) {
    OpArgs a = LossArgs(op, {&scalar, &self, &target, nullptr, nullptr}, out, 0);
    a.out[0] = &nchw;
    const Status s = hostnn::Run(a, {});
    EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
    EXPECT_NE(s.message().find("format NCHW: expected self's, ND"), std::string::npos)
        << s.message();
  }
  EXPECT_EQ(out.Snapshot(), before);
}

// A reduced out shares no byte with an input: refused, nothing written. The terms may be
// written over an input exactly (each tile reads before it writes).
TEST(BinaryCrossEntropyWithLogits, ReducedOutApartTermsInPlace) {
  HostTensor self(DType::kFloat32, {2, 3}), target(DType::kFloat32, {2, 3});
  std::mt19937_64 rng(31);
  FillInputs(kForward, {&self, &target}, rng);
  const std::vector<uint8_t> before = self.Snapshot();
  TensorView first = self.view();  // self's first element as a 0-d out
  first.shape.clear();
  first.strides.clear();
  first.storage_shape.clear();
  OpArgs a = LossArgs(kForward, {&self, &target, nullptr, nullptr}, self, 2);
  a.out[0] = &first;
  const Status s = hostnn::Run(a, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("share memory"), std::string::npos) << s.message();
  EXPECT_EQ(self.Snapshot(), before);

  const LossExpected want = Expect(kForward, {&self, &target, nullptr, nullptr}, {2, 3}, 0);
  ASSERT_TRUE(
      hostnn::Run(LossArgs(kForward, {&self, &target, nullptr, nullptr}, self, 0), {}).ok());
  for (int64_t e = 0; e < self.numel(); ++e) {
    EXPECT_NEAR(self.Get(e), want.value[static_cast<size_t>(e)],
                want.bound[static_cast<size_t>(e)]);
  }
}

// Phase 1 takes a weight whose elements lie behind a null address (CANN's never reads it);
// phase 2 refuses it, out untouched.
TEST(BinaryCrossEntropyWithLogits, NullDataRefusedWhenItRuns) {
  HostTensor self(DType::kFloat32, {2, 3}), out(DType::kFloat32, {});
  TensorView null_weight = self.view();
  null_weight.data = nullptr;
  const std::vector<uint8_t> before = out.Snapshot();
  OpArgs a = LossArgs(kForward, {&self, &self, nullptr, nullptr}, out, 1);
  a.in[2] = &null_weight;
  const Status s = hostnn::Run(a, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("null address"), std::string::npos) << s.message();
  EXPECT_EQ(out.Snapshot(), before);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
