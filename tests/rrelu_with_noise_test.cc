// RReluWithNoise and InplaceRReluWithNoise: in training mode each element of self below 0 is
// multiplied by its number of the Philox4x32-10 stream (kernels.h, NoiseDraw), which also
// goes to noise (1 for the other elements); in evaluation mode out is a leaky ReLU of slope
// (lower + upper) / 2 and noise is untouched. The list-driven suites leave them out
// (tests/util/capi_ops.h, HasOwnSuite): this suite checks the generator against published
// Philox vectors and an independent scalar implementation, the values of every dtype on
// dense, strided and in-place operands, noise of other shapes, the bits for any team, core
// count and seed, the empty inputs, and every refusal in CANN's order with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "kernels/kernels.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// ---- an independent Philox4x32-10 and the stream it defines -----------------------------

struct Block {
  uint32_t w[4];
};

// Philox4x32 with 10 rounds, written from the SC'11 paper: each round multiplies words 0
// and 2 by the two multipliers, and the key is bumped by the Weyl constants between rounds.
Block Philox(Block c, uint32_t k0, uint32_t k1) {
  for (int round = 0; round < 10; ++round) {
    if (round > 0) k0 += 0x9E3779B9u, k1 += 0xBB67AE85u;
    const uint64_t p0 = uint64_t{0xD2511F53u} * c.w[0];
    const uint64_t p1 = uint64_t{0xCD9E8D57u} * c.w[2];
    c = Block{{static_cast<uint32_t>(p1 >> 32) ^ c.w[1] ^ k0, static_cast<uint32_t>(p1),
               static_cast<uint32_t>(p0 >> 32) ^ c.w[3] ^ k1, static_cast<uint32_t>(p0)}};
  }
  return c;
}

// Number k of the stream of `seed`, as an f32 value in [lower, upper] rounded to dtype.
double StreamNumber(uint64_t seed, uint64_t k, float lower, float upper, DType dtype) {
  const uint64_t b = k / 4;
  const Block block =
      Philox(Block{{static_cast<uint32_t>(b), static_cast<uint32_t>(b >> 32), 0, 0}},
             static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32));
  const float unit = static_cast<float>(block.w[k % 4] >> 8) * (1.0f / 16777216.0f);
  const float span = upper - lower;
  const float scaled = span * unit;  // separate statements: no contraction into an FMA
  const float v = lower + scaled;
  return RoundTo(dtype, v);
}

void DrawMatchesTheScalarStream();

