// LayerNorm through the CANN API, run on the null stream: each row of x [2, 3, 4] normalised
// over its last dim (normalizedShape [4]), then scaled by weight and shifted by bias; the
// rows' mean and rstd = 1 / sqrt(var + eps) written to [2, 3, 1] tensors.
#include <cmath>

#include "aclnnop/aclnn_layer_norm.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> x(24);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 7) - 2.5f;
  x[8] = x[9] = x[10] = x[11] = 3.0f;  // a constant row: variance 0, rstd 1 / sqrt(eps)
  std::vector<float> weight = {1.0f, 0.5f, 2.0f, -1.0f}, bias = {0.0f, 0.1f, -0.2f, 1.0f};
  std::vector<float> out(x.size(), 0.0f), mean(6, 0.0f), rstd(6, 0.0f);
  void *x_dev, *w_dev, *b_dev, *out_dev, *mean_dev, *rstd_dev;
  aclTensor *x_t, *w_t, *b_t, *out_t, *mean_t, *rstd_t;
  const std::vector<int64_t> shape = {2, 3, 4}, stats_shape = {2, 3, 1};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "input");
  CHECK_RET(MakeTensor(weight, {4}, ACL_FLOAT, &w_dev, &w_t) == 0, "weight");
  CHECK_RET(MakeTensor(bias, {4}, ACL_FLOAT, &b_dev, &b_t) == 0, "bias");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");
  CHECK_RET(MakeTensor(mean, stats_shape, ACL_FLOAT, &mean_dev, &mean_t) == 0, "mean");
  CHECK_RET(MakeTensor(rstd, stats_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstd");
  const int64_t normalized[] = {4};
  aclIntArray* normalized_shape = aclCreateIntArray(normalized, 1);

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLayerNormGetWorkspaceSize(x_t, normalized_shape, w_t, b_t, 1e-5, out_t, mean_t,
                                           rstd_t, &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnLayerNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLayerNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnLayerNorm");

  CHECK_RET(CopyBack(out_dev, &out) == 0 && CopyBack(mean_dev, &mean) == 0 &&
                CopyBack(rstd_dev, &rstd) == 0,
            "copy back");
  for (size_t r = 0; r < 6; ++r) {
    std::printf("row %zu: mean %f rstd %f out", r, mean[r], rstd[r]);
    for (size_t c = 0; c < 4; ++c) std::printf(" %f", out[r * 4 + c]);
    std::printf("\n");
  }

  aclDestroyIntArray(normalized_shape);
  for (aclTensor* t : {x_t, w_t, b_t, out_t, mean_t, rstd_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, w_dev, b_dev, out_dev, mean_dev, rstd_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
