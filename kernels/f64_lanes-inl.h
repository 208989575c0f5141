// Helpers in f64 lanes, for the kernels that compute in double: an exp for non-positive
// arguments (LogSoftmax's DOUBLE rows). Every operation is a lane operation (MulAdd fused on
// AVX2 / AVX3 / NEON / SVE, not on SSE4 / EMU128 / SCALAR), so the bits are the same on
// every target of one family.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_F64_LANES_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_F64_LANES_INL_H_
#undef HOSTNN_KERNELS_F64_LANES_INL_H_
#else
#define HOSTNN_KERNELS_F64_LANES_INL_H_
#endif

#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// exp(v) for v <= 0, f64 lanes (LogSoftmax's exp(x - max)). k = rint(v / ln2) by the
// 1.5 * 2^52 rounding trick, r = v - k ln2 with ln2 in two parts (fdlibm's: k * kLn2Hi is exact for |k| <
// 2^11, so r carries only the rounding of its last subtraction), exp(r) on [-ln2/2, ln2/2]
// by its Taylor polynomial of degree 13 (truncation below 0.05 ULP), and 2^k applied as
// an exponent field of k + 1077 times the polynomial's scale 2^-54: both factors are
// normal down to v = -746 (clamped there: exp(-746) is below half the least subnormal and
// rounds to 0, as -inf must), so the product rounds once, subnormal results included. p(0) = 2^-54
// exactly, so the max's own exp(0) is exactly 1. Max error about 1.5 ULP (Horner roundings). NaN
// lanes give NaN.
template <class DD, class VD = hn::Vec<DD>>
HWY_INLINE VD ExpF64(DD d, VD v) {
  constexpr double kScale = 5.5511151231257827e-17;  // 2^-54
  constexpr double kLn2Hi = 6.93147180369123816490e-01;
  constexpr double kLn2Lo = 1.90821492927058770002e-10;
  const VD vc = hn::Max(v, hn::Set(d, -746.0));
  const VD round = hn::Set(d, 6755399441055744.0 + 1077.0);  // 1.5 * 2^52, then the bias
  const VD t = hn::MulAdd(vc, hn::Set(d, 1.4426950408889634), round);
  const VD k = hn::Sub(t, round);
  VD r = hn::NegMulAdd(k, hn::Set(d, kLn2Hi), vc);
  r = hn::NegMulAdd(k, hn::Set(d, kLn2Lo), r);
  // 1/13!, 1/12!, ..., 1/1!, 1/0!, each times 2^-54 (exact: a power of two).
  static constexpr double kInvFact[14] = {1.6059043836821613e-10,
                                          2.08767569878681e-09,
                                          2.505210838544172e-08,
                                          2.755731922398589e-07,
                                          2.7557319223985893e-06,
                                          2.48015873015873e-05,
                                          1.984126984126984e-04,
                                          1.388888888888889e-03,
                                          8.333333333333333e-03,
                                          4.1666666666666664e-02,
                                          1.6666666666666666e-01,
                                          0.5,
                                          1.0,
                                          1.0};
  VD p = hn::Set(d, kInvFact[0] * kScale);
  for (int i = 1; i < 14; ++i) p = hn::MulAdd(p, r, hn::Set(d, kInvFact[i] * kScale));
  const hn::RebindToSigned<DD> di;
  const VD scale = hn::BitCast(d, hn::ShiftLeft<52>(hn::BitCast(di, t)));
  const VD e = hn::Mul(p, scale);
  return hn::IfThenElse(hn::IsNaN(v), v, e);
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_F64_LANES_INL_H_
