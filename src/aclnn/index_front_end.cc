// Embedding's and EmbeddingDenseBackward's checks (src/aclnn/index_front_end.h), in the order
// of CANN's Atlas A2 op_api (docs/loss_embedding_family.md, "Embedding",
// "EmbeddingDenseBackward").

#include "src/aclnn/index_front_end.h"

#include <initializer_list>
#include <string>

#include "src/aclnn/front_end.h"
#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/index_executor.h"
#include "src/exec/scatter_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

// The dtypes a row copy takes on Atlas A2 (its op_api adds BFLOAT16 to the older list).
constexpr std::initializer_list<DType> kWeightTypes = {
    DType::kFloat64, DType::kFloat32,    DType::kFloat16,   DType::kInt64,
    DType::kInt32,   DType::kInt16,      DType::kInt8,      DType::kUInt8,
    DType::kBool,    DType::kComplex128, DType::kComplex64, DType::kBFloat16};
constexpr std::initializer_list<DType> kIndexTypes = {DType::kInt32, DType::kInt64};
// EmbeddingDenseBackward's grad and out (A2 adds BFLOAT16), and the indices its op_api casts
// to INT32.
constexpr std::initializer_list<DType> kGradTypes = {DType::kFloat32, DType::kFloat16,
                                                     DType::kBFloat16};
constexpr std::initializer_list<DType> kScatterIndexTypes = {
    DType::kFloat16, DType::kFloat32, DType::kFloat64, DType::kInt8, DType::kUInt8,
    DType::kInt16,   DType::kInt32,   DType::kInt64,   DType::kBool};

// out's shape: indices' dims, then one more.
Status CheckOutShape(const char* op, const Item& out, const Item& indices) {
  const std::vector<int64_t>& o = out.view->shape;
  const std::vector<int64_t>& i = indices.view->shape;
  bool match = o.size() == i.size() + 1;
  for (size_t d = 0; match && d < i.size(); ++d) match = o[d] == i[d];
  if (match) return Status::Ok();
  return core::InvalidParam(op, out.param,
                            "shape " + core::ShapeString(o) + ": expected indices' dims " +
                                core::ShapeString(i) + " followed by one more");
}

// What the op_api asks of grad's rows: as many as indices has elements (grad's leading dims;
// any count where grad's last dim is 0).
Status CheckGradRows(const char* op, const Item& grad, const Item& indices) {
  const std::vector<int64_t>& g = grad.view->shape;
  if (g.empty()) {
    return core::InvalidParam(op, grad.param, "must have at least 1 dim ([..., D]), got a scalar");
  }
  if (g.back() == 0) return Status::Ok();
  const int64_t rows = core::CheckedNumel(std::vector<int64_t>(g.begin(), g.end() - 1));
  const int64_t n = core::CheckedNumel(indices.view->shape);
  if (rows == n) return Status::Ok();
  return core::InvalidParam(op, grad.param,
                            "shape " + core::ShapeString(g) + ": its rows (leading dims) " +
                                std::to_string(rows) + " do not match indices' " +
                                std::to_string(n) + " elements " +
                                core::ShapeString(indices.view->shape));
}

// out: [numWeights, grad's last dim].
Status CheckScatterOut(const char* op, const Item& out, const Item& grad, uint64_t num_weights) {
  const std::vector<int64_t>& o = out.view->shape;
  const int64_t d = grad.view->shape.back();
  if (o.size() == 2 && static_cast<uint64_t>(o[0]) == num_weights && o[1] == d) {
    return Status::Ok();
  }
  return core::InvalidParam(op, out.param,
                            "shape " + core::ShapeString(o) + ": expected [numWeights, D] = [" +
                                std::to_string(num_weights) + ", " + std::to_string(d) + "]");
}

}  // namespace

