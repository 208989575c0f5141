// Elementwise tile loops for every compiled SIMD target (foreach_target) and their dispatch
// table (GetBinaryMap, map_tables.h); the functors live in eltwise_ops-inl.h, family_grad_ops-inl.h and
// param_ops-inl.h, and the loop is the Map's (map_tile-inl.h).

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
#include "kernels/map_tables.h"
#include "kernels/exp_param_ops-inl.h"
#include "kernels/param_ops-inl.h"
#include "kernels/map_tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// A tile is the Map's one loop (map_tile-inl.h) with two inputs and one output.

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
  void Name##_##DT(const void* const* in, void* const* out, size_t n, const OpParams& p) {    \
    MapEntry<FunctorFor<Name##Op, TAG>::type, TAG, 2, 1, false>(in, out, n, p);               \
  }                                                                                           \
  void Name##_##DT##_Stream(const void* const* in, void* const* out, size_t n,                \
                            const OpParams& p) {                                              \
    MapEntry<FunctorFor<Name##Op, TAG>::type, TAG, 2, 1, true>(in, out, n, p);                \
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

MapFn GetBinaryMap(Op op, DType dtype, StoreMode mode) {
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
