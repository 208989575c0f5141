// LogSoftmax forward kernels (row max, row sums of exp in double, row output, the ARA
// block) for every compiled SIMD target and their dispatch table (GetLogSoftmaxForward).
// Sums are combined in a fixed order (see LogSoftmaxForwardKernels in kernels.h), never
// in an order that depends on the SIMD width, the tiling or the threads.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/logsoftmax_forward_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/convert-inl.h"
#include "kernels/kernels.h"
#include "kernels/tile-inl.h"
#include "kernels/unary_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A quiet NaN of each storage type: the padding of partial vectors in the max pass, which
// skips NaN lanes.
HWY_INLINE float FwdNaNOf(F32) {
  const uint32_t bits = 0x7FC00000u;
  float f;
  std::memcpy(&f, &bits, sizeof(f));
  return f;
}
HWY_INLINE uint16_t FwdNaNOf(F16) { return 0x7E00; }
HWY_INLINE uint16_t FwdNaNOf(BF16) { return 0x7FC0; }

template <class Tag>
HWY_INLINE void FwdCopyPaddedNaN(const typename Tag::T* src, size_t n, typename Tag::T* dst,
                                 size_t lanes) {
  size_t i = 0;
  for (; i < n; ++i) dst[i] = src[i];
  for (; i < lanes; ++i) dst[i] = FwdNaNOf(Tag());
}

// The running max: v replaces m only where v > m, so NaN lanes (and the padding) are
// skipped and the result is exact, whatever the order.
template <class V>
HWY_INLINE V FwdMaxUpdate(V m, V v) {
  return hn::IfThenElse(hn::Gt(v, m), v, m);
}

// exp(v) for v in [-104, 0] as the sums need it, two multiply-adds cheaper than
// ExpNonPositive: k = rint(v / ln2) and r = v - k fl(ln2) with one rounded constant (its
// error, |k| 1.9e-9 <= 2e-7 at k = -104 / ln2, is relative to terms of at most e^-100
// there, and to the whole sum 2.7e-9 |v| at most), then a degree-5 polynomial with p(0) =
// 1 exactly (minimax relative error 9.2e-8 on [-ln2/2, ln2/2], 1.5e-7 with f32 Horner
// steps), so the max's own exp(0) is exactly 1. 2^k as ExpNonPositive applies it (one
// rounding, subnormal results included). Lanes: f32. Max error: about 2.5 ULP; v = -104
// gives 0. NaN v gives NaN (x86) or an unspecified value (callers select it).
template <class D, class V>
HWY_INLINE V LsmExp(D d, V v) {
#if HOSTNN_HAVE_SCALEF
  constexpr float kBias = 0.0f, kScale = 1.0f;
#else
  constexpr float kBias = 151.0f, kScale = 5.9604644775390625e-8f;  // 2^(k+24), then 2^-24
#endif
  const V round = hn::Set(d, 12582912.0f + kBias);
  const V t = hn::MulAdd(v, hn::Set(d, 1.44269504088896341f), round);
  const V k = hn::Sub(t, round);
  const V r = hn::NegMulAdd(k, hn::Set(d, 0.693147180559945f), v);
  V p = hn::Set(d, 0.0082903066650033f * kScale);
  p = hn::MulAdd(p, r, hn::Set(d, 0.0418979749083519f * kScale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.1666763722896576f * kScale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.4999915063381195f * kScale));
  p = hn::MulAdd(p, r, hn::Set(d, 0.9999997019767761f * kScale));
  p = hn::MulAdd(p, r, hn::Set(d, kScale));
#if HOSTNN_HAVE_SCALEF
  return ScaleByPow2(d, p, k);
#else
  const hn::RebindToSigned<D> di;
  return hn::Mul(p, hn::BitCast(d, hn::ShiftLeft<23>(hn::BitCast(di, t))));
#endif
}

