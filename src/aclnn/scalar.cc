// aclScalar values for the operators' scalar parameters (c_api.h, ScalarArg): the bytes of
// the caller's value read in the scalar's own dtype, exactly, into a double. Converting to
// the kernels' f32 happens once, in the front end (CANN's op_api reads a parameter with
// aclScalar::ToFloat).

#include <cmath>
#include <cstdint>
#include <cstring>

#include "src/aclnn/c_api.h"

namespace hostnn {
namespace capi {
namespace {

template <typename T>
double Load(const unsigned char* bytes) {
  T v;
  std::memcpy(&v, bytes, sizeof(T));
  return static_cast<double>(v);
}

// IEEE binary16: 1 sign, 5 exponent, 10 fraction bits.
double HalfValue(uint16_t h) {
  const int exponent = (h >> 10) & 0x1F;
  const int fraction = h & 0x3FF;
  double v;
  if (exponent == 0x1F) {
    v = fraction != 0 ? std::nan("") : INFINITY;
  } else if (exponent == 0) {
    v = std::ldexp(fraction, -24);
  } else {
    v = std::ldexp(fraction + 1024, exponent - 25);
  }
  return (h & 0x8000) != 0 ? -v : v;
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
    case ACL_FLOAT16: {
      uint16_t h;
      std::memcpy(&h, b, 2);
      r.value = HalfValue(h);
      break;
    }
    case ACL_BF16: {
      uint16_t h;
      std::memcpy(&h, b, 2);
      const uint32_t bits = static_cast<uint32_t>(h) << 16;
      float f;
      std::memcpy(&f, &bits, 4);
      r.value = f;
      break;
    }
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
