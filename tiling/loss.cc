// MseLossBackward's Atlas A2 tiling (tiling::LossTiling): the rule of ops-nn's MseLossGradV2
// tiling (loss/mse_loss_grad_v2/op_host/mse_loss_grad_v2_tiling.cpp), the kernel the A2 op_api
// runs when gradOutput, self and target have one shape. Pure functions: no threads, no SIMD.

#include <algorithm>
#include <string>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {

namespace {
constexpr int64_t kInputBuffers = 4;           // self, target, gradOutput and out's queues
constexpr int64_t kHalfTemps = 4;              // f32 casts a 16-bit tile needs
constexpr int64_t kDoubleBufferAbove = 65536;  // 256 x 256: more elements double-buffer
}  // namespace

LossTiling PlanMseGradA2(int64_t total, DType dtype, const Platform& pf) {
  LossTiling t;
  t.kernel = "MseLossGradV2";
  const int64_t bytes = static_cast<int64_t>(DTypeSize(dtype));
  if (dtype != DType::kFloat32 && dtype != DType::kFloat16 && dtype != DType::kBFloat16) {
    t.why = "its kernel reads FLOAT, FLOAT16 or BFLOAT16 only";
    return t;
  }
  if (total > int64_t{0xFFFFFFFF}) {
    t.why = "its totalLength is a uint32 (more elements than 2^32 - 1)";
    return t;
  }
  t.planned = true;
  t.tiling_key = dtype == DType::kFloat32 ? 1 : dtype == DType::kFloat16 ? 2 : 3;
  t.total_length = total;
  t.bytes_per_element = kInputBuffers * bytes + (bytes == 4 ? 0 : kHalfTemps * 4);
  t.max_tile_length = CeilDiv(pf.ub_bytes, t.bytes_per_element);
  t.loops = CeilDiv(total, t.max_tile_length);
  int64_t used = t.loops <= pf.cores ? t.loops : pf.cores;
  t.block_dim = used;
  t.pad_length = total % used;
  if (t.pad_length == 0) {
    t.block_length = total / used;
  } else {  // one core fewer takes whole blocks; the last core the remainder, unless none
    used -= 1;
    t.pad_length = total % used;
    t.block_length = total / used;
    if (t.pad_length == 0) t.block_dim = used;
  }
  t.full_cores = used;
  t.tile_num = CeilDiv(t.loops, used);
  t.double_buffer = total > kDoubleBufferAbove;
  return t;
}

}  // namespace tiling
}  // namespace hostnn
