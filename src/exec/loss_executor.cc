// The PointLoss kind's executor (see the header): three ways through the same operands.
// Each core gathers its elements of every given input (broadcast, strided, any compute
// dtype) into f32 scratch, exactly widened, and runs the operator's kernels of
// kernels/loss_kernels.cc on them (an absent weight passed as null, read as 1): the terms scattered
// to out (rounded once to its dtype), or a segment's sum left in its slot for ColumnSums::Finish,
// or a block of columns' totals added row by row. Where every operand is contiguous and of one
// dtype, the terms and the segments' sums run the kernels of that dtype on the operands' own memory
// instead (the same bits).

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
  kTotal,    // one total (MseLoss's, BinaryCrossEntropyWithLogits's mean, sum)
  kColumns,  // a total per column over dim 0 (MseLossOut's mean, sum)
  kFill,     // an empty input's mean (NaN) or sum (0), written to out's one element
};

class LossExecutor final : public Executor {
 public:
  struct Setup {
    LossMode mode = LossMode::kTerms;
    core::FusedLayout layout;       // the given inputs over the broadcast shape (kTerms: out last)
    core::FusedLayout out_layout;   // out over its own shape (kTotal, kColumns, kFill)
    int num_in = 2;                 // the list's inputs, given or not
    int slot[kMaxLossInputs] = {};  // input k's operand in layout, -1 where absent
    int num_given = 2;              // the layout's input operands
    DType in_dtypes[kMaxLossInputs] = {};
    DType out_dtype = DType::kFloat32;
    bool grad = false;           // a gradient: in[0] is the forward's gradient
    bool f32_terms = false;      // MseLossBackward's terms in f32, in CANN's order
    double scale = 1.0;          // a gradient's factor (MseLossBackward's CANN f32 cof)
    double divisor = 1.0;        // a mean's count (kTotal, kColumns)
    int64_t rows = 1, cols = 1;  // kColumns: [rows, cols] over the broadcast shape
    double fill = 0.0;           // kFill's value
  };

  LossExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const Setup& s)
      : Executor(op, std::move(plan)),
        s_(s),
        sums_(plan_->channel_sums, s.out_layout, s.out_dtype, true),
        kernels_(kernels::GetPointLossKernels(op, DType::kFloat32)),
        target_(kernels::ChosenTargetName()) {
    for (int k = 0; k < s_.num_in; ++k) {
      if (s_.slot[k] >= 0) codecs_[k] = MakeCodec(s_.in_dtypes[k]);
    }
    out_codec_ = MakeCodec(s_.out_dtype);
    // Contiguous operands of one dtype (out's too, for the terms) run the kernel of that
    // dtype on their memory.
    const DType common = s_.in_dtypes[1];
    direct_ = (s_.mode == LossMode::kTerms || s_.mode == LossMode::kTotal) && s_.layout.dense &&
              (s_.mode != LossMode::kTerms || s_.out_dtype == common);
    for (int k = 0; k < s_.num_in; ++k) {
      direct_ = direct_ && (s_.slot[k] < 0 || s_.in_dtypes[k] == common);
    }
    if (direct_) direct_kernels_ = kernels::GetPointLossKernels(op, common);
    const tiling::ElementwisePlan& e = plan_->elementwise;
    switch (s_.mode) {
      case LossMode::kTerms:
        core_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(e.tile_len) *
                                     static_cast<uint64_t>(s_.num_given + 1));
        workspace_bytes_ = core_bytes_ * static_cast<uint64_t>(e.block_dim);
        break;
      case LossMode::kTotal:
        core_bytes_ = AlignWorkspace(static_cast<uint64_t>(s_.num_given) * sizeof(float) *
                                     static_cast<uint64_t>(tiling::kChannelSumSegment));
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
           (s_.mode == LossMode::kTerms && s_.f32_terms ? " in f32" : " in double") +
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
  // The terms of the core's tiles: every given input gathered, the kernel, out scattered;
  // or, where every operand is contiguous and of one dtype, that dtype's kernel on them.
  void RunTerms(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& e = plan_->elementwise;
    const void* in[kMaxLossInputs] = {};
    if (direct_) {
      for (int64_t t = 0; t < e.CoreTiles(core); ++t) {
        const int64_t start = e.TileBegin(core, t);
        for (int k = 0; k < s_.num_in; ++k) in[k] = At(k, start);
        direct_kernels_.terms(in, s_.scale, OutAt(start), static_cast<size_t>(e.TileLen(core, t)));
      }
      return;
    }
    float* scratch =
        reinterpret_cast<float*>(workspace + static_cast<uint64_t>(core) * core_bytes_);
    float* out = scratch + static_cast<int64_t>(s_.num_given) * e.tile_len;
    for (int64_t t = 0; t < e.CoreTiles(core); ++t) {
      const int64_t start = e.TileBegin(core, t), len = e.TileLen(core, t);
      GatherGiven(start, len, scratch, e.tile_len, in);
      kernels_.terms(in, s_.scale, out, static_cast<size_t>(len));
      ScatterF32(s_.layout, s_.layout.operands[s_.num_given], out_codec_, start, len, out);
    }
  }

  // Each of the core's segments summed whole into its slot.
  void RunSegments(int64_t core, char* workspace) const {
    const tiling::ChannelSumsPlan& units = sums_.units();
    double* slots = reinterpret_cast<double*>(workspace);
    float* scratch = reinterpret_cast<float*>(workspace + sums_.slots_bytes() +
                                              static_cast<uint64_t>(core) * core_bytes_);
    const void* gathered[kMaxLossInputs] = {};
    const void* in[kMaxLossInputs] = {};
    for (int64_t u = units.UnitBegin(core); u < units.UnitEnd(core); ++u) {
      int64_t row, offset, len;
      units.Unit(u, &row, &offset, &len);
      const int64_t start = row * units.row_len + offset;
      if (direct_) {
        sums_.ForEachSegment(start, len, [&](int64_t s, int64_t n, int64_t slot, int64_t) {
          for (int k = 0; k < s_.num_in; ++k) in[k] = At(k, start + s);
          slots[slot] = direct_kernels_.sum(in, static_cast<size_t>(n));
        });
        continue;
      }
      GatherGiven(start, len, scratch, tiling::kChannelSumSegment, gathered);
      sums_.ForEachSegment(start, len, [&](int64_t s, int64_t n, int64_t slot, int64_t) {
        for (int k = 0; k < s_.num_in; ++k) {
          in[k] = gathered[k] == nullptr ? nullptr : static_cast<const float*>(gathered[k]) + s;
        }
        slots[slot] = kernels_.sum(in, static_cast<size_t>(n));
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

  // Every given input's elements [start, start + len) gathered into f32 scratch (input k's at
  // slot[k] * stride), in[k] pointing there; an absent input's in[k] stays null.
  void GatherGiven(int64_t start, int64_t len, float* scratch, int64_t stride,
                   const void** in) const {
    const core::FusedLayout& l = s_.layout;
    for (int k = 0; k < s_.num_in; ++k) {
      if (s_.slot[k] < 0) continue;
      float* buf = scratch + s_.slot[k] * stride;
      GatherF32(l, l.operands[s_.slot[k]], codecs_[k], start, len, buf);
      in[k] = buf;
    }
  }

  // Element i of contiguous input k (the direct path); null where it is absent.
  const char* At(int k, int64_t i) const {
    if (s_.slot[k] < 0) return nullptr;
    const core::FusedOperand& o = s_.layout.operands[s_.slot[k]];
    return o.first + i * static_cast<int64_t>(DTypeSize(o.dtype));
  }
  // Element i of out, the terms' last operand (the direct path).
  char* OutAt(int64_t i) const {
    const core::FusedOperand& o = s_.layout.operands[s_.num_given];
    return o.first + i * static_cast<int64_t>(DTypeSize(o.dtype));
  }

  Setup s_;
  ColumnSums sums_;                           // kTotal: the segments' slots and their combine
  kernels::PointLossKernels kernels_;         // over gathered f32 tiles
  kernels::PointLossKernels direct_kernels_;  // over the operands' own memory (direct_)
  const char* target_;
  OperandCodec codecs_[kMaxLossInputs], out_codec_;
  uint64_t core_bytes_ = 0, totals_at_ = 0;
  bool direct_ = false;  // contiguous operands of one dtype: no gather, no scatter
};

}  // namespace

Status PrepareLoss(Op op, const LossOperands& o, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor) {
  static_assert(kMaxLossInputs == kernels::kMaxLossInputs, "one count of a loss's inputs");
  const OpInfo& info = GetOpInfo(op);
  const int64_t reduction = kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact))
                                .As<kernels::LossParams>()
                                .reduction;
  const bool grad = !info.is_forward;  // a loss's gradient (Signature GradLoss, GradWeightedLoss)
  LossExecutor::Setup s;
  s.num_in = o.num_in;
  s.grad = grad;
  s.f32_terms = op == Op::kMseLossBackward;
  s.out_dtype = o.out.view->dtype;
  s.num_given = 0;
  for (int k = 0; k < o.num_in; ++k) {
    s.slot[k] = o.in[k].view != nullptr ? s.num_given++ : -1;
    if (o.in[k].view != nullptr) s.in_dtypes[k] = o.in[k].view->dtype;
  }
  const int64_t numel = core::CheckedNumel(o.shape);
  bool empty = numel == 0;
  for (int k = 0; k < o.num_in; ++k) {
    empty = empty || (o.in[k].view != nullptr && o.in[k].span->numel == 0);
  }
  // The widest input names the plan's dtype (the bytes a tile moves).
  DType plan_dtype = o.in[1].view->dtype;
  for (int k = 0; k < o.num_in; ++k) {
    if (o.in[k].view != nullptr && DTypeSize(o.in[k].view->dtype) > DTypeSize(plan_dtype)) {
      plan_dtype = o.in[k].view->dtype;
    }
  }
  if (grad || reduction == 0) {
    s.mode = LossMode::kTerms;
  } else if (op == Op::kMseLossOut && o.shape.size() >= 2 &&
             core::CheckedNumel(std::vector<int64_t>(o.shape.begin() + 1, o.shape.end())) > 1) {
    s.mode = LossMode::kColumns;
    s.rows = o.shape[0];
    s.cols = core::CheckedNumel(std::vector<int64_t>(o.shape.begin() + 1, o.shape.end()));
  } else {  // a forward's total, and MseLossOut's of one column (a 0-d or 1-D out of 1)
    s.mode = LossMode::kTotal;
  }
  // An empty input runs nothing (MseLossOut's op_api returns at once), but a total.
  if (empty && (s.mode != LossMode::kTotal || op == Op::kMseLossOut)) {
    return PrepareEmpty(op, plan_dtype, workspace_size, executor);
  }
  if (empty) {  // a mean of nothing is NaN, a sum 0 (CANN's op_api fills out)
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
    std::vector<int64_t> strides[kMaxLossInputs + 1];
    char* firsts[kMaxLossInputs + 1];
    DType dtypes[kMaxLossInputs + 1];
    int num = 0;
    for (int k = 0; k <= o.num_in; ++k) {
      const bool is_out = k == o.num_in;
      if (is_out && s.mode != LossMode::kTerms) break;
      const Operand& v = is_out ? o.out : o.in[k];
      if (v.view == nullptr) continue;
      firsts[num] = v.span->first;
      dtypes[num] = v.view->dtype;
      if (!core::BroadcastStrides(v.view->shape, v.span->strides, o.shape, &strides[num])) {
        return Status::Inner(std::string(info.name) + ": an operand does not broadcast to " +
                             core::ShapeString(o.shape));
      }
      ++num;
    }
    HOSTNN_RETURN_IF_ERROR(FuseOperands(op, o.shape, num, firsts, dtypes, strides, &s.layout));
  }
  if (s.mode != LossMode::kTerms) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.out, &s.out_layout));
  if (op == Op::kMseLossBackward) {
    // The mean divides by self's element count (CANN's MseLossGradV2 and PyTorch's), as its
    // tiling computes the factor: self's dims multiplied in f32, 1 / that * 2 in f32.
    float elements = 1.0f;
    for (const int64_t d : o.in[1].view->shape) elements *= static_cast<float>(d);
    s.scale = reduction == 1 ? 1.0f / elements * 2.0f : 2.0f;
  } else if (grad && reduction == 1) {  // the cross entropy's: 1 / numel(self), in double
    s.scale = 1.0 / static_cast<double>(core::CheckedNumel(o.in[1].view->shape));
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
