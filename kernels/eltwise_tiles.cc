// Elementwise tile loops for every compiled SIMD target (foreach_target) and their dispatch
// table (GetEltwise); the functors live in eltwise_ops-inl.h. Tails run through the same
// vector code on a padded copy, so an element's result never depends on where a tile
// boundary falls.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/eltwise_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"
#include "kernels/family_grad_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/exp_param_ops-inl.h"
#include "kernels/param_ops-inl.h"
#include "kernels/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- elementwise ---------------------------------------------------------------------

// n elements one vector at a time, the last (partial) vector through a zero-padded copy,
// with plain stores: the path for short pieces, shared by the heads and tails of
// EltwiseTile, so every element meets the same functor code wherever it falls.
template <class Tag, class F>
HWY_INLINE void EltwiseVectors(const F& f, const typename Tag::T* dy, const typename Tag::T* x,
                               typename Tag::T* out, size_t n) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreF32(d, Tag(), f.Apply(d, LoadF32(d, Tag(), dy + i), LoadF32(d, Tag(), x + i)), out + i);
  }
  if (i < n) {
    HWY_ALIGN T bdy[kMaxLanes], bx[kMaxLanes], bout[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(x + i, n - i, bx, N);
    StoreF32(d, Tag(), f.Apply(d, LoadF32(d, Tag(), bdy), LoadF32(d, Tag(), bx)), bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

// A tile: pairs of vectors (two pairs per iteration), then EltwiseVectors for the rest.
// With kStream the output is written with non-temporal stores: elements before the first
// vector-aligned output address go through EltwiseVectors, and a fence at the end orders
// the streamed lines before whatever the caller does next.
template <class Op, class Tag, bool kStream>
HWY_INLINE void EltwiseTile(const void* dy_v, const void* x_v, void* out_v, size_t n,
                            const OpParams& params) {
  using T = typename Tag::T;
  const T* HWY_RESTRICT dy = static_cast<const T*>(dy_v);
  const T* HWY_RESTRICT x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may alias an input exactly
  const hn::ScalableTag<float> d;
  const BoundOp<Op, decltype(d)> f(d, params);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  if (kStream) {
    // A pair stores N * sizeof(float) bytes per vector.
    const size_t head = StreamHead(out, n, N * sizeof(float));
    EltwiseVectors<Tag>(f, dy, x, out, head);
    i = head;
  }
  // Two pairs (four vectors) per iteration: the operators are long dependency chains
  // (exp, reciprocal, products), and 16-bit storage converts a pair at a time.
  for (; i + 4 * N <= n; i += 4 * N) {
    hn::Vec<decltype(d)> dy0, dy1, dy2, dy3, x0, x1, x2, x3;
    LoadPairF32(d, Tag(), dy + i, &dy0, &dy1);
    LoadPairF32(d, Tag(), x + i, &x0, &x1);
    LoadPairF32(d, Tag(), dy + i + 2 * N, &dy2, &dy3);
    LoadPairF32(d, Tag(), x + i + 2 * N, &x2, &x3);
    StorePairF32<kStream>(d, Tag(), f.Apply(d, dy0, x0), f.Apply(d, dy1, x1), out + i);
    StorePairF32<kStream>(d, Tag(), f.Apply(d, dy2, x2), f.Apply(d, dy3, x3), out + i + 2 * N);
  }
  EltwiseVectors<Tag>(f, dy + i, x + i, out + i, n - i);
#if HWY_ARCH_X86
  if (kStream) _mm_sfence();
#endif
}

// The functor of an operator for a storage type: the f32 one, except where a cheaper one
// still gives f16 / bf16 results that are the f32 result rounded once (SPEC 4; checked
// for every 16-bit x on every target by ops_numeric_test).
template <class Op, class Tag>
struct FunctorFor {
  using type = Op;
};
template <>
struct FunctorFor<LogSigmoidBackwardOp, F16> {
  using type = LogSigmoidBackward16Op;
};
template <>
struct FunctorFor<LogSigmoidBackwardOp, BF16Direct> {
  using type = LogSigmoidBackward16Op;
};

#define HOSTNN_EW_ONE(Name, DT, TAG)                                                          \
  void Name##_##DT(const void* dy, const void* x, void* out, size_t n, const OpParams& p) {   \
    EltwiseTile<FunctorFor<Name##Op, TAG>::type, TAG, false>(dy, x, out, n, p);               \
  }                                                                                           \
  void Name##_##DT##_Stream(const void* dy, const void* x, void* out, size_t n,               \
                            const OpParams& p) {                                              \
    EltwiseTile<FunctorFor<Name##Op, TAG>::type, TAG, true>(dy, x, out, n, p);                \
  }
#define HOSTNN_KIND_Binary(Name)                                                              \
  static_assert(ParamsMatch<Op::k##Name, Name##Op>(), "the functor reads ParamsOf's struct"); \
  HOSTNN_EW_ONE(Name, F32, F32)                                                               \
  HOSTNN_EW_ONE(Name, F16, F16)                                                               \
  HOSTNN_EW_ONE(Name, BF16, BF16Direct)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Binary
#undef HOSTNN_EW_ONE

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_KIND_Binary(Name) \
  HWY_EXPORT(Name##_F32);           \
  HWY_EXPORT(Name##_F16);           \
  HWY_EXPORT(Name##_BF16);          \
  HWY_EXPORT(Name##_F32_Stream);    \
  HWY_EXPORT(Name##_F16_Stream);    \
  HWY_EXPORT(Name##_BF16_Stream);
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Binary

EltwiseFn GetEltwise(Op op, DType dtype, StoreMode mode) {
  const bool stream = mode == StoreMode::kStream;
  switch (op) {
#define HOSTNN_KIND_Binary(Name)                                               \
  case Op::k##Name:                                                               \
    if (dtype == DType::kFloat32)                                                 \
      return stream ? HOSTNN_PICK(Name##_F32_Stream) : HOSTNN_PICK(Name##_F32);   \
    if (dtype == DType::kFloat16)                                                 \
      return stream ? HOSTNN_PICK(Name##_F16_Stream) : HOSTNN_PICK(Name##_F16);   \
    if (dtype == DType::kBFloat16)                                                \
      return stream ? HOSTNN_PICK(Name##_BF16_Stream) : HOSTNN_PICK(Name##_BF16); \
    return nullptr;
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Binary
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
