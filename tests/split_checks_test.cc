// The gated linear units' checks through their CANN C API: each refusal and its status (null
// operands 161001; 0-d or 9-D self, an odd extent, a dim out of range, wrong shapes or dtypes,
// GeGlu's approximate not 0 or 1, an output overlapping an input: 161002; GeluMul's and
// FatreluMul's tiling limits, approximateOptional and threshold, and SituGlu's,
// SituGluGrad's, ClippedSwiglu's and ClippedSwigluGrad's 0-d self, odd extent, dim and
// shapes, which their tilings check, with groupIndexOptional and ClippedSwigluGrad's limit:
// 561002),
// writing nothing;
// empty tensors; a gradient in place on self; ops-nn's examples. Values: split_ops_test.cc.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <random>
#include <string>
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
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"

namespace hostnn {
namespace test {
namespace {

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

// One entry point: grad = a gradient (dy in, self's shape out); gelu = GeGlu's second
// output (forward) or its `gelu` input (gradient); tiling: its tiling refuses a 0-d self, an
// odd extent, a dim out of range and wrong shapes (561002; an op_api's 161002 otherwise).
struct Variant {
  const char* name;
  Api api;
  bool grad, gelu, left;
  bool tiling = false;
};
const Variant kVariants[] = {
    {"Glu", Api::kGlu, false, false, false},
    {"GluBackward", Api::kGluBackward, true, false, false},
    {"SwiGlu", Api::kSwiGlu, false, false, false},
    {"SwiGluGrad", Api::kSwiGluGrad, true, false, false},
    {"GeGlu", Api::kGeGlu, false, true, false},
    {"GeGluV3", Api::kGeGluV3, false, true, true},
    {"GeGluBackward", Api::kGeGluB, true, true, false},
    {"GeGluV3Backward", Api::kGeGluV3B, true, true, true},
    {"SituGlu", Api::kSituGlu, false, false, true, true},
    {"SituGluGrad", Api::kSituGluGrad, true, false, true, true},
    {"ClippedSwiglu", Api::kClippedSwiglu, false, false, true, true},  // interleaved, no groups
    {"ClippedSwigluGrad", Api::kClippedSwigluGrad, true, false, true, true},
};

// The status of a refused split (a 0-d self, an odd extent, a dim out of range, a wrong
// shape): the op_api's 161002, or the tiling's 561002.
aclnnStatus SplitRefusal(const Variant& v) {
  return v.tiling ? ACLNN_ERR_INNER_TILING_ERROR : ACLNN_ERR_PARAM_INVALID;
}

// Test names and messages show a variant by its name.
void PrintTo(const Variant& v, std::ostream* os) { *os << v.name; }

// The operands of a call, by role.
enum Role { kSelf, kDy, kGelu, kOut, kOutGelu, kThreshold, kGroup, kRoles };
const char* const kRoleNames[kRoles] = {"self",    "dy",        "gelu",
                                        "out",     "outGelu",   "threshold",
                                        "groupIndexOptional"};

// One call: each role's shape and dtype (used[r] false: the entry point has no such
// operand), a NULL tensor, or a view into another role's storage at an offset.
struct Spec {
  bool used[kRoles] = {}, null[kRoles] = {};
  std::vector<int64_t> shape[kRoles];
  DType dtype[kRoles] = {};
  int share[kRoles] = {-1, -1, -1, -1, -1, -1, -1};
  int64_t offset[kRoles] = {};
  int64_t dim = -1, approximate = 0;
  const char* mode = nullptr;  // GeluMul's approximateOptional
  double beta = 1.0, linear_beta = 0.0;  // SituGlu's
  double limit = 7.0;                    // ClippedSwigluGrad's
  bool null_ws = false, null_exec = false;
};

// A valid problem: self of `shape` split along dim, every operand of dtype t.
Spec Valid(const Variant& v, const std::vector<int64_t>& shape = {4, 6}, int64_t dim = -1,
           DType t = DType::kFloat32) {
  Spec s;
  std::vector<int64_t> half = shape;
  const int64_t rank = static_cast<int64_t>(shape.size()), d = dim < 0 ? dim + rank : dim;
  if (d >= 0 && d < rank) half[d] /= 2;
  const std::vector<int64_t> one = {1};  // FatreluMul's threshold
  const bool used[kRoles] = {true, v.grad, v.grad && v.gelu, true, !v.grad && v.gelu,
                             v.api == Api::kFatreluMul, false};  // groupIndexOptional: null
  const std::vector<int64_t>* sh[kRoles] = {&shape, &half, &half, v.grad ? &shape : &half, &half,
                                            &one, &one};
  for (int r = 0; r < kRoles; ++r) s.used[r] = used[r], s.shape[r] = *sh[r], s.dtype[r] = t;
  s.dim = dim;
  return s;
}

// A Spec made real: each storage holds the largest view plus 8 elements (room for the views
// other roles take into it), inputs in [-4, 4], outputs the 0xA5 fill of Buffer.
class Call {
 public:
  Call(const Variant& v, const Spec& s) : v_(v), s_(s) {
    std::mt19937_64 rng(0x5EED1201);
    int64_t n = 1;
    for (int r = 0; r < kRoles; ++r) n = std::max(n, s.used[r] ? NumelOf(s.shape[r]) + 8 : 1);
    for (int r = 0; r < kRoles; ++r) {
      if (!s.used[r] || s.share[r] >= 0) continue;
      t_[r] = TestTensor::Strided(s.dtype[r], s.shape[r], RowMajorStrides(s.shape[r]), 0, {n});
      // Row counts from 0 to 4: a value any dtype a refusal test gives them holds.
      if (r == kGroup) FillRandom(&t_[r], rng, 0.0, 4.0);
      if (r < kOut || r == kThreshold) FillRandom(&t_[r], rng, -4.0, 4.0);
    }
    for (int r = 0; r < kRoles; ++r) {
      if (!s.used[r] || s.share[r] < 0) continue;
      t_[r] = t_[s.share[r]];  // the same storage
      t_[r].view().shape = s.shape[r];
      t_[r].view().strides = RowMajorStrides(s.shape[r]);
      t_[r].view().offset = s.offset[r];
    }
    for (int r = 0; r < kRoles; ++r) before_[r] = Bytes(r);
  }

  TestTensor& at(Role r) { return t_[r]; }

  aclnnStatus Phase1() {
    TensorPtr keep[kRoles];
    aclTensor* t[kRoles] = {};
    for (int r = 0; r < kRoles; ++r) {
      if (!s_.used[r] || s_.null[r]) continue;
      const TensorView& view = t_[r].view();
      keep[r] = MakeTensor(view.data, static_cast<aclDataType>(view.dtype), view.shape,
                           view.strides, view.offset, view.storage_shape);
      EXPECT_NE(keep[r], nullptr) << "aclCreateTensor refused " << kRoleNames[r];
      t[r] = keep[r].get();
    }
    ws_ = kWsSentinel;
    exec_ = ExecSentinel();
    uint64_t* ws = s_.null_ws ? nullptr : &ws_;
    aclOpExecutor** ex = s_.null_exec ? nullptr : &exec_;
    const int64_t dim = s_.dim, ap = s_.approximate;
    switch (v_.api) {
      case Api::kGlu:
        return aclnnGluGetWorkspaceSize(t[kSelf], dim, t[kOut], ws, ex);
      case Api::kGluBackward:
        return aclnnGluBackwardGetWorkspaceSize(t[kDy], t[kSelf], dim, t[kOut], ws, ex);
      case Api::kSwiGlu:
        return aclnnSwiGluGetWorkspaceSize(t[kSelf], dim, t[kOut], ws, ex);
      case Api::kSwiGluGrad:
        return aclnnSwiGluGradGetWorkspaceSize(t[kDy], t[kSelf], dim, t[kOut], ws, ex);
      case Api::kGeGlu:
        return aclnnGeGluGetWorkspaceSize(t[kSelf], dim, ap, t[kOut], t[kOutGelu], ws, ex);
      case Api::kGeGluV3:
        return aclnnGeGluV3GetWorkspaceSize(t[kSelf], dim, ap, v_.left, t[kOut], t[kOutGelu], ws,
                                            ex);
      case Api::kGeGluB:
        return aclnnGeGluBackwardGetWorkspaceSize(t[kDy], t[kSelf], t[kGelu], dim, ap, t[kOut], ws,
                                                  ex);
      case Api::kGeGluV3B:
        return aclnnGeGluV3BackwardGetWorkspaceSize(t[kDy], t[kSelf], t[kGelu], dim, ap, v_.left,
                                                    t[kOut], ws, ex);
      case Api::kGeluMul: {  // a copy: the entry point takes a char*
        std::string mode = s_.mode != nullptr ? s_.mode : "";
        return aclnnGeluMulGetWorkspaceSize(t[kSelf], s_.mode != nullptr ? mode.data() : nullptr,
                                            t[kOut], ws, ex);
      }
      case Api::kFatreluMul:
        return aclnnFatreluMulGetWorkspaceSize(t[kSelf], t[kThreshold], t[kOut], ws, ex);
      case Api::kSituGlu:
        return aclnnSituGluGetWorkspaceSize(t[kSelf], dim, s_.beta, s_.linear_beta, v_.left,
                                            t[kOut], ws, ex);
      case Api::kSituGluGrad:
        return aclnnSituGluGradGetWorkspaceSize(t[kDy], t[kSelf], dim, s_.beta, s_.linear_beta,
                                                v_.left, t[kOut], ws, ex);
      case Api::kClippedSwiglu:  // CANN's defaults, interleaved
        return aclnnClippedSwigluGetWorkspaceSize(t[kSelf], t[kGroup], dim, 1.702, 7.0, 1.0, true,
                                                  t[kOut], ws, ex);
      case Api::kClippedSwigluGrad:  // CANN's defaults but limit, interleaved
        return aclnnClippedSwigluGradGetWorkspaceSize(t[kDy], t[kSelf], t[kGroup], dim, 1.702,
                                                      s_.limit, 1.0, true, t[kOut], ws, ex);
    }
    return ACLNN_ERR_INNER;
  }

