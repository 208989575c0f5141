// The gated linear units (Glu, SwiGlu, GeGlu, GeGluV3, GeluMul, FatreluMul, SituGlu,
// ClippedSwiglu and the gradients) through their CANN C API: every variant and compute dtype
// against the double references of tests/reference/split_reference.h, on every SIMD target,
// over 1-D to 8-D shapes split along every kind of dim (negative ones too; GeluMul and
// FatreluMul the last, of 2 to 8 dims), halves of every tail length and special values;
// 16-bit results equal to the FLOAT result rounded once; strided operands; the same bits for
// any core count; Glu's out dtypes; GeluMul's null approximateOptional; FatreluMul's
// threshold of any rank, read when phase 2 runs; SituGlu's attributes as FLOAT values;
// ClippedSwiglu's and ClippedSwigluGrad's groupIndexOptional and interleaved layouts. Prints the largest error per
// variant and dtype. The refusals and the ops-nn examples are in split_checks_test.cc.

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <iterator>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_clipped_swiglu.h"
#include "aclnnop/aclnn_clipped_swiglu_grad.h"
#include "aclnnop/aclnn_fatrelu_mul.h"
#include "aclnnop/aclnn_geglu.h"
#include "aclnnop/aclnn_geglu_backward.h"
#include "aclnnop/aclnn_gelu_mul.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_situ_glu.h"
#include "aclnnop/aclnn_situ_glu_grad.h"
#include "aclnnop/aclnn_swi_glu.h"
#include "aclnnop/aclnn_swi_glu_grad.h"
#include "tests/reference/split_reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace test {
namespace {

using split_ref::Unit;

enum class Api {
  kGlu,
  kGluBackward,
  kSwiGlu,
  kSwiGluGrad,
  kGeGlu,
  kGeGluV3,
  kGeGluB,
  kGeGluV3B,
  kGeluMul,
  kFatreluMul,
  kSituGlu,
  kSituGluGrad,
  kClippedSwiglu,
  kClippedSwigluGrad
};

// One entry point with its attributes: grad = a gradient (dy in, self's shape out); gelu =
// GeGlu's second output (forward) or its `gelu` input (gradient); threshold FatreluMul's;
// beta and linear_beta SituGlu's, alpha, limit, bias and interleaved ClippedSwiglu's
// (values an f32 holds exactly, as the kernel reads them; interleaved pairs the even and odd
// elements of the dims from dim on).
struct Variant {
  const char* name;
  Api api;
  Unit unit;
  bool grad, gelu;
  int64_t approximate;
  bool left;
  double threshold = 0.0, beta = 1.0, linear_beta = 0.0;
  double alpha = 1.702, limit = 7.0, bias = 1.0;
  bool interleaved = false;
  split_ref::Attrs attrs() const {
    return {approximate, left, threshold, beta, linear_beta, alpha, limit, bias};
  }
};
const Variant kVariants[] = {
    {"Glu", Api::kGlu, Unit::kGlu, false, false, 0, false},
    {"GluBackward", Api::kGluBackward, Unit::kGlu, true, false, 0, false},
    {"SwiGlu", Api::kSwiGlu, Unit::kSwiGlu, false, false, 0, false},
    {"SwiGluGrad", Api::kSwiGluGrad, Unit::kSwiGlu, true, false, 0, false},
    {"GeGlu_erf", Api::kGeGlu, Unit::kGeGlu, false, true, 0, false},
    {"GeGlu_tanh", Api::kGeGlu, Unit::kGeGlu, false, true, 1, false},
    {"GeGluV3_erf_left", Api::kGeGluV3, Unit::kGeGlu, false, true, 0, true},
    {"GeGluV3_tanh_left", Api::kGeGluV3, Unit::kGeGlu, false, true, 1, true},
    {"GeGluV3_tanh_right", Api::kGeGluV3, Unit::kGeGlu, false, true, 1, false},
    {"GeGluBackward_erf", Api::kGeGluB, Unit::kGeGlu, true, true, 0, false},
    {"GeGluBackward_tanh", Api::kGeGluB, Unit::kGeGlu, true, true, 1, false},
    {"GeGluV3Backward_erf_left", Api::kGeGluV3B, Unit::kGeGlu, true, true, 0, true},
    {"GeGluV3Backward_tanh_left", Api::kGeGluV3B, Unit::kGeGlu, true, true, 1, true},
    {"GeGluV3Backward_erf_right", Api::kGeGluV3B, Unit::kGeGlu, true, true, 0, false},
    // gelu(a) * b, as GeGlu's out with activateLeft, without outGelu.
    {"GeluMul_erf", Api::kGeluMul, Unit::kGeGlu, false, false, 0, true},
    {"GeluMul_tanh", Api::kGeluMul, Unit::kGeGlu, false, false, 1, true},
    // (a > threshold ? a : 0) * b; the threshold's one element in each dtype exactly.
    {"FatreluMul_0", Api::kFatreluMul, Unit::kFatrelu, false, false, 0, false, 0.0},
    {"FatreluMul_pos", Api::kFatreluMul, Unit::kFatrelu, false, false, 0, false, 0.75},
    {"FatreluMul_neg", Api::kFatreluMul, Unit::kFatrelu, false, false, 0, false, -1.5},
    // beta tanh(g / beta) sigmoid(g) up': CANN's defaults (beta 1, no up transform, the gate
    // first); a transformed up with the gate second; a negative beta and linearBeta (no
    // transform); a small beta (large tanh arguments) with a small linearBeta.
    {"SituGlu", Api::kSituGlu, Unit::kSituGlu, false, false, 0, true, 0, 1.0, 0.0},
    {"SituGlu_linear_right", Api::kSituGlu, Unit::kSituGlu, false, false, 0, false, 0, 2.5, 1.5},
    {"SituGlu_negative", Api::kSituGlu, Unit::kSituGlu, false, false, 0, true, 0, -0.75, -1.0},
    {"SituGlu_small", Api::kSituGlu, Unit::kSituGlu, false, false, 0, true, 0, 0.015625, 0.25},
    {"SituGluGrad", Api::kSituGluGrad, Unit::kSituGlu, true, false, 0, true, 0, 1.0, 0.0},
    {"SituGluGrad_linear_right", Api::kSituGluGrad, Unit::kSituGlu, true, false, 0, false, 0, 2.5,
     1.5},
    {"SituGluGrad_negative", Api::kSituGluGrad, Unit::kSituGlu, true, false, 0, true, 0, -0.75,
     -1.0},
    {"SituGluGrad_small", Api::kSituGluGrad, Unit::kSituGlu, true, false, 0, true, 0, 0.015625,
     0.25},
    // A' sigmoid(alpha A') (B' + bias): CANN's defaults (alpha 1.702 rounded to f32, limit 7,
    // bias 1, interleaved); the halves along dim; other parameters; a negative limit (B'
    // is limit everywhere, as torch's clamp) with a negative alpha.
    {"ClippedSwiglu", Api::kClippedSwiglu, Unit::kClippedSwiglu, false, false, 0, true, 0, 1, 0,
     static_cast<float>(1.702), 7.0, 1.0, true},
    {"ClippedSwiglu_halves", Api::kClippedSwiglu, Unit::kClippedSwiglu, false, false, 0, true, 0,
     1, 0, static_cast<float>(1.702), 7.0, 1.0, false},
    {"ClippedSwiglu_params", Api::kClippedSwiglu, Unit::kClippedSwiglu, false, false, 0, true, 0,
     1, 0, 1.0, 2.5, -0.5, false},
    {"ClippedSwiglu_negative", Api::kClippedSwiglu, Unit::kClippedSwiglu, false, false, 0, true,
     0, 1, 0, -0.75, -1.5, 0.25, true},
    // Its gradient: the same parameters, but a limit above 0 (its tiling refuses the rest)
    // with a negative alpha and a small limit (most inputs clamped, their masks 0).
    {"ClippedSwigluGrad", Api::kClippedSwigluGrad, Unit::kClippedSwiglu, true, false, 0, true, 0,
     1, 0, static_cast<float>(1.702), 7.0, 1.0, true},
    {"ClippedSwigluGrad_halves", Api::kClippedSwigluGrad, Unit::kClippedSwiglu, true, false, 0,
     true, 0, 1, 0, static_cast<float>(1.702), 7.0, 1.0, false},
    {"ClippedSwigluGrad_params", Api::kClippedSwigluGrad, Unit::kClippedSwiglu, true, false, 0,
     true, 0, 1, 0, 1.0, 2.5, -0.5, false},
    {"ClippedSwigluGrad_negative", Api::kClippedSwigluGrad, Unit::kClippedSwiglu, true, false, 0,
     true, 0, 1, 0, -0.75, 1.5, 0.25, true},
};

// Where the pair of element i of the half shape lies in self (row-major, split along d): the
// halves' (split_ref::PairPositions), or with interleaved the even and odd elements of the
// dims from d on.
void Pair(const Variant& v, const std::vector<int64_t>& shape, int64_t d, int64_t i,
          int64_t* pa, int64_t* pb) {
  if (!v.interleaved) return split_ref::PairPositions(shape, d, i, pa, pb);
  int64_t m = 1;
  for (size_t k = static_cast<size_t>(d); k < shape.size(); ++k) m *= shape[k];
  *pa = i / (m / 2) * m + 2 * (i % (m / 2));
  *pb = *pa + 1;
}
const Variant& VariantNamed(const std::string& name) {
  for (const Variant& v : kVariants) {
    if (name == v.name) return v;
  }
  std::abort();
}

// Whether v takes self of `shape` split along d: GeluMul and FatreluMul split the last dim
// only, of 2 to 8 dims, that dim at most 1024 (every unit takes the rest of these cases).
bool Takes(const Variant& v, const std::vector<int64_t>& shape, int64_t d) {
  if (v.api != Api::kGeluMul && v.api != Api::kFatreluMul) return true;
  const int64_t rank = static_cast<int64_t>(shape.size());
  return rank >= 2 && d == rank - 1 && shape.back() <= 1024;
}

// Test names and messages show a variant by its name.
void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

// A problem's operands: a forward's self -> out (and outGelu), half self's shape; a
// gradient's dy (and gelu), half self's shape, and self -> out, self's shape; FatreluMul's
// threshold, one element holding the variant's.
struct Operands {
  TestTensor self, dy, gelu, out, out_gelu, threshold;
};

Operands MakeOperands(const Variant& v, DType t, const std::vector<int64_t>& shape, int64_t d,
                      Layout in = Layout::kDense, Layout out = Layout::kDense,
                      DType out_t = DType::kUndefined) {
  if (out_t == DType::kUndefined) out_t = t;
  const std::vector<int64_t> half = split_ref::HalfShape(shape, d);
  Operands o;
  o.self = MakeLayout(in, t, shape);
  if (v.api == Api::kFatreluMul) {
    o.threshold = MakeLayout(in, t, {1});
    o.threshold.Set(0, v.threshold);
  }
  if (v.grad) {
    o.dy = MakeLayout(in, t, half);
    if (v.gelu) o.gelu = MakeLayout(in, t, half);
    o.out = MakeLayout(out, out_t, shape);
  } else {
    o.out = MakeLayout(out, out_t, half);
    if (v.gelu) o.out_gelu = MakeLayout(out, out_t, half);
  }
  return o;
}

// An aclTensor over a TestTensor's view.
TensorPtr Acl(const TestTensor& t) {
  const TensorView& v = t.view();
  const std::vector<int64_t> strides = v.strides.empty() ? RowMajorStrides(v.shape) : v.strides;
  std::vector<int64_t> storage = v.storage_shape.empty() ? v.shape : v.storage_shape;
  if (storage.empty()) storage = {1};
  return MakeTensor(v.data, static_cast<aclDataType>(v.dtype), v.shape, strides, v.offset, storage);
}

// Phase 1 of v's entry point (the operands v does not take are ignored).
aclnnStatus Phase1(const Variant& v, aclTensor* self, aclTensor* dy, aclTensor* gelu,
                   aclTensor* out, aclTensor* og, aclTensor* threshold, int64_t dim, uint64_t* ws,
                   aclOpExecutor** ex) {
  const int64_t ap = v.approximate;
  switch (v.api) {
    case Api::kGlu:
      return aclnnGluGetWorkspaceSize(self, dim, out, ws, ex);
    case Api::kGluBackward:
      return aclnnGluBackwardGetWorkspaceSize(dy, self, dim, out, ws, ex);
    case Api::kSwiGlu:
      return aclnnSwiGluGetWorkspaceSize(self, dim, out, ws, ex);
    case Api::kSwiGluGrad:
      return aclnnSwiGluGradGetWorkspaceSize(dy, self, dim, out, ws, ex);
    case Api::kGeGlu:
      return aclnnGeGluGetWorkspaceSize(self, dim, ap, out, og, ws, ex);
    case Api::kGeGluV3:
      return aclnnGeGluV3GetWorkspaceSize(self, dim, ap, v.left, out, og, ws, ex);
    case Api::kGeGluB:
      return aclnnGeGluBackwardGetWorkspaceSize(dy, self, gelu, dim, ap, out, ws, ex);
    case Api::kGeGluV3B:
      return aclnnGeGluV3BackwardGetWorkspaceSize(dy, self, gelu, dim, ap, v.left, out, ws, ex);
    case Api::kGeluMul: {  // no dim: the last is split
      char mode[8] = "none";
      if (ap == 1) std::snprintf(mode, sizeof(mode), "tanh");
      return aclnnGeluMulGetWorkspaceSize(self, mode, out, ws, ex);
    }
    case Api::kFatreluMul:
      return aclnnFatreluMulGetWorkspaceSize(self, threshold, out, ws, ex);
    case Api::kSituGlu:
      return aclnnSituGluGetWorkspaceSize(self, dim, v.beta, v.linear_beta, v.left, out, ws, ex);
    case Api::kSituGluGrad:
      return aclnnSituGluGradGetWorkspaceSize(dy, self, dim, v.beta, v.linear_beta, v.left, out,
                                              ws, ex);
    case Api::kClippedSwiglu:  // every row: no groupIndexOptional (ClippedSwigluTest has it)
      return aclnnClippedSwigluGetWorkspaceSize(self, nullptr, dim, v.alpha, v.limit, v.bias,
                                                v.interleaved, out, ws, ex);
    case Api::kClippedSwigluGrad:  // every row: no groupIndexOptional (ClippedSwigluGradTest)
      return aclnnClippedSwigluGradGetWorkspaceSize(dy, self, nullptr, dim, v.alpha, v.limit,
                                                    v.bias, v.interleaved, out, ws, ex);
  }
  return ACLNN_ERR_INNER;
}

// Both phases through the C API (phase 2 with a workspace of the size phase 1 asked for).
aclnnStatus RunUnit(const Variant& v, const Operands& o, int64_t dim) {
  const TensorPtr self = Acl(o.self), out = Acl(o.out);
  const TensorPtr dy = v.grad ? Acl(o.dy) : nullptr;
  const TensorPtr gelu = v.grad && v.gelu ? Acl(o.gelu) : nullptr;
  const TensorPtr og = !v.grad && v.gelu ? Acl(o.out_gelu) : nullptr;
  const TensorPtr threshold = v.api == Api::kFatreluMul ? Acl(o.threshold) : nullptr;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  aclnnStatus st = Phase1(v, self.get(), dy.get(), gelu.get(), out.get(), og.get(),
                          threshold.get(), dim, &ws, &ex);
  if (st != ACLNN_SUCCESS) return st;
  void* w = nullptr;
  if (ws > 0 && aclrtMalloc(&w, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
    return ACLNN_ERR_INNER;
  using Phase2 = aclnnStatus (*)(void*, uint64_t, aclOpExecutor*, aclrtStream);
  const Phase2 phase2[] = {aclnnGlu,           aclnnGluBackward,     aclnnSwiGlu,
                           aclnnSwiGluGrad,    aclnnGeGlu,           aclnnGeGluV3,
                           aclnnGeGluBackward, aclnnGeGluV3Backward, aclnnGeluMul,
                           aclnnFatreluMul,    aclnnSituGlu,         aclnnSituGluGrad,
                           aclnnClippedSwiglu, aclnnClippedSwigluGrad};
  st = phase2[static_cast<int>(v.api)](w, ws, ex, nullptr);
  if (w != nullptr) aclrtFree(w);
  return st;
}

// Inputs from [-8, 8] in their dtype; with `specials`, about one pair in five holds one
// special value (in a, b or dy, never two: every NaN expected then comes from the formula's
// own inf * 0, and no result depends on the order in which f32 multiplies an infinity by an
// underflowed factor). A gradient's gelu is the forward's outGelu rounded to the dtype, or
// in one pair in four any value (the dy * gelu half must use the one given). FatreluMul's a
// equals the threshold in about one pair in seven.
void FillInputs(const Variant& v, Operands* o, int64_t d, std::mt19937_64& rng, bool specials) {
  static const double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN, 88.0, -88.0, 20.0, -20.0};
  FillRandom(&o->self, rng, -8.0, 8.0);
  if (v.grad) FillRandom(&o->dy, rng, -8.0, 8.0);
  const int64_t n = NumelOf(split_ref::HalfShape(o->self.shape(), d));
  for (int64_t i = 0; i < n; ++i) {
    int64_t pa, pb;
    Pair(v, o->self.shape(), d, i, &pa, &pb);
    if (specials && rng() % 5 == 0) {
      const double s = kSpecial[rng() % 9];
      const uint64_t where = rng() % (v.grad ? 3 : 2);
      (where == 2 ? o->dy : o->self).Set(where == 2 ? i : where == 0 ? pa : pb, s);
    }
    if (v.api == Api::kFatreluMul && rng() % 7 == 0) o->self.Set(pa, v.threshold);
    if (v.grad && v.gelu) {
      const double g = split_ref::Gelu(o->self.Get(v.left ? pa : pb), v.approximate);
      o->gelu.Set(i, rng() % 4 ? g : std::uniform_real_distribution<double>(-8, 8)(rng));
    }
  }
}

// The largest error per "variant dtype": in ULP, as a fraction of the bound, and in ULP
// where a gradient's slack is at most the ULP part of the bound (its ULPs proper).
std::map<std::string, std::array<double, 3>>& Worst() {
  static std::map<std::string, std::array<double, 3>> worst;
  return worst;
}

// The inputs as they were before a run (row-major), to check the results against.
struct Inputs {
  std::vector<double> self, dy, gelu;
};
Inputs Snapshot(const Variant& v, const Operands& o) {
  return {o.self.Values(), v.grad ? o.dy.Values() : std::vector<double>{},
          v.grad && v.gelu ? o.gelu.Values() : std::vector<double>{}};
}

// Every result element against the double reference; returns the number out of tolerance.
int64_t CheckValues(const Variant& v, const Inputs& in, const Operands& o, int64_t d,
                    const std::string& what) {
  const DType t = o.out.dtype();
  const int64_t n = NumelOf(split_ref::HalfShape(o.self.shape(), d));
  int64_t bad = 0;
  auto check = [&](const TestTensor& res, int64_t pos, double exact, double slack, int64_t i,
                   const char* which) {
    const double got = res.Get(pos);
    auto& w = Worst()[std::string(v.name) + " " + DTypeName(t)];
    if (std::isfinite(exact) && std::isfinite(got)) {
      const double ulp = split_ref::ErrorUlp(t, got, exact), one = split_ref::Bound(t, exact, 0);
      w[0] = std::max(w[0], ulp);
      w[1] = std::max(w[1], std::fabs(got - exact) / split_ref::Bound(t, exact, slack));
      if (slack <= one) w[2] = std::max(w[2], ulp);
    }
    if (split_ref::WithinTolerance(t, got, exact, slack) || ++bad > kMaxReported) return;
    int64_t pa, pb;
    Pair(v, o.self.shape(), d, i, &pa, &pb);
    ADD_FAILURE() << v.name << " " << DTypeName(t) << " " << what << " " << which << " pair " << i
                  << ": a=" << Num(in.self[pa]) << " b=" << Num(in.self[pb])
                  << (v.grad ? " dy=" + Num(in.dy[i]) : "")
                  << (v.grad && v.gelu ? " gelu=" + Num(in.gelu[i]) : "") << " got=" << Num(got)
                  << " exact=" << Num(exact) << " (" << split_ref::ErrorUlp(t, got, exact)
                  << " ULP)";
  };
  for (int64_t i = 0; i < n; ++i) {
    int64_t pa, pb;
    Pair(v, o.self.shape(), d, i, &pa, &pb);
    const double a = in.self[pa], b = in.self[pb];
    if (v.grad) {
      const split_ref::Backward g =
          split_ref::BackwardRef(v.unit, in.dy[i], a, b, v.gelu ? in.gelu[i] : 0.0, v.attrs());
      const double slack = split_ref::GradSlack(in.dy[i], a, b);
      check(o.out, pa, g.da, slack, i, "first half");
      check(o.out, pb, g.db, slack, i, "second half");
    } else {
      const split_ref::Forward f = split_ref::ForwardRef(v.unit, a, b, v.attrs());
      check(o.out, i, f.out, 0.0, i, "out");
      if (v.gelu) check(o.out_gelu, i, f.gelu, 0.0, i, "outGelu");
    }
  }
  if (bad > kMaxReported) ADD_FAILURE() << what << ": " << bad << " elements out of tolerance";
  return bad;
}

// The same bits: values read through the views (a NaN matches any NaN).
bool SameBits(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
}

// The results of a run: out (and outGelu) as row-major values.
std::vector<double> Results(const Variant& v, const Operands& o) {
  std::vector<double> r = o.out.Values();
  const std::vector<double> g = !v.grad && v.gelu ? o.out_gelu.Values() : std::vector<double>{};
  r.insert(r.end(), g.begin(), g.end());
  return r;
}

// Operands of dtype t holding `in`'s values (widened or rounded by Set), densely.
Operands CopyAs(const Variant& v, const Inputs& in, const Operands& like, DType t, int64_t d,
                Layout lin = Layout::kDense, Layout lout = Layout::kDense) {
  Operands o = MakeOperands(v, t, like.self.shape(), d, lin, lout);
  for (int64_t i = 0; i < o.self.numel(); ++i) o.self.Set(i, in.self[i]);
  for (size_t i = 0; i < in.dy.size(); ++i) o.dy.Set(i, in.dy[i]);
  for (size_t i = 0; i < in.gelu.size(); ++i) o.gelu.Set(i, in.gelu[i]);
  return o;
}

class SplitValuesTest : public ::testing::TestWithParam<std::tuple<Variant, DType>> {
 protected:
  const Variant& v() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
};

TEST_P(SplitValuesTest, MatchesTheDoubleReferenceAndRoundsTheFloatResultOnce) {
  // Each case is the dim, then self's shape: 1-D with halves of 1, 3, 37 and 1029; rows
  // split along the last dim, along dim 0; a middle dim of 4-D; dim -ndim; 8-D; the last
  // dim of 4-D with halves of 19, and at 1024 (GeluMul's largest) with halves of 512.
  std::vector<std::vector<int64_t>> cases = {{0, 2}, {-1, 6}, {0, 74}, {0, 2058}, {-1, 5, 2}};
  cases.insert(cases.end(), {{1, 3, 6}, {-1, 4, 74}, {1, 3, 2000}, {0, 6, 7}, {-2, 74, 33}});
  cases.insert(cases.end(), {{2, 3, 4, 6, 5}, {-2, 2, 3, 74, 3}, {-3, 4, 2, 3}});
  cases.insert(cases.end(), {{-8, 2, 1, 3, 1, 2, 1, 2, 4}, {7, 1, 2, 1, 2, 1, 2, 1, 34}});
  cases.insert(cases.end(), {{3, 2, 3, 5, 38}, {-1, 3, 1024}});
  std::mt19937_64 rng(0x5EED1101);
  ForEachTarget([&](int64_t) {
    for (const std::vector<int64_t>& c : cases) {
      const std::vector<int64_t> shape(c.begin() + 1, c.end());
      const int64_t dim = c[0], d = dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim;
      if (!Takes(v(), shape, d)) continue;
      const std::string what = ShapeText(shape) + " dim " + std::to_string(dim);
      SCOPED_TRACE(what);
      Operands o = MakeOperands(v(), dtype(), shape, d);
      FillInputs(v(), &o, d, rng, true);
      const Inputs in = Snapshot(v(), o);
      ASSERT_EQ(RunUnit(v(), o, dim), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      CheckValues(v(), in, o, d, what);
      if (dtype() == DType::kFloat32) continue;
      // The same (widened) inputs in FLOAT: each 16-bit result is that result rounded once.
      const Operands wide = CopyAs(v(), in, o, DType::kFloat32, d);
      ASSERT_EQ(RunUnit(v(), wide, dim), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> got = Results(v(), o), f32 = Results(v(), wide);
      int64_t differ = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (SameBits(got[i], RoundTo(dtype(), f32[i])) || ++differ > kMaxReported) continue;
        ADD_FAILURE() << what << " element " << i << ": " << Num(got[i]) << ", the FLOAT result "
                      << Num(f32[i]) << " rounds to " << Num(RoundTo(dtype(), f32[i]));
      }
    }
  });
}

// Strided views (transposed, every second or third element, an offset into a larger
// storage) of inputs and outputs give the dense bits, and write nothing outside the view.
TEST_P(SplitValuesTest, StridedOperandsGiveTheDenseBits) {
  std::mt19937_64 rng(0x5EED1102);
  const std::vector<int64_t> shape = {6, 40, 70};
  const std::pair<Layout, Layout> layouts[] = {{Layout::kTransposed, Layout::kStride2},
                                               {Layout::kOffset, Layout::kTransposed},
                                               {Layout::kStride3, Layout::kOffset},
                                               {Layout::kOffset, Layout::kStride2}};
  for (int64_t dim : {1, 0, -1}) {
    std::vector<int64_t> s = shape;
    const int64_t d = dim < 0 ? dim + 3 : dim;
    s[d] = 2 * (d + 2);
    if (!Takes(v(), s, d)) continue;
    Operands dense = MakeOperands(v(), dtype(), s, d);
    FillInputs(v(), &dense, d, rng, true);
    const Inputs in = Snapshot(v(), dense);
    ASSERT_EQ(RunUnit(v(), dense, dim), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const std::vector<double> want = Results(v(), dense);
    for (const auto& [lin, lout] : layouts) {
      // Interleaved writes each row of out in order: an out whose dims from dim on are not
      // one strided run is refused (ClippedSwigluTest.InterleavedTakesAnyLayoutWithARunOfPairs);
      // its gradient reads dy so, and writes gradXOut as x is read: any layout of the last dim.
      if (v().interleaved && (v().grad ? d != 2 : lout != Layout::kStride2)) continue;
      SCOPED_TRACE(ShapeText(s) + " dim " + std::to_string(dim) + " inputs " + LayoutName(lin) +
                   ", outputs " + LayoutName(lout));
      Operands o = CopyAs(v(), in, dense, dtype(), d, lin, lout);
      std::vector<const TestTensor*> outs = {&o.out};
      if (!v().grad && v().gelu) outs.push_back(&o.out_gelu);
      std::vector<std::vector<uint8_t>> before;
      for (const TestTensor* t : outs) before.push_back(t->storage().Snapshot());
      ASSERT_EQ(RunUnit(v(), o, dim), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> got = Results(v(), o);
      int64_t differ = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (SameBits(got[i], want[i]) || ++differ > kMaxReported) continue;
        ADD_FAILURE() << "element " << i << ": " << Num(got[i]) << ", dense " << Num(want[i]);
      }
      // Storage elements outside each output's view keep their fill.
      const size_t es = DTypeSize(dtype());
      for (size_t k = 0; k < outs.size(); ++k) {
        std::vector<bool> in_view(static_cast<size_t>(outs[k]->storage().size()), false);
        for (int64_t i = 0; i < outs[k]->numel(); ++i) in_view[outs[k]->StorageIndex(i)] = true;
        const std::vector<uint8_t> after = outs[k]->storage().Snapshot();
        for (size_t e = 0; e < in_view.size(); ++e) {
          ASSERT_TRUE(in_view[e] || std::equal(after.begin() + e * es, after.begin() + (e + 1) * es,
                                               before[k].begin() + e * es))
              << "storage element " << e << " outside output " << k << "'s view was written";
        }
        EXPECT_TRUE(outs[k]->storage().GuardsIntact());
      }
    }
  }
}

// Restores the OpenMP team and the HOSTNN_ core variables however a test ends.
struct CoresScope {
  ~CoresScope() {
    omp_set_num_threads(threads);
    unsetenv("HOSTNN_NUM_CORES");
    unsetenv("HOSTNN_MIN_ELEMS_PER_CORE");
  }
  const int threads = omp_get_max_threads();
};

TEST_P(SplitValuesTest, SameBitsForAnyCoreCount) {
  if (std::getenv("HOSTNN_NUM_CORES") != nullptr) GTEST_SKIP() << "HOSTNN_NUM_CORES is set";
  std::mt19937_64 rng(0x5EED1103);
  const std::pair<std::vector<int64_t>, int64_t> cases[] = {
      {{24, 2050}, -1}, {{202, 3, 80}, 0}, {{130, 2, 1000}, -1}};
  CoresScope restore;
  setenv("HOSTNN_MIN_ELEMS_PER_CORE", "1", 1);
  for (const auto& [shape, dim] : cases) {
    const int64_t d = dim < 0 ? dim + static_cast<int64_t>(shape.size()) : dim;
    if (!Takes(v(), shape, d)) continue;
    Operands o = MakeOperands(v(), dtype(), shape, d);
    FillInputs(v(), &o, d, rng, true);
    std::vector<double> first;
    const std::pair<const char*, int> settings[] = {
        {"1", 1}, {"2", 2}, {"3", 3}, {"7", 2}, {"7", 3}};
    for (const auto& [cores, threads] : settings) {
      setenv("HOSTNN_NUM_CORES", cores, 1);
      omp_set_num_threads(threads);
      o.out.storage().FillBytes(0xFF);
      if (!v().grad && v().gelu) o.out_gelu.storage().FillBytes(0xFF);
      ASSERT_EQ(RunUnit(v(), o, dim), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> got = Results(v(), o);
      if (first.empty()) first = got;
      int64_t differ = 0;
      for (size_t i = 0; i < got.size(); ++i) {
        if (SameBits(got[i], first[i]) || ++differ > kMaxReported) continue;
        ADD_FAILURE() << ShapeText(shape) << " dim " << dim << ", " << cores << " cores, "
                      << threads << " threads: element " << i << " " << Num(got[i])
                      << ", with 1 core " << Num(first[i]);
      }
    }
  }
}

std::vector<std::tuple<Variant, DType>> AllCases() {
  std::vector<std::tuple<Variant, DType>> c;
  for (const Variant& v : kVariants) {
    for (DType t : kComputeTypes) c.emplace_back(v, t);
  }
  return c;
}
INSTANTIATE_TEST_SUITE_P(Units, SplitValuesTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<std::tuple<Variant, DType>>& info) {
                           return std::string(std::get<0>(info.param).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

// Glu computes in self's dtype, then casts to out's: each (self, out) pair gives the
// same-dtype result cast to out's dtype, bit for bit.
TEST(GluOutDtypeTest, CastsTheSelfDtypeResult) {
  const Variant& glu = kVariants[0];
  std::mt19937_64 rng(0x5EED1104);
  for (DType self_t : kComputeTypes) {
    Operands same = MakeOperands(glu, self_t, {4, 74}, 1);
    FillInputs(glu, &same, 1, rng, true);
    const Inputs in = Snapshot(glu, same);
    ASSERT_EQ(RunUnit(glu, same, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (DType out_t : kComputeTypes) {
      SCOPED_TRACE(std::string("self ") + DTypeName(self_t) + ", out " + DTypeName(out_t));
      Operands cast = MakeOperands(glu, self_t, {4, 74}, 1, Layout::kDense, Layout::kDense, out_t);
      for (int64_t i = 0; i < cast.self.numel(); ++i) cast.self.Set(i, in.self[i]);
      ASSERT_EQ(RunUnit(glu, cast, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < cast.out.numel(); ++i) {
        const double want = RoundTo(out_t, same.out.Get(i));
        ASSERT_TRUE(SameBits(cast.out.Get(i), want))
            << "element " << i << ": " << Num(cast.out.Get(i)) << ", expected " << Num(want);
      }
    }
  }
}

// GeluMul: a null approximateOptional is "none"; and out = gelu(a) * b is GeGluV3's out with
// activateLeft, bit for bit, in each form (the same gelu, one product).
TEST(GeluMulTest, NullIsNoneAndTheOutIsGeGluV3sWithActivateLeft) {
  const Variant& none = VariantNamed("GeluMul_erf");
  const Variant& tanh = VariantNamed("GeluMul_tanh");
  ASSERT_EQ(none.api, Api::kGeluMul);
  ASSERT_EQ(tanh.approximate, 1);
  std::mt19937_64 rng(0x5EED1105);
  const std::vector<int64_t> shape = {6, 2, 70};
  for (DType t : kComputeTypes) {
    SCOPED_TRACE(DTypeName(t));
    Operands o = MakeOperands(none, t, shape, 2);
    FillInputs(none, &o, 2, rng, true);
    const Inputs in = Snapshot(none, o);
    // Null, through the entry point itself.
    const TensorPtr self = Acl(o.self), out = Acl(o.out);
    uint64_t ws = 0;
    aclOpExecutor* ex = nullptr;
    ASSERT_EQ(aclnnGeluMulGetWorkspaceSize(self.get(), nullptr, out.get(), &ws, &ex),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    std::vector<uint64_t> w((ws + 7) / 8);
    ASSERT_EQ(aclnnGeluMul(ws ? w.data() : nullptr, ws, ex, nullptr), ACLNN_SUCCESS);
    const std::vector<double> got_null = o.out.Values();
    for (const Variant* v : {&none, &tanh}) {
      Operands mul = CopyAs(*v, in, o, t, 2);
      ASSERT_EQ(RunUnit(*v, mul, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const Variant geglu{"GeGluV3", Api::kGeGluV3, Unit::kGeGlu, false, true, v->approximate, true};
      Operands ref = CopyAs(geglu, in, o, t, 2);
      ASSERT_EQ(RunUnit(geglu, ref, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> got = mul.out.Values(), want = ref.out.Values();
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_TRUE(SameBits(got[i], want[i]))
            << v->name << " element " << i << ": " << Num(got[i]) << ", GeGluV3 " << Num(want[i]);
        if (v == &none) {
          ASSERT_TRUE(SameBits(got_null[i], got[i]))
              << "null approximateOptional, element " << i << ": " << Num(got_null[i])
              << ", \"none\" " << Num(got[i]);
        }
      }
    }
  }
}

// FatreluMul's threshold: a tensor of one element of any rank (0-d, 1-d, 8-d, at an offset
// into a larger storage), whose value is read when phase 2 runs (a new value between the
// phases is the one used); a equal to it gives 0 (CANN's kernel compares greater-than), a
// NaN a gives NaN.
TEST(FatreluMulTest, ThresholdOfAnyRankReadWhenPhaseTwoRuns) {
  const std::vector<int64_t> shape = {5, 3, 140};  // halves of 70: by rows
  const std::vector<std::vector<int64_t>> thresholds = {{}, {1}, {1, 1, 1, 1, 1, 1, 1, 1}};
  std::mt19937_64 rng(0x5EED1106);
  for (DType t : kComputeTypes) {
    for (const std::vector<int64_t>& tshape : thresholds) {
      for (int64_t half : {70, 5}) {  // rows of 70 by rows; of 5 gathered
        const std::vector<int64_t> s = {shape[0], shape[1], 2 * half};
        SCOPED_TRACE(std::string(DTypeName(t)) + " threshold " + ShapeText(tshape) + " input " +
                     ShapeText(s));
        TestTensor self = TestTensor::Dense(t, s), out = TestTensor::Dense(t, {s[0], s[1], half});
        FillRandom(&self, rng, -4.0, 4.0);
        // Storage of 3 elements, the threshold the last: an offset view.
        std::vector<int64_t> storage = {3};
        TestTensor thr = TestTensor::Dense(t, {3});
        thr.Set(0, 99.0);
        thr.Set(1, 99.0);
        thr.Set(2, 0.5);
        const std::vector<int64_t> ones(tshape.size(), 1);
        const TensorPtr threshold = MakeTensor(thr.view().data, static_cast<aclDataType>(t), tshape,
                                               ones, 2, storage);
        for (int64_t i = 0; i < self.numel(); i += 11) {
          self.Set(i, i % 22 == 0 ? -1.25 : std::nan(""));  // on the threshold; NaN
        }
        const std::vector<double> x = self.Values();
        const TensorPtr in = Acl(self), o = Acl(out);
        uint64_t ws = 0;
        aclOpExecutor* ex = nullptr;
        ASSERT_EQ(aclnnFatreluMulGetWorkspaceSize(in.get(), threshold.get(), o.get(), &ws, &ex),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        thr.Set(2, -1.25);  // after phase 1: the value phase 2 reads
        std::vector<uint64_t> w((ws + 7) / 8);
        ASSERT_EQ(aclnnFatreluMul(ws ? w.data() : nullptr, ws, ex, nullptr), ACLNN_SUCCESS);
        for (int64_t i = 0; i < out.numel(); ++i) {
          int64_t pa, pb;
          split_ref::PairPositions(s, 2, i, &pa, &pb);
          const double want = RoundTo(
              t, split_ref::ForwardRef(Unit::kFatrelu, x[pa], x[pb], {0, false, -1.25}).out);
          ASSERT_TRUE(SameBits(out.Get(i), want))
              << "element " << i << ": a=" << Num(x[pa]) << " b=" << Num(x[pb])
              << " got=" << Num(out.Get(i)) << " want=" << Num(want);
        }
      }
    }
  }
}

// v rounded to FLOAT as IEEE rounds it, past FLT_MAX too (a plain cast of such a double is
// undefined, and a compiler may fold it to anything).
double AsFloat(double v) {
  if (std::isfinite(v) && std::fabs(v) >= 3.4028235677973366e38) return std::copysign(INFINITY, v);
  return static_cast<float>(v);
}

// SituGlu's and SituGluGrad's beta and linearBeta are read as FLOAT values, as CANN's
// kernel reads them: a double that rounds to the same f32 gives the same bits. Degenerate
// ones give the formula's IEEE values, which the reference computes too: beta 0 gives +-0
// (NaN where the gate is 0), an infinite beta or linearBeta NaN (tanh 0 times inf), a NaN
// linearBeta leaves up as it is (it is not above 0), a NaN beta gives NaN, 1e300 reads as
// inf and 1e-45 as the least subnormal.
TEST(SituGluTest, AttributesAreReadAsFloatAndDegenerateOnesGiveTheFormulasValues) {
  const std::vector<int64_t> shape = {3, 5, 40};  // halves of 20 along dim 2
  std::mt19937_64 rng(0x5EED1107);
  const std::pair<double, double> degenerate[] = {
      {0.0, 0.0},      {-0.0, 2.0}, {INFINITY, 0.0}, {1.0, INFINITY}, {1.0, NAN},
      {NAN, 0.0},      {1e300, 0.0}, {-1e300, 1e300}, {1e-45, 1e-45}, {-3.0, 0.125}};
  for (const char* name : {"SituGlu", "SituGluGrad"}) {
    const Variant& base = VariantNamed(name);
    for (DType t : kComputeTypes) {
      SCOPED_TRACE(std::string(name) + " " + DTypeName(t));
      Operands o = MakeOperands(base, t, shape, 2);
      FillInputs(base, &o, 2, rng, true);
      const Inputs in = Snapshot(base, o);
      Variant as_double = base, as_float = base;
      as_double.beta = 0.1, as_double.linear_beta = 0.3;
      as_float.beta = static_cast<float>(0.1), as_float.linear_beta = static_cast<float>(0.3);
      Operands p = CopyAs(as_double, in, o, t, 2), q = CopyAs(as_float, in, o, t, 2);
      ASSERT_EQ(RunUnit(as_double, p, 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(RunUnit(as_float, q, 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> got = Results(base, p), want = Results(base, q);
      for (size_t i = 0; i < got.size(); ++i) {
        ASSERT_TRUE(SameBits(got[i], want[i]))
            << "beta 0.1: element " << i << " " << Num(got[i]) << ", with 0.1f " << Num(want[i]);
      }
      for (const auto& [beta, linear_beta] : degenerate) {
        Variant v = base;
        v.beta = beta, v.linear_beta = linear_beta;
        Operands d = CopyAs(v, in, o, t, 2);
        ASSERT_EQ(RunUnit(v, d, 2), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        Variant read = v;  // the values the kernel reads
        read.beta = AsFloat(beta), read.linear_beta = AsFloat(linear_beta);
        CheckValues(read, in, d, 2, "beta " + Num(beta) + ", linearBeta " + Num(linear_beta));
      }
    }
  }
}

// ops-nn's examples for aclnnSituGlu and aclnnSituGluGrad: x [2, 32] holding 0 to 63, dim
// -1, beta 1, linearBeta 0, activateLeft true (and gradY [2, 16] of ones), against the
// double reference.
TEST(SituGluTest, OpsNnExamples) {
  for (const char* name : {"SituGlu", "SituGluGrad"}) {
    const Variant& v = VariantNamed(name);
    Operands o = MakeOperands(v, DType::kFloat32, {2, 32}, 1);
    for (int64_t i = 0; i < 64; ++i) o.self.Set(i, static_cast<double>(i));
    for (int64_t i = 0; v.grad && i < 32; ++i) o.dy.Set(i, 1.0);
    const Inputs in = Snapshot(v, o);
    ASSERT_EQ(RunUnit(v, o, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(CheckValues(v, in, o, 1, std::string(name) + " example"), 0);
  }
}

// groupIndexOptional's cases: the counts, and the rows they compute with pre 5 (a sum below
// 0 none, above pre all, saturated past INT64_MAX; an empty one none).
struct GroupCase {
  std::vector<int64_t> counts;
  int64_t rows_of_five;
};
const std::vector<GroupCase>& GroupCases() {
  static const int64_t big = std::numeric_limits<int64_t>::max();
  static const std::vector<GroupCase> cases = {
      {{2}, 2},   {{1, 0, 2}, 3}, {{}, 0},       {{0}, 0},      {{-3, 4}, 1},
      {{-10}, 0}, {{5}, 5},       {{100, 7}, 5}, {{big, 1}, 5}, {{3, -big}, 0}};
  return cases;
}

// Both phases of v (ClippedSwiglu or its gradient) with groupIndexOptional holding `counts`:
// every second element of a storage of twice the count, the values set after phase 1 (the
// ones phase 2 must read).
aclnnStatus RunGrouped(const Variant& v, const Operands& o, int64_t dim,
                       const std::vector<int64_t>& counts) {
  const int64_t n = static_cast<int64_t>(counts.size());
  std::vector<int64_t> storage(static_cast<size_t>(2 * n + 1), 77);
  const TensorPtr group =
      MakeTensor(storage.data(), ACL_INT64, {n}, {2}, 0, {std::max<int64_t>(2 * n, 1)});
  const TensorPtr self = Acl(o.self), out = Acl(o.out);
  const TensorPtr dy = v.grad ? Acl(o.dy) : nullptr;
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  const aclnnStatus st =
      v.grad ? aclnnClippedSwigluGradGetWorkspaceSize(dy.get(), self.get(), group.get(), dim,
                                                      v.alpha, v.limit, v.bias, v.interleaved,
                                                      out.get(), &ws, &ex)
             : aclnnClippedSwigluGetWorkspaceSize(self.get(), group.get(), dim, v.alpha, v.limit,
                                                  v.bias, v.interleaved, out.get(), &ws, &ex);
  if (st != ACLNN_SUCCESS) return st;
  for (int64_t i = 0; i < n; ++i) storage[static_cast<size_t>(2 * i)] = counts[i];
  std::vector<uint64_t> w((ws + 7) / 8);
  return (v.grad ? aclnnClippedSwigluGrad : aclnnClippedSwiglu)(ws ? w.data() : nullptr, ws, ex,
                                                                nullptr);
}

// body(v, o, in, dim, rows, before) for each variant named, along dim 1 of [5, 4, 6] (pre 5,
// M 24) and dim 0 of [4, 6] (pre 1), every dtype and GroupCase: o ran with its counts (out
// filled with 0x5A before, `before` its bytes then), in its inputs, rows the rows computed.
template <class Body>
void ForEachGroupCase(std::initializer_list<const char*> names, uint64_t seed, Layout out_layout,
                      Body body) {
  std::mt19937_64 rng(seed);
  for (const char* name : names) {
    const Variant& v = VariantNamed(name);
    for (const auto& [shape, dim] : {std::make_pair(std::vector<int64_t>{5, 4, 6}, int64_t{1}),
                                     std::make_pair(std::vector<int64_t>{4, 6}, int64_t{0})}) {
      const int64_t pre = dim == 0 ? 1 : shape[0];
      for (DType t : kComputeTypes) {
        for (const GroupCase& c : GroupCases()) {
          SCOPED_TRACE(std::string(name) + " " + DTypeName(t) + " " + ShapeText(shape) +
                       " counts " + ShapeText(c.counts));
          Operands o = MakeOperands(v, t, shape, dim, Layout::kDense, out_layout);
          FillInputs(v, &o, dim, rng, true);
          o.out.storage().FillBytes(0x5A);
          const Inputs in = Snapshot(v, o);
          const std::vector<uint8_t> before = o.out.storage().Snapshot();
          ASSERT_EQ(RunGrouped(v, o, dim, c.counts), ACLNN_SUCCESS) << aclGetRecentErrMsg();
          body(v, o, in, dim, std::min(c.rows_of_five, pre), before);
        }
      }
    }
  }
}

// ClippedSwiglu's groupIndexOptional, read when phase 2 runs: only the first sum rows of
// [pre, M] are computed (against the double reference), the rest of out keeps its bytes;
// a strided one is read through its view; a value set after phase 1 is the one used; both
// pairings.
TEST(ClippedSwigluTest, GroupIndexComputesTheRowsItSumsToAndLeavesTheRest) {
  ForEachGroupCase({"ClippedSwiglu", "ClippedSwiglu_halves"}, 0x5EED1108, Layout::kDense,
                   [](const Variant& v, const Operands& o, const Inputs& in, int64_t dim,
                      int64_t rows, const std::vector<uint8_t>& before) {
    const std::vector<int64_t>& shape = o.self.shape();
    const int64_t per_row = o.out.numel() / (dim == 0 ? 1 : shape[0]);
    const DType t = o.out.dtype();
    const int64_t es = static_cast<int64_t>(DTypeSize(t));
    const std::vector<uint8_t> after = o.out.storage().Snapshot();
    for (int64_t i = 0; i < o.out.numel(); ++i) {
      if (i < rows * per_row) {
        int64_t pa, pb;
        Pair(v, shape, dim, i, &pa, &pb);
        const double exact = split_ref::ForwardRef(v.unit, in.self[pa], in.self[pb], v.attrs()).out;
        ASSERT_TRUE(split_ref::WithinTolerance(t, o.out.Get(i), exact, 0.0))
            << "element " << i << ": got " << Num(o.out.Get(i)) << ", exact " << Num(exact);
      } else {
        const int64_t at = o.out.StorageIndex(i) * es;
        ASSERT_TRUE(std::equal(after.begin() + at, after.begin() + at + es, before.begin() + at))
            << "element " << i << " past the " << rows << " rows was written";
      }
    }
  });
}

// Interleaved pairs neighbouring elements of the dims from dim on taken as one axis: x of any
// layout whose last dims hold a strided run of an even count (a transposed or padded x with
// an even last dim) is taken, with the dense results; x without one ([4, 4, 5] padded, from
// dim 0), or out whose dims from dim on are not one strided run, is refused (161002, naming
// it, nothing written).
TEST(ClippedSwigluTest, InterleavedTakesAnyLayoutWithARunOfPairs) {
  const Variant& v = VariantNamed("ClippedSwiglu");
  std::mt19937_64 rng(0x5EED1109);
  for (int64_t dim : {0, 1, 2}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    for (Layout l : {Layout::kTransposed, Layout::kOffset, Layout::kStride3}) {
      Operands o = MakeOperands(v, DType::kFloat32, {4, 4, 6}, dim, l, Layout::kStride2);
      FillInputs(v, &o, dim, rng, true);
      const Inputs in = Snapshot(v, o);
      ASSERT_EQ(RunUnit(v, o, dim), ACLNN_SUCCESS) << LayoutName(l) << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(CheckValues(v, in, o, dim, LayoutName(l)), 0);
    }
    for (Layout l : {Layout::kTransposed, Layout::kOffset}) {
      Operands o = MakeOperands(v, DType::kFloat32, {4, 4, 6}, dim, Layout::kDense, l);
      FillInputs(v, &o, dim, rng, false);
      const std::vector<uint8_t> before = o.out.storage().Snapshot();
      const aclnnStatus st = RunUnit(v, o, dim);
      if (dim == 2) {  // one dim from dim on: any stride is a run
        EXPECT_EQ(st, ACLNN_SUCCESS) << aclGetRecentErrMsg();
        continue;
      }
      EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << "out " << LayoutName(l);
      EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "out")) << aclGetRecentErrMsg();
      EXPECT_EQ(o.out.storage().Snapshot(), before);
    }
  }
  for (Layout l : {Layout::kTransposed, Layout::kOffset}) {
    Operands o = MakeOperands(v, DType::kFloat32, {4, 4, 5}, 0, l, Layout::kDense);
    FillInputs(v, &o, 0, rng, false);
    const std::vector<uint8_t> before = o.out.storage().Snapshot();
    EXPECT_EQ(RunUnit(v, o, 0), ACLNN_ERR_PARAM_INVALID) << "x " << LayoutName(l);
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "x")) << aclGetRecentErrMsg();
    EXPECT_EQ(o.out.storage().Snapshot(), before);
  }
}

// ops-nn's example for aclnnClippedSwiglu: x [2, 32] holding 0 to 63, groupIndexOptional {1},
// dim -1, alpha 1, limit 7, bias 1.702, interleaved: the first row against the double
// reference, the second left as it was (the example's zeros).
TEST(ClippedSwigluTest, OpsNnExample) {
  Variant v = VariantNamed("ClippedSwiglu");
  v.alpha = 1.0, v.limit = 7.0, v.bias = static_cast<float>(1.702);
  Operands o = MakeOperands(v, DType::kFloat32, {2, 32}, 1);
  for (int64_t i = 0; i < 64; ++i) o.self.Set(i, static_cast<double>(i));
  for (int64_t i = 0; i < 32; ++i) o.out.Set(i, 0.0);
  int64_t group = 1;
  const TensorPtr counts = MakeTensor(&group, ACL_INT64, {1}, {1}, 0, {1});
  const TensorPtr self = Acl(o.self), out = Acl(o.out);
  uint64_t ws = 0;
  aclOpExecutor* ex = nullptr;
  ASSERT_EQ(aclnnClippedSwigluGetWorkspaceSize(self.get(), counts.get(), -1, 1.0, 7.0, 1.702, true,
                                               out.get(), &ws, &ex),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  std::vector<uint64_t> w((ws + 7) / 8);
  ASSERT_EQ(aclnnClippedSwiglu(ws ? w.data() : nullptr, ws, ex, nullptr), ACLNN_SUCCESS);
  for (int64_t i = 0; i < 16; ++i) {
    const double exact =
        split_ref::ForwardRef(v.unit, 2.0 * i, 2.0 * i + 1, v.attrs()).out;
    EXPECT_TRUE(split_ref::WithinTolerance(DType::kFloat32, o.out.Get(i), exact, 0.0))
        << "element " << i << ": " << Num(o.out.Get(i)) << ", exact " << Num(exact);
  }
  for (int64_t i = 16; i < 32; ++i) EXPECT_EQ(o.out.Get(i), 0.0) << "element " << i;
}

// ClippedSwigluGrad's groupIndexOptional, read as the forward's: only the first sum rows of
// [pre, M] are computed (against the double reference), gradXOut's other rows are set to +0
// and its storage past the view keeps its bytes (gradXOut every second element of its
// storage); both pairings.
TEST(ClippedSwigluGradTest, GroupIndexComputesTheRowsItSumsToAndZeroesTheRest) {
  ForEachGroupCase({"ClippedSwigluGrad", "ClippedSwigluGrad_halves"}, 0x5EED110A,
                   Layout::kStride2,
                   [](const Variant& v, const Operands& o, const Inputs& in, int64_t dim,
                      int64_t rows, const std::vector<uint8_t>& before) {
    const std::vector<int64_t>& shape = o.self.shape();
    const DType t = o.out.dtype();
    const int64_t pairs = NumelOf(split_ref::HalfShape(shape, dim));
    const int64_t per_row = pairs / (dim == 0 ? 1 : shape[0]);
    for (int64_t i = 0; i < pairs; ++i) {
      int64_t pa, pb;
      Pair(v, shape, dim, i, &pa, &pb);
      if (i < rows * per_row) {
        const split_ref::Backward g =
            split_ref::BackwardRef(v.unit, in.dy[i], in.self[pa], in.self[pb], 0.0, v.attrs());
        const double slack = split_ref::GradSlack(in.dy[i], in.self[pa], in.self[pb]);
        ASSERT_TRUE(split_ref::WithinTolerance(t, o.out.Get(pa), g.da, slack))
            << "pair " << i << " a: got " << Num(o.out.Get(pa)) << ", exact " << Num(g.da);
        ASSERT_TRUE(split_ref::WithinTolerance(t, o.out.Get(pb), g.db, slack))
            << "pair " << i << " b: got " << Num(o.out.Get(pb)) << ", exact " << Num(g.db);
      } else {
        for (int64_t at : {pa, pb}) {
          ASSERT_TRUE(o.out.Get(at) == 0.0 && !std::signbit(o.out.Get(at)))
              << "element " << at << " past the " << rows << " rows: " << Num(o.out.Get(at))
              << ", expected +0";
        }
      }
    }
    std::vector<bool> in_view(static_cast<size_t>(o.out.storage().size()), false);
    for (int64_t i = 0; i < o.out.numel(); ++i) in_view[o.out.StorageIndex(i)] = true;
    const std::vector<uint8_t> after = o.out.storage().Snapshot();
    const size_t es = DTypeSize(t);
    for (size_t e = 0; e < in_view.size(); ++e) {
      ASSERT_TRUE(in_view[e] || std::equal(after.begin() + e * es, after.begin() + (e + 1) * es,
                                           before.begin() + e * es))
          << "storage element " << e << " outside gradXOut's view was written";
    }
    EXPECT_TRUE(o.out.storage().GuardsIntact());
  });
}

// Interleaved: x of any layout whose last dims hold a strided run of an even count, gradY
// whose dims from dim on are one strided run and gradXOut whose dims from x's run on are one
// too are taken, with the dense results; a gradY or gradXOut without such a run (a padded or
// transposed one split along dim 0 or 1) is refused (161002, naming it, nothing written).
TEST(ClippedSwigluGradTest, InterleavedTakesAnyLayoutWithRuns) {
  const Variant& v = VariantNamed("ClippedSwigluGrad");
  std::mt19937_64 rng(0x5EED110B);
  for (int64_t dim : {0, 1, 2}) {
    SCOPED_TRACE("dim " + std::to_string(dim));
    for (Layout l : {Layout::kStride2, Layout::kStride3}) {
      Operands o = MakeOperands(v, DType::kFloat32, {4, 4, 6}, dim, l, l);
      FillInputs(v, &o, dim, rng, true);
      const Inputs in = Snapshot(v, o);
      ASSERT_EQ(RunUnit(v, o, dim), ACLNN_SUCCESS) << LayoutName(l) << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(CheckValues(v, in, o, dim, LayoutName(l)), 0);
    }
    for (Layout l : {Layout::kTransposed, Layout::kOffset}) {
      for (const char* param : {"gradY", "gradXOut"}) {
        const bool dy_strided = std::string(param) == "gradY";
        Operands o = MakeOperands(v, DType::kFloat32, {4, 4, 6}, dim, Layout::kDense,
                                  dy_strided ? Layout::kDense : l);
        if (dy_strided) o.dy = MakeLayout(l, DType::kFloat32, o.dy.shape());  // gradY alone
        FillInputs(v, &o, dim, rng, false);
        const std::vector<uint8_t> before = o.out.storage().Snapshot();
        const aclnnStatus st = RunUnit(v, o, dim);
        if (dim == 2) {  // one dim from dim on: any stride is a run
          EXPECT_EQ(st, ACLNN_SUCCESS) << param << " " << aclGetRecentErrMsg();
          continue;
        }
        EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << param << " " << LayoutName(l);
        EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), param)) << aclGetRecentErrMsg();
        EXPECT_EQ(o.out.storage().Snapshot(), before);
      }
    }
  }
}

// ops-nn's example for aclnnClippedSwigluGrad: x [2, 32] and gradY [2, 16] of ones, no
// groupIndexOptional, dim -1, alpha 1.702 (as a float), limit 7, bias 1, interleaved,
// against the double reference.
TEST(ClippedSwigluGradTest, OpsNnExample) {
  const Variant& v = VariantNamed("ClippedSwigluGrad");
  Operands o = MakeOperands(v, DType::kFloat32, {2, 32}, 1);
  for (int64_t i = 0; i < 64; ++i) o.self.Set(i, 1.0);
  for (int64_t i = 0; i < 32; ++i) o.dy.Set(i, 1.0);
  const Inputs in = Snapshot(v, o);
  ASSERT_EQ(RunUnit(v, o, -1), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(CheckValues(v, in, o, 1, "ClippedSwigluGrad example"), 0);
}

// Printed when the run ends: the largest error each variant and dtype showed, over every
// target and case that ran.
class ReportLargestErrors : public ::testing::Environment {
 public:
  void TearDown() override {
    if (Worst().empty()) return;
    std::printf(
        "\nLargest error against the double reference: ULP of the dtype; fraction "
        "of the bound; ULP where the slack is within the ULP bound:\n");
    for (const auto& [name, w] : Worst()) {
      std::printf("  %-34s %10.3f  %5.3f  %7.3f\n", name.c_str(), w[0], w[1], w[2]);
    }
  }
};
const ::testing::Environment* const kReport =
    ::testing::AddGlobalTestEnvironment(new ReportLargestErrors);

}  // namespace
}  // namespace test
}  // namespace hostnn
