// The PointLoss kind's checks (src/aclnn/loss_front_end.h), in the order of CANN's Atlas A2
// op_api (docs/loss_embedding_family.md, "MseLoss, MseLossOut, MseLossBackward").

#include "src/aclnn/loss_front_end.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/loss_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kLossTypes = {DType::kFloat32, DType::kFloat16,
                                                     DType::kBFloat16};

bool IsLossType(DType t) {
  return t == DType::kFloat32 || t == DType::kFloat16 || t == DType::kBFloat16;
}

// The inputs' broadcast shape counted in int64: a reduced out is small, so the inputs' storage
// alone does not bound the broadcast (stride-0 dims). param: the last input's name.
Status CheckBroadcastCount(const char* op, const char* param, const std::vector<int64_t>& shape) {
  if (core::CheckedNumel(shape) >= 0) return Status::Ok();
  return core::InvalidParam(op, param,
                            "shape: the inputs broadcast to " + core::ShapeString(shape) +
                                ", more elements than an int64 counts");
}

// The dtypes: MseLoss(Out) promote self and target (their promotion a compute dtype, then
// each of them and out one); MseLossBackward takes gradOutput and target of self's dtype;
// the BinaryCrossEntropyWithLogits family takes every tensor of the three, in any mix, and
// out of target's dtype.
Status CheckLossDTypes(const OpInfo& info, const Item* in, int num_in, const Item& out) {
  const char* op = info.name;
  if (info.shapes == ShapeRule::kLossWeights) {
    for (int k = 0; k < num_in; ++k) {
      if (!in[k].given()) continue;
      HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, in[k].param, in[k].view->dtype, kLossTypes));
    }
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, out.param, out.view->dtype, kLossTypes));
    const Item& target = in[info.is_forward ? 1 : 2];
    if (out.view->dtype != target.view->dtype) {
      return core::InvalidParam(op, out.param,
                                std::string("dtype ") + DTypeName(out.view->dtype) +
                                    ": expected target's, " + DTypeName(target.view->dtype));
    }
    return Status::Ok();
  }
  if (info.signature == Signature::kGradLoss) {
    const Item& self = in[1];
    for (const Item* v : {&in[0], &in[2]}) {
      if (v->view->dtype != self.view->dtype) {
        return core::InvalidParam(op, v->param,
                                  std::string("dtype ") + DTypeName(v->view->dtype) +
                                      ": expected self's, " + DTypeName(self.view->dtype));
      }
    }
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, self.param, self.view->dtype, kLossTypes));
    return core::CheckDType(op, out.param, out.view->dtype, kLossTypes);
  }
  const DType promoted = PromoteType(in[0].view->dtype, in[1].view->dtype);
  if (!IsLossType(promoted)) {
    return core::InvalidParam(op, in[0].param,
                              std::string("dtype ") + DTypeName(in[0].view->dtype) + " and " +
                                  in[1].param + " " + DTypeName(in[1].view->dtype) +
                                  " promote to " + DTypeName(promoted) + "; expected " +
                                  core::DTypeList(kLossTypes));
  }
  for (int k = 0; k < num_in; ++k) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, in[k].param, in[k].view->dtype, kLossTypes));
  }
  return core::CheckDType(op, out.param, out.view->dtype, kLossTypes);
}

