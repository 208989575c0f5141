// The dtype table: CANN names and element sizes.

#include "hostnn/dtype.h"

namespace hostnn {

const char* DTypeName(DType dtype) {
  switch (dtype) {
    case DType::kUndefined:
      return "DT_UNDEFINED";
    case DType::kFloat32:
      return "FLOAT";
    case DType::kFloat16:
      return "FLOAT16";
    case DType::kInt8:
      return "INT8";
    case DType::kInt32:
      return "INT32";
    case DType::kUInt8:
      return "UINT8";
    case DType::kInt16:
      return "INT16";
    case DType::kUInt16:
      return "UINT16";
    case DType::kUInt32:
      return "UINT32";
    case DType::kInt64:
      return "INT64";
    case DType::kUInt64:
      return "UINT64";
    case DType::kFloat64:
      return "DOUBLE";
    case DType::kBool:
      return "BOOL";
    case DType::kString:
      return "STRING";
    case DType::kComplex64:
      return "COMPLEX64";
    case DType::kComplex128:
      return "COMPLEX128";
    case DType::kBFloat16:
      return "BFLOAT16";
    case DType::kInt4:
      return "INT4";
    case DType::kUInt1:
      return "UINT1";
    case DType::kComplex32:
      return "COMPLEX32";
  }
  return "UNKNOWN";
}

size_t DTypeSize(DType dtype) {
  switch (dtype) {
    case DType::kFloat32:
    case DType::kInt32:
    case DType::kUInt32:
      return 4;
    case DType::kFloat16:
    case DType::kBFloat16:
    case DType::kInt16:
    case DType::kUInt16:
    case DType::kComplex32:
      return 2 * (dtype == DType::kComplex32 ? 2 : 1);
    case DType::kInt8:
    case DType::kUInt8:
    case DType::kBool:
      return 1;
    case DType::kInt64:
    case DType::kUInt64:
    case DType::kFloat64:
    case DType::kComplex64:
      return 8;
    case DType::kComplex128:
      return 16;
    default:
      return 0;
  }
}

bool IsComputeType(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat16 || dtype == DType::kBFloat16;
}

bool IsFloatType(DType dtype) { return IsComputeType(dtype) || dtype == DType::kFloat64; }

bool IsPromotableIntType(DType dtype) {
  return dtype == DType::kBool || dtype == DType::kInt8 || dtype == DType::kUInt8 ||
         dtype == DType::kInt16 || dtype == DType::kInt32 || dtype == DType::kInt64;
}

namespace {
// A dtype's place in the promotion order (higher wins); 0 where PromoteType gives up.
int PromotionRank(DType d) {
  switch (d) {
    case DType::kBool:
      return 1;
    case DType::kUInt8:
    case DType::kInt8:
      return 2;
    case DType::kInt16:
      return 3;
    case DType::kInt32:
      return 4;
    case DType::kInt64:
      return 5;
    case DType::kFloat16:
    case DType::kBFloat16:
      return 6;
    case DType::kFloat32:
      return 7;
    case DType::kFloat64:
      return 8;
    default:
      return 0;
  }
}
}  // namespace

bool IsComplexType(DType d) {
  return d == DType::kComplex32 || d == DType::kComplex64 || d == DType::kComplex128;
}

DType PromoteType(DType a, DType b) {
  if (a == DType::kComplex64 || a == DType::kComplex128 || b == DType::kComplex64 ||
      b == DType::kComplex128) {
    // The complex dtype over the promotion of the real parts.
    const auto part = [](DType d) {
      return d == DType::kComplex64    ? DType::kFloat32
             : d == DType::kComplex128 ? DType::kFloat64
                                       : d;
    };
    const DType p = PromoteType(part(a), part(b));
    if (p == DType::kUndefined) return p;
    return p == DType::kFloat64 ? DType::kComplex128 : DType::kComplex64;
  }
  const int ra = PromotionRank(a), rb = PromotionRank(b);
  if (ra == 0 || rb == 0) return DType::kUndefined;
  if (a == b) return a;
  if (ra != rb) return ra > rb ? a : b;
  // Two different dtypes of one rank: INT8 with UINT8, FLOAT16 with BFLOAT16.
  return ra == 2 ? DType::kInt16 : DType::kFloat32;
}

bool CanCast(DType from, DType to) {
  if (IsComplexType(from)) return IsComplexType(to);
  if (IsFloatType(from)) return IsFloatType(to) || IsComplexType(to);
  if (to == DType::kBool) return from == DType::kBool;
  return true;
}

}  // namespace hostnn
