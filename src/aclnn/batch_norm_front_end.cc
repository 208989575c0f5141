// BatchNorm's and BatchNormBackward's checks (src/aclnn/batch_norm_front_end.h), each in the
// order of its Atlas A2 op_api.

#include "src/aclnn/batch_norm_front_end.h"

#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/aclnn/norm_checks.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/rows_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kBatchNormTypes = {DType::kFloat32, DType::kFloat16,
                                                          DType::kBFloat16};
constexpr int kMinDims = 2, kMaxDims = 8;
constexpr int32_t kNCDHW = 30;  // aclFormat's ACL_FORMAT_NCDHW

Status Null(const char* op, const Item& v) {
  return Status::Nullptr(std::string(op) + ": " + v.param + " is null");
}

// Each given tensor's dtype in the op_api's list, its dims valid.
Status CheckTypes(const char* op, std::initializer_list<const Item*> items) {
  for (const Item* v : items) {
    if (!v->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kBatchNormTypes));
    HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  return Status::Ok();
}

// 2 to 8 dims (161002).
Status CheckNormRank(const char* op, const Item& v) {
  HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v.param, *v.view, kMaxDims));
  if (v.view->shape.size() < static_cast<size_t>(kMinDims)) {
    return core::InvalidParam(
        op, v.param,
        "must have 2 to 8 dims ([N, C, ...]), got " + core::ShapeString(v.view->shape));
  }
  return Status::Ok();
}

Status CheckSameShape(const char* op, const Item& v, const Item& like) {
  if (v.view->shape == like.view->shape) return Status::Ok();
  return core::InvalidParam(op, v.param,
                            "shape " + core::ShapeString(v.view->shape) + ": expected " +
                                like.param + "'s " + core::ShapeString(like.view->shape));
}

Status CheckSameFormat(const char* op, const Item& v, const Item& like) {
  if (v.view->format == like.view->format) return Status::Ok();
  return core::InvalidParam(op, v.param,
                            std::string("format ") + core::FormatName(v.view->format) +
                                ": expected " + like.param + "'s " +
                                core::FormatName(like.view->format));
}

Status CheckNotPrivate(const char* op, const Item& v) {
  return core::CheckNotPrivate(op, v.param, *v.view, "ND, NC, NCL, NCHW or NCDHW");
}

// Each given per-channel tensor 1-dim of C values (161002).
Status CheckPerChannel(const char* op, int64_t c, std::initializer_list<const Item*> items) {
  for (const Item* v : items) {
    if (!v->given()) continue;
    if (v->view->shape.size() != 1 || v->view->shape[0] != c) {
      return core::InvalidParam(op, v->param,
                                "shape " + core::ShapeString(v->view->shape) +
                                    ": expected one value per channel, [" + std::to_string(c) +
                                    "]");
    }
  }
  return Status::Ok();
}

// input [N, C, ...] as N samples of C channels of S elements.
void Extents(const std::vector<int64_t>& shape, exec::ChannelStatsOperands* o) {
  o->n = shape[0];
  o->c = shape[1];
  o->s = core::CheckedNumel(std::vector<int64_t>(shape.begin() + 2, shape.end()));
}

