// The normalisations' executor: the AR units of the reduction plan of [rows, cols] (dim 1),
// one row per unit, on the plan's cores. A row of x is gathered to f32 (or read in place when
// x and y are dense FLOAT), normalised by the operator's row function with its per-column
// operands (gathered to f32 once per run), and scattered to y; its statistics land in the
// workspace and are written to their outputs, in their dtypes, once every core is done.

#include "src/exec/norm_rows_executor.h"

#include <algorithm>
#include <limits>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

// A normalisation's eps, as its kernel takes it (an f32 attribute).
float EpsOf(Op op, const NormRowsOperands& o) {
  const kernels::OpParams p = kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact));
  switch (op) {
    case Op::kLayerNorm:
      return p.As<kernels::LayerNormParams>().eps;
    case Op::kLayerNormWithImplMode:
      return p.As<kernels::LayerNormImplModeParams>().eps;
    default:
      return p.As<kernels::RmsNormParams>().eps;
  }
}

// An optional operand's layout and codec.
struct Optional {
  bool given = false;
  core::FusedLayout layout;
  OperandCodec codec;
};
Status MakeOptional(Op op, const Operand& o, Optional* out) {
  if (o.view == nullptr) return Status::Ok();
  out->given = true;
  out->codec = MakeCodec(o.view->dtype);
  return FuseOwn(op, o, &out->layout);
}

// Writes n values to an optional per-row output.
void WriteStats(const Optional& o, const float* values, int64_t n) {
  if (o.given) ScatterF32(o.layout, o.layout.operands[0], o.codec, 0, n, values);
}

class NormRowsExecutor final : public Executor {
 public:
  NormRowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const NormRowsOperands& o,
                   const core::FusedLayout& layout, const Optional (&cols)[2],
                   const Optional (&stats)[2])
      : Executor(op, std::move(plan)),
        layout_(layout),
        cols_in_{cols[0], cols[1]},
        stats_{stats[0], stats[1]},
        rows_(o.rows),
        cols_(o.cols),
        eps_(EpsOf(op, o)) {
    x_codec_ = MakeCodec(o.x.view->dtype);
    y_codec_ = MakeCodec(o.y.view->dtype);
    direct_ =
        layout.dense && o.x.view->dtype == DType::kFloat32 && o.y.view->dtype == DType::kFloat32;
    row_fn_ = kernels::GetNormRow(op);
    target_ = kernels::ChosenTargetName();
    dtypes_[0] = o.x.view->dtype;
    dtypes_[1] = o.y.view->dtype;
    // The per-column operands (f32), the statistics of every row (f32), each core's row of x
    // and y.
    const uint64_t col_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(cols_));
    const uint64_t row_stats = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(rows_));
    cols_at_[0] = 0;
    cols_at_[1] = col_bytes;
    stats_at_[0] = 2 * col_bytes;
    stats_at_[1] = stats_at_[0] + row_stats;
    cores_at_ = stats_at_[1] + row_stats;
    core_bytes_ = direct_ ? 0 : 2 * col_bytes;
    workspace_bytes_ = cores_at_ + core_bytes_ * static_cast<uint64_t>(plan_->reduction.block_dim);
  }

  std::string KernelPath() const override {
    return DescribeKernelPath(target_, direct_, dtypes_, 2, false) + ", " + GetOpInfo(op_).name +
           " rows (double statistics)";
  }

  void Run(char* workspace) const override {
    for (int k = 0; k < 2; ++k) {
      if (cols_in_[k].given) Gather(cols_in_[k], workspace + cols_at_[k]);
    }
    launch::LaunchRunCore(plan_->reduction.block_dim, this, &NormRowsExecutor::RunCore, workspace);
    for (int k = 0; k < 2; ++k) {
      WriteStats(stats_[k], reinterpret_cast<const float*>(workspace + stats_at_[k]), rows_);
    }
  }

 private:
  void Gather(const Optional& o, char* at) const {
    GatherF32(o.layout, o.layout.operands[0], o.codec, 0, cols_, reinterpret_cast<float*>(at));
  }

  void RunCore(int64_t core, char* workspace) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    const float* cols[2];
    for (int k = 0; k < 2; ++k) {
      cols[k] =
          cols_in_[k].given ? reinterpret_cast<const float*>(workspace + cols_at_[k]) : nullptr;
    }
    float* stat0 = reinterpret_cast<float*>(workspace + stats_at_[0]);
    float* stat1 = reinterpret_cast<float*>(workspace + stats_at_[1]);
    float* x = reinterpret_cast<float*>(workspace + cores_at_ + core * core_bytes_);
    float* y = x + cols_;
    const size_t n = static_cast<size_t>(cols_);
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    for (int64_t u = begin; u < end; ++u) {
      // An AR unit's rows are A1's; rows of one element (cols 1) are planned as one long A0
      // (nothing to reduce), whose units are ranges of it.
      const tiling::ReductionPlan::Unit unit = p.GetUnit(u);
      const bool ar = p.a0 == 1;
      const int64_t first = ar ? unit.a1_begin : unit.a0_begin;
      const int64_t count = ar ? unit.a1_len : unit.a0_len;
      for (int64_t row = first; row < first + count; ++row) {
        const int64_t s = row * cols_;
        if (direct_) {
          const float* xr = reinterpret_cast<const float*>(layout_.operands[0].first) + s;
          float* yr = reinterpret_cast<float*>(layout_.operands[1].first) + s;
          row_fn_(xr, cols, yr, n, eps_, stat0 + row, stat1 + row);
          continue;
        }
        GatherF32(layout_, layout_.operands[0], x_codec_, s, cols_, x);
        row_fn_(x, cols, y, n, eps_, stat0 + row, stat1 + row);
        ScatterF32(layout_, layout_.operands[1], y_codec_, s, cols_, y);
      }
    }
  }

  core::FusedLayout layout_;  // x, y over x's shape
  Optional cols_in_[2], stats_[2];
  int64_t rows_, cols_;
  float eps_;
  bool direct_ = false;
  OperandCodec x_codec_, y_codec_;
  kernels::NormRowFn row_fn_ = nullptr;
  const char* target_ = "";
  DType dtypes_[2] = {};
  uint64_t cols_at_[2] = {}, stats_at_[2] = {}, cores_at_ = 0;
  uint64_t core_bytes_ = 0;
};

