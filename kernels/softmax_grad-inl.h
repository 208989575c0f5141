// The softmax backward kernels' code, LogSoftmaxBackward's and SoftmaxBackward's: row sums
// (f32 block sums into double partials) and column sums (double), the output passes, the
// ARA block, each for a row function's rule (LogSoftmaxGradRule, SoftmaxGradRule). Lanes:
// f32 (sums: f64).
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_SOFTMAX_GRAD_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_SOFTMAX_GRAD_INL_H_
#undef HOSTNN_KERNELS_SOFTMAX_GRAD_INL_H_
#else
#define HOSTNN_KERNELS_SOFTMAX_GRAD_INL_H_
#endif

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- The row functions ----------------------------------------------------------------

// Both gradients are dx = f(dy, y, s), s a row's (or column's) sum of a term of dy and y
// in double; a rule gives the term, f in f32, and f in double for a sum beyond f32's range
// (WideOut, with Factor(y) the f32 factor that meets s).

// LogSoftmaxBackward (y: log-probabilities): s = sum dy, dx = dy - exp(y) s in one fused
// multiply-add.
struct LogSoftmaxGradRule {
  static constexpr bool kReadsY = false;  // the sums read dy alone
  template <class Tag, class DD>
  static hn::Vec<DD> Term(DD dd, const typename Tag::T* dy, const typename Tag::T* /*y*/) {
    const hn::Rebind<float, DD> df;  // as many f32 lanes as f64 lanes
    return hn::PromoteTo(dd, LoadF32(df, Tag(), dy));
  }
  // The term in f32 lanes, for a block's f32 sum (RowSumImpl): dy itself.
  template <class Tag, class D>
  static hn::Vec<D> TermF32(D d, const typename Tag::T* dy, const typename Tag::T* /*y*/) {
    return LoadF32(d, Tag(), dy);
  }
  template <class D>
  static hn::Vec<D> Factor(D d, hn::Vec<D> y) {
    return ExpAnyRange(d, y);
  }
  template <class D>
  static hn::Vec<D> Out(D d, hn::Vec<D> dy, hn::Vec<D> y, hn::Vec<D> s) {
    return hn::NegMulAdd(ExpAnyRange(d, y), s, dy);
  }
  static double WideOut(float dy, float factor, double s) {
    return static_cast<double>(dy) - static_cast<double>(factor) * s;
  }
};

