// The AI-core launcher (see launcher.h).

#include "src/exec/launcher.h"

#include <omp.h>

#include <algorithm>

namespace hostnn {
namespace launch {

int64_t TeamSize() { return std::max(1, omp_get_max_threads()); }

void LaunchCores(int64_t block_dim, CoreFn fn, const void* ctx) {
  const int64_t team = std::min<int64_t>(TeamSize(), block_dim);
  if (team <= 1 || omp_in_parallel()) {
    for (int64_t c = 0; c < block_dim; ++c) fn(ctx, c);
    return;
  }
#pragma omp parallel num_threads(static_cast <int>(team))
  {
    const int64_t tid = omp_get_thread_num();
    const int64_t nth = omp_get_num_threads();
    for (int64_t c = tid; c < block_dim; c += nth) fn(ctx, c);
  }
}

}  // namespace launch
}  // namespace hostnn
