// aclnnGeluV2 and aclnnGeluBackwardV2: one more parameter, `approximate`, over two operators
// of the list each. Phase 1 checks it and hands the call to the operator it names (GeluErf /
// GeluErfBackward for none, Gelu / GeluBackward for tanh), whose own phase 1 checks the
// tensors; phase 2 runs whichever of the two made the executor. approximate is checked
// where CANN's op_api checks it: a null one after the null tensors (161001), a bad value
// after the tensors' dtype and shape checks (161002), so that a call wrong in several ways
// gets CANN's code; nothing is written when it is refused. GeluBackwardV2 also asks for a
// gradInput of the inputs' promoted dtype, as its op_api (GeluBackward takes any float).
// Every message names the entry point the caller called and its parameters: a refusal of the
// operator handed the call is reworded (InV2Words).

#include <cctype>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

#include "hostnn/aclnnop_all.h"
#include "src/aclnn/c_api.h"
#include "base/entry_alias.h"
#include "src/runtime/runtime.h"

namespace {

using hostnn::Op;
using hostnn::Status;

// CANN's GeluV2 documents approximate as 0 (none) or 1 (tanh).
constexpr int64_t kApproximateNone = 0;
constexpr int64_t kApproximateTanh = 1;

// An attribute refused only once the tensors pass their own checks: phase1(ws, executor)
// runs them into local results (the caller's pointers, where null, stay null so that the
// same check reports them), and its executor is dropped.
template <class Phase1>
aclnnStatus RefuseAfterTensorChecks(const Status& refusal, uint64_t* workspaceSize,
                                    aclOpExecutor** executor, Phase1 phase1) {
  uint64_t ws = 0;
  aclOpExecutor* made = nullptr;
  const aclnnStatus st =
      phase1(workspaceSize != nullptr ? &ws : nullptr, executor != nullptr ? &made : nullptr);
  if (st != ACLNN_SUCCESS) return st;
  aclDestroyAclOpExecutor(made);
  return hostnn::capi::RefuseAttribute(refusal);
}

// The refusal `st` of one of the operators a V2 entry point hands its call to, in the V2's
// words: the thread's message names aclnn<v2>GetWorkspaceSize or aclnn<v2> where it named
// the operator's, and the V2's parameters where it named the operator's (Gelu's self and
// out are GeluV2's x and y; the other operators' names are their V2's already).
aclnnStatus InV2Words(aclnnStatus st, const char* v2, std::initializer_list<Op> ops,
                      std::initializer_list<std::pair<const char*, const char*>> params = {}) {
  if (st == ACLNN_SUCCESS) return st;
  std::string m = hostnn::runtime::LastError();
  for (Op op : ops) {
    for (const char* suffix : {"GetWorkspaceSize:", ":"}) {
      const std::string from = std::string("aclnn") + hostnn::GetOpInfo(op).name + suffix;
      if (m.compare(0, from.size(), from) == 0) {
        m = std::string("aclnn") + v2 + suffix + m.substr(from.size());
        break;
      }
    }
  }
  // Whole words only: "self" in "itself" or "out" in "output" stay.
  const auto word_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_';
  };
  for (const auto& [from, to] : params) {
    const size_t n = std::strlen(from);
    for (size_t at = m.find(from); at != std::string::npos; at = m.find(from, at)) {
      const bool whole = (at == 0 || !word_char(m[at - 1])) &&
                         (at + n == m.size() || !word_char(m[at + n]));
      if (!whole) {
        at += n;
        continue;
      }
      m.replace(at, n, to);
      at += std::strlen(to);
    }
  }
  hostnn::runtime::SetLastError(m);
  return st;
}

// Phase 1 of `op` (Gelu, GeluErf or their gradients) by its own checks but for the rank and
// the format: the V2 op_api files have no OP_CHECK_MAX_DIM and no format check, so a tensor
// of any rank and format is taken.
aclnnStatus AnyRankPhase1(Op op, const aclTensor* in0, const aclTensor* in1, const aclTensor* out,
                          uint64_t* workspaceSize, aclOpExecutor** executor) {
  hostnn::OpArgs args = hostnn::capi::MakeArgs(op, {in0, in1}, {out}, 0);
  args.max_rank = hostnn::kAnyRank;
  args.any_format = true;
  return hostnn::capi::GetWorkspaceSize(args, workspaceSize, executor);
}

}  // namespace

