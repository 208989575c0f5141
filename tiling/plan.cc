// Plans as data: a Problem turned into a Plan (operator lookup, (A1, R, A0) fusion), and
// Plan::Check, which proves a plan owns every element exactly once within the UB budget.
// Used by the operators, the tests and hostnn-tiling alike; plan_print.cc prints plans.
// Pure functions: Resolve (options.cc) is the only reader of the environment.

#include <algorithm>
#include <string>
#include <vector>

#include "base/boundary.h"
#include "base/row_sums.h"
#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {
namespace {

constexpr int kMaxRank = 8;
constexpr int64_t kMaxElements = int64_t{1} << 48;

std::string S(int64_t v) { return std::to_string(v); }

Status Fail(const std::string& what) { return Status::Inner("plan check failed: " + what); }

bool IsAr(ReductionTemplate t) {
  return t == ReductionTemplate::kArFullLoad || t == ReductionTemplate::kArRecompute;
}
bool IsFullLoad(ReductionTemplate t) {
  return t == ReductionTemplate::kArFullLoad || t == ReductionTemplate::kAraFullLoad;
}

Status CheckUb(const std::vector<UbBuffer>& ub, const Platform& pf) {
  for (const UbBuffer& b : ub) {
    if (b.bytes < 1 || b.count < 1) return Fail("UB buffer " + b.name + " is empty");
    if (b.bytes % pf.block_bytes != 0) {
      return Fail("UB buffer " + b.name + " of " + S(b.bytes) + " B is not a whole number of " +
                  S(pf.block_bytes) + " B blocks");
    }
  }
  if (UbTotal(ub) > pf.ub_bytes) {
    return Fail("the UB budget " + S(UbTotal(ub)) + " B exceeds the UB of " + S(pf.ub_bytes) +
                " B");
  }
  return Status::Ok();
}

Status CheckElementwise(const ElementwisePlan& p, const Platform& pf) {
  if (p.n < 1) return Fail("n < 1");
  // 16: a COMPLEX128 copy (Embedding).
  if (p.elem_bytes != 1 && p.elem_bytes != 2 && p.elem_bytes != 4 && p.elem_bytes != 8 &&
      p.elem_bytes != 16) {
    return Fail("elem_bytes " + S(p.elem_bytes) + " is not 1, 2, 4, 8 or 16");
  }
  if (p.block_elems * p.elem_bytes != pf.block_bytes) {
    return Fail("a block of " + S(p.block_elems) + " elements is not " + S(pf.block_bytes) + " B");
  }
  if (p.blocks != CeilDiv(p.n, p.block_elems)) return Fail("blocks != ceil(n / block_elems)");
  if (p.block_dim < 1 || p.block_dim > pf.cores) {
    return Fail("block_dim " + S(p.block_dim) + " outside [1, " + S(pf.cores) + "]");
  }
  if (p.blocks_per_core < 1 || p.big_cores < 0 || p.big_cores >= p.block_dim ||
      p.blocks_per_core * p.block_dim + p.big_cores != p.blocks) {
    return Fail("q = " + S(p.blocks_per_core) + " and " + S(p.big_cores) +
                " big cores do not deal " + S(p.blocks) + " blocks to " + S(p.block_dim) +
                " cores");
  }
  if (p.tile_len < 1) return Fail("tile_len < 1: the UB cannot hold one block per buffer");
  if ((p.tile_len * p.elem_bytes) % pf.block_bytes != 0) {
    return Fail("a tile of " + S(p.tile_len * p.elem_bytes) + " B is not a whole number of blocks");
  }
  if (p.buffer_num != 1 && p.buffer_num != 2) return Fail("buffer_num is not 1 or 2");
  if (p.tile_len * p.elem_bytes * p.ub_divisor > pf.ub_bytes) {
    return Fail("tile_len x elem_bytes x divisor " + S(p.ub_divisor) + " exceeds the UB");
  }
  HOSTNN_RETURN_IF_ERROR(CheckUb(p.ub, pf));
  // Ownership: walking every (core, tile) in order, each starts where the last ended, on a
  // block boundary, and the walk ends at n: each element has exactly one (core, tile).
  int64_t next = 0;
  for (int64_t c = 0; c < p.block_dim; ++c) {
    if (p.CoreBegin(c) != next) return Fail("core " + S(c) + " does not start where the last ends");
    if (p.CoreLen(c) < 1) return Fail("core " + S(c) + " owns no element");
    for (int64_t t = 0; t < p.CoreTiles(c); ++t) {
      const int64_t begin = p.TileBegin(c, t), len = p.TileLen(c, t);
      if (begin != next || len < 1 || len > p.tile_len) {
        return Fail("tile " + S(t) + " of core " + S(c) + " covers [" + S(begin) + ", " +
                    S(begin + len) + "), expected to start at " + S(next));
      }
      if (begin % p.block_elems != 0) {
        return Fail("tile " + S(t) + " of core " + S(c) + " starts off a block boundary");
      }
      next = begin + len;
    }
    if (next != p.CoreBegin(c) + p.CoreLen(c)) {
      return Fail("the tiles of core " + S(c) + " do not cover it");
    }
  }
  if (next != p.n) return Fail("cores cover " + S(next) + " of " + S(p.n) + " elements");
  return Status::Ok();
}

Status CheckReduction(const ReductionPlan& p, const Platform& pf) {
  if (p.a1 < 1 || p.r < 1 || p.a0 < 1) return Fail("an extent of (A1, R, A0) is < 1");
  if (p.elem_bytes != 2 && p.elem_bytes != 4 && p.elem_bytes != 8) {
    return Fail("elem_bytes is not 2, 4 or 8");
  }
  // The winner is the first capable template.
  bool first = true;
  for (const TemplateTrial& t : p.trials) {
    if (!t.capable) continue;
    if (first && t.tmpl != p.tmpl) {
      return Fail(std::string("template ") + TemplateName(p.tmpl) + " won, but " +
                  TemplateName(t.tmpl) + " comes first and is capable");
    }
    first = false;
  }
  if (first) return Fail("no template is capable");
  if (IsAr(p.tmpl) != (p.a0 == 1)) return Fail("AR templates need A0 == 1, ARA needs A0 > 1");
  if (p.a1_tile < 1 || p.a1_tile > p.a1) return Fail("a1_tile outside [1, A1]");
  if (p.a0_tile < 1 || p.a0_tile > kMaxA0Tile) return Fail("a0_tile outside [1, kMaxA0Tile]");
  if (p.a0_align < 1 || p.a0_tile % p.a0_align != 0) {
    return Fail("a0_tile " + S(p.a0_tile) + " is not a multiple of " + S(p.a0_align));
  }
  if (IsAr(p.tmpl) && (p.a1_tile != 1 || p.a0_tile != 1)) return Fail("an AR unit is not one row");
  if (p.r_chunk < 1 || p.r_chunk > p.r) return Fail("r_chunk outside [1, R]");
  if (IsFullLoad(p.tmpl) && p.r_chunk != p.r) return Fail("full-load must take all of R at once");
  if (IsAr(p.tmpl) && p.r_chunk < p.r &&
      (p.r_chunk % kRowSumPartials != 0 || p.r_chunk % p.r_align != 0)) {
    return Fail("row chunks of " + S(p.r_chunk) + " are not multiples of " + S(p.r_align) +
                " and 16 (the row partials)");
  }
  if (p.units != p.A1Tiles() * p.A0Tiles()) return Fail("units != A1 tiles x A0 tiles");
  if (p.units_per_core < 1 || p.block_dim != CeilDiv(p.units, p.units_per_core) ||
      p.block_dim > pf.cores) {
    return Fail("block_dim " + S(p.block_dim) + " does not deal " + S(p.units) + " units " +
                S(p.units_per_core) + " a core within " + S(pf.cores) + " cores");
  }
  if (p.units_per_tile < 1 || (p.tmpl != ReductionTemplate::kArFullLoad && p.units_per_tile != 1)) {
    return Fail("units_per_tile " + S(p.units_per_tile) + " invalid for this template");
  }
  HOSTNN_RETURN_IF_ERROR(CheckUb(p.ub, pf));
  // Ownership. Units are (A1 block, A0 tile) pairs, u = block * A0Tiles + tile, a bijection
  // onto [0, units); A1 blocks of a1_tile rows partition [0, A1) and A0 tiles partition
  // [0, A0) (both counts are ceilings, so only the last block or tile is short); R chunks
  // partition [0, R). What remains is that (core, tile) pairs partition the units.
  int64_t next = 0;
  for (int64_t c = 0; c < p.block_dim; ++c) {
    if (p.CoreBegin(c) != next || p.CoreLen(c) < 1) {
      return Fail("core " + S(c) + " owns units [" + S(p.CoreBegin(c)) + ", " +
                  S(p.CoreBegin(c) + p.CoreLen(c)) + "), expected a non-empty range from " +
                  S(next));
    }
    const int64_t end = p.CoreBegin(c) + p.CoreLen(c);
    for (int64_t t = 0; t < p.CoreTiles(c); ++t) {
      const int64_t begin = p.CoreBegin(c) + t * p.units_per_tile;
      const int64_t len = std::min(p.units_per_tile, end - begin);
      if (begin != next || len < 1) return Fail("tile " + S(t) + " of core " + S(c) + " is empty");
      const ReductionPlan::Unit first_unit = p.GetUnit(begin);
      const ReductionPlan::Unit last_unit = p.GetUnit(begin + len - 1);
      if (first_unit.a1_len < 1 || first_unit.a0_len < 1 || last_unit.a1_len < 1 ||
          last_unit.a0_len < 1 || first_unit.a0_begin % p.a0_align != 0) {
        return Fail("tile " + S(t) + " of core " + S(c) + " maps outside the tensor");
      }
      next = begin + len;
    }
    if (next != end) return Fail("the tiles of core " + S(c) + " do not cover it");
  }
  if (next != p.units) return Fail("cores cover " + S(next) + " of " + S(p.units) + " units");
  return Status::Ok();
}

// A normalisation's A2 tiling: its cores' rows add up to the rows, within the platform's
// cores, its chunks cover a row, and the host's cores never outnumber A2's.
Status CheckNorm(const Plan& plan) {
  const NormTiling& t = plan.norm;
  const std::string at = "norm tiling (" + t.kernel + " " + t.tmpl + "): ";
  if (t.rows < 1 || t.cols < 1) return Fail(at + "rows or cols < 1");
  if (t.block_dim < 1 || t.block_dim > plan.platform.cores) {
    return Fail(at + "block_dim " + S(t.block_dim) + " outside [1, " + S(plan.platform.cores) +
                "]");
  }
  if (t.former_cores < 1 || t.former_cores > t.block_dim || t.rows_per_core < 1 ||
      t.tail_rows < 0 || t.leftover_rows < 0 ||
      t.former_cores * t.rows_per_core + (t.block_dim - t.former_cores) * t.tail_rows +
              t.leftover_rows !=
          t.rows) {
    return Fail(at + S(t.former_cores) + " x " + S(t.rows_per_core) + " + " +
                S(t.block_dim - t.former_cores) + " x " + S(t.tail_rows) + " + " +
                S(t.leftover_rows) + " rows is not " + S(t.rows));
  }
  if (t.rows_per_loop < 1) return Fail(at + "no row a UB pass");
  if (t.launched_cores < t.block_dim || t.launched_cores > plan.platform.cores) {
    return Fail(at + S(t.launched_cores) + " cores launched for " + S(t.block_dim));
  }
  if (t.col_chunk < 1 || t.col_chunk > t.cols || t.col_chunks < CeilDiv(t.cols, t.col_chunk)) {
    return Fail(at + "chunks of " + S(t.col_chunk) + " do not split a row of " + S(t.cols));
  }
  if (plan.reduction.block_dim > t.block_dim) {
    return Fail(at + "the host's " + S(plan.reduction.block_dim) + " cores outnumber A2's " +
                S(t.block_dim));
  }
  return Status::Ok();
}

}  // namespace

