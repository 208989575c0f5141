// RmsNorm through the CANN API, run on the null stream: each row of x [2, 3, 8] divided by its
// root mean square over gamma's dims ([8]), rms = sqrt(mean(x^2) + epsilon), and scaled by
// gamma; the rows' rstd = 1 / rms written to a FLOAT [2, 3, 1] tensor. Each row is checked
// against the same formula in double.
#include <cmath>

#include "aclnnop/aclnn_rms_norm.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr size_t kRows = 6, kCols = 8;
  std::vector<float> x(kRows * kCols);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 11) * 0.5f - 2.0f;
  for (size_t c = 0; c < kCols; ++c) x[3 * kCols + c] = 1.0e20f;  // squares past f32's range
  std::vector<float> gamma = {1.0f, 0.5f, 2.0f, -1.0f, 1.5f, 0.25f, 1.0f, 3.0f};
  std::vector<float> y(x.size(), 0.0f), rstd(kRows, 0.0f);
  void *x_dev, *g_dev, *y_dev, *rstd_dev;
  aclTensor *x_t, *g_t, *y_t, *rstd_t;
  const std::vector<int64_t> shape = {2, 3, 8}, stats_shape = {2, 3, 1};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "x");
  CHECK_RET(MakeTensor(gamma, {8}, ACL_FLOAT, &g_dev, &g_t) == 0, "gamma");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "yOut");
  CHECK_RET(MakeTensor(rstd, stats_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstdOut");

  const double epsilon = 1e-6;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnRmsNormGetWorkspaceSize(x_t, g_t, epsilon, y_t, rstd_t, &workspace_size,
                                         &executor) == ACL_SUCCESS,
            "aclnnRmsNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnRmsNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnRmsNorm");
  CHECK_RET(CopyBack(y_dev, &y) == 0 && CopyBack(rstd_dev, &rstd) == 0, "copy back");

  double worst = 0.0;  // the largest relative difference from the double formula
  for (size_t r = 0; r < kRows; ++r) {
    double sq = 0.0;
    for (size_t c = 0; c < kCols; ++c)
      sq += static_cast<double>(x[r * kCols + c]) * x[r * kCols + c];
    const double exact_rstd = 1.0 / std::sqrt(sq / kCols + static_cast<float>(epsilon));
    worst = std::fmax(worst, std::fabs(rstd[r] - exact_rstd) / exact_rstd);
    std::printf("row %zu: rstd %g y", r, rstd[r]);
    for (size_t c = 0; c < kCols; ++c) {
      const double exact = x[r * kCols + c] * exact_rstd * gamma[c];
      if (exact != 0.0)
        worst = std::fmax(worst, std::fabs(y[r * kCols + c] - exact) / std::fabs(exact));
      std::printf(" %.5f", y[r * kCols + c]);
    }
    std::printf("\n");
  }
  std::printf("largest relative difference from the double formula: %.3g\n", worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");

  for (aclTensor* t : {x_t, g_t, y_t, rstd_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, g_dev, y_dev, rstd_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
