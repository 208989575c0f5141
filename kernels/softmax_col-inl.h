// The softmax forward down the rows of an (R x w) block (ARA): the columns' max and
// double sums of exp(x - max) in row order, the output pass, the narrow kernel for blocks
// thinner than a vector, for any row function (softmax_exp-inl.h). Lanes: f32.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_SOFTMAX_COL_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_SOFTMAX_COL_INL_H_
#undef HOSTNN_KERNELS_SOFTMAX_COL_INL_H_
#else
#define HOSTNN_KERNELS_SOFTMAX_COL_INL_H_
#endif

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "kernels/softmax_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- ARA: along rows of an (R x w) block --------------------------------------------------

// Rows are prefetched kFwdPrefetchRows ahead when a row segment is short: a few cache
// lines in its own page, where the hardware prefetchers (which stop at page boundaries)
// do not reach. Wide segments are streams the prefetchers follow on their own.
constexpr size_t kFwdPrefetchRows = 4;
constexpr size_t kFwdPrefetchMaxBytes = 1024;
// Rows per group of the column sums: a column's exps are added in f32 a group at a time,
// groups starting at row 0 (so a column's bits do not depend on how its block was cut),
// and each group's sum once in double. Also the rows per load and store of the max.
constexpr size_t kFwdBlockRows = 4;
// Columns whose f32 log-sums the output pass holds at once (on the stack): as wide as the
// executor's blocks, so that it writes whole row segments, which the prefetchers follow.
constexpr size_t kFwdColChunk = 4096;

template <class T>
HWY_INLINE void FwdPrefetchRow(const T* p, size_t w) {
  const char* c = reinterpret_cast<const char*>(p);
  for (size_t b = 0; b < w * sizeof(T); b += 64) hwy::Prefetch(c + b);
}

// max[c] = max(max[c], x[k * stride + c]) for k < rows, c < w.
template <class Tag>
HWY_INLINE void ColMaxRows(const typename Tag::T* x, size_t stride, size_t rows, float* max,
                           size_t w) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    auto m = hn::LoadU(d, max + c);
    for (size_t k = 0; k < rows; ++k) m = FwdMaxUpdate(m, LoadF32(d, Tag(), x + k * stride + c));
    hn::StoreU(m, d, max + c);
  }
  if (c < w) {
    HWY_ALIGN T pad[kMaxLanes];
    HWY_ALIGN float bm[kMaxLanes];
    CopyPadded(max + c, w - c, bm, N);
    auto m = hn::Load(d, bm);
    for (size_t k = 0; k < rows; ++k) {
      FwdCopyPaddedNaN<Tag>(x + k * stride + c, w - c, pad, N);
      m = FwdMaxUpdate(m, LoadF32(d, Tag(), pad));
    }
    hn::Store(m, d, bm);
    for (size_t j = 0; j < w - c; ++j) max[c + j] = bm[j];
  }
}

