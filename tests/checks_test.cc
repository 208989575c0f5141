// The first-phase checks of SPEC §1, for every operator, through the CANN C API: each
// refusal's code, its message (naming the parameter), the order of the checks, and that a
// refused call writes nothing (tensors, *workspaceSize, *executor). Numerics live elsewhere.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "tests/reference/reference.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

// Phase 1 must refuse with `code`, a fresh non-empty message naming every name in `names`,
// and write nothing.
void ExpectRefused(const CApiOp& op, const Case& c, aclnnStatus code,
                   const std::vector<std::string>& names) {
  const std::string primed = PrimeErrorMessage();
  Call call(op, c);
  const aclnnStatus st = call.Phase1();
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_EQ(st, code) << msg;
  EXPECT_FALSE(msg.empty());
  EXPECT_NE(msg, primed) << "the refusal left no message of its own";
  for (const std::string& name : names) {
    EXPECT_TRUE(NamesParam(msg, name)) << "message does not name '" << name << "': " << msg;
  }
  if (!c.null_workspace_size) {
    EXPECT_EQ(call.ws(), kWsSentinel) << "*workspaceSize was written";
  }
  if (!c.null_executor) {
    EXPECT_EQ(call.exec(), ExecSentinel()) << "*executor was written";
  }
  EXPECT_TRUE(call.Unchanged()) << "a refused call wrote to a tensor";
  if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(call.exec());
}

// Phase 1 must succeed and phase 2 run (on the null stream, then again on a stream).
void ExpectAccepted(const CApiOp& op, const Case& c) {
  for (bool on_stream : {false, true}) {
    Call call(op, c);
    const aclnnStatus st = call.Phase1();
    ASSERT_EQ(st, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_NE(call.exec(), nullptr);
    ASSERT_NE(call.exec(), ExecSentinel());
    ASSERT_NE(call.ws(), kWsSentinel);
    aclrtStream stream = nullptr;
    if (on_stream) {
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    }
    EXPECT_EQ(call.Phase2(stream), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    if (on_stream) {
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
  }
}

// The inputs of an operator (its slots but the result).
std::vector<Slot> InputSlots(const CApiOp& op) {
  std::vector<Slot> v = op.slots();
  v.pop_back();
  return v;
}

class ChecksTest : public ::testing::TestWithParam<Op> {
 protected:
  const CApiOp& op() const { return GetCApiOp(GetParam()); }
  const char* name(Slot s) const { return op().params[s]; }
  // A dtype no operand takes: INT32, or UINT16 where integer operands are taken.
  aclDataType Unsupported() const {
    const DTypeRule rule = GetOpInfo(GetParam()).dtypes;
    return CastsIntInputs(rule) || RoundsIntResults(rule) || SelectsIntExactly(rule) ? ACL_UINT16
                                                                                     : ACL_INT32;
  }
  // LogSoftmaxBackward's dim 1 on the default 2x3 shape; ignored by the others.
  Case Default() const {
    Case c;
    c.dim = 1;
    return c;
  }
};

// ---- 1. null arguments -> 161001 -----------------------------------------------------------

TEST_P(ChecksTest, NullTensorInEachSlotIsNullptr) {
  for (Slot s : op().slots()) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[s].null_tensor = true;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, {name(s)});
  }
}

TEST_P(ChecksTest, AllTensorsNullIsNullptr) {
  Case c = Default();
  for (Operand& o : c.v) o.null_tensor = true;
  ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, {});
}

TEST_P(ChecksTest, NullWorkspaceSizeIsNullptr) {
  Case c = Default();
  c.null_workspace_size = true;
  ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, {"workspaceSize"});
}

TEST_P(ChecksTest, NullExecutorIsNullptr) {
  Case c = Default();
  c.null_executor = true;
  ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, {"executor"});
}

// ---- 2. dtypes -----------------------------------------------------------------------------

TEST_P(ChecksTest, UnsupportedDTypeInEachSlotIsInvalid) {
  const aclDataType kBad[] = {ACL_INT32,     ACL_INT64,        ACL_INT8,
                              ACL_UINT8,     ACL_BOOL,         ACL_INT16,
                              ACL_COMPLEX64, ACL_DT_UNDEFINED, static_cast<aclDataType>(99)};
  // An operator that casts integer inputs to a float takes one beside FLOAT operands:
  // tests/promote_test.cc covers its pairs (tests/add_relu_int_test.cc AddRelu's, which
  // takes no BOOL).
  const DTypeRule rule = GetOpInfo(GetParam()).dtypes;
  const bool promotes = CastsIntInputs(rule);
  for (Slot s : op().slots()) {
    for (aclDataType dt : kBad) {
      SCOPED_TRACE(std::string(name(s)) + " dtype " + std::to_string(dt));
      Case c = Default();
      c.v[s].dtype = dt;
      const bool bool_refused = PromotesToExactInt(rule) && dt == ACL_BOOL;
      // SoftplusBackward takes an integer self only.
      const bool int_slot = s != kOut && (rule != DTypeRule::kInputsAnyIntSelfOutAny || s == kSelf);
      // A complex out where op_api's CanCast or list lets a real result into it.
      const bool complex_out = s == kOut && dt == ACL_COMPLEX64 && OutTakesComplex(GetParam());
      // A complex input where op_api's list has one (SigmoidBackward): taken, but its
      // complex promotion cannot be cast to the FLOAT out, which is named.
      const bool complex_in = s != kOut && dt == ACL_COMPLEX64 && TakesComplexInputs(GetParam());
      if ((promotes && int_slot && IsPromotableIntType(static_cast<DType>(dt)) && !bool_refused) ||
          complex_out) {
        ExpectAccepted(op(), c);
      } else if (complex_in) {
        ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kOut)});
      } else {
        ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
      }
    }
  }
}

// DOUBLE inputs are refused but by the operators whose op_api lists them
// (TakesDoubleInputs: tests/double_test.cc), where any input may be DOUBLE.
TEST_P(ChecksTest, DoubleInputIsInvalidUnlessOpApiListsIt) {
  for (Slot s : InputSlots(op())) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[s].dtype = ACL_DOUBLE;
    if (TakesDoubleInputs(GetParam())) {
      ExpectAccepted(op(), c);
    } else {
      ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
    }
  }
}

TEST_P(ChecksTest, DoubleOutput) {
  // DOUBLE is an output dtype of the operators whose rule allows any float output
  // (HardsigmoidBackward and LogSoftmaxBackward), and of those that take it beside a
  // narrower self (OutTakesDouble).
  Case c = Default();
  c.v[kOut].dtype = ACL_DOUBLE;
  const DTypeRule rule = GetOpInfo(GetParam()).dtypes;
  if (rule == DTypeRule::kInputsAnyOutAnyFloat || rule == DTypeRule::kInputsSameOutAnyFloat ||
      rule == DTypeRule::kPromoteOutAnyFloat || OutTakesDouble(GetParam())) {
    ExpectAccepted(op(), c);
  } else {
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kOut)});
  }
}

