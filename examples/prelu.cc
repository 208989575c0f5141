// Prelu through the CANN API, run on the null stream (at once, on the calling thread):
// out = x where x > 0, else weight[c] * x, c the index along dim 1 (here 3 channels).
#include "aclnnop/aclnn_prelu.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> x = {-2.0f, 1.0f, -4.0f, 3.0f, -1.0f, 0.0f,
                          5.0f,  -6.0f, -0.5f, 2.0f, -3.0f, 7.0f};
  std::vector<float> weight = {0.25f, 0.5f, 2.0f}, out(x.size(), -1.0f);
  void *x_dev, *w_dev, *out_dev;
  aclTensor *x_t, *w_t, *out_t;
  const std::vector<int64_t> shape = {2, 3, 2};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(weight, {3}, ACL_FLOAT, &w_dev, &w_t) == 0, "weight");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnPreluGetWorkspaceSize(x_t, w_t, out_t, &workspace_size, &executor) ==
                ACL_SUCCESS,
            "aclnnPreluGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnPrelu(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS, "aclnnPrelu");

  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  for (size_t i = 0; i < out.size(); ++i) {
    std::printf("out[%zu] = x %+.2f (channel %zu) -> %f\n", i, x[i], (i / 2) % 3, out[i]);
  }

  for (aclTensor* t : {x_t, w_t, out_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, w_dev, out_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
