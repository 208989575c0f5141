// RReluWithNoise's executor: the Map plan of self's shape (tiling::ElementwisePlan), run
// with gathered tiles. A tile's first element, s in the row-major order of self's shape
// (which the fused layout keeps), is number offset + s of the noise stream, so a tile
// draws its numbers wherever it lies, and noise's layout (its own shape, element s of its
// row-major order) is walked over the same range.

#include "src/exec/noise_executor.h"

#include <algorithm>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

kernels::NoiseDType NoiseDTypeOf(DType dtype) {
  return dtype == DType::kFloat16    ? kernels::NoiseDType::kF16
         : dtype == DType::kBFloat16 ? kernels::NoiseDType::kBF16
                                     : kernels::NoiseDType::kF32;
}

class NoiseMapExecutor final : public Executor {
 public:
  NoiseMapExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout,
                   const core::FusedLayout& noise_layout, DType dtype,
                   const kernels::RReluNoiseParams& p, int64_t scratch_elems)
      : Executor(op, std::move(plan)),
        layout_(layout),
        noise_layout_(noise_layout),
        dtype_(dtype),
        training_(p.training),
        offset_(p.offset),
        slope_((p.lower + p.upper) / 2.0f) {
    codec_ = MakeCodec(dtype_);
    tiles_ = kernels::GetNoiseTiles();
    target_ = kernels::ChosenTargetName();
    draw_.key0 = static_cast<uint32_t>(p.seed);
    draw_.key1 = static_cast<uint32_t>(p.seed >> 32);
    draw_.lower = p.lower;
    draw_.upper = p.upper;
    draw_.dtype = NoiseDTypeOf(dtype_);
    // Per core: self's tile, out's, and noise's (training).
    tile_bytes_ = AlignWorkspace(sizeof(float) * static_cast<uint64_t>(scratch_elems));
    core_bytes_ = (training_ ? 3 : 2) * tile_bytes_;
    workspace_bytes_ = core_bytes_ * static_cast<uint64_t>(plan_->elementwise.block_dim);
  }

  std::string KernelPath() const override {
    const DType dtypes[3] = {dtype_, dtype_, dtype_};
    return DescribeKernelPath(target_, false, layout_.dense, dtypes, training_ ? 3 : 2, false) +
           (training_ ? ", Philox4x32-10 noise" : ", evaluation (leaky ReLU)");
  }

  void Run(char* workspace) const override {
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &NoiseMapExecutor::RunCore,
                          workspace);
  }

 private:
  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    char* base = workspace + core * core_bytes_;
    float* x = reinterpret_cast<float*>(base);
    float* out = reinterpret_cast<float*>(base + tile_bytes_);
    float* noise = reinterpret_cast<float*>(base + 2 * tile_bytes_);
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t), len = p.TileLen(core, t);
      const size_t n = static_cast<size_t>(len);
      GatherF32(layout_, layout_.operands[0], codec_, s, len, x);
      if (training_) {
        tiles_.train(draw_, offset_ + static_cast<uint64_t>(s), x, out, noise, n);
        ScatterF32(noise_layout_, noise_layout_.operands[0], codec_, s, len, noise);
      } else {
        tiles_.eval(slope_, x, out, n);
      }
      ScatterF32(layout_, layout_.operands[1], codec_, s, len, out);
    }
  }

  core::FusedLayout layout_;        // self, out over self's shape
  core::FusedLayout noise_layout_;  // noise over its own shape
  DType dtype_;
  bool training_;
  uint64_t offset_;
  float slope_;
  uint64_t tile_bytes_ = 0, core_bytes_ = 0;
  kernels::NoiseDraw draw_;
  kernels::NoiseTiles tiles_{};
  OperandCodec codec_;
  const char* target_ = "";
};

}  // namespace

Status PrepareNoiseMap(Op op, const NoiseMapOperands& o, const tiling::Options& options,
                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const std::vector<int64_t>& shape = o.self.view->shape;
  const DType dtype = o.self.view->dtype;
  const kernels::RReluNoiseParams params =
      kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact))
          .As<kernels::RReluNoiseParams>();
  tiling::Problem problem{op, dtype, shape, 0, launch::TeamSize()};
  // More than 8 dims (up to 32) are planned as one flat row, as CANN reshapes them to 1-D.
  if (shape.size() > static_cast<size_t>(kMaxDims)) problem.shape = {o.self.span->numel};
  std::shared_ptr<const tiling::Plan> plan;
  const bool empty = o.self.span->numel == 0;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, empty, options, &plan));
  if (empty) {
    return PrepareEmpty(op, dtype, workspace_size, executor);
  }
  char* firsts[2] = {o.self.span->first, o.out.span->first};
  const DType dtypes[2] = {dtype, dtype};
  const std::vector<int64_t> strides[2] = {o.self.span->strides, o.out.span->strides};
  core::FusedLayout layout, noise_layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, 2, firsts, dtypes, strides, &layout));
  if (params.training) {
    char* first = o.noise.span->first;
    const std::vector<int64_t> noise_strides = o.noise.span->strides;
    HOSTNN_RETURN_IF_ERROR(
        FuseOperands(op, o.noise.view->shape, 1, &first, &dtype, &noise_strides, &noise_layout));
  }
  const tiling::ElementwisePlan& ep = plan->elementwise;
  int64_t most = 0;  // elements of the busiest core: a core's tiles are at most this long
  for (int64_t core = 0; core < ep.block_dim; ++core) most = std::max(most, ep.CoreLen(core));
  auto* exec = new NoiseMapExecutor(op, std::move(plan), layout, noise_layout, dtype, params,
                                    std::min(ep.tile_len, most));
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