TEST_P(ChecksTest, SameFloatDTypeEverywhereIsAccepted) {
  for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
    SCOPED_TRACE(dt);
    ExpectAccepted(op(), Default().AllDType(dt));
  }
}

TEST(SiluBackwardDTypes, MixedInputsNeedAFloatGradInput) {
  const CApiOp& op = GetCApiOp(Op::kSiluBackward);
  const aclDataType kFloats[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType dy : kFloats) {
    for (aclDataType x : kFloats) {
      for (aclDataType out : kFloats) {
        SCOPED_TRACE(std::to_string(dy) + "," + std::to_string(x) + "->" + std::to_string(out));
        Case c;
        c.v[kDy].dtype = dy;
        c.v[kSelf].dtype = x;
        c.v[kOut].dtype = out;
        if ((dy == x && x == out) || out == ACL_FLOAT) {
          ExpectAccepted(op, c);
        } else {
          ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"gradInput"});
        }
      }
    }
  }
}

TEST(LogSigmoidBackwardDTypes, AnyMismatchIsInvalid) {
  const CApiOp& op = GetCApiOp(Op::kLogSigmoidBackward);
  for (Slot s : {kSelf, kBuffer, kOut}) {
    for (aclDataType odd : {ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(std::string(op.params[s]) + " " + std::to_string(odd));
      Case c;
      c.v[s].dtype = odd;
      ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {op.params[s]});
    }
  }
  Case c;
  c.v[kDy].dtype = ACL_FLOAT16;  // gradOutput alone differs
  ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"gradOutput"});
  Case buffer_only;
  buffer_only.AllDType(ACL_BF16).v[kBuffer].dtype = ACL_FLOAT;
  ExpectRefused(op, buffer_only, ACLNN_ERR_PARAM_INVALID, {"buffer"});
}

TEST(HardsigmoidBackwardDTypes, AnyFloatOutTakesThePromotedType) {
  const CApiOp& op = GetCApiOp(Op::kHardsigmoidBackward);
  const aclDataType kIn[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType dy : kIn) {
    for (aclDataType x : kIn) {
      for (aclDataType out : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(std::to_string(dy) + "," + std::to_string(x) + "->" + std::to_string(out));
        Case c;
        c.v[kDy].dtype = dy;
        c.v[kSelf].dtype = x;
        c.v[kOut].dtype = out;
        ExpectAccepted(op, c);
      }
    }
  }
}

TEST(LogSoftmaxBackwardDTypes, GradOutputAndOutputMustMatch) {
  const CApiOp& op = GetCApiOp(Op::kLogSoftmaxBackward);
  const aclDataType kIn[] = {ACL_FLOAT, ACL_FLOAT16, ACL_BF16};
  for (aclDataType dy : kIn) {
    for (aclDataType y : kIn) {
      for (aclDataType out : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16, ACL_DOUBLE}) {
        SCOPED_TRACE(std::to_string(dy) + "," + std::to_string(y) + "->" + std::to_string(out));
        Case c;
        c.dim = 1;
        c.v[kDy].dtype = dy;
        c.v[kSelf].dtype = y;
        c.v[kOut].dtype = out;
        if (dy == y) {
          ExpectAccepted(op, c);
        } else {
          ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"output"});
        }
      }
    }
  }
}

// ---- 2. ranks, shapes, broadcast, dim ----------------------------------------------------

const std::vector<int64_t> kNineDims = {1, 1, 1, 1, 1, 1, 1, 2, 3};
const std::vector<int64_t> kEightDims = {1, 1, 1, 1, 1, 1, 2, 3};

// Where CANN's op_api has no OP_CHECK_MAX_DIM, any rank is taken (any_rank_test.cc).
bool TakesAnyRank(Op op) { return MaxRank(op) > kMaxDims; }

TEST_P(ChecksTest, RankAboveEightIsInvalid) {
  Case all = Default();
  all.AllShape(kNineDims);
  if (TakesAnyRank(GetParam())) {
    ExpectAccepted(op(), all);
    return;
  }
  ExpectRefused(op(), all, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
  for (Slot s : op().slots()) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[s].shape = kNineDims;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
  }
}

TEST_P(ChecksTest, RankEightIsAccepted) {
  Case c = Default();
  ExpectAccepted(op(), c.AllShape(kEightDims));
}

TEST_P(ChecksTest, ZeroDimTensorsAreAccepted) {
  Case c = Default();
  c.dim = 0;
  ExpectAccepted(op(), c.AllShape({}));
}

TEST_P(ChecksTest, ShapeMismatchIsInvalid) {
  // SiluBackward broadcasts, so only shapes that cannot broadcast with [2, 3] (more in
  // SiluBackwardBroadcast); the others need all shapes equal.
  const std::vector<std::vector<int64_t>> shapes =
      GetOpInfo(GetParam()).shapes == ShapeRule::kBroadcast
          ? std::vector<std::vector<int64_t>>{{3, 2}, {6}, {4, 3}}
          : std::vector<std::vector<int64_t>>{{3, 2}, {6}, {1, 2, 3}, {2, 1}, {1, 3}};
  for (Slot s : op().slots()) {
    for (const std::vector<int64_t>& shape : shapes) {
      SCOPED_TRACE(std::string(name(s)) + " " + ShapeText(shape));
      Case c = Default();
      c.v[s].shape = shape;
      // The message names the operand that differs (the others are compared with gradOutput).
      ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
    }
  }
}

struct BroadcastCase {
  std::vector<int64_t> dy, x, out;
};

TEST(SiluBackwardBroadcast, InputsMustBroadcastToGradInput) {
  const CApiOp& op = GetCApiOp(Op::kSiluBackward);
  const BroadcastCase kOk[] = {{{1, 3}, {2, 1}, {2, 3}},
                               {{3}, {2, 3}, {2, 3}},
                               {{}, {2, 3}, {2, 3}},
                               {{2, 1, 3}, {4, 1}, {2, 4, 3}},
                               {{2, 3}, {2, 3}, {2, 3}}};
  for (const BroadcastCase& b : kOk) {
    SCOPED_TRACE(ShapeText(b.dy) + " " + ShapeText(b.x) + " -> " + ShapeText(b.out));
    Case c;
    c.v[kDy].shape = b.dy;
    c.v[kSelf].shape = b.x;
    c.v[kOut].shape = b.out;
    ExpectAccepted(op, c);
  }
  const BroadcastCase kNotBroadcastable[] = {
      {{2, 3}, {4, 3}, {2, 3}}, {{2}, {2, 3}, {2, 3}}, {{3, 2}, {2, 3}, {2, 3}}};
  for (const BroadcastCase& b : kNotBroadcastable) {
    SCOPED_TRACE(ShapeText(b.dy) + " " + ShapeText(b.x) + " -> " + ShapeText(b.out));
    Case c;
    c.v[kDy].shape = b.dy;
    c.v[kSelf].shape = b.x;
    c.v[kOut].shape = b.out;
    ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"gradOutput", "self"});
  }
  const BroadcastCase kWrongOut[] = {{{2, 3}, {2, 3}, {3, 2}},
                                     {{3}, {2, 3}, {3}},
                                     {{1, 3}, {2, 1}, {2, 1}},
                                     {{2, 3}, {2, 3}, {6}}};
  for (const BroadcastCase& b : kWrongOut) {
    SCOPED_TRACE(ShapeText(b.dy) + " " + ShapeText(b.x) + " -> " + ShapeText(b.out));
    Case c;
    c.v[kDy].shape = b.dy;
    c.v[kSelf].shape = b.x;
    c.v[kOut].shape = b.out;
    ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"gradInput"});
  }
}

