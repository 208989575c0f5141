// LogSoftmaxBackward through the CANN API along the last dim: y is a real log-softmax
// output, so each row of dx sums to 0 when computed from dy = one-hot targets.
#include <cmath>

#include "aclnnop/aclnn_logsoftmax_backward.h"
#include "example_common.h"

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  const int rows = 2, cols = 4;
  const float logits[rows][cols] = {{1, 2, 3, 4}, {0.5f, 0.5f, -1, 2}};
  std::vector<float> y(rows * cols), dy(rows * cols, 0.0f), out(rows * cols, 0.0f);
  for (int r = 0; r < rows; ++r) {
    double z = 0;
    for (int c = 0; c < cols; ++c) z += std::exp(logits[r][c]);
    for (int c = 0; c < cols; ++c) y[r * cols + c] = static_cast<float>(logits[r][c] - std::log(z));
  }
  dy[0 * cols + 3] = -1.0f;  // d(-log p[target]) with target 3 in row 0
  dy[1 * cols + 0] = -1.0f;  // and target 0 in row 1
  void *dy_dev, *y_dev, *out_dev;
  aclTensor *dy_t, *y_t, *out_t;
  const std::vector<int64_t> shape = {rows, cols};
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(y, shape, ACL_FLOAT, &y_dev, &y_t) == 0, "output");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLogSoftmaxBackwardGetWorkspaceSize(dy_t, y_t, -1, out_t, &workspace_size,
                                                    &executor) == ACL_SUCCESS,
            "aclnnLogSoftmaxBackwardGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLogSoftmaxBackward(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnLogSoftmaxBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  for (int r = 0; r < rows; ++r) {
    double row_sum = 0;
    std::printf("row %d:", r);
    for (int c = 0; c < cols; ++c) {
      std::printf(" %+f", out[r * cols + c]);
      row_sum += out[r * cols + c];
    }
    std::printf("   (softmax - onehot; sums to %+.1e)\n", row_sum);
  }

  for (aclTensor* t : {dy_t, y_t, out_t}) aclDestroyTensor(t);
  for (void* p : {dy_dev, y_dev, out_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
