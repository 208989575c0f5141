// EmbeddingDenseBackward: out[w, :] = the sum of grad's rows whose index is w (divided by their
// count with scaleGradByFreq), paddingIdx's row 0. Every element of out is checked against a
// double-precision reference built here from the row-major walk of indices and grad (independent
// of the executor's sort, fused layouts and core split): within SPEC §4's sum bound (2^-21 times
// the sum of the magnitudes of its terms; a 16-bit out that plus half its ULP), a row named once
// bitwise grad's row where the dtypes match, a row named by none (or paddingIdx's) +0. Over the
// three grad and three out dtypes, the nine index dtypes, strided, offset and transposed views,
// several core counts and teams, with out's bits the same for every (team, cores) pair and the
// bytes around out's elements as they were. Then the index conversions, the run-time index check
// (nothing written), the checks in the op_api's order, the empty inputs, the streamed path.

#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "hostnn/ops.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kFloatTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
const DType kIndexTypes[] = {DType::kInt64,   DType::kInt32,   DType::kInt16,
                             DType::kInt8,    DType::kUInt8,   DType::kBool,
                             DType::kFloat32, DType::kFloat16, DType::kFloat64};

OpArgs Args(const HostTensor& grad, const HostTensor& indices, const HostTensor& out,
            int64_t num_weights, int64_t padding_idx, bool scale) {
  OpArgs a;
  a.op = Op::kEmbeddingDenseBackward;
  a.in[0] = &grad.view();
  a.in[1] = &indices.view();
  a.out[0] = &out.view();
  a.scalars[0] = OpScalar{true, static_cast<double>(num_weights), DType::kInt64};
  a.scalars[0].int_value = num_weights;
  a.scalars[1] = OpScalar{true, static_cast<double>(padding_idx), DType::kInt64};
  a.scalars[1].int_value = padding_idx;
  a.scalars[2] = OpScalar{true, scale ? 1.0 : 0.0, DType::kBool};
  return a;
}

// The exact result: per out element, the double sum of its terms in any order (a test value's
// terms are exact in double, their sum within 2^-50 of them) and the sum of their magnitudes.
struct Reference {
  std::vector<double> value, magnitude;
  std::vector<int64_t> count;  // terms per out row (paddingIdx's row: 0)
};

Reference Sums(const HostTensor& grad, const std::vector<int64_t>& rows, int64_t num_weights,
               int64_t padding_idx, bool scale) {
  const int64_t d = grad.shape().back();
  Reference r;
  r.value.assign(static_cast<size_t>(num_weights * d), 0.0);
  r.magnitude.assign(r.value.size(), 0.0);
  r.count.assign(static_cast<size_t>(num_weights), 0);
  std::vector<int64_t> all(static_cast<size_t>(num_weights), 0);
  for (size_t p = 0; p < rows.size(); ++p) {
    const int64_t w = rows[p];
    ++all[static_cast<size_t>(w)];
    if (w == padding_idx) continue;
    ++r.count[static_cast<size_t>(w)];
    for (int64_t c = 0; c < d; ++c) {
      const double v = grad.Get(static_cast<int64_t>(p) * d + c);
      r.value[static_cast<size_t>(w * d + c)] += v;
      r.magnitude[static_cast<size_t>(w * d + c)] += std::fabs(v);
    }
  }
  if (scale) {
    for (int64_t w = 0; w < num_weights; ++w) {
      for (int64_t c = 0; c < d && all[static_cast<size_t>(w)] > 0; ++c) {
        r.value[static_cast<size_t>(w * d + c)] /= static_cast<double>(all[static_cast<size_t>(w)]);
        r.magnitude[static_cast<size_t>(w * d + c)] /=
            static_cast<double>(all[static_cast<size_t>(w)]);
      }
    }
  }
  return r;
}

