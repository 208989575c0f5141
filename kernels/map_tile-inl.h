// The Map kind's one tile loop (docs/design.md, "One engine per kind"): n elements of each
// output computed from the same n elements of each input, all of one storage type, in the
// functor's f32 lanes. Every Map kernel is this loop with its functor, its input count
// and its output count (kernels/unary_tiles.cc, eltwise_tiles.cc, glu_tiles.cc), entered
// through MapEntry with the operand arrays of kernels.h's MapFn.
//
// A functor's element function takes one vector of each input and returns the first
// output; a second output comes back through a pointer after the inputs:
//   V Apply(D d, V x)                        the forward operators (Silu, Elu, ...)
//   V Apply(D d, V dy, V x)                  the gradients, Heaviside, AddRelu, Prelu
//   V Apply(D d, V a, V b)                   Glu, SwiGlu (a, b: self's halves)
//   V Apply(D d, V a, V b, V* gelu)          GeGlu: out and outGelu
//   V Apply(D d, V a, V b, V t)              FatreluMul (t: the threshold, broadcast)
//   V Apply(D d, V dy, V a, V b, V* db)      GluBackward, SwiGluGrad: da and db
//   V Apply(D d, V dy, V a, V b, V g, V* db) GeGluBackward (g: the forward's outGelu)
// A functor with parameters is bound to them once per tile (BoundOp, kernels/tile-inl.h).
// A functor may also give ApplyBits<Tag>(d16, x): one 16-bit input to one 16-bit output in
// the storage type's own bits (Relu), which MapTile then runs without converting either way.
//
// The loop takes a pair of vectors per step (a 16-bit pair is one vector of storage,
// converted once, each element put back where it was found), two pairs per iteration where
// at most four operands are live (the functors are long dependency chains) and one where
// more are. The rest runs a vector at a time and the last partial vector through padded
// copies, so an element's result never depends on where a tile boundary falls. With
// kStream the outputs are written with non-temporal stores from the first vector-aligned
// address of out0 on (the elements before it take the vector path), and a fence ends the
// tile. An output may be an input exactly (in place): each step loads before it stores.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_MAP_TILE_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_MAP_TILE_INL_H_
#undef HOSTNN_KERNELS_MAP_TILE_INL_H_
#else
#define HOSTNN_KERNELS_MAP_TILE_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>
#include <type_traits>
#include <utility>

#include "kernels/convert-inl.h"
#include "kernels/params.h"
#include "kernels/tile-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The element function on one vector of each input: *o0 the first output, *o1 the second.
template <size_t kOut, class F, class D, class... V>
HWY_INLINE void MapApply(const F& f, D d, hn::Vec<D>* o0, hn::Vec<D>* o1, V... in) {
  if constexpr (kOut == 1) {
    (void)o1;
    *o0 = f.Apply(d, in...);
  } else {
    *o0 = f.Apply(d, in..., o1);
  }
}

// Vector kHalf of the pair at p (both halves come from one load, which the compiler
// shares between the two calls of a step).
template <int kHalf, class Tag, class D>
HWY_INLINE hn::Vec<D> PairHalf(D d, const typename Tag::T* p) {
  hn::Vec<D> v0, v1;
  LoadPairF32(d, Tag(), p, &v0, &v1);
  return kHalf == 0 ? v0 : v1;
}

// One pair of vectors of every operand at element i.
template <size_t kOut, class Tag, bool kStream, class F, class D, class... In>
HWY_INLINE void MapPair(const F& f, D d, size_t i, typename Tag::T* out0, typename Tag::T* out1,
                        const In*... in) {
  hn::Vec<D> a0, a1, b0, b1;  // the first output's pair, the second's
  MapApply<kOut>(f, d, &a0, &b0, PairHalf<0, Tag>(d, in + i)...);
  MapApply<kOut>(f, d, &a1, &b1, PairHalf<1, Tag>(d, in + i)...);
  StorePairF32<kStream>(d, Tag(), a0, a1, out0 + i);
  if constexpr (kOut == 2) StorePairF32<kStream>(d, Tag(), b0, b1, out1 + i);
}

