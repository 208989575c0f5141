// The softmax forward along a contiguous row (AR): the row's max, its sums of exp(x - max)
// in kRowPartials double partials, the output pass and a whole short row in one call,
// for any row function (softmax_exp-inl.h). Lanes: f32.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_SOFTMAX_ROW_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_SOFTMAX_ROW_INL_H_
#undef HOSTNN_KERNELS_SOFTMAX_ROW_INL_H_
#else
#define HOSTNN_KERNELS_SOFTMAX_ROW_INL_H_
#endif

#include <hwy/highway.h>

#include <algorithm>
#include <cmath>

#include "kernels/softmax_exp-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

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
        AddPromotedHalves(d, dd, f, &acc[2 * k], &acc[2 * k + 1]);
      } else {
        FwdAddGroup(d, dd, e, is_max, kGroups, &acc[2 * k], &acc[2 * k + 1]);
      }
    }
  }
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kVecs; ++k) {
      const auto e = exp_of(d, LoadF32(d, Tag(), x + i + k * kNf), m);
      AddPromotedHalves(d, dd, e, &acc[2 * k], &acc[2 * k + 1]);
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
      AddPromotedHalves(d, dd, e, &acc[2 * k], &acc[2 * k + 1]);
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

template <class Rule, class Tag>
HWY_INLINE void RowOutVectors(const typename Tag::T* x, float max, float ls, typename Tag::T* out,
                              size_t n) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto m = hn::Set(d, max), l = hn::Set(d, ls);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreF32(d, Tag(), Rule::Out(d, LoadF32(d, Tag(), x + i), m, l), out + i);
  }
  if (i < n) {
    HWY_ALIGN T bx[kMaxLanes], bout[kMaxLanes];
    CopyPadded(x + i, n - i, bx, N);
    StoreF32(d, Tag(), Rule::Out(d, LoadF32(d, Tag(), bx), m, l), bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

// Pairs of vectors (two per iteration) with the tail through RowOutVectors, as UnaryTile.
template <class Rule, class Tag, bool kStream>
HWY_INLINE void RowOutImpl(const void* x_v, float max, double stat, void* out_v, size_t n) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may be x itself
  const float ls = static_cast<float>(stat);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (kStream) {
    const size_t head = StreamHead(out, n, N * sizeof(float));
    RowOutVectors<Rule, Tag>(x, max, ls, out, head);
    i = head;
  }
  const auto m = hn::Set(d, max), l = hn::Set(d, ls);
  for (; i + 4 * N <= n; i += 4 * N) {
    hn::Vec<decltype(d)> x0, x1, x2, x3;
    LoadPairF32(d, Tag(), x + i, &x0, &x1);
    LoadPairF32(d, Tag(), x + i + 2 * N, &x2, &x3);
    StorePairF32<kStream>(d, Tag(), Rule::Out(d, x0, m, l), Rule::Out(d, x1, m, l),
                          out + i);
    StorePairF32<kStream>(d, Tag(), Rule::Out(d, x2, m, l), Rule::Out(d, x3, m, l),
                          out + i + 2 * N);
  }
  RowOutVectors<Rule, Tag>(x + i, max, ls, out + i, n - i);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

// A whole row (n <= kRowWholeMax) in one call, with the bits of row_max, row_sum_exp,
// RowStat and row_out: f32 rows pass by pass; a 16-bit row is widened to f32 on the
// stack by the max pass, so the sum and output passes read f32 instead of converting
// again (the output pass narrows once, as row_out does).
template <class Rule, class Tag>
HWY_INLINE void RowWholeImpl(const void* x_v, size_t n, void* out_v) {
  using T = typename Tag::T;
  float max = -HUGE_VALF;
  double partials[kRowPartials] = {0};
  if constexpr (sizeof(T) == sizeof(float)) {
    RowMaxImpl<Tag>(x_v, n, &max);
    RowSumExpImpl<Tag, false>(x_v, n, max, partials);
    const double stat = Rule::RowStat(
        partials, [&](double* rest) { RowSumExpImpl<Tag, true>(x_v, n, max, rest); });
    RowOutImpl<Rule, Tag, false>(x_v, max, stat, out_v, n);
    return;
  } else {
    HWY_ALIGN float wide[kRowWholeMax];
    RowMaxImpl<Tag, true>(x_v, n, &max, wide);
    RowSumExpImpl<F32, false>(wide, n, max, partials);
    const double stat = Rule::RowStat(
        partials, [&](double* rest) { RowSumExpImpl<F32, true>(wide, n, max, rest); });
    T* out = static_cast<T*>(out_v);  // may be x itself: x is no longer read
    const hn::ScalableTag<float> d;
    const size_t N = hn::Lanes(d);
    const auto m = hn::Set(d, max), l = hn::Set(d, static_cast<float>(stat));
    size_t i = 0;
    for (; i + N <= n; i += N) {
      StoreF32(d, Tag(), Rule::Out(d, hn::LoadU(d, wide + i), m, l), out + i);
    }
    if (i < n) {
      HWY_ALIGN float bx[kMaxLanes];
      HWY_ALIGN T bout[kMaxLanes];
      CopyPadded(wide + i, n - i, bx, N);
      StoreF32(d, Tag(), Rule::Out(d, hn::Load(d, bx), m, l), bout);
      for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
    }
  }
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