// out's elements against the reference; every other byte of out's storage as `before` had it.
void ExpectSums(const HostTensor& grad, const Reference& ref, const HostTensor& out,
                const std::vector<uint8_t>& before) {
  const int64_t d = grad.shape().back();
  const size_t bytes = DTypeSize(out.dtype());
  for (int64_t e = 0; e < out.numel(); ++e) {
    const size_t k = static_cast<size_t>(e);
    const int64_t w = e / d;
    const double got = out.Get(e);
    const double exact = ref.value[k];
    if (ref.count[static_cast<size_t>(w)] == 0) {  // +0, bitwise
      for (size_t b = 0; b < bytes; ++b) ASSERT_EQ(out.Bytes(e)[b], 0) << "element " << e;
    } else if (std::isnan(exact)) {
      ASSERT_TRUE(std::isnan(got)) << "element " << e;
    } else if (std::isinf(exact)) {
      ASSERT_EQ(got, exact) << "element " << e;
    } else {
      const double bound =
          std::ldexp(ref.magnitude[k], -21) +
          (out.dtype() == DType::kFloat32
               ? 0.0
               : 0.5 * std::max(UlpOf(out.dtype(), exact), UlpOf(out.dtype(), got)));
      ASSERT_LE(std::fabs(got - exact), bound)
          << "element " << e << " (row " << w << ", " << ref.count[static_cast<size_t>(w)]
          << " terms): got " << got << ", exact " << exact;
    }
  }
  ASSERT_EQ(out.FirstChangeOutsideElements(before), -1);
}

// Index k of a test: a row number stored in `indices`' dtype (BOOL: 0 or 1).
void SetRow(HostTensor* indices, int64_t i, int64_t row) {
  indices->Set(i, static_cast<double>(row));
}

struct Case {
  std::vector<int64_t> grad_shape, index_shape;
  int64_t num_weights;
};

TEST(EmbeddingDenseBackward, SumsEveryDTypeLayoutAndCoreSplit) {
  // grad's leading dims need not be indices' shape, only hold as many rows.
  const Case cases[] = {{{4, 3}, {4}, 10},    {{6, 5}, {2, 3}, 4}, {{2, 3, 7}, {6}, 3},
                        {{37, 17}, {37}, 40}, {{5, 1}, {5}, 2},    {{3, 4, 129}, {12}, 5},
                        {{9}, {}, 2} /* 1-D grad: one row, a 0-d index */};
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  const struct {
    int team;
    int64_t cores;
  } splits[] = {{1, 1}, {2, 2}, {3, 5}, {2, 48}};
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(7);
  int run = 0;
  for (const DType gdt : kFloatTypes) {
    for (const DType odt : kFloatTypes) {
      for (const DType idt : kIndexTypes) {
        for (const Case& c : cases) {
          const int64_t rows_max = idt == DType::kBool ? 2 : c.num_weights;
          const Strides gl = layouts[run % 3], il = layouts[(run / 3) % 3],
                        ol = layouts[(run / 9) % 3];
          const bool scale = run % 2 == 1;
          const int64_t padding = run % 5 == 0 ? 1 : -1;
          ++run;
          SCOPED_TRACE(std::string(DTypeName(gdt)) + " -> " + DTypeName(odt) + ", " +
                       DTypeName(idt) + " indices, " + ShapeText(c.grad_shape) + " into " +
                       std::to_string(c.num_weights) + " rows, run " + std::to_string(run));
          HostTensor grad(gdt, c.grad_shape, gl), indices(idt, c.index_shape, il);
          HostTensor out(odt, {c.num_weights, c.grad_shape.back()}, ol);
          grad.Fill(rng, -4.0, 4.0);
          std::vector<int64_t> rows(static_cast<size_t>(indices.numel()));
          for (size_t i = 0; i < rows.size(); ++i) {
            // The last row, the first, then repeats (a row summed several times).
            rows[i] = i == 0 ? rows_max - 1 : i == 1 ? 0 : static_cast<int64_t>(rng() % rows_max);
            SetRow(&indices, static_cast<int64_t>(i), rows[i]);
          }
          const Reference ref = Sums(grad, rows, c.num_weights, padding, scale);
          const std::vector<uint8_t> before = out.Snapshot();
          std::vector<uint8_t> first;
          for (const auto& split : splits) {
            omp_set_num_threads(split.team);
            tiling::Options options;
            options.num_cores = split.cores;
            options.min_elems_per_core = 1;
            const Status s =
                hostnn::Run(Args(grad, indices, out, c.num_weights, padding, scale), options);
            ASSERT_TRUE(s.ok()) << s.message();
            ExpectSums(grad, ref, out, before);
            // A row named once, grad and out of one dtype, is grad's row bitwise.
            const int64_t d = c.grad_shape.back();
            for (size_t p = 0; p < rows.size() && gdt == odt; ++p) {
              if (ref.count[static_cast<size_t>(rows[p])] != 1) continue;
              for (int64_t k = 0; k < d; ++k) {
                ASSERT_EQ(std::memcmp(out.Bytes(rows[p] * d + k),
                                      grad.Bytes(static_cast<int64_t>(p) * d + k), DTypeSize(gdt)),
                          0);
              }
            }
            if (first.empty()) {
              first = out.ElementBytes();
            } else {
              ASSERT_EQ(out.ElementBytes(), first)
                  << "team " << split.team << ", cores " << split.cores;
            }
          }
        }
      }
    }
  }
  omp_set_num_threads(threads);
}