// Published known-answer vectors of Philox4x32-10 (Random123's kat_vectors).
TEST(RReluWithNoise, PhiloxKnownAnswers) {
  const struct {
    Block ctr;
    uint32_t k0, k1;
    Block expected;
  } kats[] = {
      {{{0, 0, 0, 0}}, 0, 0, {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
      {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
       0xffffffffu,
       0xffffffffu,
       {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
      {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
       0xa4093822u,
       0x299f31d0u,
       {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
  };
  for (const auto& k : kats) {
    const Block got = Philox(k.ctr, k.k0, k.k1);
    for (int w = 0; w < 4; ++w) EXPECT_EQ(got.w[w], k.expected.w[w]) << "word " << w;
  }
}

// The library's draw against the scalar stream on every compiled SIMD target, at every start
// modulo 4, for seeds and positions whose counters carry into the high word or wrap around
// 2^64.
TEST(RReluWithNoise, DrawMatchesTheScalarStreamOnEveryTarget) {
  ForEachTarget([](int64_t) { DrawMatchesTheScalarStream(); });
}

void DrawMatchesTheScalarStream() {
  const kernels::NoiseTiles tiles = kernels::GetNoiseTiles();
  const uint64_t seeds[] = {0, 1, 0x123456789ABCDEFull, ~0ull};
  const uint64_t positions[] = {0, 1, 2, 3, 4, 4 * 0xFFFFFFFFull - 5, ~0ull - 37};
  for (const DType t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    for (const uint64_t seed : seeds) {
      for (const uint64_t position : positions) {
        kernels::NoiseDraw p;
        p.key0 = static_cast<uint32_t>(seed);
        p.key1 = static_cast<uint32_t>(seed >> 32);
        p.lower = -0.75f;
        p.upper = 0.3f;
        p.dtype = t == DType::kFloat16    ? kernels::NoiseDType::kF16
                  : t == DType::kBFloat16 ? kernels::NoiseDType::kBF16
                                          : kernels::NoiseDType::kF32;
        for (const size_t n : {size_t{1}, size_t{7}, size_t{64}, size_t{203}}) {
          std::vector<float> u(n);
          tiles.draw(p, position, u.data(), n);
          for (size_t j = 0; j < n; ++j) {
            ASSERT_EQ(u[j], StreamNumber(seed, position + j, p.lower, p.upper, t))
                << DTypeName(t) << " seed " << seed << " position " << position << " + " << j;
          }
        }
      }
    }
  }
}

// ---- the C API ----------------------------------------------------------------------------

struct Params {
  double lower = 0.125, upper = 1.0 / 3.0;
  bool training = true;
  int64_t seed = 0, offset = 0;
};

struct ScalarDeleter {
  void operator()(aclScalar* s) const { aclDestroyScalar(s); }
};
using ScalarPtr = std::unique_ptr<aclScalar, ScalarDeleter>;
ScalarPtr FloatScalar(double v) {
  float f = static_cast<float>(v);
  return ScalarPtr(aclCreateScalar(&f, ACL_FLOAT));
}

// Both phases on the null stream; out null: the in-place entry point.
aclnnStatus RunRRelu(const aclTensor* self, const aclTensor* noise, const aclScalar* lower,
                     const aclScalar* upper, const Params& p, aclTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const bool inplace = out == nullptr;
  const aclnnStatus st =
      inplace ? aclnnInplaceRReluWithNoiseGetWorkspaceSize(self, noise, lower, upper, p.training,
                                                           p.seed, p.offset, &ws, &exec)
              : aclnnRReluWithNoiseGetWorkspaceSize(self, noise, lower, upper, p.training, p.seed,
                                                    p.offset, out, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  void* w = ws ? workspace.data() : nullptr;
  return inplace ? aclnnInplaceRReluWithNoise(w, ws, exec, nullptr)
                 : aclnnRReluWithNoise(w, ws, exec, nullptr);
}
aclnnStatus RunRRelu(const HostTensor& self, const HostTensor& noise, const Params& p,
                     HostTensor* out) {
  const ScalarPtr lower = FloatScalar(p.lower), upper = FloatScalar(p.upper);
  return RunRRelu(self.acl(), noise.acl(), lower.get(), upper.get(), p,
                  out == nullptr ? nullptr : out->acl());
}

// out and noise against the reference: in training, noise element i (row-major) is the
// slope of self's element i, its stream number offset + i where self is below 0 and 1
// elsewhere, and out the exact product rounded once; noise past numel(self) keeps `noise0`.
// In evaluation out is the leaky ReLU and noise keeps noise0 whole.
void ExpectRRelu(const std::vector<double>& x, const Params& p, const HostTensor& out,
                 const HostTensor& noise, const std::vector<double>& noise0) {
  const DType t = out.dtype();
  const float lower = static_cast<float>(p.lower), upper = static_cast<float>(p.upper);
  const double slope = static_cast<float>((lower + upper) / 2.0f);
  for (size_t i = 0; i < x.size(); ++i) {
    double r = 1.0, expected;
    if (p.training) {
      if (x[i] < 0) {
        r = StreamNumber(static_cast<uint64_t>(p.seed), static_cast<uint64_t>(p.offset) + i, lower,
                         upper, t);
      }
      expected = RoundTo(t, x[i] * r);
      ASSERT_EQ(noise.Get(static_cast<int64_t>(i)), r) << "noise " << i << ": x " << x[i];
    } else {
      expected = x[i] > 0 ? x[i] : RoundTo(t, RoundTo(DType::kFloat32, x[i] * slope));
    }
    const double got = out.Get(static_cast<int64_t>(i));
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "element " << i;
    } else {
      ASSERT_EQ(got, expected) << "element " << i << ": x " << x[i] << " slope " << r;
      ASSERT_EQ(std::signbit(got), std::signbit(expected)) << "element " << i;
    }
  }
  const size_t from = p.training ? x.size() : 0;
  for (size_t i = from; i < noise0.size(); ++i) {
    ASSERT_EQ(noise.Get(static_cast<int64_t>(i)), noise0[i]) << "noise " << i << " written";
  }
}

struct ShapeCase {
  std::vector<int64_t> self, noise;
};
const ShapeCase kShapes[] = {{{5}, {5}},
                             {{}, {}},
                             {{}, {3}},
                             {{3, 4}, {3, 4}},
                             {{3, 4}, {13}},
                             {{2, 3}, {5, 7}},
                             {{2, 3, 5, 7}, {2, 3, 5, 7}},
                             {{2, 19, 37}, {1500}},
                             {{1, 16, 3, 2, 5}, {16, 30}},
                             {{3, 2, 1029}, {3, 2, 1029}},
                             {{70001}, {70001}}};

class RReluDTypeTest : public ::testing::TestWithParam<DType> {};

TEST_P(RReluDTypeTest, TrainingAndEvaluationOnEveryShapeAndTarget) {
  const DType t = GetParam();
  std::mt19937_64 rng(0x77u);
  ForEachTarget([&](int64_t) {
    for (const bool training : {true, false}) {
      for (const ShapeCase& c : kShapes) {
        SCOPED_TRACE(ShapeText(c.self) + " noise " + ShapeText(c.noise) +
                     (training ? " training" : " evaluation"));
        HostTensor self(t, c.self), noise(t, c.noise), out(t, c.self);
        self.Fill(rng, -4.0, 4.0);
        noise.Fill(rng, 5.0, 6.0);
        if (self.numel() > 4) {
          self.Set(0, 0.0);
          self.Set(1, -0.0);
          self.Set(2, kNaN);
          self.Set(3, -HUGE_VAL);
        }
        const std::vector<double> noise0 = noise.Values();
        Params p;
        p.training = training;
        p.seed = 42;
        p.offset = 5;
        ASSERT_EQ(RunRRelu(self, noise, p, &out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectRRelu(self.Values(), p, out, noise, noise0);
      }
    }
  });
}

TEST_P(RReluDTypeTest, StridedOperandsAndInPlace) {
  const DType t = GetParam();
  std::mt19937_64 rng(0x78u);
  for (Strides ls : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (Strides ln : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const ShapeCase& c :
           {ShapeCase{{4, 6, 5}, {4, 6, 5}}, ShapeCase{{3, 7}, {5, 6}}, ShapeCase{{9}, {3, 4}}}) {
        SCOPED_TRACE(ShapeText(c.self) + " noise " + ShapeText(c.noise) + " layouts " +
                     std::to_string(static_cast<int>(ls)) + "/" +
                     std::to_string(static_cast<int>(ln)));
        for (const bool inplace : {false, true}) {
          HostTensor self(t, c.self, ls), noise(t, c.noise, ln), out(t, c.self, ln);
          self.Fill(rng, -4.0, 4.0);
          noise.Fill(rng, 5.0, 6.0);
          const std::vector<double> x = self.Values(), noise0 = noise.Values();
          Params p;
          p.seed = -7;
          p.offset = 1000003;
          ASSERT_EQ(RunRRelu(self, noise, p, inplace ? nullptr : &out), ACLNN_SUCCESS)
              << aclGetRecentErrMsg();
          ExpectRRelu(x, p, inplace ? self : out, noise, noise0);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(RReluWithNoise, RReluDTypeTest,
                         ::testing::Values(DType::kFloat32, DType::kFloat16, DType::kBFloat16),
                         [](const auto& info) { return std::string(DTypeName(info.param)); });

// The bits of out and noise for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(RReluWithNoise, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x79u);
  const DType f = DType::kFloat32;
  HostTensor self(f, {3, 70001}), noise(f, {3, 70001});
  self.Fill(rng, -4.0, 4.0);
  std::vector<uint8_t> first_out, first_noise;
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor out(f, {3, 70001});
      OpArgs a;
      a.op = Op::kRReluWithNoise;
      a.in[0] = &self.view();
      a.in[1] = &noise.view();
      a.out[0] = &out.view();
      a.scalars[2] = OpScalar{true, 1.0, DType::kBool};  // training
      a.scalars[3] = OpScalar{true, 99.0, DType::kInt64, false, 99};
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      if (first_out.empty()) {
        first_out = out.Snapshot();
        first_noise = noise.Snapshot();
        Params p;
        p.seed = 99;
        ExpectRRelu(self.Values(), p, out, noise, {});
      }
      EXPECT_EQ(out.Snapshot(), first_out);
      EXPECT_EQ(noise.Snapshot(), first_noise);
    }
  }
  omp_set_num_threads(threads);
}

// The numbers of one seed are uniform on [lower, upper]; another seed draws others, the same
// seed the same, and offset k starts the stream k numbers later. Seeds past 2^53 that one
// double cannot tell apart draw different numbers (phase 1's memo keys on the exact value).
TEST(RReluWithNoise, SeedsAndOffsets) {
  const DType f = DType::kFloat32;
  const int64_t n = 100000;
  HostTensor self(f, {n}), out(f, {n});
  for (int64_t i = 0; i < n; ++i) self.Set(i, -1.0);
  const auto draw = [&](int64_t seed, int64_t offset) {
    HostTensor noise(f, {n});
    Params p;
    p.lower = -2.0;
    p.upper = 3.0;
    p.seed = seed;
    p.offset = offset;
    EXPECT_EQ(RunRRelu(self, noise, p, &out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    return noise.Values();
  };
  const std::vector<double> a = draw(1, 0);
  double sum = 0.0, sum2 = 0.0;
  for (const double v : a) {
    ASSERT_GE(v, -2.0);
    ASSERT_LE(v, 3.0);
    sum += v, sum2 += v * v;
  }
  const double mean = sum / n, var = sum2 / n - mean * mean;
  // Uniform on [-2, 3]: mean 0.5 (standard error 5 / sqrt(12 n)), variance 25 / 12.
  EXPECT_NEAR(mean, 0.5, 5.0 * 5.0 / std::sqrt(12.0 * n));
  EXPECT_NEAR(var, 25.0 / 12.0, 0.05);
  EXPECT_EQ(draw(1, 0), a);
  EXPECT_NE(draw(2, 0), a);
  const std::vector<double> later = draw(1, 3);
  for (int64_t i = 0; i + 3 < n; ++i) ASSERT_EQ(later[i], a[i + 3]) << i;
  const int64_t big = int64_t{1} << 53;
  EXPECT_NE(draw(big, 0), draw(big + 1, 0));
}

// ops-nn's example: self [4, 2] of 0..7 negated in part, lower 0.1, upper 0.3.
TEST(RReluWithNoise, EvaluationIsALeakyReluAndLeavesNoise) {
  const DType f = DType::kFloat32;
  HostTensor self(f, {4, 2}), noise(f, {2}), out(f, {4, 2});
  const double x[] = {0, 1, -2, 3, -4, 5, -6, -0.0};
  for (int i = 0; i < 8; ++i) self.Set(i, x[i]);
  noise.Set(0, 7), noise.Set(1, 8);
  Params p;
  p.lower = 0.1;
  p.upper = 0.3;
  p.training = false;
  ASSERT_EQ(RunRRelu(self, noise, p, &out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const float slope = (0.1f + 0.3f) / 2.0f;
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(out.Get(i), x[i] > 0 ? x[i] : static_cast<float>(x[i] * slope)) << i;
  }
  EXPECT_TRUE(std::signbit(out.Get(7)));
  EXPECT_EQ(noise.Get(0), 7.0);
  EXPECT_EQ(noise.Get(1), 8.0);
}

// An empty self or noise succeeds and writes nothing, in evaluation mode too (CANN returns
// before computing); noise need not be large enough in evaluation mode.
TEST(RReluWithNoise, EmptyInputsAndSmallNoise) {
  const DType f = DType::kFloat32;
  const struct {
    std::vector<int64_t> self, noise;
    bool training;
    aclnnStatus expected;
  } cases[] = {
      {{0, 3}, {4}, true, ACLNN_SUCCESS},
      {{0, 3}, {4}, false, ACLNN_SUCCESS},
      {{0}, {0, 2}, true, ACLNN_SUCCESS},
      {{2, 3}, {0}, false, ACLNN_SUCCESS},           // nothing written although self has elements
      {{2, 3}, {0}, true, ACLNN_ERR_PARAM_INVALID},  // 6 elements of self, 0 of noise
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(ShapeText(c.self) + " noise " + ShapeText(c.noise) +
                 (c.training ? " training" : " evaluation"));
    HostTensor self(f, c.self), noise(f, c.noise), out(f, c.self);
    const std::vector<uint8_t> before = out.Snapshot();
    Params p;
    p.training = c.training;
    EXPECT_EQ(RunRRelu(self, noise, p, &out), c.expected) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Snapshot(), before);
  }
  HostTensor self(f, {2, 3}), noise(f, {5}), out(f, {2, 3});
  Params p;
  p.training = false;
  EXPECT_EQ(RunRRelu(self, noise, p, &out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
}

// 32 dims are taken (contiguous: they merge into one), 33 are refused.
TEST(RReluWithNoise, RanksUpTo32) {
  const DType f = DType::kFloat32;
  std::vector<int64_t> shape(32, 1);
  shape[3] = 2, shape[30] = 3;
  HostTensor self(f, shape), noise(f, shape), out(f, shape);
  self.Set(0, -1.0);
  const std::vector<double> noise0 = noise.Values();
  Params p;
  ASSERT_EQ(RunRRelu(self, noise, p, &out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ExpectRRelu(self.Values(), p, out, noise, noise0);
  shape.push_back(1);
  HostTensor self33(f, shape), noise33(f, shape), out33(f, shape);
  EXPECT_EQ(RunRRelu(self33, noise33, p, &out33), ACLNN_ERR_PARAM_INVALID);
}

// Every refusal: its status, a message naming the parameter, nothing written.
TEST(RReluWithNoise, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, i32 = DType::kInt32, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType self, noise, out;
    std::vector<int64_t> self_shape, noise_shape, out_shape;
    bool training;
    const char* names;  // what the message names
  };
  const Case cases[] = {
      {"INT32 self", i32, f, f, {2, 3}, {2, 3}, {2, 3}, true, "self"},
      {"INT32 noise", f, i32, f, {2, 3}, {2, 3}, {2, 3}, true, "noise"},
      {"DOUBLE out", f, f, d, {2, 3}, {2, 3}, {2, 3}, true, "out"},
      {"self unlike out", h, f, f, {2, 3}, {2, 3}, {2, 3}, true, "self"},
      {"noise unlike out", f, h, f, {2, 3}, {2, 3}, {2, 3}, false, "noise"},
      {"out shape", f, f, f, {2, 3}, {2, 3}, {3, 2}, true, "out"},
      {"noise too small", f, f, f, {2, 3}, {5}, {2, 3}, true, "noise"},
      // Two faults: the dtype is checked before the shape, as CANN's op_api.
      {"dtype before shape", i32, f, f, {2, 3}, {2}, {3, 2}, true, "self"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor self(c.self, c.self_shape), noise(c.noise, c.noise_shape), out(c.out, c.out_shape);
    const std::vector<uint8_t> s0 = self.Snapshot(), n0 = noise.Snapshot(), o0 = out.Snapshot();
    Params p;
    p.training = c.training;
    EXPECT_EQ(RunRRelu(self, noise, p, &out), ACLNN_ERR_PARAM_INVALID);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(self.Snapshot(), s0);
    EXPECT_EQ(noise.Snapshot(), n0);
    EXPECT_EQ(out.Snapshot(), o0);
  }
}

TEST(RReluWithNoise, NullsScalarDTypesFormatsAndOverlap) {
  const DType f = DType::kFloat32;
  HostTensor self(f, {2, 3}), noise(f, {2, 3}), out(f, {2, 3});
  const ScalarPtr lower = FloatScalar(0.1), upper = FloatScalar(0.3);
  const Params p;
  EXPECT_EQ(RunRRelu(nullptr, noise.acl(), lower.get(), upper.get(), p, out.acl()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunRRelu(self.acl(), nullptr, lower.get(), upper.get(), p, out.acl()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunRRelu(self.acl(), noise.acl(), nullptr, upper.get(), p, out.acl()),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunRRelu(self.acl(), noise.acl(), lower.get(), nullptr, p, out.acl()),
            ACLNN_ERR_PARAM_NULLPTR);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnRReluWithNoiseGetWorkspaceSize(self.acl(), noise.acl(), lower.get(), upper.get(),
                                                true, 0, 0, nullptr, &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  // lower and upper: FLOAT, FLOAT16, BFLOAT16 or DOUBLE; an integer is refused.
  int32_t one = 1;
  const ScalarPtr int_lower(aclCreateScalar(&one, ACL_INT32));
  EXPECT_EQ(RunRRelu(self.acl(), noise.acl(), int_lower.get(), upper.get(), p, out.acl()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("lower"), std::string::npos);
  double dl = 0.1;
  const ScalarPtr double_lower(aclCreateScalar(&dl, ACL_DOUBLE));
  EXPECT_EQ(RunRRelu(self.acl(), noise.acl(), double_lower.get(), upper.get(), p, out.acl()),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // Formats: self's and noise's must equal out's.
  std::vector<float> buf(6, -1.0f);
  const TensorPtr nchw_self =
      MakeTensor(buf.data(), ACL_FLOAT, {1, 2, 1, 3}, {}, 0, {1, 2, 1, 3}, ACL_FORMAT_NCHW);
  HostTensor out4(f, {1, 2, 1, 3}), noise4(f, {1, 2, 1, 3});
  EXPECT_EQ(RunRRelu(nchw_self.get(), noise4.acl(), lower.get(), upper.get(), p, out4.acl()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("format"), std::string::npos);
  // noise sharing self's memory: refused in training (it is written), taken in evaluation.
  std::vector<float> shared(12, -1.0f);
  const TensorPtr s1 = MakeDense(shared.data(), ACL_FLOAT, {2, 3});
  const TensorPtr n1 = MakeDense(shared.data() + 3, ACL_FLOAT, {2, 3});
  EXPECT_EQ(RunRRelu(s1.get(), n1.get(), lower.get(), upper.get(), p, out.acl()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("noise"), std::string::npos);
  for (const float v : shared) EXPECT_EQ(v, -1.0f);
  Params eval = p;
  eval.training = false;
  EXPECT_EQ(RunRRelu(s1.get(), n1.get(), lower.get(), upper.get(), eval, out.acl()), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

}  // namespace
}  // namespace test
}  // namespace hostnn
