// Tile loops for every compiled SIMD target and the dispatch tables over them. One source
// for all targets (foreach_target); the functors live in eltwise_ops-inl.h, conversions in
// convert-inl.h. Tails run through the same vector code on a padded copy, so an element's
// result never depends on where a tile boundary falls.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/kernels.h"
#include "kernels/convert-inl.h"
#include "kernels/eltwise_ops-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

struct F64 {
  using T = double;
};

template <class DF>
HWY_INLINE void StoreF32(DF df, F64, hn::Vec<DF> v, double* p) {
  HWY_ALIGN float tmp[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, df, tmp);
  for (size_t i = 0; i < hn::Lanes(df); ++i) p[i] = static_cast<double>(tmp[i]);
}

constexpr size_t kMaxLanes = HWY_MAX_BYTES / sizeof(float);

// Copies n < lanes elements into a zero-padded buffer of one vector.
template <typename T>
HWY_INLINE void CopyPadded(const T* src, size_t n, T* dst, size_t lanes) {
  size_t i = 0;
  for (; i < n; ++i) dst[i] = src[i];
  for (; i < lanes; ++i) dst[i] = T(0);
}

// ---- elementwise ---------------------------------------------------------------------

template <class Op, class Tag>
HWY_INLINE void EltwiseTile(const void* dy_v, const void* x_v, void* out_v, size_t n) {
  using T = typename Tag::T;
  const T* HWY_RESTRICT dy = static_cast<const T*>(dy_v);
  const T* HWY_RESTRICT x = static_cast<const T*>(x_v);
  T* out = static_cast<T*>(out_v);  // may alias an input exactly
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t i = 0;
  for (; i + 2 * N <= n; i += 2 * N) {
    const auto r0 = Op::Apply(d, LoadF32(d, Tag(), dy + i), LoadF32(d, Tag(), x + i));
    const auto r1 = Op::Apply(d, LoadF32(d, Tag(), dy + i + N), LoadF32(d, Tag(), x + i + N));
    StoreF32(d, Tag(), r0, out + i);
    StoreF32(d, Tag(), r1, out + i + N);
  }
  for (; i + N <= n; i += N) {
    StoreF32(d, Tag(), Op::Apply(d, LoadF32(d, Tag(), dy + i), LoadF32(d, Tag(), x + i)), out + i);
  }
  if (i < n) {
    HWY_ALIGN T bdy[kMaxLanes], bx[kMaxLanes], bout[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(x + i, n - i, bx, N);
    StoreF32(d, Tag(), Op::Apply(d, LoadF32(d, Tag(), bdy), LoadF32(d, Tag(), bx)), bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

#define HOSTNN_EW_false(Name)                                                        \
  void Name##_F32(const void* dy, const void* x, void* out, size_t n) {            \
    EltwiseTile<Name##Op, F32>(dy, x, out, n);                                       \
  }                                                                                  \
  void Name##_F16(const void* dy, const void* x, void* out, size_t n) {            \
    EltwiseTile<Name##Op, F16>(dy, x, out, n);                                       \
  }                                                                                  \
  void Name##_BF16(const void* dy, const void* x, void* out, size_t n) {           \
    EltwiseTile<Name##Op, BF16>(dy, x, out, n);                                      \
  }
#define HOSTNN_EW_true(Name)
#define HOSTNN_OP(Name, snake, is_reduction) HOSTNN_EW_##is_reduction(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_EW_false
#undef HOSTNN_EW_true

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

void ToF32_F32(const void* s, float* d, size_t n) { ToF32Impl<F32>(s, d, n); }
void ToF32_F16(const void* s, float* d, size_t n) { ToF32Impl<F16>(s, d, n); }
void ToF32_BF16(const void* s, float* d, size_t n) { ToF32Impl<BF16>(s, d, n); }
void FromF32_F32(const float* s, void* d, size_t n) { FromF32Impl<F32>(s, d, n); }
void FromF32_F16(const float* s, void* d, size_t n) { FromF32Impl<F16>(s, d, n); }
void FromF32_BF16(const float* s, void* d, size_t n) { FromF32Impl<BF16>(s, d, n); }
void FromF32_F64(const float* s, void* d, size_t n) {
  double* out = static_cast<double*>(d);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<double>(s[i]);
}

// ---- LogSoftmaxBackward --------------------------------------------------------------

template <class Tag>
HWY_INLINE void RowSumImpl(const void* dy_v, size_t n, double* partials) {
  using T = typename Tag::T;
  const T* dy = static_cast<const T*>(dy_v);
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> dfh;  // as many f32 lanes as f64 lanes
  constexpr size_t kNd = HWY_LANES(double);
  static_assert(kRowPartials % kNd == 0, "partials must be a multiple of the f64 lanes");
  constexpr size_t kAcc = kRowPartials / kNd;
  hn::Vec<decltype(dd)> acc[kAcc];
  for (size_t k = 0; k < kAcc; ++k) acc[k] = hn::LoadU(dd, partials + k * kNd);
  size_t i = 0;
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kAcc; ++k) {
      acc[k] = hn::Add(acc[k], hn::PromoteTo(dd, LoadF32(dfh, Tag(), dy + i + k * kNd)));
    }
  }
  if (i < n) {  // zero-padded last group: adding +0 leaves a partial's value unchanged
    HWY_ALIGN T pad[kRowPartials];
    CopyPadded(dy + i, n - i, pad, kRowPartials);
    for (size_t k = 0; k < kAcc; ++k) {
      acc[k] = hn::Add(acc[k], hn::PromoteTo(dd, LoadF32(dfh, Tag(), pad + k * kNd)));
    }
  }
  for (size_t k = 0; k < kAcc; ++k) hn::StoreU(acc[k], dd, partials + k * kNd);
}

