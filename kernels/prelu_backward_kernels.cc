// PreluBackward's segment kernel for every compiled SIMD target, and its dispatch entry
// (GetPreluBackwardSegment): gradInput of a run of one channel's elements and that run's
// term of gradWeight, summed in double in 16 partials whatever the SIMD width (see
// PreluBackwardSegmentFn in kernels.h), so the bits are the same on every target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/prelu_backward_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One block of kRowPartials elements: gi, and each element's term added to its partial.
// Vectors of at most 16 f64 lanes, so a block is whole vectors on every target.
template <class DD>
HWY_INLINE void PreluBlock(DD dd, const float* dy, const float* x, float w, float* gi,
                           double* partials) {
  const hn::Rebind<float, DD> df;
  const size_t N = hn::Lanes(dd);
  for (size_t k = 0; k < kRowPartials; k += N) {
    const auto vdy = hn::LoadU(df, dy + k);
    const auto vx = hn::LoadU(df, x + k);
    hn::StoreU(hn::IfThenElse(hn::Gt(vx, hn::Zero(df)), vdy, hn::Mul(hn::Set(df, w), vdy)), df,
               gi + k);
    const auto xd = hn::PromoteTo(dd, vx);
    const auto term = hn::IfThenZeroElse(hn::Gt(xd, hn::Zero(dd)),
                                         hn::Mul(hn::PromoteTo(dd, vdy), xd));  // exact
    hn::Store(hn::Add(hn::Load(dd, partials + k), term), dd, partials + k);
  }
}

// gi[i] = x[i] > 0 ? dy[i] : w * dy[i] (f32: the product's one rounding); returns the sum
// of (x[i] > 0 ? 0 : dy[i] * x[i]), each product exact in double, element i added to
// partial i % 16 whatever the lane count, the partials then combined pairwise. The last
// block runs on a padded copy (dy 0, x 1: no term). NaN x takes the weight branch (NaN gi
// where w dy is, a NaN sum).
double PreluBackwardSegment(const float* dy, const float* x, float w, float* gi, size_t n) {
  const hn::CappedTag<double, kRowPartials> dd;
  HWY_ALIGN double partials[kRowPartials] = {0};
  size_t i = 0;
  for (; i + kRowPartials <= n; i += kRowPartials) PreluBlock(dd, dy + i, x + i, w, gi + i, partials);
  if (i < n) {
    float bdy[kRowPartials] = {0}, bgi[kRowPartials];
    float bx[kRowPartials];
    for (size_t j = 0; j < kRowPartials; ++j) bx[j] = 1.0f;
    for (size_t j = 0; j < n - i; ++j) bdy[j] = dy[i + j], bx[j] = x[i + j];
    PreluBlock(dd, bdy, bx, w, bgi, partials);
    for (size_t j = 0; j < n - i; ++j) gi[i + j] = bgi[j];
  }
  return CombinePartials(partials);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(PreluBackwardSegment);

PreluBackwardSegmentFn GetPreluBackwardSegment() { return HOSTNN_PICK(PreluBackwardSegment); }

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
