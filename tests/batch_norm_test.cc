// BatchNorm: input [N, C, ...] normalised per channel over every other dim. In training the
// batch mean and biased variance (saveMean, and saveInvstd, which holds the variance as on
// Atlas A2), the running statistics updated with momentum (the variance unbiased); in
// inference the running statistics normalise. This suite checks the three dtypes, mixed
// per-channel dtypes and shapes of 2 to 7 dims against a long-double reference on every SIMD
// target (SPEC §4: statistics within 4 ULP, output within 4 ULP or 2^-21 (|x - mean| rstd
// |weight| + |bias|), 16-bit outputs that plus half an ULP), strided and in-place operands, a
// large mean over a small spread, constant channels and NaN, the bits for any team and core
// count, the empty input (saveMean 0 and saveInvstd NaN) and every refusal in the op_api's
// order with nothing written. BatchNormBackward the same way: gradInput, gradWeight and
// gradBias in training and inference, every outputMask, the optional inputs' defaults.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

constexpr double kEps = 1e-5, kMomentum = 0.1;

aclTensor* Mut(HostTensor* t) { return const_cast<aclTensor*>(Acl(t)); }

// Both phases on the null stream; a null HostTensor pointer passes a null aclTensor.
aclnnStatus RunBatchNorm(HostTensor* x, HostTensor* w, HostTensor* b, HostTensor* rm,
                         HostTensor* rv, bool training, double momentum, double eps, HostTensor* y,
                         HostTensor* save_mean, HostTensor* save_var) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st =
      aclnnBatchNormGetWorkspaceSize(Acl(x), Acl(w), Acl(b), Mut(rm), Mut(rv), training, momentum,
                                     eps, Mut(y), Mut(save_mean), Mut(save_var), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnBatchNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

aclnnStatus RunBatchNormBackward(HostTensor* dy, HostTensor* x, HostTensor* w, HostTensor* rm,
                                 HostTensor* rv, HostTensor* sm, HostTensor* sv, bool training,
                                 double eps, const std::vector<bool>* mask, HostTensor* dx,
                                 HostTensor* dw, HostTensor* db) {
  aclBoolArray* m = nullptr;
  std::vector<uint8_t> bits;
  if (mask != nullptr) {
    for (bool v : *mask) bits.push_back(v ? 1 : 0);
    m = aclCreateBoolArray(reinterpret_cast<const bool*>(bits.data()), bits.size());
  }
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st = aclnnBatchNormBackwardGetWorkspaceSize(Acl(dy), Acl(x), Acl(w), Acl(rm), Acl(rv),
                                                          Acl(sm), Acl(sv), training, eps, m,
                                                          Mut(dx), Mut(dw), Mut(db), &ws, &exec);
  if (m != nullptr) aclDestroyBoolArray(m);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnBatchNormBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// The values of a per-channel tensor, or `absent` for each of c channels where it is null.
std::vector<double> PerChannel(const HostTensor* t, int64_t c, double absent) {
  return t != nullptr ? t->Values() : std::vector<double>(static_cast<size_t>(c), absent);
}

// x [N, C, S] in row-major order: element (n, ch, s).
struct Dims {
  int64_t n, c, s;
  explicit Dims(const std::vector<int64_t>& shape)
      : n(shape[0]), c(shape[1]), s(Numel(shape) / (shape[0] * shape[1])) {}
  int64_t At(int64_t n_, int64_t ch, int64_t s_) const { return (n_ * c + ch) * s + s_; }
};

// A channel's exact mean and biased variance over its N * S elements.
struct Stats {
  long double mean, var;
};
Stats ChannelStats(const std::vector<double>& x, const Dims& d, int64_t ch) {
  long double sum = 0, sq = 0;
  const long double m = static_cast<long double>(d.n * d.s);
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t s = 0; s < d.s; ++s) sum += x[d.At(n, ch, s)];
  }
  const long double mean = sum / m;
  for (int64_t n = 0; n < d.n; ++n) {
    for (int64_t s = 0; s < d.s; ++s) {
      const long double c = x[d.At(n, ch, s)] - mean;
      sq += c * c;
    }
  }
  return {mean, sq / m};
}

void ExpectClose(const HostTensor& t, int64_t i, double exact, double f32_bound,
                 const std::string& what) {
  const double got = t.Get(i);
  if (std::isnan(exact)) {
    ASSERT_TRUE(std::isnan(got)) << what << ": got " << Num(got) << ", exact NaN";
    return;
  }
  ASSERT_LE(std::fabs(got - exact), NormBound(t.dtype(), exact, f32_bound))
      << what << ": got " << Num(got) << ", exact " << Num(exact);
}

