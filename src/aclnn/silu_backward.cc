// SiluBackward: front end (checks in SPEC order) and the CANN C API.
// dtypes: all three the same (FLOAT, FLOAT16, BFLOAT16), or any inputs with a FLOAT
// gradInput (Ascend 950's mixed mode). gradOutput and self broadcast to gradInput.

#include "aclnnop/aclnn_silu_backward.h"

#include "src/aclnn/c_api.h"
#include "src/aclnn/eltwise.h"
#include "src/aclnn/op_prepare.h"
#include "src/cann/entry_alias.h"
#include "src/core/layout.h"

namespace hostnn {
namespace {
constexpr char kOp[] = "SiluBackward";
}  // namespace

Status PrepareSiluBackward(const OpArgs& a, const tiling::Options& options, uint64_t* workspace_size,
                           ExecutorPtr* executor) {
  core::ViewSpan dy_span, x_span, out_span;
  const NamedView dy{"gradOutput", a.grad_output, &dy_span};
  const NamedView x{"self", a.self, &x_span};
  const NamedView out{"gradInput", a.out, &out_span};
  HOSTNN_RETURN_IF_ERROR(CheckNotNull(kOp, {dy, x, out}));
  const std::initializer_list<DType> kTypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  for (const NamedView& v : {dy, x, out}) HOSTNN_RETURN_IF_ERROR(core::CheckDType(kOp, v.param, v.view->dtype, kTypes));
  const DType tdy = dy.view->dtype, tx = x.view->dtype, tout = out.view->dtype;
  if (!(tdy == tx && tx == tout) && tout != DType::kFloat32) {
    return core::InvalidParam(kOp, "gradInput", std::string("dtype combination: gradOutput ") + DTypeName(tdy) +
                                                    ", self " + DTypeName(tx) + ", gradInput " + DTypeName(tout) +
                                                    "; expected all equal, or a FLOAT gradInput");
  }
  HOSTNN_RETURN_IF_ERROR(CheckRanksAndDims(kOp, {dy, x, out}));
  std::vector<int64_t> shape;
  if (!core::BroadcastShapes(dy.view->shape, x.view->shape, &shape) || shape != out.view->shape) {
    return core::InvalidParam(kOp, "gradInput", "shape: gradOutput " + core::ShapeString(dy.view->shape) + " and self " +
                                                    core::ShapeString(x.view->shape) + " must broadcast to gradInput's shape, got " +
                                                    core::ShapeString(out.view->shape));
  }
  HOSTNN_RETURN_IF_ERROR(CheckStorages(kOp, {dy, x, out}));
  HOSTNN_RETURN_IF_ERROR(CheckOutputAliasing(kOp, out, {dy, x}));
  return PrepareEltwise(Op::kSiluBackward, *dy.view, dy_span, *x.view, x_span, *out.view, out_span,
                        options, workspace_size, executor);
}

}  // namespace hostnn

extern "C" {

aclnnStatus aclnnSiluBackwardGetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                              aclTensor* gradInput, uint64_t* workspaceSize,
                                              aclOpExecutor** executor) {
  hostnn::OpArgs a;
  a.op = hostnn::Op::kSiluBackward;
  a.grad_output = hostnn::capi::ViewOf(gradOutput);
  a.self = hostnn::capi::ViewOf(self);
  a.out = hostnn::capi::ViewOf(gradInput);
  return hostnn::capi::GetWorkspaceSize(a, workspaceSize, executor);
}

aclnnStatus aclnnSiluBackward(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                              aclrtStream stream) {
  return hostnn::capi::Launch(hostnn::Op::kSiluBackward, workspace, workspaceSize, executor, stream);
}

// The names the CANN-named libraries forward to (src/cann/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclnnSiluBackwardGetWorkspaceSize)
HOSTNN_ENTRY_ALIAS(aclnnSiluBackward)

}  // extern "C"
