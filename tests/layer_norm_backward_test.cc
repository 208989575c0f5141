// LayerNormBackward: from gradOut, input, the forward's mean and rstd and weightOptional (1
// where null), per row xhat = (x - mean) * rstd and gradInputOut = (dy g - mean(dy g) - xhat
// mean(dy g xhat)) * rstd; over the rows gradWeightOut = sum(dy xhat) and gradBiasOut =
// sum(dy); outputMask picks the outputs. The list-driven suites cannot build its operands
// (tests/util/capi_ops.h, HasOwnSuite): this suite checks every output against a long-double
// reference on every SIMD target (SPEC §4: within 2^-21 times the sum of their terms'
// magnitudes, 16-bit outputs that plus half an ULP) for the op_api's dtype combinations, every
// outputMask, weight left out, strided and in-place operands, the bits for any team and core
// count, empty inputs (gradWeightOut and gradBiasOut zeroed), and every refusal in the op_api's
// order with nothing written.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_layer_norm_backward.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

struct IntArrayDeleter {
  void operator()(aclIntArray* a) const { aclDestroyIntArray(a); }
};
struct BoolArrayDeleter {
  void operator()(aclBoolArray* a) const { aclDestroyBoolArray(a); }
};

// Both phases on the null stream.
aclnnStatus RunBackward(const aclTensor* dy, const aclTensor* x, const aclIntArray* norm,
                        const aclTensor* mean, const aclTensor* rstd, const aclTensor* w,
                        const aclTensor* b, const aclBoolArray* mask, aclTensor* dx, aclTensor* dw,
                        aclTensor* db) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = aclnnLayerNormBackwardGetWorkspaceSize(dy, x, norm, mean, rstd, w, b, mask,
                                                                dx, dw, db, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnLayerNormBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

struct Tensors {
  HostTensor* dy;
  HostTensor* x;
  HostTensor* mean;
  HostTensor* rstd;
  HostTensor* w;  // null: not given
  HostTensor* b;
  HostTensor* dx;
  HostTensor* dw;
  HostTensor* db;
};
aclnnStatus RunT(const Tensors& t, const std::vector<int64_t>& norm, std::vector<bool> mask) {
  const std::unique_ptr<aclIntArray, IntArrayDeleter> a(
      aclCreateIntArray(norm.data(), norm.size()));
  bool m[8] = {};
  for (size_t i = 0; i < mask.size(); ++i) m[i] = mask[i];
  const std::unique_ptr<aclBoolArray, BoolArrayDeleter> ma(aclCreateBoolArray(m, mask.size()));
  const auto acl = [](HostTensor* h) { return h == nullptr ? nullptr : h->acl(); };
  return RunBackward(acl(t.dy), acl(t.x), a.get(), acl(t.mean), acl(t.rstd), acl(t.w), acl(t.b),
                     ma.get(), acl(t.dx), acl(t.dw), acl(t.db));
}

void ExpectNear(HostTensor& t, int64_t i, double exact, double terms, const char* what) {
  const double got = t.Get(i);
  const double f32_bound = std::max(4 * Ulp32(exact), std::ldexp(terms, -21));
  ASSERT_LE(std::fabs(got - exact), NormBound(t.dtype(), exact, f32_bound))
      << what << " " << i << ": got " << Num(got) << ", exact " << Num(exact);
}

// Every output asked for against the long-double reference of the inputs' values.
void ExpectBackward(const std::vector<double>& dy, const std::vector<double>& x,
                    const std::vector<double>& mean, const std::vector<double>& rstd,
                    const std::vector<double>& g, int64_t cols, const Tensors& t,
                    const std::vector<bool>& mask) {
  const int64_t rows = static_cast<int64_t>(dy.size()) / cols;
  std::vector<long double> dw(cols, 0.0L), dw_mag(cols, 0.0L), db(cols, 0.0L), db_mag(cols, 0.0L);
  for (int64_t r = 0; r < rows; ++r) {
    const long double m = mean[r], s = rstd[r];
    long double s1 = 0, s2 = 0, mag1 = 0, mag2 = 0;
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double gc = g.empty() ? 1.0L : g[c];
      const long double xhat = (x[i] - m) * s;
      s1 += dy[i] * gc;
      s2 += dy[i] * gc * xhat;
      mag1 += std::fabs(dy[i] * gc);
      mag2 += std::fabs(dy[i] * gc * xhat);
    }
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t i = r * cols + c;
      const long double gc = g.empty() ? 1.0L : g[c];
      const long double xhat = (x[i] - m) * s;
      if (mask[0]) {
        const double exact =
            static_cast<double>((dy[i] * gc - (s1 / cols + xhat * (s2 / cols))) * s);
        const double terms = static_cast<double>(
            (std::fabs(dy[i] * gc) + mag1 / cols + std::fabs(xhat) * mag2 / cols) * std::fabs(s));
        ExpectNear(*t.dx, i, exact, terms, "gradInput");
      }
      dw[c] += dy[i] * xhat;
      dw_mag[c] += std::fabs(dy[i] * xhat) + std::fabs(dy[i] * x[i] * s) + std::fabs(dy[i] * m * s);
      db[c] += dy[i];
      db_mag[c] += std::fabs(dy[i]);
    }
  }
  for (int64_t c = 0; c < cols; ++c) {
    if (mask[1]) {
      ExpectNear(*t.dw, c, static_cast<double>(dw[c]), static_cast<double>(dw_mag[c]),
                 "gradWeight");
    }
    if (mask[2]) {
      ExpectNear(*t.db, c, static_cast<double>(db[c]), static_cast<double>(db_mag[c]), "gradBias");
    }
  }
}

