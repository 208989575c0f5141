#include "tests/reference/int_reference.h"

#include <cmath>

namespace hostnn {
namespace test {
namespace {

// v modulo 2^w as the w-bit type T reads it.
template <typename T>
int64_t Wrap(uint64_t v) {
  return static_cast<int64_t>(static_cast<T>(v));
}

int64_t WrapTo(DType d, uint64_t v) {
  switch (d) {
    case DType::kInt8:
      return Wrap<int8_t>(v);
    case DType::kUInt8:
      return Wrap<uint8_t>(v);
    case DType::kInt16:
      return Wrap<int16_t>(v);
    case DType::kInt32:
      return Wrap<int32_t>(v);
    default:
      return Wrap<int64_t>(v);
  }
}

// v rounded to `bits` significant bits, to nearest even; above max_finite: infinite. In
// long double, which holds every int64 exactly (64 or more significand bits).
double RoundToBits(int64_t v, int bits, double max_finite) {
  if (v == 0) return 0.0;
  int e = 0;
  const long double m = std::frexp(static_cast<long double>(v), &e);  // 0.5 <= |m| < 1
  const long double r = std::ldexp(std::nearbyint(std::ldexp(m, bits)), e - bits);
  return std::fabs(r) > max_finite ? std::copysign(HUGE_VAL, static_cast<double>(v))
                                   : static_cast<double>(r);
}

}  // namespace

int64_t AddReluIntRef(int64_t self, int64_t other, int64_t alpha, DType promoted) {
  // Each operand in the promoted type first (a widening, exact; alpha wraps), then the
  // arithmetic modulo 2^64 and the wrap to the promoted width.
  const uint64_t a = static_cast<uint64_t>(WrapTo(promoted, static_cast<uint64_t>(self)));
  const uint64_t b = static_cast<uint64_t>(WrapTo(promoted, static_cast<uint64_t>(other)));
  const uint64_t s = static_cast<uint64_t>(WrapTo(promoted, static_cast<uint64_t>(alpha)));
  const int64_t sum = WrapTo(promoted, a + s * b);
  return sum < 0 ? 0 : sum;
}

int64_t WrapIntRef(int64_t v, DType out) { return WrapTo(out, static_cast<uint64_t>(v)); }

double CastIntRef(int64_t v, DType out) {
  switch (out) {
    case DType::kFloat16:
      return RoundToBits(v, 11, 65504.0);
    case DType::kBFloat16:
      return RoundToBits(v, 8, 3.3895313892515355e38);
    default:
      return RoundToBits(v, 24, 3.4028234663852886e38);
  }
}

}  // namespace test
}  // namespace hostnn
