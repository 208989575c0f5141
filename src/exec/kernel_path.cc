// Executor::KernelPath's text (see kernel_path.h).

#include "src/exec/kernel_path.h"

#include <string>

#include "kernels/kernels.h"

namespace hostnn {

std::string DescribeKernelPath(const char* target, bool direct, bool dense, const DType* dtypes,
                               int count, bool stream) {
  std::string s = std::string(target) + (direct  ? ", direct"
                                         : dense ? ", dense, converted to f32"
                                                 : ", gathered to f32");
  for (int k = 0; k < count; ++k) {
    bool seen = false;
    for (int j = 0; j < k; ++j) seen = seen || dtypes[j] == dtypes[k];
    if (seen || dtypes[k] == DType::kFloat32) continue;
    if (k < count - 1 && IsPromotableIntType(dtypes[k]) && IsFloatType(dtypes[count - 1])) {
      s += std::string(", ") + DTypeName(dtypes[k]) + " cast to the compute dtype (RNE)";
    } else {
      s += std::string(", ") + kernels::ConversionName(dtypes[k]);
    }
  }
  if (stream) s += ", stream stores";
  return s;
}

}  // namespace hostnn