std::string ShapeText(const std::vector<int64_t>& shape) {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + S(shape[i]);
  return text + "]";
}

int64_t UbTotal(const std::vector<UbBuffer>& ub) {
  int64_t total = 0;
  for (const UbBuffer& b : ub) total += b.bytes * b.count;
  return total;
}

// PreluBackward's units over self's shape (ChannelSumsPlan), on at most `cores` cores; a
// loss's total's over its one dim of every element.
static ChannelSumsPlan PlanChannelSums(const std::vector<int64_t>& shape, int64_t cores) {
  ChannelSumsPlan c;
  int64_t numel = 1;
  for (const int64_t d : shape) numel *= d;
  c.channels = shape.size() >= 2 ? shape[1] : 1;
  c.row_len = numel;
  if (shape.size() >= 2) {
    c.row_len = 1;
    for (size_t i = 2; i < shape.size(); ++i) c.row_len *= shape[i];
  }
  c.rows = numel / c.row_len;
  c.segs_per_row = CeilDiv(c.row_len, kChannelSumSegment);
  c.rows_per_unit = c.row_len >= kChannelSumSegment ? 1 : kChannelSumSegment / c.row_len;
  c.units = c.row_len >= kChannelSumSegment ? c.rows * c.segs_per_row
                                            : CeilDiv(c.rows, c.rows_per_unit);
  c.block_dim = std::max<int64_t>(1, std::min(cores, c.units));
  return c;
}

