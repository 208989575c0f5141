// The text of Executor::KernelPath, shared by the executors: which target runs, how the
// operands reach the kernels, and how each dtype is converted to and from f32. Middle end:
// the conversions' names are the back end's (kernels::ConversionName).
#ifndef HOSTNN_SRC_EXEC_KERNEL_PATH_H_
#define HOSTNN_SRC_EXEC_KERNEL_PATH_H_

#include <string>

#include "hostnn/dtype.h"

namespace hostnn {

// "<target>, <layout>, <conversions of the dtypes>[, stream stores]" (KernelPath's text). The
// layout: "direct" (the kernels read and write the operands in place), "dense, converted to
// f32" (every operand contiguous: each run converted by one call, src/exec/gather.cc), or
// "gathered to f32" (a strided walk).
std::string DescribeKernelPath(const char* target, bool direct, bool dense, const DType* dtypes,
                               int count, bool stream);

}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_KERNEL_PATH_H_
