// The environment snapshot phase 1's memo keeps (see plan_environment.h): the planner's own.

#include "src/exec/plan_environment.h"

#include "tiling/internal.h"

namespace hostnn {
namespace exec {

PlanEnvironment::PlanEnvironment() : env_(std::make_unique<tiling::Environment>()) {}

PlanEnvironment::PlanEnvironment(const PlanEnvironment& other)
    : env_(std::make_unique<tiling::Environment>(*other.env_)) {}

PlanEnvironment& PlanEnvironment::operator=(const PlanEnvironment& other) {
  *env_ = *other.env_;
  return *this;
}

PlanEnvironment::~PlanEnvironment() = default;

void PlanEnvironment::Read() { *env_ = tiling::ReadEnvironment(); }

bool PlanEnvironment::PlanReadsAFile(const tiling::Options& options) const {
  return tiling::PlanReadsAFile(options, *env_);
}

bool PlanEnvironment::operator==(const PlanEnvironment& other) const {
  return *env_ == *other.env_;
}

}  // namespace exec
}  // namespace hostnn