// Many terms per row, of mixed magnitudes and signs: the double sums keep every row within the
// bound, and the bits are the same for any core count (rows cut between cores included).
TEST(EmbeddingDenseBackward, LongSumsHoldTheBoundAndTheirBits) {
  std::mt19937_64 rng(3);
  const int64_t n = 3000, d = 37, w = 7;
  HostTensor grad(DType::kFloat32, {n, d}), indices(DType::kInt32, {n});
  HostTensor out(DType::kFloat32, {w, d});
  std::vector<int64_t> rows(n);
  for (int64_t i = 0; i < n; ++i) {
    rows[static_cast<size_t>(i)] = static_cast<int64_t>(rng() % 3);  // rows 0-2: ~1000 terms
    SetRow(&indices, i, rows[static_cast<size_t>(i)]);
    for (int64_t c = 0; c < d; ++c) {
      const double mag = std::ldexp(1.0, static_cast<int>(rng() % 40) - 20);
      grad.Set(i * d + c, (rng() % 2 ? mag : -mag) * (1.0 + (rng() % 1000) / 1000.0));
    }
  }
  for (const bool scale : {false, true}) {
    const Reference ref = Sums(grad, rows, w, -1, scale);
    const std::vector<uint8_t> before = out.Snapshot();
    std::vector<uint8_t> first;
    for (const int64_t cores : {1, 2, 3, 13, 48}) {
      tiling::Options options;
      options.num_cores = cores;
      options.min_elems_per_core = 1;
      ASSERT_TRUE(hostnn::Run(Args(grad, indices, out, w, -1, scale), options).ok());
      ExpectSums(grad, ref, out, before);
      if (first.empty()) first = out.ElementBytes();
      ASSERT_EQ(out.ElementBytes(), first) << cores << " cores";
    }
  }
}