struct ShapeCase {
  std::vector<int64_t> x, norm;
};
const ShapeCase kShapes[] = {{{2, 2}, {2}},
                             {{4, 8}, {8}},
                             {{3, 5}, {5}},
                             {{2, 3, 17}, {3, 17}},
                             {{7, 1}, {1}},
                             {{6}, {6}},
                             {{2, 2, 3, 4}, {2, 3, 4}},
                             {{3, 1000}, {1000}},
                             {{2, 4099}, {4099}},
                             {{130, 64}, {64}}};

// (gradOut and input, mean and rstd, weight, the three outputs) dtypes: the op_api's list.
struct DTypeCase {
  DType x, stats, w, dx, dw;
};
const DTypeCase kDTypes[] = {
    {DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32, DType::kFloat32},
    {DType::kFloat16, DType::kFloat32, DType::kFloat16, DType::kFloat16, DType::kFloat32},
    {DType::kBFloat16, DType::kFloat32, DType::kFloat32, DType::kBFloat16, DType::kFloat32},
    {DType::kFloat16, DType::kFloat16, DType::kFloat32, DType::kFloat32, DType::kFloat16},
    {DType::kBFloat16, DType::kBFloat16, DType::kBFloat16, DType::kFloat16, DType::kBFloat16},
};

// Draws the inputs: dy in [-2, 2], x in [-3, 3], mean in [-1, 1], rstd in [0.25, 2], weight in
// [-2, 2].
void FillInputs(std::mt19937_64& rng, const Tensors& t) {
  t.dy->Fill(rng, -2.0, 2.0);
  t.x->Fill(rng, -3.0, 3.0);
  t.mean->Fill(rng, -1.0, 1.0);
  t.rstd->Fill(rng, 0.25, 2.0);
  if (t.w != nullptr) t.w->Fill(rng, -2.0, 2.0);
}
std::vector<double> ValuesOr(HostTensor* t) {
  return t == nullptr ? std::vector<double>{} : t->Values();
}

TEST(LayerNormBackward, EveryShapeAndDTypeOnEveryTarget) {
  std::mt19937_64 rng(0x1B0u);
  ForEachTarget([&](int64_t) {
    for (const DTypeCase& d : kDTypes) {
      for (const ShapeCase& c : kShapes) {
        SCOPED_TRACE(ShapeText(c.x) + " norm " + ShapeText(c.norm) + " x " + DTypeName(d.x) +
                     " stats " + DTypeName(d.stats) + " w " + DTypeName(d.w) + " dx " +
                     DTypeName(d.dx) + " dw " + DTypeName(d.dw));
        int64_t cols = 1;
        for (int64_t v : c.norm) cols *= v;
        std::vector<int64_t> stats_shape = c.x;
        for (size_t i = c.x.size() - c.norm.size(); i < c.x.size(); ++i) stats_shape[i] = 1;
        HostTensor dy(d.x, c.x), x(d.x, c.x), mean(d.stats, stats_shape),
            rstd(d.stats, stats_shape), w(d.w, c.norm), b(d.w, c.norm), dx(d.dx, c.x),
            dw(d.dw, c.norm), db(d.dw, c.norm);
        const Tensors t{&dy, &x, &mean, &rstd, &w, &b, &dx, &dw, &db};
        FillInputs(rng, t);
        ASSERT_EQ(RunT(t, c.norm, {true, true, true}), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), w.Values(), cols, t,
                       {true, true, true});
      }
    }
  });
}

