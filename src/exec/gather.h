// Gather / scatter between a strided (possibly broadcast, any-dtype) operand and a
// contiguous f32 tile in a core's UB scratch. Element range [start, start + len) is in
// the row-major order of the fused shape. Contiguous runs use the vector conversions;
// strided runs are packed a chunk at a time and use the same conversions.
#ifndef HOSTNN_SRC_EXEC_GATHER_H_
#define HOSTNN_SRC_EXEC_GATHER_H_

#include <cstdint>

#include "kernels/kernels.h"
#include "src/core/layout.h"

namespace hostnn {
namespace exec {

// Conversion functions resolved once (per executor) for one operand.
struct OperandCodec {
  kernels::ToF32Fn to_f32 = nullptr;      // inputs
  kernels::FromF32Fn from_f32 = nullptr;  // the output
  size_t elem_bytes = 0;
};
OperandCodec MakeCodec(DType dtype);

void GatherF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, float* dst);
void ScatterF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
                const OperandCodec& codec, int64_t start, int64_t len, const float* src);

// The same walk with no conversion: es-byte elements copied as they are, to or from a
// contiguous tile of the operand's own dtype (the exact integer path).
void GatherRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
               int64_t start, int64_t len, void* dst);
void ScatterRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
                int64_t start, int64_t len, const void* src);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_GATHER_H_
