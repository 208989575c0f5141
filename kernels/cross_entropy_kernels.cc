// The SoftmaxLoss kind's row kernels (CrossEntropyLoss, CrossEntropyLossGrad,
// SoftmaxCrossEntropyWithLogits) for every compiled SIMD target, and their dispatch entry
// (GetSoftmaxLossKernels); kernels/kernels.h says what each computes. The max, sum of exp and
// logProb are the softmax forward's kernels (LogSoftmax's bits); these are the passes it does
// not have: a weighted row sum (label smoothing's, the dense labels' loss), and the gradients'
// rows.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/cross_entropy_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"  // ExpNonPositive
#include "kernels/kernels.h"
#include "kernels/partial_sums-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr size_t kPad = HWY_MAX_BYTES / sizeof(float);  // a padded copy's elements

// sum_i w[i] (x[i] - shift) in double, in the fixed order of AddToPartials. x[i] - shift is
// exact in double for a float shift, its product with w[i] rounded once.
template <class Tag>
double ShiftedSumOf(const void* vx, const float* w, double shift, size_t n) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(vx);
  const PartialsTag dd;
  const hn::Rebind<float, decltype(dd)> df;
  const auto vmax = hn::Set(dd, shift);
  const auto term = [&](const T* xs, const float* ws, size_t k) {
    const auto d = hn::Sub(hn::PromoteTo(dd, LoadF32(df, Tag(), xs + k)), vmax);
    return ws == nullptr ? d : hn::Mul(d, hn::PromoteTo(dd, hn::LoadU(df, ws + k)));
  };
  HWY_ALIGN double partials[kRowPartials] = {0};
  AddToPartials(
      n, partials, [&](size_t i) { return term(x, w, i); },
      [&](size_t first, size_t valid, const auto& add) {
        HWY_ALIGN T px[kRowPartials] = {};
        HWY_ALIGN float pw[kRowPartials] = {};
        for (size_t j = 0; j < valid; ++j) {
          px[j] = x[first + j];
          if (w != nullptr) pw[j] = w[first + j];
        }
        add([&](size_t k) { return term(px, w == nullptr ? nullptr : pw, k); });
      });
  return CombinePartials(partials);
}

// exp(v) in f32 lanes. The gradients' arguments are log-probabilities, <= 0, where
// ExpNonPositive (1.8 ULP, no range checks) is about half the cost of Highway's Exp; a vector
// with a lane above 0 (a logProb input no log-softmax wrote) takes Highway's Exp. NaN lanes
// stay NaN, and v below -104 gives 0 (the exact value is below half f32's least subnormal).
template <class D>
HWY_INLINE hn::Vec<D> ExpOfLogProb(D d, hn::Vec<D> v) {
  if (HWY_UNLIKELY(!hn::AllFalse(d, hn::Gt(v, hn::Zero(d))))) return hn::Exp(d, v);
  const hn::Vec<D> e = ExpNonPositive(d, hn::Max(v, hn::Set(d, -104.0f)));
  return hn::IfThenElse(hn::IsNaN(v), v, e);
}

// one(a + i, f + i, out + i) for each vector of `lanes` elements of a row of n, the last
// partial vector on zero-padded copies; f (FLOAT per element) may be null, and stays null.
template <class T, class One>
HWY_INLINE void ForRowVectors(const T* a, const float* f, T* out, size_t n, size_t lanes, One one) {
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) one(a + i, f == nullptr ? nullptr : f + i, out + i);
  if (i < n) {
    HWY_ALIGN T pa[kPad] = {};
    HWY_ALIGN float pf[kPad] = {};
    HWY_ALIGN T po[kPad] = {};
    for (size_t j = 0; j < n - i; ++j) {
      pa[j] = a[i + j];
      if (f != nullptr) pf[j] = f[i + j];
    }
    one(pa, f == nullptr ? nullptr : pf, po);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = po[j];
  }
}