// acc[c] += the f32 sum, rows in order, of exp(x[k * stride + c] - max[c]) for k < rows
// (one group of at most kFwdBlockRows rows), c < w: f32 exps added in f32 (a few roundings
// of at most 2^-24 each on values <= 1, as the row sums' blocks), then one double add per
// group, and the count of the group's maxima after it where it holds any (FwdGroupOffMax);
// the last partial vector's columns a lane at a time (the same IEEE additions).
template <class Tag>
HWY_INLINE void ColSumExpRows(const typename Tag::T* x, size_t stride, size_t rows,
                              const float* max, double* acc, size_t w) {
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
#if HWY_TARGET != HWY_SCALAR
  using T = typename Tag::T;
  using V = hn::Vec<decltype(d)>;
  using M = hn::Mask<decltype(d)>;
  const hn::Repartition<double, decltype(d)> dd;
  const size_t Nd = hn::Lanes(dd);
  // The group's f32 sum into acc[c, c + N): e and is_max hold its rows' terms.
  const auto add_group = [&](const V* e, const M* is_max, double* a) {
    auto lo = hn::LoadU(dd, a), hi = hn::LoadU(dd, a + Nd);
    FwdAddGroup(d, dd, e, is_max, rows, &lo, &hi);
    hn::StoreU(lo, dd, a);
    hn::StoreU(hi, dd, a + Nd);
  };
  V e[kFwdBlockRows];
  M is_max[kFwdBlockRows];
  for (; c + N <= w; c += N) {
    const auto m = hn::LoadU(d, max + c);
    for (size_t k = 0; k < rows; ++k) {
      const auto xv = LoadF32(d, Tag(), x + k * stride + c);
      e[k] = FwdExpShifted(d, xv, m);
      is_max[k] = FwdIsMax(d, xv, m);
    }
    add_group(e, is_max, acc + c);
  }
  if (c < w) {
    HWY_ALIGN T pad[kMaxLanes];
    HWY_ALIGN float bm[kMaxLanes];
    HWY_ALIGN double ba[kMaxLanes] = {};
    CopyPadded(max + c, w - c, bm, N);
    for (size_t j = 0; j < w - c; ++j) ba[j] = acc[c + j];
    const auto m = hn::Load(d, bm);
    for (size_t k = 0; k < rows; ++k) {
      CopyPadded(x + k * stride + c, w - c, pad, N);
      const auto xv = LoadF32(d, Tag(), pad);
      e[k] = FwdExpShifted(d, xv, m);
      is_max[k] = FwdIsMax(d, xv, m);
    }
    add_group(e, is_max, ba);
    for (size_t j = 0; j < w - c; ++j) acc[c + j] = ba[j];
  }
#else
  (void)N;
  for (; c < w; ++c) {  // one lane: a column at a time, the same IEEE operations
    const auto m = hn::Set(d, max[c]);
    float f = 0.0f, ones = 0.0f;  // 0 + e is e: the vector path's first term
    for (size_t k = 0; k < rows; ++k) {
      const auto xv = LoadF32(d, Tag(), x + k * stride + c);
      if (hn::GetLane(xv) - max[c] == 0.0f) {
        ones += 1.0f;
      } else {
        f += hn::GetLane(FwdExpShifted(d, xv, m));
      }
    }
    acc[c] += static_cast<double>(f);
    acc[c] += static_cast<double>(ones);  // + 0 where the group has no max: no change
  }
#endif
}

// out[c] = (x[c] - max[c]) - ls[c] for c in [c0, c1), through a padded vector (c1 - c0 <=
// N): the head and tail of a row segment.
template <class Rule, class Tag>
HWY_INLINE void ColsOutPadded(const typename Tag::T* x, const float* max, const float* ls,
                              typename Tag::T* out, size_t c0, size_t c1) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  if (c0 >= c1) return;
  HWY_ALIGN T bx[kMaxLanes], bout[kMaxLanes] = {};  // (g++ sees no store through hn::Store)
  HWY_ALIGN float bm[kMaxLanes], bl[kMaxLanes];
  CopyPadded(x + c0, c1 - c0, bx, N);
  CopyPadded(max + c0, c1 - c0, bm, N);
  CopyPadded(ls + c0, c1 - c0, bl, N);
  StoreF32(d, Tag(), Rule::Out(d, LoadF32(d, Tag(), bx), hn::Load(d, bm), hn::Load(d, bl)),
           bout);
  for (size_t j = 0; j < c1 - c0; ++j) out[c0 + j] = bout[j];
}

// out[c] = (x[c] - max[c]) - ls[c], c < w; a vector at a time, the ends through a padded
// copy. kStream: non-temporal stores from the first element whose output is aligned to a
// vector's worth of T (the caller fences).
template <class Rule, class Tag, bool kStream>
HWY_INLINE void ColsOut(const typename Tag::T* x, const float* max, const float* ls,
                        typename Tag::T* out, size_t w) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  if (kStream) {
    c = StreamHead(out, w, N * sizeof(T));  // one narrowed vector a store
    ColsOutPadded<Rule, Tag>(x, max, ls, out, 0, c);
  }
  for (; c + N <= w; c += N) {
    StoreF32<kStream>(
        d, Tag(),
        Rule::Out(d, LoadF32(d, Tag(), x + c), hn::LoadU(d, max + c), hn::LoadU(d, ls + c)),
        out + c);
  }
  ColsOutPadded<Rule, Tag>(x, max, ls, out, c, w);
}

