// The Sigmoid group through the CANN API on a [4, 2] FLOAT tensor: out = sigmoid(self), then
// InplaceSigmoid on the same values (it writes selfRef itself), then SigmoidBackward, whose
// second input is the forward output: gradInput = gradOutput * out * (1 - out).
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_sigmoid.h"
#include "aclnnop/aclnn_sigmoid_backward.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  const std::vector<int64_t> shape = {4, 2};
  std::vector<float> x = {-20.0f, -4.0f, -1.0f, -0.5f, 0.0f, 1.0f, 3.0f, 20.0f};
  std::vector<float> y(8, 0.0f), inplace = x, dy(8, 2.0f), dx(8, 0.0f);
  void *x_dev, *y_dev, *in_dev, *dy_dev, *dx_dev;
  aclTensor *x_t, *y_t, *in_t, *dy_t, *dx_t;
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(inplace, shape, ACL_FLOAT, &in_dev, &in_t) == 0, "selfRef");
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(dx, shape, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnSigmoidGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnSigmoidGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnSigmoid, ws, executor, stream) == 0, "aclnnSigmoid");
  CHECK_RET(aclnnInplaceSigmoidGetWorkspaceSize(in_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnInplaceSigmoidGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnInplaceSigmoid, ws, executor, stream) == 0, "aclnnInplaceSigmoid");
  // The backward reads the forward's output y: stream order makes it ready.
  CHECK_RET(aclnnSigmoidBackwardGetWorkspaceSize(dy_t, y_t, dx_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnSigmoidBackwardGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnSigmoidBackward, ws, executor, stream) == 0,
            "aclnnSigmoidBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(in_dev, &inplace) == 0, "copy back");
  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double s = 1.0 / (1.0 + std::exp(-static_cast<double>(x[i])));
    const double ds = dy[i] * static_cast<double>(y[i]) * (1.0 - y[i]);
    worst = std::fmax(worst, std::fabs(y[i] - s) / s);
    worst = std::fmax(worst, ds == 0 ? std::fabs(dx[i]) : std::fabs(dx[i] - ds) / ds);
    std::printf("sigmoid(%+5.1f) = %.8e   gradInput = %.8e\n", x[i], y[i], dx[i]);
  }
  const bool same = std::memcmp(y.data(), inplace.data(), y.size() * sizeof(float)) == 0;
  std::printf("largest relative error against double: %.2e; InplaceSigmoid %s\n", worst,
              same ? "gives the same bits" : "DIFFERS");

  for (aclTensor* t : {x_t, y_t, in_t, dy_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, in_dev, dy_dev, dx_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 && same ? 0 : 1;
}