// y from each channel's mean and variance: (x - mean) / sqrt(var + eps) * w + b.
void ExpectOutput(const HostTensor& y, const std::vector<double>& x, const Dims& d,
                  const std::vector<long double>& mean, const std::vector<long double>& var,
                  const std::vector<double>& w, const std::vector<double>& b, double eps) {
  const long double e = static_cast<float>(eps);
  for (int64_t ch = 0; ch < d.c; ++ch) {
    const long double rstd = 1.0L / std::sqrt(var[ch] + e);
    for (int64_t n = 0; n < d.n; ++n) {
      for (int64_t s = 0; s < d.s; ++s) {
        const int64_t i = d.At(n, ch, s);
        const long double centred = (x[i] - mean[ch]) * rstd;
        const double exact = static_cast<double>(centred * w[ch] + b[ch]);
        const double bound =
            std::max(4 * Ulp32(exact),
                     std::ldexp(std::fabs(static_cast<double>(centred)) * std::fabs(w[ch]) +
                                    std::fabs(b[ch]),
                                -21));
        ASSERT_NO_FATAL_FAILURE(
            ExpectClose(y, i, exact, bound,
                        "output " + std::to_string(i) + " (channel " + std::to_string(ch) + ")"));
      }
    }
  }
}

// A training forward's results: y, the saved mean and variance, the running statistics
// updated from rm0 and rv0 (their values before the call; null tensors: not checked).
void ExpectTraining(const HostTensor& y, const HostTensor& sm, const HostTensor& sv,
                    const HostTensor* rm, const HostTensor* rv, const std::vector<double>& rm0,
                    const std::vector<double>& rv0, const std::vector<double>& x,
                    const std::vector<int64_t>& shape, const std::vector<double>& w,
                    const std::vector<double>& b, double momentum, double eps) {
  const Dims d(shape);
  std::vector<long double> mean(d.c), var(d.c);
  const long double mom = static_cast<float>(momentum);
  const long double m = static_cast<long double>(d.n * d.s);
  for (int64_t ch = 0; ch < d.c; ++ch) {
    const Stats st = ChannelStats(x, d, ch);
    mean[ch] = st.mean, var[ch] = st.var;
    const double md = static_cast<double>(st.mean), vd = static_cast<double>(st.var);
    const std::string c = " of channel " + std::to_string(ch);
    ASSERT_NO_FATAL_FAILURE(ExpectClose(sm, ch, md, 4 * Ulp32(md), "saveMean" + c));
    ASSERT_NO_FATAL_FAILURE(ExpectClose(sv, ch, vd, 4 * Ulp32(vd), "saveInvstd (variance)" + c));
    if (rm != nullptr) {
      const long double a = (1 - mom) * rm0[ch], t = mom * st.mean;
      const double exact = static_cast<double>(a + t);
      const double bound = std::max(
          4 * Ulp32(exact), std::ldexp(static_cast<double>(std::fabs(a) + std::fabs(t)), -21));
      ASSERT_NO_FATAL_FAILURE(ExpectClose(*rm, ch, exact, bound, "runningMean" + c));
    }
    if (rv != nullptr) {
      const long double unbiased =
          m > 1 ? st.var * m / (m - 1) : std::numeric_limits<long double>::quiet_NaN();
      const long double a = (1 - mom) * rv0[ch], t = mom * unbiased;
      const double exact = static_cast<double>(a + t);
      const double bound =
          std::isnan(exact)
              ? 0.0
              : std::max(4 * Ulp32(exact),
                         std::ldexp(static_cast<double>(std::fabs(a) + std::fabs(t)), -21));
      ASSERT_NO_FATAL_FAILURE(ExpectClose(*rv, ch, exact, bound, "runningVar" + c));
    }
  }
  ExpectOutput(y, x, d, mean, var, w, b, eps);
}

struct ShapeCase {
  std::vector<int64_t> shape;
  aclFormat format;
};
const ShapeCase kShapes[] = {
    {{2, 3}, ACL_FORMAT_NC},         {{4, 5, 7}, ACL_FORMAT_NCL},
    {{2, 6, 5, 5}, ACL_FORMAT_NCHW}, {{3, 4, 2, 3, 2}, ACL_FORMAT_NCDHW},
    {{1, 3}, ACL_FORMAT_ND},         {{8, 64, 3, 3}, ACL_FORMAT_NCHW},
    {{2, 3, 4099}, ACL_FORMAT_ND},   {{2, 3, 1, 2, 2, 2, 2}, ACL_FORMAT_ND},
    {{65, 2, 17}, ACL_FORMAT_ND},    {{9, 1100}, ACL_FORMAT_NC},  // runs of channels split
};
const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

TEST(BatchNorm, TrainingEveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x401u);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const DType pd : {d, DType::kFloat32}) {  // the per-channel tensors' dtype
        for (const ShapeCase& sc : kShapes) {
          for (int given = 0; given < 2; ++given) {  // weight, bias, running statistics
            SCOPED_TRACE(ShapeText(sc.shape) + " " + DTypeName(d) + " per-channel " +
                         DTypeName(pd) + (given ? " all given" : " optional ones null"));
            const int64_t c = sc.shape[1];
            HostTensor x(d, sc.shape), y(d, sc.shape), w(pd, {c}), b(pd, {c}), rm(pd, {c}),
                rv(pd, {c}), sm(pd, {c}), sv(pd, {c});
            x.SetFormat(sc.format);
            y.SetFormat(sc.format);
            x.Fill(rng, -3.0, 5.0);
            w.Fill(rng, -2.0, 2.0);
            b.Fill(rng, -1.0, 1.0);
            rm.Fill(rng, -1.0, 1.0);
            rv.Fill(rng, 0.5, 2.0);
            const std::vector<double> rm0 = rm.Values(), rv0 = rv.Values();
            HostTensor* wp = given ? &w : nullptr;
            HostTensor* bp = given ? &b : nullptr;
            HostTensor* rmp = given ? &rm : nullptr;
            HostTensor* rvp = given ? &rv : nullptr;
            ASSERT_EQ(RunBatchNorm(&x, wp, bp, rmp, rvp, true, kMomentum, kEps, &y, &sm, &sv),
                      ACLNN_SUCCESS)
                << aclGetRecentErrMsg();
            ExpectTraining(y, sm, sv, rmp, rvp, rm0, rv0, x.Values(), sc.shape,
                           PerChannel(wp, c, 1.0), PerChannel(bp, c, 0.0), kMomentum, kEps);
          }
        }
      }
    }
  });
}