namespace {

// The optional inputs a problem names must be ones its operator's A2 tiling reads (see
// NormInputs); *inputs gets them with param_dtype resolved.
Status CheckNormInputs(const Problem& problem, NormInputs* inputs) {
  const NormInputs& n = problem.norm;
  *inputs = n;
  if (n.param_dtype == DType::kUndefined) inputs->param_dtype = problem.dtype;
  const std::string op = GetOpInfo(problem.op).snake_name;
  if (n.param_dtype != DType::kUndefined && n.param_dtype != problem.dtype) {
    const Op op_id = problem.op;
    const bool reads = op_id == Op::kLayerNorm || op_id == Op::kLayerNormWithImplMode ||
                       op_id == Op::kLayerNormBackward || op_id == Op::kRmsNorm ||
                       op_id == Op::kRmsNormGrad || op_id == Op::kAddLayerNorm;
    const bool b16 = problem.dtype == DType::kFloat16 || problem.dtype == DType::kBFloat16;
    const char* name = ShortDTypeName(n.param_dtype);
    if (!reads || !b16 || n.param_dtype != DType::kFloat32) {
      return Status::Invalid(std::string("param dtype ") + (name ? name : "?") + " with " +
                             ShortDTypeName(problem.dtype) + " " + op +
                             ": expected the dtype itself, or f32 beside a 16-bit dtype for "
                             "layer_norm(_with_impl_mode), layer_norm_backward, rms_norm, "
                             "rms_norm_grad and add_layer_norm");
    }
  }
  if ((n.bias != NormBias::kNone || n.additional_output) && problem.op != Op::kAddLayerNorm) {
    return Status::Invalid("a bias and the additional output are add_layer_norm's, not " + op +
                           "'s");
  }
  if (n.dsum && problem.op != Op::kAddLayerNormGrad) {
    return Status::Invalid("dsum is add_layer_norm_grad's, not " + op + "'s");
  }
  return Status::Ok();
}

}  // namespace

