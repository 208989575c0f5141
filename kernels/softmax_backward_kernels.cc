// The softmax backward kernels, LogSoftmaxBackward's and SoftmaxBackward's (row and column
// sums in double, outputs, the ARA block), for every compiled SIMD target, and their
// dispatch table (GetSoftmaxBackward). The code is softmax_grad-inl.h's, once per rule.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/softmax_backward_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "kernels/kernels.h"
#include "kernels/softmax_grad-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {

// FN names the row function (Lsm: LogSoftmaxBackward, Sm: SoftmaxBackward).
#define HOSTNN_SMB_IN(FN, RULE, IN)                                                          \
  void FN##RowSum_##IN(const void* dy, const void* y, size_t n, double* p) {                 \
    RowSumImpl<RULE, IN>(dy, y, n, p);                                                       \
  }                                                                                          \
  void FN##ColSum_##IN(const void* dy, const void* y, double* acc, size_t w) {               \
    ColSumImpl<RULE, IN>(dy, y, acc, w);                                                     \
  }                                                                                          \
  bool FN##AraSums_##IN(const void* dy, const void* y, size_t r, size_t stride, size_t w,    \
                        double* acc, float* s) {                                             \
    return AraSumsImpl<RULE, IN>(dy, y, r, stride, w, acc, s);                               \
  }
#define HOSTNN_SMB_IN_OUT_MODE(FN, RULE, IN, OUT, SUFFIX, STREAM)                                 \
  void FN##RowOut_##IN##_##OUT##SUFFIX(const void* dy, const void* y, double s, void* o,          \
                                       size_t n) {                                                \
    if (HWY_UNLIKELY(SumBeyondF32(s))) {                                                          \
      GradOutWideSum<RULE, IN, OUT>(static_cast<const IN::T*>(dy), static_cast<const IN::T*>(y),  \
                                    s, nullptr, static_cast<OUT::T*>(o), n);                      \
      return;                                                                                     \
    }                                                                                             \
    GradOutImpl<RULE, IN, OUT, STREAM>(dy, y, static_cast<float>(s), nullptr, o, n);             \
  }                                                                                               \
  void FN##ColsOut_##IN##_##OUT##SUFFIX(const void* dy, const void* y, const float* s, void* o,   \
                                        size_t w) {                                               \
    GradOutImpl<RULE, IN, OUT, STREAM>(dy, y, 0.0f, s, o, w);                                     \
  }                                                                                               \
  void FN##AraBlock_##IN##_##OUT##SUFFIX(const void* dy, const void* y, void* o, size_t r,        \
                                         size_t stride, size_t w, double* acc, float* sums) {     \
    AraBlockImpl<RULE, IN, OUT, STREAM>(dy, y, o, r, stride, w, acc, sums);                       \
  }
#define HOSTNN_SMB_IN_OUT(FN, RULE, IN, OUT)         \
  HOSTNN_SMB_IN_OUT_MODE(FN, RULE, IN, OUT, , false) \
  HOSTNN_SMB_IN_OUT_MODE(FN, RULE, IN, OUT, _Stream, true)
#define HOSTNN_SMB_RULE(FN, RULE, IN)     \
  HOSTNN_SMB_IN(FN, RULE, IN)             \
  HOSTNN_SMB_IN_OUT(FN, RULE, IN, F32)    \
  HOSTNN_SMB_IN_OUT(FN, RULE, IN, F16)    \
  HOSTNN_SMB_IN_OUT(FN, RULE, IN, BF16)   \
  HOSTNN_SMB_IN_OUT(FN, RULE, IN, F64)
#define HOSTNN_SMB_ALL(IN)                         \
  HOSTNN_SMB_RULE(Lsm, LogSoftmaxGradRule, IN)     \
  HOSTNN_SMB_RULE(Sm, SoftmaxGradRule, IN)