// The BinaryCrossEntropyWithLogits family's shapes (ShapeRule kLossWeights) into *shape:
// target self's shape; the forward's weights broadcast with it (*shape their broadcast; not
// checked for an empty target, as CANN's op_api), out that shape (none) or one element; a
// gradient's gradOutput and weights broadcast to self's shape, out self's (nothing checked
// for an empty self, as CANN's op_api).
Status CheckWeightedShapes(const OpInfo& info, const Item* in, int num_in, const Item& out,
                           int64_t reduction, std::vector<int64_t>* shape) {
  const char* op = info.name;
  const bool grad = !info.is_forward;
  const Item& self = in[grad ? 1 : 0];
  const Item& target = in[grad ? 2 : 1];
  *shape = self.view->shape;
  if (grad && core::CheckedNumel(self.view->shape) == 0) return Status::Ok();
  for (const Item* v : {&target, grad ? &out : nullptr}) {
    if (v != nullptr && v->view->shape != self.view->shape) {
      return core::InvalidParam(op, v->param,
                                "shape " + core::ShapeString(v->view->shape) +
                                    ": expected self's, " + core::ShapeString(self.view->shape));
    }
  }
  const bool empty = core::CheckedNumel(self.view->shape) == 0;
  for (int k = 0; k < num_in && !empty; ++k) {
    if (&in[k] == &self || &in[k] == &target || !in[k].given()) continue;
    std::vector<int64_t> next;
    const bool ok = core::BroadcastShapes(*shape, in[k].view->shape, &next);
    if (!ok || (grad && next != self.view->shape)) {
      return core::InvalidParam(
          op, in[k].param,
          "shape " + core::ShapeString(in[k].view->shape) +
              (grad ? " does not broadcast to self's " : " does not broadcast with ") +
              core::ShapeString(*shape));
    }
    *shape = next;
  }
  if (grad) return Status::Ok();
  HOSTNN_RETURN_IF_ERROR(CheckBroadcastCount(op, in[num_in - 1].param, *shape));
  if (reduction != 0 && core::CheckedNumel(out.view->shape) != 1) {
    return core::InvalidParam(op, out.param,
                              "shape " + core::ShapeString(out.view->shape) +
                                  ": expected one element ([1] or 0-d) for the mean or sum");
  }
  if (reduction == 0 && !empty && out.view->shape != *shape) {
    return core::InvalidParam(op, out.param,
                              "shape " + core::ShapeString(out.view->shape) + ": expected " +
                                  core::ShapeString(*shape) + " (the inputs' broadcast shape)");
  }
  return Status::Ok();
}

// The inputs' broadcast shape into *shape, and out's shape for the reduction.
Status CheckLossShapes(const OpInfo& info, const Item* in, int num_in, const Item& out,
                       int64_t reduction, std::vector<int64_t>* shape) {
  const char* op = info.name;
  *shape = in[0].view->shape;
  for (int k = 1; k < num_in; ++k) {
    std::vector<int64_t> next;
    if (!core::BroadcastShapes(*shape, in[k].view->shape, &next)) {
      return core::InvalidParam(
          op, in[k].param,
          "shape " + core::ShapeString(in[k].view->shape) + " does not broadcast with " +
              (k == 1 ? std::string(in[0].param) + "'s " : "") + core::ShapeString(*shape));
    }
    *shape = next;
  }
  HOSTNN_RETURN_IF_ERROR(CheckBroadcastCount(op, in[num_in - 1].param, *shape));
  std::vector<int64_t> expected = *shape;
  const bool reduced = info.signature == Signature::kLoss && reduction != 0;
  if (reduced && info.op == Op::kMseLoss) {
    if (!out.view->shape.empty()) {
      return core::InvalidParam(op, out.param,
                                "shape " + core::ShapeString(out.view->shape) +
                                    ": expected a 0-dimensional tensor for the mean or sum");
    }
    return Status::Ok();
  }
  if (reduced) expected.erase(expected.begin(), expected.begin() + (expected.empty() ? 0 : 1));
  if (out.view->shape != expected) {
    return core::InvalidParam(op, out.param,
                              "shape " + core::ShapeString(out.view->shape) + ": expected " +
                                  core::ShapeString(expected) +
                                  (reduced ? " (the inputs' broadcast shape without dim 0)"
                                           : " (the inputs' broadcast shape)"));
  }
  return Status::Ok();
}

}  // namespace

