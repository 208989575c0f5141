// The ClassLoss kind's checks (src/aclnn/class_loss_front_end.h), in the order of CANN's
// Atlas A2 op_api (docs/loss_embedding_family.md, "NLLLoss, NLLLoss2d and their gradients").

#include "src/aclnn/class_loss_front_end.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"
#include "src/exec/class_loss_executor.h"
#include "src/exec/executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kSelfTypes = {DType::kFloat32, DType::kFloat16,
                                                     DType::kBFloat16};
constexpr std::initializer_list<DType> kTargetTypes = {DType::kInt64, DType::kUInt8, DType::kInt32};

// The tensors of one call by role (a forward's gradOutput and totalWeight are null, a
// gradient's totalWeightOut).
struct Roles {
  Item grad_output, self, target, weight, total_weight, out, total_weight_out;
};

Status Fail(const char* op, const Item& v, const std::string& what) {
  return core::InvalidParam(op, v.param, what);
}
std::string Shape(const Item& v) { return core::ShapeString(v.view->shape); }
int64_t Numel(const Item& v) { return core::CheckedNumel(v.view->shape); }
int Rank(const Item& v) { return static_cast<int>(v.view->shape.size()); }

Status SelfsDType(const char* op, const Item& v, const Item& self) {
  if (v.view->dtype == self.view->dtype) return Status::Ok();
  return Fail(op, v,
              std::string("dtype ") + DTypeName(v.view->dtype) + ": expected self's, " +
                  DTypeName(self.view->dtype));
}
Status CastsFromSelf(const char* op, const Item& v, const Item& self) {
  if (CanCast(self.view->dtype, v.view->dtype)) return Status::Ok();
  return Fail(op, v,
              std::string("dtype ") + DTypeName(v.view->dtype) + ": self's " +
                  DTypeName(self.view->dtype) + " does not cast to it");
}
Status OneElement(const char* op, const Item& v, bool at_most_1d) {
  if (Numel(v) == 1 && (!at_most_1d || Rank(v) <= 1)) return Status::Ok();
  return Fail(op, v,
              "shape " + Shape(v) + ": expected one element" + (at_most_1d ? " ([1] or 0-d)" : ""));
}

// NLLLoss's and NLLLossBackward's self and target: [N, C] with [N], or [C] with a 0-d target.
Status CheckRowsAndTarget(const char* op, const Item& self, const Item& target) {
  if (Rank(self) < 1 || Rank(self) > 2) {
    return Fail(op, self, "must have 1 or 2 dims ([N, C] or [C]), got " + Shape(self));
  }
  if (Rank(target) > 1) {
    return Fail(op, target, "must have 0 or 1 dims (one class per row), got " + Shape(target));
  }
  if (Rank(self) == 1 && Rank(target) != 0) {
    return Fail(op, target, "shape " + Shape(target) + ": expected 0-d for self " + Shape(self));
  }
  if (Rank(self) == 2 && (Rank(target) != 1 || target.view->shape[0] != self.view->shape[0])) {
    return Fail(op, target,
                "shape " + Shape(target) + ": expected [N] = [" +
                    std::to_string(self.view->shape[0]) + "] for self " + Shape(self));
  }
  return Status::Ok();
}

// NLLLoss2d's: self [N, C, H, W], target [N, H, W].
Status CheckPixelsAndTarget(const char* op, const Item& self, const Item& target) {
  if (Rank(self) != 4) return Fail(op, self, "must have 4 dims ([N, C, H, W]), got " + Shape(self));
  if (Rank(target) != 3) {
    return Fail(op, target, "must have 3 dims ([N, H, W]), got " + Shape(target));
  }
  const std::vector<int64_t>& s = self.view->shape;
  const std::vector<int64_t>& t = target.view->shape;
  if (t[0] != s[0] || t[1] != s[2] || t[2] != s[3]) {
    return Fail(op, target,
                "shape " + Shape(target) + ": expected [N, H, W] = " +
                    core::ShapeString({s[0], s[2], s[3]}) + " for self " + Shape(self));
  }
  return Status::Ok();
}

int64_t Classes(const Item& self, bool two_d) {
  const std::vector<int64_t>& s = self.view->shape;
  return two_d ? s[1] : s.back();
}

