// The PointLoss kind's executor (see the header): three ways through the same operands.
// Each core gathers its elements of every input (broadcast, strided, any compute dtype)
// into f32 scratch, exactly widened, and runs the kernels of kernels/loss_kernels.cc on
// them: the terms scattered to out (rounded once to its dtype), or a segment's sum left in
// its slot for ColumnSums::Finish, or a block of columns' totals added row by row. Where
// every operand is contiguous and of one dtype, the terms and the segments' sums run the
// kernels of that dtype on the operands' own memory instead (the same bits).

#include "src/exec/loss_executor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/check.h"
#include "src/core/layout.h"
#include "src/exec/column_sums.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

enum class LossMode {
  kTerms,    // every term written (reduction none; a gradient)
  kTotal,    // one total (MseLoss's mean, sum)
  kColumns,  // a total per column over dim 0 (MseLossOut's mean, sum)
  kFill,     // an empty input's mean (NaN) or sum (0), written to out's one element
};

class LossExecutor final : public Executor {
 public:
  struct Setup {
    LossMode mode = LossMode::kTerms;
    core::FusedLayout layout;      // the inputs over the broadcast shape (kTerms: out last)
    core::FusedLayout out_layout;  // out over its own shape (kTotal, kColumns, kFill)
    int num_in = 2;
    DType in_dtypes[3] = {};
    DType out_dtype = DType::kFloat32;
    bool grad = false;           // MseLossBackward: in[0] is the forward's gradient
    float cof = 2.0f;            // a gradient's factor (2, or CANN's f32 2 / numel(self))
    double divisor = 1.0;        // a mean's count (kTotal, kColumns)
    int64_t rows = 1, cols = 1;  // kColumns: [rows, cols] over the broadcast shape
    double fill = 0.0;           // kFill's value
  };

  LossExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const Setup& s)
      : Executor(op, std::move(plan)),
        s_(s),
        sums_(plan_->channel_sums, s.out_layout, s.out_dtype, true),
        kernels_(kernels::GetMseKernels(DType::kFloat32)),
        target_(kernels::ChosenTargetName()) {
    for (int k = 0; k < s_.num_in; ++k) codecs_[k] = MakeCodec(s_.in_dtypes[k]);
    out_codec_ = MakeCodec(s_.out_dtype);
    // Contiguous operands of one dtype (out's too, for the terms) run the kernel of that
    // dtype on their memory.
    const DType common = s_.in_dtypes[0];
    direct_ = (s_.mode == LossMode::kTerms || s_.mode == LossMode::kTotal) && s_.layout.dense &&
              (s_.mode != LossMode::kTerms || s_.out_dtype == common);
    for (int k = 1; k < s_.num_in; ++k) direct_ = direct_ && s_.in_dtypes[k] == common;
    if (direct_) direct_kernels_ = kernels::GetMseKernels(common);
    const tiling::ElementwisePlan& e = plan_->elementwise;
    switch (s_.mode) {
      case LossMode::kTerms:
        core_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(e.tile_len) *
                                     static_cast<uint64_t>(s_.num_in + 1));
        workspace_bytes_ = core_bytes_ * static_cast<uint64_t>(e.block_dim);
        break;
      case LossMode::kTotal:
        core_bytes_ =
            AlignWorkspace(2 * sizeof(float) * static_cast<uint64_t>(tiling::kChannelSumSegment));
        totals_at_ = sums_.slots_bytes() +
                     core_bytes_ * static_cast<uint64_t>(plan_->channel_sums.block_dim);
        workspace_bytes_ = totals_at_ + AlignWorkspace(sums_.totals_bytes()) + 64;
        break;
      case LossMode::kColumns:  // a, b and the result in f32, the totals in double
        core_bytes_ = AlignWorkspace((3 * sizeof(float) + sizeof(double)) *
                                     static_cast<uint64_t>(e.tile_len));
        workspace_bytes_ = core_bytes_ * static_cast<uint64_t>(e.block_dim);
        break;
      case LossMode::kFill:
        break;
    }
  }

  std::string KernelPath() const override {
    const char* what = s_.mode == LossMode::kTerms     ? (s_.grad ? "gradient terms" : "terms")
                       : s_.mode == LossMode::kTotal   ? "one total of fixed segments"
                       : s_.mode == LossMode::kColumns ? "column totals in row order"
                                                       : "an empty input's fill";
    return std::string(target_) + ", " + what +
           (s_.mode == LossMode::kTerms && s_.grad ? " in f32" : " in double") +
           (direct_           ? ", direct"
            : s_.layout.dense ? ", contiguous"
                              : ", gathered");
  }

  void Run(char* workspace) const override {
    switch (s_.mode) {
      case LossMode::kTerms:
        launch::LaunchRunCore(plan_->elementwise.block_dim, this, &LossExecutor::RunTerms,
                              workspace);
        break;
      case LossMode::kTotal: {
        launch::LaunchRunCore(plan_->channel_sums.block_dim, this, &LossExecutor::RunSegments,
                              workspace);
        float* out32 =
            reinterpret_cast<float*>(workspace + totals_at_ + AlignWorkspace(sums_.totals_bytes()));
        sums_.Finish(reinterpret_cast<const double*>(workspace),
                     reinterpret_cast<double*>(workspace + totals_at_), out32, s_.divisor);
        break;
      }
      case LossMode::kColumns:
        launch::LaunchRunCore(plan_->elementwise.block_dim, this, &LossExecutor::RunColumns,
                              workspace);
        break;
      case LossMode::kFill: {
        const float v = static_cast<float>(s_.fill);
        ScatterF32(s_.out_layout, s_.out_layout.operands[0], out_codec_, 0, 1, &v);
        break;
      }
    }
  }

 private:
  // The terms of the core's tiles: every input gathered, the kernel, out scattered; or,
  // where every operand is contiguous and of one dtype, that dtype's kernel on them.
  void RunTerms(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& e = plan_->elementwise;
    if (direct_) {
      for (int64_t t = 0; t < e.CoreTiles(core); ++t) {
        const int64_t start = e.TileBegin(core, t);
        const size_t n = static_cast<size_t>(e.TileLen(core, t));
        if (s_.grad) {
          direct_kernels_.grad(At(0, start), At(1, start), At(2, start), s_.cof, At(3, start), n);
        } else {
          direct_kernels_.terms(At(0, start), At(1, start), At(2, start), n);
        }
      }
      return;
    }
    float* buf[4];
    buf[0] = reinterpret_cast<float*>(workspace + static_cast<uint64_t>(core) * core_bytes_);
    for (int k = 1; k <= s_.num_in; ++k) buf[k] = buf[k - 1] + e.tile_len;
    float* out = buf[s_.num_in];
    const core::FusedLayout& l = s_.layout;
    for (int64_t t = 0; t < e.CoreTiles(core); ++t) {
      const int64_t start = e.TileBegin(core, t), len = e.TileLen(core, t);
      for (int k = 0; k < s_.num_in; ++k) {
        GatherF32(l, l.operands[k], codecs_[k], start, len, buf[k]);
      }
      const size_t n = static_cast<size_t>(len);
      if (s_.grad) {
        kernels_.grad(buf[0], buf[1], buf[2], s_.cof, out, n);
      } else {
        kernels_.terms(buf[0], buf[1], out, n);
      }
      ScatterF32(l, l.operands[s_.num_in], out_codec_, start, len, out);
    }
  }

  // Each of the core's segments summed whole into its slot.
  void RunSegments(int64_t core, char* workspace) const {
    const tiling::ChannelSumsPlan& units = sums_.units();
    double* slots = reinterpret_cast<double*>(workspace);
    float* a = reinterpret_cast<float*>(workspace + sums_.slots_bytes() +
                                        static_cast<uint64_t>(core) * core_bytes_);
    float* b = a + tiling::kChannelSumSegment;
    const core::FusedLayout& l = s_.layout;
    for (int64_t u = units.UnitBegin(core); u < units.UnitEnd(core); ++u) {
      int64_t row, offset, len;
      units.Unit(u, &row, &offset, &len);
      const int64_t start = row * units.row_len + offset;
      if (direct_) {
        sums_.ForEachSegment(start, len, [&](int64_t s, int64_t n, int64_t slot, int64_t) {
          slots[slot] =
              direct_kernels_.sum(At(0, start + s), At(1, start + s), static_cast<size_t>(n));
        });
        continue;
      }
      GatherF32(l, l.operands[0], codecs_[0], start, len, a);
      GatherF32(l, l.operands[1], codecs_[1], start, len, b);
      sums_.ForEachSegment(start, len, [&](int64_t s, int64_t n, int64_t slot, int64_t) {
        slots[slot] = kernels_.sum(a + s, b + s, static_cast<size_t>(n));
      });
    }
  }

  // The core's columns, a tile at a time: every row's terms added in row order, then the
  // totals divided (the mean) and rounded once to out's dtype.
  void RunColumns(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& e = plan_->elementwise;
    char* base = workspace + static_cast<uint64_t>(core) * core_bytes_;
    double* acc = reinterpret_cast<double*>(base);
    float* a = reinterpret_cast<float*>(acc + e.tile_len);
    float* b = a + e.tile_len;
    float* result = b + e.tile_len;
    const core::FusedLayout& l = s_.layout;
    for (int64_t t = 0; t < e.CoreTiles(core); ++t) {
      const int64_t c0 = e.TileBegin(core, t), len = e.TileLen(core, t);
      std::fill(acc, acc + len, 0.0);
      // A tile of every column gathers as many whole rows at once as the tile holds.
      const int64_t per_gather = len == s_.cols ? std::max<int64_t>(1, e.tile_len / len) : 1;
      for (int64_t r = 0; r < s_.rows; r += per_gather) {
        const int64_t rows = std::min(per_gather, s_.rows - r);
        const int64_t first = r * s_.cols + c0, count = per_gather == 1 ? len : rows * len;
        GatherF32(l, l.operands[0], codecs_[0], first, count, a);
        GatherF32(l, l.operands[1], codecs_[1], first, count, b);
        for (int64_t j = 0; j < rows; ++j) {
          kernels_.add_columns(a + j * len, b + j * len, acc, static_cast<size_t>(len));
        }
      }
      for (int64_t j = 0; j < len; ++j) {
        const double v = s_.divisor != 1.0 ? acc[j] / s_.divisor : acc[j];
        result[j] = RoundOnceTo(v, s_.out_dtype);
      }
      ScatterF32(s_.out_layout, s_.out_layout.operands[0], out_codec_, c0, len, result);
    }
  }

  // Element i of contiguous operand k (the direct path).
  char* At(int k, int64_t i) const {
    const core::FusedOperand& o = s_.layout.operands[k];
    return o.first + i * static_cast<int64_t>(DTypeSize(o.dtype));
  }

  Setup s_;
  ColumnSums sums_;                     // kTotal: the segments' slots and their combine
  kernels::MseKernels kernels_;         // over gathered f32 tiles
  kernels::MseKernels direct_kernels_;  // over the operands' own memory (direct_)
  const char* target_;
  OperandCodec codecs_[3], out_codec_;
  uint64_t core_bytes_ = 0, totals_at_ = 0;
  bool direct_ = false;  // contiguous operands of one dtype: no gather, no scatter
};

}  // namespace