Status PrepareGatherChecked(const OpArgs& args, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item weight{info.in_names[0], args.in[0], {}}, indices{info.in_names[1], args.in[1], {}};
  Item out{info.out_names[0], args.out[0], {}};

  // 1. Null pointers, in the prototype's order.
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&weight, &indices, &out}));
  // 2. Dtypes: weight's in the list, out's weight's, indices' INT32 or INT64.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, weight.param, weight.view->dtype, kWeightTypes));
  if (out.view->dtype != weight.view->dtype) {
    return core::InvalidParam(op, out.param,
                              std::string("dtype: expected ") + DTypeName(weight.view->dtype) +
                                  " like weight, got " + DTypeName(out.view->dtype));
  }
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, indices.param, indices.view->dtype, kIndexTypes));
  // 3. At most 8 dims each (descriptors checked as they are read).
  HOSTNN_RETURN_IF_ERROR(CheckDescriptors(op, {&weight, &indices, &out}));
  // 4. out: indices' dims followed by one more.
  HOSTNN_RETURN_IF_ERROR(CheckOutShape(op, out, indices));
  // 5. An empty weight or indices: success, nothing runs (CANN returns before computing;
  // out is not written even where it has elements).
  const int64_t weight_numel = core::CheckedNumel(weight.view->shape);
  const int64_t index_numel = core::CheckedNumel(indices.view->shape);
  if (weight_numel == 0 || index_numel == 0) {
    return PrepareEmpty(args.op, weight.view->dtype, workspace_size, executor);
  }
  // 6. What CANN's op_api finds only when it copies the gathered rows to out: a weight of
  // other than 2 dims, an out whose last dim is not weight's row length.
  const std::vector<int64_t>& w = weight.view->shape;
  if (w.size() != 2) {
    return core::InvalidParam(
        op, weight.param, "must have 2 dims ([rows, embedding dim]), got " + core::ShapeString(w));
  }
  if (out.view->shape.back() != w[1]) {
    return core::InvalidParam(op, out.param,
                              "last dim " + std::to_string(out.view->shape.back()) +
                                  ": expected weight's row length " + std::to_string(w[1]));
  }
  // 7. Storage; out sharing no byte with what is read.
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, {&weight, &indices, &out}));
  HOSTNN_RETURN_IF_ERROR(CheckWrittenApart(op, {&out}, {&weight, &indices}));

  exec::GatherOperands o;
  o.weight = {weight.view, &weight.span};
  o.indices = {indices.view, &indices.span};
  o.out = {out.view, &out.span};
  return exec::PrepareGather(args.op, o, options, workspace_size, executor);
}

Status PrepareScatterChecked(const OpArgs& args, const tiling::Options& options,
                             uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item grad{info.in_names[0], args.in[0], {}}, indices{info.in_names[1], args.in[1], {}};
  Item out{info.out_names[0], args.out[0], {}};
  exec::ScatterOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // numWeights, paddingIdx (as int64_t), the flag
  const uint64_t num_weights = static_cast<uint64_t>(o.exact[0]);

  // 1. Null pointers, in the prototype's order.
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&grad, &indices, &out}));
  // 2. Dtypes: grad's and out's FLOAT, FLOAT16 or BFLOAT16 (each its own), indices' the nine.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, grad.param, grad.view->dtype, kGradTypes));
  HOSTNN_RETURN_IF_ERROR(
      core::CheckDType(op, indices.param, indices.view->dtype, kScatterIndexTypes));
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, out.param, out.view->dtype, kGradTypes));
  // 3. At most 8 dims each (descriptors checked as they are read).
  HOSTNN_RETURN_IF_ERROR(CheckDescriptors(op, {&grad, &indices, &out}));
  // 4. grad's rows: indices' element count. 5. out: [numWeights, D]. 6. No private format.
  HOSTNN_RETURN_IF_ERROR(CheckGradRows(op, grad, indices));
  HOSTNN_RETURN_IF_ERROR(CheckScatterOut(op, out, grad, num_weights));
  for (const Item* v : {&grad, &indices, &out}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckNotPrivate(
        op, v->param, *v->view, "ND or another plain format, not a private format"));
  }
  // 7. Storage; out sharing no byte with what is read.
  HOSTNN_RETURN_IF_ERROR(CheckStorages(op, {&grad, &indices, &out}));
  // An empty out: nothing to write (an empty grad or indices otherwise zeros out, below).
  if (out.span.numel == 0) return PrepareEmpty(args.op, grad.view->dtype, workspace_size, executor);
  HOSTNN_RETURN_IF_ERROR(CheckWrittenApart(op, {&out}, {&grad, &indices}));

  o.grad = {grad.view, &grad.span};
  o.indices = {indices.view, &indices.span};
  o.out = {out.view, &out.span};
  return exec::PrepareScatter(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
