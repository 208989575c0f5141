// Exact integer tiles (out = f(x) in the integer's own lanes) for the forward operators
// whose dtype rule is AllSameOrExactInt, for every compiled SIMD target, and their dispatch
// table (GetExactIntMap, map_tables.h). The functor's ApplyInt(d, x) computes in the
// storage type, so every value keeps all its bits (an INT64 past 2^53 or an INT32 past
// 2^24 included), as Ascend's integer kernels do; nothing is widened to f32.
// The two-input operators of rule PromoteIntExact (AddRelu) have integer tiles too
// (GetPromotedInt): their inputs widened to int64, computed modulo 2^64 by the functor's
// BoundPromotedInt and wrapped to the promoted dtype's width (kernels/int_lanes-inl.h); so
// do those of rule AllSameOrSelectInt (ThresholdBackward), whose result is an input's value.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/integer_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/eltwise_ops-inl.h"
#include "kernels/exp_param_ops-inl.h"
#include "kernels/family_grad_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/map_tables.h"
#include "kernels/param_ops-inl.h"
#include "kernels/unary_ops-inl.h"

// The operators: those of Kind Unary whose dtype rule admits exact integers (AdmitsExactInt:
// INT8, UINT8, INT32, INT64) or int8 lanes (AdmitsInt8Lanes), and those of Kind Binary whose
// rule promotes to an exact integer (PromotesToExactInt). Each rule is asked once, with
// `if constexpr`; an operator of another rule compiles an empty entry, never handed out.

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// n elements, whole vectors, then the rest through a zero-padded vector, so that every
// element meets the same code. out may be x exactly: each vector is loaded before it is
// stored.
// A functor with parameters declares `template <class D> struct BoundInt` (Bound's
// counterpart for integer lanes: its Params, already integral, set once per tile); one
// without has a static ApplyInt.
template <class Op, class D, class = void>
struct BoundIntOp {
  BoundIntOp(D /*d*/, const OpParams& /*params*/) {}
  HWY_INLINE hn::Vec<D> ApplyInt(D d, hn::Vec<D> x) const { return Op::ApplyInt(d, x); }
};
template <class Op, class D>
struct BoundIntOp<Op, D, std::void_t<typename Op::template BoundInt<D>>>
    : Op::template BoundInt<D> {
  BoundIntOp(D d, const OpParams& params)
      : Op::template BoundInt<D>(d, params.As<typename Op::Params>()) {}
};

template <class Op, typename T>
HWY_INLINE void IntTile(const void* x_v, void* out_v, size_t n, const OpParams& params) {
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);
  const hn::ScalableTag<T> d;
  const BoundIntOp<Op, decltype(d)> f(d, params);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f.ApplyInt(d, hn::LoadU(d, x + i)), d, out + i);
  if (i < n) {
    HWY_ALIGN T buf[HWY_MAX_BYTES / sizeof(T)];
    std::memset(buf, 0, sizeof(buf));
    std::memcpy(buf, x + i, (n - i) * sizeof(T));
    hn::Store(f.ApplyInt(d, hn::Load(d, buf)), d, buf);
    std::memcpy(out + i, buf, (n - i) * sizeof(T));
  }
}

// INT8 alone, by the functor's ApplyInt8 (rule Int32Int8ThenCast; its INT32 is the f32
// path of unary_tiles.cc).
template <class Op>
struct Int8Lanes {
  template <class D>
  static HWY_INLINE hn::Vec<D> ApplyInt(D d, hn::Vec<D> x) {
    return Op::ApplyInt8(d, x);
  }
};

template <Op kOp, class F, typename T>
HWY_INLINE void IntExactTile([[maybe_unused]] const void* const* in,
                             [[maybe_unused]] void* const* out, [[maybe_unused]] size_t n,
                             [[maybe_unused]] const OpParams& p) {
  constexpr DTypeRule kRule = GetOpInfo(kOp).dtypes;
  if constexpr (AdmitsExactInt(kRule)) {
    IntTile<F, T>(in[0], out[0], n, p);
  } else if constexpr (AdmitsInt8Lanes(kRule) && std::is_same_v<T, int8_t>) {
    IntTile<Int8Lanes<F>, int8_t>(in[0], out[0], n, p);
  }
}

#define HOSTNN_INT_EXACT_ONE(Name, DT, T)                                       \
  void IntExact##Name##_##DT(const void* const* in, void* const* out, size_t n, \
                             const OpParams& p) {                               \
    IntExactTile<Op::k##Name, Name##Op, T>(in, out, n, p);                      \
  }