Status PlanProblem(const Problem& problem, const Resolved& resolved, Plan* plan) {
  return StatusBoundary("PlanProblem", [&] {
    if (!IsValidOp(problem.op)) {
      return Status::Invalid("op " + S(static_cast<int>(problem.op)) +
                             " is unknown; expected one of: " + OpNames());
    }
    const OpInfo& info = GetOpInfo(problem.op);
    const char* dtype = ShortDTypeName(problem.dtype);
    if (dtype == nullptr) {
      return Status::Invalid(std::string("dtype ") + DTypeName(problem.dtype) +
                             " is unknown to tiling; expected f32, f16, bf16, f64, i32, i16, i8, "
                             "u8, i64, bool, c64 or c128");
    }
    Plan p;
    p.dtype = dtype;
    const int64_t elem_bytes = static_cast<int64_t>(DTypeSize(problem.dtype));
    const int rank = static_cast<int>(problem.shape.size());
    if (rank > kMaxRank) {
      return Status::Invalid("shape " + ShapeText(problem.shape) + " has more than 8 dims");
    }
    int64_t numel = 1;
    for (const int64_t d : problem.shape) {
      if (d < 1) {
        return Status::Invalid("shape " + ShapeText(problem.shape) +
                               " has an extent < 1 (an empty tensor needs no plan)");
      }
      if (numel > kMaxElements / d) {
        return Status::Invalid("shape " + ShapeText(problem.shape) +
                               " has more than 2^48 elements");
      }
      numel *= d;
    }
    p.op = info.snake_name;
    p.shape = problem.shape;
    HOSTNN_RETURN_IF_ERROR(CheckNormInputs(problem, &p.norm_inputs));
    p.platform = resolved.platform;
    p.min_elems_per_core = resolved.min_elems_per_core;
    p.stream_min_bytes = resolved.stream_min_bytes;
    p.sources = resolved.sources;
    if (!info.is_reduction) {
      const EltwiseUbSpec* spec = FindEltwiseUbSpec(problem.op);
      if (spec == nullptr) return Status::Inner("op '" + p.op + "' has no UB spec");
      p.kind = Plan::Kind::kElementwise;
      if (info.is_split) {  // the gated units: elementwise over half of self along dim
        const int64_t n = rank > 0 ? rank : 1;
        if (rank == 0 || problem.dim < -n || problem.dim >= n) {
          return Status::Invalid("dim " + S(problem.dim) + " is out of range [" + S(-n) + ", " +
                                 S(n - 1) + "] for shape " + ShapeText(problem.shape) +
                                 " (" + p.op + " splits self along dim)");
        }
        p.dim = problem.dim < 0 ? problem.dim + n : problem.dim;
        if (problem.shape[static_cast<size_t>(p.dim)] % 2 != 0) {
          return Status::Invalid("shape " + ShapeText(problem.shape) + " has an odd extent along dim " +
                                 S(p.dim) + "; " + p.op + " splits it into two halves");
        }
        numel /= 2;
      }
      if (info.kind == Kind::kScatterAdd) {  // grad's [rows, D] into out's [weight_rows, D]
        if (problem.dtype != DType::kFloat32 && problem.dtype != DType::kFloat16 &&
            problem.dtype != DType::kBFloat16) {
          return Status::Invalid(p.op + " reads f32, f16 or bf16 grad, not " + p.dtype);
        }
        if (rank != 2 || problem.weight_rows < 1 ||
            problem.weight_rows > kMaxElements / problem.shape[1]) {
          return Status::Invalid("shape " + ShapeText(problem.shape) + " into " +
                                 S(problem.weight_rows) + " rows: " + p.op +
                                 " plans grad's [rows, D] into out's [numWeights >= 1, D]");
        }
        p.weight_rows = problem.weight_rows;
        numel = problem.weight_rows * problem.shape[1];
        if (IsAtlasA2(resolved.platform)) {
          p.scatter = PlanScatterA2(problem.shape[0], problem.shape[1], problem.weight_rows,
                                    problem.scale_grad_by_freq, problem.dtype, resolved.platform);
        }
      }
      if (info.kind == Kind::kClassLoss) {  // self's [positions, classes]
        if (problem.dtype != DType::kFloat32 && problem.dtype != DType::kFloat16 &&
            problem.dtype != DType::kBFloat16) {
          return Status::Invalid(p.op + " reads f32, f16 or bf16 self, not " + p.dtype);
        }
        if (rank != 2) {
          return Status::Invalid("shape " + ShapeText(problem.shape) + ": " + p.op +
                                 " plans self as [positions, classes]");
        }
        // The forward reads one class per position; the gradient writes every element.
        if (info.is_forward) numel = problem.shape[0];
        if (IsAtlasA2(resolved.platform)) {
          p.loss.kernel = info.is_forward ? "NLLLoss" : "NLLLossGrad";
          p.loss.why = "ops-nn publishes " + p.loss.kernel + "'s tiling for its arch35 kernel only";
        }
      }
      if (info.kind == Kind::kSoftmaxLoss) {  // input's (logProb's) [rows, classes]
        if (problem.dtype != DType::kFloat32 && problem.dtype != DType::kFloat16 &&
            problem.dtype != DType::kBFloat16) {
          return Status::Invalid(p.op + " reads f32, f16 or bf16 rows, not " + p.dtype);
        }
        if (rank != 2) {
          return Status::Invalid("shape " + ShapeText(problem.shape) + ": " + p.op +
                                 " plans its rows as [rows, classes]");
        }
        const SoftmaxLossInputs& in = problem.softmax_loss;
        if (in.reduction < 0 || in.reduction > 2) {
          return Status::Invalid("reduction " + S(in.reduction) + ": " + p.op +
                                 " takes 0 (none), 1 (mean) or 2 (sum)");
        }
        p.softmax_loss_inputs = in;
        if (IsAtlasA2(resolved.platform) && info.shapes == ShapeRule::kLabelRows) {
          p.softmax_loss.kernel = "SoftmaxCrossEntropyWithLogits";
          p.softmax_loss.why =
              "ops-nn publishes SoftmaxCrossEntropyWithLogits' tiling for its arch35 kernel only";
        } else if (IsAtlasA2(resolved.platform)) {
          p.softmax_loss = info.is_forward
                               ? PlanCrossEntropyA2(problem.shape[0], problem.shape[1],
                                                    problem.dtype, in, resolved.platform)
                               : PlanCrossEntropyGradA2(problem.shape[0], problem.shape[1],
                                                        problem.dtype, in, resolved.platform);
        }
      }
      p.elementwise = PlanElementwise(numel, elem_bytes, *spec, resolved);
      if (info.kind == Kind::kGather) {
        if (rank != 2 ||
            (problem.index_dtype != DType::kInt32 && problem.index_dtype != DType::kInt64)) {
          return Status::Invalid("shape " + ShapeText(problem.shape) + " with " +
                                 DTypeName(problem.index_dtype) + " indices: " + p.op +
                                 " plans out's [indices, row length] with INT32 or INT64 indices");
        }
        p.index_dtype = problem.index_dtype;
        if (IsAtlasA2(resolved.platform)) {
          p.gather =
              PlanGatherA2(problem.shape[0], problem.shape[1], elem_bytes,
                           static_cast<int64_t>(DTypeSize(problem.index_dtype)), resolved.platform);
        }
      }
      if (info.kind == Kind::kMapColumnSums) {
        p.channel_sums = PlanChannelSums(problem.shape, p.elementwise.block_dim);
      }
      if (info.kind == Kind::kPointLoss) {  // a loss's one total: segments of every element
        p.channel_sums = PlanChannelSums({numel}, p.elementwise.block_dim);
        if (IsAtlasA2(resolved.platform) && problem.op == Op::kMseLossBackward) {
          p.loss = PlanMseGradA2(numel, problem.dtype, resolved.platform);
        } else if (IsAtlasA2(resolved.platform)) {
          // The kernel CANN's A2 op_api launches, whose A2 tiling ops-nn does not publish.
          switch (problem.op) {
            case Op::kBinaryCrossEntropyWithLogits:
              p.loss.kernel = "SigmoidCrossEntropyWithLogitsV2";
              break;
            case Op::kBinaryCrossEntropyWithLogitsBackward:
              p.loss.kernel = "SigmoidCrossEntropyWithLogitsGradV2";
              break;
            case Op::kBinaryCrossEntropyWithLogitsTargetBackward:
              p.loss.kernel = "LogSigmoid";  // and Sub, Mul: a chain of elementwise kernels
              break;
            default:
              p.loss.kernel = "MseLoss";
              break;
          }
          p.loss.why = "ops-nn publishes " + p.loss.kernel + "'s tiling for its arch35 kernel only";
        }
      }
      *plan = p;
      return Status::Ok();
    }
    // LogSoftmax computes in its out's dtype, DOUBLE included; LogSoftmaxBackward in f32.
    if (elem_bytes != 2 && elem_bytes != 4 && !(elem_bytes == 8 && info.is_forward)) {
      return Status::Invalid(p.op + " reads f32, f16 or bf16, not " + p.dtype);
    }
    const int64_t n = rank > 0 ? rank : 1;
    if (problem.dim < -n || problem.dim >= n) {
      return Status::Invalid("dim " + S(problem.dim) + " is out of range [" + S(-n) + ", " +
                             S(n - 1) + "] for shape " + ShapeText(problem.shape));
    }
    p.dim = problem.dim < 0 ? problem.dim + n : problem.dim;
    // A normalisation over trailing dims normalises dims [dim, rank): rows of their product.
    const bool trailing = info.shapes == ShapeRule::kTrailingDims;
    int64_t a1 = 1, r = 1, a0 = 1;
    for (int i = 0; i < rank; ++i) {
      if (i < p.dim) a1 *= problem.shape[i];
      if (i == p.dim || (trailing && i > p.dim)) r *= problem.shape[i];
      if (i > p.dim && !trailing) a0 *= problem.shape[i];
    }
    int64_t norm_rows = a1, norm_cols = r, channels = 0, spatial = 1;
    if (info.shapes == ShapeRule::kChannelGroups && problem.group != 0) {
      // [N, C, spatial...]: a row per (sample, group), of C / group channels.
      if (rank < 2 || problem.group < 1 || problem.shape[1] % problem.group != 0) {
        return Status::Invalid("group " + S(problem.group) + " does not divide the channels of " +
                               ShapeText(problem.shape) + " (" + p.op +
                               " takes [N, C, spatial...] with C a multiple of group)");
      }
      channels = problem.shape[1];
      for (int i = 2; i < rank; ++i) spatial *= problem.shape[i];
      a1 = problem.shape[0] * problem.group;
      r = channels / problem.group * spatial;
      a0 = 1;
      norm_rows = a1;
      norm_cols = r;
    }
    int64_t bn_channels = 0, bn_spatial = 1;
    if (info.shapes == ShapeRule::kChannelStats && rank >= 2) {
      bn_channels = problem.shape[1];
      // BatchNorm's [N, C, spatial...]: a segment per (sample, channel) of the spatial
      // elements, whose sums the executor combines per channel.
      a1 = problem.shape[0] * problem.shape[1];
      r = 1;
      for (int i = 2; i < rank; ++i) r *= problem.shape[i];
      a0 = 1;
      p.dim = 1;
      bn_spatial = r;
    }
    if (r == 1) {  // nothing to reduce: one long A0, as Ascend fuses it
      a0 *= a1;
      a1 = 1;
    }
    p.kind = Plan::Kind::kReduction;
    p.reduction =
        PlanReduction(problem.op, a1, r, a0, elem_bytes, RowChunkAlign(problem.op), resolved);
    ReductionPlan& red = p.reduction;
    if (IsAtlasA2(resolved.platform)) {
      if (bn_channels > 0) {
        p.norm = PlanBatchNormA2(problem.op, problem.dtype, problem.shape[0], bn_channels,
                                 bn_spatial, resolved.platform);
      } else {
        p.norm = channels > 0 ? PlanGroupNormA2(problem.op, problem.dtype, problem.shape[0],
                                                channels, spatial, problem.group, resolved.platform)
                              : PlanNormA2(problem.op, problem.dtype, p.norm_inputs, norm_rows,
                                           norm_cols, resolved.platform);
      }
      // The host's cores take A2's rows per core (rows of one element, planned as one A0,
      // at most A2's cores).
      if (p.norm.planned && (red.a0 == 1 || red.block_dim > p.norm.block_dim)) {
        red.units_per_core = CeilDiv(red.units, p.norm.block_dim);
        red.block_dim = CeilDiv(red.units, red.units_per_core);
        red.units_per_tile = std::min(red.units_per_tile, red.units_per_core);
      }
    }
    red.output_by_rows = red.a0 >= kRowSplitMinA0 && red.block_dim > 1 && red.A0Tiles() > 1 &&
                         (!GetOpInfo(problem.op).is_forward ||
                          red.a0 * red.elem_bytes <= red.block_dim * kRowSplitMaxForwardShare);
    *plan = p;
    return Status::Ok();
  });
}

