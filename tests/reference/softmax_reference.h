// Double-precision references of the softmax reductions (the operators whose signature
// reduces along dim: LogSoftmax, Softmax and their gradients) and their SPEC §4
// tolerances, keyed by operator, so that a test walks every reduction of the list with
// one code. Rows are taken along dim of a dense row-major tensor of `shape` (dim
// normalised; a 0-d tensor is one row of one element).
#ifndef HOSTNN_TESTS_REFERENCE_SOFTMAX_REFERENCE_H_
#define HOSTNN_TESTS_REFERENCE_SOFTMAX_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/op.h"

namespace hostnn {
namespace test {

// Softmax along one row of n values (PyTorch CPU semantics: a row holding NaN or +inf is
// NaN throughout, a row of -inf's is NaN). out[i] = exp(x[i] - max) / sum; *top = the
// row's largest result (1 / sum), for the tolerance.
void SoftmaxRowRef(const double* x, int64_t n, double* out, double* top);

// A forward reduction's exact results along dim and, per element, what its tolerance
// needs (`aux`): LogSoftmax x - max, Softmax its row's largest result.
void ReductionForwardRef(Op op, const std::vector<double>& x, const std::vector<int64_t>& shape,
                         int64_t dim, std::vector<double>* exact, std::vector<double>* aux);
// SPEC §4 for a forward reduction's result (see the Tolerance of op_list.def):
//   LogSoftmax FLOAT: 2^-21 (|x - max| + 1) + 4 ULP (forward_reference.h);
//   Softmax FLOAT: 4 ULP(exact) + 2^-21 (the row's largest result);
//   FLOAT16 / BFLOAT16: rounded once, or within the FLOAT bound plus half a narrow ULP.
bool ReductionForwardWithinTolerance(Op op, DType dtype, double got, double exact, double aux);

// A backward reduction's exact results from dy and y along dim and `aux`: LogSoftmax the
// row's sum |dy|, Softmax the row's sum |dy y|.
void ReductionBackwardRef(Op op, const std::vector<double>& dy, const std::vector<double>& y,
                          const std::vector<int64_t>& shape, int64_t dim,
                          std::vector<double>* exact, std::vector<double>* aux);
//   LogSoftmaxBackward FLOAT: 2^-21 (|dy| + exp(y) sum|dy|) (reference.h);
//   SoftmaxBackward FLOAT: 2^-21 (|dy| |y| + |y| sum|dy y|) + 4 ULP(exact);
//   FLOAT16 / BFLOAT16: rounded once, or within the FLOAT bound plus half a narrow ULP.
bool ReductionBackwardWithinTolerance(Op op, DType dtype, double got, double exact, double dy,
                                      double y, double aux);

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_SOFTMAX_REFERENCE_H_
