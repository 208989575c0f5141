// The front end: every operator's phase-1 checks, in SPEC order, driven by its row of the
// operator list (parameter names, dtype rule, shape rule, signature), then the hand-over
// to the middle end (src/exec/) that plans and builds the executor. Nothing here knows a
// kernel, a tile or a thread; nothing past here checks an operand again.
//
// SPEC order: null operands -> kNullptr; then dtypes, ranks and dims, shapes (broadcast
// or equal), dim, storage bounds, output overlap and aliasing -> kInvalid. Every message
// names the operator and the CANN parameter.

#include "src/aclnn/front_end.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/batch_norm_front_end.h"
#include "src/aclnn/class_loss_front_end.h"
#include "src/aclnn/index_front_end.h"
#include "src/aclnn/loss_front_end.h"
#include "src/aclnn/noise_front_end.h"
#include "src/aclnn/norm_front_end.h"
#include "src/aclnn/prelu_front_end.h"
#include "src/aclnn/softmax_loss_front_end.h"
#include "src/aclnn/split_front_end.h"
#include "src/core/check.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/map_executor.h"
#include "src/exec/rows_executor.h"
#include "src/exec/scalar_conversion.h"

namespace hostnn {
namespace {

constexpr std::initializer_list<DType> kComputeTypes = {DType::kFloat32, DType::kFloat16,
                                                        DType::kBFloat16};
constexpr std::initializer_list<DType> kFloatTypes = {DType::kFloat32, DType::kFloat16,
                                                      DType::kBFloat16, DType::kFloat64};
constexpr std::initializer_list<DType> kFloatOrHalfTypes = {DType::kFloat32, DType::kFloat16};
constexpr std::initializer_list<DType> kComputeOrInt32Types = {DType::kFloat32, DType::kFloat16,
                                                               DType::kBFloat16, DType::kInt32};
constexpr std::initializer_list<DType> kPromotableTypes = {
    DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kBool,
    DType::kInt8,    DType::kUInt8,   DType::kInt16,    DType::kInt32, DType::kInt64};
constexpr std::initializer_list<DType> kComputeOrInt32Int8Types = {
    DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt32, DType::kInt8};
constexpr std::initializer_list<DType> kComputeOrExactIntTypes = {
    DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt8,
    DType::kUInt8,   DType::kInt32,   DType::kInt64};
constexpr std::initializer_list<DType> kComputeOrInt32Int8UInt8Types = {
    DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt32, DType::kInt8,
    DType::kUInt8};
constexpr std::initializer_list<DType> kNoTypes = {};
constexpr std::initializer_list<DType> kDoubleOnly = {DType::kFloat64};
constexpr std::initializer_list<DType> kDoubleOrComplex = {DType::kFloat64, DType::kComplex64,
                                                           DType::kComplex128};
// Threshold's out beside those: an integer self casts to any integer (CanCast), the wide
// unsigned ones included, which no input list holds.
constexpr std::initializer_list<DType> kDoubleComplexOrWideUnsigned = {
    DType::kFloat64, DType::kComplex64, DType::kComplex128,
    DType::kUInt16,  DType::kUInt32,    DType::kUInt64};
constexpr std::initializer_list<DType> kComputeOrIntTypes = {
    DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt8,
    DType::kUInt8,   DType::kInt16,   DType::kInt32,    DType::kInt64};

// One operand of a call: its CANN name, its view and, once checked, where it lies.
using Operand = CheckedOperand;

// The operands a call takes, inputs first and the output last (no allocation).
class OperandList {
 public:
  void push_back(Operand* v) { items_[size_++] = v; }
  Operand* const* begin() const { return items_; }
  Operand* const* end() const { return items_ + size_; }
  Operand& front() const { return *items_[0]; }
  Operand& back() const { return *items_[size_ - 1]; }

