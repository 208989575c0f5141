// AddLayerNormGrad: the gradient of AddLayerNorm from dy, the forward's x1 and x2 (x = x1 +
// x2), its mean and rstd and gamma: dxOut = (dy * gamma - mean(dy * gamma) - xhat * mean(dy *
// gamma * xhat)) * rstd + dsumOptional, dgammaOut = sum(dy * xhat) and dbetaOut = sum(dy)
// over the rows. This suite checks the definition's three dtype combinations against a
// long-double reference on every SIMD target (SPEC §4: each output within 2^-21 times the sum
// of its terms' magnitudes or 4 ULP, a 16-bit dx its f32 result rounded once), the
// statistics of AddLayerNorm itself, LayerNormBackward's bits when x2 is zero, strided
// operands and a dx that is an input, the bits for any team and core count, empty inputs, and
// every refusal in the order of the generated entry point and the tiling with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16;

// The operands of one call; a null pointer passes a null aclTensor.
struct Grad {
  HostTensor *dy = nullptr, *x1 = nullptr, *x2 = nullptr, *rstd = nullptr, *mean = nullptr,
             *gamma = nullptr, *dsum = nullptr;
  HostTensor *dx = nullptr, *dgamma = nullptr, *dbeta = nullptr;
};

// Both phases on the null stream.
aclnnStatus RunGrad(const Grad& t) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnAddLayerNormGradGetWorkspaceSize(
      Acl(t.dy), Acl(t.x1), Acl(t.x2), Acl(t.rstd), Acl(t.mean), Acl(t.gamma), Acl(t.dsum),
      Acl(t.dx), Acl(t.dgamma), Acl(t.dbeta), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnAddLayerNormGrad(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

void ExpectNear(HostTensor& t, int64_t i, double exact, double terms, const char* what) {
  const double got = t.Get(i);
  const double f32_bound = std::max(4 * Ulp32(exact), std::ldexp(terms, -21));
  ASSERT_LE(std::fabs(got - exact), NormBound(t.dtype(), exact, f32_bound))
      << what << " " << i << ": got " << Num(got) << ", exact " << Num(exact);
}

// dx, dgamma and dbeta against the long-double reference of the inputs' values.
void ExpectGrad(const Grad& t, int64_t cols) {
  const std::vector<double> dy = t.dy->Values(), x1 = t.x1->Values(), x2 = t.x2->Values(),
                            mean = t.mean->Values(), rstd = t.rstd->Values(), g = t.gamma->Values();
  const std::vector<double> dsum = t.dsum != nullptr ? t.dsum->Values() : std::vector<double>{};
  const int64_t rows = static_cast<int64_t>(dy.size()) / cols;
  std::vector<long double> dg(cols, 0.0L), dg_mag(cols, 0.0L), db(cols, 0.0L), db_mag(cols, 0.0L);
  for (int64_t r = 0; r < rows; ++r) {
    const long double m = mean[r], s = rstd[r];
    long double s1 = 0, s2 = 0, mag1 = 0, mag2 = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double xhat = (static_cast<long double>(x1[i]) + x2[i] - m) * s;
      s1 += dy[i] * static_cast<long double>(g[c]);
      s2 += dy[i] * static_cast<long double>(g[c]) * xhat;
      mag1 += std::fabs(dy[i] * g[c]);
      mag2 += std::fabs(dy[i] * g[c] * xhat);
    }
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double x = static_cast<long double>(x1[i]) + x2[i];
      const long double xhat = (x - m) * s;
      const long double add = dsum.empty() ? 0.0L : dsum[i];
      const double exact =
          static_cast<double>((dy[i] * g[c] - (s1 / cols + xhat * (s2 / cols))) * s + add);
      const double terms = static_cast<double>(
          (std::fabs(dy[i] * g[c]) + mag1 / cols + std::fabs(xhat) * mag2 / cols) * std::fabs(s) +
          std::fabs(add));
      ExpectNear(*t.dx, i, exact, terms, "dxOut");
      dg[c] += dy[i] * xhat;
      dg_mag[c] += std::fabs(dy[i] * xhat) + std::fabs(dy[i] * x * s) + std::fabs(dy[i] * m * s);
      db[c] += dy[i];
      db_mag[c] += std::fabs(dy[i]);
    }
  }
  for (int64_t c = 0; c < cols; ++c) {
    ExpectNear(*t.dgamma, c, static_cast<double>(dg[c]), static_cast<double>(dg_mag[c]),
               "dgammaOut");
    ExpectNear(*t.dbeta, c, static_cast<double>(db[c]), static_cast<double>(db_mag[c]), "dbetaOut");
  }
}

