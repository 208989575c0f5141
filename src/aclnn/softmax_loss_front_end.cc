// The SoftmaxLoss kind's checks (src/aclnn/softmax_loss_front_end.h), in the order of CANN's
// generated entry points and Atlas A2 tiling, or of SoftmaxCrossEntropyWithLogits' op_api
// (docs/loss_embedding_family.md, "CrossEntropyLoss and its gradient",
// "SoftmaxCrossEntropyWithLogits").

#include "src/aclnn/softmax_loss_front_end.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/softmax_loss_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kFloatTypes = {DType::kFloat32, DType::kFloat16,
                                                      DType::kBFloat16};
constexpr std::initializer_list<DType> kForwardTargetTypes = {DType::kInt64, DType::kInt32};
constexpr std::initializer_list<DType> kGradTargetTypes = {DType::kInt64};
constexpr std::initializer_list<DType> kWeightTypes = {DType::kFloat32};

// The tensors of one call by role: `rows` is the forward's input or the gradient's logProb;
// a forward has no grad_loss, grad_zloss, lse_in or out, a gradient no loss, log_prob, zloss
// or lse_out.
struct Roles {
  Item grad_loss, rows, target, weight, grad_zloss, lse_in;
  Item loss, log_prob, zloss, lse_out, out;
};

std::string Shape(const Item& v) { return core::ShapeString(v.view->shape); }
int Rank(const Item& v) { return static_cast<int>(v.view->shape.size()); }

// A refusal CANN's tiling makes (561002).
Status Tiling(const char* op, const char* param, const std::string& what) {
  return Status::InnerTiling(std::string(op) + ": " + param + " " + what);
}

Status SameDType(const char* op, const Item& v, const Item& like) {
  if (!v.given() || v.view->dtype == like.view->dtype) return Status::Ok();
  return core::InvalidParam(op, v.param,
                            std::string("dtype ") + DTypeName(v.view->dtype) + ": expected " +
                                like.param + "'s, " + DTypeName(like.view->dtype));
}

Status CheckDTypes(const char* op, const Roles& r, bool grad) {
  const Item& first = grad ? r.grad_loss : r.rows;
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, first.param, first.view->dtype, kFloatTypes));
  if (grad) HOSTNN_RETURN_IF_ERROR(SameDType(op, r.rows, first));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.target.param, r.target.view->dtype,
                                          grad ? kGradTargetTypes : kForwardTargetTypes));
  if (r.weight.given()) {
    HOSTNN_RETURN_IF_ERROR(
        core::CheckDType(op, r.weight.param, r.weight.view->dtype, kWeightTypes));
  }
  for (const Item* v :
       {&r.grad_zloss, &r.lse_in, &r.loss, &r.log_prob, &r.zloss, &r.lse_out, &r.out}) {
    HOSTNN_RETURN_IF_ERROR(SameDType(op, *v, first));
  }
  return Status::Ok();
}

// The attributes CANN's tiling reads first: the reduction's mode (-1: a string not among
// them) and labelSmoothing (as its f32 attribute).
Status CheckAttributes(const OpInfo& info, int64_t reduction, float label_smoothing) {
  const char* op = info.name;
  if (reduction < 0 || reduction > 2) {
    return Tiling(op, info.scalars[0].name,
                  "must be \"none\", \"mean\" or \"sum\" (a null pointer is \"mean\"), got another "
                  "string");
  }
  if (!(label_smoothing >= 0.0f && label_smoothing <= 1.0f)) {
    return Tiling(op, info.scalars[2].name,
                  "must be in [0, 1], got " + std::to_string(label_smoothing));
  }
  return Status::Ok();
}

Status ExpectShape(const char* op, const Item& v, const std::vector<int64_t>& want,
                   const char* why) {
  if (v.view->shape == want) return Status::Ok();
  return Tiling(op, v.param,
                "shape " + Shape(v) + ": expected " + core::ShapeString(want) + " (" + why + ")");
}

// The per-row tensor of the loss (lossOut, gradLoss): [N] for "none", one element otherwise.
Status CheckLossShape(const char* op, const Item& v, int64_t n, int64_t reduction) {
  if (reduction == 0) return ExpectShape(op, v, {n}, "one loss per row for reduction \"none\"");
  if (core::CheckedNumel(v.view->shape) == 1 && Rank(v) <= 1) return Status::Ok();
  return Tiling(op, v.param,
                "shape " + Shape(v) + ": expected one element (0-d or [1]) for a reduced loss");
}

Status CheckShapes(const char* op, const Roles& r, bool grad, int64_t reduction) {
  if (Rank(r.rows) != 2 || r.rows.view->shape[1] < 1) {
    return Tiling(op, r.rows.param, "must be [N, C] with C >= 1 classes, got " + Shape(r.rows));
  }
  const int64_t n = r.rows.view->shape[0], c = r.rows.view->shape[1];
  HOSTNN_RETURN_IF_ERROR(ExpectShape(op, r.target, {n}, "one class per row"));
  if (r.weight.given()) {
    HOSTNN_RETURN_IF_ERROR(ExpectShape(op, r.weight, {c}, "one weight per class"));
  }
  if (grad) {
    HOSTNN_RETURN_IF_ERROR(CheckLossShape(op, r.grad_loss, n, reduction));
    return ExpectShape(op, r.out, {n, c}, "logProb's");
  }
  HOSTNN_RETURN_IF_ERROR(CheckLossShape(op, r.loss, n, reduction));
  return ExpectShape(op, r.log_prob, {n, c}, "input's");
}

