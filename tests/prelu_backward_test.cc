// PreluBackward: gradInput = gradOutput where self > 0, weight[c] * gradOutput elsewhere;
// gradWeight[c] = the sum over channel c of gradOutput * self where self is not > 0 (one
// weight: over every element). Its own suite (tests/util/capi_ops.h, HasOwnSuite): values of
// every compute dtype against a double reference (gradInput exact apart from the product's
// one rounding; gradWeight within 2^-21 sum |dy x| of the exact sum, rounded once to its
// dtype), broadcast gradOutput, strided operands, weights of any rank, gradWeight's bits
// the same for any team size and core count, empty tensors, and every refusal with its
// status and nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_prelu_backward.h"
#include "src/exec/column_sums.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

aclnnStatus RunBackward(const HostTensor& dy, const HostTensor& x, const HostTensor& w,
                        const HostTensor& gi, const HostTensor& gw) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st =
      aclnnPreluBackwardGetWorkspaceSize(dy.acl(), x.acl(), w.acl(), gi.acl(), gw.acl(), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnPreluBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// Index of dy's element for self's element i (dy broadcast to self's shape).
int64_t BroadcastIndex(const std::vector<int64_t>& to, const std::vector<int64_t>& from,
                       int64_t i) {
  int64_t j = 0, stride = 1;
  for (int d = static_cast<int>(to.size()) - 1, e = static_cast<int>(from.size()) - 1; d >= 0;
       --d, --e) {
    const int64_t idx = i % to[d];
    i /= to[d];
    if (e >= 0 && from[e] > 1) j += idx * stride;
    if (e >= 0) stride *= from[e];
  }
  return j;
}

int64_t ChannelOf(const std::vector<int64_t>& shape, int64_t i) {
  if (shape.size() < 2) return 0;
  int64_t inner = 1;
  for (size_t k = 2; k < shape.size(); ++k) inner *= shape[k];
  return (i / inner) % shape[1];
}

// Checks gradInput bit for bit and gradWeight within its bound.
void ExpectBackward(const HostTensor& dy, const HostTensor& x, const HostTensor& w,
                    const HostTensor& gi, const HostTensor& gw, double* worst = nullptr) {
  const DType t = x.dtype();
  const std::vector<double> vdy = dy.Values(), vx = x.Values(), vw = w.Values();
  const int64_t channels = x.shape().size() >= 2 ? x.shape()[1] : 1;
  const bool one = w.numel() == 1;
  std::vector<long double> sum(static_cast<size_t>(one ? 1 : channels), 0.0L);
  std::vector<double> abs_sum(sum.size(), 0.0);
  for (int64_t i = 0; i < x.numel(); ++i) {
    const double g = vdy[static_cast<size_t>(BroadcastIndex(x.shape(), dy.shape(), i))];
    const double xi = vx[static_cast<size_t>(i)];
    const int64_t c = ChannelOf(x.shape(), i);
    const double wc = vw[static_cast<size_t>(one ? 0 : c)];
    const double expected = RoundTo(t, RoundTo(DType::kFloat32, xi > 0 ? g : wc * g));
    const double got = gi.Get(i);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "gradInput " << i;
    } else {
      ASSERT_EQ(got, expected) << "gradInput " << i << ": dy " << g << " x " << xi << " w " << wc;
    }
    if (!(xi > 0)) {
      sum[static_cast<size_t>(one ? 0 : c)] += static_cast<long double>(g) * xi;
      abs_sum[static_cast<size_t>(one ? 0 : c)] += std::fabs(g * xi);
    }
  }
  for (size_t c = 0; c < sum.size(); ++c) {
    const double exact = static_cast<double>(sum[c]);
    const double got = gw.Get(static_cast<int64_t>(c));
    if (std::isnan(exact)) {
      EXPECT_TRUE(std::isnan(got)) << "gradWeight " << c;
      continue;
    }
    // Any value within the bound, rounded once to gradWeight's dtype (rounding is monotone).
    const double bound = std::ldexp(abs_sum[c], -21);
    const double lo = RoundTo(t, exact - bound), hi = RoundTo(t, exact + bound);
    EXPECT_TRUE(got >= lo && got <= hi)
        << "gradWeight " << c << ": got " << got << ", exact " << exact << ", bound " << bound;
    if (worst != nullptr && abs_sum[c] > 0) {
      *worst = std::max(*worst, std::fabs(got - exact) / abs_sum[c]);
    }
  }
}

