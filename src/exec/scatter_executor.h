// The ScatterAdd kind's middle end (EmbeddingDenseBackward), from operands the front end
// checked (src/aclnn/index_front_end.cc): grad [..., D] whose leading dims hold one row per
// element of indices (any shape, row-major order pairing them), out [numWeights, D].
#ifndef HOSTNN_SRC_EXEC_SCATTER_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_SCATTER_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct ScatterOperands {
  Operand grad, indices, out;
  // The scalar parameters (numWeights, paddingIdx, scaleGradByFreq), as ScalarValuesOf gives
  // them, for kernels::InitParams (EmbeddingDenseBackwardParams).
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand (grad and out FLOAT, FLOAT16 or BFLOAT16, indices
// one of the nine, grad's rows indices' count, out [numWeights, D] not empty and apart from
// both). The plan is the Map plan of out's elements: each core computes its elements, row by
// row. Out row w is the sum, in double and in the order of the indices, of grad's rows whose
// index is w, divided by their count with scaleGradByFreq, rounded once to out's dtype; 0 for
// a row no index names and for paddingIdx's. Phase 2 first checks every index
// (Executor::CheckRunValues): one that names no row of out (a negative one, one of numWeights
// or more, a NaN) is refused with kInvalid, naming it, and nothing is written. Then it sorts
// the positions by index (a stable counting sort in the workspace), so that each out element's
// terms are added in one order whatever the number of threads.
Status PrepareScatter(Op op, const ScatterOperands& operands, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_SCATTER_EXECUTOR_H_