 private:
  Operand* items_[kMaxIn + 1] = {};
  int size_ = 0;
};

Status CheckDTypes(const OpInfo& info, const OperandList& all) {
  const char* op = info.name;
  const Operand& in0 = all.front();
  const Operand& out = all.back();
  const bool out_any_float = info.dtypes == DTypeRule::kInputsAnyOutAnyFloat ||
                             info.dtypes == DTypeRule::kInputsSameOutAnyFloat ||
                             info.dtypes == DTypeRule::kPromoteOutAnyFloat;
  const bool promotes = PromotesInputs(info.dtypes);
  const bool int_to_float = info.dtypes == DTypeRule::kIntToFloatThenCast;
  const bool all_any_float = info.dtypes == DTypeRule::kAnyFloat;
  // SoftplusBackward's self (in1) may be an integer or BOOL.
  const Operand* int_self =
      info.dtypes == DTypeRule::kInputsAnyIntSelfOutAny ? all.begin()[1] : nullptr;
  for (const Operand* v : all) {
    const bool is_out = v == &out;
    const bool any_float = all_any_float || (is_out && out_any_float);
    // DOUBLE beside the rule's list: every operand of an operator whose op_api lists it
    // (TakesDoubleInputs), and out where op_api's CanCast or list lets a wider result
    // through, complex too (OutTakesComplex).
    const std::initializer_list<DType> also =
        is_out && info.dtypes == DTypeRule::kExactIntThenCast ? kDoubleComplexOrWideUnsigned
        : (is_out ? OutTakesComplex(info.op) : TakesComplexInputs(info.op)) ? kDoubleOrComplex
        : (is_out ? OutTakesDouble(info.op) : TakesDoubleInputs(info.op)) ? kDoubleOnly
                                                                          : kNoTypes;
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(
        op, v->param, v->view->dtype,
        any_float                                                ? kFloatTypes
        : promotes || (int_to_float && !is_out) || v == int_self ? kPromotableTypes
        : PromotesToExactInt(info.dtypes) || info.dtypes == DTypeRule::kExactIntThenCast
            ? kComputeOrIntTypes
        : AdmitsInt8Lanes(info.dtypes) || RoundsIntResults(info.dtypes) ? kComputeOrInt32Int8Types
        : AdmitsInt32(info.dtypes)                                      ? kComputeOrInt32Types
        : AdmitsExactInt(info.dtypes)                                   ? kComputeOrExactIntTypes
        : SelectsIntExactly(info.dtypes)                 ? kComputeOrInt32Int8UInt8Types
        : info.dtypes == DTypeRule::kFloatOrHalfThenCast ? kFloatOrHalfTypes
                                                         : kComputeTypes,
        also));
  }
  switch (info.dtypes) {
    case DTypeRule::kExactIntThenCast:  // op_api's CanCast from self to out
      if (!CanCast(in0.view->dtype, out.view->dtype)) {
        return core::InvalidParam(op, out.param,
                                  std::string("dtype: ") + in0.param + "'s " +
                                      DTypeName(in0.view->dtype) + " cannot be cast to " +
                                      DTypeName(out.view->dtype));
      }
      return Status::Ok();
    case DTypeRule::kFloatThenCast:  // computed in self's dtype (or FLOAT), then cast
    case DTypeRule::kFloatOrHalfThenCast:
    case DTypeRule::kIntToFloatThenCast:
    case DTypeRule::kInt32Int8ThenCast:
      return Status::Ok();
    case DTypeRule::kAllSame:
    case DTypeRule::kAllSameOrInt32:
    case DTypeRule::kAllSameOrInt32Int8Rint:
    case DTypeRule::kAllSameOrExactInt:
    case DTypeRule::kAllSameOrSelectInt:
      for (const Operand* v : all) {
        if (v->view->dtype != in0.view->dtype) {
          return core::InvalidParam(op, v->param,
                                    std::string("dtype: expected ") + DTypeName(in0.view->dtype) +
                                        " like " + in0.param + ", got " +
                                        DTypeName(v->view->dtype));
        }
      }
      return Status::Ok();
    case DTypeRule::kAllSameOrFloatOut: {
      bool same = true;
      for (const Operand* v : all) same = same && v->view->dtype == in0.view->dtype;
      if (same || out.view->dtype == DType::kFloat32) return Status::Ok();
      std::string given;
      for (const Operand* v : all) {
        given +=
            std::string(given.empty() ? "" : ", ") + v->param + " " + DTypeName(v->view->dtype);
      }
      return core::InvalidParam(
          op, out.param,
          "dtype combination: " + given + "; expected all equal, or a FLOAT " + out.param);
    }
    case DTypeRule::kInputsAnyOutAnyFloat:
    case DTypeRule::kAnyFloat:  // every pair: CANN casts self to out's dtype, which any takes
    case DTypeRule::kInputsAnyOutAny:
    case DTypeRule::kInputsAnyIntSelfOutAny:
    case DTypeRule::kPromoteIntExact:  // the promotion's casts: CheckPromotedCasts
    case DTypeRule::kNormFloat:        // the norms' own checks: src/aclnn/norm_front_end.cc
    case DTypeRule::kNormOutLikeInput:
    case DTypeRule::kNormGradLikeDy:
    case DTypeRule::kNormGradAny:
    case DTypeRule::kNormLikeInput:
    case DTypeRule::kNormChannelAny:
    case DTypeRule::kNormAddMixed:
    case DTypeRule::kNormGradLikeAll:
    case DTypeRule::kGatherAny:  // Embedding's: src/aclnn/index_front_end.cc
    case DTypeRule::kScatterFloat:  // EmbeddingDenseBackward's: the same file
    case DTypeRule::kInputsSameOutAny:  // MseLossBackward's: src/aclnn/loss_front_end.cc
    case DTypeRule::kInputsAnyOutLikeTarget:  // the cross entropy's: the same file
    case DTypeRule::kClassFloat:  // NLLLoss's: src/aclnn/class_loss_front_end.cc
    case DTypeRule::kSoftmaxLossFloat:  // CrossEntropyLoss's: src/aclnn/softmax_loss_front_end.cc
      return Status::Ok();
    case DTypeRule::kPromoteOutAnyFloat: {
      // The inputs are computed in their promoted dtype, which must be a compute dtype.
      DType promoted = in0.view->dtype;
      std::string given;
      for (const Operand* v : all) {
        if (v == &out) continue;
        promoted = PromoteType(promoted, v->view->dtype);
        given += std::string(given.empty() ? "" : " and ") + v->param + " " +
                 DTypeName(v->view->dtype);
      }
      if (IsComputeType(promoted)) return Status::Ok();
      return core::InvalidParam(op, in0.param,
                                "dtype: " + given + " promote to " + DTypeName(promoted) +
                                    "; expected FLOAT, FLOAT16 or BFLOAT16");
    }
    case DTypeRule::kInputsSameOutAnyFloat:
      for (const Operand* v : all) {
        if (v != &out && v->view->dtype != in0.view->dtype) {
          return core::InvalidParam(op, v->param,
                                    std::string("dtype: expected ") + DTypeName(in0.view->dtype) +
                                        " like " + in0.param + ", got " +
                                        DTypeName(v->view->dtype));
        }
      }
      return Status::Ok();
  }
  return Status::Inner(std::string(op) + ": unknown dtype rule");
}

Status CheckShapes(const OpInfo& info, const OperandList& all, const Operand* in1) {
  const char* op = info.name;
  const Operand& in0 = all.front();
  const Operand& out = all.back();
  switch (info.shapes) {
    case ShapeRule::kBroadcast: {
      if (in1 == nullptr) return Status::Inner(std::string(op) + ": broadcast needs two inputs");
      std::vector<int64_t> shape;
      if (!core::BroadcastShapes(in0.view->shape, in1->view->shape, &shape) ||
          shape != out.view->shape) {
        return core::InvalidParam(op, out.param,
                                  "shape: " + std::string(in0.param) + " " +
                                      core::ShapeString(in0.view->shape) + " and " + in1->param +
                                      " " + core::ShapeString(in1->view->shape) +
                                      " must broadcast to " + out.param + "'s shape, got " +
                                      core::ShapeString(out.view->shape));
      }
      return Status::Ok();
    }
    case ShapeRule::kEqual:
      for (const Operand* v : all) {
        if (v->view->shape != in0.view->shape) {
          return core::InvalidParam(op, v->param,
                                    "shape: expected " + core::ShapeString(in0.view->shape) +
                                        " like " + in0.param + ", got " +
                                        core::ShapeString(v->view->shape));
        }
      }
      return Status::Ok();
    case ShapeRule::kChannelWeight:  // Prelu: in1 is the weight
      if (in1 == nullptr) return Status::Inner(std::string(op) + ": a channel weight is in1");
      return CheckChannelWeightShapes(op, in0.param, *in0.view, in1->param, *in1->view,
                                      out.param, *out.view);
    case ShapeRule::kOneElement:  // a gated unit's: src/aclnn/split_front_end.cc
    case ShapeRule::kGroupRows:
    case ShapeRule::kFlatNoise:  // RReluWithNoise's: src/aclnn/noise_front_end.cc
    case ShapeRule::kIndexRows:  // Embedding's: src/aclnn/index_front_end.cc
    case ShapeRule::kScatterRows:   // EmbeddingDenseBackward's: the same file
    case ShapeRule::kLossBroadcast:  // the losses': src/aclnn/loss_front_end.cc
    case ShapeRule::kLossWeights:
    case ShapeRule::kClassTarget:  // NLLLoss's: src/aclnn/class_loss_front_end.cc
    case ShapeRule::kClassTarget2d:
    case ShapeRule::kClassRows:     // CrossEntropyLoss's: src/aclnn/softmax_loss_front_end.cc
    case ShapeRule::kLabelRows:     // SoftmaxCrossEntropyWithLogits': the same file
    case ShapeRule::kTrailingDims:  // the norms': src/aclnn/norm_front_end.cc
    case ShapeRule::kChannelGroups:
    case ShapeRule::kChannelStats:  // BatchNorm's: src/aclnn/batch_norm_front_end.cc
      break;
  }
  return Status::Inner(std::string(op) + ": unknown shape rule");
}

// A number as CANN's op_api converts it to self's dtype (ScalarConversion::kToSelfDType):
// FLOAT16 and BFLOAT16 round it to nearest even, an integer dtype truncates it toward zero,
// saturated to the dtype's range (NaN: 0); the kernels take the result as an f32 value.
float ScalarInDType(double v, DType dtype) {
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    const float f = core::ToFloat(v);
    uint16_t narrow = 0;
    exec::ScalarFromF32(f, dtype, &narrow);
    return exec::ScalarToF32(dtype, &narrow);
  }
  double lo = 0.0, hi = 0.0;
  switch (dtype) {
    case DType::kInt8: lo = -128.0, hi = 127.0; break;
    case DType::kUInt8: lo = 0.0, hi = 255.0; break;
    case DType::kInt16: lo = -32768.0, hi = 32767.0; break;
    case DType::kInt32: lo = -2147483648.0, hi = 2147483647.0; break;
    case DType::kInt64: lo = -9223372036854775808.0, hi = 9223372036854775807.0; break;
    default: return core::ToFloat(v);
  }
  if (std::isnan(v)) return 0.0f;
  return static_cast<float>(std::min(std::max(std::trunc(v), lo), hi));
}

