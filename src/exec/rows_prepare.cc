// The row executor's front halves: what the softmax family, the normalisations and the
// per-channel normalisations hand the one row executor (src/exec/rows_executor.cc), each from
// its operators' operands and dtype rules: the rows' layout, the lanes and the row function
// over them (kernels::GetRowFns, GetChannelRowFns), and a normalisation's operands beside the
// rows, in one RowsSetup (src/exec/rows_setup.h).

#include <memory>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "kernels/row_fns.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"
#include "src/exec/own_operand.h"
#include "src/exec/rows_executor.h"
#include "src/exec/rows_setup.h"

namespace hostnn {
namespace exec {
namespace {

// A normalisation's eps, as its row function takes it (an f32 attribute, read by its
// params struct); 0 for one without.
float EpsOf(const kernels::RowFns& fns, Op op, const NormRowsOperands& o) {
  if (fns.eps == nullptr) return 0.0f;
  return fns.eps(kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact)));
}

// Each row operand's and result's codec; true where all are FLOAT (read in place where the
// layout is dense too).
bool SetCodecs(RowsSetup* s) {
  bool all_f32 = true;
  for (int k = 0; k < s->row_operands + s->results; ++k) {
    const DType d = s->layout.operands[k].dtype;
    s->codecs[k] = MakeCodec(d);
    all_f32 = all_f32 && d == DType::kFloat32;
  }
  return all_f32;
}

}  // namespace

// The softmax family's front half: the lanes from the dtype rules (LogSoftmax computes in
// out's dtype, self cast to it first as CANN does; Softmax in self's, the result cast to
// out's, as CANN's op_api appends a Cast), the layout over self's shape around dim.
Status PrepareRows(Op op, const Operands& operands, int64_t dim, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor) {
  const TensorView& in0 = *operands.in[0].view;
  const TensorView& out_view = *operands.out[0].view;
  const core::ViewSpan& out_span = *operands.out[0].span;
  const std::vector<int64_t>& shape = in0.shape;
  // The plan fuses the shape to (A1, R, A0) around dim. LogSoftmax computes in out's dtype
  // (self is cast to it first), Softmax and the backward in their inputs'.
  const bool forward = GetOpInfo(op).is_forward;
  const bool cast_result = CastsResultToOut(GetOpInfo(op).dtypes);
  const DType compute = forward && !cast_result ? out_view.dtype : in0.dtype;
  const tiling::Problem problem{op, compute, shape, dim, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, out_span.numel == 0, options, &plan));
  if (out_span.numel == 0) {
    return PrepareEmpty(op, compute, workspace_size, executor);
  }
  const int num = operands.num_in + 1;
  std::vector<int64_t> strides[3];
  char* firsts[3];
  DType dtypes[3];
  for (int k = 0; k < num; ++k) {
    const Operand& v = k < operands.num_in ? operands.in[k] : operands.out[0];
    strides[k] = v.span->strides;
    firsts[k] = v.span->first;
    dtypes[k] = v.view->dtype;
  }
  RowsSetup s;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, num, firsts, dtypes, strides, &s.layout));
  const core::FusedLayout& layout = s.layout;
  s.row_operands = operands.num_in;
  DType in = in0.dtype, out = out_view.dtype;
  s.lane_bytes = kernels::RowLaneBytes(op, in, out);
  bool gathered;
  if (s.lane_bytes == sizeof(double)) {
    // Widened exactly to double and computed in place in the scratch; a narrower out
    // (Softmax's) takes the double result rounded once to its dtype.
    gathered = !layout.dense || in != DType::kFloat64 || out != DType::kFloat64;
    if (gathered) s.codecs[0] = MakeCodec(layout.operands[0].dtype);
    if (out != DType::kFloat64) {
      s.narrow_f64 = kernels::GetToF32Via(DType::kFloat64, out);
      s.codecs[s.row_operands] = MakeCodec(out);
    }
    s.out_slot = 0;
  } else {
    // The forward kernels read and write one dtype: another output dtype goes through f32.
    gathered = !layout.dense || (forward && in != out);
    if (gathered) {
      // LogSoftmax casts self to out's dtype first, as CANN does (one rounding where out
      // is narrower), then computes in f32 like out's own dtype. Softmax computes in
      // self's dtype and casts the result to out's (CANN's op_api appends a Cast): self is
      // widened as it is, and a 16-bit self's result rounded to it before the scatter
      // rounds it to out's.
      const DType via = forward && !cast_result ? out : DType::kUndefined;
      if (forward && cast_result && in != out && in != DType::kFloat32)
        s.round_result = kernels::GetToF32Via(DType::kFloat32, in);
      for (int k = 0; k < layout.num_operands; ++k)
        s.codecs[k] =
            MakeCodec(layout.operands[k].dtype, k < s.row_operands ? via : DType::kUndefined);
    } else {
      // An output too big to stay in the caches is written with non-temporal stores, by
      // the ARA block kernels only: the row kernels of AR plans end each row with a store
      // fence, which at 1024-element rows costs more than streaming saves (Zen 4,
      // [65536, 1024] dim -1, 1 thread: f32 0.40 ns per element streamed, 0.33 cached;
      // bf16 0.49, 0.41).
      s.stream = plan->reduction.a0 != 1 &&
                 kernels::ChooseStoreMode(static_cast<uint64_t>(layout.numel) * DTypeSize(out),
                                          plan->stream_min_bytes) == kernels::StoreMode::kStream;
    }
    s.out_slot = s.row_operands;
  }
  s.direct = !gathered;
  if (gathered) in = out = s.lane_bytes == sizeof(double) ? DType::kFloat64 : DType::kFloat32;
  s.fns = kernels::GetRowFns(op, in, out,
                             s.stream ? kernels::StoreMode::kStream : kernels::StoreMode::kCached);
  s.row_len = plan->reduction.r;
  return MakeRowsExecutor(op, std::move(plan), std::move(s), workspace_size, executor);
}