template <class Tag>
HWY_INLINE void ColSumImpl(const void* dy_v, double* acc, size_t w) {
  using T = typename Tag::T;
  const T* dy = static_cast<const T*>(dy_v);
  const hn::ScalableTag<double> dd;
  const hn::Rebind<float, decltype(dd)> dfh;
  const size_t N = hn::Lanes(dd);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    hn::StoreU(hn::Add(hn::LoadU(dd, acc + c), hn::PromoteTo(dd, LoadF32(dfh, Tag(), dy + c))), dd,
               acc + c);
  }
  for (; c < w; ++c) {  // the same IEEE double addition, one lane at a time
    HWY_ALIGN T pad[kMaxLanes];
    CopyPadded(dy + c, 1, pad, N);
    HWY_ALIGN double v[kMaxLanes];
    hn::Store(hn::PromoteTo(dd, LoadF32(dfh, Tag(), pad)), dd, v);
    acc[c] += v[0];
  }
}

template <class InTag, class OutTag>
HWY_INLINE void RowOutImpl(const void* dy_v, const void* y_v, float sum, void* out_v, size_t n) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const TI* dy = static_cast<const TI*>(dy_v);
  const TI* y = static_cast<const TI*>(y_v);
  TO* out = static_cast<TO*>(out_v);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  const auto s = hn::Set(d, sum);
  size_t i = 0;
  for (; i + N <= n; i += N) {
    const auto e = ExpAnyRange(d, LoadF32(d, InTag(), y + i));
    StoreF32(d, OutTag(), hn::NegMulAdd(e, s, LoadF32(d, InTag(), dy + i)), out + i);
  }
  if (i < n) {
    HWY_ALIGN TI bdy[kMaxLanes], by[kMaxLanes];
    HWY_ALIGN TO bout[kMaxLanes];
    CopyPadded(dy + i, n - i, bdy, N);
    CopyPadded(y + i, n - i, by, N);
    const auto e = ExpAnyRange(d, LoadF32(d, InTag(), by));
    StoreF32(d, OutTag(), hn::NegMulAdd(e, s, LoadF32(d, InTag(), bdy)), bout);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = bout[j];
  }
}

