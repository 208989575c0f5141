// Broadcasting and dim fusion for the elementwise path: every operand is described by
// strides over the output's shape (0 where it broadcasts), then size-1 dims are dropped
// and adjacent dims merged wherever every operand allows. A layout whose operands all
// walk memory in order with stride 1 is "dense" and goes straight to the kernels.
#ifndef HOSTNN_SRC_CORE_LAYOUT_H_
#define HOSTNN_SRC_CORE_LAYOUT_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/status.h"

namespace hostnn {
namespace core {

// The elementwise path: two inputs and an output; the gated gradients: four inputs (dy, a,
// b, gelu) and two outputs (the halves of the gradient).
constexpr int kMaxOperands = 6;
// The most dims a fused layout keeps (a view of more dims must merge into this many).
constexpr int kMaxFusedDims = 8;

struct FusedOperand {
  char* first = nullptr;  // element (0, ..., 0)
  DType dtype = DType::kFloat32;
  int64_t strides[kMaxFusedDims] = {0};  // elements, over the fused dims
};

struct FusedLayout {
  int rank = 0;  // fused rank (0 for a single element)
  int64_t shape[kMaxFusedDims] = {0};
  int64_t numel = 0;
  int num_operands = 0;  // inputs first, output last
  FusedOperand operands[kMaxOperands];
  bool dense = false;  // every operand: stride 1 over a rank <= 1 layout (never when empty)
};

// Broadcasts `in_shape` (strides `in_strides`) to `out_shape` (NumPy rules). False when
// the shapes are not broadcast-compatible; otherwise fills out_strides (size of out_shape).
bool BroadcastStrides(const std::vector<int64_t>& in_shape, const std::vector<int64_t>& in_strides,
                      const std::vector<int64_t>& out_shape, std::vector<int64_t>* out_strides);

// The NumPy broadcast of two shapes; false when incompatible.
bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                     std::vector<int64_t>* out);

// Elements from operand k's first element to its element i (row-major over the fused dims).
inline int64_t ElementOffset(const FusedLayout& layout, int k, int64_t i) {
  // One fused dim (a contiguous operand, the common case): no division.
  if (layout.rank <= 1) return layout.rank == 0 ? 0 : i * layout.operands[k].strides[0];
  int64_t off = 0;
  for (int d = layout.rank - 1; d >= 0; --d) {
    off += (i % layout.shape[d]) * layout.operands[k].strides[d];
    i /= layout.shape[d];
  }
  return off;
}

// Elements from operand k's first element to its element at the start of row `row` of the
// layout (a row: the last fused dim; rows in row-major order of the dims before it).
inline int64_t RowOffset(const FusedLayout& layout, int k, int64_t row) {
  int64_t off = 0;
  for (int d = layout.rank - 2; d >= 0; --d) {
    off += (row % layout.shape[d]) * layout.operands[k].strides[d];
    row /= layout.shape[d];
  }
  return off;
}

// Fuses `shape` (any rank) with per-operand strides (each of shape.size()) into *layout.
// False, and *layout untouched, when more than kMaxFusedDims dims remain after merging. An
// empty shape (a zero extent) fuses to one dim of extent 0, not dense, and never fails.
bool Fuse(const std::vector<int64_t>& shape, int num_operands, char* const* firsts,
          const DType* dtypes, const std::vector<int64_t>* strides, FusedLayout* layout);

}  // namespace core
}  // namespace hostnn

#endif  // HOSTNN_SRC_CORE_LAYOUT_H_