  // Both phases; phase 2 with a workspace of the size phase 1 asked for.
  aclnnStatus Run() {
    if (const aclnnStatus st = Phase1(); st != ACLNN_SUCCESS) return st;
    std::vector<uint64_t> w((ws_ + 7) / 8);
    const decltype(&aclnnGlu) phase2[] = {
        aclnnGlu,           aclnnGluBackward,     aclnnSwiGlu,     aclnnSwiGluGrad,
        aclnnGeGlu,         aclnnGeGluV3,         aclnnGeGluBackward, aclnnGeGluV3Backward,
        aclnnGeluMul,       aclnnFatreluMul,      aclnnSituGlu,    aclnnSituGluGrad,
        aclnnClippedSwiglu, aclnnClippedSwigluGrad};
    return phase2[static_cast<int>(v_.api)](ws_ ? w.data() : nullptr, ws_, exec_, nullptr);
  }

  // Whether every storage holds the bytes it held after construction.
  bool Unchanged() const {
    bool same = true;
    for (int r = 0; r < kRoles; ++r) same = same && Bytes(r) == before_[r];
    return same;
  }
  uint64_t ws() const { return ws_; }

 private:
  std::vector<uint8_t> Bytes(int r) const {
    return s_.used[r] ? t_[r].storage().Snapshot() : std::vector<uint8_t>{};
  }

  const Variant v_;
  Spec s_;
  TestTensor t_[kRoles];
  std::vector<uint8_t> before_[kRoles];
  uint64_t ws_ = kWsSentinel;
  aclOpExecutor* exec_ = ExecSentinel();
};

// The same bits, values read through the views (a NaN matches any NaN).
bool SameBits(double x, double y) {
  return (std::isnan(x) && std::isnan(y)) || (x == y && std::signbit(x) == std::signbit(y));
}

class SplitChecksTest : public ::testing::TestWithParam<Variant> {
 protected:
  const Variant& v() const { return GetParam(); }
  // Runs s: status `code`, and (on a refusal) nothing written anywhere.
  void Expect(const Spec& s, aclnnStatus code, const std::string& what) {
    Call call(v(), s);
    const aclnnStatus st = call.Run();
    EXPECT_EQ(st, code) << v().name << ": " << what << ": " << aclGetRecentErrMsg();
    if (code != ACLNN_SUCCESS) EXPECT_TRUE(call.Unchanged()) << what << ": an operand was written";
  }
};

TEST_P(SplitChecksTest, ValidCallsSucceedAndWrite) {
  for (DType t : kComputeTypes) {
    for (int64_t dim : {-1, 1, -2, 0}) {
      Call call(v(), Valid(v(), {4, 6}, dim, t));
      ASSERT_EQ(call.Run(), ACLNN_SUCCESS)
          << DTypeName(t) << " dim " << dim << ": " << aclGetRecentErrMsg();
      EXPECT_FALSE(call.Unchanged()) << "nothing was written";
    }
  }
}

TEST_P(SplitChecksTest, NullOperandsAre161001) {
  for (int r = 0; r < kRoles; ++r) {
    Spec s = Valid(v());
    if (!s.used[r]) continue;
    s.null[r] = true;
    s.approximate = 2;  // a null operand is found before the attribute
    Expect(s, ACLNN_ERR_PARAM_NULLPTR, std::string("null ") + kRoleNames[r]);
  }
  for (bool exec : {false, true}) {
    Spec s = Valid(v());
    (exec ? s.null_exec : s.null_ws) = true;
    Expect(s, ACLNN_ERR_PARAM_NULLPTR, exec ? "null executor" : "null workspaceSize");
  }
}

// The variant's operator.
Op OpOf(const Variant& v) {
  for (Op op : AllOps()) {
    if (std::string(GetOpInfo(op).name) == v.name) return op;
  }
  ADD_FAILURE() << "no operator " << v.name;
  return Op::kGlu;
}

// 161002 for a 9-D self (but where the op_api checks no rank: MaxRank); SplitRefusal for
// the rest.
TEST_P(SplitChecksTest, RanksExtentsAndDimsAreRefused) {
  const aclnnStatus split = SplitRefusal(v());
  Expect(Valid(v(), {}, 0), split, "0-d self");
  Expect(Valid(v(), {}, -1), split, "0-d self, dim -1");
  Expect(Valid(v(), {2, 1, 1, 1, 1, 1, 1, 1, 6}, -1),
         MaxRank(OpOf(v())) > kMaxDims ? ACLNN_SUCCESS : ACLNN_ERR_PARAM_INVALID, "9-D self");
  Expect(Valid(v(), {2, 1, 1, 1, 1, 1, 1, 6}, -1), ACLNN_SUCCESS, "8-D self");
  Expect(Valid(v(), {4, 5}, -1), split, "odd extent 5 along dim -1");
  // Odd along dim 0 although the extents from dim on hold an even count (12).
  Expect(Valid(v(), {3, 4}, 0), split, "odd extent 3 along dim 0");
  for (int64_t dim : {int64_t{2}, int64_t{-3}, int64_t{100}, std::numeric_limits<int64_t>::max(),
                      std::numeric_limits<int64_t>::min()}) {
    Spec s = Valid(v());
    s.dim = dim;
    Expect(s, split, "dim " + std::to_string(dim) + " of a 2-D self");
  }
}

// GeGluBackward's and GeGluV3Backward's op_api files check no rank (MaxRank): a self of 10
// dims split along its first, a middle and its last dim gives the bits of the same
// elements viewed in 3 dims [before, dim, after] (split_ops_test holds those to the double
// reference).
TEST_P(SplitChecksTest, MoreThanEightDimsWhereTheOpApiChecksNone) {
  if (MaxRank(OpOf(v())) <= kMaxDims) GTEST_SKIP() << "its op_api refuses a ninth dim";
  const std::vector<int64_t> shape = {2, 1, 3, 1, 1, 4, 1, 1, 2, 6};
  for (int64_t dim : {int64_t{0}, int64_t{5}, int64_t{-1}}) {
    const int64_t d = dim < 0 ? dim + 10 : dim;
    int64_t before = 1, after = 1;
    for (int64_t i = 0; i < d; ++i) before *= shape[static_cast<size_t>(i)];
    for (int64_t i = d + 1; i < 10; ++i) after *= shape[static_cast<size_t>(i)];
    for (DType t : kComputeTypes) {
      SCOPED_TRACE(std::string(DTypeName(t)) + " dim " + std::to_string(dim));
      Call wide(v(), Valid(v(), shape, dim, t));
      Call flat(v(), Valid(v(), {before, shape[static_cast<size_t>(d)], after}, 1, t));
      ASSERT_EQ(wide.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(flat.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      const std::vector<double> a = wide.at(kOut).Values(), b = flat.at(kOut).Values();
      ASSERT_EQ(a.size(), b.size());
      for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(SameBits(a[i], b[i])) << "element " << i;
    }
  }
}

// Every wrong shape: SplitRefusal.
TEST_P(SplitChecksTest, WrongShapesAreRefused) {
  std::vector<std::pair<Role, std::vector<int64_t>>> wrongs;
  if (v().grad) {
    wrongs = {{kOut, {4, 3}}, {kOut, {4, 7}}, {kOut, {5, 6}}, {kOut, {24}},
              {kDy, {4, 6}},  {kDy, {3, 3}},  {kDy, {12}},    {kDy, {4, 3, 1}}};
    if (v().gelu) wrongs.insert(wrongs.end(), {{kGelu, {4, 6}}, {kGelu, {4, 2}}, {kGelu, {12}}});
  } else {
    wrongs = {{kOut, {4, 6}}, {kOut, {4, 4}}, {kOut, {3, 3}}, {kOut, {12}}, {kOut, {1, 4, 3}}};
    if (v().gelu) wrongs.insert(wrongs.end(), {{kOutGelu, {4, 6}}, {kOutGelu, {3, 3}}});
  }
  for (const auto& [role, shape] : wrongs) {
    Spec s = Valid(v());
    s.shape[role] = shape;
    Expect(s, SplitRefusal(v()), std::string(kRoleNames[role]) + " " + ShapeText(shape));
  }
}

TEST_P(SplitChecksTest, WrongDtypesAre161002) {
  // DOUBLE is taken where op_api lists it (Glu, GluBackward: tests/glu_double_test.cc).
  const bool takes_double = v().api == Api::kGlu || v().api == Api::kGluBackward;
  for (DType t : {DType::kFloat64, DType::kInt32}) {
    if (takes_double && t == DType::kFloat64) continue;
    Expect(Valid(v(), {4, 6}, -1, t), ACLNN_ERR_PARAM_INVALID,
           std::string("every operand ") + DTypeName(t));
  }
  for (int r = 0; r < kRoles; ++r) {
    Spec s = Valid(v());
    if (!s.used[r]) continue;
    // Glu takes any pair of float dtypes (it casts its result); nothing else may differ.
    for (DType t : {DType::kFloat16, DType::kBFloat16, DType::kFloat64, DType::kInt32}) {
      if (v().api == Api::kGlu && t != DType::kInt32) continue;
      s.dtype[r] = t;
      Expect(s, ACLNN_ERR_PARAM_INVALID, std::string(kRoleNames[r]) + " " + DTypeName(t));
    }
  }
}

TEST_P(SplitChecksTest, ApproximateOtherThanZeroOrOneIs161002) {
  if (!v().gelu) GTEST_SKIP() << "no approximate";
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{4, 6}, {3, 0, 4}}) {
    for (int64_t ap : {int64_t{2}, int64_t{-1}, int64_t{100}}) {
      Spec s = Valid(v(), shape);
      s.approximate = ap;
      Expect(s, ACLNN_ERR_PARAM_INVALID, ShapeText(shape) + " approximate " + std::to_string(ap));
    }
  }
  // The message quotes the integer passed, exactly, at the ends of int64_t and past 2^53.
  for (int64_t ap : {std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min(),
                     (int64_t{1} << 53) + 1}) {
    Spec s = Valid(v());
    s.approximate = ap;
    Expect(s, ACLNN_ERR_PARAM_INVALID, "approximate " + std::to_string(ap));
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("got " + std::to_string(ap)), std::string::npos) << msg;
  }
  // The shapes are checked first: with out's wrong too, the refusal names out.
  Spec s = Valid(v());
  s.approximate = 2;
  s.shape[kOut] = {4, 5};
  Expect(s, ACLNN_ERR_PARAM_INVALID, "approximate 2 and out [4, 5]");
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), v().grad ? "gradInput" : "out"))
      << aclGetRecentErrMsg();
}