// The forward's statistics of x1 + x2 through AddLayerNorm itself (meanOut, rstdOut).
void Forward(HostTensor& x1, HostTensor& x2, HostTensor& gamma, HostTensor* mean,
             HostTensor* rstd) {
  HostTensor beta(gamma.dtype(), gamma.shape()), y(x1.dtype(), x1.shape()),
      x(x1.dtype(), x1.shape());
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnAddLayerNormGetWorkspaceSize(x1.acl(), x2.acl(), gamma.acl(), beta.acl(), nullptr,
                                              1e-5, false, y.acl(), mean->acl(), rstd->acl(),
                                              x.acl(), &ws, &exec),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<char> workspace(ws);
  ASSERT_EQ(aclnnAddLayerNorm(ws ? workspace.data() : nullptr, ws, exec, nullptr), ACLNN_SUCCESS);
}

// Every dtype and shape, with and without dsum, on every SIMD target; mean and rstd from
// AddLayerNorm.
TEST(AddLayerNormGrad, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x401u);
  std::vector<TrailingShape> shapes = ResidualNormShapes();
  shapes.push_back({{197, 33}, {33}});  // four blocks of column sums
  ForEachTarget([&](int64_t) {
    for (const DType d : {f, h, bf}) {
      for (const TrailingShape& s : shapes) {
        for (const bool with_dsum : {false, true}) {
          SCOPED_TRACE(ShapeText(s.x) + " gamma " + ShapeText(s.gamma) + " " + DTypeName(d) +
                       (with_dsum ? " dsum" : ""));
          const std::vector<int64_t> st = StatsShape(s.x, s.gamma.size());
          HostTensor dy(d, s.x), x1(d, s.x), x2(d, s.x), g(d, s.gamma), dsum(d, s.x), mean(f, st),
              rstd(f, st), dx(d, s.x), dgamma(f, s.gamma), dbeta(f, s.gamma);
          dy.Fill(rng, -2.0, 2.0);
          x1.Fill(rng, -3.0, 5.0);
          x2.Fill(rng, -4.0, 2.0);
          g.Fill(rng, -2.0, 2.0);
          dsum.Fill(rng, -1.0, 1.0);
          Forward(x1, x2, g, &mean, &rstd);
          const Grad t{&dy, &x1,     &x2,   &rstd, &mean, &g, with_dsum ? &dsum : nullptr,
                       &dx, &dgamma, &dbeta};
          ASSERT_EQ(RunGrad(t), ACLNN_SUCCESS) << aclGetRecentErrMsg();
          ExpectGrad(t, Numel(s.gamma));
        }
      }
    }
  });
}

// With x2 zero and no dsum, x is x1 and every bit of dx, dgamma and dbeta is
// LayerNormBackward's (weight gamma).
TEST(AddLayerNormGrad, ZeroX2GivesLayerNormBackwardsBits) {
  std::mt19937_64 rng(0x402u);
  for (const DType d : {f, h, bf}) {
    SCOPED_TRACE(DTypeName(d));
    const std::vector<int64_t> s{130, 67};
    HostTensor dy(d, s), x1(d, s), x2(d, s), g(d, {67}), mean(f, {130, 1}), rstd(f, {130, 1}),
        dx(d, s), dgamma(f, {67}), dbeta(f, {67}), dx_ref(d, s), dg_ref(f, {67}), db_ref(f, {67});
    dy.Fill(rng, -2.0, 2.0);
    x1.Fill(rng, -3.0, 3.0);
    for (int64_t i = 0; i < x2.numel(); ++i) x2.Set(i, 0.0);
    g.Fill(rng, -1.0, 1.0);
    Forward(x1, x2, g, &mean, &rstd);
    ASSERT_EQ(RunGrad({&dy, &x1, &x2, &rstd, &mean, &g, nullptr, &dx, &dgamma, &dbeta}),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    const int64_t last = 67;
    aclIntArray* norm = aclCreateIntArray(&last, 1);
    const bool m[3] = {true, true, true};
    aclBoolArray* mask = aclCreateBoolArray(m, 3);
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnLayerNormBackwardGetWorkspaceSize(
                  dy.acl(), x1.acl(), norm, mean.acl(), rstd.acl(), g.acl(), nullptr, mask,
                  const_cast<aclTensor*>(dx_ref.acl()), const_cast<aclTensor*>(dg_ref.acl()),
                  const_cast<aclTensor*>(db_ref.acl()), &ws, &exec),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<char> workspace(ws);
    ASSERT_EQ(aclnnLayerNormBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr),
              ACLNN_SUCCESS);
    aclDestroyIntArray(norm);
    aclDestroyBoolArray(mask);
    EXPECT_EQ(dx.Snapshot(), dx_ref.Snapshot());
    EXPECT_EQ(dgamma.Snapshot(), dg_ref.Snapshot());
    EXPECT_EQ(dbeta.Snapshot(), db_ref.Snapshot());
  }
}

