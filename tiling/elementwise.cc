// The elementwise planner, Ascend's SiluGrad rule (Atlas A2): cores = max(1, min(cores,
// ceil(n / min_elems), blocks)); blocks dealt q or q+1 per core (the first blocks % cores
// take q+1); tile = floor(UB / block / N) * block / elem_bytes, N the operator's UB divisor,
// double-buffered when a small core's share exceeds two single-buffered tiles. Each
// operator's UB spec (the buffers behind N) comes from the operator list. Pure functions:
// no threads, no SIMD.

#include <algorithm>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {
namespace {

std::string Count(int64_t n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

// The words of a space-separated list.
std::vector<std::string> Words(const char* text) {
  std::vector<std::string> words;
  std::string word;
  for (const char* c = text;; ++c) {
    if (*c == ' ' || *c == '\0') {
      if (!word.empty()) words.push_back(word);
      word.clear();
      if (*c == '\0') break;
    } else {
      word.push_back(*c);
    }
  }
  return words;
}

// The queues of a gated linear unit, over the half shape: self's halves (".a", ".b"),
// GeGlu's outGelu or its gradient's gelu, and the output (a gradient's in two halves).
std::vector<std::string> SplitQueues(const OpInfo& info) {
  std::vector<std::string> q;
  const std::string self = info.in_names[info.is_forward ? 0 : 1];
  if (!info.is_forward) q.push_back(info.in_names[0]);
  q.push_back(self + ".a");
  q.push_back(self + ".b");
  if (!info.is_forward && HasGeluOperand(info)) q.push_back(info.in_names[2]);
  if (info.is_forward) {
    for (int k = 0; k < info.num_out(); ++k) q.push_back(info.out_names[k]);
  } else {
    q.push_back(std::string(info.out_names[0]) + ".a");
    q.push_back(std::string(info.out_names[0]) + ".b");
  }
  return q;
}

// What each elementwise kernel keeps per tile, from the operator list. The queues are the
// operands that move between memory and the UB (in0, in1 and out: in2, LogSigmoidBackward's
// `buffer`, is never loaded, so it has no queue; every input of a loss is); the
// f32 temps are the intermediates of the formula (op_list.def's UbTemps).
struct SpecTable {
  EltwiseUbSpec specs[kNumOps];
  SpecTable() {
    for (const Op op : AllOps()) {
      const OpInfo& info = GetOpInfo(op);
      EltwiseUbSpec& spec = specs[static_cast<int>(op)];
      spec.op = op;
      if (info.is_split) {
        spec.queues = SplitQueues(info);
      } else {
        const int loaded = info.kind == Kind::kPointLoss ? info.num_in() : 2;
        for (int k = 0; k < std::min(info.num_in(), loaded); ++k) {
          spec.queues.push_back(info.in_names[k]);
        }
        spec.queues.push_back(info.out_names[0]);
      }
      spec.f32_temps = Words(info.ub_temps);
    }
  }
};

}  // namespace

const EltwiseUbSpec* FindEltwiseUbSpec(Op op) {
  static const SpecTable table;
  if (!IsValidOp(op) || GetOpInfo(op).is_reduction) return nullptr;
  return &table.specs[static_cast<int>(op)];
}

UbDivisor MakeUbDivisor(const EltwiseUbSpec& spec, int64_t elem_bytes) {
  const int64_t queues = static_cast<int64_t>(spec.queues.size());
  const int64_t temps = static_cast<int64_t>(spec.f32_temps.size());
  const int64_t cast_units = elem_bytes == 2 ? 2 * queues : 0;  // one f32 tile per queue
  const int64_t temp_units = CeilDiv(temps * 4, elem_bytes);
  UbDivisor d;
  d.single_buffered = queues + cast_units + temp_units;
  d.double_buffered = d.single_buffered + queues;
  // "3 queues + 3 f32 casts x 2 + 2 f32 temps x 2 = 13"
  const std::string temp_scale = elem_bytes == 4   ? ""
                                 : elem_bytes == 2 ? " x 2"
                                 : elem_bytes == 1 ? " x 4"
                                                   : " x 1/2 (rounded up)";
  std::string rest;
  if (cast_units > 0) rest += " + " + Count(queues, "f32 cast") + " x 2";
  if (temps > 0) rest += " + " + Count(temps, "f32 temp") + temp_scale;
  d.single_why = Count(queues, "queue") + rest + " = " + std::to_string(d.single_buffered);
  d.double_why =
      Count(queues, "queue") + " x 2 buffers" + rest + " = " + std::to_string(d.double_buffered);
  return d;
}

ElementwisePlan PlanElementwise(int64_t n, int64_t elem_bytes, const EltwiseUbSpec& spec,
                                const Resolved& resolved) {
  const UbDivisor divisor = MakeUbDivisor(spec, elem_bytes);
  const Platform& pf = resolved.platform;
  ElementwisePlan p;
  p.n = n;
  p.elem_bytes = elem_bytes;
  p.block_elems = std::max<int64_t>(1, pf.block_bytes / elem_bytes);
  p.blocks = CeilDiv(n, p.block_elems);
  p.block_dim =
      std::max<int64_t>(1, std::min({pf.cores, CeilDiv(n, resolved.min_elems_per_core), p.blocks}));
  p.blocks_per_core = p.blocks / p.block_dim;
  p.big_cores = p.blocks % p.block_dim;

  const int64_t ub_blocks = pf.ub_bytes / pf.block_bytes;
  const int64_t single_tile = ub_blocks / divisor.single_buffered * pf.block_bytes / elem_bytes;
  const int64_t double_tile = ub_blocks / divisor.double_buffered * pf.block_bytes / elem_bytes;
  const int64_t small_core_elems = p.blocks_per_core * p.block_elems;
  if (resolved.buffer_num != 0) {
    p.buffer_num = resolved.buffer_num;
    p.buffer_why = "buffer_num = " + std::to_string(p.buffer_num) + " was asked for";
  } else {
    p.buffer_num = small_core_elems > 2 * single_tile ? 2 : 1;
    p.buffer_why = "a small core's " + std::to_string(small_core_elems) + " elements " +
                   (p.buffer_num == 2 ? ">" : "<=") + " 2 x " + std::to_string(single_tile) +
                   ", the single-buffered tile";
  }
  const bool double_buffered = p.buffer_num == 2;
  p.tile_len = double_buffered ? double_tile : single_tile;
  p.ub_divisor = double_buffered ? divisor.double_buffered : divisor.single_buffered;
  p.ub_divisor_why = double_buffered ? divisor.double_why : divisor.single_why;

  const int64_t tile_bytes = p.tile_len * elem_bytes;
  for (const std::string& queue : spec.queues) p.ub.push_back({queue, tile_bytes, p.buffer_num});
  if (elem_bytes == 2) {
    p.ub.push_back({"cast_f32", p.tile_len * 4, static_cast<int64_t>(spec.queues.size())});
  }
  if (elem_bytes == 8) {  // f32 temps pack two to a storage-sized tile (N rounds them up)
    std::string names;
    for (const std::string& temp : spec.f32_temps) names += (names.empty() ? "" : "+") + temp;
    if (!names.empty()) {
      p.ub.push_back({names, tile_bytes,
                      CeilDiv(4 * static_cast<int64_t>(spec.f32_temps.size()), elem_bytes)});
    }
  } else {
    for (const std::string& temp : spec.f32_temps) p.ub.push_back({temp, p.tile_len * 4, 1});
  }
  return p;
}

int64_t ElementwisePlan::CoreBegin(int64_t core) const {
  const int64_t block = core * blocks_per_core + std::min(core, big_cores);
  return std::min(n, block * block_elems);
}

int64_t ElementwisePlan::CoreLen(int64_t core) const {
  return CoreBegin(core + 1) - CoreBegin(core);
}

int64_t ElementwisePlan::CoreTiles(int64_t core) const {
  return tile_len > 0 ? CeilDiv(CoreLen(core), tile_len) : 0;
}

int64_t ElementwisePlan::TileBegin(int64_t core, int64_t tile) const {
  return CoreBegin(core) + tile * tile_len;
}

int64_t ElementwisePlan::TileLen(int64_t core, int64_t tile) const {
  return std::min(tile_len, CoreLen(core) - tile * tile_len);
}

}  // namespace tiling
}  // namespace hostnn
