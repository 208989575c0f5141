// LogSoftmax and Softmax forward in double for every compiled SIMD target, and their
// dispatch table (GetSoftmaxF64): LogSoftmax into a DOUBLE out (self cast to DOUBLE first,
// as CANN does), Softmax of a DOUBLE self (computed in self's dtype; the executor casts
// the result to out's). f64 lanes throughout: an exp of its own (about 1.5 ULP), sums of
// exp(x - max) kept as compensated (sum, error) pairs in a fixed order; LogSoftmax takes
// the log of the sum in the C library's double precision, Softmax divides each exp by it.
// See SoftmaxF64Kernels in kernels.h for the order of the sums.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax_f64_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "kernels/f64_lanes-inl.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

using DD = hn::ScalableTag<double>;
using VD = hn::Vec<DD>;
constexpr size_t kMaxF64Lanes = HWY_MAX_BYTES / sizeof(double);

// The running max: v replaces m only where v > m, so NaN lanes (and the padding) are
// skipped and the result is exact in any order.
HWY_INLINE VD MaxUpdate(VD m, VD v) { return hn::IfThenElse(hn::Gt(v, m), v, m); }

// Knuth's TwoSum: s + e into s with its rounding error added to c (no branch, any signs).
HWY_INLINE void TwoSumInto(VD e, VD* s, VD* c) {
  const VD sum = hn::Add(*s, e);
  const VD bp = hn::Sub(sum, *s);
  const VD err = hn::Add(hn::Sub(*s, hn::Sub(sum, bp)), hn::Sub(e, bp));
  *c = hn::Add(*c, err);
  *s = sum;
}
HWY_INLINE void TwoSumInto(double e, double* s, double* c) {
  const double sum = *s + e;
  const double bp = sum - *s;
  *c += (*s - (sum - bp)) + (e - bp);
  *s = sum;
}

// log(s + c) of a compensated sum of exp(x - max) (s >= 1 unless NaN): where s < 2, log1p
// of (s - 1) + c, s - 1 exact, so a sum of 1 + 1e-30 (one element at the max, the rest far
// below) keeps its 1e-30; above, log(s) + c / s.
HWY_INLINE double LogOfSum(double s, double c) {
  if (s < 2.0) return std::log1p((s - 1.0) + c);
  return std::log(s) + c / s;
}

// The statistic of a compensated sum (s, c) of exp(x - max): LogSoftmax's log of it,
// Softmax's sum itself (each output divides by it once).
template <RowFunction kFn>
HWY_INLINE double StatOfSum(double s, double c) {
  if constexpr (kFn == RowFunction::kLogSoftmax) {
    return LogOfSum(s, c);
  } else {
    return s + c;
  }
}
// An output vector from x, its row's (or column's) max and statistic: (x - max) - log sum
// (x - max first, exact where it cancels), or exp(x - max) / sum.
template <RowFunction kFn>
HWY_INLINE VD OutOf(DD d, VD x, VD max, VD stat) {
  if constexpr (kFn == RowFunction::kLogSoftmax) {
    return hn::Sub(hn::Sub(x, max), stat);
  } else {
    return hn::Div(ExpF64(d, hn::Sub(x, max)), stat);
  }
}

// ---- AR: along a contiguous row ---------------------------------------------------------

HWY_INLINE double RowMax(const double* x, size_t n) {
  const DD d;
  const size_t N = hn::Lanes(d);
  const VD ninf = hn::Set(d, -HUGE_VAL);
  VD m0 = ninf, m1 = ninf, m2 = ninf, m3 = ninf;
  size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    m0 = MaxUpdate(m0, hn::LoadU(d, x + i));
    m1 = MaxUpdate(m1, hn::LoadU(d, x + i + N));
    m2 = MaxUpdate(m2, hn::LoadU(d, x + i + 2 * N));
    m3 = MaxUpdate(m3, hn::LoadU(d, x + i + 3 * N));
  }
  for (; i + N <= n; i += N) m0 = MaxUpdate(m0, hn::LoadU(d, x + i));
  m0 = MaxUpdate(MaxUpdate(m0, m1), MaxUpdate(m2, m3));
  HWY_ALIGN double lanes[kMaxF64Lanes];
  hn::Store(m0, d, lanes);
  double m = -HUGE_VAL;
  for (size_t j = 0; j < N; ++j) m = lanes[j] > m ? lanes[j] : m;
  for (; i < n; ++i) m = x[i] > m ? x[i] : m;
  return m;
}