// ARA over a contiguous block narrower than a vector (row_stride == w < N: the whole A0,
// as in [1024, 4] dim 0), where the column kernels above would pad every row of every
// pass. The block is read as one array of r * w elements, N rows (w vectors) at a time:
// lane j of vector k holds column (k N + j) % w, and the max, log-sum and their column
// patterns follow that map. The results are bitwise the column kernels': the same exp of
// the same x - max, and each column's double sum still adds its rows in order (the exps
// are computed a vector at a time, the adds are scalar).
template <class Rule, class Tag>
HWY_INLINE void AraNarrowImpl(const typename Tag::T* x, typename Tag::T* out, size_t r, size_t w,
                              float* max, double* acc) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const size_t period = w * N;  // elements per group of w vectors: N whole rows
  const size_t n = r * w;
  const size_t full = n - n % period;
  HWY_ALIGN float pat_max[kMaxLanes * kMaxLanes], pat_ls[kMaxLanes * kMaxLanes];
  HWY_ALIGN float buf[kMaxLanes * kMaxLanes], ones[kMaxLanes * kMaxLanes];
  HWY_ALIGN T pad[kMaxLanes * kMaxLanes];
  const size_t rest = n - full;
  if (rest != 0) {
    FwdCopyPaddedNaN<Tag>(x + full, rest, pad, period);
  }
  // Pass 1: the lanes' max, then each column's over its lanes (exact in any order).
  for (size_t k = 0; k < w; ++k) hn::Store(hn::Set(d, -HUGE_VALF), d, buf + k * N);
  for (size_t i = 0; i < full; i += period) {
    for (size_t k = 0; k < w; ++k) {
      hn::Store(FwdMaxUpdate(hn::Load(d, buf + k * N), LoadF32(d, Tag(), x + i + k * N)), d,
                buf + k * N);
    }
  }
  if (rest != 0) {
    for (size_t k = 0; k < w; ++k) {
      hn::Store(FwdMaxUpdate(hn::Load(d, buf + k * N), LoadF32(d, Tag(), pad + k * N)), d,
                buf + k * N);
    }
  }
  for (size_t c = 0; c < w; ++c) max[c] = -HUGE_VALF;
  for (size_t p = 0; p < period; ++p) {
    float& m = max[p % w];
    if (buf[p] > m) m = buf[p];
  }
  for (size_t p = 0; p < period; ++p) pat_max[p] = max[p % w];
  // Pass 2: exp(x - max) a group at a time, added to the columns' sums in row order.
  // A group holds N rows, a whole number of the column sums' row groups (N is a multiple
  // of kFwdBlockRows), which are added in f32 as ColSumExpRows adds them.
  for (size_t c = 0; c < w; ++c) acc[c] = 0.0;
  for (size_t i = 0; i < n; i += period) {
    const T* src = i < full ? x + i : pad;
    for (size_t k = 0; k < w; ++k) {
      hn::Store(FwdExpShifted(d, LoadF32(d, Tag(), src + k * N), hn::Load(d, pat_max + k * N)), d,
                buf + k * N);
    }
    for (size_t k = 0; k < w; ++k) {
      const auto is_max = FwdIsMax(d, LoadF32(d, Tag(), src + k * N), hn::Load(d, pat_max + k * N));
      hn::Store(hn::IfThenZeroElse(is_max, hn::Load(d, buf + k * N)), d, buf + k * N);
      hn::Store(hn::IfThenElseZero(is_max, hn::Set(d, 1.0f)), d, ones + k * N);
    }
    const size_t rows = std::min(period, n - i) / w;
    for (size_t g = 0; g < rows; g += kFwdBlockRows) {
      const size_t g_end = std::min(rows, g + kFwdBlockRows);
      for (size_t c = 0; c < w; ++c) {
        float f = 0.0f, o = 0.0f;  // as ColSumExpRows: the max's terms counted after the rest
        for (size_t k = g; k < g_end; ++k) {
          f += buf[k * w + c];
          o += ones[k * w + c];
        }
        acc[c] += static_cast<double>(f);
        acc[c] += static_cast<double>(o);
      }
    }
  }
  // Pass 3: the output.
  float ls[kMaxLanes];
  for (size_t c = 0; c < w; ++c)
    ls[c] = Rule::template ColStat<Tag>(x + c, r, w, max[c], acc[c]);
  for (size_t p = 0; p < period; ++p) pat_ls[p] = ls[p % w];
  for (size_t i = 0; i < full; i += period) {
    for (size_t k = 0; k < w; ++k) {
      const size_t o = i + k * N;
      StoreF32(d, Tag(),
               Rule::Out(d, LoadF32(d, Tag(), x + o), hn::Load(d, pat_max + k * N),
                                   hn::Load(d, pat_ls + k * N)),
               out + o);
    }
  }
  if (rest != 0) {
    HWY_ALIGN T bout[kMaxLanes * kMaxLanes];
    for (size_t k = 0; k < w; ++k) {
      StoreF32(d, Tag(),
               Rule::Out(d, LoadF32(d, Tag(), pad + k * N), hn::Load(d, pat_max + k * N),
                                   hn::Load(d, pat_ls + k * N)),
               bout + k * N);
    }
    for (size_t j = 0; j < rest; ++j) out[full + j] = bout[j];
  }
}