TEST_P(SplitChecksTest, OutputOverlappingAnInputIs161002) {
  struct Overlap {
    Role output, input;
    int64_t offset;
  };
  // (A gradient's out at offset 0 of self's storage is self itself: in place, below.)
  std::vector<Overlap> overlaps = {{kOut, kSelf, 1}, {kOut, kSelf, 5}};
  if (!v().grad) overlaps.push_back({kOut, kSelf, 0});
  if (v().grad) overlaps.insert(overlaps.end(), {{kOut, kDy, 0}, {kOut, kDy, 3}});
  if (v().grad && v().gelu) overlaps.push_back({kOut, kGelu, 2});
  if (!v().grad && v().gelu)
    overlaps.insert(overlaps.end(), {{kOutGelu, kSelf, 0}, {kOutGelu, kSelf, 7}});
  for (const Overlap& o : overlaps) {
    Spec s = Valid(v());
    s.share[o.output] = o.input;
    s.offset[o.output] = o.offset;
    Expect(s, ACLNN_ERR_PARAM_INVALID,
           std::string(kRoleNames[o.output]) + " in " + kRoleNames[o.input] + "'s storage at " +
               std::to_string(o.offset));
  }
}

// A gradient's out may be self itself (the same view), in place as hostnn takes any
// operator's output: each pair is read before either of its results is written, so the
// bits are the out-of-place ones.
TEST_P(SplitChecksTest, GradientInPlaceOnSelfGivesTheOutOfPlaceBits) {
  if (!v().grad) GTEST_SKIP() << "out has half self's shape";
  const std::pair<std::vector<int64_t>, int64_t> cases[] = {
      {{4, 6}, -1}, {{8, 2050}, 1}, {{2050, 3}, 0}};
  for (const auto& [shape, dim] : cases) {
    Call apart(v(), Valid(v(), shape, dim));
    Spec s = Valid(v(), shape, dim);
    s.share[kOut] = kSelf;
    Call in_place(v(), s);
    for (Role r : {kSelf, kDy, kGelu}) {
      for (int64_t i = 0; s.used[r] && i < apart.at(r).numel(); ++i)
        in_place.at(r).Set(i, apart.at(r).Get(i));
    }
    ASSERT_EQ(apart.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(in_place.Run(), ACLNN_SUCCESS) << ShapeText(shape) << " " << aclGetRecentErrMsg();
    for (int64_t i = 0; i < apart.at(kOut).numel(); ++i) {
      const double got = in_place.at(kSelf).Get(i), want = apart.at(kOut).Get(i);
      ASSERT_TRUE(SameBits(got, want)) << ShapeText(shape) << " dim " << dim << " element " << i
                                       << ": " << Num(got) << ", out of place " << Num(want);
    }
  }
}

TEST_P(SplitChecksTest, EmptyTensorsSucceedAfterTheChecks) {
  const std::pair<std::vector<int64_t>, int64_t> empties[] = {
      {{3, 0, 4}, -1}, {{0, 6}, 1}, {{0}, 0}, {{4, 0}, 1}, {{2, 0, 2}, 1}};
  for (const auto& [shape, dim] : empties) {
    for (DType t : kComputeTypes) {
      const std::string what = ShapeText(shape) + " dim " + std::to_string(dim);
      Call call(v(), Valid(v(), shape, dim, t));
      ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(call.ws(), 0u) << what;
      EXPECT_TRUE(call.Unchanged()) << what << ": an operand was written";
    }
  }
  // The checks come first: an odd extent, a dim out of range, a wrong out shape.
  Expect(Valid(v(), {0, 5}, 1), SplitRefusal(v()), "empty, odd extent 5");
  Expect(Valid(v(), {0, 6}, 2), SplitRefusal(v()), "empty, dim 2");
  Spec s = Valid(v(), {3, 0, 4});
  s.shape[kOut] = {3, 0, v().grad ? 2 : 4};
  Expect(s, SplitRefusal(v()), "empty, out " + ShapeText(s.shape[kOut]));
}

INSTANTIATE_TEST_SUITE_P(Units, SplitChecksTest, ::testing::ValuesIn(kVariants),
                         [](const ::testing::TestParamInfo<Variant>& info) {
                           return std::string(info.param.name);
                         });

// GeluMul (no dim: the last is split). CANN's entry point is generated from its kernel's
// definition: null operands are 161001 and dtypes 161002, then its tiling refuses a mode
// approximateOptional does not name, fewer than 2 dims, a last dim of 0, over 1024 or odd,
// and over 200000 rows (561002, ACLNN_ERR_INNER_TILING_ERROR); out's shape, storage and
// overlap are hostnn's own checks (161002), after those.
const Variant kGeluMul{"GeluMul", Api::kGeluMul, false, false, false};

Spec GeluMulSpec(const std::vector<int64_t>& shape, const char* mode = nullptr,
                 DType t = DType::kFloat32) {
  Spec s = Valid(kGeluMul, shape, -1, t);
  s.mode = mode;
  return s;
}

// Runs s through v: status `code`; on a refusal, nothing written (operands and
// out-parameters) and a message naming `param`.
void ExpectCall(const Variant& v, const Spec& s, aclnnStatus code, const std::string& what,
                const char* param) {
  Call call(v, s);
  const aclnnStatus st = call.Run();
  EXPECT_EQ(st, code) << what << ": " << aclGetRecentErrMsg();
  if (code == ACLNN_SUCCESS) return;
  EXPECT_TRUE(call.Unchanged()) << what << ": an operand was written";
  if (!s.null_ws) {
    EXPECT_EQ(call.ws(), kWsSentinel) << what << ": workspaceSize was written";
  }
  if (param != nullptr) {
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), param)) << what << ": " << aclGetRecentErrMsg();
  }
}
void ExpectGeluMul(const Spec& s, aclnnStatus code, const std::string& what,
                   const char* param = nullptr) {
  ExpectCall(kGeluMul, s, code, what, param);
}

