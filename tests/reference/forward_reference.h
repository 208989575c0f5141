// Double-precision references for the forward operators (every forward elementwise
// operator of the list: ForwardEltwiseRef; LogSoftmax's rows) and their SPEC §4
// tolerances. Computed in double (long double for the LogSoftmax sums) from the same,
// already rounded, inputs as the kernels see. Nothing here calls hostnn's kernels.
#ifndef HOSTNN_TESTS_REFERENCE_FORWARD_REFERENCE_H_
#define HOSTNN_TESTS_REFERENCE_FORWARD_REFERENCE_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/op.h"

namespace hostnn {
namespace test {

// Elementwise forward references: <Name>Ref(x) for each forward elementwise operator of
// the list, in forward_reference.cc, with the SPEC's limits (Silu(-inf) = -0, Silu(+inf)
// = +inf; LogSigmoid(-inf) = -inf, LogSigmoid(+inf) = 0; Hardsigmoid(+-inf) = 1, 0; NaN
// in gives NaN out), reached through ForwardEltwiseRef.
// The reference of any forward elementwise operator of the list (NaN for the others);
// an operator with scalar parameters takes `scalars` (its list order), or without them its
// defaults (op_list.def). A parameterised operator's reference is <Name>Ref(x, scalars).
double ForwardEltwiseRef(Op op, double x);
double ForwardEltwiseRef(Op op, double x, const double* scalars);
// The scalar parameters of `op` at their defaults (op_list.def), as double.
const double* DefaultScalars(Op op);

// LogSoftmax along one row of n values (PyTorch CPU semantics: a row holding NaN or
// +inf is NaN throughout, a row of -inf's is NaN). out[i] = (x[i] - max) - log(sum);
// x_minus_max[i] = x[i] - max (for the tolerance).
void LogSoftmaxRowRef(const double* x, int64_t n, double* out, double* x_minus_max);

// SPEC §4, forward elementwise: FLOAT within 4 ULP or 2^-21 absolute; FLOAT16 / BFLOAT16
// rounded once (reference.h: ClassifyRounding16 is not kWrong). NaN must meet NaN.
bool ForwardEltwiseWithinTolerance(DType dtype, double got, double exact);
// SPEC §4, forward LogSoftmax: FLOAT |err| <= 2^-21 (|x - max| + 1) + 4 ULP(exact);
// FLOAT16 / BFLOAT16 rounded once, or within that FLOAT bound plus half a narrow ULP (the
// FLOAT bound rounded: reference.h, WithinF32BoundRounded16), down to the smallest
// results (a row's sum of 1 + 1e-30 gives its max -1e-30). Infinite exact values must
// match.
bool LogSoftmaxForwardWithinTolerance(DType dtype, double got, double exact, double x_minus_max);
// The bound itself (absolute; for FLOAT16 / BFLOAT16 the FLOAT bound plus half a narrow
// ULP at exact), for reports.
double LogSoftmaxForwardBound(DType dtype, double exact, double x_minus_max);

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_REFERENCE_FORWARD_REFERENCE_H_
