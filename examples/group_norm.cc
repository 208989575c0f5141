// GroupNorm through the CANN API, run on the null stream: self [2, 6, 4] (N 2, C 6, HxW 4) in
// 3 groups of 2 channels; each group's 8 elements normalised by their mean and rstd = 1 /
// sqrt(var + eps), then scaled and shifted per channel by gamma and beta; meanOut and rstdOut
// [2, 3]. Each group is checked against the same formula in double. Then GroupNormBackward
// from gradOut = out and the forward's statistics: gradGammaOut and gradBetaOut, the
// per-channel sums of gradOut * xhat and gradOut, are checked the same way.
#include <cmath>

#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
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
  if (workspace != nullptr) aclrtFree(workspace);

  // The gradient, with out as gradOut (y_t) and every output asked for.
  std::vector<float> dx(x.size(), 0.0f), dgamma(kC, 0.0f), dbeta(kC, 0.0f);
  void *dx_dev, *dg_dev, *db_dev;
  aclTensor *dx_t, *dg_t, *db_t;
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");
  CHECK_RET(MakeTensor(dgamma, {kC}, ACL_FLOAT, &dg_dev, &dg_t) == 0, "gradGammaOut");
  CHECK_RET(MakeTensor(dbeta, {kC}, ACL_FLOAT, &db_dev, &db_t) == 0, "gradBetaOut");
  const bool mask_values[3] = {true, true, true};
  aclBoolArray* mask = aclCreateBoolArray(mask_values, 3);
  CHECK_RET(aclnnGroupNormBackwardGetWorkspaceSize(y_t, x_t, mean_t, rstd_t, g_t, kN, kC, kHxW,
                                                   kGroup, mask, dx_t, dg_t, db_t, &workspace_size,
                                                   &executor) == ACL_SUCCESS,
            "aclnnGroupNormBackwardGetWorkspaceSize");
  workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnGroupNormBackward(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnGroupNormBackward");
  CHECK_RET(
      CopyBack(dx_dev, &dx) == 0 && CopyBack(dg_dev, &dgamma) == 0 && CopyBack(db_dev, &dbeta) == 0,
      "copy back");
  double worst_sum = 0.0;
  for (int64_t c = 0; c < kC; ++c) {
    double sg = 0.0, sb = 0.0;
    for (int64_t n = 0; n < kN; ++n) {
      const int64_t r = n * kGroup + c / (kC / kGroup);
      for (int64_t i = 0; i < kHxW; ++i) {
        const size_t at = static_cast<size_t>((n * kC + c) * kHxW + i);
        sg += y[at] * (x[at] - mean[r]) * rstd[r];
        sb += y[at];
      }
    }
    worst_sum = std::fmax(worst_sum, std::fabs(dgamma[c] - sg) + std::fabs(dbeta[c] - sb));
    std::printf("channel %lld: gradGammaOut %.5f gradBetaOut %.5f\n", static_cast<long long>(c),
                dgamma[c], dbeta[c]);
  }
  std::printf("gradInput[0..3] %.5f %.5f %.5f %.5f\n", dx[0], dx[1], dx[2], dx[3]);
  std::printf("largest difference of the channel sums from the double formula: %.3g\n", worst_sum);
  CHECK_RET(worst_sum < 1e-5, "channel sums within f32 precision");
  aclDestroyBoolArray(mask);
  if (workspace != nullptr) aclrtFree(workspace);

  for (aclTensor* t : {x_t, g_t, b_t, y_t, mean_t, rstd_t, dx_t, dg_t, db_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, g_dev, b_dev, y_dev, mean_dev, rstd_dev, dx_dev, dg_dev, db_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