TEST(LogSoftmaxBackwardDim, MustLieInMinusNToNMinusOne) {
  const CApiOp& op = GetCApiOp(Op::kLogSoftmaxBackward);
  struct DimCase {
    std::vector<int64_t> shape;
    std::vector<int64_t> ok, bad;
  };
  const int64_t kMin = std::numeric_limits<int64_t>::min();
  const int64_t kMax = std::numeric_limits<int64_t>::max();
  const DimCase kCases[] = {
      {{2, 3}, {-2, -1, 0, 1}, {-3, 2, 100, -100, kMin, kMax}},
      {{4}, {-1, 0}, {1, -2}},
      {{}, {-1, 0}, {1, -2, kMin, kMax}},  // a 0-d tensor: n = max(rank, 1) = 1
      {{2, 1, 3, 1}, {-4, -3, -2, -1, 0, 1, 2, 3}, {4, -5}},
  };
  for (const DimCase& d : kCases) {
    for (int64_t dim : d.ok) {
      SCOPED_TRACE(ShapeText(d.shape) + " dim " + std::to_string(dim));
      Case c;
      c.AllShape(d.shape).dim = dim;
      ExpectAccepted(op, c);
    }
    for (int64_t dim : d.bad) {
      SCOPED_TRACE(ShapeText(d.shape) + " dim " + std::to_string(dim));
      Case c;
      c.AllShape(d.shape).dim = dim;
      ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"dim"});
    }
  }
}

// ---- 2. dims, strides, offsets, storage ----------------------------------------------------

TEST_P(ChecksTest, NegativeDimIsInvalid) {
  for (Slot s : op().slots()) {
    for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{2, -3}, {-1}}) {
      SCOPED_TRACE(std::string(name(s)) + " " + ShapeText(shape));
      Case c = Default();
      c.v[s].shape = shape;
      c.v[s].storage = {6};
      ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
    }
  }
}

TEST_P(ChecksTest, NegativeStrideIsInvalid) {
  for (Slot s : op().slots()) {
    for (const std::vector<int64_t>& strides :
         std::vector<std::vector<int64_t>>{{-3, 1}, {3, -1}}) {
      SCOPED_TRACE(std::string(name(s)) + " strides " + ShapeText(strides));
      Case c = Default();
      c.v[s].strides = strides;
      c.v[s].offset = strides[0] < 0 ? 3 : 2;  // every element still inside the storage
      c.v[s].storage = {6};
      ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
    }
  }
}

TEST_P(ChecksTest, NegativeOffsetIsInvalid) {
  for (Slot s : op().slots()) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[s].offset = -1;
    c.v[s].storage = {6};
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
  }
}

TEST_P(ChecksTest, ViewOutsideItsStorageIsInvalid) {
  struct Outside {
    std::vector<int64_t> strides;
    int64_t offset;
    std::vector<int64_t> storage;
  };
  const Outside kOutside[] = {
      {{}, 0, {5}},         // one element short
      {{}, 1, {6}},         // the offset pushes the last element out
      {{4, 1}, 0, {6}},     // the stride does
      {{3, 1}, 0, {2, 2}},  // a 2-d storage of 4 elements
      {{1, 2}, 0, {5}},     // a transposed view one short
  };
  for (Slot s : op().slots()) {
    for (const Outside& o : kOutside) {
      SCOPED_TRACE(std::string(name(s)) + " strides " + ShapeText(o.strides) + " offset " +
                   std::to_string(o.offset) + " storage " + ShapeText(o.storage));
      Case c = Default();
      c.v[s].strides = o.strides;
      c.v[s].offset = o.offset;
      c.v[s].storage = o.storage;
      ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s)});
    }
  }
}

TEST_P(ChecksTest, ViewInsideALargerStorageIsAccepted) {
  for (Slot s : op().slots()) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[s].strides = {4, 1};
    c.v[s].offset = 1;
    c.v[s].storage = {3, 3};  // reaches element 1 + 4 + 2 = 7 of 9
    ExpectAccepted(op(), c);
  }
}

// CANN's phase 1 never reads a data address (ops-nn's own op_api tests create every tensor
// without data): a view of elements over a null address is taken, and phase 2 refuses to
// run it (161002 naming the operand), on the calling thread or a stream, writing nothing;
// the executor stays the caller's.
TEST_P(ChecksTest, NullDataIsTakenByPhase1AndRefusedByPhase2) {
  for (Slot s : op().slots()) {
    for (bool on_stream : {false, true}) {
      SCOPED_TRACE(std::string(name(s)) + (on_stream ? " on a stream" : ""));
      Case c = Default();
      c.v[s].null_data = true;
      Call call(op(), c);
      call.FillValues();
      ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      aclrtStream stream = nullptr;
      if (on_stream) ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
      EXPECT_EQ(call.Phase2(stream), ACLNN_ERR_PARAM_INVALID);
      const std::string msg = aclGetRecentErrMsg();
      EXPECT_TRUE(NamesParam(msg, name(s))) << msg;
      EXPECT_NE(msg.find("null address"), std::string::npos) << msg;
      EXPECT_TRUE(call.Unchanged());
      EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
      if (on_stream) EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
  }
}

// ---- 2. output overlap and aliasing ------------------------------------------------------

TEST_P(ChecksTest, OutputWhoseElementsOverlapIsInvalid) {
  struct Overlap {
    std::vector<int64_t> strides;
    std::vector<int64_t> storage;
  };
  // The last touches 0, 2, 4 and 2, 4, 6: room for all six, yet three pairs meet.
  const Overlap kOverlaps[] = {{{0, 1}, {3}}, {{1, 0}, {2}}, {{1, 1}, {4}},
                               {{2, 1}, {5}}, {{0, 0}, {1}}, {{2, 2}, {7}}};
  for (const Overlap& o : kOverlaps) {
    SCOPED_TRACE("strides " + ShapeText(o.strides));
    Case c = Default();
    c.v[kOut].strides = o.strides;
    c.v[kOut].storage = o.storage;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kOut)});
  }
}

