// The executor: what phase 1 hands to phase 2 — the resolved operands, the plan and the
// kernel pointers (resolved once here, never per tile). Run() trusts that phase 1
// validated everything and that Execute checked the workspace.
#ifndef HOSTNN_SRC_ACLNN_EXECUTOR_H_
#define HOSTNN_SRC_ACLNN_EXECUTOR_H_

#include <cstdint>

#include "hostnn/ops.h"
#include "hostnn/tiling.h"

namespace hostnn {

class Executor {
 public:
  virtual ~Executor() = default;
  Op op() const { return op_; }
  const tiling::Plan& plan() const { return plan_; }
  uint64_t workspace_bytes() const { return workspace_bytes_; }
  // Pre: workspace holds workspace_bytes() bytes (64-byte aligned is best, not required).
  virtual void Run(char* workspace) const = 0;

 protected:
  explicit Executor(Op op) : op_(op) {}
  Op op_;
  tiling::Plan plan_;
  uint64_t workspace_bytes_ = 0;
};

// An executor for an empty problem: runs nothing, needs no workspace.
class EmptyExecutor final : public Executor {
 public:
  explicit EmptyExecutor(Op op, const char* dtype) : Executor(op) {
    plan_.op = GetOpInfo(op).snake_name;
    plan_.dtype = dtype;
    plan_.kind = GetOpInfo(op).is_reduction ? tiling::Plan::Kind::kReduction
                                             : tiling::Plan::Kind::kElementwise;
  }
  void Run(char*) const override {}
};

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_EXECUTOR_H_
