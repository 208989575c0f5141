// The Rows operators' row functions in the one form the row executor calls (RowFns): each
// says which passes a row or a block of columns takes and what it keeps between them, over
// its family's SIMD kernels (softmax_forward_kernels.cc, softmax_backward_kernels.cc,
// softmax_f64_kernels.cc). Target-independent: the SIMD code is in those units, chosen
// once by their getters. A new Rows operator is a row function here and a list line.

#include <algorithm>
#include <limits>

#include "kernels/row_fns.h"

namespace hostnn {
namespace kernels {
namespace {

const char* At(const void* p, size_t i, size_t bytes) {
  return static_cast<const char*>(p) + i * bytes;
}
char* At(void* p, size_t i, size_t bytes) { return static_cast<char*>(p) + i * bytes; }

// ---- LogSoftmax and Softmax forward, f32 lanes -------------------------------------------
// A row: its max, then its sum of exp(x - max) in kRowPartials partials, the statistic
// (the log of the sum, or its reciprocal), then the output pass; a row of at most
// kRowWholeMax elements in one chunk takes the kernel's one-call path (the same bits).
void ForwardRow(const RowFns& f, const RowArgs& a) {
  const SoftmaxForwardKernels& k = f.forward;
  const void* const* in = a.in;
  void* const out = a.out;
  const size_t r = a.n, chunk = a.r_chunk;
  const size_t ib = f.in_bytes, ob = f.out_bytes;
  if (chunk >= r && r <= kRowWholeMax) {
    k.row_whole(in[0], r, out);
    return;
  }
  float max = -std::numeric_limits<float>::infinity();
  for (size_t c0 = 0; c0 < r; c0 += chunk) k.row_max(At(in[0], c0, ib), std::min(chunk, r - c0), &max);
  double partials[kRowPartials] = {0};
  for (size_t c0 = 0; c0 < r; c0 += chunk) {
    k.row_sum_exp(At(in[0], c0, ib), std::min(chunk, r - c0), max, partials);
  }
  const double stat = RowStat(k, in[0], r, ib, chunk, max, partials);
  for (size_t c0 = 0; c0 < r; c0 += chunk) {
    k.row_out(At(in[0], c0, ib), max, stat, At(out, c0, ob), std::min(chunk, r - c0));
  }
}
// A block's columns: max and statistic (2 per column), then the output pass.
void ForwardBlock(const RowFns& f, const void* const* in, void* out, size_t r, size_t stride,
                  size_t w) {
  float max[kAraBlockCols];
  double acc[kAraBlockCols];
  f.forward.ara_block(in[0], out, r, stride, w, max, acc);
}
bool ForwardStats(const RowFns& f, const void* const* in, size_t r, size_t stride, size_t w,
                  void* const* stats) {
  double acc[kAraBlockCols];
  f.forward.ara_stats(in[0], r, stride, w, static_cast<float*>(stats[0]), acc,
                      static_cast<float*>(stats[1]));
  return true;
}
void ForwardColsOut(const RowFns& f, const void* const* in, const void* const* stats, void* out,
                    size_t w) {
  f.forward.cols_out(in[0], static_cast<const float*>(stats[0]),
                     static_cast<const float*>(stats[1]), out, w);
}

// ---- LogSoftmaxBackward and SoftmaxBackward, f32 lanes -----------------------------------
// A row: its sum of terms (dy, or dy * y) in kRowPartials partials, then the output pass.
void BackwardRow(const RowFns& f, const RowArgs& a) {
  const SoftmaxBackwardKernels& k = f.backward;
  const void* const* in = a.in;
  void* const out = a.out;
  const size_t r = a.n, chunk = a.r_chunk;
  const size_t ib = f.in_bytes, ob = f.out_bytes;
  double partials[kRowPartials] = {0};
  for (size_t c0 = 0; c0 < r; c0 += chunk) {
    k.row_sum(At(in[0], c0, ib), At(in[1], c0, ib), std::min(chunk, r - c0), partials);
  }
  const double sum = CombinePartials(partials);  // the kernel narrows it
  for (size_t c0 = 0; c0 < r; c0 += chunk) {
    k.row_out(At(in[0], c0, ib), At(in[1], c0, ib), sum, At(out, c0, ob), std::min(chunk, r - c0));
  }
}
void BackwardBlock(const RowFns& f, const void* const* in, void* out, size_t r, size_t stride,
                   size_t w) {
  double acc[kAraBlockCols];
  float sums[kAraBlockCols];
  f.backward.ara_block(in[0], in[1], out, r, stride, w, acc, sums);
}
bool BackwardStats(const RowFns& f, const void* const* in, size_t r, size_t stride, size_t w,
                   void* const* stats) {
  double acc[kAraBlockCols];
  return f.backward.ara_sums(in[0], in[1], r, stride, w, acc, static_cast<float*>(stats[0]));
}
void BackwardColsOut(const RowFns& f, const void* const* in, const void* const* stats, void* out,
                     size_t w) {
  f.backward.cols_out(in[0], in[1], static_cast<const float*>(stats[0]), out, w);
}

// ---- LogSoftmax into DOUBLE and Softmax of DOUBLE, f64 lanes ------------------------------
// A row is taken whole (its compensated sums do not depend on chunks).
void F64Row(const RowFns& f, const RowArgs& a) {
  f.f64.row(static_cast<const double*>(a.in[0]), a.n, static_cast<double*>(a.out));
}
void F64Block(const RowFns& f, const void* const* in, void* out, size_t r, size_t stride,
              size_t w) {
  double max[kAraBlockCols], ls[kAraBlockCols];
  f.f64.ara_block(static_cast<const double*>(in[0]), static_cast<double*>(out), r, stride, w, max,
                  ls);
}
bool F64Stats(const RowFns& f, const void* const* in, size_t r, size_t stride, size_t w,
              void* const* stats) {
  f.f64.ara_stats(static_cast<const double*>(in[0]), r, stride, w, static_cast<double*>(stats[0]),
                  static_cast<double*>(stats[1]));
  return true;
}
void F64ColsOut(const RowFns& f, const void* const* in, const void* const* stats, void* out,
                size_t w) {
  f.f64.cols_out(static_cast<const double*>(in[0]), static_cast<const double*>(stats[0]),
                 static_cast<const double*>(stats[1]), static_cast<double*>(out), w);
}

RowFunction SoftmaxRowFunction(Op op) {
  return op == Op::kSoftmax || op == Op::kSoftmaxBackward ? RowFunction::kSoftmax
                                                          : RowFunction::kLogSoftmax;
}

}  // namespace

size_t RowLaneBytes(Op op, DType in, DType out) {
  // LogSoftmax computes in out's dtype, Softmax in self's (CANN casts the result to out's).
  const bool f64 = (op == Op::kLogSoftmax && out == DType::kFloat64) ||
                   (op == Op::kSoftmax && in == DType::kFloat64);
  return f64 ? sizeof(double) : sizeof(float);
}

RowFns GetRowFns(Op op, DType in, DType out, StoreMode mode) {
  RowFns f;
  if (GetOpInfo(op).kind != Kind::kRows) return f;
  if (IsNormShape(GetOpInfo(op).shapes)) {
    return in == DType::kFloat32 && out == DType::kFloat32 ? GetNormRowFns(op) : f;
  }
  if (GetOpInfo(op).shapes == ShapeRule::kChannelStats) return f;  // GetChannelRowFns
  f.in_bytes = DTypeSize(in);
  f.out_bytes = DTypeSize(out);
  if (RowLaneBytes(op, in, out) == sizeof(double)) {
    if (in != DType::kFloat64 || out != DType::kFloat64) return f;
    f.f64 = GetSoftmaxF64(SoftmaxRowFunction(op));
    f.num_stats = 2;  // each column's max and statistic (log-sum, or sum)
    f.stat_bytes = sizeof(double);
    f.row = F64Row;
    f.ara_block = F64Block;
    f.ara_stats = F64Stats;
    f.cols_out = F64ColsOut;
    return f;
  }
  if (GetOpInfo(op).is_forward) {
    f.forward = GetSoftmaxForward(SoftmaxRowFunction(op), in, out, mode);
    if (f.forward.row_out == nullptr) return f;
    f.num_stats = 2;  // each column's max and statistic
    f.block_passes = 3;
    f.row = ForwardRow;
    f.ara_block = ForwardBlock;
    f.ara_stats = ForwardStats;
    f.cols_out = ForwardColsOut;
    return f;
  }
  f.backward = GetSoftmaxBackward(SoftmaxRowFunction(op), in, out, mode);
  if (f.backward.row_out == nullptr) return f;
  f.num_in = 2;
  f.num_stats = 1;  // each column's sum, narrowed to f32
  f.row = BackwardRow;
  f.ara_block = BackwardBlock;
  f.ara_stats = BackwardStats;
  f.cols_out = BackwardColsOut;
  return f;
}

}  // namespace kernels
}  // namespace hostnn