TEST_P(ChecksTest, BroadcastInputsAndUnitDimStrideZeroOutputAreAccepted) {
  // Stride 0 is fine on inputs, and on an output dim of extent 1 (no two elements meet).
  Case c = Default();
  c.AllShape({1, 3});
  for (Slot s : op().slots()) c.v[s].strides = {0, 1};
  ExpectAccepted(op(), c);
  Case inputs = Default();
  for (Slot s : InputSlots(op())) {
    inputs.v[s].strides = {0, 1};
    inputs.v[s].storage = {3};
  }
  ExpectAccepted(op(), inputs);
}

TEST_P(ChecksTest, InputPartlyOverlappingTheOutputIsInvalid) {
  // buffer (LogSigmoidBackward) is never read, so only gradOutput and self are at stake.
  for (Slot s : {kDy, kSelf}) {
    SCOPED_TRACE(name(s));
    Case shifted = Default();  // the input starts half-way into the output
    shifted.v[kOut].storage = {12};
    shifted.v[s].share = kOut;
    shifted.v[s].offset = 3;
    shifted.v[s].storage = {12};
    ExpectRefused(op(), shifted, ACLNN_ERR_PARAM_INVALID, {name(s), name(kOut)});

    Case transposed = Default();  // same memory, other element order
    transposed.AllShape({3, 3});
    transposed.v[s].share = kOut;
    transposed.v[s].strides = {1, 3};
    ExpectRefused(op(), transposed, ACLNN_ERR_PARAM_INVALID, {name(s), name(kOut)});

    Case strided = Default();  // the output spread over every other element, the input dense
    strided.v[kOut].strides = {6, 2};
    strided.v[kOut].storage = {12};
    strided.v[s].share = kOut;
    strided.v[s].storage = {12};
    ExpectRefused(op(), strided, ACLNN_ERR_PARAM_INVALID, {name(s), name(kOut)});
  }
}

TEST_P(ChecksTest, OutputWithInterleavedButDistinctElementsIsAccepted) {
  // Shape [3, 2] with strides [2, 3] touches elements 0, 3, 2, 5, 4, 7: each once, though
  // a stride is smaller than the extent of the other dim. Such an output is legal.
  Case c = Default();
  c.AllShape({3, 2});
  c.v[kOut].strides = {2, 3};
  c.v[kOut].storage = {8};
  Call call(op(), c);
  call.FillValues();
  call.ExpectComputes();
}

TEST_P(ChecksTest, InputInterleavedWithTheOutputIsAccepted) {
  // The output takes the even elements of a storage and the input the odd ones: the same
  // memory range, but no element in common, so nothing the run writes is read.
  for (Slot s : InputSlots(op())) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[kOut].strides = {6, 2};
    c.v[kOut].storage = {12};
    c.v[s].share = kOut;
    c.v[s].strides = {6, 2};
    c.v[s].offset = 1;
    c.v[s].storage = {12};
    Call call(op(), c);
    call.FillValues();
    call.ExpectComputes();
  }
}

TEST(HardsigmoidBackwardAliasing, SameAddressOtherDTypeIsNotInPlace) {
  const CApiOp& op = GetCApiOp(Op::kHardsigmoidBackward);
  Case c;
  c.v[kDy].dtype = ACL_FLOAT16;
  c.v[kDy].share = kOut;
  ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"gradOutput", "out"});
}

TEST(SiluBackwardAliasing, BroadcastInputOverTheOutputIsNotInPlace) {
  const CApiOp& op = GetCApiOp(Op::kSiluBackward);
  Case c;
  c.v[kSelf].shape = {1, 3};
  c.v[kSelf].share = kOut;
  ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"self", "gradInput"});
}

TEST_P(ChecksTest, InputInADisjointPartOfTheOutputStorageIsAccepted) {
  for (Slot s : InputSlots(op())) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.v[kOut].storage = {12};
    c.v[s].share = kOut;
    c.v[s].offset = 6;
    c.v[s].storage = {12};
    ExpectAccepted(op(), c);
  }
}

// In place: the output is the very same view as an input; checked against the reference.
void ExpectInPlaceComputes(const CApiOp& op, const Case& c) {
  Call call(op, c);
  call.FillValues();
  call.ExpectComputes();
}

TEST_P(ChecksTest, InPlaceIsAccepted) {
  for (Slot s : {kDy, kSelf}) {
    for (aclDataType dt : {ACL_FLOAT, ACL_FLOAT16, ACL_BF16}) {
      SCOPED_TRACE(std::string(name(s)) + " dtype " + std::to_string(dt));
      Case dense = Default();
      dense.AllDType(dt).AllShape({4, 5});
      dense.v[kOut].share = s;
      ExpectInPlaceComputes(op(), dense);

      Case transposed = Default();  // both the same non-contiguous view, at an offset
      transposed.AllDType(dt).AllShape({4, 5});
      transposed.dim = 0;
      for (Slot t : {s, kOut}) {
        transposed.v[t].strides = {1, 6};
        transposed.v[t].offset = 2;
        transposed.v[t].storage = {32};
      }
      transposed.v[kOut].share = s;
      ExpectInPlaceComputes(op(), transposed);
    }
  }
}

TEST(LogSigmoidBackwardAliasing, EveryInputTheSameViewAsTheOutput) {
  const CApiOp& op = GetCApiOp(Op::kLogSigmoidBackward);
  Case c;
  c.v[kDy].share = kOut;
  c.v[kSelf].share = kOut;
  c.v[kBuffer].share = kOut;
  ExpectAccepted(op, c);
}

// ---- empty tensors -------------------------------------------------------------------------

TEST_P(ChecksTest, EmptyTensorsSucceedWithNoWorkspaceAndWriteNothing) {
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{0}, {2, 0, 3}, {0, 0}, {3, 0}}) {
    for (bool null_data : {false, true}) {
      for (bool on_stream : {false, true}) {
        SCOPED_TRACE(ShapeText(shape) + (null_data ? " null data" : "") +
                     (on_stream ? " on a stream" : ""));
        Case c = Default();
        c.AllShape(shape).dim = 0;
        for (Operand& o : c.v) o.null_data = null_data;
        Call call(op(), c);
        ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        EXPECT_EQ(call.ws(), 0u);
        ASSERT_NE(call.exec(), nullptr);
        ASSERT_NE(call.exec(), ExecSentinel());
        aclrtStream stream = nullptr;
        if (on_stream) {
          ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        }
        EXPECT_EQ(op().phase2(nullptr, 0, call.exec(), stream), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        if (on_stream) {
          EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
          EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        }
        EXPECT_TRUE(call.Unchanged());
      }
    }
  }
}