// SoftmaxBackward (y: probabilities): s = sum dy y, each product exact in double; dx = y (dy
// - s) in f32, within 2^-24 y (|dy| + |s|) plus a rounding of the exact.
// Two FLOAT16 values' product has at most 22 significant bits and lies in [2^-48, 2^32]: it
// is exact in f32, so the f32 product, promoted, is the double product's bits at a third of
// its conversions and multiplies (15% faster rows of 1024, Zen 5). A BFLOAT16 product can
// underflow or overflow f32: testing every vector for it cost more than it saved (55%
// slower), so BFLOAT16 and FLOAT take the double product.
struct SoftmaxGradRule {
  static constexpr bool kReadsY = true;
  template <class Tag, class DD>
  static hn::Vec<DD> Term(DD dd, const typename Tag::T* dy, const typename Tag::T* y) {
    const hn::Rebind<float, DD> df;
    const hn::Vec<decltype(df)> fdy = LoadF32(df, Tag(), dy), fy = LoadF32(df, Tag(), y);
    if constexpr (std::is_same<Tag, F16>::value) return hn::PromoteTo(dd, hn::Mul(fdy, fy));
    return hn::Mul(hn::PromoteTo(dd, fdy), hn::PromoteTo(dd, fy));
  }
  // The term in f32 lanes, for a block's f32 sum (RowSumImpl): dy * y rounded once (exact
  // for FLOAT16, and for BFLOAT16 within f32's range).
  template <class Tag, class D>
  static hn::Vec<D> TermF32(D d, const typename Tag::T* dy, const typename Tag::T* y) {
    return hn::Mul(LoadF32(d, Tag(), dy), LoadF32(d, Tag(), y));
  }
  template <class D>
  static hn::Vec<D> Factor(D /*d*/, hn::Vec<D> y) {
    return y;
  }
  // dy - s can overflow f32 where y (dy - s) does not (dy = 3e38 beside -3e38): the lanes
  // whose difference is infinite from finite dy and s take it in double (rare, so a lane at
  // a time); every other lane keeps its f32 bits.
  // The rare lanes go through memory stored in the branch, not as vector arguments of a
  // call: passed by value, clang spilled dy, y, s and the result on every vector of the
  // common path (AVX2 rows of 1024: 10% of the output pass's samples on those stores).
  template <class D>
  static hn::Vec<D> Out(D d, hn::Vec<D> dy, hn::Vec<D> y, hn::Vec<D> s) {
    const hn::Vec<D> diff = hn::Sub(dy, s);
    const hn::Vec<D> r = hn::Mul(y, diff);
    if (HWY_UNLIKELY(!hn::AllFalse(d, hn::IsInf(diff)))) {
      const size_t n = hn::Lanes(d);
      HWY_ALIGN float lanes[4 * kMaxLanes];  // dy, y, s, the result
      hn::Store(dy, d, lanes);
      hn::Store(y, d, lanes + n);
      hn::Store(s, d, lanes + 2 * n);
      hn::Store(r, d, lanes + 3 * n);
      OutDiffBeyondF32(lanes, n);
      return hn::Load(d, lanes + 3 * n);
    }
    return r;
  }
  // lanes: n of dy, y, s and the f32 result each; the result's lanes whose difference is
  // infinite from finite dy and s are replaced by WideOut's.
  static HWY_NOINLINE void OutDiffBeyondF32(float* lanes, size_t n) {
    const float* fdy = lanes;
    const float* fy = lanes + n;
    const float* fs = lanes + 2 * n;
    float* fr = lanes + 3 * n;
    for (size_t j = 0; j < n; ++j) {
      if (std::isinf(fdy[j] - fs[j]) && std::isfinite(fdy[j]) && std::isfinite(fs[j])) {
        fr[j] = static_cast<float>(WideOut(fdy[j], fy[j], fs[j]));
      }
    }
  }
  static double WideOut(float dy, float y, double s) {
    return static_cast<double>(y) * (static_cast<double>(dy) - s);
  }
};

// A row's sum, in blocks of kRowSumBlock elements from its first one (4 groups of 16): each
// partial's four terms of a block are summed in f32 (TermF32, pairwise: (t0 + t1) + (t2 +
// t3)) and that sum is added to the double partial, a quarter of the conversions and
// double adds of one per term. A partial's block sum that is not finite (an infinite or
// NaN input, or finite terms beyond f32's range, as dy = 2e38 four times) is replaced by
// its four exact terms added in order, lane by lane, so every lane's bits are those of its
// own terms whatever the SIMD width. Error of a block sum: three roundings of at most
// 2^-24 of the sum of its terms' magnitudes (SoftmaxBackward's f32 products, rounded once
// each, add a fourth), against the SPEC's 2^-21. Groups past the last whole block, and the
// zero-padded last group, add their exact terms one group at a time. Blocks start at
// multiples of kRowSumBlock from the row's first element, which is why chunks must too.
template <class Rule, class Tag, class DF>
HWY_INLINE hn::Vec<DF> BlockSumF32(DF df, const typename Tag::T* dy, const typename Tag::T* y) {
  static_assert(kRowSumBlock == 4 * kRowPartials, "a block is four groups");
  const auto t0 = Rule::template TermF32<Tag>(df, dy, y);
  const auto t1 = Rule::template TermF32<Tag>(df, dy + kRowPartials, y + kRowPartials);
  const auto t2 = Rule::template TermF32<Tag>(df, dy + 2 * kRowPartials, y + 2 * kRowPartials);
  const auto t3 = Rule::template TermF32<Tag>(df, dy + 3 * kRowPartials, y + 3 * kRowPartials);
  return hn::Add(hn::Add(t0, t1), hn::Add(t2, t3));
}

