// Elu and its gradient through the CANN API, with the three numbers CANN callers pass as
// aclScalars of any real dtype (alpha a FLOAT, scale an INT32, inputScale a DOUBLE): out =
// scale * self where self > 0, else alpha * scale * (exp(self * inputScale) - 1), on a [4, 2]
// FLOAT tensor; then EluBackward from the result (isResult true), whose parameters come
// between its two tensors in CANN's prototype. Checked against the formulas in double.
#include <cmath>

#include "aclnnop/aclnn_elu.h"
#include "aclnnop/aclnn_elu_backward.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-20.0f, -2.0f, -0.5f, -1e-4f, 0.0f, 1e-4f, 1.0f, 3.0f};  // [4, 2]
  std::vector<float> y(8, 0.0f), dy(8, 1.5f), dx(8, 0.0f);
  void *x_dev, *y_dev, *dy_dev, *dx_dev;
  aclTensor *x_t, *y_t, *dy_t, *dx_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(dy, {4, 2}, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(dx, {4, 2}, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");
  float alpha_value = 0.75f;
  int32_t scale_value = 2;
  double input_scale_value = 1.5;
  aclScalar* alpha = aclCreateScalar(&alpha_value, ACL_FLOAT);
  aclScalar* scale = aclCreateScalar(&scale_value, ACL_INT32);
  aclScalar* input_scale = aclCreateScalar(&input_scale_value, ACL_DOUBLE);
  CHECK_RET(alpha != nullptr && scale != nullptr && input_scale != nullptr, "aclCreateScalar");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnEluGetWorkspaceSize(x_t, alpha, scale, input_scale, y_t, &ws, &executor) ==
                ACL_SUCCESS,
            "aclnnEluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnElu, ws, executor, stream) == 0, "aclnnElu");
  CHECK_RET(aclnnEluBackwardGetWorkspaceSize(dy_t, alpha, scale, input_scale, true, y_t, dx_t,
                                             &ws, &executor) == ACL_SUCCESS,
            "aclnnEluBackwardGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnEluBackward, ws, executor, stream) == 0, "aclnnEluBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  const double a = alpha_value, s = scale_value, is = input_scale_value;
  double worst = 0;  // relative error, in units of 2^-24
  for (size_t i = 0; i < y.size(); ++i) {
    const double want = x[i] > 0 ? s * x[i] : a * s * std::expm1(x[i] * is);
    const double want_dx = y[i] > 0 ? 1.5 * s : 1.5 * is * (y[i] + a * s);
    for (const double* p : {&want, &want_dx}) {
      const double got = p == &want ? y[i] : dx[i];
      if (*p != 0) worst = std::fmax(worst, std::fabs(got - *p) / std::fabs(*p) * 16777216.0);
    }
    std::printf("elu(%+g) = %+.8g (exact %+.8g), gradient from the result %+.8g\n", x[i], y[i],
                want, dx[i]);
  }
  std::printf("largest relative error: %.2f x 2^-24 (SPEC: within 4 ULP)\n", worst);

  for (aclScalar* p : {alpha, scale, input_scale}) aclDestroyScalar(p);
  for (aclTensor* t : {x_t, y_t, dy_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, dy_dev, dx_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 8.0 ? 0 : 1;
}