// Strided and transposed operands; dxOut that is dy, then dsum, exactly.
TEST(AddLayerNormGrad, StridesAndAliases) {
  std::mt19937_64 rng(0x403u);
  const std::vector<int64_t> shape{5, 3, 7}, gamma{3, 7}, st{5, 1, 1};
  for (const DType d : {f, h, bf}) {
    for (const Strides l1 : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
      for (const Strides l2 : {Strides::kDense, Strides::kStep2}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " layouts " +
                     std::to_string(static_cast<int>(l1)) + "/" +
                     std::to_string(static_cast<int>(l2)));
        HostTensor dy(d, shape, l1), x1(d, shape, l2), x2(d, shape, l1), g(d, gamma, l2),
            dsum(d, shape, l2), mean(f, st, l1), rstd(f, st, l2), dx(d, shape, l2),
            dgamma(f, gamma, l1), dbeta(f, gamma, l2);
        dy.Fill(rng, -2.0, 2.0);
        x1.Fill(rng, -4.0, 4.0);
        x2.Fill(rng, -4.0, 4.0);
        g.Fill(rng, -2.0, 2.0);
        dsum.Fill(rng, -1.0, 1.0);
        mean.Fill(rng, -0.5, 0.5);
        rstd.Fill(rng, 0.25, 1.0);
        Grad t{&dy, &x1, &x2, &rstd, &mean, &g, &dsum, &dx, &dgamma, &dbeta};
        ASSERT_EQ(RunGrad(t), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectGrad(t, 21);
        // dxOut over dsum exactly: the reference from dsum's values before the call.
        HostTensor dsum_copy(d, shape);
        for (int64_t i = 0; i < dsum.numel(); ++i) dsum_copy.Set(i, dsum.Get(i));
        t.dx = &dsum;
        ASSERT_EQ(RunGrad(t), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        t.dsum = &dsum_copy;
        ExpectGrad(t, 21);
      }
    }
  }
}

// The bits of dx, dgamma and dbeta for 1, 2 and 3 threads and 1 or 48 logical cores.
TEST(AddLayerNormGrad, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x404u);
  for (const DType d : {f, bf}) {
    const std::vector<int64_t> s{301, 515};
    HostTensor dy(d, s), x1(d, s), x2(d, s), g(d, {515}), dsum(d, s), mean(f, {301, 1}),
        rstd(f, {301, 1});
    dy.Fill(rng, -2.0, 2.0);
    x1.Fill(rng, -3.0, 3.0);
    x2.Fill(rng, -3.0, 3.0);
    g.Fill(rng, -1.0, 1.0);
    dsum.Fill(rng, -1.0, 1.0);
    Forward(x1, x2, g, &mean, &rstd);
    std::vector<uint8_t> first[3];
    for (int team : {1, 2, 3}) {
      for (int cores : {0, 1, 48}) {
        SCOPED_TRACE(std::string(DTypeName(d)) + " threads " + std::to_string(team) + " cores " +
                     std::to_string(cores));
        omp_set_num_threads(team);
        HostTensor dx(d, s), dgamma(f, {515}), dbeta(f, {515});
        OpArgs a;
        a.op = Op::kAddLayerNormGrad;
        const HostTensor* ins[] = {&dy, &x1, &x2, &rstd, &mean, &g, &dsum};
        for (int k = 0; k < 7; ++k) a.in[k] = &ins[k]->view();
        a.out[0] = &dx.view();
        a.out[1] = &dgamma.view();
        a.out[2] = &dbeta.view();
        tiling::Options options;
        options.num_cores = cores;
        const Status st = hostnn::Run(a, options);
        ASSERT_TRUE(st.ok()) << st.message();
        if (first[0].empty()) {
          first[0] = dx.Snapshot(), first[1] = dgamma.Snapshot(), first[2] = dbeta.Snapshot();
          ExpectGrad({&dy, &x1, &x2, &rstd, &mean, &g, &dsum, &dx, &dgamma, &dbeta}, 515);
        }
        EXPECT_EQ(dx.Snapshot(), first[0]);
        EXPECT_EQ(dgamma.Snapshot(), first[1]);
        EXPECT_EQ(dbeta.Snapshot(), first[2]);
      }
    }
  }
  omp_set_num_threads(threads);
}