// Inference: the running statistics (0 and 1 where null) normalise; saveMean and saveInvstd
// (optional there) and the running statistics are not written.
TEST(BatchNorm, InferenceUsesTheRunningStatistics) {
  std::mt19937_64 rng(0x402u);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ShapeCase& sc : kShapes) {
        for (int given = 0; given < 2; ++given) {
          SCOPED_TRACE(ShapeText(sc.shape) + " " + DTypeName(d) + (given ? " given" : " null"));
          const int64_t c = sc.shape[1];
          HostTensor x(d, sc.shape), y(d, sc.shape), w(d, {c}), b(d, {c}), rm(d, {c}), rv(d, {c}),
              sm(d, {c}), sv(d, {c});
          x.SetFormat(sc.format);
          y.SetFormat(sc.format);
          x.Fill(rng, -3.0, 5.0);
          w.Fill(rng, -2.0, 2.0);
          b.Fill(rng, -1.0, 1.0);
          rm.Fill(rng, -1.0, 1.0);
          rv.Fill(rng, 0.25, 2.0);
          const std::vector<uint8_t> rm0 = rm.Snapshot(), rv0 = rv.Snapshot(), sm0 = sm.Snapshot(),
                                     sv0 = sv.Snapshot();
          HostTensor* rmp = given ? &rm : nullptr;
          HostTensor* rvp = given ? &rv : nullptr;
          ASSERT_EQ(RunBatchNorm(&x, &w, &b, rmp, rvp, false, kMomentum, kEps, &y,
                                 given ? &sm : nullptr, given ? &sv : nullptr),
                    ACLNN_SUCCESS)
              << aclGetRecentErrMsg();
          std::vector<long double> mean(c), var(c);
          const std::vector<double> mv = PerChannel(rmp, c, 0.0), vv = PerChannel(rvp, c, 1.0);
          for (int64_t ch = 0; ch < c; ++ch) mean[ch] = mv[ch], var[ch] = vv[ch];
          ExpectOutput(y, x.Values(), Dims(sc.shape), mean, var, w.Values(), b.Values(), kEps);
          EXPECT_EQ(rm.Snapshot(), rm0);
          EXPECT_EQ(rv.Snapshot(), rv0);
          EXPECT_EQ(sm.Snapshot(), sm0);
          EXPECT_EQ(sv.Snapshot(), sv0);
        }
      }
    }
  });
}

// Strided and transposed input and output; output in place (input itself); a channel of 1e6
// plus a small spread and a constant one (variance 0: rstd 1 / sqrt(eps)); eps and momentum
// at their ends.
TEST(BatchNorm, StridesInPlaceLargeMeanAndConstantChannels) {
  std::mt19937_64 rng(0x403u);
  const std::vector<int64_t> shape{3, 4, 5, 6};
  const int64_t c = 4;
  for (const DType d : kDTypes) {
    for (const Strides lx : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const Strides ly : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layouts " +
                     std::to_string(static_cast<int>(lx)) + "/" +
                     std::to_string(static_cast<int>(ly)));
        HostTensor x(d, shape, lx), y(d, shape, ly), w(d, {c}, ly), b(d, {c}), rm(d, {c}, lx),
            rv(d, {c}), sm(DType::kFloat32, {c}, ly), sv(DType::kFloat32, {c});
        x.Fill(rng, -3.0, 3.0);
        w.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        rm.Fill(rng, -1.0, 1.0);
        rv.Fill(rng, 0.5, 1.5);
        const Dims dims(shape);
        for (int64_t n = 0; n < dims.n; ++n) {
          for (int64_t s = 0; s < dims.s; ++s) {
            x.Set(dims.At(n, 1, s), d == DType::kFloat32 ? 1e6 + (s % 4) * 0.0625 : 256 + s % 2);
            x.Set(dims.At(n, 2, s), 0.75);
          }
        }
        const std::vector<double> xv = x.Values(), rm0 = rm.Values(), rv0 = rv.Values();
        const double momentum = lx == Strides::kDense ? 1.0 : 0.0;
        const double eps = ly == Strides::kDense ? 1e-12 : 1.0;
        ASSERT_EQ(RunBatchNorm(&x, &w, &b, &rm, &rv, true, momentum, eps, &y, &sm, &sv),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        ExpectTraining(y, sm, sv, &rm, &rv, rm0, rv0, xv, shape, w.Values(), b.Values(), momentum,
                       eps);
        EXPECT_EQ(sv.Get(2), 0.0);
        // In place: output is input.
        HostTensor x2(d, shape, lx), sm2(d, {c}), sv2(d, {c});
        for (int64_t i = 0; i < x2.numel(); ++i) x2.Set(i, xv[i]);
        ASSERT_EQ(RunBatchNorm(&x2, &w, &b, nullptr, nullptr, true, momentum, eps, &x2, &sm2, &sv2),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < x2.numel(); ++i) {
          ASSERT_EQ(x2.Get(i), y.Get(i)) << "in place, element " << i;
        }
      }
    }
  }
}

