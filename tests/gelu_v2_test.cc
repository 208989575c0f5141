// aclnnGeluV2 and aclnnGeluBackwardV2: `approximate` picks the form (0 / "none": the erf
// form, 1 / "tanh": the tanh form) and a bad one is refused with a clear status and message
// and nothing written. The forms differ by up to 1.6e-4 near x = +-1.5, far beyond either's
// tolerance, so a result within one form's bound shows which kernel ran. The values are
// checked against the double references of GeluErf / Gelu and their gradients.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "aclnnop/aclnn_gelu_backward_v2.h"
#include "aclnnop/aclnn_gelu_v2.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/acl_test_util.h"

namespace hostnn {
namespace test {
namespace {

const std::vector<float> kX = {-3.0f, -1.5f, -0.75f, -0.1f, 0.0f, 0.5f, 1.0f, 1.5f, 2.5f};
const std::vector<float> kDy = {1.0f, -0.75f, 3.5f, 1.0f, 2.0f, -1.0f, 0.5f, 1.0f, -2.0f};

// Runs both phases on the null stream; the status of the first phase that fails.
template <class Phase1>
aclnnStatus RunTwoPhase(Phase1 phase1,
                        aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = phase1(&ws, &exec);
  if (s != ACLNN_SUCCESS) return s;
  void* workspace = nullptr;
  if (ws > 0 && aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
  const aclnnStatus r = phase2(workspace, ws, exec, nullptr);
  if (workspace != nullptr) aclrtFree(workspace);
  return r;
}

// kX's 9 elements in `shape`.
std::vector<float> GeluV2(int64_t approximate, const std::vector<int64_t>& shape = {9}) {
  std::vector<float> x = kX;
  std::vector<float> y(kX.size(), -99.0f);
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, shape);
  TensorPtr ty = MakeDense(y.data(), ACL_FLOAT, shape);
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnGeluV2GetWorkspaceSize(tx.get(), approximate, ty.get(), ws, e);
                },
                aclnnGeluV2),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return y;
}

std::vector<float> GeluBackwardV2(const char* approximate,
                                  const std::vector<int64_t>& shape = {9}) {
  std::vector<float> dy = kDy;
  std::vector<float> x = kX;
  std::vector<float> dx(kX.size(), -99.0f);
  TensorPtr tdy = MakeDense(dy.data(), ACL_FLOAT, shape);
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, shape);
  TensorPtr tdx = MakeDense(dx.data(), ACL_FLOAT, shape);
  std::string mode = approximate;
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnGeluBackwardV2GetWorkspaceSize(tdy.get(), tx.get(), &mode[0],
                                                             tdx.get(), ws, e);
                },
                aclnnGeluBackwardV2),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  return dx;
}

// GeluV2's results of kX by the erf form (approximate 0) and the tanh form (1).
void ExpectForms(const std::vector<float>& erf, const std::vector<float>& tanh) {
  for (size_t i = 0; i < kX.size(); ++i) {
    EXPECT_TRUE(ForwardEltwiseWithinTolerance(DType::kFloat32, erf[i],
                                              ForwardEltwiseRef(Op::kGeluErf, kX[i])))
        << "x = " << kX[i] << ": got " << erf[i];
    EXPECT_TRUE(ForwardEltwiseWithinTolerance(DType::kFloat32, tanh[i],
                                              ForwardEltwiseRef(Op::kGelu, kX[i])))
        << "x = " << kX[i] << ": got " << tanh[i];
  }
}

// GeluBackwardV2's results of (kDy, kX) by "none" and "tanh".
void ExpectGradForms(const std::vector<float>& erf, const std::vector<float>& tanh) {
  for (size_t i = 0; i < kX.size(); ++i) {
    EXPECT_TRUE(EltwiseWithinTolerance(DType::kFloat32, erf[i],
                                       EltwiseRef(Op::kGeluErfBackward, kDy[i], kX[i]), kDy[i]))
        << "x = " << kX[i] << ": got " << erf[i];
    EXPECT_TRUE(EltwiseWithinTolerance(DType::kFloat32, tanh[i],
                                       EltwiseRef(Op::kGeluBackward, kDy[i], kX[i]), kDy[i]))
        << "x = " << kX[i] << ": got " << tanh[i];
  }
}

