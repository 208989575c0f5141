// HardsigmoidBackward: front end (checks in SPEC order) and the CANN C API.
// dtypes: gradOutput and self FLOAT, FLOAT16 or BFLOAT16; promote(gradOutput, self) must
// cast to out, and every float dtype (DOUBLE included) can take it. All shapes equal.

#include "aclnnop/aclnn_hardsigmoid_backward.h"

#include "src/aclnn/c_api.h"
#include "src/aclnn/eltwise.h"
#include "src/aclnn/op_prepare.h"
#include "src/cann/entry_alias.h"

namespace hostnn {
namespace {
constexpr char kOp[] = "HardsigmoidBackward";
}  // namespace

Status PrepareHardsigmoidBackward(const OpArgs& a, const tiling::Options& options,
                                  uint64_t* workspace_size, ExecutorPtr* executor) {
  core::ViewSpan dy_span, x_span, out_span;
  const NamedView dy{"gradOutput", a.grad_output, &dy_span};
  const NamedView x{"self", a.self, &x_span};
  const NamedView out{"out", a.out, &out_span};
  HOSTNN_RETURN_IF_ERROR(CheckNotNull(kOp, {dy, x, out}));
  const std::initializer_list<DType> kIn = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(kOp, "gradOutput", dy.view->dtype, kIn));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(kOp, "self", x.view->dtype, kIn));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(
      kOp, "out", out.view->dtype, {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}));
  HOSTNN_RETURN_IF_ERROR(CheckRanksAndDims(kOp, {dy, x, out}));
  for (const NamedView& v : {x, out}) {
    if (v.view->shape != dy.view->shape) {
      return core::InvalidParam(kOp, v.param, "shape: expected " + core::ShapeString(dy.view->shape) +
                                                  " like gradOutput, got " + core::ShapeString(v.view->shape));
    }
  }
  HOSTNN_RETURN_IF_ERROR(CheckStorages(kOp, {dy, x, out}));
  HOSTNN_RETURN_IF_ERROR(CheckOutputAliasing(kOp, out, {dy, x}));
  return PrepareEltwise(Op::kHardsigmoidBackward, *dy.view, dy_span, *x.view, x_span, *out.view,
                        out_span, options, workspace_size, executor);
}

}  // namespace hostnn

extern "C" {

aclnnStatus aclnnHardsigmoidBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                     aclTensor* out, uint64_t* workspaceSize,
                                                     aclOpExecutor** executor) {
  hostnn::OpArgs a;
  a.op = hostnn::Op::kHardsigmoidBackward;
  a.grad_output = hostnn::capi::ViewOf(gradOutput);
  a.self = hostnn::capi::ViewOf(self);
  a.out = hostnn::capi::ViewOf(out);
  return hostnn::capi::GetWorkspaceSize(a, workspaceSize, executor);
}

aclnnStatus aclnnHardsigmoidBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                                     aclrtStream stream) {
  return hostnn::capi::Launch(hostnn::Op::kHardsigmoidBackward, workspace, workspaceSize, executor, stream);
}

// The names the CANN-named libraries forward to (src/cann/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclnnHardsigmoidBackwardGetWorkspaceSize)
HOSTNN_ENTRY_ALIAS(aclnnHardsigmoidBackward)

}  // extern "C"
