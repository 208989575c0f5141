// Test helpers (see test_util.h). Encodings are done with exact double arithmetic and
// nearbyint (RNE), independently of the library's integer bit tricks.

#include "tests/util/test_util.h"

#include <cfenv>
#include <cmath>
#include <limits>

namespace hostnn {
namespace test {
namespace {

// Encodes |v| (finite, non-negative) into a binary format with `mant_bits` stored
// mantissa bits, exponent bias `bias`, max biased exponent `max_exp` (all ones = inf).
uint32_t EncodeMagnitude(double a, int mant_bits, int bias, int max_exp) {
  const double min_normal = std::ldexp(1.0, 1 - bias);
  if (a < min_normal) {
    // Subnormal: a multiple of 2^(1 - bias - mant_bits); nearbyint rounds to even.
    const double q = std::nearbyint(std::ldexp(a, bias - 1 + mant_bits));
    return static_cast<uint32_t>(q);  // q == 2^mant_bits is the smallest normal: correct bits
  }
  int e = 0;
  const double m = std::frexp(a, &e);  // a = m * 2^e, m in [0.5, 1)
  int exp = e - 1;                     // a = (2m) * 2^exp, 2m in [1, 2)
  double frac = std::nearbyint((2.0 * m - 1.0) * std::ldexp(1.0, mant_bits));
  if (frac == std::ldexp(1.0, mant_bits)) {
    frac = 0;
    ++exp;
  }
  const int biased = exp + bias;
  if (biased >= max_exp) return static_cast<uint32_t>(max_exp) << mant_bits;  // inf
  return (static_cast<uint32_t>(biased) << mant_bits) | static_cast<uint32_t>(frac);
}

double DecodeMagnitude(uint32_t bits, int mant_bits, int bias, int max_exp) {
  const uint32_t exp = bits >> mant_bits;
  const uint32_t frac = bits & ((1u << mant_bits) - 1);
  if (exp == static_cast<uint32_t>(max_exp)) {
    return frac ? std::numeric_limits<double>::quiet_NaN()
                : std::numeric_limits<double>::infinity();
  }
  if (exp == 0) return std::ldexp(static_cast<double>(frac), 1 - bias - mant_bits);
  return std::ldexp(1.0 + std::ldexp(static_cast<double>(frac), -mant_bits),
                    static_cast<int>(exp) - bias);
}

uint16_t Encode16(double v, int mant_bits, int bias, int max_exp, uint16_t qnan) {
  const uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v)) return static_cast<uint16_t>(sign | qnan);
  if (std::isinf(v)) return static_cast<uint16_t>(sign | (max_exp << mant_bits));
  return static_cast<uint16_t>(sign | EncodeMagnitude(std::fabs(v), mant_bits, bias, max_exp));
}

double Decode16(uint16_t h, int mant_bits, int bias, int max_exp) {
  const double mag = DecodeMagnitude(h & 0x7FFF, mant_bits, bias, max_exp);
  return (h & 0x8000) ? -mag : mag;
}

// Monotonic integer image of a 16-bit float encoding (for ULP distance).
int32_t Ordered16(uint16_t h) {
  return (h & 0x8000) ? -static_cast<int32_t>(h & 0x7FFF) : (h & 0x7FFF);
}

}  // namespace

uint16_t DoubleToF16(double v) { return Encode16(v, 10, 15, 31, 0x7E00); }
uint16_t DoubleToBF16(double v) { return Encode16(v, 7, 127, 255, 0x7FC0); }
double F16ToDouble(uint16_t h) { return Decode16(h, 10, 15, 31); }
double BF16ToDouble(uint16_t h) { return Decode16(h, 7, 127, 255); }

double LoadAsDouble(DType dtype, const void* base, int64_t i) {
  switch (dtype) {
    case DType::kFloat32:
      return static_cast<const float*>(base)[i];
    case DType::kFloat64:
      return static_cast<const double*>(base)[i];
    case DType::kFloat16:
      return F16ToDouble(static_cast<const uint16_t*>(base)[i]);
    case DType::kBFloat16:
      return BF16ToDouble(static_cast<const uint16_t*>(base)[i]);
    case DType::kBool:
      return static_cast<const uint8_t*>(base)[i] != 0 ? 1.0 : 0.0;
    case DType::kUInt8:
      return static_cast<const uint8_t*>(base)[i];
    case DType::kInt8:
      return static_cast<const int8_t*>(base)[i];
    case DType::kInt16:
      return static_cast<const int16_t*>(base)[i];
    case DType::kInt32:
      return static_cast<const int32_t*>(base)[i];
    case DType::kInt64:  // rounded to double beyond 2^53
      return static_cast<double>(static_cast<const int64_t*>(base)[i]);
    default:
      return std::numeric_limits<double>::quiet_NaN();
  }
}

