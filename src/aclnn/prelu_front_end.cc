// Prelu's channel weight and PreluBackward's checks (src/aclnn/prelu_front_end.h), in the
// order of CANN's op_api (docs/activation_family3.md).

#include "src/aclnn/prelu_front_end.h"

#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/core/check.h"
#include "src/core/layout.h"
#include "src/exec/map_executor.h"
#include "src/exec/prelu_backward_executor.h"

namespace hostnn {
namespace {

// The weight's element count against self's C: 1, or C (a count that overflows int64 is
// -1, neither: refused, before the storage checks).
Status CheckWeightNumel(const char* op, const char* weight_param, const TensorView& weight,
                        const TensorView& self) {
  const int64_t c = ChannelCount(self.shape), n = core::CheckedNumel(weight.shape);
  if (n == 1 || n == c) return Status::Ok();
  return core::InvalidParam(op, weight_param,
                            "must have 1 element or C = " + std::to_string(c) +
                                " (self's dim 1, 1 for self of rank <= 1), got " +
                                core::ShapeString(weight.shape));
}

// Outputs of one call must not share a byte (a conservative test on their extents).
Status CheckOutputsApart(const char* op, const char* a_param, const core::ViewSpan& a,
                         const char* b_param, const core::ViewSpan& b) {
  if (core::SpansApart(a, b)) return Status::Ok();
  return core::InvalidParam(op, b_param, std::string("must not overlap ") + a_param);
}

}  // namespace

int64_t ChannelCount(const std::vector<int64_t>& self_shape) {
  return self_shape.size() >= 2 ? self_shape[1] : 1;
}

Status CheckChannelWeightShapes(const char* op, const char* self_param, const TensorView& self,
                                const char* weight_param, const TensorView& weight,
                                const char* out_param, const TensorView& out) {
  if (out.shape != self.shape) {
    return core::InvalidParam(op, out_param,
                              "shape: expected " + core::ShapeString(self.shape) + " like " +
                                  self_param + ", got " + core::ShapeString(out.shape));
  }
  return CheckWeightNumel(op, weight_param, weight, self);
}

Status MakeChannelWeightViews(const char* op, const TensorView& self,
                              const core::ViewSpan& self_span, const TensorView& weight,
                              const core::ViewSpan& weight_span, const TensorView& out,
                              const core::ViewSpan& out_span, ChannelWeightViews* v) {
  v->self.dtype = self.dtype;
  v->self.shape = self.shape;
  v->self_span = self_span;
  v->out.dtype = out.dtype;
  v->out.shape = out.shape;
  v->out_span = out_span;
  v->weight.dtype = weight.dtype;
  v->weight_span = weight_span;
  v->weight.shape.clear();  // one weight for every element: a scalar
  v->weight_span.strides.clear();
  const int64_t c = ChannelCount(self.shape);
  if (core::CheckedNumel(weight.shape) == 1 || c <= 1 || self.shape.size() < 2) {
    return Status::Ok();
  }
  // The weight's dims of more than one element, merged where their strides allow.
  std::vector<int64_t> dims, strides;
  for (size_t i = 0; i < weight.shape.size(); ++i) {
    if (weight.shape[i] == 1) continue;
    if (!dims.empty() && strides.back() == weight_span.strides[i] * weight.shape[i]) {
      dims.back() *= weight.shape[i];
      strides.back() = weight_span.strides[i];
    } else {
      dims.push_back(weight.shape[i]);
      strides.push_back(weight_span.strides[i]);
    }
  }
  const size_t k = dims.size(), rank = self.shape.size();
  if (rank + k - 1 > 8) {
    return Status::Inner(std::string(op) + ": a weight of " + std::to_string(k) +
                         " non-mergeable dims on self of rank " + std::to_string(rank) +
                         " is not supported");
  }
  // Dim 1 of self and out splits into the weight's dims; the weight gets a 1 for every dim
  // after them.
  std::vector<int64_t> shape{self.shape[0]};
  std::vector<int64_t> self_strides{self_span.strides[0]}, out_strides{out_span.strides[0]};
  int64_t inner = c;
  for (size_t j = 0; j < k; ++j) {
    inner /= dims[j];
    shape.push_back(dims[j]);
    self_strides.push_back(self_span.strides[1] * inner);
    out_strides.push_back(out_span.strides[1] * inner);
  }
  v->weight.shape = dims;
  v->weight_span.strides = strides;
  for (size_t i = 2; i < rank; ++i) {
    shape.push_back(self.shape[i]);
    self_strides.push_back(self_span.strides[i]);
    out_strides.push_back(out_span.strides[i]);
    v->weight.shape.push_back(1);
    v->weight_span.strides.push_back(0);
  }
  v->self.shape = v->out.shape = shape;
  v->self_span.strides = self_strides;
  v->out_span.strides = out_strides;
  return Status::Ok();
}

Status PreparePreluBackward(const OpArgs& args, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  using Item = CheckedOperand;
  Item dy{info.in_names[0], args.in[0], {}}, x{info.in_names[1], args.in[1], {}},
      w{info.in_names[2], args.in[2], {}}, gi{info.out_names[0], args.out[0], {}},
      gw{info.out_names[1], args.out[1], {}};
  Item* all[] = {&dy, &x, &w, &gi, &gw};
  for (const Item* v : all) {
    if (v->view == nullptr) return Status::Nullptr(std::string(op) + ": " + v->param + " is null");
  }
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, x.param, x.view->dtype,
                                          {DType::kFloat32, DType::kFloat16, DType::kBFloat16}));
  for (const Item* v : all) {
    if (v->view->dtype != x.view->dtype) {
      return core::InvalidParam(op, v->param,
                                std::string("dtype: expected ") + DTypeName(x.view->dtype) +
                                    " like " + x.param + ", got " + DTypeName(v->view->dtype));
    }
  }
  for (const Item* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view));
  for (const Item* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  const std::vector<int64_t>& shape = x.view->shape;
  if (gi.view->shape != shape) {
    return core::InvalidParam(op, gi.param,
                              "shape: expected " + core::ShapeString(shape) + " like " + x.param +
                                  ", got " + core::ShapeString(gi.view->shape));
  }
  if (core::CheckedNumel(w.view->shape) != 1) {
    if (shape.empty()) {
      return core::InvalidParam(op, w.param,
                                "must have 1 element for a 0-d " + std::string(x.param) +
                                    ", got " + core::ShapeString(w.view->shape));
    }
    HOSTNN_RETURN_IF_ERROR(CheckWeightNumel(op, w.param, *w.view, *x.view));
    const std::vector<int64_t> expected{ChannelCount(shape)};
    if (gw.view->shape != expected) {
      return core::InvalidParam(op, gw.param,
                                "shape: expected " + core::ShapeString(expected) + " (C), got " +
                                    core::ShapeString(gw.view->shape));
    }
  } else if (gw.view->shape != w.view->shape) {
    return core::InvalidParam(op, gw.param,
                              "shape: expected " + core::ShapeString(w.view->shape) + " like " +
                                  w.param + ", got " + core::ShapeString(gw.view->shape));
  }
  std::vector<int64_t> broadcast;
  if (!core::BroadcastShapes(dy.view->shape, shape, &broadcast) || broadcast != shape) {
    return core::InvalidParam(op, dy.param,
                              "shape: " + core::ShapeString(dy.view->shape) +
                                  " must broadcast to " + x.param + "'s shape " +
                                  core::ShapeString(shape));
  }
  for (Item* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  for (const Item* o : {&gi, &gw}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, o->param, *o->view, o->span));
    for (const Item* in : {&dy, &x, &w}) {
      HOSTNN_RETURN_IF_ERROR(core::CheckAliasing(op, o->param, *o->view, o->span, in->param,
                                                 *in->view, in->span));
    }
  }
  HOSTNN_RETURN_IF_ERROR(CheckOutputsApart(op, gi.param, gi.span, gw.param, gw.span));
  exec::PreluBackwardOperands ops;
  ops.dy = {dy.view, &dy.span};
  ops.x = {x.view, &x.span};
  ops.w = {w.view, &w.span};
  ops.grad_input = {gi.view, &gi.span};
  ops.grad_weight = {gw.view, &gw.span};
  return exec::PreparePreluBackward(args.op, ops, options, workspace_size, executor);
}

}  // namespace hostnn