// paddingIdx's row stays 0 however often it is named; a paddingIdx outside out's rows (or a
// negative one: CANN's uint64_t above INT64_MAX) pads nothing. scaleGradByFreq divides a row by
// the number of indices naming it.
TEST(EmbeddingDenseBackward, PaddingRowAndFrequencyScale) {
  HostTensor grad(DType::kFloat32, {5, 2}), indices(DType::kInt64, {5});
  HostTensor out(DType::kFloat32, {4, 2});
  const int64_t rows[] = {2, 1, 2, 2, 0};
  for (int64_t i = 0; i < 5; ++i) {
    SetRow(&indices, i, rows[i]);
    grad.Set(i * 2, i + 1.0);
    grad.Set(i * 2 + 1, -(i + 1.0) / 4);
  }
  struct Want {
    int64_t padding;
    bool scale;
    double row0, row1, row2;  // first column of rows 0-2 (row 3 is never named: 0)
  } wants[] = {{-1, false, 5, 2, 1 + 3 + 4}, {2, false, 5, 2, 0},
               {2, true, 5, 2, 0},           {-1, true, 5, 2, (1 + 3 + 4) / 3.0},
               {4, false, 5, 2, 8},          {int64_t{1} << 40, false, 5, 2, 8},
               {0, true, 0, 2, 8 / 3.0}};
  for (const Want& want : wants) {
    SCOPED_TRACE("padding " + std::to_string(want.padding) + (want.scale ? ", scaled" : ""));
    ASSERT_TRUE(hostnn::Run(Args(grad, indices, out, 4, want.padding, want.scale), {}).ok());
    // (The sums are exact; a quotient is rounded once to f32.)
    const auto f32 = [](double v) { return static_cast<double>(static_cast<float>(v)); };
    EXPECT_EQ(out.Get(0), f32(want.row0));
    EXPECT_EQ(out.Get(2), f32(want.row1));
    EXPECT_EQ(out.Get(4), f32(want.row2));
    EXPECT_EQ(out.Get(5), f32(-want.row2 / 4));
    EXPECT_EQ(out.Get(6), 0.0);
    EXPECT_EQ(out.Get(7), 0.0);
  }
  // Through the C API: paddingIdx is a uint64_t; UINT64_MAX is -1, no padding.
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.acl(), indices.acl(), 4, UINT64_MAX,
                                                        false, out.acl(), &ws, &exec),
            0);
  std::vector<char> workspace(ws);
  ASSERT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, nullptr), 0);
  EXPECT_EQ(out.Get(4), 8.0);
  ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.acl(), indices.acl(), 4, 2, true,
                                                        out.acl(), &ws, &exec),
            0);
  workspace.resize(ws);
  ASSERT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, nullptr), 0);
  EXPECT_EQ(out.Get(4), 0.0);
  EXPECT_EQ(out.Get(2), 2.0);
}

// Float indices name the row their value truncates to (toward zero, as a Cast to INT32: -0.5
// is row 0), a BOOL index row 0 or 1.
TEST(EmbeddingDenseBackward, FloatIndicesTruncateTowardZero) {
  HostTensor grad(DType::kFloat32, {4, 1});
  for (int64_t i = 0; i < 4; ++i) grad.Set(i, std::ldexp(1.0, static_cast<int>(i)));
  for (const DType idt : {DType::kFloat32, DType::kFloat16, DType::kFloat64}) {
    SCOPED_TRACE(DTypeName(idt));
    HostTensor indices(idt, {4}), out(DType::kFloat32, {3, 1});
    const double values[] = {2.75, -0.5, 0.25, 1.5};  // rows 2, 0, 0, 1
    for (int64_t i = 0; i < 4; ++i) indices.Set(i, values[i]);
    ASSERT_TRUE(hostnn::Run(Args(grad, indices, out, 3, -1, false), {}).ok());
    EXPECT_EQ(out.Get(0), 2.0 + 4.0);
    EXPECT_EQ(out.Get(1), 8.0);
    EXPECT_EQ(out.Get(2), 1.0);
  }
  HostTensor flags(DType::kBool, {4}), out(DType::kFloat32, {2, 1});
  const double bits[] = {1, 0, 1, 1};
  for (int64_t i = 0; i < 4; ++i) flags.Set(i, bits[i]);
  ASSERT_TRUE(hostnn::Run(Args(grad, flags, out, 2, -1, false), {}).ok());
  EXPECT_EQ(out.Get(0), 2.0);
  EXPECT_EQ(out.Get(1), 1.0 + 4.0 + 8.0);
}

