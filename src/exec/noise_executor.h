// RReluWithNoise's middle end (Kind NoiseMap), from operands the front end checked
// (src/aclnn/noise_front_end.cc): self and out over self's shape, noise over its own, its
// first numel(self) elements in row-major order paired with self's.
#ifndef HOSTNN_SRC_EXEC_NOISE_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_NOISE_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace exec {

struct NoiseMapOperands {
  Operand self, noise, out;
  // The scalar parameters in the list's order, as f32 (CANN's ToFloat: lower, upper, the
  // training flag) and as exact integers (seed, offset); the executor reads them by name
  // into kernels::RReluNoiseParams once.
  float numbers[kMaxScalars] = {};
  int64_t exact[kMaxScalars] = {};
};

// Pre: the front end checked every operand (one dtype of FLOAT, FLOAT16, BFLOAT16; out of
// self's shape; in training numel(noise) >= numel(self); noise apart from self and out).
// Training: element i of self (row-major) takes number offset + i of the stream
// (kernels::NoiseDraw, keyed by seed) as its slope where it is below 0, and 1 elsewhere;
// the slope goes to element i of noise and self * slope to out. Evaluation: out =
// LeakyRelu(self) with slope (lower + upper) / 2 in f32; noise is not touched. Each core
// gathers its tiles of self to f32, computes and scatters; the bits do not depend on the
// plan, the team or the SIMD target.
Status PrepareNoiseMap(Op op, const NoiseMapOperands& operands, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_NOISE_EXECUTOR_H_