void StoreFromDouble(DType dtype, void* base, int64_t i, double v) {
  switch (dtype) {
    case DType::kFloat32:
      static_cast<float*>(base)[i] = static_cast<float>(v);
      break;
    case DType::kFloat64:
      static_cast<double*>(base)[i] = v;
      break;
    case DType::kFloat16:
      static_cast<uint16_t*>(base)[i] = DoubleToF16(v);
      break;
    case DType::kBFloat16:
      static_cast<uint16_t*>(base)[i] = DoubleToBF16(v);
      break;
    // The integer dtypes take integral v within their range (BOOL: 0 or 1).
    case DType::kBool:
    case DType::kUInt8:
      static_cast<uint8_t*>(base)[i] = static_cast<uint8_t>(v);
      break;
    case DType::kInt8:
      static_cast<int8_t*>(base)[i] = static_cast<int8_t>(v);
      break;
    case DType::kInt16:
      static_cast<int16_t*>(base)[i] = static_cast<int16_t>(v);
      break;
    case DType::kInt32:
      static_cast<int32_t*>(base)[i] = static_cast<int32_t>(v);
      break;
    case DType::kInt64:
      static_cast<int64_t*>(base)[i] = static_cast<int64_t>(v);
      break;
    default:
      break;
  }
}

double UlpOf(DType dtype, double v) {
  int mant_bits = 23, min_exp = -126;
  if (dtype == DType::kFloat16) {
    mant_bits = 10;
    min_exp = -14;
  }
  if (dtype == DType::kBFloat16) {
    mant_bits = 7;
    min_exp = -126;
  }
  if (dtype == DType::kFloat64) {
    mant_bits = 52;
    min_exp = -1022;
  }
  const double a = std::fabs(v);
  int e = min_exp;
  if (a != 0 && std::isfinite(a)) {
    std::frexp(a, &e);
    e = std::max(e - 1, min_exp);
  }
  return std::ldexp(1.0, e - mant_bits);
}

double UlpError(DType dtype, double got, double exact) {
  if (std::isnan(got) || std::isnan(exact)) {
    return (std::isnan(got) && std::isnan(exact)) ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (dtype == DType::kFloat16 || dtype == DType::kBFloat16) {
    const uint16_t g = dtype == DType::kFloat16 ? DoubleToF16(got) : DoubleToBF16(got);
    const uint16_t x = dtype == DType::kFloat16 ? DoubleToF16(exact) : DoubleToBF16(exact);
    return std::fabs(static_cast<double>(Ordered16(g) - Ordered16(x)));
  }
  if (std::isinf(got) || std::isinf(exact)) {
    if (got == exact) return 0.0;
    // A finite exact value beyond the type's range rounds to inf: compare as rounded.
    const double rounded =
        dtype == DType::kFloat32 ? static_cast<double>(static_cast<float>(exact)) : exact;
    return rounded == got ? 0.0 : std::numeric_limits<double>::infinity();
  }
  return std::fabs(got - exact) / UlpOf(dtype, exact);
}

double RandomValue(DType dtype, std::mt19937_64& rng, double lo, double hi) {
  std::uniform_real_distribution<double> dist(lo, hi);
  const double v = dist(rng);
  switch (dtype) {
    case DType::kFloat16:
      return F16ToDouble(DoubleToF16(v));
    case DType::kBFloat16:
      return BF16ToDouble(DoubleToBF16(v));
    case DType::kFloat32:
      return static_cast<float>(v);
    default:
      return v;
  }
}

Buffer::Buffer(DType dtype, int64_t n, int64_t guard_bytes)
    : dtype_(dtype), n_(n), esize_(static_cast<int64_t>(DTypeSize(dtype))), guard_(guard_bytes) {
  bytes_.assign(static_cast<size_t>(n_ * esize_ + 2 * guard_), 0xA5);
}

bool Buffer::GuardsIntact() const {
  for (int64_t i = 0; i < guard_; ++i) {
    if (bytes_[i] != 0xA5 || bytes_[bytes_.size() - 1 - i] != 0xA5) return false;
  }
  return true;
}

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s + "]";
}

}  // namespace test
}  // namespace hostnn
