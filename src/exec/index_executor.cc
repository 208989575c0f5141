// The Gather kind's executor: the Map plan of out's elements as [n, D], n the indices and D
// weight's row length. A core's elements are whole rows but at its two ends; each row is
// weight's row indices[i] copied byte for byte: one memcpy where the weight row and out's row
// are both contiguous, else element by element at their strides. An out too big to stay in
// the caches (the plan's stream_min_bytes) whose rows are long is written with non-temporal
// stores (kernels::GetStreamCopy), which spare the read of each line before it is written. indices
// and out's leading dims share indices' shape, fused into at most 8 dims, so a row's index and its
// place in out come from one walk of that layout; weight is read at its own two strides.

#include "src/exec/index_executor.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

class GatherExecutor final : public Executor {
 public:
  GatherExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& rows,
                 DType index_dtype, const char* weight, int64_t weight_rows, int64_t weight_stride0,
                 int64_t weight_stride1, int64_t out_stride, int64_t d, size_t elem_bytes)
      : Executor(op, std::move(plan)),
        rows_(rows),
        index64_(index_dtype == DType::kInt64),
        weight_(weight),
        weight_rows_(weight_rows),
        d_(d),
        elem_bytes_(static_cast<int64_t>(elem_bytes)),
        weight_stride0_(weight_stride0 * elem_bytes_),
        weight_stride1_(weight_stride1 * elem_bytes_),
        out_stride_(out_stride * elem_bytes_) {
    // A row is one memcpy where both rows are contiguous (or of one element).
    contiguous_ = d_ == 1 || (weight_stride1_ == elem_bytes_ && out_stride_ == elem_bytes_);
    const uint64_t out_bytes = static_cast<uint64_t>(rows.numel * d_ * elem_bytes_);
    stream_copy_ = RowStreamCopy(contiguous_, d_ * elem_bytes_, out_bytes, plan_->stream_min_bytes);
  }

  std::string KernelPath() const override {
    return std::string("row copy (") +
           (stream_copy_ != nullptr ? "stream stores per row"
            : contiguous_           ? "memcpy per row"
                                    : "strided elements") +
           ", " + std::to_string(elem_bytes_) + "-byte elements, " +
           (index64_ ? "INT64" : "INT32") + " indices checked first)";
  }

  Status CheckRunValues() const override {
    for (int64_t i = 0; i < rows_.numel; ++i) {
      const int64_t index = Index(i);
      if (index < 0 || index >= weight_rows_) {
        return Status::Invalid(std::string(GetOpInfo(op_).name) + ": indices element " +
                               std::to_string(i) + " (row-major) is " + std::to_string(index) +
                               ", outside weight's rows [0, " + std::to_string(weight_rows_) +
                               "); nothing was written");
      }
    }
    return Status::Ok();
  }

  void Run(char* workspace) const override {
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &GatherExecutor::RunCore, workspace);
  }

 private:
  int64_t Index(int64_t i) const {
    const char* at = rows_.operands[0].first;
    const int64_t off = core::ElementOffset(rows_, 0, i);
    return index64_ ? reinterpret_cast<const int64_t*>(at)[off]
                    : reinterpret_cast<const int32_t*>(at)[off];
  }

  void RunCore(int64_t core, char*) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    for (int64_t i = begin / d_; i * d_ < end; ++i) {
      const int64_t c0 = std::max<int64_t>(begin - i * d_, 0);
      const int64_t c1 = std::min<int64_t>(end - i * d_, d_);
      const char* src = weight_ + Index(i) * weight_stride0_ + c0 * weight_stride1_;
      char* dst = rows_.operands[1].first + core::ElementOffset(rows_, 1, i) * elem_bytes_ +
                  c0 * out_stride_;
      const size_t bytes = static_cast<size_t>((c1 - c0) * elem_bytes_);
      if (contiguous_ && (i + 1) * d_ < end) Prefetch(i + 1);
      if (stream_copy_ != nullptr) {
        stream_copy_(src, dst, bytes);
      } else if (contiguous_) {
        std::memcpy(dst, src, bytes);
      } else {
        CopyStrided(src, weight_stride1_, dst, out_stride_, c1 - c0,
                    static_cast<size_t>(elem_bytes_));
      }
    }
    if (stream_copy_ != nullptr) kernels::StoreFence();
  }

  // The weight row of out row i, asked for ahead of its copy: rows lie at random in weight,
  // and the hardware prefetcher does not cross into a row's pages before it is read.
  void Prefetch(int64_t i) const {
    const char* row = weight_ + Index(i) * weight_stride0_;
    const int64_t bytes = std::min(d_ * elem_bytes_, kPrefetchBytes);
    for (int64_t b = 0; b < bytes; b += kLineBytes) __builtin_prefetch(row + b);
  }
  static constexpr int64_t kLineBytes = 64;
  static constexpr int64_t kPrefetchBytes = 16384;

  core::FusedLayout rows_;  // indices, then the start of out's rows, over indices' shape
  bool index64_;
  const char* weight_;
  int64_t weight_rows_, d_, elem_bytes_;
  int64_t weight_stride0_, weight_stride1_, out_stride_;  // bytes
  bool contiguous_ = false;
  kernels::CopyFn stream_copy_ = nullptr;  // set: long contiguous rows of a large out
};

}  // namespace

Status PrepareGather(Op op, const GatherOperands& o, const tiling::Options& options,
                     uint64_t* workspace_size, ExecutorPtr* executor) {
  const DType dtype = o.weight.view->dtype;
  const int64_t rows = o.weight.view->shape[0], d = o.weight.view->shape[1];
  const int64_t n = o.indices.span->numel;
  tiling::Problem problem{op, dtype, {n, d}, 0, launch::TeamSize()};
  problem.index_dtype = o.indices.view->dtype;
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  // indices and out's rows over indices' shape: out's strides but its last.
  const std::vector<int64_t>& shape = o.indices.view->shape;
  const std::vector<int64_t>& out_strides = o.out.span->strides;
  const std::vector<int64_t> strides[2] = {
      o.indices.span->strides, std::vector<int64_t>(out_strides.begin(), out_strides.end() - 1)};
  char* firsts[2] = {o.indices.span->first, o.out.span->first};
  const DType dtypes[2] = {o.indices.view->dtype, dtype};
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, 2, firsts, dtypes, strides, &layout));
  const std::vector<int64_t>& ws = o.weight.span->strides;
  auto* exec =
      new GatherExecutor(op, std::move(plan), layout, o.indices.view->dtype, o.weight.span->first,
                         rows, ws[0], ws[1], out_strides.back(), d, DTypeSize(dtype));
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