// The row's statistic of sum exp(x - max): element i goes to partial i % kRowPartials (a
// compensated pair per partial, whatever the SIMD width), and the partials are combined
// in index order by TwoSum. A short last group is padded with exps of 0.
// kKeep: each exp(x - max) is also stored to keep[i] (Softmax's row, whose output pass
// then divides them: one exp per element; keep may be x).
template <RowFunction kFn, bool kKeep = false>
HWY_INLINE double RowStatF64(const double* x, size_t n, double max, double* keep = nullptr) {
  const DD d;
  constexpr size_t kN = HWY_LANES(double);
  static_assert(kRowPartials % kN == 0, "the partials must be whole f64 vectors");
  constexpr size_t kVecs = kRowPartials / kN;
  VD s[kVecs], c[kVecs];
  for (size_t k = 0; k < kVecs; ++k) s[k] = c[k] = hn::Zero(d);
  const VD m = hn::Set(d, max);
  size_t i = 0;
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kVecs; ++k) {
      const VD e = ExpF64(d, hn::Sub(hn::LoadU(d, x + i + k * kN), m));
      if constexpr (kKeep) hn::StoreU(e, d, keep + i + k * kN);
      TwoSumInto(e, &s[k], &c[k]);
    }
  }
  if (i < n) {
    HWY_ALIGN double pad[kRowPartials] = {};
    for (size_t j = 0; j < n - i; ++j) pad[j] = x[i + j];
    for (size_t k = 0; k < kVecs; ++k) {
      const size_t lanes = n - i > k * kN ? std::min(kN, n - i - k * kN) : 0;
      const VD e = ExpF64(d, hn::Sub(hn::Load(d, pad + k * kN), m));
      if constexpr (kKeep) hn::Store(e, d, pad + k * kN);  // pad's lanes were read
      TwoSumInto(hn::IfThenElseZero(hn::FirstN(d, lanes), e), &s[k], &c[k]);
    }
    if constexpr (kKeep) {
      for (size_t j = 0; j < n - i; ++j) keep[i + j] = pad[j];
    }
  }
  HWY_ALIGN double ps[kRowPartials], pc[kRowPartials];
  for (size_t k = 0; k < kVecs; ++k) {
    hn::Store(s[k], d, ps + k * kN);
    hn::Store(c[k], d, pc + k * kN);
  }
  double sum = ps[0], err = pc[0];
  for (size_t p = 1; p < kRowPartials; ++p) {
    TwoSumInto(ps[p], &sum, &err);
    err += pc[p];
  }
  return StatOfSum<kFn>(sum, err);
}

// out[i] from x[i], i < n, and the row's max and statistic; a short last vector through a
// padded copy (the same lane operations).
template <RowFunction kFn>
HWY_INLINE void RowOutF64(const double* x, double max, double stat, double* out, size_t n) {
  const DD d;
  const size_t N = hn::Lanes(d);
  const VD m = hn::Set(d, max), st = hn::Set(d, stat);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(OutOf<kFn>(d, hn::LoadU(d, x + i), m, st), d, out + i);
  if (i < n) {
    HWY_ALIGN double pad[kMaxF64Lanes] = {};
    for (size_t j = 0; j < n - i; ++j) pad[j] = x[i + j];
    hn::Store(OutOf<kFn>(d, hn::Load(d, pad), m, st), d, pad);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = pad[j];
  }
}

// out may be x: a vector is read before it is written.
template <RowFunction kFn>
void RowF64(const double* x, size_t n, double* out) {
  const double max = RowMax(x, n);
  if constexpr (kFn == RowFunction::kSoftmax) {
    // The sum pass keeps each exp in out, the output pass divides them by the sum: the
    // bits of OutOf's exp(x - max) / sum, with one exp an element instead of two.
    const double sum = RowStatF64<kFn, true>(x, n, max, out);
    const DD d;
    const size_t N = hn::Lanes(d);
    const VD st = hn::Set(d, sum);
    size_t i = 0;
    for (; i + N <= n; i += N) hn::StoreU(hn::Div(hn::LoadU(d, out + i), st), d, out + i);
    for (; i < n; ++i) out[i] = out[i] / sum;
  } else {
    RowOutF64<kFn>(x, max, RowStatF64<kFn>(x, n, max), out, n);
  }
}

