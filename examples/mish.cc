// Mish through the CANN API: out = self * tanh(softplus(self)) on a [4, 2] FLOAT tensor,
// then InplaceMish on the same values, which writes self itself.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_mish.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-20.0f, -3.0f, -1.2f, 0.0f, 0.5f, 1.0f, 3.0f, 20.0f};  // [4, 2]
  std::vector<float> y(8, 0.0f), inplace = x;
  void *x_dev, *y_dev, *in_dev;
  aclTensor *x_t, *y_t, *in_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(inplace, {4, 2}, ACL_FLOAT, &in_dev, &in_t) == 0, "self (in place)");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnMishGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnMishGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnMish, ws, executor, stream) == 0, "aclnnMish");
  CHECK_RET(aclnnInplaceMishGetWorkspaceSize(in_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnInplaceMishGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnInplaceMish, ws, executor, stream) == 0, "aclnnInplaceMish");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(in_dev, &inplace) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double exact = x[i] * std::tanh(std::log1p(std::exp(static_cast<double>(x[i]))));
    worst = std::fmax(worst, std::fabs(y[i] - exact) / std::fmax(1.0, std::fabs(exact)));
    std::printf("out[%zu] = mish(%+g) = %f\n", i, x[i], y[i]);
  }
  const bool same = std::memcmp(y.data(), inplace.data(), y.size() * sizeof(float)) == 0;
  std::printf("largest error against double (relative above 1): %.2e; InplaceMish %s\n", worst,
              same ? "gives the same bits" : "DIFFERS");

  for (aclTensor* t : {x_t, y_t, in_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, in_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 && same ? 0 : 1;
}