TEST(GeluMulChecksTest, ValidCallsSucceedAndWrite) {
  const std::vector<std::vector<int64_t>> shapes = {
      {4, 6}, {1, 2}, {2, 3, 1024}, {2, 1, 1, 1, 1, 1, 1, 6}, {3, 5, 38}};
  for (DType t : kComputeTypes) {
    for (const char* mode : {static_cast<const char*>(nullptr), "none", "tanh"}) {
      for (const std::vector<int64_t>& shape : shapes) {
        Call call(kGeluMul, GeluMulSpec(shape, mode, t));
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << DTypeName(t) << " " << (mode ? mode : "null")
                                             << " " << ShapeText(shape) << ": "
                                             << aclGetRecentErrMsg();
        EXPECT_FALSE(call.Unchanged()) << ShapeText(shape) << ": nothing was written";
      }
    }
  }
  // The rows at their limit.
  ExpectGeluMul(GeluMulSpec({200000, 2}, "tanh"), ACLNN_SUCCESS, "200000 rows");
  ExpectGeluMul(GeluMulSpec({400, 500, 2}), ACLNN_SUCCESS, "400 x 500 rows");
}

TEST(GeluMulChecksTest, NullOperandsAre161001BeforeEverythingElse) {
  for (Role r : {kSelf, kOut}) {
    // Also a bad mode and an odd last dim: the null operand is found first.
    Spec s = GeluMulSpec({4, 5}, "gelu");
    s.null[r] = true;
    ExpectGeluMul(s, ACLNN_ERR_PARAM_NULLPTR, std::string("null ") + kRoleNames[r],
                  r == kSelf ? "input" : "out");
  }
  for (bool exec : {false, true}) {
    Spec s = GeluMulSpec({4, 6}, "tanh");
    (exec ? s.null_exec : s.null_ws) = true;
    ExpectGeluMul(s, ACLNN_ERR_PARAM_NULLPTR, exec ? "null executor" : "null workspaceSize");
  }
}

TEST(GeluMulChecksTest, DtypesAre161002BeforeTheTilingLimits) {
  for (DType t : {DType::kFloat64, DType::kInt32, DType::kInt8}) {
    ExpectGeluMul(GeluMulSpec({4, 6}, nullptr, t), ACLNN_ERR_PARAM_INVALID,
                  std::string("every operand ") + DTypeName(t), "input");
    // A bad mode and an odd last dim too: the dtype is found first.
    ExpectGeluMul(GeluMulSpec({4, 5}, "gelu", t), ACLNN_ERR_PARAM_INVALID,
                  std::string("every operand ") + DTypeName(t) + ", mode gelu, [4, 5]", "input");
  }
  for (DType in : kComputeTypes) {
    for (DType out : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
      if (in == out) continue;
      Spec s = GeluMulSpec({4, 6}, "none", in);
      s.dtype[kOut] = out;
      ExpectGeluMul(s, ACLNN_ERR_PARAM_INVALID,
                    std::string("input ") + DTypeName(in) + ", out " + DTypeName(out), "out");
    }
  }
}

TEST(GeluMulChecksTest, TilingLimitsAre561002) {
  for (const char* mode : {"gelu", "", "Tanh", "none ", "tanhx", "erf"}) {
    ExpectGeluMul(GeluMulSpec({4, 6}, mode), ACLNN_ERR_INNER_TILING_ERROR,
                  std::string("approximateOptional \"") + mode + "\"", "approximateOptional");
  }
  // The mode is the tiling's first check.
  ExpectGeluMul(GeluMulSpec({4, 5}, "gelu"), ACLNN_ERR_INNER_TILING_ERROR, "gelu and [4, 5]",
                "approximateOptional");
  const std::vector<std::vector<int64_t>> shapes = {
      {},        {6},       {0},          {4, 5},     {4, 1},     {4, 0},
      {0, 5},    {2, 1026}, {2, 2048},    {0, 2048},  {200001, 2}, {401, 500, 2},
      {2, 3, 1025}};
  for (const std::vector<int64_t>& shape : shapes) {
    for (const char* mode : {static_cast<const char*>(nullptr), "tanh"}) {
      ExpectGeluMul(GeluMulSpec(shape, mode), ACLNN_ERR_INNER_TILING_ERROR,
                    "input " + ShapeText(shape), "input");
    }
  }
  // More than 8 dims is the descriptor's rule, checked with the ranks before the tiling.
  ExpectGeluMul(GeluMulSpec({2, 1, 1, 1, 1, 1, 1, 1, 6}), ACLNN_ERR_PARAM_INVALID, "9-D input",
                "input");
}

TEST(GeluMulChecksTest, OutShapeAndOverlapAre161002AfterTheTilingLimits) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{4, 6}, {4, 2}, {3, 3}, {12}, {1, 4, 3}, {4, 3, 1}, {2, 6}}) {
    Spec s = GeluMulSpec({4, 6}, "tanh");
    s.shape[kOut] = shape;
    ExpectGeluMul(s, ACLNN_ERR_PARAM_INVALID, "out " + ShapeText(shape), "out");
  }
  // CANN never checks out's shape: its tiling's refusal comes first.
  Spec s = GeluMulSpec({4, 6}, "gelu");
  s.shape[kOut] = {4, 5};
  ExpectGeluMul(s, ACLNN_ERR_INNER_TILING_ERROR, "gelu and out [4, 5]", "approximateOptional");
  for (int64_t offset : {0, 1, 5}) {
    Spec o = GeluMulSpec({4, 6});
    o.share[kOut] = kSelf;
    o.offset[kOut] = offset;
    ExpectGeluMul(o, ACLNN_ERR_PARAM_INVALID,
                  "out in input's storage at " + std::to_string(offset), "out");
  }
}

TEST(GeluMulChecksTest, EmptyTensorsSucceedWithNothingWritten) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 6}, {3, 0, 4}, {0, 0, 2},
                                            {300000, 0, 2}, {0, 1024}}) {
    for (DType t : kComputeTypes) {
      for (const char* mode : {static_cast<const char*>(nullptr), "tanh"}) {
        const std::string what = ShapeText(shape) + " " + DTypeName(t);
        Call call(kGeluMul, GeluMulSpec(shape, mode, t));
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
        EXPECT_EQ(call.ws(), 0u) << what;
        EXPECT_TRUE(call.Unchanged()) << what << ": an operand was written";
      }
    }
  }
  // The checks come first: a bad mode, a wrong out.
  ExpectGeluMul(GeluMulSpec({0, 6}, "gelu"), ACLNN_ERR_INNER_TILING_ERROR, "empty, gelu",
                "approximateOptional");
  Spec s = GeluMulSpec({3, 0, 4});
  s.shape[kOut] = {3, 0, 4};
  ExpectGeluMul(s, ACLNN_ERR_PARAM_INVALID, "empty, out [3, 0, 4]", "out");
}

