// Integer to float casts for promoted inputs (see int_to_float.h). Scalar: the path is
// taken only by integer inputs of the promoting operators, and the rounding is done on the
// integer itself so that it rounds once whatever the width (an INT64 too).

#include "src/exec/int_to_float.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace hostnn {
namespace exec {
namespace {

// v rounded to nearest even to `bits` significant bits, as a float (exact: bits <= 24);
// +-inf where the rounded magnitude exceeds max_finite.
float RoundToBits(int64_t v, int bits, float max_finite) {
  if (v == 0) return 0.0f;
  const bool negative = v < 0;
  // The magnitude as unsigned: -INT64_MIN does not fit an int64_t.
  uint64_t u = negative ? uint64_t{0} - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
  int width = 64;
  while ((u >> (width - 1)) == 0) --width;  // u's significant bits
  if (width > bits) {
    const int shift = width - bits;
    const uint64_t rest = u & ((uint64_t{1} << shift) - 1);
    const uint64_t half = uint64_t{1} << (shift - 1);
    u >>= shift;
    if (rest > half || (rest == half && (u & 1) != 0)) ++u;  // may carry to bits + 1 bits
    // u < 2^25 here, exactly a float; the scale is a power of two.
    const float r = std::ldexp(static_cast<float>(u), shift);
    const float m = r > max_finite ? std::numeric_limits<float>::infinity() : r;
    return negative ? -m : m;
  }
  const float r = static_cast<float>(u);
  const float m = r > max_finite ? std::numeric_limits<float>::infinity() : r;
  return negative ? -m : m;
}

// The largest finite value of the dtype with kBits significant bits.
template <int kBits>
constexpr float MaxFinite() {
  return kBits == 24 ? std::numeric_limits<float>::max()
                     : kBits == 11 ? 65504.0f : 3.3895313892515355e38f;
}

template <typename Int, int kBits>
void IntToF32(const void* src, float* dst, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) {
    Int v;
    std::memcpy(&v, p + i * sizeof(Int), sizeof(Int));
    dst[i] = RoundToBits(static_cast<int64_t>(v), kBits, MaxFinite<kBits>());
  }
}

// BOOL: any nonzero byte is true (1), as CANN and PyTorch read it.
void BoolToF32(const void* src, float* dst, size_t n) {
  const unsigned char* p = static_cast<const unsigned char*>(src);
  for (size_t i = 0; i < n; ++i) dst[i] = p[i] != 0 ? 1.0f : 0.0f;
}

template <int kBits>
kernels::ToF32Fn ForBits(DType src) {
  switch (src) {
    case DType::kBool:
      return &BoolToF32;
    case DType::kUInt8:
      return &IntToF32<uint8_t, kBits>;
    case DType::kInt8:
      return &IntToF32<int8_t, kBits>;
    case DType::kInt16:
      return &IntToF32<int16_t, kBits>;
    case DType::kInt32:
      return &IntToF32<int32_t, kBits>;
    case DType::kInt64:
      return &IntToF32<int64_t, kBits>;
    default:
      return nullptr;
  }
}

}  // namespace

kernels::ToF32Fn GetIntToF32Via(DType src, DType via) {
  switch (via) {
    case DType::kFloat32:
      return ForBits<24>(src);
    case DType::kFloat16:
      return ForBits<11>(src);
    case DType::kBFloat16:
      return ForBits<8>(src);
    default:
      return nullptr;
  }
}

}  // namespace exec
}  // namespace hostnn