Status PrepareBatchNormForward(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item input{info.in_names[0], args.in[0], {}}, weight{info.in_names[1], args.in[1], {}},
      bias{info.in_names[2], args.in[2], {}}, running_mean{info.in_names[3], args.in[3], {}},
      running_var{info.in_names[4], args.in[4], {}};
  Item output{info.out_names[0], args.out[0], {}}, save_mean{info.out_names[1], args.out[1], {}},
      save_invstd{info.out_names[2], args.out[2], {}};
  exec::ChannelStatsOperands o;
  float numbers[kMaxScalars];
  int64_t exact[kMaxScalars];
  ScalarValuesOf(args, numbers, exact);  // training, momentum, eps
  o.training = numbers[0] != 0.0f;
  o.momentum = numbers[1];
  o.eps = numbers[2];

  // 1. Null tensors: input, output; in training saveMean and saveInvstd.
  for (const Item* v : {&input, &output}) {
    if (!v->given()) return Null(op, *v);
  }
  if (o.training) {
    for (const Item* v : {&save_mean, &save_invstd}) {
      if (!v->given()) return Null(op, *v);
    }
  }
  // 2. An empty input: saveMean filled with 0 and saveInvstd with NaN, where given, whatever
  // their shapes (the op_api checks nothing else first); a dtype that cannot hold them is
  // refused.
  HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, input.param, *input.view));
  if (core::CheckedNumel(input.view->shape) == 0) {
    HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&save_mean, &save_invstd}));
    HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {}, {&save_mean, &save_invstd}));
    o.save_mean = {save_mean.view, &save_mean.span};
    o.save_var = {save_invstd.view, &save_invstd.span};
    return exec::PrepareChannelStatsEmpty(args.op, o, workspace_size, executor);
  }
  // 3. Dtypes: input, output, the saved outputs in training; weight, bias and the running
  // statistics where given. Each FLOAT, FLOAT16 or BFLOAT16, independently.
  HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&input, &output}));
  if (o.training) HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&save_mean, &save_invstd}));
  HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&weight, &bias, &running_mean, &running_var}));
  // 4. Formats: output input's; a 5-dim input or output NCDHW; no private format.
  HOSTNN_RETURN_IF_ERROR(CheckSameFormat(op, output, input));
  for (const Item* v : {&input, &output}) {
    if (v->view->shape.size() == 5 && v->view->format != kNCDHW) {
      return core::InvalidParam(op, v->param,
                                std::string("format ") + core::FormatName(v->view->format) +
                                    ": a 5-dim tensor must be NCDHW");
    }
  }
  HOSTNN_RETURN_IF_ERROR(CheckNotPrivate(op, input));
  // 5. Shapes: input and output of 2 to 8 dims, output input's; the per-channel tensors
  // 1-dim of C; in training the saved outputs [C].
  HOSTNN_RETURN_IF_ERROR(CheckNormRank(op, input));
  HOSTNN_RETURN_IF_ERROR(CheckNormRank(op, output));
  HOSTNN_RETURN_IF_ERROR(CheckSameShape(op, output, input));
  Extents(input.view->shape, &o);
  HOSTNN_RETURN_IF_ERROR(CheckPerChannel(op, o.c, {&weight, &bias, &running_mean, &running_var}));
  if (o.training) HOSTNN_RETURN_IF_ERROR(CheckPerChannel(op, o.c, {&save_mean, &save_invstd}));

  // 6. Storage and overlap: output may be input exactly; in training the saved outputs and
  // the running statistics (read, then written) share no byte with anything else.
  if (o.training) {
    HOSTNN_RETURN_IF_ERROR(
        CheckNormStorage(op, {&input, &weight, &bias},
                         {&output, &save_mean, &save_invstd, &running_mean, &running_var}));
    o.save_mean = {save_mean.view, &save_mean.span};
    o.save_var = {save_invstd.view, &save_invstd.span};
    if (running_mean.given()) o.running_mean = {running_mean.view, &running_mean.span};
    if (running_var.given()) o.running_var = {running_var.view, &running_var.span};
  } else {
    HOSTNN_RETURN_IF_ERROR(
        CheckNormStorage(op, {&input, &weight, &bias, &running_mean, &running_var}, {&output}));
  }
  o.x = {input.view, &input.span};
  o.y = {output.view, &output.span};
  if (weight.given()) o.weight = {weight.view, &weight.span};
  if (bias.given()) o.bias = {bias.view, &bias.span};
  if (running_mean.given()) o.mean = {running_mean.view, &running_mean.span};
  if (running_var.given()) o.var = {running_var.view, &running_var.span};
  return exec::PrepareChannelStats(args.op, o, options, workspace_size, executor);
}

