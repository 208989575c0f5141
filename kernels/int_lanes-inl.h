// Integer arithmetic on uint64 lanes that wraps as two's complement integers do: the
// integer form of the rule-PromoteIntExact operators (AddRelu) computes in the inputs'
// promoted dtype, of any width up to 64 bits, by computing modulo 2^64 and wrapping the
// result to that width. Wrapping commutes with + and *, so the result is the promoted
// dtype's own. Unsigned lanes: no signed overflow on any target (EMU128 computes in C++).
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_INT_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_INT_LANES_INL_H_
#undef HOSTNN_KERNELS_INT_LANES_INL_H_
#else
#define HOSTNN_KERNELS_INT_LANES_INL_H_
#endif

#include <hwy/highway.h>

#include <cstdint>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// a * b modulo 2^64 (D: uint64 lanes). Highway has a 64-bit lane product on AVX-512 only,
// so it is formed from 32-bit halves everywhere: lo(a) lo(b) + ((hi(a) lo(b) + lo(a) hi(b))
// << 32); hi(a) hi(b) only reaches bits past 64.
template <class D>
HWY_INLINE hn::Vec<D> MulWrap64(D d, hn::Vec<D> a, hn::Vec<D> b) {
#if HWY_TARGET == HWY_SCALAR
  return hn::Set(d, hn::GetLane(a) * hn::GetLane(b));
#else
  (void)d;
  const hn::Repartition<uint32_t, D> d32;
  const hn::Vec<D> lo = hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, b));
  const hn::Vec<D> a_hi_b_lo =
      hn::MulEven(hn::BitCast(d32, hn::ShiftRight<32>(a)), hn::BitCast(d32, b));
  const hn::Vec<D> a_lo_b_hi =
      hn::MulEven(hn::BitCast(d32, a), hn::BitCast(d32, hn::ShiftRight<32>(b)));
  return hn::Add(lo, hn::ShiftLeft<32>(hn::Add(a_hi_b_lo, a_lo_b_hi)));
#endif
}

// x wrapped to a narrower integer, as a two's complement store of its low bits would
// leave it, widened back: ((x + offset) & mask) - offset, with mask = 2^w - 1 and offset
// 2^(w-1) for a signed dtype of w bits (0 for an unsigned one). For w = 64 it is x.
template <class D>
struct WrapToWidth {
  hn::Vec<D> offset, mask;
  WrapToWidth(D d, uint64_t offset_bits, uint64_t mask_bits)
      : offset(hn::Set(d, offset_bits)), mask(hn::Set(d, mask_bits)) {}
  HWY_INLINE hn::Vec<D> operator()(hn::Vec<D> x) const {
    return hn::Sub(hn::And(hn::Add(x, offset), mask), offset);
  }
};

// max(x, 0) for x read as a signed integer.
template <class D>
HWY_INLINE hn::Vec<D> ReluSigned(D d, hn::Vec<D> x) {
  const hn::RebindToSigned<D> di;
  return hn::IfThenZeroElse(hn::RebindMask(d, hn::Lt(hn::BitCast(di, x), hn::Zero(di))), x);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_INT_LANES_INL_H_