// FatreluMul (no dim: the last is split; a one-element threshold). Generated as GeluMul's:
// null operands 161001, dtypes and ranks 161002, then its tiling's refusals (561002) in
// its order: fewer than 2 dims, a last dim of 0, a threshold of other than one element, a
// last dim over 1024 or odd, over 200000 rows; then out's shape and the storage checks
// (161002).
const Variant kFatreluMul{"FatreluMul", Api::kFatreluMul, false, false, false};

Spec FatreluMulSpec(const std::vector<int64_t>& shape,
                    const std::vector<int64_t>& threshold = {1}, DType t = DType::kFloat32) {
  Spec s = Valid(kFatreluMul, shape, -1, t);
  s.shape[kThreshold] = threshold;
  return s;
}

void ExpectFatreluMul(const Spec& s, aclnnStatus code, const std::string& what,
                      const char* param = nullptr) {
  ExpectCall(kFatreluMul, s, code, what, param);
}

TEST(FatreluMulChecksTest, ValidCallsSucceedAndWrite) {
  const std::vector<std::vector<int64_t>> shapes = {
      {4, 6}, {1, 2}, {2, 3, 1024}, {2, 1, 1, 1, 1, 1, 1, 6}, {3, 5, 38}};
  const std::vector<std::vector<int64_t>> thresholds = {{}, {1}, {1, 1, 1}, {1, 1, 1, 1, 1, 1, 1, 1}};
  for (DType t : kComputeTypes) {
    for (const std::vector<int64_t>& th : thresholds) {
      for (const std::vector<int64_t>& shape : shapes) {
        Call call(kFatreluMul, FatreluMulSpec(shape, th, t));
        ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << DTypeName(t) << " threshold " << ShapeText(th)
                                             << " " << ShapeText(shape) << ": "
                                             << aclGetRecentErrMsg();
        EXPECT_FALSE(call.Unchanged()) << ShapeText(shape) << ": nothing was written";
      }
    }
  }
  ExpectFatreluMul(FatreluMulSpec({200000, 2}), ACLNN_SUCCESS, "200000 rows");
}

TEST(FatreluMulChecksTest, NullOperandsAre161001BeforeEverythingElse) {
  for (Role r : {kSelf, kThreshold, kOut}) {
    Spec s = FatreluMulSpec({4, 5}, {2});  // an odd last dim and two thresholds too
    s.null[r] = true;
    ExpectFatreluMul(s, ACLNN_ERR_PARAM_NULLPTR, std::string("null ") + kRoleNames[r],
                     r == kSelf ? "input" : kRoleNames[r]);
  }
  for (bool exec : {false, true}) {
    Spec s = FatreluMulSpec({4, 6});
    (exec ? s.null_exec : s.null_ws) = true;
    ExpectFatreluMul(s, ACLNN_ERR_PARAM_NULLPTR, exec ? "null executor" : "null workspaceSize");
  }
}

TEST(FatreluMulChecksTest, DtypesAndRanksAre161002BeforeTheTilingLimits) {
  for (DType t : {DType::kFloat64, DType::kInt32, DType::kInt8}) {
    ExpectFatreluMul(FatreluMulSpec({4, 5}, {2}, t), ACLNN_ERR_PARAM_INVALID,
                     std::string("every operand ") + DTypeName(t) + ", [4, 5], threshold [2]",
                     "input");
  }
  for (DType in : kComputeTypes) {
    for (DType other : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
      if (in == other) continue;
      for (Role r : {kThreshold, kOut}) {
        Spec s = FatreluMulSpec({4, 6}, {2}, in);  // two thresholds: the dtype comes first
        s.dtype[r] = other;
        ExpectFatreluMul(s, ACLNN_ERR_PARAM_INVALID,
                         std::string("input ") + DTypeName(in) + ", " + kRoleNames[r] + " " +
                             DTypeName(other),
                         kRoleNames[r]);
      }
    }
  }
  // A 9-D threshold or input: the ranks, before the tiling.
  ExpectFatreluMul(FatreluMulSpec({4, 6}, {1, 1, 1, 1, 1, 1, 1, 1, 1}), ACLNN_ERR_PARAM_INVALID,
                   "9-D threshold", "threshold");
  ExpectFatreluMul(FatreluMulSpec({2, 1, 1, 1, 1, 1, 1, 1, 6}), ACLNN_ERR_PARAM_INVALID,
                   "9-D input", "input");
}

TEST(FatreluMulChecksTest, TilingLimitsAre561002InTheTilingsOrder) {
  // Fewer than 2 dims and a last dim of 0 come before the threshold's count.
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{}, {6}, {0}, {4, 0}}) {
    ExpectFatreluMul(FatreluMulSpec(shape, {2}), ACLNN_ERR_INNER_TILING_ERROR,
                     "input " + ShapeText(shape) + ", threshold [2]", "input");
  }
  // The count before the last dim's other limits and the rows.
  for (const std::vector<int64_t>& th : {std::vector<int64_t>{2}, {0}, {1, 3}, {2, 1, 1}}) {
    for (const std::vector<int64_t>& shape :
         {std::vector<int64_t>{4, 6}, {4, 5}, {2, 2048}, {200001, 2}, {0, 6}}) {
      ExpectFatreluMul(FatreluMulSpec(shape, th), ACLNN_ERR_INNER_TILING_ERROR,
                       "input " + ShapeText(shape) + ", threshold " + ShapeText(th), "threshold");
    }
  }
  const std::vector<std::vector<int64_t>> shapes = {
      {4, 5}, {4, 1}, {2, 1026}, {2, 2048}, {0, 2048}, {200001, 2}, {401, 500, 2}, {2, 3, 1025}};
  for (const std::vector<int64_t>& shape : shapes) {
    ExpectFatreluMul(FatreluMulSpec(shape), ACLNN_ERR_INNER_TILING_ERROR, "input " + ShapeText(shape),
                     "input");
  }
}

TEST(FatreluMulChecksTest, OutShapeAndOverlapAre161002AfterTheTilingLimits) {
  for (const std::vector<int64_t>& shape :
       {std::vector<int64_t>{4, 6}, {4, 2}, {3, 3}, {12}, {1, 4, 3}, {2, 6}}) {
    Spec s = FatreluMulSpec({4, 6});
    s.shape[kOut] = shape;
    ExpectFatreluMul(s, ACLNN_ERR_PARAM_INVALID, "out " + ShapeText(shape), "out");
  }
  Spec s = FatreluMulSpec({4, 6}, {2});  // the threshold's count is the tiling's, first
  s.shape[kOut] = {4, 5};
  ExpectFatreluMul(s, ACLNN_ERR_INNER_TILING_ERROR, "threshold [2] and out [4, 5]", "threshold");
  for (int64_t offset : {0, 1, 5}) {
    Spec o = FatreluMulSpec({4, 6});
    o.share[kOut] = kSelf;
    o.offset[kOut] = offset;
    ExpectFatreluMul(o, ACLNN_ERR_PARAM_INVALID,
                     "out in input's storage at " + std::to_string(offset), "out");
  }
  // out over the threshold's element: an output may not share memory with an input.
  Spec t = FatreluMulSpec({4, 6});
  t.share[kThreshold] = kOut;
  t.offset[kThreshold] = 3;
  ExpectFatreluMul(t, ACLNN_ERR_PARAM_INVALID, "threshold inside out", "out");
}

