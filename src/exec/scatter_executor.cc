// The ScatterAdd kind's executor: the Map plan of out's [numWeights, D] elements. Phase 2 first
// reads every index once, serially, into the workspace and sorts grad's row positions by the
// row of out they add to (a stable counting sort: each out row's positions in increasing
// order). Then each core computes its share of out's elements row by row (a share may cut
// rows): a row no index names, and paddingIdx's, is zeros (one memset, or non-temporal stores
// for a large out, over each run of such rows of a contiguous out); a row named once, with
// grad and out of one dtype, is grad's row copied (the sum of one term, exact); any other row
// is its terms widened to double and added in position order, a chunk of the row at a time,
// divided by the count with scaleGradByFreq, and rounded once to out's dtype (through f32:
// the rounding to 16 bits after it is the one SPEC allows). No element depends on another
// core's work, so out's bits do not depend on the number of threads.

#include "src/exec/scatter_executor.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

constexpr int64_t kChunk = 512;  // a row is summed this many elements at a time (on the stack)

class ScatterExecutor final : public Executor {
 public:
  struct Layouts {
    core::FusedLayout grad, indices, out;  // each over its own shape, one operand
  };

  ScatterExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const Layouts& layouts,
                  DType grad_dtype, DType index_dtype, DType out_dtype, int64_t n, int64_t d,
                  int64_t num_weights, int64_t padding_idx, bool scale)
      : Executor(op, std::move(plan)),
        l_(layouts),
        grad_codec_(MakeCodec(grad_dtype)),
        out_codec_(MakeCodec(out_dtype)),
        index_dtype_(index_dtype),
        index_to_f64_(kernels::GetToF64(index_dtype)),
        index_bytes_(static_cast<int64_t>(DTypeSize(index_dtype))),
        n_(n),
        d_(d),
        num_weights_(num_weights),
        padding_idx_(padding_idx),
        scale_(scale),
        copy_rows_(grad_dtype == out_dtype) {
    // The workspace: each position's row, then the sorted positions' ends per out row, then
    // the sorted positions.
    if (n_ > 0) {
      ends_at_ = AlignWorkspace(static_cast<uint64_t>(n_) * 8);
      order_at_ = ends_at_ + AlignWorkspace(static_cast<uint64_t>(num_weights_) * 8);
      workspace_bytes_ = order_at_ + AlignWorkspace(static_cast<uint64_t>(n_) * 8);
    }
    const int64_t es = static_cast<int64_t>(out_codec_.elem_bytes);
    const uint64_t out_bytes = static_cast<uint64_t>(num_weights_ * d_ * es);
    stream_copy_ = RowStreamCopy(l_.out.dense, d_ * es, out_bytes, plan_->stream_min_bytes);
  }

  std::string KernelPath() const override {
    return std::string("row sums in double (") +
           (stream_copy_ != nullptr ? "zeros and single rows streamed"
            : l_.out.dense          ? "contiguous out"
                                    : "strided out") +
           ", " + DTypeName(index_dtype_) + " indices checked and sorted first)";
  }

  Status CheckRunValues() const override {
    for (int64_t p = 0; p < n_; ++p) {
      int64_t row = 0;
      if (!ReadIndex(p, &row) || row < 0 || row >= num_weights_) {
        return Status::Invalid(std::string(GetOpInfo(op_).name) + ": indices element " +
                               std::to_string(p) + " (row-major) is " + IndexText(p) +
                               ", outside out's rows [0, " + std::to_string(num_weights_) +
                               ") (numWeights); nothing was written");
      }
    }
    return Status::Ok();
  }

  void Run(char* workspace) const override {
    if (n_ > 0) SortPositions(workspace);
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &ScatterExecutor::RunCore, workspace);
  }

 private:
  // The row index element p names (a float truncated toward zero, as a Cast to INT32); false
  // for one that names no row a tensor can have (NaN, or past int64's range).
  bool ReadIndex(int64_t p, int64_t* row) const {
    const char* at =
        l_.indices.operands[0].first + core::ElementOffset(l_.indices, 0, p) * index_bytes_;
    switch (index_dtype_) {
      case DType::kInt64: {
        std::memcpy(row, at, 8);
        return true;
      }
      case DType::kInt32: {
        int32_t v;
        std::memcpy(&v, at, 4);
        *row = v;
        return true;
      }
      case DType::kInt16: {
        int16_t v;
        std::memcpy(&v, at, 2);
        *row = v;
        return true;
      }
      case DType::kInt8:
        *row = static_cast<int8_t>(*at);
        return true;
      case DType::kUInt8:
        *row = static_cast<uint8_t>(*at);
        return true;
      case DType::kBool:
        *row = *at != 0 ? 1 : 0;
        return true;
      default: {  // FLOAT, FLOAT16, DOUBLE
        double v = 0.0;
        index_to_f64_(at, &v, 1);
        if (!(v > -9.2e18 && v < 9.2e18)) return false;
        *row = static_cast<int64_t>(v);
        return true;
      }
    }
  }

  std::string IndexText(int64_t p) const {
    int64_t row = 0;
    if (index_to_f64_ == nullptr || IsPromotableIntType(index_dtype_)) {
      ReadIndex(p, &row);
      return std::to_string(row);
    }
    const char* at =
        l_.indices.operands[0].first + core::ElementOffset(l_.indices, 0, p) * index_bytes_;
    double v = 0.0;
    index_to_f64_(at, &v, 1);
    if (std::isnan(v)) return "NaN";
    char text[64];
    std::snprintf(text, sizeof(text), "%.17g", v);
    const bool fraction = ReadIndex(p, &row) && static_cast<double>(row) != v;
    return fraction ? std::string(text) + " (row " + std::to_string(row) + ")" : text;
  }

  // Positions by out row, stable: ends[w] is one past row w's last position in order[].
  void SortPositions(char* workspace) const {
    int64_t* rows = reinterpret_cast<int64_t*>(workspace);
    int64_t* ends = reinterpret_cast<int64_t*>(workspace + ends_at_);
    int64_t* order = reinterpret_cast<int64_t*>(workspace + order_at_);
    std::memset(ends, 0, static_cast<size_t>(num_weights_) * sizeof(int64_t));
    for (int64_t p = 0; p < n_; ++p) {
      ReadIndex(p, &rows[p]);  // in range: CheckRunValues passed
      ++ends[rows[p]];
    }
    int64_t start = 0;
    for (int64_t w = 0; w < num_weights_; ++w) {  // counts to starts
      const int64_t count = ends[w];
      ends[w] = start;
      start += count;
    }
    for (int64_t p = 0; p < n_; ++p) order[ends[rows[p]]++] = p;  // starts to ends
  }

  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    // (No sorted positions without indices: the workspace is then empty, maybe null.)
    const int64_t* ends = n_ > 0 ? reinterpret_cast<const int64_t*>(workspace + ends_at_) : nullptr;
    const int64_t* order =
        n_ > 0 ? reinterpret_cast<const int64_t*>(workspace + order_at_) : nullptr;
    int64_t zeros_from = -1;  // the first element of a run of zero rows not yet written
    for (int64_t w = begin / d_; w * d_ < end; ++w) {
      const int64_t c0 = std::max<int64_t>(begin - w * d_, 0);
      const int64_t c1 = std::min<int64_t>(end - w * d_, d_);
      const int64_t first = n_ == 0 || w == 0 ? 0 : ends[w - 1];
      const int64_t count = n_ == 0 ? 0 : ends[w] - first;
      if (count == 0 || w == padding_idx_) {
        if (zeros_from < 0) zeros_from = w * d_ + c0;
        continue;
      }
      if (zeros_from >= 0) Zero(zeros_from, w * d_ + c0);
      zeros_from = -1;
      if (count == 1 && copy_rows_) {
        CopyRow(order[first], w, c0, c1);
      } else {
        SumRow(order + first, count, w, c0, c1);
      }
    }
    if (zeros_from >= 0) Zero(zeros_from, end);
    if (stream_copy_ != nullptr) kernels::StoreFence();
  }

  // out's elements [e0, e1) (row-major) set to +0.
  void Zero(int64_t e0, int64_t e1) const {
    ZeroElements(l_.out, out_codec_.elem_bytes, e0, e1, stream_copy_);
  }

  // out[w, c0:c1] = grad[p, c0:c1], byte for byte (grad and out of one dtype).
  void CopyRow(int64_t p, int64_t w, int64_t c0, int64_t c1) const {
    const size_t es = out_codec_.elem_bytes;
    const int64_t src = p * d_ + c0, dst = w * d_ + c0, len = c1 - c0;
    if (l_.grad.dense && l_.out.dense) {
      const char* s = l_.grad.operands[0].first + src * static_cast<int64_t>(es);
      char* t = l_.out.operands[0].first + dst * static_cast<int64_t>(es);
      const size_t bytes = static_cast<size_t>(len) * es;
      if (stream_copy_ != nullptr) {
        stream_copy_(s, t, bytes);
      } else {
        std::memcpy(t, s, bytes);
      }
      return;
    }
    alignas(64) char tmp[kChunk * sizeof(float)];
    for (int64_t k = 0; k < len; k += kChunk) {
      const int64_t m = std::min(kChunk, len - k);
      GatherRaw(l_.grad, l_.grad.operands[0], es, src + k, m, tmp);
      ScatterRaw(l_.out, l_.out.operands[0], es, dst + k, m, tmp);
    }
  }

  // out[w, c0:c1] = the sum of grad[pos[i], c0:c1] over i in order (divided by count with
  // scaleGradByFreq), in double, rounded once to f32 and then to out's dtype.
  void SumRow(const int64_t* pos, int64_t count, int64_t w, int64_t c0, int64_t c1) const {
    alignas(64) double acc[kChunk];
    alignas(64) double term[kChunk];
    alignas(64) float result[kChunk];
    for (int64_t c = c0; c < c1; c += kChunk) {
      const int64_t m = std::min(kChunk, c1 - c);
      std::fill(acc, acc + m, 0.0);
      for (int64_t i = 0; i < count; ++i) {
        GatherF64(l_.grad, l_.grad.operands[0], grad_codec_, pos[i] * d_ + c, m, term);
        for (int64_t j = 0; j < m; ++j) acc[j] += term[j];
      }
      if (scale_) {
        const double divisor = static_cast<double>(count);
        for (int64_t j = 0; j < m; ++j) acc[j] /= divisor;
      }
      for (int64_t j = 0; j < m; ++j) result[j] = static_cast<float>(acc[j]);
      ScatterF32(l_.out, l_.out.operands[0], out_codec_, w * d_ + c, m, result);
    }
  }

  Layouts l_;
  OperandCodec grad_codec_, out_codec_;
  DType index_dtype_;
  kernels::ToF64Fn index_to_f64_;  // a float index's widening (null for the integers)
  int64_t index_bytes_;
  int64_t n_, d_, num_weights_, padding_idx_;
  bool scale_;
  bool copy_rows_;                         // grad and out of one dtype: a row named once is copied
  uint64_t ends_at_ = 0, order_at_ = 0;    // workspace offsets (the rows start at 0)
  kernels::CopyFn stream_copy_ = nullptr;  // set: a large contiguous out of long rows
};

}  // namespace

