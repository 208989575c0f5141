// Widening to f32 / narrowing from f32 (RNE; INT32 stores truncate) for every compiled SIMD
// target and their dispatch tables (GetToF32, GetFromF32); the register-level conversions
// live in convert-inl.h.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/conversions.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
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
HWY_EXPORT(ToF32_I32);
HWY_EXPORT(FromF32_I32);

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
    case DType::kInt32:
      return HOSTNN_PICK(FromF32_I32);
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
