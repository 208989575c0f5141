// Result casts (see result_cast.h). Scalar where an integer is involved (the integer paths
// are CANN-compatibility paths, not the fast ones); float to float through the vector
// conversions, a chunk at a time through f32.

#include "src/exec/result_cast.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/kernels.h"
#include "src/exec/int_to_float.h"

namespace hostnn {
namespace exec {
namespace {

constexpr size_t kChunk = 256;

bool IsInt(DType d) {
  return d == DType::kInt8 || d == DType::kUInt8 || d == DType::kInt16 || d == DType::kInt32 ||
         d == DType::kInt64;
}
// An integer result dtype: those, and the unsigned ones no kernel computes in (Threshold's
// out, where CanCast lets an integer self through), reached only from an integer.
bool IsIntResult(DType d) {
  return IsInt(d) || d == DType::kUInt16 || d == DType::kUInt32 || d == DType::kUInt64;
}

template <typename T>
int64_t Load(const void* p, size_t i) {
  T v;
  std::memcpy(&v, static_cast<const char*>(p) + i * sizeof(T), sizeof(T));
  return static_cast<int64_t>(v);
}

int64_t LoadInt(DType d, const void* p, size_t i) {
  switch (d) {
    case DType::kInt8: return Load<int8_t>(p, i);
    case DType::kUInt8: return Load<uint8_t>(p, i);
    case DType::kInt16: return Load<int16_t>(p, i);
    case DType::kInt32: return Load<int32_t>(p, i);
    default: return Load<int64_t>(p, i);
  }
}

// v's low bits into element i of an integer tensor (little-endian: its first bytes).
void StoreWrapped(DType d, int64_t v, void* p, size_t i) {
  const size_t es = DTypeSize(d);
  const uint64_t u = static_cast<uint64_t>(v);
  std::memcpy(static_cast<char*>(p) + i * es, &u, es);
}

// The range of an integer dtype.
void IntRange(DType d, int64_t* lo, int64_t* hi) {
  switch (d) {
    case DType::kInt8: *lo = INT8_MIN, *hi = INT8_MAX; return;
    case DType::kUInt8: *lo = 0, *hi = UINT8_MAX; return;
    case DType::kInt16: *lo = INT16_MIN, *hi = INT16_MAX; return;
    case DType::kInt32: *lo = INT32_MIN, *hi = INT32_MAX; return;
    default: *lo = INT64_MIN, *hi = INT64_MAX; return;
  }
}

// f to an integer of [lo, hi]: rounded as asked, saturated, NaN to 0.
int64_t ToInt(float f, FloatToInt rounding, int64_t lo, int64_t hi) {
  if (std::isnan(f)) return 0;
  const double r = rounding == FloatToInt::kTruncate ? std::trunc(static_cast<double>(f))
                                                     : std::nearbyint(static_cast<double>(f));
  if (r <= static_cast<double>(lo)) return lo;
  if (r >= static_cast<double>(hi)) return hi;
  return static_cast<int64_t>(r);
}

}  // namespace

ResultCast::ResultCast(DType from, DType to, FloatToInt rounding)
    : from_(from), to_(to), rounding_(rounding) {}

void ResultCast::Run(const void* src, void* dst, size_t n) const {
  if (IsInt(from_) && IsIntResult(to_)) {
    for (size_t i = 0; i < n; ++i) StoreWrapped(to_, LoadInt(from_, src, i), dst, i);
    return;
  }
  if (IsInt(from_) && (to_ == DType::kFloat64 || to_ == DType::kComplex128)) {
    // Rounded once from the integer itself (exact below 2^53), never through f32.
    const size_t step = to_ == DType::kComplex128 ? 2 : 1;
    for (size_t i = 0; i < n; ++i) {
      const double v[2] = {static_cast<double>(LoadInt(from_, src, i)), 0.0};
      std::memcpy(static_cast<char*>(dst) + i * step * sizeof(double), v, step * sizeof(double));
    }
    return;
  }
  if (IsInt(from_) && to_ == DType::kComplex64) {
    for (size_t i = 0; i < n; ++i) {
      const float v[2] = {static_cast<float>(LoadInt(from_, src, i)), 0.0f};
      std::memcpy(static_cast<char*>(dst) + i * sizeof(v), v, sizeof(v));
    }
    return;
  }
  // Everything else passes through f32: exact for a float, and for an integer rounded
  // once to `to`'s precision (int_to_float.h) before the exact narrowing.
  const kernels::ToF32Fn to_f32 =
      IsInt(from_) ? GetIntToF32Via(from_, to_) : kernels::GetToF32(from_);
  const size_t from_bytes = DTypeSize(from_), to_bytes = DTypeSize(to_);
  int64_t lo = 0, hi = 0;
  if (IsInt(to_)) IntRange(to_, &lo, &hi);
  const kernels::FromF32Fn from_f32 = IsInt(to_) ? nullptr : kernels::GetFromF32(to_);
  float chunk[kChunk];
  for (size_t s = 0; s < n; s += kChunk) {
    const size_t m = n - s < kChunk ? n - s : kChunk;
    to_f32(static_cast<const char*>(src) + s * from_bytes, chunk, m);
    char* out = static_cast<char*>(dst) + s * to_bytes;
    if (IsInt(to_)) {
      for (size_t i = 0; i < m; ++i) StoreWrapped(to_, ToInt(chunk[i], rounding_, lo, hi), out, i);
    } else {
      from_f32(chunk, out, m);
    }
  }
}

void IntToInt64(DType from, const void* src, int64_t* dst, size_t n) {
  for (size_t i = 0; i < n; ++i) dst[i] = LoadInt(from, src, i);
}

}  // namespace exec
}  // namespace hostnn