// Two pairs at element i: every load before the first store, as the functors' long chains
// want.
template <size_t kOut, class Tag, bool kStream, class F, class D, class... In>
HWY_INLINE void MapTwoPairs(const F& f, D d, size_t i, typename Tag::T* out0,
                            typename Tag::T* out1, const In*... in) {
  const size_t N = hn::Lanes(d);
  hn::Vec<D> a0, a1, a2, a3, b0, b1, b2, b3;
  MapApply<kOut>(f, d, &a0, &b0, PairHalf<0, Tag>(d, in + i)...);
  MapApply<kOut>(f, d, &a1, &b1, PairHalf<1, Tag>(d, in + i)...);
  MapApply<kOut>(f, d, &a2, &b2, PairHalf<0, Tag>(d, in + i + 2 * N)...);
  MapApply<kOut>(f, d, &a3, &b3, PairHalf<1, Tag>(d, in + i + 2 * N)...);
  StorePairF32<kStream>(d, Tag(), a0, a1, out0 + i);
  StorePairF32<kStream>(d, Tag(), a2, a3, out0 + i + 2 * N);
  if constexpr (kOut == 2) {
    StorePairF32<kStream>(d, Tag(), b0, b1, out1 + i);
    StorePairF32<kStream>(d, Tag(), b2, b3, out1 + i + 2 * N);
  }
}

// n elements a vector at a time with plain stores, the last partial vector through
// zero-padded copies: the path for short pieces, the heads and tails of MapTile.
template <size_t kOut, class Tag, class F, class D, size_t... I, class... In>
HWY_INLINE void MapVectors(const F& f, D d, size_t n, typename Tag::T* out0,
                           typename Tag::T* out1, std::index_sequence<I...>, const In*... in) {
  using E = typename Tag::T;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    hn::Vec<D> o0, o1;
    MapApply<kOut>(f, d, &o0, &o1, LoadF32(d, Tag(), in + i)...);
    StoreF32(d, Tag(), o0, out0 + i);
    if constexpr (kOut == 2) StoreF32(d, Tag(), o1, out1 + i);
  }
  if (i < n) {
    HWY_ALIGN E pad_in[sizeof...(In)][kMaxLanes];
    HWY_ALIGN E pad_out[2][kMaxLanes];
    (CopyPadded(in + i, n - i, pad_in[I], N), ...);
    hn::Vec<D> o0, o1;
    MapApply<kOut>(f, d, &o0, &o1, LoadF32(d, Tag(), static_cast<const E*>(pad_in[I]))...);
    StoreF32(d, Tag(), o0, pad_out[0]);
    for (size_t j = 0; j < n - i; ++j) out0[i + j] = pad_out[0][j];
    if constexpr (kOut == 2) {
      StoreF32(d, Tag(), o1, pad_out[1]);
      for (size_t j = 0; j < n - i; ++j) out1[i + j] = pad_out[1][j];
    }
  }
}

// One input and one output of a 16-bit storage type, by a functor with ApplyBits (a
// selection whose result is the input's value or a constant: Relu): a vector of 16-bit
// lanes a step, no conversion either way; the last partial vector through padded copies.
template <class F, class Tag, class = void>
struct HasApplyBits : std::false_type {};
template <class F, class Tag>
struct HasApplyBits<F, Tag,
                    std::void_t<decltype(F::template ApplyBits<Tag>(
                        hn::ScalableTag<uint16_t>(), hn::Zero(hn::ScalableTag<uint16_t>())))>>
    : std::true_type {};