struct Case {
  std::vector<int64_t> dy, x, w, gw;
};
const Case kCases[] = {
    {{5}, {5}, {1}, {1}},
    {{}, {}, {1}, {1}},
    {{}, {}, {}, {}},
    {{3, 4}, {3, 4}, {4}, {4}},
    {{4, 2}, {4, 2}, {2}, {2}},
    {{2, 3, 5, 7}, {2, 3, 5, 7}, {3}, {3}},
    {{2, 3, 5, 7}, {2, 3, 5, 7}, {1}, {1}},
    {{2, 3, 5, 7}, {2, 3, 5, 7}, {1, 1}, {1, 1}},
    {{1, 3, 1, 7}, {2, 3, 5, 7}, {3}, {3}},  // gradOutput broadcast
    {{7}, {2, 3, 5, 7}, {1}, {1}},
    {{2, 19, 37}, {2, 19, 37}, {19}, {19}},
    {{3, 4, 5}, {3, 4, 5}, {2, 2}, {4}},  // weight of rank 2, gradWeight [C]
    {{2, 3, 9001}, {2, 3, 9001}, {3}, {3}},  // rows longer than a unit
    {{1000, 3}, {1000, 3}, {3}, {3}},        // rows of one element
    {{2, 2, 1, 1, 1, 1, 1, 3}, {2, 2, 1, 1, 1, 1, 1, 3}, {2}, {2}},  // 8-D
};

class PreluBackwardTest : public ::testing::TestWithParam<DType> {};

// Every shape on every SIMD target the machine runs (the segment kernel's lanes differ).
TEST_P(PreluBackwardTest, ValuesOnEveryShape) {
  const DType t = GetParam();
  std::mt19937_64 rng(0xB0u);
  double worst = 0.0;
  ForEachTarget([&](int64_t) {
    for (const Case& c : kCases) {
      SCOPED_TRACE("dy " + ShapeText(c.dy) + " self " + ShapeText(c.x) + " weight " +
                   ShapeText(c.w));
      HostTensor dy(t, c.dy), x(t, c.x), w(t, c.w), gi(t, c.x), gw(t, c.gw);
      dy.Fill(rng, -3.0, 3.0);
      x.Fill(rng, -4.0, 4.0);
      w.Fill(rng, -2.0, 2.0);
      if (x.numel() > 2) x.Set(1, 0.0);
      ASSERT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ExpectBackward(dy, x, w, gi, gw, &worst);
    }
  });
  std::printf("PreluBackward %s: largest |gradWeight - exact| / sum|dy x| = %.3g\n",
              DTypeName(t), worst);
}

