// The roofline kernel (see roofline.h), compiled for every SIMD target the library has so
// that in-cache roofline numbers are as wide as the kernels they are compared with.
// Plain (temporal) stores on purpose: it is the reference, not a contender.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "bench/roofline.cc"
#include "bench/roofline.h"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace bench {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

void AddU32(const uint32_t* HWY_RESTRICT a, const uint32_t* HWY_RESTRICT b,
            uint32_t* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<uint32_t> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    hn::Store(hn::Add(hn::Load(d, a + i), hn::Load(d, b + i)), d, out + i);
    hn::Store(hn::Add(hn::Load(d, a + i + N), hn::Load(d, b + i + N)), d, out + i + N);
  }
  for (; i < n; ++i) out[i] = a[i] + b[i];
}

}  // namespace HWY_NAMESPACE
}  // namespace bench
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include <algorithm>

#include "src/exec/launcher.h"

namespace hostnn {
namespace bench {

HWY_EXPORT(AddU32);

namespace {
struct RooflineCtx {
  const uint32_t* a;
  const uint32_t* b;
  uint32_t* out;
  size_t words;
  int64_t parts;
};
constexpr size_t kLineWords = 64 / sizeof(uint32_t);
}  // namespace

void RooflineAdd(const void* a, const void* b, void* out, size_t bytes, int64_t threads) {
  RooflineCtx ctx{static_cast<const uint32_t*>(a), static_cast<const uint32_t*>(b),
                  static_cast<uint32_t*>(out), bytes / sizeof(uint32_t),
                  std::max<int64_t>(1, threads)};
  launch::LaunchCores(
      ctx.parts,
      [](const void* p, int64_t part) {
        const RooflineCtx& c = *static_cast<const RooflineCtx*>(p);
        // Parts are whole cache lines, so no two threads write one line.
        const size_t lines = (c.words + kLineWords - 1) / kLineWords;
        const size_t per = lines / static_cast<size_t>(c.parts);
        const size_t extra = lines % static_cast<size_t>(c.parts);
        const size_t k = static_cast<size_t>(part);
        const size_t first = k * per + std::min(k, extra);
        const size_t begin = std::min(c.words, first * kLineWords);
        const size_t end = std::min(c.words, (first + per + (k < extra ? 1 : 0)) * kLineWords);
        if (end > begin) {
          HWY_DYNAMIC_DISPATCH(AddU32)(c.a + begin, c.b + begin, c.out + begin, end - begin);
        }
      },
      &ctx);
}

const char* RooflineTarget() {
  const int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
  return supported ? hwy::TargetName(supported & -supported) : "none";
}

}  // namespace bench
}  // namespace hostnn
#endif  // HWY_ONCE