TEST(FatreluMulChecksTest, EmptyTensorsSucceedWithNothingWritten) {
  for (const std::vector<int64_t>& shape : {std::vector<int64_t>{0, 6}, {3, 0, 4}, {0, 0, 2},
                                            {300000, 0, 2}, {0, 1024}}) {
    for (DType t : kComputeTypes) {
      const std::string what = ShapeText(shape) + " " + DTypeName(t);
      Call call(kFatreluMul, FatreluMulSpec(shape, {}, t));
      ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << what << ": " << aclGetRecentErrMsg();
      EXPECT_EQ(call.ws(), 0u) << what;
      EXPECT_TRUE(call.Unchanged()) << what << ": an operand was written";
    }
  }
  Spec s = FatreluMulSpec({3, 0, 4});
  s.shape[kOut] = {3, 0, 4};
  ExpectFatreluMul(s, ACLNN_ERR_PARAM_INVALID, "empty, out [3, 0, 4]", "out");
}

// ops-nn's tiling unit tests for FatreluMul, through the C API: [2, 4] with a threshold of
// [1] in FLOAT, BFLOAT16 and FLOAT16 succeed; a 1-D [4], a threshold of [2], a last dim of
// 5, of 1026 and of 0 are the tiling's refusals (561002).
TEST(FatreluMulChecksTest, OpsNnTilingCases) {
  for (DType t : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
    ExpectFatreluMul(FatreluMulSpec({2, 4}, {1}, t), ACLNN_SUCCESS, "[2, 4]");
  }
  ExpectFatreluMul(FatreluMulSpec({4}), ACLNN_ERR_INNER_TILING_ERROR, "[4]", "input");
  ExpectFatreluMul(FatreluMulSpec({2, 4}, {2}), ACLNN_ERR_INNER_TILING_ERROR, "threshold [2]",
                   "threshold");
  for (int64_t last : {5, 1026, 0}) {
    ExpectFatreluMul(FatreluMulSpec({2, last}), ACLNN_ERR_INNER_TILING_ERROR,
                     "[2, " + std::to_string(last) + "]", "input");
  }
}

// ops-nn's example for aclnnFatreluMul: input [[0, 1, 2, 3], [4, 5, 6, 7]] (x1 [[0, 1],
// [4, 5]], x2 [[2, 3], [6, 7]]) with its threshold 0.01: out [[0, 3], [24, 35]]; with a
// threshold of 1, x1's 1 is not above it: [[0, 0], [24, 35]].
TEST(FatreluMulChecksTest, OpsNnExample) {
  for (const auto& [threshold, want] :
       {std::make_pair(0.01, std::vector<double>{0, 3, 24, 35}),
        std::make_pair(1.0, std::vector<double>{0, 0, 24, 35})}) {
    Call call(kFatreluMul, FatreluMulSpec({2, 4}));
    for (int i = 0; i < 8; ++i) call.at(kSelf).Set(i, i);
    call.at(kThreshold).Set(0, threshold);
    ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(call.at(kOut).Get(i), want[i]) << "threshold " << threshold << ", element " << i;
    }
  }
}

// SituGlu and SituGluGrad (the parameterised suite above runs every refusal): CANN generates
// their entry points from their kernels' definitions, so past the null operands (161001),
// dtypes and ranks (161002) their tilings refuse, in their order: dim, the extent along it,
// then gradY's (or out's) shape (561002). Each message names the parameter.
TEST(SituGluChecksTest, TheTilingsRefusalsComeInItsOrderAndNameTheParameter) {
  const Variant& fwd = kVariants[8];
  const Variant& grad = kVariants[9];
  ASSERT_EQ(fwd.api, Api::kSituGlu);
  ASSERT_EQ(grad.api, Api::kSituGluGrad);
  for (const Variant* v : {&fwd, &grad}) {
    SCOPED_TRACE(v->name);
    const char* x = "x";
    Spec s = Valid(*v, {4, 5}, 2);  // dim 2 of 2-D, an odd extent too, out wrong
    s.shape[kOut] = {4, 4};
    ExpectCall(*v, s, ACLNN_ERR_INNER_TILING_ERROR, "dim 2, [4, 5]", "dim");
    s.dim = -1;
    ExpectCall(*v, s, ACLNN_ERR_INNER_TILING_ERROR, "odd extent 5", x);
    Spec o = Valid(*v, {4, 6}, 0);
    o.shape[kOut] = v->grad ? std::vector<int64_t>{4, 3} : std::vector<int64_t>{4, 6};
    ExpectCall(*v, o, ACLNN_ERR_INNER_TILING_ERROR, "out's shape", "out");
    if (v->grad) {
      Spec d = Valid(*v, {4, 6}, 0);
      d.shape[kDy] = {4, 3};
      ExpectCall(*v, d, ACLNN_ERR_INNER_TILING_ERROR, "gradY [4, 3] for dim 0", "gradY");
    }
    // The dtypes and ranks first: out FLOAT16 beside dim 2.
    Spec t = Valid(*v, {4, 6}, 2);
    t.dtype[kOut] = DType::kFloat16;
    ExpectCall(*v, t, ACLNN_ERR_PARAM_INVALID, "out FLOAT16, dim 2", "out");
    Spec r = Valid(*v, {2, 1, 1, 1, 1, 1, 1, 1, 6}, 20);
    ExpectCall(*v, r, ACLNN_ERR_PARAM_INVALID, "9-D x, dim 20", v->grad ? "gradY" : x);
    // Any beta and linearBeta pass the checks (the kernel computes the formula's values).
    for (const double beta : {0.0, -0.0, double{INFINITY}, double{NAN}, 1e300, -1e-300}) {
      Spec b = Valid(*v, {4, 6});
      b.beta = beta;
      b.linear_beta = beta;
      ExpectCall(*v, b, ACLNN_SUCCESS, "beta " + std::to_string(beta), nullptr);
    }
  }
}

// ClippedSwiglu's groupIndexOptional (the parameterised suite runs the rest with a null
// one): INT64 (161002 with the dtypes and ranks), then in its tiling's order, after x's dim
// and extent: 1-D, then out's shape, then at most 12152 elements (561002; two copies of it
// must leave Atlas A2's UB room for a tile). Null and empty are taken.
TEST(ClippedSwigluChecksTest, GroupIndexIsCheckedInTheTilingsOrder) {
  const Variant& v = kVariants[10];
  ASSERT_EQ(v.api, Api::kClippedSwiglu);
  const char* group = "groupIndexOptional";
  const auto with_group = [&](const std::vector<int64_t>& g, DType gt = DType::kInt64,
                              const std::vector<int64_t>& x = {4, 6}) {
    Spec s = Valid(v, x, -1);
    s.used[kGroup] = true;
    s.shape[kGroup] = g;
    s.dtype[kGroup] = gt;
    return s;
  };
  for (const std::vector<int64_t>& g : {std::vector<int64_t>{3}, {0}, {1}, {12152}}) {
    ExpectCall(v, with_group(g), ACLNN_SUCCESS, "groups " + ShapeText(g), nullptr);
  }
  ExpectCall(v, Valid(v), ACLNN_SUCCESS, "no groups", nullptr);
  for (DType t : {DType::kInt32, DType::kFloat32, DType::kUInt8, DType::kFloat16}) {
    Spec s = with_group({3}, t);
    s.dim = 5;  // the dtype first
    ExpectCall(v, s, ACLNN_ERR_PARAM_INVALID, std::string("groups ") + DTypeName(t), group);
  }
  ExpectCall(v, with_group({1, 1, 1, 1, 1, 1, 1, 1, 1}), ACLNN_ERR_PARAM_INVALID, "9-D groups",
             group);
  for (const std::vector<int64_t>& g : {std::vector<int64_t>{}, {2, 2}, {1, 3}}) {
    ExpectCall(v, with_group(g), ACLNN_ERR_INNER_TILING_ERROR, "groups " + ShapeText(g), group);
  }
  ExpectCall(v, with_group({12153}), ACLNN_ERR_INNER_TILING_ERROR, "12153 groups", group);
  // x's odd extent before the groups' rank; the groups' rank before out's shape; out's shape
  // before the groups' count.
  ExpectCall(v, with_group({2, 2}, DType::kInt64, {4, 5}), ACLNN_ERR_INNER_TILING_ERROR,
             "odd x, 2-D groups", "x");
  Spec rank_and_out = with_group({2, 2});
  rank_and_out.shape[kOut] = {4, 4};
  ExpectCall(v, rank_and_out, ACLNN_ERR_INNER_TILING_ERROR, "2-D groups, out [4, 4]", group);
  Spec count_and_out = with_group({12153});
  count_and_out.shape[kOut] = {4, 4};
  ExpectCall(v, count_and_out, ACLNN_ERR_INNER_TILING_ERROR, "12153 groups, out [4, 4]", "out");
}

