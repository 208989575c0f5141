// OpArgs for the suites that drive every operator as (dy, x) -> out, whatever its slots: a
// forward operator's one input is x; a gradient's are dy and x; a third input
// (LogSigmoidBackward's buffer, checked and never read) is x too.
#ifndef HOSTNN_TESTS_UTIL_OP_ARGS_H_
#define HOSTNN_TESTS_UTIL_OP_ARGS_H_

#include <cstdint>

#include "hostnn/ops.h"

namespace hostnn {
namespace test {

inline OpArgs GradOrForwardArgs(Op op, const TensorView* dy, const TensorView* x,
                                const TensorView* out, int64_t dim = 0) {
  OpArgs a;
  a.op = op;
  if (GetOpInfo(op).is_forward) {
    a.in[0] = x;
  } else {
    a.in[0] = dy;
    a.in[1] = x;
    if (GetOpInfo(op).num_in() > 2) a.in[2] = x;
  }
  a.out[0] = out;
  a.dim = dim;
  return a;
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_OP_ARGS_H_