// No scalar parameter null (CANN's null aclScalar is 161001), but one that may be (its
// default then).
Status CheckScalarsGiven(const OpInfo& info, const OpArgs& args) {
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (args.scalars[k].null && !info.scalars[k].nullable) {
      return Status::Nullptr(std::string(info.name) + ": " + info.scalars[k].name + " is null");
    }
  }
  return Status::Ok();
}

// A number parameter must hold a real value: a float, a signed integer, UINT8 or BOOL
// aclScalar (CANN's lists; it reads the value with ToFloat); complex and wider unsigned
// ones are refused.
Status CheckScalarDTypes(const OpInfo& info, const OpArgs& args) {
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].kind != ScalarKind::kNumber || !args.scalars[k].given) continue;
    const DType d = args.scalars[k].dtype;
    if (!IsFloatType(d) && !IsPromotableIntType(d)) {
      return core::InvalidParam(
          info.name, info.scalars[k].name,
          std::string("dtype: expected a real number (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT8, "
                      "UINT8, INT16, INT32, INT64 or BOOL), got ") +
              DTypeName(d));
    }
  }
  return Status::Ok();
}

// Rule PromoteIntExact, as CANN's AddRelu: the number parameters must cast to the inputs'
// promoted dtype (a float number to an integer promotion does not), and so must the
// promoted dtype to out's (a float promotion to an integer out does not). The operators
// whose op_api checks out by CanCast (OutCheckedByCanCast) ask the second only: a complex
// promotion (SigmoidBackward's) into a real out is refused.
Status CheckPromotedCasts(const OpInfo& info, const OperandList& all, const OpArgs& args) {
  if (!PromotesToExactInt(info.dtypes) && !OutCheckedByCanCast(info.op)) return Status::Ok();
  const Operand& out = all.back();
  DType promoted = all.front().view->dtype;
  for (const Operand* v : all) {
    if (v != &out) promoted = PromoteType(promoted, v->view->dtype);
  }
  if (!CanCast(promoted, out.view->dtype)) {
    return core::InvalidParam(info.name, out.param,
                              std::string("dtype: the inputs promote to ") +
                                  DTypeName(promoted) + ", which cannot be cast to " +
                                  DTypeName(out.view->dtype));
  }
  // An integer promotion (AddRelu's) takes its numbers only where CanCast allows.
  if (!PromotesToExactInt(info.dtypes) || IsFloatType(promoted)) return Status::Ok();
  for (int k = 0; k < info.num_scalars(); ++k) {
    const OpScalar& s = args.scalars[k];
    if (info.scalars[k].kind == ScalarKind::kNumber && s.given && !CanCast(s.dtype, promoted)) {
      return core::InvalidParam(info.name, info.scalars[k].name,
                                std::string("dtype: ") + DTypeName(s.dtype) +
                                    " cannot be cast to the inputs' promoted " +
                                    DTypeName(promoted));
    }
  }
  return Status::Ok();
}