Status CheckWeight(const char* op, const Item& weight, const Item& self, bool two_d, bool grad) {
  const int64_t c = Classes(self, two_d);
  const std::string want = "expected [C] = [" + std::to_string(c) + "] (one weight per class)";
  if (!two_d) {
    if (Rank(weight) == 1 && weight.view->shape[0] == c) return Status::Ok();
    return Fail(op, weight, "shape " + Shape(weight) + ": " + want);
  }
  // NLLLoss2d: C along weight's first dim; its gradient: C elements. The kernel reads the
  // first C elements in row-major order.
  const bool ok = grad ? Numel(weight) == c : Rank(weight) >= 1 && weight.view->shape[0] == c;
  if (ok) return Status::Ok();
  return Fail(op, weight,
              "shape " + Shape(weight) + ": expected " +
                  (grad ? std::to_string(c) + " elements"
                        : "C = " + std::to_string(c) + " along its first dim") +
                  " (one weight per class)");
}

Status CheckReduction(const char* op, int64_t reduction) {
  if (reduction >= 0 && reduction <= 2) return Status::Ok();
  return core::InvalidParam(
      op, "reduction", "expected 0 (none), 1 (mean) or 2 (sum), got " + std::to_string(reduction));
}

Status CheckForward(const OpInfo& info, const Roles& r, int64_t reduction, bool two_d) {
  const char* op = info.name;
  // Dtypes: weight self's, the outputs self's casts, self's and target's from their lists.
  HOSTNN_RETURN_IF_ERROR(SelfsDType(op, r.weight, r.self));
  HOSTNN_RETURN_IF_ERROR(CastsFromSelf(op, r.out, r.self));
  HOSTNN_RETURN_IF_ERROR(CastsFromSelf(op, r.total_weight_out, r.self));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.self.param, r.self.view->dtype, kSelfTypes));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.target.param, r.target.view->dtype, kTargetTypes));
  HOSTNN_RETURN_IF_ERROR(CheckReduction(op, reduction));
  // Shapes.
  HOSTNN_RETURN_IF_ERROR(two_d ? CheckPixelsAndTarget(op, r.self, r.target)
                               : CheckRowsAndTarget(op, r.self, r.target));
  HOSTNN_RETURN_IF_ERROR(CheckWeight(op, r.weight, r.self, two_d, false));
  if (reduction == 0 && (two_d || Rank(r.self) == 2)) {
    const std::vector<int64_t>& want = r.target.view->shape;
    if (r.out.view->shape != want) {
      return Fail(op, r.out,
                  "shape " + Shape(r.out) + ": expected target's " + core::ShapeString(want) +
                      " (one loss per position)");
    }
  } else {
    HOSTNN_RETURN_IF_ERROR(OneElement(op, r.out, !two_d));
  }
  HOSTNN_RETURN_IF_ERROR(OneElement(op, r.total_weight_out, false));
  if (!two_d && Numel(r.self) == 0 && Classes(r.self, false) == 0 && Numel(r.target) > 0) {
    return Fail(op, r.target, "is out of bounds: self " + Shape(r.self) + " has no classes");
  }
  return Status::Ok();
}

