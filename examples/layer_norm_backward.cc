// LayerNormBackward through the CANN API, run on the null stream: the forward (aclnnLayerNorm)
// of input [3, 6] over its last dim with weight [6] gives mean and rstd [3, 1]; the gradient
// of a loss sum(out * w) then has gradOut = w, and aclnnLayerNormBackward (outputMask all true)
// gives gradInputOut, gradWeightOut = sum(gradOut * xhat) and gradBiasOut = sum(gradOut) over
// the rows. Each is checked against the same formulas in double.
#include <cmath>

#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  constexpr size_t kRows = 3, kCols = 6;
  std::vector<float> x(kRows * kCols), dy(kRows * kCols);
  for (size_t i = 0; i < x.size(); ++i) {
    x[i] = std::sin(0.9f * static_cast<float>(i)) * 2.0f + 0.5f;
    dy[i] = std::cos(0.4f * static_cast<float>(i));
  }
  std::vector<float> weight = {1.0f, -0.5f, 2.0f, 0.75f, 1.25f, -1.0f};
  std::vector<float> out(x.size()), mean(kRows), rstd(kRows), dx(x.size()), dw(kCols), db(kCols);
  void *x_dev, *w_dev, *out_dev, *mean_dev, *rstd_dev, *dy_dev, *dx_dev, *dw_dev, *db_dev;
  aclTensor *x_t, *w_t, *out_t, *mean_t, *rstd_t, *dy_t, *dx_t, *dw_t, *db_t;
  const std::vector<int64_t> shape = {3, 6}, stats = {3, 1}, cols = {6};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "input");
  CHECK_RET(MakeTensor(weight, cols, ACL_FLOAT, &w_dev, &w_t) == 0, "weight");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");
  CHECK_RET(MakeTensor(mean, stats, ACL_FLOAT, &mean_dev, &mean_t) == 0, "mean");
  CHECK_RET(MakeTensor(rstd, stats, ACL_FLOAT, &rstd_dev, &rstd_t) == 0, "rstd");
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOut");
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInputOut");
  CHECK_RET(MakeTensor(dw, cols, ACL_FLOAT, &dw_dev, &dw_t) == 0, "gradWeightOut");
  CHECK_RET(MakeTensor(db, cols, ACL_FLOAT, &db_dev, &db_t) == 0, "gradBiasOut");
  const int64_t normalized[] = {6};
  aclIntArray* norm = aclCreateIntArray(normalized, 1);
  const bool mask_values[3] = {true, true, true};
  aclBoolArray* mask = aclCreateBoolArray(mask_values, 3);

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLayerNormGetWorkspaceSize(x_t, norm, w_t, nullptr, 1e-5, out_t, mean_t, rstd_t,
                                           &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnLayerNormGetWorkspaceSize");
  std::vector<char> workspace(workspace_size);
  CHECK_RET(aclnnLayerNorm(workspace.data(), workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnLayerNorm");
  CHECK_RET(aclnnLayerNormBackwardGetWorkspaceSize(dy_t, x_t, norm, mean_t, rstd_t, w_t, nullptr,
                                                   mask, dx_t, dw_t, db_t, &workspace_size,
                                                   &executor) == ACL_SUCCESS,
            "aclnnLayerNormBackwardGetWorkspaceSize");
  workspace.resize(workspace_size);
  CHECK_RET(
      aclnnLayerNormBackward(workspace.data(), workspace_size, executor, nullptr) == ACL_SUCCESS,
      "aclnnLayerNormBackward");
  CHECK_RET(CopyBack(mean_dev, &mean) == 0 && CopyBack(rstd_dev, &rstd) == 0 &&
                CopyBack(dx_dev, &dx) == 0 && CopyBack(dw_dev, &dw) == 0 &&
                CopyBack(db_dev, &db) == 0,
            "copy back");

  double worst = 0.0;  // the largest difference from the double formulas, relative to the terms
  std::vector<double> gw(kCols, 0.0), gw_mag(kCols, 0.0), gb(kCols, 0.0), gb_mag(kCols, 0.0);
  for (size_t r = 0; r < kRows; ++r) {
    double s1 = 0.0, s2 = 0.0, m1 = 0.0, m2 = 0.0;
    for (size_t c = 0; c < kCols; ++c) {
      const size_t i = r * kCols + c;
      const double xhat = (x[i] - static_cast<double>(mean[r])) * rstd[r];
      s1 += static_cast<double>(dy[i]) * weight[c];
      s2 += static_cast<double>(dy[i]) * weight[c] * xhat;
      m1 += std::fabs(static_cast<double>(dy[i]) * weight[c]);
      m2 += std::fabs(static_cast<double>(dy[i]) * weight[c] * xhat);
    }
    std::printf("row %zu: mean %f rstd %f gradInput", r, mean[r], rstd[r]);
    for (size_t c = 0; c < kCols; ++c) {
      const size_t i = r * kCols + c;
      const double xhat = (x[i] - static_cast<double>(mean[r])) * rstd[r];
      const double dyw = static_cast<double>(dy[i]) * weight[c];
      const double exact = (dyw - (s1 / kCols + xhat * s2 / kCols)) * rstd[r];
      const double terms = (std::fabs(dyw) + m1 / kCols + std::fabs(xhat) * m2 / kCols) * rstd[r];
      worst = std::fmax(worst, std::fabs(dx[i] - exact) / terms);
      gw[c] += dy[i] * xhat;
      gw_mag[c] += std::fabs(dy[i] * xhat);
      gb[c] += dy[i];
      gb_mag[c] += std::fabs(dy[i]);
      std::printf(" %.5f", dx[i]);
    }
    std::printf("\n");
  }
  std::printf("gradWeight");
  for (size_t c = 0; c < kCols; ++c) {
    worst = std::fmax(worst, std::fabs(dw[c] - gw[c]) / gw_mag[c]);
    std::printf(" %.5f", dw[c]);
  }
  std::printf("\ngradBias");
  for (size_t c = 0; c < kCols; ++c) {
    worst = std::fmax(worst, std::fabs(db[c] - gb[c]) / gb_mag[c]);
    std::printf(" %.5f", db[c]);
  }
  std::printf("\nlargest difference from the double formulas, relative to the terms: %.3g\n",
              worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");

  aclDestroyIntArray(norm);
  aclDestroyBoolArray(mask);
  for (aclTensor* t : {x_t, w_t, out_t, mean_t, rstd_t, dy_t, dx_t, dw_t, db_t})
    aclDestroyTensor(t);
  for (void* p : {x_dev, w_dev, out_dev, mean_dev, rstd_dev, dy_dev, dx_dev, dw_dev, db_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