// exp(x - m) for m >= x (the row's or column's max): f32, NaN lanes of x - m (NaN x, or
// inf - inf) give NaN so that they reach the sum, -inf -> 0. x86's SIMD max returns its
// second operand when either is NaN, so Max(-104, v) clamps and passes NaN through, and
// every step of LsmExp keeps it NaN; elsewhere NaN lanes are selected after.
template <class D>
HWY_INLINE hn::Vec<D> FwdExpShifted(D d, hn::Vec<D> x, hn::Vec<D> m) {
  const hn::Vec<D> v = hn::Sub(x, m);
#if HWY_ARCH_X86 && HWY_TARGET != HWY_EMU128 && HWY_TARGET != HWY_SCALAR
  return LsmExp(d, hn::Max(hn::Set(d, -104.0f), v));
#else
  const hn::Vec<D> e = LsmExp(d, hn::Max(v, hn::Set(d, -104.0f)));
  return hn::IfThenElse(hn::IsNaN(v), v, e);
#endif
}

// FwdExpShifted where x != m, 0 where x == m: the sum of a row or column without its max's
// own exp(0) = 1 (see kLogSumNearOne).
template <class D>
HWY_INLINE hn::Vec<D> FwdExpOffMax(D d, hn::Vec<D> x, hn::Vec<D> m) {
  return hn::IfThenZeroElse(hn::Eq(x, m), FwdExpShifted(d, x, m));
}

// The lanes where x - m is 0: x is the max, which is finite (an infinite max gives NaN,
// which must reach the sum), and its exp is exactly 1.
template <class D>
HWY_INLINE hn::Mask<D> FwdIsMax(D d, hn::Vec<D> x, hn::Vec<D> m) {
  return hn::Eq(hn::Sub(x, m), hn::Zero(d));
}

// The f32 group sums (a row partial's kRowSumBlock / kRowPartials terms, a column's
// kFwdBlockRows rows) leave the max's own exp(0) = 1 out: added to the rest in f32, it
// would round away the rest's bits below 2^-24, and where the rest is small (one element
// at the max, the others 12 or more below it) -log of the sum is the max's result, which
// then came out 5% off (bf16, a sum of 1 + 1.0e-6). Such a group's terms are summed again
// without the max's, and the count of its maxima is added to the double sum after them:
// exact, and the same bits whether a target's vector held a max in another lane or not.
// f = the group's f32 sum of e[g] (g < count) with the lanes is_max[g] left out; *ones =
// the number of those lanes.
template <class D, class V, class M>
HWY_INLINE V FwdGroupOffMax(D d, const V* e, const M* is_max, size_t count, V* ones) {
  V f = hn::IfThenZeroElse(is_max[0], e[0]);
  *ones = hn::IfThenElseZero(is_max[0], hn::Set(d, 1.0f));
  for (size_t g = 1; g < count; ++g) {
    f = hn::Add(f, hn::IfThenZeroElse(is_max[g], e[g]));
    *ones = hn::Add(*ones, hn::IfThenElseZero(is_max[g], hn::Set(d, 1.0f)));
  }
  return f;
}

#if HWY_TARGET != HWY_SCALAR
// Adds one f32 vector's lanes, in order, to the two double vectors after it.
template <class D, class DD>
HWY_INLINE void FwdAddPromoted(D d, DD dd, hn::Vec<D> e, hn::Vec<DD>* lo, hn::Vec<DD>* hi) {
  const hn::Half<D> dh;
  (void)d;
  *lo = hn::Add(*lo, hn::PromoteTo(dd, hn::LowerHalf(dh, e)));
  *hi = hn::Add(*hi, hn::PromoteTo(dd, hn::UpperHalf(dh, e)));
}

// One f32 group sum into the double vectors lo and hi: e[0..count) summed in f32, or,
// where a lane of the group holds the max, FwdGroupOffMax's sum and then its count of 1s.
template <class D, class DD>
HWY_INLINE void FwdAddGroup(D d, DD dd, const hn::Vec<D>* e, const hn::Mask<D>* is_max,
                            size_t count, hn::Vec<DD>* lo, hn::Vec<DD>* hi) {
  hn::Vec<D> f = e[0];
  hn::Mask<D> any = is_max[0];
  for (size_t g = 1; g < count; ++g) {
    f = hn::Add(f, e[g]);
    any = hn::Or(any, is_max[g]);
  }
  if (HWY_UNLIKELY(!hn::AllFalse(d, any))) {
    hn::Vec<D> ones;
    FwdAddPromoted(d, dd, FwdGroupOffMax(d, e, is_max, count, &ones), lo, hi);
    FwdAddPromoted(d, dd, ones, lo, hi);
  } else {
    FwdAddPromoted(d, dd, f, lo, hi);
  }
}
#endif

