// CrossEntropyLoss's and CrossEntropyLossGrad's Atlas A2 tiling (tiling::SoftmaxLossTiling):
// the rules of ops-nn's loss/cross_entropy_loss/op_host/cross_entropy_loss_tiling.cpp and
// loss/cross_entropy_loss_grad/op_host/cross_entropy_loss_grad_tiling.cpp, the kernels the
// A2 entry points run. Pure functions: no threads, no SIMD.

#include <algorithm>
#include <string>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {

namespace {
constexpr int64_t kBlock = 32;       // the UB's alignment, bytes
constexpr int64_t kPassAlign = 512;  // a pass's bytes are a multiple of this
constexpr int64_t kRepeatElems =
    64 * 128;  // f32 elements one vector instruction's 128 repeats reduce
constexpr int64_t kWorkLocalBytes = kRepeatElems / 8 * 4;  // the forward's reduce scratch
constexpr int64_t kReduceBufBytes = 2 * kBlock;            // its reduceCalc and reduceRes
constexpr int64_t kForwardWorkspace = 16 * 1024 * 1024 + 4 * 3 * 64;  // 16 MiB + the cores' sums
constexpr int64_t kGradF32Split = 12;   // bytes per column of a pass: f32 logProb, out, temps
constexpr int64_t kGrad16BitSplit = 8;  // the same for a 16-bit dtype

int64_t DTypeKey(DType dtype) {
  return dtype == DType::kBFloat16 ? 1 : dtype == DType::kFloat16 ? 2 : 3;
}

// A length cut into vector repeats of kRepeatElems: whole ones and a tail (a length that is a
// multiple is whole repeats only).
void SplitByRepeat(int64_t len, int64_t* loops, int64_t* tail) {
  if (len < kRepeatElems) {
    *loops = 0, *tail = len;
    return;
  }
  *tail = len % kRepeatElems;
  *loops = CeilDiv(len, kRepeatElems) - (*tail != 0 ? 1 : 0);
}

bool ReadsCrossEntropyDType(DType dtype) {
  return dtype == DType::kFloat32 || dtype == DType::kFloat16 || dtype == DType::kBFloat16;
}
}  // namespace

SoftmaxLossTiling PlanCrossEntropyA2(int64_t rows, int64_t classes, DType dtype,
                                     const SoftmaxLossInputs& inputs, const Platform& pf) {
  SoftmaxLossTiling t;
  t.kernel = "CrossEntropyLoss";
  if (!ReadsCrossEntropyDType(dtype)) {
    t.why = "its kernel reads FLOAT, FLOAT16 or BFLOAT16 only";
    return t;
  }
  t.tiling_key = DTypeKey(dtype);
  // The rows over the cores: one each below the core count; else every core
  // ceil(rows / cores), the cores past the remainder one fewer.
  if (rows < pf.cores) {
    t.front_cores = rows, t.front_rows = 1, t.block_dim = rows;
  } else {
    const int64_t rem = rows % pf.cores;
    t.front_cores = rem == 0 ? pf.cores : rem;
    t.front_rows = CeilDiv(rows, pf.cores);
    t.tail_cores = pf.cores - t.front_cores;
    t.tail_rows = rem == 0 ? 0 : rows / pf.cores;
    t.block_dim = pf.cores;
  }
  // The UB: three f32 buffers of a core's rows (the losses, their weights, label smoothing's
  // sums), the reduce buffers; then the input pass, single-buffered, with (f32) the weights
  // label smoothing multiplies by, or (16-bit) an f32 cast of two halves and logProb's
  // output pass, and the weights' two halves.
  t.row_buf_bytes = AlignUp(t.front_rows * 4, kBlock);
  const int64_t reserve = 3 * t.row_buf_bytes + kReduceBufBytes + kWorkLocalBytes;
  if (reserve >= pf.ub_bytes) {
    t.why = "a core's " + std::to_string(t.front_rows) + " rows need " + std::to_string(reserve) +
            " bytes of UB before any input (ops-nn's unsigned arithmetic would wrap)";
    return t;
  }
  const bool weight_buf = inputs.smoothing && inputs.weight;
  const int64_t es = static_cast<int64_t>(DTypeSize(dtype));
  const int64_t parts = es == 4 ? 1 + (weight_buf ? 1 : 0) : 1 + 1 + 2 + (weight_buf ? 2 : 0);
  const int64_t one_row = AlignUp(classes * es, kBlock);
  const int64_t input_bytes =
      std::min(AlignDown((pf.ub_bytes - reserve) / parts, kPassAlign), one_row);
  if (input_bytes == 0) {
    t.why = "the UB left after a core's rows holds no 512-byte input pass";
    return t;
  }
  if (es == 4) {
    t.smoothing_weight_bytes = weight_buf ? input_bytes : 0;
  } else {
    t.cast_buf_bytes = 2 * input_bytes + input_bytes;  // the f32 cast, logProb's pass
    t.smoothing_weight_bytes = weight_buf ? 2 * input_bytes : 0;
  }
  t.input_ub_size = input_bytes / es;
  t.total_buf_bytes = reserve + t.cast_buf_bytes + t.smoothing_weight_bytes;
  if (classes > t.input_ub_size) {
    t.ub_tail = classes % t.input_ub_size;
    t.ub_loops = CeilDiv(classes, t.input_ub_size) - (t.ub_tail != 0 ? 1 : 0);
  } else {
    t.ub_loops = 0, t.ub_tail = classes;
  }
  SplitByRepeat(t.input_ub_size, &t.vec_loops, &t.vec_tail);
  SplitByRepeat(t.ub_tail, &t.tail_vec_loops, &t.tail_vec_tail);
  t.workspace_bytes = kForwardWorkspace;
  t.planned = true;
  return t;
}

