// Phase 1's memo (src/aclnn/prepare_memo.h): a repeated C API call reuses its executor,
// and any change to what phase 1 depends on (an operand's data, dtype, shape, strides,
// offset or storage, the dim, the HOSTNN_ environment, the team size) gives a fresh one:
// results are always those of the call's own arguments, checked against the double
// reference, and errors are never remembered.

#include "src/aclnn/prepare_memo.h"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "hostnn/ops.h"
#include "src/exec/executor.h"
#include "tests/reference/reference.h"

namespace hostnn {
namespace {

struct Tensor {
  aclTensor* t = nullptr;
  Tensor(std::vector<float>* data, std::vector<int64_t> shape, std::vector<int64_t> strides = {},
         int64_t offset = 0, aclDataType dtype = ACL_FLOAT) {
    if (strides.empty()) {
      strides.assign(shape.size(), 1);
      for (int i = static_cast<int>(shape.size()) - 2; i >= 0; --i)
        strides[i] = strides[i + 1] * shape[i + 1];
    }
    const int64_t storage = static_cast<int64_t>(data->size());
    t = aclCreateTensor(shape.data(), shape.size(), dtype, strides.data(), offset, ACL_FORMAT_ND,
                        &storage, 1, data->data());
  }
  ~Tensor() { aclDestroyTensor(t); }
};

// One SiluBackward call through the C API on the null stream; its workspace size in *ws.
aclnnStatus Silu(const Tensor& dy, const Tensor& x, const Tensor& out, uint64_t* ws = nullptr) {
  uint64_t size = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = aclnnSiluBackwardGetWorkspaceSize(dy.t, x.t, out.t, &size, &exec);
  if (s != ACLNN_SUCCESS) return s;
  if (ws != nullptr) *ws = size;
  std::vector<char> workspace(size);
  return aclnnSiluBackward(size ? workspace.data() : nullptr, size, exec, nullptr);
}

std::vector<float> Ramp(size_t n, float lo, float hi) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = lo + (hi - lo) * static_cast<float>(i) / static_cast<float>(n);
  return v;
}

// out[i] against the reference of (dy[i], x[i]) for the elements of a dense view.
void ExpectSilu(const std::vector<float>& dy, const std::vector<float>& x,
                const std::vector<float>& out, const std::string& what) {
  int bad = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const double exact = test::SiluBackwardRef(dy[i], x[i]);
    if (!test::EltwiseWithinTolerance(DType::kFloat32, out[i], exact, dy[i]) && ++bad <= 3) {
      ADD_FAILURE() << what << ": element " << i << " got " << out[i] << " expected " << exact;
    }
  }
  EXPECT_EQ(bad, 0) << what;
}

TEST(PrepareMemo, RepeatedCallsAndEveryChangedDescriptor) {
  const size_t n = 4096;
  std::vector<float> dy = Ramp(n, -1, 1), x = Ramp(n, -8, 8), out(n), out2(n);
  const Tensor tdy(&dy, {64, 64}), tx(&x, {64, 64}), tout(&out, {64, 64});
  for (int rep = 0; rep < 3; ++rep) {
    std::fill(out.begin(), out.end(), 0.0f);
    ASSERT_EQ(Silu(tdy, tx, tout), ACLNN_SUCCESS);
    ExpectSilu(dy, x, out, "repeat " + std::to_string(rep));
  }
  // Another output buffer: written, the first one left alone.
  std::fill(out.begin(), out.end(), 7.0f);
  const Tensor tout2(&out2, {64, 64});
  ASSERT_EQ(Silu(tdy, tx, tout2), ACLNN_SUCCESS);
  ExpectSilu(dy, x, out2, "other output");
  for (float v : out) ASSERT_EQ(v, 7.0f) << "the previous call's output was written";
  // New input values in the same buffers: computed afresh.
  const std::vector<float> new_x = Ramp(n, 2, 3);
  std::copy(new_x.begin(), new_x.end(), x.begin());
  ASSERT_EQ(Silu(tdy, tx, tout2), ACLNN_SUCCESS);
  ExpectSilu(dy, x, out2, "new input values");
  // Transposed output view of the same buffer: the elements land transposed.
  const Tensor tout_t(&out2, {64, 64}, {1, 64});
  ASSERT_EQ(Silu(tdy, tx, tout_t), ACLNN_SUCCESS);
  std::vector<float> back(n);
  for (int r = 0; r < 64; ++r)
    for (int c = 0; c < 64; ++c) back[r * 64 + c] = out2[c * 64 + r];
  ExpectSilu(dy, x, back, "transposed output");
  // Offset views: the elements after the offset.
  std::vector<float> big_dy = Ramp(n + 16, -1, 1), big_x = Ramp(n + 16, -6, 6), big_out(n + 16);
  const Tensor o_dy(&big_dy, {64, 64}, {}, 16), o_x(&big_x, {64, 64}, {}, 16),
      o_out(&big_out, {64, 64}, {}, 16);
  ASSERT_EQ(Silu(o_dy, o_x, o_out), ACLNN_SUCCESS);
  ExpectSilu(std::vector<float>(big_dy.begin() + 16, big_dy.end()),
             std::vector<float>(big_x.begin() + 16, big_x.end()),
             std::vector<float>(big_out.begin() + 16, big_out.end()), "offset 16");
  for (int i = 0; i < 16; ++i) ASSERT_EQ(big_out[i], 0.0f) << "written before the offset";
}