Status CheckGradient(const OpInfo& info, const Roles& r, int64_t reduction, bool two_d) {
  const char* op = info.name;
  const auto grad_output_shape = [&]() {
    const bool per_position = reduction == 0 && (two_d || Rank(r.self) == 2);
    if (!per_position) return OneElement(op, r.grad_output, true);
    const std::vector<int64_t>& want = r.target.view->shape;
    if (r.grad_output.view->shape == want) return Status::Ok();
    return Fail(op, r.grad_output,
                "shape " + Shape(r.grad_output) + ": expected target's " + core::ShapeString(want) +
                    " (one gradient per position)");
  };
  const auto out_shape = [&]() {
    if (r.out.view->shape == r.self.view->shape) return Status::Ok();
    return Fail(op, r.out, "shape " + Shape(r.out) + ": expected self's " + Shape(r.self));
  };
  if (two_d) {  // dtypes; shapes; the reduction
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.self.param, r.self.view->dtype, kSelfTypes));
    for (const Item* v : {&r.grad_output, &r.weight, &r.out, &r.total_weight}) {
      HOSTNN_RETURN_IF_ERROR(SelfsDType(op, *v, r.self));
    }
    HOSTNN_RETURN_IF_ERROR(
        core::CheckDType(op, r.target.param, r.target.view->dtype, kTargetTypes));
    HOSTNN_RETURN_IF_ERROR(CheckPixelsAndTarget(op, r.self, r.target));
    HOSTNN_RETURN_IF_ERROR(grad_output_shape());
    HOSTNN_RETURN_IF_ERROR(CheckWeight(op, r.weight, r.self, true, true));
    HOSTNN_RETURN_IF_ERROR(out_shape());
    HOSTNN_RETURN_IF_ERROR(OneElement(op, r.total_weight, false));
    return CheckReduction(op, reduction);
  }
  // Dtypes; the reduction; shapes.
  for (const Item* v : {&r.weight, &r.grad_output, &r.total_weight}) {
    HOSTNN_RETURN_IF_ERROR(SelfsDType(op, *v, r.self));
  }
  HOSTNN_RETURN_IF_ERROR(CastsFromSelf(op, r.out, r.self));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.self.param, r.self.view->dtype, kSelfTypes));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, r.target.param, r.target.view->dtype, kTargetTypes));
  HOSTNN_RETURN_IF_ERROR(CheckReduction(op, reduction));
  HOSTNN_RETURN_IF_ERROR(CheckRowsAndTarget(op, r.self, r.target));
  HOSTNN_RETURN_IF_ERROR(CheckWeight(op, r.weight, r.self, false, true));
  HOSTNN_RETURN_IF_ERROR(OneElement(op, r.total_weight, false));
  HOSTNN_RETURN_IF_ERROR(grad_output_shape());
  return out_shape();
}

}  // namespace

Status PrepareClassLossChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  const bool grad = !info.is_forward;
  const bool two_d = info.shapes == ShapeRule::kClassTarget2d;
  Roles r;
  const int first = grad ? 1 : 0;  // self's slot
  r.self = {info.in_names[first], args.in[first], {}};
  r.target = {info.in_names[first + 1], args.in[first + 1], {}};
  r.weight = {info.in_names[first + 2], args.in[first + 2], {}};
  r.out = {info.out_names[0], args.out[0], {}};
  if (grad) {
    r.grad_output = {info.in_names[0], args.in[0], {}};
    r.total_weight = {info.in_names[4], args.in[4], {}};
  } else {
    r.total_weight_out = {info.out_names[1], args.out[1], {}};
  }
  exec::ClassLossOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);
  const int64_t reduction = o.exact[0];

  // 1. Null pointers, in each op_api's order; then each descriptor as it is read.
  std::vector<Item*> all;
  if (grad) {
    all = {&r.grad_output, &r.self, &r.target, &r.weight, &r.total_weight, &r.out};
    if (two_d) all = {&r.grad_output, &r.self, &r.target, &r.weight, &r.out, &r.total_weight};
  } else {
    all = {&r.self, &r.target, &r.weight, &r.out, &r.total_weight_out};
  }
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, all));
  HOSTNN_RETURN_IF_ERROR(CheckDescriptors(op, all));
  // 2. Dtypes, the reduction and shapes, in each op_api's order.
  HOSTNN_RETURN_IF_ERROR(grad ? CheckGradient(info, r, reduction, two_d)
                              : CheckForward(info, r, reduction, two_d));
  // 3. Storage; each output apart from every input and from the other output.
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, all));
  HOSTNN_RETURN_IF_ERROR(grad ? CheckWrittenApart(op, {&r.out}, all)
                              : CheckWrittenApart(op, {&r.out, &r.total_weight_out}, all));

  const std::vector<int64_t>& s = r.self.view->shape;
  o.classes = Classes(r.self, two_d);
  o.outer = s.size() == 1 ? 1 : s[0];
  o.inner = two_d ? s[2] * s[3] : 1;
  // NLLLoss2d: an empty weight (C along its first dim, none after it) reads no class.
  if (two_d && Numel(r.weight) == 0) o.outer = 0;
  o.self = {r.self.view, &r.self.span};
  o.target = {r.target.view, &r.target.span};
  o.weight = {r.weight.view, &r.weight.span};
  o.out = {r.out.view, &r.out.span};
  if (grad) {
    o.grad_output = {r.grad_output.view, &r.grad_output.span};
    o.total_weight = {r.total_weight.view, &r.total_weight.span};
  } else {
    o.total_weight_out = {r.total_weight_out.view, &r.total_weight_out.span};
  }
  return exec::PrepareClassLoss(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
