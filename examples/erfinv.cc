// Erfinv through the CANN API: out = erfinv(self) on a [4, 2] FLOAT tensor, checked by
// erf(out) = self, then InplaceErfinv on the same values, which writes self itself.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_erfinv.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-0.999f, -0.5f, -1e-3f, 0.0f, 0.25f, 0.5f, 0.9f, 0.999999f};  // [4, 2]
  std::vector<float> y(8, 0.0f), inplace = x;
  void *x_dev, *y_dev, *in_dev;
  aclTensor *x_t, *y_t, *in_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(inplace, {4, 2}, ACL_FLOAT, &in_dev, &in_t) == 0, "self (in place)");

  Workspaces workspaces;
  uint64_t ws = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnErfinvGetWorkspaceSize(x_t, y_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnErfinvGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnErfinv, ws, executor, stream) == 0, "aclnnErfinv");
  CHECK_RET(aclnnInplaceErfinvGetWorkspaceSize(in_t, &ws, &executor) == ACL_SUCCESS,
            "aclnnInplaceErfinvGetWorkspaceSize");
  CHECK_RET(workspaces.Run(aclnnInplaceErfinv, ws, executor, stream) == 0, "aclnnInplaceErfinv");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");
  workspaces.FreeAll();

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(in_dev, &inplace) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    // erf(out) against self, scaled by erf's slope at out so it measures out's own error.
    const double slope = 2.0 / std::sqrt(M_PI) * std::exp(-static_cast<double>(y[i]) * y[i]);
    worst = std::fmax(worst, std::fabs(std::erf(static_cast<double>(y[i])) - x[i]) / slope /
                                 std::fmax(1.0, std::fabs(y[i])));
    std::printf("out[%zu] = erfinv(%+g) = %f\n", i, x[i], y[i]);
  }
  const bool same = std::memcmp(y.data(), inplace.data(), y.size() * sizeof(float)) == 0;
  std::printf("largest error of out, by erf(out) against self: %.2e; InplaceErfinv %s\n", worst,
              same ? "gives the same bits" : "DIFFERS");

  for (aclTensor* t : {x_t, y_t, in_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, y_dev, in_dev}) aclrtFree(p);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 && same ? 0 : 1;
}