// The numbers' value rules (ScalarCheck) on the values the kernel will take.
Status CheckScalarValues(const OpInfo& info, const float* values) {
  bool flag = false;
  const char* flag_name = "";
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].kind != ScalarKind::kFlag) continue;
    flag = values[k] != 0.0f;
    flag_name = info.scalars[k].name;
  }
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].check == ScalarCheck::kNonZero && !(values[k] < 0.0f || values[k] > 0.0f)) {
      return core::InvalidParam(info.name, info.scalars[k].name,
                                "must be a non-zero number, got " + std::to_string(values[k]));
    }
    if (info.scalars[k].check == ScalarCheck::kNonNegative && values[k] < 0.0f) {
      return core::InvalidParam(info.name, info.scalars[k].name,
                                "must not be negative, got " + std::to_string(values[k]));
    }
    if (info.scalars[k].check == ScalarCheck::kNonNegativeWithFlag && flag && values[k] < 0.0f) {
      return core::InvalidParam(info.name, info.scalars[k].name,
                                "must not be negative while " + std::string(flag_name) +
                                    " is true (got " +
                                    std::to_string(values[k]) +
                                    "): the result of an in-place forward call with a negative " +
                                    info.scalars[k].name + " cannot be differentiated");
    }
  }
  return Status::Ok();
}

