// The AI-core launcher: plays a plan's block_dim logical cores on an OpenMP team. The only
// OpenMP code in hostnn. Logical core c runs on thread c % team, so which thread runs a
// core never changes what the core computes.
#ifndef HOSTNN_SRC_EXEC_LAUNCHER_H_
#define HOSTNN_SRC_EXEC_LAUNCHER_H_

#include <cstdint>

namespace hostnn {
namespace launch {

using CoreFn = void (*)(const void* ctx, int64_t core);

// Runs fn(ctx, core) for every core in [0, block_dim): on the calling thread when
// block_dim == 1 or the team would have one thread (no fork for small work), else on a
// team of min(omp_get_max_threads(), block_dim) threads. Returns when all are done.
void LaunchCores(int64_t block_dim, CoreFn fn, const void* ctx);

// LaunchCores for an executor's per-core member: (self->*run_core)(core, workspace) for
// every core. The member may be private: the caller names it.
template <class E>
void LaunchRunCore(int64_t block_dim, const E* self, void (E::*run_core)(int64_t, char*) const,
                   char* workspace) {
  struct Ctx {
    const E* self;
    void (E::*run_core)(int64_t, char*) const;
    char* workspace;
  } ctx{self, run_core, workspace};
  LaunchCores(
      block_dim,
      [](const void* p, int64_t core) {
        const Ctx* c = static_cast<const Ctx*>(p);
        (c->self->*c->run_core)(core, c->workspace);
      },
      &ctx);
}

// Threads a launch would use now (honours OMP_NUM_THREADS).
int64_t TeamSize();

}  // namespace launch
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_LAUNCHER_H_
