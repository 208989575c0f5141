// PreluBackward's segment kernel for every compiled SIMD target, and its dispatch entry
// (GetPreluBackwardSegment): gradInput of a run of one channel's elements and that run's
// term of gradWeight, summed in double in a fixed order (see PreluBackwardSegmentFn in
// kernels.h).

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

// gi[i] = x[i] > 0 ? dy[i] : w * dy[i] (f32: the product's one rounding); returns the sum
// of (x[i] > 0 ? 0 : dy[i] * x[i]), each product exact in double, accumulated lane by lane
// over whole f64 vectors in index order, the lanes then added in lane order, then the tail
// element by element. NaN x takes the weight branch (NaN gi where w dy is, a NaN sum).
double PreluBackwardSegment(const float* dy, const float* x, float w, float* gi, size_t n) {
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> df;
  const size_t N = hn::Lanes(dd);
  const auto vw = hn::Set(df, w);
  const auto zf = hn::Zero(df);
  const auto zd = hn::Zero(dd);
  auto acc = zd;
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto vdy = hn::LoadU(df, dy + i);
    const auto vx = hn::LoadU(df, x + i);
    hn::StoreU(hn::IfThenElse(hn::Gt(vx, zf), vdy, hn::Mul(vw, vdy)), df, gi + i);
    const auto xd = hn::PromoteTo(dd, vx);
    const auto term = hn::Mul(hn::PromoteTo(dd, vdy), xd);
    acc = hn::Add(acc, hn::IfThenZeroElse(hn::Gt(xd, zd), term));
  }
  HWY_ALIGN double lanes[HWY_MAX_BYTES / sizeof(double)];
  hn::Store(acc, dd, lanes);
  double sum = 0.0;
  for (size_t j = 0; j < N; ++j) sum += lanes[j];
  for (; i < n; ++i) {
    const bool pos = x[i] > 0.0f;
    gi[i] = pos ? dy[i] : w * dy[i];
    if (!pos) sum += static_cast<double>(dy[i]) * static_cast<double>(x[i]);
  }
  return sum;
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
