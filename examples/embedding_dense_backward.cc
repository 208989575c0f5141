// EmbeddingDenseBackward through the CANN API, run on the null stream: the gradient of a lookup
// of 5 indices into a 4-row table of 3 columns. Each row of out is the sum of grad's rows whose
// index names it: row 1 is named twice, row 0 (paddingIdx) stays 0 though named, row 3 is never
// named. Then the same with scaleGradByFreq (row 1 halved), and a call with an index past the
// table's 4 rows, refused when it runs (phase 2) with out as the last call left it.
#include "aclnnop/aclnn_embedding_dense_backward.h"
#include "example_common.h"

namespace {

aclnnStatus Backward(aclTensor* grad, aclTensor* indices, uint64_t num_weights, uint64_t padding,
                     bool scale, aclTensor* out) {
  uint64_t workspace_size = 0;
  aclOpExecutor* executor = nullptr;
  const aclnnStatus prepared = aclnnEmbeddingDenseBackwardGetWorkspaceSize(
      grad, indices, num_weights, padding, scale, out, &workspace_size, &executor);
  return RunPhase2(prepared, workspace_size, executor, aclnnEmbeddingDenseBackward);
}

void Print(const char* what, const std::vector<float>& out) {
  std::printf("%s\n", what);
  for (size_t r = 0; r < out.size() / 3; ++r) {
    std::printf("  out row %zu: %g %g %g\n", r, out[3 * r], out[3 * r + 1], out[3 * r + 2]);
  }
}

}  // namespace

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  std::vector<float> grad(15), out(12, -1.0f);
  for (size_t i = 0; i < grad.size(); ++i) grad[i] = 10.0f * (i / 3) + i % 3;
  std::vector<int32_t> indices = {1, 2, 0, 1, 2};  // grad's rows 0 and 3 add into out's row 1
  void *grad_dev, *indices_dev, *out_dev;
  aclTensor *grad_t, *indices_t, *out_t;
  CHECK_RET(MakeTensor(grad, {5, 3}, ACL_FLOAT, &grad_dev, &grad_t) == 0, "grad");
  CHECK_RET(MakeTensor(indices, {5}, ACL_INT32, &indices_dev, &indices_t) == 0, "indices");
  CHECK_RET(MakeTensor(out, {4, 3}, ACL_FLOAT, &out_dev, &out_t) == 0, "out");

  CHECK_RET(Backward(grad_t, indices_t, 4, 0, false, out_t) == ACL_SUCCESS,
            "aclnnEmbeddingDenseBackward");
  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  Print("indices 1 2 0 1 2, paddingIdx 0:", out);
  CHECK_RET(out[3] == 0.0f + 30.0f && out[6] == 10.0f + 40.0f && out[0] == 0.0f && out[9] == 0.0f,
            "the sums");

  CHECK_RET(Backward(grad_t, indices_t, 4, 0, true, out_t) == ACL_SUCCESS, "scaleGradByFreq");
  CHECK_RET(CopyBack(out_dev, &out) == 0, "copy back");
  Print("the same with scaleGradByFreq (each row divided by its count):", out);
  CHECK_RET(out[3] == 15.0f && out[6] == 25.0f, "the scaled sums");

  // An index past out's 4 rows: refused when the call runs, nothing written.
  const std::vector<int32_t> bad = {1, 4, 0, 0, 0};
  CHECK_RET(aclrtMemcpy(indices_dev, bad.size() * sizeof(int32_t), bad.data(),
                        bad.size() * sizeof(int32_t), ACL_MEMCPY_HOST_TO_DEVICE) == ACL_SUCCESS,
            "indices");
  const aclnnStatus refused = Backward(grad_t, indices_t, 4, 0, false, out_t);
  CHECK_RET(refused == ACLNN_ERR_PARAM_INVALID, "the refusal");
  std::printf("index 4 of 4 rows: status %d (%s)\n", static_cast<int>(refused),
              aclGetRecentErrMsg());
  std::vector<float> after(out.size());
  CHECK_RET(CopyBack(out_dev, &after) == 0 && after == out, "out unchanged");
  std::printf("out unchanged after the refusal\n");

  for (aclTensor* t : {grad_t, indices_t, out_t}) aclDestroyTensor(t);
  for (void* p : {grad_dev, indices_dev, out_dev}) aclrtFree(p);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