// Phase 2 checks every index before it writes: a negative one, numWeights, a NaN or a float
// past any row is refused (161002 through the C API), naming the element, out untouched.
TEST(EmbeddingDenseBackward, AnIndexOutsideOutIsRefusedWhenItRuns) {
  struct Bad {
    DType dtype;
    double value;
    const char* text;
  } bads[] = {{DType::kInt64, -1, "-1"},
              {DType::kInt32, 10, "10"},
              {DType::kInt8, -128, "-128"},
              {DType::kFloat32, std::numeric_limits<double>::quiet_NaN(), "NaN"},
              {DType::kFloat64, 1e30, "1e+30"},
              {DType::kFloat16, 10.5, "10.5 (row 10)"},
              {DType::kFloat32, -1.0, "-1"}};
  HostTensor grad(DType::kFloat32, {4, 3});
  for (const Bad& bad : bads) {
    SCOPED_TRACE(std::string(DTypeName(bad.dtype)) + " " + bad.text);
    HostTensor indices(bad.dtype, {4}), out(DType::kFloat32, {10, 3}, Strides::kStep2);
    for (int64_t i = 0; i < 4; ++i) indices.Set(i, i == 2 ? bad.value : static_cast<double>(i));
    const std::vector<uint8_t> before = out.Snapshot();
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.acl(), indices.acl(), 10, 0, false,
                                                          out.acl(), &ws, &exec),
              0);
    std::vector<char> workspace(ws);
    EXPECT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, nullptr), 161002);
    const std::string message = aclGetRecentErrMsg();
    EXPECT_NE(message.find("indices element 2"), std::string::npos) << message;
    EXPECT_NE(message.find(std::string("is ") + bad.text + ","), std::string::npos) << message;
    EXPECT_EQ(out.Snapshot(), before);
  }
}

// On a stream the refusal is the run's failure, reported by the synchronize.
TEST(EmbeddingDenseBackward, OnAStreamTheRefusalComesAtSynchronize) {
  HostTensor grad(DType::kBFloat16, {2, 3}), indices(DType::kInt32, {2});
  HostTensor out(DType::kBFloat16, {4, 3});
  SetRow(&indices, 0, 3);
  SetRow(&indices, 1, 4);
  const std::vector<uint8_t> before = out.Snapshot();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), 0);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.acl(), indices.acl(), 4, 0, false,
                                                        out.acl(), &ws, &exec),
            0);
  std::vector<char> workspace(ws);
  ASSERT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, stream), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream), 161002);
  EXPECT_EQ(out.Snapshot(), before);
  EXPECT_EQ(aclrtDestroyStream(stream), 0);
}

aclnnStatus Prepare(const HostTensor* grad, const HostTensor* indices, const HostTensor* out,
                    uint64_t num_weights = 10) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = aclnnEmbeddingDenseBackwardGetWorkspaceSize(
      grad ? grad->acl() : nullptr, indices ? indices->acl() : nullptr, num_weights, 0, false,
      out ? out->acl() : nullptr, &ws, &exec);
  if (s == 0) {
    std::vector<char> workspace(ws);
    EXPECT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, nullptr), 0);
  }
  return s;
}

bool MessageHas(const char* text) {
  return std::string(aclGetRecentErrMsg()).find(text) != std::string::npos;
}

