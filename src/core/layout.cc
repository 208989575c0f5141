// Broadcasting and dim fusion (see layout.h). Pure functions over shapes and strides.

#include "src/core/layout.h"

#include "src/core/check.h"

namespace hostnn {
namespace core {

bool BroadcastShapes(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                     std::vector<int64_t>* out) {
  const size_t rank = std::max(a.size(), b.size());
  std::vector<int64_t> r(rank);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    r[i] = da == 1 ? db : da;
  }
  *out = r;
  return true;
}

bool BroadcastStrides(const std::vector<int64_t>& in_shape, const std::vector<int64_t>& in_strides,
                      const std::vector<int64_t>& out_shape, std::vector<int64_t>* out_strides) {
  if (in_shape.size() > out_shape.size()) return false;
  const size_t lead = out_shape.size() - in_shape.size();
  out_strides->assign(out_shape.size(), 0);
  for (size_t i = 0; i < in_shape.size(); ++i) {
    const int64_t din = in_shape[i], dout = out_shape[lead + i];
    if (din == dout) {
      (*out_strides)[lead + i] = din == 1 ? 0 : in_strides[i];
    } else if (din == 1) {
      (*out_strides)[lead + i] = 0;
    } else {
      return false;
    }
  }
  return true;
}

bool Fuse(const std::vector<int64_t>& shape, int num_operands, char* const* firsts,
          const DType* dtypes, const std::vector<int64_t>* strides, FusedLayout* layout) {
  FusedLayout l;
  l.num_operands = num_operands;
  for (int k = 0; k < num_operands; ++k) {
    l.operands[k].first = firsts[k];
    l.operands[k].dtype = dtypes[k];
  }
  // An empty shape is one fused dim of extent 0, whatever its other extents (which may
  // exceed what a product holds: [0, 4, 2^63 - 1] is a valid empty tensor). Not dense: its
  // operands have no element, and their first addresses may be null.
  l.numel = CheckedNumel(shape);
  if (l.numel == 0) {
    l.rank = 1;
    *layout = l;
    return true;
  }
  // Walk dims from the innermost out, keeping dims of extent > 1 and merging a dim into
  // the current innermost fused dim when every operand steps over it contiguously.
  int64_t rev_shape[kMaxFusedDims];
  int64_t rev_strides[kMaxOperands][kMaxFusedDims];
  int rank = 0;
  for (int i = static_cast<int>(shape.size()) - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    bool merge = rank > 0;
    for (int k = 0; merge && k < num_operands; ++k) {
      merge = strides[k][i] == rev_strides[k][rank - 1] * rev_shape[rank - 1];
    }
    if (merge) {
      rev_shape[rank - 1] *= shape[i];
    } else {
      if (rank == kMaxFusedDims) return false;
      rev_shape[rank] = shape[i];
      for (int k = 0; k < num_operands; ++k) rev_strides[k][rank] = strides[k][i];
      ++rank;
    }
  }
  l.rank = rank;
  for (int i = 0; i < rank; ++i) {
    l.shape[i] = rev_shape[rank - 1 - i];
    for (int k = 0; k < num_operands; ++k) l.operands[k].strides[i] = rev_strides[k][rank - 1 - i];
  }
  l.dense = rank == 0;
  if (rank == 1) {
    l.dense = true;
    for (int k = 0; k < num_operands; ++k) l.dense = l.dense && l.operands[k].strides[0] == 1;
  }
  *layout = l;
  return true;
}

}  // namespace core
}  // namespace hostnn
