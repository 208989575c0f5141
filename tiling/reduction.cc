// The reduction planner of the softmax family (LogSoftmax, Softmax and their gradients),
// after Ascend 950's LogSoftmaxGrad tiling: the tensor is fused to (A1, R, A0) and four
// templates, each with a capability test and a priority, are tried in order; the first
// capable one wins and the plan records every test. The templates budget only I/O queues
// and f32 sums in the UB (Ascend 950 computes in registers): a queue for each input the
// operator has, named as its CANN parameter (a forward's one `self`, a gradient's
// `gradOutput` and `output`), and its output's; a DOUBLE LogSoftmax, computed in double,
// budgets f64 ones. Pure functions: no threads, no SIMD.
//   AR full-load   100  A0 == 1, R <= 4 * vl_f32^2, whole rows fit the UB
//   AR recompute   200  A0 == 1, R in chunks: a sum pass, then an output pass
//   ARA full-load  300  A0 > 1, A0 tiled by the vector width, all of R fits
//   ARA recompute  400  A0 > 1, A0 tiled by the block, R in chunks of 128 rows
// Where the host differs from Ascend: AR chunks are also multiples of 16 elements (the row
// partials; 64 for the softmax reductions, their f32 blocks), A0 tiles are capped at
// kMaxA0Tile, ARA recompute halves its R chunk until one tile fits a small UB, and
// min_elems_per_core caps the cores of small problems.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kArReservedBytes = 1024;    // AR full-load keeps 1 KiB of the UB aside
constexpr int64_t kArCacheBlocks = 64;        // AR recompute's binary-add cache slots
constexpr int64_t kAraRecomputeRChunk = 128;  // ARA recompute's R rows per pass
constexpr int64_t kF32 = 4;

std::string S(int64_t v) { return std::to_string(v); }

// "3 chunks of 128", "1 chunk of 7".
std::string Chunks(int64_t r, int64_t chunk) {
  const int64_t n = CeilDiv(r, chunk);
  return S(n) + (n == 1 ? " chunk of " : " chunks of ") + S(chunk);
}

// Ascend's FindNearestPower2: the largest power of two below `value` (0 for value <= 1).
int64_t PowerOfTwoBelow(int64_t value) {
  if (value <= 1) return 0;
  int64_t p = 1;
  while (p * 2 < value) p *= 2;
  return p;
}

int64_t BitLength(int64_t v) {
  int64_t bits = 0;
  while (v > 0) {
    ++bits;
    v >>= 1;
  }
  return bits;
}

struct Context {
  int64_t a1, r, a0, x;  // x: bytes of the inputs (out is budgeted the same, as on Ascend)
  std::vector<std::string> inputs;  // the input queues' names (CANN's parameter names)
  std::string out;                  // the output's
  int64_t acc;           // bytes of the intermediates: f32, or f64 for DOUBLE (x == 8)
  int64_t row_align;     // AR chunks start at multiples of it (the kernels' row sums)
  const Platform* pf;
  int64_t cores;  // min(platform cores, ceil(elements / min_elems_per_core))
};

// An intermediate buffer's name: "out_f32", or "out_f64" where DOUBLE is computed in double.
std::string Acc(const Context& c, const std::string& name) {
  return name + (c.acc == 8 ? "_f64" : "_f32");
}

// The input count as a budget factor.
int64_t Inputs(const Context& c) { return static_cast<int64_t>(c.inputs.size()); }

// One double-buffered queue of `bytes` per input, in CANN's parameter order.
std::vector<UbBuffer> InputQueues(const Context& c, int64_t bytes) {
  std::vector<UbBuffer> queues;
  for (const std::string& name : c.inputs) queues.push_back({name, bytes, 2});
  return queues;
}

