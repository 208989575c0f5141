// LogSoftmax through the CANN API: out = self - max - log(sum(exp(self - max))) along
// dim 1 of a [3, 3] FLOAT tensor. Each row's exp(out) sums to 1.
#include <cmath>

#include "aclnnop/aclnn_logsoftmax.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f, 7.0f, 8.0f, 9.0f};  // [3, 3]
  std::vector<float> y(9, 0.0f);
  const int64_t dim = 1;
  void *x_dev, *y_dev;
  aclTensor *x_t, *y_t;
  CHECK_RET(MakeTensor(x, {3, 3}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {3, 3}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(
      aclnnLogSoftmaxGetWorkspaceSize(x_t, dim, y_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnLogSoftmaxGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLogSoftmax(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnLogSoftmax");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  double worst = 0;
  for (int r = 0; r < 3; ++r) {
    double sum = 0;
    for (int c = 0; c < 3; ++c) sum += std::exp(static_cast<double>(x[r * 3 + c]) - x[r * 3 + 2]);
    for (int c = 0; c < 3; ++c) {
      const double exact = (static_cast<double>(x[r * 3 + c]) - x[r * 3 + 2]) - std::log(sum);
      worst = std::fmax(worst, std::fabs(y[r * 3 + c] - exact));
      std::printf("out[%d][%d] = %f\n", r, c, y[r * 3 + c]);
    }
  }
  std::printf("largest error against double: %.2e\n", worst);

  aclDestroyTensor(x_t);
  aclDestroyTensor(y_t);
  aclrtFree(x_dev);
  aclrtFree(y_dev);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 ? 0 : 1;
}