// The normalisations' front half: the rows of [rows, cols], read in place where every row
// operand and result is dense FLOAT, a row at a time in f32 otherwise; the per-column and
// per-row operands, the statistics and the column sums beside them.
Status PrepareNormRows(Op op, const NormRowsOperands& o, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const DType dtype = o.rows_in[0].view->dtype;
  RowsSetup s;
  s.beside_rows = std::make_unique<BesideRows>();
  BesideRows& parts = *s.beside_rows;
  for (int k = 0; k < 2; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.stats[k], &parts.stats[k]));
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.col_sums[k], &parts.col_sums[k]));
  }
  // A per-column operand's length: cols, or one value per channel of every group.
  s.col_len = o.channel_len > 0 ? o.groups * (o.cols / o.channel_len) : o.cols;
  if (o.cols == 0 || o.rows == 0) {
    return MakeEmptyRowsExecutor(op, dtype, parts, o.rows, o.cols, s.col_len, workspace_size,
                                 executor);
  }
  s.fns = kernels::GetRowFns(op, DType::kFloat32, DType::kFloat32);
  const bool sums = parts.col_sums[0].given || parts.col_sums[1].given;
  if (s.fns.row == nullptr || (sums && s.fns.columns == nullptr)) {
    return Status::Inner(std::string(GetOpInfo(op).name) + ": no row function");
  }
  for (int k = 0; k < kernels::kNormColumnOperands; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.cols_in[k], &parts.cols[k]));
  }
  for (int k = 0; k < 2; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.row_in[k], &parts.row_in[k]));
  }
  // GroupNorm's rows are (sample, group): planned over [N, C, spatial] in its groups.
  tiling::Problem problem{op,
                          o.plan_dtype == DType::kUndefined ? dtype : o.plan_dtype,
                          {o.rows, o.cols},
                          1,
                          launch::TeamSize()};
  if (o.channel_len > 0) {
    problem.shape = {o.rows / o.groups, o.groups * (o.cols / o.channel_len), o.channel_len};
    problem.group = o.groups;
  }
  problem.norm = o.norm_inputs;
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  // The row operands, then the results where they are wanted.
  if (o.y2.view != nullptr && o.y.view == nullptr) {
    return Status::Inner(std::string(GetOpInfo(op).name) + ": a second result without y");
  }
  // The row operands given, first to last (none after one that is not).
  int row_operands = 0;
  while (row_operands < kernels::kNormRowOperands && o.rows_in[row_operands].view != nullptr) {
    ++row_operands;
  }
  for (int k = row_operands; k < kernels::kNormRowOperands; ++k) {
    if (o.rows_in[k].view != nullptr) {
      return Status::Inner(std::string(GetOpInfo(op).name) + ": a row operand after a missing one");
    }
  }
  const Operand* arrays[kRowArrays];
  for (int k = 0; k < kernels::kNormRowOperands; ++k) arrays[k] = &o.rows_in[k];
  arrays[kernels::kNormRowOperands] = &o.y;
  arrays[kernels::kNormRowOperands + 1] = &o.y2;
  HOSTNN_RETURN_IF_ERROR(FuseGiven(op, o.rows_in[0].view->shape, arrays, kRowArrays, &s.layout));
  s.row_operands = row_operands;
  s.results = o.y.view != nullptr ? (o.y2.view != nullptr ? 2 : 1) : 0;
  s.direct = SetCodecs(&s) && s.layout.dense;
  s.row_len = o.cols;
  s.rows = o.rows;
  s.channel_len = o.channel_len;
  s.groups = o.groups;
  s.eps = EpsOf(s.fns, op, o);
  return MakeRowsExecutor(op, std::move(plan), std::move(s), workspace_size, executor);
}

