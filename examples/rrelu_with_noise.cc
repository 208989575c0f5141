// RReluWithNoise through the CANN API, run on the null stream: in training mode each element
// of x below 0 is multiplied by a slope drawn uniformly from [lower, upper] (the stream of
// seed 42 from position 0), which noise receives (1 for the other elements); the same call
// with the same seed and offset draws the same slopes.
#include "aclnnop/aclnn_rrelu_with_noise.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> x = {-2.0f, 1.0f, -4.0f, 3.0f, -1.0f, 0.0f, 5.0f, -6.0f};
  std::vector<float> noise(x.size(), 0.0f), out(x.size(), 0.0f);
  void *x_dev, *noise_dev, *out_dev;
  aclTensor *x_t, *noise_t, *out_t;
  const std::vector<int64_t> shape = {2, 4};
  CHECK_RET(MakeTensor(x, shape, ACL_FLOAT, &x_dev, &x_t) == 0, "self");
  CHECK_RET(MakeTensor(noise, shape, ACL_FLOAT, &noise_dev, &noise_t) == 0, "noise");
  CHECK_RET(MakeTensor(out, shape, ACL_FLOAT, &out_dev, &out_t) == 0, "out");
  float lower_value = 0.125f, upper_value = 1.0f / 3.0f;
  aclScalar* lower = aclCreateScalar(&lower_value, ACL_FLOAT);
  aclScalar* upper = aclCreateScalar(&upper_value, ACL_FLOAT);

  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  CHECK_RET(aclnnRReluWithNoiseGetWorkspaceSize(x_t, noise_t, lower, upper, true, 42, 0, out_t,
                                                &workspace_size, &executor) == ACL_SUCCESS,
            "aclnnRReluWithNoiseGetWorkspaceSize");
  void* workspace = nullptr;
  if (workspace_size > 0) {
    CHECK_RET(aclrtMalloc(&workspace, workspace_size, ACL_MEM_MALLOC_HUGE_FIRST) == ACL_SUCCESS,
              "workspace");
  }
  CHECK_RET(aclnnRReluWithNoise(workspace, workspace_size, executor, nullptr) == ACL_SUCCESS,
            "aclnnRReluWithNoise");

  CHECK_RET(CopyBack(out_dev, &out) == 0 && CopyBack(noise_dev, &noise) == 0, "copy back");
  for (size_t i = 0; i < out.size(); ++i) {
    std::printf("x %+.2f -> noise %f, out %f\n", x[i], noise[i], out[i]);
  }

  aclDestroyScalar(lower);
  aclDestroyScalar(upper);
  for (aclTensor* t : {x_t, noise_t, out_t}) aclDestroyTensor(t);
  for (void* p : {x_dev, noise_dev, out_dev}) aclrtFree(p);
  if (workspace != nullptr) aclrtFree(workspace);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
