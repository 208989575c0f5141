// The Map kernels' dispatch tables, one per kernel unit, behind kernels::GetMap
// (kernels.cc): which unit holds an operator's kernels follows from its Kind and dtype.
// Internal to kernels/.
#ifndef HOSTNN_KERNELS_MAP_TABLES_H_
#define HOSTNN_KERNELS_MAP_TABLES_H_

#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "kernels/kernels.h"

namespace hostnn {
namespace kernels {

// Kind Unary: FLOAT, FLOAT16, BFLOAT16, INT32 where the rule admits it, and the exact
// integer lanes below (unary_tiles.cc).
MapFn GetUnaryMap(Op op, DType dtype, StoreMode mode);
// Kind Unary, rule AllSameOrExactInt (INT8, UINT8, INT32, INT64) or Int8 lanes
// (integer_tiles.cc).
MapFn GetExactIntMap(Op op, DType dtype);
// Kind Binary (eltwise_tiles.cc).
MapFn GetBinaryMap(Op op, DType dtype, StoreMode mode);
// Kinds Gated and GatedGrad, cached stores only; alt: the functor's Alt form (glu_tiles.cc).
MapFn GetGatedMap(Op op, DType dtype, bool alt);

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_MAP_TABLES_H_