// A NaN makes its channel's statistics and outputs NaN and leaves the others alone; an
// infinity makes its channel's variance NaN.
TEST(BatchNorm, SpecialValuesStayInTheirChannel) {
  const std::vector<int64_t> shape{2, 3, 4};
  HostTensor x(DType::kFloat32, shape), y(DType::kFloat32, shape), sm(DType::kFloat32, {3}),
      sv(DType::kFloat32, {3});
  std::mt19937_64 rng(0x404u);
  x.Fill(rng, -1.0, 1.0);
  const Dims d(shape);
  x.Set(d.At(1, 0, 2), std::numeric_limits<double>::quiet_NaN());
  x.Set(d.At(0, 2, 1), std::numeric_limits<double>::infinity());
  ASSERT_EQ(
      RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y, &sm, &sv),
      ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_TRUE(std::isnan(sm.Get(0)) && std::isnan(sv.Get(0)));
  EXPECT_TRUE(std::isinf(sm.Get(2)) && std::isnan(sv.Get(2)));
  for (int64_t n = 0; n < 2; ++n) {
    for (int64_t s = 0; s < 4; ++s) {
      EXPECT_TRUE(std::isnan(y.Get(d.At(n, 0, s))));
      EXPECT_TRUE(std::isfinite(y.Get(d.At(n, 1, s))));
    }
  }
  const Stats st = ChannelStats(x.Values(), d, 1);
  EXPECT_NEAR(sm.Get(1), static_cast<double>(st.mean), 4 * Ulp32(static_cast<double>(st.mean)));
}

// fn(options) for 1, 2 and 3 threads, each with the planned, 1 or 48 logical cores; the
// team restored after.
template <class Fn>
void ForEachTeamAndCoreCount(const std::string& what, Fn fn) {
  const int threads = omp_get_max_threads();
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE(what + " threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      tiling::Options options;
      options.num_cores = cores;
      fn(options);
    }
  }
  omp_set_num_threads(threads);
}

OpArgs BatchNormArgs(HostTensor& x, HostTensor& w, HostTensor& b, HostTensor& rm, HostTensor& rv,
                     HostTensor& y, HostTensor& sm, HostTensor& sv) {
  OpArgs a;
  a.op = Op::kBatchNorm;
  a.in[0] = &x.view(), a.in[1] = &w.view(), a.in[2] = &b.view(), a.in[3] = &rm.view(),
  a.in[4] = &rv.view();
  a.out[0] = &y.view(), a.out[1] = &sm.view(), a.out[2] = &sv.view();
  a.scalars[0] = OpScalar{true, 1.0, DType::kBool};
  a.scalars[1] = OpScalar{true, kMomentum, DType::kFloat64};
  a.scalars[2] = OpScalar{true, kEps, DType::kFloat64};
  return a;
}

// The bits of every output for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(BatchNorm, SameBitsForAnyTeamAndCoreCount) {
  std::mt19937_64 rng(0x405u);
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{7, 13, 9, 11}, {37, 13}})
    for (const DType d : {DType::kFloat32, DType::kBFloat16}) {
      HostTensor x(d, shape), w(d, {13}), b(d, {13}), rm_init(d, {13}), rv_init(d, {13});
      x.Fill(rng, -3.0, 3.0);
      w.Fill(rng, -1.0, 1.0);
      b.Fill(rng, -1.0, 1.0);
      rm_init.Fill(rng, -1.0, 1.0);
      rv_init.Fill(rng, 0.5, 1.5);
      std::vector<uint8_t> first[5];
      ForEachTeamAndCoreCount(DTypeName(d), [&](const tiling::Options& options) {
        HostTensor y(d, shape), sm(d, {13}), sv(d, {13}), rm(d, {13}), rv(d, {13});
        for (int64_t i = 0; i < 13; ++i) rm.Set(i, rm_init.Get(i)), rv.Set(i, rv_init.Get(i));
        const OpArgs a = BatchNormArgs(x, w, b, rm, rv, y, sm, sv);
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        const std::vector<uint8_t> now[5] = {y.Snapshot(), sm.Snapshot(), sv.Snapshot(),
                                             rm.Snapshot(), rv.Snapshot()};
        if (first[0].empty()) {
          for (int k = 0; k < 5; ++k) first[k] = now[k];
          ExpectTraining(y, sm, sv, &rm, &rv, rm_init.Values(), rv_init.Values(), x.Values(), shape,
                         w.Values(), b.Values(), kMomentum, kEps);
        }
        for (int k = 0; k < 5; ++k) EXPECT_EQ(now[k], first[k]) << "output " << k;
      });
    }
}

