// SiluBackward through the CANN API, with broadcasting: gradOutput [2, 1] broadcast
// against self [2, 3]. Init, tensors, two phases on a stream, synchronize, print, clean up.
#include "aclnnop/aclnn_silu_backward.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  std::vector<float> dy = {1.0f, 0.5f};                           // [2, 1]
  std::vector<float> x = {-3.0f, -1.0f, 0.0f, 1.0f, 2.0f, 4.0f};  // [2, 3]
  std::vector<float> dx(6, 0.0f);                                 // [2, 3]
  void *dy_dev, *x_dev, *dx_dev;
  aclTensor *dy_t, *x_t, *dx_t;
  CHECK_RET(MakeTensor(dy, {2, 1}, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(x, {2, 3}, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(dx, {2, 3}, ACL_FLOAT, &dx_dev, &dx_t) == 0, "gradInput");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(
      aclnnSiluBackwardGetWorkspaceSize(dy_t, x_t, dx_t, &workspace_size, &executor) == ACL_SUCCESS,
      "aclnnSiluBackwardGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnSiluBackward(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnSiluBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  for (size_t i = 0; i < dx.size(); ++i) {
    std::printf("gradInput[%zu] = dy %.2f * silu'(%+.1f) = %f\n", i, dy[i / 3], x[i], dx[i]);
  }

  aclDestroyTensor(dy_t);
  aclDestroyTensor(x_t);
  aclDestroyTensor(dx_t);
  aclrtFree(dy_dev);
  aclrtFree(x_dev);
  aclrtFree(dx_dev);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
