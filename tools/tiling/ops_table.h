// hostnn-tiling ops: every operator of the operator list (include/hostnn/op_list.def) with
// its CANN entry points, the parameters of its phase 1 in CANN's order, its dtype rule and
// its scalar parameters' defaults. The list is what libopapi.so and libopapi_nn.so export
// (src/cann/exports.def expands the same list), so this is the full table the README points
// to; aclnnGeluV2 and aclnnGeluBackwardV2, written over two list operators each, close it.
#ifndef HOSTNN_TOOLS_TILING_OPS_TABLE_H_
#define HOSTNN_TOOLS_TILING_OPS_TABLE_H_

#include <cstdio>
#include <string>
#include <vector>

#include "hostnn/op.h"
#include "src/aclnn/signatures.h"

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
    const char* args;  // phase 1's C parameters in CANN's order (src/aclnn/signatures.h)
  };
#define HOSTNN_TABLE_STR_(...) #__VA_ARGS__
#define HOSTNN_TABLE_STR(...) HOSTNN_TABLE_STR_(__VA_ARGS__)
  static const Row rows[] = {
#define HOSTNN_OP(Name, snake, sig, kind, ins, outs, dtypes, ...) \
  {#sig, #dtypes, HOSTNN_TABLE_STR(HOSTNN_SIG_ARGS_##sig)},
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  };
#undef HOSTNN_TABLE_STR
#undef HOSTNN_TABLE_STR_
  std::string out;
  char line[512];
  for (Op op : AllOps()) {
    const OpInfo& info = GetOpInfo(op);
    const Row& row = rows[static_cast<int>(op)];
    // The signature's argument names (in0, in1, in2, out, out1, s0.., f0, dim), each replaced by
    // the operator's CANN name: its operands, its numbers in order, its flag.
    std::string params;
    std::vector<const char*> numbers, ints, doubles;
    const char* flag = "f0";
    for (int k = 0; k < info.num_scalars(); ++k) {
      if (info.scalars[k].kind == ScalarKind::kFlag) {
        flag = info.scalars[k].name;
      } else {
        numbers.push_back(info.scalars[k].name);
        // The attributes by their C type: int64_t (i0, i1), double (d0, ...).
        (info.scalars[k].kind == ScalarKind::kInt ? ints : doubles).push_back(info.scalars[k].name);
      }
    }
    std::string args = row.args;
    for (size_t pos = 0; pos < args.size();) {
      size_t end = args.find(',', pos);
      if (end == std::string::npos) end = args.size();
      std::string a = args.substr(pos, end - pos);
      a.erase(0, a.find_first_not_of(' '));
      const char* name = a.c_str();
      if (a.size() == 3 && a[0] == 'i' && a[1] == 'n' && a[2] >= '0' && a[2] < '0' + kMaxIn) {
        name = info.in_names[a[2] - '0'];  // in0 .. in5
      }
      if (a == "out") name = info.out_names[0];
      if (a == "out1") name = info.out_names[1];
      if (a == "out2") name = info.out_names[2];
      if (a == "out3") name = info.out_names[3];
      if (a == "f0") name = flag;
      if (a == "ia0") name = "normalizedShape";  // the one aclIntArray parameter (LayerNorm's)
      if (a == "ba0") name = "outputMask";       // the one aclBoolArray (LayerNormBackward's)
      const bool indexed = a.size() == 2 && a[1] >= '0' && a[1] <= '9';
      const size_t k = indexed ? static_cast<size_t>(a[1] - '0') : 0;
      if (indexed && a[0] == 's') name = k < numbers.size() ? numbers[k] : a.c_str();
      if (indexed && a[0] == 'i') name = k < ints.size() ? ints[k] : a.c_str();
      if (indexed && a[0] == 'd') name = k < doubles.size() ? doubles[k] : a.c_str();
      params += std::string(params.empty() ? "" : ", ") + name;
      pos = end + 1;
    }
    std::string scalars;
    for (int k = 0; k < info.num_scalars(); ++k) {
      char buf[96];
      std::snprintf(buf, sizeof(buf), "%s%s=%g", scalars.empty() ? "" : " ", info.scalars[k].name,
                    info.scalars[k].default_value);
      scalars += buf;
    }
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
