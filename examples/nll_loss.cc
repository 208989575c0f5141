// NLLLoss, NLLLossBackward and NLLLoss2d through the CANN API, run on the null stream: the
// negative log likelihood of three rows of four log-probabilities against INT64 targets, one
// of them ignoreIndex, with class weights (none: one loss per row; mean: their sum over the
// weights' total; sum), the gradient of the mean, and the per-pixel loss of a [1, 2, 1, 2]
// input.
#include "aclnnop/aclnn_nll_loss.h"
#include "aclnnop/aclnn_nll_loss2d.h"
#include "aclnnop/aclnn_nll_loss_backward.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  const std::vector<float> self = {-1.0f, -2.0f, -0.5f, -3.0f,   // row 0
                                   -0.25f, -1.5f, -2.0f, -1.0f,  // row 1
                                   -4.0f, -0.125f, -1.0f, -2.0f};
  const std::vector<int64_t> target = {2, 0, -100};  // row 2 ignored
  const std::vector<float> weight = {2.0f, 1.0f, 0.5f, 1.0f};
  std::vector<float> losses(3, 0.0f), loss(1, 0.0f), total(1, 0.0f), grad(12, 0.0f);
  const std::vector<float> grad_out = {1.0f};
  void *self_dev, *target_dev, *weight_dev, *losses_dev, *loss_dev, *total_dev, *grad_out_dev,
      *grad_dev;
  aclTensor *self_t, *target_t, *weight_t, *losses_t, *loss_t, *total_t, *grad_out_t, *grad_t;
  CHECK_RET(MakeTensor(self, {3, 4}, ACL_FLOAT, &self_dev, &self_t) == 0, "self");
  CHECK_RET(MakeTensor(target, {3}, ACL_INT64, &target_dev, &target_t) == 0, "target");
  CHECK_RET(MakeTensor(weight, {4}, ACL_FLOAT, &weight_dev, &weight_t) == 0, "weight");
  CHECK_RET(MakeTensor(losses, {3}, ACL_FLOAT, &losses_dev, &losses_t) == 0, "out");
  CHECK_RET(MakeTensor(loss, {1}, ACL_FLOAT, &loss_dev, &loss_t) == 0, "out");
  CHECK_RET(MakeTensor(total, {1}, ACL_FLOAT, &total_dev, &total_t) == 0, "totalWeightOut");
  CHECK_RET(MakeTensor(grad_out, {1}, ACL_FLOAT, &grad_out_dev, &grad_out_t) == 0, "gradOutput");
  CHECK_RET(MakeTensor(grad, {3, 4}, ACL_FLOAT, &grad_dev, &grad_t) == 0, "out");

  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  // reduction 0 (none): -weight[t] self[n, t] per row, 0 for the ignored row.
  CHECK_RET(RunPhase2(aclnnNLLLossGetWorkspaceSize(self_t, target_t, weight_t, 0, -100, losses_t,
                                                   total_t, &ws, &exec),
                      ws, exec, aclnnNLLLoss) == ACL_SUCCESS,
            "aclnnNLLLoss none");
  CHECK_RET(CopyBack(losses_dev, &losses) == 0, "copy back");
  std::printf("none: %g %g %g\n", losses[0], losses[1], losses[2]);
  CHECK_RET(losses[0] == 0.25f && losses[1] == 0.5f && losses[2] == 0.0f, "the losses");
  // reduction 1 (mean) and 2 (sum): the weighted sum 0.75, the weights' total 2.5.
  for (int64_t reduction : {1, 2}) {
    CHECK_RET(RunPhase2(aclnnNLLLossGetWorkspaceSize(self_t, target_t, weight_t, reduction, -100,
                                                     loss_t, total_t, &ws, &exec),
                        ws, exec, aclnnNLLLoss) == ACL_SUCCESS,
              "aclnnNLLLoss mean, sum");
    CHECK_RET(CopyBack(loss_dev, &loss) == 0 && CopyBack(total_dev, &total) == 0, "copy back");
    std::printf("%s: %g (totalWeight %g)\n", reduction == 1 ? "mean" : "sum", loss[0], total[0]);
    CHECK_RET(loss[0] == (reduction == 1 ? 0.3f : 0.75f) && total[0] == 2.5f, "the total");
  }
  // The gradient of the mean: -weight[t] / totalWeight at each row's class, zero elsewhere.
  CHECK_RET(RunPhase2(aclnnNLLLossBackwardGetWorkspaceSize(grad_out_t, self_t, target_t, weight_t,
                                                           1, -100, total_t, grad_t, &ws, &exec),
                      ws, exec, aclnnNLLLossBackward) == ACL_SUCCESS,
            "aclnnNLLLossBackward");
  CHECK_RET(CopyBack(grad_dev, &grad) == 0, "copy back");
  std::printf("gradient of the mean: row 0 %g %g %g %g, row 1 %g %g %g %g\n", grad[0], grad[1],
              grad[2], grad[3], grad[4], grad[5], grad[6], grad[7]);
  CHECK_RET(grad[2] == -0.2f && grad[4] == -0.8f && grad[0] == 0.0f && grad[8] == 0.0f,
            "the gradient");

  // NLLLoss2d: self [1, 2, 1, 2] (two classes along dim 1), target [1, 1, 2].
  const std::vector<float> self4 = {-0.5f, -1.0f, -2.0f, -0.25f};
  const std::vector<int32_t> target4 = {0, 1};
  const std::vector<float> weight4 = {1.0f, 3.0f};
  std::vector<float> pixels(2, 0.0f);
  void *self4_dev, *target4_dev, *weight4_dev, *pixels_dev;
  aclTensor *self4_t, *target4_t, *weight4_t, *pixels_t;
  CHECK_RET(MakeTensor(self4, {1, 2, 1, 2}, ACL_FLOAT, &self4_dev, &self4_t) == 0, "self");
  CHECK_RET(MakeTensor(target4, {1, 1, 2}, ACL_INT32, &target4_dev, &target4_t) == 0, "target");
  CHECK_RET(MakeTensor(weight4, {2}, ACL_FLOAT, &weight4_dev, &weight4_t) == 0, "weight");
  CHECK_RET(MakeTensor(pixels, {1, 1, 2}, ACL_FLOAT, &pixels_dev, &pixels_t) == 0, "out");
  CHECK_RET(RunPhase2(aclnnNLLLoss2dGetWorkspaceSize(self4_t, target4_t, weight4_t, 0, -100,
                                                     pixels_t, total_t, &ws, &exec),
                      ws, exec, aclnnNLLLoss2d) == ACL_SUCCESS,
            "aclnnNLLLoss2d none");
  CHECK_RET(CopyBack(pixels_dev, &pixels) == 0, "copy back");
  std::printf("NLLLoss2d none: %g %g\n", pixels[0], pixels[1]);
  CHECK_RET(pixels[0] == 0.5f && pixels[1] == 0.75f, "the pixels");

  for (aclTensor* t : {self_t, target_t, weight_t, losses_t, loss_t, total_t, grad_out_t, grad_t,
                       self4_t, target4_t, weight4_t, pixels_t}) {
    aclDestroyTensor(t);
  }
  for (void* p : {self_dev, target_dev, weight_dev, losses_dev, loss_dev, total_dev, grad_out_dev,
                  grad_dev, self4_dev, target4_dev, weight4_dev, pixels_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