TEST(PrepareMemo, ErrorsAreNeverKept) {
  std::vector<float> a(16, 1.0f), b(16, 1.0f), c(16);
  const Tensor ta(&a, {4, 4}), tb(&b, {4, 4}), bad(&c, {4, 5}), good(&c, {4, 4});
  for (int rep = 0; rep < 2; ++rep) {
    EXPECT_EQ(Silu(ta, tb, bad), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("gradInput"), std::string::npos);
  }
  EXPECT_EQ(Silu(ta, tb, good), ACLNN_SUCCESS);
  // The same tensors as a remembered success, but a null executor pointer: still refused.
  uint64_t ws = 0;
  EXPECT_EQ(aclnnSiluBackwardGetWorkspaceSize(ta.t, tb.t, good.t, &ws, nullptr),
            ACLNN_ERR_PARAM_NULLPTR);
}

TEST(PrepareMemo, SettingsChangesTakeEffect) {
  // A transposed input is gathered through per-core scratch sized by the tile, so the
  // workspace shows the plan: the UB size and the team size must reach it at once.
  const size_t n = 512 * 512;
  std::vector<float> dy = Ramp(n, -1, 1), x = Ramp(n, -8, 8), out(n);
  const Tensor tdy(&dy, {512, 512}, {1, 512}), tx(&x, {512, 512}), tout(&out, {512, 512});
  const int threads = omp_get_max_threads();
  omp_set_num_threads(2);
  uint64_t ws_default = 0, ws_small_ub = 0, ws_one_thread = 0, ws_again = 0;
  ASSERT_EQ(Silu(tdy, tx, tout, &ws_default), ACLNN_SUCCESS);
  setenv("HOSTNN_UB_BYTES", "16384", 1);
  ASSERT_EQ(Silu(tdy, tx, tout, &ws_small_ub), ACLNN_SUCCESS);
  unsetenv("HOSTNN_UB_BYTES");
  EXPECT_LT(ws_small_ub, ws_default) << "HOSTNN_UB_BYTES did not reach the plan";
  omp_set_num_threads(1);
  ASSERT_EQ(Silu(tdy, tx, tout, &ws_one_thread), ACLNN_SUCCESS);
  EXPECT_LT(ws_one_thread, ws_default) << "the team size did not reach the plan";
  omp_set_num_threads(2);
  ASSERT_EQ(Silu(tdy, tx, tout, &ws_again), ACLNN_SUCCESS);
  EXPECT_EQ(ws_again, ws_default);
  omp_set_num_threads(threads);
  std::vector<float> dense_dy(n);
  for (int r = 0; r < 512; ++r)
    for (int c = 0; c < 512; ++c) dense_dy[r * 512 + c] = dy[c * 512 + r];
  ExpectSilu(dense_dy, x, out, "transposed gradOutput");
}

TEST(PrepareMemo, DimIsPartOfTheKey) {
  // LogSoftmaxBackward over the same tensors along dim 0, then dim 1, then dim 0 again.
  const std::vector<int64_t> shape = {8, 32};
  std::vector<float> dy = Ramp(256, -1, 1), y(256), out(256);
  for (int i = 0; i < 256; ++i) y[i] = -3.0f - 0.01f * static_cast<float>(i % 32);
  const Tensor tdy(&dy, shape), ty(&y, shape), tout(&out, shape);
  for (int64_t dim : {0, 1, 0}) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnLogSoftmaxBackwardGetWorkspaceSize(tdy.t, ty.t, dim, tout.t, &ws, &exec),
              ACLNN_SUCCESS);
    std::vector<char> workspace(ws);
    ASSERT_EQ(aclnnLogSoftmaxBackward(ws ? workspace.data() : nullptr, ws, exec, nullptr),
              ACLNN_SUCCESS);
    std::vector<double> ddy(dy.begin(), dy.end()), dyv(y.begin(), y.end()), ref, abs_sum;
    test::LogSoftmaxBackwardRef(ddy, dyv, shape, dim, &ref, &abs_sum);
    for (int i = 0; i < 256; ++i) {
      ASSERT_TRUE(
          test::LogSoftmaxWithinTolerance(DType::kFloat32, out[i], ref[i], dy[i], y[i], abs_sum[i]))
          << "dim " << dim << " element " << i << ": got " << out[i] << " expected " << ref[i];
    }
  }
}