// acc plus, lane by lane, the block sum f where it is finite and otherwise the block's four
// exact terms in order (dy and y at one group's lanes; acc and the terms as many double
// lanes as f's f32 lanes). Rare, so not tuned.
template <class Rule, class Tag, class DD, class DF>
HWY_NOINLINE hn::Vec<DD> AddBlockOrTerms(DD dd, DF df, hn::Vec<DD> acc, hn::Vec<DF> f,
                                         const typename Tag::T* dy, const typename Tag::T* y) {
  auto exact = acc;
  for (size_t g = 0; g < kRowSumBlock / kRowPartials; ++g) {
    exact =
        hn::Add(exact, Rule::template Term<Tag>(dd, dy + g * kRowPartials, y + g * kRowPartials));
  }
  const auto finite = hn::PromoteTo(dd, hn::IfThenElseZero(hn::IsFinite(f), hn::Set(df, 1.0f)));
  return hn::IfThenElse(hn::Gt(finite, hn::Zero(dd)), hn::Add(acc, hn::PromoteTo(dd, f)), exact);
}

template <class Rule, class Tag>
HWY_INLINE void RowSumImpl(const void* dy_v, const void* y_v, size_t n, double* partials) {
  using T = typename Tag::T;
  const T* dy = static_cast<const T*>(dy_v);
  const T* y = static_cast<const T*>(y_v);
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> dfh;  // as many f32 lanes as f64 lanes
  constexpr size_t kNd = HWY_LANES(double);
  static_assert(kRowPartials % kNd == 0, "partials must be a multiple of the f64 lanes");
  constexpr size_t kAcc = kRowPartials / kNd;
  hn::Vec<decltype(dd)> acc[kAcc];
  for (size_t k = 0; k < kAcc; ++k) acc[k] = hn::LoadU(dd, partials + k * kNd);
  size_t i = 0;
#if HWY_TARGET != HWY_SCALAR
  // One f32 vector holds two accumulators' partials: its halves widen into them.
  const hn::Repartition<float, decltype(dd)> df;
  const hn::Half<decltype(df)> dh;
  static_assert(kAcc % 2 == 0, "an f32 vector feeds two double accumulators");
  for (; i + kRowSumBlock <= n; i += kRowSumBlock) {
    for (size_t k = 0; k < kAcc / 2; ++k) {
      const size_t o = i + 2 * k * kNd;
      const auto f = BlockSumF32<Rule, Tag>(df, dy + o, y + o);
      if (HWY_LIKELY(hn::AllTrue(df, hn::IsFinite(f)))) {
        AddPromotedHalves(df, dd, f, &acc[2 * k], &acc[2 * k + 1]);
      } else {
        acc[2 * k] =
            AddBlockOrTerms<Rule, Tag>(dd, dfh, acc[2 * k], hn::LowerHalf(dh, f), dy + o, y + o);
        acc[2 * k + 1] = AddBlockOrTerms<Rule, Tag>(dd, dfh, acc[2 * k + 1], hn::UpperHalf(dh, f),
                                                    dy + o + kNd, y + o + kNd);
      }
    }
  }
#else
  // One lane (g++ builds SCALAR in place of EMU128): each partial's block sum on its own,
  // the same IEEE operations, and the out-of-line fallback only where a sum is not finite.
  for (; i + kRowSumBlock <= n; i += kRowSumBlock) {
    for (size_t k = 0; k < kAcc; ++k) {
      const auto f = BlockSumF32<Rule, Tag>(dfh, dy + i + k, y + i + k);
      if (HWY_LIKELY(hn::AllTrue(dfh, hn::IsFinite(f)))) {
        acc[k] = hn::Add(acc[k], hn::PromoteTo(dd, f));
      } else {
        acc[k] = AddBlockOrTerms<Rule, Tag>(dd, dfh, acc[k], f, dy + i + k, y + i + k);
      }
    }
  }
#endif
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kAcc; ++k) {
      acc[k] = hn::Add(acc[k], Rule::template Term<Tag>(dd, dy + i + k * kNd, y + i + k * kNd));
    }
  }
  if (i < n) {  // zero-padded last group: adding +0 leaves a partial's value unchanged
    HWY_ALIGN T pad[kRowPartials], pad_y[kRowPartials];
    CopyPadded(dy + i, n - i, pad, kRowPartials);
    CopyPadded(Rule::kReadsY ? y + i : dy + i, n - i, pad_y, kRowPartials);
    for (size_t k = 0; k < kAcc; ++k) {
      acc[k] = hn::Add(acc[k], Rule::template Term<Tag>(dd, pad + k * kNd, pad_y + k * kNd));
    }
  }
  for (size_t k = 0; k < kAcc; ++k) hn::StoreU(acc[k], dd, partials + k * kNd);
}

