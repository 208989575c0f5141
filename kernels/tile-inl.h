// Helpers of the per-target kernel units (eltwise_tiles.cc, unary_tiles.cc, glu_tiles.cc,
// conversions.cc, softmax_*_kernels.cc): f32 stores to double, the lane bound, a functor bound
// to its parameters (BoundOp), zero-padded copies and where streaming stores start.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_TILE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_TILE_INL_H_
#undef HOSTNN_KERNELS_TILE_INL_H_
#else
#define HOSTNN_KERNELS_TILE_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/params.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct F64 {
  using T = double;
};

template <class DF>
HWY_INLINE void StoreF32(DF df, F64, hn::Vec<DF> v, double* p) {
  HWY_ALIGN float tmp[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, df, tmp);
  for (size_t i = 0; i < hn::Lanes(df); ++i) p[i] = static_cast<double>(tmp[i]);
}

constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// A functor bound to its operator's parameters for one tile. A functor without parameters
// has a static Apply, and the params are ignored; one with parameters names its struct
// (`using Params`, kernels/params.h) and declares `template <class D> struct Bound`, whose
// constructor Bound(D d, const Params& p) sets them into vectors once per tile and whose
// const Apply(d, ...) uses them.
template <class Op, class D, class = void>
struct BoundOp {
  BoundOp(D /*d*/, const OpParams& /*params*/) {}
  template <class... V>
  HWY_INLINE hn::Vec<D> Apply(D d, V... v) const {
    return Op::Apply(d, v...);
  }
};
template <class Op, class D>
struct BoundOp<Op, D, std::void_t<typename Op::template Bound<D>>> : Op::template Bound<D> {
  BoundOp(D d, const OpParams& params)
      : Op::template Bound<D>(d, params.As<typename Op::Params>()) {}
};

// Copies n < lanes elements into a zero-padded buffer of one vector.
template <typename T>
HWY_INLINE void CopyPadded(const T* src, size_t n, T* dst, size_t lanes) {
  size_t i = 0;
  for (; i < n; ++i) dst[i] = src[i];
  for (; i < lanes; ++i) dst[i] = T(0);
}

// The elements before the first output address aligned to vector_bytes, at most n: where
// a streaming loop starts its non-temporal stores (they need aligned addresses), the
// elements before it taking the plain-store path. An output not aligned to its element
// never reaches a vector boundary: all n.
template <typename T>
HWY_INLINE size_t StreamHead(const T* out, size_t n, size_t vector_bytes) {
  const uintptr_t addr = reinterpret_cast<uintptr_t>(out);
  if (addr % sizeof(T) != 0) return n;
  const size_t head = ((vector_bytes - addr % vector_bytes) % vector_bytes) / sizeof(T);
  return head < n ? head : n;
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_TILE_INL_H_