// The per-channel normalisations' front half: the segments of x [N, C, S...] (x; or dy and x),
// read in place where every one and the result are dense FLOAT, a segment at a time in f32
// otherwise; the per-channel operands beside them; whether step 1 takes the sums.
Status PrepareChannelStats(Op op, const ChannelStatsOperands& o, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor) {
  RowsSetup s;
  s.beside_channels = std::make_unique<BesideChannels>();
  BesideChannels& parts = *s.beside_channels;
  const Operand* in_ops[kernels::kChannelIns];
  in_ops[kernels::kChannelWeight] = &o.weight;
  in_ops[kernels::kChannelBias] = &o.bias;
  in_ops[kernels::kChannelMean] = &o.mean;
  in_ops[kernels::kChannelVar] = &o.var;
  for (int k = 0; k < kernels::kChannelIns; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, *in_ops[k], &parts.ins[k]));
  }
  const Operand* out_ops[kernels::kChannelOuts];
  out_ops[kernels::kChannelSaveMean] = &o.save_mean;
  out_ops[kernels::kChannelSaveVar] = &o.save_var;
  out_ops[kernels::kChannelRunningMean] = &o.running_mean;
  out_ops[kernels::kChannelRunningVar] = &o.running_var;
  out_ops[kernels::kChannelGradWeight] = &o.grad_weight;
  out_ops[kernels::kChannelGradBias] = &o.grad_bias;
  for (int k = 0; k < kernels::kChannelOuts; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, *out_ops[k], &parts.outs[k]));
  }
  const DType dtype = o.x.view->dtype;
  // Planned over x's own shape, [N, C, spatial...]: the planner makes the N * C segments.
  const tiling::Problem problem{op, dtype, o.x.view->shape, 1, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  // The row operands as fused: x (the forward's) or dy and x, then y where wanted.
  HOSTNN_RETURN_IF_ERROR(FuseGiven(op, o.x.view->shape, {&o.dy, &o.x, &o.y}, &s.layout));
  const bool gradient = o.dy.view != nullptr;
  s.row_operands = gradient ? 2 : 1;
  s.results = o.y.view != nullptr ? 1 : 0;
  s.direct = SetCodecs(&s) && s.layout.dense;
  s.fns = kernels::GetChannelRowFns(op, o.training);
  if (s.fns.row == nullptr) {
    return Status::Inner(std::string(GetOpInfo(op).name) + ": no row function");
  }
  s.row_len = o.s;
  s.channels = o.c;
  s.samples = o.n;
  s.momentum = o.momentum;
  s.eps = o.eps;
  // The sums step 1 takes: the forward's in training; the gradient's where a column sum is
  // asked for, or gradInput in training.
  const bool sums_wanted = o.grad_weight.view != nullptr || o.grad_bias.view != nullptr;
  s.sums_taken = gradient ? (sums_wanted || (s.results > 0 && o.training)) : o.training;
  return MakeRowsExecutor(op, std::move(plan), std::move(s), workspace_size, executor);
}

Status PrepareChannelStatsEmpty(Op op, const ChannelStatsOperands& o, uint64_t* workspace_size,
                                ExecutorPtr* executor) {
  OwnOperand mean, var;
  HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.save_mean, &mean));
  HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.save_var, &var));
  // The span's element count: 0 for any shape with a zero extent (whose other extents a
  // product may not hold).
  const auto len = [](const Operand& v) { return v.view == nullptr ? int64_t{0} : v.span->numel; };
  return MakeEmptyChannelsExecutor(op, mean, len(o.save_mean), var, len(o.save_var), workspace_size,
                                   executor);
}

}  // namespace exec
}  // namespace hostnn