// Passes 1 and 2 of an (R x w) block whose columns are not the narrow kernel's: max[c]
// and acc[c] (w each) the columns' max and double sums of exp.
template <class Tag>
HWY_INLINE void AraSumsImpl(const typename Tag::T* x, size_t r, size_t stride, size_t w, float* max,
                            double* acc) {
  using T = typename Tag::T;
  const bool prefetch = w * sizeof(T) <= kFwdPrefetchMaxBytes;
  for (size_t c = 0; c < w; ++c) {
    max[c] = -HUGE_VALF;
    acc[c] = 0.0;
  }
  // Pass 1: the columns' max.
  for (size_t row = 0; row < r; row += kFwdBlockRows) {
    const size_t rows = std::min(kFwdBlockRows, r - row);
    if (prefetch) {
      for (size_t k = row + kFwdBlockRows; k < row + 2 * kFwdBlockRows && k < r; ++k)
        FwdPrefetchRow(x + k * stride, w);
    }
    ColMaxRows<Tag>(x + row * stride, stride, rows, max, w);
  }
  // Pass 2: the columns' sums of exp(x - max), rows in order, in groups of kFwdBlockRows.
  for (size_t row = 0; row < r; row += kFwdBlockRows) {
    const size_t rows = std::min(kFwdBlockRows, r - row);
    if (prefetch) {
      for (size_t k = row + kFwdBlockRows; k < row + 2 * kFwdBlockRows && k < r; ++k)
        FwdPrefetchRow(x + k * stride, w);
    }
    ColSumExpRows<Tag>(x + row * stride, stride, rows, max, acc, w);
  }
}

// ls[c] = the rule's f32 statistic of column c's sum (the log, or its reciprocal), c < w.
template <class Rule, class Tag>
HWY_INLINE void AraLogSums(const typename Tag::T* x, size_t r, size_t stride, size_t w,
                           const float* max, const double* acc, float* ls) {
  for (size_t c = 0; c < w; ++c)
    ls[c] = Rule::template ColStat<Tag>(x + c, r, stride, max[c], acc[c]);
}

// ara_stats: the columns' max and f32 log-sums, no output.
template <class Rule, class Tag>
HWY_INLINE void AraStatsImpl(const void* x_v, size_t r, size_t stride, size_t w, float* max,
                             double* acc, float* ls) {
  const typename Tag::T* x = static_cast<const typename Tag::T*>(x_v);
  AraSumsImpl<Tag>(x, r, stride, w, max, acc);
  AraLogSums<Rule, Tag>(x, r, stride, w, max, acc, ls);
}

// cols_out: one row of w columns; kStream fences after it.
template <class Rule, class Tag, bool kStream>
HWY_INLINE void ColsOutImpl(const void* x, const float* max, const float* ls, void* out, size_t w) {
  ColsOut<Rule, Tag, kStream>(static_cast<const typename Tag::T*>(x), max, ls,
                        static_cast<typename Tag::T*>(out), w);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

template <class Rule, class Tag, bool kStream>
HWY_INLINE void AraBlockImpl(const void* x_v, void* out_v, size_t r, size_t stride, size_t w,
                             float* max, double* acc) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may be x itself: each row is read before it is written
  const size_t N = hn::Lanes(hn::ScalableTag<float>());
  if (stride == w && w < N) {
    AraNarrowImpl<Rule, Tag>(x, out, r, w, max, acc);
    return;
  }
  const bool prefetch = w * sizeof(T) <= kFwdPrefetchMaxBytes;
  AraSumsImpl<Tag>(x, r, stride, w, max, acc);
  // Pass 3: the output, a chunk of columns (the whole block, from the executor) at a time.
  HWY_ALIGN float ls[kFwdColChunk];
  for (size_t c0 = 0; c0 < w; c0 += kFwdColChunk) {
    const size_t cw = std::min(kFwdColChunk, w - c0);
    AraLogSums<Rule, Tag>(x + c0, r, stride, cw, max + c0, acc + c0, ls);
    for (size_t row = 0; row < r; ++row) {
      if (prefetch && row + kFwdPrefetchRows < r)
        FwdPrefetchRow(x + (row + kFwdPrefetchRows) * stride + c0, cw);
      ColsOut<Rule, Tag, kStream>(x + row * stride + c0, max + c0, ls, out + row * stride + c0, cw);
    }
  }
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