// ---- ARA: along the rows of an (R x w) block ----------------------------------------------

// Columns per pass of the block statistics: each pass walks the rows once per statistic,
// reading kF64ColChunk contiguous elements of each (a stream the prefetchers follow, where
// a vector's worth of columns per walk would touch one cache line per row), with the
// chunk's sums on the stack.
constexpr size_t kF64ColChunk = 512;

// Calls fn(row vector, column offset) for every vector of the columns [0, w) of a row, in
// column order; a partial last vector through a zero-padded copy, so that every column
// meets the same lane operations wherever the block's edges fall.
template <class Fn>
HWY_INLINE void ForRowVectors(const double* row, size_t w, Fn fn) {
  const DD d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  for (; c + N <= w; c += N) fn(hn::LoadU(d, row + c), c);
  if (c < w) {
    HWY_ALIGN double pad[kMaxF64Lanes];
    for (size_t j = 0; j < N; ++j) pad[j] = c + j < w ? row[c + j] : 0.0;
    fn(hn::Load(d, pad), c);
  }
}

// max[c] and stat[c] (the statistic of the column's sum of exp(x - max)), c < w: each
// column's max over the rows, then its compensated sum down the rows in order, lane by lane
// (the bits do not depend on how the columns were cut into blocks, chunks or vectors).
template <RowFunction kFn>
void AraStatsF64(const double* x, size_t r, size_t stride, size_t w, double* max, double* stat) {
  const DD d;
  const size_t N = hn::Lanes(d);
  // The chunk's statistics in whole vectors (its last one padded).
  HWY_ALIGN double m[kF64ColChunk], sum[kF64ColChunk], err[kF64ColChunk];
  for (size_t c0 = 0; c0 < w; c0 += kF64ColChunk) {
    const size_t cw = std::min(kF64ColChunk, w - c0);
    for (size_t c = 0; c < (cw + N - 1) / N * N; ++c) {
      m[c] = -HUGE_VAL;
      sum[c] = err[c] = 0.0;
    }
    if (cw <= N) {
      // One vector of columns ([1024, 4] dim 0): its statistics stay in registers down the
      // rows, the same lane operations in the same order as below.
      VD mv = hn::Load(d, m), s = hn::Zero(d), e = hn::Zero(d);
      for (size_t row = 0; row < r; ++row) {
        ForRowVectors(x + row * stride + c0, cw, [&](VD v, size_t) { mv = MaxUpdate(mv, v); });
      }
      for (size_t row = 0; row < r; ++row) {
        ForRowVectors(x + row * stride + c0, cw,
                      [&](VD v, size_t) { TwoSumInto(ExpF64(d, hn::Sub(v, mv)), &s, &e); });
      }
      hn::Store(mv, d, m);
      hn::Store(s, d, sum);
      hn::Store(e, d, err);
    } else {
      for (size_t row = 0; row < r; ++row) {
        ForRowVectors(x + row * stride + c0, cw, [&](VD v, size_t c) {
          hn::Store(MaxUpdate(hn::Load(d, m + c), v), d, m + c);
        });
      }
      for (size_t row = 0; row < r; ++row) {
        ForRowVectors(x + row * stride + c0, cw, [&](VD v, size_t c) {
          VD s = hn::Load(d, sum + c), e = hn::Load(d, err + c);
          TwoSumInto(ExpF64(d, hn::Sub(v, hn::Load(d, m + c))), &s, &e);
          hn::Store(s, d, sum + c);
          hn::Store(e, d, err + c);
        });
      }
    }
    for (size_t c = 0; c < cw; ++c) {
      max[c0 + c] = m[c];
      stat[c0 + c] = StatOfSum<kFn>(sum[c], err[c]);
    }
  }
}