// An empty input succeeds: saveMean filled with 0 and saveInvstd with NaN, whatever their
// shapes, as the op_api fills them; output and the running statistics untouched.
TEST(BatchNorm, EmptyInputFillsTheSavedStatistics) {
  for (const DType d : kDTypes) {
    SCOPED_TRACE(DTypeName(d));
    HostTensor x(d, {0, 3, 4}), y(d, {0, 3, 4}), rm(d, {3}), sm(d, {3}), sv(d, {2, 2});
    const std::vector<uint8_t> rm0 = rm.Snapshot();
    ASSERT_EQ(RunBatchNorm(&x, nullptr, nullptr, &rm, nullptr, true, kMomentum, kEps, &y, &sm, &sv),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    for (int i = 0; i < 3; ++i) EXPECT_EQ(sm.Get(i), 0.0) << i;
    for (int i = 0; i < 4; ++i) EXPECT_TRUE(std::isnan(sv.Get(i))) << i;
    EXPECT_EQ(rm.Snapshot(), rm0);
    // Saved outputs without elements, of any shape (a zero extent beside one no product of
    // int64 holds): nothing to fill, and nothing written.
    HostTensor sm0(d, {8, 0, 0, 0}), sv0(d, {0, 4, INT64_MAX}, Strides::kTransposed);
    const std::vector<uint8_t> sm00 = sm0.Snapshot(), sv00 = sv0.Snapshot();
    ASSERT_EQ(
        RunBatchNorm(&x, nullptr, nullptr, &rm, nullptr, true, kMomentum, kEps, &y, &sm0, &sv0),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    EXPECT_EQ(sm0.Snapshot(), sm00);
    EXPECT_EQ(sv0.Snapshot(), sv00);
    // Inference: the saved outputs may be null.
    HostTensor xe(d, {2, 0}), ye(d, {2, 0});
    EXPECT_EQ(RunBatchNorm(&xe, nullptr, nullptr, nullptr, nullptr, false, kMomentum, kEps, &ye,
                           nullptr, nullptr),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(BatchNorm, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d64 = DType::kFloat64, i32 = DType::kInt32;
  struct Case {
    const char* what;
    DType x, y, w, sm;
    std::vector<int64_t> xs, ys, ws, sms;
    bool training;
    const char* names;
  };
  const std::vector<int64_t> s{2, 4, 3}, cs{4};
  const Case cases[] = {
      {"DOUBLE input", d64, f, f, f, s, s, cs, cs, true, "input"},
      {"INT32 output", f, i32, f, f, s, s, cs, cs, true, "output"},
      {"DOUBLE saveMean in training", f, f, f, d64, s, s, cs, cs, true, "saveMean"},
      {"DOUBLE weight", h, h, d64, f, s, s, cs, cs, true, "weight"},
      {"input of 1 dim", f, f, f, f, {8}, {8}, cs, cs, true, "input"},
      {"input of 9 dims",
       f,
       f,
       f,
       f,
       {2, 4, 1, 1, 1, 1, 1, 1, 3},
       {2, 4, 1, 1, 1, 1, 1, 1, 3},
       cs,
       cs,
       true,
       "input"},
      {"output shape", f, f, f, f, s, {2, 3, 4}, cs, cs, true, "output"},
      {"weight of 3 values", f, f, f, f, s, s, {3}, cs, true, "weight"},
      {"weight of 2 dims", f, f, f, f, s, s, {1, 4}, cs, true, "weight"},
      {"saveMean [1, C] in training", f, f, f, f, s, s, cs, {1, 4}, true, "saveMean"},
      // The dtypes before the shapes.
      {"dtype before shape", d64, f, f, f, s, {9}, cs, cs, true, "input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor x(c.x, c.xs), y(c.y, c.ys), w(c.w, c.ws), sm(c.sm, c.sms), sv(f, cs);
    const std::vector<uint8_t> y0 = y.Snapshot(), m0 = sm.Snapshot(), v0 = sv.Snapshot();
    EXPECT_EQ(
        RunBatchNorm(&x, &w, nullptr, nullptr, nullptr, c.training, kMomentum, kEps, &y, &sm, &sv),
        ACLNN_ERR_PARAM_INVALID);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(y.Snapshot(), y0);
    EXPECT_EQ(sm.Snapshot(), m0);
    EXPECT_EQ(sv.Snapshot(), v0);
  }
  // Formats: output unlike input; a 5-dim ND input (NCDHW asked).
  {
    HostTensor x(f, s), y(f, s), sm(f, cs), sv(f, cs);
    y.SetFormat(ACL_FORMAT_NCL);
    EXPECT_EQ(
        RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y, &sm, &sv),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("format"), std::string::npos);
    HostTensor x5(f, {2, 4, 1, 2, 3}), y5(f, {2, 4, 1, 2, 3});
    EXPECT_EQ(
        RunBatchNorm(&x5, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y5, &sm, &sv),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("NCDHW"), std::string::npos);
  }
  // Nulls (161001): input, output; saveMean and saveInvstd in training only.
  HostTensor x(f, s), y(f, s), sm(f, cs), sv(f, cs);
  EXPECT_EQ(RunBatchNorm(nullptr, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y,
                         &sm, &sv),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, nullptr,
                         &sm, &sv),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(
      RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y, nullptr, &sv),
      ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("saveMean"), std::string::npos);
  EXPECT_EQ(
      RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y, &sm, nullptr),
      ACLNN_ERR_PARAM_NULLPTR);
  // Overlap: saveMean and saveInvstd over one memory; runningMean over the output.
  EXPECT_EQ(
      RunBatchNorm(&x, nullptr, nullptr, nullptr, nullptr, true, kMomentum, kEps, &y, &sm, &sm),
      ACLNN_ERR_PARAM_INVALID);
  HostTensor rm(f, cs);
  EXPECT_EQ(RunBatchNorm(&x, nullptr, nullptr, &sm, nullptr, true, kMomentum, kEps, &y, &sm, &sv),
            ACLNN_ERR_PARAM_INVALID);
}

// ---- BatchNormBackward -------------------------------------------------------------------

// gradInput, gradWeight and gradBias against the reference: from mean and var (the saved
// ones in training, the running ones in inference; defaults 0 and 1 where null) with invstd
// = 1 / sqrt(var + eps).
void ExpectBackward(const HostTensor* dx, const HostTensor* dw, const HostTensor* db,
                    const std::vector<double>& dy, const std::vector<double>& x,
                    const std::vector<int64_t>& shape, const std::vector<double>& w,
                    const std::vector<double>& mean, const std::vector<double>& var, bool training,
                    double eps) {
  const Dims d(shape);
  const long double e = static_cast<float>(eps);
  const long double m = static_cast<long double>(d.n * d.s);
  for (int64_t ch = 0; ch < d.c; ++ch) {
    const long double invstd = 1.0L / std::sqrt(var[ch] + e);
    long double sum_dy = 0, sum_dy_xhat = 0, mag_dy = 0, mag_dy_xhat = 0;
    for (int64_t n = 0; n < d.n; ++n) {
      for (int64_t s = 0; s < d.s; ++s) {
        const int64_t i = d.At(n, ch, s);
        const long double xhat = (x[i] - mean[ch]) * invstd;
        sum_dy += dy[i], mag_dy += std::fabs(dy[i]);
        sum_dy_xhat += dy[i] * xhat, mag_dy_xhat += std::fabs(dy[i] * xhat);
      }
    }
    const std::string c = " of channel " + std::to_string(ch);
    if (dw != nullptr) {
      const double exact = static_cast<double>(sum_dy_xhat);
      ASSERT_NO_FATAL_FAILURE(
          ExpectClose(*dw, ch, exact,
                      std::max(4 * Ulp32(exact), std::ldexp(static_cast<double>(mag_dy_xhat), -21)),
                      "gradWeight" + c));
    }
    if (db != nullptr) {
      const double exact = static_cast<double>(sum_dy);
      ASSERT_NO_FATAL_FAILURE(ExpectClose(
          *db, ch, exact, std::max(4 * Ulp32(exact), std::ldexp(static_cast<double>(mag_dy), -21)),
          "gradBias" + c));
    }
    if (dx == nullptr) continue;
    const long double k = invstd * w[ch];
    for (int64_t n = 0; n < d.n; ++n) {
      for (int64_t s = 0; s < d.s; ++s) {
        const int64_t i = d.At(n, ch, s);
        const long double xhat = (x[i] - mean[ch]) * invstd;
        long double exact_ld, mag;
        if (training) {
          const long double a = sum_dy / m, b = xhat * sum_dy_xhat / m;
          exact_ld = (dy[i] - (a + b)) * k;
          mag = (std::fabs(dy[i]) + std::fabs(a) + std::fabs(b)) * std::fabs(k);
        } else {
          exact_ld = dy[i] * k;
          mag = std::fabs(exact_ld);
        }
        const double exact = static_cast<double>(exact_ld);
        ASSERT_NO_FATAL_FAILURE(ExpectClose(
            *dx, i, exact, std::max(4 * Ulp32(exact), std::ldexp(static_cast<double>(mag), -21)),
            "gradInput " + std::to_string(i) + c));
      }
    }
  }
}

TEST(BatchNormBackward, EveryShapeDTypeModeAndMaskOnEveryTarget) {
  std::mt19937_64 rng(0x411u);
  const std::vector<bool> masks[] = {
      {true, true, true}, {true, false, false}, {false, true, true}, {false, false, true}};
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ShapeCase& sc : kShapes) {
        for (int mode = 0; mode < 2; ++mode) {
          const bool training = mode == 0;
          for (const std::vector<bool>& mask : masks) {
            SCOPED_TRACE(ShapeText(sc.shape) + " " + DTypeName(d) +
                         (training ? " training" : " inference") + " mask " +
                         std::to_string(mask[0]) + std::to_string(mask[1]) +
                         std::to_string(mask[2]));
            const int64_t c = sc.shape[1];
            const DType pd = mask[0] ? d : DType::kFloat32;
            HostTensor dy(d, sc.shape), x(d, sc.shape), dx(d, sc.shape), w(pd, {c}), rm(pd, {c}),
                rv(pd, {c}), sm(pd, {c}), sv(pd, {c}), dw(pd, {c}), db(DType::kFloat32, {c});
            for (HostTensor* t : {&dy, &x, &dx}) t->SetFormat(sc.format);
            dy.Fill(rng, -1.0, 1.0);
            x.Fill(rng, -3.0, 3.0);
            w.Fill(rng, -2.0, 2.0);
            rm.Fill(rng, -1.0, 1.0);
            rv.Fill(rng, 0.5, 2.0);
            sm.Fill(rng, -1.0, 1.0);
            sv.Fill(rng, 0.25, 3.0);
            const std::vector<uint8_t> dx0 = dx.Snapshot(), dw0 = dw.Snapshot(),
                                       db0 = db.Snapshot();
            ASSERT_EQ(RunBatchNormBackward(&dy, &x, &w, &rm, &rv, &sm, &sv, training, kEps, &mask,
                                           mask[0] ? &dx : nullptr, mask[1] ? &dw : nullptr, &db),
                      ACLNN_SUCCESS)
                << aclGetRecentErrMsg();
            ExpectBackward(mask[0] ? &dx : nullptr, mask[1] ? &dw : nullptr,
                           mask[2] ? &db : nullptr, dy.Values(), x.Values(), sc.shape, w.Values(),
                           training ? sm.Values() : rm.Values(),
                           training ? sv.Values() : rv.Values(), training, kEps);
            if (!mask[0]) {
              EXPECT_EQ(dx.Snapshot(), dx0);
            }
            if (!mask[1]) {
              EXPECT_EQ(dw.Snapshot(), dw0);
            }
            if (!mask[2]) {
              EXPECT_EQ(db.Snapshot(), db0);
            }
          }
        }
      }
    }
  });
}