// Phase 1 succeeds with no workspace, and phase 2 writes nothing.
void ExpectEmptySuccess(const CApiOp& op, const Case& c) {
  Call call(op, c);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  EXPECT_EQ(call.ws(), 0u);
  EXPECT_EQ(op.phase2(nullptr, 0, call.exec(), nullptr), ACLNN_SUCCESS);
  EXPECT_TRUE(call.Unchanged());
}

TEST(SiluBackwardEmpty, BroadcastToAnEmptyGradInput) {
  Case c;
  c.v[kDy].shape = {0, 3};
  c.v[kSelf].shape = {1, 3};
  c.v[kOut].shape = {0, 3};
  ExpectEmptySuccess(GetCApiOp(Op::kSiluBackward), c);
}

// Null operands and malformed descriptors are refused for every operator. Dtypes and shapes
// are checked too, except by Softmax, SoftmaxBackward and LogSoftmaxBackward, which succeed
// at once on an empty input as CANN's op_api does (EmptyInputSkipsChecks: ops-nn's
// case_016_input_emptytensor_normal, an empty [2, 0] gradOutput beside a [2, 3] out), and
// shapes but by HardshrinkBackward (EmptyInputSkipsShapes).
TEST_P(ChecksTest, EmptyTensorsAreStillChecked) {
  const bool skips = EmptyInputSkipsChecks(GetParam());
  const bool skips_shapes = skips || EmptyInputSkipsShapes(GetParam());
  Case dtype = Default();
  dtype.AllShape({2, 0}).v[kDy].dtype = Unsupported();
  if (skips) {
    ExpectEmptySuccess(op(), dtype);
  } else {
    ExpectRefused(op(), dtype, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
  }
  Case null_tensor = Default();
  null_tensor.AllShape({2, 0}).v[kOut].null_tensor = true;
  ExpectRefused(op(), null_tensor, ACLNN_ERR_PARAM_NULLPTR, {name(kOut)});
  Case rank = Default();
  rank.AllShape({1, 1, 1, 1, 1, 1, 1, 0, 3});
  if (TakesAnyRank(GetParam())) {
    ExpectEmptySuccess(op(), rank);
  } else {
    ExpectRefused(op(), rank, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
  }
  Case negative = Default();
  negative.AllShape({-1, 0});
  ExpectRefused(op(), negative, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
  Case shape = Default();
  shape.AllShape({2, 0}).v[kOut].shape = {3, 0};
  if (skips_shapes) {
    ExpectEmptySuccess(op(), shape);
  } else {
    ExpectRefused(op(), shape, ACLNN_ERR_PARAM_INVALID, {name(kOut)});
  }
}

// Shrink's op_api lists FLOAT and FLOAT16 for self and out (any pair: computed in self's,
// then cast); a BFLOAT16 self or out is 161002 naming it, with nothing written.
TEST(ShrinkDTypes, BFloat16IsRefusedAsCANNsListStopsAtFloat16) {
  const CApiOp& op = GetCApiOp(Op::kShrink);
  struct Pair {
    aclDataType self, out;
    const char* refused;  // the operand named, or null: taken
  };
  const Pair pairs[] = {{ACL_BF16, ACL_BF16, "self"},  {ACL_BF16, ACL_FLOAT, "self"},
                        {ACL_FLOAT, ACL_BF16, "out"},  {ACL_FLOAT16, ACL_BF16, "out"},
                        {ACL_FLOAT, ACL_FLOAT16, nullptr}, {ACL_FLOAT16, ACL_FLOAT, nullptr}};
  for (const Pair& p : pairs) {
    SCOPED_TRACE("self " + std::to_string(p.self) + ", out " + std::to_string(p.out));
    Case c;
    c.AllShape({2, 3});
    c.v[kDy].dtype = p.self;  // a forward operator's self is its first operand
    c.v[kOut].dtype = p.out;
    if (p.refused != nullptr) {
      ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {p.refused});
      continue;
    }
    Call call(op, c);
    EXPECT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  }
}

// ops-nn's case_empty_tensor: an empty FLOAT gradOutput [0] with a FLOAT16 self [1, 1, 1, 4]
// and gradInput: CANN's op_api returns success after the dtypes, ranks and promotion, before
// its broadcast check, and writes nothing; so does an empty self. Those checks still come
// first: an INT8 gradOutput, a 9-D self, a promotion gradInput cannot take are refused.
TEST(HardshrinkBackwardEmpty, AnEmptyInputSucceedsBeforeTheBroadcastCheck) {
  const CApiOp& op = GetCApiOp(Op::kHardshrinkBackward);
  Case c;
  c.v[kDy].shape = {0};
  c.v[kDy].dtype = ACL_FLOAT;
  c.v[kSelf].shape = c.v[kOut].shape = {1, 1, 1, 4};
  c.v[kSelf].dtype = c.v[kOut].dtype = ACL_FLOAT16;
  ExpectEmptySuccess(op, c);
  Case self_empty;
  self_empty.v[kDy].shape = self_empty.v[kOut].shape = {2, 3};
  self_empty.v[kSelf].shape = {5, 0};
  ExpectEmptySuccess(op, self_empty);
  Case dtype = c;
  dtype.v[kDy].dtype = ACL_INT8;
  ExpectRefused(op, dtype, ACLNN_ERR_PARAM_INVALID, {"gradOutput"});
  Case rank = c;
  rank.v[kSelf].shape = {1, 1, 1, 1, 1, 1, 1, 1, 4};
  ExpectRefused(op, rank, ACLNN_ERR_PARAM_INVALID, {"self"});
  Case cast = c;
  cast.v[kDy].dtype = cast.v[kSelf].dtype = ACL_FLOAT;
  cast.v[kOut].dtype = ACL_INT32;
  ExpectRefused(op, cast, ACLNN_ERR_PARAM_INVALID, {"gradInput"});
  // Not empty: the broadcast check refuses [0]'s counterpart [3] against [1, 1, 1, 4].
  Case full = c;
  full.v[kDy].shape = {3};
  ExpectRefused(op, full, ACLNN_ERR_PARAM_INVALID, {"gradInput"});
}

// CANN's own cases: an empty [2, 0] input with a non-empty [2, 3] out, and a dim out of range.
TEST(SoftmaxEmpty, AnEmptyInputSucceedsBeforeTheShapeAndDimChecks) {
  for (Op o : {Op::kSoftmax, Op::kSoftmaxBackward}) {
    const CApiOp& op = GetCApiOp(o);
    SCOPED_TRACE(op.name);
    Case c;
    c.AllShape({2, 0});
    c.v[kOut].shape = {2, 3};
    c.dim = 0;
    ExpectEmptySuccess(op, c);
    c.dim = 5;
    ExpectEmptySuccess(op, c);
    if (o == Op::kSoftmaxBackward) {  // either input empty is enough
      Case one;
      one.v[kDy].shape = {2, 3};
      one.v[kSelf].shape = {2, 0};
      one.v[kOut].shape = {2, 3};
      ExpectEmptySuccess(op, one);
    }
  }
  // LogSoftmax checks first, as CANN's.
  Case c;
  c.AllShape({2, 0});
  c.v[kOut].shape = {2, 3};
  ExpectRefused(GetCApiOp(Op::kLogSoftmax), c, ACLNN_ERR_PARAM_INVALID, {"out"});
}

// ---- the order of the checks ---------------------------------------------------------------

TEST_P(ChecksTest, NullBeatsEveryInvalidParameter) {
  Case a = Default();  // a null result, and an unsupported gradOutput dtype before it
  a.v[kOut].null_tensor = true;
  a.v[kDy].dtype = Unsupported();
  ExpectRefused(op(), a, ACLNN_ERR_PARAM_NULLPTR, {name(kOut)});

  Case b = Default();  // a null gradOutput, and a bad self dtype after it
  b.v[kDy].null_tensor = true;
  b.v[kSelf].dtype = ACL_DOUBLE;
  ExpectRefused(op(), b, ACLNN_ERR_PARAM_NULLPTR, {name(kDy)});

  Case c = Default();  // null workspaceSize with a rank-9, out-of-storage operand
  c.null_workspace_size = true;
  c.v[kSelf].shape = kNineDims;
  c.v[kDy].storage = {2};
  ExpectRefused(op(), c, ACLNN_ERR_PARAM_NULLPTR, {"workspaceSize"});

  Case d = Default();  // null executor with a shape mismatch and an overlapping output
  d.null_executor = true;
  d.v[kSelf].shape = {3, 2};
  d.v[kOut].strides = {0, 1};
  ExpectRefused(op(), d, ACLNN_ERR_PARAM_NULLPTR, {"executor"});

  Case e = Default();  // a null tensor and a null data address elsewhere
  e.v[kSelf].null_tensor = true;
  e.v[kDy].null_data = true;
  ExpectRefused(op(), e, ACLNN_ERR_PARAM_NULLPTR, {name(kSelf)});
}

TEST_P(ChecksTest, InvalidParametersAreReportedInSpecOrder) {
  // SPEC §1: dtype, dtype combination, rank, shape or broadcast, dim, storage, overlap.
  {
    SCOPED_TRACE("dtype before storage");
    Case c = Default();
    c.v[kSelf].dtype = Unsupported();
    c.v[kDy].storage = {2};
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kSelf)});
    EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), name(kDy))) << aclGetRecentErrMsg();
  }
  {
    SCOPED_TRACE("dtype before rank");
    Case c = Default();
    c.v[kSelf].dtype = Unsupported();
    c.v[kDy].shape = kNineDims;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kSelf)});
    EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), name(kDy))) << aclGetRecentErrMsg();
  }
  if (!TakesAnyRank(GetParam())) {
    SCOPED_TRACE("rank before shape");
    Case c = Default();
    c.v[kSelf].shape = kNineDims;
    c.v[kOut].shape = {3, 2};
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kSelf)});
    EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), name(kOut))) << aclGetRecentErrMsg();
  }
  {
    SCOPED_TRACE("storage before output overlap");
    Case c = Default();
    c.v[kDy].storage = {2};
    c.v[kOut].strides = {0, 1};
    c.v[kOut].storage = {3};
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
    EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), name(kOut))) << aclGetRecentErrMsg();
  }
  {
    SCOPED_TRACE("storage before input aliasing");
    Case c = Default();
    c.v[kDy].storage = {2};
    c.v[kSelf].share = kOut;
    c.v[kSelf].offset = 1;
    c.v[kSelf].storage = {12};
    c.v[kOut].storage = {12};
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kDy)});
    EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), name(kSelf))) << aclGetRecentErrMsg();
  }
}

