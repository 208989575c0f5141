// Embedding through the CANN API, run on the null stream: each index picks a row of weight
// ([5, 3] here) and out receives the rows in the indices' shape ([2, 2] -> [2, 2, 3]). A
// second call with an index past weight's rows is refused when it runs (phase 2), and out
// keeps what the first call wrote.
#include "aclnnop/aclnn_embedding.h"
#include "example_common.h"

namespace {

aclnnStatus Gather(aclTensor* weight, aclTensor* indices, aclTensor* out) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus prepared =
      aclnnEmbeddingGetWorkspaceSize(weight, indices, out, &workspace_size, &executor);
  return RunPhase2(prepared, workspace_size, executor, aclnnEmbedding);
}

}  // namespace

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> weight(15), out(12, 0.0f);
  for (size_t i = 0; i < weight.size(); ++i) weight[i] = 10.0f * (i / 3) + i % 3;
  std::vector<int64_t> indices = {4, 0, 2, 4};
  void *weight_dev, *indices_dev, *out_dev;
  aclTensor *weight_t, *indices_t, *out_t;
  CHECK_RET(MakeTensor(weight, {5, 3}, ACL_FLOAT, &weight_dev, &weight_t) == 0, "weight");
  CHECK_RET(MakeTensor(indices, {2, 2}, ACL_INT64, &indices_dev, &indices_t) == 0, "indices");
  CHECK_RET(MakeTensor(out, {2, 2, 3}, ACL_FLOAT, &out_dev, &out_t) == 0, "out");

  CHECK_RET(Gather(weight_t, indices_t, out_t) == ACL_SUCCESS, "aclnnEmbedding");
  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  for (size_t i = 0; i < indices.size(); ++i) {
    std::printf("indices[%zu] = %lld -> out row %zu: %g %g %g\n", i,
                static_cast<long long>(indices[i]), i, out[3 * i], out[3 * i + 1], out[3 * i + 2]);
  }

  // An index past weight's 5 rows: refused when the call runs, nothing written.
  const std::vector<int64_t> bad = {1, 5, 0, 0};
  CHECK_RET(aclrtMemcpy(indices_dev, bad.size() * sizeof(int64_t), bad.data(),
                        bad.size() * sizeof(int64_t), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "indices");
  const aclnnStatus refused = Gather(weight_t, indices_t, out_t);
  CHECK_RET(refused == ACLNN_ERR_PARAM_INVALID, "the refusal");
  std::printf("index 5 of 5 rows: status %d (%s)\n", static_cast<int>(refused),
              aclGetRecentErrMsg());
  std::vector<float> after(out.size());
  CHECK_RET(CopyBack(out_dev, &after) == 0 && after == out, "out unchanged");
  std::printf("out unchanged after the refusal\n");

  for (aclTensor* t : {weight_t, indices_t, out_t}) aclDestroyTensor(t);
  for (void* p : {weight_dev, indices_dev, out_dev}) aclrtFree(p);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
