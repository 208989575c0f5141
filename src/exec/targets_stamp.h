// Which SIMD targets the kernels may be resolved to now, for the caches above the middle
// end: a kept executor holds kernel pointers resolved for one set of targets, so the set
// is part of its key (kernels::ForceTarget changes it).
#ifndef HOSTNN_SRC_EXEC_TARGETS_STAMP_H_
#define HOSTNN_SRC_EXEC_TARGETS_STAMP_H_

#include <cstdint>

namespace hostnn {
namespace exec {

// The set of targets dispatch may choose from now, as a number that changes with it.
int64_t TargetsStamp();

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_TARGETS_STAMP_H_