template <class F, class Tag, bool kStream>
HWY_INLINE void MapBitsRun(size_t n, uint16_t* out, const uint16_t* in) {
  const hn::ScalableTag<uint16_t> d16;
  const size_t N = hn::Lanes(d16);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    StoreVec<kStream>(F::template ApplyBits<Tag>(d16, hn::LoadU(d16, in + i)), d16, out + i);
  }
  if (i < n) {
    HWY_ALIGN uint16_t pad[2 * kMaxLanes];
    CopyPadded(in + i, n - i, pad, N);
    hn::Store(F::template ApplyBits<Tag>(d16, hn::Load(d16, pad)), d16, pad);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = pad[j];
  }
}
template <class F, class Tag, bool kStream>
HWY_INLINE void MapBitsTile(size_t n, uint16_t* out, const uint16_t* in) {
  const hn::ScalableTag<uint16_t> d16;
  const size_t N = hn::Lanes(d16);
  size_t head = 0;
  if constexpr (kStream) {
    head = StreamHead(out, n, N * sizeof(uint16_t));
    MapBitsRun<F, Tag, false>(head, out, in);
  }
  const size_t body = (n - head) / N * N;
  MapBitsRun<F, Tag, kStream>(body, out + head, in + head);
  MapBitsRun<F, Tag, false>(n - head - body, out + head + body, in + head + body);
#if HWY_ARCH_X86
  if constexpr (kStream) _mm_sfence();
#endif
}

// The tile: kOut outputs (out1 unused, and may be null, when kOut is 1) from the inputs
// `in` (one pointer each, of Tag's storage type), functor F bound to `params`.
template <class F, class Tag, size_t kOut, bool kStream, class... In>
HWY_INLINE void MapTile(const OpParams& params, size_t n, typename Tag::T* out0,
                        typename Tag::T* out1, const In*... in) {
  static_assert(kOut == 1 || kOut == 2, "one or two outputs");
  constexpr size_t kIn = sizeof...(In);
  if constexpr (kIn == 1 && kOut == 1 && sizeof(typename Tag::T) == 2 &&
                HasApplyBits<F, Tag>::value) {
    (void)params;
    (void)out1;
    MapBitsTile<F, Tag, kStream>(n, out0, in...);
    return;
  }
  const hn::ScalableTag<float> d;
  const BoundOp<F, decltype(d)> f(d, params);
  const size_t N = hn::Lanes(d);
  const auto inputs = std::make_index_sequence<kIn>();
  size_t i = 0;
  if constexpr (kStream) {
    // A pair stores N * sizeof(float) bytes per vector.
    i = StreamHead(out0, n, N * sizeof(float));
    MapVectors<kOut, Tag>(f, d, i, out0, out1, inputs, in...);
  }
  if constexpr (kIn + kOut <= 4) {
    for (; i + 4 * N <= n; i += 4 * N) MapTwoPairs<kOut, Tag, kStream>(f, d, i, out0, out1, in...);
  } else {
    for (; i + 2 * N <= n; i += 2 * N) MapPair<kOut, Tag, kStream>(f, d, i, out0, out1, in...);
  }
  MapVectors<kOut, Tag>(f, d, n - i, out0 + i, kOut == 2 ? out1 + i : out1, inputs, (in + i)...);
#if HWY_ARCH_X86
  if constexpr (kStream) _mm_sfence();
#endif
}

// A Map kernel's entry (kernels.h, MapFn): the operand arrays, typed, into the tile. kIn
// inputs in[0..kIn), kOut outputs out[0..kOut) (out[1] not read when kOut is 1).
template <class F, class Tag, size_t kIn, size_t kOut, bool kStream, size_t... I>
HWY_INLINE void MapEntryOf(const void* const* in, void* const* out, size_t n,
                           const OpParams& params, std::index_sequence<I...>) {
  using T = typename Tag::T;
  T* out1 = nullptr;
  if constexpr (kOut == 2) out1 = static_cast<T*>(out[1]);
  MapTile<F, Tag, kOut, kStream>(params, n, static_cast<T*>(out[0]), out1,
                                 static_cast<const T*>(in[I])...);
}
template <class F, class Tag, size_t kIn, size_t kOut, bool kStream>
HWY_INLINE void MapEntry(const void* const* in, void* const* out, size_t n,
                         const OpParams& params) {
  MapEntryOf<F, Tag, kIn, kOut, kStream>(in, out, n, params, std::make_index_sequence<kIn>());
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_MAP_TILE_INL_H_
