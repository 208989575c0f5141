// hostnn-tiling ops: every operator of the operator list (include/hostnn/op_list.def) with
// its CANN entry points, the parameters of its phase 1 in CANN's order, its dtype rule and
// its scalar parameters' defaults. The list is what libopapi.so and libopapi_nn.so export
// (src/cann/exports.def expands the same list), so this is the full table the README points
// to; aclnnGeluV2 and aclnnGeluBackwardV2, written over two list operators each, close it.
#ifndef HOSTNN_TOOLS_TILING_OPS_TABLE_H_
#define HOSTNN_TOOLS_TILING_OPS_TABLE_H_

#include <cstdio>
#include <string>

#include "hostnn/op.h"

namespace hostnn {
namespace tiling_tool {

inline const char kOpsHelp[] =
    "usage: hostnn-tiling ops\n"
    "\n"
    "Lists every operator: its snake name (for --op), its CANN entry points (exported by\n"
    "libopapi.so and libopapi_nn.so), the parameters of phase 1 in CANN's order, its dtype\n"
    "rule and its scalar parameters with their defaults.\n";

// One line per operator, then the entry points written over two of them.
inline std::string OpsTable() {
  struct Row {
    const char* sig;
    const char* rule;
  };
  static const Row rows[] = {
#define HOSTNN_OP(Name, snake, sig, params, dtypes, ...) {#sig, #dtypes},
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  };
  std::string out;
  char line[512];
  for (Op op : AllOps()) {
    const OpInfo& info = GetOpInfo(op);
    std::string params;
    auto add = [&](const char* p) {
      if (p != nullptr) params += std::string(params.empty() ? "" : ", ") + p;
    };
    // CANN's order: the inputs, the scalars, dim, then the output (none in place);
    // LogSigmoidForward's unused buffer comes last.
    add(info.params[kIn0]);
    add(info.params[kIn1]);
    if (info.signature != Signature::kEltwiseBuffer) add(info.params[kIn2]);
    for (int k = 0; k < info.num_scalars(); ++k) add(info.scalars[k].name);
    if (info.is_reduction) add("dim");
    if (!IsInplace(info.signature)) add(info.params[kOut]);
    if (info.signature == Signature::kEltwiseBuffer) add("buffer");
    std::string scalars;
    for (int k = 0; k < info.num_scalars(); ++k) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), "%s%s=%g", scalars.empty() ? "" : " ", info.scalars[k].name,
                    info.scalars[k].default_value);
      scalars += buf;
    }
    const Row& row = rows[static_cast<int>(op)];
    std::snprintf(line, sizeof(line), "%-22s aclnn%s(%s)  [%s, %s]%s%s\n", info.snake_name,
                  info.name, params.c_str(), row.sig, row.rule, scalars.empty() ? "" : "  ",
                  scalars.c_str());
    out += line;
  }
  out +=
      "gelu_v2                aclnnGeluV2(x, approximate, y): gelu_erf (0) or gelu (1)\n"
      "gelu_backward_v2       aclnnGeluBackwardV2(gradOutput, self, approximate, gradInput): "
      "gelu_erf_backward (\"none\") or gelu_backward (\"tanh\")\n"
      "Each has its aclnn<Name>GetWorkspaceSize (phase 1: the parameters above, then "
      "workspaceSize, executor) and aclnn<Name> (phase 2).\n";
  return out;
}

}  // namespace tiling_tool
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_TILING_OPS_TABLE_H_
