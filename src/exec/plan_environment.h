// The HOSTNN_ environment a plan is made under, as a value phase 1's memo can keep and
// compare. The snapshot itself is the planner's (tiling/internal.h, the one place that reads
// the environment); it is held here, behind the middle end, so that the front end keys its
// memo on it without seeing planner internals.
#ifndef HOSTNN_SRC_EXEC_PLAN_ENVIRONMENT_H_
#define HOSTNN_SRC_EXEC_PLAN_ENVIRONMENT_H_

#include <memory>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {
struct Environment;
}  // namespace tiling

namespace exec {

class PlanEnvironment {
 public:
  PlanEnvironment();  // every variable unset
  PlanEnvironment(const PlanEnvironment& other);
  // Copies the values into this snapshot's own storage (no allocation for a short value).
  PlanEnvironment& operator=(const PlanEnvironment& other);
  ~PlanEnvironment();

  // Reads the HOSTNN_ variables now, in one pass.
  void Read();
  // Whether a plan made with `options` under this environment reads a platform or tuning
  // file. Files can change between calls, so such a plan is never kept by a cache.
  bool PlanReadsAFile(const tiling::Options& options) const;
  // Same values for every variable (unset and set to "" are the same).
  bool operator==(const PlanEnvironment& other) const;

 private:
  std::unique_ptr<tiling::Environment> env_;  // never null
};

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_PLAN_ENVIRONMENT_H_