template <class Rule, class Tag>
HWY_INLINE void ColSumImpl(const void* dy_v, const void* y_v, double* acc, size_t w) {
  using T = typename Tag::T;
  const T* dy = static_cast<const T*>(dy_v);
  const T* y = static_cast<const T*>(y_v);
  const hn::ScalableTag<double> dd;
  const size_t N = hn::Lanes(dd);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    hn::StoreU(hn::Add(hn::LoadU(dd, acc + c), Rule::template Term<Tag>(dd, dy + c, y + c)), dd,
               acc + c);
  }
  for (; c < w; ++c) {  // the same IEEE double addition, one lane at a time
    HWY_ALIGN T pad[kMaxLanes], pad_y[kMaxLanes];
    CopyPadded(dy + c, 1, pad, N);
    CopyPadded(Rule::kReadsY ? y + c : dy + c, 1, pad_y, N);
    HWY_ALIGN double v[kMaxLanes];
    hn::Store(Rule::template Term<Tag>(dd, pad, pad_y), dd, v);
    acc[c] += v[0];
  }
}

// ColSumImpl over kRows consecutive rows (`stride` elements apart): each accumulator is
// loaded and stored once per kRows rows instead of once per row, and still meets the rows
// in order, so every column's sum is the same sequence of IEEE double additions.
template <class Rule, class Tag, size_t kRows>
HWY_INLINE void ColSumRows(const typename Tag::T* dy, const typename Tag::T* y, size_t stride,
                           double* acc, size_t w) {
  const hn::ScalableTag<double> dd;
  const size_t N = hn::Lanes(dd);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    auto a = hn::LoadU(dd, acc + c);
    for (size_t k = 0; k < kRows; ++k) {
      a = hn::Add(a, Rule::template Term<Tag>(dd, dy + k * stride + c, y + k * stride + c));
    }
    hn::StoreU(a, dd, acc + c);
  }
  if (c < w) {
    for (size_t k = 0; k < kRows; ++k)
      ColSumImpl<Rule, Tag>(dy + k * stride + c, y + k * stride + c, acc + c, w - c);
  }
}

// Whether a pair's two vectors hold the pair's halves in order (true for f32, and for f16
// through F16C) rather than its even and odd elements: only then can a pair meet a
// vector of per-column sums loaded from memory.
template <class Tag>
struct PairInOrder : std::true_type {};
template <>
struct PairInOrder<BF16> : std::false_type {};
template <>
struct PairInOrder<BF16Direct> : std::false_type {};
#if !HOSTNN_HAVE_F16C
template <>
struct PairInOrder<F16> : std::false_type {};
#endif