// Gelu's op_api refuses a private (blocked) format for any of its tensors.
Status CheckNoPrivateFormat(const OpInfo& info, const OperandList& all) {
  for (const Operand* v : all) {
    if (core::IsPrivateFormat(v->view->format)) {
      return core::InvalidParam(info.name, v->param,
                                std::string("format: ") + core::FormatName(v->view->format) +
                                    " is a private format, which " + info.name +
                                    " does not take (ND, NCHW, NHWC and the other plain ones)");
    }
  }
  return Status::Ok();
}

// FastGelu's, FastGeluBackward's, Hardsigmoid's and Shrink's op_api ask every tensor for
// in0's format.
Status CheckOneFormat(const OpInfo& info, const OperandList& all) {
  const Operand& in0 = all.front();
  for (const Operand* v : all) {
    if (v->view->format != in0.view->format) {
      return core::InvalidParam(info.name, v->param,
                                std::string("format: expected ") +
                                    core::FormatName(in0.view->format) + " like " + in0.param +
                                    ", got " + core::FormatName(v->view->format));
    }
  }
  return Status::Ok();
}

Status CheckDim(const OpInfo& info, const std::vector<int64_t>& shape, int64_t dim) {
  const int64_t n = std::max<int64_t>(static_cast<int64_t>(shape.size()), 1);
  if (dim < -n || dim >= n) {
    return core::InvalidParam(info.name, "dim",
                              "out of range: expected [" + std::to_string(-n) + ", " +
                                  std::to_string(n - 1) + "] for shape " +
                                  core::ShapeString(shape) + ", got " + std::to_string(dim));
  }
  return Status::Ok();
}