// An empty row (cols == 0, LayerNorm's only): every mean (stats[0]) is 0 and every rstd
// (stats[1]) NaN, as CANN fills them.
class EmptyRowsExecutor final : public Executor {
 public:
  EmptyRowsExecutor(Op op, const char* dtype, Optional mean, Optional rstd, int64_t rows)
      : Executor(op, EmptyPlan(op, dtype)), mean_(mean), rstd_(rstd), rows_(rows) {
    workspace_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(rows));
  }
  std::string KernelPath() const override { return "empty rows: statistics filled"; }
  void Run(char* workspace) const override {
    float* values = reinterpret_cast<float*>(workspace);
    std::fill(values, values + rows_, 0.0f);
    WriteStats(mean_, values, rows_);
    std::fill(values, values + rows_, std::numeric_limits<float>::quiet_NaN());
    WriteStats(rstd_, values, rows_);
  }
  bool runs_nothing() const override { return !mean_.given && !rstd_.given; }

 private:
  static std::shared_ptr<const tiling::Plan> EmptyPlan(Op op, const char* dtype) {
    auto plan = std::make_shared<tiling::Plan>();
    plan->op = GetOpInfo(op).snake_name;
    plan->dtype = dtype;
    plan->kind = tiling::Plan::Kind::kReduction;
    return plan;
  }
  Optional mean_, rstd_;
  int64_t rows_;
};

}  // namespace

Status PrepareNormRows(Op op, const NormRowsOperands& o, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const DType dtype = o.x.view->dtype;
  Optional cols[2], stats[2];
  for (int k = 0; k < 2; ++k) HOSTNN_RETURN_IF_ERROR(MakeOptional(op, o.stats[k], &stats[k]));
  if (o.cols == 0) {
    auto* exec = new EmptyRowsExecutor(op, DTypeName(dtype), stats[0], stats[1], o.rows);
    *workspace_size = exec->workspace_bytes();
    executor->reset(exec);
    return Status::Ok();
  }
  if (kernels::GetNormRow(op) == nullptr) {
    return Status::Inner(std::string(GetOpInfo(op).name) + ": no row function");
  }
  for (int k = 0; k < 2; ++k) HOSTNN_RETURN_IF_ERROR(MakeOptional(op, o.cols_in[k], &cols[k]));
  const tiling::Problem problem{op, dtype, {o.rows, o.cols}, 1, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  char* firsts[2] = {o.x.span->first, o.y.span->first};
  const DType dtypes[2] = {dtype, o.y.view->dtype};
  const std::vector<int64_t> strides[2] = {o.x.span->strides, o.y.span->strides};
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, o.x.view->shape, 2, firsts, dtypes, strides, &layout));
  auto* exec = new NormRowsExecutor(op, std::move(plan), o, layout, cols, stats);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
