// A data address of NULL behind a view with elements, through the C API, for every operator:
// CANN's phase 1 never reads the address (ops-nn's own op_api tests create every tensor
// without data), so hostnn's phase 1 takes the call, and phase 2 refuses to run it (161002
// naming the operand) on the calling thread or a stream, writing nothing, the executor
// still the caller's. An empty call beside such an operand runs nothing and succeeds; an
// output over a null address is checked for self-overlap by its strides alone; the gated
// units' halves of a null self are taken as well.

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_glu.h"
#include "aclnnop/aclnn_glu_backward.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_softmax.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {
namespace {

// Every operator Call drives (the gated units and PreluBackward are below and in
// checks_test), every operand slot in turn, in place included, on [2, 3] operands (Prelu's
// weight [3]).
TEST(NullData, TakenByPhase1AndRefusedByPhase2ForEveryOperator) {
  int checked = 0;
  for (Op op : AllOps()) {
    const CApiOp& c = GetCApiOp(op);
    // (The index kinds' indices must name rows: tests/embedding_test.cc,
    // embedding_dense_backward_test.cc; the losses' default mean needs a 0-d out:
    // tests/mse_loss_test.cc.)
    if (c.phase1 == nullptr || GetOpInfo(op).is_split || GetOpInfo(op).out_names[1] != nullptr ||
        IsIndexKind(GetOpInfo(op).kind) || IsLossKind(GetOpInfo(op).kind))
      continue;
    Case base;
    base.AllShape({2, 3});
    if (op == Op::kPrelu) base.v[kSelf].shape = {3};  // weight: C = self's dim 1
    {
      Call valid(c, base);
      ASSERT_EQ(valid.Phase1(), ACLNN_SUCCESS) << c.name << ": " << aclGetRecentErrMsg();
      aclDestroyAclOpExecutor(valid.exec());
    }
    for (Slot s : c.slots()) {
      for (bool on_stream : {false, true}) {
        SCOPED_TRACE(std::string(c.name) + " " + std::to_string(s) + (on_stream ? " stream" : ""));
        Case k = base;
        k.v[s].null_data = true;
        Call call(c, k);
        call.FillValues();
        ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        aclrtStream stream = nullptr;
        if (on_stream) {
          ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
        }
        EXPECT_EQ(call.Phase2(stream), ACLNN_ERR_PARAM_INVALID);
        const std::string msg = aclGetRecentErrMsg();
        EXPECT_NE(msg.find("null address"), std::string::npos) << msg;
        EXPECT_TRUE(call.Unchanged());
        EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
        if (on_stream) {
          EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
        }
        ++checked;
      }
    }
  }
  EXPECT_GT(checked, 100);
}

// Phase 1 of a view over `data` (may be null), row-major unless strides are given.
TensorPtr View(void* data, aclDataType dt, const std::vector<int64_t>& shape,
               std::vector<int64_t> strides = {}, std::vector<int64_t> storage = {}) {
  if (strides.empty()) strides = RowMajorStrides(shape);
  if (storage.empty()) storage = {NumElements(shape)};
  return MakeTensor(data, dt, shape, strides, 0, storage);
}

aclnnStatus RunBoth(aclnnStatus phase1, const uint64_t* ws, aclOpExecutor* const* exec,
                    aclnnStatus (*phase2)(void*, uint64_t, aclOpExecutor*, aclrtStream),
                    aclnnStatus* first) {
  *first = phase1;
  if (phase1 != ACLNN_SUCCESS) return phase1;
  std::vector<uint64_t> workspace(static_cast<size_t>((*ws + 7) / 8));
  return phase2(*ws ? workspace.data() : nullptr, *ws, *exec, nullptr);
}

// An empty call beside a null operand runs nothing: both phases succeed (Softmax's and
// LogSoftmaxBackward's early success on an empty input, ops-nn's case_016; an empty
// broadcast result).
TEST(NullData, AnEmptyCallBesideANullOperandSucceeds) {
  std::vector<float> host(16, 0.0f);
  {
    TensorPtr self = View(host.data(), ACL_FLOAT, {2, 0}), out = View(nullptr, ACL_FLOAT, {2, 3});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    EXPECT_EQ(RunBoth(aclnnSoftmaxGetWorkspaceSize(self.get(), 0, out.get(), &ws, &e), &ws, &e,
                      aclnnSoftmax, &p1),
              ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
  {
    TensorPtr dy = View(nullptr, ACL_FLOAT, {2, 0}), y = View(nullptr, ACL_FLOAT, {2, 0});
    TensorPtr out = View(nullptr, ACL_FLOAT, {2, 3});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    EXPECT_EQ(
        RunBoth(aclnnLogSoftmaxBackwardGetWorkspaceSize(dy.get(), y.get(), 0, out.get(), &ws, &e),
                &ws, &e, aclnnLogSoftmaxBackward, &p1),
        ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
  }
}

// An output over a null address is checked for self-overlap by its strides: [3, 2] with
// strides [2, 3] is six distinct elements (taken, then refused in phase 2), [3, 2] with
// strides [1, 1] overlaps (refused in phase 1), as over real storage.
TEST(NullData, AnOutputOverANullAddressIsCheckedByItsStrides) {
  std::vector<float> host(6, 0.5f);
  TensorPtr self = View(host.data(), ACL_FLOAT, {3, 2});
  {
    TensorPtr out = View(nullptr, ACL_FLOAT, {3, 2}, {2, 3}, {8});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    EXPECT_EQ(RunBoth(aclnnSigmoidGetWorkspaceSize(self.get(), out.get(), &ws, &e), &ws, &e,
                      aclnnSigmoid, &p1),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(p1, ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(e);
  }
  {
    TensorPtr out = View(nullptr, ACL_FLOAT, {3, 2}, {1, 1}, {8});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    RunBoth(aclnnSigmoidGetWorkspaceSize(self.get(), out.get(), &ws, &e), &ws, &e, aclnnSigmoid,
            &p1);
    EXPECT_EQ(p1, ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("overlap"), std::string::npos)
        << aclGetRecentErrMsg();
  }
}

// The gated units split a null self into halves without an address: phase 1 takes it,
// phase 2 refuses it, nothing written (Glu; GluBackward with its gradient's out over real
// storage, and with out null too).
TEST(NullData, TheGatedUnitsTakeANullSelf) {
  std::vector<double> out_host(12, 7.0), dy_host(6, 1.0);
  const std::vector<double> before = out_host;
  TensorPtr self = View(nullptr, ACL_DOUBLE, {2, 6});
  {
    TensorPtr out = View(out_host.data(), ACL_DOUBLE, {2, 3});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    EXPECT_EQ(RunBoth(aclnnGluGetWorkspaceSize(self.get(), -1, out.get(), &ws, &e), &ws, &e,
                      aclnnGlu, &p1),
              ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(p1, ACLNN_SUCCESS);
    aclDestroyAclOpExecutor(e);
  }
  for (bool null_out : {false, true}) {
    TensorPtr dy = View(dy_host.data(), ACL_DOUBLE, {2, 3});
    TensorPtr out = View(null_out ? nullptr : out_host.data(), ACL_DOUBLE, {2, 6});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    aclnnStatus p1;
    EXPECT_EQ(
        RunBoth(aclnnGluBackwardGetWorkspaceSize(dy.get(), self.get(), -1, out.get(), &ws, &e), &ws,
                &e, aclnnGluBackward, &p1),
        ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(p1, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyAclOpExecutor(e);
  }
  EXPECT_EQ(out_host, before);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
