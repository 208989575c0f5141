// Widening to f32 / narrowing from f32 (RNE; INT32 stores truncate), casts through a
// narrower dtype and widening to double, for every compiled SIMD target, and their dispatch
// tables (GetToF32, GetFromF32, GetToF32Via, GetToF64); the register-level conversions live
// in convert-inl.h.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conversions.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"
#include "kernels/kernels.h"
#include "kernels/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// ---- conversions ---------------------------------------------------------------------

template <class Tag>
HWY_INLINE void ToF32Impl(const void* src_v, float* dst, size_t n) {
  using T = typename Tag::T;
  const T* src = static_cast<const T*>(src_v);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) hn::StoreU(LoadF32(d, Tag(), src + i), d, dst + i);
  if (i < n) {
    HWY_ALIGN T b[kMaxLanes];
    HWY_ALIGN float o[kMaxLanes];
    CopyPadded(src + i, n - i, b, N);
    hn::Store(LoadF32(d, Tag(), b), d, o);
    for (size_t j = 0; j < n - i; ++j) dst[i + j] = o[j];
  }
}

template <class Tag>
HWY_INLINE void FromF32Impl(const float* src, void* dst_v, size_t n) {
  using T = typename Tag::T;
  T* dst = static_cast<T*>(dst_v);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) StoreF32(d, Tag(), hn::LoadU(d, src + i), dst + i);
  if (i < n) {
    HWY_ALIGN float b[kMaxLanes];
    HWY_ALIGN T o[kMaxLanes];
    CopyPadded(src + i, n - i, b, N);
    StoreF32(d, Tag(), hn::Load(d, b), o);
    for (size_t j = 0; j < n - i; ++j) dst[i + j] = o[j];
  }
}

// How this target converts 16-bit storage, and its name (for "what ran" reports).
const char* F16Conversion() { return HOSTNN_HAVE_F16C ? "f16 F16C" : "f16 integer RNE"; }
const char* BF16Conversion() { return "bf16 integer RNE"; }
const char* TargetHere() { return hwy::TargetName(HWY_TARGET); }

void ToF32_F32(const void* s, float* d, size_t n) { ToF32Impl<F32>(s, d, n); }
void ToF32_F16(const void* s, float* d, size_t n) { ToF32Impl<F16>(s, d, n); }
void ToF32_BF16(const void* s, float* d, size_t n) { ToF32Impl<BF16>(s, d, n); }
void FromF32_F32(const float* s, void* d, size_t n) { FromF32Impl<F32>(s, d, n); }
void FromF32_F16(const float* s, void* d, size_t n) { FromF32Impl<F16>(s, d, n); }
void FromF32_BF16(const float* s, void* d, size_t n) { FromF32Impl<BF16>(s, d, n); }
void ToF32_I32(const void* s, float* d, size_t n) { ToF32Impl<I32>(s, d, n); }
void FromF32_I32(const float* s, void* d, size_t n) { FromF32Impl<I32>(s, d, n); }
void FromF32_F64(const float* s, void* d, size_t n) {
  double* out = static_cast<double*>(d);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(s[i]);
}
// A real value as a complex one (real, +0), each part in the complex dtype's float.
void FromF32_C64(const float* s, void* d, size_t n) {
  float* out = static_cast<float*>(d);
  for (size_t i = 0; i < n; ++i) out[2 * i] = s[i], out[2 * i + 1] = 0.0f;
}
void FromF32_C128(const float* s, void* d, size_t n) {
  double* out = static_cast<double*>(d);
  for (size_t i = 0; i < n; ++i) out[2 * i] = static_cast<double>(s[i]), out[2 * i + 1] = 0.0;
}

// ---- casts through a narrower dtype, and to double ----------------------------------------

// Elements per pass through the stack buffers below.
constexpr size_t kCastChunk = 256;

// DOUBLE -> f32 rounded to odd: truncated toward zero, the last bit set where anything was
// dropped. Rounding that to a type of at most 22 bits (f16, bf16) to nearest even gives
// the direct cast's bits, which rounding to nearest twice would not.
HWY_INLINE float RoundToOddF32(double v) {
  float f = static_cast<float>(v);
  if (std::isnan(v) || static_cast<double>(f) == v) return f;
  if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof(bits));
  bits |= 1u;
  std::memcpy(&f, &bits, sizeof(bits));
  return f;
}

