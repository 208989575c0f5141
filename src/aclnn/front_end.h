// The front end's one entry: phase 1 of any operator once the caller's out-parameters are
// known to be non-null (hostnn::Prepare and the C API check those, each with its own
// function name in the message).
#ifndef HOSTNN_SRC_ACLNN_FRONT_END_H_
#define HOSTNN_SRC_ACLNN_FRONT_END_H_

#include <cstdint>
#include <string>

#include "hostnn/ops.h"
#include "src/core/check.h"

namespace hostnn {

// Checks every operand in SPEC order (src/aclnn/front_end.cc), then plans and builds the
// executor (src/exec/). Nothing is written on failure. An operand whose elements lie
// behind a null data address is taken (CANN's phase 1 never reads the address); its
// executor refuses to run (Executor::unbound).
Status PrepareChecked(const OpArgs& args, const tiling::Options& options, uint64_t* workspace_size,
                      ExecutorPtr* executor);

// An operand of a call while its checks run: its CANN name (every message names it), its
// view (null: not given, for an optional one) and, once core::CheckStorage has passed,
// where its elements lie. Every front end's checks walk these.
struct CheckedOperand {
  const char* param = nullptr;
  const TensorView* view = nullptr;
  core::ViewSpan span;
  bool given() const { return view != nullptr; }
};

// Whether an output may be written while `in` is read: no byte shared (the same view is no
// exception: an executor may read an element after another element's write reached it).
Status CheckApart(const char* op, const CheckedOperand& out, const CheckedOperand& in);

// The operator's scalar parameters as a middle end that reads them by name takes them
// (kernels/params.h, ParamValues), in the list's order: numbers[k] CANN's ToFloat of the
// value (the list's default where not given), exact[k] its integer value (an INT64
// scalar's own, exact past 2^53; another's integer part, 0 outside int64's range).
void ScalarValuesOf(const OpArgs& args, float* numbers, int64_t* exact);

// The function a message names: prefix + the operator's name + suffix ("aclnn",
// kSiluBackward, "GetWorkspaceSize"). Spelled out only when there is a message, so the
// checks allocate nothing on success.
struct ApiName {
  const char* prefix;
  Op op;
  const char* suffix;
};

// The caller's out-parameters of phase 1: workspaceSize, and the executor (as the C++
// API's ExecutorPtr* or the C API's aclOpExecutor**; pass the other as null).
Status CheckPhase1Outputs(const ApiName& api, const uint64_t* workspace_size,
                          const ExecutorPtr* executor_ptr, const void* executor_handle);

// Phase 2's checks, for both APIs: an executor over a null data address (taken by phase 1,
// as CANN's) does not run; the workspace holds at least the bytes phase 1 asked for, and
// is null only when both the need and the size given are 0.
Status CheckWorkspace(const ApiName& api, const Executor& executor, const void* workspace,
                      uint64_t workspace_size);

// Runs a checked executor (one run at a time per executor): its CheckRunValues first, whose
// refusal it returns with nothing written.
Status RunChecked(const Executor& executor, void* workspace);

}  // namespace hostnn

#endif  // HOSTNN_SRC_ACLNN_FRONT_END_H_