// An address for a tensor that claims storage it does not have (phase 1 only: it compares
// where views lie and never reads them): k TiB up, so no two claims overlap.
void* Claimed(uintptr_t k) { return reinterpret_cast<void*>(k << 40); }

// The outcome of such a phase 1, `got` with ws and ex as it left them: `code`; a success's
// executor destroyed, a refusal naming `param` with workspaceSize untouched.
void ExpectClaimedPhase1(aclnnStatus got, aclnnStatus code, uint64_t ws, aclOpExecutor* ex,
                         const char* param) {
  EXPECT_EQ(got, code) << aclGetRecentErrMsg();
  if (code == ACLNN_SUCCESS) {
    EXPECT_EQ(aclDestroyAclOpExecutor(ex), ACL_SUCCESS);
  } else {
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), param)) << aclGetRecentErrMsg();
    EXPECT_EQ(ws, kWsSentinel);
  }
}

// ops-nn's tiling unit tests for ClippedSwiglu (Atlas A2), phase 1 through the C API: their
// shapes are large, and phase 1 reads no element, so the tensors claim storage they do not
// have and phase 2 never runs. The cases whose out has x's shape with dim's extent halved
// succeed, grouped or not, in both pairings. Three cases pass CANN's tiling with an out that
// has only the right rank and extent along dim (its tiling checks nothing else, and its
// kernel writes pre * M / 2 elements, more than those outs hold): hostnn refuses them
// (561002, naming out).
TEST(ClippedSwigluChecksTest, OpsNnTilingCases) {
  struct Case {
    std::vector<int64_t> x, out;
    int64_t dim;
    bool interleaved;
    DType dtype;
    int64_t groups;  // 0: a null groupIndexOptional
    aclnnStatus code;
  };
  const Case cases[] = {
      {{5760}, {2880}, -1, false, DType::kFloat16, 0, ACLNN_SUCCESS},
      {{3200, 5760}, {1600, 5760}, -2, false, DType::kFloat32, 0, ACLNN_SUCCESS},
      {{2, 1, 1, 5760}, {2, 1, 1, 2880}, -1, true, DType::kFloat16, 0, ACLNN_SUCCESS},
      {{2, 2, 2, 2, 2, 3200, 5760}, {2, 2, 1, 2, 2, 3200, 5760}, 2, false, DType::kFloat16, 200,
       ACLNN_SUCCESS},
      {{2, 2, 2, 2, 1, 1, 1, 2880}, {2, 2, 2, 1, 1, 1, 1, 2880}, 3, false, DType::kFloat32, 200,
       ACLNN_SUCCESS},
      {{3200, 23040}, {3200, 11520}, -1, false, DType::kBFloat16, 200, ACLNN_SUCCESS},
      {{2, 3200, 5760}, {2, 1600, 2880}, -2, false, DType::kBFloat16, 0,
       ACLNN_ERR_INNER_TILING_ERROR},
      {{2, 2, 2, 3200, 5760}, {1, 2, 2, 3200, 2880}, 0, true, DType::kFloat32, 0,
       ACLNN_ERR_INNER_TILING_ERROR},
      {{2, 2, 1, 1, 1, 3200, 5760}, {2, 1, 1, 1, 1, 1600, 5760}, 1, true, DType::kBFloat16, 0,
       ACLNN_ERR_INNER_TILING_ERROR},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE("x " + ShapeText(c.x) + " out " + ShapeText(c.out) + " dim " +
                 std::to_string(c.dim));
    const aclDataType t = static_cast<aclDataType>(c.dtype);
    const TensorPtr x = MakeDense(Claimed(1), t, c.x), out = MakeDense(Claimed(2), t, c.out);
    const TensorPtr group =
        c.groups > 0 ? MakeDense(Claimed(3), ACL_INT64, {c.groups}) : nullptr;
    uint64_t ws = kWsSentinel;
    aclOpExecutor* ex = ExecSentinel();
    const aclnnStatus got = aclnnClippedSwigluGetWorkspaceSize(
        x.get(), group.get(), c.dim, 1.702, 7.0, 1.0, c.interleaved, out.get(), &ws, &ex);
    ExpectClaimedPhase1(got, c.code, ws, ex, "out");
  }
}

// ClippedSwigluGrad (the parameterised suite runs the generic refusals with a null
// groupIndexOptional): past the null operands (161001), dtypes and ranks (161002), its
// tiling refuses, in its order: a limit of 0 or below as the FLOAT it reads (NaN passes the
// comparison), dim, the extent along it, gradY's shape, groupIndexOptional's rank, gradXOut's
// shape (561002). Its groups are any number (its kernel sums them from memory).
TEST(ClippedSwigluGradChecksTest, TheTilingsRefusalsComeInItsOrder) {
  const Variant& v = kVariants[11];
  ASSERT_EQ(v.api, Api::kClippedSwigluGrad);
  const char* group = "groupIndexOptional";
  const auto with_group = [&](const std::vector<int64_t>& g, DType gt = DType::kInt64) {
    Spec s = Valid(v, {4, 6}, -1);
    s.used[kGroup] = true;
    s.shape[kGroup] = g;
    s.dtype[kGroup] = gt;
    return s;
  };
  for (const double limit : {0.0, -0.0, -1.0, -double{INFINITY}, 1e-50}) {  // 1e-50: 0 as FLOAT
    Spec s = Valid(v, {4, 5}, 2);  // dim 2 of 2-D and an odd extent too
    s.limit = limit;
    ExpectCall(v, s, ACLNN_ERR_INNER_TILING_ERROR, "limit " + std::to_string(limit), "limit");
  }
  for (const double limit : {double{NAN}, 1e-40, double{INFINITY}, 1e300}) {
    Spec s = Valid(v);
    s.limit = limit;
    ExpectCall(v, s, ACLNN_SUCCESS, "limit " + std::to_string(limit), nullptr);
  }
  // The nulls, dtypes and ranks before the limit.
  Spec null_x = Valid(v);
  null_x.null[kSelf] = true;
  null_x.limit = 0.0;
  ExpectCall(v, null_x, ACLNN_ERR_PARAM_NULLPTR, "null x, limit 0", "x");
  Spec f64 = Valid(v);
  f64.dtype[kOut] = DType::kFloat64;
  f64.limit = 0.0;
  ExpectCall(v, f64, ACLNN_ERR_PARAM_INVALID, "gradXOut DOUBLE, limit 0", "gradXOut");
  Spec nine = Valid(v, {2, 1, 1, 1, 1, 1, 1, 1, 6});
  nine.limit = 0.0;
  ExpectCall(v, nine, ACLNN_ERR_PARAM_INVALID, "9-D, limit 0", "gradY");
  // The groups: INT64 (161002 with the dtypes), 1-D, any count; null and empty are taken.
  for (const std::vector<int64_t>& g : {std::vector<int64_t>{3}, {0}, {1}, {12153}, {100000}}) {
    ExpectCall(v, with_group(g), ACLNN_SUCCESS, "groups " + ShapeText(g), nullptr);
  }
  for (DType t : {DType::kInt32, DType::kFloat32, DType::kUInt8}) {
    Spec s = with_group({3}, t);
    s.limit = 0.0;  // the dtype first
    ExpectCall(v, s, ACLNN_ERR_PARAM_INVALID, std::string("groups ") + DTypeName(t), group);
  }
  for (const std::vector<int64_t>& g : {std::vector<int64_t>{}, {2, 2}, {1, 3}}) {
    ExpectCall(v, with_group(g), ACLNN_ERR_INNER_TILING_ERROR, "groups " + ShapeText(g), group);
  }
  // gradY's shape before the groups' rank, the groups' rank before gradXOut's shape.
  Spec dy_and_rank = with_group({2, 2});
  dy_and_rank.shape[kDy] = {4, 6};
  ExpectCall(v, dy_and_rank, ACLNN_ERR_INNER_TILING_ERROR, "gradY [4, 6], 2-D groups", "gradY");
  Spec rank_and_out = with_group({2, 2});
  rank_and_out.shape[kOut] = {4, 4};
  ExpectCall(v, rank_and_out, ACLNN_ERR_INNER_TILING_ERROR, "2-D groups, gradXOut [4, 4]", group);
  Spec out_only = with_group({2});
  out_only.shape[kOut] = {4, 4};
  ExpectCall(v, out_only, ACLNN_ERR_INNER_TILING_ERROR, "gradXOut [4, 4]", "gradXOut");
}