// gradWeight's sum takes element i to partial i % 16 whatever the SIMD width: the same
// bits (and gradInput's) on every target the machine runs.
TEST_P(PreluBackwardTest, SameBitsOnEveryTarget) {
  const DType t = GetParam();
  for (const Case& c : kCases) {
    SCOPED_TRACE("self " + ShapeText(c.x));
    std::mt19937_64 rng(0xB3u);
    HostTensor dy(t, c.dy), x(t, c.x), w(t, c.w), gi(t, c.x), gw(t, c.gw);
    dy.Fill(rng, -3.0, 3.0);
    x.Fill(rng, -4.0, 4.0);
    w.Fill(rng, -2.0, 2.0);
    std::vector<double> first_gi, first_gw;
    ForEachTarget([&](int64_t) {
      ASSERT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      std::vector<double> vgi(static_cast<size_t>(gi.numel())), vgw(static_cast<size_t>(gw.numel()));
      for (int64_t i = 0; i < gi.numel(); ++i) vgi[static_cast<size_t>(i)] = gi.Get(i);
      for (int64_t i = 0; i < gw.numel(); ++i) vgw[static_cast<size_t>(i)] = gw.Get(i);
      if (first_gw.empty()) {
        first_gi = vgi, first_gw = vgw;
        return;
      }
      for (size_t i = 0; i < vgw.size(); ++i) {
        EXPECT_EQ(std::memcmp(&vgw[i], &first_gw[i], sizeof(double)), 0) << "gradWeight " << i;
      }
      for (size_t i = 0; i < vgi.size(); ++i) {
        ASSERT_EQ(std::memcmp(&vgi[i], &first_gi[i], sizeof(double)), 0) << "gradInput " << i;
      }
    });
  }
}

TEST_P(PreluBackwardTest, StridedOperands) {
  const DType t = GetParam();
  std::mt19937_64 rng(0xB1u);
  for (Strides a : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (Strides b : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      SCOPED_TRACE(std::to_string(static_cast<int>(a)) + "/" + std::to_string(static_cast<int>(b)));
      HostTensor dy(t, {4, 6, 5}, a), x(t, {4, 6, 5}, b), w(t, {2, 3}, b), gi(t, {4, 6, 5}, a),
          gw(t, {6}, b);
      dy.Fill(rng, -3.0, 3.0);
      x.Fill(rng, -4.0, 4.0);
      w.Fill(rng, -2.0, 2.0);
      ASSERT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ExpectBackward(dy, x, w, gi, gw);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(PreluBackward, PreluBackwardTest,
                         ::testing::Values(DType::kFloat32, DType::kFloat16, DType::kBFloat16),
                         [](const auto& info) { return std::string(DTypeName(info.param)); });

// gradWeight (and gradInput) bits for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(PreluBackward, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0xB2u);
  for (const Case& c : {Case{{3, 5, 20000}, {3, 5, 20000}, {5}, {5}},
                        Case{{64, 7, 33}, {64, 7, 33}, {1}, {1}},
                        Case{{1, 200001}, {1, 200001}, {1}, {1}}}) {
    SCOPED_TRACE(ShapeText(c.x));
    HostTensor dy(DType::kFloat32, c.dy), x(DType::kFloat32, c.x), w(DType::kFloat32, c.w);
    dy.Fill(rng, -3.0, 3.0);
    x.Fill(rng, -4.0, 4.0);
    w.Fill(rng, -2.0, 2.0);
    std::vector<uint8_t> first_gi, first_gw;
    for (int team : {1, 2, 3}) {
      for (int cores : {0, 1, 48}) {
        SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
        omp_set_num_threads(team);
        HostTensor gi(DType::kFloat32, c.x), gw(DType::kFloat32, c.gw);
        OpArgs a;
        a.op = Op::kPreluBackward;
        a.in[0] = &dy.view();
        a.in[1] = &x.view();
        a.in[2] = &w.view();
        a.out[0] = &gi.view();
        a.out[1] = &gw.view();
        tiling::Options options;
        options.num_cores = cores;
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        if (first_gw.empty()) {
          first_gi = gi.Snapshot();
          first_gw = gw.Snapshot();
          ExpectBackward(dy, x, w, gi, gw);
        }
        EXPECT_EQ(gi.Snapshot(), first_gi);
        EXPECT_EQ(gw.Snapshot(), first_gw);
      }
    }
  }
  omp_set_num_threads(threads);
}

// ops-nn's example: self [4, 2] = 0..7, weight {0.5, 0.5}, gradOutput all 1.
TEST(PreluBackward, TheCannExampleAndNaN) {
  const DType f = DType::kFloat32;
  HostTensor dy(f, {4, 2}), x(f, {4, 2}), w(f, {2}), gi(f, {4, 2}), gw(f, {2});
  for (int i = 0; i < 8; ++i) dy.Set(i, 1.0), x.Set(i, i);
  w.Set(0, 0.5), w.Set(1, 0.5);
  ASSERT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS);
  const double expected[] = {0.5, 1, 1, 1, 1, 1, 1, 1};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(gi.Get(i), expected[i]) << i;
  EXPECT_EQ(gw.Get(0), 0.0);
  EXPECT_EQ(gw.Get(1), 0.0);
  // A NaN self takes the weight's branch: gradInput w * dy, its channel's gradWeight NaN.
  x.Set(2, kNaN);
  ASSERT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS);
  EXPECT_EQ(gi.Get(2), 0.5);
  EXPECT_TRUE(std::isnan(gw.Get(0)));
  EXPECT_EQ(gw.Get(1), 0.0);
}

