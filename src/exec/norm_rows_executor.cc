// The normalisations' executor: the rows of [rows, cols] on the reduction plan's cores. A row
// of each row operand is gathered to f32 (or read in place when every row operand and result
// is dense FLOAT), computed by the operator's row function with its per-column and per-row
// inputs (gathered to f32 once per run), and scattered to the results; its statistics
// land in the workspace and are written to their outputs, in their dtypes, once every core
// is done. A forward norm walks the plan's AR units. A gradient with column sums walks fixed
// blocks of kNormSumRows rows instead, a core's blocks contiguous: each block's column terms
// go to the block's own slots, and Run adds the slots in block order once every core is done.

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
#include "src/exec/own_operand.h"
#include "src/exec/plan_rows.h"

namespace hostnn {
namespace exec {
namespace {

// A normalisation's eps, as its row function takes it (an f32 attribute, read by its
// params struct); 0 for one without.
float EpsOf(const kernels::NormFns& fns, Op op, const NormRowsOperands& o) {
  if (fns.eps == nullptr) return 0.0f;
  return fns.eps(kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact)));
}

struct Parts {
  OwnOperand cols[kernels::kNormColumnOperands], row_in[2], stats[2], col_sums[2];
};
// The row operands and results a layout fuses: every row operand, y and y2.
constexpr int kRowArrays = kernels::kNormRowOperands + 2;

class NormRowsExecutor final : public Executor {
 public:
  NormRowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const NormRowsOperands& o,
                   int row_operands, const core::FusedLayout& layout, const Parts& parts)
      : Executor(op, std::move(plan)),
        layout_(layout),
        parts_(parts),
        row_operands_(row_operands),
        rows_(o.rows),
        cols_(o.cols),
        channel_len_(o.channel_len),
        groups_(o.groups),
        // A per-column operand's length: cols, or one value per channel of every group.
        col_len_(o.channel_len > 0 ? o.groups * (o.cols / o.channel_len) : o.cols),
        fns_(kernels::GetNorm(op)) {
    eps_ = EpsOf(fns_, op, o);
    has_y_ = o.y.view != nullptr;
    results_ = has_y_ ? (o.y2.view != nullptr ? 2 : 1) : 0;
    bool all_f32 = true;
    const Operand* results[2] = {&o.y, &o.y2};
    for (int k = 0; k < row_operands_ + results_; ++k) {
      const DType dtype =
          k < row_operands_ ? o.rows_in[k].view->dtype : results[k - row_operands_]->view->dtype;
      codecs_[k] = MakeCodec(dtype);
      dtypes_[k] = dtype;
      all_f32 = all_f32 && dtype == DType::kFloat32;
    }
    direct_ = layout.dense && all_f32;
    target_ = kernels::ChosenTargetName();
    for (int k = 0; k < 2; ++k) {
      if (parts.col_sums[k].given) sum_slot_[k] = num_sums_++;
    }
    blocks_ = (rows_ + kNormSumRows - 1) / kNormSumRows;
    // The per-column operands, the per-row inputs and statistics (f32), the column sums'
    // slots (col_len doubles per block and sum: cols, or one per channel of every group),
    // Run's f32 scratch of the sums, and each core's row of every row operand and result.
    const uint64_t col_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(cols_));
    const uint64_t col_in_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(col_len_));
    const uint64_t row_bytes = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(rows_));
    uint64_t at = 0;
    for (int k = 0; k < kernels::kNormColumnOperands; ++k) cols_at_[k] = at, at += col_in_bytes;
    for (int k = 0; k < 2; ++k) row_in_at_[k] = at, at += row_bytes;
    for (int k = 0; k < 2; ++k) stats_at_[k] = at, at += row_bytes;
    slots_at_ = at;
    if (num_sums_ > 0) {
      at += AlignWorkspace(sizeof(double) * static_cast<uint64_t>(num_sums_) *
                           static_cast<uint64_t>(blocks_) * static_cast<uint64_t>(col_len_));
      at += col_in_bytes;  // the f32 scratch
    }
    cores_at_ = at;
    core_bytes_ = direct_ ? 0 : static_cast<uint64_t>(row_operands_ + 2) * col_bytes;
    workspace_bytes_ = cores_at_ + core_bytes_ * static_cast<uint64_t>(plan_->reduction.block_dim);
  }

  std::string KernelPath() const override {
    std::string path = DescribeKernelPath(target_, direct_, layout_.dense, dtypes_,
                                          row_operands_ + results_, false);
    path += std::string(", ") + GetOpInfo(op_).name + " rows (double statistics)";
    if (num_sums_ > 0) {
      path += ", column sums over blocks of " + std::to_string(kNormSumRows) + " rows";
    }
    return path;
  }

  void Run(char* workspace) const override {
    for (int k = 0; k < kernels::kNormColumnOperands; ++k) {
      if (parts_.cols[k].given) GatherOwn(parts_.cols[k], col_len_, F32(workspace, cols_at_[k]));
    }
    for (int k = 0; k < 2; ++k) {
      if (parts_.row_in[k].given) {
        GatherOwn(parts_.row_in[k], rows_, F32(workspace, row_in_at_[k]));
      }
    }
    launch::LaunchRunCore(plan_->reduction.block_dim, this, &NormRowsExecutor::RunCore, workspace);
    for (int k = 0; k < 2; ++k) {
      WriteOwn(parts_.stats[k], F32(workspace, stats_at_[k]), rows_);
    }
    if (num_sums_ > 0) FinishSums(workspace);
  }

 private:
  static float* F32(char* workspace, uint64_t at) {
    return reinterpret_cast<float*>(workspace + at);
  }
  // The slots of block `block` of the slot-th column sum given.
  double* Slots(char* workspace, int slot, int64_t block) const {
    return reinterpret_cast<double*>(workspace + slots_at_) + (slot * blocks_ + block) * col_len_;
  }

  // The column sums: per column, the blocks' partial sums added in block order, rounded once.
  void FinishSums(char* workspace) const {
    float* out32 = F32(
        workspace, slots_at_ + AlignWorkspace(sizeof(double) * static_cast<uint64_t>(num_sums_) *
                                              static_cast<uint64_t>(blocks_) *
                                              static_cast<uint64_t>(col_len_)));
    for (int k = 0; k < 2; ++k) {
      if (sum_slot_[k] < 0) continue;
      for (int64_t c = 0; c < col_len_; ++c) {
        double total = 0.0;
        for (int64_t b = 0; b < blocks_; ++b) total += Slots(workspace, sum_slot_[k], b)[c];
        out32[c] = static_cast<float>(total);
      }
      WriteOwn(parts_.col_sums[k], out32, col_len_);
    }
  }

  // One row: gathered (or read in place), its column terms added, computed and scattered
  // (where the result is wanted: a gradient's dx may be masked out).
  // What every row of a run shares: the length, eps, the per-column operands.
  kernels::NormRow RowTemplate(char* workspace) const {
    kernels::NormRow r;
    r.n = static_cast<size_t>(cols_);
    r.channel_len = static_cast<size_t>(channel_len_);
    r.eps = eps_;
    for (int k = 0; k < kernels::kNormColumnOperands; ++k) {
      r.cols[k] = parts_.cols[k].given ? F32(workspace, cols_at_[k]) : nullptr;
    }
    return r;
  }

  void RunRow(int64_t row, const kernels::NormRow& shared, char* workspace, float* core_rows,
              double* const* sums) const {
    kernels::NormRow r = shared;
    for (int k = 0; k < 2; ++k) {
      if (parts_.row_in[k].given) r.row_in[k] = F32(workspace, row_in_at_[k])[row];
      r.stats[k] = F32(workspace, stats_at_[k]) + row;
    }
    // Channel-held columns: this row's group of channels.
    for (int k = 0; k < kernels::kNormColumnOperands && channel_len_ > 0; ++k) {
      if (r.cols[k] != nullptr) r.cols[k] += (row % groups_) * (cols_ / channel_len_);
    }
    const int64_t s = row * cols_;
    float* outs[2] = {};
    if (direct_) {
      for (int k = 0; k < row_operands_; ++k) {
        r.in[k] = reinterpret_cast<const float*>(layout_.operands[k].first) + s;
      }
      for (int k = 0; k < results_; ++k) {
        outs[k] = reinterpret_cast<float*>(layout_.operands[row_operands_ + k].first) + s;
      }
    } else {  // a dense row is one conversion call (GatherF32's dense case), else a walk
      for (int k = 0; k < row_operands_; ++k) {
        float* buffer = core_rows + k * cols_;
        GatherF32(layout_, layout_.operands[k], codecs_[k], s, cols_, buffer);
        r.in[k] = buffer;
      }
      for (int k = 0; k < results_; ++k) outs[k] = core_rows + (row_operands_ + k) * cols_;
    }
    r.out = outs[0];
    r.out2 = outs[1];
    // The column terms read the row's inputs before the result may overwrite them (in place);
    // channel-held sums from this row's group of channels.
    if (sums != nullptr) {
      const int64_t at = channel_len_ > 0 ? (row % groups_) * (cols_ / channel_len_) : 0;
      double* const row_sums[2] = {sums[0] != nullptr ? sums[0] + at : nullptr,
                                   sums[1] != nullptr ? sums[1] + at : nullptr};
      if (has_y_ && fns_.row_sums) {  // in the row's output pass
        r.sums[0] = row_sums[0];
        r.sums[1] = row_sums[1];
      } else {
        fns_.columns(r, row_sums);
      }
    }
    if (!has_y_) return;
    fns_.row(r);
    if (!direct_) {
      for (int k = 0; k < results_; ++k) {
        const int at = row_operands_ + k;
        ScatterF32(layout_, layout_.operands[at], codecs_[at], s, cols_, outs[k]);
      }
    }
  }

  void RunCore(int64_t core, char* workspace) const {
    const tiling::ReductionPlan& p = plan_->reduction;
    float* core_rows = F32(workspace, cores_at_ + static_cast<uint64_t>(core) * core_bytes_);
    const kernels::NormRow shared = RowTemplate(workspace);
    if (num_sums_ > 0) {
      // Whole blocks, a core's contiguous: block b of sum k has its own slots.
      const int64_t cores = p.block_dim;
      const int64_t first = blocks_ * core / cores, last = blocks_ * (core + 1) / cores;
      for (int64_t b = first; b < last; ++b) {
        double* sums[2] = {};
        for (int k = 0; k < 2; ++k) {
          if (sum_slot_[k] < 0) continue;
          sums[k] = Slots(workspace, sum_slot_[k], b);
          std::fill(sums[k], sums[k] + col_len_, 0.0);
        }
        const int64_t end = std::min(rows_, (b + 1) * kNormSumRows);
        for (int64_t row = b * kNormSumRows; row < end; ++row) {
          RunRow(row, shared, workspace, core_rows, sums);
        }
      }
      return;
    }
    ForEachPlannedRow(p, core,
                      [&](int64_t row) { RunRow(row, shared, workspace, core_rows, nullptr); });
  }

  core::FusedLayout layout_;  // the row operands, then the results, over x's shape
  Parts parts_;
  int row_operands_;
  int64_t rows_, cols_;
  int64_t channel_len_, groups_, col_len_;
  float eps_ = 0.0f;
  kernels::NormFns fns_;
  bool direct_ = false, has_y_ = true;
  int results_ = 0;  // y, then y2: 0 to 2
  OperandCodec codecs_[kRowArrays];
  const char* target_ = "";
  DType dtypes_[kRowArrays] = {};
  int num_sums_ = 0;
  int sum_slot_[2] = {-1, -1};  // each column sum's slots, -1 where it is not wanted
  int64_t blocks_ = 0;
  uint64_t cols_at_[kernels::kNormColumnOperands] = {}, row_in_at_[2] = {}, stats_at_[2] = {},
           slots_at_ = 0, cores_at_ = 0;
  uint64_t core_bytes_ = 0;
};

