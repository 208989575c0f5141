// BinaryCrossEntropyWithLogits, its Backward and TargetBackward through the CANN API, run on
// the null stream: the cross entropy of [2, 3] logits against soft labels with a posWeight
// row [3] that broadcasts to them (no weight), with each reduction (none: the six terms; mean
// and sum: one value), then the gradients of the mean with respect to the logits and the
// labels. Each value is checked against the formula evaluated here in double.
#include <cmath>

#include "aclnnop/aclnn_binary_cross_entropy_with_logits.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_backward.h"
#include "aclnnop/aclnn_binary_cross_entropy_with_logits_target_backward.h"
#include "example_common.h"

namespace {

// softplus(v) = log(1 + e^v), without overflow.
double Softplus(double v) { return std::fmax(v, 0.0) + std::log1p(std::exp(-std::fabs(v))); }

bool Near(float got, double want) {
  return std::fabs(got - want) <= 1e-6 * std::fmax(1.0, std::fabs(want));
}

}  // namespace

int main() {
  CHECK_RET(aclInit(nullptr) == ACL_SUCCESS, "aclInit");
  CHECK_RET(aclrtSetDevice(0) == ACL_SUCCESS, "aclrtSetDevice");

  const std::vector<float> logits = {-2.0f, -0.5f, 0.0f, 0.5f, 2.0f, 4.0f};
  const std::vector<float> labels = {0.0f, 1.0f, 0.5f, 1.0f, 0.0f, 0.9f};
  const std::vector<float> pos_weight = {1.0f, 2.0f, 0.5f};
  const std::vector<float> grad_out = {1.0f};
  std::vector<float> terms(6, 0.0f), total(1, 0.0f), grad_self(6, 0.0f), grad_target(6, 0.0f);
  void *x_dev, *t_dev, *pw_dev, *terms_dev, *total_dev, *dy_dev, *gx_dev, *gt_dev;
  aclTensor *x, *t, *pw, *terms_t, *total_t, *dy, *gx, *gt;
  CHECK_RET(MakeTensor(logits, {2, 3}, ACL_FLOAT, &x_dev, &x) == 0, "self");
  CHECK_RET(MakeTensor(labels, {2, 3}, ACL_FLOAT, &t_dev, &t) == 0, "target");
  CHECK_RET(MakeTensor(pos_weight, {3}, ACL_FLOAT, &pw_dev, &pw) == 0, "posWeight");
  CHECK_RET(MakeTensor(terms, {2, 3}, ACL_FLOAT, &terms_dev, &terms_t) == 0, "terms");
  CHECK_RET(MakeTensor(total, {1}, ACL_FLOAT, &total_dev, &total_t) == 0, "total");
  CHECK_RET(MakeTensor(grad_out, {}, ACL_FLOAT, &dy_dev, &dy) == 0, "gradOutput");
  CHECK_RET(MakeTensor(grad_self, {2, 3}, ACL_FLOAT, &gx_dev, &gx) == 0, "out");
  CHECK_RET(MakeTensor(grad_target, {2, 3}, ACL_FLOAT, &gt_dev, &gt) == 0, "gradTarget");

  // The formula in double: l = (1 - t) x + (1 + (pw - 1) t) softplus(-x); d/dx = (1 + (pw -
  // 1) t) sigmoid(x) - pw t; d/dt = pw softplus(-x) - softplus(x).
  double want_terms[6], want_gx[6], want_gt[6], sum = 0.0;
  for (int i = 0; i < 6; ++i) {
    const double v = logits[i], l = labels[i], p = pos_weight[i % 3];
    const double log_weight = 1.0 + (p - 1.0) * l;
    want_terms[i] = (1.0 - l) * v + log_weight * Softplus(-v);
    want_gx[i] = (log_weight / (1.0 + std::exp(-v)) - p * l) / 6.0;
    want_gt[i] = (p * Softplus(-v) - Softplus(v)) / 6.0;
    sum += want_terms[i];
  }

  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  // reduction 0 (none): the terms.
  CHECK_RET(RunPhase2(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(x, t, nullptr, pw, 0,
                                                                        terms_t, &ws, &exec),
                      ws, exec, aclnnBinaryCrossEntropyWithLogits) == ACL_SUCCESS,
            "aclnnBinaryCrossEntropyWithLogits none");
  CHECK_RET(CopyBack(terms_dev, &terms) == 0, "copy back");
  std::printf("none: %g %g %g / %g %g %g\n", terms[0], terms[1], terms[2], terms[3], terms[4],
              terms[5]);
  for (int i = 0; i < 6; ++i) CHECK_RET(Near(terms[i], want_terms[i]), "the terms");
  // reduction 1 (mean) and 2 (sum): one value, into a [1] out.
  for (int64_t reduction : {1, 2}) {
    CHECK_RET(RunPhase2(aclnnBinaryCrossEntropyWithLogitsGetWorkspaceSize(
                            x, t, nullptr, pw, reduction, total_t, &ws, &exec),
                        ws, exec, aclnnBinaryCrossEntropyWithLogits) == ACL_SUCCESS,
              "aclnnBinaryCrossEntropyWithLogits mean, sum");
    CHECK_RET(CopyBack(total_dev, &total) == 0, "copy back");
    std::printf("%s: %g\n", reduction == 1 ? "mean" : "sum", total[0]);
    CHECK_RET(Near(total[0], reduction == 1 ? sum / 6.0 : sum), "the total");
  }
  // The gradients of the mean, gradOutput 1: with respect to self, then to target.
  CHECK_RET(RunPhase2(aclnnBinaryCrossEntropyWithLogitsBackwardGetWorkspaceSize(
                          dy, x, t, nullptr, pw, 1, gx, &ws, &exec),
                      ws, exec, aclnnBinaryCrossEntropyWithLogitsBackward) == ACL_SUCCESS,
            "aclnnBinaryCrossEntropyWithLogitsBackward");
  CHECK_RET(CopyBack(gx_dev, &grad_self) == 0, "copy back");
  std::printf("d/dself of the mean: %g %g %g / %g %g %g\n", grad_self[0], grad_self[1],
              grad_self[2], grad_self[3], grad_self[4], grad_self[5]);
  for (int i = 0; i < 6; ++i) CHECK_RET(Near(grad_self[i], want_gx[i]), "the gradient");
  CHECK_RET(RunPhase2(aclnnBinaryCrossEntropyWithLogitsTargetBackwardGetWorkspaceSize(
                          dy, x, t, nullptr, pw, 1, gt, &ws, &exec),
                      ws, exec, aclnnBinaryCrossEntropyWithLogitsTargetBackward) == ACL_SUCCESS,
            "aclnnBinaryCrossEntropyWithLogitsTargetBackward");
  CHECK_RET(CopyBack(gt_dev, &grad_target) == 0, "copy back");
  std::printf("d/dtarget of the mean: %g %g %g / %g %g %g\n", grad_target[0], grad_target[1],
              grad_target[2], grad_target[3], grad_target[4], grad_target[5]);
  for (int i = 0; i < 6; ++i) CHECK_RET(Near(grad_target[i], want_gt[i]), "the target gradient");

  for (aclTensor* p : {x, t, pw, terms_t, total_t, dy, gx, gt}) aclDestroyTensor(p);
  for (void* p : {x_dev, t_dev, pw_dev, terms_dev, total_dev, dy_dev, gx_dev, gt_dev}) {
    aclrtFree(p);
  }
  aclrtResetDevice(0);
  aclFinalize();
  return 0;
}
