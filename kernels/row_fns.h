// The Rows kind's one row-function form (docs/design.md, "The Rows engine"): what the row
// executor (src/exec/rows_executor.cc) calls for every Rows operator, the softmax family, the
// normalisations and the per-channel normalisations alike, and its getters. The softmax
// family's functions are kernels/row_fns.cc's, over their SIMD kernels (kernels.h); the
// normalisations' kernels/norm_kernels.cc's; the per-channel ones' steps
// kernels/channel_row_fns.cc's, over norm_kernels.cc's segment kernels.
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

// One row as a row function takes it (AR: a unit's row, or a normalisation's row of
// [rows, cols]): its operands contiguous, of RowFns::in_bytes per element (the executor
// gathers any other layout or dtype to the lanes' type first), and, for a normalisation,
// what the row shares with the others (per-column operands, eps) and its own per-row values.
struct RowArgs {
  // The row's operands: x (Softmax, LogSoftmax, a forward norm); dy and y (the softmax
  // gradients); AddRmsNorm's x1, x2; AddLayerNorm's x1, x2 and a full bias; a norm gradient's
  // dy, x; AddLayerNormGrad's dy, x1, x2 and dsum; BatchNorm's x, its gradient's dy and x
  // (null past the operator's own).
  const void* in[kNormRowOperands] = {};
  void* out = nullptr;   // the row's result, n elements of out_bytes; may be in[0] or in[1] exactly
  void* out2 = nullptr;  // a second result (AddRmsNorm's x1 + x2), the same; null: none
  size_t n = 0;
  // The softmax family's passes go over chunks of r_chunk elements (the plan's: a multiple of
  // kRowSumBlock); a normalisation's row functions take the row whole.
  size_t r_chunk = 0;
  // A normalisation's (f32 lanes): per-column operands, n elements each (null: none);
  // per-row inputs (a gradient's saved mean, rstd); per-row outputs, one element each (null
  // past the norm's own); per-channel columns (GroupNorm: cols[k][c] applies to elements
  // [c * channel_len, (c + 1) * channel_len); 0: cols[k][i] to element i); eps; and the
  // column sums this row's terms go to where the row function takes them in its output pass
  // (RowFns::row_sums; as RowFns::columns' sums, null: not wanted; else null).
  const float* cols[kNormColumnOperands] = {};
  float row_in[2] = {};
  float* stats[2] = {};
  size_t channel_len = 0;
  float eps = 0.0f;
  double* sums[2] = {};
  // A per-channel normalisation's (BatchNorm's: a row is a segment, one sample's channel of n
  // elements, or, with lanes, n one-element segments of consecutive channels of one sample):
  // the channels' coefficients (ChannelArgs::coefs) and the row's (first) channel; sums[k]
  // receives a segment's k-th sum (lanes: n of them).
  const double* const* coefs = nullptr;
  size_t channel = 0;
  bool lanes = false;
};

// A per-channel normalisation's steps between its segments' passes (ShapeRule ChannelStats:
// BatchNorm and its gradient), over x [N, C, S...] as N * C segments, segment r channel r % C.
// Its per-channel inputs and outputs (C values each), in the orders ChannelArgs and the
// executor's setup hold them (src/exec/rows_executor.h, ChannelStatsOperands, says which
// operand each is).
enum ChannelIn { kChannelWeight, kChannelBias, kChannelMean, kChannelVar, kChannelIns };
enum ChannelOut {
  kChannelSaveMean,
  kChannelSaveVar,
  kChannelRunningMean,
  kChannelRunningVar,
  kChannelGradWeight,
  kChannelGradBias,
  kChannelOuts
};
// The per-channel coefficients (double) the channels step leaves for the segments' results:
// the forward's mean, rstd, gamma, beta (kCoefK: its batch variance); the gradient's mean,
// invstd, gradBias and gradWeight, their quotients by M (Am, Bm: training) and k = invstd *
// weight.
enum ChannelCoef { kCoefMean, kCoefScale, kCoefA, kCoefB, kCoefK, kCoefAm, kCoefBm, kChannelCoefs };
struct ChannelArgs {
  int64_t n = 0, c = 0, s = 0;
  bool sums_taken = false;  // the segments' sums were taken (slots hold them)
  float momentum = 0.0f, eps = 0.0f;
  const float* ins[kChannelIns] = {};  // C values each, gathered to f32; null: not given
  const double* slots[2] = {};         // segment r's k-th sum at slots[k][r]
  double* coefs[kChannelCoefs] = {};   // C values each
};

