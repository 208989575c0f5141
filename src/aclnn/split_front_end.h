// The front end of the gated linear units (Kind Gated and GatedGrad; hostnn/op.h): their
// checks in CANN's order, then self's halves as views of their own, handed to the Map
// executor (src/exec/map_executor.h).
#ifndef HOSTNN_SRC_ACLNN_SPLIT_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_SPLIT_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Pre: GetOpInfo(args.op).is_split (Kind Gated or GatedGrad). As PrepareChecked: nothing is
// written on failure.
Status PrepareSplitChecked(const OpArgs& args, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_SPLIT_FRONT_END_H_