TEST(GeluV2, ApproximateZeroRunsTheErfFormAndOneTheTanhForm) {
  const std::vector<float> erf = GeluV2(0);
  const std::vector<float> tanh = GeluV2(1);
  ExpectForms(erf, tanh);
  EXPECT_NE(erf[7], tanh[7]);  // x = 1.5: 1.39978 and 1.39960
}

TEST(GeluBackwardV2, NoneRunsTheErfFormAndTanhTheTanhForm) {
  const std::vector<float> erf = GeluBackwardV2("none");
  const std::vector<float> tanh = GeluBackwardV2("tanh");
  ExpectGradForms(erf, tanh);
  EXPECT_NE(erf[7], tanh[7]);
}

// The V2 op_api files check no rank (no OP_CHECK_MAX_DIM), Gelu's and GeluBackward's check
// 8: ten dims run through the V2 entry points in either form and are refused by the others.
TEST(GeluV2, TensorsOfAnyRankRunWhereGeluRefusesThem) {
  const std::vector<int64_t> ten = {3, 1, 1, 1, 1, 1, 1, 1, 1, 3};
  ExpectForms(GeluV2(0, ten), GeluV2(1, ten));
  ExpectGradForms(GeluBackwardV2("none", ten), GeluBackwardV2("tanh", ten));
  std::vector<float> x = kX, y(kX.size(), -99.0f);
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, ten);
  TensorPtr ty = MakeDense(y.data(), ACL_FLOAT, ten);
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  EXPECT_EQ(aclnnGeluGetWorkspaceSize(tx.get(), ty.get(), &ws, &exec), ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("rank"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnGeluBackwardGetWorkspaceSize(tx.get(), tx.get(), ty.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(ws, kWsSentinel);
  EXPECT_EQ(exec, ExecSentinel());
  EXPECT_EQ(y, std::vector<float>(kX.size(), -99.0f));
}

TEST(GeluV2, RefusesAnApproximateOtherThanZeroOrOneAndWritesNothing) {
  float x[4] = {1, 2, 3, 4};
  float y[4] = {-9, -9, -9, -9};
  TensorPtr tx = MakeDense(x, ACL_FLOAT, {4});
  TensorPtr ty = MakeDense(y, ACL_FLOAT, {4});
  for (int64_t bad : {int64_t{2}, int64_t{-1}, INT64_MAX}) {
    const std::string primed = PrimeErrorMessage();
    uint64_t ws = kWsSentinel;
    aclOpExecutor* exec = ExecSentinel();
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(tx.get(), bad, ty.get(), &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(ws, kWsSentinel);
    EXPECT_EQ(exec, ExecSentinel());
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg, primed);
    EXPECT_TRUE(NamesParam(msg, "approximate")) << msg;
    EXPECT_TRUE(NamesParam(msg, "aclnnGeluV2")) << msg;
    EXPECT_NE(msg.find(std::to_string(bad)), std::string::npos) << msg;
  }
  // A bad tensor with a good approximate: the operator's own check, in aclnnGeluV2's call.
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(nullptr, 0, ty.get(), &ws, &exec), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(ws, kWsSentinel);
  for (float v : y) EXPECT_EQ(v, -9.0f);
}

TEST(GeluBackwardV2, RefusesANullOrUnknownApproximateAndWritesNothing) {
  float dy[4] = {1, 1, 1, 1};
  float x[4] = {1, 2, 3, 4};
  float dx[4] = {-9, -9, -9, -9};
  TensorPtr tdy = MakeDense(dy, ACL_FLOAT, {4});
  TensorPtr tx = MakeDense(x, ACL_FLOAT, {4});
  TensorPtr tdx = MakeDense(dx, ACL_FLOAT, {4});
  struct Case {
    const char* approximate;
    aclnnStatus code;
  };
  for (const Case& c :
       {Case{nullptr, ACLNN_ERR_PARAM_NULLPTR}, Case{"erf", ACLNN_ERR_PARAM_INVALID},
        Case{"", ACLNN_ERR_PARAM_INVALID}, Case{"Tanh", ACLNN_ERR_PARAM_INVALID},
        Case{"none ", ACLNN_ERR_PARAM_INVALID}}) {
    const std::string primed = PrimeErrorMessage();
    uint64_t ws = kWsSentinel;
    aclOpExecutor* exec = ExecSentinel();
    std::string mode = c.approximate == nullptr ? "" : c.approximate;
    char* arg = c.approximate == nullptr ? nullptr : &mode[0];
    EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(tdy.get(), tx.get(), arg, tdx.get(), &ws, &exec),
              c.code)
        << (c.approximate == nullptr ? "null" : c.approximate);
    EXPECT_EQ(ws, kWsSentinel);
    EXPECT_EQ(exec, ExecSentinel());
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg, primed);
    EXPECT_TRUE(NamesParam(msg, "approximate")) << msg;
    EXPECT_TRUE(NamesParam(msg, "aclnnGeluBackwardV2")) << msg;
  }
  for (float v : dx) EXPECT_EQ(v, -9.0f);
}