// An input with no elements whose rank and dims are valid (EmptyInputSkipsChecks: a
// malformed descriptor is still refused, in the usual order).
bool IsWellFormedEmpty(const char* op, const Operand& v) {
  return core::CheckRank(op, v.param, *v.view).ok() && core::CheckDims(op, v.param, *v.view).ok() &&
         core::CheckedNumel(v.view->shape) == 0;
}

// The first operand whose elements lie behind a null data address, as phase 2's refusal
// words it; empty when none does.
std::string UnboundOperand(const OpArgs& args) {
  const OpInfo& info = GetOpInfo(args.op);
  const auto unbound = [](const TensorView* v) {
    return v != nullptr && v->data == nullptr && core::CheckedNumel(v->shape) > 0;
  };
  for (int k = 0; k < kMaxIn + kMaxOut; ++k) {
    const bool in = k < kMaxIn;
    const TensorView* v = in ? args.in[k] : args.out[k - kMaxIn];
    const char* param = in ? info.in_names[k] : info.out_names[k - kMaxIn];
    if (param == nullptr || !unbound(v)) continue;
    return std::string(param) + " data: null address behind a view of " +
           std::to_string(core::CheckedNumel(v->shape)) +
           " elements (phase 1 takes it, as CANN's; nothing can run on it)";
  }
  return std::string();
}

