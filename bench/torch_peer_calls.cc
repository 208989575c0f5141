// ATen's calls for hostnn_torch_peer (bench/torch_peer_calls.h): TorchCase::Run's row for
// each operator, kScalarPeers' rows for the operators with scalar parameters, and the views
// of a case's buffers they run on (MakeTorchCase). A new operator's ATen call goes here.
// Benchmark code only, built with hostnn_torch_peer when HOSTNN_TORCH_DIR is set.
#include "bench/torch_peer_calls.h"

#include <ATen/ATen.h>

#include <cstdint>
#include <cstring>
#include <tuple>
#include <vector>

#include "bench/cases.h"
#include "hostnn/hostnn.h"
#include "tests/util/operand_roles.h"

namespace hostnn {
namespace bench {
namespace {

at::ScalarType TorchType(DType d) {
  switch (d) {
    case DType::kFloat16:
      return at::kHalf;
    case DType::kBFloat16:
      return at::kBFloat16;
    case DType::kFloat64:
      return at::kDouble;
    default:
      return at::kFloat;
  }
}

// torch.selu's constants (ATen's SELU_ALPHA and SELU_SCALE).
constexpr double kSeluAlpha = 1.6732632423543772848170429916717;
constexpr double kSeluScale = 1.0507009873554804934193349852946;

}  // namespace

bool TorchCase::Run() {
  switch (op) {
    case Op::kSiluBackward:
      at::silu_backward_out(out, dy, x);
      break;
    case Op::kLogSigmoidBackward:
      at::log_sigmoid_backward_out(out, dy, x, buffer);
      break;
    case Op::kHardsigmoidBackward:
      at::hardsigmoid_backward_out(out, dy, x);
      break;
    case Op::kLogSoftmaxBackward:
      at::_log_softmax_backward_data_out(out, dy, x, dim, x.scalar_type());
      break;
    case Op::kSilu:
      at::silu_out(out, x);
      break;
    case Op::kLogSigmoid:
    case Op::kLogSigmoidForward:
      // torch.nn.functional.logsigmoid is log_sigmoid_forward; its buffer is made once,
      // outside the timing, as an out= call would keep it.
      at::log_sigmoid_forward_out(out, buffer, x);
      break;
    case Op::kHardsigmoid:
      at::hardsigmoid_out(out, x);
      break;
    case Op::kInplaceHardsigmoid:
      at::hardsigmoid_(x);
      break;
    case Op::kLogSoftmax:
      at::_log_softmax_out(out, x, dim, false);
      break;
    case Op::kSoftmax:
      at::_softmax_out(out, x, dim, false);
      break;
    case Op::kSoftmaxBackward:
      at::_softmax_backward_data_out(out, dy, x, dim, x.scalar_type());
      break;
    // The gated units: a and b are self's halves along dim. ATen has glu and its
    // backward; SwiGlu and GeGlu as a PyTorch user writes them (chunk, then the
    // activation and a product, temporaries included), their gradients as autograd runs
    // the composition, concatenated into out.
    case Op::kGlu:
      at::glu_out(out, x, dim);
      break;
    case Op::kGluBackward:
      at::glu_backward_out(out, dy, x, dim);
      break;
    case Op::kSwiGlu: {
      const auto ab = x.chunk(2, dim);
      at::mul_out(out, at::silu(ab[0]), ab[1]);
      break;
    }
    case Op::kSwiGluGrad: {
      const auto ab = x.chunk(2, dim);
      at::cat_out(out, {at::silu_backward(dy * ab[1], ab[0]), dy * at::silu(ab[0])}, dim);
      break;
    }
    case Op::kGeGlu:
    case Op::kGeGluV3: {  // approximate 0 (erf), activateLeft false: a * gelu(b)
      const auto ab = x.chunk(2, dim);
      at::gelu_out(buffer, ab[1], "none");
      at::mul_out(out, ab[0], buffer);
      break;
    }
    case Op::kGeGluBackward:
    case Op::kGeGluV3Backward: {  // buffer: the forward's gelu(b)
      const auto ab = x.chunk(2, dim);
      at::cat_out(out, {dy * buffer, at::gelu_backward(dy, ab[1], "none") * ab[0]}, dim);
      break;
    }
    // Prelu's case: self is the case's dy, the weight x's first element (bench/cases.h).
    // ATen's prelu has no out= form: _prelu_kernel allocates its result per call, as the
    // backward does both gradients.
    case Op::kPrelu:
      out = at::_prelu_kernel(dy, weight);
      break;
    case Op::kPreluBackward:
      out = std::get<0>(at::_prelu_kernel_backward(dy, x, weight));
      break;
    // Embedding's case: weight is x, the INT64 indices dy (bench/cases.h). at::embedding
    // allocates its result per call, as a PyTorch caller gets it.
    case Op::kEmbedding:
      out = at::embedding(x, dy);
      break;
    // EmbeddingDenseBackward's case: grad is x, the INT64 indices dy, out [rows, D] (its rows
    // are numWeights); at::embedding_dense_backward allocates its zeroed result per call.
    case Op::kEmbeddingDenseBackward:
      out = at::embedding_dense_backward(x, dy, out.size(0), -1, false);
      break;
    // The losses' cases: self x, target dy (a gradient: gradOutput dy, self x, target x), the
    // reduction s[0] (the list's default: the mean). at::mse_loss allocates its result per
    // call, as a PyTorch caller gets it; ATen has no dim-0 reduction of it (MseLossOut's),
    // which is the terms' mean or sum over dim 0.
    case Op::kMseLoss:
      out = at::mse_loss(x, dy, static_cast<int64_t>(s[0]));
      break;
    case Op::kMseLossOut: {
      const int64_t reduction = static_cast<int64_t>(s[0]);
      out = at::mse_loss(x, dy, 0);
      if (reduction != 0) out = reduction == 1 ? out.mean(0) : out.sum(0);
      break;
    }
    case Op::kMseLossBackward:
      at::mse_loss_backward_out(out, dy, x, x, static_cast<int64_t>(s[0]));
      break;
    // The cross entropy of logits (no weights): ATen's fused forward; its two gradients
    // have no ATen operator (PyTorch's autograd composes them in FunctionsManual.cpp), so
    // they are that composition of ATen calls: (sigmoid(x) - t) dy and -x dy, divided by the
    // element count for the mean.
    case Op::kBinaryCrossEntropyWithLogits:
      out = at::binary_cross_entropy_with_logits(x, dy, {}, {}, static_cast<int64_t>(s[0]));
      break;
    case Op::kBinaryCrossEntropyWithLogitsBackward:
      at::mul_out(out, at::sigmoid(x).sub_(x), dy);
      if (static_cast<int64_t>(s[0]) == 1) out.div_(x.numel());
      break;
    case Op::kBinaryCrossEntropyWithLogitsTargetBackward:
      at::mul_out(out, at::neg(x), dy);
      if (static_cast<int64_t>(s[0]) == 1) out.div_(x.numel());
      break;
    // NLLLoss's cases: self x, the INT64 target dy, the class weight `weight`, a gradient's
    // gradOutput `buffer` and totalWeight `stats` (0-d), the reduction s[0] and ignoreIndex
    // s[1]. ATen's forwards allocate their two results per call, as a PyTorch caller gets
    // them; the gradients write into out.
    case Op::kNLLLoss:
      out = std::get<0>(at::nll_loss_forward(x, dy, weight, static_cast<int64_t>(s[0]),
                                             static_cast<int64_t>(s[1])));
      break;
    case Op::kNLLLoss2d:
      out = std::get<0>(at::nll_loss2d_forward(x, dy, weight, static_cast<int64_t>(s[0]),
                                               static_cast<int64_t>(s[1])));
      break;
    case Op::kNLLLossBackward:
      at::nll_loss_backward_out(out, buffer, x, dy, weight, static_cast<int64_t>(s[0]),
                                static_cast<int64_t>(s[1]), stats);
      break;
    case Op::kNLLLoss2dBackward:
      at::nll_loss2d_backward_out(out, buffer, x, dy, weight, static_cast<int64_t>(s[0]),
                                  static_cast<int64_t>(s[1]), stats);
      break;
    // CrossEntropyLoss's cases: input (a gradient's logProb) x, the INT64 target dy, no
    // weight, the reduction s[0] (the default mean) and ignoreIndex s[1]. ATen's
    // cross_entropy_loss (log_softmax, then nll_loss) allocates its result per call and
    // writes no logProb (hostnn does). The gradient has no ATen operator: it is autograd's
    // composition, nll_loss_backward's one-hot gradient through _log_softmax_backward_data,
    // with gradLoss `buffer` (0-d) and the mean's divisor `stats` (0-d, N: no row ignored).
    case Op::kCrossEntropyLoss:
      out = at::cross_entropy_loss(x, dy, {}, static_cast<int64_t>(s[0]),
                                   static_cast<int64_t>(s[1]), 0.0);
      break;
    case Op::kCrossEntropyLossGrad:
      at::_log_softmax_backward_data_out(
          out,
          at::nll_loss_backward(buffer, x, dy, {}, static_cast<int64_t>(s[0]),
                                static_cast<int64_t>(s[1]), stats),
          x, 1, x.scalar_type());
      break;
    // SoftmaxCrossEntropyWithLogits has no ATen operator: a PyTorch user's composition, the
    // loss as cross_entropy with the labels as probabilities (reduction none) and backprop as
    // softmax minus the labels (dy). The results compared are backprop's.
    case Op::kSoftmaxCrossEntropyWithLogits:
      buffer = at::cross_entropy_loss(x, dy, {}, 0, -100, 0.0);
      at::sub_out(out, at::softmax(x, 1), dy);
      break;
    case Op::kHeaviside:  // hostnn's first input is `input`, its second `values`
      at::heaviside_out(out, dy, x);
      break;

    case Op::kRelu:
      at::clamp_min_out(out, x, 0);  // relu has no out= form; it is clamp_min(x, 0)
      break;
    case Op::kInplaceRelu:
      at::relu_(x);
      break;
    case Op::kSigmoid:
      at::sigmoid_out(out, x);
      break;
    case Op::kInplaceSigmoid:
      at::sigmoid_(x);
      break;
    case Op::kSigmoidBackward:
      // ATen's second input is the forward output too.
      at::sigmoid_backward_out(out, dy, x);
      break;
    case Op::kGelu:
      // CANN's Gelu is the tanh approximation (docs/activation_family.md).
      at::gelu_out(out, x, "tanh");
      break;
    case Op::kGeluBackward:
      at::gelu_backward_out(out, dy, x, "tanh");
      break;
    case Op::kGeluErf:  // CANN's GeluV2 with approximate none: PyTorch's default gelu
      at::gelu_out(out, x, "none");
      break;
    case Op::kGeluErfBackward:
      at::gelu_backward_out(out, dy, x, "none");
      break;
    case Op::kFastGelu:
      // ATen has no FastGelu: the composition a PyTorch user writes (temporaries included).
      at::mul_out(out, x, at::sigmoid(x * 1.702));
      break;
    case Op::kFastGeluBackward: {
      const at::Tensor s = at::sigmoid(x * 1.702);
      at::mul_out(out, dy, s * (1.702 * x * (1 - s) + 1));
      break;
    }
    case Op::kHardswish:
      at::hardswish_out(out, x);
      break;
    case Op::kInplaceHardswish:
      at::hardswish_(x);
      break;
    case Op::kHardswishBackward:
    case Op::kHardswishBackwardV2:  // ATen has one; V2 differs from it only at x = +-3
      at::hardswish_backward_out(out, dy, x);
      break;
    case Op::kMish:
      at::mish_out(out, x);
      break;
    case Op::kInplaceMish:
      at::mish_(x);
      break;
    case Op::kMishBackward:  // no out= variant: ATen allocates its result per call
      out = at::mish_backward(dy, x);
      break;
    case Op::kSelu:  // torch.selu is elu with Selu's constants; elu has the out= variant
      at::elu_out(out, x, kSeluAlpha, kSeluScale, 1.0);
      break;
    case Op::kInplaceSelu:
      at::selu_(x);
      break;
    case Op::kSeluBackward:  // what autograd calls for selu: elu_backward on the result
      at::elu_backward_out(out, dy, kSeluAlpha, kSeluScale, 1.0, true, x);
      break;
    case Op::kSquaredRelu:  // no fused ATen operator: relu, then the square in place
      at::relu_out(out, x);
      out.mul_(out);
      break;
    case Op::kErfinv:
      at::erfinv_out(out, x);
      break;
    case Op::kInplaceErfinv:
      x.erfinv_();
      break;
    // The normalisation family: the ATen operators F.layer_norm, F.rms_norm and
    // F.group_norm call and autograd runs for their gradients. They have no out= kernels
    // (native_layer_norm_out and native_group_norm_out are generated: the functional call,
    // then a copy), so each allocates its results per call, as a PyTorch client pays: y and
    // its statistics; a gradient dx and dgamma.
    case Op::kLayerNorm:
    case Op::kLayerNormWithImplMode:
      out = std::get<0>(at::native_layer_norm(x, normalized, {}, {}, s[0]));
      break;
    case Op::kLayerNormBackward:
      out = std::get<0>(at::native_layer_norm_backward(dy, x, normalized, stats, stats, ones, {},
                                                       {true, true, false}));
      break;
    case Op::kRmsNorm:
      out = at::rms_norm(x, normalized, gamma, s[0]);
      break;
    case Op::kAddRmsNorm:  // x1 + x2 into xOut, then rms_norm of it
      at::add_out(row_out, x, dy);
      out = at::rms_norm(row_out, normalized, gamma, s[0]);
      break;
    case Op::kRmsNormGrad: {
      // ATen's CPU build has no fused RmsNorm backward (_fused_rms_norm_backward is CUDA's):
      // the gradient autograd derives from rms_norm's composition, in f32 as its composite
      // computes, dgamma the column sums of dy x rstd.
      const at::Tensor xf = x.to(at::kFloat), dyf = dy.to(at::kFloat);
      const at::Tensor xhat = xf * stats, dxhat = dyf * gamma.to(at::kFloat);
      const at::Tensor dgamma = (dyf * xhat).sum(0);
      out = (stats * (dxhat - xhat * (dxhat * xhat).mean(-1, true))).to(x.scalar_type());
      break;
    }
    case Op::kGroupNorm:  // (N, C, HxW, group, eps); gamma is beta too, as hostnn's case
      out = std::get<0>(at::native_group_norm(
          x, gamma, gamma, static_cast<int64_t>(s[0]), static_cast<int64_t>(s[1]),
          static_cast<int64_t>(s[2]), static_cast<int64_t>(s[3]), s[4]));
      break;
    case Op::kGroupNormBackward:
      out = std::get<0>(at::native_group_norm_backward(
          dy, x, stats, stats, gamma, static_cast<int64_t>(s[0]), static_cast<int64_t>(s[1]),
          static_cast<int64_t>(s[2]), static_cast<int64_t>(s[3]), {true, true, false}));
      break;
    // BatchNorm in training (torch.nn.BatchNorm2d's train mode): the out= kernel, the batch
    // statistics saved and the running ones updated. Its gradient has no out= kernel: the
    // functional call autograd makes, dx, dweight and dbias allocated per call.
    case Op::kBatchNorm:  // (training, momentum, eps)
      at::native_batch_norm_out(out, bn_save_mean, bn_save_invstd, x, bn_weight, bn_bias,
                                bn_running_mean, bn_running_var, s[0] != 0, s[1], s[2]);
      break;
    case Op::kBatchNormBackward:  // (training, eps)
      out = std::get<0>(at::native_batch_norm_backward(dy, x, bn_weight, bn_running_mean,
                                                       bn_running_var, bn_save_mean, bn_save_invstd,
                                                       s[0] != 0, s[1], {true, true, true}));
      break;
    default:  // the operators with scalar parameters, by name (kScalarPeers)
      if (scalar_peer == nullptr) return false;
      scalar_peer(*this);
      break;
  }
  return true;
}

namespace {

// ATen's calls for the operators with scalar parameters, keyed on the operator list's snake
// name, so that a row compiles before its operator is in the Op enum and is used once it is.
// t.s[k] is the k-th scalar in CANN's order (op_list.def): the value hostnn computes with.
// `scalars` is how many the list must give the operator for the row to apply (a check that
// the row reads them in the list's order). ATen gets each value as a double Scalar and
// computes f32 with it as a float, as hostnn does; some of its 16-bit kernels round it to
// the tensor's dtype first (the shrinks' lambd), which differs where the value is not one.
struct ScalarPeer {
  const char* snake;
  int scalars;
  ScalarPeerFn run;
};
const ScalarPeer kScalarPeers[] = {
    {"leaky_relu", 1, [](TorchCase& t) { at::leaky_relu_out(t.out, t.x, t.s[0]); }},
    {"inplace_leaky_relu", 1, [](TorchCase& t) { at::leaky_relu_(t.x, t.s[0]); }},
    // (negativeSlope, selfIsResult): ATen's self_is_result is the same flag.
    {"leaky_relu_backward", 2,
     [](TorchCase& t) { at::leaky_relu_backward_out(t.out, t.dy, t.x, t.s[0], t.s[1] != 0); }},
    {"hardshrink", 1, [](TorchCase& t) { at::hardshrink_out(t.out, t.x, t.s[0]); }},
    {"hardshrink_backward", 1,
     [](TorchCase& t) { at::hardshrink_backward_out(t.out, t.dy, t.x, t.s[0]); }},
    {"softshrink", 1, [](TorchCase& t) { at::softshrink_out(t.out, t.x, t.s[0]); }},
    {"softshrink_backward", 1,
     [](TorchCase& t) { at::softshrink_backward_out(t.out, t.dy, t.x, t.s[0]); }},
    // (min, max): ATen's min_val, max_val.
    {"hardtanh_backward", 2,
     [](TorchCase& t) { at::hardtanh_backward_out(t.out, t.dy, t.x, t.s[0], t.s[1]); }},
    // (alpha, scale, inputScale): ATen's elu takes the same three.
    {"elu", 3, [](TorchCase& t) { at::elu_out(t.out, t.x, t.s[0], t.s[1], t.s[2]); }},
    {"inplace_elu", 3, [](TorchCase& t) { at::elu_(t.x, t.s[0], t.s[1], t.s[2]); }},
    // CANN's EluBackward(gradOutput, alpha, scale, inputScale, isResult, selfOrResult,
    // gradInput): the case's in0 (dy) is gradOutput and in1 (x) selfOrResult, its scalars
    // (alpha, scale, inputScale, isResult); ATen's elu_backward takes them in that order.
    {"elu_backward", 4,
     [](TorchCase& t) {
       at::elu_backward_out(t.out, t.dy, t.s[0], t.s[1], t.s[2], t.s[3] != 0, t.x);
     }},
    // (alpha). ATen's celu is elu(x, alpha, 1, 1/alpha); its out= overload is generated: the
    // functional celu into a new tensor, then copied to out, as torch.celu(x, out=y) pays.
    {"celu", 1, [](TorchCase& t) { at::celu_out(t.out, t.x, t.s[0]); }},
    {"inplace_celu", 1, [](TorchCase& t) { at::celu_(t.x, t.s[0]); }},
    // (beta, threshold): ATen's softplus takes the same two.
    {"softplus", 2, [](TorchCase& t) { at::softplus_out(t.out, t.x, t.s[0], t.s[1]); }},
    {"softplus_backward", 2,
     [](TorchCase& t) { at::softplus_backward_out(t.out, t.dy, t.x, t.s[0], t.s[1]); }},
    // (lambd, bias): CANN's Shrink is ONNX's (x - bias above lambd, x + bias below -lambd, 0
    // between); ATen has no such operator. The composition a PyTorch user writes, with its
    // temporaries: two masks, x - bias, x + bias and the inner where, then where into out.
    {"shrink", 2,
     [](TorchCase& t) {
       at::where_out(t.out, t.x > t.s[0], t.x - t.s[1],
                     at::where(t.x < -t.s[0], t.x + t.s[1], 0.0));
     }},
    // (threshold, value): x where x > threshold, else value, as ATen's threshold.
    {"threshold", 2, [](TorchCase& t) { at::threshold_out(t.out, t.x, t.s[0], t.s[1]); }},
    {"inplace_threshold", 2, [](TorchCase& t) { at::threshold_(t.x, t.s[0], t.s[1]); }},
    // (alpha): self + alpha * other, then relu in place, as ATen runs add + relu_ (its CPU
    // build has no fused add-relu); the case's dy is self, x is other.
    {"add_relu", 1,
     [](TorchCase& t) {
       at::add_out(t.out, t.dy, t.x, t.s[0]);
       at::relu_(t.out);
     }},
    {"inplace_add_relu", 1, [](TorchCase& t) { t.dy.add_(t.x, t.s[0]).relu_(); }},
    {"threshold_backward", 1,
     [](TorchCase& t) { at::threshold_backward_out(t.out, t.dy, t.x, t.s[0]); }},
    // (beta): x * sigmoid(beta x). ATen has no swish: beta 1 is silu; any other beta the
    // composition a PyTorch user writes (temporaries x * beta and its sigmoid), as FastGelu.
    {"swish", 1,
     [](TorchCase& t) {
       if (t.s[0] == 1.0)
         at::silu_out(t.out, t.x);
       else
         at::mul_out(t.out, t.x, at::sigmoid(t.x * t.s[0]));
     }},
    {"swish_backward", 1,
     [](TorchCase& t) {
       if (t.s[0] == 1.0) {
         at::silu_backward_out(t.out, t.dy, t.x);
       } else {
         const at::Tensor sg = at::sigmoid(t.x * t.s[0]);
         at::mul_out(t.out, t.dy, sg * (t.s[0] * t.x * (1 - sg) + 1));
       }
     }},
};

// The row of kScalarPeers for op, when it has one and the list gives op as many scalars as
// the row reads.
ScalarPeerFn FindScalarPeer(Op op) {
  const OpInfo& info = GetOpInfo(op);
  for (const ScalarPeer& p : kScalarPeers) {
    if (std::strcmp(p.snake, info.snake_name) == 0)
      return p.scalars == info.num_scalars() ? p.run : nullptr;
  }
  return nullptr;
}

}  // namespace

TorchCase MakeTorchCase(const CaseData& data) {
  using test::Role;
  const CaseSpec& s = data.spec();
  const OpInfo& info = GetOpInfo(s.op);
  const auto opts = at::TensorOptions().dtype(TorchType(s.dtype));
  TorchCase t;
  t.op = s.op;
  t.dim = s.dim;
  for (int k = 0; k < info.num_scalars(); ++k) t.s[k] = s.ScalarValue(k);
  t.scalar_peer = FindScalarPeer(s.op);
  // The case's tensor of an operand role (tests/util/operand_roles.h), over hostnn's memory
  // in its shape and dtype; undefined where the case has none. ATen's arguments are these,
  // by the roles its calls give them.
  const auto blob = [&](Role r) {
    const TensorView* v = data.RoleView(r);
    if (v == nullptr) return at::Tensor();
    const at::ScalarType type = v->dtype == DType::kInt64 ? at::kLong : TorchType(v->dtype);
    return at::from_blob(v->data, v->shape, at::TensorOptions().dtype(type));
  };
  t.dy = at::from_blob(data.grad_output_data(), s.shape, opts);
  t.x = blob(Role::kSelf);  // Embedding's weight [rows, D]
  // The result ATen's call returns: a forward loss's value (SoftmaxCrossEntropyWithLogits':
  // its backprop), every other operator's result.
  const bool loss_value =
      info.is_forward && IsLossKind(info.kind) && info.shapes != ShapeRule::kLabelRows;
  t.out = blob(loss_value ? Role::kLoss : Role::kResult);
  if (info.shapes == ShapeRule::kChannelWeight) t.weight = blob(Role::kPerColumn);
  // An index tensor (Embedding's indices, a class loss's target) where ATen's calls read dy.
  const test::OperandRoles roles = test::RolesOf(s.op);
  for (const Role r : roles.in) {
    if (r == Role::kIndex) t.dy = blob(Role::kIndex);
  }
  if (info.kind == Kind::kClassLoss) {  // the class weights; gradOutput and totalWeight, 0-d
    t.weight = blob(Role::kPerColumn);
    t.buffer = blob(Role::kGrad).reshape({});
    t.stats = blob(Role::kTotalWeight).reshape({});
  }
  if (info.kind == Kind::kSoftmaxLoss && info.shapes != ShapeRule::kLabelRows) {  // gradLoss
    t.buffer = blob(Role::kGrad).reshape({});
    t.stats = at::full({}, static_cast<double>(s.shape[0]), opts);
  }
  if (info.is_split) {  // the half-shaped operands: dy, and outGelu or gelu
    t.dy = blob(Role::kGrad);
    t.buffer = blob(Role::kAux);
  }
  if (IsNormOp(s.op)) {  // a norm's other operands, views of hostnn's where ATen takes them
    t.gamma = blob(Role::kPerColumn);
    t.normalized = {s.shape.back()};
    // The statistic a gradient reads: GroupNorm's [N, group] in x's dtype, as ATen's; the
    // others' FLOAT [rows, 1]. ATen's LayerNorm statistics are in x's dtype where its weight
    // is (native_layer_norm's param_scalar_type), so converted once, outside the timing.
    t.stats = blob(Role::kPerRow);
    if (s.op == Op::kLayerNormBackward) t.stats = t.stats.to(TorchType(s.dtype));
    if (s.op == Op::kLayerNormBackward) t.ones = at::ones({s.shape.back()}, opts);
    t.row_out = blob(Role::kAux);  // AddRmsNorm's xOut
  }
  if (IsChannelStatsOp(s.op) && s.shape.size() >= 2) {
    t.bn_weight = blob(Role::kWeight), t.bn_bias = blob(Role::kBias);
    t.bn_running_mean = blob(Role::kRunningMean), t.bn_running_var = blob(Role::kRunningVar);
    if (info.is_forward) {  // ATen's saved statistics, in the dtype it writes them
      const auto saved = at::native_batch_norm(t.x, t.bn_weight, t.bn_bias, at::Tensor(),
                                               at::Tensor(), true, 0.0, t.s[2]);
      t.bn_save_mean = std::get<1>(saved), t.bn_save_invstd = std::get<2>(saved);
    } else {
      t.bn_save_mean = blob(Role::kSaveMean);
      t.bn_save_invstd =
          (blob(Role::kSaveInvstd).to(at::kDouble) + t.s[1]).rsqrt().to(TorchType(s.dtype));
    }
  }
  // LogSigmoid's backward in ATen reads the forward's buffer; made once, outside the timing.
  if (s.op == Op::kLogSigmoidBackward) t.buffer = std::get<1>(at::log_sigmoid_forward(t.x));
  if (s.op == Op::kLogSigmoid || s.op == Op::kLogSigmoidForward) t.buffer = at::empty_like(t.x);
  return t;
}

}  // namespace bench
}  // namespace hostnn
