// Register-level conversions between f32 and the narrow types f16 / bf16, with
// round-to-nearest-even on the way down (Highway 1.0.3's bf16 DemoteTo truncates and its
// emulated f16 paths differ per target, so these are written with integer ops and give
// the same bits on every target), and integer storage computed in f32 (the I32 tag).
// Lanes: f32 vectors of D, narrow values as uint16_t.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_CONVERT_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_CONVERT_INL_H_
#undef HOSTNN_KERNELS_CONVERT_INL_H_
#else
#define HOSTNN_KERNELS_CONVERT_INL_H_
#endif

#include <hwy/highway.h>

#include <type_traits>

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
  const auto sub =
      hn::BitCast(di, hn::Mul(hn::ConvertTo(df, mant), hn::Set(df, 5.9604644775390625e-8f)));
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
  const hn::RebindToUnsigned<DF> du;
  // A logical shift moves the sign to bit 15: an arithmetic one would smear it over the
  // upper half, and the saturating demotion to u16 would then turn every negative into 0.
  const auto sign =
      hn::BitCast(di, hn::ShiftRight<16>(hn::And(hn::BitCast(du, bits), hn::Set(du, 0x80000000u))));
  // Normal range: drop 13 mantissa bits with RNE; carries into the exponent are correct.
  // Unsigned arithmetic: the rebias wraps for inputs outside the normal range, which are
  // replaced below anyway.
  const auto ux = hn::BitCast(du, x);
  const auto mant_odd = hn::And(hn::ShiftRight<13>(ux), hn::Set(du, 1u));
  auto unormal = hn::Add(ux, hn::Set(du, 0xC8000FFFu));  // (15-127)<<23 + 0xFFF
  const auto normal = hn::BitCast(di, hn::ShiftRight<13>(hn::Add(unormal, mant_odd)));
  // Subnormal range: let the FPU round by adding 0.5f (its ulp is the f16 subnormal ulp).
  const auto magic = hn::Set(di, 126 << 23);
  const auto sub =
      hn::Sub(hn::BitCast(di, hn::Add(hn::BitCast(df, x), hn::BitCast(df, magic))), magic);
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
  return hn::BitCast(di, hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), quiet_nan, rounded));
}