TEST(LogSoftmaxBackwardOrder, DimBeforeStorageAndOverlap) {
  const CApiOp& op = GetCApiOp(Op::kLogSoftmaxBackward);
  Case c;
  c.dim = 2;
  c.v[kDy].storage = {2};
  c.v[kOut].strides = {0, 1};
  c.v[kOut].storage = {3};
  ExpectRefused(op, c, ACLNN_ERR_PARAM_INVALID, {"dim"});
  EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), "gradOutput")) << aclGetRecentErrMsg();
  Case dtype_first;
  dtype_first.dim = 5;
  dtype_first.v[kSelf].dtype = ACL_FLOAT16;
  ExpectRefused(op, dtype_first, ACLNN_ERR_PARAM_INVALID, {"output"});
  EXPECT_FALSE(NamesParam(aclGetRecentErrMsg(), "dim")) << aclGetRecentErrMsg();
}

// ---- aclCreateTensor -----------------------------------------------------------------------

TEST(CreateTensor, NullDimsWithACountAreRefused) {
  float data[4] = {0, 0, 0, 0};
  const int64_t dims[] = {2, 2};
  EXPECT_EQ(aclCreateTensor(nullptr, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, dims, 2, data),
            nullptr);
  EXPECT_FALSE(std::string(aclGetRecentErrMsg()).empty());
  EXPECT_EQ(aclCreateTensor(dims, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 2, data),
            nullptr);
  aclTensor* scalar =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, data);
  ASSERT_NE(scalar, nullptr);
  EXPECT_EQ(aclDestroyTensor(scalar), ACLNN_SUCCESS);
}

// ---- storage against the allocation ------------------------------------------------------

// Tensors of `n` floats on every slot, slot `s` over `data` (the others over host memory),
// through phase 1; returns the status (phase 2 runs too when phase 1 succeeds).
aclnnStatus RunWithSlotAt(const CApiOp& op, Slot s, void* data, int64_t n, bool* wrote_others) {
  std::vector<std::vector<float>> host(kNumSlots, std::vector<float>(static_cast<size_t>(n), 0.5f));
  TensorPtr t[kNumSlots];
  for (Slot o : op.slots()) {
    t[o] = MakeDense(o == s ? data : host[o].data(), ACL_FLOAT, {n});
  }
  const std::vector<std::vector<float>> before = host;
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  aclnnStatus st =
      op.phase1(t[kDy].get(), t[kSelf].get(), t[kBuffer].get(), t[kOut].get(), 0, &ws, &exec);
  if (st == ACLNN_SUCCESS) {
    void* workspace = nullptr;
    if (ws > 0) EXPECT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    st = op.phase2(workspace, ws, exec, nullptr);
    if (workspace != nullptr) aclrtFree(workspace);
  } else {
    EXPECT_EQ(ws, kWsSentinel);
    EXPECT_EQ(exec, ExecSentinel());
  }
  *wrote_others = host != before;
  return st;
}