Status PrepareLossChecked(const OpArgs& args, const tiling::Options& options,
                          uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  const int num_in = info.num_in();
  const bool weighted = info.shapes == ShapeRule::kLossWeights;
  Item in[exec::kMaxLossInputs];
  for (int k = 0; k < num_in; ++k) in[k] = Item{info.in_names[k], args.in[k], {}};
  Item out{info.out_names[0], args.out[0], {}};
  exec::LossOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);
  const int64_t reduction = o.exact[0];
  const auto check_reduction = [&]() {
    if (reduction >= 0 && reduction <= 2) return Status::Ok();
    return core::InvalidParam(
        op, "reduction",
        "expected 0 (none), 1 (mean) or 2 (sum), got " + std::to_string(reduction));
  };
  std::vector<Item*> operands;  // the inputs in the list's order, then out
  for (int k = 0; k < num_in; ++k) operands.push_back(&in[k]);
  operands.push_back(&out);
  // At most 8 dims (descriptors checked as they are read).
  const auto check_dims = [&]() { return CheckDescriptors(op, operands); };

  // 1. Null pointers, in the prototype's order (an optional input may be null).
  for (int k = 0; k < num_in; ++k) {
    if (!in[k].given() && !IsOptionalName(in[k].param)) {
      return Status::Nullptr(std::string(op) + ": " + in[k].param + " is null");
    }
  }
  if (out.view == nullptr) return Status::Nullptr(std::string(op) + ": " + out.param + " is null");
  // 2. As each op_api orders them: dtypes, the reduction, dims and shapes (a weighted loss's
  // gradient: dims, dtypes, formats, shapes, the reduction).
  if (info.signature == Signature::kGradWeightedLoss) {
    HOSTNN_RETURN_IF_ERROR(check_dims());
    HOSTNN_RETURN_IF_ERROR(CheckLossDTypes(info, in, num_in, out));
    for (const Item* v : {&in[2], &out}) {  // target's and out's format self's
      if (v->view->format != in[1].view->format) {
        const char* given = core::FormatName(v->view->format);
        const char* self = core::FormatName(in[1].view->format);
        return core::InvalidParam(op, v->param,
                                  std::string("format ") + (given ? given : "?") +
                                      ": expected self's, " + (self ? self : "?"));
      }
    }
    HOSTNN_RETURN_IF_ERROR(CheckWeightedShapes(info, in, num_in, out, reduction, &o.shape));
    HOSTNN_RETURN_IF_ERROR(check_reduction());
  } else {
    HOSTNN_RETURN_IF_ERROR(CheckLossDTypes(info, in, num_in, out));
    HOSTNN_RETURN_IF_ERROR(check_reduction());
    HOSTNN_RETURN_IF_ERROR(check_dims());
    HOSTNN_RETURN_IF_ERROR(weighted
                               ? CheckWeightedShapes(info, in, num_in, out, reduction, &o.shape)
                               : CheckLossShapes(info, in, num_in, out, reduction, &o.shape));
  }
  // 3. Storage; out's elements apart; out apart from the inputs (or one of them exactly,
  // for the terms, which each tile reads before it writes).
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, operands));
  HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, out.param, *out.view, out.span));
  const bool terms = !info.is_forward || reduction == 0;  // a gradient's are terms
  for (int k = 0; k < num_in; ++k) {
    if (!in[k].given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckAliasing(op, out.param, *out.view, out.span, in[k].param,
                                               *in[k].view, in[k].span));
    if (!terms && !core::SpansApart(out.span, in[k].span) && out.span.first == in[k].span.first) {
      return core::InvalidParam(op, out.param,
                                std::string("must not share memory with ") + in[k].param);
    }
  }
  for (int k = 0; k < num_in; ++k) {
    if (in[k].given()) o.in[k] = {in[k].view, &in[k].span};
  }
  o.num_in = num_in;
  o.out = {out.view, &out.span};
  return exec::PrepareLoss(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
