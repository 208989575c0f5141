// Plans as data: JSON and a readable table, and CheckPlan, which proves a plan covers its
// problem exactly once within the UB budget. Used by the executors, the tests and
// hostnn-tiling alike.

#include <sstream>
#include <string>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {
namespace {

std::string UbJson(const std::vector<UbBuffer>& ub) {
  std::ostringstream o;
  o << "[";
  for (size_t i = 0; i < ub.size(); ++i) {
    o << (i ? ", " : "") << "{\"name\": \"" << ub[i].name << "\", \"bytes\": " << ub[i].bytes
      << ", \"count\": " << ub[i].count << "}";
  }
  o << "]";
  return o.str();
}

int64_t UbTotal(const std::vector<UbBuffer>& ub) {
  int64_t total = 0;
  for (const auto& b : ub) total += b.bytes * b.count;
  return total;
}

std::string Fail(const std::string& what) { return "plan check failed: " + what; }

}  // namespace

std::string Plan::ToJson() const {
  std::ostringstream o;
  o << "{\n  \"op\": \"" << op << "\",\n  \"dtype\": \"" << dtype << "\",\n"
    << "  \"platform\": {\"name\": \"" << platform.name << "\", \"cores\": " << platform.cores
    << ", \"ub_bytes\": " << platform.ub_bytes << ", \"block_bytes\": " << platform.block_bytes
    << "},\n";
  if (kind == Kind::kElementwise) {
    const ElementwisePlan& p = elementwise;
    o << "  \"kind\": \"elementwise\",\n"
      << "  \"n\": " << p.n << ",\n  \"elem_bytes\": " << p.elem_bytes
      << ",\n  \"block_elems\": " << p.block_elems << ",\n  \"blocks\": " << p.blocks
      << ",\n  \"block_dim\": " << p.block_dim << ",\n  \"blocks_per_core\": " << p.blocks_per_core
      << ",\n  \"big_cores\": " << p.big_cores
      << ",\n  \"big_core_elems\": " << (p.blocks_per_core + 1) * p.block_elems
      << ",\n  \"small_core_elems\": " << p.blocks_per_core * p.block_elems
      << ",\n  \"tile_len\": " << p.tile_len << ",\n  \"buffer_num\": " << p.buffer_num
      << ",\n  \"ub_divisor\": " << p.ub_divisor << ",\n  \"ub_used_bytes\": " << UbTotal(p.ub)
      << ",\n  \"ub\": " << UbJson(p.ub) << "\n}\n";
  } else {
    const ReductionPlan& p = reduction;
    o << "  \"kind\": \"reduction\",\n"
      << "  \"a1\": " << p.a1 << ",\n  \"r\": " << p.r << ",\n  \"a0\": " << p.a0
      << ",\n  \"elem_bytes\": " << p.elem_bytes << ",\n  \"template\": \""
      << TemplateName(p.tmpl) << "\",\n  \"reason\": \"" << p.reason << "\",\n  \"a0_tile\": "
      << p.a0_tile << ",\n  \"r_chunk\": " << p.r_chunk << ",\n  \"units\": " << p.units
      << ",\n  \"block_dim\": " << p.block_dim << ",\n  \"units_per_core\": " << p.units_per_core
      << ",\n  \"big_cores\": " << p.big_cores << ",\n  \"ub_used_bytes\": " << UbTotal(p.ub)
      << ",\n  \"ub\": " << UbJson(p.ub) << "\n}\n";
  }
  return o.str();
}

std::string Plan::ToTable() const {
  std::ostringstream o;
  o << "op            " << op << " (" << dtype << ")\n"
    << "platform      " << platform.name << ": " << platform.cores << " cores, UB "
    << platform.ub_bytes << " B, blocks of " << platform.block_bytes << " B\n";
  if (kind == Kind::kElementwise) {
    const ElementwisePlan& p = elementwise;
    o << "elements      " << p.n << " (" << p.blocks << " blocks of " << p.block_elems << ")\n"
      << "block_dim     " << p.block_dim << "\n"
      << "per core      " << p.big_cores << " x " << (p.blocks_per_core + 1) * p.block_elems
      << " elements, " << (p.block_dim - p.big_cores) << " x "
      << p.blocks_per_core * p.block_elems << " (the last core clipped to n)\n"
      << "tile_len      " << p.tile_len << " elements, "
      << (p.buffer_num == 2 ? "double" : "single") << "-buffered, UB divisor " << p.ub_divisor
      << "\n";
  } else {
    const ReductionPlan& p = reduction;
    o << "fused         (A1, R, A0) = (" << p.a1 << ", " << p.r << ", " << p.a0 << ")\n"
      << "template      " << TemplateName(p.tmpl) << ": " << p.reason << "\n"
      << "a0_tile       " << p.a0_tile << "\n"
      << "r_chunk       " << p.r_chunk << "\n"
      << "units         " << p.units << " over block_dim " << p.block_dim << ": " << p.big_cores
      << " x " << p.units_per_core + 1 << ", " << (p.block_dim - p.big_cores) << " x "
      << p.units_per_core << "\n";
  }
  const auto& ub = kind == Kind::kElementwise ? elementwise.ub : reduction.ub;
  o << "UB            " << UbTotal(ub) << " of " << platform.ub_bytes << " B:";
  for (const auto& b : ub) o << " " << b.name << " " << b.bytes << (b.count > 1 ? "x" + std::to_string(b.count) : "");
  o << "\n";
  return o.str();
}

