// Resolving a Highway dispatch table to the chosen target, shared by the HWY_ONCE
// sections of the kernel units. Internal.
#ifndef HOSTNN_KERNELS_DISPATCH_H_
#define HOSTNN_KERNELS_DISPATCH_H_

#include <hwy/highway.h>

namespace hostnn {
namespace kernels {

// Resolves a dispatch table to the chosen target's entry, initialising the choice first
// (entry 0 of a table is Highway's lazy initialiser, which we bypass).
template <typename Fn>
static Fn Pick(Fn const* table) {
#if (HWY_TARGETS & (HWY_TARGETS - 1)) == 0
  return table[0];
#else
  hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  if (!chosen.IsInitialized()) chosen.Update(hwy::SupportedTargets());
  return table[chosen.GetIndex()];
#endif
}
#define HOSTNN_PICK(Fn) Pick(HWY_DISPATCH_TABLE(Fn))

}  // namespace kernels
}  // namespace hostnn

#endif  // HOSTNN_KERNELS_DISPATCH_H_
