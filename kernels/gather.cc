// Gather / scatter (see gather.h). Walks the fused index space run by run: a run is the
// part of the innermost dim inside [start, start + len).

#include "kernels/gather.h"

namespace hostnn {
namespace kernels {

OperandCodec MakeCodec(DType dtype) {
  OperandCodec c;
  c.to_f32 = GetToF32(dtype);
  c.from_f32 = GetFromF32(dtype);
  c.elem_bytes = DTypeSize(dtype);
  return c;
}

namespace {

// Calls run(ptr_to_first_element, stride_elems, count, done) for each run of the range.
template <class RunFn>
void ForEachRun(const core::FusedLayout& l, const core::FusedOperand& op, size_t esize,
                int64_t start, int64_t len, RunFn run) {
  if (l.rank == 0) {
    if (len > 0) run(op.first, 0, 1, 0);
    return;
  }
  int64_t idx[8];
  int64_t rem = start;
  for (int i = l.rank - 1; i >= 0; --i) {
    idx[i] = rem % l.shape[i];
    rem /= l.shape[i];
  }
  const int inner = l.rank - 1;
  int64_t done = 0;
  while (done < len) {
    int64_t offset = 0;
    for (int i = 0; i < l.rank; ++i) offset += idx[i] * op.strides[i];
    const int64_t count = std::min(l.shape[inner] - idx[inner], len - done);
    run(op.first + offset * static_cast<int64_t>(esize), op.strides[inner], count, done);
    done += count;
    idx[inner] += count;
    for (int i = inner; i > 0 && idx[i] == l.shape[i]; --i) {
      idx[i] = 0;
      ++idx[i - 1];
    }
  }
}

}  // namespace

void GatherF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, float* dst) {
  const size_t es = codec.elem_bytes;
  ForEachRun(layout, operand, es, start, len,
             [&](const char* p, int64_t stride, int64_t count, int64_t done) {
               float* d = dst + done;
               if (stride == 1) {
                 codec.to_f32(p, d, static_cast<size_t>(count));
               } else if (stride == 0) {
                 float v;
                 codec.to_f32(p, &v, 1);
                 for (int64_t k = 0; k < count; ++k) d[k] = v;
               } else {
                 for (int64_t k = 0; k < count; ++k) codec.to_f32(p + k * stride * static_cast<int64_t>(es), d + k, 1);
               }
             });
}

void ScatterF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
                const OperandCodec& codec, int64_t start, int64_t len, const float* src) {
  const size_t es = codec.elem_bytes;
  ForEachRun(layout, operand, es, start, len,
             [&](const char* p, int64_t stride, int64_t count, int64_t done) {
               char* q = const_cast<char*>(p);
               const float* s = src + done;
               if (stride == 1) {
                 codec.from_f32(s, q, static_cast<size_t>(count));
               } else {
                 for (int64_t k = 0; k < count; ++k) codec.from_f32(s + k, q + k * stride * static_cast<int64_t>(es), 1);
               }
             });
}

}  // namespace kernels
}  // namespace hostnn