// log of a column's sum of exp (rows 0..r-1, `stride` elements apart) from its double
// sum `acc`: below kLogSumNearOne (one element at the max, the rest adding up to less
// than 2^-20, which acc may have lost to rounding against the 1), log1p of the rest,
// summed again in row order without the max.
template <class Tag>
HWY_INLINE double FwdColLogSum(const typename Tag::T* x, size_t r, size_t stride, float max,
                               double acc) {
  using T = typename Tag::T;
  if (!LogSumNearOne(acc)) return std::log(acc);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, max);
  HWY_ALIGN T pad[kMaxLanes];
  double rest = 0.0;
  for (size_t row = 0; row < r; ++row) {
    CopyPadded(x + row * stride, 1, pad, N);
    rest += static_cast<double>(hn::GetLane(FwdExpOffMax(d, LoadF32(d, Tag(), pad), m)));
  }
  return std::log1p(rest);
}

// ---- AR: along a contiguous row ---------------------------------------------------------

// *max = max(*max, x[i]), i < n. kWiden: also widened[i] = x[i] as f32 (RowWholeImpl).
template <class Tag, bool kWiden = false>
HWY_INLINE void RowMaxImpl(const void* x_v, size_t n, float* max, float* widened = nullptr) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto load = [&](const T* p, size_t i) {
    const auto v = LoadF32(d, Tag(), p);
    if (kWiden) hn::StoreU(v, d, widened + i);
    return v;
  };
  auto m0 = hn::Set(d, *max), m1 = m0, m2 = m0, m3 = m0;
  size_t i = 0;
  for (; i + 4 * N <= n; i += 4 * N) {
    m0 = FwdMaxUpdate(m0, load(x + i, i));
    m1 = FwdMaxUpdate(m1, load(x + i + N, i + N));
    m2 = FwdMaxUpdate(m2, load(x + i + 2 * N, i + 2 * N));
    m3 = FwdMaxUpdate(m3, load(x + i + 3 * N, i + 3 * N));
  }
  for (; i + N <= n; i += N) m0 = FwdMaxUpdate(m0, load(x + i, i));
  if (i < n) {
    HWY_ALIGN T pad[kMaxLanes];
    FwdCopyPaddedNaN<Tag>(x + i, n - i, pad, N);
    const auto v = LoadF32(d, Tag(), pad);
    if (kWiden) {
      HWY_ALIGN float wide[kMaxLanes];
      hn::Store(v, d, wide);
      for (size_t j = 0; j < n - i; ++j) widened[i + j] = wide[j];
    }
    m0 = FwdMaxUpdate(m0, v);
  }
  m0 = FwdMaxUpdate(FwdMaxUpdate(m0, m1), FwdMaxUpdate(m2, m3));
  // Across the lanes by the same rule (MaxOfLanes may start from -FLT_MAX, not -inf).
  HWY_ALIGN float lanes[kMaxLanes];
  hn::Store(m0, d, lanes);
  float m = lanes[0];
  for (size_t j = 1; j < N; ++j) m = lanes[j] > m ? lanes[j] : m;
  *max = m;
}