// A capable template fills everything but trials and the core split.
bool ArFullLoad(const Context& c, ReductionPlan* p, std::string* why) {
  if (c.a0 != 1) {
    *why = "A0 = " + S(c.a0) + " > 1";
    return false;
  }
  const int64_t vl = c.pf->vector_bytes / c.acc;
  const int64_t r_max = 4 * vl * vl;
  if (c.r > r_max) {
    *why = "R = " + S(c.r) + " > 4 * " + Acc(c, "vl") + "^2 = " + S(r_max);
    return false;
  }
  const int64_t r_aligned = AlignUp(c.r, c.pf->block_bytes / c.x);
  const int64_t binary_tmp =
      c.r > 2 * vl ? AlignUp(PowerOfTwoBelow(CeilDiv(c.r, vl)), c.pf->block_bytes / c.acc) * c.acc
                   : 0;
  const int64_t row_bytes = 2 * r_aligned * (Inputs(c) + 1) * c.x + binary_tmp;
  const int64_t rows_fit = (c.pf->ub_bytes - kArReservedBytes) / row_bytes;
  if (rows_fit < 1) {
    *why = "a row needs " + S(row_bytes) + " B > UB - 1024 reserved";
    return false;
  }
  *why = "A0 == 1, R = " + S(c.r) + " <= " + S(r_max) + ", " + S(rows_fit) + " rows of " +
         S(row_bytes) + " B fit the UB";
  p->r_chunk = c.r;
  const int64_t units_per_core = CeilDiv(c.a1, c.cores);
  p->units_per_tile = std::min(rows_fit, units_per_core);
  const int64_t tile_rows = p->units_per_tile;
  p->ub = {{"reserved", kArReservedBytes, 1}};
  for (const UbBuffer& q : InputQueues(c, tile_rows * r_aligned * c.x)) p->ub.push_back(q);
  p->ub.push_back({c.out, tile_rows * r_aligned * c.x, 2});
  if (binary_tmp > 0) p->ub.push_back({Acc(c, "binary_add"), tile_rows * binary_tmp, 1});
  return true;
}

bool ArRecompute(const Context& c, ReductionPlan* p, std::string* why) {
  if (c.a0 != 1) {
    *why = "A0 = " + S(c.a0) + " > 1";
    return false;
  }
  const int64_t block = c.pf->block_bytes;
  const int64_t flexible = c.pf->ub_bytes - block - kArCacheBlocks * block;
  const int64_t per_elem = 2 * Inputs(c) * c.x + 2 * c.acc;  // inputs double-buffered; f32 out x 2
  const int64_t align =
      std::lcm(std::lcm(block, std::lcm(block / c.x, block / c.acc)), c.row_align);
  const int64_t chunk_max = flexible > 0 ? AlignDown(flexible / per_elem, align) : 0;
  if (chunk_max < 1) {
    *why = "the UB less 65 blocks holds no chunk of " + S(align) + " elements";
    return false;
  }
  p->r_chunk = std::min(c.r, chunk_max);
  p->r_align = align;
  *why = "A0 == 1; R = " + S(c.r) + " in " + Chunks(c.r, p->r_chunk) + " (a multiple of " +
         S(align) + ")";
  const int64_t padded = AlignUp(p->r_chunk, block / c.x);  // a short row fills whole blocks
  p->ub = InputQueues(c, padded * c.x);
  p->ub.push_back({Acc(c, c.out), padded * c.acc, 2});
  p->ub.push_back({"reserved", block, 1});
  p->ub.push_back({"binary_add_cache", block, kArCacheBlocks});
  return true;
}

