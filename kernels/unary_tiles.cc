// Forward elementwise tile loops (out = f(x)) for every compiled SIMD target
// (foreach_target) and their dispatch table (GetUnaryMap, map_tables.h); the functors live
// in unary_ops-inl.h and param_ops-inl.h, and the loop is the Map's (map_tile-inl.h).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/unary_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/kernels.h"
#include "kernels/map_tables.h"
#include "kernels/map_tile-inl.h"
#include "kernels/exp_param_ops-inl.h"
#include "kernels/param_ops-inl.h"
#include "kernels/unary_ops-inl.h"

// The forward elementwise operators are those of the operator list whose Kind is Unary
// (kernels/op_kinds-inl.h): <Name>Op is the functor (unary_ops-inl.h or param_ops-inl.h)
// and Op::k<Name> its key.

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The functor of an operator for a storage type: the f32 one, or, for f16 and bf16, a
// cheaper one the functor may name as its Narrow. SPEC 4 holds a 16-bit result to the f32
// result rounded once (the correctly rounded value except within 2^-21 of a midpoint), so a
// Narrow functor needs nearly f32 accuracy anyway: LogSigmoid names one (LogSigmoid16Op),
// and forward_kernels_test checks every 16-bit input of every operator against the rule.
template <class Op, class = void>
struct NarrowOf {
  using type = Op;
};
template <class Op>
struct NarrowOf<Op, std::void_t<typename Op::Narrow>> {
  using type = typename Op::Narrow;
};
template <class Op, class Tag>
struct UnaryFunctorFor {
  using type = std::conditional_t<sizeof(typename Tag::T) == 2, typename NarrowOf<Op>::type, Op>;
};

// INT32 storage, for an operator whose dtype rule admits it (AdmitsInt32): the f32 functor
// between an integer load and a truncating store (convert-inl.h). The rule is asked here,
// once, with `if constexpr`: an operator whose rule does not admit INT32 compiles an empty
// entry, which GetUnaryMap never hands out.
template <Op kOp, class F, bool kStream>
HWY_INLINE void UnaryInt32Tile([[maybe_unused]] const void* const* in,
                               [[maybe_unused]] void* const* out, [[maybe_unused]] size_t n,
                               [[maybe_unused]] const OpParams& p) {
  if constexpr (AdmitsInt32(GetOpInfo(kOp).dtypes)) MapEntry<F, I32, 1, 1, kStream>(in, out, n, p);
}

// bf16 out from bf16 in: every NaN the functors produce is an input's (selected), so the
// NaN-free rounding of BF16Direct applies.
#define HOSTNN_UNARY_ONE(Name, DT, TAG)                                                    \
  void Unary##Name##_##DT(const void* const* in, void* const* out, size_t n,               \
                          const OpParams& p) {                                             \
    MapEntry<UnaryFunctorFor<Name##Op, TAG>::type, TAG, 1, 1, false>(in, out, n, p);       \
  }                                                                                        \
  void Unary##Name##_##DT##_Stream(const void* const* in, void* const* out, size_t n,      \
                                   const OpParams& p) {                                    \
    MapEntry<UnaryFunctorFor<Name##Op, TAG>::type, TAG, 1, 1, true>(in, out, n, p);        \
  }
#define HOSTNN_UNARY_DEFINE(Name)                                                             \
  static_assert(ParamsMatch<Op::k##Name, Name##Op>(), "the functor reads ParamsOf's struct"); \
  HOSTNN_UNARY_ONE(Name, F32, F32)                                                            \
  HOSTNN_UNARY_ONE(Name, F16, F16)                                                            \
  HOSTNN_UNARY_ONE(Name, BF16, BF16Direct)                                                    \
  void Unary##Name##_I32(const void* const* in, void* const* out, size_t n,                 \
                         const OpParams& p) {                                                 \
    UnaryInt32Tile<Op::k##Name, Name##Op, false>(in, out, n, p);                              \
  }                                                                                           \
  void Unary##Name##_I32_Stream(const void* const* in, void* const* out, size_t n,          \
                                const OpParams& p) {                                          \
    UnaryInt32Tile<Op::k##Name, Name##Op, true>(in, out, n, p);                               \
  }
#define HOSTNN_KIND_Unary(Name) HOSTNN_UNARY_DEFINE(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_UNARY_DEFINE
#undef HOSTNN_UNARY_ONE

// Whether MulAdd rounds once here: (1 + 2^-12)^2 - (1 + 2^-11) is exactly 2^-24, which a
// separate multiply (rounding the square to 1 + 2^-11) loses.
bool FusesMulAdd() {
  const hn::ScalableTag<float> d;
  const float a = 1.0f + 1.0f / 4096.0f, c = -(1.0f + 1.0f / 2048.0f);
  return hn::GetLane(hn::MulAdd(hn::Set(d, a), hn::Set(d, a), hn::Set(d, c))) != 0.0f;
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_UNARY_EXPORT(Name)       \
  HWY_EXPORT(Unary##Name##_F32);        \
  HWY_EXPORT(Unary##Name##_F16);        \
  HWY_EXPORT(Unary##Name##_BF16);       \
  HWY_EXPORT(Unary##Name##_F32_Stream); \
  HWY_EXPORT(Unary##Name##_F16_Stream); \
  HWY_EXPORT(Unary##Name##_BF16_Stream); \
  HWY_EXPORT(Unary##Name##_I32);         \
  HWY_EXPORT(Unary##Name##_I32_Stream);
#define HOSTNN_KIND_Unary(Name) HOSTNN_UNARY_EXPORT(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_UNARY_EXPORT
HWY_EXPORT(FusesMulAdd);

// The INT32 kernel of an operator whose rule admits it (AdmitsInt32); null for the others.
static MapFn GetUnaryInt32(Op op, bool stream) {
  if (!AdmitsInt32(GetOpInfo(op).dtypes)) return nullptr;
  switch (op) {
#define HOSTNN_KIND_Unary(Name) \
  case Op::k##Name:             \
    return stream ? HOSTNN_PICK(Unary##Name##_I32_Stream) : HOSTNN_PICK(Unary##Name##_I32);
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

bool ActiveTargetFusesMulAdd() { return HOSTNN_PICK(FusesMulAdd)(); }

MapFn GetUnaryMap(Op op, DType dtype, StoreMode mode) {
  const bool stream = mode == StoreMode::kStream;
  const DTypeRule rule = GetOpInfo(op).dtypes;
  if ((AdmitsExactInt(rule) && IsExactIntDType(dtype)) ||
      (AdmitsInt8Lanes(rule) && dtype == DType::kInt8)) {
    return GetExactIntMap(op, dtype);
  }
  if (dtype == DType::kInt32) return GetUnaryInt32(op, stream);
  switch (op) {
#define HOSTNN_UNARY_CASE(Name)                                                                 \
  case Op::k##Name:                                                                             \
    if (dtype == DType::kFloat32)                                                               \
      return stream ? HOSTNN_PICK(Unary##Name##_F32_Stream) : HOSTNN_PICK(Unary##Name##_F32);   \
    if (dtype == DType::kFloat16)                                                               \
      return stream ? HOSTNN_PICK(Unary##Name##_F16_Stream) : HOSTNN_PICK(Unary##Name##_F16);   \
    if (dtype == DType::kBFloat16)                                                              \
      return stream ? HOSTNN_PICK(Unary##Name##_BF16_Stream) : HOSTNN_PICK(Unary##Name##_BF16); \
    return nullptr;
#define HOSTNN_KIND_Unary(Name) HOSTNN_UNARY_CASE(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_UNARY_CASE
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