#if HWY_TARGET != HWY_SCALAR
// A block of kRowSumBlock elements (kRowSumBlock / 16 groups of 16): each partial's exps
// in it are summed in f32 in group order (a few roundings of at most 2^-24 each, on
// values <= 1), and that sum is added to the double partial: a quarter of the conversions
// and double adds of one per group. The last block of a row, if short, adds its groups one
// at a time. Blocks start at multiples of kRowSumBlock from the row's first element,
// which is why chunks must too.
template <class Tag, bool kOffMax>
HWY_INLINE void RowSumExpImpl(const void* x_v, size_t n, float max, double* partials) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  const hn::ScalableTag<float> d;
  const auto exp_of = [](decltype(d) dv, hn::Vec<decltype(d)> xv, hn::Vec<decltype(d)> mv) {
    return kOffMax ? FwdExpOffMax(dv, xv, mv) : FwdExpShifted(dv, xv, mv);
  };
  const hn::Repartition<double, decltype(d)> dd;  // half as many lanes, same bytes
  constexpr size_t kNf = HWY_LANES(float);
  static_assert(kRowPartials % kNf == 0 && kNf >= 2, "16 partials must be whole f32 vectors");
  constexpr size_t kVecs = kRowPartials / kNf;  // f32 vectors per group of 16 elements
  constexpr size_t kGroups = kRowSumBlock / kRowPartials;
  constexpr size_t kNd = kNf / 2;
  hn::Vec<decltype(dd)> acc[2 * kVecs];
  for (size_t k = 0; k < 2 * kVecs; ++k) acc[k] = hn::LoadU(dd, partials + k * kNd);
  const auto m = hn::Set(d, max);
  size_t i = 0;
  for (; i + kRowSumBlock <= n; i += kRowSumBlock) {
    for (size_t k = 0; k < kVecs; ++k) {
      hn::Vec<decltype(d)> e[kGroups];
      hn::Mask<decltype(d)> is_max[kGroups];
      for (size_t g = 0; g < kGroups; ++g) {
        const auto xv = LoadF32(d, Tag(), x + i + g * kRowPartials + k * kNf);
        e[g] = exp_of(d, xv, m);
        is_max[g] = FwdIsMax(d, xv, m);
      }
      if (kOffMax) {  // the max's terms are 0 already, and not counted
        auto f = e[0];
        for (size_t g = 1; g < kGroups; ++g) f = hn::Add(f, e[g]);
        FwdAddPromoted(d, dd, f, &acc[2 * k], &acc[2 * k + 1]);
      } else {
        FwdAddGroup(d, dd, e, is_max, kGroups, &acc[2 * k], &acc[2 * k + 1]);
      }
    }
  }
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kVecs; ++k) {
      const auto e = exp_of(d, LoadF32(d, Tag(), x + i + k * kNf), m);
      FwdAddPromoted(d, dd, e, &acc[2 * k], &acc[2 * k + 1]);
    }
  }
  if (i < n) {  // the last group, zero-padded; its missing lanes add +0 (no change)
    HWY_ALIGN T pad[kRowPartials];
    CopyPadded(x + i, n - i, pad, kRowPartials);
    const size_t rest = n - i;
    for (size_t k = 0; k < kVecs; ++k) {
      const size_t lanes = rest > k * kNf ? std::min(kNf, rest - k * kNf) : 0;
      auto e = exp_of(d, LoadF32(d, Tag(), pad + k * kNf), m);
      e = hn::IfThenElseZero(hn::FirstN(d, lanes), e);
      FwdAddPromoted(d, dd, e, &acc[2 * k], &acc[2 * k + 1]);
    }
  }
  for (size_t k = 0; k < 2 * kVecs; ++k) hn::StoreU(acc[k], dd, partials + k * kNd);
}
#else
// HWY_SCALAR (g++ builds it in place of EMU128): one lane, so each element's exp goes to
// its partial i % 16 directly, through the same f32 block sums: the same IEEE operations
// in the same order.
template <class Tag, bool kOffMax>
HWY_INLINE void RowSumExpImpl(const void* x_v, size_t n, float max, double* partials) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  const hn::ScalableTag<float> d;
  const auto m = hn::Set(d, max);
  auto exp_at = [&](size_t i) {
    const auto xv = LoadF32(d, Tag(), x + i);
    return hn::GetLane(kOffMax ? FwdExpOffMax(d, xv, m) : FwdExpShifted(d, xv, m));
  };
  size_t i = 0;
  for (; i + kRowSumBlock <= n; i += kRowSumBlock) {
    for (size_t p = 0; p < kRowPartials; ++p) {
      // The max's own terms outside the f32 sum, then counted (FwdGroupOffMax).
      float f = 0.0f, ones = 0.0f;
      for (size_t g = 0; g < kRowSumBlock / kRowPartials; ++g) {
        const size_t j = i + g * kRowPartials + p;
        if (!kOffMax && hn::GetLane(LoadF32(d, Tag(), x + j)) - max == 0.0f) {
          ones += 1.0f;
        } else {
          f += exp_at(j);  // 0 + e is e: the vector path's first term
        }
      }
      partials[p] += static_cast<double>(f);
      partials[p] += static_cast<double>(ones);
    }
  }
  for (; i < n; ++i) partials[i % kRowPartials] += static_cast<double>(exp_at(i));
}
#endif  // HWY_TARGET != HWY_SCALAR