// The vector-at-a-time tail of the output kernels (and their whole loop when
// input and output layouts differ); sums == nullptr means the scalar `sum` for all lanes.
template <class Rule, class InTag, class OutTag>
HWY_INLINE void GradOutVectors(const typename InTag::T* dy, const typename InTag::T* y,
                               float sum, const float* sums, typename OutTag::T* out, size_t n) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto s = sums ? hn::LoadU(d, sums + i) : hn::Set(d, sum);
    StoreF32(d, OutTag(),
             Rule::Out(d, LoadF32(d, InTag(), dy + i), LoadF32(d, InTag(), y + i), s), out + i);
  }
  if (i < n) {
    HWY_ALIGN TI bdy[kMaxLanes], by[kMaxLanes];
    HWY_ALIGN float bs[kMaxLanes];
    HWY_ALIGN TO bout[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(y + i, n - i, by, N);
    if (sums) CopyPadded(sums + i, n - i, bs, N);
    const auto s = sums ? hn::Load(d, bs) : hn::Set(d, sum);
    StoreF32(d, OutTag(), Rule::Out(d, LoadF32(d, InTag(), bdy), LoadF32(d, InTag(), by), s),
             bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

template <class Rule, class Tag, bool kStream>
HWY_INLINE void GradOutPairs(const typename Tag::T* HWY_RESTRICT dy,
                                   const typename Tag::T* HWY_RESTRICT y, float sum,
                                   const float* sums, typename Tag::T* out, size_t n) {
  using InTag = Tag;
  using OutTag = Tag;
  if (sums != nullptr && !PairInOrder<Tag>::value) {
    GradOutVectors<Rule, InTag, OutTag>(dy, y, sum, sums, out, n);
    return;
  }
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (kStream) {
    const size_t head = StreamHead(out, n, N * sizeof(float));
    GradOutVectors<Rule, InTag, OutTag>(dy, y, sum, sums, out, head);
    i = head;
  }
  const auto s = hn::Set(d, sum);
  for (; i + 2 * N <= n; i += 2 * N) {
    hn::Vec<decltype(d)> dy0, dy1, y0, y1;
    LoadPairF32(d, InTag(), dy + i, &dy0, &dy1);
    LoadPairF32(d, InTag(), y + i, &y0, &y1);
    const auto s0 = sums ? hn::LoadU(d, sums + i) : s;
    const auto s1 = sums ? hn::LoadU(d, sums + i + N) : s;
    StorePairF32<kStream>(d, OutTag(), Rule::Out(d, dy0, y0, s0), Rule::Out(d, dy1, y1, s1),
                          out + i);
  }
  GradOutVectors<Rule, InTag, OutTag>(dy + i, y + i, sum, sums ? sums + i : nullptr, out + i,
                                      n - i);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

// Whether a row's (or column's) double sum lies beyond f32's range: dy's sum can overflow
// f32 though every dy and the result do not (dy = 2e38 four times), so such a sum meets
// the rule's factor in double instead of as a float (which would be +-inf and give -+inf).
HWY_INLINE bool SumBeyondF32(double sum) {
  return std::isfinite(sum) && std::fabs(sum) > static_cast<double>(FLT_MAX);
}

// out[i] = Rule::Out(dy[i], y[i], sums ? sums[i] : sum), i < n, for sums beyond f32's range:
// the rule's factor (exp(y), or y) as the fast kernels compute it, WideOut in double, the
// result rounded to f32 (then to out's dtype). A vector at a time through padded copies,
// so out may be dy itself. Rare, so not tuned.
template <class Rule, class InTag, class OutTag>
HWY_NOINLINE void GradOutWideSum(const typename InTag::T* dy, const typename InTag::T* y,
                                 double sum, const double* sums, typename OutTag::T* out,
                                 size_t n) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  HWY_ALIGN TI bdy[kMaxLanes], by[kMaxLanes];
  HWY_ALIGN float fdy[kMaxLanes], fp[kMaxLanes], res[kMaxLanes];
  HWY_ALIGN TO bout[kMaxLanes];
  for (size_t i = 0; i < n; i += N) {
    const size_t len = std::min(N, n - i);
    CopyPadded(dy + i, len, bdy, N);
    CopyPadded(y + i, len, by, N);
    hn::Store(LoadF32(d, InTag(), bdy), d, fdy);
    hn::Store(Rule::Factor(d, LoadF32(d, InTag(), by)), d, fp);
    for (size_t j = 0; j < N; ++j) {
      const double s = j < len && sums != nullptr ? sums[i + j] : sum;
      res[j] = static_cast<float>(Rule::WideOut(fdy[j], fp[j], s));
    }
    StoreF32(d, OutTag(), hn::Load(d, res), bout);
    for (size_t j = 0; j < len; ++j) out[i + j] = bout[j];
  }
}

// out[i] = Rule::Out(dy[i], y[i], sums ? sums[i] : sum), i < n. Same storage in and out
// converts a pair at a time (per-column sums need pairs in order); kStream writes the
// output with non-temporal stores past its first vector-aligned address.
template <class Rule, class InTag, class OutTag, bool kStream>
HWY_INLINE void GradOutImpl(const void* dy_v, const void* y_v, float sum, const float* sums,
                                  void* out_v, size_t n) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const TI* HWY_RESTRICT dy = static_cast<const TI*>(dy_v);
  const TI* HWY_RESTRICT y = static_cast<const TI*>(y_v);
  TO* out = static_cast<TO*>(out_v);  // may be dy itself (in place)
  constexpr bool kPairs = std::is_same<InTag, OutTag>::value &&
                          (std::is_same<InTag, F32>::value || std::is_same<InTag, F16>::value ||
                           std::is_same<InTag, BF16>::value);
  if constexpr (!kPairs) {
    GradOutVectors<Rule, InTag, OutTag>(dy, y, sum, sums, out, n);
    return;
  } else if constexpr (std::is_same<InTag, BF16>::value) {
    GradOutPairs<Rule, BF16Direct, kStream>(dy, y, sum, sums, out, n);  // bf16 in and out
  } else {
    GradOutPairs<Rule, InTag, kStream>(dy, y, sum, sums, out, n);
  }
}

// The ARA block (see SoftmaxBackwardKernels::ara_block). Rows are prefetched kPrefetchRows
// ahead: a row segment of a narrow tile is a few cache lines in its own page, where the
// hardware prefetchers, which stop at page boundaries, do not reach.
constexpr size_t kPrefetchRows = 4;
constexpr size_t kPrefetchMaxBytes = 1024;

template <class T>
HWY_INLINE void PrefetchRow(const T* p, size_t w) {
  const char* c = reinterpret_cast<const char*>(p);
  for (size_t b = 0; b < w * sizeof(T); b += 64) hwy::Prefetch(c + b);
}

// out[i] = Rule::Out(dy[i], y[i], s[i % N]) for i < n, s one vector of sums (N a multiple of
// the period); vectors in natural order, the last one through a padded copy.
template <class Rule, class InTag, class OutTag, class V>
HWY_INLINE void GradOutPeriodic(const typename InTag::T* dy, const typename InTag::T* y, V s,
                                   typename OutTag::T* out, size_t n) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreF32(d, OutTag(),
             Rule::Out(d, LoadF32(d, InTag(), dy + i), LoadF32(d, InTag(), y + i), s), out + i);
  }
  if (i < n) {
    HWY_ALIGN TI bdy[kMaxLanes], by[kMaxLanes];
    HWY_ALIGN TO bout[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(y + i, n - i, by, N);
    StoreF32(d, OutTag(), Rule::Out(d, LoadF32(d, InTag(), bdy), LoadF32(d, InTag(), by), s),
             bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

// The first pass of an (R x w) block: acc[c] = the column's double sum of the rule's term, rows in
// order, and sums[c] = (float)acc[c]. False when a column's sum is beyond f32's range (its
// sums[c] is then not set).
template <class Rule, class InTag>
HWY_INLINE bool AraSumsImpl(const void* dy_v, const void* y_v, size_t r, size_t row_stride,
                            size_t w, double* acc, float* sums) {
  using TI = typename InTag::T;
  const TI* dy = static_cast<const TI*>(dy_v);
  const TI* y = static_cast<const TI*>(y_v);  // read by SoftmaxGradRule only
  // Wide segments are streams the hardware prefetchers follow on their own.
  const bool prefetch = w * sizeof(TI) <= kPrefetchMaxBytes;
  for (size_t c = 0; c < w; ++c) acc[c] = 0.0;
  constexpr size_t kSumRows = 8;  // rows per accumulator load and store (4: 19% fewer
                                  // instructions than 1 at [1024, 4096] dim 0; 8: 3% faster still)
  size_t row = 0;
  for (; row + kSumRows <= r; row += kSumRows) {
    if (prefetch) {  // the next group
      for (size_t k = row + kSumRows; k < row + 2 * kSumRows && k < r; ++k)
      {
        PrefetchRow(dy + k * row_stride, w);
        if (Rule::kReadsY) PrefetchRow(y + k * row_stride, w);
      }
    }
    ColSumRows<Rule, InTag, kSumRows>(dy + row * row_stride, y + row * row_stride, row_stride, acc,
                                      w);
  }
  for (; row < r; ++row) {
    if (prefetch && row + kPrefetchRows < r) {
      PrefetchRow(dy + (row + kPrefetchRows) * row_stride, w);
      if (Rule::kReadsY) PrefetchRow(y + (row + kPrefetchRows) * row_stride, w);
    }
    ColSumImpl<Rule, InTag>(dy + row * row_stride, y + row * row_stride, acc, w);
  }
  bool within = true;
  for (size_t c = 0; c < w; ++c) {
    if (HWY_UNLIKELY(SumBeyondF32(acc[c]))) {
      within = false;
    } else {
      sums[c] = static_cast<float>(acc[c]);
    }
  }
  return within;
}

template <class Rule, class InTag, class OutTag, bool kStream>
HWY_INLINE void AraBlockImpl(const void* dy_v, const void* y_v, void* out_v, size_t r,
                             size_t row_stride, size_t w, double* acc, float* sums) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const TI* dy = static_cast<const TI*>(dy_v);
  const TI* y = static_cast<const TI*>(y_v);
  TO* out = static_cast<TO*>(out_v);
  const bool prefetch = w * sizeof(TI) <= kPrefetchMaxBytes;
  const bool within = AraSumsImpl<Rule, InTag>(dy_v, y_v, r, row_stride, w, acc, sums);
  if (HWY_UNLIKELY(!within)) {
    for (size_t row = 0; row < r; ++row) {
      GradOutWideSum<Rule, InTag, OutTag>(dy + row * row_stride, y + row * row_stride, 0.0, acc,
                                          out + row * row_stride, w);
    }
    return;
  }
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  if (row_stride == w && w < N && N % w == 0) {
    // A few columns, rows back to back: the block is one run of r * w elements whose sums
    // repeat every w lanes, so it goes a vector at a time instead of a padded vector per row.
    HWY_ALIGN float pattern[kMaxLanes];
    for (size_t i = 0; i < N; ++i) pattern[i] = sums[i % w];
    GradOutPeriodic<Rule, InTag, OutTag>(dy, y, hn::Load(d, pattern), out, r * w);
    return;
  }
  for (size_t row = 0; row < r; ++row) {
    if (prefetch && row + kPrefetchRows < r) {
      PrefetchRow(dy + (row + kPrefetchRows) * row_stride, w);
      PrefetchRow(y + (row + kPrefetchRows) * row_stride, w);
    }
    GradOutImpl<Rule, InTag, OutTag, kStream>(dy + row * row_stride, y + row * row_stride, 0.0f,
                                              sums, out + row * row_stride, w);
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
