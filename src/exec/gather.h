// Gather / scatter between a strided (possibly broadcast, any-dtype) operand and a
// contiguous f32 (or, for DOUBLE results, f64) tile in a core's UB scratch. Element range [start,
// start + len) is in the row-major order of the fused shape. Contiguous runs use the vector
// conversions; strided runs are packed a chunk at a time and use the same conversions.
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
  kernels::ToF64Fn to_f64 = nullptr;      // inputs gathered to double (GatherF64)
  kernels::FromF32Fn from_f32 = nullptr;  // the output
  size_t elem_bytes = 0;
};
// `via`: an input is cast to that dtype first (one rounding, as a CANN Cast), then widened
// to f32 (kernels::GetToF32Via; an integer input by int_to_float.h); kUndefined widens it
// as it is.
OperandCodec MakeCodec(DType dtype, DType via = DType::kUndefined);

void GatherF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, float* dst);
void ScatterF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
                const OperandCodec& codec, int64_t start, int64_t len, const float* src);
// The same into / out of a double scratch; the scattered operand is DOUBLE.
void GatherF64(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, double* dst);
void ScatterF64(const core::FusedLayout& layout, const core::FusedOperand& operand, int64_t start,
                int64_t len, const double* src);

// The same walk with no conversion: es-byte elements copied as they are, to or from a
// contiguous tile of the operand's own dtype (the exact integer path).
// m elements of `es` bytes from src (src_step bytes apart) to dst (dst_step bytes apart),
// byte for byte.
void CopyStrided(const char* src, int64_t src_step, char* dst, int64_t dst_step, int64_t m,
                 size_t es);
// The row copy of the index kinds' large outputs (Embedding's rows, EmbeddingDenseBackward's
// zero and single rows): kernels::GetStreamCopy where out is contiguous, its rows at least
// 1 KiB (a non-temporal store pays off over whole lines, and a short row is mostly its
// unaligned head and tail) and out_bytes past the plan's stream_min_bytes (it would not stay in
// the caches); null otherwise (memcpy).
kernels::CopyFn RowStreamCopy(bool contiguous, int64_t row_bytes, uint64_t out_bytes,
                              int64_t stream_min_bytes);
// Elements [e0, e1) (row-major) of a one-operand layout of es-byte elements set to +0: one
// memset where it is contiguous, or non-temporal stores through `stream` when given (the
// caller ends its run of them with kernels::StoreFence); at its strides otherwise.
void ZeroElements(const core::FusedLayout& layout, size_t es, int64_t e0, int64_t e1,
                  kernels::CopyFn stream);
void GatherRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
               int64_t start, int64_t len, void* dst);
void ScatterRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
                int64_t start, int64_t len, const void* src);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_GATHER_H_