// CANN's order: null tensors, then a null approximate; the tensors' dtype and shape, then a
// bad approximate. A call wrong in both ways gets the tensors' code and names the tensor.
TEST(GeluV2, TensorChecksComeBeforeABadApproximate) {
  float a[4] = {1, 2, 3, 4};
  float b[4] = {-9, -9, -9, -9};
  TensorPtr ta = MakeDense(a, ACL_FLOAT, {4});
  TensorPtr tb = MakeDense(b, ACL_FLOAT, {4});
  TensorPtr wrong_shape = MakeDense(b, ACL_FLOAT, {2});
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(nullptr, 2, tb.get(), &ws, &exec), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "x")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(ta.get(), 2, wrong_shape.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "y")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(ta.get(), 2, tb.get(), nullptr, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  std::string bad = "test";
  EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(ta.get(), nullptr, &bad[0], tb.get(), &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "self")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(nullptr, ta.get(), nullptr, tb.get(), &ws, &exec),
            ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "gradOutput")) << aclGetRecentErrMsg();
  EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(ta.get(), ta.get(), &bad[0], wrong_shape.get(),
                                                &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "gradInput")) << aclGetRecentErrMsg();
  EXPECT_EQ(ws, kWsSentinel);
  EXPECT_EQ(exec, ExecSentinel());
  for (float v : b) EXPECT_EQ(v, -9.0f);
}

