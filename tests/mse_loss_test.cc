// MseLoss, MseLossOut and MseLossBackward (Kind PointLoss). Every element of out is checked
// against a double-precision reference built here from the row-major walk of the broadcast
// shape (independent of the executor's fused layouts, segments and core split): the terms
// (reduction none) and the gradients within 4 ULP of f32, the sums within SPEC §4's bound
// (2^-21 times the sum of the magnitudes of their terms), a 16-bit out that plus half its
// ULP. Over the three dtypes of each operand (MseLoss's mixed inputs too), broadcast,
// strided, offset and transposed views, several teams and core counts, with out's bits the
// same for each and the bytes around out's elements as they were. Then the checks in the
// op_api's order (nothing written), the empty inputs and sums long enough to span several
// segments.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/loss_check.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

// The exact terms (MseLoss) or gradients (MseLossBackward) over the broadcast shape, in
// double, and each term's magnitude.
std::vector<double> Terms(Op op, const std::vector<const HostTensor*>& in,
                          const std::vector<int64_t>& shape, int64_t reduction) {
  std::vector<double> t(static_cast<size_t>(tiling::NumElements(shape)));
  for (int64_t e = 0; e < tiling::NumElements(shape); ++e) {
    std::vector<double> v;
    for (const HostTensor* x : in) v.push_back(x->Get(BroadcastIndex(shape, x->shape(), e)));
    if (op == Op::kMseLossBackward) {
      const double scale = reduction == 1 ? 2.0 / static_cast<double>(in[1]->numel()) : 2.0;
      t[static_cast<size_t>(e)] = (v[1] - v[2]) * v[0] * scale;
    } else {
      t[static_cast<size_t>(e)] = (v[0] - v[1]) * (v[0] - v[1]);
    }
  }
  return t;
}

LossExpected Expect(Op op, const std::vector<const HostTensor*>& in,
                    const std::vector<int64_t>& shape, int64_t reduction) {
  const std::vector<double> t = Terms(op, in, shape, reduction);
  LossExpected x;
  if (op == Op::kMseLossBackward || reduction == 0) {
    x.value = t;
    for (const double v : t) x.bound.push_back(4 * UlpOf(DType::kFloat32, v));
    return x;
  }
  const int64_t rows = op == Op::kMseLoss || shape.empty() ? 1 : shape[0];
  const int64_t cols = op == Op::kMseLoss ? 1 : (rows == 0 ? 0 : tiling::NumElements(shape) / rows);
  const double count = op == Op::kMseLoss ? static_cast<double>(tiling::NumElements(shape))
                                          : static_cast<double>(rows);
  for (int64_t c = 0; c < cols; ++c) {
    double sum = 0.0, mag = 0.0;
    for (int64_t r = 0; r < (op == Op::kMseLoss ? tiling::NumElements(shape) : rows); ++r) {
      const double v = t[static_cast<size_t>(op == Op::kMseLoss ? r : r * cols + c)];
      sum += v, mag += std::fabs(v);
    }
    if (reduction == 1) sum /= count, mag /= count;
    x.value.push_back(sum);
    x.bound.push_back(std::ldexp(mag, -21));
  }
  return x;
}

// out's shape for op and reduction over the broadcast shape.
std::vector<int64_t> OutShape(Op op, const std::vector<int64_t>& shape, int64_t reduction) {
  if (op == Op::kMseLossBackward || reduction == 0) return shape;
  if (op == Op::kMseLoss || shape.empty()) return {};
  return std::vector<int64_t>(shape.begin() + 1, shape.end());
}

struct Case {
  std::vector<std::vector<int64_t>> in;  // each input's shape
  std::vector<int64_t> shape;            // their broadcast
};

// Runs op over every split and checks out against the reference each time, its bits the same.
void RunAllSplits(Op op, const std::vector<const HostTensor*>& in,
                  const std::vector<int64_t>& shape, int64_t reduction, const HostTensor& out) {
  RunLossAllSplits(op, in, reduction, out, Expect(op, in, shape, reduction));
}

