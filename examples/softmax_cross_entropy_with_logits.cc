// SoftmaxCrossEntropyWithLogits through the CANN API, run on the null stream: two rows of three
// logits against dense labels (a one-hot row, and a row sharing its mass between two classes):
// each row's loss, sum_c y_c (lse - x_c), and backprop, the row's softmax minus its labels.
#include <cmath>

#include "aclnnop/aclnn_softmax_cross_entropy_with_logits.h"
#include "example_common.h"

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  const std::vector<float> features = {1.0f, 2.0f, 3.0f,   // row 0
                                       0.0f, 0.0f, 0.0f};  // row 1: every class 1/3
  const std::vector<float> labels = {0.0f, 0.0f, 1.0f,     // row 0: class 2
                                     0.5f, 0.5f, 0.0f};    // row 1: classes 0 and 1
  std::vector<float> loss(2, 0.0f), backprop(6, 0.0f);
  void *features_dev, *labels_dev, *loss_dev, *backprop_dev;
  aclTensor *features_t, *labels_t, *loss_t, *backprop_t;
  CHECK_RET(MakeTensor(features, {2, 3}, ACL_FLOAT, &features_dev, &features_t) == 0, "features");
  CHECK_RET(MakeTensor(labels, {2, 3}, ACL_FLOAT, &labels_dev, &labels_t) == 0, "labels");
  CHECK_RET(MakeTensor(loss, {2}, ACL_FLOAT, &loss_dev, &loss_t) == 0, "loss");
  CHECK_RET(MakeTensor(backprop, {2, 3}, ACL_FLOAT, &backprop_dev, &backprop_t) == 0, "backprop");

  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  CHECK_RET(RunPhase2(aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize(
                          features_t, labels_t, loss_t, backprop_t, &ws, &exec),
                      ws, exec, aclnnSoftmaxCrossEntropyWithLogits) == ACL_SUCCESS,
            "aclnnSoftmaxCrossEntropyWithLogits");
  CHECK_RET(CopyBack(loss_dev, &loss) == 0 && CopyBack(backprop_dev, &backprop) == 0, "copy back");
  std::printf("loss: %.7f %.7f\n", loss[0], loss[1]);
  std::printf("backprop: row 0 %.7f %.7f %.7f, row 1 %.7f %.7f %.7f\n", backprop[0], backprop[1],
              backprop[2], backprop[3], backprop[4], backprop[5]);
  const double lse0 = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  CHECK_RET(std::fabs(loss[0] - (lse0 - 3.0)) < 1e-6 && std::fabs(loss[1] - std::log(3.0)) < 1e-6,
            "the losses");
  CHECK_RET(std::fabs(backprop[2] - (std::exp(3.0 - lse0) - 1.0)) < 1e-6 &&
                std::fabs(backprop[0] - std::exp(1.0 - lse0)) < 1e-6 &&
                std::fabs(backprop[3] - (1.0 / 3 - 0.5)) < 1e-6 &&
                std::fabs(backprop[5] - 1.0 / 3) < 1e-6,
            "backprop");

  for (aclTensor* t : {features_t, labels_t, loss_t, backprop_t}) aclDestroyTensor(t);
  for (void* p : {features_dev, labels_dev, loss_dev, backprop_dev}) aclrtFree(p);
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