// GeluBackwardV2's gradInput must have the dtype gradOutput and self promote to (its
// op_api's CheckPromoteType; GeluBackward takes any float gradInput): a FLOAT promotion into
// a FLOAT16 or DOUBLE gradInput, a FLOAT16 one into FLOAT, are 161002 naming gradInput, with
// nothing written, for either approximate; the promotion itself runs (FLOAT16 and BFLOAT16
// inputs into FLOAT).
TEST(GeluBackwardV2, GradInputMustHaveThePromotedDtype) {
  struct Case {
    aclDataType grad, self, out;
    aclnnStatus code;
  };
  const Case cases[] = {
      {ACL_FLOAT, ACL_FLOAT, ACL_FLOAT16, ACLNN_ERR_PARAM_INVALID},
      {ACL_FLOAT, ACL_FLOAT, ACL_DOUBLE, ACLNN_ERR_PARAM_INVALID},
      {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT, ACLNN_ERR_PARAM_INVALID},
      {ACL_BF16, ACL_BF16, ACL_FLOAT16, ACLNN_ERR_PARAM_INVALID},
      {ACL_FLOAT16, ACL_FLOAT, ACL_FLOAT, ACLNN_SUCCESS},
      {ACL_BF16, ACL_FLOAT16, ACL_FLOAT, ACLNN_SUCCESS},
      {ACL_FLOAT16, ACL_FLOAT16, ACL_FLOAT16, ACLNN_SUCCESS},
  };
  for (const Case& c : cases) {
    for (const char* form : {"none", "tanh"}) {
      SCOPED_TRACE(std::string(form) + " gradOutput " + std::to_string(c.grad) + " self " +
                   std::to_string(c.self) + " gradInput " + std::to_string(c.out));
      uint64_t dy[4] = {}, x[4] = {}, dx[4];  // room for 4 elements of any of the dtypes
      for (uint64_t& v : dx) v = 0xA5A5A5A5A5A5A5A5u;
      TensorPtr tdy = MakeDense(dy, c.grad, {4});
      TensorPtr tx = MakeDense(x, c.self, {4});
      TensorPtr tdx = MakeDense(dx, c.out, {4});
      std::string mode = form;
      if (c.code == ACLNN_SUCCESS) {
        EXPECT_EQ(RunTwoPhase(
                      [&](uint64_t* w, aclOpExecutor** e) {
                        return aclnnGeluBackwardV2GetWorkspaceSize(tdy.get(), tx.get(), &mode[0],
                                                                   tdx.get(), w, e);
                      },
                      aclnnGeluBackwardV2),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        continue;
      }
      uint64_t ws = kWsSentinel;
      aclOpExecutor* exec = ExecSentinel();
      EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(tdy.get(), tx.get(), &mode[0], tdx.get(), &ws,
                                                    &exec),
                c.code)
          << aclGetRecentErrMsg();
      EXPECT_EQ(ws, kWsSentinel);
      EXPECT_EQ(exec, ExecSentinel());
      EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "gradInput")) << aclGetRecentErrMsg();
      for (uint64_t v : dx) EXPECT_EQ(v, 0xA5A5A5A5A5A5A5A5u);
    }
  }
  // GeluBackward (V1) keeps taking a float gradInput of another dtype.
  float dy[4] = {1, 1, 1, 1}, x[4] = {1, 2, 3, 4};
  uint16_t dx[4] = {};
  TensorPtr tdy = MakeDense(dy, ACL_FLOAT, {4});
  TensorPtr tx = MakeDense(x, ACL_FLOAT, {4});
  TensorPtr tdx = MakeDense(dx, ACL_FLOAT16, {4});
  EXPECT_EQ(RunTwoPhase(
                [&](uint64_t* w, aclOpExecutor** e) {
                  return aclnnGeluBackwardGetWorkspaceSize(tdy.get(), tx.get(), tdx.get(), w, e);
                },
                aclnnGeluBackward),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
}

