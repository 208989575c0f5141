// aclScalar values for the operators' scalar parameters (c_api.h, ScalarArg): the bytes of
// the caller's value read in the scalar's own dtype, exactly, into a double. Converting to
// the kernels' f32 happens once, in the front end (CANN's op_api reads a parameter with
// aclScalar::ToFloat).

#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/aclnn/c_api.h"
#include "src/exec/scalar_conversion.h"

namespace hostnn {
namespace capi {
namespace {

template <typename T>
double Load(const unsigned char* bytes) {
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return static_cast<double>(v);
}

}  // namespace

OpScalar ScalarArg(const aclScalar* s) {
  OpScalar r;
  if (s == nullptr) {
    r.null = true;
    return r;
  }
  r.given = true;
  r.dtype = static_cast<DType>(s->dtype);
  const unsigned char* b = s->bytes;
  switch (s->dtype) {
    case ACL_FLOAT:
      r.value = Load<float>(b);
      break;
    case ACL_DOUBLE:
      r.value = Load<double>(b);
      break;
    case ACL_FLOAT16:
    case ACL_BF16:  // widened exactly by the kernels' own conversion
      r.value = exec::ScalarToF32(r.dtype, b);
      break;
    case ACL_BOOL:
      r.value = b[0] != 0 ? 1.0 : 0.0;
      break;
    case ACL_INT8:
      r.value = Load<int8_t>(b);
      break;
    case ACL_UINT8:
      r.value = Load<uint8_t>(b);
      break;
    case ACL_INT16:
      r.value = Load<int16_t>(b);
      break;
    case ACL_UINT16:
      r.value = Load<uint16_t>(b);
      break;
    case ACL_INT32:
      r.value = Load<int32_t>(b);
      break;
    case ACL_UINT32:
      r.value = Load<uint32_t>(b);
      break;
    case ACL_INT64:
      r.value = Load<int64_t>(b);
      std::memcpy(&r.int_value, b, sizeof(r.int_value));  // exact, where the double rounds
      break;
    case ACL_UINT64:
      r.value = Load<uint64_t>(b);
      break;
    default:  // complex: no real value; the front end refuses the dtype
      r.value = std::nan("");
      break;
  }
  return r;
}

}  // namespace capi
}  // namespace hostnn