Status PrepareLoss(Op op, const LossOperands& o, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(op);
  const int64_t reduction = kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact))
                                .As<kernels::LossParams>()
                                .reduction;
  const bool grad = info.signature == Signature::kGradLoss;
  LossExecutor::Setup s;
  s.num_in = o.num_in;
  s.grad = grad;
  s.out_dtype = o.out.view->dtype;
  for (int k = 0; k < o.num_in; ++k) s.in_dtypes[k] = o.in[k].view->dtype;
  const int64_t numel = core::CheckedNumel(o.shape);
  bool empty = numel == 0;
  for (int k = 0; k < o.num_in; ++k) empty = empty || o.in[k].span->numel == 0;
  // The widest input names the plan's dtype (the bytes a tile moves).
  DType plan_dtype = o.in[0].view->dtype;
  for (int k = 1; k < o.num_in; ++k) {
    if (DTypeSize(o.in[k].view->dtype) > DTypeSize(plan_dtype)) plan_dtype = o.in[k].view->dtype;
  }
  if (grad || reduction == 0) {
    s.mode = LossMode::kTerms;
  } else if (op == Op::kMseLossOut && o.shape.size() >= 2 &&
             core::CheckedNumel(std::vector<int64_t>(o.shape.begin() + 1, o.shape.end())) > 1) {
    s.mode = LossMode::kColumns;
    s.rows = o.shape[0];
    s.cols = core::CheckedNumel(std::vector<int64_t>(o.shape.begin() + 1, o.shape.end()));
  } else {  // MseLoss's total, and MseLossOut's of one column (a 0-d or 1-D out of 1)
    s.mode = LossMode::kTotal;
  }
  // An empty input runs nothing (MseLossOut's op_api returns at once), but MseLoss's total.
  if (empty && (s.mode != LossMode::kTotal || op == Op::kMseLossOut)) {
    return PrepareEmpty(op, plan_dtype, workspace_size, executor);
  }
  if (empty) {  // MseLoss's mean of nothing is NaN, its sum 0 (CANN's op_api fills out)
    s.mode = LossMode::kFill;
    s.fill = reduction == 1 ? std::numeric_limits<double>::quiet_NaN() : 0.0;
  }
  // The plan: the broadcast elements (the terms, the total's segments), or out's columns.
  std::vector<int64_t> plan_shape = o.shape;
  if (s.mode == LossMode::kColumns) plan_shape = {s.cols};
  if (s.mode == LossMode::kFill) plan_shape = {1};
  tiling::Problem problem{op, plan_dtype, plan_shape, 0, launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));

  if (s.mode != LossMode::kFill) {
    std::vector<int64_t> strides[4];
    char* firsts[4];
    DType dtypes[4];
    const int num = s.mode == LossMode::kTerms ? o.num_in + 1 : o.num_in;
    for (int k = 0; k < num; ++k) {
      const Operand& v = k < o.num_in ? o.in[k] : o.out;
      firsts[k] = v.span->first;
      dtypes[k] = v.view->dtype;
      if (!core::BroadcastStrides(v.view->shape, v.span->strides, o.shape, &strides[k])) {
        return Status::Inner(std::string(info.name) + ": an operand does not broadcast to " +
                             core::ShapeString(o.shape));
      }
    }
    HOSTNN_RETURN_IF_ERROR(FuseOperands(op, o.shape, num, firsts, dtypes, strides, &s.layout));
  }
  if (s.mode != LossMode::kTerms) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.out, &s.out_layout));
  if (grad && reduction == 1) {
    // The mean divides by self's element count (CANN's MseLossGradV2 and PyTorch's), as its
    // tiling computes the factor: self's dims multiplied in f32, 1 / that * 2 in f32.
    float elements = 1.0f;
    for (const int64_t d : o.in[1].view->shape) elements *= static_cast<float>(d);
    s.cof = 1.0f / elements * 2.0f;
  }
  if (reduction == 1) {
    s.divisor = static_cast<double>(s.mode == LossMode::kColumns ? s.rows : numel);
  }
  auto* exec = new LossExecutor(op, std::move(plan), s);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
