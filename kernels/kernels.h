// The back end's interface: function tables of Highway kernels, resolved for the chosen
// SIMD target when asked (once per executor), never per tile. A kernel computes n
// contiguous elements; it never sees shapes, strides or threads.
#ifndef HOSTNN_KERNELS_KERNELS_H_
#define HOSTNN_KERNELS_KERNELS_H_

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "base/row_sums.h"
#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "kernels/params.h"

namespace hostnn {
namespace kernels {

// ---- The Map: every elementwise operator (Kinds Unary, Binary, Gated, GatedGrad) -------
// out[k][i] for i < n from in[j][i]: n contiguous elements of every operand, all of one
// dtype. The operands in the kind's order (the list's for Unary and Binary):
//   Unary      in {self}                 out {out}
//   Binary     in {in0, in1}             out {out}
//   Gated      in {a, b} (self's halves, b the gate)   out {out[, outGelu]}
//   GatedGrad  in {dy, a, b[, gelu]}     out {da, db} (out's halves)
// An output may be an input exactly (in place). params: the operator's parameters
// (kernels/params.h, InitParams), read only by an operator that has any.
using MapFn = void (*)(const void* const* in, void* const* out, size_t n,
                       const OpParams& params);

// How a kernel writes its output. kStream uses non-temporal stores for all but a head
// and tail of each call (bitwise the same results): no read-for-ownership of the output
// lines and no eviction of the inputs, a gain only when the output would not stay in the
// caches anyway.
enum class StoreMode { kCached, kStream };
// The kernel of a Map operator for dtype: FLOAT, FLOAT16, BFLOAT16, and the integer dtypes
// its rule computes in their own lanes (AllSameOrExactInt: INT8, UINT8, INT32, INT64;
// AdmitsInt32: INT32 through f32). params: the operator's, which may pick the functor's
// Alt form (PicksAltForm). kStream: non-temporal stores, the same bits; an operator with
// no streaming form (the gated units) is null for it. Null for another operator or dtype.
MapFn GetMap(Op op, DType dtype, const OpParams& params, StoreMode mode = StoreMode::kCached);
// The DOUBLE kernel of an operator CANN computes in double (ComputesDouble): its Map entry
// on n doubles of each input (f64 lanes, kernels/f64_tiles.cc); params as GetMap's. Null
// for another operator.
MapFn GetF64Map(Op op);
// The complex kernel of an operator whose op_api takes complex inputs (TakesComplexInputs):
// its Map entry on n complex<double> (interleaved re, im) of each input, in C99's complex
// arithmetic (kernels/complex_tiles.cc). Null for another operator.
MapFn GetComplexMap(Op op);
// kStream when an output of out_bytes is at least min_bytes (>= 0): the plan's
// stream_min_bytes (tiling resolves it: HOSTNN_STREAM_MIN_BYTES, else a third of the
// last-level cache).
StoreMode ChooseStoreMode(uint64_t out_bytes, int64_t min_bytes);

// A byte copy (Embedding's rows) whose whole vectors of dst are stored non-temporally, the
// unaligned head and tail plainly: memcpy's bytes. A run of them ends with StoreFence, so
// that the stores are visible to whoever reads dst next.
using CopyFn = void (*)(const void* src, void* dst, size_t bytes);
CopyFn GetStreamCopy();
void StoreFence();

// Widen n elements to f32 (src FLOAT, FLOAT16, BFLOAT16; INT32 rounded to nearest even) /
// narrow from f32 with RNE (dst FLOAT, FLOAT16, BFLOAT16, DOUBLE; COMPLEX64 and COMPLEX128
// as (value, +0); INT32 truncated toward zero, saturating). Null for other dtypes.
using ToF32Fn = void (*)(const void* src, float* dst, size_t n);
using FromF32Fn = void (*)(const float* src, void* dst, size_t n);
ToF32Fn GetToF32(DType src);
FromF32Fn GetFromF32(DType dst);
// Casts n elements of src (FLOAT, FLOAT16, BFLOAT16, DOUBLE) to `via` (FLOAT, FLOAT16 or
// BFLOAT16) with one rounding to nearest even, and widens the result to f32: the value a
// CANN Cast to `via` gives, as f32 (DOUBLE goes down through f32 rounded to odd, which
// then rounds to a 16-bit type as the direct cast would). GetToF32(src) where nothing
// rounds. Null for other dtypes.
ToF32Fn GetToF32Via(DType src, DType via);
// Widen n elements to double (src FLOAT, FLOAT16, BFLOAT16, DOUBLE): exact. Null otherwise.
using ToF64Fn = void (*)(const void* src, double* dst, size_t n);
ToF64Fn GetToF64(DType src);

// The row functions of the softmax reductions: LogSoftmax and Softmax, and their gradients.
enum class RowFunction {
  kLogSoftmax,  // the statistic of a row's sum s is log s (log1p near 1: kLogSumNearOne)
  kSoftmax,     // the statistic is 1 / s, in double, rounded to f32 by the output pass
};

// The softmax backward: LogSoftmaxBackward's dx = dy - exp(y) sum dy and SoftmaxBackward's
// dx = y (dy - sum dy y). Sums are kept in double in 16 partial sums: element i of a row
// goes to partial i % 16 whatever the SIMD width, so sums are bitwise reproducible on
// every target family and for any chunking of the row into multiples of kRowSumBlock (the
// planner starts chunks where base/row_sums.h says, which holds both numbers).
constexpr size_t kRowPartials = static_cast<size_t>(hostnn::kRowSumPartials);
// The forward sums each partial's exps in f32 over blocks of this many elements (4 groups
// of 16) before adding them to the double partial, the max's own exp(0) = 1 left out of
// the f32 sum and added after it (so the rest keeps its bits where it is small); the
// backward sums each partial's terms of a block the same way (where finite; else its exact
// terms). Row chunks of both start at multiples of it.
constexpr size_t kRowSumBlock = static_cast<size_t>(hostnn::kRowSumBlock);
// Below, "term" is the row function's summand: dy (LogSoftmax), or dy * y, exact in double
// (Softmax); "dy - exp(y) * s" its output, y * (dy - s) for Softmax.
struct SoftmaxBackwardKernels {
  // partials[i % 16] += term(dy[i], y[i]), i < n, each partial's four terms of a block of
  // kRowSumBlock elements first summed in f32 (softmax_grad-inl.h: RowSumImpl); the row's
  // first element has i = 0, so a chunk must start at a multiple of kRowSumBlock.
  void (*row_sum)(const void* dy, const void* y, size_t n, double* partials);
  // acc[c] += term(dy[c], y[c]), c < w.
  void (*col_sum)(const void* dy, const void* y, double* acc, size_t w);
  // out[i] = dy[i] - exp(y[i]) * sum, i < n. sum is the row's double sum: within f32's
  // range it is rounded to f32 and meets exp(y) in one f32 fused multiply-add; beyond it
  // (dy's sum overflows f32 while dy and the result do not) the product and difference
  // are taken in double.
  void (*row_out)(const void* dy, const void* y, double sum, void* out, size_t n);
  // out[c] = dy[c] - exp(y[c]) * sums[c], c < w.
  void (*cols_out)(const void* dy, const void* y, const float* sums, void* out, size_t w);
  // ARA, one (R x w) block whose rows are row_stride elements apart (all three tensors):
  // acc[c] = sum over rows 0..r-1 in order of term(dy, y)[row][c] in double (the bits col_sum
  // gives), sums[c] = (float)acc[c], then out[row][c] = dy - exp(y) * sums[c] (when a
  // column's acc is beyond f32's range, the whole block takes row_out's double path with
  // acc as the sums). Both passes run inside the kernel with the next rows prefetched, so
  // narrow column tiles of long strides cost neither a call per row nor a demand miss per
  // row. acc and sums: w each.
  void (*ara_block)(const void* dy, const void* y, void* out, size_t r, size_t row_stride, size_t w,
                    double* acc, float* sums);
  // ara_block's first pass alone: acc and sums as ara_block computes them; false when a
  // column's acc is beyond f32's range (its sums entry is then not set, and the block
  // needs ara_block's double path). With cols_out, the output pass can run by rows, on
  // other cores, with the bits of ara_block.
  bool (*ara_sums)(const void* dy, const void* y, size_t r, size_t row_stride, size_t w,
                   double* acc, float* sums);
};
// in: FLOAT, FLOAT16, BFLOAT16; out: those or DOUBLE. All null when unsupported. With
// StoreMode::kStream, row_out and cols_out write with non-temporal stores (same bits).
SoftmaxBackwardKernels GetSoftmaxBackward(RowFunction fn, DType in, DType out,
                                          StoreMode mode = StoreMode::kCached);

// The 16 partials in a fixed pairwise order.
inline double CombinePartials(const double* p) {
  double level[kRowPartials];
  for (size_t i = 0; i < kRowPartials; ++i) level[i] = p[i];
  for (size_t width = kRowPartials; width > 1; width /= 2) {
    for (size_t i = 0; i < width / 2; ++i) level[i] = level[2 * i] + level[2 * i + 1];
  }
  return level[0];
}

// SIMD targets: those compiled into this build and supported by this CPU, best first.
std::vector<int64_t> AvailableTargets();
// Restricts dispatch to `target` (one of AvailableTargets()), for tests; 0 restores all.
// Affects executors prepared afterwards.
void ForceTarget(int64_t target);
// The target kernels resolve to now ("AVX3", "AVX2", "SSE4", "EMU128", "NEON", ...).
std::string ActiveTargetName();
std::string TargetName(int64_t target);
// The target whose kernels GetMap / GetSoftmaxForward return now (no cpuid: cheap).
const char* ChosenTargetName();
// How the chosen target converts `dtype` to and from f32 ("f16 F16C", "bf16 integer
// RNE", "none" for FLOAT).
const char* ConversionName(DType dtype);
// The set of targets dispatch may choose from now (changes with ForceTarget): part of the
// key of anything that keeps resolved kernel pointers.
int64_t TargetsStamp();

// ---- Forward operators (the elementwise ones, LogSoftmax, Softmax) ----------------------
// Each element's result is bitwise the same for any split of a tensor or row into calls
// (see each kernel's chunking rule), cached or streaming stores, and on every SIMD target
// of one family: those whose MulAdd rounds once (AVX2, AVX3, NEON, SVE) and those where it
// rounds twice (SSE4, EMU128, SCALAR). Both families hold the documented error bounds.

// Whether the target kernels resolve to now has a fused multiply-add (its family above).
bool ActiveTargetFusesMulAdd();

// The integer form of a two-input operator of rule PromoteIntExact (AddRelu): its inputs'
// values widened to int64, computed modulo 2^64 and wrapped to the promoted integer dtype's
// width: ((x + wrap.offset) & wrap.mask) - wrap.offset (kernels/int_lanes-inl.h). params:
// as MapFn's (the functor reads its parameters' exact integer values). out may equal
// a or b exactly.
struct IntWrap {
  uint64_t offset = 0;  // 2^(w-1) for a signed dtype of w bits, 0 for unsigned
  uint64_t mask = ~0ull;  // 2^w - 1
};
using PromotedIntFn = void (*)(const int64_t* a, const int64_t* b, int64_t* out, size_t n,
                               const OpParams& params, const IntWrap& wrap);
// Null for an operator of another rule.
PromotedIntFn GetPromotedInt(Op op);
// The integer dtypes AllSameOrExactInt operators compute exactly.
constexpr bool IsExactIntDType(DType d) {
  return d == DType::kInt8 || d == DType::kUInt8 || d == DType::kInt32 || d == DType::kInt64;
}

// The softmax forward, LogSoftmax's out = (x - max) - log(sum exp(x - max)) and Softmax's
// out = exp(x - max) / sum exp(x - max), along a row or column: the row functions share
// every pass but the output's. exp(x - max) is computed in f32 and summed in double, in a
// fixed order: a row (AR) in kRowPartials partial sums (element i to partial i % 16,
// whatever the SIMD width; each partial's four exps of a block of kRowSumBlock elements
// first summed in f32) combined by CombinePartials; a column (ARA) in row order. So the
// sums, and the results, do not depend on the tiling, the thread count or the SIMD target
// within a family. NaN inputs are skipped by the max and make the sum, and so the whole
// row, NaN; +inf in a row gives inf - inf = NaN (as PyTorch); a row of -inf gives NaN.
struct SoftmaxForwardKernels {
  RowFunction fn = RowFunction::kLogSoftmax;
  // *max = max(*max, x[i]) over i < n, NaN elements skipped (start from -inf). Exact,
  // so chunkable at any split.
  void (*row_max)(const void* x, size_t n, float* max);
  // partials[i % 16] += exp(x[i] - max) (f32 exp; f32 sums of each block of 64 elements
  // without the max's own 1s, which are added after them; double adds), i < n; the row's
  // first element has i = 0, so a chunk must start at a multiple of kRowSumBlock.
  void (*row_sum_exp)(const void* x, size_t n, float max, double* partials);
  // row_sum_exp without the elements equal to max: for a sum below kLogSumNearOne, whose
  // log is then log1p of this one (RowStat).
  void (*row_sum_exp_off_max)(const void* x, size_t n, float max, double* partials);
  // A whole row of n <= kRowWholeMax elements in one call, with the bits of the three
  // passes above, RowStat and row_out; a 16-bit row is widened to f32 once (on the
  // stack), not in every pass. out may be x exactly.
  void (*row_whole)(const void* x, size_t n, void* out);
  // The output pass, i < n, with stat the row's RowStat (in double, narrowed to f32 here):
  // LogSoftmax out[i] = (x[i] - max) - (float)log_sum; Softmax out[i] = exp(x[i] - max) *
  // (float)(1 / sum). out may be x exactly.
  void (*row_out)(const void* x, float max, double stat, void* out, size_t n);
  // ARA, one (R x w) block whose rows are row_stride elements apart (x and out): max[c] =
  // the column's max over rows 0..r-1, acc[c] = sum over the rows in order of
  // exp(x[row][c] - max[c]) (f32 sums of groups of 4 rows from row 0, the max's own 1s
  // added after them, as row_sum_exp's blocks; double adds), then the output pass with the
  // column's f32 statistic (LogSoftmax: log(acc[c]), or below kLogSumNearOne log1p of the
  // column's sum without its max, in row order; Softmax: 1 / acc[c]). The passes run
  // inside the kernel with the next rows prefetched; max and acc (w each) hold the
  // columns' max and sum on return. out may be x exactly. With StoreMode::kStream the
  // output pass writes with non-temporal stores (the same bits; blocks narrower than a
  // vector, rows back to back, store plainly). A column tile may be any width: each
  // column's result is its own.
  void (*ara_block)(const void* x, void* out, size_t r, size_t row_stride, size_t w, float* max,
                    double* acc);
  // ara_block's first two passes alone, for blocks wider than the narrow kernel's: max[c]
  // and acc[c] as ara_block leaves them, and stat[c] = the f32 statistic it takes of
  // acc[c] (w each). With cols_out, the output pass can run by rows, on other cores, with
  // the bits of ara_block.
  void (*ara_stats)(const void* x, size_t r, size_t row_stride, size_t w, float* max, double* acc,
                    float* stat);
  // One row of ara_block's output pass, c < w, with the columns' max and stat.
  void (*cols_out)(const void* x, const float* max, const float* stat, void* out, size_t w);
};
// A sum of exp(x - max) below this and at least 1 (the max's own exp(0); a row of -inf's
// or NaN gives NaN) has exactly one element at the max and the rest adding up to less
// than 2^-20, which the double sum may have lost to rounding against the 1 (a result of
// -1e-30 would come out 0). Its log is then taken as log1p of the sum without the max
// (row_sum_exp_off_max; the ARA kernel does the same per column), so every result keeps
// its relative accuracy.
constexpr double kLogSumNearOne = 1.0 + 1.0 / (1 << 20);
// Whether a sum of exp(x - max) takes that log1p path (NaN does not).
inline bool LogSumNearOne(double sum) { return sum >= 1.0 && sum < kLogSumNearOne; }
// The longest row row_whole takes (its f32 copy lives on the stack).
constexpr size_t kRowWholeMax = 4096;
// The log of a row's sum of exp from its partials: log of their CombinePartials, or below
// kLogSumNearOne log1p of the sum without the max, whose partials off_max(rest) adds up
// (row_sum_exp_off_max over the row).
template <class OffMax>
inline double LogSumOfPartials(const double* partials, OffMax off_max) {
  const double sum = CombinePartials(partials);
  if (!LogSumNearOne(sum)) return std::log(sum);
  double rest[kRowPartials] = {0};
  off_max(rest);
  return std::log1p(CombinePartials(rest));
}
// The statistic row_out takes, for a row x of n elements of esize bytes whose sums k's
// passes left in partials, run in chunks of `chunk` (a multiple of kRowSumBlock): the log
// of the sum (LogSumOfPartials) or its reciprocal.
inline double RowStat(const SoftmaxForwardKernels& k, const void* x, size_t n, size_t esize,
                      size_t chunk, float max, const double* partials) {
  if (k.fn == RowFunction::kSoftmax) return 1.0 / CombinePartials(partials);
  return LogSumOfPartials(partials, [&](double* rest) {
    const char* xb = static_cast<const char*>(x);
    for (size_t i = 0; i < n; i += chunk) {
      k.row_sum_exp_off_max(xb + i * esize, n - i < chunk ? n - i : chunk, max, rest);
    }
  });
}
// in == out, FLOAT, FLOAT16 or BFLOAT16; all null otherwise. With StoreMode::kStream,
// row_out, ara_block and cols_out write with non-temporal stores (the same bits).
SoftmaxForwardKernels GetSoftmaxForward(RowFunction fn, DType in, DType out,
                                        StoreMode mode = StoreMode::kCached);

// LogSoftmax and Softmax forward in double, f64 lanes (LogSoftmax into a DOUBLE out, self
// cast to DOUBLE first, exactly; Softmax of a DOUBLE self): exp(x - max) by a polynomial of
// its own (about 1.5 ULP), summed as compensated (sum, error) pairs: a row (AR) in
// kRowPartials pairs (element i to pair i % 16 whatever the SIMD width) combined in index
// order; a column (ARA) down its rows in order. The statistic of the sum is LogSoftmax's
// std::log of it (std::log1p below 2, so a sum of 1 + 1e-30 keeps its 1e-30) or Softmax's
// sum itself, each output exp(x - max) divided by it once. So the results do not depend on
// the tiling or the thread count, and error stays within 2^-50 (|x - max| + 1) plus a few
// ULP (LogSoftmax), 4 ULP plus 2^-50 max(y) (Softmax), for rows of any length. NaN and +inf
// in a row, or a row of -inf only, give NaN throughout; -inf beside a finite max gives -inf
// (0 for Softmax). Every output may be its input exactly (in place).
struct SoftmaxF64Kernels {
  // A whole row of n elements.
  void (*row)(const double* x, size_t n, double* out);
  // An (R x w) block whose rows are row_stride elements apart: max[c] the column's max,
  // stat[c] the statistic of its sum of exp(x - max[c]), c < w.
  void (*ara_stats)(const double* x, size_t r, size_t row_stride, size_t w, double* max,
                    double* stat);
  // out[c] from x[c], max[c] and stat[c], c < w: one row of a block's output.
  void (*cols_out)(const double* x, const double* max, const double* stat, double* out, size_t w);
  // ara_stats, then every row of the block through cols_out.
  void (*ara_block)(const double* x, double* out, size_t r, size_t row_stride, size_t w,
                    double* max, double* stat);
  // The exp the sums use, out[i] = exp(v[i]) for v[i] <= 0 or NaN (for tests).
  void (*exp)(const double* v, double* out, size_t n);
};
SoftmaxF64Kernels GetSoftmaxF64(RowFunction fn);

// PreluBackward over n contiguous f32 elements of one channel (weight w): gi[i] = x[i] > 0 ?
// dy[i] : w * dy[i], and the return value, the sum in double of dy[i] * x[i] where x[i] is
// not > 0 (each product exact), in a fixed order whatever the SIMD width: element i to
// partial i % kRowPartials, the partials combined by CombinePartials. So the sum has the
// same bits on every target.
using PreluBackwardSegmentFn = double (*)(const float* dy, const float* x, float w, float* gi,
                                          size_t n);
PreluBackwardSegmentFn GetPreluBackwardSegment();

// ---- The PointLoss kind's kernels (kernels/loss_kernels.cc) -------------------------------
// One loss's kernels over n contiguous elements of one storage type (GetPointLossKernels'
// dtype: FLOAT, FLOAT16 or BFLOAT16, widened exactly). in[k]: the operator's inputs in the
// list's order (kMaxLossInputs pointers), null for an absent optional one, which reads as 1.
// - terms: out[i] = the term at i, computed in double (the cross entropy's exponentials and
//   logarithms in f32 lanes, within about 3 f32 ULP) and rounded once to f32 (then to the
//   storage type): MseLoss (self - target)^2; BinaryCrossEntropyWithLogits
//   w [pw t softplus(-x) + (1 - t) softplus(x)]; its gradients' terms times `scale` (1, or
//   1 / count for the mean): dy w [(1 - t) sigmoid(x) - pw t sigmoid(-x)] (Backward) and
//   dy w [pw softplus(-x) - softplus(x)] (TargetBackward; -x without pw). MseLossBackward's is
//   ((self - target) * cof) * dy in f32, in the order of CANN's MseLossGradV2 kernel (`scale`
//   is cof: 2, or its f32 2 / numel(self) for the mean).
// - sum (the forwards): the terms' sum in double, element i to partial i % kRowPartials
//   whatever the SIMD width, combined by CombinePartials (the same bits on every target).
// - add_columns (MseLoss, MseLossOut; f32 only): one row's terms added to its columns' double
//   totals, acc[j] += (a[j] - b[j])^2.
constexpr int kMaxLossInputs = 5;
struct PointLossKernels {
  void (*terms)(const void* const* in, double scale, void* out, size_t n) = nullptr;
  double (*sum)(const void* const* in, size_t n) = nullptr;
  void (*add_columns)(const float* a, const float* b, double* acc, size_t n) = nullptr;
};
PointLossKernels GetPointLossKernels(Op op, DType storage);

// ---- The SoftmaxLoss kind's kernels (kernels/cross_entropy_kernels.cc) ----------------------
// CrossEntropyLoss's and SoftmaxCrossEntropyWithLogits' row pieces beside the softmax
// forward's (GetSoftmaxForward gives the row's max, its sum of exp and logProb), over n
// contiguous elements of one storage type (FLOAT, FLOAT16 or BFLOAT16, widened exactly);
// w, y: FLOAT per class, w null for none (1).
// - shifted_sum: sum over i of w[i] (x[i] - shift) in double (each difference and product
//   rounded once; exact for a shift that is a float), element i to partial i % kRowPartials
//   whatever the SIMD width, combined by CombinePartials: the same bits on every target.
//   Label smoothing's row term is this at the row's max minus lse times the weights' sum;
//   the dense labels' loss minus this at max + lse.
// - grad_row: out[i] = exp(lp[i]) k - b w[i] (b where w is null) in f32 lanes (the exp within
//   1.8 ULP where a vector's lp are at most 0, Highway's Exp where one is above; k and b
//   rounded to f32 once; a fused multiply-add where the target has one), rounded once to the
//   storage type: CrossEntropyLossGrad's row but for its target's element, which the executor
//   writes after it.
// - label_grad_row: out[i] = exp((x[i] - max) - lse) - y[i] in f32 lanes, rounded once to
//   the storage type (SoftmaxCrossEntropyWithLogits' backprop). Its argument's two roundings
//   cost at most 2^-24 (|x - max| + lse) exp(-(|x - max| + lse)) < 2^-24 absolute.
struct SoftmaxLossKernels {
  double (*shifted_sum)(const void* x, const float* w, double shift, size_t n) = nullptr;
  void (*grad_row)(const void* lp, const float* w, float k, float b, void* out, size_t n) = nullptr;
  void (*label_grad_row)(const void* x, const float* y, float max, float lse, void* out,
                         size_t n) = nullptr;
};
SoftmaxLossKernels GetSoftmaxLossKernels(DType storage);

// ---- The normalisations' rows (Kind Rows, ShapeRule TrailingDims) ------------------------
// A normalisation's row as its functions take it (a RowArgs, kernels/row_fns.h; the functions
// kernels/norm_kernels.cc's): n >= 1 contiguous f32 elements per row operand. Every sum is taken in
// double in a fixed order (element i to partial i % kNormPartials), every other operation in double
// without a fused multiply-add, each output rounded once to f32: the same bits on every target. 32
// partials: four independent f64 accumulators on AVX-512, eight on AVX2, so a row's sums run at the
// adder's throughput, not its latency; whole vectors on every target.
constexpr size_t kNormPartials = 32;
// The most row operands and per-column operands a normalisation takes (AddLayerNormGrad's dy,
// x1, x2 and dsum; AddLayerNorm's gamma, beta and a per-column bias).
constexpr int kNormRowOperands = 4;
constexpr int kNormColumnOperands = 3;
// A normalisation's row function (RowFns::row over a RowArgs, kernels/row_fns.h; GetNormRowFns):
//   LayerNorm: stats mean and rstd = 1 / sqrt(var + eps) (the biased, centred variance);
//     out = (x - mean) * rstd * cols[0] + cols[1] (null: 1 and 0).
//   RmsNorm: stats[0] rstd = 1 / sqrt(sum(x^2) / n + eps); out = x * rstd * cols[0].
//   AddRmsNorm: x = in[0] + in[1], out2 = x where given, then RmsNorm's of x.
//   AddLayerNorm: x = in[0] + in[1] + bias (in[2] or cols[2], whichever is given; none: 0),
//     out2 = x where given, then LayerNorm's of x with cols[0] and cols[1].
//   GroupNorm: LayerNorm's with per-channel cols (channel_len elements each).
//   GroupNormBackward: LayerNormBackward's with per-channel cols.
//   RmsNormGrad: rstd = row_in[0], m = rstd * sum(dy * gamma * x) / n;
//     out = dx = (dy * gamma - x * rstd * m) * rstd.
//   LayerNormBackward: mean = row_in[0], rstd = row_in[1], xhat = (x - mean) * rstd, g =
//     cols[0] (1 where null), a = sum(dy * g) / n, b = sum(dy * g * xhat) / n;
//     out = dx = (dy * g - (a + xhat * b)) * rstd.
//   AddLayerNormGrad: LayerNormBackward's with x = in[1] + in[2], plus in[3] (dsum) where given.
// A gradient's column terms (RowFns::columns): RmsNormGrad: sums[0][j] += dy[j] * x[j] * rstd,
// dgamma's terms; LayerNormBackward, AddLayerNormGrad: dgamma's dy * xhat, dbeta's dy;
// GroupNormBackward: those summed over each channel, sums[k][c] its channel c.

// ---- RReluWithNoise (Kind NoiseMap) ------------------------------------------------------
// The stream of uniform numbers: number k (k a uint64, wrapping) is word k % 4 of the block
// Philox4x32-10(counter = (lo32(k / 4), hi32(k / 4), 0, 0), key = (key0, key1)) (Salmon et
// al., SC'11; the words as Random123 numbers them), read as u = (word >> 8) * 2^-24 in
// [0, 1) and scaled to lower + (upper - lower) * u in f32 (each operation rounded, no
// fused multiply-add), then rounded once to the tile's dtype. The same bits on every target.
constexpr uint32_t kPhiloxM0 = 0xD2511F53u, kPhiloxM1 = 0xCD9E8D57u;
constexpr uint32_t kPhiloxW0 = 0x9E3779B9u, kPhiloxW1 = 0xBB67AE85u;
enum class NoiseDType { kF32, kF16, kBF16 };
struct NoiseDraw {
  uint32_t key0 = 0, key1 = 0;  // the seed's low and high 32 bits
  float lower = 0.0f, upper = 0.0f;
  NoiseDType dtype = NoiseDType::kF32;
};
struct NoiseTiles {
  // u[j] = number position + j of the stream, j < n.
  void (*draw)(const NoiseDraw& p, uint64_t position, float* u, size_t n);
  // The training tile of n contiguous f32 elements, x[0] being number `position` of the
  // stream: noise[i] = x[i] < 0 ? u : 1 (u its number), out[i] = x[i] * noise[i].
  void (*train)(const NoiseDraw& p, uint64_t position, const float* x, float* out, float* noise,
                size_t n);
  // The evaluation tile: out[i] = x[i] > 0 ? x[i] : x[i] * slope.
  void (*eval)(float slope, const float* x, float* out, size_t n);
};
NoiseTiles GetNoiseTiles();

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_KERNELS_H_
