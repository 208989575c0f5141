// The kernels' targets stamp for the layers above the middle end (see targets_stamp.h).

#include "src/exec/targets_stamp.h"

#include "kernels/kernels.h"

namespace hostnn {
namespace exec {

int64_t TargetsStamp() { return kernels::TargetsStamp(); }

}  // namespace exec
}  // namespace hostnn
