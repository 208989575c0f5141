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
#include "tests/util/operand_roles.h"

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

// The role table the list-driven tools fill their operands from (tests/util/operand_roles.h):
// a role for every required operand, none for an optional one or past the last, and no two
// outputs with one role (each output its own tensor).
TEST(OperandRoles, EveryRequiredOperandHasOneAndOutputsTheirOwn) {
  using test::Role;
  for (Op op : AllOps()) {
    const OpInfo& info = GetOpInfo(op);
    SCOPED_TRACE(info.name);
    const test::OperandRoles r = test::RolesOf(op);
    for (int k = 0; k < kMaxIn; ++k) {
      const bool required = k < info.num_in() && test::IsRequired(info.in_names[k]);
      EXPECT_EQ(r.in[k] != Role::kNone, required) << "in" << k;
    }
    for (int k = 0; k < kMaxOut; ++k) {
      const bool required = k < info.num_out() && test::IsRequired(info.out_names[k]);
      EXPECT_EQ(r.out[k] != Role::kNone, required) << "out" << k;
      for (int j = 0; j < k; ++j) {
        if (r.out[k] != Role::kNone) {
          EXPECT_NE(r.out[j], r.out[k]) << "out" << j << ", out" << k;
        }
      }
    }
  }
  // A few rows written out: a gradient with a buffer, a class loss's gradient, a norm's
  // gradient with two rows and two column sums, BatchNorm's, a gated gradient's.
  const auto in = [](Op op) {
    const test::OperandRoles r = test::RolesOf(op);
    return std::vector<Role>(r.in, r.in + kMaxIn);
  };
  const auto out = [](Op op) {
    const test::OperandRoles r = test::RolesOf(op);
    return std::vector<Role>(r.out, r.out + kMaxOut);
  };
  const Role N = Role::kNone;
  EXPECT_EQ(in(Op::kLogSigmoidBackward),
            (std::vector<Role>{Role::kGrad, Role::kSelf, Role::kBuffer, N, N, N, N}));
  EXPECT_EQ(in(Op::kNLLLossBackward),
            (std::vector<Role>{Role::kGrad, Role::kSelf, Role::kIndex, Role::kPerColumn,
                               Role::kTotalWeight, N, N}));
  EXPECT_EQ(out(Op::kNLLLoss), (std::vector<Role>{Role::kLoss, Role::kTotalWeight, N, N}));
  EXPECT_EQ(in(Op::kAddLayerNormGrad),
            (std::vector<Role>{Role::kGrad, Role::kSelf, Role::kSecond, Role::kPerRow,
                               Role::kPerRow, Role::kPerColumn, N}));
  EXPECT_EQ(out(Op::kAddLayerNormGrad),
            (std::vector<Role>{Role::kResult, Role::kColumnSum, Role::kColumnSum2, N}));
  EXPECT_EQ(out(Op::kLayerNorm), (std::vector<Role>{Role::kResult, N, N, N}));
  EXPECT_EQ(in(Op::kBatchNormBackward),
            (std::vector<Role>{Role::kGrad, Role::kSelf, Role::kWeight, Role::kRunningMean,
                               Role::kRunningVar, Role::kSaveMean, Role::kSaveInvstd}));
  EXPECT_EQ(out(Op::kCrossEntropyLoss),
            (std::vector<Role>{Role::kLoss, Role::kResult, Role::kOneElement, Role::kPerRow}));
  EXPECT_EQ(in(Op::kGeGluBackward),
            (std::vector<Role>{Role::kGrad, Role::kSelf, Role::kAux, N, N, N, N}));
  EXPECT_EQ(out(Op::kInplaceAddRmsNorm),
            (std::vector<Role>{Role::kResult, Role::kPerRow, Role::kAux, N}));
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
        // One tensor per operand role (tests/util/operand_roles.h) beside dy, x and out, [64, 300]
        // read as 64 rows of 300: a per-column operand of 300 (gamma; Prelu's weight; a class
        // loss's class weights), a FLOAT statistic per row (GroupNorm's two in self's dtype),
        // the column sums, a second result of x's shape (AddRmsNorm's xOut).
        std::vector<float> gamma(300, 0.5f);  // room for any dtype; apart from x, which
        TensorView vgamma =
            TensorView::Dense(gamma.data(), dtype, {300});  // an in-place norm writes
        std::vector<float> gw(300, 0.0f), dbeta(300, 0.0f), gamma_sum(300, 0.0f);
        TensorView vgw = TensorView::Dense(gw.data(), dtype, {300});
        TensorView vdgamma = TensorView::Dense(gw.data(), DType::kFloat32, {300});
        TensorView vdbeta = TensorView::Dense(dbeta.data(), DType::kFloat32, {300});
        TensorView vgamma_sum = TensorView::Dense(gamma_sum.data(), dtype, {300});
        std::vector<float> rstd(128, 0.0f), stats(128, 0.0f);
        TensorView vrstd = TensorView::Dense(rstd.data(), DType::kFloat32, {64, 1});
        TensorView vrstd2 = TensorView::Dense(rstd.data() + 64, DType::kFloat32, {64, 1});
        const TensorView vstats[2] = {TensorView::Dense(stats.data(), dtype, {64, 1}),
                                      TensorView::Dense(stats.data() + 64, dtype, {64, 1})};
        std::vector<float> x_out(n, 0.0f);
        TensorView vx_out = TensorView::Dense(x_out.data(), dtype, l.shape);
        // BatchNorm's saved statistics (written by the forward, read by the gradient); its
        // weight, bias and running statistics are left out (1, 0, 0 and 1).
        std::vector<float> channel(4 * 300, 1.0f);
        const TensorView vch[2] = {TensorView::Dense(channel.data(), dtype, {300}),
                                   TensorView::Dense(channel.data() + 600, dtype, {300})};
        // Embedding: weight [4, 75] (x's first 300 elements), 64 INT32 indices (each 3), out
        // [64, 75]; EmbeddingDenseBackward: grad [64, 75] (those rows) into out [4, 75]: one row
        // summed, three zeroed. CrossEntropyLoss's targets are INT64.
        const std::vector<int32_t> index(64, 3);
        const std::vector<int64_t> index64(64, 3);
        std::vector<float> rows(64 * 75, 0.0f), sums(4 * 75, 0.0f);
        const TensorView vweight = TensorView::Dense(x.data(), dtype, {4, 75});
        const TensorView vindex =
            TensorView::Dense(const_cast<int32_t*>(index.data()), DType::kInt32, {64});
        const TensorView vtarget64 =
            TensorView::Dense(const_cast<int64_t*>(index64.data()), DType::kInt64, {64});
        const TensorView vrows = TensorView::Dense(rows.data(), dtype, {64, 75});
        const TensorView vsums = TensorView::Dense(sums.data(), dtype, {4, 75});
        // A loss at its default reduction (the mean): one total into a 0-d out (MseLossOut's
        // into [300], dim 0 summed); a class loss's one-element tensors (gradOutput, gradLoss;
        // totalWeight, zlossOut); a loss per row of 64 (SoftmaxCrossEntropyWithLogits;
        // CrossEntropyLoss's lseForZlossOut).
        const TensorView vtotal = TensorView::Dense(out.data(), vout.dtype, {});
        const TensorView vcols = TensorView::Dense(out.data(), vout.dtype, {300});
        const TensorView vone[2] = {TensorView::Dense(sums.data(), dtype, {}),
                                    TensorView::Dense(sums.data() + 4, dtype, {})};
        const TensorView vlse = TensorView::Dense(rows.data(), dtype, {64});
        const OpInfo& info = GetOpInfo(op);
        if (info.shapes == ShapeRule::kClassTarget2d) continue;  // (tests/nll_loss_test.cc)
        const bool gather = info.kind == Kind::kGather, scatter = info.kind == Kind::kScatterAdd;
        const bool groups = info.shapes == ShapeRule::kChannelGroups;
        const bool class_loss = info.kind == Kind::kClassLoss || info.kind == Kind::kSoftmaxLoss;
        const bool softmax_loss = info.kind == Kind::kSoftmaxLoss;
        const auto view = [&](test::Role r) -> const TensorView* {
          using test::Role;
          switch (r) {
            case Role::kSelf:
              return gather ? &vweight : scatter ? &vrows : &vx;
            case Role::kGrad:
              return class_loss ? &vone[0] : &vdy;
            case Role::kSecond:
              return &vdy;
            case Role::kBuffer:
              return &vx;
            case Role::kTarget:
              return info.is_forward ? &vdy : &vx;
            case Role::kIndex:
              return softmax_loss ? &vtarget64 : &vindex;
            case Role::kOneElement:
            case Role::kTotalWeight:
              return &vone[1];
            case Role::kPerColumn:
              return &vgamma;
            case Role::kPerRow:
              return groups ? &vstats[0] : softmax_loss ? &vlse : &vrstd;
            case Role::kPerRow2:
              return groups ? &vstats[1] : &vrstd2;
            case Role::kColumnSum:
              return groups ? &vgamma_sum : info.kind == Kind::kMapColumnSums ? &vgw : &vdgamma;
            case Role::kColumnSum2:
              return &vdbeta;
            case Role::kAux:
              return &vx_out;
            case Role::kResult:
              return gather ? &vrows : scatter ? &vsums : &vout;
            case Role::kLoss:
              return info.shapes == ShapeRule::kLabelRows ? &vlse
                     : softmax_loss                       ? &vone[0]
                     : op == Op::kMseLossOut              ? &vcols
                                                          : &vtotal;
            case Role::kSaveMean:
              return &vch[0];
            case Role::kSaveInvstd:
              return &vch[1];
            case Role::kGradWeight:
              return &vgamma_sum;
            case Role::kGradBias:
              return &vgw;
            default:
              return nullptr;  // BatchNorm's weight, bias, running statistics
          }
        };
        OpArgs args;
        test::FillOperands(op, view, &args);
        if (info.kind == Kind::kNoiseMap) {  // RReluWithNoise in training: its noise written
          args.scalars[2] = OpScalar{true, 1.0, DType::kBool};
        }
        if (HasIntArray(info.signature)) {  // LayerNorm's normalizedShape
          args.int_array = {300};
          args.int_array_given = true;
        }
        if (groups) {  // GroupNorm: [64, 300] as N 64, C 300, HxW 1 in one group
          const double shape_values[] = {64, 300, 1, 1};
          for (int j = 0; j < 4; ++j) {
            args.scalars[j] = OpScalar{true, shape_values[j], DType::kInt64};
            args.scalars[j].int_value = static_cast<int64_t>(shape_values[j]);
          }
        }
        if (scatter) {  // numWeights: out's rows
          args.scalars[0] = OpScalar{true, 4.0, DType::kInt64};
          args.scalars[0].int_value = 4;
        }
        test::AskForOutputs(&args);
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
