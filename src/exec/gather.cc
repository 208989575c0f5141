// Gather / scatter (see gather.h). Walks the fused index space run by run: a run is the
// part of the innermost dim inside [start, start + len). Strided runs are packed into a
// small contiguous buffer and converted a chunk at a time, so every element meets the same
// vector conversion whatever its layout.

#include "src/exec/gather.h"

#include <algorithm>
#include <cstring>

#include "src/exec/int_to_float.h"

namespace hostnn {
namespace exec {

OperandCodec MakeCodec(DType dtype, DType via) {
  OperandCodec c;
  if (IsPromotableIntType(dtype) && via != DType::kUndefined) {  // a promoted integer input
    c.to_f32 = GetIntToF32Via(dtype, via);
    c.elem_bytes = DTypeSize(dtype);
    return c;
  }
  c.to_f32 = via == DType::kUndefined ? kernels::GetToF32(dtype) : kernels::GetToF32Via(dtype, via);
  c.to_f64 = kernels::GetToF64(dtype);
  c.from_f32 = kernels::GetFromF32(dtype);
  c.elem_bytes = DTypeSize(dtype);
  return c;
}

namespace {
constexpr size_t kZeroBytes = 16384;  // the source of a streamed zero fill (stays in L1 / L2)
alignas(64) const char kZeros[kZeroBytes] = {};
}  // namespace

void ZeroElements(const core::FusedLayout& layout, size_t es, int64_t e0, int64_t e1,
                  kernels::CopyFn stream) {
  if (layout.dense) {
    char* dst = layout.operands[0].first + e0 * static_cast<int64_t>(es);
    size_t bytes = static_cast<size_t>(e1 - e0) * es;
    if (stream == nullptr) {
      std::memset(dst, 0, bytes);
      return;
    }
    for (; bytes > 0;) {
      const size_t m = std::min(bytes, kZeroBytes);
      stream(kZeros, dst, m);
      dst += m;
      bytes -= m;
    }
    return;
  }
  const int64_t per = static_cast<int64_t>(kZeroBytes / es);
  for (int64_t e = e0; e < e1; e += per) {
    ScatterRaw(layout, layout.operands[0], es, e, std::min(per, e1 - e), kZeros);
  }
}

kernels::CopyFn RowStreamCopy(bool contiguous, int64_t row_bytes, uint64_t out_bytes,
                              int64_t stream_min_bytes) {
  constexpr int64_t kStreamRowBytes = 1024;
  const bool stream =
      contiguous && row_bytes >= kStreamRowBytes &&
      kernels::ChooseStoreMode(out_bytes, stream_min_bytes) == kernels::StoreMode::kStream;
  return stream ? kernels::GetStreamCopy() : nullptr;
}

// m elements of `es` bytes from src (src_step bytes apart) to dst (dst_step bytes apart).
void CopyStrided(const char* src, int64_t src_step, char* dst, int64_t dst_step, int64_t m,
                 size_t es) {
  switch (es) {
    case 2:
      for (int64_t k = 0; k < m; ++k) std::memcpy(dst + k * dst_step, src + k * src_step, 2);
      break;
    case 4:
      for (int64_t k = 0; k < m; ++k) std::memcpy(dst + k * dst_step, src + k * src_step, 4);
      break;
    case 8:
      for (int64_t k = 0; k < m; ++k) std::memcpy(dst + k * dst_step, src + k * src_step, 8);
      break;
    default:
      for (int64_t k = 0; k < m; ++k) std::memcpy(dst + k * dst_step, src + k * src_step, es);
  }
}

namespace {

// Strided runs are converted this many elements at a time through a packed stack buffer.
constexpr int64_t kChunk = 256;
// The widest element an output may have: COMPLEX128.
constexpr int64_t kMaxElemBytes = 16;

// Calls run(ptr_to_first_element, stride_elems, count, done) for each run of the range.
template <class RunFn>
void ForEachRun(const core::FusedLayout& l, const core::FusedOperand& op, size_t esize,
                int64_t start, int64_t len, RunFn run) {
  // Nothing to do for an empty range (an empty operand written whole: BatchNorm's saveMean
  // of an empty input); over a layout with a zero extent the index below would divide by it.
  if (len <= 0) return;
  if (l.rank == 0) {
    run(op.first, 0, 1, 0);
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

// Rows per block and columns per chunk of the blocked gather below.
constexpr int64_t kBlockRows = 16;
constexpr int64_t kBlockCols = 64;

// Packs a rows x m block, element (j, c) from base + j * s1 + c * s0 (in elements), into
// packed row-major, walking c outer and j inner: when rows are adjacent in memory (s1 = 1,
// a transposed view), each c reads one run of `rows` elements.
template <typename T>
void PackBlock(const char* base_v, int64_t s1, int64_t s0, int64_t rows, int64_t m,
               char* packed_v) {
  const T* base = reinterpret_cast<const T*>(base_v);
  T* packed = reinterpret_cast<T*>(packed_v);
  for (int64_t c = 0; c < m; ++c) {
    for (int64_t j = 0; j < rows; ++j) packed[j * m + c] = base[j * s1 + c * s0];
  }
}

// The range run by run (see ForEachRun): contiguous, broadcast and packed strided runs,
// each converted by to(src, dst, count) into the scratch type D (f32 or f64).
template <typename D, class To>
void GatherRuns(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
                To to, int64_t start, int64_t len, D* dst) {
  ForEachRun(layout, operand, es, start, len,
             [&](const char* p, int64_t stride, int64_t count, int64_t done) {
               D* d = dst + done;
               if (stride == 1) {
                 to(p, d, static_cast<size_t>(count));
               } else if (stride == 0) {
                 D v;
                 to(p, &v, 1);
                 for (int64_t k = 0; k < count; ++k) d[k] = v;
               } else {
                 // Strided: the raw elements are packed a chunk at a time, then converted
                 // by the same vector code as a contiguous run (the same bits).
                 alignas(64) char packed[kChunk * sizeof(double)];
                 const int64_t step = stride * static_cast<int64_t>(es);
                 for (int64_t k0 = 0; k0 < count; k0 += kChunk) {
                   const int64_t m = std::min(kChunk, count - k0);
                   CopyStrided(p + k0 * step, step, packed, static_cast<int64_t>(es), m, es);
                   to(packed, d + k0, static_cast<size_t>(m));
                 }
               }
             });
}

// A strided last dim (a transposed view above all) is gathered in blocks of kBlockRows
// rows by kBlockCols columns, so that the cache lines and pages one row touches serve the
// next rows too; partial rows at the ends of the range, and everything else, go run by
// run. Each row chunk is converted by the same code either way.
template <typename D, class To>
void Gather(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es, To to,
            int64_t start, int64_t len, D* dst) {
  if (layout.dense) {  // one run from element start: one conversion call, no walk
    to(operand.first + start * static_cast<int64_t>(es), dst, static_cast<size_t>(len));
    return;
  }
  const int inner = layout.rank - 1;
  const bool blocked = layout.rank >= 2 && operand.strides[inner] != 0 &&
                       operand.strides[inner] != 1 && operand.strides[inner - 1] != 0 &&
                       (es == 2 || es == 4 || es == 8) && len >= 2 * layout.shape[inner];
  if (!blocked) {
    GatherRuns(layout, operand, es, to, start, len, dst);
    return;
  }
  const int64_t row_len = layout.shape[inner];
  const int64_t s0 = operand.strides[inner], s1 = operand.strides[inner - 1];
  int64_t done = std::min(len, (row_len - start % row_len) % row_len);  // a partial first row
  if (done > 0) GatherRuns(layout, operand, es, to, start, done, dst);
  alignas(64) char packed[kBlockRows * kBlockCols * sizeof(double)];
  while (len - done >= row_len) {
    const int64_t row = (start + done) / row_len;
    // Rows of one block share every index but the second-last dim's, which counts up.
    const int64_t i1 = row % layout.shape[inner - 1];
    const int64_t rows =
        std::min({kBlockRows, (len - done) / row_len, layout.shape[inner - 1] - i1});
    int64_t offset = 0, rem = row;
    for (int i = inner - 1; i >= 0; --i) {
      offset += rem % layout.shape[i] * operand.strides[i];
      rem /= layout.shape[i];
    }
    const char* base = operand.first + offset * static_cast<int64_t>(es);
    for (int64_t c0 = 0; c0 < row_len; c0 += kBlockCols) {
      const int64_t m = std::min(kBlockCols, row_len - c0);
      const char* corner = base + c0 * s0 * static_cast<int64_t>(es);
      if (es == 2) {
        PackBlock<uint16_t>(corner, s1, s0, rows, m, packed);
      } else if (es == 4) {
        PackBlock<uint32_t>(corner, s1, s0, rows, m, packed);
      } else {
        PackBlock<uint64_t>(corner, s1, s0, rows, m, packed);
      }
      for (int64_t j = 0; j < rows; ++j) {
        to(packed + j * m * static_cast<int64_t>(es), dst + done + j * row_len + c0,
           static_cast<size_t>(m));
      }
    }
    done += rows * row_len;
  }
  if (done < len) GatherRuns(layout, operand, es, to, start + done, len - done, dst + done);
}

}  // namespace

void GatherF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, float* dst) {
  Gather(layout, operand, codec.elem_bytes, codec.to_f32, start, len, dst);
}

void GatherF64(const core::FusedLayout& layout, const core::FusedOperand& operand,
               const OperandCodec& codec, int64_t start, int64_t len, double* dst) {
  Gather(layout, operand, codec.elem_bytes, codec.to_f64, start, len, dst);
}

void ScatterF32(const core::FusedLayout& layout, const core::FusedOperand& operand,
                const OperandCodec& codec, int64_t start, int64_t len, const float* src) {
  const size_t es = codec.elem_bytes;
  if (layout.dense) {  // as Gather
    codec.from_f32(src, operand.first + start * static_cast<int64_t>(es), static_cast<size_t>(len));
    return;
  }
  ForEachRun(layout, operand, es, start, len,
             [&](const char* p, int64_t stride, int64_t count, int64_t done) {
               char* q = const_cast<char*>(p);
               const float* s = src + done;
               if (stride == 1) {
                 codec.from_f32(s, q, static_cast<size_t>(count));
               } else {
                 alignas(64) char packed[kChunk * kMaxElemBytes];
                 const int64_t step = stride * static_cast<int64_t>(es);
                 for (int64_t k0 = 0; k0 < count; k0 += kChunk) {
                   const int64_t m = std::min(kChunk, count - k0);
                   codec.from_f32(s + k0, packed, static_cast<size_t>(m));
                   CopyStrided(packed, static_cast<int64_t>(es), q + k0 * step, step, m, es);
                 }
               }
             });
}

void GatherRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
               int64_t start, int64_t len, void* dst) {
  char* d = static_cast<char*>(dst);
  const int64_t ses = static_cast<int64_t>(es);
  if (layout.dense) {  // as Gather: one run, one copy
    std::memcpy(d, operand.first + start * ses, static_cast<size_t>(len * ses));
    return;
  }
  ForEachRun(layout, operand, es, start, len,
             [&](const char* p, int64_t stride, int64_t count, int64_t done) {
               CopyStrided(p, stride * ses, d + done * ses, ses, count, es);
             });
}

void ScatterRaw(const core::FusedLayout& layout, const core::FusedOperand& operand, size_t es,
                int64_t start, int64_t len, const void* src) {
  const char* s = static_cast<const char*>(src);
  const int64_t ses = static_cast<int64_t>(es);
  if (layout.dense) {  // as Gather: one run, one copy
    std::memcpy(operand.first + start * ses, s, static_cast<size_t>(len * ses));
    return;
  }
  ForEachRun(layout, operand, es, start, len,
             [&](char* p, int64_t stride, int64_t count, int64_t done) {
               CopyStrided(s + done * ses, ses, p, stride * ses, count, es);
             });
}

void ScatterF64(const core::FusedLayout& layout, const core::FusedOperand& operand, int64_t start,
                int64_t len, const double* src) {
  ScatterRaw(layout, operand, sizeof(double), start, len, src);
}

}  // namespace exec
}  // namespace hostnn
