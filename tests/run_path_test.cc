// Phase 2 allocates nothing: every operator x dtype, dense, strided, broadcast and
// mixed-dtype operands, 1 and 2 threads, through Execute and through the C API on the
// null stream (a repeatable executor, so that the run does not also free it). Counted with
// this binary's own global operator new, which every C++ allocation of the library (linked
// statically here) goes through; the OpenMP runtime's own memory is not hostnn's.

#include <gtest/gtest.h>
#include <omp.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "hostnn/ops.h"
#include "tests/util/capi_ops.h"
#include "tests/util/op_args.h"

namespace {
std::atomic<bool> g_counting{false};
std::atomic<int64_t> g_allocations{0};
}  // namespace

void* operator new(size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n) { return operator new(n); }
void* operator new(size_t n, std::align_val_t al) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
  const size_t a = static_cast<size_t>(al);
  if (void* p = std::aligned_alloc(a, (n + a - 1) / a * a + (n == 0 ? a : 0))) return p;
  throw std::bad_alloc();
}
void* operator new[](size_t n, std::align_val_t al) { return operator new(n, al); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }

namespace hostnn {
namespace {

// Allocations made by `fn` (on any thread) while counting is on.
template <class Fn>
int64_t AllocationsDuring(Fn fn) {
  g_allocations = 0;
  g_counting = true;
  fn();
  g_counting = false;
  return g_allocations.load();
}

struct Layout {
  const char* name;
  std::vector<int64_t> shape;
  std::vector<int64_t> dy_strides;  // empty = dense
  std::vector<int64_t> x_shape;     // self's shape; empty = out's (no broadcast)
  DType out_dtype_if_mixed;         // kFloat32 with 16-bit inputs = Ascend 950's mixed mode
  bool mixed;
};

TEST(RunPath, PhaseTwoAllocatesNothing) {
  const std::vector<Layout> layouts = {
      {"dense", {64, 300}, {}, {}, DType::kFloat32, false},
      {"strided", {64, 300}, {1, 64}, {}, DType::kFloat32, false},
      {"broadcast", {64, 300}, {}, {1, 300}, DType::kFloat32, false},
      {"mixed", {64, 300}, {}, {}, DType::kFloat32, true},
  };
  for (int k = 0; k < kNumOps; ++k) {
    const Op op = static_cast<Op>(k);
    if (GetOpInfo(op).is_split) continue;  // tests/split_ops_test.cc
    const bool reduction = GetOpInfo(op).is_reduction;
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      if (!TakesComputeType(GetOpInfo(op).dtypes, dtype)) continue;  // Shrink: no BFLOAT16
      for (const Layout& l : layouts) {
        if (reduction && (!l.x_shape.empty() || l.mixed)) continue;  // same-shape operands only
        // Broadcasting and mixed dtypes only where the operator's rules allow them.
        if (GetOpInfo(op).shapes != ShapeRule::kBroadcast && !l.x_shape.empty()) continue;
        const DTypeRule rule = GetOpInfo(op).dtypes;
        if ((rule == DTypeRule::kAllSame || rule == DTypeRule::kAllSameOrInt32 ||
             rule == DTypeRule::kAllSameOrExactInt || SelectsIntExactly(rule) ||
             RoundsIntResults(rule) || rule == DTypeRule::kInputsAnyOutLikeTarget ||
             rule == DTypeRule::kSoftmaxLossFloat) &&
            l.mixed)
          continue;  // (the cross entropy's out is its target's dtype)
        if (l.mixed && dtype == DType::kFloat32) continue;
        const int64_t n = 64 * 300;
        std::vector<float> dy(n, 0.25f), x(n, -0.5f), out(n, 0.0f);  // room for any dtype
        TensorView vdy = TensorView::Dense(dy.data(), dtype, l.shape);
        if (!l.dy_strides.empty()) vdy.strides = l.dy_strides;
        TensorView vx = TensorView::Dense(x.data(), dtype, l.x_shape.empty() ? l.shape : l.x_shape);
        TensorView vout =
            TensorView::Dense(out.data(), l.mixed ? l.out_dtype_if_mixed : dtype, l.shape);
        OpArgs args = hostnn::test::GradOrForwardArgs(op, &vdy, &vx, &vout);
        // A channel weight of C = 300 elements: Prelu's second input, PreluBackward's third,
        // whose gradWeight is a second output.
        TensorView vw = TensorView::Dense(x.data(), dtype, {300});
        std::vector<float> gw(300, 0.0f);
        TensorView vgw = TensorView::Dense(gw.data(), dtype, {300});
        std::vector<float> rstd(128, 0.0f);
        TensorView vrstd = TensorView::Dense(rstd.data(), DType::kFloat32, {64, 1});
        TensorView vrstd2 = TensorView::Dense(rstd.data() + 64, DType::kFloat32, {64, 1});
        TensorView vdgamma = TensorView::Dense(gw.data(), DType::kFloat32, {300});
        std::vector<float> dbeta(300, 0.0f);
        TensorView vdbeta = TensorView::Dense(dbeta.data(), DType::kFloat32, {300});
        std::vector<float> stats(128, 0.0f);
        const TensorView vstats[2] = {TensorView::Dense(stats.data(), dtype, {64, 1}),
                                      TensorView::Dense(stats.data() + 64, dtype, {64, 1})};
        std::vector<float> gamma(300, 0.5f);  // room for any dtype
        std::vector<float> gamma_sum(300, 0.0f);
        TensorView vgamma_sum = TensorView::Dense(gamma_sum.data(), dtype, {300});
        TensorView vgamma = TensorView::Dense(gamma.data(), dtype, {300});
        std::vector<float> x_out(n, 0.0f);
        TensorView vx_out = TensorView::Dense(x_out.data(), dtype, l.shape);
        if (GetOpInfo(op).kind == Kind::kMapColumnSums) {
          args.in[2] = &vw;
          args.out[1] = &vgw;
        } else if (GetOpInfo(op).shapes == ShapeRule::kChannelWeight) {
          args.in[1] = &vw;
        } else if (GetOpInfo(op).kind == Kind::kNoiseMap) {  // RReluWithNoise, training
          args.in[1] = &vdy;
          args.scalars[2] = OpScalar{true, 1.0, DType::kBool};
        } else if (IsNormShape(GetOpInfo(op).shapes)) {  // norms: rows of 300
          const OpInfo& info = GetOpInfo(op);
          if (HasIntArray(info.signature)) {  // LayerNorm's normalizedShape
            args.int_array = {300};
            args.int_array_given = true;
          }
          // Each operand the prototype requires by its role: gamma, a FLOAT rstd per row
          // (read or written), dgamma (FLOAT), a second row operand and result (AddRmsNorm's
          // x2 and xOut).
          hostnn::test::NormOperands<const TensorView*, const TensorView*> v;
          v.rows[0] = args.in[0];
          v.rows[1] = args.in[1] != nullptr ? args.in[1] : &vdy;
          v.column = &vgamma;  // apart from x, which InplaceAddRmsNorm writes
          v.per_row = v.per_row_out = &vrstd;
          v.per_row_out2 = &vrstd2;  // AddLayerNorm's rstdOut beside its meanOut
          v.column_sum = &vdgamma;
          v.column_sum2 = &vdbeta;  // AddLayerNormGrad's dbetaOut
          v.row_out = &vx_out;
          // GroupNorm and its gradient: [64, 300] as N 64, C 300, HxW 1 in one group; the
          // statistics [64, 1] and the channel sums in self's dtype.
          if (info.shapes == ShapeRule::kChannelGroups) {
            const double shape_values[] = {64, 300, 1, 1};
            for (int j = 0; j < 4; ++j) {
              args.scalars[j] = OpScalar{true, shape_values[j], DType::kInt64};
              args.scalars[j].int_value = static_cast<int64_t>(shape_values[j]);
            }
            v.per_row = v.per_row_out = &vstats[0];
            v.per_row_out2 = &vstats[1];
            v.column_sum = &vgamma_sum;  // GroupNormBackward's, in self's dtype
          }
          hostnn::test::FillNorm(info, v, args.in, args.out);
          args.bool_array = {true, true, false};  // LayerNormBackward's outputMask
          args.bool_array_given = info.num_out() > 2 && !info.is_forward;
        }
        // BatchNorm and its gradient: [64, 300] as N 64, C 300 (S 1) in training; the
        // saved statistics written (read by the gradient), every output asked for.
        std::vector<float> channel(4 * 300, 1.0f);
        const TensorView vch[2] = {TensorView::Dense(channel.data(), dtype, {300}),
                                   TensorView::Dense(channel.data() + 600, dtype, {300})};
        if (GetOpInfo(op).shapes == ShapeRule::kChannelStats) {
          if (GetOpInfo(op).is_forward) {
            args.out[1] = &vch[0], args.out[2] = &vch[1];
          } else {
            args.in[2] = args.in[3] = args.in[4] = nullptr;  // weight, running: 1, 0, 1
            args.in[5] = &vch[0], args.in[6] = &vch[1];
            args.out[1] = &vgamma_sum, args.out[2] = &vgw;
            args.bool_array = {true, true, true};
            args.bool_array_given = true;
          }
        }
        // Embedding: weight [4, 75] (x's first 300 elements), 64 INT32 indices, out [64, 75].
        const std::vector<int32_t> index(64, 3);
        std::vector<float> rows(64 * 75, 0.0f);
        const TensorView vweight = TensorView::Dense(x.data(), dtype, {4, 75});
        const TensorView vindex =
            TensorView::Dense(const_cast<int32_t*>(index.data()), DType::kInt32, {64});
        const TensorView vrows = TensorView::Dense(rows.data(), dtype, {64, 75});
        if (GetOpInfo(op).kind == Kind::kGather) {
          args.in[0] = &vweight, args.in[1] = &vindex, args.out[0] = &vrows;
        }
        // EmbeddingDenseBackward: grad [64, 75] (the same rows) into out [4, 75] (x's first 300
        // elements' place in dy), every index 3: one row summed, three zeroed.
        std::vector<float> sums(4 * 75, 0.0f);
        const TensorView vsums = TensorView::Dense(sums.data(), dtype, {4, 75});
        if (GetOpInfo(op).kind == Kind::kScatterAdd) {
          args.in[0] = &vrows, args.in[1] = &vindex, args.out[0] = &vsums;
          args.scalars[0] = OpScalar{true, 4.0, DType::kInt64};
          args.scalars[0].int_value = 4;
        }
        // The losses at their default reduction (the mean): a forward's one total into a 0-d
        // out, MseLossOut's into [300] (dim 0 summed); a gradient's inputs all [64, 300]
        // (its optional weights absent).
        const TensorView vtotal = TensorView::Dense(out.data(), vout.dtype, {});
        const TensorView vcols = TensorView::Dense(out.data(), vout.dtype, {300});
        if (GetOpInfo(op).kind == Kind::kPointLoss) {
          args.in[0] = &vdy, args.in[1] = &vx;
          if (GetOpInfo(op).is_forward) args.out[0] = &vtotal;
          if (op == Op::kMseLossOut) args.out[0] = &vcols;
        }
        // NLLLoss and its gradient: self [64, 300], the 64 INT32 targets (3), weight [300], the
        // default mean: out and totalWeightOut (a gradient's gradOutput and totalWeight) 0-d.
        const TensorView vone[2] = {TensorView::Dense(sums.data(), dtype, {}),
                                    TensorView::Dense(sums.data() + 4, dtype, {})};
        if (GetOpInfo(op).kind == Kind::kClassLoss) {
          const bool two_d = GetOpInfo(op).shapes == ShapeRule::kClassTarget2d;
          if (two_d) continue;  // (NLLLoss2d: the same executor; tests/nll_loss_test.cc)
          if (GetOpInfo(op).is_forward) {
            args.in[0] = &vx, args.in[1] = &vindex, args.in[2] = &vch[0];
            args.out[0] = &vtotal, args.out[1] = &vone[0];
          } else {
            args.in[0] = &vone[0], args.in[1] = &vx, args.in[2] = &vindex;
            args.in[3] = &vch[0], args.in[4] = &vone[1];
          }
        }
        // CrossEntropyLoss and its gradient: input (logProb) [64, 300], 64 INT64 targets (3),
        // the default mean's 0-d loss (gradLoss); logProbOut (out) [64, 300]; zlossOut 0-d and
        // lseForZlossOut [64], which nothing writes. SoftmaxCrossEntropyWithLogits: features
        // and labels [64, 300], loss [64], backprop [64, 300].
        const std::vector<int64_t> index64(64, 3);
        const TensorView vtarget64 =
            TensorView::Dense(const_cast<int64_t*>(index64.data()), DType::kInt64, {64});
        const TensorView vlse = TensorView::Dense(rows.data(), dtype, {64});
        if (GetOpInfo(op).kind == Kind::kSoftmaxLoss) {
          args = OpArgs{};
          args.op = op;
          if (GetOpInfo(op).shapes == ShapeRule::kLabelRows) {  // features, labels; loss [64]
            args.in[0] = &vx, args.in[1] = &vdy;
            args.out[0] = &vlse, args.out[1] = &vout;
          } else if (GetOpInfo(op).is_forward) {
            args.in[0] = &vx, args.in[1] = &vtarget64;
            args.out[0] = &vone[0], args.out[1] = &vout, args.out[2] = &vone[1];
            args.out[3] = &vlse;
          } else {
            args.in[0] = &vone[0], args.in[1] = &vx, args.in[2] = &vtarget64;
            args.out[0] = &vout;
          }
        }
        for (int threads : {1, 2}) {
          omp_set_num_threads(threads);
          const std::string what = std::string(GetOpInfo(op).name) + " " + DTypeName(dtype) + " " +
                                   l.name + ", " + std::to_string(threads) + " threads";
          uint64_t ws = 0;
          ExecutorPtr exec;
          const Status s = Prepare(args, {}, &ws, &exec);
          ASSERT_TRUE(s.ok()) << what << ": " << s.message();
          std::vector<char> workspace(ws + 64);
          ASSERT_TRUE(Execute(*exec, workspace.data(), ws).ok()) << what;  // warms the team
          const int64_t allocations = AllocationsDuring([&] {
            for (int i = 0; i < 3; ++i) (void)Execute(*exec, workspace.data(), ws);
          });
          EXPECT_EQ(allocations, 0) << what;
        }
      }
    }
  }
  omp_set_num_threads(2);
}

TEST(RunPath, CApiLaunchOnTheNullStreamAllocatesNothing) {
  const int64_t dims[2] = {32, 500};
  const int64_t n = dims[0] * dims[1];
  void *dy = nullptr, *y = nullptr, *out = nullptr;
  ASSERT_EQ(aclrtMalloc(&dy, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&y, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMalloc(&out, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(dy, n * 4, 0, n * 4), ACL_SUCCESS);
  ASSERT_EQ(aclrtMemset(y, n * 4, 0, n * 4), ACL_SUCCESS);
  const int64_t strides[2] = {500, 1};
  aclTensor* tdy = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, dy);
  aclTensor* ty = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, y);
  aclTensor* tout = aclCreateTensor(dims, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, dims, 2, out);
  for (int which = 0; which < 2; ++which) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus s =
        which == 0 ? aclnnSiluBackwardGetWorkspaceSize(tdy, ty, tout, &ws, &exec)
                   : aclnnLogSoftmaxBackwardGetWorkspaceSize(tdy, ty, 0, tout, &ws, &exec);
    ASSERT_EQ(s, ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(aclSetAclOpExecutorRepeatable(exec), ACLNN_SUCCESS);
    void* workspace = nullptr;
    if (ws > 0) ASSERT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    auto run = [&] {
      return which == 0 ? aclnnSiluBackward(workspace, ws, exec, nullptr)
                        : aclnnLogSoftmaxBackward(workspace, ws, exec, nullptr);
    };
    ASSERT_EQ(run(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclnnStatus status = ACLNN_SUCCESS;
    const int64_t allocations = AllocationsDuring([&] {
      for (int i = 0; i < 3; ++i) status |= run();
    });
    EXPECT_EQ(status, ACLNN_SUCCESS);
    EXPECT_EQ(allocations, 0) << (which == 0 ? "aclnnSiluBackward" : "aclnnLogSoftmaxBackward");
    EXPECT_EQ(aclDestroyAclOpExecutor(exec), ACLNN_SUCCESS);
    if (workspace != nullptr) EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
  }
  aclDestroyTensor(tdy);
  aclDestroyTensor(ty);
  aclDestroyTensor(tout);
  EXPECT_EQ(aclrtFree(dy), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(y), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(out), ACL_SUCCESS);
}

}  // namespace
}  // namespace hostnn
