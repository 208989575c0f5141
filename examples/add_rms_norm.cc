// AddRmsNorm and InplaceAddRmsNorm through the CANN API, run on the null stream: x = x1 + x2
// (a residual connection) is written to xOut, and each row of x [4, 16] is divided by its root
// mean square over gamma's dims ([16]), rms = sqrt(mean(x^2) + epsilon), and scaled by gamma;
// the rows' rstd = 1 / rms goes to a FLOAT [4, 1] tensor. Each row is checked against the
// same formula in double; then the in-place entry point, which leaves y in x1 and x in x2,
// must give the same bits.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_inplace_add_rms_norm.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr size_t kRows = 4, kCols = 16;
  std::vector<float> x1(kRows * kCols), x2(kRows * kCols), gamma(kCols);
  for (size_t i = 0; i < x1.size(); ++i) {
    x1[i] = static_cast<float>(i % 7) * 0.75f - 2.0f;
    x2[i] = static_cast<float>(i % 5) * 0.25f - 0.5f;
  }
  for (size_t c = 0; c < kCols; ++c) gamma[c] = 0.5f + 0.125f * static_cast<float>(c % 4);
  std::vector<float> y(x1.size(), 0.0f), x(x1.size(), 0.0f), rstd(kRows, 0.0f);
  void *x1_dev, *x2_dev, *g_dev, *y_dev, *x_dev, *rstd_dev;
  aclTensor *x1_t, *x2_t, *g_t, *y_t, *x_t, *rstd_t;
  const std::vector<int64_t> shape = {4, 16}, stats_shape = {4, 1};
  CHECK_RET(MakeTensor(x1, shape, ACL_FLOAT, &x1_dev, &x1_t) == 0, "x1");
  CHECK_RET(MakeTensor(x2, shape, ACL_FLOAT, &x2_dev, &x2_t) == 0, "x2");
  CHECK_RET(MakeTensor(gamma, {16}, ACL_FLOAT, &g_dev, &g_t) == 0, "gamma");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "yOut");
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "xOut");
  CHECK_RET(MakeTensor(rstd, stats_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstdOut");

  const double epsilon = 1e-6;
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnAddRmsNormGetWorkspaceSize(x1_t, x2_t, g_t, epsilon, y_t, rstd_t, x_t,
                                            &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnAddRmsNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnAddRmsNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnAddRmsNorm");
  if (workspace != nullptr) aclrtFree(workspace);
  CHECK_RET(CopyBack(y_dev, &y) == 0 && CopyBack(x_dev, &x) == 0 && CopyBack(rstd_dev, &rstd) == 0,
            "copy back");

  double worst = 0.0;  // the largest relative difference from the double formula
  for (size_t r = 0; r < kRows; ++r) {
    double sq = 0.0;
    for (size_t c = 0; c < kCols; ++c) {
      const double v = static_cast<double>(x1[r * kCols + c]) + x2[r * kCols + c];
      CHECK_RET(x[r * kCols + c] == static_cast<float>(v), "xOut is x1 + x2");
      sq += v * v;
    }
    const double exact_rstd = 1.0 / std::sqrt(sq / kCols + static_cast<float>(epsilon));
    worst = std::fmax(worst, std::fabs(rstd[r] - exact_rstd) / exact_rstd);
    std::printf("row %zu: rstd %g y", r, rstd[r]);
    for (size_t c = 0; c < kCols; ++c) {
      const double v = static_cast<double>(x1[r * kCols + c]) + x2[r * kCols + c];
      const double exact = v * exact_rstd * gamma[c];
      if (exact != 0.0)
        worst = std::fmax(worst, std::fabs(y[r * kCols + c] - exact) / std::fabs(exact));
      std::printf(" %.4f", y[r * kCols + c]);
    }
    std::printf("\n");
  }
  std::printf("largest relative difference from the double formula: %.3g\n", worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");

  // In place: x1 takes y, x2 takes x; the same bits as above.
  workspace_size = 0;
  CHECK_RET(aclnnInplaceAddRmsNormGetWorkspaceSize(x1_t, x2_t, g_t, epsilon, rstd_t,
                                                   &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnInplaceAddRmsNormGetWorkspaceSize");
  workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnInplaceAddRmsNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnInplaceAddRmsNorm");
  if (workspace != nullptr) aclrtFree(workspace);
  std::vector<float> y_in_place(x1.size()), x_in_place(x2.size());
  CHECK_RET(CopyBack(x1_dev, &y_in_place) == 0 && CopyBack(x2_dev, &x_in_place) == 0, "copy back");
  CHECK_RET(std::memcmp(y_in_place.data(), y.data(), y.size() * sizeof(float)) == 0 &&
                std::memcmp(x_in_place.data(), x.data(), x.size() * sizeof(float)) == 0,
            "in place: the same bits");
  std::printf("in place: x1 holds y and x2 holds x1 + x2, bit for bit\n");

  for (aclTensor* t : {x1_t, x2_t, g_t, y_t, x_t, rstd_t}) aclDestroyTensor(t);
  for (void* p : {x1_dev, x2_dev, g_dev, y_dev, x_dev, rstd_dev}) aclrtFree(p);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