SoftmaxLossTiling PlanCrossEntropyGradA2(int64_t rows, int64_t classes, DType dtype,
                                         const SoftmaxLossInputs& inputs, const Platform& pf) {
  SoftmaxLossTiling t;
  t.kernel = "CrossEntropyLossGrad";
  if (!ReadsCrossEntropyDType(dtype)) {
    t.why = "its kernel reads FLOAT, FLOAT16 or BFLOAT16 only";
    return t;
  }
  t.tiling_key = DTypeKey(dtype) * 10 + (inputs.weight ? 1 : 0);
  // The rows over the cores: the remainder's cores (every core where none) take
  // ceil(rows / cores), the rest rows / cores.
  const int64_t rem = rows % pf.cores;
  t.front_cores = rem != 0 ? rem : pf.cores;
  t.tail_cores = rows <= pf.cores ? 0 : pf.cores - t.front_cores;
  t.block_dim = t.front_cores + t.tail_cores;
  t.front_rows = CeilDiv(rows, pf.cores);
  t.tail_rows = rows / pf.cores;
  // The UB: per row of a core, its INT64 target, their f32 cast, the ignore flags and mask,
  // the weights it picks; none's gradLoss (and a 16-bit one's f32 cast); the mean's two
  // sync buffers; the rest is column passes of kGradF32Split (kGrad16BitSplit) bytes per
  // column, 512-byte aligned.
  const int64_t r = t.front_rows;
  const int64_t es = static_cast<int64_t>(DTypeSize(dtype));
  int64_t fixed = AlignUp(r * 8, kBlock) + AlignUp(r * 4, kBlock) + AlignUp(r * 4, kBlock) +
                  AlignUp(r, kBlock) + (inputs.weight ? AlignUp(r * 4, kBlock) : 0);
  if (inputs.reduction == 0) {
    fixed += AlignUp(r * es, kBlock) + (es == 2 ? AlignUp(r * 4, kBlock) : 0);
  } else if (inputs.reduction == 1) {
    fixed += kBlock + AlignUp(std::max(pf.cores, r) * 4, kBlock);
  }
  t.row_buf_bytes = fixed;
  if (fixed >= pf.ub_bytes) {
    t.why = "a core's " + std::to_string(r) + " rows need " + std::to_string(fixed) +
            " bytes of UB before any column (ops-nn's unsigned arithmetic would wrap)";
    return t;
  }
  const int64_t columns = (pf.ub_bytes - fixed) / (es == 4 ? kGradF32Split : kGrad16BitSplit);
  t.col_tile = AlignDown(std::min(columns, classes), kPassAlign / es);
  t.col_loops = t.col_tile == 0 ? 0 : classes / t.col_tile;
  t.col_tail = t.col_tile == 0 ? classes : classes % t.col_tile;
  t.workspace_bytes = AlignUp(pf.cores * 4, kBlock);
  t.planned = true;
  return t;
}

}  // namespace tiling
}  // namespace hostnn
