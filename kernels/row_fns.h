// The Rows kind's one row-function form (docs/design.md, "The Rows engine"): what the row
// executor (src/exec/rows_executor.cc) calls for every Rows operator, and its getter. The
// functions are kernels/row_fns.cc's, over their families' SIMD kernels (kernels.h).
#ifndef HOSTNN_KERNELS_ROW_FNS_H_
#define HOSTNN_KERNELS_ROW_FNS_H_

#include <cstddef>

#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "kernels/kernels.h"

namespace hostnn {
namespace kernels {

// The widest block of columns an ARA call takes: a row function keeps a block's column
// statistics on its stack.
constexpr size_t kAraBlockCols = 4096;

// A Rows operator's row function as the row executor (src/exec/rows_executor.cc) calls it,
// over the plan's (A1, R, A0) view of the shape: in[] are its inputs (x; or dy and y), all
// of out's shape, contiguous, of in_bytes per element; out has out_bytes (the executor
// gathers any other layout or dtype to the lanes' type first). Which passes a row takes and
// what it keeps between them belong to the function; the executor walks units and cores.
struct RowFns {
  int num_in = 1;
  // The statistics ara_stats leaves per column for cols_out, each stat_bytes.
  int num_stats = 0;
  size_t stat_bytes = 4;
  size_t in_bytes = 4, out_bytes = 4;
  // Passes an ARA block reads its input in: a block of a streaming output whose input is read
  // three times is cut to stay in the caches between them (the executor's block width).
  int block_passes = 2;
  // AR: one whole row of r elements, its passes over chunks of r_chunk elements (the plan's:
  // a multiple of kRowSumBlock). out may be in[0] exactly.
  void (*row)(const RowFns& f, const void* const* in, void* out, size_t r, size_t r_chunk) =
      nullptr;
  // ARA: every pass over one (R x w) block whose rows are row_stride elements apart, w <=
  // kAraBlockCols. Each column's result is its own, so any block width gives the same bits.
  void (*ara_block)(const RowFns& f, const void* const* in, void* out, size_t r,
                    size_t row_stride, size_t w) = nullptr;
  // ara_block's statistics alone: column c's k-th lands at stats[k] + c (in stat_bytes
  // elements). False when a column needs ara_block's own path (a backward sum beyond f32's
  // range): the whole tensor then runs by blocks.
  bool (*ara_stats)(const RowFns& f, const void* const* in, size_t r, size_t row_stride, size_t w,
                    void* const* stats) = nullptr;
  // One row (w columns) of ara_block's output pass, from its columns' statistics: with
  // ara_stats, the bits of ara_block, the rows spread over other cores.
  void (*cols_out)(const RowFns& f, const void* const* in, const void* const* stats, void* out,
                   size_t w) = nullptr;
  // The tables the functions call (one of them set).
  SoftmaxForwardKernels forward{};
  SoftmaxBackwardKernels backward{};
  SoftmaxF64Kernels f64{};
};
// The element size of the lanes op's row function computes in for a first input of `in`
// and an out of `out`: 8 for LogSoftmax into a DOUBLE out and Softmax of a DOUBLE self
// (their f64 kernels), 4 otherwise.
size_t RowLaneBytes(Op op, DType in, DType out);
// op's row function over inputs of `in` and an out of `out` as RowLaneBytes says: f32 lanes
// read and write FLOAT, FLOAT16, BFLOAT16 (the forward one dtype; the backward a DOUBLE out
// too), f64 lanes DOUBLE only. All null when unsupported. StoreMode::kStream: the output
// passes store non-temporally (f32 lanes; the same bits).
RowFns GetRowFns(Op op, DType in, DType out, StoreMode mode = StoreMode::kCached);

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_ROW_FNS_H_
