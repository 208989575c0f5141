// The gated linear units' tile loops for every compiled SIMD target (foreach_target) and
// their dispatch table (GetGatedMap, map_tables.h): the operators of Kind Gated and
// GatedGrad in the list, each the Map's one loop (map_tile-inl.h) with its functor
// <Name>Op (glu_ops-inl.h). A tile is n contiguous elements of each operand; the front end
// made self's halves (and a gradient's out's) views of their own
// (src/aclnn/split_front_end.cc), so nothing here knows about a split.
//   Gated:     in {a, b[, t]},      out {out[, act]}   (act: kHasAct, GeGlu's outGelu;
//                                                          t: kIn 3, FatreluMul's threshold)
//   GatedGrad: in {dy, a, b[, act]}, out {da, db}       (act: kReadsAct, GeGlu's gelu)
// A functor may name an Alt form (GeGlu's tanh gelu), compiled beside it and handed out
// where the operator's parameters pick it (PicksAltForm).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/glu_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/glu_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/map_tables.h"
#include "kernels/map_tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A functor's Alt form, or the functor itself where it has none.
template <class F, class = void>
struct AltOf {
  using type = F;
  static constexpr bool kHas = false;
};
template <class F>
struct AltOf<F, std::void_t<typename F::Alt>> {
  using type = typename F::Alt;
  static constexpr bool kHas = true;
};

// The function a functor computes, as the type its loop is compiled for: F::Form where F
// names one (GeGlu and GeGluV3 compute the same function under two parameter structs, and
// share one loop), else F.
template <class F, class = void>
struct FormOf {
  using type = F;
};
template <class F>
struct FormOf<F, std::void_t<typename F::Form>> {
  using type = typename F::Form;
};

// A forward functor's inputs: the two halves, or F::kIn where it reads more (FatreluMul's
// threshold).
template <class F, class = void>
struct InputsOf {
  static constexpr size_t value = 2;
};
template <class F>
struct InputsOf<F, std::void_t<decltype(F::kIn)>> {
  static constexpr size_t value = F::kIn;
};

// One loop per form and storage type, not inlined into the entries that share it.
template <class G, class Tag>
HWY_NOINLINE void GatedLoop(const void* const* in, void* const* out, size_t n,
                            const OpParams& p) {
  MapEntry<G, Tag, InputsOf<G>::value, G::kHasAct ? 2 : 1, false>(in, out, n, p);
}
template <class G, class Tag>
HWY_NOINLINE void GatedGradLoop(const void* const* in, void* const* out, size_t n,
                                const OpParams& p) {
  MapEntry<G, Tag, G::kReadsAct ? 4 : 3, 2, false>(in, out, n, p);
}

// kAlt: the functor's Alt form; an empty entry for a functor without one (never handed
// out: its parameters never pick it).
template <class F, class Tag, bool kAlt>
HWY_INLINE void GatedEntry(const void* const* in, void* const* out, size_t n, const OpParams& p) {
  using G = std::conditional_t<kAlt, typename AltOf<F>::type, typename FormOf<F>::type>;
  if constexpr (!kAlt || AltOf<F>::kHas) GatedLoop<G, Tag>(in, out, n, p);
}
template <class F, class Tag, bool kAlt>
HWY_INLINE void GatedGradEntry(const void* const* in, void* const* out, size_t n,
                               const OpParams& p) {
  using G = std::conditional_t<kAlt, typename AltOf<F>::type, typename FormOf<F>::type>;
  if constexpr (!kAlt || AltOf<F>::kHas) GatedGradLoop<G, Tag>(in, out, n, p);
}

// Kernel names: <Name>_<dtype>[_Alt].
#define HOSTNN_GATED_ONE(Name, DT, TAG, ENTRY)                                                   \
  void Name##_##DT(const void* const* in, void* const* out, size_t n, const OpParams& p) {       \
    ENTRY<Name##Op, TAG, false>(in, out, n, p);                                                  \
  }                                                                                              \
  void Name##_##DT##_Alt(const void* const* in, void* const* out, size_t n, const OpParams& p) { \
    ENTRY<Name##Op, TAG, true>(in, out, n, p);                                                   \
  }
#define HOSTNN_GATED_DEFINE(Name, ENTRY)                                                      \
  static_assert(ParamsMatch<Op::k##Name, Name##Op>(), "the functor reads ParamsOf's struct"); \
  HOSTNN_GATED_ONE(Name, F32, F32, ENTRY)                                                     \
  HOSTNN_GATED_ONE(Name, F16, F16, ENTRY)                                                     \
  HOSTNN_GATED_ONE(Name, BF16, BF16Direct, ENTRY)
#define HOSTNN_KIND_Gated(Name) HOSTNN_GATED_DEFINE(Name, GatedEntry)
#define HOSTNN_KIND_GatedGrad(Name) HOSTNN_GATED_DEFINE(Name, GatedGradEntry)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad
#undef HOSTNN_GATED_DEFINE
#undef HOSTNN_GATED_ONE

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_GATED_EXPORT(Name) \
  HWY_EXPORT(Name##_F32);         \
  HWY_EXPORT(Name##_F16);         \
  HWY_EXPORT(Name##_BF16);        \
  HWY_EXPORT(Name##_F32_Alt);     \
  HWY_EXPORT(Name##_F16_Alt);     \
  HWY_EXPORT(Name##_BF16_Alt);
#define HOSTNN_KIND_Gated(Name) HOSTNN_GATED_EXPORT(Name)
#define HOSTNN_KIND_GatedGrad(Name) HOSTNN_GATED_EXPORT(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad
#undef HOSTNN_GATED_EXPORT

MapFn GetGatedMap(Op op, DType dtype, bool alt) {
  switch (op) {
#define HOSTNN_GATED_CASE(Name)                                             \
  case Op::k##Name:                                                         \
    if (dtype == DType::kFloat32)                                           \
      return alt ? HOSTNN_PICK(Name##_F32_Alt) : HOSTNN_PICK(Name##_F32);   \
    if (dtype == DType::kFloat16)                                           \
      return alt ? HOSTNN_PICK(Name##_F16_Alt) : HOSTNN_PICK(Name##_F16);   \
    if (dtype == DType::kBFloat16)                                          \
      return alt ? HOSTNN_PICK(Name##_BF16_Alt) : HOSTNN_PICK(Name##_BF16); \
    return nullptr;
#define HOSTNN_KIND_Gated(Name) HOSTNN_GATED_CASE(Name)
#define HOSTNN_KIND_GatedGrad(Name) HOSTNN_GATED_CASE(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad
#undef HOSTNN_GATED_CASE
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