Status PrepareBatchNormBackward(const OpArgs& args, const tiling::Options& options,
                                uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item dy{info.in_names[0], args.in[0], {}}, x{info.in_names[1], args.in[1], {}},
      weight{info.in_names[2], args.in[2], {}}, running_mean{info.in_names[3], args.in[3], {}},
      running_var{info.in_names[4], args.in[4], {}}, save_mean{info.in_names[5], args.in[5], {}},
      save_invstd{info.in_names[6], args.in[6], {}};
  Item outs[3] = {{info.out_names[0], args.out[0], {}},
                  {info.out_names[1], args.out[1], {}},
                  {info.out_names[2], args.out[2], {}}};
  exec::ChannelStatsOperands o;
  float numbers[kMaxScalars];
  int64_t exact[kMaxScalars];
  ScalarValuesOf(args, numbers, exact);  // training, eps
  o.training = numbers[0] != 0.0f;
  o.eps = numbers[1];

  // 1. Null gradOut, input; then an empty one succeeds writing nothing.
  for (const Item* v : {&dy, &x}) {
    if (!v->given()) return Null(op, *v);
  }
  for (const Item* v : {&dy, &x}) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  if (core::CheckedNumel(x.view->shape) == 0 || core::CheckedNumel(dy.view->shape) == 0) {
    return PrepareEmpty(args.op, x.view->dtype, workspace_size, executor);
  }
  // 2. outputMask and the outputs it asks for; an output not asked for is not looked at. An
  // empty mask is the op_api's 161001 (fewer than one value); 1 or 2 values, which it would
  // read past, are 161002.
  if (args.bool_array_given && args.bool_array.empty()) {
    return Status::Nullptr(std::string(op) + ": outputMask has no value (3 expected)");
  }
  bool wanted[3] = {};
  HOSTNN_RETURN_IF_ERROR(ReadOutputMask(op, args, outs, true, wanted));
  for (int k = 0; k < 3; ++k) {
    if (!wanted[k]) outs[k].view = nullptr;
  }
  Item& dx = outs[0];
  // 3. Dtypes: gradOut and input in the list and alike; the asked-for outputs; the
  // per-channel inputs where given.
  HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&dy, &x}));
  if (x.view->dtype != dy.view->dtype) {
    return core::InvalidParam(op, x.param,
                              std::string("dtype: expected ") + DTypeName(dy.view->dtype) +
                                  " like gradOut, got " + DTypeName(x.view->dtype));
  }
  HOSTNN_RETURN_IF_ERROR(CheckTypes(op, {&outs[0], &outs[1], &outs[2]}));
  HOSTNN_RETURN_IF_ERROR(
      CheckTypes(op, {&weight, &running_mean, &running_var, &save_mean, &save_invstd}));
  // 4. Formats: input gradOut's, gradInput gradOut's; no private one.
  HOSTNN_RETURN_IF_ERROR(CheckSameFormat(op, x, dy));
  if (dx.given()) HOSTNN_RETURN_IF_ERROR(CheckSameFormat(op, dx, dy));
  HOSTNN_RETURN_IF_ERROR(CheckNotPrivate(op, dy));
  HOSTNN_RETURN_IF_ERROR(CheckNotPrivate(op, x));
  // 5. Shapes: input and gradOut of 2 to 8 dims and alike, gradInput theirs; weight and the
  // running statistics 1-dim of C. hostnn also asks C values of what it reads or writes per
  // channel that the A2 op_api leaves unchecked: the saved statistics (training) and
  // gradWeight and gradBias.
  HOSTNN_RETURN_IF_ERROR(CheckNormRank(op, x));
  HOSTNN_RETURN_IF_ERROR(CheckNormRank(op, dy));
  HOSTNN_RETURN_IF_ERROR(CheckSameShape(op, dy, x));
  if (dx.given()) {
    HOSTNN_RETURN_IF_ERROR(CheckNormRank(op, dx));
    HOSTNN_RETURN_IF_ERROR(CheckSameShape(op, dx, dy));
  }
  Extents(x.view->shape, &o);
  HOSTNN_RETURN_IF_ERROR(CheckPerChannel(op, o.c, {&weight, &running_mean, &running_var}));
  if (o.training) HOSTNN_RETURN_IF_ERROR(CheckPerChannel(op, o.c, {&save_mean, &save_invstd}));
  HOSTNN_RETURN_IF_ERROR(CheckPerChannel(op, o.c, {&outs[1], &outs[2]}));
  if (!wanted[0] && !wanted[1] && !wanted[2]) {
    return PrepareEmpty(args.op, x.view->dtype, workspace_size, executor);
  }

  // 6. Storage and overlap: gradInput may be gradOut exactly.
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(
      op, {&dy, &x, &weight, &running_mean, &running_var, &save_mean, &save_invstd},
      {&outs[0], &outs[1], &outs[2]}));
  o.dy = {dy.view, &dy.span};
  o.x = {x.view, &x.span};
  if (dx.given()) o.y = {dx.view, &dx.span};
  if (weight.given()) o.weight = {weight.view, &weight.span};
  const Item& mean = o.training ? save_mean : running_mean;
  const Item& var = o.training ? save_invstd : running_var;
  if (mean.given()) o.mean = {mean.view, &mean.span};
  if (var.given()) o.var = {var.view, &var.span};
  if (outs[1].given()) o.grad_weight = {outs[1].view, &outs[1].span};
  if (outs[2].given()) o.grad_bias = {outs[2].view, &outs[2].span};
  return exec::PrepareChannelStats(args.op, o, options, workspace_size, executor);
}

}  // namespace

Status PrepareBatchNormChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor) {
  if (GetOpInfo(args.op).signature == Signature::kBatchNormBackward) {
    return PrepareBatchNormBackward(args, options, workspace_size, executor);
  }
  return PrepareBatchNormForward(args, options, workspace_size, executor);
}

}  // namespace hostnn