bool AraFullLoad(const Context& c, ReductionPlan* p, std::string* why) {
  if (c.a0 == 1) {
    *why = "A0 == 1";
    return false;
  }
  // A0 tiles of whole vectors (and whole blocks, should a profile's vector be narrower).
  const int64_t base = std::max(c.pf->vector_bytes, c.pf->block_bytes) / c.x;
  const int64_t column_bytes = c.r * 2 * (c.acc + Inputs(c) * c.x);  // all of R, double-buffered
  const int64_t factor_max = c.pf->ub_bytes / base / (column_bytes + c.acc);
  if (factor_max < 1) {
    *why = "one A0 tile of " + S(base) + " columns with all " + S(c.r) + " rows needs " +
           S(base * (column_bytes + c.acc)) + " B > UB";
    return false;
  }
  const int64_t a0_inner = std::min(factor_max, CeilDiv(c.a0, base));
  const int64_t tile = std::min(a0_inner * base, kMaxA0Tile);
  const int64_t a1_inner = std::min(c.a1, (c.pf->ub_bytes - tile * c.acc) / (tile * column_bytes));
  p->a0_tile = tile;
  p->a0_align = base;
  p->a1_tile = a1_inner;
  p->r_chunk = c.r;
  *why = "A0 = " + S(c.a0) + " > 1; " + S(a1_inner) + " x " + S(c.r) + " x " + S(tile) +
         " (A1 x R x A0 tile of " + S(base) + "-column vectors) fits the UB";
  p->ub = InputQueues(c, a1_inner * c.r * tile * c.x);
  p->ub.push_back({Acc(c, c.out), a1_inner * c.r * tile * c.acc, 2});
  p->ub.push_back({Acc(c, "sum"), tile * c.acc, 1});
  return true;
}

bool AraRecompute(const Context& c, ReductionPlan* p, std::string* why) {
  if (c.a0 == 1) {
    *why = "A0 == 1";
    return false;
  }
  const int64_t base = c.pf->block_bytes / c.x;
  int64_t chunk = std::min(kAraRecomputeRChunk, c.r);
  int64_t cache = 1, factor_max = 0;
  while (true) {
    const int64_t basic = PowerOfTwoBelow(CeilDiv(c.r, chunk));
    cache = basic == 0 ? 1 : BitLength(basic);
    const int64_t column_bytes = chunk * 2 * (c.acc + Inputs(c) * c.x) + c.acc * cache + c.acc;
    factor_max = c.pf->ub_bytes / base / column_bytes;
    if (factor_max >= 1 || chunk == 1) break;
    chunk = (chunk + 1) / 2;
  }
  if (factor_max < 1) {
    *why = "not even one row of a " + S(base) + "-column A0 tile fits the UB";
    return false;
  }
  const int64_t a0_factor_max = CeilDiv(c.a0, base);
  const int64_t spread = CeilDiv(c.a1 * a0_factor_max, c.cores);  // as many cores as possible
  const int64_t a0_inner = std::min({spread, factor_max, a0_factor_max});
  const int64_t tile = std::min(a0_inner * base, kMaxA0Tile);
  p->a0_tile = tile;
  p->a0_align = base;
  p->r_chunk = chunk;
  *why = "A0 = " + S(c.a0) + " > 1; A0 tiles of " + S(tile) + ", R = " + S(c.r) + " in " +
         Chunks(c.r, chunk) +
         (chunk < std::min(kAraRecomputeRChunk, c.r) ? " (Ascend's 128 does not fit this UB)" : "");
  p->ub = InputQueues(c, chunk * tile * c.x);
  p->ub.push_back({Acc(c, c.out), chunk * tile * c.acc, 2});
  p->ub.push_back({Acc(c, "binary_add_cache"), tile * c.acc, cache});
  p->ub.push_back({Acc(c, "sum"), tile * c.acc, 1});
  return true;
}

struct Template {
  ReductionTemplate tmpl;
  bool (*try_plan)(const Context&, ReductionPlan*, std::string*);
};
const Template kTemplates[] = {{ReductionTemplate::kArFullLoad, ArFullLoad},
                               {ReductionTemplate::kArRecompute, ArRecompute},
                               {ReductionTemplate::kAraFullLoad, AraFullLoad},
                               {ReductionTemplate::kAraRecompute, AraRecompute}};

}  // namespace