// The checks in the op_api's order: nulls (161001); dtypes (grad, indices, out); ranks; grad's
// rows against indices; out's shape; private formats.
TEST(EmbeddingDenseBackward, RefusesInTheOpApiOrder) {
  HostTensor grad(DType::kFloat32, {4, 3}), indices(DType::kInt32, {4});
  HostTensor out(DType::kFloat32, {10, 3});
  for (int64_t i = 0; i < 4; ++i) SetRow(&indices, i, i);
  const std::vector<uint8_t> before = out.Snapshot();
  EXPECT_EQ(Prepare(nullptr, &indices, &out), 161001);
  EXPECT_TRUE(MessageHas("grad is null"));
  EXPECT_EQ(Prepare(&grad, nullptr, &out), 161001);
  EXPECT_TRUE(MessageHas("indices is null"));
  EXPECT_EQ(Prepare(&grad, &indices, nullptr), 161001);
  EXPECT_TRUE(MessageHas("out is null"));
  HostTensor grad_f64(DType::kFloat64, {4, 3}), out_f64(DType::kFloat64, {10, 3});
  EXPECT_EQ(Prepare(&grad_f64, &indices, nullptr), 161001);  // a null first
  for (const DType bad :
       {DType::kFloat64, DType::kInt32, DType::kInt8, DType::kBool, DType::kComplex64}) {
    HostTensor g(bad, {4, 3});
    EXPECT_EQ(Prepare(&g, &indices, &out), 161002) << DTypeName(bad);
    EXPECT_TRUE(MessageHas("grad")) << aclGetRecentErrMsg();
  }
  for (const DType bad :
       {DType::kBFloat16, DType::kComplex64, DType::kComplex128, DType::kUInt16}) {
    HostTensor idx(bad, {4});
    EXPECT_EQ(Prepare(&grad, &idx, &out_f64), 161002) << DTypeName(bad);  // indices before out
    EXPECT_TRUE(MessageHas("indices")) << aclGetRecentErrMsg();
  }
  EXPECT_EQ(Prepare(&grad, &indices, &out_f64), 161002);
  EXPECT_TRUE(MessageHas("out"));
  // Ranks: indices of 9 dims (its count is grad's rows: the rank comes first).
  HostTensor idx9(DType::kInt32, {1, 1, 1, 1, 1, 1, 1, 1, 4});
  EXPECT_EQ(Prepare(&grad, &idx9, &out), 161002);
  EXPECT_TRUE(MessageHas("indices"));
  HostTensor grad9(DType::kFloat32, {1, 1, 1, 1, 1, 1, 1, 4, 3});
  EXPECT_EQ(Prepare(&grad9, &indices, &out), 161002);
  // grad's rows against indices' count, before out's shape.
  HostTensor idx2(DType::kInt32, {2}), out_bad(DType::kFloat32, {9, 3});
  EXPECT_EQ(Prepare(&grad, &idx2, &out_bad), 161002);
  EXPECT_TRUE(MessageHas("do not match indices' 2 elements")) << aclGetRecentErrMsg();
  HostTensor scalar_grad(DType::kFloat32, {});
  HostTensor idx1(DType::kInt32, {});
  EXPECT_EQ(Prepare(&scalar_grad, &idx1, &out), 161002);
  EXPECT_TRUE(MessageHas("at least 1 dim"));
  // out: [numWeights, D].
  EXPECT_EQ(Prepare(&grad, &indices, &out_bad), 161002);
  EXPECT_TRUE(MessageHas("[10, 3]")) << aclGetRecentErrMsg();
  HostTensor out_d(DType::kFloat32, {10, 4}), out3(DType::kFloat32, {10, 3, 1});
  EXPECT_EQ(Prepare(&grad, &indices, &out_d), 161002);
  EXPECT_EQ(Prepare(&grad, &indices, &out3), 161002);
  EXPECT_EQ(Prepare(&grad, &indices, &out, 11), 161002);
  // A private format on any of the three, after the shapes.
  for (int k = 0; k < 3; ++k) {
    HostTensor g(DType::kFloat32, {4, 3}), i(DType::kInt32, {4}), o(DType::kFloat32, {10, 3});
    for (int64_t j = 0; j < 4; ++j) SetRow(&i, j, j);
    (k == 0 ? g : k == 1 ? i : o).SetFormat(ACL_FORMAT_NC1HWC0);
    EXPECT_EQ(Prepare(&g, &i, &o), 161002);
    EXPECT_TRUE(MessageHas("private format")) << aclGetRecentErrMsg();
  }
  EXPECT_EQ(out.Snapshot(), before);
  // Every grad, out and index dtype is taken, and the ND-like formats (NCHW indices).
  for (const DType g : kFloatTypes) {
    for (const DType o : kFloatTypes) {
      for (const DType id : kIndexTypes) {
        HostTensor gt(g, {4, 3}), it(id, {4}), ot(o, {10, 3});
        for (int64_t k = 0; k < 4; ++k) SetRow(&it, k, k % 2);
        EXPECT_EQ(Prepare(&gt, &it, &ot), 0) << DTypeName(g) << DTypeName(o) << DTypeName(id);
      }
    }
  }
  HostTensor g5(DType::kFloat32, {2, 2, 2, 2, 3}), idx4(DType::kInt32, {2, 2, 2, 2});
  for (int64_t k = 0; k < idx4.numel(); ++k) SetRow(&idx4, k, k % 10);
  idx4.SetFormat(ACL_FORMAT_NCHW);
  g5.SetFormat(ACL_FORMAT_NCDHW);
  EXPECT_EQ(Prepare(&g5, &idx4, &out), 0);
}