// Two calls that differ only in gradWeight are two executors (phase 1's memo keys on both
// outputs): each writes its own gradWeight.
TEST(PreluBackward, EachCallWritesItsOwnGradWeight) {
  const DType f = DType::kFloat32;
  std::mt19937_64 rng(0xB4u);
  HostTensor dy(f, {3, 4, 5}), x(f, {3, 4, 5}), w(f, {4}), gi(f, {3, 4, 5}), gw1(f, {4}),
      gw2(f, {4});
  dy.Fill(rng, -3.0, 3.0);
  x.Fill(rng, -4.0, 4.0);
  w.Fill(rng, -2.0, 2.0);
  ASSERT_EQ(RunBackward(dy, x, w, gi, gw1), ACLNN_SUCCESS);
  ASSERT_EQ(RunBackward(dy, x, w, gi, gw2), ACLNN_SUCCESS);
  EXPECT_EQ(gw2.Values(), gw1.Values());
  ExpectBackward(dy, x, w, gi, gw2);
}

TEST(PreluBackward, RoundsGradWeightOnceTo16Bits) {
  // 1 + 2^-11 + 2^-30 rounds up to FLOAT16's 1 + 2^-10 only when rounded once from the
  // exact sum (through f32 it would tie and round to even, 1).
  EXPECT_EQ(exec::RoundToHalfType(1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -30),
                                  DType::kFloat16),
            1.0 + std::ldexp(1.0, -10));
  EXPECT_EQ(exec::RoundToHalfType(65520.0, DType::kFloat16), HUGE_VAL);
  EXPECT_EQ(exec::RoundToHalfType(65519.0, DType::kFloat16), 65504.0);
  EXPECT_EQ(exec::RoundToHalfType(std::ldexp(3.0, -26), DType::kFloat16), std::ldexp(1.0, -24));
  EXPECT_EQ(exec::RoundToHalfType(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40),
                                  DType::kBFloat16),
            1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(exec::RoundToHalfType(-std::ldexp(1.0, -134), DType::kBFloat16), -0.0);
}

TEST(PreluBackward, EmptyTensorsSucceedAndWriteNothing) {
  const DType f = DType::kFloat32;
  for (const Case& c : {Case{{0, 2, 3, 2}, {0, 2, 3, 2}, {2}, {2}},
                        Case{{1, 2, 3, 2}, {0, 2, 3, 2}, {2}, {2}},
                        Case{{0}, {0}, {1}, {1}}}) {
    SCOPED_TRACE("dy " + ShapeText(c.dy) + " self " + ShapeText(c.x));
    HostTensor dy(f, c.dy), x(f, c.x), w(f, c.w), gi(f, c.x), gw(f, c.gw);
    const std::vector<uint8_t> before = gw.Snapshot();
    EXPECT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(gw.Snapshot(), before);
  }
}

struct Refusal {
  const char* what;
  DType t[5];  // gradOutput, self, weight, gradInput, gradWeight
  std::vector<int64_t> dy, x, w, gi, gw;
};

