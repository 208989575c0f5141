// The PointLoss kind's kernels (MseLoss, MseLossOut, MseLossBackward) for every compiled SIMD
// target, and their dispatch entry (GetMseKernels): over n contiguous f32 elements of the
// inputs. MseLoss's terms in double from the widened inputs (exact widening, one subtraction
// and one product in double, no fused multiply-add), so a term rounded once to f32 is the
// exact one but for its last rounding; the gradient in f32 in CANN's order. The sums put
// element i in partial i % kRowPartials whatever the SIMD width and combine the partials
// pairwise (CombinePartials): the same bits on every target, and, as the executor fixes
// where each sum starts, for any thread count.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/loss_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/convert-inl.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr size_t kPad = HWY_MAX_BYTES / sizeof(float);  // a padded copy's elements

// (a - b)^2 in double of one vector of double lanes, the inputs of Tag's storage.
template <class Tag, class DD>
HWY_INLINE hn::Vec<DD> SquaredDiff(DD dd, const typename Tag::T* a, const typename Tag::T* b) {
  const hn::Rebind<float, DD> df;
  const auto d =
      hn::Sub(hn::PromoteTo(dd, LoadF32(df, Tag(), a)), hn::PromoteTo(dd, LoadF32(df, Tag(), b)));
  return hn::Mul(d, d);
}

// n elements a vector at a time, the last partial vector on zero-padded copies:
// step(in, i, out + i) computes the vector at element i of the inputs in[k].
template <class T, size_t kIn, class Step>
HWY_INLINE void ForVectors(size_t n, size_t lanes, const T* const (&in)[kIn], T* out, Step step) {
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) step(in, i, out + i);
  if (i < n) {
    HWY_ALIGN T pad[kIn][kPad] = {};
    HWY_ALIGN T pad_out[kPad];
    const T* padded[kIn];
    for (size_t k = 0; k < kIn; ++k) {
      for (size_t j = 0; j < n - i; ++j) pad[k][j] = in[k][i + j];
      padded[k] = pad[k];
    }
    step(padded, 0, pad_out);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = pad_out[j];
  }
}

// out[i] = (a[i] - b[i])^2 in double, rounded once to f32 (and to Tag's storage).
template <class Tag>
void MseTermsOf(const void* va, const void* vb, void* vout, size_t n) {
  using T = typename Tag::T;
  const hn::CappedTag<double, kRowPartials> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const T* const in[2] = {static_cast<const T*>(va), static_cast<const T*>(vb)};
  ForVectors<T, 2>(
      n, hn::Lanes(dd), in, static_cast<T*>(vout), [&](const T* const* x, size_t i, T* o) {
        StoreF32(df, Tag(), hn::DemoteTo(df, SquaredDiff<Tag>(dd, x[0] + i, x[1] + i)), o);
      });
}

// The sum of (a[i] - b[i])^2 in double, element i to partial i % kRowPartials (vectors of at
// most kRowPartials lanes, so a block is whole vectors on every target), the last block on a
// zero-padded copy.
template <class Tag>
double MseSumOf(const void* va, const void* vb, size_t n) {
  using T = typename Tag::T;
  const T* a = static_cast<const T*>(va);
  const T* b = static_cast<const T*>(vb);
  const hn::CappedTag<double, kRowPartials> dd;
  const size_t N = hn::Lanes(dd);
  HWY_ALIGN double partials[kRowPartials] = {0};
  HWY_ALIGN T pa[kRowPartials] = {}, pb[kRowPartials] = {};
  for (size_t i = 0; i < n; i += kRowPartials) {
    const T* xa = a + i;
    const T* xb = b + i;
    if (i + kRowPartials > n) {
      for (size_t j = 0; j < n - i; ++j) pa[j] = a[i + j], pb[j] = b[i + j];
      xa = pa, xb = pb;
    }
    for (size_t k = 0; k < kRowPartials; k += N) {
      hn::Store(hn::Add(hn::Load(dd, partials + k), SquaredDiff<Tag>(dd, xa + k, xb + k)), dd,
                partials + k);
    }
  }
  return CombinePartials(partials);
}