Status CheckPlan(const Plan& plan) {
  const Platform& pf = plan.platform;
  if (pf.cores < 1 || pf.ub_bytes < 1 || pf.block_bytes < 1) {
    return Status::Inner(Fail("platform has non-positive sizes"));
  }
  if (plan.kind == Plan::Kind::kElementwise) {
    const ElementwisePlan& p = plan.elementwise;
    if (p.block_dim < 1 || p.block_dim > pf.cores) {
      return Status::Inner(Fail("block_dim " + std::to_string(p.block_dim) + " outside [1, " +
                                std::to_string(pf.cores) + "]"));
    }
    if (p.tile_len < 1) return Status::Inner(Fail("tile_len < 1: the UB cannot hold one block"));
    if ((p.tile_len * p.elem_bytes) % pf.block_bytes != 0) {
      return Status::Inner(Fail("tile of " + std::to_string(p.tile_len * p.elem_bytes) +
                                " B is not a multiple of the block"));
    }
    if (UbTotal(p.ub) > pf.ub_bytes || p.tile_len * p.elem_bytes * p.ub_divisor > pf.ub_bytes) {
      return Status::Inner(Fail("UB budget " + std::to_string(UbTotal(p.ub)) + " B exceeds " +
                                std::to_string(pf.ub_bytes)));
    }
    // Every element owned by exactly one core: the core ranges tile [0, n) in order.
    int64_t next = 0;
    for (int64_t c = 0; c < p.block_dim; ++c) {
      const int64_t begin = p.CoreBegin(c), len = p.CoreLen(c);
      if (begin != next || len < 0) return Status::Inner(Fail("core " + std::to_string(c) + " does not start where core " + std::to_string(c - 1) + " ends"));
      if (begin % p.block_elems != 0) return Status::Inner(Fail("core " + std::to_string(c) + " starts off a block boundary"));
      if (len == 0) return Status::Inner(Fail("core " + std::to_string(c) + " owns no element"));
      next = begin + len;
    }
    if (next != p.n) return Status::Inner(Fail("cores cover " + std::to_string(next) + " of " + std::to_string(p.n) + " elements"));
    return Status::Ok();
  }
  const ReductionPlan& p = plan.reduction;
  if (p.block_dim < 1 || p.block_dim > pf.cores || p.block_dim > p.units) {
    return Status::Inner(Fail("block_dim " + std::to_string(p.block_dim) + " invalid"));
  }
  if (p.a0_tile < 1 || p.a0_tile > p.a0 || p.r_chunk < 1 || p.r_chunk > p.r) {
    return Status::Inner(Fail("a0_tile or r_chunk out of range"));
  }
  const bool ar = p.tmpl == ReductionTemplate::kArFullLoad || p.tmpl == ReductionTemplate::kArRecompute;
  if (ar != (p.a0 == 1)) return Status::Inner(Fail("AR templates need A0 == 1, ARA needs A0 > 1"));
  const bool full = p.tmpl == ReductionTemplate::kArFullLoad || p.tmpl == ReductionTemplate::kAraFullLoad;
  if (full != (p.r_chunk == p.r)) return Status::Inner(Fail("full-load must take all of R in one chunk"));
  if (ar && p.r_chunk != p.r && p.r_chunk % 16 != 0) return Status::Inner(Fail("row chunks must be multiples of 16"));
  if (UbTotal(p.ub) > pf.ub_bytes) {
    // A single row of an ARA tile or one 16-element AR chunk is the floor of any plan.
    const bool at_floor = (ar && p.r_chunk == 16) || (!ar && p.r_chunk == 1 && p.a0_tile <= 16);
    if (!at_floor) return Status::Inner(Fail("UB budget " + std::to_string(UbTotal(p.ub)) + " B exceeds " + std::to_string(pf.ub_bytes)));
  }
  const int64_t tiles = (p.a0 + p.a0_tile - 1) / p.a0_tile;
  if (p.units != p.a1 * tiles) return Status::Inner(Fail("units != A1 * A0 tiles"));
  int64_t next = 0;
  for (int64_t c = 0; c < p.block_dim; ++c) {
    if (p.CoreBegin(c) != next || p.CoreLen(c) < 1) return Status::Inner(Fail("core " + std::to_string(c) + " owns a wrong unit range"));
    next += p.CoreLen(c);
  }
  if (next != p.units) return Status::Inner(Fail("cores cover " + std::to_string(next) + " of " + std::to_string(p.units) + " units"));
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn
