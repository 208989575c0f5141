// The functors of the operators with scalar parameters (op_list.def's Scalars column): each
// declares `template <class D> struct Bound`, built once per tile from the parameters'
// f32 values (Bound(d, scalars): the values set into vectors there, never per element) and
// applied as Bound::Apply(d, x) for a forward operator or Apply(d, dy, x) for a gradient
// (kernels/tile-inl.h, BoundOp). All lanes f32. Each documents its formula, max error
// against the exact (double) result of the same f32 inputs and parameters, and its range.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_PARAM_OPS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_PARAM_OPS_INL_H_
#undef HOSTNN_KERNELS_PARAM_OPS_INL_H_
#else
#define HOSTNN_KERNELS_PARAM_OPS_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_PARAM_OPS_INL_H_