const Case kCases[] = {
    {{{4, 3}, {4, 3}}, {4, 3}},
    {{{6, 5}, {5}}, {6, 5}},     // target broadcast along dim 0
    {{{1, 7}, {3, 1}}, {3, 7}},  // both broadcast
    {{{2, 3, 129}, {2, 3, 129}}, {2, 3, 129}},
    {{{37}, {37}}, {37}},
    {{{}, {}}, {}},  // 0-d
    {{{5, 1, 33}, {1, 4, 33}}, {5, 4, 33}},
    {{{2000, 3}, {3}}, {2000, 3}},     // MseLossOut: many rows of few columns per gather
    {{{700, 1}, {700, 1}}, {700, 1}},  // MseLossOut: one column, summed as one total
};

TEST(MseLoss, EveryReductionDTypeLayoutAndCoreSplit) {
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  std::mt19937_64 rng(11);
  int run = 0;
  for (const Op op : {Op::kMseLoss, Op::kMseLossOut}) {
    for (const DType sdt : kFloatTypes) {
      for (const DType tdt : kFloatTypes) {
        for (const Case& c : kCases) {
          for (const int64_t reduction : {0, 1, 2}) {
            const DType odt = kFloatTypes[run % 3];
            const Strides sl = layouts[run % 3], tl = layouts[(run / 3) % 3],
                          ol = layouts[(run / 9) % 3];
            ++run;
            SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(sdt) + ", " +
                         DTypeName(tdt) + " -> " + DTypeName(odt) + ", " + ShapeText(c.in[0]) +
                         " and " + ShapeText(c.in[1]) + ", reduction " + std::to_string(reduction));
            HostTensor self(sdt, c.in[0], sl), target(tdt, c.in[1], tl);
            HostTensor out(odt, OutShape(op, c.shape, reduction), ol);
            self.Fill(rng, -4.0, 4.0);
            target.Fill(rng, -4.0, 4.0);
            RunAllSplits(op, {&self, &target}, c.shape, reduction, out);
          }
        }
      }
    }
  }
}

TEST(MseLossBackward, EveryReductionDTypeLayoutAndCoreSplit) {
  const Case cases[] = {
      {{{4, 3}, {4, 3}, {4, 3}}, {4, 3}},
      {{{}, {6, 5}, {6, 5}}, {6, 5}},  // a 0-d gradient (the forward's mean or sum)
      {{{6, 5}, {6, 5}, {5}}, {6, 5}},
      {{{3, 1}, {1, 7}, {3, 7}}, {3, 7}},
      {{{2, 3, 129}, {2, 3, 129}, {2, 3, 129}}, {2, 3, 129}},
      {{{}, {}, {}}, {}},
  };
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  std::mt19937_64 rng(5);
  int run = 0;
  for (const DType dt : kFloatTypes) {
    for (const DType odt : kFloatTypes) {
      for (const Case& c : cases) {
        for (const int64_t reduction : {0, 1, 2}) {
          const Strides gl = layouts[run % 3], sl = layouts[(run / 3) % 3],
                        ol = layouts[(run / 9) % 3];
          ++run;
          SCOPED_TRACE(std::string(DTypeName(dt)) + " -> " + DTypeName(odt) + ", " +
                       ShapeText(c.in[0]) + ", " + ShapeText(c.in[1]) + ", " + ShapeText(c.in[2]) +
                       ", reduction " + std::to_string(reduction));
          HostTensor grad(dt, c.in[0], gl), self(dt, c.in[1], sl), target(dt, c.in[2]);
          HostTensor out(odt, c.shape, ol);
          grad.Fill(rng, -4.0, 4.0);
          self.Fill(rng, -4.0, 4.0);
          target.Fill(rng, -4.0, 4.0);
          RunAllSplits(Op::kMseLossBackward, {&grad, &self, &target}, c.shape, reduction, out);
        }
      }
    }
  }
}