Status PrepareCheckedViews(const OpArgs& args, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor) {
  if (!IsValidOp(args.op)) {
    return Status::Invalid("unknown operator " + std::to_string(static_cast<int>(args.op)));
  }
  const OpInfo& info = GetOpInfo(args.op);
  // The gated linear units split self: their own checks (src/aclnn/split_front_end.cc).
  if (info.is_split) return PrepareSplitChecked(args, options, workspace_size, executor);
  const char* op = info.name;
  // A Map with per-channel sums (PreluBackward): checks and middle end of their own.
  if (info.kind == Kind::kMapColumnSums) {
    return PreparePreluBackward(args, options, workspace_size, executor);
  }
  // A Map drawing random numbers (RReluWithNoise): checks and middle end of its own.
  if (info.kind == Kind::kNoiseMap) {
    return PrepareNoiseChecked(args, options, workspace_size, executor);
  }
  // A normalisation (LayerNorm, RmsNorm, GroupNorm, ...): statistics outputs.
  if (IsNormShape(info.shapes)) return PrepareNormChecked(args, options, workspace_size, executor);
  // A per-channel normalisation (BatchNorm): statistics over every dim but the channel's.
  if (info.shapes == ShapeRule::kChannelStats) {
    return PrepareBatchNormChecked(args, options, workspace_size, executor);
  }
  // Rows picked by an index tensor (Embedding): src/aclnn/index_front_end.cc.
  if (info.kind == Kind::kGather)
    return PrepareGatherChecked(args, options, workspace_size, executor);
  // Rows added into the rows an index tensor names (EmbeddingDenseBackward): the same file.
  if (info.kind == Kind::kScatterAdd)
    return PrepareScatterChecked(args, options, workspace_size, executor);
  // A loss of elementwise terms (MseLoss and its gradient): src/aclnn/loss_front_end.cc.
  if (info.kind == Kind::kPointLoss)
    return PrepareLossChecked(args, options, workspace_size, executor);
  // A loss reading one class per position (NLLLoss): src/aclnn/class_loss_front_end.cc.
  if (info.kind == Kind::kClassLoss)
    return PrepareClassLossChecked(args, options, workspace_size, executor);
  // A class loss of each row's log-softmax (CrossEntropyLoss):
  // src/aclnn/softmax_loss_front_end.cc.
  if (info.kind == Kind::kSoftmaxLoss)
    return PrepareSoftmaxLossChecked(args, options, workspace_size, executor);
  Operand in0{info.in_names[0], args.in[0], {}};
  Operand in1{info.in_names[1], args.in[1], {}};
  Operand in2{info.in_names[2], args.in[2], {}};
  // An in-place operator writes its input: its out is in[0], whatever args.out[0] says.
  Operand out{info.out_names[0], IsInplace(info.signature) ? in0.view : args.out[0], {}};
  const bool has_in1 = info.num_in() > 1;
  OperandList all;
  all.push_back(&in0);
  if (has_in1) all.push_back(&in1);
  if (info.num_in() > 2) all.push_back(&in2);
  all.push_back(&out);

  // Null operands in CANN's parameter order: the inputs, the scalar parameters, the output
  // (EluBackward: the parameters come before its second input).
  for (const Operand* v : all) {
    if (v == (info.scalars_before_in1 ? &in1 : &out)) {
      HOSTNN_RETURN_IF_ERROR(CheckScalarsGiven(info, args));
    }
    if (v->view == nullptr) return Status::Nullptr(std::string(op) + ": " + v->param + " is null");
  }
  // An empty input that succeeds before the remaining checks (CANN's early returns).
  if (EmptyInputSkipsChecks(args.op) &&
      (IsWellFormedEmpty(op, in0) || (has_in1 && IsWellFormedEmpty(op, in1)))) {
    return PrepareEmpty(args.op, in0.view->dtype, workspace_size, executor);
  }
  HOSTNN_RETURN_IF_ERROR(CheckDTypes(info, all));
  HOSTNN_RETURN_IF_ERROR(CheckScalarDTypes(info, args));
  HOSTNN_RETURN_IF_ERROR(CheckPromotedCasts(info, all, args));
  const FormatRule formats = args.any_format ? FormatRule::kAny : FormatRuleOf(args.op);
  if (formats == FormatRule::kNoPrivate) HOSTNN_RETURN_IF_ERROR(CheckNoPrivateFormat(info, all));
  const int max_rank = args.max_rank > 0 ? args.max_rank : MaxRank(args.op);
  for (const Operand* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, max_rank));
  }
  for (const Operand* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  if (EmptyInputSkipsShapes(args.op) && (core::CheckedNumel(in0.view->shape) == 0 ||
                                         (has_in1 && core::CheckedNumel(in1.view->shape) == 0))) {
    return PrepareEmpty(args.op, in0.view->dtype, workspace_size, executor);
  }
  HOSTNN_RETURN_IF_ERROR(CheckShapes(info, all, has_in1 ? &in1 : nullptr));
  float scalars[kMaxScalars] = {};  // CANN's ToFloat; unset: the default
  for (int k = 0; k < info.num_scalars(); ++k) {
    const OpScalar& s = args.scalars[k];
    const double v = s.given ? s.value : info.scalars[k].default_value;
    // In the dtype self is computed in (an INT16 self of Threshold in INT32's).
    scalars[k] = info.scalars[k].conversion == ScalarConversion::kToSelfDType
                     ? ScalarInDType(v, ComputedSelfDType(info.dtypes, in0.view->dtype))
                     : core::ToFloat(v);
  }
  HOSTNN_RETURN_IF_ERROR(CheckScalarValues(info, scalars));
  if (formats == FormatRule::kOneFormat) HOSTNN_RETURN_IF_ERROR(CheckOneFormat(info, all));
  if (info.is_reduction) HOSTNN_RETURN_IF_ERROR(CheckDim(info, in0.view->shape, args.dim));
  for (Operand* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  }
  // The output against itself and the inputs it is computed from (in2 is never read).
  HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, out.param, *out.view, out.span));
  for (const Operand* in : {&in0, &in1}) {
    if (in == &in1 && !has_in1) continue;
    HOSTNN_RETURN_IF_ERROR(
        core::CheckAliasing(op, out.param, *out.view, out.span, in->param, *in->view, in->span));
  }

  exec::Operands operands;
  operands.in[0] = {in0.view, &in0.span};
  if (has_in1) operands.in[operands.num_in++] = {in1.view, &in1.span};
  operands.out[0] = {out.view, &out.span};
  for (int k = 0; k < kMaxScalars; ++k) operands.scalars[k] = scalars[k];
  for (int k = 0; k < info.num_scalars(); ++k) {
    const OpScalar& s = args.scalars[k];
    // Only an integer number feeds an integer computation (CheckPromotedCasts). Below 2^53
    // the double is exact; past it only int_value is (an INT64 aclScalar).
    const bool integral = s.given ? IsPromotableIntType(s.dtype) : true;
    const double v = s.given ? s.value : info.scalars[k].default_value;
    if (integral && std::fabs(v) < 9007199254740992.0) {
      operands.int_scalars[k] = static_cast<int64_t>(v);
    } else if (integral) {
      operands.int_scalars[k] = s.int_value;
    }
  }
  ChannelWeightViews channel;  // Prelu: the weight broadcast along dim 1
  if (info.shapes == ShapeRule::kChannelWeight) {
    HOSTNN_RETURN_IF_ERROR(MakeChannelWeightViews(op, *in0.view, in0.span, *in1.view, in1.span,
                                                  *out.view, out.span, &channel));
    operands.in[0] = {&channel.self, &channel.self_span};
    operands.in[1] = {&channel.weight, &channel.weight_span};
    operands.out[0] = {&channel.out, &channel.out_span};
  }
  // The middle end by kind: Unary and Binary are Maps (the Map executor), Rows the
  // softmax executor.
  if (!info.is_reduction) {
    return exec::PrepareMap(args.op, operands, options, workspace_size, executor);
  }
  return exec::PrepareRows(args.op, operands, args.dim, options, workspace_size, executor);
}

}  // namespace