// An empty problem: rows of no element (cols == 0, LayerNorm's only) write 0 to every mean
// (stats[0]) and NaN to every rstd (stats[1]), as CANN fills them; no row (rows == 0, a
// gradient's) writes 0 to every column sum (sum_len elements: cols, or one per channel), as
// CANN's op_api fills them.
class EmptyRowsExecutor final : public Executor {
 public:
  EmptyRowsExecutor(Op op, const char* dtype, const Parts& parts, int64_t rows, int64_t cols,
                    int64_t sum_len)
      : Executor(op, EmptyPlan(op, dtype)),
        parts_(parts),
        rows_(rows),
        cols_(cols),
        sum_len_(sum_len) {
    workspace_bytes_ =
        AlignWorkspace(sizeof(float) * static_cast<uint64_t>(std::max(rows, sum_len)));
  }
  std::string KernelPath() const override { return "empty rows: statistics filled"; }
  void Run(char* workspace) const override {
    float* values = reinterpret_cast<float*>(workspace);
    if (cols_ == 0) {
      std::fill(values, values + rows_, 0.0f);
      WriteOwn(parts_.stats[0], values, rows_);
      std::fill(values, values + rows_, std::numeric_limits<float>::quiet_NaN());
      WriteOwn(parts_.stats[1], values, rows_);
      return;
    }
    std::fill(values, values + sum_len_, 0.0f);
    for (int k = 0; k < 2; ++k) WriteOwn(parts_.col_sums[k], values, sum_len_);
  }
  bool runs_nothing() const override {
    if (cols_ == 0) return !parts_.stats[0].given && !parts_.stats[1].given;
    return !parts_.col_sums[0].given && !parts_.col_sums[1].given;
  }

