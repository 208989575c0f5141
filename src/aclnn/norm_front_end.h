// The front end of the normalisations over trailing dims (ShapeRule TrailingDims: LayerNorm,
// LayerNormWithImplMode, RmsNorm, AddRmsNorm, InplaceAddRmsNorm and the gradients): their
// checks in the order of CANN's op_api (norm/layer_norm_v4/op_host/op_api/aclnn_layer_norm.cpp,
// norm/add_rms_norm/op_host/op_api/aclnn_add_rms_norm.cpp, ...) or, for an entry point CANN
// generates from its kernel's definition (RmsNorm, RmsNormGrad, InplaceAddRmsNorm,
// AddLayerNorm, AddLayerNormGrad), of that
// definition and the A2 tiling (norm/rms_norm/op_host/rms_norm_tiling.cpp, ...); then the
// row executor (src/exec/rows_executor.h). docs/norm_family.md lists them.
#ifndef HOSTNN_SRC_ACLNN_NORM_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_NORM_FRONT_END_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {

// Null input, normalizedShape, out (161001); the dtypes of input, weight, bias (each FLOAT,
// FLOAT16 or BFLOAT16; weight and bias FLOAT or input's, and each other's when both are
// given), then of out, mean and rstd (each any of the three); ranks (at most 8, and 1 to 8
// normalised dims, no more than input has), weight's and bias's rank, the trailing dims of
// input, weight and bias equal to normalizedShape, out's shape equal to input's;
// implMode 0, 1 or 2 (2 only with FLOAT16 inputs). Then an empty leading extent succeeds and
// runs nothing; mean and rstd, when given, hold one element per row; storage and overlap.
// 161002 otherwise.
// RmsNorm: null x, gamma, yOut, rstdOut (161001); their dtypes, one of the five combinations
// (161002); then, as its tiling (561002): x and gamma of 1 to 8 dims, gamma no more than x
// and equal to x's last dims (not empty), yOut x's shape, each rstdOut dim 1 or x's, epsilon
// >= 0; rstdOut holds one element per row (561002); storage and overlap (161002).
// AddRmsNorm, InplaceAddRmsNorm, AddLayerNorm, AddLayerNormGrad: docs/norm_family.md. Nothing is
// written on failure.
Status PrepareNormChecked(const OpArgs& args, const tiling::Options& options,
                          uint64_t* workspace_size, ExecutorPtr* executor);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_NORM_FRONT_END_H_
