// The PointLoss kind's middle end (MseLoss, MseLossOut, MseLossBackward, the
// BinaryCrossEntropyWithLogits family): a loss whose terms are elementwise over its inputs
// broadcast to one shape, from checked operands (src/aclnn/loss_front_end.cc).
#ifndef HOSTNN_SRC_EXEC_LOSS_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_LOSS_EXECUTOR_H_

#include <cstdint>
#include <vector>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

// The most inputs a loss takes (a weighted loss's gradient: gradOutput, self, target,
// weightOptional, posWeightOptional).
constexpr int kMaxLossInputs = 5;

struct LossOperands {
  // In the list's order: a loss's self, target (and weights); its gradient's gradOutput
  // first. An absent optional input has a null view.
  Operand in[kMaxLossInputs];
  int num_in = 2;
  Operand out;
  std::vector<int64_t> shape;  // the inputs' broadcast shape
  // The scalar parameters in the list's order (the reduction: 0 none, 1 mean, 2 sum).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand (dtypes, the broadcast, out's shape for the
// reduction, storage, overlap) and the reduction. What runs:
// - the terms (reduction none, and every gradient): the elementwise plan of the broadcast
//   shape, each term in double from the widened inputs (an absent weight read as 1),
//   rounded once to out's dtype; a gradient's scale (MseLossBackward's 2, or 2 / numel(self)
//   for the mean, in f32 as CANN; the cross entropy's 1, or 1 / numel(self) for the mean);
// - one total (MseLoss's and BinaryCrossEntropyWithLogits's mean and sum): the plan's channel sums
// over the broadcast elements
//   (segments of tiling::kChannelSumSegment, each summed whole by one core in its fixed order,
//   the segments added in order), divided by the element count for the mean, rounded once;
//   an empty input writes NaN (mean) or 0 (sum), as CANN's op_api fills out;
// - per-column totals (MseLossOut's mean and sum, over dim 0): the elementwise plan of out's
//   columns, each core adding its columns' terms row by row in row order, in double.
// So the bits do not depend on the thread count, the plan or the SIMD target.
Status PrepareLoss(Op op, const LossOperands& operands, const tiling::Options& options,
                   uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_LOSS_EXECUTOR_H_
