// RmsNormGrad through the CANN API, run on the null stream: the forward (aclnnRmsNorm) of x
// [4, 8] with gamma [8] gives rstd [4, 1]; the gradient of a loss sum(yOut * w) then has
// dy = w, and aclnnRmsNormGrad gives dxOut and dgammaOut (the sum over the rows of
// dy * x * rstd). Both are checked against the same formulas in double.
#include <cmath>

#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "example_common.h"

namespace {
// Both phases of one call, on the null stream; false on any failure.
template <class Phase1, class Phase2>
bool Call(Phase1 phase1, Phase2 phase2, const char* name) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  if (phase1(&workspace_size, &executor) != ACL_SUCCESS) {
    std::printf("%sGetWorkspaceSize failed: %s\n", name, aclGetRecentErrMsg());
    return false;
  }
  void* workspace = nullptr;
  if (workspace_size > 0 &&
      aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
    return false;
  }
  const bool ok = phase2(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS;
  if (workspace != nullptr) aclrtFree(workspace);
  return ok;
}
}  // namespace

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr size_t kRows = 4, kCols = 8;
  std::vector<float> x(kRows * kCols), dy(kRows * kCols);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = std::sin(0.7f * static_cast<float>(i)) * 3.0f;
    dy[i] = std::cos(0.3f * static_cast<float>(i));
  }
  std::vector<float> gamma = {1.0f, 0.5f, 2.0f, -1.0f, 1.5f, 0.25f, 1.0f, 3.0f};
  std::vector<float> y(x.size()), rstd(kRows), dx(x.size()), dgamma(kCols);
  void *x_dev, *g_dev, *y_dev, *rstd_dev, *dy_dev, *dx_dev, *dg_dev;
  aclTensor *x_t, *g_t, *y_t, *rstd_t, *dy_t, *dx_t, *dg_t;
  const std::vector<int64_t> shape = {4, 8}, rstd_shape = {4, 1}, gamma_shape = {8};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "x");
  CHECK_RET(MakeTensor(gamma, gamma_shape, ACL_FLOAT, &g_dev, &g_t) == 0, "gamma");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "yOut");
  CHECK_RET(MakeTensor(rstd, rstd_shape, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstd");
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "dy");
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "dxOut");
  CHECK_RET(MakeTensor(dgamma, gamma_shape, ACL_FLOAT, &dg_dev, &dg_t) == 0, "dgammaOut");

  CHECK_RET(Call(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnRmsNormGetWorkspaceSize(x_t, g_t, 1e-6, y_t, rstd_t, ws, e);
                },
                aclnnRmsNorm, "aclnnRmsNorm"),
            "aclnnRmsNorm");
  CHECK_RET(Call(
                [&](uint64_t* ws, aclOpExecutor** e) {
                  return aclnnRmsNormGradGetWorkspaceSize(dy_t, x_t, rstd_t, g_t, dx_t, dg_t, ws,
                                                          e);
                },
                aclnnRmsNormGrad, "aclnnRmsNormGrad"),
            "aclnnRmsNormGrad");
  CHECK_RET(CopyBack(rstd_dev, &rstd) == 0 && CopyBack(dx_dev, &dx) == 0 &&
                CopyBack(dg_dev, &dgamma) == 0,
            "copy back");

  double worst = 0.0;  // the largest difference from the double formulas, relative to the terms
  std::vector<double> dg(kCols, 0.0), dg_mag(kCols, 0.0);
  for (size_t r = 0; r < kRows; ++r) {
    const double s_r = rstd[r];
    double s = 0.0, mag = 0.0;
    for (size_t c = 0; c < kCols; ++c) {
      s += static_cast<double>(dy[r * kCols + c]) * gamma[c] * x[r * kCols + c];
      mag += std::fabs(static_cast<double>(dy[r * kCols + c]) * gamma[c] * x[r * kCols + c]);
    }
    std::printf("row %zu: rstd %f dx", r, rstd[r]);
    for (size_t c = 0; c < kCols; ++c) {
      const size_t i = r * kCols + c;
      const double dyg = static_cast<double>(dy[i]) * gamma[c];
      const double exact = (dyg - x[i] * s_r * (s_r * s / kCols)) * s_r;
      const double terms = std::fabs(dyg) * s_r + std::fabs(x[i]) * s_r * s_r * s_r * mag / kCols;
      worst = std::fmax(worst, std::fabs(dx[i] - exact) / terms);
      dg[c] += static_cast<double>(dy[i]) * x[i] * s_r;
      dg_mag[c] += std::fabs(static_cast<double>(dy[i]) * x[i] * s_r);
      std::printf(" %.5f", dx[i]);
    }
    std::printf("\n");
  }
  std::printf("dgamma");
  for (size_t c = 0; c < kCols; ++c) {
    worst = std::fmax(worst, std::fabs(dgamma[c] - dg[c]) / dg_mag[c]);
    std::printf(" %.5f", dgamma[c]);
  }
  std::printf("\nlargest difference from the double formulas, relative to the terms: %.3g\n",
              worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");

  for (aclTensor* t : {x_t, g_t, y_t, rstd_t, dy_t, dx_t, dg_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, g_dev, y_dev, rstd_dev, dy_dev, dx_dev, dg_dev}) aclrtFree(p);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
