// The executor: what phase 1 hands to phase 2 — the resolved operands, the plan and the
// kernel pointers (resolved once here, never per tile). Run() trusts that phase 1
// validated everything and that Execute checked the workspace (and, for an operator that
// reads values it must trust, CheckRunValues passed).
#ifndef HOSTNN_SRC_EXEC_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_EXECUTOR_H_

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "hostnn/ops.h"
#include "hostnn/tiling.h"

namespace hostnn {

// Workspace parts start at 64-byte boundaries (a cache line; the SIMD loads' widest).
inline uint64_t AlignWorkspace(uint64_t bytes) { return (bytes + 63) / 64 * 64; }

class Executor {
 public:
  virtual ~Executor() = default;
  Op op() const { return op_; }
  const tiling::Plan& plan() const { return *plan_; }
  uint64_t workspace_bytes() const { return workspace_bytes_; }
  // Pre: workspace holds workspace_bytes() bytes (64-byte aligned is best, not required).
  virtual void Run(char* workspace) const = 0;
  // What only a run can see, checked before Run writes anything (Embedding's indices
  // against weight's rows): a refusal here leaves every output as it was.
  virtual Status CheckRunValues() const { return Status::Ok(); }
  // What runs, for reports: "AVX3, direct, f16 F16C, stream stores" (kernel_path.h).
  virtual std::string KernelPath() const = 0;
  // Runs of one executor never overlap: Execute holds this for the whole run, so a
  // repeatable executor run from two threads (or queued on two streams) at once runs one
  // after the other instead of racing on its bound output. (Phase 1's memo may give one
  // executor to several handles made by identical calls: their runs, which write the same
  // output, are serialised the same way.)
  std::mutex& run_mutex() const { return run_mu_; }
  // Whether a run does nothing (an empty problem): no address is ever read or written.
  virtual bool runs_nothing() const { return false; }
  // Non-empty when an operand's elements lie behind a null data address: phase 1 takes
  // such a call, as CANN's never reads the address, and phase 2 refuses it with this.
  const std::string& unbound() const { return unbound_; }
  void set_unbound(std::string what) { unbound_ = std::move(what); }

 protected:
  Executor(Op op, std::shared_ptr<const tiling::Plan> plan) : op_(op), plan_(std::move(plan)) {}
  Op op_;
  std::shared_ptr<const tiling::Plan> plan_;  // immutable, possibly shared with the plan cache
  uint64_t workspace_bytes_ = 0;

 private:
  mutable std::mutex run_mu_;
  std::string unbound_;
};

// An executor for an empty problem: runs nothing, needs no workspace.
class EmptyExecutor final : public Executor {
 public:
  EmptyExecutor(Op op, const char* dtype) : Executor(op, EmptyPlan(op, dtype)) {}
  void Run(char*) const override {}
  std::string KernelPath() const override { return "empty: nothing runs"; }
  bool runs_nothing() const override { return true; }

 private:
  static std::shared_ptr<const tiling::Plan> EmptyPlan(Op op, const char* dtype) {
    auto plan = std::make_shared<tiling::Plan>();
    plan->op = GetOpInfo(op).snake_name;
    plan->dtype = dtype;
    plan->kind = GetOpInfo(op).is_reduction ? tiling::Plan::Kind::kReduction
                                            : tiling::Plan::Kind::kElementwise;
    return plan;
  }
};

// Phase 1's result for an empty problem: an EmptyExecutor (its plan named by `dtype`) and no
// workspace. Every middle end and front end that succeeds without running returns this.
inline Status PrepareEmpty(Op op, DType dtype, uint64_t* workspace_size, ExecutorPtr* executor) {
  executor->reset(new EmptyExecutor(op, DTypeName(dtype)));
  *workspace_size = 0;
  return Status::Ok();
}

}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_EXECUTOR_H_