// out = (x - max) - log_sum for one vector: x - max first, exact where it cancels, so an
// element near the max keeps its small result.
template <class D>
HWY_INLINE hn::Vec<D> FwdOut(hn::Vec<D> x, hn::Vec<D> m, hn::Vec<D> ls) {
  return hn::Sub(hn::Sub(x, m), ls);
}

template <class Tag>
HWY_INLINE void RowOutVectors(const typename Tag::T* x, float max, float ls, typename Tag::T* out,
                              size_t n) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, max), l = hn::Set(d, ls);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreF32(d, Tag(), FwdOut<decltype(d)>(LoadF32(d, Tag(), x + i), m, l), out + i);
  }
  if (i < n) {
    HWY_ALIGN T bx[kMaxLanes], bout[kMaxLanes];
    CopyPadded(x + i, n - i, bx, N);
    StoreF32(d, Tag(), FwdOut<decltype(d)>(LoadF32(d, Tag(), bx), m, l), bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

// Pairs of vectors (two per iteration) with the tail through RowOutVectors, as UnaryTile.
template <class Tag, bool kStream>
HWY_INLINE void RowOutImpl(const void* x_v, float max, double log_sum, void* out_v, size_t n) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may be x itself
  const float ls = static_cast<float>(log_sum);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (kStream) {
    const size_t head = StreamHead(out, n, N * sizeof(float));
    RowOutVectors<Tag>(x, max, ls, out, head);
    i = head;
  }
  const auto m = hn::Set(d, max), l = hn::Set(d, ls);
  for (; i + 4 * N <= n; i += 4 * N) {
    hn::Vec<decltype(d)> x0, x1, x2, x3;
    LoadPairF32(d, Tag(), x + i, &x0, &x1);
    LoadPairF32(d, Tag(), x + i + 2 * N, &x2, &x3);
    StorePairF32<kStream>(d, Tag(), FwdOut<decltype(d)>(x0, m, l), FwdOut<decltype(d)>(x1, m, l),
                          out + i);
    StorePairF32<kStream>(d, Tag(), FwdOut<decltype(d)>(x2, m, l), FwdOut<decltype(d)>(x3, m, l),
                          out + i + 2 * N);
  }
  RowOutVectors<Tag>(x + i, max, ls, out + i, n - i);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

// A whole row (n <= kRowWholeMax) in one call, with the bits of row_max, row_sum_exp,
// RowLogSum and row_out: f32 rows pass by pass; a 16-bit row is widened to f32 on the
// stack by the max pass, so the sum and output passes read f32 instead of converting
// again (the output pass narrows once, as row_out does).
template <class Tag>
HWY_INLINE void RowWholeImpl(const void* x_v, size_t n, void* out_v) {
  using T = typename Tag::T;
  float max = -HUGE_VALF;
  double partials[kRowPartials] = {0};
  if constexpr (sizeof(T) == sizeof(float)) {
    RowMaxImpl<Tag>(x_v, n, &max);
    RowSumExpImpl<Tag, false>(x_v, n, max, partials);
    const double log_sum = LogSumOfPartials(
        partials, [&](double* rest) { RowSumExpImpl<Tag, true>(x_v, n, max, rest); });
    RowOutImpl<Tag, false>(x_v, max, log_sum, out_v, n);
    return;
  } else {
    HWY_ALIGN float wide[kRowWholeMax];
    RowMaxImpl<Tag, true>(x_v, n, &max, wide);
    RowSumExpImpl<F32, false>(wide, n, max, partials);
    const double log_sum = LogSumOfPartials(
        partials, [&](double* rest) { RowSumExpImpl<F32, true>(wide, n, max, rest); });
    T* out = static_cast<T*>(out_v);  // may be x itself: x is no longer read
    const hn::ScalableTag<float> d;
    const size_t N = hn::Lanes(d);
    const auto m = hn::Set(d, max), l = hn::Set(d, static_cast<float>(log_sum));
    size_t i = 0;
    for (; i + N <= n; i += N) {
      StoreF32(d, Tag(), FwdOut<decltype(d)>(hn::LoadU(d, wide + i), m, l), out + i);
    }
    if (i < n) {
      HWY_ALIGN float bx[kMaxLanes];
      HWY_ALIGN T bout[kMaxLanes];
      CopyPadded(wide + i, n - i, bx, N);
      StoreF32(d, Tag(), FwdOut<decltype(d)>(hn::Load(d, bx), m, l), bout);
      for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
    }
  }
}

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
template <class Tag>
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
  StoreF32(d, Tag(), FwdOut<decltype(d)>(LoadF32(d, Tag(), bx), hn::Load(d, bm), hn::Load(d, bl)),
           bout);
  for (size_t j = 0; j < c1 - c0; ++j) out[c0 + j] = bout[j];
}

// out[c] = (x[c] - max[c]) - ls[c], c < w; a vector at a time, the ends through a padded
// copy. kStream: non-temporal stores from the first element whose output is aligned to a
// vector's worth of T (the caller fences).
template <class Tag, bool kStream>
HWY_INLINE void ColsOut(const typename Tag::T* x, const float* max, const float* ls,
                        typename Tag::T* out, size_t w) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  if (kStream) {
    c = StreamHead(out, w, N * sizeof(T));  // one narrowed vector a store
    ColsOutPadded<Tag>(x, max, ls, out, 0, c);
  }
  for (; c + N <= w; c += N) {
    StoreF32<kStream>(
        d, Tag(),
        FwdOut<decltype(d)>(LoadF32(d, Tag(), x + c), hn::LoadU(d, max + c), hn::LoadU(d, ls + c)),
        out + c);
  }
  ColsOutPadded<Tag>(x, max, ls, out, c, w);
}