void ScalarValuesOf(const OpArgs& args, float* numbers, int64_t* exact) {
  const OpInfo& info = GetOpInfo(args.op);
  for (int k = 0; k < info.num_scalars(); ++k) {
    const OpScalar& s = args.scalars[k];
    const double value = s.given ? s.value : info.scalars[k].default_value;
    numbers[k] = core::ToFloat(value);
    exact[k] = s.given && s.dtype == DType::kInt64 ? s.int_value : core::ToInt64(value);
  }
}

Status CheckApart(const char* op, const CheckedOperand& out, const CheckedOperand& in) {
  HOSTNN_RETURN_IF_ERROR(
      core::CheckAliasing(op, out.param, *out.view, out.span, in.param, *in.view, in.span));
  if (out.span.first == in.span.first && !core::SpansApart(out.span, in.span)) {
    return core::InvalidParam(op, out.param, std::string("must not share memory with ") + in.param);
  }
  return Status::Ok();
}

Status PrepareChecked(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size,
                      ExecutorPtr* executor) {
  HOSTNN_RETURN_IF_ERROR(PrepareCheckedViews(args, options, workspace_size, executor));
  // (An empty problem runs nothing and reads no address: it succeeds, as CANN's.)
  std::string unbound = (*executor)->runs_nothing() ? std::string() : UnboundOperand(args);
  if (!unbound.empty()) (*executor)->set_unbound(std::move(unbound));
  return Status::Ok();
}

}  // namespace hostnn
