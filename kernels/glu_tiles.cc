// The gated linear units' tile loops for every compiled SIMD target (foreach_target) and
// their dispatch tables (GetGated, GetGatedGrad); the functors live in glu_ops-inl.h. A
// tile is n elements of each half (a, b) and of each output, contiguous; the executor
// (src/exec/split_executor.cc) finds those runs in self and out. Tails run through the
// same vector code on a padded copy, so an element's result never depends on where a
// tile or a row boundary falls.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/glu_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/convert-inl.h"
#include "kernels/glu_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// One vector of the forward at element i of the tile (all pointers already offset).
template <class F, class Tag, class D>
HWY_INLINE void GatedVector(D d, const typename Tag::T* a, const typename Tag::T* b,
                            typename Tag::T* out, typename Tag::T* act) {
  hn::Vec<D> g = hn::Zero(d);
  const hn::Vec<D> y = F::Apply(d, LoadF32(d, Tag(), a), LoadF32(d, Tag(), b), &g);
  StoreF32(d, Tag(), y, out);
  if (F::kHasAct) StoreF32(d, Tag(), g, act);
}

template <class F, class Tag>
void GatedTile(const void* a_v, const void* b_v, void* out_v, void* act_v, size_t n) {
  using T = typename Tag::T;
  const T* HWY_RESTRICT a = static_cast<const T*>(a_v);
  const T* HWY_RESTRICT b = static_cast<const T*>(b_v);
  T* HWY_RESTRICT out = static_cast<T*>(out_v);
  T* HWY_RESTRICT act = static_cast<T*>(act_v);
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  // Two pairs (four vectors) per iteration: the functors are long dependency chains (exp,
  // a division), and 16-bit storage converts a pair at a time (convert-inl.h: a pair puts
  // every element back where it found it, so each element meets the same code).
  for (; i + 4 * N <= n; i += 4 * N) {
    V a0, a1, a2, a3, b0, b1, b2, b3, g0, g1, g2, g3;
    LoadPairF32(d, Tag(), a + i, &a0, &a1);
    LoadPairF32(d, Tag(), b + i, &b0, &b1);
    LoadPairF32(d, Tag(), a + i + 2 * N, &a2, &a3);
    LoadPairF32(d, Tag(), b + i + 2 * N, &b2, &b3);
    const V y0 = F::Apply(d, a0, b0, &g0), y1 = F::Apply(d, a1, b1, &g1);
    const V y2 = F::Apply(d, a2, b2, &g2), y3 = F::Apply(d, a3, b3, &g3);
    StorePairF32(d, Tag(), y0, y1, out + i);
    StorePairF32(d, Tag(), y2, y3, out + i + 2 * N);
    if (F::kHasAct) {
      StorePairF32(d, Tag(), g0, g1, act + i);
      StorePairF32(d, Tag(), g2, g3, act + i + 2 * N);
    }
  }
  for (; i + N <= n; i += N) {
    GatedVector<F, Tag>(d, a + i, b + i, out + i, F::kHasAct ? act + i : nullptr);
  }
  if (i < n) {
    HWY_ALIGN T ba[kMaxLanes], bb[kMaxLanes], bout[kMaxLanes], bact[kMaxLanes];
    CopyPadded(a + i, n - i, ba, N);
    CopyPadded(b + i, n - i, bb, N);
    GatedVector<F, Tag>(d, ba, bb, bout, bact);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
    if (F::kHasAct) {
      for (size_t j = 0; j < n - i; ++j) act[i + j] = bact[j];
    }
  }
}

// One vector of a gradient at element i of the tile.
template <class F, class Tag, class D>
HWY_INLINE void GatedGradVector(D d, const typename Tag::T* dy, const typename Tag::T* a,
                                const typename Tag::T* b, const typename Tag::T* act,
                                typename Tag::T* da, typename Tag::T* db) {
  using V = hn::Vec<D>;
  const V g = F::kReadsAct ? LoadF32(d, Tag(), act) : hn::Zero(d);
  V ga, gb;
  F::Apply(d, LoadF32(d, Tag(), dy), LoadF32(d, Tag(), a), LoadF32(d, Tag(), b), g, &ga, &gb);
  StoreF32(d, Tag(), ga, da);
  StoreF32(d, Tag(), gb, db);
}