 private:
  static std::shared_ptr<const tiling::Plan> EmptyPlan(Op op, const char* dtype) {
    auto plan = std::make_shared<tiling::Plan>();
    plan->op = GetOpInfo(op).snake_name;
    plan->dtype = dtype;
    plan->kind = tiling::Plan::Kind::kReduction;
    return plan;
  }
  Parts parts_;
  int64_t rows_, cols_, sum_len_;
};

}  // namespace

Status PrepareNormRows(Op op, const NormRowsOperands& o, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const DType dtype = o.rows_in[0].view->dtype;
  Parts parts;
  for (int k = 0; k < 2; ++k) {
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.stats[k], &parts.stats[k]));
    HOSTNN_RETURN_IF_ERROR(MakeOwn(op, o.col_sums[k], &parts.col_sums[k]));
  }
  if (o.cols == 0 || o.rows == 0) {
    const int64_t sum_len = o.channel_len > 0 ? o.groups * (o.cols / o.channel_len) : o.cols;
    auto* exec = new EmptyRowsExecutor(op, DTypeName(dtype), parts, o.rows, o.cols, sum_len);
    *workspace_size = exec->workspace_bytes();
    executor->reset(exec);
    return Status::Ok();
  }
  const kernels::NormFns fns = kernels::GetNorm(op);
  const bool sums = parts.col_sums[0].given || parts.col_sums[1].given;
  if (fns.row == nullptr || (sums && fns.columns == nullptr)) {
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
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseGiven(op, o.rows_in[0].view->shape, arrays, kRowArrays, &layout));
  auto* exec = new NormRowsExecutor(op, std::move(plan), o, row_operands, layout, parts);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