extern "C" {

aclnnStatus aclnnGeluV2GetWorkspaceSize(const aclTensor* x, int64_t approximate, aclTensor* y,
                                        uint64_t* workspaceSize, aclOpExecutor** executor) {
  return hostnn::runtime::Entry("aclnnGeluV2GetWorkspaceSize", ACLNN_ERR_INNER, [&] {
    if (approximate != kApproximateNone && approximate != kApproximateTanh) {
      return RefuseAfterTensorChecks(
          Status::Invalid("aclnnGeluV2: approximate must be 0 (none) or 1 (tanh), got " +
                          std::to_string(approximate)),
          workspaceSize, executor, [&](uint64_t* ws, aclOpExecutor** ex) {
            // The erf form's checks: the same rule as the tanh form's, with GeluV2's names.
            return InV2Words(AnyRankPhase1(Op::kGeluErf, x, nullptr, y, ws, ex), "GeluV2",
                             {Op::kGeluErf});
          });
    }
    return approximate == kApproximateTanh
               ? InV2Words(AnyRankPhase1(Op::kGelu, x, nullptr, y, workspaceSize, executor),
                           "GeluV2", {Op::kGelu}, {{"self", "x"}, {"out", "y"}})
               : InV2Words(AnyRankPhase1(Op::kGeluErf, x, nullptr, y, workspaceSize, executor),
                           "GeluV2", {Op::kGeluErf});
  });
}

aclnnStatus aclnnGeluV2(void* workspace, uint64_t workspaceSize, aclOpExecutor* executor,
                        aclrtStream stream) {
  return hostnn::runtime::Entry("aclnnGeluV2", ACLNN_ERR_INNER, [&] {
    return InV2Words(hostnn::capi::LaunchEither(Op::kGeluErf, Op::kGelu, workspace,
                                                workspaceSize, executor, stream),
                     "GeluV2", {Op::kGeluErf, Op::kGelu});
  });
}

aclnnStatus aclnnGeluBackwardV2GetWorkspaceSize(const aclTensor* gradOutput, const aclTensor* self,
                                                char* approximate, aclTensor* gradInput,
                                                uint64_t* workspaceSize, aclOpExecutor** executor) {
  return hostnn::runtime::Entry("aclnnGeluBackwardV2GetWorkspaceSize", ACLNN_ERR_INNER, [&] {
    // Checked as the tanh form (CANN's op_api checks the promoted dtypes for both forms).
    auto tensor_checks = [&](uint64_t* ws, aclOpExecutor** ex) {
      return InV2Words(AnyRankPhase1(Op::kGeluBackward, gradOutput, self, gradInput, ws, ex),
                       "GeluBackwardV2", {Op::kGeluBackward});
    };
    if (approximate == nullptr) {
      if (gradOutput == nullptr || self == nullptr || gradInput == nullptr) {
        return tensor_checks(workspaceSize, executor);  // refused naming the null tensor
      }
      return hostnn::capi::RefuseAttribute(
          Status::Nullptr("aclnnGeluBackwardV2: approximate is null (\"none\" or \"tanh\")"));
    }
    // V2's own dtype rule, checked by CANN after the null pointers and before the shapes:
    // gradInput must be the promotion of gradOutput and self (V1 takes any float gradInput).
    // A promotion that is no compute dtype is left to the tensor checks, which name it.
    if (gradOutput != nullptr && self != nullptr && gradInput != nullptr &&
        workspaceSize != nullptr && executor != nullptr) {
      const hostnn::DType grad = gradOutput->view.dtype, x = self->view.dtype;
      const hostnn::DType promoted = hostnn::PromoteType(grad, x);
      const hostnn::DType out = gradInput->view.dtype;
      const bool computed = promoted == hostnn::DType::kFloat32 ||
                            promoted == hostnn::DType::kFloat16 ||
                            promoted == hostnn::DType::kBFloat16;
      if (computed && out != promoted) {
        return hostnn::capi::RefuseAttribute(Status::Invalid(
            std::string("aclnnGeluBackwardV2: gradInput dtype: expected ") +
            hostnn::DTypeName(promoted) + ", the promotion of gradOutput " +
            hostnn::DTypeName(grad) + " and self " + hostnn::DTypeName(x) + ", got " +
            hostnn::DTypeName(out)));
      }
    }
    const bool none = std::strcmp(approximate, "none") == 0;
    const bool tanh = std::strcmp(approximate, "tanh") == 0;
    if (!none && !tanh) {
      return RefuseAfterTensorChecks(
          Status::Invalid("aclnnGeluBackwardV2: approximate must be \"none\" or \"tanh\", got \"" +
                          std::string(approximate) + "\""),
          workspaceSize, executor, tensor_checks);
    }
    return tanh ? tensor_checks(workspaceSize, executor)
                : InV2Words(AnyRankPhase1(Op::kGeluErfBackward, gradOutput, self, gradInput,
                                          workspaceSize, executor),
                            "GeluBackwardV2", {Op::kGeluErfBackward});
  });
}

aclnnStatus aclnnGeluBackwardV2(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                                aclrtStream stream) {
  return hostnn::runtime::Entry("aclnnGeluBackwardV2", ACLNN_ERR_INNER, [&] {
    return InV2Words(hostnn::capi::LaunchEither(Op::kGeluErfBackward, Op::kGeluBackward,
                                                workspace, workspace_size, executor, stream),
                     "GeluBackwardV2", {Op::kGeluErfBackward, Op::kGeluBackward});
  });
}

HOSTNN_ENTRY_ALIAS(aclnnGeluV2GetWorkspaceSize)
HOSTNN_ENTRY_ALIAS(aclnnGeluV2)
HOSTNN_ENTRY_ALIAS(aclnnGeluBackwardV2GetWorkspaceSize)
HOSTNN_ENTRY_ALIAS(aclnnGeluBackwardV2)

}  // extern "C"
