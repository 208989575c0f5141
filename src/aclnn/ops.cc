// The native API's entry points: the operator table, Prepare's dispatch to each
// operator's front end, Execute's workspace check, and the one-shot Run.

#include <cstdlib>
#include <memory>
#include <string>

#include "hostnn/ops.h"
#include "kernels/kernels.h"
#include "src/aclnn/executor.h"
#include "src/aclnn/op_prepare.h"

namespace hostnn {

void ExecutorDeleter::operator()(const Executor* e) const { delete e; }

Status Prepare(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size,
               ExecutorPtr* executor) {
  const char* name = GetOpInfo(args.op).name;
  if (workspace_size == nullptr) return Status::Nullptr(std::string(name) + ": workspaceSize is null");
  if (executor == nullptr) return Status::Nullptr(std::string(name) + ": executor is null");
  uint64_t ws = 0;
  ExecutorPtr exec;
  Status s;
  switch (args.op) {
#define HOSTNN_OP(Name, ...)                           \
  case Op::k##Name:                                   \
    s = Prepare##Name(args, options, &ws, &exec);     \
    break;
#include "hostnn/op_list.def"
#undef HOSTNN_OP
    default:
      return Status::Invalid("unknown operator " + std::to_string(static_cast<int>(args.op)));
  }
  if (!s.ok()) return s;
  *workspace_size = ws;
  *executor = std::move(exec);
  return Status::Ok();
}

Status Execute(const Executor& executor, void* workspace, uint64_t workspace_size) {
  const uint64_t need = executor.workspace_bytes();
  const char* name = GetOpInfo(executor.op()).name;
  if (workspace_size < need) {
    return Status::Invalid(std::string(name) + ": workspaceSize " + std::to_string(workspace_size) +
                           " is smaller than the " + std::to_string(need) + " bytes phase 1 asked for");
  }
  if (workspace == nullptr && need > 0) {
    return Status::Invalid(std::string(name) + ": workspace is null but " + std::to_string(need) + " bytes are needed");
  }
  std::lock_guard<std::mutex> lock(executor.run_mutex());  // one run at a time
  executor.Run(static_cast<char*>(workspace));
  return Status::Ok();
}

const tiling::Plan& GetPlan(const Executor& executor) { return executor.plan(); }

std::string KernelPath(const Executor& executor) { return executor.KernelPath(); }

std::string DescribeKernelPath(const char* target, bool direct, const DType* dtypes, int count,
                               bool stream) {
  std::string s = std::string(target) + (direct ? ", direct" : ", gathered to f32");
  for (int k = 0; k < count; ++k) {
    bool seen = false;
    for (int j = 0; j < k; ++j) seen = seen || dtypes[j] == dtypes[k];
    if (!seen && dtypes[k] != DType::kFloat32) s += std::string(", ") + kernels::ConversionName(dtypes[k]);
  }
  if (stream) s += ", stream stores";
  return s;
}

Status Run(const OpArgs& args, const tiling::Options& options) {
  uint64_t ws = 0;
  ExecutorPtr exec;
  HOSTNN_RETURN_IF_ERROR(Prepare(args, options, &ws, &exec));
  void* workspace = nullptr;
  if (ws > 0) {
    workspace = std::aligned_alloc(64, (ws + 63) / 64 * 64);
    if (workspace == nullptr) return Status::Inner(std::string(GetOpInfo(args.op).name) + ": out of memory for the workspace");
  }
  Status s = Execute(*exec, workspace, ws);
  std::free(workspace);
  return s;
}

Status SiluBackward(const TensorView& grad_output, const TensorView& self, const TensorView& grad_input) {
  OpArgs a;
  a.op = Op::kSiluBackward;
  a.grad_output = &grad_output;
  a.self = &self;
  a.out = &grad_input;
  return Run(a);
}

Status LogSigmoidBackward(const TensorView& grad_output, const TensorView& self, const TensorView& grad_input) {
  OpArgs a;
  a.op = Op::kLogSigmoidBackward;
  a.grad_output = &grad_output;
  a.self = &self;
  a.buffer = &self;  // unused by the computation
  a.out = &grad_input;
  return Run(a);
}

Status HardsigmoidBackward(const TensorView& grad_output, const TensorView& self, const TensorView& out) {
  OpArgs a;
  a.op = Op::kHardsigmoidBackward;
  a.grad_output = &grad_output;
  a.self = &self;
  a.out = &out;
  return Run(a);
}

Status LogSoftmaxBackward(const TensorView& grad_output, const TensorView& output, int64_t dim, const TensorView& out) {
  OpArgs a;
  a.op = Op::kLogSoftmaxBackward;
  a.grad_output = &grad_output;
  a.self = &output;
  a.out = &out;
  a.dim = dim;
  return Run(a);
}

}  // namespace hostnn
