// ATen's side of hostnn_torch_peer (bench/torch_peer.cc): for each operator the ATen call a
// PyTorch client makes (an out= overload where ATen has one), over views of a case's
// buffers. TorchCase::Run has a row per operator; the operators with scalar parameters have
// theirs in kScalarPeers (bench/torch_peer_calls.cc), keyed on the operator list's snake name.
// Benchmark code only, built with hostnn_torch_peer when HOSTNN_TORCH_DIR names an installed
// `torch` package; ATen's headers need C++20.
#ifndef HOSTNN_BENCH_TORCH_PEER_CALLS_H_
#define HOSTNN_BENCH_TORCH_PEER_CALLS_H_

#include <ATen/ATen.h>

#include <cstdint>
#include <vector>

#include "bench/cases.h"
#include "hostnn/hostnn.h"

namespace hostnn {
namespace bench {

struct TorchCase;
using ScalarPeerFn = void (*)(TorchCase&);

// ATen's call for one case over the case's buffers.
struct TorchCase {
  at::Tensor dy, x, out, buffer;
  at::Tensor weight;  // Prelu's one-element channel weight
  // A norm's: gamma (GroupNorm's gamma and beta), the per-row statistics a gradient reads (as
  // ATen's forward gives them: mean and rstd alike, hostnn's values), AddRmsNorm's xOut, the
  // normalised shape, and the ones LayerNormBackward passes as ATen's weight (hostnn's case
  // has none; ATen computes gradWeight only with one).
  at::Tensor gamma, stats, row_out, ones;
  std::vector<int64_t> normalized;
  // BatchNorm's per-channel tensors, views of hostnn's (weight, bias, runningMean and runningVar,
  // which both update), and the forward's saveMean and saveInvstd, ATen's own (made once, in
  // the dtype its kernel writes). The gradient reads saveMean as hostnn's case gives it and
  // ATen's invstd, 1 / sqrt(var + eps), where hostnn's saveInvstd holds the variance (A2's).
  at::Tensor bn_weight, bn_bias, bn_running_mean, bn_running_var, bn_save_mean, bn_save_invstd;
  Op op;
  int64_t dim;
  double s[kMaxScalars] = {};          // the case's scalar parameters (CaseSpec::ScalarValue)
  ScalarPeerFn scalar_peer = nullptr;  // its row of kScalarPeers, found once per case
  // Runs ATen's call; false when it has none for op.
  bool Run();
};

// ATen's tensors for data's case: views of its buffers (shared with hostnn, the
// half-shaped ones of a gated unit included), its scalar parameters and its row of
// kScalarPeers.
TorchCase MakeTorchCase(const CaseData& data);

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_TORCH_PEER_CALLS_H_