template <class InTag, class OutTag>
HWY_INLINE void ColsOutImpl(const void* dy_v, const void* y_v, const float* sums, void* out_v,
                            size_t w) {
  using TI = typename InTag::T;
  using TO = typename OutTag::T;
  const TI* dy = static_cast<const TI*>(dy_v);
  const TI* y = static_cast<const TI*>(y_v);
  TO* out = static_cast<TO*>(out_v);
  const hn::ScalableTag<float> d;
  const size_t N = hn::Lanes(d);
  size_t c = 0;
  for (; c + N <= w; c += N) {
    const auto e = ExpAnyRange(d, LoadF32(d, InTag(), y + c));
    StoreF32(d, OutTag(), hn::NegMulAdd(e, hn::LoadU(d, sums + c), LoadF32(d, InTag(), dy + c)),
             out + c);
  }
  if (c < w) {
    HWY_ALIGN TI bdy[kMaxLanes], by[kMaxLanes];
    HWY_ALIGN float bs[kMaxLanes];
    HWY_ALIGN TO bout[kMaxLanes];
    CopyPadded(dy + c, w - c, bdy, N);
    CopyPadded(y + c, w - c, by, N);
    CopyPadded(sums + c, w - c, bs, N);
    const auto e = ExpAnyRange(d, LoadF32(d, InTag(), by));
    StoreF32(d, OutTag(), hn::NegMulAdd(e, hn::Load(d, bs), LoadF32(d, InTag(), bdy)), bout);
    for (size_t j = 0; j < w - c; ++j) out[c + j] = bout[j];
  }
}

#define HOSTNN_LSM_IN(IN)                                                                   \
  void RowSum_##IN(const void* dy, size_t n, double* p) { RowSumImpl<IN>(dy, n, p); }      \
  void ColSum_##IN(const void* dy, double* acc, size_t w) { ColSumImpl<IN>(dy, acc, w); }
#define HOSTNN_LSM_IN_OUT(IN, OUT)                                                          \
  void RowOut_##IN##_##OUT(const void* dy, const void* y, float s, void* o, size_t n) {    \
    RowOutImpl<IN, OUT>(dy, y, s, o, n);                                                    \
  }                                                                                         \
  void ColsOut_##IN##_##OUT(const void* dy, const void* y, const float* s, void* o,        \
                            size_t w) {                                                     \
    ColsOutImpl<IN, OUT>(dy, y, s, o, w);                                                   \
  }
#define HOSTNN_LSM_ALL(IN)      \
  HOSTNN_LSM_IN(IN)             \
  HOSTNN_LSM_IN_OUT(IN, F32)    \
  HOSTNN_LSM_IN_OUT(IN, F16)    \
  HOSTNN_LSM_IN_OUT(IN, BF16)   \
  HOSTNN_LSM_IN_OUT(IN, F64)
