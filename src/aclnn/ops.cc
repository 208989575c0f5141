// The native API's entry points: Prepare (its out-parameters, then the front end),
// Execute (the workspace check, then the run) and the one-shot Run. Each runs inside
// StatusBoundary: they return a Status and never throw, out of memory included.

#include <cstdlib>
#include <memory>
#include <string>

#include "base/boundary.h"
#include "hostnn/ops.h"
#include "src/aclnn/front_end.h"
#include "src/exec/executor.h"

namespace hostnn {

void ExecutorDeleter::operator()(const Executor* e) const { delete e; }

namespace {
// "<prefix><Name><suffix>", built only for a message.
std::string FunctionName(const ApiName& fn) {
  return std::string(fn.prefix) + (IsValidOp(fn.op) ? GetOpInfo(fn.op).name : "Prepare") +
         fn.suffix;
}
}  // namespace

Status CheckPhase1Outputs(const ApiName& api, const uint64_t* workspace_size,
                          const ExecutorPtr* executor_ptr, const void* executor_handle) {
  if (workspace_size == nullptr) {
    return Status::Nullptr(FunctionName(api) + ": workspaceSize is null");
  }
  if (executor_ptr == nullptr && executor_handle == nullptr) {
    return Status::Nullptr(FunctionName(api) + ": executor is null");
  }
  return Status::Ok();
}

Status CheckWorkspace(const ApiName& api, const Executor& executor, const void* workspace,
                      uint64_t workspace_size) {
  if (!executor.unbound().empty()) {
    return Status::Invalid(FunctionName(api) + ": " + executor.unbound());
  }
  const uint64_t need = executor.workspace_bytes();
  if (workspace_size >= need && (workspace != nullptr || (need == 0 && workspace_size == 0))) {
    return Status::Ok();
  }
  const std::string fn = FunctionName(api);
  if (workspace_size < need) {
    return Status::Invalid(fn + ": workspaceSize " + std::to_string(workspace_size) +
                           " is smaller than the " + std::to_string(need) +
                           " bytes phase 1 asked for");
  }
  if (workspace == nullptr && (need > 0 || workspace_size > 0)) {
    return Status::Invalid(fn + ": workspace is null but workspaceSize is " +
                           std::to_string(workspace_size));
  }
  return Status::Ok();
}

Status RunChecked(const Executor& executor, void* workspace) {
  std::lock_guard<std::mutex> lock(executor.run_mutex());  // one run at a time
  HOSTNN_RETURN_IF_ERROR(executor.CheckRunValues());
  executor.Run(static_cast<char*>(workspace));
  return Status::Ok();
}

Status Prepare(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size,
               ExecutorPtr* executor) {
  return StatusBoundary("Prepare", [&] {
    HOSTNN_RETURN_IF_ERROR(
        CheckPhase1Outputs({"", args.op, ""}, workspace_size, executor, nullptr));
    uint64_t ws = 0;
    ExecutorPtr exec;
    HOSTNN_RETURN_IF_ERROR(PrepareChecked(args, options, &ws, &exec));
    *workspace_size = ws;
    *executor = std::move(exec);
    return Status::Ok();
  });
}

Status Execute(const Executor& executor, void* workspace, uint64_t workspace_size) {
  return StatusBoundary("Execute", [&] {
    HOSTNN_RETURN_IF_ERROR(
        CheckWorkspace({"", executor.op(), ""}, executor, workspace, workspace_size));
    return RunChecked(executor, workspace);
  });
}

const tiling::Plan& GetPlan(const Executor& executor) { return executor.plan(); }

std::string KernelPath(const Executor& executor) { return executor.KernelPath(); }

Status Run(const OpArgs& args, const tiling::Options& options) {
  return StatusBoundary("Run", [&] {
    uint64_t ws = 0;
    ExecutorPtr exec;
    HOSTNN_RETURN_IF_ERROR(Prepare(args, options, &ws, &exec));
    void* workspace = nullptr;
    if (ws > 0) {
      workspace = std::aligned_alloc(64, (ws + 63) / 64 * 64);
      if (workspace == nullptr)
        return Status::Inner(std::string(GetOpInfo(args.op).name) +
                             ": out of memory for the workspace");
    }
    Status s = Execute(*exec, workspace, ws);  // never throws: the workspace is always freed
    std::free(workspace);
    return s;
  });
}

}  // namespace hostnn