Status MakePlan(const Problem& problem, const Options& options, Plan* plan) {
  return StatusBoundary("MakePlan", [&] {
    Resolved resolved;
    HOSTNN_RETURN_IF_ERROR(Resolve(options, problem, &resolved));
    Plan p;
    HOSTNN_RETURN_IF_ERROR(PlanProblem(problem, resolved, &p));
    HOSTNN_RETURN_IF_ERROR(p.Check());
    *plan = p;
    return Status::Ok();
  });
}

Status Plan::Check() const {
  return StatusBoundary("Plan::Check", [&] {
    const Platform& pf = platform;
    if (pf.cores < 1 || pf.ub_bytes < 1 || pf.block_bytes < 1) {
      return Fail("the platform has non-positive sizes");
    }
    if (kind == Kind::kElementwise && channel_sums.units > 0) {
      const ChannelSumsPlan& c = channel_sums;
      int64_t covered = 0;  // every element of every row in exactly one unit, in order
      for (int64_t core = 0; core < c.block_dim; ++core) {
        for (int64_t u = c.UnitBegin(core); u < c.UnitEnd(core); ++u) {
          int64_t row = 0, offset = 0, len = 0;
          c.Unit(u, &row, &offset, &len);
          if (len < 1 || row * c.row_len + offset != covered) {
            return Fail("channel sums: unit " + S(u) + " does not start where unit " +
                        S(u - 1) + " ends");
          }
          covered += len;
        }
      }
      if (c.block_dim < 1 || c.block_dim > elementwise.block_dim || covered != c.rows * c.row_len) {
        return Fail("channel sums: the units do not cover the " + S(c.rows) + " rows of " +
                    S(c.row_len) + " on at most the plan's cores");
      }
    }
    if (kind == Kind::kReduction && norm.planned) HOSTNN_RETURN_IF_ERROR(CheckNorm(*this));
    if (loss.planned) {  // the cores' blocks and the pad cover the elements exactly
      const LossTiling& t = loss;
      if (t.block_dim < 1 || t.block_dim > pf.cores || t.full_cores < 1 ||
          t.block_length * t.full_cores + t.pad_length != t.total_length ||
          (t.block_dim != t.full_cores && t.block_dim != t.full_cores + 1) ||
          t.tile_num * t.full_cores < t.loops) {
        return Fail("loss: the cores' blocks do not cover the " + S(t.total_length) + " elements");
      }
    }
    if (softmax_loss.planned) {  // the rows cut exactly; a row's passes covering its classes
      const SoftmaxLossTiling& t = softmax_loss;
      const bool forward = t.kernel == "CrossEntropyLoss";
      const int64_t covered = forward ? t.ub_loops * t.input_ub_size + t.ub_tail
                                      : t.col_loops * t.col_tile + t.col_tail;
      if (t.block_dim < 1 || t.block_dim > pf.cores || shape.size() != 2 ||
          t.front_cores * t.front_rows + t.tail_cores * t.tail_rows != shape[0] ||
          covered != shape[1] || (forward && t.total_buf_bytes > pf.ub_bytes)) {
        return Fail("softmax loss: the cores' rows do not cover the " + S(shape[0]) +
                    " rows, or a row's passes its " + S(shape[1]) + " classes");
      }
    }
    if (scatter.planned) {  // grad's rows cut exactly, a row's passes covering D
      const ScatterTiling& t = scatter;
      const int64_t rows =
          t.mode == "small dim"
              ? t.copy_rows * (t.block_dim - 1) + t.last_core_rows
              : t.former_cores * t.former_rows + (t.block_dim - t.former_cores) * t.tail_rows;
      if (t.block_dim < 1 || t.block_dim > pf.cores || rows != t.grad_rows ||
          t.dim_pass * t.dim_reps + t.dim_tail != t.dim || t.dim_pass > t.max_dim ||
          (t.scale && t.scale_rows * t.block_dim + t.scale_former_cores != t.num_weights)) {
        return Fail("scatter: the cores' rows do not cover grad's " + S(t.grad_rows) +
                    " rows, or a row's passes do not cover its " + S(t.dim) + " elements");
      }
    }
    if (gather.planned) {  // the shares cover out's elements exactly, each core's at least 1
      const GatherTiling& g = gather;
      const int64_t former = std::min(g.total, g.per_core * (g.block_dim - 1));
      if (g.block_dim < 1 || g.block_dim > pf.cores || g.per_core < 1 ||
          former + g.last_core != g.total || g.tile_count < 1 ||
          g.tile_count * (g.x_bytes + g.index_bytes) > pf.ub_bytes) {
        return Fail("gather: the cores' shares do not cover the " + S(g.total) +
                    " elements, or a UB pass does not fit");
      }
    }
    return kind == Kind::kElementwise ? CheckElementwise(elementwise, pf)
                                      : CheckReduction(reduction, pf);
  });
}

}  // namespace tiling
}  // namespace hostnn