HOSTNN_LSM_ALL(F32)
HOSTNN_LSM_ALL(F16)
HOSTNN_LSM_ALL(BF16)

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace hostnn {
namespace kernels {

// Resolves a dispatch table to the chosen target's entry, initialising the choice first
// (entry 0 of a table is Highway's lazy initialiser, which we bypass).
template <typename Fn>
static Fn Pick(Fn const* table) {
#if (HWY_TARGETS & (HWY_TARGETS - 1)) == 0
  return table[0];
#else
  hwy::ChosenTarget& chosen = hwy::GetChosenTarget();
  if (!chosen.IsInitialized()) chosen.Update(hwy::SupportedTargets());
  return table[chosen.GetIndex()];
#endif
}
#define HOSTNN_PICK(Fn) Pick(HWY_DISPATCH_TABLE(Fn))

#define HOSTNN_EW_false(Name) \
  HWY_EXPORT(Name##_F32);     \
  HWY_EXPORT(Name##_F16);     \
  HWY_EXPORT(Name##_BF16);
#define HOSTNN_EW_true(Name)
#define HOSTNN_OP(Name, snake, is_reduction) HOSTNN_EW_##is_reduction(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
#undef HOSTNN_EW_false

EltwiseFn GetEltwise(Op op, DType dtype) {
  switch (op) {
#define HOSTNN_EW_false(Name)                                            \
  case Op::k##Name:                                                      \
    if (dtype == DType::kFloat32) return HOSTNN_PICK(Name##_F32);        \
    if (dtype == DType::kFloat16) return HOSTNN_PICK(Name##_F16);        \
    if (dtype == DType::kBFloat16) return HOSTNN_PICK(Name##_BF16);      \
    return nullptr;
#define HOSTNN_OP(Name, snake, is_reduction) HOSTNN_EW_##is_reduction(Name)
#include "hostnn/op_list.def"
#undef HOSTNN_OP
    default:
      return nullptr;
  }
}

HWY_EXPORT(ToF32_F32);
HWY_EXPORT(ToF32_F16);
HWY_EXPORT(ToF32_BF16);
HWY_EXPORT(FromF32_F32);
HWY_EXPORT(FromF32_F16);
HWY_EXPORT(FromF32_BF16);
HWY_EXPORT(FromF32_F64);

ToF32Fn GetToF32(DType src) {
  switch (src) {
    case DType::kFloat32: return HOSTNN_PICK(ToF32_F32);
    case DType::kFloat16: return HOSTNN_PICK(ToF32_F16);
    case DType::kBFloat16: return HOSTNN_PICK(ToF32_BF16);
    default: return nullptr;
  }
}

FromF32Fn GetFromF32(DType dst) {
  switch (dst) {
    case DType::kFloat32: return HOSTNN_PICK(FromF32_F32);
    case DType::kFloat16: return HOSTNN_PICK(FromF32_F16);
    case DType::kBFloat16: return HOSTNN_PICK(FromF32_BF16);
    case DType::kFloat64: return HOSTNN_PICK(FromF32_F64);
    default: return nullptr;
  }
}

#define HOSTNN_LSM_EXPORT_IN_OUT(IN, OUT) \
  HWY_EXPORT(RowOut_##IN##_##OUT);        \
  HWY_EXPORT(ColsOut_##IN##_##OUT);
#define HOSTNN_LSM_EXPORT(IN)           \
  HWY_EXPORT(RowSum_##IN);              \
  HWY_EXPORT(ColSum_##IN);              \
  HOSTNN_LSM_EXPORT_IN_OUT(IN, F32)     \
  HOSTNN_LSM_EXPORT_IN_OUT(IN, F16)     \
  HOSTNN_LSM_EXPORT_IN_OUT(IN, BF16)    \
  HOSTNN_LSM_EXPORT_IN_OUT(IN, F64)
HOSTNN_LSM_EXPORT(F32)
HOSTNN_LSM_EXPORT(F16)
HOSTNN_LSM_EXPORT(BF16)

#define HOSTNN_LSM_CASE_OUT(IN, OUT)                                              \
  {                                                                               \
    LogSoftmaxKernels k;                                                          \
    k.row_sum = HOSTNN_PICK(RowSum_##IN);                                         \
    k.col_sum = HOSTNN_PICK(ColSum_##IN);                                         \
    k.row_out = HOSTNN_PICK(RowOut_##IN##_##OUT);                                 \
    k.cols_out = HOSTNN_PICK(ColsOut_##IN##_##OUT);                               \
    return k;                                                                     \
  }
#define HOSTNN_LSM_CASE_IN(IN)                                                    \
  switch (out) {                                                                  \
    case DType::kFloat32: HOSTNN_LSM_CASE_OUT(IN, F32)                            \
    case DType::kFloat16: HOSTNN_LSM_CASE_OUT(IN, F16)                            \
    case DType::kBFloat16: HOSTNN_LSM_CASE_OUT(IN, BF16)                          \
    case DType::kFloat64: HOSTNN_LSM_CASE_OUT(IN, F64)                            \
    default: return LogSoftmaxKernels{};                                          \
  }

LogSoftmaxKernels GetLogSoftmax(DType in, DType out) {
  switch (in) {
    case DType::kFloat32: HOSTNN_LSM_CASE_IN(F32)
    case DType::kFloat16: HOSTNN_LSM_CASE_IN(F16)
    case DType::kBFloat16: HOSTNN_LSM_CASE_IN(BF16)
    default: return LogSoftmaxKernels{};
  }
}

std::vector<int64_t> AvailableTargets() { return hwy::SupportedAndGeneratedTargets(); }

void ForceTarget(int64_t target) {
  hwy::SetSupportedTargetsForTest(target);
  hwy::GetChosenTarget().Update(hwy::SupportedTargets());
}

std::string TargetName(int64_t target) { return hwy::TargetName(target); }

std::string ActiveTargetName() {
  const int64_t supported = hwy::SupportedTargets() & HWY_TARGETS;
  // The best compiled target the CPU supports: the lowest set bit.
  return supported ? hwy::TargetName(supported & -supported) : "none";
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