// src (one of the tags, or DOUBLE) cast to Via (F16 or BF16) and widened back to f32.
template <class Via>
HWY_INLINE void RoundTrip(float* v, size_t n) {
  HWY_ALIGN typename Via::T narrow[kCastChunk];
  for (size_t i = 0; i < n; i += kCastChunk) {
    const size_t m = std::min(kCastChunk, n - i);
    FromF32Impl<Via>(v + i, narrow, m);
    ToF32Impl<Via>(narrow, v + i, m);
  }
}

template <class Src, class Via>
HWY_INLINE void ToF32ViaImpl(const void* src, float* dst, size_t n) {
  ToF32Impl<Src>(src, dst, n);
  RoundTrip<Via>(dst, n);
}

template <class Via>
HWY_INLINE void F64ToF32ViaImpl(const void* src_v, float* dst, size_t n) {
  const double* src = static_cast<const double*>(src_v);
  for (size_t i = 0; i < n; ++i) dst[i] = RoundToOddF32(src[i]);
  RoundTrip<Via>(dst, n);
}

void F64ToF32(const void* s, float* d, size_t n) {
  const double* src = static_cast<const double*>(s);
  for (size_t i = 0; i < n; ++i) d[i] = static_cast<float>(src[i]);  // one RNE rounding
}
void F64ToF32ViaF16(const void* s, float* d, size_t n) { F64ToF32ViaImpl<F16>(s, d, n); }
void F64ToF32ViaBF16(const void* s, float* d, size_t n) { F64ToF32ViaImpl<BF16>(s, d, n); }
void F32ToF32ViaF16(const void* s, float* d, size_t n) { ToF32ViaImpl<F32, F16>(s, d, n); }
void F32ToF32ViaBF16(const void* s, float* d, size_t n) { ToF32ViaImpl<F32, BF16>(s, d, n); }
void BF16ToF32ViaF16(const void* s, float* d, size_t n) { ToF32ViaImpl<BF16, F16>(s, d, n); }
void F16ToF32ViaBF16(const void* s, float* d, size_t n) { ToF32ViaImpl<F16, BF16>(s, d, n); }

template <class Src>
HWY_INLINE void ToF64Impl(const void* src_v, double* dst, size_t n) {
  const typename Src::T* src = static_cast<const typename Src::T*>(src_v);
  HWY_ALIGN float wide[kCastChunk];
  for (size_t i = 0; i < n; i += kCastChunk) {
    const size_t m = std::min(kCastChunk, n - i);
    ToF32Impl<Src>(src + i, wide, m);
    for (size_t j = 0; j < m; ++j) dst[i + j] = static_cast<double>(wide[j]);
  }
}
void ToF64_F32(const void* s, double* d, size_t n) { ToF64Impl<F32>(s, d, n); }
void ToF64_F16(const void* s, double* d, size_t n) { ToF64Impl<F16>(s, d, n); }
void ToF64_BF16(const void* s, double* d, size_t n) { ToF64Impl<BF16>(s, d, n); }
void ToF64_F64(const void* s, double* d, size_t n) { std::memcpy(d, s, n * sizeof(double)); }

// ---- copies --------------------------------------------------------------------------

// bytes from src to dst, dst's whole vectors with non-temporal stores (four a step, so
// that each store fills what the loads brought), its unaligned head and tail plainly.
void StreamCopy(const void* src_v, void* dst_v, size_t bytes) {
  const hn::ScalableTag<uint8_t> d;
  const size_t N = hn::Lanes(d);
  const uint8_t* src = static_cast<const uint8_t*>(src_v);
  uint8_t* dst = static_cast<uint8_t*>(dst_v);
  const size_t head = std::min(bytes, (N - reinterpret_cast<uintptr_t>(dst) % N) % N);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 4 * N <= bytes; i += 4 * N) {
    const auto a = hn::LoadU(d, src + i), b = hn::LoadU(d, src + i + N);
    const auto c = hn::LoadU(d, src + i + 2 * N), e = hn::LoadU(d, src + i + 3 * N);
    hn::Stream(a, d, dst + i);
    hn::Stream(b, d, dst + i + N);
    hn::Stream(c, d, dst + i + 2 * N);
    hn::Stream(e, d, dst + i + 3 * N);
  }
  for (; i + N <= bytes; i += N) hn::Stream(hn::LoadU(d, src + i), d, dst + i);
  std::memcpy(dst + i, src + i, bytes - i);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(F16Conversion);
