// AddLayerNorm through the CANN API, run on the null stream: x = x1 + x2 + bias (a residual
// connection with a per-column bias) is written to xOut, and each row of x [4, 16] is
// normalised over gamma's dims ([16]) to zero mean and unit variance, scaled by gamma and
// shifted by beta; the rows' mean and rstd = 1 / sqrt(var + epsilon) go to FLOAT [4, 1]
// tensors. Each row is checked against the same formula in double.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr size_t kRows = 4, kCols = 16;
  std::vector<float> x1(kRows * kCols), x2(kRows * kCols), gamma(kCols), beta(kCols), bias(kCols);
  for (size_t i = 0; i < x1.size(); ++i) {
    x1[i] = static_cast<float>(i % 7) * 0.75f - 2.0f;
    x2[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  }
  for (size_t c = 0; c < kCols; ++c) {
    gamma[c] = 0.5f + 0.125f * static_cast<float>(c % 4);
    beta[c] = 0.0625f * static_cast<float>(c % 3);
    bias[c] = 0.25f * static_cast<float>(c % 2);
  }
  std::vector<float> y(x1.size(), 0.0f), x(x1.size(), 0.0f), mean(kRows, 0.0f), rstd(kRows, 0.0f);
  void *x1_dev, *x2_dev, *g_dev, *b_dev, *bias_dev, *y_dev, *x_dev, *mean_dev, *rstd_dev;
  aclTensor *x1_t, *x2_t, *g_t, *b_t, *bias_t, *y_t, *x_t, *mean_t, *rstd_t;
  const std::vector<int64_t> shape = {4, 16}, stats_shape = {4, 1};
  CHECK_RET(MakeTensor(x1, shape, ACL_FLOAT, &x1_dev, &x1_t) == 0, "x1");
  CHECK_RET(MakeTensor(x2, shape, ACL_FLOAT, &x2_dev, &x2_t) == 0, "x2");
  CHECK_RET(MakeTensor(gamma, {16}, ACL_FLOAT, &g_dev, &g_t) == 0, "gamma");
  CHECK_RET(MakeTensor(beta, {16}, ACL_FLOAT, &b_dev, &b_t) == 0, "beta");
  CHECK_RET(MakeTensor(bias, {16}, ACL_FLOAT, &bias_dev, &bias_t) == 0, "biasOptional");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "yOut");
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "xOut");
  CHECK_RET(MakeTensor(mean, stats_shape, ACL_FLOAT, &mean_dev, &mean_t) == 0, "meanOut");
  CHECK_RET(MakeTensor(rstd, stats_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstdOut");

  const double epsilon = 1e-5;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(
      aclnnAddLayerNormGetWorkspaceSize(x1_t, x2_t, g_t, b_t, bias_t, epsilon, true, y_t, mean_t,
                                        rstd_t, x_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnAddLayerNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnAddLayerNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnAddLayerNorm");
  if (workspace != nullptr) aclrtFree(workspace);
  CHECK_RET(CopyBack(y_dev, &y) == 0 && CopyBack(x_dev, &x) == 0 &&
                CopyBack(mean_dev, &mean) == 0 && CopyBack(rstd_dev, &rstd) == 0,
            "copy back");

  double worst = 0.0;  // the largest relative difference from the double formula
  for (size_t r = 0; r < kRows; ++r) {
    double v[kCols], sum = 0.0, sq = 0.0;
    for (size_t c = 0; c < kCols; ++c) {
      v[c] = static_cast<double>(x1[r * kCols + c]) + x2[r * kCols + c] + bias[c];
      CHECK_RET(x[r * kCols + c] == static_cast<float>(v[c]), "xOut is x1 + x2 + bias");
      sum += v[c];
    }
    const double m = sum / kCols;
    for (size_t c = 0; c < kCols; ++c) sq += (v[c] - m) * (v[c] - m);
    const double exact_rstd = 1.0 / std::sqrt(sq / kCols + static_cast<float>(epsilon));
    worst = std::fmax(worst, std::fabs(rstd[r] - exact_rstd) / exact_rstd);
    std::printf("row %zu: mean %g rstd %g y", r, mean[r], rstd[r]);
    for (size_t c = 0; c < kCols; ++c) {
      const double exact = (v[c] - m) * exact_rstd * gamma[c] + beta[c];
      worst =
          std::fmax(worst, std::fabs(y[r * kCols + c] - exact) / std::fmax(std::fabs(exact), 1.0));
      std::printf(" %.4f", y[r * kCols + c]);
    }
    std::printf("\n");
  }
  std::printf("largest relative difference from the double formula: %.3g\n", worst);
  CHECK_RET(worst < 1e-5, "result within f32 precision");

  for (aclTensor* t : {x1_t, x2_t, g_t, b_t, bias_t, y_t, x_t, mean_t, rstd_t}) {
    aclDestroyTensor(t);
  }
  for (void* p : {x1_dev, x2_dev, g_dev, b_dev, bias_dev, y_dev, x_dev, mean_dev, rstd_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
