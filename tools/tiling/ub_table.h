// hostnn-tiling ub's table: each elementwise operator's UB buffers (from the operator list)
// and its UB divisors, single and double buffered, with how they arise. Header-only so the
// golden tests pin the tool's text; it formats and never plans.
#ifndef HOSTNN_TOOLS_TILING_UB_TABLE_H_
#define HOSTNN_TOOLS_TILING_UB_TABLE_H_

#include <cstdio>
#include <string>
#include <utility>

#include "hostnn/op.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling_tool {

// The lines of one operator; empty for a reduction (its plan budgets the UB per template).
inline std::string UbTable(Op op) {
  const tiling::EltwiseUbSpec* spec = tiling::FindEltwiseUbSpec(op);
  if (spec == nullptr) return "";
  std::string queues, temps;
  for (const std::string& q : spec->queues) queues += (queues.empty() ? "" : ", ") + q;
  for (const std::string& t : spec->f32_temps) temps += (temps.empty() ? "" : ", ") + t;
  std::string text = std::string(GetOpInfo(op).snake_name) + ": queues " + queues +
                     (temps.empty() ? "; no f32 temps" : "; f32 temps " + temps) + "\n";
  for (const auto& dtype : {std::make_pair("f32", 4), std::make_pair("f16, bf16", 2)}) {
    const tiling::UbDivisor d = tiling::MakeUbDivisor(*spec, dtype.second);
    char line[256];
    std::snprintf(line, sizeof(line), "  %-10s single %2lld = %s\n  %-10s double %2lld = %s\n",
                  dtype.first, static_cast<long long>(d.single_buffered), d.single_why.c_str(), "",
                  static_cast<long long>(d.double_buffered), d.double_why.c_str());
    text += line;
  }
  return text;
}

}  // namespace tiling_tool
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_TILING_UB_TABLE_H_
