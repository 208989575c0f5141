// BatchNorm through the CANN API, run on the null stream: input [2, 3, 2, 2] (N 2, C 3, H 2,
// W 2) in training, each channel's 8 elements normalised by their batch mean and variance,
// then scaled and shifted by weight and bias; saveMean and saveInvstd (the variance, as Atlas
// A2 has it) per channel; runningMean and runningVar updated with momentum 0.1 (the variance
// unbiased). Each channel is checked against the same formula in double. Then
// BatchNormBackward from gradOut = output and the saved statistics: gradWeight and gradBias,
// the per-channel sums of gradOut * xhat and gradOut, and gradInput are checked the same way.
#include <cmath>

#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "example_common.h"

namespace {

constexpr int64_t kN = 2, kC = 3, kS = 4;  // S = H * W
constexpr double kEps = 1e-5, kMomentum = 0.1;

int64_t At(int64_t n, int64_t c, int64_t s) { return (n * kC + c) * kS + s; }

}  // namespace

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> x(kN * kC * kS), weight(kC), bias(kC), running_mean(kC, 0.0f),
      running_var(kC, 1.0f);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 5) % 11) * 0.5f - 2.0f;
  for (int64_t c = 0; c < kC; ++c) {
    weight[c] = 0.5f + 0.25f * static_cast<float>(c);
    bias[c] = 0.125f * static_cast<float>(c) - 0.25f;
  }
  std::vector<float> y(x.size(), 0.0f), save_mean(kC, 0.0f), save_var(kC, 0.0f);
  void *x_dev, *w_dev, *b_dev, *rm_dev, *rv_dev, *y_dev, *sm_dev, *sv_dev;
  aclTensor *x_t, *w_t, *b_t, *rm_t, *rv_t, *y_t, *sm_t, *sv_t;
  const std::vector<int64_t> shape = {kN, kC, 2, 2};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "input");
  CHECK_RET(MakeTensor(weight, {kC}, ACL_FLOAT, &w_dev, &w_t) == 0, "weight");
  CHECK_RET(MakeTensor(bias, {kC}, ACL_FLOAT, &b_dev, &b_t) == 0, "bias");
  CHECK_RET(MakeTensor(running_mean, {kC}, ACL_FLOAT, &rm_dev, &rm_t) == 0, "runningMean");
  CHECK_RET(MakeTensor(running_var, {kC}, ACL_FLOAT, &rv_dev, &rv_t) == 0, "runningVar");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "output");
  CHECK_RET(MakeTensor(save_mean, {kC}, ACL_FLOAT, &sm_dev, &sm_t) == 0, "saveMean");
  CHECK_RET(MakeTensor(save_var, {kC}, ACL_FLOAT, &sv_dev, &sv_t) == 0, "saveInvstd");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnBatchNormGetWorkspaceSize(x_t, w_t, b_t, rm_t, rv_t, true, kMomentum, kEps, y_t,
                                           sm_t, sv_t, &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnBatchNormGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnBatchNorm(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnBatchNorm");
  CHECK_RET(CopyBack(y_dev, &y) == 0 && CopyBack(sm_dev, &save_mean) == 0 &&
                CopyBack(sv_dev, &save_var) == 0 && CopyBack(rm_dev, &running_mean) == 0 &&
                CopyBack(rv_dev, &running_var) == 0,
            "copy back");

  double worst = 0.0;  // the largest difference from the double formula, relative to 1
  const double m = static_cast<double>(kN * kS);
  for (int64_t c = 0; c < kC; ++c) {
    double sum = 0.0, sq = 0.0;
    for (int64_t n = 0; n < kN; ++n) {
      for (int64_t s = 0; s < kS; ++s) sum += x[At(n, c, s)];
    }
    const double mean = sum / m;
    for (int64_t n = 0; n < kN; ++n) {
      for (int64_t s = 0; s < kS; ++s) sq += (x[At(n, c, s)] - mean) * (x[At(n, c, s)] - mean);
    }
    const double var = sq / m, rstd = 1.0 / std::sqrt(var + static_cast<float>(kEps));
    const double rm = kMomentum * mean, rv = (1 - kMomentum) + kMomentum * var * m / (m - 1);
    worst = std::fmax(worst, std::fabs(save_mean[c] - mean) + std::fabs(save_var[c] - var) +
                                 std::fabs(running_mean[c] - rm) + std::fabs(running_var[c] - rv));
    std::printf("channel %lld: saveMean %g saveInvstd (variance) %g runningMean %g runningVar %g\n",
                static_cast<long long>(c), save_mean[c], save_var[c], running_mean[c],
                running_var[c]);
    std::printf("  output");
    for (int64_t n = 0; n < kN; ++n) {
      for (int64_t s = 0; s < kS; ++s) {
        const double exact = (x[At(n, c, s)] - mean) * rstd * weight[c] + bias[c];
        worst =
            std::fmax(worst, std::fabs(y[At(n, c, s)] - exact) / std::fmax(1.0, std::fabs(exact)));
        std::printf(" %.4f", y[At(n, c, s)]);
      }
    }
    std::printf("\n");
  }
  std::printf("largest difference from the double formula: %.3g\n", worst);
  CHECK_RET(worst < 1e-6, "result within f32 precision");
  if (workspace != nullptr) aclrtFree(workspace);

  // The gradient in training, with output as gradOut (y_t) and every output asked for.
  std::vector<float> dx(x.size(), 0.0f), dw(kC, 0.0f), db(kC, 0.0f);
  void *dx_dev, *dw_dev, *db_dev;
  aclTensor *dx_t, *dw_t, *db_t;
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");
  CHECK_RET(MakeTensor(dw, {kC}, ACL_FLOAT, &dw_dev, &dw_t) == 0, "gradWeight");
  CHECK_RET(MakeTensor(db, {kC}, ACL_FLOAT, &db_dev, &db_t) == 0, "gradBias");
  const bool mask_values[3] = {true, true, true};
  aclBoolArray* mask = aclCreateBoolArray(mask_values, 3);
  CHECK_RET(aclnnBatchNormBackwardGetWorkspaceSize(y_t, x_t, w_t, rm_t, rv_t, sm_t, sv_t, true,
                                                   kEps, mask, dx_t, dw_t, db_t, &workspace_size,
                                                   &executor) == ACL_SUCCESS,
            "aclnnBatchNormBackwardGetWorkspaceSize");
  workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnBatchNormBackward(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnBatchNormBackward");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0 && CopyBack(dw_dev, &dw) == 0 && CopyBack(db_dev, &db) == 0,
            "copy back");
  double worst_grad = 0.0;
  for (int64_t c = 0; c < kC; ++c) {
    const double invstd = 1.0 / std::sqrt(save_var[c] + static_cast<float>(kEps));
    double sw = 0.0, sb = 0.0;
    for (int64_t n = 0; n < kN; ++n) {
      for (int64_t s = 0; s < kS; ++s) {
        sw += y[At(n, c, s)] * (x[At(n, c, s)] - save_mean[c]) * invstd;
        sb += y[At(n, c, s)];
      }
    }
    worst_grad = std::fmax(worst_grad, std::fabs(dw[c] - sw) + std::fabs(db[c] - sb));
    for (int64_t n = 0; n < kN; ++n) {
      for (int64_t s = 0; s < kS; ++s) {
        const double xhat = (x[At(n, c, s)] - save_mean[c]) * invstd;
        const double exact = weight[c] * invstd * (y[At(n, c, s)] - (sb + xhat * sw) / m);
        worst_grad = std::fmax(worst_grad, std::fabs(dx[At(n, c, s)] - exact));
      }
    }
    std::printf("channel %lld: gradWeight %.5f gradBias %.5f\n", static_cast<long long>(c), dw[c],
                db[c]);
  }
  std::printf("gradInput[0..3] %.5f %.5f %.5f %.5f\n", dx[0], dx[1], dx[2], dx[3]);
  std::printf("largest difference of the gradient from the double formula: %.3g\n", worst_grad);
  CHECK_RET(worst_grad < 1e-5, "gradient within f32 precision");
  aclDestroyBoolArray(mask);
  if (workspace != nullptr) aclrtFree(workspace);

  for (aclTensor* t : {x_t, w_t, b_t, rm_t, rv_t, y_t, sm_t, sv_t, dx_t, dw_t, db_t}) {
    aclDestroyTensor(t);
  }
  for (void* p :
       {x_dev, w_dev, b_dev, rm_dev, rv_dev, y_dev, sm_dev, sv_dev, dx_dev, dw_dev, db_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