// f32 -> u32 lanes whose upper 16 bits are the bf16 bits, rounded to nearest even (the
// lower 16 bits are left over): what a pair store keeps, so the shift happens only once
// per two vectors. NaN stays a quiet NaN with its upper payload bits.
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> F32ToBF16High(DF /*df*/, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  const auto rounded = hn::Add(bits, hn::Add(lsb, hn::Set(du, 0x7FFFu)));
  return hn::IfThenElse(hn::RebindMask(du, hn::IsNaN(v)), hn::Or(bits, hn::Set(du, 0x00400000u)),
                        rounded);
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
// Integer storage (INT32), for operators whose document lists integer dtypes and computes
// them in f32, as Ascend's kernels do: loads convert to f32 rounding to nearest even
// (exact up to 2^24), stores truncate toward zero, saturating at the int32 range (the
// functors give no NaN for the finite inputs integers are). A further integer dtype is one
// more tag with its LoadF32 / StoreF32 / pair overloads below.
struct I32 {
  using T = int32_t;
};
// bf16 storage written by a kernel whose inputs are bf16 too: every NaN it produces is a
// bf16 input's NaN (widened, so its low 16 bits are 0) or an arithmetic default NaN, and
// adding the rounding bias (at most 0x8000) to such bits cannot carry out of the low half.
// Rounding then needs no NaN case (3 fewer operations per vector); a NaN keeps its bits
// (an input's signalling NaN stays signalling, as it does in the f32 kernels). Loads are
// BF16's.
struct BF16Direct : BF16 {};

// A 16-bit storage type's own bits, for functors that compute a result from them without
// widening (the selections: ReluOp::ApplyBits): IsNaN, and the bits a NaN input comes back
// as through the f32 path's load and store (FLOAT16: the canonical sign | 0x7E00;
// BFLOAT16 stored by BF16Direct: its own bits; by BF16: made quiet, | 0x0040).
template <class Tag>
struct Bits16 {
  static_assert(sizeof(typename Tag::T) == 2, "a 16-bit storage type");
  static constexpr bool kHalf = std::is_same<Tag, F16>::value;
  static constexpr bool kKeepsNaN = std::is_same<Tag, BF16Direct>::value;
  template <class D16>
  static HWY_INLINE hn::Mask<D16> IsNaN(D16 d16, hn::Vec<D16> x) {
    const hn::RebindToSigned<D16> di16;
    const auto magnitude = hn::BitCast(di16, hn::And(x, hn::Set(d16, 0x7FFF)));
    return hn::RebindMask(d16, hn::Gt(magnitude, hn::Set(di16, kHalf ? 0x7C00 : 0x7F80)));
  }
  template <class D16>
  static HWY_INLINE hn::Vec<D16> StoredNaN(D16 d16, hn::Vec<D16> x) {
    if constexpr (kHalf) return hn::Or(hn::And(x, hn::Set(d16, 0x8000)), hn::Set(d16, 0x7E00));
    if constexpr (!kKeepsNaN) return hn::Or(x, hn::Set(d16, 0x0040));
    (void)d16;
    return x;
  }
};

// Targets with F16C (vcvtph2ps / vcvtps2ph): the hardware conversions are IEEE, with
// round-to-nearest-even on the way down, so they give the integer path's bits for every
// number; NaNs are made canonical (sign | 0x7E00) below to match it there too.
// (Redefined for each target: this header is included once per target.)
#undef HOSTNN_HAVE_F16C
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX2 && !defined(HWY_DISABLE_F16C)
#define HOSTNN_HAVE_F16C 1
#else
#define HOSTNN_HAVE_F16C 0
#endif

#if HOSTNN_HAVE_F16C
// f16 bits from vcvtps2ph: every NaN comes out quiet (bit 9 set), and is made the
// canonical sign | 0x7E00 (Bits16<F16>: its sign, exponent and quiet bit).
template <class D16>
HWY_INLINE hn::Vec<D16> CanonicalF16NaN(D16 d16, hn::Vec<D16> h) {
  return hn::IfThenElse(Bits16<F16>::IsNaN(d16, h), Bits16<F16>::StoredNaN(d16, h), h);
}
#endif

#if HWY_TARGET != HWY_SCALAR
// Adds one f32 vector's lanes, in order, to the two double vectors after it (its lower half
// to lo, its upper half to hi): the softmax sums' f32 groups into their double partials.
template <class D, class DD>
HWY_INLINE void AddPromotedHalves(D d, DD dd, hn::Vec<D> e, hn::Vec<DD>* lo, hn::Vec<DD>* hi) {
  const hn::Half<D> dh;
  (void)d;
  *lo = hn::Add(*lo, hn::PromoteTo(dd, hn::LowerHalf(dh, e)));
  *hi = hn::Add(*hi, hn::PromoteTo(dd, hn::UpperHalf(dh, e)));
}
#endif

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, F32, const float* p) {
  return hn::LoadU(df, p);
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, F16, const uint16_t* p) {
#if HOSTNN_HAVE_F16C
  const hn::Rebind<hwy::float16_t, DF> dh;
  auto v = hn::PromoteTo(df, hn::LoadU(dh, reinterpret_cast<const hwy::float16_t*>(p)));
  // An empty asm hides that v was widened from f16: otherwise LLVM rewrites the
  // operators' IsNaN(v) into a NaN test on the f16 values, which it has no vector
  // instruction for and scalarizes (8x slower f16 kernels).
  asm("" : "+v"(v.raw));
  return v;
#else
  const hn::Rebind<uint16_t, DF> d16;
  const hn::RebindToSigned<DF> di;
  return F16BitsToF32(
      df, hn::BitCast(di, hn::PromoteTo(hn::RebindToUnsigned<DF>(), hn::LoadU(d16, p))));
#endif
}
template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, BF16, const uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  const hn::RebindToSigned<DF> di;
  return BF16BitsToF32(
      df, hn::BitCast(di, hn::PromoteTo(hn::RebindToUnsigned<DF>(), hn::LoadU(d16, p))));
}

template <class DF>
HWY_INLINE hn::Vec<DF> LoadF32(DF df, I32, const int32_t* p) {
  return hn::ConvertTo(df, hn::LoadU(hn::RebindToSigned<DF>(), p));
}

// One vector to memory: a plain store, or with kStream a non-temporal one (p must then
// be aligned to the vector), which skips the read-for-ownership of the line and leaves
// the caches to the inputs. A vector narrower than 16 bytes (a narrowed f32 vector of a
// 128-bit target) is stored plainly: x86's 128-bit Stream writes 16 bytes.
template <bool kStream, class D>
HWY_INLINE void StoreVec(hn::Vec<D> v, D d, hn::TFromD<D>* HWY_RESTRICT p) {
  if (kStream && hn::MaxLanes(d) * sizeof(hn::TFromD<D>) >= 16) {
    hn::Stream(v, d, p);
  } else {
    hn::StoreU(v, d, p);
  }
}

