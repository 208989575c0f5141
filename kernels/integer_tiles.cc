// Exact integer tiles (out = f(x) in the integer's own lanes) for the forward operators
// whose dtype rule is AllSameOrExactInt, for every compiled SIMD target, and their dispatch
// table (GetUnaryExactInt). The functor's ApplyInt(d, x) computes in the storage type, so
// every value keeps all its bits (an INT64 past 2^53 or an INT32 past 2^24 included), as
// Ascend's integer kernels do; nothing is widened to f32.
// The two-input operators of rule PromoteIntExact (AddRelu) have integer tiles too
// (GetPromotedInt): their inputs widened to int64, computed modulo 2^64 by the functor's
// BoundPromotedInt and wrapped to the promoted dtype's width (kernels/int_lanes-inl.h).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/integer_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "kernels/kernels.h"
#include "kernels/param_ops-inl.h"
#include "kernels/unary_ops-inl.h"

// The operators: HOSTNN_OP -> HOSTNN_XINT_<DTypes>(Name), defined at each expansion for
// AllSameOrExactInt; the other rules expand to nothing.
#define HOSTNN_XINT_AllSame(Name)
#define HOSTNN_XINT_AllSameOrInt32(Name)
#define HOSTNN_XINT_Int32Int8ThenCast(Name)
#define HOSTNN_XINT_AllSameOrFloatOut(Name)
#define HOSTNN_XINT_InputsAnyOutAnyFloat(Name)
#define HOSTNN_XINT_InputsSameOutAnyFloat(Name)
#define HOSTNN_XINT_AnyFloat(Name)
#define HOSTNN_XINT_InputsAnyOutAny(Name)
#define HOSTNN_XINT_PromoteOutAnyFloat(Name)
#define HOSTNN_XINT_PromoteIntExact(Name)
#define HOSTNN_XINT_IntToFloatThenCast(Name)
#define HOSTNN_XINT_FloatThenCast(Name)
#define HOSTNN_XINT_AllSameOrInt32Int8Rint(Name)

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// n elements, whole vectors, then the rest through a zero-padded vector, so that every
// element meets the same code. out may be x exactly: each vector is loaded before it is
// stored.
// A functor with parameters declares `template <class D> struct BoundInt` (Bound's
// counterpart for integer lanes: the parameters, already integral, set once per tile);
// one without has a static ApplyInt.
template <class Op, class D, class = void>
struct BoundIntOp {
  BoundIntOp(D /*d*/, const float* /*scalars*/) {}
  HWY_INLINE hn::Vec<D> ApplyInt(D d, hn::Vec<D> x) const { return Op::ApplyInt(d, x); }
};
template <class Op, class D>
struct BoundIntOp<Op, D, std::void_t<typename Op::template BoundInt<D>>>
    : Op::template BoundInt<D> {
  BoundIntOp(D d, const float* scalars) : Op::template BoundInt<D>(d, scalars) {}
};

template <class Op, typename T>
HWY_INLINE void IntTile(const void* x_v, void* out_v, size_t n, const float* scalars) {
  const T* x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);
  const hn::ScalableTag<T> d;
  const BoundIntOp<Op, decltype(d)> f(d, scalars);
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

#define HOSTNN_XINT_AllSameOrExactInt(Name)                     \
  void IntExact##Name##_I8(const void* x, void* o, size_t n, const float* s) {  \
    IntTile<Name##Op, int8_t>(x, o, n, s);                         \
  }                                                             \
  void IntExact##Name##_U8(const void* x, void* o, size_t n, const float* s) {  \
    IntTile<Name##Op, uint8_t>(x, o, n, s);                        \
  }                                                             \
  void IntExact##Name##_I32(const void* x, void* o, size_t n, const float* s) { \
    IntTile<Name##Op, int32_t>(x, o, n, s);                        \
  }                                                             \
  void IntExact##Name##_I64(const void* x, void* o, size_t n, const float* s) { \
    IntTile<Name##Op, int64_t>(x, o, n, s);                        \
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
#undef HOSTNN_XINT_Int32Int8ThenCast
#define HOSTNN_XINT_Int32Int8ThenCast(Name)                    \
  void IntExact##Name##_I8(const void* x, void* o, size_t n, const float*) {  \
    IntTile<Int8Lanes<Name##Op>, int8_t>(x, o, n, nullptr);              \
  }
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_AllSameOrExactInt
#undef HOSTNN_XINT_Int32Int8ThenCast
#define HOSTNN_XINT_Int32Int8ThenCast(Name)

