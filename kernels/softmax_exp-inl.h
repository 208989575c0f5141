// The softmax forward's shared pieces: the max pass's NaN padding and update, the sums'
// exp(x - max) and their f32 group sums, and the row functions (LogSoftmaxRule,
// SoftmaxRule) that say what the output pass computes. Lanes: f32.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_SOFTMAX_EXP_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_SOFTMAX_EXP_INL_H_
#undef HOSTNN_KERNELS_SOFTMAX_EXP_INL_H_
#else
#define HOSTNN_KERNELS_SOFTMAX_EXP_INL_H_
#endif

#include <hwy/highway.h>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"  // ExpNonPositive
#include "kernels/kernels.h"
#include "kernels/tile-inl.h"

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
    AddPromotedHalves(d, dd, FwdGroupOffMax(d, e, is_max, count, &ones), lo, hi);
    AddPromotedHalves(d, dd, ones, lo, hi);
  } else {
    AddPromotedHalves(d, dd, f, lo, hi);
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

// ---- The row functions ----------------------------------------------------------------

// A forward softmax normalizes exp(x - max) by its row's (or column's) sum s. The passes
// that find the max and s are one code for every row function; a rule says what the
// output pass computes from x, the max and one f32 statistic of s, and how that statistic
// is taken from s (RowStat from a row's partial sums, ColStat from a column's double sum).

// LogSoftmax: out = (x - max) - log s, x - max first (exact where it cancels, so an element
// near the max keeps its small result); log s is log1p of the sum without the max below
// kLogSumNearOne.
struct LogSoftmaxRule {
  template <class OffMax>
  static double RowStat(const double* partials, OffMax off_max) {
    return LogSumOfPartials(partials, off_max);
  }
  template <class Tag>
  static float ColStat(const typename Tag::T* x, size_t r, size_t stride, float max, double acc) {
    return static_cast<float>(FwdColLogSum<Tag>(x, r, stride, max, acc));
  }
  template <class D>
  static hn::Vec<D> Out(D /*d*/, hn::Vec<D> x, hn::Vec<D> m, hn::Vec<D> ls) {
    return hn::Sub(hn::Sub(x, m), ls);
  }
};

// Softmax: out = exp(x - max) * (1 / s), 1 / s taken in double and rounded once to f32. The
// output's exp is ExpNonPositive (1.8 ULP) rather than the sums' cheaper LsmExp (2.5 ULP):
// it is the result's own error, where the sums' errors average out. s >= 1 (the max's own
// term), so 1 / s never overflows; NaN (a NaN or +inf in the row, or a row of -inf) stays
// NaN. Results: within 3 ULP plus the sum's rounding.
struct SoftmaxRule {
  template <class OffMax>
  static double RowStat(const double* partials, OffMax /*off_max*/) {
    return 1.0 / CombinePartials(partials);
  }
  template <class Tag>
  static float ColStat(const typename Tag::T* /*x*/, size_t /*r*/, size_t /*stride*/,
                       float /*max*/, double acc) {
    return static_cast<float>(1.0 / acc);
  }
  template <class D>
  static hn::Vec<D> Out(D d, hn::Vec<D> x, hn::Vec<D> m, hn::Vec<D> inv) {
    const hn::Vec<D> v = hn::Sub(x, m);
    const hn::Vec<D> e = ExpNonPositive(d, hn::Max(v, hn::Set(d, -104.0f)));
    return hn::Mul(hn::IfThenElse(hn::IsNaN(v), v, e), inv);
  }
};

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // per-target include guard