// A Rows operator's row function as the row executor (src/exec/rows_executor.cc) calls it,
// over the plan's (A1, R, A0) view of the shape (a normalisation's: [rows, cols], AR). Which
// passes a row takes and what it keeps between them belong to the function; the executor
// walks units and cores.
struct RowFns {
  using RowFn = void (*)(const RowFns& f, const RowArgs& a);
  using ColumnsFn = void (*)(const RowFns& f, const RowArgs& a, double* const* sums);
  int num_in = 1;
  // The statistics ara_stats leaves per column for cols_out, each stat_bytes.
  int num_stats = 0;
  size_t stat_bytes = 4;
  size_t in_bytes = 4, out_bytes = 4;
  // Passes an ARA block reads its input in: a block of a streaming output whose input is read
  // three times is cut to stay in the caches between them (the executor's block width).
  int block_passes = 2;
  // AR: one whole row of a.n elements.
  RowFn row = nullptr;
  // A normalisation gradient's column terms of one row, added to its column sums in double:
  // sums[k][j] for column j of sum k (a channel's: its channel), a null sums[k] not wanted.
  // Null: the operator has no column sums.
  ColumnsFn columns = nullptr;
  // row adds the column terms itself where RowArgs::sums is set, with the bits columns would
  // give; columns is then for rows whose result is not wanted.
  bool row_sums = false;
  // The eps a normalisation's row function takes, read from the operator's params struct
  // (InitParams); null for one without (the gradients, the softmax family).
  float (*eps)(const OpParams& params) = nullptr;
  // ARA (the softmax family; a normalisation's rows are its trailing dims, always AR):
  // every pass over one (R x w) block whose rows are row_stride elements apart, w <=
  // kAraBlockCols. Each column's result is its own, so any block width gives the same bits.
  // Null: the row function takes rows only, and the executor gathers a strided or
  // mixed-dtype row at a time.
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
  // A per-channel normalisation's (BatchNorm's; GetChannelRowFns): row is a segment's
  // result from its channel's coefficients; segment_sums a segment's sums into RowArgs::sums;
  // around them, with the executor's barriers between: channel_means before the sums (null:
  // nothing), channels after them (the coefficients), and channel_output, per-channel
  // output k's C values (a ChannelOut; false: not this operator's, or not written in this
  // mode).
  void (*segment_sums)(const RowFns& f, const RowArgs& a) = nullptr;
  void (*channel_means)(const ChannelArgs& c) = nullptr;
  void (*channels)(const ChannelArgs& c) = nullptr;
  bool (*channel_output)(const ChannelArgs& c, int k, float* values) = nullptr;
  // What the kernel path says of the row function after the operator's name (a
  // normalisation's: " rows (double statistics)"); null: nothing.
  const char* path_note = nullptr;
  // The tables the functions call (one of them set; a normalisation's call none).
  SoftmaxForwardKernels forward{};
  SoftmaxBackwardKernels backward{};
  SoftmaxF64Kernels f64{};
};
// The element size of the lanes op's row function computes in for a first input of `in`
// and an out of `out`: 8 for LogSoftmax into a DOUBLE out and Softmax of a DOUBLE self
// (their f64 kernels), 4 otherwise.
size_t RowLaneBytes(Op op, DType in, DType out);
// op's row function over inputs of `in` and an out of `out` as RowLaneBytes says: the
// softmax family's f32 lanes read and write FLOAT, FLOAT16, BFLOAT16 (the forward one dtype;
// the backward a DOUBLE out too), its f64 lanes DOUBLE only; a normalisation's FLOAT only.
// All null when unsupported. StoreMode::kStream: the output passes store non-temporally
// (the softmax family's f32 lanes; the same bits).
RowFns GetRowFns(Op op, DType in, DType out, StoreMode mode = StoreMode::kCached);
// A normalisation's row function (kernels/norm_kernels.cc; ShapeRules TrailingDims and
// ChannelGroups), f32 lanes; all null for any other operator. GetRowFns' for them.
RowFns GetNormRowFns(Op op);
// A per-channel normalisation's row functions (kernels/channel_row_fns.cc; ShapeRule
// ChannelStats: BatchNorm, BatchNormBackward), f32 lanes, in training or in inference; all
// null for any other operator.
RowFns GetChannelRowFns(Op op, bool training);
// Its SIMD halves (kernels/norm_kernels.cc): segment_sums and row, the forward's or the
// gradient's (in training, or in inference), for GetChannelRowFns.
void SetChannelSegmentFns(bool forward, bool training, RowFns* f);

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_ROW_FNS_H_