// Every outputMask (an output left out is not written, even where given), weight left out
// (1), strided and transposed operands, gradInput in place over gradOut or input.
TEST(LayerNormBackward, MasksWeightStridesAndInPlace) {
  std::mt19937_64 rng(0x1B1u);
  const DType f = DType::kFloat32;
  const std::vector<int64_t> shape{5, 3, 7}, norm{3, 7};
  for (const Strides l : {Strides::kDense, Strides::kStep2, Strides::kTransposed}) {
    for (int mask = 0; mask < 16; ++mask) {
      SCOPED_TRACE("layout " + std::to_string(static_cast<int>(l)) + " mask " +
                   std::to_string(mask));
      const std::vector<bool> m{(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0};
      const bool weight = (mask & 8) != 0;
      HostTensor dy(f, shape, l), x(f, shape), mean(f, {5, 1, 1}), rstd(f, {5, 1, 1}),
          w(f, norm, l), dx(f, shape, l), dw(f, norm), db(f, {21});
      const Tensors t{&dy, &x, &mean, &rstd, weight ? &w : nullptr, nullptr, &dx, &dw, &db};
      FillInputs(rng, t);
      const std::vector<uint8_t> dx0 = dx.Snapshot(), dw0 = dw.Snapshot(), db0 = db.Snapshot();
      ASSERT_EQ(RunT(t, norm, m), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), ValuesOr(t.w), 21, t,
                     m);
      HostTensor* outs[] = {&dx, &dw, &db};
      const std::vector<uint8_t>* before[] = {&dx0, &dw0, &db0};
      for (int k = 0; k < 3; ++k) {
        if (!m[static_cast<size_t>(k)]) {
          EXPECT_EQ(outs[k]->Snapshot(), *before[k]) << k;
        }
      }
    }
  }
  for (int over : {0, 1}) {  // gradInput is gradOut, then input
    SCOPED_TRACE(over == 0 ? "over gradOut" : "over input");
    HostTensor dy(f, {6, 9}), x(f, {6, 9}), mean(f, {6}), rstd(f, {6}), w(f, {9}), dw(f, {9}),
        db(f, {9});
    HostTensor& dx = over == 0 ? dy : x;
    const Tensors t{&dy, &x, &mean, &rstd, &w, nullptr, &dx, &dw, &db};
    FillInputs(rng, t);
    const std::vector<double> dyv = dy.Values(), xv = x.Values();
    ASSERT_EQ(RunT(t, {9}, {true, true, true}), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ExpectBackward(dyv, xv, mean.Values(), rstd.Values(), w.Values(), 9, t, {true, true, true});
  }
}

// The bits of every output for 1, 2 and 3 threads and 1 or 48 logical cores, over 301 rows
// (the column sums' blocks of 64 rows end off a core's boundary), and of the column sums
// with and without dx.
TEST(LayerNormBackward, SameBitsForAnyTeamAndCoreCount) {
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(0x1B2u);
  const DType f = DType::kFloat32;
  HostTensor dy(f, {301, 517}), x(f, {301, 517}), mean(f, {301}), rstd(f, {301}), w(f, {517});
  FillInputs(rng, {&dy, &x, &mean, &rstd, &w, nullptr, nullptr, nullptr, nullptr});
  std::vector<uint8_t> first[3];
  for (int team : {1, 2, 3}) {
    for (int cores : {0, 1, 48}) {
      SCOPED_TRACE("threads " + std::to_string(team) + " cores " + std::to_string(cores));
      omp_set_num_threads(team);
      HostTensor dx(f, {301, 517}), dw(f, {517}), db(f, {517});
      OpArgs a;
      a.op = Op::kLayerNormBackward;
      const TensorView* ins[] = {&dy.view(), &x.view(), &mean.view(), &rstd.view(), &w.view()};
      for (int k = 0; k < 5; ++k) a.in[k] = ins[k];
      a.out[0] = &dx.view();
      a.out[1] = &dw.view();
      a.out[2] = &db.view();
      a.int_array = {517};
      a.int_array_given = true;
      a.bool_array = {true, true, true};
      a.bool_array_given = true;
      tiling::Options options;
      options.num_cores = cores;
      const Status s = hostnn::Run(a, options);
      ASSERT_TRUE(s.ok()) << s.message();
      HostTensor* outs[] = {&dx, &dw, &db};
      if (first[0].empty()) {
        for (int k = 0; k < 3; ++k) first[k] = outs[k]->Snapshot();
        ExpectBackward(dy.Values(), x.Values(), mean.Values(), rstd.Values(), w.Values(), 517,
                       {&dy, &x, &mean, &rstd, &w, nullptr, &dx, &dw, &db}, {true, true, true});
      }
      for (int k = 0; k < 3; ++k) EXPECT_EQ(outs[k]->Snapshot(), first[k]) << k;
      // Without dx the column sums take their own pass (with dx, the row's output pass adds
      // them): the same bits.
      HostTensor dw2(f, {517}), db2(f, {517});
      a.out[0] = nullptr;
      a.out[1] = &dw2.view();
      a.out[2] = &db2.view();
      a.bool_array = {false, true, true};
      const Status s2 = hostnn::Run(a, options);
      ASSERT_TRUE(s2.ok()) << s2.message();
      EXPECT_EQ(dw2.Snapshot(), first[1]);
      EXPECT_EQ(db2.Snapshot(), first[2]);
    }
  }
  omp_set_num_threads(threads);
}

// No row: gradWeightOut and gradBiasOut asked for are zeroed, gradInputOut untouched; rows of
// no element, or no output asked for: success, nothing written.
TEST(LayerNormBackward, EmptyInputsAndNothingAskedFor) {
  const DType f = DType::kFloat32;
  HostTensor dy(f, {0, 4}), x(f, {0, 4}), mean(f, {0}), rstd(f, {0}), dx(f, {0, 4}), dw(f, {4}),
      db(f, {4});
  ASSERT_EQ(RunT({&dy, &x, &mean, &rstd, nullptr, nullptr, &dx, &dw, &db}, {4}, {true, true, true}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  for (int c = 0; c < 4; ++c) {
    EXPECT_EQ(dw.Get(c), 0.0);
    EXPECT_EQ(db.Get(c), 0.0);
  }
  HostTensor dy2(f, {3, 0}), x2(f, {3, 0}), mean2(f, {3}), rstd2(f, {3}), dx2(f, {3, 0}),
      dw2(f, {0}), db2(f, {0});
  const std::vector<uint8_t> m0 = mean2.Snapshot();
  ASSERT_EQ(RunT({&dy2, &x2, &mean2, &rstd2, nullptr, nullptr, &dx2, &dw2, &db2}, {0},
                 {true, true, true}),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(mean2.Snapshot(), m0);
  std::mt19937_64 rng(0x1B3u);
  HostTensor dy3(f, {2, 4}), x3(f, {2, 4}), mean3(f, {2}), rstd3(f, {2}), dx3(f, {2, 4});
  FillInputs(rng, {&dy3, &x3, &mean3, &rstd3, nullptr, nullptr, nullptr, nullptr, nullptr});
  const std::vector<uint8_t> dx0 = dx3.Snapshot();
  ASSERT_EQ(RunT({&dy3, &x3, &mean3, &rstd3, nullptr, nullptr, &dx3, nullptr, nullptr}, {4},
                 {false, false, false}),
            ACLNN_SUCCESS);
  EXPECT_EQ(dx3.Snapshot(), dx0);
}

// Every refusal: its status, a message naming what is wrong, nothing written.
TEST(LayerNormBackward, RefusalsWriteNothing) {
  const DType f = DType::kFloat32, h = DType::kFloat16, bf = DType::kBFloat16, d = DType::kFloat64;
  struct Case {
    const char* what;
    DType dy, x, stats, w, dx;
    std::vector<int64_t> dys, xs, norm, ms, ws, dxs, dws;
    std::vector<bool> mask;
    const char* names;
  };
  const std::vector<int64_t> s{2, 3, 4}, n{4}, m{2, 3, 1};
  const std::vector<bool> all{true, true, true};
  const Case cases[] = {
      {"outputMask of 2", f, f, f, f, f, s, s, n, m, n, s, n, {true, true}, "outputMask"},
      {"DOUBLE gradOut", d, d, f, f, f, s, s, n, m, n, s, n, all, "gradOut"},
      {"DOUBLE mean", f, f, d, f, f, s, s, n, m, n, s, n, all, "mean"},
      {"gradOut unlike input", h, f, f, f, f, s, s, n, m, n, s, n, all, "gradOut"},
      {"weight neither FLOAT nor input's", h, h, f, bf, h, s, s, n, m, n, s, n, all,
       "weightOptional"},
      {"DOUBLE gradInputOut", f, f, f, f, d, s, s, n, m, n, s, n, all, "gradInputOut"},
      {"9 dims",
       f,
       f,
       f,
       f,
       f,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       n,
       {2},
       n,
       {1, 1, 1, 1, 1, 1, 1, 2, 4},
       n,
       all,
       "gradOut"},
      {"empty normalizedShape", f, f, f, f, f, s, s, {}, m, {}, s, n, all, "normalizedShape"},
      {"more normalised dims than input",
       f,
       f,
       f,
       f,
       f,
       {4},
       {4},
       {1, 4},
       {1},
       {1, 4},
       {4},
       {1, 4},
       all,
       "input"},
      {"input's last dims unlike normalizedShape",
       f,
       f,
       f,
       f,
       f,
       s,
       s,
       {3},
       m,
       {3},
       s,
       {3},
       all,
       "input"},
      {"weight's shape", f, f, f, f, f, s, s, n, m, {5}, s, n, all, "weightOptional"},
      {"gradOut's shape", f, f, f, f, f, {2, 4, 3}, s, n, m, n, s, n, all, "gradOut"},
      {"mean's elements", f, f, f, f, f, s, s, n, {5}, n, s, n, all, "mean"},
      {"gradInputOut's shape", f, f, f, f, f, s, s, n, m, n, {6, 4}, n, all, "gradInputOut"},
      {"gradWeightOut's elements", f, f, f, f, f, s, s, n, m, n, s, {5}, all, "gradWeightOut"},
      // Two faults: the dtype is checked before the shapes, as CANN's op_api.
      {"dtype before shape", d, d, f, f, f, s, s, {3}, m, n, s, n, all, "gradOut"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    HostTensor dy(c.dy, c.dys), x(c.x, c.xs), mean(c.stats, c.ms), rstd(c.stats, c.ms),
        w(c.w, c.ws), dx(c.dx, c.dxs), dw(f, c.dws), db(f, c.dws);
    const std::vector<uint8_t> dx0 = dx.Snapshot(), dw0 = dw.Snapshot(), db0 = db.Snapshot();
    EXPECT_EQ(RunT({&dy, &x, &mean, &rstd, &w, nullptr, &dx, &dw, &db}, c.norm, c.mask),
              ACLNN_ERR_PARAM_INVALID);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find(c.names), std::string::npos) << msg;
    EXPECT_EQ(dx.Snapshot(), dx0);
    EXPECT_EQ(dw.Snapshot(), dw0);
    EXPECT_EQ(db.Snapshot(), db0);
  }
  // Nulls (161001): gradOut, input, normalizedShape, mean, rstd, outputMask, and an output
  // the mask asks for.
  HostTensor dy(f, s), x(f, s), mean(f, m), rstd(f, m), dx(f, s), dw(f, n), db(f, n);
  const std::unique_ptr<aclIntArray, IntArrayDeleter> norm(aclCreateIntArray(n.data(), 1));
  bool yes[3] = {true, true, true};
  const std::unique_ptr<aclBoolArray, BoolArrayDeleter> mask(aclCreateBoolArray(yes, 3));
  const aclTensor* ins[5] = {dy.acl(), x.acl(), nullptr, mean.acl(), rstd.acl()};
  const char* names[] = {"gradOut",    "input",        "normalizedShape", "mean",       "rstd",
                         "outputMask", "gradInputOut", "gradWeightOut",   "gradBiasOut"};
  for (int k = 0; k < 9; ++k) {
    const aclTensor* in[5];
    for (int j = 0; j < 5; ++j) in[j] = j == k ? nullptr : ins[j];
    aclTensor* outs[3] = {dx.acl(), dw.acl(), db.acl()};
    if (k >= 6) outs[k - 6] = nullptr;
    EXPECT_EQ(RunBackward(in[0], in[1], k == 2 ? nullptr : norm.get(), in[3], in[4], nullptr,
                          nullptr, k == 5 ? nullptr : mask.get(), outs[0], outs[1], outs[2]),
              ACLNN_ERR_PARAM_NULLPTR)
        << names[k];
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(names[k]), std::string::npos) << names[k];
  }
  // An output the mask leaves out may be null.
  bool no_dx[3] = {false, true, true};
  const std::unique_ptr<aclBoolArray, BoolArrayDeleter> mask2(aclCreateBoolArray(no_dx, 3));
  EXPECT_EQ(RunBackward(dy.acl(), x.acl(), norm.get(), mean.acl(), rstd.acl(), nullptr, nullptr,
                        mask2.get(), nullptr, dw.acl(), db.acl()),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  // gradWeightOut and gradBiasOut may not share memory.
  const std::vector<uint8_t> dw0 = dw.Snapshot();
  EXPECT_EQ(RunBackward(dy.acl(), x.acl(), norm.get(), mean.acl(), rstd.acl(), nullptr, nullptr,
                        mask2.get(), nullptr, dw.acl(), dw.acl()),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(dw.Snapshot(), dw0);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
