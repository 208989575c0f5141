// RReluWithNoise's tile kernels for every compiled SIMD target, and their dispatch entries
// (GetNoiseTiles): the training tile draws one uniform number per element from the
// counter-based generator Philox4x32-10 (one generator per vector lane, each computing one
// 128-bit block), the evaluation tile is a leaky ReLU. Integer and f32 operations only, no
// fused multiply-add: the numbers, and so the results, have the same bits on every target.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/noise_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include <cstring>

#include "kernels/convert-inl.h"
#include "kernels/kernels.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The high and low 32 bits of a[i] * m for every u32 lane: MulEven gives the products of
// the even lanes as u64, the odd lanes are shifted down into even places for a second one.
// (HWY_SCALAR, g++'s fallback target, has one lane and no wider view of it: the product
// of the two lanes' values.)
template <class DU>
HWY_INLINE void MulHiLo(DU du, hn::Vec<DU> a, hn::Vec<DU> m, hn::Vec<DU>* hi, hn::Vec<DU>* lo) {
#if HWY_TARGET == HWY_SCALAR
  const uint64_t p = uint64_t{hn::GetLane(a)} * hn::GetLane(m);
  *lo = hn::Set(du, static_cast<uint32_t>(p));
  *hi = hn::Set(du, static_cast<uint32_t>(p >> 32));
#else
  const hn::RepartitionToWide<DU> dw;
  const auto even = hn::MulEven(a, m);
  const auto odd = hn::MulEven(hn::BitCast(du, hn::ShiftRight<32>(hn::BitCast(dw, a))), m);
  *lo = hn::OddEven(hn::BitCast(du, hn::ShiftLeft<32>(odd)), hn::BitCast(du, even));
  *hi = hn::OddEven(hn::BitCast(du, odd), hn::BitCast(du, hn::ShiftRight<32>(even)));
#endif
}

// Philox4x32 with 10 rounds (Salmon et al., SC'11) on the counters (c0, c1, c2, c3) of
// every lane, under the key (k0, k1); the result replaces the counters.
template <class DU>
HWY_INLINE void Philox10(DU du, uint32_t k0, uint32_t k1, hn::Vec<DU>* c0, hn::Vec<DU>* c1,
                         hn::Vec<DU>* c2, hn::Vec<DU>* c3) {
  const auto m0 = hn::Set(du, kPhiloxM0), m1 = hn::Set(du, kPhiloxM1);
  for (int round = 0; round < 10; ++round) {
    hn::Vec<DU> hi0, lo0, hi1, lo1;
    MulHiLo(du, *c0, m0, &hi0, &lo0);
    MulHiLo(du, *c2, m1, &hi1, &lo1);
    *c0 = hn::Xor(hn::Xor(hi1, *c1), hn::Set(du, k0));
    *c1 = lo1;
    *c2 = hn::Xor(hn::Xor(hi0, *c3), hn::Set(du, k1));
    *c3 = lo0;
    k0 += kPhiloxW0;
    k1 += kPhiloxW1;
  }
}

// A uniform number's f32 value rounded once to the tile's dtype (exact in f32 again).
template <class DF>
HWY_INLINE hn::Vec<DF> RoundToDType(DF df, hn::Vec<DF> v, NoiseDType dtype) {
  if (dtype == NoiseDType::kF16) return F16BitsToF32(df, F32ToF16Bits(df, v));
  if (dtype == NoiseDType::kBF16) return BF16BitsToF32(df, F32ToBF16Bits(df, v));
  return v;
}