TEST(PrepareMemo, SharedExecutorsAreIndependentHandles) {
  // Two phase 1 calls on the same tensors share one remembered executor: each handle is
  // still consumed, destroyed or made repeatable on its own.
  std::vector<float> dy = Ramp(256, -1, 1), x = Ramp(256, -4, 4), out(256);
  const Tensor tdy(&dy, {256}), tx(&x, {256}), tout(&out, {256});
  uint64_t ws1 = 0, ws2 = 0;
  aclOpExecutor *e1 = nullptr, *e2 = nullptr;
  ASSERT_EQ(aclnnSiluBackwardGetWorkspaceSize(tdy.t, tx.t, tout.t, &ws1, &e1), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnSiluBackwardGetWorkspaceSize(tdy.t, tx.t, tout.t, &ws2, &e2), ACLNN_SUCCESS);
  ASSERT_NE(e1, e2);
  EXPECT_EQ(ws1, ws2);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e2), ACLNN_SUCCESS);
  ASSERT_EQ(aclDestroyAclOpExecutor(e1), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnSiluBackward(nullptr, 0, e1, nullptr), ACLNN_ERR_PARAM_INVALID)
      << "a destroyed handle ran";
  for (int rep = 0; rep < 2; ++rep) {
    std::fill(out.begin(), out.end(), 0.0f);
    ASSERT_EQ(aclnnSiluBackward(nullptr, 0, e2, nullptr), ACLNN_SUCCESS);
    ExpectSilu(dy, x, out, "repeatable handle run " + std::to_string(rep));
  }
  ASSERT_EQ(aclDestroyAclOpExecutor(e2), ACLNN_SUCCESS);
}

}  // namespace
}  // namespace hostnn

namespace hostnn {
namespace {

TEST(PrepareMemo, AnAllocationOrFreeRetiresEveryEntry) {
  // Phase 1 checks each storage against the aclrtMalloc block its data lies in, so an
  // entry kept before a block was allocated or freed is not used after it.
  std::vector<float> a(64, 1.0f), b(64, 2.0f), c(64);
  const TensorView va = TensorView::Dense(a.data(), DType::kFloat32, {64});
  const TensorView vb = TensorView::Dense(b.data(), DType::kFloat32, {64});
  const TensorView vc = TensorView::Dense(c.data(), DType::kFloat32, {64});
  OpArgs args;
  args.op = Op::kSiluBackward;
  args.in[0] = &va;
  args.in[1] = &vb;
  args.out[0] = &vc;
  uint64_t ws = 0;
  ExecutorPtr made;
  ASSERT_TRUE(Prepare(args, tiling::Options(), &ws, &made).ok());
  const std::shared_ptr<const Executor> exec(made.release(), ExecutorDeleter());
  PrepareMemo(args, tiling::Options()).Keep(ws, exec);
  std::shared_ptr<const Executor> found;
  uint64_t found_ws = 0;
  ASSERT_TRUE(PrepareMemo(args, tiling::Options()).Find(&found_ws, &found));
  EXPECT_EQ(found, exec);
  void* block = nullptr;
  ASSERT_EQ(aclrtMalloc(&block, 256, ACL_MEM_MALLOC_NORMAL_ONLY), ACL_SUCCESS);
  EXPECT_FALSE(PrepareMemo(args, tiling::Options()).Find(&found_ws, &found))
      << "kept across an aclrtMalloc";
  PrepareMemo(args, tiling::Options()).Keep(ws, exec);
  ASSERT_EQ(aclrtFree(block), ACL_SUCCESS);
  EXPECT_FALSE(PrepareMemo(args, tiling::Options()).Find(&found_ws, &found))
      << "kept across an aclrtFree";
  // Options other than the defaults are never remembered.
  tiling::Options cores;
  cores.num_cores = 1;
  PrepareMemo(args, cores).Keep(ws, exec);
  EXPECT_FALSE(PrepareMemo(args, cores).Find(&found_ws, &found));
}

}  // namespace
}  // namespace hostnn
