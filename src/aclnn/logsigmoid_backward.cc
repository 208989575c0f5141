// LogSigmoidBackward: front end (checks in SPEC order) and the CANN C API.
// dtypes: all four tensors the same (FLOAT, FLOAT16, BFLOAT16); all shapes equal. The
// buffer input is checked like the others but never read.

#include "aclnnop/aclnn_logsigmoid_backward.h"

#include "src/aclnn/c_api.h"
#include "src/aclnn/eltwise.h"
#include "src/aclnn/op_prepare.h"
#include "src/cann/entry_alias.h"

namespace hostnn {
namespace {
constexpr char kOp[] = "LogSigmoidBackward";
}  // namespace

Status PrepareLogSigmoidBackward(const OpArgs& a, const tiling::Options& options,
                                 uint64_t* workspace_size, ExecutorPtr* executor) {
  core::ViewSpan dy_span, x_span, buf_span, out_span;
  const NamedView dy{"gradOutput", a.grad_output, &dy_span};
  const NamedView x{"self", a.self, &x_span};
  const NamedView buf{"buffer", a.buffer, &buf_span};
  const NamedView out{"gradInput", a.out, &out_span};
  HOSTNN_RETURN_IF_ERROR(CheckNotNull(kOp, {dy, x, buf, out}));
  const std::initializer_list<DType> kTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  for (const NamedView& v : {dy, x, buf, out}) HOSTNN_RETURN_IF_ERROR(core::CheckDType(kOp, v.param, v.view->dtype, kTypes));
  for (const NamedView& v : {x, buf, out}) {
    if (v.view->dtype != dy.view->dtype) {
      return core::InvalidParam(kOp, v.param, std::string("dtype: expected ") + DTypeName(dy.view->dtype) +
                                                  " like gradOutput, got " + DTypeName(v.view->dtype));
    }
  }
  HOSTNN_RETURN_IF_ERROR(CheckRanksAndDims(kOp, {dy, x, buf, out}));
  for (const NamedView& v : {x, buf, out}) {
    if (v.view->shape != dy.view->shape) {
      return core::InvalidParam(kOp, v.param, "shape: expected " + core::ShapeString(dy.view->shape) +
                                                  " like gradOutput, got " + core::ShapeString(v.view->shape));
    }
  }
  HOSTNN_RETURN_IF_ERROR(CheckStorages(kOp, {dy, x, buf, out}));
  HOSTNN_RETURN_IF_ERROR(CheckOutputAliasing(kOp, out, {dy, x}));
  return PrepareEltwise(Op::kLogSigmoidBackward, *dy.view, dy_span, *x.view, x_span, *out.view,
                        out_span, options, workspace_size, executor);
}

}  // namespace hostnn

extern "C" {

aclnnStatus aclnnLogSigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                    const aclTensor* buffer, aclTensor* gradInput,
                                                    uint64_t* workspaceSize, aclOpExecutor** executor) {
  hostnn::OpArgs a;
  a.op = hostnn::Op::kLogSigmoidBackward;
  a.grad_output = hostnn::capi::ViewOf(gradOutput);
  a.self = hostnn::capi::ViewOf(self);
  a.buffer = hostnn::capi::ViewOf(buffer);
  a.out = hostnn::capi::ViewOf(gradInput);
  return hostnn::capi::GetWorkspaceSize(a, workspaceSize, executor);
}

aclnnStatus aclnnLogSigmoidBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                    aclrtStream stream) {
  return hostnn::capi::Launch(hostnn::Op::kLogSigmoidBackward, workspace, workspaceSize, executor, stream);
}

// The names the CANN-named libraries forward to (src/cann/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclnnLogSigmoidBackwardGetWorkspaceSize)
HOSTNN_ENTRY_ALIAS(aclnnLogSigmoidBackward)

}  // extern "C"
