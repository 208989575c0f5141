// The front end of the NoiseMap kind (RReluWithNoise, InplaceRReluWithNoise): its checks in
// the order of CANN's op_api (activation/leaky_relu/op_api/aclnn_rrelu_with_noise.cpp), then
// its middle end (src/exec/noise_executor.h).
#ifndef HOSTNN_SRC_ACLNN_NOISE_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_NOISE_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null self, noise, lower, upper, out (161001); dtypes: self, noise and out FLOAT, FLOAT16
// or BFLOAT16, lower and upper those or DOUBLE, then self's and noise's dtype equal to
// out's; out's shape equal to self's and, in training mode, noise with at least as many
// elements as self; at most 32 dims (self, noise); self's and noise's aclFormat equal to
// out's; an empty self or noise succeeds here and runs nothing (out is not written, as
// CANN's). Then storage and overlap: out may be self exactly; noise, written in training
// mode, shares no byte with self or out. 161002 otherwise. Nothing is written on failure.
Status PrepareNoiseChecked(const OpArgs& args, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_NOISE_FRONT_END_H_