// One f32 vector narrowed to the storage type; kStream as StoreVec (p aligned to the
// narrowed vector).
template <bool kStream = false, class DF>
HWY_INLINE void StoreF32(DF df, F32, hn::Vec<DF> v, float* p) {
  StoreVec<kStream>(v, df, p);
}
template <bool kStream = false, class DF>
HWY_INLINE void StoreF32(DF df, F16, hn::Vec<DF> v, uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
#if HOSTNN_HAVE_F16C
  const hn::Rebind<hwy::float16_t, DF> dh;
  StoreVec<kStream>(CanonicalF16NaN(d16, hn::BitCast(d16, hn::DemoteTo(dh, v))), d16, p);
#else
  StoreVec<kStream>(hn::DemoteTo(d16, F32ToF16Bits(df, v)), d16, p);
#endif
}
template <bool kStream = false, class DF>
HWY_INLINE void StoreF32(DF df, BF16, hn::Vec<DF> v, uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  StoreVec<kStream>(hn::DemoteTo(d16, F32ToBF16Bits(df, v)), d16, p);
}
template <bool kStream = false, class DF>
HWY_INLINE void StoreF32(DF /*df*/, I32, hn::Vec<DF> v, int32_t* p) {
  // Highway's ConvertTo truncates toward zero and saturates out-of-range values.
  const hn::RebindToSigned<DF> di;
  StoreVec<kStream>(hn::ConvertTo(di, v), di, p);
}
// f32 -> u32 lanes whose upper 16 bits are the bf16 bits, rounded to nearest even, for
// values whose NaNs have zero low 16 bits (BF16Direct).
template <class DF>
HWY_INLINE hn::Vec<hn::RebindToUnsigned<DF>> F32ToBF16HighNoNaNCase(DF /*df*/, hn::Vec<DF> v) {
  const hn::RebindToUnsigned<DF> du;
  const auto bits = hn::BitCast(du, v);
  const auto lsb = hn::And(hn::ShiftRight<16>(bits), hn::Set(du, 1u));
  return hn::Add(bits, hn::Add(lsb, hn::Set(du, 0x7FFFu)));
}
template <bool kStream = false, class DF>
HWY_INLINE void StoreF32(DF df, BF16Direct, hn::Vec<DF> v, uint16_t* p) {
  const hn::Rebind<uint16_t, DF> d16;
  const hn::RebindToSigned<DF> di;
  const auto bits = hn::BitCast(di, hn::ShiftRight<16>(F32ToBF16HighNoNaNCase(df, v)));
  StoreVec<kStream>(hn::DemoteTo(d16, bits), d16, p);
}

// Pairs: 2 * Lanes(df) consecutive elements as two f32 vectors, in an order that suits
// the storage type (f32: the two halves; 16-bit types: even and odd elements, split and
// merged with one shift or mask per vector instead of a widening and a narrowing per
// vector). StorePairF32 with the same tag puts every element back where LoadPairF32
// found it, so an elementwise operator applied between them sees each element's own
// inputs and computes exactly what the single-vector path computes.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "pairs assume little-endian lanes");

template <class DF>
HWY_INLINE void LoadPairF32(DF df, F32, const float* p, hn::Vec<DF>* v0, hn::Vec<DF>* v1) {
  *v0 = hn::LoadU(df, p);
  *v1 = hn::LoadU(df, p + hn::Lanes(df));
}
template <bool kStream = false, class DF>
HWY_INLINE void StorePairF32(DF df, F32, hn::Vec<DF> v0, hn::Vec<DF> v1, float* p) {
  StoreVec<kStream>(v0, df, p);
  StoreVec<kStream>(v1, df, p + hn::Lanes(df));
}

// 32-bit integers: like f32, the two halves in order.
template <class DF>
HWY_INLINE void LoadPairF32(DF df, I32, const int32_t* p, hn::Vec<DF>* v0, hn::Vec<DF>* v1) {
  *v0 = LoadF32(df, I32(), p);
  *v1 = LoadF32(df, I32(), p + hn::Lanes(df));
}
template <bool kStream = false, class DF>
HWY_INLINE void StorePairF32(DF df, I32, hn::Vec<DF> v0, hn::Vec<DF> v1, int32_t* p) {
  StoreF32<kStream>(df, I32(), v0, p);
  StoreF32<kStream>(df, I32(), v1, p + hn::Lanes(df));
}

