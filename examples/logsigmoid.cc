// LogSigmoid through the CANN API: out = log(sigmoid(self)) on a [4, 2] FLOAT tensor,
// then LogSigmoidForward, the variant with an extra `buffer` output that CANN documents
// as unused (it is neither checked nor written). Both must give the same bits.
#include <cmath>
#include <cstring>

#include "aclnnop/aclnn_logsigmoid.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> x = {-1000.0f, -20.0f, -2.0f, 0.0f, 1.0f, 3.0f, 20.0f, 90.0f};  // [4, 2]
  std::vector<float> y(8, 0.0f), y_forward(8, 0.0f), buffer(8, 0.0f);
  void *x_dev, *y_dev, *yf_dev, *buf_dev;
  aclTensor *x_t, *y_t, *yf_t, *buf_t;
  CHECK_RET(MakeTensor(x, {4, 2}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(y, {4, 2}, ACL_FLOAT, &y_dev, &y_t) == 0, "out");
  CHECK_RET(MakeTensor(y_forward, {4, 2}, ACL_FLOAT, &yf_dev, &yf_t) == 0, "out (forward)");
  CHECK_RET(MakeTensor(buffer, {4, 2}, ACL_FLOAT, &buf_dev, &buf_t) == 0, "buffer");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLogSigmoidGetWorkspaceSize(x_t, y_t, &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnLogSigmoidGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLogSigmoid(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnLogSigmoid");

  uint64_t forward_workspace_size = 0;
  aclOpExecutor* forward_executor = nullptr;
  CHECK_RET(aclnnLogSigmoidForwardGetWorkspaceSize(x_t, yf_t, buf_t, &forward_workspace_size,
                                                   &forward_executor) == ACL_SUCCESS,
            "aclnnLogSigmoidForwardGetWorkspaceSize");
  void* forward_workspace = nullptr;
  if (forward_workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&forward_workspace, forward_workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) ==
                  ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLogSigmoidForward(forward_workspace, forward_workspace_size, forward_executor,
                                   stream) == ACL_SUCCESS,
            "aclnnLogSigmoidForward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(CopyBack(y_dev, &y) == 0, "copy back");
  CHECK_RET(CopyBack(yf_dev, &y_forward) == 0, "copy back");
  double worst = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    const double v = x[i];
    const double exact = std::fmin(v, 0.0) - std::log1p(std::exp(-std::fabs(v)));
    worst = std::fmax(worst, std::fabs(y[i] - exact) / std::fmax(std::fabs(exact), 1e-30));
    std::printf("out[%zu] = logsigmoid(%+.1f) = %g\n", i, x[i], y[i]);
  }
  const bool same = std::memcmp(y.data(), y_forward.data(), y.size() * sizeof(float)) == 0;
  std::printf("largest relative error against double: %.2e; LogSigmoidForward %s\n", worst,
              same ? "gives the same bits" : "DIFFERS");

  aclDestroyTensor(x_t);
  aclDestroyTensor(y_t);
  aclDestroyTensor(yf_t);
  aclDestroyTensor(buf_t);
  aclrtFree(x_dev);
  aclrtFree(y_dev);
  aclrtFree(yf_dev);
  aclrtFree(buf_dev);
  if (workspace != nullptr) aclrtFree(workspace);
  if (forward_workspace != nullptr) aclrtFree(forward_workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return worst <= 1e-6 && same ? 0 : 1;
}