// Null weight, statistics: 1, and 0 and 1; gradInput in place (gradOut itself); strided
// operands.
TEST(BatchNormBackward, DefaultsInPlaceAndStrides) {
  std::mt19937_64 rng(0x412u);
  const std::vector<int64_t> shape{3, 5, 4, 3};
  const std::vector<bool> mask{true, true, true};
  for (const DType d : kDTypes) {
    for (const Strides l : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (int training = 0; training < 2; ++training) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layout " + std::to_string(static_cast<int>(l)) +
                     (training ? " training" : " inference"));
        HostTensor dy(d, shape, l), x(d, shape), dx(d, shape, l), dw(d, {5}, l), db(d, {5});
        dy.Fill(rng, -1.0, 1.0);
        x.Fill(rng, -2.0, 2.0);
        const std::vector<double> dyv = dy.Values();
        ASSERT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr,
                                       training != 0, kEps, &mask, &dx, &dw, &db),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> ones(5, 1.0), zeros(5, 0.0);
        ExpectBackward(&dx, &dw, &db, dyv, x.Values(), shape, ones, zeros, ones, training != 0,
                       kEps);
        // In place: gradInput is gradOut.
        ASSERT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr,
                                       training != 0, kEps, &mask, &dy, nullptr, nullptr),
                  ACLNN_ERR_PARAM_NULLPTR);  // gradWeight asked for, null
        const std::vector<bool> dx_only{true, false, false};
        ASSERT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr,
                                       training != 0, kEps, &dx_only, &dy, nullptr, nullptr),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < dy.numel(); ++i) ASSERT_EQ(dy.Get(i), dx.Get(i)) << i;
      }
    }
  }
}

