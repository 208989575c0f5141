// Tensor formats (aclFormat) through the C API: a value that is no aclFormat is refused by
// every entry point (161002 naming the tensor, nothing written); the format rules of the
// op_api files that have one (FormatRuleOf): Gelu refuses private formats before its
// shapes, FastGelu, FastGeluBackward, Hardsigmoid and Shrink ask every tensor for the first
// one's format after their shapes and parameters; the others, and GeluV2, take any format
// and compute the view its shape and strides describe.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_prelu.h"
#include "tests/reference/forward_reference.h"
#include "tests/util/acl_test_util.h"

namespace hostnn {
namespace test {
namespace {

const aclFormat kNoFormat = static_cast<aclFormat>(12345);

// The suites' default call of `op` ([2, 3] operands, dim -1), its result in its input for an
// in-place operator.
Case Default(const CApiOp& op) {
  Case c;
  c.dim = -1;
  if (op.in_place()) c.v[kOut] = c.v[kDy];
  return c;
}

// Phase 1 refuses with 161002, a message naming `param` and containing `what`, and nothing
// written.
void ExpectRefused(const CApiOp& op, const Case& c, const char* param, const std::string& what) {
  const std::string primed = PrimeErrorMessage();
  Call call(op, c);
  EXPECT_EQ(call.Phase1(), ACLNN_ERR_PARAM_INVALID) << aclGetRecentErrMsg();
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg, primed);
  EXPECT_TRUE(NamesParam(msg, param)) << msg;
  EXPECT_NE(msg.find(what), std::string::npos) << msg;
  EXPECT_EQ(call.ws(), kWsSentinel);
  EXPECT_EQ(call.exec(), ExecSentinel());
  EXPECT_TRUE(call.Unchanged());
}

TEST(Formats, NoAclFormatValueIsRefusedByEveryOperator) {
  for (Op o : SuiteOps()) {
    const CApiOp& op = GetCApiOp(o);
    {
      Call plain(op, Default(op));
      ASSERT_EQ(plain.Phase1(), ACLNN_SUCCESS) << op.name << ": " << aclGetRecentErrMsg();
      aclDestroyAclOpExecutor(plain.exec());
    }
    for (Slot s : op.slots()) {
      for (aclFormat bad : {kNoFormat, static_cast<aclFormat>(5), static_cast<aclFormat>(-2)}) {
        SCOPED_TRACE(std::string(op.name) + " " + op.params[s] + " format " +
                     std::to_string(static_cast<int>(bad)));
        Case c = Default(op);
        c.v[s].format = bad;
        if (op.in_place() && s == kDy) c.v[kOut].format = bad;
        ExpectRefused(op, c, op.params[s], "is no aclFormat value");
      }
    }
  }
}

// The gated units' and Prelu's front ends check the format too.
TEST(Formats, GatedAndPreluEntryPointsRefuseNoAclFormatValue) {
  std::vector<float> self(8, 0.5f), out(8, -9.0f), weight(1, 0.25f);
  TensorPtr ok_self = MakeDense(self.data(), ACL_FLOAT, {2, 4});
  TensorPtr bad_self = MakeTensor(self.data(), ACL_FLOAT, {2, 4}, {4, 1}, 0, {2, 4}, kNoFormat);
  TensorPtr half = MakeDense(out.data(), ACL_FLOAT, {2, 2});
  TensorPtr whole = MakeDense(out.data(), ACL_FLOAT, {2, 4});
  TensorPtr bad_weight = MakeTensor(weight.data(), ACL_FLOAT, {1}, {1}, 0, {1}, kNoFormat);
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  EXPECT_EQ(aclnnGluGetWorkspaceSize(bad_self.get(), -1, half.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("no aclFormat"), std::string::npos);
  EXPECT_EQ(aclnnPreluGetWorkspaceSize(ok_self.get(), bad_weight.get(), whole.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("no aclFormat"), std::string::npos);
  EXPECT_EQ(ws, kWsSentinel);
  EXPECT_EQ(exec, ExecSentinel());
  EXPECT_EQ(out, std::vector<float>(8, -9.0f));
}

// Gelu's op_api refuses a private format of self or out, after the dtypes and before the
// ranks and shapes; the plain formats are computed as the view.
TEST(Formats, GeluRefusesPrivateFormatsBeforeItsShapes) {
  const CApiOp& op = GetCApiOp(Op::kGelu);
  for (aclFormat f : {ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NC1HWC0, ACL_FORMAT_FRACTAL_Z,
                      ACL_FORMAT_NDC1HWC0}) {
    for (Slot s : {kDy, kOut}) {
      Case c = Default(op);
      c.v[s].format = f;
      ExpectRefused(op, c, op.params[s], "private format");
      c.v[kOut].shape = {3, 2};  // also a shape mismatch: the format is reported
      c.v[kDy].shape = {1, 1, 1, 1, 1, 1, 1, 2, 3};  // and a ninth dim
      ExpectRefused(op, c, op.params[s], "private format");
    }
  }
  for (aclFormat f : {ACL_FORMAT_NCHW, ACL_FORMAT_NHWC, ACL_FORMAT_ND, ACL_FORMAT_NCDHW}) {
    Case c = Default(op);
    c.v[kDy].format = f;
    c.v[kOut].format = f;
    Call call(op, c);
    call.FillValues();
    call.ExpectComputes();
  }
}

// aclnnGeluV2's op_api checks no format: a private one is computed as the view (and the
// executor kept for the call is not handed to aclnnGelu's).
TEST(Formats, GeluV2TakesAPrivateFormat) {
  std::vector<float> x = {-2.0f, -0.5f, 0.0f, 0.75f, 1.5f, 3.0f}, y(6, -9.0f);
  TensorPtr tx = MakeTensor(x.data(), ACL_FLOAT, {2, 3}, {3, 1}, 0, {2, 3}, ACL_FORMAT_FRACTAL_NZ);
  TensorPtr ty = MakeTensor(y.data(), ACL_FLOAT, {2, 3}, {3, 1}, 0, {2, 3}, ACL_FORMAT_NC1HWC0);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnGeluV2GetWorkspaceSize(tx.get(), 1, ty.get(), &ws, &exec), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(aclnnGeluV2(nullptr, ws, exec, nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_TRUE(ForwardEltwiseWithinTolerance(DType::kFloat32, y[i],
                                              ForwardEltwiseRef(Op::kGelu, x[i])))
        << "x = " << x[i] << ": got " << y[i];
  }
  // The same tensors through aclnnGelu, after GeluV2's executor was made for them: refused.
  exec = ExecSentinel();
  EXPECT_EQ(aclnnGeluGetWorkspaceSize(tx.get(), ty.get(), &ws, &exec), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(exec, ExecSentinel());
}

// The op_api files without a format rule take any format, private ones too, and hand the
// kernel the view: computed as ND.
TEST(Formats, OperatorsWithoutARuleTakeAnyFormat) {
  for (Op o : {Op::kSilu, Op::kSiluBackward, Op::kSoftmax, Op::kLeakyRelu}) {
    const CApiOp& op = GetCApiOp(o);
    ASSERT_EQ(FormatRuleOf(o), FormatRule::kAny);
    for (aclFormat f : {ACL_FORMAT_FRACTAL_NZ, ACL_FORMAT_NCHW, ACL_FORMAT_UNDEFINED}) {
      SCOPED_TRACE(std::string(op.name) + " format " + std::to_string(static_cast<int>(f)));
      Case c = Default(op);
      for (Slot s : op.slots()) c.v[s].format = f;
      c.v[kOut].format = ACL_FORMAT_ND;  // and another format for the result
      Call call(op, c);
      call.FillValues();
      call.ExpectComputes();
    }
  }
}

// FastGelu, FastGeluBackward, Hardsigmoid and Shrink ask every tensor for the first one's
// format, after the shapes (and Shrink's lambd); one format throughout is computed.
TEST(Formats, OneFormatOperatorsAskEveryTensorForTheFirstOnesFormat) {
  for (Op o : {Op::kFastGelu, Op::kFastGeluBackward, Op::kHardsigmoid, Op::kShrink}) {
    const CApiOp& op = GetCApiOp(o);
    ASSERT_EQ(FormatRuleOf(o), FormatRule::kOneFormat);
    for (Slot s : op.slots()) {
      if (s == kDy) continue;
      SCOPED_TRACE(std::string(op.name) + " " + op.params[s]);
      Case c = Default(op);
      c.v[s].format = ACL_FORMAT_NCHW;
      ExpectRefused(op, c, op.params[s], "format: expected ND");
      c.v[kOut].shape = {3, 2};  // a shape mismatch as well: the shape is reported first
      ExpectRefused(op, c, op.params[kOut], "shape");
    }
    Case same = Default(op);
    for (Slot s : op.slots()) same.v[s].format = ACL_FORMAT_FRACTAL_NZ;
    Call call(op, same);
    call.FillValues();
    call.ExpectComputes();
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