TEST(PreluBackward, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d = DType::kFloat64;
  const std::vector<int64_t> s{2, 2, 3, 2};
  const Refusal cases[] = {
      {"DOUBLE", {d, d, d, d, d}, s, s, {2}, s, {2}},
      {"gradOutput dtype", {h, f, f, f, f}, s, s, {2}, s, {2}},
      {"weight dtype", {f, f, h, f, f}, s, s, {2}, s, {2}},
      {"gradInput dtype", {f, f, f, h, f}, s, s, {2}, s, {2}},
      {"gradWeight dtype", {f, f, f, f, h}, s, s, {2}, s, {2}},
      {"9-D self", {f, f, f, f, f}, {2}, {1, 2, 1, 1, 1, 1, 1, 1, 2}, {2},
       {1, 2, 1, 1, 1, 1, 1, 1, 2}, {2}},
      {"9-D gradOutput", {f, f, f, f, f}, {1, 1, 1, 1, 1, 1, 1, 1, 2}, {2, 2}, {2}, {2, 2}, {2}},
      {"gradInput shape", {f, f, f, f, f}, s, s, {2}, {2, 2, 3, 1}, {2}},
      {"weight {0}", {f, f, f, f, f}, s, s, {0}, s, {0}},
      {"weight not C", {f, f, f, f, f}, s, s, {3}, s, {3}},
      {"gradWeight {1} for weight {1, 1}", {f, f, f, f, f}, s, s, {1, 1}, s, {1}},
      {"gradWeight not [C]", {f, f, f, f, f}, s, s, {2}, s, {2, 1}},
      {"gradWeight [C] for weight {2, 2}", {f, f, f, f, f}, {2, 4}, {2, 4}, {2, 2}, {2, 4}, {2, 2}},
      {"0-d self, weight of 2", {f, f, f, f, f}, {}, {}, {2}, {}, {2}},
      {"gradOutput not broadcast", {f, f, f, f, f}, s, {2, 2, 4, 2}, {2}, {2, 2, 4, 2}, {2}},
      {"gradOutput bigger", {f, f, f, f, f}, s, {1, 2, 3, 2}, {2}, {1, 2, 3, 2}, {2}},
  };
  std::mt19937_64 rng(0xB3u);
  for (const Refusal& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor dy(c.t[0], c.dy), x(c.t[1], c.x), w(c.t[2], c.w), gi(c.t[3], c.gi),
        gw(c.t[4], c.gw);
    const std::vector<uint8_t> gi0 = gi.Snapshot(), gw0 = gw.Snapshot();
    EXPECT_EQ(RunBackward(dy, x, w, gi, gw), ACLNN_ERR_PARAM_INVALID) << c.what;
    EXPECT_EQ(gi.Snapshot(), gi0);
    EXPECT_EQ(gw.Snapshot(), gw0);
  }
  HostTensor dy(f, s), x(f, s), w(f, {2}), gi(f, s), gw(f, {2});
  x.Fill(rng, -1.0, 1.0);
  const aclTensor* t[5] = {dy.acl(), x.acl(), w.acl(), gi.acl(), gw.acl()};
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  for (int k = 0; k < 5; ++k) {
    const aclTensor* a[5] = {t[0], t[1], t[2], t[3], t[4]};
    a[k] = nullptr;
    EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(a[0], a[1], a[2], const_cast<aclTensor*>(a[3]),
                                                 const_cast<aclTensor*>(a[4]), &ws, &exec),
              ACLNN_ERR_PARAM_NULLPTR)
        << "null operand " << k;
  }
  EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(dy.acl(), x.acl(), w.acl(), gi.acl(), gw.acl(),
                                               nullptr, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  // gradWeight inside gradInput's elements.
  const TensorPtr inside = MakeTensor(gi.view().data, ACL_FLOAT, {2}, {1}, 3, {24});
  EXPECT_EQ(aclnnPreluBackwardGetWorkspaceSize(dy.acl(), x.acl(), w.acl(), gi.acl(),
                                               inside.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