TEST(BatchNormBackward, SameBitsForAnyTeamAndCoreCount) {
  std::mt19937_64 rng(0x413u);
  const std::vector<bool> mask{true, true, true};
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{9, 11, 7, 13}, {41, 11}})
    for (const DType d : {DType::kFloat32, DType::kFloat16}) {
      HostTensor dy(d, shape), x(d, shape), w(d, {11}), sm(d, {11}), sv(d, {11});
      dy.Fill(rng, -1.0, 1.0);
      x.Fill(rng, -2.0, 2.0);
      w.Fill(rng, -1.0, 1.0);
      sm.Fill(rng, -0.5, 0.5);
      sv.Fill(rng, 0.5, 2.0);
      std::vector<uint8_t> first[3];
      ForEachTeamAndCoreCount(DTypeName(d), [&](const tiling::Options& options) {
        HostTensor dx(d, shape), dw(d, {11}), db(d, {11});
        OpArgs a;
        a.op = Op::kBatchNormBackward;
        a.in[0] = &dy.view(), a.in[1] = &x.view(), a.in[2] = &w.view(), a.in[5] = &sm.view(),
        a.in[6] = &sv.view();
        a.out[0] = &dx.view(), a.out[1] = &dw.view(), a.out[2] = &db.view();
        a.bool_array = mask;
        a.bool_array_given = true;
        a.scalars[0] = OpScalar{true, 1.0, DType::kBool};
        a.scalars[1] = OpScalar{true, kEps, DType::kFloat64};
        const Status s = hostnn::Run(a, options);
        ASSERT_TRUE(s.ok()) << s.message();
        const std::vector<uint8_t> now[3] = {dx.Snapshot(), dw.Snapshot(), db.Snapshot()};
        if (first[0].empty()) {
          for (int k = 0; k < 3; ++k) first[k] = now[k];
          ExpectBackward(&dx, &dw, &db, dy.Values(), x.Values(), shape, w.Values(), sm.Values(),
                         sv.Values(), true, kEps);
        }
        for (int k = 0; k < 3; ++k) EXPECT_EQ(now[k], first[k]) << "output " << k;
      });
    }
}

