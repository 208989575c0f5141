// The text of Executor::KernelPath, shared by the executors: which target runs, how the
// operands reach the kernels, and how each dtype is converted to and from f32. Middle end:
// the conversions' names are the back end's (kernels::ConversionName).
#ifndef HOSTNN_SRC_EXEC_KERNEL_PATH_H_
#define HOSTNN_SRC_EXEC_KERNEL_PATH_H_

#include <string>

#include "hostnn/dtype.h"

namespace hostnn {

// "<target>, <layout>, <conversions of the dtypes>[, stream stores]" (KernelPath's text).
std::string DescribeKernelPath(const char* target, bool direct, const DType* dtypes, int count,
                               bool stream);

}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_KERNEL_PATH_H_
