// The gated linear units' tile loops for every compiled SIMD target (foreach_target) and
// their dispatch tables (GetGated, GetGatedGrad); the functors live in glu_ops-inl.h and
// the loop is the Map's (map_tile-inl.h). A tile is n elements of each half (a, b) and of
// each output, contiguous; the executor (src/exec/split_executor.cc) finds those runs in
// self and out.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/glu_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/convert-inl.h"
#include "kernels/glu_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/map_tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The forward: out (and GeGlu's act) from the halves a and b; the gradients: da and db
// from dy, a, b (and GeGlu's act). The Map's one tile loop, no parameters.
template <class F, class Tag>
void GatedTile(const void* a, const void* b, void* out, void* act, size_t n) {
  using T = typename Tag::T;
  const T* ta = static_cast<const T*>(a);
  const T* tb = static_cast<const T*>(b);
  MapTile<F, Tag, F::kHasAct ? 2 : 1, false>(OpParams(), n, static_cast<T*>(out),
                                             static_cast<T*>(act), ta, tb);
}
template <class F, class Tag>
void GatedGradTile(const void* dy, const void* a, const void* b, const void* act, void* da,
                   void* db, size_t n) {
  using T = typename Tag::T;
  T* tda = static_cast<T*>(da);
  T* tdb = static_cast<T*>(db);
  const T* tdy = static_cast<const T*>(dy);
  const T* ta = static_cast<const T*>(a);
  const T* tb = static_cast<const T*>(b);
  if constexpr (F::kReadsAct) {
    MapTile<F, Tag, 2, false>(OpParams(), n, tda, tdb, tdy, ta, tb, static_cast<const T*>(act));
  } else {
    MapTile<F, Tag, 2, false>(OpParams(), n, tda, tdb, tdy, ta, tb);
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