// u[j] = number position + j of the stream, for j < n (the stream: kernels.h, NoiseDraw).
// Each pass computes N blocks of 4 numbers, one block per lane, then lays them out in
// stream order and copies the part the tile needs.
void DrawUniforms(const NoiseDraw& p, uint64_t position, float* HWY_RESTRICT u, size_t n) {
  const hn::ScalableTag<uint32_t> du;
  const hn::Rebind<float, decltype(du)> df;
  const hn::RebindToSigned<decltype(du)> di;
  const size_t N = hn::Lanes(du);
  HWY_ALIGN uint32_t lo[hn::MaxLanes(du)], hi[hn::MaxLanes(du)];
  HWY_ALIGN float words[4][hn::MaxLanes(du)];
  float block_numbers[4 * hn::MaxLanes(du)];
  const auto scale = hn::Set(df, 1.0f / 16777216.0f);  // 2^-24
  const auto lower = hn::Set(df, p.lower), span = hn::Set(df, p.upper - p.lower);
  constexpr uint64_t kBlockMask = (uint64_t{1} << 62) - 1;  // 4 numbers a block: 2^62 blocks
  uint64_t block = position >> 2;
  size_t skip = static_cast<size_t>(position & 3);  // numbers of the first block not used
  for (size_t j = 0; j < n;) {
    for (size_t k = 0; k < N; ++k) {
      const uint64_t b = (block + k) & kBlockMask;  // number k / 4, k wrapping at 2^64
      lo[k] = static_cast<uint32_t>(b);
      hi[k] = static_cast<uint32_t>(b >> 32);
    }
    auto c0 = hn::Load(du, lo), c1 = hn::Load(du, hi), c2 = hn::Zero(du), c3 = hn::Zero(du);
    Philox10(du, p.key0, p.key1, &c0, &c1, &c2, &c3);
    const hn::Vec<decltype(du)> c[4] = {c0, c1, c2, c3};
    for (int w = 0; w < 4; ++w) {
      // The top 24 bits as a number in [0, 1) (exact), scaled to [lower, upper): one
      // rounding for upper - lower, one for the product, one for the sum.
      const auto unit = hn::Mul(hn::ConvertTo(df, hn::BitCast(di, hn::ShiftRight<8>(c[w]))), scale);
      const auto v = RoundToDType(df, hn::Add(lower, hn::Mul(span, unit)), p.dtype);
      hn::Store(v, df, words[w]);
    }
    for (size_t k = 0; k < N; ++k) {
      for (int w = 0; w < 4; ++w) block_numbers[4 * k + w] = words[w][k];
    }
    const size_t take = HWY_MIN(4 * N - skip, n - j);
    std::memcpy(u + j, block_numbers + skip, take * sizeof(float));
    j += take;
    skip = 0;
    block += N;
  }
}

// Training: the slope r[i] = x[i] < 0 ? u[i] : 1 (the op_api's Less: 0, -0 and NaN take
// 1), out[i] = x[i] * r[i] (f32: one rounding, none for a 16-bit product), noise[i] = r[i].
// u holds the tile's uniform numbers on entry (DrawUniforms) and is overwritten by r when
// noise is u.
void NoiseTrainTile(const NoiseDraw& p, uint64_t position, const float* HWY_RESTRICT x,
                    float* HWY_RESTRICT out, float* HWY_RESTRICT noise, size_t n) {
  DrawUniforms(p, position, noise, n);
  const hn::ScalableTag<float> df;
  const size_t N = hn::Lanes(df);
  const auto one = hn::Set(df, 1.0f);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto vx = hn::LoadU(df, x + i);
    const auto r = hn::IfThenElse(hn::Lt(vx, hn::Zero(df)), hn::LoadU(df, noise + i), one);
    hn::StoreU(r, df, noise + i);
    hn::StoreU(hn::Mul(vx, r), df, out + i);
  }
  for (; i < n; ++i) {
    const float r = x[i] < 0.0f ? noise[i] : 1.0f;
    noise[i] = r;
    out[i] = x[i] * r;
  }
}

// Evaluation: out[i] = x[i] > 0 ? x[i] : x[i] * slope (LeakyRelu's selection).
void NoiseEvalTile(float slope, const float* HWY_RESTRICT x, float* HWY_RESTRICT out, size_t n) {
  const hn::ScalableTag<float> df;
  const size_t N = hn::Lanes(df);
  const auto s = hn::Set(df, slope);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto vx = hn::LoadU(df, x + i);
    hn::StoreU(hn::IfThenElse(hn::Gt(vx, hn::Zero(df)), vx, hn::Mul(vx, s)), df, out + i);
  }
  for (; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : x[i] * slope;
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

HWY_EXPORT(DrawUniforms);
HWY_EXPORT(NoiseTrainTile);
HWY_EXPORT(NoiseEvalTile);

NoiseTiles GetNoiseTiles() {
  return {HOSTNN_PICK(DrawUniforms), HOSTNN_PICK(NoiseTrainTile), HOSTNN_PICK(NoiseEvalTile)};
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