HWY_EXPORT(BF16Conversion);
HWY_EXPORT(TargetHere);
HWY_EXPORT(ToF32_F32);
HWY_EXPORT(ToF32_F16);
HWY_EXPORT(ToF32_BF16);
HWY_EXPORT(FromF32_F32);
HWY_EXPORT(FromF32_F16);
HWY_EXPORT(FromF32_BF16);
HWY_EXPORT(FromF32_F64);
HWY_EXPORT(FromF32_C64);
HWY_EXPORT(FromF32_C128);
HWY_EXPORT(ToF32_I32);
HWY_EXPORT(FromF32_I32);
HWY_EXPORT(F64ToF32);
HWY_EXPORT(F64ToF32ViaF16);
HWY_EXPORT(F64ToF32ViaBF16);
HWY_EXPORT(F32ToF32ViaF16);
HWY_EXPORT(F32ToF32ViaBF16);
HWY_EXPORT(BF16ToF32ViaF16);
HWY_EXPORT(F16ToF32ViaBF16);
HWY_EXPORT(ToF64_F32);
HWY_EXPORT(ToF64_F16);
HWY_EXPORT(ToF64_BF16);
HWY_EXPORT(ToF64_F64);
HWY_EXPORT(StreamCopy);

CopyFn GetStreamCopy() { return HOSTNN_PICK(StreamCopy); }

void StoreFence() { hwy::FlushStream(); }

ToF32Fn GetToF32(DType src) {
  switch (src) {
    case DType::kFloat32:
      return HOSTNN_PICK(ToF32_F32);
    case DType::kFloat16:
      return HOSTNN_PICK(ToF32_F16);
    case DType::kBFloat16:
      return HOSTNN_PICK(ToF32_BF16);
    case DType::kInt32:
      return HOSTNN_PICK(ToF32_I32);
    default:
      return nullptr;
  }
}

FromF32Fn GetFromF32(DType dst) {
  switch (dst) {
    case DType::kFloat32:
      return HOSTNN_PICK(FromF32_F32);
    case DType::kFloat16:
      return HOSTNN_PICK(FromF32_F16);
    case DType::kBFloat16:
      return HOSTNN_PICK(FromF32_BF16);
    case DType::kFloat64:
      return HOSTNN_PICK(FromF32_F64);
    case DType::kComplex64:
      return HOSTNN_PICK(FromF32_C64);
    case DType::kComplex128:
      return HOSTNN_PICK(FromF32_C128);
    case DType::kInt32:
      return HOSTNN_PICK(FromF32_I32);
    default:
      return nullptr;
  }
}

ToF32Fn GetToF32Via(DType src, DType via) {
  if (src == DType::kFloat64) {
    switch (via) {
      case DType::kFloat32:
        return HOSTNN_PICK(F64ToF32);
      case DType::kFloat16:
        return HOSTNN_PICK(F64ToF32ViaF16);
      case DType::kBFloat16:
        return HOSTNN_PICK(F64ToF32ViaBF16);
      default:
        return nullptr;
    }
  }
  if (!IsComputeType(src) || !IsComputeType(via)) return nullptr;
  // Widening to f32, and f16 or bf16 to itself, rounds nothing.
  if (via == DType::kFloat32 || via == src) return GetToF32(src);
  if (via == DType::kFloat16) {
    return src == DType::kFloat32 ? HOSTNN_PICK(F32ToF32ViaF16) : HOSTNN_PICK(BF16ToF32ViaF16);
  }
  return src == DType::kFloat32 ? HOSTNN_PICK(F32ToF32ViaBF16) : HOSTNN_PICK(F16ToF32ViaBF16);
}

ToF64Fn GetToF64(DType src) {
  switch (src) {
    case DType::kFloat32:
      return HOSTNN_PICK(ToF64_F32);
    case DType::kFloat16:
      return HOSTNN_PICK(ToF64_F16);
    case DType::kBFloat16:
      return HOSTNN_PICK(ToF64_BF16);
    case DType::kFloat64:
      return HOSTNN_PICK(ToF64_F64);
    default:
      return nullptr;
  }
}

const char* ConversionName(DType dtype) {
  if (dtype == DType::kFloat16) return HOSTNN_PICK(F16Conversion)();
  if (dtype == DType::kBFloat16) return HOSTNN_PICK(BF16Conversion)();
  if (dtype == DType::kInt32) return "i32 to f32 RNE, truncated back";
  return "none";
}

const char* ChosenTargetName() { return HOSTNN_PICK(TargetHere)(); }

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