// out[c] from x[c] and column c's max and statistic, c < w: one row of a block's output.
template <RowFunction kFn>
void ColsOutF64(const double* x, const double* max, const double* stat, double* out, size_t w) {
  const DD d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    hn::StoreU(OutOf<kFn>(d, hn::LoadU(d, x + c), hn::LoadU(d, max + c), hn::LoadU(d, stat + c)), d,
               out + c);
  }
  if (c < w) {
    HWY_ALIGN double px[kMaxF64Lanes] = {}, pm[kMaxF64Lanes] = {}, ps[kMaxF64Lanes];
    for (size_t j = 0; j < N; ++j) ps[j] = 1.0;
    for (size_t j = 0; j < w - c; ++j) px[j] = x[c + j], pm[j] = max[c + j], ps[j] = stat[c + j];
    hn::Store(OutOf<kFn>(d, hn::Load(d, px), hn::Load(d, pm), hn::Load(d, ps)), d, px);
    for (size_t j = 0; j < w - c; ++j) out[c + j] = px[j];
  }
}

// A whole (R x w) block: its columns' statistics, then its rows (out may be x: a row is
// written only after every column's statistics were taken).
template <RowFunction kFn>
void AraBlockF64(const double* x, double* out, size_t r, size_t stride, size_t w, double* max,
                 double* stat) {
  AraStatsF64<kFn>(x, r, stride, w, max, stat);
  for (size_t row = 0; row < r; ++row) {
    ColsOutF64<kFn>(x + row * stride, max, stat, out + row * stride, w);
  }
}

void LsdRow(const double* x, size_t n, double* out) { RowF64<RowFunction::kLogSoftmax>(x, n, out); }
void LsdAraStats(const double* x, size_t r, size_t stride, size_t w, double* max, double* ls) {
  AraStatsF64<RowFunction::kLogSoftmax>(x, r, stride, w, max, ls);
}
void LsdColsOut(const double* x, const double* max, const double* ls, double* out, size_t w) {
  ColsOutF64<RowFunction::kLogSoftmax>(x, max, ls, out, w);
}
void LsdAraBlock(const double* x, double* out, size_t r, size_t stride, size_t w, double* max,
                 double* ls) {
  AraBlockF64<RowFunction::kLogSoftmax>(x, out, r, stride, w, max, ls);
}
void SmdRow(const double* x, size_t n, double* out) { RowF64<RowFunction::kSoftmax>(x, n, out); }
void SmdAraStats(const double* x, size_t r, size_t stride, size_t w, double* max, double* sum) {
  AraStatsF64<RowFunction::kSoftmax>(x, r, stride, w, max, sum);
}
void SmdColsOut(const double* x, const double* max, const double* sum, double* out, size_t w) {
  ColsOutF64<RowFunction::kSoftmax>(x, max, sum, out, w);
}
void SmdAraBlock(const double* x, double* out, size_t r, size_t stride, size_t w, double* max,
                 double* sum) {
  AraBlockF64<RowFunction::kSoftmax>(x, out, r, stride, w, max, sum);
}

// For tests: exp(v) of ExpF64 for n values (v <= 0 or NaN).
void LsdExp(const double* v, double* out, size_t n) {
  const DD d;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN double pad[kMaxF64Lanes];
  for (size_t i = 0; i < n; i += N) {
    const size_t lanes = std::min(N, n - i);
    for (size_t j = 0; j < N; ++j) pad[j] = j < lanes ? v[i + j] : 0.0;
    hn::Store(ExpF64(d, hn::Load(d, pad)), d, pad);
    for (size_t j = 0; j < lanes; ++j) out[i + j] = pad[j];
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(LsdRow);
HWY_EXPORT(LsdAraStats);
HWY_EXPORT(LsdColsOut);
HWY_EXPORT(LsdAraBlock);
HWY_EXPORT(LsdExp);
HWY_EXPORT(SmdRow);
HWY_EXPORT(SmdAraStats);
HWY_EXPORT(SmdColsOut);
HWY_EXPORT(SmdAraBlock);

SoftmaxF64Kernels GetSoftmaxF64(RowFunction fn) {
  SoftmaxF64Kernels k;
  const bool log = fn == RowFunction::kLogSoftmax;
  k.row = log ? HOSTNN_PICK(LsdRow) : HOSTNN_PICK(SmdRow);
  k.ara_stats = log ? HOSTNN_PICK(LsdAraStats) : HOSTNN_PICK(SmdAraStats);
  k.cols_out = log ? HOSTNN_PICK(LsdColsOut) : HOSTNN_PICK(SmdColsOut);
  k.ara_block = log ? HOSTNN_PICK(LsdAraBlock) : HOSTNN_PICK(SmdAraBlock);
  k.exp = HOSTNN_PICK(LsdExp);
  return k;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