// A refusal names the entry point the caller called and its parameters, whichever operator
// the call was handed to: GeluV2's x and y (the tanh form's operator calls them self and
// out), GeluBackwardV2's gradOutput, self and gradInput; phase 2 too.
TEST(GeluV2, MessagesNameTheV2EntryPointAndItsParameters) {
  float x[4] = {1, 2, 3, 4}, y[4] = {-9, -9, -9, -9};
  int32_t xi[4] = {1, 2, 3, 4};
  TensorPtr tx = MakeDense(x, ACL_FLOAT, {4}), ty = MakeDense(y, ACL_FLOAT, {4});
  TensorPtr txi = MakeDense(xi, ACL_INT32, {4}), short_y = MakeDense(y, ACL_FLOAT, {2});
  uint64_t ws = kWsSentinel;
  aclOpExecutor* exec = ExecSentinel();
  // The message, which must start with `entry` and name none of the other operators'
  // entry points or parameters.
  const auto expect_words = [](const std::string& entry, const char* param) {
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_EQ(msg.rfind(entry, 0), 0u) << msg;
    EXPECT_TRUE(NamesParam(msg, param)) << msg;
    for (const char* other : {"aclnnGelu:", "aclnnGeluErf", "aclnnGeluGetWorkspaceSize",
                              "aclnnGeluBackward:", "aclnnGeluErfBackward",
                              "aclnnGeluBackwardGetWorkspaceSize"}) {
      EXPECT_EQ(msg.find(other), std::string::npos) << msg;
    }
    return msg;
  };
  for (int64_t approximate : {0, 1}) {
    SCOPED_TRACE("approximate " + std::to_string(approximate));
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(tx.get(), approximate, ty.get(), nullptr, &exec),
              ACLNN_ERR_PARAM_NULLPTR);
    expect_words("aclnnGeluV2GetWorkspaceSize:", "workspaceSize");
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(tx.get(), approximate, nullptr, &ws, &exec),
              ACLNN_ERR_PARAM_NULLPTR);
    std::string msg = expect_words("aclnnGeluV2:", "y");
    EXPECT_FALSE(NamesParam(msg, "out")) << msg;
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(txi.get(), approximate, ty.get(), &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    msg = expect_words("aclnnGeluV2:", "x");
    EXPECT_FALSE(NamesParam(msg, "self")) << msg;
    EXPECT_EQ(aclnnGeluV2GetWorkspaceSize(tx.get(), approximate, short_y.get(), &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    msg = expect_words("aclnnGeluV2:", "y");
    EXPECT_FALSE(NamesParam(msg, "self") || NamesParam(msg, "out")) << msg;
  }
  for (const char* form : {"none", "tanh"}) {
    SCOPED_TRACE(form);
    std::string mode = form;
    EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(tx.get(), tx.get(), &mode[0], ty.get(), nullptr,
                                                  &exec),
              ACLNN_ERR_PARAM_NULLPTR);
    expect_words("aclnnGeluBackwardV2GetWorkspaceSize:", "workspaceSize");
    EXPECT_EQ(aclnnGeluBackwardV2GetWorkspaceSize(tx.get(), tx.get(), &mode[0], short_y.get(),
                                                  &ws, &exec),
              ACLNN_ERR_PARAM_INVALID);
    expect_words("aclnnGeluBackwardV2:", "gradInput");
  }
  EXPECT_EQ(ws, kWsSentinel);
  EXPECT_EQ(exec, ExecSentinel());
  for (float v : y) EXPECT_EQ(v, -9.0f);
  // Phase 2 with an executor of another operator (Silu's, which then writes y).
  uint64_t silu_ws = 0;
  aclOpExecutor* silu = nullptr;
  ASSERT_EQ(aclnnSiluGetWorkspaceSize(tx.get(), ty.get(), &silu_ws, &silu), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnGeluV2(nullptr, 0, silu, nullptr), ACLNN_ERR_PARAM_INVALID);
  expect_words("aclnnGeluV2:", "executor");
  EXPECT_EQ(aclnnGeluBackwardV2(nullptr, 0, silu, nullptr), ACLNN_ERR_PARAM_INVALID);
  expect_words("aclnnGeluBackwardV2:", "executor");
  EXPECT_EQ(aclnnSilu(nullptr, 0, silu, nullptr), ACLNN_SUCCESS);
}

TEST(GeluV2, PhaseTwoRefusesAnExecutorOfAnotherOperator) {
  float x[4] = {1, 2, 3, 4};
  float y[4] = {-9, -9, -9, -9};
  TensorPtr tx = MakeDense(x, ACL_FLOAT, {4});
  TensorPtr ty = MakeDense(y, ACL_FLOAT, {4});
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnSiluGetWorkspaceSize(tx.get(), ty.get(), &ws, &exec), ACLNN_SUCCESS);
  ASSERT_EQ(ws, 0u);
  EXPECT_EQ(aclnnGeluV2(nullptr, 0, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_EQ(aclnnGeluBackwardV2(nullptr, 0, exec, nullptr), ACLNN_ERR_PARAM_INVALID);
  for (float v : y) EXPECT_EQ(v, -9.0f);
  EXPECT_EQ(aclnnSilu(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
