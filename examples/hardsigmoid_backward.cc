// HardsigmoidBackward through the CANN API, run on the null stream (at once, on the
// calling thread): dx = dy / 6 strictly inside (-3, 3), else 0.
#include "aclnnop/aclnn_hardsigmoid_backward.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> x = {-4.0f, -3.0f, -2.9999998f, 0.0f, 2.9999998f, 3.0f, 4.0f, 1.5f};
  std::vector<float> dy(x.size(), 6.0f), out(x.size(), -1.0f);
  void *dy_dev, *x_dev, *out_dev;
  aclTensor *dy_t, *x_t, *out_t;
  const std::vector<int64_t> shape = {4, 2};
  CHECK_RET(MakeTensor(dy, shape, ACL_FLOAT, &dy_dev, &dy_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnHardsigmoidBackwardGetWorkspaceSize(dy_t, x_t, out_t, &workspace_size,
                                                     &executor) == ACL_SUCCESS,
            "aclnnHardsigmoidBackwardGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnHardsigmoidBackward(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnHardsigmoidBackward");

  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  for (size_t i = 0; i < out.size(); ++i) {
    std::printf("out[%zu] = x %+.7f -> %f\n", i, x[i], out[i]);
  }

  for (aclTensor* t : {dy_t, x_t, out_t}) aclDestroyTensor(t);
  for (void* p : {dy_dev, x_dev, out_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
