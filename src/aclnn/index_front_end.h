// The front end of the index kinds: Gather (Embedding) and ScatterAdd
// (EmbeddingDenseBackward), their checks in the order of CANN's Atlas A2 op_api
// (index/embedding/op_api/aclnn_embedding.cpp,
// index/embedding_dense_grad_v2/op_api/aclnn_embedding_dense_backward.cpp), then their middle
// ends (src/exec/index_executor.h, src/exec/scatter_executor.h).
#ifndef HOSTNN_SRC_ACLNN_INDEX_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_INDEX_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null weight, indices, out (161001); then 161002 for: weight's dtype outside the twelve
// (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT8, INT16, INT32, INT64, UINT8, BOOL, COMPLEX64,
// COMPLEX128), out's unlike weight's, indices' not INT32 or INT64; more than 8 dims; out not
// of indices' dims followed by one more. An empty weight or indices succeeds here and runs
// nothing. Then (what CANN's op_api finds only when it copies the result): weight of 2 dims
// and out's last dim weight's second; storage; out sharing no byte with weight or indices.
// Nothing is written on failure. Indices are checked against weight's rows when phase 2
// runs (src/exec/index_executor.h).
Status PrepareGatherChecked(const OpArgs& args, const tiling::Options& options,
                            uint64_t* workspace_size, ExecutorPtr* executor);

// EmbeddingDenseBackward. Null grad, indices, out (161001); then 161002 for: grad's dtype not
// FLOAT, FLOAT16 or BFLOAT16, indices' not FLOAT, FLOAT16, DOUBLE, INT8, UINT8, INT16, INT32,
// INT64 or BOOL, out's not one of grad's three (out's own: the sum is cast to it); more than 8
// dims; grad of no dims; grad's rows (its leading dims) not indices' element count, unless
// grad's last dim is 0; out not [numWeights, grad's last dim]; a private format. An empty grad
// or indices writes zeros to out (its every element, as CANN's ZerosLike). Then storage, and
// out sharing no byte with grad or indices. Nothing is written on failure. Indices are checked
// against [0, numWeights) when phase 2 runs (src/exec/scatter_executor.h).
Status PrepareScatterChecked(const OpArgs& args, const tiling::Options& options,
                             uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_INDEX_FRONT_END_H_