// acc[j] += (a[j] - b[j])^2 in double: one row's terms added to its columns' totals. The
// tail runs on padded copies through the same vector operations, so a column's bits do not
// depend on where a block of columns ends.
void MseAddColumns(const float* a, const float* b, double* acc, size_t n) {
  const hn::CappedTag<double, kRowPartials> dd;
  const size_t N = hn::Lanes(dd);
  size_t j = 0;
  for (; j + N <= n; j += N) {
    hn::StoreU(hn::Add(hn::LoadU(dd, acc + j), SquaredDiff<F32>(dd, a + j, b + j)), dd, acc + j);
  }
  if (j < n) {
    HWY_ALIGN float pa[kRowPartials] = {0}, pb[kRowPartials] = {0};
    HWY_ALIGN double pacc[kRowPartials] = {0};
    for (size_t k = 0; k < n - j; ++k) pa[k] = a[j + k], pb[k] = b[j + k], pacc[k] = acc[j + k];
    hn::Store(hn::Add(hn::Load(dd, pacc), SquaredDiff<F32>(dd, pa, pb)), dd, pacc);
    for (size_t k = 0; k < n - j; ++k) acc[j + k] = pacc[k];
  }
}

// out[i] = ((a[i] - b[i]) * cof) * dy[i] in f32, each operation rounded once, in the order
// of CANN's MseLossGradV2 kernel (Sub, Muls, Mul; a 16-bit dtype widened first and the
// result rounded once to it): its bits, within 2 ULP of the exact value.
template <class Tag>
void MseGradOf(const void* vdy, const void* va, const void* vb, float cof, void* vout, size_t n) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> df;
  const auto vc = hn::Set(df, cof);
  const T* const in[3] = {static_cast<const T*>(vdy), static_cast<const T*>(va),
                          static_cast<const T*>(vb)};
  ForVectors<T, 3>(
      n, hn::Lanes(df), in, static_cast<T*>(vout), [&](const T* const* x, size_t i, T* o) {
        const auto d = hn::Sub(LoadF32(df, Tag(), x[1] + i), LoadF32(df, Tag(), x[2] + i));
        StoreF32(df, Tag(), hn::Mul(hn::Mul(d, vc), LoadF32(df, Tag(), x[0] + i)), o);
      });
}

// The entries, one per storage type (HWY_EXPORT takes plain names).
void MseTermsF32(const void* a, const void* b, void* out, size_t n) {
  MseTermsOf<F32>(a, b, out, n);
}
void MseTermsF16(const void* a, const void* b, void* out, size_t n) {
  MseTermsOf<F16>(a, b, out, n);
}
void MseTermsBF16(const void* a, const void* b, void* out, size_t n) {
  MseTermsOf<BF16>(a, b, out, n);
}
double MseSumF32(const void* a, const void* b, size_t n) { return MseSumOf<F32>(a, b, n); }
double MseSumF16(const void* a, const void* b, size_t n) { return MseSumOf<F16>(a, b, n); }
double MseSumBF16(const void* a, const void* b, size_t n) { return MseSumOf<BF16>(a, b, n); }
void MseGradF32(const void* dy, const void* a, const void* b, float cof, void* out, size_t n) {
  MseGradOf<F32>(dy, a, b, cof, out, n);
}
void MseGradF16(const void* dy, const void* a, const void* b, float cof, void* out, size_t n) {
  MseGradOf<F16>(dy, a, b, cof, out, n);
}
void MseGradBF16(const void* dy, const void* a, const void* b, float cof, void* out, size_t n) {
  MseGradOf<BF16>(dy, a, b, cof, out, n);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(MseTermsF32);
HWY_EXPORT(MseTermsF16);
HWY_EXPORT(MseTermsBF16);
HWY_EXPORT(MseSumF32);
HWY_EXPORT(MseSumF16);
HWY_EXPORT(MseSumBF16);
HWY_EXPORT(MseAddColumns);
HWY_EXPORT(MseGradF32);
HWY_EXPORT(MseGradF16);
HWY_EXPORT(MseGradBF16);

MseKernels GetMseKernels(DType storage) {
  MseKernels k;
  k.add_columns = HOSTNN_PICK(MseAddColumns);
  switch (storage) {
    case DType::kFloat32:
      k.terms = HOSTNN_PICK(MseTermsF32), k.sum = HOSTNN_PICK(MseSumF32);
      k.grad = HOSTNN_PICK(MseGradF32);
      break;
    case DType::kFloat16:
      k.terms = HOSTNN_PICK(MseTermsF16), k.sum = HOSTNN_PICK(MseSumF16);
      k.grad = HOSTNN_PICK(MseGradF16);
      break;
    case DType::kBFloat16:
      k.terms = HOSTNN_PICK(MseTermsBF16), k.sum = HOSTNN_PICK(MseSumBF16);
      k.grad = HOSTNN_PICK(MseGradBF16);
      break;
    default:  // no loss kernel stores another dtype
      break;
  }
  return k;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
