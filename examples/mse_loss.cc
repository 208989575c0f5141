// MseLoss, MseLossOut and MseLossBackward through the CANN API, run on the null stream: the
// mean squared error of a [2, 3] prediction against a target row [3] that broadcasts to it,
// with each reduction (none: the six terms; mean and sum: one value; MseLossOut's mean: one
// value per column, over dim 0), then the gradient of the mean, in f32 as CANN computes it.
#include "aclnnop/aclnn_mse_loss.h"
#include "aclnnop/aclnn_mse_loss_backward.h"
#include "aclnnop/aclnn_mse_loss_out.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  const std::vector<float> self = {1.0f, 2.0f, 3.0f, 4.0f, 5.0f, 6.0f};
  const std::vector<float> target = {1.5f, 2.0f, 1.0f};
  std::vector<float> terms(6, 0.0f), total(1, 0.0f), columns(3, 0.0f), grad_in(6, 0.0f);
  const std::vector<float> grad_out = {1.0f};
  void *self_dev, *target_dev, *terms_dev, *total_dev, *columns_dev, *grad_out_dev, *grad_in_dev;
  aclTensor *self_t, *target_t, *terms_t, *total_t, *columns_t, *grad_out_t, *grad_in_t;
  CHECK_RET(MakeTensor(self, {2, 3}, ACL_FLOAT, &self_dev, &self_t) == 0, "self");
  CHECK_RET(MakeTensor(target, {3}, ACL_FLOAT, &target_dev, &target_t) == 0, "target");
  CHECK_RET(MakeTensor(terms, {2, 3}, ACL_FLOAT, &terms_dev, &terms_t) == 0, "terms");
  CHECK_RET(MakeTensor(total, {}, ACL_FLOAT, &total_dev, &total_t) == 0, "total");
  CHECK_RET(MakeTensor(columns, {3}, ACL_FLOAT, &columns_dev, &columns_t) == 0, "columns");
  CHECK_RET(MakeTensor(grad_out, {}, ACL_FLOAT, &grad_out_dev, &grad_out_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(grad_in, {2, 3}, ACL_FLOAT, &grad_in_dev, &grad_in_t) == 0, "out");

  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  // reduction 0 (none): (self - target)^2 over the broadcast [2, 3].
  CHECK_RET(RunPhase2(aclnnMseLossGetWorkspaceSize(self_t, target_t, 0, terms_t, &ws, &exec), ws,
                      exec, aclnnMseLoss) == ACL_SUCCESS,
            "aclnnMseLoss none");
  CHECK_RET(CopyBack(terms_dev, &terms) == 0, "copy back");
  std::printf("none: %g %g %g / %g %g %g\n", terms[0], terms[1], terms[2], terms[3], terms[4],
              terms[5]);
  CHECK_RET(terms[0] == 0.25f && terms[2] == 4.0f && terms[5] == 25.0f, "the terms");
  // reduction 1 (mean) and 2 (sum): one value.
  for (int64_t reduction : {1, 2}) {
    CHECK_RET(
        RunPhase2(aclnnMseLossGetWorkspaceSize(self_t, target_t, reduction, total_t, &ws, &exec),
                  ws, exec, aclnnMseLoss) == ACL_SUCCESS,
        "aclnnMseLoss mean, sum");
    CHECK_RET(CopyBack(total_dev, &total) == 0, "copy back");
    std::printf("%s: %g\n", reduction == 1 ? "mean" : "sum", total[0]);
    // The terms sum to 0.25 + 0 + 4 + 6.25 + 9 + 25 = 44.5.
    CHECK_RET(total[0] == (reduction == 1 ? 44.5f / 6 : 44.5f), "the total");
  }
  // MseLossOut's mean reduces dim 0 only: one value per column.
  CHECK_RET(RunPhase2(aclnnMseLossOutGetWorkspaceSize(self_t, target_t, 1, columns_t, &ws, &exec),
                      ws, exec, aclnnMseLossOut) == ACL_SUCCESS,
            "aclnnMseLossOut mean");
  CHECK_RET(CopyBack(columns_dev, &columns) == 0, "copy back");
  std::printf("MseLossOut mean over dim 0: %g %g %g\n", columns[0], columns[1], columns[2]);
  CHECK_RET(columns[0] == 3.25f && columns[1] == 4.5f && columns[2] == 14.5f, "the columns");
  // The gradient of the mean: 2 (self - target) / 6, gradOutput 1.
  CHECK_RET(RunPhase2(aclnnMseLossBackwardGetWorkspaceSize(grad_out_t, self_t, target_t, 1,
                                                           grad_in_t, &ws, &exec),
                      ws, exec, aclnnMseLossBackward) == ACL_SUCCESS,
            "aclnnMseLossBackward");
  CHECK_RET(CopyBack(grad_in_dev, &grad_in) == 0, "copy back");
  std::printf("gradient of the mean: %g %g %g / %g %g %g\n", grad_in[0], grad_in[1], grad_in[2],
              grad_in[3], grad_in[4], grad_in[5]);
  // In f32, in the order of CANN's kernel: (self - target) * (1 / 6 * 2), then * gradOutput.
  const float cof = 1.0f / 6.0f * 2.0f;
  CHECK_RET(grad_in[5] == (6.0f - 1.0f) * cof * 1.0f, "the gradient");

  for (aclTensor* t : {self_t, target_t, terms_t, total_t, columns_t, grad_out_t, grad_in_t}) {
    aclDestroyTensor(t);
  }
  for (void* p :
       {self_dev, target_dev, terms_dev, total_dev, columns_dev, grad_out_dev, grad_in_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