// ops-nn's one tiling unit test for ClippedSwigluGrad (Atlas A2) passes gradY [5760] with x
// [5760] split along its only dim, and expects success; its tiling code refuses a gradY whose
// extent along dim is not half x's, as its document says, and so does hostnn (561002, naming
// gradY). With gradY [2880] the same call succeeds. Phase 1 only: the tensors claim storage
// they do not have.
TEST(ClippedSwigluGradChecksTest, OpsNnTilingCase) {
  for (const auto& [dy_extent, code] : {std::make_pair(int64_t{5760}, ACLNN_ERR_INNER_TILING_ERROR),
                                        std::make_pair(int64_t{2880}, ACLNN_SUCCESS)}) {
    SCOPED_TRACE("gradY [" + std::to_string(dy_extent) + "]");
    const TensorPtr dy = MakeDense(Claimed(1), ACL_FLOAT16, {dy_extent});
    const TensorPtr x = MakeDense(Claimed(2), ACL_FLOAT16, {5760});
    const TensorPtr out = MakeDense(Claimed(3), ACL_FLOAT16, {5760});
    uint64_t ws = kWsSentinel;
    aclOpExecutor* ex = ExecSentinel();
    const aclnnStatus got = aclnnClippedSwigluGradGetWorkspaceSize(
        dy.get(), x.get(), nullptr, -1, 1.702, 7.0, 1.0, false, out.get(), &ws, &ex);
    ExpectClaimedPhase1(got, code, ws, ex, "gradY");
  }
}

// An ops-nn document's example (FLOAT), to 1e-5 relative plus half the last digit the
// documents print.
void ExpectExample(const Variant& v, int64_t approximate, const std::vector<int64_t>& shape,
                   int64_t dim, const std::vector<double>& self, const std::vector<double>& dy,
                   const std::vector<double>& gelu, const std::vector<double>& out,
                   const std::vector<double>& out_gelu) {
  SCOPED_TRACE(std::string(v.name) + " example, approximate " + std::to_string(approximate));
  Spec s = Valid(v, shape, dim);
  s.approximate = approximate;
  Call call(v, s);
  const std::vector<double>* in[] = {&self, &dy, &gelu};
  for (int r = kSelf; r <= kGelu; ++r) {
    for (size_t i = 0; i < in[r]->size(); ++i) call.at(static_cast<Role>(r)).Set(i, (*in[r])[i]);
  }
  ASSERT_EQ(call.Run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(call.at(kOut).numel(), static_cast<int64_t>(out.size()));
  for (const auto& [r, want] : {std::make_pair(kOut, &out), std::make_pair(kOutGelu, &out_gelu)}) {
    for (size_t i = 0; i < want->size(); ++i) {
      const double w = (*want)[i];
      EXPECT_NEAR(call.at(r).Get(i), w, 1e-5 * std::fabs(w) + 5e-7) << kRoleNames[r] << " " << i;
    }
  }
}

std::vector<double> Iota(double from, int n) {
  std::vector<double> v(n);
  std::iota(v.begin(), v.end(), from);
  return v;
}

TEST(SplitExamplesTest, OpsNnDocumentValues) {
  const std::vector<double> glu_self = {
      1.4021,  -2.2242, -0.2267, 1.0049,  -0.9057, -1.2181, 1.4031,  -0.1750, -0.2705, -1.3884,
      0.2565,  -0.7543, -0.3368, 0.3036,  0.4370,  1.9198,  0.0974,  0.9725,  -1.7963, -1.9863,
      2.2742,  1.0436,  1.6882,  0.7845,  0.5129,  0.7107,  -0.0894, -1.7567, 1.5542,  1.5608,
      -1.0318, -0.5742, 0.1330,  -1.4514, -2.5802, -0.4738, 0.2548,  -1.7638, 0.8152,  0.5531,
      0.1251,  0.8516,  -0.0048, -0.9011, -0.4680, 0.2906,  -0.0880, 0.3975};
  ExpectExample(
      kVariants[0], 0, {2, 4, 6}, 0, glu_self, {}, {},
      {0.876994,  -1.49145,  -0.108287, 0.147925,  -0.747673, -1.006721, 0.368644, -0.063047,
       -0.144231, -0.263499, 0.018064,  -0.289438, -0.189739, 0.044421,  0.302936, 1.218794,
       0.051742,  0.681628,  -0.895994, -0.573692, 0.875771,  0.597088,  0.806984, 0.469199},
      {});
  ExpectExample(
      kVariants[1], 0, {2, 4, 6}, 0, glu_self, std::vector<double>(24, 1.0), {},
      {0.625486,  0.670556,  0.477665,  0.147204,  0.82552,   0.826468,  0.262735, 0.360268,
       0.533201,  0.189786,  0.070424,  0.383717,  0.563358,  0.146315,  0.693216, 0.634855,
       0.531234,  0.700903,  0.4988,    0.288824,  0.38509,   0.572143,  0.478014, 0.598087,
       0.328446,  -0.49135,  -0.056562, 0.12615,   -0.130454, -0.174698, 0.271788, -0.040333,
       -0.067327, -0.213491, 0.016792,  -0.178376, -0.082848, 0.037922,  0.092936, 0.445037,
       0.024255,  0.203873,  -0.449072, -0.407996, 0.538521,  0.255468,  0.421234, 0.188577},
      {});
  ExpectExample(kVariants[2], 0, {2, 32}, -1, Iota(0, 64), {}, {},
                {0,          12.427996,  31.708695,  54.296725,  78.561103, 104.297251, 131.673614,
                 160.853321, 191.935613, 224.972236, 259.988197, 296.99504, 335.997936, 376.999148,
                 419.999651, 464.999858, 1536,       1617,       1700,      1785,       1872,
                 1961,       2052,       2145,       2240,       2337,      2436,       2537,
                 2640,       2745,       2852,       2961},
                {});
  ExpectExample(kVariants[3], 0, {2, 32}, -1, Iota(-2, 64), Iota(-2, 32), {},
                {2.541959,   -1.084942,  0,          15.770399,  39.268233,  62.021934,  84.213169,
                 107.78748,  133.627089, 161.87914,  192.450538, 225.222079, 260.106226, 297.049602,
                 336.022709, 377.010226, 0.476812,   0.268941,   0,          0.731059,   3.523188,
                 8.573167,   15.712221,  24.832679,  35.910986,  48.955358,  63.978538,  80.990005,
                 99.99546,   120.997979, 143.999115, 168.999618, 644,        705,        768,
                 833,        900,        969,        1040,       1113,       1188,       1265,
                 1344,       1425,       1508,       1593,       1680,       1769,       420,
                 465,        512,        561,        612,        665,        720,        777,
                 836,        897,        960,        1025,       1092,       1161,       1232,
                 1305},
                {});
  // GeGlu and GeGluV3 with activateLeft false: the tanh form, then the erf form.
  for (const Variant& v : {kVariants[4], Variant{"GeGluV3", Api::kGeGluV3, false, true, false}}) {
    ExpectExample(v, 1, {2, 2}, -1, {0, 1, 2, 3}, {}, {}, {0, 5.992725}, {0.841192, 2.996363});
    ExpectExample(v, 0, {2, 2}, -1, {0, 1, 2, 3}, {}, {}, {0, 5.991901}, {0.841345, 2.99595});
  }
  // GeGluBackward's and GeGluV3Backward's (activateLeft false), as intended (the documents
  // pass FLOAT bytes as FLOAT16), tanh form.
  for (const Variant& v :
       {kVariants[6], Variant{"GeGluV3Backward", Api::kGeGluV3B, true, true, false}}) {
    ExpectExample(v, 1, {2, 2}, -1, {-2, -1, 0, 1}, {-2, -1}, {-2, -1}, {4, -0.331856, 1, 0}, {});
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