// An output of 1000 floats described over a 100-byte aclrtMalloc block ran 3,900 bytes past
// it. Data inside an aclrtMalloc block must have its whole storage in that block: any
// operand whose storage runs past the end is refused (161002, naming it) and nothing is
// written; a storage that ends exactly at the block's end is accepted.
TEST_P(ChecksTest, StorageMustFitTheAclrtMallocBlockItLiesIn) {
  for (Slot s : op().slots()) {
    SCOPED_TRACE(name(s));
    void* block = nullptr;
    ASSERT_EQ(aclrtMalloc(&block, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::memset(block, 0x3C, 100);
    std::vector<uint8_t> before(static_cast<uint8_t*>(block), static_cast<uint8_t*>(block) + 100);
    char* base = static_cast<char*>(block);
    struct Layout {
      int64_t byte_offset, n;
      bool fits;
    };
    const Layout kLayouts[] = {{0, 1000, false}, {0, 26, false}, {0, 25, true},
                               {40, 16, false},  {40, 15, true}, {96, 2, false}};
    for (const Layout& l : kLayouts) {
      SCOPED_TRACE("floats " + std::to_string(l.n) + " from byte " + std::to_string(l.byte_offset));
      std::memcpy(block, before.data(), 100);
      const std::string primed = PrimeErrorMessage();
      bool wrote_others = false;
      const aclnnStatus st = RunWithSlotAt(op(), s, base + l.byte_offset, l.n, &wrote_others);
      if (l.fits) {
        EXPECT_EQ(st, ACLNN_SUCCESS) << aclGetRecentErrMsg();
        continue;
      }
      const std::string msg = aclGetRecentErrMsg();
      EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << msg;
      EXPECT_NE(msg, primed);
      EXPECT_TRUE(NamesParam(msg, name(s))) << msg;
      EXPECT_NE(msg.find("aclrtMalloc"), std::string::npos) << msg;
      EXPECT_FALSE(wrote_others);
      EXPECT_EQ(std::memcmp(block, before.data(), 100), 0) << "the block was written";
    }
    EXPECT_EQ(aclrtFree(block), ACL_SUCCESS);
  }
}

// ---- views at the limits of int64 -------------------------------------------------------

// A view with offset INT64_MAX and no storage dims: the storage it implies (offset + 1
// elements) cannot be counted in int64. Refused with a message about the offset, without
// a signed overflow on the way (UBSan reported one in the storage check).
TEST_P(ChecksTest, OffsetAtInt64MaxWithoutStorageDimsIsInvalid) {
  float data[16] = {0};
  const std::vector<std::vector<int64_t>> shapes = {{}, {1}, {1, 1}};
  for (const std::vector<int64_t>& shape : shapes) {
    for (Slot s : op().slots()) {
      SCOPED_TRACE(std::string(name(s)) + " shape " + ShapeText(shape));
      TensorPtr t[kNumSlots];
      for (Slot o : op().slots()) {
        if (o == s) {
          t[o] = TensorPtr(aclCreateTensor(shape.data(), shape.size(), ACL_FLOAT, nullptr,
                                           INT64_MAX, ACL_FORMAT_ND, nullptr, 0, data));
        } else {
          t[o] = MakeDense(data, ACL_FLOAT, shape);
        }
        ASSERT_NE(t[o], nullptr);
      }
      uint64_t ws = kWsSentinel;
      aclOpExecutor* exec = ExecSentinel();
      PrimeErrorMessage();
      const aclnnStatus st =
          op().phase1(t[kDy].get(), t[kSelf].get(), t[kBuffer].get(), t[kOut].get(), 0, &ws, &exec);
      const std::string msg = aclGetRecentErrMsg();
      EXPECT_EQ(st, ACLNN_ERR_PARAM_INVALID) << msg;
      EXPECT_TRUE(NamesParam(msg, name(s))) << msg;
      EXPECT_TRUE(NamesParam(msg, "offset")) << msg;
      EXPECT_EQ(ws, kWsSentinel);
      EXPECT_EQ(exec, ExecSentinel());
    }
  }
}

// ---- overlap decided exactly, at any size --------------------------------------------------

// [600000, 2] with strides [2, 3] touches 2i + 3j: distinct for j in {0, 1} (2i + 3 is odd,
// 2i' is even), though 1.2 M elements are too many to list. Such an output is legal.
TEST_P(ChecksTest, LargeOutputWithInterleavedButDistinctElementsIsAccepted) {
  Case c = Default();
  c.AllShape({600000, 2});
  c.v[kOut].strides = {2, 3};
  Call call(op(), c);
  call.FillValues();
  call.ExpectComputes();
}

// Large views whose elements do meet are still refused: [600000, 2] strides [2, 4] meets
// at (i + 2, 0) and (i, 1); [1000, 1000] strides [999, 1] at (i + 1, j) and (i, j + 999).
TEST_P(ChecksTest, LargeOutputWhoseElementsOverlapIsInvalid) {
  struct Overlap {
    std::vector<int64_t> shape, strides;
  };
  const Overlap kOverlaps[] = {{{600000, 2}, {2, 4}},
                               {{1000, 1000}, {999, 1}},
                               {{2, 600000}, {1199998, 2}},
                               {{1100, 1100}, {1, 1099}}};
  for (const Overlap& o : kOverlaps) {
    SCOPED_TRACE("shape " + ShapeText(o.shape) + " strides " + ShapeText(o.strides));
    Case c = Default();
    c.AllShape(o.shape);
    c.v[kOut].strides = o.strides;
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(kOut)});
  }
}

// Inputs interleaved with a large output without sharing an element are accepted; one
// that shares a single element with it is refused.
TEST_P(ChecksTest, LargeInputInterleavedWithTheOutputIsDecidedExactly) {
  for (Slot s : {kDy, kSelf}) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.AllShape({600000, 2});
    c.v[kOut].strides = {4, 1};  // elements 4i and 4i + 1
    c.v[kOut].storage = {2400004};
    c.v[s].share = kOut;
    c.v[s].strides = {4, 1};
    c.v[s].offset = 2;  // elements 4i + 2 and 4i + 3
    c.v[s].storage = {2400004};
    {
      Call call(op(), c);
      call.FillValues();
      call.ExpectComputes();
    }
    c.v[s].strides = {4, 3};  // elements 4i + 2 and 4i + 5: meets the output's 4(i + 1) + 1
    ExpectRefused(op(), c, ACLNN_ERR_PARAM_INVALID, {name(s), name(kOut)});
  }
}