// An empty grad or indices zeroes out (CANN's ZerosLike): grad [0, 3] into [10, 3], and grad
// [2, 0, 3] with indices [2, 0]; a grad whose last dim is 0 takes any count of indices and
// writes nothing into out [10, 0].
TEST(EmbeddingDenseBackward, EmptyInputsZeroOut) {
  struct Shapes {
    std::vector<int64_t> grad, indices, out;
  } shapes[] = {{{0, 3}, {0}, {10, 3}}, {{2, 0, 3}, {2, 0}, {10, 3}}, {{4, 0}, {7}, {10, 0}}};
  for (const Shapes& sh : shapes) {
    SCOPED_TRACE(ShapeText(sh.grad));
    HostTensor grad(DType::kFloat32, sh.grad), indices(DType::kInt64, sh.indices);
    HostTensor out(DType::kBFloat16, sh.out, Strides::kStep2);
    for (int64_t i = 0; i < indices.numel(); ++i) SetRow(&indices, i, 70);  // never read
    const std::vector<uint8_t> before = out.Snapshot();
    uint64_t ws = 1;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(grad.acl(), indices.acl(), 10, 0, true,
                                                          out.acl(), &ws, &exec),
              0);
    EXPECT_EQ(ws, 0u);
    EXPECT_EQ(aclnnEmbeddingDenseBackward(nullptr, 0, exec, nullptr), 0);
    Reference none;
    none.value.assign(static_cast<size_t>(out.numel()), 0.0);
    none.magnitude = none.value;
    none.count.assign(10, 0);
    HostTensor like(DType::kFloat32, {1, sh.out.back()});
    ExpectSums(like, none, out, before);
  }
}

// out sharing memory with grad or indices is refused: the sums would read what they wrote.
TEST(EmbeddingDenseBackward, OutApartFromWhatItReads) {
  HostTensor grad(DType::kFloat32, {4, 4}), indices(DType::kInt32, {4});
  for (int64_t i = 0; i < 4; ++i) SetRow(&indices, i, 3 - i);
  Status s = hostnn::Run(Args(grad, indices, grad, 4, -1, false), {});
  EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
  EXPECT_NE(s.message().find("grad"), std::string::npos) << s.message();
  HostTensor grad1(DType::kFloat32, {4, 1});
  TensorView idx_as_out = indices.view();  // out [4, 1] over the INT32 indices' memory
  idx_as_out.dtype = DType::kFloat32;
  idx_as_out.shape = {4, 1};
  idx_as_out.strides = {1, 1};
  OpArgs a = Args(grad1, indices, grad1, 4, -1, false);
  a.out[0] = &idx_as_out;
  s = hostnn::Run(a, {});
  EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
  EXPECT_NE(s.message().find("indices"), std::string::npos) << s.message();
}

