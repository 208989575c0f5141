// The middle end's operand hand-over and the Map: every elementwise operator (Kinds
// Unary, Binary, Gated, GatedGrad) is up to 4 input views and 2 output views over one
// shape, resolved (broadcast, fused, direct, by rows or gathered), planned, and run through
// its kernel (kernels::GetMap). The gated units arrive as views of self's halves (the
// front end makes them), so this executor knows nothing of splits.
#ifndef HOSTNN_SRC_EXEC_MAP_EXECUTOR_H_
#define HOSTNN_SRC_EXEC_MAP_EXECUTOR_H_

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "hostnn/ops.h"
#include "src/core/check.h"
#include "src/core/layout.h"

namespace hostnn {
namespace exec {

// A checked operand: its view and where its elements lie (core::CheckStorage).
struct Operand {
  const TensorView* view = nullptr;
  const core::ViewSpan* span = nullptr;
};

constexpr int kMaxMapInputs = 4;
constexpr int kMaxMapOutputs = 2;

// The operands of one call, in the kernel's order (kernels::MapFn): the inputs the
// computation reads, then the outputs, all of the first output's shape once the inputs are
// broadcast to it.
struct Operands {
  Operand in[kMaxMapInputs];
  int num_in = 1;
  Operand out[kMaxMapOutputs];
  int num_out = 1;
  // The scalar parameters' values in the list's order, as f32 (CANN's ToFloat, or in
  // self's dtype), and exactly as integers for an integer computation (rule
  // PromoteIntExact). The executor turns them into the operator's typed parameters once
  // (kernels/params.h).
  float scalars[kMaxScalars] = {};
  int64_t int_scalars[kMaxScalars] = {};
  // The problem the planner is given, when it is not out[0]'s shape: a gated unit's self
  // shape and split dim (the planner halves it, tiling/plan.cc). Empty: out[0]'s shape.
  std::vector<int64_t> plan_shape;
  int64_t plan_dim = 0;
  // A gated unit's row counts (ShapeRule::kGroupRows), null for none: a 1-D INT64 view
  // read when phase 2 runs. Only the first min(max(sum, 0), rows) rows of row_elems
  // elements each (in out[0]'s row-major order) are computed; the rest of the outputs is
  // left as it is, as CANN's forward kernel leaves it, or with zero_rest set to +0 in every
  // output, as its gradient's kernel zeroes it.
  Operand row_counts;
  int64_t row_elems = 0;
  bool zero_rest = false;
};

// Pre: the front end checked every operand; the inputs broadcast to out[0]'s shape, which
// every output has. The plan's UB spec is the operator's own.
Status PrepareMap(Op op, const Operands& operands, const tiling::Options& options,
                  uint64_t* workspace_size, ExecutorPtr* executor);

// Resolves the options for `problem` (even when it is empty, so that a bad setting is
// reported either way), then plans and checks it unless it is empty, through the plan
// cache (tiling::MakeSharedPlan). Errors carry the operator's name.
Status PlanOp(Op op, const tiling::Problem& problem, bool empty, const tiling::Options& options,
              std::shared_ptr<const tiling::Plan>* plan);

// FuseOperands of the operands whose view is given, in their order (at most
// kMaxFusedGiven): a norm's row operands and results, some of them optional.
constexpr int kMaxFusedGiven = 8;
Status FuseGiven(Op op, const std::vector<int64_t>& shape, const Operand* const* operands,
                 int count, core::FusedLayout* layout);
Status FuseGiven(Op op, const std::vector<int64_t>& shape,
                 std::initializer_list<const Operand*> operands, core::FusedLayout* layout);

// One operand over its own shape (a weight, a per-column or per-row operand): FuseOperands
// of it alone.
Status FuseOwn(Op op, const Operand& operand, core::FusedLayout* layout);

// core::Fuse of the operands' strides over `shape`, or kInvalid naming the operator when
// more than 8 dims remain: an operator that takes any rank (MaxRank) walks a view of more
// than 8 dims only where they merge into 8 or fewer (a contiguous view merges into one).
Status FuseOperands(Op op, const std::vector<int64_t>& shape, int num, char* const* firsts,
                    const DType* dtypes, const std::vector<int64_t>* strides,
                    core::FusedLayout* layout);

}  // namespace exec
}  // namespace hostnn

#endif  // HOSTNN_SRC_EXEC_MAP_EXECUTOR_H_