// out[i] = exp(lp[i]) k - b w[i] (b where w is null), f32 lanes, rounded once to Tag; the
// last partial vector on padded copies.
template <class Tag>
void GradRowOf(const void* vlp, const float* w, float k, float b, void* vout, size_t n) {
  using T = typename Tag::T;
  const T* lp = static_cast<const T*>(vlp);
  T* out = static_cast<T*>(vout);
  const hn::ScalableTag<float> df;
  const auto vk = hn::Set(df, k), vb = hn::Set(df, b);
  const auto one = [&](const T* l, const float* ws, T* o) {
    const auto p = ExpOfLogProb(df, LoadF32(df, Tag(), l));
    const auto bw = ws == nullptr ? vb : hn::Mul(vb, hn::LoadU(df, ws));
    StoreF32(df, Tag(), hn::MulSub(p, vk, bw), o);
  };
  ForRowVectors(lp, w, out, n, hn::Lanes(df), one);
}

// out[i] = exp((x[i] - max) - lse) - y[i], f32 lanes, rounded once to Tag; the last partial
// vector on padded copies.
template <class Tag>
void LabelGradRowOf(const void* vx, const float* y, float max, float lse, void* vout, size_t n) {
  using T = typename Tag::T;
  const T* x = static_cast<const T*>(vx);
  T* out = static_cast<T*>(vout);
  const hn::ScalableTag<float> df;
  const auto vmax = hn::Set(df, max), vlse = hn::Set(df, lse);
  const auto one = [&](const T* xs, const float* ys, T* o) {
    const auto p = ExpOfLogProb(df, hn::Sub(hn::Sub(LoadF32(df, Tag(), xs), vmax), vlse));
    StoreF32(df, Tag(), hn::Sub(p, hn::LoadU(df, ys)), o);
  };
  ForRowVectors(x, y, out, n, hn::Lanes(df), one);
}

// The entries, one per storage type (HWY_EXPORT takes plain names).
#define HOSTNN_SOFTMAX_LOSS_ENTRIES(Tag)                                                     \
  double ShiftedSum##Tag(const void* x, const float* w, double shift, size_t n) {            \
    return ShiftedSumOf<Tag>(x, w, shift, n);                                                \
  }                                                                                          \
  void GradRow##Tag(const void* lp, const float* w, float k, float b, void* out, size_t n) { \
    GradRowOf<Tag>(lp, w, k, b, out, n);                                                     \
  }                                                                                          \
  void LabelGradRow##Tag(const void* x, const float* y, float max, float lse, void* out,     \
                         size_t n) {                                                         \
    LabelGradRowOf<Tag>(x, y, max, lse, out, n);                                             \
  }
HOSTNN_SOFTMAX_LOSS_ENTRIES(F32)
HOSTNN_SOFTMAX_LOSS_ENTRIES(F16)
HOSTNN_SOFTMAX_LOSS_ENTRIES(BF16)
#undef HOSTNN_SOFTMAX_LOSS_ENTRIES

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(ShiftedSumF32);
HWY_EXPORT(ShiftedSumF16);
HWY_EXPORT(ShiftedSumBF16);
HWY_EXPORT(GradRowF32);
HWY_EXPORT(LabelGradRowF32);
HWY_EXPORT(GradRowF16);
HWY_EXPORT(LabelGradRowF16);
HWY_EXPORT(GradRowBF16);
HWY_EXPORT(LabelGradRowBF16);

SoftmaxLossKernels GetSoftmaxLossKernels(DType storage) {
  SoftmaxLossKernels k;
  switch (storage) {
    case DType::kFloat32:
      k.shifted_sum = HOSTNN_PICK(ShiftedSumF32);
      k.grad_row = HOSTNN_PICK(GradRowF32);
      k.label_grad_row = HOSTNN_PICK(LabelGradRowF32);
      break;
    case DType::kFloat16:
      k.shifted_sum = HOSTNN_PICK(ShiftedSumF16);
      k.grad_row = HOSTNN_PICK(GradRowF16);
      k.label_grad_row = HOSTNN_PICK(LabelGradRowF16);
      break;
    case DType::kBFloat16:
      k.shifted_sum = HOSTNN_PICK(ShiftedSumBF16);
      k.grad_row = HOSTNN_PICK(GradRowBF16);
      k.label_grad_row = HOSTNN_PICK(LabelGradRowBF16);
      break;
    default:  // no other storage type
      break;
  }
  return k;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