exec::Operand OperandOf(const Item& v) {
  return v.given() ? exec::Operand{v.view, &v.span} : exec::Operand{};
}

// SoftmaxCrossEntropyWithLogits: op_api's order (nulls, the dtypes, the ranks), then the
// shapes its outputs and its kernel's broadcast need.
Status PrepareLabelRowsChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item features{info.in_names[0], args.in[0], {}}, labels{info.in_names[1], args.in[1], {}};
  Item loss{info.out_names[0], args.out[0], {}}, backprop{info.out_names[1], args.out[1], {}};
  Item* const all[] = {&features, &labels, &loss, &backprop};
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, all));
  HOSTNN_RETURN_IF_ERROR(CheckDescriptors(op, all));
  for (const Item* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kFloatTypes));
  }
  HOSTNN_RETURN_IF_ERROR(SameDType(op, loss, features));
  HOSTNN_RETURN_IF_ERROR(SameDType(op, backprop, features));
  for (const Item* v : {&features, &labels}) {
    if (Rank(*v) != 2) {
      return core::InvalidParam(op, v->param, "must be 2-d [N, C], got " + Shape(*v));
    }
  }
  const std::vector<int64_t>& fs = features.view->shape;
  const std::vector<int64_t>& ls = labels.view->shape;
  for (int d = 0; d < 2; ++d) {
    if (ls[d] != fs[d] && ls[d] != 1) {
      return core::InvalidParam(op, labels.param,
                                "shape " + Shape(labels) + " does not broadcast to features' " +
                                    Shape(features) + " (each dim features' or 1)");
    }
  }
  if (loss.view->shape != std::vector<int64_t>{fs[0]}) {
    return core::InvalidParam(op, loss.param,
                              "shape " + Shape(loss) + ": expected [" + std::to_string(fs[0]) +
                                  "] (one loss per row of features)");
  }
  if (backprop.view->shape != fs) {
    return core::InvalidParam(
        op, backprop.param, "shape " + Shape(backprop) + ": expected features' " + Shape(features));
  }
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, all));
  HOSTNN_RETURN_IF_ERROR(CheckWrittenApart(op, {&loss, &backprop}, all));
  exec::SoftmaxLossOperands o;
  // Empty features (no rows, or no classes) run nothing and write nothing, as CANN's.
  o.rows = fs[1] == 0 ? 0 : fs[0];
  o.classes = fs[1];
  o.rows_in = OperandOf(features);
  o.labels = OperandOf(labels);
  o.loss = OperandOf(loss);
  o.log_prob = OperandOf(backprop);
  return exec::PrepareSoftmaxLoss(args.op, o, options, workspace_size, executor);
}

}  // namespace

Status PrepareSoftmaxLossChecked(const OpArgs& args, const tiling::Options& options,
                                 uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  if (info.shapes == ShapeRule::kLabelRows) {
    return PrepareLabelRowsChecked(args, options, workspace_size, executor);
  }
  const char* op = info.name;
  const bool grad = !info.is_forward;
  Roles r;
  const auto in = [&](int k) { return Item{info.in_names[k], args.in[k], {}}; };
  const auto out = [&](int k) { return Item{info.out_names[k], args.out[k], {}}; };
  if (grad) {
    r.grad_loss = in(0), r.rows = in(1), r.target = in(2), r.weight = in(3);
    r.grad_zloss = in(4), r.lse_in = in(5), r.out = out(0);
  } else {
    r.rows = in(0), r.target = in(1), r.weight = in(2);
    r.loss = out(0), r.log_prob = out(1), r.zloss = out(2), r.lse_out = out(3);
  }
  exec::SoftmaxLossOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);
  const int64_t reduction = o.exact[0];

  // 1. Null pointers; then each descriptor as it is read.
  const std::vector<Item*> required =
      grad ? std::vector<Item*>{&r.grad_loss, &r.rows, &r.target, &r.out}
           : std::vector<Item*>{&r.rows, &r.target, &r.loss, &r.log_prob, &r.zloss, &r.lse_out};
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, required));
  std::vector<Item*> all = required;
  for (Item* v : {&r.weight, &r.grad_zloss, &r.lse_in}) {
    if (v->given()) all.push_back(v);
  }
  HOSTNN_RETURN_IF_ERROR(CheckDescriptors(op, all));
  // 2. Dtypes (the generated entry point's); the attributes and shapes (the tiling's).
  HOSTNN_RETURN_IF_ERROR(CheckDTypes(op, r, grad));
  HOSTNN_RETURN_IF_ERROR(CheckAttributes(info, reduction, o.numbers[2]));
  HOSTNN_RETURN_IF_ERROR(CheckShapes(op, r, grad, reduction));
  // 3. Storage; each written output apart from every input and from the other output.
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, all));
  // (zloss and lse, never written, may share memory with what is.)
  std::vector<Item*> others;
  for (Item* v : all) {
    if (v != &r.zloss && v != &r.lse_out) others.push_back(v);
  }
  HOSTNN_RETURN_IF_ERROR(grad ? CheckWrittenApart(op, {&r.out}, others)
                              : CheckWrittenApart(op, {&r.loss, &r.log_prob}, others));

  o.rows = r.rows.view->shape[0];
  o.classes = r.rows.view->shape[1];
  o.rows_in = OperandOf(r.rows);
  o.target = OperandOf(r.target);
  o.weight = OperandOf(r.weight);
  o.grad_loss = OperandOf(r.grad_loss);
  o.loss = OperandOf(r.loss);
  o.log_prob = OperandOf(r.log_prob);
  o.out = OperandOf(r.out);
  return exec::PrepareSoftmaxLoss(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