// Contiguous operands of one dtype run the kernels on their memory (the direct path); the
// same values in strided views are gathered into f32 tiles. Both give the same bits, within
// the bound, for every dtype, reduction and a length with a partial last vector.
TEST(MseLoss, DirectAndGatheredPathsAgree) {
  std::mt19937_64 rng(13);
  const std::vector<int64_t> shape = {3, 1001};
  for (const DType dt : kFloatTypes) {
    for (const Op op : {Op::kMseLoss, Op::kMseLossBackward}) {
      for (const int64_t reduction : {0, 1, 2}) {
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(dt) + ", reduction " +
                     std::to_string(reduction));
        const int n_in = op == Op::kMseLoss ? 2 : 3;
        std::vector<std::unique_ptr<HostTensor>> dense, strided;
        for (int k = 0; k < n_in; ++k) {
          dense.push_back(std::make_unique<HostTensor>(dt, shape));
          strided.push_back(std::make_unique<HostTensor>(dt, shape, Strides::kStep2));
          dense.back()->Fill(rng, -4.0, 4.0);
          for (int64_t i = 0; i < dense.back()->numel(); ++i) {
            strided.back()->Set(i, dense.back()->Get(i));
          }
        }
        std::vector<const HostTensor*> din, sin;
        for (int k = 0; k < n_in; ++k)
          din.push_back(dense[k].get()), sin.push_back(strided[k].get());
        const std::vector<int64_t> out_shape = OutShape(op, shape, reduction);
        HostTensor dout(dt, out_shape), sout(dt, out_shape, Strides::kStep2);
        RunAllSplits(op, din, shape, reduction, dout);
        ASSERT_TRUE(hostnn::Run(LossArgs(op, sin, sout, reduction), {}).ok());
        ASSERT_EQ(dout.ElementBytes(), sout.ElementBytes());
      }
    }
  }
}

// Sums over several of the fixed segments (8192 elements), of mixed magnitudes: within the
// bound, and the same bits for any core count; the mean divides by the element count.
TEST(MseLoss, LongSumsHoldTheBoundAndTheirBits) {
  std::mt19937_64 rng(3);
  const std::vector<int64_t> shape = {3, 10000};
  HostTensor self(DType::kFloat32, shape), target(DType::kFloat32, {10000});
  for (int64_t i = 0; i < self.numel(); ++i) {
    self.Set(i, std::ldexp(1.0 + (rng() % 1000) / 1000.0, static_cast<int>(rng() % 30) - 15));
  }
  for (int64_t i = 0; i < target.numel(); ++i) target.Set(i, (rng() % 2 ? 1.0 : -1.0) * 0.5);
  for (const Op op : {Op::kMseLoss, Op::kMseLossOut}) {
    for (const int64_t reduction : {1, 2}) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + ", reduction " + std::to_string(reduction));
      HostTensor out(DType::kFloat32, OutShape(op, shape, reduction));
      RunAllSplits(op, {&self, &target}, shape, reduction, out);
    }
  }
}

// In place: out may be self itself (the terms read each element before writing it).
TEST(MseLoss, TermsInPlace) {
  HostTensor self(DType::kFloat32, {3, 40}), target(DType::kFloat32, {3, 40});
  std::mt19937_64 rng(9);
  self.Fill(rng, -4.0, 4.0);
  target.Fill(rng, -4.0, 4.0);
  const LossExpected want = Expect(Op::kMseLoss, {&self, &target}, {3, 40}, 0);
  ASSERT_TRUE(hostnn::Run(LossArgs(Op::kMseLoss, {&self, &target}, self, 0), {}).ok());
  for (int64_t e = 0; e < self.numel(); ++e) {
    ASSERT_EQ(self.Get(e),
              static_cast<double>(static_cast<float>(want.value[static_cast<size_t>(e)])));
  }
}