// A large out of long rows is written with non-temporal stores (zeros and single rows): the
// same bytes as the cached path, rows cut between cores included; NaN and infinities pass
// through the sums.
TEST(EmbeddingDenseBackward, StreamedOutIsTheSame) {
  std::mt19937_64 rng(5);
  for (const DType dtype : {DType::kFloat32, DType::kBFloat16}) {
    const int64_t d = dtype == DType::kFloat32 ? 301 : 602, n = 30, w = 50;
    HostTensor grad(dtype, {n, d}), indices(DType::kInt64, {n});
    HostTensor cached(dtype, {w, d}), streamed(dtype, {w, d});
    grad.Fill(rng, -2.0, 2.0);
    grad.Set(5, std::numeric_limits<double>::quiet_NaN());
    grad.Set(d + 7, std::numeric_limits<double>::infinity());
    std::vector<int64_t> rows(n);
    for (int64_t i = 0; i < n; ++i) {
      rows[static_cast<size_t>(i)] = static_cast<int64_t>(rng() % (w / 2)) * 2;
      SetRow(&indices, i, rows[static_cast<size_t>(i)]);
    }
    // A padding row that is named, but not by the rows holding the NaN and the infinity.
    int64_t padding = -1;
    for (size_t i = 2; i < rows.size() && padding < 0; ++i) {
      if (rows[i] != rows[0] && rows[i] != rows[1]) padding = rows[i];
    }
    for (const int64_t cores : {1, 3}) {
      tiling::Options options;
      options.num_cores = cores;
      options.min_elems_per_core = 1;
      ASSERT_TRUE(hostnn::Run(Args(grad, indices, cached, w, padding, false), options).ok());
      setenv("HOSTNN_STREAM_MIN_BYTES", "4096", 1);
      uint64_t ws = 0;
      ExecutorPtr exec;
      ASSERT_TRUE(
          hostnn::Prepare(Args(grad, indices, streamed, w, padding, false), options, &ws, &exec)
              .ok());
      unsetenv("HOSTNN_STREAM_MIN_BYTES");
      EXPECT_NE(KernelPath(*exec).find("streamed"), std::string::npos) << KernelPath(*exec);
      std::vector<char> workspace(ws);
      ASSERT_TRUE(Execute(*exec, workspace.data(), ws).ok());
      EXPECT_EQ(streamed.ElementBytes(), cached.ElementBytes()) << DTypeName(dtype);
      const Reference ref = Sums(grad, rows, w, padding, false);
      ExpectSums(grad, ref, streamed, streamed.Snapshot());
      EXPECT_TRUE(std::isnan(streamed.Get(rows[0] * d + 5)));
    }
  }
}

// A null data address behind grad or indices with elements: phase 1 takes it (CANN's never
// reads the address), phase 2 refuses it before any index is read, writing nothing.
TEST(EmbeddingDenseBackward, NullDataIsRefusedWhenItRuns) {
  HostTensor grad(DType::kFloat32, {4, 3}), indices(DType::kInt32, {4});
  HostTensor out(DType::kFloat32, {10, 3});
  for (int64_t i = 0; i < 4; ++i) SetRow(&indices, i, i);
  const int64_t gdims[] = {4, 3}, gstrides[] = {3, 1}, idims[] = {4}, istrides[] = {1};
  aclTensor* null_grad =
      aclCreateTensor(gdims, 2, ACL_FLOAT, gstrides, 0, ACL_FORMAT_ND, gdims, 2, nullptr);
  aclTensor* null_indices =
      aclCreateTensor(idims, 1, ACL_INT32, istrides, 0, ACL_FORMAT_ND, idims, 1, nullptr);
  const std::vector<uint8_t> before = out.Snapshot();
  for (int k = 0; k < 2; ++k) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnEmbeddingDenseBackwardGetWorkspaceSize(k == 0 ? null_grad : grad.acl(),
                                                          k == 1 ? null_indices : indices.acl(), 10,
                                                          0, false, out.acl(), &ws, &exec),
              0);
    std::vector<char> workspace(ws);
    EXPECT_EQ(aclnnEmbeddingDenseBackward(workspace.data(), ws, exec, nullptr), 161002);
    EXPECT_TRUE(MessageHas("null address")) << aclGetRecentErrMsg();
    EXPECT_EQ(out.Snapshot(), before);
    aclDestroyAclOpExecutor(exec);
  }
  aclDestroyTensor(null_grad);
  aclDestroyTensor(null_indices);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
