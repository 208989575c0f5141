// LeakyRelu and its gradient through the CANN API, with negativeSlope as CANN callers pass
// it (aclCreateScalar of a DOUBLE, read as FLOAT): out = self where self > 0, else
// negativeSlope * self, on a [4, 2] FLOAT tensor; InplaceLeakyRelu on the same values; then
// LeakyReluBackward with selfIsResult true (allowed: negativeSlope is not negative).
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_leaky_relu.h"
#include "aclnnop/aclnn_leaky_relu_backward.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-20.0f, -2.0f, -1e-4f, 0.0f, 1e-4f, 1.0f, 2.0f, 20.0f};  // [4, 2]
  std::vector<float> y(8, 0.0f), inplace = x, dy(8, 1.5f), dx(8, 0.0f);
  void *x_dev, *y_dev, *in_dev, *dy_dev, *dx_dev;
  aclTensor *x_t, *y_t, *in_t, *dy_t, *dx_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(inplace, {4, 2}, ACL_FLOAT, &in_dev, &in_t) == 0, "self (in place)");
  CHECK_RET(MakeTensor(dy, {4, 2}, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(dx, {4, 2}, ACL_FLOAT, &dx_dev, &dx_t) == 0, "out (gradient)");
  double slope_value = 0.2;
  aclScalar* slope = aclCreateScalar(&slope_value, ACL_DOUBLE);
  CHECK_RET(slope != nullptr, "aclCreateScalar");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLeakyReluGetWorkspaceSize(x_t, slope, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnLeakyReluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnLeakyRelu, ws, executor, stream) == 0, "aclnnLeakyRelu");
  CHECK_RET(aclnnInplaceLeakyReluGetWorkspaceSize(in_t, slope, &ws, &executor) == ACL_SUCCESS,
            "aclnnInplaceLeakyReluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnInplaceLeakyRelu, ws, executor, stream) == 0,
            "aclnnInplaceLeakyRelu");
  CHECK_RET(aclnnLeakyReluBackwardGetWorkspaceSize(dy_t, y_t, slope, true, dx_t, &ws,
                                                   &executor) == ACL_SUCCESS,
            "aclnnLeakyReluBackwardGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnLeakyReluBackward, ws, executor, stream) == 0,
            "aclnnLeakyReluBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(in_dev, &inplace) == 0, "copy back");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  const double s = static_cast<float>(slope_value);  // CANN reads the scalar as FLOAT
  bool exact = true;
  for (size_t i = 0; i < y.size(); ++i) {
    const float want = static_cast<float>(x[i] > 0 ? x[i] : s * x[i]);
    const float want_dx = static_cast<float>(y[i] > 0 ? 1.5 : 1.5 * s);
    exact = exact && y[i] == want && dx[i] == want_dx;
    std::printf("out[%zu] = leaky_relu(%+g) = %g, gradient %g\n", i, x[i], y[i], dx[i]);
  }
  const bool same = std::memcmp(y.data(), inplace.data(), y.size() * sizeof(float)) == 0;
  std::printf("every result is the product rounded once: %s; InplaceLeakyRelu %s\n",
              exact ? "yes" : "NO", same ? "gives the same bits" : "DIFFERS");

  aclDestroyScalar(slope);
  for (aclTensor* t : {x_t, y_t, in_t, dy_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, in_dev, dy_dev, dx_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return exact && same ? 0 : 1;
}
