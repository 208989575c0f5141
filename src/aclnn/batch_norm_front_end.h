// The front end of the per-channel normalisations (ShapeRule ChannelStats: BatchNorm and
// BatchNormBackward): their checks in the order of CANN's Atlas A2 op_api
// (norm/batch_norm_v3/op_host/op_api/aclnn_batch_norm.cpp, norm/batch_norm_grad_v3/op_host/
// op_api/aclnn_batch_norm_backward.cpp), then the row executor
// (src/exec/rows_executor.h). docs/norm_family.md lists them.
#ifndef HOSTNN_SRC_ACLNN_BATCH_NORM_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_BATCH_NORM_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// BatchNorm: null input, output, and in training saveMean and saveInvstd (161001); an empty
// input then fills saveMean with 0 and saveInvstd with NaN and succeeds; the dtypes of input,
// output, the saved outputs in training, weight, bias and the running statistics (each
// FLOAT, FLOAT16 or BFLOAT16, independently); formats (output input's, a 5-dim one NCDHW, no
// private one); input of 2 to 8 dims, output its shape; weight, bias and the running
// statistics 1-dim of C, the saved outputs [C] in training (161002). BatchNormBackward: null
// gradOut and input (161001); an empty one succeeds writing nothing; then outputMask (null or
// an asked-for output null: 161001; not 3 values: 161002), the dtypes, formats and shapes as
// its op_api. Storage and overlap last (161002). Nothing is written on failure.
Status PrepareBatchNormChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_BATCH_NORM_FRONT_END_H_