HOSTNN_SMB_ALL(F32)
HOSTNN_SMB_ALL(F16)
HOSTNN_SMB_ALL(BF16)
#undef HOSTNN_SMB_ALL
#undef HOSTNN_SMB_RULE
#undef HOSTNN_SMB_IN_OUT
#undef HOSTNN_SMB_IN_OUT_MODE
#undef HOSTNN_SMB_IN

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_SMB_EXPORT_IN_OUT(FN, IN, OUT)    \
  HWY_EXPORT(FN##RowOut_##IN##_##OUT);           \
  HWY_EXPORT(FN##ColsOut_##IN##_##OUT);          \
  HWY_EXPORT(FN##RowOut_##IN##_##OUT##_Stream);  \
  HWY_EXPORT(FN##ColsOut_##IN##_##OUT##_Stream); \
  HWY_EXPORT(FN##AraBlock_##IN##_##OUT);         \
  HWY_EXPORT(FN##AraBlock_##IN##_##OUT##_Stream);
#define HOSTNN_SMB_EXPORT_RULE(FN, IN)      \
  HWY_EXPORT(FN##RowSum_##IN);              \
  HWY_EXPORT(FN##ColSum_##IN);              \
  HWY_EXPORT(FN##AraSums_##IN);             \
  HOSTNN_SMB_EXPORT_IN_OUT(FN, IN, F32)     \
  HOSTNN_SMB_EXPORT_IN_OUT(FN, IN, F16)     \
  HOSTNN_SMB_EXPORT_IN_OUT(FN, IN, BF16)    \
  HOSTNN_SMB_EXPORT_IN_OUT(FN, IN, F64)
#define HOSTNN_SMB_EXPORT(IN)      \
  HOSTNN_SMB_EXPORT_RULE(Lsm, IN)  \
  HOSTNN_SMB_EXPORT_RULE(Sm, IN)
HOSTNN_SMB_EXPORT(F32)
HOSTNN_SMB_EXPORT(F16)
HOSTNN_SMB_EXPORT(BF16)
#undef HOSTNN_SMB_EXPORT
#undef HOSTNN_SMB_EXPORT_RULE
#undef HOSTNN_SMB_EXPORT_IN_OUT

namespace {

template <RowFunction kFn>
SoftmaxBackwardKernels Table(DType in, DType out, bool stream);

#define HOSTNN_SMB_CASE_OUT(FN, IN, OUT)                                                         \
  {                                                                                              \
    SoftmaxBackwardKernels k;                                                                    \
    k.row_sum = HOSTNN_PICK(FN##RowSum_##IN);                                                    \
    k.col_sum = HOSTNN_PICK(FN##ColSum_##IN);                                                    \
    k.ara_sums = HOSTNN_PICK(FN##AraSums_##IN);                                                  \
    k.row_out = stream ? HOSTNN_PICK(FN##RowOut_##IN##_##OUT##_Stream)                           \
                       : HOSTNN_PICK(FN##RowOut_##IN##_##OUT);                                   \
    k.cols_out = stream ? HOSTNN_PICK(FN##ColsOut_##IN##_##OUT##_Stream)                         \
                        : HOSTNN_PICK(FN##ColsOut_##IN##_##OUT);                                 \
    k.ara_block = stream ? HOSTNN_PICK(FN##AraBlock_##IN##_##OUT##_Stream)                       \
                         : HOSTNN_PICK(FN##AraBlock_##IN##_##OUT);                               \
    return k;                                                                                    \
  }
#define HOSTNN_SMB_CASE_IN(FN, IN)      \
  switch (out) {                        \
    case DType::kFloat32:               \
      HOSTNN_SMB_CASE_OUT(FN, IN, F32)  \
    case DType::kFloat16:               \
      HOSTNN_SMB_CASE_OUT(FN, IN, F16)  \
    case DType::kBFloat16:              \
      HOSTNN_SMB_CASE_OUT(FN, IN, BF16) \
    case DType::kFloat64:               \
      HOSTNN_SMB_CASE_OUT(FN, IN, F64)  \
    default:                            \
      return SoftmaxBackwardKernels{};  \
  }
#define HOSTNN_SMB_TABLE(FN, FN_ENUM)                                                     \
  template <>                                                                            \
  SoftmaxBackwardKernels Table<RowFunction::FN_ENUM>(DType in, DType out, bool stream) { \
    switch (in) {                                                                        \
      case DType::kFloat32:                                                              \
        HOSTNN_SMB_CASE_IN(FN, F32)                                                      \
      case DType::kFloat16:                                                              \
        HOSTNN_SMB_CASE_IN(FN, F16)                                                      \
      case DType::kBFloat16:                                                             \
        HOSTNN_SMB_CASE_IN(FN, BF16)                                                     \
      default:                                                                           \
        return SoftmaxBackwardKernels{};                                                 \
    }                                                                                    \
  }
HOSTNN_SMB_TABLE(Lsm, kLogSoftmax)
HOSTNN_SMB_TABLE(Sm, kSoftmax)
#undef HOSTNN_SMB_TABLE
#undef HOSTNN_SMB_CASE_IN
#undef HOSTNN_SMB_CASE_OUT

}  // namespace

SoftmaxBackwardKernels GetSoftmaxBackward(RowFunction fn, DType in, DType out, StoreMode mode) {
  const bool stream = mode == StoreMode::kStream;
  return fn == RowFunction::kSoftmax ? Table<RowFunction::kSoftmax>(in, out, stream)
                                     : Table<RowFunction::kLogSoftmax>(in, out, stream);
}

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
