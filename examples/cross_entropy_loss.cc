// CrossEntropyLoss and CrossEntropyLossGrad through the CANN API, run on the null stream: the
// cross entropy of three rows of three logits against INT64 targets, one of them ignoreIndex
// (none: one loss per row, with logProb; mean, the default of a null reduction: their sum over
// the rows not ignored; label smoothing 0.1), then the gradient of the mean from logProb:
// softmax minus the target's one-hot, over the two rows counted.
#include <cmath>

#include "aclnnop/aclnn_cross_entropy_loss.h"
#include "aclnnop/aclnn_cross_entropy_loss_grad.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  const std::vector<float> input = {1.0f, 2.0f,  3.0f,   // row 0
                                    0.0f, 0.0f,  0.0f,   // row 1: every class 1/3
                                    5.0f, -1.0f, 2.0f};  // row 2, ignored
  const std::vector<int64_t> target = {2, 1, -100};
  std::vector<float> losses(3, 0.0f), loss(1, 0.0f), log_prob(9, 0.0f), grad(9, 0.0f);
  std::vector<float> zloss(1, 0.0f), lse(3, 0.0f);
  const std::vector<float> grad_loss = {1.0f};
  void *input_dev, *target_dev, *losses_dev, *loss_dev, *log_prob_dev, *zloss_dev, *lse_dev,
      *grad_loss_dev, *grad_dev;
  aclTensor *input_t, *target_t, *losses_t, *loss_t, *log_prob_t, *zloss_t, *lse_t, *grad_loss_t,
      *grad_t;
  CHECK_RET(MakeTensor(input, {3, 3}, ACL_FLOAT, &input_dev, &input_t) == 0, "input");
  CHECK_RET(MakeTensor(target, {3}, ACL_INT64, &target_dev, &target_t) == 0, "target");
  CHECK_RET(MakeTensor(losses, {3}, ACL_FLOAT, &losses_dev, &losses_t) == 0, "lossOut");
  CHECK_RET(MakeTensor(loss, {1}, ACL_FLOAT, &loss_dev, &loss_t) == 0, "lossOut");
  CHECK_RET(MakeTensor(log_prob, {3, 3}, ACL_FLOAT, &log_prob_dev, &log_prob_t) == 0, "logProbOut");
  CHECK_RET(MakeTensor(zloss, {1}, ACL_FLOAT, &zloss_dev, &zloss_t) == 0, "zlossOut");
  CHECK_RET(MakeTensor(lse, {3}, ACL_FLOAT, &lse_dev, &lse_t) == 0, "lseForZlossOut");
  CHECK_RET(MakeTensor(grad_loss, {1}, ACL_FLOAT, &grad_loss_dev, &grad_loss_t) == 0, "gradLoss");
  CHECK_RET(MakeTensor(grad, {3, 3}, ACL_FLOAT, &grad_dev, &grad_t) == 0, "out");

  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  const double row0 = lse0 - 3.0, row1 = std::log(3.0);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  char none[] = "none";
  CHECK_RET(RunPhase2(aclnnCrossEntropyLossGetWorkspaceSize(input_t, target_t, nullptr, none, -100,
                                                            0.0, 0.0, false, losses_t, log_prob_t,
                                                            zloss_t, lse_t, &ws, &exec),
                      ws, exec, aclnnCrossEntropyLoss) == ACL_SUCCESS,
            "aclnnCrossEntropyLoss none");
  CHECK_RET(CopyBack(losses_dev, &losses) == 0 && CopyBack(log_prob_dev, &log_prob) == 0,
            "copy back");
  std::printf("none: %.7f %.7f %g\n", losses[0], losses[1], losses[2]);
  std::printf("logProb row 0: %.7f %.7f %.7f\n", log_prob[0], log_prob[1], log_prob[2]);
  CHECK_RET(
      std::fabs(losses[0] - row0) < 1e-6 && std::fabs(losses[1] - row1) < 1e-6 && losses[2] == 0.0f,
      "the losses");
  CHECK_RET(std::fabs(log_prob[0] - (1.0 - lse0)) < 1e-6 && std::fabs(log_prob[4] + row1) < 1e-6,
            "logProb");

  // A null reductionOptional is "mean": the sum over the two rows counted.
  CHECK_RET(RunPhase2(aclnnCrossEntropyLossGetWorkspaceSize(input_t, target_t, nullptr, nullptr,
                                                            -100, 0.0, 0.0, false, loss_t,
                                                            log_prob_t, zloss_t, lse_t, &ws, &exec),
                      ws, exec, aclnnCrossEntropyLoss) == ACL_SUCCESS,
            "aclnnCrossEntropyLoss mean");
  CHECK_RET(CopyBack(loss_dev, &loss) == 0, "copy back");
  std::printf("mean: %.7f\n", loss[0]);
  CHECK_RET(std::fabs(loss[0] - (row0 + row1) / 2) < 1e-6, "the mean");

  // Label smoothing 0.1: (1 - 0.1) of the loss plus 0.1 of the mean of -logProb over the classes.
  CHECK_RET(RunPhase2(aclnnCrossEntropyLossGetWorkspaceSize(input_t, target_t, nullptr, nullptr,
                                                            -100, 0.1, 0.0, false, loss_t,
                                                            log_prob_t, zloss_t, lse_t, &ws, &exec),
                      ws, exec, aclnnCrossEntropyLoss) == ACL_SUCCESS,
            "aclnnCrossEntropyLoss smoothed");
  CHECK_RET(CopyBack(loss_dev, &loss) == 0, "copy back");
  const double smooth0 = lse0 - 2.0, smooth1 = row1;  // -mean(logProb) of each row
  const double smoothed = (0.9 * (row0 + row1) + 0.1 * (smooth0 + smooth1)) / 2;
  std::printf("mean, labelSmoothing 0.1: %.7f\n", loss[0]);
  CHECK_RET(std::fabs(loss[0] - smoothed) < 1e-6, "the smoothed mean");

  // The gradient of the mean (no smoothing) from logProb: (softmax - one-hot) / 2.
  CHECK_RET(RunPhase2(aclnnCrossEntropyLossGetWorkspaceSize(input_t, target_t, nullptr, nullptr,
                                                            -100, 0.0, 0.0, false, loss_t,
                                                            log_prob_t, zloss_t, lse_t, &ws, &exec),
                      ws, exec, aclnnCrossEntropyLoss) == ACL_SUCCESS,
            "aclnnCrossEntropyLoss");
  CHECK_RET(RunPhase2(aclnnCrossEntropyLossGradGetWorkspaceSize(grad_loss_t, log_prob_t, target_t,
                                                                nullptr, nullptr, nullptr, nullptr,
                                                                -100, 0.0, 0.0, grad_t, &ws, &exec),
                      ws, exec, aclnnCrossEntropyLossGrad) == ACL_SUCCESS,
            "aclnnCrossEntropyLossGrad");
  CHECK_RET(CopyBack(grad_dev, &grad) == 0, "copy back");
  std::printf("gradient of the mean: row 0 %.7f %.7f %.7f, row 1 %.7f %.7f %.7f, row 2 %g %g %g\n",
              grad[0], grad[1], grad[2], grad[3], grad[4], grad[5], grad[6], grad[7], grad[8]);
  CHECK_RET(std::fabs(grad[2] - (std::exp(3.0 - lse0) - 1.0) / 2) < 1e-6 &&
                std::fabs(grad[4] - (1.0 / 3 - 1.0) / 2) < 1e-6 &&
                std::fabs(grad[3] - 1.0 / 6) < 1e-6 && grad[6] == 0.0f,
            "the gradient");

  for (aclTensor* t :
       {input_t, target_t, losses_t, loss_t, log_prob_t, zloss_t, lse_t, grad_loss_t, grad_t}) {
    aclDestroyTensor(t);
  }
  for (void* p : {input_dev, target_dev, losses_dev, loss_dev, log_prob_dev, zloss_dev, lse_dev,
                  grad_loss_dev, grad_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