#if HWY_TARGET == HWY_SCALAR
// One lane per vector: a pair is two elements in order, through the single-vector path.
template <class DF, class Tag>
HWY_INLINE void LoadPairF32(DF df, Tag, const uint16_t* p, hn::Vec<DF>* v0, hn::Vec<DF>* v1) {
  *v0 = LoadF32(df, Tag(), p);
  *v1 = LoadF32(df, Tag(), p + 1);
}
template <bool kStream = false, class DF, class Tag>
HWY_INLINE void StorePairF32(DF df, Tag, hn::Vec<DF> v0, hn::Vec<DF> v1, uint16_t* p) {
  StoreF32(df, Tag(), v0, p);
  StoreF32(df, Tag(), v1, p + 1);
}
#else
template <class DF>
HWY_INLINE void LoadPairF32(DF df, BF16, const uint16_t* p, hn::Vec<DF>* even, hn::Vec<DF>* odd) {
  const hn::RebindToUnsigned<DF> du;
  const auto w = hn::LoadU(du, reinterpret_cast<const uint32_t*>(p));
  *even = hn::BitCast(df, hn::ShiftLeft<16>(w));
  *odd = hn::BitCast(df, hn::And(w, hn::Set(du, 0xFFFF0000u)));
}
template <bool kStream = false, class DF>
HWY_INLINE void StorePairF32(DF df, BF16, hn::Vec<DF> even, hn::Vec<DF> odd, uint16_t* p) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Repartition<uint16_t, DF> d16;
  const auto lo = hn::BitCast(d16, hn::ShiftRight<16>(F32ToBF16High(df, even)));
  const auto hi = hn::BitCast(d16, F32ToBF16High(df, odd));
  StoreVec<kStream>(hn::BitCast(du, hn::OddEven(hi, lo)), du, reinterpret_cast<uint32_t*>(p));
}

template <bool kStream = false, class DF>
HWY_INLINE void StorePairF32(DF df, BF16Direct, hn::Vec<DF> even, hn::Vec<DF> odd, uint16_t* p) {
  const hn::RebindToUnsigned<DF> du;
  const hn::Repartition<uint16_t, DF> d16;
  const auto lo = hn::BitCast(d16, hn::ShiftRight<16>(F32ToBF16HighNoNaNCase(df, even)));
  const auto hi = hn::BitCast(d16, F32ToBF16HighNoNaNCase(df, odd));
  StoreVec<kStream>(hn::BitCast(du, hn::OddEven(hi, lo)), du, reinterpret_cast<uint32_t*>(p));
}

template <class DF>
HWY_INLINE void LoadPairF32(DF df, F16, const uint16_t* p, hn::Vec<DF>* v0, hn::Vec<DF>* v1) {
#if HOSTNN_HAVE_F16C
  *v0 = LoadF32(df, F16(), p);
  *v1 = LoadF32(df, F16(), p + hn::Lanes(df));
#else
  const hn::RebindToUnsigned<DF> du;
  const hn::RebindToSigned<DF> di;
  const auto w = hn::LoadU(du, reinterpret_cast<const uint32_t*>(p));
  *v0 = F16BitsToF32(df, hn::BitCast(di, hn::And(w, hn::Set(du, 0xFFFFu))));
  *v1 = F16BitsToF32(df, hn::BitCast(di, hn::ShiftRight<16>(w)));
#endif
}
template <bool kStream = false, class DF>
HWY_INLINE void StorePairF32(DF df, F16, hn::Vec<DF> v0, hn::Vec<DF> v1, uint16_t* p) {
#if HOSTNN_HAVE_F16C
  const hn::Rebind<hwy::float16_t, DF> dh;
  const hn::Repartition<uint16_t, DF> d16;
  const hn::Half<decltype(d16)> d16h;
  const auto h0 = hn::BitCast(d16h, hn::DemoteTo(dh, v0));
  const auto h1 = hn::BitCast(d16h, hn::DemoteTo(dh, v1));
  StoreVec<kStream>(CanonicalF16NaN(d16, hn::Combine(d16, h1, h0)), d16, p);
#else
  const hn::RebindToUnsigned<DF> du;
  const auto lo = hn::BitCast(du, F32ToF16Bits(df, v0));
  const auto hi = hn::BitCast(du, F32ToF16Bits(df, v1));
  StoreVec<kStream>(hn::Or(hn::ShiftLeft<16>(hi), lo), du, reinterpret_cast<uint32_t*>(p));
#endif
}

#endif  // HWY_TARGET == HWY_SCALAR

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_CONVERT_INL_H_
