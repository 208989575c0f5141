// DOUBLE tiles (out = f(x), or f(dy, x), in f64 lanes) for the operators CANN computes in
// double (ComputesDouble, hostnn/op.h: their op_api lists DT_DOUBLE and its AI CPU kernel
// computes in it), for every compiled SIMD target, and their dispatch table (GetF64Map,
// kernels.h). The functor is the operator's F64Form: the operator itself where its
// element function is a selection written for any lanes (LeakyRelu), or a double form
// beside it (SigmoidF64Op, EluF64Op, GluF64Op; GluBackwardF64Op writes two outputs, da
// and db). The executor gathers other inputs widened to double and rounds the result to
// out's dtype once (src/exec/map_executor.cc).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/f64_tiles.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "kernels/eltwise_ops-inl.h"
#include "kernels/exp_param_ops-inl.h"
#include "kernels/family_grad_ops-inl.h"
#include "kernels/glu_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/param_ops-inl.h"
#include "kernels/tile-inl.h"
#include "kernels/unary_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The functor's double form: Op::F64Form, or void for an operator without one.
template <class Op, class = void>
struct F64FormOf {
  using type = void;
};
template <class Op>
struct F64FormOf<Op, std::void_t<typename Op::F64Form>> {
  using type = typename Op::F64Form;
};

// n doubles of each input into out[0]: whole vectors, then the rest through zero-padded
// copies, so that every element meets the same code wherever a tile ends. out may be an
// input exactly: each vector is loaded before it is stored.
template <class F, size_t... I>
HWY_INLINE void F64Tile(const void* const* in, void* const* out, size_t n, const OpParams& params,
                        std::index_sequence<I...>) {
  const hn::ScalableTag<double> d;
  const BoundOp<F, decltype(d)> f(d, params);
  const double* x[] = {static_cast<const double*>(in[I])...};
  double* o = static_cast<double*>(out[0]);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(f.Apply(d, hn::LoadU(d, x[I] + i)...), d, o + i);
  if (i < n) {
    HWY_ALIGN double pad[sizeof...(I)][HWY_MAX_BYTES / sizeof(double)];
    (CopyPadded(x[I] + i, n - i, pad[I], N), ...);
    HWY_ALIGN double res[HWY_MAX_BYTES / sizeof(double)];
    hn::Store(f.Apply(d, hn::Load(d, pad[I])...), d, res);
    for (size_t j = 0; j < n - i; ++j) o[i + j] = res[j];
  }
}

// A gradient's two outputs (GluBackward's da and db): F::Apply(d, inputs..., &out1)
// returns out0; the same vectors and padded rest as F64Tile. out0 and out1 may be inputs
// exactly (a vector's inputs are loaded before its outputs are stored).
template <class F, size_t... I>
HWY_INLINE void F64Tile2(const void* const* in, void* const* out, size_t n, const OpParams& params,
                         std::index_sequence<I...>) {
  const hn::ScalableTag<double> d;
  using V = hn::Vec<decltype(d)>;
  const BoundOp<F, decltype(d)> f(d, params);
  const double* x[] = {static_cast<const double*>(in[I])...};
  double* o0 = static_cast<double*>(out[0]);
  double* o1 = static_cast<double*>(out[1]);
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    V v1;
    const V v0 = f.Apply(d, hn::LoadU(d, x[I] + i)..., &v1);
    hn::StoreU(v0, d, o0 + i);
    hn::StoreU(v1, d, o1 + i);
  }
  if (i < n) {
    HWY_ALIGN double pad[sizeof...(I)][HWY_MAX_BYTES / sizeof(double)];
    (CopyPadded(x[I] + i, n - i, pad[I], N), ...);
    HWY_ALIGN double res0[HWY_MAX_BYTES / sizeof(double)], res1[HWY_MAX_BYTES / sizeof(double)];
    V v1;
    hn::Store(f.Apply(d, hn::Load(d, pad[I])..., &v1), d, res0);
    hn::Store(v1, d, res1);
    for (size_t j = 0; j < n - i; ++j) o0[i + j] = res0[j], o1[i + j] = res1[j];
  }
}

// An operator's entry: its F64Form's tile where the list computes it in double; an empty
// entry, never handed out, for the others. kOut 2: a gated gradient's two halves.
template <Op kOp, class F, size_t kIn, size_t kOut = 1>
HWY_INLINE void F64Entry([[maybe_unused]] const void* const* in, [[maybe_unused]] void* const* out,
                         [[maybe_unused]] size_t n, [[maybe_unused]] const OpParams& p) {
  using Form = typename F64FormOf<F>::type;
  static_assert(!ComputesDouble(kOp) || !std::is_void_v<Form>,
                "an operator computed in double names its F64Form");
  if constexpr (ComputesDouble(kOp) && kOut == 1) {
    F64Tile<Form>(in, out, n, p, std::make_index_sequence<kIn>());
  } else if constexpr (ComputesDouble(kOp)) {
    F64Tile2<Form>(in, out, n, p, std::make_index_sequence<kIn>());
  }
}

#define HOSTNN_KIND_Unary(Name)                                                          \
  void F64##Name(const void* const* in, void* const* out, size_t n, const OpParams& p) { \
    F64Entry<Op::k##Name, Name##Op, 1>(in, out, n, p);                                   \
  }
#define HOSTNN_KIND_Binary(Name)                                                         \
  void F64##Name(const void* const* in, void* const* out, size_t n, const OpParams& p) { \
    F64Entry<Op::k##Name, Name##Op, 2>(in, out, n, p);                                   \
  }
// The gated units: a and b (the front end's views of self's halves); a gradient reads dy,
// a, b and writes da and db (out's halves).
#define HOSTNN_KIND_Gated(Name) HOSTNN_KIND_Binary(Name)
#define HOSTNN_KIND_GatedGrad(Name)                                                      \
  void F64##Name(const void* const* in, void* const* out, size_t n, const OpParams& p) { \
    F64Entry<Op::k##Name, Name##Op, 3, 2>(in, out, n, p);                                \
  }
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_KIND_Binary
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_KIND_Unary(Name) HWY_EXPORT(F64##Name);
#define HOSTNN_KIND_Binary(Name) HWY_EXPORT(F64##Name);
#define HOSTNN_KIND_Gated(Name) HWY_EXPORT(F64##Name);
#define HOSTNN_KIND_GatedGrad(Name) HWY_EXPORT(F64##Name);
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_KIND_Binary
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad

MapFn GetF64Map(Op op) {
  if (!ComputesDouble(op)) return nullptr;
  switch (op) {
#define HOSTNN_KIND_Unary(Name) \
  case Op::k##Name:             \
    return HOSTNN_PICK(F64##Name);
#define HOSTNN_KIND_Binary(Name) \
  case Op::k##Name:              \
    return HOSTNN_PICK(F64##Name);
#define HOSTNN_KIND_Gated(Name) HOSTNN_KIND_Binary(Name)
#define HOSTNN_KIND_GatedGrad(Name) HOSTNN_KIND_Binary(Name)
#include "kernels/op_kinds-inl.h"
#undef HOSTNN_KIND_Unary
#undef HOSTNN_KIND_Binary
#undef HOSTNN_KIND_Gated
#undef HOSTNN_KIND_GatedGrad
    default:  // another kind: no kernel here
      break;
  }
  return nullptr;
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