// The A2 tiling takes no empty tensor: an empty gamma, x1 or mean is refused (561002),
// nothing written.
TEST(AddLayerNormGrad, EmptyInputsRefused) {
  struct Case {
    std::vector<int64_t> x, gamma, stats;
    const char* names;
  };
  for (const Case& c : {Case{{2, 0}, {0}, {2, 1}, "gamma must not be empty"},
                        Case{{0, 4}, {4}, {0, 1}, "x1 must not be empty"}}) {
    SCOPED_TRACE(ShapeText(c.x));
    HostTensor dy(f, c.x), x1(f, c.x), x2(f, c.x), g(f, c.gamma), mean(f, c.stats),
        rstd(f, c.stats), dx(f, c.x), dgamma(f, c.gamma), dbeta(f, c.gamma);
    const std::vector<uint8_t> g0 = dgamma.Snapshot(), b0 = dbeta.Snapshot();
    EXPECT_EQ(RunGrad({&dy, &x1, &x2, &rstd, &mean, &g, nullptr, &dx, &dgamma, &dbeta}),
              ACLNN_ERR_INNER_TILING_ERROR);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(c.names), std::string::npos)
        << aclGetRecentErrMsg();
    EXPECT_EQ(dgamma.Snapshot(), g0);
    EXPECT_EQ(dbeta.Snapshot(), b0);
  }
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(AddLayerNormGrad, RefusalsWriteNothing) {
  const DType d = DType::kFloat64;
  using Shape = std::vector<int64_t>;
  // dy, x1, x2, rstd, mean, gamma, dsum, dx, dgamma, dbeta.
  struct Case {
    const char* what;
    DType t[10];
    Shape s[10];
    aclnnStatus status;
    const char* names;
  };
  const Shape s{2, 3, 4}, n{4}, st{2, 3, 1};
  const Shape nine{1, 1, 1, 1, 1, 1, 1, 2, 4}, nine_st{1, 1, 1, 1, 1, 1, 1, 2, 1};
  const aclnnStatus kInvalid = ACLNN_ERR_PARAM_INVALID, kTiling = ACLNN_ERR_INNER_TILING_ERROR;
  const DType ok[10] = {f, f, f, f, f, f, f, f, f, f};
  const Shape good[10] = {s, s, s, st, st, n, s, s, n, n};
  // A case from the good one with slot k's dtype or shape changed.
  const auto with = [&](const char* what, int k, DType t, Shape sh, aclnnStatus status,
                        const char* names) {
    Case c{what, {}, {}, status, names};
    for (int j = 0; j < 10; ++j) c.t[j] = ok[j], c.s[j] = good[j];
    c.t[k] = t;
    c.s[k] = std::move(sh);
    return c;
  };
  std::vector<Case> cases = {
      // The definition's dtypes (161002).
      with("DOUBLE dy", 0, d, s, kInvalid, "dy"),
      with("x1 unlike dy", 1, h, s, kInvalid, "x1"),
      with("x2 unlike dy", 2, bf, s, kInvalid, "x2"),
      with("FLOAT16 rstd", 3, h, st, kInvalid, "rstd"),
      with("BFLOAT16 mean", 4, bf, st, kInvalid, "mean"),
      with("gamma unlike dy", 5, h, n, kInvalid, "gamma"),
      with("dsum unlike dy", 6, h, s, kInvalid, "dsumOptional"),
      with("dxOut unlike dy", 7, bf, s, kInvalid, "dxOut"),
      with("FLOAT16 dgammaOut", 8, h, n, kInvalid, "dgammaOut"),
      with("FLOAT16 dbetaOut", 9, h, n, kInvalid, "dbetaOut"),
      // The tiling's shapes (561002).
      with("empty gamma", 5, f, {0}, kTiling, "gamma"),
      with("gamma of no dim", 5, f, {}, kTiling, "gamma"),
      with("rstd rank", 3, f, {6, 1}, kTiling, "rstd"),
      with("mean rank", 4, f, {6}, kTiling, "mean"),
      with("dgammaOut rank", 8, f, {1, 4}, kTiling, "dgammaOut"),
      with("dbetaOut rank", 9, f, {1, 4}, kTiling, "dbetaOut"),
      with("x1 shape", 1, f, {2, 4, 3}, kTiling, "x1"),
      with("x2 shape", 2, f, {3, 2, 4}, kTiling, "x2"),
      with("dxOut shape", 7, f, {2, 3, 5}, kTiling, "dxOut"),
      with("rstd unlike mean", 3, f, {2, 1, 1}, kTiling, "rstd"),
      with("gamma unlike dy's last dims", 5, f, {5}, kTiling, "gamma"),
      with("dgammaOut unlike dy's last dims", 8, f, {3}, kTiling, "dgammaOut"),
      with("dbetaOut unlike dy's last dims", 9, f, {5}, kTiling, "dbetaOut"),
      // hostnn's: dsum of another shape than dy.
      with("dsum shape", 6, f, {3, 4}, kTiling, "dsumOptional"),
  };
  {  // x1 of 9 dims (and dy, x2, dx, mean, rstd with it), more than the tiling takes.
    Case c = with("x1 of 9 dims", 1, f, nine, kTiling, "x1");
    for (int k : {0, 2, 6, 7}) c.s[k] = nine;
    c.s[3] = c.s[4] = nine_st;
    cases.push_back(c);
    Case e = with("gamma of more dims than dy", 5, f, {1, 4}, kTiling, "gamma");
    for (int k : {0, 1, 2, 6, 7}) e.s[k] = n;
    e.s[3] = e.s[4] = {1};
    e.s[8] = e.s[9] = {1, 4};
    cases.push_back(e);
    Case m = with("empty mean", 4, f, {0, 3, 1}, kTiling, "x1");  // dy, x1 empty too
    for (int k : {0, 1, 2, 6, 7}) m.s[k] = {0, 3, 4};
    m.s[3] = {0, 3, 1};
    cases.push_back(m);
    Case one = with("mean's normalised dim not 1", 4, f, s, kTiling, "mean");
    one.s[3] = s;  // rstd mean's
    cases.push_back(one);
    Case two = with("dtype before shape", 9, h, {7}, kInvalid, "dbetaOut");
    cases.push_back(two);
  }
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<std::unique_ptr<HostTensor>> own;
    HostTensor* t[10] = {};
    for (int k = 0; k < 10; ++k) {
      own.emplace_back(new HostTensor(c.t[k], c.s[k]));
      t[k] = own.back().get();
    }
    std::vector<std::vector<uint8_t>> before;
    for (int k = 7; k < 10; ++k) before.push_back(t[k]->Snapshot());
    EXPECT_EQ(RunGrad({t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]}), c.status);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find(c.names), std::string::npos) << m;
    for (int k = 7; k < 10; ++k) EXPECT_EQ(t[k]->Snapshot(), before[k - 7]) << k;
  }
  // Nulls (161001): every tensor but dsumOptional, in the prototype's order.
  const char* names[] = {"dy",    "x1", "x2",    "rstd",      "mean",
                         "gamma", "",   "dxOut", "dgammaOut", "dbetaOut"};
  for (int k = 0; k < 10; ++k) {
    if (k == 6) continue;
    std::vector<std::unique_ptr<HostTensor>> own;
    HostTensor* t[10] = {};
    for (int j = 0; j < 10; ++j) {
      own.emplace_back(new HostTensor(ok[j], good[j]));
      if (j != k && j != 6) t[j] = own.back().get();
    }
    EXPECT_EQ(RunGrad({t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8], t[9]}),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // dgammaOut and dbetaOut one tensor: outputs that share memory.
  HostTensor dy(f, s), x1(f, s), x2(f, s), rstd(f, st), mean(f, st), g(f, n), dx(f, s),
      dgamma(f, n);
  const std::vector<uint8_t> g0 = dgamma.Snapshot();
  EXPECT_EQ(RunGrad({&dy, &x1, &x2, &rstd, &mean, &g, nullptr, &dx, &dgamma, &dgamma}),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dbetaOut"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(dgamma.Snapshot(), g0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