// ARA over a contiguous block narrower than a vector (row_stride == w < N: the whole A0,
// as in [1024, 4] dim 0), where the column kernels above would pad every row of every
// pass. The block is read as one array of r * w elements, N rows (w vectors) at a time:
// lane j of vector k holds column (k N + j) % w, and the max, log-sum and their column
// patterns follow that map. The results are bitwise the column kernels': the same exp of
// the same x - max, and each column's double sum still adds its rows in order (the exps
// are computed a vector at a time, the adds are scalar).
template <class Tag>
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
    ls[c] = static_cast<float>(FwdColLogSum<Tag>(x + c, r, w, max[c], acc[c]));
  for (size_t p = 0; p < period; ++p) pat_ls[p] = ls[p % w];
  for (size_t i = 0; i < full; i += period) {
    for (size_t k = 0; k < w; ++k) {
      const size_t o = i + k * N;
      StoreF32(d, Tag(),
               FwdOut<decltype(d)>(LoadF32(d, Tag(), x + o), hn::Load(d, pat_max + k * N),
                                   hn::Load(d, pat_ls + k * N)),
               out + o);
    }
  }
  if (rest != 0) {
    HWY_ALIGN T bout[kMaxLanes * kMaxLanes];
    for (size_t k = 0; k < w; ++k) {
      StoreF32(d, Tag(),
               FwdOut<decltype(d)>(LoadF32(d, Tag(), pad + k * N), hn::Load(d, pat_max + k * N),
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

// ls[c] = (float) the log of column c's sum (FwdColLogSum), c < w.
template <class Tag>
HWY_INLINE void AraLogSums(const typename Tag::T* x, size_t r, size_t stride, size_t w,
                           const float* max, const double* acc, float* ls) {
  for (size_t c = 0; c < w; ++c)
    ls[c] = static_cast<float>(FwdColLogSum<Tag>(x + c, r, stride, max[c], acc[c]));
}

// ara_stats: the columns' max and f32 log-sums, no output.
template <class Tag>
HWY_INLINE void AraStatsImpl(const void* x_v, size_t r, size_t stride, size_t w, float* max,
                             double* acc, float* ls) {
  const typename Tag::T* x = static_cast<const typename Tag::T*>(x_v);
  AraSumsImpl<Tag>(x, r, stride, w, max, acc);
  AraLogSums<Tag>(x, r, stride, w, max, acc, ls);
}

// cols_out: one row of w columns; kStream fences after it.
template <class Tag, bool kStream>
HWY_INLINE void ColsOutImpl(const void* x, const float* max, const float* ls, void* out, size_t w) {
  ColsOut<Tag, kStream>(static_cast<const typename Tag::T*>(x), max, ls,
                        static_cast<typename Tag::T*>(out), w);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

template <class Tag, bool kStream>
HWY_INLINE void AraBlockImpl(const void* x_v, void* out_v, size_t r, size_t stride, size_t w,
                             float* max, double* acc) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may be x itself: each row is read before it is written
  const size_t N = hn::Lanes(hn::ScalableTag<float>());
  if (stride == w && w < N) {
    AraNarrowImpl<Tag>(x, out, r, w, max, acc);
    return;
  }
  const bool prefetch = w * sizeof(T) <= kFwdPrefetchMaxBytes;
  AraSumsImpl<Tag>(x, r, stride, w, max, acc);
  // Pass 3: the output, a chunk of columns (the whole block, from the executor) at a time.
  HWY_ALIGN float ls[kFwdColChunk];
  for (size_t c0 = 0; c0 < w; c0 += kFwdColChunk) {
    const size_t cw = std::min(kFwdColChunk, w - c0);
    AraLogSums<Tag>(x + c0, r, stride, cw, max + c0, acc + c0, ls);
    for (size_t row = 0; row < r; ++row) {
      if (prefetch && row + kFwdPrefetchRows < r)
        FwdPrefetchRow(x + (row + kFwdPrefetchRows) * stride + c0, cw);
      ColsOut<Tag, kStream>(x + row * stride + c0, max + c0, ls, out + row * stride + c0, cw);
    }
  }
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

// bf16 out from bf16 in: every NaN produced is an input's or inf - inf's default NaN, whose
// low 16 bits are 0 (BF16Direct's rounding needs no NaN case).
#define HOSTNN_LSF_ONE(DT, TAG)                                                                    \
  void LsfRowMax_##DT(const void* x, size_t n, float* max) { RowMaxImpl<TAG>(x, n, max); }         \
  void LsfRowSumExp_##DT(const void* x, size_t n, float max, double* p) {                          \
    RowSumExpImpl<TAG, false>(x, n, max, p);                                                       \
  }                                                                                                \
  void LsfRowSumExpOffMax_##DT(const void* x, size_t n, float max, double* p) {                    \
    RowSumExpImpl<TAG, true>(x, n, max, p);                                                        \
  }                                                                                                \
  void LsfRowWhole_##DT(const void* x, size_t n, void* out) { RowWholeImpl<TAG>(x, n, out); }      \
  void LsfRowOut_##DT(const void* x, float max, double ls, void* out, size_t n) {                  \
    RowOutImpl<TAG, false>(x, max, ls, out, n);                                                    \
  }                                                                                                \
  void LsfRowOut_##DT##_Stream(const void* x, float max, double ls, void* out, size_t n) {         \
    RowOutImpl<TAG, true>(x, max, ls, out, n);                                                     \
  }                                                                                                \
  void LsfAraBlock_##DT(const void* x, void* out, size_t r, size_t stride, size_t w, float* max,   \
                        double* acc) {                                                             \
    AraBlockImpl<TAG, false>(x, out, r, stride, w, max, acc);                                      \
  }                                                                                                \
  void LsfAraBlock_##DT##_Stream(const void* x, void* out, size_t r, size_t stride, size_t w,      \
                                 float* max, double* acc) {                                        \
    AraBlockImpl<TAG, true>(x, out, r, stride, w, max, acc);                                       \
  }                                                                                                \
  void LsfAraStats_##DT(const void* x, size_t r, size_t stride, size_t w, float* max, double* acc, \
                        float* ls) {                                                               \
    AraStatsImpl<TAG>(x, r, stride, w, max, acc, ls);                                              \
  }                                                                                                \
  void LsfColsOut_##DT(const void* x, const float* max, const float* ls, void* out, size_t w) {    \
    ColsOutImpl<TAG, false>(x, max, ls, out, w);                                                   \
  }                                                                                                \
  void LsfColsOut_##DT##_Stream(const void* x, const float* max, const float* ls, void* out,       \
                                size_t w) {                                                        \
    ColsOutImpl<TAG, true>(x, max, ls, out, w);                                                    \
  }
