// LayerNorm's checks (src/aclnn/norm_front_end.h), in the order of CANN's op_api.

#include "src/aclnn/norm_front_end.h"

#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/norm_rows_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kNormTypes = {DType::kFloat16, DType::kFloat32,
                                                     DType::kBFloat16};
constexpr int kMaxNormDims = 8;

}  // namespace

Status PrepareTrailingNormChecked(const OpArgs& args, const tiling::Options& options,
                                  uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item input{info.in_names[0], args.in[0], {}}, weight{info.in_names[1], args.in[1], {}},
      bias{info.in_names[2], args.in[2], {}};
  Item out{info.out_names[0], args.out[0], {}}, mean{info.out_names[1], args.out[1], {}},
      rstd{info.out_names[2], args.out[2], {}};
  const std::vector<int64_t>& norm = args.int_array;

  // 1. Null pointers: input, normalizedShape, out (the others are optional).
  if (!input.given()) return Status::Nullptr(std::string(op) + ": input is null");
  if (!args.int_array_given) return Status::Nullptr(std::string(op) + ": normalizedShape is null");
  if (!out.given()) return Status::Nullptr(std::string(op) + ": out is null");

  // 2. The inputs' dtypes, then the outputs'.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, input.param, input.view->dtype, kNormTypes));
  for (const Item* v : {&weight, &bias}) {
    if (!v->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
    if (v->view->dtype != DType::kFloat32 && v->view->dtype != input.view->dtype) {
      return core::InvalidParam(op, v->param,
                                std::string("dtype: expected FLOAT or ") +
                                    DTypeName(input.view->dtype) + " like input, got " +
                                    DTypeName(v->view->dtype));
    }
  }
  if (weight.given() && bias.given() && weight.view->dtype != bias.view->dtype) {
    return core::InvalidParam(op, bias.param,
                              std::string("dtype: expected ") + DTypeName(weight.view->dtype) +
                                  " like weightOptional, got " + DTypeName(bias.view->dtype));
  }
  for (const Item* v : {&out, &mean, &rstd}) {
    if (v->given()) {
      HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
    }
  }

  // 3. Descriptors, ranks, normalizedShape, then the shapes.
  const Item* all[] = {&input, &out, &weight, &bias, &mean, &rstd};
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const size_t k = norm.size(), rank = input.view->shape.size();
  if (k > static_cast<size_t>(kMaxNormDims) || k < 1) {
    return core::InvalidParam(op, "normalizedShape",
                              "must have 1 to 8 values, got " + std::to_string(k));
  }
  if (rank < k) {
    return core::InvalidParam(
        op, input.param,
        "has " + std::to_string(rank) + " dims, fewer than normalizedShape's " + std::to_string(k));
  }
  for (const Item* v : {&weight, &bias}) {
    if (v->given() && v->view->shape.size() != k) {
      return core::InvalidParam(op, v->param,
                                "must have normalizedShape's " + std::to_string(k) + " dims, got " +
                                    core::ShapeString(v->view->shape));
    }
  }
  const size_t begin = rank - k;
  for (size_t i = 0; i < k; ++i) {
    if (input.view->shape[begin + i] != norm[i]) {
      return core::InvalidParam(op, input.param,
                                "shape " + core::ShapeString(input.view->shape) +
                                    ": its last dims must equal normalizedShape " +
                                    core::ShapeString(norm));
    }
    for (const Item* v : {&weight, &bias}) {
      if (v->given() && v->view->shape[i] != norm[i]) {
        return core::InvalidParam(op, v->param,
                                  "shape: expected normalizedShape " + core::ShapeString(norm) +
                                      ", got " + core::ShapeString(v->view->shape));
      }
    }
  }
  if (out.view->shape != input.view->shape) {
    return core::InvalidParam(op, out.param,
                              "shape: expected " + core::ShapeString(input.view->shape) +
                                  " like input, got " + core::ShapeString(out.view->shape));
  }

  // 4. implMode (LayerNormWithImplMode): 0 high precision, 1 high performance, 2 keep
  // FLOAT16, which asks for FLOAT16 inputs. Every mode is computed alike.
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // eps; implMode
  if (info.num_scalars() > 1) {
    const int64_t mode = o.exact[1];
    if (mode < 0 || mode > 2) {
      return core::InvalidParam(op, "implMode", "must be 0, 1 or 2, got " + std::to_string(mode));
    }
    if (mode == 2) {
      for (const Item* v : {&input, &weight, &bias}) {
        if (v->given() && v->view->dtype != DType::kFloat16) {
          return core::InvalidParam(
              op, v->param,
              std::string("implMode 2 (keep FLOAT16) asks for FLOAT16, got ") +
                  DTypeName(v->view->dtype));
        }
      }
    }
  }

  // 5. The rows: rows x cols, cols the normalised dims' product. No row: nothing runs.
  const std::vector<int64_t>& shape = input.view->shape;
  const int64_t rows =
      core::CheckedNumel(std::vector<int64_t>(shape.begin(), shape.begin() + begin));
  const int64_t cols = core::CheckedNumel(std::vector<int64_t>(shape.begin() + begin, shape.end()));
  if (rows < 0 || cols < 0) {
    return core::InvalidParam(op, input.param, "has more rows or columns than int64 holds");
  }
  if (rows == 0) {
    return PrepareEmpty(args.op, input.view->dtype, workspace_size, executor);
  }
  for (const Item* v : {&mean, &rstd}) {
    if (v->given() && core::CheckedNumel(v->view->shape) != rows) {
      return core::InvalidParam(op, v->param,
                                "must hold one element per row: " + std::to_string(rows) +
                                    " elements, got " + core::ShapeString(v->view->shape));
    }
  }

  // 6. Storage and overlap: out may be input exactly; the outputs share no byte.
  for (Item* v : {&input, &out, &weight, &bias, &mean, &rstd}) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  }
  for (const Item* o : {&out, &mean, &rstd}) {
    if (!o->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, o->param, *o->view, o->span));
    for (const Item* in : {&input, &weight, &bias}) {
      if (!in->given()) continue;
      HOSTNN_RETURN_IF_ERROR(
          core::CheckAliasing(op, o->param, *o->view, o->span, in->param, *in->view, in->span));
    }
  }
  const Item* outs[] = {&out, &mean, &rstd};
  for (size_t a = 0; a < 3; ++a) {
    for (size_t b = a + 1; b < 3; ++b) {
      if (outs[a]->given() && outs[b]->given() && !core::SpansApart(outs[a]->span, outs[b]->span)) {
        return core::InvalidParam(op, outs[b]->param,
                                  std::string("must not overlap ") + outs[a]->param);
      }
    }
  }

  o.x = {input.view, &input.span};
  o.y = {out.view, &out.span};
  if (weight.given()) o.gamma = {weight.view, &weight.span};
  if (bias.given()) o.beta = {bias.view, &bias.span};
  if (mean.given()) o.mean = {mean.view, &mean.span};
  if (rstd.given()) o.rstd = {rstd.view, &rstd.span};
  o.rows = rows;
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