// An empty input: MseLoss's mean is NaN and its sum 0 (CANN's op_api fills out); the terms,
// MseLossOut and the gradient write nothing.
TEST(MseLoss, EmptyInputs) {
  HostTensor self(DType::kFloat32, {0, 3}), target(DType::kFloat32, {3});
  for (const int64_t reduction : {1, 2}) {
    HostTensor out(DType::kFloat16, {});
    ASSERT_TRUE(hostnn::Run(LossArgs(Op::kMseLoss, {&self, &target}, out, reduction), {}).ok());
    if (reduction == 1) {
      EXPECT_TRUE(std::isnan(out.Get(0)));
    } else {
      EXPECT_EQ(out.Get(0), 0.0);
    }
  }
  HostTensor terms(DType::kFloat32, {0, 3}), cols(DType::kFloat32, {3}),
      none_out(DType::kFloat32, {0, 3});
  const std::vector<uint8_t> before = cols.Snapshot();
  ASSERT_TRUE(hostnn::Run(LossArgs(Op::kMseLoss, {&self, &target}, terms, 0), {}).ok());
  ASSERT_TRUE(hostnn::Run(LossArgs(Op::kMseLossOut, {&self, &target}, cols, 1), {}).ok());
  EXPECT_EQ(cols.Snapshot(), before);
  HostTensor grad(DType::kFloat32, {});
  ASSERT_TRUE(
      hostnn::Run(LossArgs(Op::kMseLossBackward, {&grad, &self, &terms}, none_out, 1), {}).ok());
  // Through the C API: workspace 0, phase 2 runs.
  uint64_t ws = 1;
  aclOpExecutor* exec = nullptr;
  HostTensor mean(DType::kFloat32, {});
  ASSERT_EQ(aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 1, mean.acl(), &ws, &exec), 0);
  std::vector<char> w(ws + 1);
  ASSERT_EQ(aclnnMseLoss(w.data(), ws, exec, nullptr), 0);
  EXPECT_TRUE(std::isnan(mean.Get(0)));
}

// The checks, in the op_api's order, each with its status and a message naming the
// parameter; out untouched.
TEST(MseLoss, ChecksInTheOpApiOrder) {
  HostTensor self(DType::kFloat32, {2, 3}), target(DType::kFloat32, {2, 3});
  HostTensor out(DType::kFloat32, {2, 3}), scalar(DType::kFloat32, {});
  HostTensor i32(DType::kInt32, {2, 3}), f64(DType::kFloat64, {2, 3});
  HostTensor wrong(DType::kFloat32, {3, 2}), row(DType::kFloat32, {3}),
      odd(DType::kFloat32, {2, 4});
  HostTensor f16(DType::kFloat16, {2, 3});
  const std::vector<uint8_t> before = out.Snapshot();
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  struct Bad {
    const char* what;
    aclnnStatus status;
    aclnnStatus got;
  };
  const Bad bads[] = {
      {"null self", 161001,
       aclnnMseLossGetWorkspaceSize(nullptr, target.acl(), 1, out.acl(), &ws, &exec)},
      {"null out", 161001,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 1, nullptr, &ws, &exec)},
      {"INT32 self", 161002,
       aclnnMseLossGetWorkspaceSize(i32.acl(), i32.acl(), 0, out.acl(), &ws, &exec)},
      {"DOUBLE target", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), f64.acl(), 0, out.acl(), &ws, &exec)},
      {"INT32 target", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), i32.acl(), 0, out.acl(), &ws, &exec)},
      {"DOUBLE out", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 0, f64.acl(), &ws, &exec)},
      {"reduction 3", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 3, out.acl(), &ws, &exec)},
      {"reduction -1", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), -1, out.acl(), &ws, &exec)},
      {"no broadcast", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), odd.acl(), 0, out.acl(), &ws, &exec)},
      {"none into another shape", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 0, wrong.acl(), &ws, &exec)},
      {"mean into 2-d", 161002,
       aclnnMseLossGetWorkspaceSize(self.acl(), target.acl(), 1, out.acl(), &ws, &exec)},
      {"out variant's mean into 0-d", 161002,
       aclnnMseLossOutGetWorkspaceSize(self.acl(), target.acl(), 1, scalar.acl(), &ws, &exec)},
      {"gradient's target of another dtype", 161002,
       aclnnMseLossBackwardGetWorkspaceSize(self.acl(), self.acl(), f16.acl(), 1, out.acl(), &ws,
                                            &exec)},
      {"gradient's gradOutput of another dtype", 161002,
       aclnnMseLossBackwardGetWorkspaceSize(f16.acl(), self.acl(), target.acl(), 1, out.acl(), &ws,
                                            &exec)},
      {"gradient into a reduced shape", 161002,
       aclnnMseLossBackwardGetWorkspaceSize(scalar.acl(), self.acl(), target.acl(), 1, row.acl(),
                                            &ws, &exec)},
      {"gradient's null target", 161001,
       aclnnMseLossBackwardGetWorkspaceSize(scalar.acl(), self.acl(), nullptr, 1, out.acl(), &ws,
                                            &exec)},
  };
  // (Each call above ran in order; its message is the last one only for the last call, so
  // the messages are checked again one by one below.)
  for (const Bad& b : bads) EXPECT_EQ(b.got, b.status) << b.what;
  const auto message_of = [&](Op op, const std::vector<const HostTensor*>& in, const HostTensor* o,
                              int64_t reduction) {
    OpArgs a;
    a.op = op;
    for (size_t k = 0; k < in.size(); ++k) a.in[k] = in[k] ? &in[k]->view() : nullptr;
    a.out[0] = o ? &o->view() : nullptr;
    a.scalars[0] = OpScalar{true, static_cast<double>(reduction), DType::kInt64};
    a.scalars[0].int_value = reduction;
    return hostnn::Run(a, {}).message();
  };
  EXPECT_NE(message_of(Op::kMseLoss, {&self, &i32}, &out, 0).find("target"), std::string::npos);
  EXPECT_NE(message_of(Op::kMseLoss, {&self, &target}, &out, 3).find("reduction"),
            std::string::npos);
  EXPECT_NE(message_of(Op::kMseLoss, {&self, &target}, &out, 1).find("0-dimensional"),
            std::string::npos);
  EXPECT_NE(message_of(Op::kMseLossOut, {&self, &target}, &scalar, 2).find("without dim 0"),
            std::string::npos);
  EXPECT_EQ(out.Snapshot(), before);
}

