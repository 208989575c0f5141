// The Gelu group through the CANN API on a [4, 2] FLOAT tensor: out = Gelu(self), CANN's
// tanh form x * sigmoid(2 sqrt(2/pi) (x + 0.044715 x^3)), then GeluBackward (gradOutput, self)
// -> gradInput, the derivative of that form.
#include <cmath>

#include "aclnnop/aclnn_gelu.h"
#include "aclnnop/aclnn_gelu_backward.h"
#include "example_common.h"

namespace {
// The tanh form and its derivative in double: x s(z) and s + x z' s (1 - s).
double Sigmoid(double z) { return 1.0 / (1.0 + std::exp(-z)); }
double Z(double x) {
  return 2.0 * std::sqrt(2.0 / 3.14159265358979323846) * (x + 0.044715 * x * x * x);
}
double GeluTanh(double x) { return x * Sigmoid(Z(x)); }
double GeluTanhGrad(double x) {
  const double s = Sigmoid(Z(x));
  const double dz = 2.0 * std::sqrt(2.0 / 3.14159265358979323846) * (1.0 + 3.0 * 0.044715 * x * x);
  return s + x * dz * s * (1.0 - s);
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
  CHECK_RET(aclnnGeluGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnGeluGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnGelu, ws, executor, stream) == 0, "aclnnGelu");
  CHECK_RET(aclnnGeluBackwardGetWorkspaceSize(dy_t, x_t, dx_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnGeluBackwardGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnGeluBackward, ws, executor, stream) == 0, "aclnnGeluBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    // Absolute errors: both results are at most a few units in size.
    worst = std::fmax(worst, std::fabs(y[i] - GeluTanh(x[i])));
    worst = std::fmax(worst, std::fabs(dx[i] - dy[i] * GeluTanhGrad(x[i])));
    std::printf("gelu(%+4.1f) = %+.8e   gradInput = %+.8e\n", x[i], y[i], dx[i]);
  }
  std::printf("largest error against double: %.2e\n", worst);

  for (aclTensor* t : {x_t, y_t, dy_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, dy_dev, dx_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 ? 0 : 1;
}
