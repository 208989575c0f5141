// C API plumbing (see c_api.h): tensors, the executor registry, both phases' wrappers.

#include "src/aclnn/c_api.h"

#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "src/aclnn/executor.h"
#include "src/aclnn/prepare_memo.h"
#include "src/cann/entry_alias.h"
#include "src/runtime/runtime.h"

struct aclOpExecutor {
  // Shared with queued runs, so destroying a repeatable executor cannot pull it from
  // under a run still waiting on a stream.
  std::shared_ptr<const hostnn::Executor> impl;
  bool repeatable = false;
};

namespace hostnn {
namespace capi {
namespace {

struct ExecutorRegistry {
  std::mutex mu;
  std::set<aclOpExecutor*> live;
};
ExecutorRegistry& Registry() {
  static ExecutorRegistry* r = new ExecutorRegistry();
  return *r;
}

aclnnStatus Report(const Status& s) {
  if (!s.ok()) runtime::SetLastError(s.message());
  return s.raw_code();
}

constexpr uint64_t kMaxStoredDims = 1024;

}  // namespace

aclnnStatus GetWorkspaceSize(const OpArgs& args, uint64_t* workspace_size, aclOpExecutor** executor) {
  const char* name = GetOpInfo(args.op).name;
  if (workspace_size == nullptr) return Report(Status::Nullptr(std::string("aclnn") + name + "GetWorkspaceSize: workspaceSize is null"));
  if (executor == nullptr) return Report(Status::Nullptr(std::string("aclnn") + name + "GetWorkspaceSize: executor is null"));
  uint64_t ws = 0;
  const tiling::Options options;
  const PrepareMemo memo(args, options);
  std::shared_ptr<const Executor> shared;
  if (!memo.Find(&ws, &shared)) {
    ExecutorPtr impl;
    Status s = Prepare(args, options, &ws, &impl);
    if (!s.ok()) return Report(Status(s.code(), "aclnn" + s.message()));
    shared = std::shared_ptr<const Executor>(impl.release(), ExecutorDeleter());
    memo.Keep(ws, shared);
  }
  auto* e = new aclOpExecutor();
  e->impl = std::move(shared);
  {
    ExecutorRegistry& r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.insert(e);
  }
  *workspace_size = ws;
  *executor = e;
  return ACLNN_SUCCESS;
}

aclnnStatus Launch(Op op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream) {
  // The name is only for messages: phase 2 allocates nothing on success.
  const auto fn = [op] { return std::string("aclnn") + GetOpInfo(op).name; };
  if (executor == nullptr) return Report(Status::Nullptr(fn() + ": executor is null"));
  ExecutorRegistry& r = Registry();
  std::shared_ptr<const Executor> impl;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.live.count(executor) == 0) {
      return Report(Status::Invalid(fn() + ": executor is not live (already run, destroyed, or never created)"));
    }
    impl = executor->impl;
    if (impl->op() != op) {
      return Report(Status::Invalid(fn() + ": executor was made by aclnn" + GetOpInfo(impl->op()).name + "GetWorkspaceSize"));
    }
    const uint64_t need = impl->workspace_bytes();
    if (workspace_size < need) {
      return Report(Status::Invalid(fn() + ": workspaceSize " + std::to_string(workspace_size) +
                                    " is smaller than the " + std::to_string(need) + " bytes phase 1 asked for"));
    }
    if (workspace == nullptr && (need > 0 || workspace_size > 0)) {
      return Report(Status::Invalid(fn() + ": workspace is null but workspaceSize is " + std::to_string(workspace_size)));
    }
    if (!runtime::RangeWithinAllocation(workspace, need)) {
      return Report(Status::Invalid(fn() + ": workspace allocation is smaller than " + std::to_string(need) + " bytes"));
    }
    // Queue before consuming: a run the stream refuses never started, so the executor
    // stays the caller's.
    if (stream != nullptr &&
        runtime::Enqueue(stream, [impl, workspace, workspace_size]() {
          return Execute(*impl, workspace, workspace_size);
        }) != ACL_SUCCESS) {
      return Report(Status::Invalid(fn() + ": " + runtime::LastError()));
    }
    if (!executor->repeatable) {  // a run consumes the executor, as in CANN
      r.live.erase(executor);
      delete executor;
    }
  }
  if (stream == nullptr) return Report(Execute(*impl, workspace, workspace_size));
  return ACLNN_SUCCESS;
}

}  // namespace capi
}  // namespace hostnn

using hostnn::capi::kMaxStoredDims;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  if ((viewDims == nullptr && viewDimsNum > 0) || (storageDims == nullptr && storageDimsNum > 0) ||
      viewDimsNum > kMaxStoredDims || storageDimsNum > kMaxStoredDims) {
    hostnn::runtime::SetLastError("aclCreateTensor: dims pointer is null with a non-zero count, or more than 1024 dims");
    return nullptr;
  }
  auto* t = new aclTensor();
  t->view.data = tensorData;
  t->view.dtype = static_cast<hostnn::DType>(dataType);
  t->view.shape.assign(viewDims, viewDims + viewDimsNum);
  if (stride != nullptr) t->view.strides.assign(stride, stride + viewDimsNum);
  t->view.offset = offset;
  t->format = format;
  t->view.storage_shape.assign(storageDims, storageDims + storageDimsNum);
  if (storageDims != nullptr && storageDimsNum == 0) t->view.storage_shape = {1};  // a 0-d storage holds one element
  return t;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  delete tensor;
  return ACLNN_SUCCESS;
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  if (executor == nullptr) {
    hostnn::runtime::SetLastError("aclSetAclOpExecutorRepeatable: executor is null");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  auto& r = hostnn::capi::Registry();
  std::lock_guard<std::mutex> lock(r.mu);
  if (r.live.count(executor) == 0) {
    hostnn::runtime::SetLastError("aclSetAclOpExecutorRepeatable: executor is not live");
    return ACLNN_ERR_PARAM_INVALID;
  }
  executor->repeatable = true;
  return ACLNN_SUCCESS;
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  if (executor == nullptr) {
    hostnn::runtime::SetLastError("aclDestroyAclOpExecutor: executor is null");
    return ACLNN_ERR_PARAM_NULLPTR;
  }
  auto& r = hostnn::capi::Registry();
  {
    std::lock_guard<std::mutex> lock(r.mu);
    if (r.live.erase(executor) == 0) {
      hostnn::runtime::SetLastError("aclDestroyAclOpExecutor: executor is not live");
      return ACLNN_ERR_PARAM_INVALID;
    }
  }
  delete executor;
  return ACLNN_SUCCESS;
}

// The names the CANN-named libraries forward to (src/cann/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclCreateTensor)
HOSTNN_ENTRY_ALIAS(aclDestroyTensor)
HOSTNN_ENTRY_ALIAS(aclSetAclOpExecutorRepeatable)
HOSTNN_ENTRY_ALIAS(aclDestroyAclOpExecutor)

}  // extern "C"