const char* TemplateName(ReductionTemplate t) {
  switch (t) {
    case ReductionTemplate::kArFullLoad:
      return "ar_full_load";
    case ReductionTemplate::kArRecompute:
      return "ar_recompute";
    case ReductionTemplate::kAraFullLoad:
      return "ara_full_load";
    case ReductionTemplate::kAraRecompute:
      return "ara_recompute";
  }
  return "?";
}

int TemplatePriority(ReductionTemplate t) {
  switch (t) {
    case ReductionTemplate::kArFullLoad:
      return 100;
    case ReductionTemplate::kArRecompute:
      return 200;
    case ReductionTemplate::kAraFullLoad:
      return 300;
    case ReductionTemplate::kAraRecompute:
      return 400;
  }
  return 0;
}

ReductionPlan PlanReduction(Op op, int64_t a1, int64_t r, int64_t a0, int64_t elem_bytes,
                            int64_t row_align, const Resolved& resolved) {
  const Platform& pf = resolved.platform;
  const OpInfo& info = GetOpInfo(op);
  std::vector<std::string> inputs(info.in_names, info.in_names + info.num_in());
  const Context c{
      a1,
      r,
      a0,
      elem_bytes,
      inputs,
      info.out_names[0],
      std::max(kF32, elem_bytes),
      row_align,
      &pf,
      std::max<int64_t>(1, std::min(pf.cores, CeilDiv(a1 * r * a0, resolved.min_elems_per_core)))};
  ReductionPlan winner;
  std::vector<TemplateTrial> trials;
  bool won = false;
  for (const Template& t : kTemplates) {
    ReductionPlan candidate;
    TemplateTrial trial;
    trial.tmpl = t.tmpl;
    trial.capable = t.try_plan(c, &candidate, &trial.why);
    if (trial.capable && !won) {
      won = true;
      winner = candidate;
      winner.tmpl = t.tmpl;
      winner.reason = trial.why;
    }
    trials.push_back(trial);
  }
  winner.trials = trials;
  // Every problem has a capable template once the platform is valid: ARA recompute and AR
  // recompute fit any UB of 128 blocks. A failure here is caught by Plan::Check.
  winner.a1 = a1;
  winner.r = r;
  winner.a0 = a0;
  winner.elem_bytes = elem_bytes;
  winner.units = winner.A1Tiles() * winner.A0Tiles();
  winner.units_per_core = std::max<int64_t>(1, CeilDiv(winner.units, c.cores));
  winner.block_dim = CeilDiv(winner.units, winner.units_per_core);
  return winner;
}

int64_t ReductionPlan::A1Tiles() const { return CeilDiv(a1, a1_tile); }

int64_t ReductionPlan::A0Tiles() const { return CeilDiv(a0, a0_tile); }

int64_t ReductionPlan::CoreBegin(int64_t core) const {
  return std::min(units, core * units_per_core);
}

int64_t ReductionPlan::CoreLen(int64_t core) const { return CoreBegin(core + 1) - CoreBegin(core); }

int64_t ReductionPlan::CoreTiles(int64_t core) const {
  return CeilDiv(CoreLen(core), units_per_tile);
}

int64_t ReductionPlan::RChunks() const { return CeilDiv(r, r_chunk); }

ReductionPlan::Unit ReductionPlan::GetUnit(int64_t u) const {
  const int64_t a0_tiles = A0Tiles();
  Unit unit;
  unit.a1_begin = u / a0_tiles * a1_tile;
  unit.a1_len = std::min(a1_tile, a1 - unit.a1_begin);
  unit.a0_begin = u % a0_tiles * a0_tile;
  unit.a0_len = std::min(a0_tile, a0 - unit.a0_begin);
  return unit;
}

void ReductionPlan::ElementPart(int64_t numel, int64_t core, int64_t* begin, int64_t* len) const {
  *begin = numel / block_dim * core + std::min(core, numel % block_dim);
  *len = numel / block_dim + (core < numel % block_dim ? 1 : 0);
}

}  // namespace tiling
}  // namespace hostnn
