// A real result into a COMPLEX64 or COMPLEX128 out, through the C API: where op_api checks
// out only by CanCast from the dtype it computes in (ops-nn's
// l2_celu_normal_out_COMPLEX64_NCDHW, l2_elu_backward_normal_gradInput_COMPLEX64_NDHWC),
// or by a list that holds the complex dtypes (Sigmoid, SigmoidBackward), the result is
// CANN's Cast of the real one: its real part the value (rounded once to FLOAT for
// COMPLEX64), its imaginary part +0. Checked against the same call with a FLOAT (or, for
// DOUBLE inputs, a DOUBLE) out, dense and strided. Every other operator refuses a complex
// out, and a complex input (but Sigmoid and SigmoidBackward, whose lists hold one:
// tests/complex_sigmoid_test.cc), writing nothing.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/capi_ops.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

TEST(ComplexOutOps, AreThoseOpApiLetsThrough) {
  std::vector<std::string> names;
  for (Op op : AllOps()) {
    if (OutTakesComplex(op)) names.push_back(GetOpInfo(op).name);
  }
  const std::vector<std::string> expected = {"HardsigmoidBackward", "Sigmoid",  "InplaceSigmoid",
                                             "SigmoidBackward",     "Erfinv",   "LeakyRelu",
                                             "LeakyReluBackward",   "Elu",      "Celu",
                                             "EluBackward",         "Softplus", "Threshold"};
  EXPECT_EQ(names, expected);
}

std::vector<Slot> InputSlots(const CApiOp& c) {
  std::vector<Slot> in;
  for (Slot s : c.slots()) {
    if (s != kOut) in.push_back(s);
  }
  return in;
}

// The real part of element i of a complex buffer, and whether its imaginary part is +0.
double RealPart(DType d, const void* p, int64_t i, bool* imag_plus_zero) {
  if (d == DType::kComplex64) {
    float v[2];
    std::memcpy(v, static_cast<const char*>(p) + i * 8, 8);
    *imag_plus_zero = v[1] == 0.0f && !std::signbit(v[1]);
    return v[0];
  }
  double v[2];
  std::memcpy(v, static_cast<const char*>(p) + i * 16, 16);
  *imag_plus_zero = v[1] == 0.0 && !std::signbit(v[1]);
  return v[0];
}

// out [4, 33], the inputs of in_t, into `real_t` and into each complex dtype, dense and
// every other element of a wider storage.
void ExpectComplexOutIsTheRealResult(Op op, DType in_t, DType real_t) {
  const CApiOp& c = GetCApiOp(op);
  SCOPED_TRACE(std::string(c.name) + " inputs " + DTypeName(in_t));
  Case base;
  base.AllShape({4, 33});
  for (Slot s : InputSlots(c)) base.v[s].dtype = static_cast<aclDataType>(in_t);
  base.v[kOut].dtype = static_cast<aclDataType>(real_t);
  Call real(c, base);
  real.FillValues();
  ASSERT_EQ(real.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  ASSERT_EQ(real.Phase2(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  const std::vector<double> want = real.Values(kOut);
  for (DType cx : {DType::kComplex64, DType::kComplex128}) {
    for (bool strided : {false, true}) {
      SCOPED_TRACE(std::string(DTypeName(cx)) + (strided ? ", strided" : ", dense"));
      Case k = base;
      k.v[kOut].dtype = static_cast<aclDataType>(cx);
      if (strided) k.v[kOut].strides = {66, 2};
      Call call(c, k);
      call.FillValues();
      ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      ASSERT_EQ(call.Phase2(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
      for (int64_t i = 0; i < static_cast<int64_t>(want.size()); ++i) {
        const int64_t at = strided ? (i / 33) * 66 + (i % 33) * 2 : i;
        bool imag_zero = false;
        const double got = RealPart(cx, call.data(kOut), at, &imag_zero);
        const double w = cx == DType::kComplex64 ? static_cast<float>(want[i]) : want[i];
        EXPECT_TRUE(got == w || (std::isnan(got) && std::isnan(w)))
            << "element " << i << ": got " << got << ", want " << w;
        EXPECT_TRUE(imag_zero) << "element " << i;
      }
    }
  }
}

TEST(ComplexOut, IsTheRealResultWithAZeroImaginaryPart) {
  for (Op op : AllOps()) {
    // (InplaceSigmoid's complex selfRef is its input too: tests/complex_sigmoid_test.cc.)
    if (!OutTakesComplex(op) || GetCApiOp(op).in_place()) continue;
    for (DType in_t : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      ExpectComplexOutIsTheRealResult(op, in_t, DType::kFloat32);
    }
    // Computed in double: the double result, rounded once for COMPLEX64.
    if (ComputesDouble(op)) ExpectComplexOutIsTheRealResult(op, DType::kFloat64, DType::kFloat64);
  }
}

// Phase 1 refuses with 161002 naming `slot`, and writes nothing.
void ExpectRefused(const CApiOp& c, const Case& k, Slot slot) {
  Call call(c, k);
  EXPECT_EQ(call.Phase1(), ACLNN_ERR_PARAM_INVALID);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_TRUE(NamesParam(msg, c.params[slot])) << msg;
  EXPECT_TRUE(call.Unchanged());
  EXPECT_EQ(call.ws(), kWsSentinel);
}

TEST(ComplexOut, RefusedElsewhereAndNeverAnInput) {
  for (Op op : AllOps()) {
    const CApiOp& c = GetCApiOp(op);
    // The gated units and PreluBackward (two outputs) are outside Call's four slots, as is
    // NLLLossBackward and CrossEntropyLossGrad (five and six inputs: tests/nll_loss_test.cc,
    // cross_entropy_loss_test.cc).
    if (c.phase1 == nullptr || GetOpInfo(op).is_split || GetOpInfo(op).out_names[1] != nullptr ||
        GetOpInfo(op).kind == Kind::kClassLoss || GetOpInfo(op).kind == Kind::kSoftmaxLoss)
      continue;
    SCOPED_TRACE(c.name);
    for (DType cx : {DType::kComplex64, DType::kComplex128}) {
      if (!c.in_place() && !OutTakesComplex(op)) {
        Case k;
        k.v[kOut].dtype = static_cast<aclDataType>(cx);
        ExpectRefused(c, k, kOut);
      }
      // Sigmoid's and SigmoidBackward's lists hold complex inputs, computed in complex
      // arithmetic (TakesComplexInputs: tests/complex_sigmoid_test.cc).
      for (Slot s : InputSlots(c)) {
        if (TakesComplexInputs(op)) break;
        Case k;
        k.v[s].dtype = static_cast<aclDataType>(cx);
        ExpectRefused(c, k, s);
      }
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