Status PrepareScatter(Op op, const ScatterOperands& o, const tiling::Options& options,
                      uint64_t* workspace_size, ExecutorPtr* executor) {
  const std::vector<int64_t>& gs = o.grad.view->shape;
  const int64_t d = gs.back();
  const int64_t num_weights = o.out.view->shape[0];  // the front end checked numWeights
  const int64_t n = o.indices.span->numel;
  const bool empty = o.grad.span->numel == 0 || n == 0;
  const auto params = kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact))
                          .As<kernels::EmbeddingDenseBackwardParams>();
  tiling::Problem problem{
      op, o.grad.view->dtype, {std::max<int64_t>(n, 1), d}, 0, launch::TeamSize()};
  problem.weight_rows = num_weights;
  problem.scale_grad_by_freq = params.scale_grad_by_freq;
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, false, options, &plan));
  ScatterExecutor::Layouts layouts;
  HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.out, &layouts.out));
  if (!empty) {
    HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.grad, &layouts.grad));
    HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.indices, &layouts.indices));
  }
  auto* exec = new ScatterExecutor(op, std::move(plan), layouts, o.grad.view->dtype,
                                   o.indices.view->dtype, o.out.view->dtype, empty ? 0 : n, d,
                                   num_weights, params.padding_idx, params.scale_grad_by_freq);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
