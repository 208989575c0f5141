// C API plumbing (see c_api.h): tensors, the executor registry, both phases' wrappers.

#include "src/aclnn/c_api.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "src/aclnn/front_end.h"
#include "src/aclnn/prepare_memo.h"
#include "base/entry_alias.h"
#include "src/exec/executor.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace capi {
namespace {

// What an aclOpExecutor handle names. Shared with queued runs, so destroying a repeatable
// executor cannot pull it from under a run still waiting on a stream.
struct ExecutorEntry {
  std::shared_ptr<const Executor> impl;
  bool repeatable = false;
};

// Live executors by handle. A handle is a runtime::NewHandle token, never the address of
// anything, so a consumed or destroyed executor's handle stays dead even when a later
// executor is allocated where the old one was.
struct ExecutorRegistry {
  std::mutex mu;
  std::map<uintptr_t, ExecutorEntry> live;
};
ExecutorRegistry& Registry() {
  static ExecutorRegistry* r = new ExecutorRegistry();
  return *r;
}

uintptr_t Key(const aclOpExecutor* e) { return reinterpret_cast<uintptr_t>(e); }

aclnnStatus Report(const Status& s) {
  if (!s.ok()) runtime::SetLastError(s.message());
  return s.raw_code();
}

constexpr uint64_t kMaxStoredDims = 1024;

}  // namespace

aclnnStatus GetWorkspaceSize(const OpArgs& args, uint64_t* workspace_size,
                             aclOpExecutor** executor) {
  Status checked =
      CheckPhase1Outputs({"aclnn", args.op, "GetWorkspaceSize"}, workspace_size, nullptr, executor);
  if (!checked.ok()) return Report(checked);
  uint64_t ws = 0;
  const tiling::Options options;
  const PrepareMemo memo(args, options);
  ExecutorEntry entry;
  if (!memo.Find(&ws, &entry.impl)) {
    ExecutorPtr impl;
    Status s = PrepareChecked(args, options, &ws, &impl);
    if (!s.ok()) return Report(Status(s.code(), "aclnn" + s.message()));
    entry.impl = std::shared_ptr<const Executor>(impl.release(), ExecutorDeleter());
    memo.Keep(ws, entry.impl);
  }
  const uintptr_t handle = runtime::NewHandle();
  {
    ExecutorRegistry& r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.live.emplace(handle, std::move(entry));
  }
  *workspace_size = ws;
  *executor = reinterpret_cast<aclOpExecutor*>(handle);
  return ACLNN_SUCCESS;
}

aclnnStatus LaunchEither(Op op, Op other, void* workspace, uint64_t workspace_size,
                         aclOpExecutor* executor, aclrtStream stream) {
  bool made_by_other = false;
  if (executor != nullptr) {
    ExecutorRegistry& r = Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.live.find(Key(executor));
    made_by_other = it != r.live.end() && it->second.impl->op() == other;
  }
  return Launch(made_by_other ? other : op, workspace, workspace_size, executor, stream);
}

aclnnStatus RefuseAttribute(const Status& s) { return Report(s); }

aclnnStatus Launch(Op op, void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                   aclrtStream stream) {
  // The name is only for messages: phase 2 allocates nothing on success.
  const auto fn = [op] { return std::string("aclnn") + GetOpInfo(op).name; };
  if (executor == nullptr) return Report(Status::Nullptr(fn() + ": executor is null"));
  ExecutorRegistry& r = Registry();
  std::shared_ptr<const Executor> impl;
  {
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.live.find(Key(executor));
    if (it == r.live.end()) {
      return Report(Status::Invalid(
          fn() + ": executor is not live (already run, destroyed, or never created)"));
    }
    impl = it->second.impl;
    if (impl->op() != op) {
      return Report(Status::Invalid(fn() + ": executor was made by aclnn" +
                                    GetOpInfo(impl->op()).name + "GetWorkspaceSize"));
    }
    const uint64_t need = impl->workspace_bytes();
    const Status workspace_ok = CheckWorkspace({"aclnn", op, ""}, *impl, workspace, workspace_size);
    if (!workspace_ok.ok()) return Report(workspace_ok);
    if (!runtime::RangeWithinAllocation(workspace, need)) {
      return Report(Status::Invalid(fn() + ": workspace allocation is smaller than " +
                                    std::to_string(need) + " bytes"));
    }
    // Queue before consuming: a run the stream refuses never started, so the executor
    // stays the caller's. An unknown or destroyed stream is the runtime's
    // ACL_ERROR_INVALID_PARAM, as aclrtSynchronizeStream would say.
    if (stream != nullptr) {
      const int code = runtime::Enqueue(stream, [impl, workspace]() {
        const Status s = RunChecked(*impl, workspace);
        return s.ok() ? s : Status(s.code(), "aclnn" + s.message());
      });
      if (code != ACL_SUCCESS) {
        runtime::SetLastError(fn() + ": " + runtime::LastError());
        return code;
      }
    }
    if (!it->second.repeatable) r.live.erase(it);  // a run consumes the executor, as in CANN
  }
  if (stream == nullptr) {
    const Status s = RunChecked(*impl, workspace);
    if (!s.ok()) return Report(Status(s.code(), "aclnn" + s.message()));
  }
  return ACLNN_SUCCESS;
}

}  // namespace capi
}  // namespace hostnn