// Every small output layout (up to 3 moving dims, strides 0..6), accepted exactly when a
// brute-force listing of its elements finds no two alike; and every input layout over the
// same memory as a fixed strided output, accepted exactly when it is the same view or no
// element of it is an element of the output.
TEST(OverlapExhaustive, SmallLayoutsAgreeWithListingTheElements) {
  const CApiOp& op = GetCApiOp(Op::kSiluBackward);
  const std::vector<std::vector<int64_t>> shapes = {{3, 2}, {2, 3, 2}, {4, 3}, {2, 2, 5}};
  int checked = 0;
  for (const std::vector<int64_t>& shape : shapes) {
    const size_t rank = shape.size();
    std::vector<int64_t> strides(rank, 0);
    for (;;) {
      // Brute force: list the elements.
      std::vector<int64_t> elems;
      for (int64_t i = 0; i < NumElements(shape); ++i)
        elems.push_back(ViewIndex(shape, strides, 0, i));
      std::sort(elems.begin(), elems.end());
      const bool distinct = std::adjacent_find(elems.begin(), elems.end()) == elems.end();
      Case c;
      c.AllShape(shape);
      c.v[kOut].strides = strides;
      Call call(op, c);
      const aclnnStatus st = call.Phase1();
      EXPECT_EQ(st, distinct ? ACLNN_SUCCESS : ACLNN_ERR_PARAM_INVALID)
          << "shape " << ShapeText(shape) << " strides " << ShapeText(strides) << ": "
          << aclGetRecentErrMsg();
      if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(call.exec());
      ++checked;
      size_t d = 0;
      for (; d < rank && ++strides[d] > 6; ++d) strides[d] = 0;
      if (d == rank) break;
    }
  }
  // Inputs over an output [3, 4] with strides [9, 2] (elements 0, 2, 4, 6, 9, ..., 24).
  const std::vector<int64_t> out_shape = {3, 4}, out_strides = {9, 2};
  std::vector<int64_t> out_elems;
  for (int64_t i = 0; i < 12; ++i) out_elems.push_back(ViewIndex(out_shape, out_strides, 0, i));
  for (aclDataType in_dtype : {ACL_FLOAT, ACL_FLOAT16}) {  // FLOAT16: meeting is per byte
    for (int64_t offset = 0; offset < 4; ++offset) {
      for (int64_t s0 = 0; s0 <= 10; ++s0) {
        for (int64_t s1 = 0; s1 <= 10; ++s1) {
          const std::vector<int64_t> in_strides = {s0, s1};
          bool meets = false;
          const int64_t in_size = static_cast<int64_t>(ElemSize(in_dtype));
          for (int64_t i = 0; i < 12; ++i) {
            const int64_t e = ViewIndex(out_shape, in_strides, offset, i) * in_size;
            for (int64_t f : out_elems) meets = meets || (e < 4 * f + 4 && 4 * f < e + in_size);
          }
          const bool same = offset == 0 && in_strides == out_strides && in_dtype == ACL_FLOAT;
          Case c;
          c.AllShape(out_shape);
          c.v[kDy].dtype = in_dtype;
          c.v[kOut].strides = out_strides;
          c.v[kOut].storage = {64};
          c.v[kDy].share = kOut;
          c.v[kDy].strides = in_strides;
          c.v[kDy].offset = offset;
          c.v[kDy].storage = {64};
          Call call(op, c);
          const aclnnStatus st = call.Phase1();
          EXPECT_EQ(st, (same || !meets) ? ACLNN_SUCCESS : ACLNN_ERR_PARAM_INVALID)
              << "input strides " << ShapeText(in_strides) << " offset " << offset << ": "
              << aclGetRecentErrMsg();
          if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(call.exec());
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(checked, 1500);
}

// A deliberately hard layout (8 dims of similar strides) is decided within a bounded time.
TEST(OverlapExhaustive, HardLayoutIsDecidedQuickly) {
  const CApiOp& op = GetCApiOp(Op::kSiluBackward);
  const std::vector<int64_t> shape = {7, 7, 7, 7, 7, 7, 7, 7};
  // Strides within a factor of two of each other: no stride steps past the others, the
  // search over the differences of index tuples runs long, and the halved listing decides.
  std::vector<int64_t> strides;
  std::mt19937_64 gen(1);
  for (size_t i = 0; i < shape.size(); ++i) strides.push_back(1000000000 + gen() % 1000000000);
  // Phase 1 only: the storage is described, never touched.
  const std::vector<int64_t> storage = {ReachElems(shape, strides, 0)};
  float data[4] = {0};
  const std::vector<int64_t> zeros(shape.size(), 0);
  float input[1] = {0};
  TensorPtr dy = MakeTensor(input, ACL_FLOAT, shape, zeros, 0, {1});  // broadcast inputs
  TensorPtr x = MakeTensor(input, ACL_FLOAT, shape, zeros, 0, {1});
  TensorPtr out = MakeTensor(data, ACL_FLOAT, shape, strides, 0, storage);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const auto start = std::chrono::steady_clock::now();
  const aclnnStatus st =
      aclnnSiluBackwardGetWorkspaceSize(dy.get(), x.get(), out.get(), &ws, &exec);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(seconds, 2.0);
  // Distinct: no two index tuples of these strides meet (checked once by listing the
  // 5.8 M elements).
  EXPECT_EQ(st, ACLNN_SUCCESS) << aclGetRecentErrMsg();
  if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(exec);
}

// ---- size-1 dims ------------------------------------------------------------------------

// The strides of size-1 dims do not matter (PyTorch gives them arbitrary values):
// gradOutput [64, 1] strides [1, 1] and out [64, 1] strides [1, 64] on the same memory are
// the same elements in the same order, so the call is in place.
TEST_P(ChecksTest, InPlaceIgnoresTheStridesOfSize1Dims) {
  for (Slot s : {kDy, kSelf}) {
    SCOPED_TRACE(name(s));
    Case c = Default();
    c.AllShape({64, 1});
    c.v[s].strides = {1, 1};
    c.v[kOut].strides = {1, 64};
    c.v[kOut].share = s;
    ExpectInPlaceComputes(op(), c);

    Case lead = Default();  // size-1 dims in front and behind, strides all different
    lead.AllShape({1, 8, 1, 4});
    lead.v[s].strides = {3, 4, 1000, 1};
    lead.v[kOut].strides = {77, 4, 5, 1};
    lead.v[kOut].share = s;
    ExpectInPlaceComputes(op(), lead);
  }
}

// An output whose size-1 dims have stride 0 (or any stride) is no self-overlap.
TEST_P(ChecksTest, OutputSize1DimsWithAnyStrideAreAccepted) {
  Case c = Default();
  c.AllShape({1, 6, 1});
  c.v[kOut].strides = {0, 1, 123456};
  c.v[kOut].storage = {6};
  Call call(op(), c);
  call.FillValues();
  call.ExpectComputes();
}

INSTANTIATE_TEST_SUITE_P(AllOps, ChecksTest, ::testing::ValuesIn(GradOpsVector()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return OpTestName(info.param);
                         });

}  // namespace
}  // namespace test
}  // namespace hostnn