// A reduced out shares no byte with an input (its total would be written while the input is
// still read): refused, nothing written. The terms may be written over an input exactly.
TEST(MseLoss, ReducedOutApartFromTheInputs) {
  HostTensor self(DType::kFloat32, {2, 3}), target(DType::kFloat32, {2, 3});
  std::mt19937_64 rng(2);
  self.Fill(rng, -4.0, 4.0);
  target.Fill(rng, -4.0, 4.0);
  const std::vector<uint8_t> before = self.Snapshot();
  TensorView first = self.view();  // self's first element as a 0-d out
  first.shape.clear();
  first.strides.clear();
  first.storage_shape.clear();
  OpArgs a = LossArgs(Op::kMseLoss, {&self, &target}, self, 2);
  a.out[0] = &first;
  const Status s = hostnn::Run(a, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("share memory"), std::string::npos) << s.message();
  EXPECT_EQ(self.Snapshot(), before);
}

// Inputs whose stride-0 dims broadcast to more elements than an int64 counts, reduced to one
// value: refused in phase 1, naming the shape, out untouched.
TEST(MseLoss, ABroadcastPastInt64IsRefused) {
  float value = 1.0f;
  HostTensor out(DType::kFloat32, {});
  const int64_t big = int64_t{1} << 40;
  TensorView self = TensorView::Dense(&value, DType::kFloat32, {big, 1});
  self.strides = {0, 0};
  self.storage_shape = {1};
  TensorView target = TensorView::Dense(&value, DType::kFloat32, {1, big});
  target.strides = {0, 0};
  target.storage_shape = {1};
  const std::vector<uint8_t> before = out.Snapshot();
  OpArgs a = LossArgs(Op::kMseLoss, {&out, &out}, out, 2);
  a.in[0] = &self;
  a.in[1] = &target;
  const Status s = hostnn::Run(a, {});
  EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
  EXPECT_NE(s.message().find("more elements than an int64 counts"), std::string::npos)
      << s.message();
  EXPECT_EQ(out.Snapshot(), before);
}

// Phase 1 takes an input whose elements lie behind a null address (CANN's never reads it);
// phase 2 refuses it, out untouched.
TEST(MseLoss, NullDataRefusedWhenItRuns) {
  HostTensor self(DType::kFloat32, {2, 3}), out(DType::kFloat32, {});
  TensorView null_target = self.view();
  null_target.data = nullptr;
  const std::vector<uint8_t> before = out.Snapshot();
  OpArgs a = LossArgs(Op::kMseLoss, {&self, &self}, out, 1);
  a.in[1] = &null_target;
  const Status s = hostnn::Run(a, {});
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("null address"), std::string::npos) << s.message();
  EXPECT_EQ(out.Snapshot(), before);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
