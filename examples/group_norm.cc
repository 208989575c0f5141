// GroupNorm through the CANN API, run on the null stream: self [2, 6, 4] (N 2, C 6, HxW 4) in
// 3 groups of 2 channels; each group's 8 elements normalised by their mean and rstd = 1 /
// sqrt(var + eps), then scaled and shifted per channel by gamma and beta; meanOut and rstdOut
// [2, 3]. Each group is checked against the same formula in double.
#include <cmath>

#include "aclnnop/aclnn_group_norm.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr int64_t kN = 2, kC = 6, kHxW = 4, kGroup = 3;
  std::vector<float> x(kN * kC * kHxW), gamma(kC), beta(kC);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 13) * 0.5f - 3.0f;
  for (int64_t c = 0; c < kC; ++c) {
    gamma[c] = 0.5f + 0.25f * static_cast<float>(c);
    beta[c] = 0.125f * static_cast<float>(c) - 0.25f;
  }
  std::vector<float> y(x.size(), 0.0f), mean(kN * kGroup, 0.0f), rstd(kN * kGroup, 0.0f);
  void *x_dev, *g_dev, *b_dev, *y_dev, *mean_dev, *rstd_dev;
  aclTensor *x_t, *g_t, *b_t, *y_t, *mean_t, *rstd_t;
  const std::vector<int64_t> shape = {kN, kC, kHxW}, stats_shape = {kN, kGroup};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(gamma, {kC}, ACL_FLOAT, &g_dev, &g_t) == 0, "gamma");
  CHECK_RET(MakeTensor(beta, {kC}, ACL_FLOAT, &b_dev, &b_t) == 0, "beta");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(mean, stats_shape, ACL_FLOAT, &mean_dev, &mean_t) == 0, "meanOut");
  CHECK_RET(MakeTensor(rstd, stats_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstdOut");

  const double eps = 1e-5;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnGroupNormGetWorkspaceSize(x_t, g_t, b_t, kN, kC, kHxW, kGroup, eps, y_t, mean_t,
                                           rstd_t, &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnGroupNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnGroupNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnGroupNorm");
  CHECK_RET(
      CopyBack(y_dev, &y) == 0 && CopyBack(mean_dev, &mean) == 0 && CopyBack(rstd_dev, &rstd) == 0,
      "copy back");

  double worst = 0.0;  // the largest difference from the double formula, relative to 1
  constexpr int64_t kLen = kC / kGroup * kHxW;
  for (int64_t r = 0; r < kN * kGroup; ++r) {
    double sum = 0.0, sq = 0.0;
    for (int64_t i = 0; i < kLen; ++i) sum += x[r * kLen + i];
    const double m = sum / kLen;
    for (int64_t i = 0; i < kLen; ++i) sq += (x[r * kLen + i] - m) * (x[r * kLen + i] - m);
    const double s = 1.0 / std::sqrt(sq / kLen + static_cast<float>(eps));
    worst = std::fmax(worst, std::fabs(mean[r] - m) + std::fabs(rstd[r] - s) / s);
    std::printf("n %lld group %lld: mean %g rstd %g out", static_cast<long long>(r / kGroup),
                static_cast<long long>(r % kGroup), mean[r], rstd[r]);
    for (int64_t i = 0; i < kLen; ++i) {
      const int64_t c = (r % kGroup) * (kC / kGroup) + i / kHxW;
      const double exact = (x[r * kLen + i] - m) * s * gamma[c] + beta[c];
      worst =
          std::fmax(worst, std::fabs(y[r * kLen + i] - exact) / std::fmax(1.0, std::fabs(exact)));
      std::printf(" %.4f", y[r * kLen + i]);
    }
    std::printf("\n");
  }
  std::printf("largest difference from the double formula: %.3g\n", worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");

  for (aclTensor* t : {x_t, g_t, b_t, y_t, mean_t, rstd_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, g_dev, b_dev, y_dev, mean_dev, rstd_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
