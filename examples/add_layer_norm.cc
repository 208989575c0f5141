// AddLayerNorm and AddLayerNormGrad through the CANN API, run on the null stream: x = x1 + x2 +
// bias (a residual connection with a per-column bias) is written to xOut, and each row of x [4, 16]
// is normalised over gamma's dims ([16]) to zero mean and unit variance, scaled by gamma and
// shifted by beta; the rows' mean and rstd = 1 / sqrt(var + epsilon) go to FLOAT [4, 1]
// tensors. Each row is checked against the same formula in double. Then AddLayerNormGrad
// takes a gradient dy of y, x1, x2 and the forward's mean and rstd back to dx (the gradient
// of x, so of x1 and of x2) and to gamma's and beta's gradients, checked the same way.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
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
  Workspaces workspaces;  // phase 2 on the null stream: each call done when it returns
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(
      aclnnAddLayerNormGetWorkspaceSize(x1_t, x2_t, g_t, b_t, bias_t, epsilon, true, y_t, mean_t,
                                        rstd_t, x_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnAddLayerNormGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnAddLayerNorm, workspace_size, executor, nullptr) == 0,
            "aclnnAddLayerNorm");
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

  // The gradient, without the bias (x = x1 + x2): the forward again for its statistics, then
  // AddLayerNormGrad from dy.
  workspace_size = 0;
  CHECK_RET(
      aclnnAddLayerNormGetWorkspaceSize(x1_t, x2_t, g_t, b_t, nullptr, epsilon, false, y_t, mean_t,
                                        rstd_t, x_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnAddLayerNormGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnAddLayerNorm, workspace_size, executor, nullptr) == 0,
            "aclnnAddLayerNorm");
  CHECK_RET(CopyBack(mean_dev, &mean) == 0 && CopyBack(rstd_dev, &rstd) == 0, "copy back");
  std::vector<float> dy(x1.size()), dx(x1.size(), 0.0f), dgamma(kCols, 0.0f), dbeta(kCols, 0.0f);
  for (size_t i = 0; i < dy.size(); ++i) dy[i] = static_cast<float>(i % 9) * 0.25f - 1.0f;
  void *dy_dev, *dx_dev, *dg_dev, *db_dev;
  aclTensor *dy_t, *dx_t, *dg_t, *db_t;
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "dy");
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "dxOut");
  CHECK_RET(MakeTensor(dgamma, {16}, ACL_FLOAT, &dg_dev, &dg_t) == 0, "dgammaOut");
  CHECK_RET(MakeTensor(dbeta, {16}, ACL_FLOAT, &db_dev, &db_t) == 0, "dbetaOut");
  workspace_size = 0;
  CHECK_RET(
      aclnnAddLayerNormGradGetWorkspaceSize(dy_t, x1_t, x2_t, rstd_t, mean_t, g_t, nullptr, dx_t,
                                            dg_t, db_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnAddLayerNormGradGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnAddLayerNormGrad, workspace_size, executor, nullptr) == 0,
            "aclnnAddLayerNormGrad");
  CHECK_RET(
      CopyBack(dx_dev, &dx) == 0 && CopyBack(dg_dev, &dgamma) == 0 && CopyBack(db_dev, &dbeta) == 0,
      "copy back");
  worst = 0.0;
  std::vector<double> dg_exact(kCols, 0.0), db_exact(kCols, 0.0);
  for (size_t r = 0; r < kRows; ++r) {
    double xhat[kCols], a = 0.0, b = 0.0;
    for (size_t c = 0; c < kCols; ++c) {
      const size_t i = r * kCols + c;
      xhat[c] = (static_cast<double>(x1[i]) + x2[i] - mean[r]) * rstd[r];
      a += dy[i] * gamma[c] / kCols;
      b += dy[i] * gamma[c] * xhat[c] / kCols;
      dg_exact[c] += dy[i] * xhat[c];
      db_exact[c] += dy[i];
    }
    std::printf("row %zu: dx", r);
    for (size_t c = 0; c < kCols; ++c) {
      const size_t i = r * kCols + c;
      const double exact = (dy[i] * gamma[c] - (a + xhat[c] * b)) * rstd[r];
      worst = std::fmax(worst, std::fabs(dx[i] - exact) / std::fmax(std::fabs(exact), 1.0));
      std::printf(" %.4f", dx[i]);
    }
    std::printf("\n");
  }
  std::printf("dgamma");
  for (size_t c = 0; c < kCols; ++c) {
    worst = std::fmax(worst,
                      std::fabs(dgamma[c] - dg_exact[c]) / std::fmax(std::fabs(dg_exact[c]), 1.0));
    worst = std::fmax(worst,
                      std::fabs(dbeta[c] - db_exact[c]) / std::fmax(std::fabs(db_exact[c]), 1.0));
    std::printf(" %.4f", dgamma[c]);
  }
  std::printf("\ndbeta");
  for (size_t c = 0; c < kCols; ++c) std::printf(" %.4f", dbeta[c]);
  std::printf("\nlargest relative difference of the gradients from the double formula: %.3g\n",
              worst);
  CHECK_RET(worst < 1e-5, "gradients within f32 precision");

  for (aclTensor* t : {dy_t, dx_t, dg_t, db_t}) aclDestroyTensor(t);
  for (void* p : {dy_dev, dx_dev, dg_dev, db_dev}) aclrtFree(p);
  for (aclTensor* t : {x1_t, x2_t, g_t, b_t, bias_t, y_t, x_t, mean_t, rstd_t}) {
    aclDestroyTensor(t);
  }
  for (void* p : {x1_dev, x2_dev, g_dev, b_dev, bias_dev, y_dev, x_dev, mean_dev, rstd_dev}) {
    aclrtFree(p);
  }
  workspaces.FreeAll();
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