HOSTNN_LSF_ONE(F32, F32)
HOSTNN_LSF_ONE(F16, F16)
HOSTNN_LSF_ONE(BF16, BF16Direct)
#undef HOSTNN_LSF_ONE

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_LSF_EXPORT(DT)            \
  HWY_EXPORT(LsfRowMax_##DT);            \
  HWY_EXPORT(LsfRowSumExp_##DT);         \
  HWY_EXPORT(LsfRowSumExpOffMax_##DT);   \
  HWY_EXPORT(LsfRowWhole_##DT);          \
  HWY_EXPORT(LsfRowOut_##DT);            \
  HWY_EXPORT(LsfRowOut_##DT##_Stream);   \
  HWY_EXPORT(LsfAraBlock_##DT);          \
  HWY_EXPORT(LsfAraBlock_##DT##_Stream); \
  HWY_EXPORT(LsfAraStats_##DT);          \
  HWY_EXPORT(LsfColsOut_##DT);           \
  HWY_EXPORT(LsfColsOut_##DT##_Stream);
HOSTNN_LSF_EXPORT(F32)
HOSTNN_LSF_EXPORT(F16)
HOSTNN_LSF_EXPORT(BF16)
#undef HOSTNN_LSF_EXPORT

LogSoftmaxForwardKernels GetLogSoftmaxForward(DType in, DType out, StoreMode mode) {
  const bool stream = mode == StoreMode::kStream;
  LogSoftmaxForwardKernels k{};
  if (in != out) return k;
#define HOSTNN_LSF_CASE(DT)                                                                      \
  k.row_max = HOSTNN_PICK(LsfRowMax_##DT);                                                       \
  k.row_sum_exp = HOSTNN_PICK(LsfRowSumExp_##DT);                                                \
  k.row_sum_exp_off_max = HOSTNN_PICK(LsfRowSumExpOffMax_##DT);                                  \
  k.row_whole = HOSTNN_PICK(LsfRowWhole_##DT);                                                   \
  k.row_out = stream ? HOSTNN_PICK(LsfRowOut_##DT##_Stream) : HOSTNN_PICK(LsfRowOut_##DT);       \
  k.ara_block = stream ? HOSTNN_PICK(LsfAraBlock_##DT##_Stream) : HOSTNN_PICK(LsfAraBlock_##DT); \
  k.ara_stats = HOSTNN_PICK(LsfAraStats_##DT);                                                   \
  k.cols_out = stream ? HOSTNN_PICK(LsfColsOut_##DT##_Stream) : HOSTNN_PICK(LsfColsOut_##DT);    \
  return k;
  switch (in) {
    case DType::kFloat32: {
      HOSTNN_LSF_CASE(F32)
    }
    case DType::kFloat16: {
      HOSTNN_LSF_CASE(F16)
    }
    case DType::kBFloat16: {
      HOSTNN_LSF_CASE(BF16)
    }
    default:
      return k;
  }
#undef HOSTNN_LSF_CASE
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
