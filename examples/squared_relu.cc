// SquaredRelu through the CANN API: out = max(0, input)^2 on a [4, 2] FLOAT tensor. Init,
// tensors, two phases on a stream, synchronize, print, clean up.
#include <cmath>

#include "aclnnop/aclnn_squared_relu.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-6.0f, -2.0f, -1.0f, -0.5f, 0.0f, 1.0f, 2.0f, 7.0f};  // [4, 2]
  std::vector<float> y(8, 0.0f);
  void *x_dev, *y_dev;
  aclTensor *x_t, *y_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnSquaredReluGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnSquaredReluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnSquaredRelu, ws, executor, stream) == 0, "aclnnSquaredRelu");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double exact = x[i] > 0 ? static_cast<double>(x[i]) * x[i] : 0.0;
    worst = std::fmax(worst, std::fabs(y[i] - exact) / std::fmax(std::fabs(exact), 1e-30));
    std::printf("out[%zu] = squared_relu(%+.1f) = %f\n", i, x[i], y[i]);
  }
  std::printf("largest relative error against double: %.2e\n", worst);

  for (aclTensor* t : {x_t, y_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 ? 0 : 1;
}