#define HOSTNN_KIND_Unary(Name)               \
  HOSTNN_INT_EXACT_ONE(Name, I8, int8_t)      \
  HOSTNN_INT_EXACT_ONE(Name, U8, uint8_t)     \
  HOSTNN_INT_EXACT_ONE(Name, I32, int32_t)    \
  HOSTNN_INT_EXACT_ONE(Name, I64, int64_t)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_INT_EXACT_ONE

// out = f(a, b) on n int64 values, wrapped to the promoted width, the same way: whole
// vectors, then the rest through a zero-padded one. out may be a or b exactly.
template <class Op>
HWY_INLINE void PromotedIntTile(const int64_t* a_i, const int64_t* b_i, int64_t* out_i, size_t n,
                                const OpParams& params, const IntWrap& wrap) {
  const hn::ScalableTag<uint64_t> d;
  const uint64_t* a = reinterpret_cast<const uint64_t*>(a_i);
  const uint64_t* b = reinterpret_cast<const uint64_t*>(b_i);
  uint64_t* out = reinterpret_cast<uint64_t*>(out_i);
  const typename Op::template BoundPromotedInt<decltype(d)> f(
      d, params.As<typename Op::Params>(), WrapToWidth<decltype(d)>(d, wrap.offset, wrap.mask));
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    hn::StoreU(f.Apply(d, hn::LoadU(d, a + i), hn::LoadU(d, b + i)), d, out + i);
  }
  if (i < n) {
    HWY_ALIGN uint64_t buf_a[HWY_MAX_BYTES / sizeof(uint64_t)] = {};
    HWY_ALIGN uint64_t buf_b[HWY_MAX_BYTES / sizeof(uint64_t)] = {};
    std::memcpy(buf_a, a + i, (n - i) * sizeof(uint64_t));
    std::memcpy(buf_b, b + i, (n - i) * sizeof(uint64_t));
    hn::Store(f.Apply(d, hn::Load(d, buf_a), hn::Load(d, buf_b)), d, buf_a);
    std::memcpy(out + i, buf_a, (n - i) * sizeof(uint64_t));
  }
}
template <Op kOp, class F>
HWY_INLINE void PromotedIntEntry([[maybe_unused]] const int64_t* a,
                                 [[maybe_unused]] const int64_t* b, [[maybe_unused]] int64_t* o,
                                 [[maybe_unused]] size_t n,
                                 [[maybe_unused]] const OpParams& p,
                                 [[maybe_unused]] const IntWrap& w) {
  constexpr DTypeRule kRule = GetOpInfo(kOp).dtypes;
  if constexpr (RunsIntLanes(kRule)) {
    PromotedIntTile<F>(a, b, o, n, p, w);
  }
}
#define HOSTNN_KIND_Binary(Name)                                                   \
  void PromotedInt##Name(const int64_t* a, const int64_t* b, int64_t* o, size_t n, \
                         const OpParams& p, const IntWrap& w) {                    \
    PromotedIntEntry<Op::k##Name, Name##Op>(a, b, o, n, p, w);                     \
  }
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Binary

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_KIND_Unary(Name)    \
  HWY_EXPORT(IntExact##Name##_I8);  \
  HWY_EXPORT(IntExact##Name##_U8);  \
  HWY_EXPORT(IntExact##Name##_I32); \
  HWY_EXPORT(IntExact##Name##_I64);
#define HOSTNN_KIND_Binary(Name) HWY_EXPORT(PromotedInt##Name);
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_KIND_Binary

MapFn GetExactIntMap(Op op, DType dtype) {
  const DTypeRule rule = GetOpInfo(op).dtypes;
  if (!(AdmitsExactInt(rule) && IsExactIntDType(dtype)) &&
      !(AdmitsInt8Lanes(rule) && dtype == DType::kInt8)) {
    return nullptr;
  }
  switch (op) {
#define HOSTNN_KIND_Unary(Name)                                           \
  case Op::k##Name:                                                       \
    if (dtype == DType::kInt8) return HOSTNN_PICK(IntExact##Name##_I8);   \
    if (dtype == DType::kUInt8) return HOSTNN_PICK(IntExact##Name##_U8);  \
    if (dtype == DType::kInt32) return HOSTNN_PICK(IntExact##Name##_I32); \
    if (dtype == DType::kInt64) return HOSTNN_PICK(IntExact##Name##_I64); \
    return nullptr;
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

PromotedIntFn GetPromotedInt(Op op) {
  const DTypeRule rule = GetOpInfo(op).dtypes;
  if (!RunsIntLanes(rule)) return nullptr;
  switch (op) {
#define HOSTNN_KIND_Binary(Name) \
  case Op::k##Name:              \
    return HOSTNN_PICK(PromotedInt##Name);
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
