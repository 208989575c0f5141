// LogSigmoidBackward through the CANN API in bf16 (stored as raw uint16 bit patterns):
// dx = dy / (1 + exp(x)). The unused `buffer` input is passed as CANN requires.
#include <cstring>

#include "aclnnop/aclnn_logsigmoid_backward.h"
#include "example_common.h"

static uint16_t ToBF16(float f) {  // round to nearest even
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return static_cast<uint16_t>((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
}
static float FromBF16(uint16_t h) {
  uint32_t b = static_cast<uint32_t>(h) << 16;
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

int main() {
  aclrtStream stream = nullptr;
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");
  CHECK_RET(aclrtCreateStream(&stream) == ACL_SUCCESS, "aclrtCreateStream");

  const std::vector<float> xs = {-4.0f, -1.0f, 0.0f, 0.5f, 1.0f, 8.0f};
  std::vector<uint16_t> dy(xs.size(), ToBF16(1.0f)), x, dx(xs.size(), 0);
  for (float v : xs) x.push_back(ToBF16(v));
  void *dy_dev, *x_dev, *buf_dev, *dx_dev;
  aclTensor *dy_t, *x_t, *buf_t, *dx_t;
  const std::vector<int64_t> shape = {2, 3};
  CHECK_RET(MakeTensor(dy, shape, ACL_BF16, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(x, shape, ACL_BF16, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(x, shape, ACL_BF16, &buf_dev, &buf_t) == 0, "buffer");
  CHECK_RET(MakeTensor(dx, shape, ACL_BF16, &dx_dev, &dx_t) == 0, "gradInput");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnLogSigmoidBackwardGetWorkspaceSize(dy_t, x_t, buf_t, dx_t, &workspace_size,
                                                    &executor) == ACL_SUCCESS,
            "aclnnLogSigmoidBackwardGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnLogSigmoidBackward(workspace, workspace_size, executor, stream) == ACL_SUCCESS,
            "aclnnLogSigmoidBackward");
  CHECK_RET(aclrtSynchronizeStream(stream) == ACL_SUCCESS, "aclrtSynchronizeStream");

  CHECK_RET(CopyBack(dx_dev, &dx) == 0, "copy back");
  for (size_t i = 0; i < dx.size(); ++i) {
    std::printf("gradInput[%zu] = 1 / (1 + exp(%+.1f)) = %f (bf16)\n", i, xs[i], FromBF16(dx[i]));
  }

  for (aclTensor* t : {dy_t, x_t, buf_t, dx_t}) aclDestroyTensor(t);
  for (void* p : {dy_dev, x_dev, buf_dev, dx_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtDestroyStream(stream);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
