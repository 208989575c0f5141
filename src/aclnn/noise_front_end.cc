// RReluWithNoise's checks (src/aclnn/noise_front_end.h), in the order of CANN's op_api
// (docs/activation_params.md, "RReluWithNoise").

#include "src/aclnn/noise_front_end.h"

#include <string>

#include "src/aclnn/front_end.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/noise_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

}  // namespace

Status PrepareNoiseChecked(const OpArgs& args, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  const bool inplace = IsInplace(info.signature);
  Item self{info.in_names[0], args.in[0], {}}, noise{info.in_names[1], args.in[1], {}};
  Item out{inplace ? info.in_names[0] : info.out_names[0], inplace ? args.in[0] : args.out[0], {}};
  const bool training = args.scalars[2].given && args.scalars[2].value != 0.0;

  // 1. Null pointers, in the prototype's order.
  if (self.view == nullptr) return Status::Nullptr(std::string(op) + ": self is null");
  if (noise.view == nullptr) return Status::Nullptr(std::string(op) + ": noise is null");
  for (int k = 0; k < 2; ++k) {
    if (args.scalars[k].null) {
      return Status::Nullptr(std::string(op) + ": " + info.scalars[k].name + " is null");
    }
  }
  if (out.view == nullptr) return Status::Nullptr(std::string(op) + ": " + out.param + " is null");

  // 2. Dtypes: each in its list, then self's and noise's equal to out's.
  const auto tensor_types = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, self.param, self.view->dtype, tensor_types));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, noise.param, noise.view->dtype, tensor_types));
  for (int k = 0; k < 2; ++k) {
    if (!args.scalars[k].given) continue;  // the default: a DOUBLE number
    HOSTNN_RETURN_IF_ERROR(
        core::CheckDType(op, info.scalars[k].name, args.scalars[k].dtype,
                         {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}));
  }
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, out.param, out.view->dtype, tensor_types));
  for (const Item* v : {&self, &noise}) {
    if (v->view->dtype != out.view->dtype) {
      return core::InvalidParam(op, v->param,
                                std::string("dtype: expected ") + DTypeName(out.view->dtype) +
                                    " like " + out.param + ", got " + DTypeName(v->view->dtype));
    }
  }

  // 3. Shapes (descriptors first: a malformed one is refused before its dims are read).
  for (const Item* v : {&self, &noise, &out}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  if (!inplace && out.view->shape != self.view->shape) {
    return core::InvalidParam(op, out.param,
                              "shape: expected " + core::ShapeString(self.view->shape) +
                                  " like self, got " + core::ShapeString(out.view->shape));
  }
  const int64_t self_numel = core::CheckedNumel(self.view->shape);
  const int64_t noise_numel = core::CheckedNumel(noise.view->shape);
  if (self_numel < 0 || noise_numel < 0) {
    return core::InvalidParam(op, self_numel < 0 ? self.param : noise.param,
                              "has more elements than int64 holds");
  }
  if (training && self_numel > noise_numel) {
    return core::InvalidParam(op, noise.param,
                              "must have at least self's " + std::to_string(self_numel) +
                                  " elements in training mode, got " + std::to_string(noise_numel));
  }

  // 4. Ranks (at most 32), then formats: self's and noise's equal to out's.
  const int max_rank = args.max_rank > 0 ? args.max_rank : MaxRank(args.op);
  for (const Item* v : {&self, &noise, &out}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, max_rank));
  }
  for (const Item* v : {&self, &noise}) {
    if (v->view->format != out.view->format) {
      return core::InvalidParam(op, v->param,
                                std::string("format: expected ") +
                                    core::FormatName(out.view->format) + " like " + out.param +
                                    ", got " + core::FormatName(v->view->format));
    }
  }

  // 5. An empty self or noise: success, nothing runs (CANN returns before computing, in
  // evaluation mode too).
  if (self_numel == 0 || noise_numel == 0) {
    return PrepareEmpty(args.op, self.view->dtype, workspace_size, executor);
  }

  // 6. Storage and overlap.
  for (Item* v : {&self, &noise, &out}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  }
  HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, out.param, *out.view, out.span));
  if (!inplace) {
    HOSTNN_RETURN_IF_ERROR(
        core::CheckAliasing(op, out.param, *out.view, out.span, self.param, *self.view, self.span));
  }
  if (training) {
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, noise.param, *noise.view, noise.span));
    for (const Item* v : {&self, &out}) {
      if (!core::SpansApart(noise.span, v->span)) {
        return core::InvalidParam(op, noise.param,
                                  std::string("must not share memory with ") + v->param +
                                      " (it is written in training mode)");
      }
    }
  }

  // The parameters in the list's order: the numbers read with CANN's ToFloat, seed and
  // offset exactly (an INT64 past 2^53 too); the executor reads them by name.
  exec::NoiseMapOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);
  o.self = {self.view, &self.span};
  o.noise = {noise.view, &noise.span};
  o.out = {out.view, inplace ? &self.span : &out.span};
  return exec::PrepareNoiseMap(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