using hostnn::capi::kMaxStoredDims;
using hostnn::runtime::Entry;

extern "C" {

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType,
                           const int64_t* stride, int64_t offset, aclFormat format,
                           const int64_t* storageDims, uint64_t storageDimsNum, void* tensorData) {
  return Entry("aclCreateTensor", nullptr, [&]() -> aclTensor* {
    if ((viewDims == nullptr && viewDimsNum > 0) ||
        (storageDims == nullptr && storageDimsNum > 0) || viewDimsNum > kMaxStoredDims ||
        storageDimsNum > kMaxStoredDims) {
      hostnn::runtime::SetLastError(
          "aclCreateTensor: dims pointer is null with a non-zero count, or more than 1024 dims");
      return nullptr;
    }
    auto t = std::make_unique<aclTensor>();  // freed if filling it throws
    t->view.data = tensorData;
    t->view.dtype = static_cast<hostnn::DType>(dataType);
    t->view.shape.assign(viewDims, viewDims + viewDimsNum);
    if (stride != nullptr) t->view.strides.assign(stride, stride + viewDimsNum);
    t->view.offset = offset;
    t->format = format;
    t->view.format = static_cast<int32_t>(format);
    t->view.storage_shape.assign(storageDims, storageDims + storageDimsNum);
    if (storageDims != nullptr && storageDimsNum == 0)
      t->view.storage_shape = {1};  // a 0-d storage holds one element
    return t.release();
  });
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
  return Entry("aclDestroyTensor", ACLNN_ERR_INNER, [&] {
    delete tensor;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclSetAclOpExecutorRepeatable(aclOpExecutor* executor) {
  return Entry("aclSetAclOpExecutorRepeatable", ACLNN_ERR_INNER, [&] {
    if (executor == nullptr) {
      hostnn::runtime::SetLastError("aclSetAclOpExecutorRepeatable: executor is null");
      return ACLNN_ERR_PARAM_NULLPTR;
    }
    auto& r = hostnn::capi::Registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto it = r.live.find(hostnn::capi::Key(executor));
    if (it == r.live.end()) {
      hostnn::runtime::SetLastError("aclSetAclOpExecutorRepeatable: executor is not live");
      return ACLNN_ERR_PARAM_INVALID;
    }
    it->second.repeatable = true;
    return ACLNN_SUCCESS;
  });
}

aclnnStatus aclDestroyAclOpExecutor(aclOpExecutor* executor) {
  return Entry("aclDestroyAclOpExecutor", ACLNN_ERR_INNER, [&] {
    if (executor == nullptr) {
      hostnn::runtime::SetLastError("aclDestroyAclOpExecutor: executor is null");
      return ACLNN_ERR_PARAM_NULLPTR;
    }
    auto& r = hostnn::capi::Registry();
    std::shared_ptr<const hostnn::Executor> impl;  // released outside the lock
    {
      std::lock_guard<std::mutex> lock(r.mu);
      auto it = r.live.find(hostnn::capi::Key(executor));
      if (it == r.live.end()) {
        hostnn::runtime::SetLastError("aclDestroyAclOpExecutor: executor is not live");
        return ACLNN_ERR_PARAM_INVALID;
      }
      impl = std::move(it->second.impl);
      r.live.erase(it);
    }
    return ACLNN_SUCCESS;
  });
}

// The names the CANN-named libraries forward to (base/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclCreateTensor)
HOSTNN_ENTRY_ALIAS(aclDestroyTensor)
HOSTNN_ENTRY_ALIAS(aclSetAclOpExecutorRepeatable)
HOSTNN_ENTRY_ALIAS(aclDestroyAclOpExecutor)

}  // extern "C"
