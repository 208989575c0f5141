// Tiling: the plan that cuts a problem into per-core blocks and UB-sized tiles, as Ascend
// does. A plan is plain data made by pure functions of (problem, platform, options); it
// never depends on threads or SIMD width, so a plan gives the same bits on 1 thread or 64.
#ifndef HOSTNN_TILING_H_
#define HOSTNN_TILING_H_

#include <cstdint>
#include <string>
#include <vector>

#include "hostnn/status.h"

namespace hostnn {
namespace tiling {

// A machine to plan for. Ascend profiles describe vector cores; `host` describes this CPU.
struct Platform {
  std::string name;
  int64_t cores = 1;         // logical cores a plan may use (block_dim <= cores)
  int64_t ub_bytes = 0;      // per-core scratch ("unified buffer")
  int64_t block_bytes = 32;  // UB alignment unit: 32 B on Ascend, a 64 B cache line on host
};

// The host profile: cores = OpenMP max threads, UB = half the per-core L2 (clamped to
// [64 KiB, 1 MiB]), 64-byte blocks. Thread-safe.
Platform HostPlatform();
// Built-in profiles: host, atlas-a2, atlas-a2-40, ascend950. Unknown name -> kInvalid.
Status FindPlatform(const std::string& name, Platform* platform);
std::vector<std::string> PlatformNames();

// Tunables. Zero / empty means "not set here": the environment (HOSTNN_PLATFORM,
// HOSTNN_NUM_CORES, HOSTNN_UB_BYTES, HOSTNN_MIN_ELEMS_PER_CORE) then the default applies.
struct Options {
  std::string platform;            // profile name
  int64_t num_cores = 0;           // overrides the profile's core count
  int64_t ub_bytes = 0;            // overrides the profile's UB size
  int64_t min_elems_per_core = 0;  // fewer cores for small tensors (default 1024; host 16384)
  int buffer_num = 0;              // 1 or 2 forces single / double buffering
};

// Options resolved against the environment and the profile.
struct Resolved {
  Platform platform;
  int64_t min_elems_per_core = 1024;
  int buffer_num = 0;  // 0 = the planner decides
};
// Fails with kInvalid (and a message naming the option or variable) on any bad value.
Status Resolve(const Options& options, Resolved* resolved);

// One named buffer of the UB budget (`count` copies of `bytes`, e.g. double buffering).
struct UbBuffer {
  std::string name;
  int64_t bytes = 0;
  int64_t count = 1;
};

// What an elementwise operator keeps in the UB per tile: its I/O queues (gradOutput, self,
// out: double-buffered when the plan says so) and its f32 temporaries. With 16-bit storage
// each I/O tile also has an f32 cast buffer. Each operator's spec sits with its C API.
struct EltwiseUbSpec {
  int64_t io_buffers = 3;
  int64_t f32_temps = 2;
};

// The UB divisor N: how many tile-sized units (of elem_bytes) the spec needs.
//   single = io + (16-bit ? 2*io : 0) + temps*4/elem_bytes, double = single + io.
// SiluBackward (io 3, temps 2): f32 5 / 8, f16 and bf16 13 / 16, as on Atlas A2.
struct UbDivisor {
  int64_t single_buffered = 0;
  int64_t double_buffered = 0;
};
UbDivisor MakeUbDivisor(const EltwiseUbSpec& spec, int64_t elem_bytes);

struct ElementwisePlan {
  int64_t n = 0;                // elements
  int64_t elem_bytes = 0;       // bytes of the (widest) storage dtype
  int64_t block_elems = 0;      // elements per block
  int64_t blocks = 0;           // ceil(n * elem_bytes / block_bytes)
  int64_t block_dim = 0;        // cores used
  int64_t blocks_per_core = 0;  // q: every core gets q or q+1 blocks
  int64_t big_cores = 0;        // the first big_cores cores take q+1 blocks
  int64_t tile_len = 0;         // elements per tile
  int64_t buffer_num = 1;       // 1 single, 2 double buffered
  int64_t ub_divisor = 0;       // tile-sized units in the UB
  std::vector<UbBuffer> ub;     // the UB budget, by buffer

  int64_t CoreBegin(int64_t core) const;  // first element of `core`
  int64_t CoreLen(int64_t core) const;    // elements of `core` (the last core may be short)
  int64_t CoreTiles(int64_t core) const;  // ceil(CoreLen / tile_len)
};

enum class ReductionTemplate { kArFullLoad, kArRecompute, kAraFullLoad, kAraRecompute };
const char* TemplateName(ReductionTemplate t);

// LogSoftmaxBackward: the tensor fused to (A1, R, A0) around `dim`. A unit is one
// (a1, A0-tile) pair; each unit is reduced by one core, start to end, in a fixed order.
struct ReductionPlan {
  int64_t a1 = 1, r = 1, a0 = 1;
  int64_t elem_bytes = 4;
  ReductionTemplate tmpl = ReductionTemplate::kArFullLoad;
  std::string reason;            // why this template won
  int64_t a0_tile = 1;           // columns per unit (1 for AR)
  int64_t r_chunk = 1;           // rows of R per UB pass (== r for full-load)
  int64_t units = 0;             // a1 * ceil(a0 / a0_tile)
  int64_t block_dim = 0;         // cores used
  int64_t units_per_core = 0;    // q
  int64_t big_cores = 0;         // the first big_cores cores take q+1 units
  std::vector<UbBuffer> ub;

  int64_t CoreBegin(int64_t core) const;  // first unit
  int64_t CoreLen(int64_t core) const;    // units
};

struct Plan {
  enum class Kind { kElementwise, kReduction };
  Kind kind = Kind::kElementwise;
  std::string op;     // snake_case operator name
  std::string dtype;  // CANN dtype name of the storage
  Platform platform;
  ElementwisePlan elementwise;  // kind == kElementwise
  ReductionPlan reduction;      // kind == kReduction

  std::string ToJson() const;
  std::string ToTable() const;
};

// Pure planners. Pre: n >= 1 (every extent >= 1), elem_bytes in {2, 4, 8}.
ElementwisePlan PlanElementwise(int64_t n, int64_t elem_bytes, const EltwiseUbSpec& spec,
                                const Resolved& resolved);
ReductionPlan PlanReduction(int64_t a1, int64_t r, int64_t a0, int64_t elem_bytes,
                            const Resolved& resolved);

// Proves the plan: every element (unit) owned by exactly one core and tile, no tile over
// the UB budget, alignment to the platform's block. kInner with the first violation.
Status CheckPlan(const Plan& plan);

}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_H_
