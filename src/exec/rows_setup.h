// What the row executor is made from (src/exec/rows_executor.cc): a Rows operator's rows,
// its row function over the lanes it computes in, and a normalisation's operands beside the
// rows (or a per-channel normalisation's beside its segments), as the front halves
// (src/exec/rows_prepare.cc: the softmax family's, the norms', BatchNorm's) set them from
// their operators' operands and dtype rules.
#ifndef HOSTNN_SRC_EXEC_ROWS_SETUP_H_
#define HOSTNN_SRC_EXEC_ROWS_SETUP_H_

#include <cstddef>
#include <cstdint>
#include <memory>

#include "kernels/kernels.h"
#include "kernels/row_fns.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/own_operand.h"

namespace hostnn {
namespace exec {

// The row operands and results a layout fuses: every row operand, then two results.
constexpr int kRowArrays = kernels::kNormRowOperands + 2;

// A normalisation's operands beyond its rows (none given for the softmax family).
struct BesideRows {
  OwnOperand cols[kernels::kNormColumnOperands], row_in[2], stats[2], col_sums[2];
};

// A per-channel normalisation's operands beside its segments (BatchNorm's), in
// kernels::ChannelArgs' orders: weight, bias, mean, var; save_mean, save_var, running_mean,
// running_var, grad_weight, grad_bias (not given where not the operator's or not wanted).
struct BesideChannels {
  OwnOperand ins[kernels::kChannelIns], outs[kernels::kChannelOuts];
};

// What a front half hands the executor: the rows, the row function over its lanes, and
// a normalisation's operands beside the rows.
struct RowsSetup {
  core::FusedLayout layout;  // the row operands, then the results, over the row shape
  int row_operands = 1;
  int results = 1;  // y, then y2: 0 (a gradient's dx masked out) to 2
  kernels::RowFns fns;
  size_t lane_bytes = sizeof(float);        // the lanes a gathered operand lands in
  bool direct = false;                      // every row operand and result read in place
  bool stream = false;                      // ARA blocks store their output non-temporally
  OperandCodec codecs[kRowArrays];          // each row operand's and result's, where gathered
  kernels::ToF32Fn round_result = nullptr;  // the result rounded to self's dtype, or null
  kernels::ToF32Fn narrow_f64 = nullptr;    // a double result rounded to out's, or null
  // The gathered result's scratch slot, where the whole tensor is gathered (after the
  // inputs; f64 lanes: in place).
  int out_slot = 1;
  int64_t row_len = 0;  // elements per row: the plan's R, a normalisation's cols, BatchNorm's S
  // A normalisation's: the per-row operands' and statistics' length (rows; 0: none), the
  // per-column operands' (cols, or one value per channel of every group; 0: none), the
  // channels (GroupNorm's: cols / channel_len per row, row r's being channel group r %
  // groups; 0: one value per column), eps. The operands beside the rows are held apart (null:
  // none, the softmax family's), so that its calls do not build and copy them.
  std::unique_ptr<BesideRows> beside_rows;
  int64_t rows = 0, col_len = 0, channel_len = 0, groups = 1;
  float eps = 0.0f;
  // A per-channel normalisation's (kernels::GetChannelRowFns): its rows are x's N * C
  // segments of row_len elements, segment r channel r % channels, in the three steps of
  // kernels/channel_row_fns.cc; its per-channel operands; whether step 1 takes the segments'
  // sums; its momentum (eps above). channels 0: not one.
  std::unique_ptr<BesideChannels> beside_channels;
  int64_t channels = 0, samples = 0;
  bool sums_taken = false;
  float momentum = 0.0f;
};

// The row executor over `setup` (consumed), its workspace size in *workspace_size.
Status MakeRowsExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, RowsSetup&& setup,
                        uint64_t* workspace_size, ExecutorPtr* executor);
// An empty normalisation's executor: rows of no element (cols == 0, LayerNorm's only) write 0
// to every mean (stats[0]) and NaN to every rstd (stats[1]), as CANN fills them; no row (rows
// == 0, a gradient's) writes 0 to every column sum (sum_len elements: cols, or one per
// channel), as CANN's op_api fills them. `dtype` names the plan.
Status MakeEmptyRowsExecutor(Op op, DType dtype, const BesideRows& parts, int64_t rows,
                             int64_t cols, int64_t sum_len, uint64_t* workspace_size,
                             ExecutorPtr* executor);
// An empty per-channel normalisation's (x empty, a forward's): save_mean (where given) filled
// with 0 and save_var with NaN, mean_len and var_len elements each, as CANN's op_api fills
// them; nothing else runs.
Status MakeEmptyChannelsExecutor(Op op, const OwnOperand& save_mean, int64_t mean_len,
                                 const OwnOperand& save_var, int64_t var_len,
                                 uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_ROWS_SETUP_H_