// out = f(a, b) on n int64 values, wrapped to the promoted width, the same way: whole
// vectors, then the rest through a zero-padded one. out may be a or b exactly.
template <class Op>
HWY_INLINE void PromotedIntTile(const int64_t* a_i, const int64_t* b_i, int64_t* out_i, size_t n,
                                const PromotedIntParams& p) {
  const hn::ScalableTag<uint64_t> d;
  const uint64_t* a = reinterpret_cast<const uint64_t*>(a_i);
  const uint64_t* b = reinterpret_cast<const uint64_t*>(b_i);
  uint64_t* out = reinterpret_cast<uint64_t*>(out_i);
  const typename Op::template BoundPromotedInt<decltype(d)> f(
      d, p.scalars, WrapToWidth<decltype(d)>(d, p.wrap_offset, p.wrap_mask));
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
#define HOSTNN_XINT_AllSameOrExactInt(Name)
#undef HOSTNN_XINT_PromoteIntExact
#define HOSTNN_XINT_PromoteIntExact(Name)                                                 \
  void PromotedInt##Name(const int64_t* a, const int64_t* b, int64_t* o, size_t n,        \
                         const PromotedIntParams& p) {                                    \
    PromotedIntTile<Name##Op>(a, b, o, n, p);                                             \
  }
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_PromoteIntExact
#define HOSTNN_XINT_PromoteIntExact(Name)
#undef HOSTNN_XINT_AllSameOrExactInt

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_XINT_AllSameOrExactInt(Name) \
  HWY_EXPORT(IntExact##Name##_I8);          \
  HWY_EXPORT(IntExact##Name##_U8);          \
  HWY_EXPORT(IntExact##Name##_I32);         \
  HWY_EXPORT(IntExact##Name##_I64);
#undef HOSTNN_XINT_Int32Int8ThenCast
#define HOSTNN_XINT_Int32Int8ThenCast(Name) HWY_EXPORT(IntExact##Name##_I8);
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_AllSameOrExactInt
#undef HOSTNN_XINT_Int32Int8ThenCast
#define HOSTNN_XINT_Int32Int8ThenCast(Name)

UnaryFn GetUnaryExactInt(Op op, DType dtype) {
  switch (op) {
#define HOSTNN_XINT_AllSameOrExactInt(Name)                               \
  case Op::k##Name:                                                       \
    if (dtype == DType::kInt8) return HOSTNN_PICK(IntExact##Name##_I8);   \
    if (dtype == DType::kUInt8) return HOSTNN_PICK(IntExact##Name##_U8);  \
    if (dtype == DType::kInt32) return HOSTNN_PICK(IntExact##Name##_I32); \
    if (dtype == DType::kInt64) return HOSTNN_PICK(IntExact##Name##_I64); \
    return nullptr;
#undef HOSTNN_XINT_Int32Int8ThenCast
#define HOSTNN_XINT_Int32Int8ThenCast(Name)                            \
  case Op::k##Name:                                                     \
    return dtype == DType::kInt8 ? HOSTNN_PICK(IntExact##Name##_I8) : nullptr;
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_AllSameOrExactInt
#undef HOSTNN_XINT_Int32Int8ThenCast
    default:
      return nullptr;
  }
}

#define HOSTNN_XINT_AllSameOrExactInt(Name)
#define HOSTNN_XINT_Int32Int8ThenCast(Name)
#undef HOSTNN_XINT_PromoteIntExact
#define HOSTNN_XINT_PromoteIntExact(Name) HWY_EXPORT(PromotedInt##Name);
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_PromoteIntExact

PromotedIntFn GetPromotedInt(Op op) {
  switch (op) {
#define HOSTNN_XINT_PromoteIntExact(Name) \
  case Op::k##Name:                       \
    return HOSTNN_PICK(PromotedInt##Name);
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) HOSTNN_XINT_##dtypes(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_XINT_PromoteIntExact
    default:
      return nullptr;
  }
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
