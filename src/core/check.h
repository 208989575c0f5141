// Front-end checks shared by every operator: dtype, rank, dims, storage bounds, output
// self-overlap and input/output aliasing. Each returns kInvalid with a message that names
// the operator, the parameter, what was expected and what was given. All index arithmetic
// is overflow-checked in int64.
#ifndef HOSTNN_SRC_CORE_CHECK_H_
#define HOSTNN_SRC_CORE_CHECK_H_

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "hostnn/status.h"
#include "hostnn/tensor.h"

namespace hostnn {
namespace core {

// A view that passed CheckStorage: where its elements are.
struct ViewSpan {
  char* first = nullptr;  // address of element (0, ..., 0)
  int64_t numel = 0;
  std::vector<int64_t> strides;  // effective strides (elements)
  uintptr_t lo = 0, hi = 0;      // byte range [lo, hi) its elements touch (empty if numel 0)
  // Elements behind a null data address: CANN's phase 1 never reads the address, so the
  // view is taken (first null, the range empty) and phase 2 refuses to run on it.
  bool unbound = false;
};

std::string ShapeString(const std::vector<int64_t>& dims);
std::string DTypeList(std::initializer_list<DType> dtypes);

// "<op>: <param> <what>" as an invalid-parameter status.
Status InvalidParam(const char* op, const char* param, const std::string& what);

// `also`: dtypes taken beside `allowed` (an operator's own additions to its rule's list).
Status CheckDType(const char* op, const char* param, DType got,
                  std::initializer_list<DType> allowed, std::initializer_list<DType> also = {});
// Rank <= max_rank, strides / storage counts consistent.
Status CheckRank(const char* op, const char* param, const TensorView& v, int max_rank = kMaxDims);
// Dims >= 0, strides >= 0 (negative strides are refused), offset >= 0, a format that is an
// aclFormat value.
Status CheckDims(const char* op, const char* param, const TensorView& v);
// aclFormat's name of a format value ("ND", "FRACTAL_NZ"; nullptr for no aclFormat value),
// and whether it is one of CANN's private (blocked) formats: NC1HWC0, FRACTAL_Z,
// NC1HWC0_C04, FRACTAL_NZ, NDC1HWC0, FRACTAL_Z_3D.
const char* FormatName(int32_t format);
bool IsPrivateFormat(int32_t format);
// A view in a private format refused (161002): "<op>: <param> format <name>: expected <taken>",
// taken the formats the operator's op_api does take.
Status CheckNotPrivate(const char* op, const char* param, const TensorView& v, const char* taken);
// A double parameter as CANN's ToFloat reads it: rounded to nearest even, past f32's range
// to +-inf or +-FLT_MAX as that rounding says (a plain cast of such a double is undefined).
float ToFloat(double v);
// A double's integer part where it lies in int64's range, 0 otherwise (NaN too): never an
// undefined conversion (an int64 attribute given as another dtype through the C++ API).
int64_t ToInt64(double v);
// Whether two checked views share no byte (a conservative test on their extents: outputs of
// one call that must be apart).
bool SpansApart(const ViewSpan& a, const ViewSpan& b);
// Product of dims without overflow; -1 on overflow.
int64_t CheckedNumel(const std::vector<int64_t>& dims);
// The view lies inside its storage, its data is non-null when it has elements, every
// byte address is representable, and when its data lies in an aclrtMalloc block the whole
// storage lies in that block. Fills *span.
Status CheckStorage(const char* op, const char* param, const TensorView& v, ViewSpan* span);
// No two elements of an output view share memory. Decided exactly at any size (a bounded
// linear Diophantine equation over the index differences); only a view whose equation
// outgrows both searches (many dims of similar strides, each half of the box over 2^18
// index vectors, and the view over 2^20 elements) is refused as undecided. The strides of
// size-1 dims do not matter.
Status CheckNoSelfOverlap(const char* op, const char* param, const TensorView& v,
                          const ViewSpan& span);
// An input may share memory with the output only as the very same view (in place: same
// first element, dtype, and extent and stride of every dim of extent > 1); otherwise no
// byte of an input element may lie in an output element, decided exactly as above.
Status CheckAliasing(const char* op, const char* out_param, const TensorView& out,
                     const ViewSpan& out_span, const char* in_param, const TensorView& in,
                     const ViewSpan& in_span);

}  // namespace core
}  // namespace hostnn

#endif  // HOSTNN_SRC_CORE_CHECK_H_
