// Register-level conversions between f32 and the narrow types f16 / bf16, with
// round-to-nearest-even on the way down (Highway 1.0.3's bf16 DemoteTo truncates and its
// emulated f16 paths differ per target, so these are written with integer ops and give
// the same bits on every target). Lanes: f32 vectors of D, narrow values as uint16_t.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_CONVERT_INL_H_
#undef HOSTNN_KERNELS_CONVERT_INL_H_
#else
#define HOSTNN_KERNELS_CONVERT_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// f16 bits (zero-extended in u32 lanes) -> f32. Exact for every input, NaN payloads kept.
template <class DF>
HWY_INLINE hn::Vec<DF> F16BitsToF32(DF df, hn::Vec<hn::RebindToSigned<DF>> h) {
  const hn::RebindToSigned<DF> di;
  const auto em = hn::And(h, hn::Set(di, 0x7FFF));
  const auto exp = hn::ShiftRight<10>(em);
  const auto normal = hn::Add(hn::ShiftLeft<13>(em), hn::Set(di, (127 - 15) << 23));
  const auto inf_nan = hn::Or(hn::ShiftLeft<13>(em), hn::Set(di, 0x7F800000));
  // Subnormal (and zero): mantissa * 2^-24, exact in f32.
  const auto mant = hn::And(h, hn::Set(di, 0x3FF));
  const auto sub = hn::BitCast(di, hn::Mul(hn::ConvertTo(df, mant), hn::Set(df, 5.9604644775390625e-8f)));
  auto bits = hn::IfThenElse(hn::Eq(exp, hn::Set(di, 31)), inf_nan, normal);
  bits = hn::IfThenElse(hn::Eq(exp, hn::Zero(di)), sub, bits);
  const auto sign = hn::ShiftLeft<16>(hn::And(h, hn::Set(di, 0x8000)));
  return hn::BitCast(df, hn::Or(bits, sign));
}

// f32 -> f16 bits (in i32 lanes, 0..0xFFFF), round to nearest even; overflow -> inf,
// NaN -> quiet NaN, f16 subnormals rounded exactly.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> F32ToF16Bits(DF df, hn::Vec<DF> v) {
  const hn::RebindToSigned<DF> di;
  const auto bits = hn::BitCast(di, v);
  const auto x = hn::And(bits, hn::Set(di, 0x7FFFFFFF));
  const auto sign = hn::ShiftRight<16>(hn::And(bits, hn::Set(di, static_cast<int32_t>(0x80000000u))));
  // Normal range: drop 13 mantissa bits with RNE; carries into the exponent are correct.
  // Unsigned arithmetic: the rebias wraps for inputs outside the normal range, which are
  // replaced below anyway.
  const hn::RebindToUnsigned<DF> du;
  const auto ux = hn::BitCast(du, x);
  const auto mant_odd = hn::And(hn::ShiftRight<13>(ux), hn::Set(du, 1u));
  auto unormal = hn::Add(ux, hn::Set(du, 0xC8000FFFu));  // (15-127)<<23 + 0xFFF
  const auto normal = hn::BitCast(di, hn::ShiftRight<13>(hn::Add(unormal, mant_odd)));
  // Subnormal range: let the FPU round by adding 0.5f (its ulp is the f16 subnormal ulp).
  const auto magic = hn::Set(di, 126 << 23);
  const auto sub = hn::Sub(hn::BitCast(di, hn::Add(hn::BitCast(df, x), hn::BitCast(df, magic))), magic);
  auto out = hn::IfThenElse(hn::Lt(x, hn::Set(di, 113 << 23)), sub, normal);
  out = hn::IfThenElse(hn::Gt(x, hn::Set(di, 0x477FEFFF)), hn::Set(di, 0x7C00), out);  // >= 65520
  out = hn::IfThenElse(hn::Gt(x, hn::Set(di, 0x7F800000)), hn::Set(di, 0x7E00), out);  // NaN
  return hn::Or(out, sign);
}

// bf16 bits -> f32: exact.
template <class DF>
HWY_INLINE hn::Vec<DF> BF16BitsToF32(DF df, hn::Vec<hn::RebindToSigned<DF>> h) {
  return hn::BitCast(df, hn::ShiftLeft<16>(h));
}

// f32 -> bf16 bits (in i32 lanes), round to nearest even; NaN stays a quiet NaN.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToSigned<DF>> F32ToBF16Bits(DF /*df*/, hn::Vec<DF> v) {
  const hn::RebindToSigned<DF> di;
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  const auto rounded = hn::ShiftRight<16>(hn::Add(bits, hn::Add(lsb, hn::Set(du, 0x7FFFu))));
  const auto quiet_nan = hn::Or(hn::ShiftRight<16>(bits), hn::Set(du, 0x40u));
  const auto is_nan = hn::Gt(hn::And(hn::BitCast(di, v), hn::Set(di, 0x7FFFFFFF)), hn::Set(di, 0x7F800000));
  return hn::IfThenElse(is_nan, hn::BitCast(di, quiet_nan), hn::BitCast(di, rounded));
}

// Storage tags: what a tile's elements are in memory.
struct F32 {
  using T = float;
};
struct F16 {
  using T = uint16_t;
};
struct BF16 {
  using T = uint16_t;
};

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, F32, const float* p) {
  return hn::LoadU(df, p);
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, F16, const uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  const hn::RebindToSigned<DF> di;
  return F16BitsToF32(df, hn::BitCast(di, hn::PromoteTo(hn::RebindToUnsigned<DF>(), hn::LoadU(d16, p))));
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, BF16, const uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  const hn::RebindToSigned<DF> di;
  return BF16BitsToF32(df, hn::BitCast(di, hn::PromoteTo(hn::RebindToUnsigned<DF>(), hn::LoadU(d16, p))));
}

template <class DF>
HWY_INLINE void StoreF32(DF df, F32, hn::Vec<DF> v, float* p) {
  hn::StoreU(v, df, p);
}
template <class DF>
HWY_INLINE void StoreF32(DF df, F16, hn::Vec<DF> v, uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  hn::StoreU(hn::DemoteTo(d16, F32ToF16Bits(df, v)), d16, p);
}
template <class DF>
HWY_INLINE void StoreF32(DF df, BF16, hn::Vec<DF> v, uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  hn::StoreU(hn::DemoteTo(d16, F32ToBF16Bits(df, v)), d16, p);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_CONVERT_INL_H_