// An empty gradOut or input, or no output asked for, succeeds writing nothing; every
// refusal with its status and nothing written.
TEST(BatchNormBackward, EmptyInputsAndRefusals) {
  const DType f = DType::kFloat32, h = DType::kFloat16, d64 = DType::kFloat64;
  const std::vector<int64_t> s{2, 4, 3}, cs{4};
  const std::vector<bool> all{true, true, true}, none{false, false, false};
  {
    HostTensor dy(f, {0, 4, 3}), x(f, {0, 4, 3}), dx(f, {0, 4, 3}), dw(f, cs), db(f, cs);
    const std::vector<uint8_t> dw0 = dw.Snapshot();
    EXPECT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr, true, kEps,
                                   &all, &dx, &dw, &db),
              ACLNN_SUCCESS);
    EXPECT_EQ(dw.Snapshot(), dw0);
    HostTensor dy2(f, s), x2(f, s);
    EXPECT_EQ(RunBatchNormBackward(&dy2, &x2, nullptr, nullptr, nullptr, nullptr, nullptr, true,
                                   kEps, &none, nullptr, nullptr, nullptr),
              ACLNN_SUCCESS);
  }
  struct Case {
    const char* what;
    DType dy, x, dx, w;
    std::vector<int64_t> dys, xs, dxs, ws, dws;
    std::vector<bool> mask;
    aclnnStatus status;
    const char* names;
  };
  const Case cases[] = {
      {"empty outputMask", f, f, f, f, s, s, s, cs, cs, {}, ACLNN_ERR_PARAM_NULLPTR, "outputMask"},
      {"outputMask of 2",
       f,
       f,
       f,
       f,
       s,
       s,
       s,
       cs,
       cs,
       {true, true},
       ACLNN_ERR_PARAM_INVALID,
       "outputMask"},
      {"DOUBLE gradOut", d64, d64, d64, f, s, s, s, cs, cs, all, ACLNN_ERR_PARAM_INVALID,
       "gradOut"},
      {"input unlike gradOut", f, h, f, f, s, s, s, cs, cs, all, ACLNN_ERR_PARAM_INVALID, "input"},
      {"DOUBLE weight", f, f, f, d64, s, s, s, cs, cs, all, ACLNN_ERR_PARAM_INVALID, "weight"},
      {"input shape", f, f, f, f, s, {2, 4, 4}, s, cs, cs, all, ACLNN_ERR_PARAM_INVALID, "gradOut"},
      {"gradInput shape",
       f,
       f,
       f,
       f,
       s,
       s,
       {2, 3, 4},
       cs,
       cs,
       all,
       ACLNN_ERR_PARAM_INVALID,
       "gradInput"},
      {"weight of 5", f, f, f, f, s, s, s, {5}, cs, all, ACLNN_ERR_PARAM_INVALID, "weight"},
      {"gradWeight of 3", f, f, f, f, s, s, s, cs, {3}, all, ACLNN_ERR_PARAM_INVALID, "gradWeight"},
      {"input of 1 dim", f, f, f, f, {8}, {8}, {8}, cs, cs, all, ACLNN_ERR_PARAM_INVALID, "input"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor dy(c.dy, c.dys), x(c.x, c.xs), dx(c.dx, c.dxs), w(c.w, c.ws), dw(f, c.dws),
        db(f, cs), sm(f, cs), sv(f, cs);
    const std::vector<uint8_t> dx0 = dx.Snapshot(), dw0 = dw.Snapshot(), db0 = db.Snapshot();
    EXPECT_EQ(RunBatchNormBackward(&dy, &x, &w, nullptr, nullptr, &sm, &sv, true, kEps, &c.mask,
                                   &dx, &dw, &db),
              c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    EXPECT_EQ(dx.Snapshot(), dx0);
    EXPECT_EQ(dw.Snapshot(), dw0);
    EXPECT_EQ(db.Snapshot(), db0);
  }
  // Nulls (161001): gradOut, input, outputMask, an asked-for output.
  HostTensor dy(f, s), x(f, s), dx(f, s), dw(f, cs), db(f, cs);
  EXPECT_EQ(RunBatchNormBackward(nullptr, &x, nullptr, nullptr, nullptr, nullptr, nullptr, true,
                                 kEps, &all, &dx, &dw, &db),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunBatchNormBackward(&dy, nullptr, nullptr, nullptr, nullptr, nullptr, nullptr, true,
                                 kEps, &all, &dx, &dw, &db),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr, true, kEps,
                                 nullptr, &dx, &dw, &db),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr, true, kEps,
                                 &all, &dx, nullptr, &db),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradWeight"), std::string::npos);
  // gradWeight and gradBias over one memory.
  EXPECT_EQ(RunBatchNormBackward(&dy, &x, nullptr, nullptr, nullptr, nullptr, nullptr, true, kEps,
                                 &all, &dx, &dw, &dw),
            ACLNN_ERR_PARAM_INVALID);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
