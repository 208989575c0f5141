// The FastGelu group through the CANN API on a [4, 2] FLOAT tensor: out = FastGelu(self) =
// x / (1 + exp(-1.702 x)), CANN's own formula (not PyTorch's gelu), then FastGeluBackward
// (gradOutput, self) -> gradInput, its derivative.
#include <cmath>

#include "aclnnop/aclnn_fast_gelu.h"
#include "aclnnop/aclnn_fast_gelu_backward.h"
#include "example_common.h"

namespace {
// CANN's formula and its derivative in double: x s(1.702 x) and s (1 + 1.702 x (1 - s)).
double Sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }
double FastGelu(double x) { return x * Sigmoid(1.702 * x); }
double FastGeluGrad(double x) {
  const double s = Sigmoid(1.702 * x);
  return s * (1.0 + 1.702 * x * (1.0 - s));
}
}  // namespace

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  const std::vector<int64_t> shape = {4, 2};
  std::vector<float> x = {-6.0f, -3.0f, -1.0f, -0.5f, 0.0f, 0.5f, 1.5f, 4.0f};
  std::vector<float> y(8, 0.0f), dy(8, 1.0f), dx(8, 0.0f);
  void *x_dev, *y_dev, *dy_dev, *dx_dev;
  aclTensor *x_t, *y_t, *dy_t, *dx_t;
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnFastGeluGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnFastGeluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnFastGelu, ws, executor, stream) == 0, "aclnnFastGelu");
  CHECK_RET(aclnnFastGeluBackwardGetWorkspaceSize(dy_t, x_t, dx_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnFastGeluBackwardGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnFastGeluBackward, ws, executor, stream) == 0,
            "aclnnFastGeluBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    // Absolute errors: both results are at most a few units in size.
    worst = std::fmax(worst, std::fabs(y[i] - FastGelu(x[i])));
    worst = std::fmax(worst, std::fabs(dx[i] - dy[i] * FastGeluGrad(x[i])));
    std::printf("fast_gelu(%+4.1f) = %+.8e   gradInput = %+.8e\n", x[i], y[i], dx[i]);
  }
  std::printf("largest error against double: %.2e\n", worst);

  for (aclTensor* t : {x_t, y_t, dy_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, dy_dev, dx_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 ? 0 : 1;
}