template <class F, class Tag>
void GatedGradTile(const void* dy_v, const void* a_v, const void* b_v, const void* act_v,
                   void* da_v, void* db_v, size_t n) {
  using T = typename Tag::T;
  const T* HWY_RESTRICT dy = static_cast<const T*>(dy_v);
  const T* HWY_RESTRICT a = static_cast<const T*>(a_v);
  const T* HWY_RESTRICT b = static_cast<const T*>(b_v);
  const T* HWY_RESTRICT act = static_cast<const T*>(act_v);
  T* HWY_RESTRICT da = static_cast<T*>(da_v);
  T* HWY_RESTRICT db = static_cast<T*>(db_v);
  const hn::ScalableTag<float> d;
  using V = hn::Vec<decltype(d)>;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  // A pair per iteration (as GatedTile; the gradients hold more vectors live).
  for (; i + 2 * N <= n; i += 2 * N) {
    V dy0, dy1, a0, a1, b0, b1, g0 = hn::Zero(d), g1 = hn::Zero(d), da0, da1, db0, db1;
    LoadPairF32(d, Tag(), dy + i, &dy0, &dy1);
    LoadPairF32(d, Tag(), a + i, &a0, &a1);
    LoadPairF32(d, Tag(), b + i, &b0, &b1);
    if (F::kReadsAct) LoadPairF32(d, Tag(), act + i, &g0, &g1);
    F::Apply(d, dy0, a0, b0, g0, &da0, &db0);
    F::Apply(d, dy1, a1, b1, g1, &da1, &db1);
    StorePairF32(d, Tag(), da0, da1, da + i);
    StorePairF32(d, Tag(), db0, db1, db + i);
  }
  for (; i + N <= n; i += N) {
    GatedGradVector<F, Tag>(d, dy + i, a + i, b + i, F::kReadsAct ? act + i : nullptr, da + i,
                            db + i);
  }
  if (i < n) {
    HWY_ALIGN T bdy[kMaxLanes], ba[kMaxLanes], bb[kMaxLanes], bact[kMaxLanes];
    HWY_ALIGN T bda[kMaxLanes], bdb[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(a + i, n - i, ba, N);
    CopyPadded(b + i, n - i, bb, N);
    if (F::kReadsAct) CopyPadded(act + i, n - i, bact, N);
    GatedGradVector<F, Tag>(d, bdy, ba, bb, bact, bda, bdb);
    for (size_t j = 0; j < n - i; ++j) {
      da[i + j] = bda[j];
      db[i + j] = bdb[j];
    }
  }
}

// Kernel names: <Functor>_<dtype>.
#define HOSTNN_GATED(F)                                                                    \
  void F##_F32(const void* a, const void* b, void* o, void* g, size_t n) {                \
    GatedTile<F##Op, F32>(a, b, o, g, n);                                                  \
  }                                                                                        \
  void F##_F16(const void* a, const void* b, void* o, void* g, size_t n) {                \
    GatedTile<F##Op, F16>(a, b, o, g, n);                                                  \
  }                                                                                        \
  void F##_BF16(const void* a, const void* b, void* o, void* g, size_t n) {               \
    GatedTile<F##Op, BF16Direct>(a, b, o, g, n);                                           \
  }
#define HOSTNN_GATED_GRAD(F)                                                               \
  void F##_F32(const void* dy, const void* a, const void* b, const void* g, void* da,     \
               void* db, size_t n) {                                                       \
    GatedGradTile<F##Op, F32>(dy, a, b, g, da, db, n);                                     \
  }                                                                                        \
  void F##_F16(const void* dy, const void* a, const void* b, const void* g, void* da,     \
               void* db, size_t n) {                                                       \
    GatedGradTile<F##Op, F16>(dy, a, b, g, da, db, n);                                     \
  }                                                                                        \
  void F##_BF16(const void* dy, const void* a, const void* b, const void* g, void* da,    \
                void* db, size_t n) {                                                      \
    GatedGradTile<F##Op, BF16Direct>(dy, a, b, g, da, db, n);                              \
  }
HOSTNN_GATED(Glu)
HOSTNN_GATED(SwiGlu)
HOSTNN_GATED(GeGluErf)
HOSTNN_GATED(GeGluTanh)
HOSTNN_GATED_GRAD(GluBackward)
HOSTNN_GATED_GRAD(SwiGluGrad)
HOSTNN_GATED_GRAD(GeGluErfBackward)
HOSTNN_GATED_GRAD(GeGluTanhBackward)
#undef HOSTNN_GATED
#undef HOSTNN_GATED_GRAD

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_GATED_EXPORT(F) \
  HWY_EXPORT(F##_F32);         \
  HWY_EXPORT(F##_F16);         \
  HWY_EXPORT(F##_BF16);
HOSTNN_GATED_EXPORT(Glu)
HOSTNN_GATED_EXPORT(SwiGlu)
HOSTNN_GATED_EXPORT(GeGluErf)
HOSTNN_GATED_EXPORT(GeGluTanh)
HOSTNN_GATED_EXPORT(GluBackward)
HOSTNN_GATED_EXPORT(SwiGluGrad)
HOSTNN_GATED_EXPORT(GeGluErfBackward)
HOSTNN_GATED_EXPORT(GeGluTanhBackward)
#undef HOSTNN_GATED_EXPORT

// The table entry of functor F for dtype.
#define HOSTNN_GATED_PICK(F)                                            \
  (dtype == DType::kFloat32    ? HOSTNN_PICK(F##_F32)                   \
   : dtype == DType::kFloat16  ? HOSTNN_PICK(F##_F16)                   \
   : dtype == DType::kBFloat16 ? HOSTNN_PICK(F##_BF16)                  \
                               : nullptr)

GatedFn GetGated(Op op, DType dtype, bool tanh) {
  switch (op) {
    case Op::kGlu:
      return HOSTNN_GATED_PICK(Glu);
    case Op::kSwiGlu:
      return HOSTNN_GATED_PICK(SwiGlu);
    case Op::kGeGlu:
    case Op::kGeGluV3:
      return tanh ? HOSTNN_GATED_PICK(GeGluTanh) : HOSTNN_GATED_PICK(GeGluErf);
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

GatedGradFn GetGatedGrad(Op op, DType dtype, bool tanh) {
  switch (op) {
    case Op::kGluBackward:
      return HOSTNN_GATED_PICK(GluBackward);
    case Op::kSwiGluGrad:
      return HOSTNN_GATED_PICK(SwiGluGrad);
    case Op::kGeGluBackward:
    case Op::kGeGluV3Backward:
      return tanh ? HOSTNN_GATED_PICK(GeGluTanhBackward) : HOSTNN_GATED_PICK(GeGluErfBackward);
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}
#undef HOSTNN_GATED_PICK

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
