// Element types. The numeric values are CANN's aclDataType values, so an aclDataType
// converts to DType by value. Only kFloat32, kFloat16, kBFloat16 (and kFloat64 as a
// LogSoftmaxBackward / HardsigmoidBackward output, and LogSoftmax's self and out) are
// computed; the rest exist so that errors can name what was given.
#ifndef HOSTNN_DTYPE_H_
#define HOSTNN_DTYPE_H_

#include <cstddef>
#include <cstdint>

namespace hostnn {

enum class DType : int32_t {
  kUndefined = -1,
  kFloat32 = 0,
  kFloat16 = 1,
  kInt8 = 2,
  kInt32 = 3,
  kUInt8 = 4,
  kInt16 = 6,
  kUInt16 = 7,
  kUInt32 = 8,
  kInt64 = 9,
  kUInt64 = 10,
  kFloat64 = 11,
  kBool = 12,
  kString = 13,
  kComplex64 = 16,
  kComplex128 = 17,
  kBFloat16 = 27,
  kInt4 = 29,
  kUInt1 = 30,
  kComplex32 = 33,
};

// CANN's name ("FLOAT", "FLOAT16", "BFLOAT16", "DOUBLE", ...); "UNKNOWN(<value>)" style
// names are produced by DTypeName for values outside the enum.
const char* DTypeName(DType dtype);
// Bytes per element; 0 for types hostnn never stores (string, int4, unknown values).
size_t DTypeSize(DType dtype);
// True for the three compute types: FLOAT, FLOAT16, BFLOAT16.
bool IsComputeType(DType dtype);
// True for FLOAT, FLOAT16, BFLOAT16, DOUBLE.
bool IsFloatType(DType dtype);
// True for BOOL, INT8, UINT8, INT16, INT32, INT64: the integer dtypes a promotion takes.
bool IsPromotableIntType(DType dtype);
// True for COMPLEX64 and COMPLEX128 (and COMPLEX32, which hostnn never computes).
bool IsComplexType(DType dtype);
// The dtype two operands are computed in, by PyTorch's promotion rule (CANN's PromoteType):
// a float beats an integer, the wider float or integer wins, FLOAT16 with BFLOAT16 gives
// FLOAT, INT8 with UINT8 gives INT16, BOOL yields to anything; a complex beats a real, as
// the complex dtype whose part is the promotion of the two real parts (COMPLEX64 with
// DOUBLE gives COMPLEX128). kUndefined for a pair it does not cover (unsigned 16-64 bit,
// COMPLEX32, strings).
DType PromoteType(DType a, DType b);
// Whether a value of `from` may be cast to `to` (CANN's CanCast, PyTorch's canCast): never
// a complex to a real dtype, a float to an integer or BOOL, or an integer to BOOL.
bool CanCast(DType from, DType to);

}  // namespace hostnn

#endif  // HOSTNN_DTYPE_H_
