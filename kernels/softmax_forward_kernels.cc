// The softmax forward kernels, LogSoftmax's and Softmax's (row max, row sums of exp in
// double, row output, the ARA block), for every compiled SIMD target, and their dispatch
// table (GetSoftmaxForward). Sums are combined in a fixed order (see SoftmaxForwardKernels
// in kernels.h), never in an order that depends on the SIMD width, the tiling or the
// threads; the two row functions share every pass but the output's
// (softmax_exp-inl.h's rules).

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax_forward_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/kernels.h"
#include "kernels/softmax_col-inl.h"
#include "kernels/softmax_row-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// bf16 out from bf16 in: every NaN produced is an input's or inf - inf's default NaN, whose
// low 16 bits are 0 (BF16Direct's rounding needs no NaN case).
// The passes every row function shares.
#define HOSTNN_SMF_STATS(DT, TAG)                                                          \
  void SmfRowMax_##DT(const void* x, size_t n, float* max) { RowMaxImpl<TAG>(x, n, max); } \
  void SmfRowSumExp_##DT(const void* x, size_t n, float max, double* p) {                  \
    RowSumExpImpl<TAG, false>(x, n, max, p);                                               \
  }                                                                                        \
  void SmfRowSumExpOffMax_##DT(const void* x, size_t n, float max, double* p) {            \
    RowSumExpImpl<TAG, true>(x, n, max, p);                                                \
  }
// The passes that write: FN names the row function (Lsm: LogSoftmax, Sm: Softmax).
#define HOSTNN_SMF_OUT(FN, RULE, DT, TAG)                                                        \
  void FN##RowWhole_##DT(const void* x, size_t n, void* out) {                                   \
    RowWholeImpl<RULE, TAG>(x, n, out);                                                          \
  }                                                                                              \
  void FN##RowOut_##DT(const void* x, float max, double s, void* out, size_t n) {                \
    RowOutImpl<RULE, TAG, false>(x, max, s, out, n);                                             \
  }                                                                                              \
  void FN##RowOut_##DT##_Stream(const void* x, float max, double s, void* out, size_t n) {       \
    RowOutImpl<RULE, TAG, true>(x, max, s, out, n);                                              \
  }                                                                                              \
  void FN##AraBlock_##DT(const void* x, void* out, size_t r, size_t stride, size_t w, float* max, \
                         double* acc) {                                                          \
    AraBlockImpl<RULE, TAG, false>(x, out, r, stride, w, max, acc);                              \
  }                                                                                              \
  void FN##AraBlock_##DT##_Stream(const void* x, void* out, size_t r, size_t stride, size_t w,   \
                                  float* max, double* acc) {                                     \
    AraBlockImpl<RULE, TAG, true>(x, out, r, stride, w, max, acc);                               \
  }                                                                                              \
  void FN##AraStats_##DT(const void* x, size_t r, size_t stride, size_t w, float* max,           \
                         double* acc, float* s) {                                                \
    AraStatsImpl<RULE, TAG>(x, r, stride, w, max, acc, s);                                       \
  }                                                                                              \
  void FN##ColsOut_##DT(const void* x, const float* max, const float* s, void* out, size_t w) {  \
    ColsOutImpl<RULE, TAG, false>(x, max, s, out, w);                                            \
  }                                                                                              \
  void FN##ColsOut_##DT##_Stream(const void* x, const float* max, const float* s, void* out,     \
                                 size_t w) {                                                     \
    ColsOutImpl<RULE, TAG, true>(x, max, s, out, w);                                             \
  }
#define HOSTNN_SMF_ONE(DT, TAG)                  \
  HOSTNN_SMF_STATS(DT, TAG)                      \
  HOSTNN_SMF_OUT(Lsm, LogSoftmaxRule, DT, TAG)   \
  HOSTNN_SMF_OUT(Sm, SoftmaxRule, DT, TAG)
HOSTNN_SMF_ONE(F32, F32)
HOSTNN_SMF_ONE(F16, F16)
HOSTNN_SMF_ONE(BF16, BF16Direct)
#undef HOSTNN_SMF_ONE
#undef HOSTNN_SMF_OUT
#undef HOSTNN_SMF_STATS

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_SMF_EXPORT_OUT(FN, DT)     \
  HWY_EXPORT(FN##RowWhole_##DT);          \
  HWY_EXPORT(FN##RowOut_##DT);            \
  HWY_EXPORT(FN##RowOut_##DT##_Stream);   \
  HWY_EXPORT(FN##AraBlock_##DT);          \
  HWY_EXPORT(FN##AraBlock_##DT##_Stream); \
  HWY_EXPORT(FN##AraStats_##DT);          \
  HWY_EXPORT(FN##ColsOut_##DT);           \
  HWY_EXPORT(FN##ColsOut_##DT##_Stream);
#define HOSTNN_SMF_EXPORT(DT)          \
  HWY_EXPORT(SmfRowMax_##DT);          \
  HWY_EXPORT(SmfRowSumExp_##DT);       \
  HWY_EXPORT(SmfRowSumExpOffMax_##DT); \
  HOSTNN_SMF_EXPORT_OUT(Lsm, DT)       \
  HOSTNN_SMF_EXPORT_OUT(Sm, DT)
HOSTNN_SMF_EXPORT(F32)
HOSTNN_SMF_EXPORT(F16)
HOSTNN_SMF_EXPORT(BF16)
#undef HOSTNN_SMF_EXPORT
#undef HOSTNN_SMF_EXPORT_OUT

SoftmaxForwardKernels GetSoftmaxForward(RowFunction fn, DType in, DType out, StoreMode mode) {
  const bool stream = mode == StoreMode::kStream;
  SoftmaxForwardKernels k{};
  if (in != out) return k;
  k.fn = fn;
#define HOSTNN_SMF_CASE_OUT(FN, DT)                                                            \
  k.row_whole = HOSTNN_PICK(FN##RowWhole_##DT);                                                \
  k.row_out = stream ? HOSTNN_PICK(FN##RowOut_##DT##_Stream) : HOSTNN_PICK(FN##RowOut_##DT);   \
  k.ara_block =                                                                                \
      stream ? HOSTNN_PICK(FN##AraBlock_##DT##_Stream) : HOSTNN_PICK(FN##AraBlock_##DT);       \
  k.ara_stats = HOSTNN_PICK(FN##AraStats_##DT);                                                \
  k.cols_out = stream ? HOSTNN_PICK(FN##ColsOut_##DT##_Stream) : HOSTNN_PICK(FN##ColsOut_##DT);
#define HOSTNN_SMF_CASE(DT)                                     \
  k.row_max = HOSTNN_PICK(SmfRowMax_##DT);                      \
  k.row_sum_exp = HOSTNN_PICK(SmfRowSumExp_##DT);               \
  k.row_sum_exp_off_max = HOSTNN_PICK(SmfRowSumExpOffMax_##DT); \
  if (fn == RowFunction::kLogSoftmax) {                         \
    HOSTNN_SMF_CASE_OUT(Lsm, DT)                                \
  } else {                                                      \
    HOSTNN_SMF_CASE_OUT(Sm, DT)                                 \
  }                                                             \
  return k;
  switch (in) {
    case DType::kFloat32: {
      HOSTNN_SMF_CASE(F32)
    }
    case DType::kFloat16: {
      HOSTNN_SMF_CASE(F16)
    }
    case DType::kBFloat16: {
      HOSTNN_SMF_CASE(BF16)
    }
    default:
      return k;
  }
#undef HOSTNN_SMF_CASE
#undef HOSTNN_SMF_CASE_OUT
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
