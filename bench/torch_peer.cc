// hostnn against PyTorch's ATen on the same cases, in one process: each case's buffers are
// shared (ATen's tensors are views of hostnn's), and hostnn samples (both phases of a C API
// call: GetWorkspaceSize + the run on a null stream, as a CANN client pays) alternate with
// ATen samples (the out= overloads, as a PyTorch client writing a preallocated output
// pays), so a burst of load hits both. Prints medians and the ratio ATen / hostnn (> 1:
// hostnn is faster), and the plain-store roofline of the same buffers. Before timing a case
// it runs both once and warns (stderr) where their results differ beyond 16-bit rounding.
// The operators with scalar parameters run with the list's defaults, or --param values, on
// both sides (the values as CANN reads an aclScalar, rounded to f32).
// Benchmark code only, built when HOSTNN_TORCH_DIR names an installed `torch` package
// (site-packages/torch of PyTorch 2.x from PyPI: libtorch_cpu.so, libc10.so, include/).
//   hostnn_torch_peer [--ops a,b] [--dtypes f32,f16,bf16,f64] [--sizes 4K,256K,4M,64M]
//                     [--threads 1,2] [--samples 11] [--sample-ms 4] [--csv FILE]
//                     [--param name=value]...    (a scalar parameter, as hostnn-scale's)
//   hostnn_torch_peer --list-ops                 (the operator list, one name a line)

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <omp.h>
#include <torch/headeronly/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/cases.h"
#include "bench/cli_util.h"
#include "bench/timing.h"
#include "hostnn/hostnn.h"
#include "kernels/kernels.h"

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

struct TorchCase;
using ScalarPeerFn = void (*)(TorchCase&);

// ATen's call for one case over the case's buffers.
struct TorchCase {
  at::Tensor dy, x, out, buffer;
  at::Tensor weight;  // Prelu's one-element channel weight
  Op op;
  int64_t dim;
  double s[kMaxScalars] = {};          // the case's scalar parameters (CaseSpec::ScalarValue)
  ScalarPeerFn scalar_peer = nullptr;  // its row of kScalarPeers, found once per case
  // Runs ATen's call; false when it has none for op.
  bool Run() {
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
      default:  // the operators with scalar parameters, by name (kScalarPeers)
        if (scalar_peer == nullptr) return false;
        scalar_peer(*this);
        break;
    }
    return true;
  }
};

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

TorchCase MakeTorchCase(const CaseData& data) {
  const CaseSpec& s = data.spec();
  const auto opts = at::TensorOptions().dtype(TorchType(s.dtype));
  TorchCase t;
  t.op = s.op;
  t.dim = s.dim;
  for (int k = 0; k < GetOpInfo(s.op).num_scalars(); ++k) t.s[k] = s.ScalarValue(k);
  t.scalar_peer = FindScalarPeer(s.op);
  t.dy = at::from_blob(data.grad_output_data(), s.shape, opts);
  t.x = at::from_blob(data.self_data(), s.shape, opts);
  t.out = at::from_blob(data.out_data(), s.shape, opts);
  if (GetOpInfo(s.op).shapes == ShapeRule::kChannelWeight)
    t.weight = at::from_blob(data.self_data(), {1}, opts);
  if (GetOpInfo(s.op).is_split) {  // the half-shaped operands
    const std::vector<int64_t>& half = data.half_shape();
    t.dy = at::from_blob(data.grad_output_data(), half, opts);
    t.buffer = at::from_blob(data.act_data(), half, opts);
    if (GetOpInfo(s.op).is_forward) t.out = at::from_blob(data.out_data(), half, opts);
  }
  // LogSigmoid's backward in ATen reads the forward's buffer; made once, outside the timing.
  if (s.op == Op::kLogSigmoidBackward) t.buffer = std::get<1>(at::log_sigmoid_forward(t.x));
  if (s.op == Op::kLogSigmoid || s.op == Op::kLogSigmoidForward) t.buffer = at::empty_like(t.x);
  return t;
}

// Runs hostnn (one C API call) and ATen once each on the case's buffers, outside the
// timing, and compares what they wrote over the first 1M elements: a warning on stderr names
// the case where a result differs by more than 2^-6 relative (a few 16-bit roundings, as
// ATen's compositions round each step) plus 1e-5, or is NaN on one side only. An in-place
// case starts both from the same input (the elementwise operators read each element only
// for its own result). -1 when ATen has no call for the operator, else the count of such
// elements. Pre: data.Prepare() succeeded.
int64_t CheckOnce(CaseData& data, TorchCase& tc, const std::string& label) {
  const bool in_place = IsInplace(GetOpInfo(data.spec().op).signature);
  // An in-place operator's result: self, or a two-input one's first input (dy).
  at::Tensor& result = !in_place ? tc.out : GetOpInfo(data.spec().op).is_forward ? tc.x : tc.dy;
  const int64_t m = std::min({result.numel(), tc.x.numel(), int64_t{1} << 20});
  const auto head = [m](const at::Tensor& t) { return t.reshape(-1).narrow(0, 0, m); };
  const at::Tensor x0 = head(tc.x).clone();  // the input, for the report
  const at::Tensor r0 = head(result).clone();
  if (data.RunCApiCall() != 0) return 0;  // the timing below reports the failure
  const at::Tensor hn = head(result).to(at::kDouble);
  if (in_place)
    head(result).copy_(r0);
  else
    tc.out.fill_(std::nan(""));  // so that an ATen call that writes nothing shows
  if (!tc.Run()) return -1;
  const at::Tensor aten = head(result).to(at::kDouble);
  const at::Tensor tol = at::maximum(aten.abs(), hn.abs()) * (1.0 / 64) + 1e-5;
  const at::Tensor bad = aten.ne(hn)
                             .logical_and((aten - hn).abs().le(tol).logical_not())
                             .logical_and(aten.isnan().logical_and(hn.isnan()).logical_not());
  const int64_t n_bad = bad.sum().item<int64_t>();
  if (n_bad > 0) {
    const int64_t i = bad.to(at::kInt).argmax().item<int64_t>();  // the first
    std::fprintf(stderr,
                 "hostnn_torch_peer: warning: %s: ATen and hostnn differ beyond 16-bit rounding "
                 "at %lld of %lld elements; the first at %lld: x %.9g, hostnn %.9g, ATen %.9g\n",
                 label.c_str(), static_cast<long long>(n_bad), static_cast<long long>(m),
                 static_cast<long long>(i), x0[i].item<double>(), hn[i].item<double>(),
                 aten[i].item<double>());
  }
  return n_bad;
}

int Main(int argc, char** argv) {
  std::vector<std::string> ops;  // default: every operator of the operator list
  for (const Op op : AllOps()) ops.push_back(GetOpInfo(op).snake_name);
  std::vector<std::string> dtypes = {"f32", "f16", "bf16"};
  std::vector<std::string> sizes = {"4K", "256K", "4M", "64M"};
  std::vector<std::string> threads = {"1", "2"};
  std::vector<std::pair<std::string, double>> params;  // --param name=value
  int samples = 11;
  double sample_ms = 4;
  const char* csv_path = nullptr;
  // Every flag takes one value, as --flag value or --flag=value (as the tools take them).
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i], v;
    if (k == "--list-ops") {
      for (const std::string& name : ops) std::printf("%s\n", name.c_str());
      return 0;
    }
    const size_t eq = k.find('=');
    if (k.rfind("--", 0) == 0 && eq != std::string::npos) {
      v = k.substr(eq + 1);
      k = k.substr(0, eq);
    } else if (i + 1 < argc) {
      v = argv[++i];
    } else {
      std::fprintf(stderr, "hostnn_torch_peer: %s needs a value\n", k.c_str());
      return 2;
    }
    if (k == "--ops")
      ops = Split(v, ',');
    else if (k == "--dtypes")
      dtypes = Split(v, ',');
    else if (k == "--sizes")
      sizes = Split(v, ',');
    else if (k == "--threads")
      threads = Split(v, ',');
    else if (k == "--samples")
      samples = std::max(1, std::atoi(v.c_str()));
    else if (k == "--sample-ms")
      sample_ms = std::atof(v.c_str());
    else if (k == "--csv")
      csv_path = argv[i] + (eq != std::string::npos ? eq + 1 : 0);
    else if (k == "--param") {
      const size_t sep = v.find('=');
      char* end = nullptr;
      const double value = sep == std::string::npos ? 0 : std::strtod(v.c_str() + sep + 1, &end);
      if (sep == std::string::npos || sep == 0 || end == v.c_str() + sep + 1 || *end != '\0') {
        std::fprintf(stderr, "hostnn_torch_peer: bad --param '%s' (name=value)\n", v.c_str());
        return 2;
      }
      params.push_back({v.substr(0, sep), value});
    } else {
      std::fprintf(stderr, "hostnn_torch_peer: unknown option %s\n", k.c_str());
      return 2;
    }
  }
  std::vector<Op> op_list;
  for (const std::string& op_name : ops) {
    Op op;
    if (!FindOp(op_name, &op)) {
      std::fprintf(stderr, "hostnn_torch_peer: unknown op %s\n", op_name.c_str());
      return 2;
    }
    op_list.push_back(op);
  }
  // Each --param names a scalar parameter of some operator of the list, so that a typo
  // fails; an operator without it ignores it (bench/torch_peer.sh runs one per process).
  for (const auto& p : params) {
    bool known = false;
    for (const Op op : AllOps()) {
      for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k)
        known = known || p.first == GetOpInfo(op).scalars[k].name;
    }
    if (!known) {
      std::fprintf(stderr, "hostnn_torch_peer: no operator has a parameter '%s'\n",
                   p.first.c_str());
      return 2;
    }
  }
  FILE* csv = csv_path ? std::fopen(csv_path, "w") : nullptr;
  if (csv) {
    std::fprintf(csv,
                 "op,dtype,shape,threads,hostnn_ns,torch_ns,roofline_ns,torch_over_hostnn,"
                 "target_1_25x,kernel_path\n");
  }
  std::printf("# hostnn target %s; PyTorch %s, ATen capability %s\n",
              kernels::ActiveTargetName().c_str(), TORCH_VERSION, at::get_cpu_capability().c_str());
  for (const auto& p : params) std::printf("# --param %s=%g\n", p.first.c_str(), p.second);
  std::printf("%-21s %-5s %-20s %3s %12s %12s %12s %8s  %s\n", "op", "dtype", "shape", "thr",
              "hostnn", "aten", "roofline", "aten/hn", "hostnn kernel path");
  // All the cases of one operator; 0, an exit status, or kNoCall when ATen has none for it.
  constexpr int kNoCall = -1;
  const auto run_op = [&](Op op) -> int {
    const std::string op_name = GetOpInfo(op).snake_name;
    // The operator's scalar parameters: the defaults, then the --param values it has.
    std::vector<double> scalars;
    for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
      scalars.push_back(GetOpInfo(op).scalars[k].default_value);
      for (const auto& p : params) {
        if (p.first == GetOpInfo(op).scalars[k].name) scalars.back() = p.second;
      }
    }
    for (const std::string& dt : dtypes) {
      DType dtype;
      if (!ParseShortDType(dt, &dtype)) {
        std::fprintf(stderr, "hostnn_torch_peer: unknown dtype %s\n", dt.c_str());
        return 2;
      }
      if (!BenchTakes(op, dtype)) continue;
      for (const std::string& size : sizes) {
        int64_t n = 0;
        if (!ParseCount(size, &n)) {
          std::fprintf(stderr, "hostnn_torch_peer: bad size %s\n", size.c_str());
          return 2;
        }
        for (CaseSpec spec : StandardCases(op, dtype, n)) {
          spec.scalars = scalars;
          auto data = std::make_unique<CaseData>(spec);
          TorchCase tc = MakeTorchCase(*data);
          bool checked = false;
          for (const std::string& th : threads) {
            int64_t t64 = 0;
            if (!ParseCount(th, &t64)) {
              std::fprintf(stderr, "hostnn_torch_peer: bad thread count %s\n", th.c_str());
              return 2;
            }
            const int t = static_cast<int>(t64);
            omp_set_num_threads(t);
            at::set_num_threads(t);
            const Status st = data->Prepare();
            if (!st.ok()) {
              std::fprintf(stderr, "%s\n", st.message().c_str());
              return 1;
            }
            if (!checked) {
              checked = true;
              if (CheckOnce(*data, tc, op_name + " " + dt + " " + spec.ShapeText()) < 0)
                return kNoCall;
            }
            int status = 0;
            const auto hn = [&] { status |= data->RunCApiCall(); };
            const auto at_fn = [&] { tc.Run(); };
            const auto roof = [&] { data->Roofline(t); };
            const int64_t hn_it = Calibrate(hn, sample_ms), at_it = Calibrate(at_fn, sample_ms),
                          rf_it = Calibrate(roof, sample_ms);
            std::vector<double> hn_ns, at_ns, rf_ns;
            for (int s = 0; s < samples; ++s) {
              if (s % 2 == 0) {
                hn_ns.push_back(TimeNs(hn, hn_it));
                at_ns.push_back(TimeNs(at_fn, at_it));
              } else {
                at_ns.push_back(TimeNs(at_fn, at_it));
                hn_ns.push_back(TimeNs(hn, hn_it));
              }
              rf_ns.push_back(TimeNs(roof, rf_it));
            }
            if (status != 0) {
              std::fprintf(stderr, "hostnn_torch_peer: the C API call failed (%d)\n", status);
              return 1;
            }
            const double n = static_cast<double>(spec.Elements());
            const double h = Median(hn_ns), a = Median(at_ns), r = Median(rf_ns);
            // Small cases in µs per call, others in ns per element.
            const bool per_call = spec.Elements() <= 4096;
            char hb[32], ab[32], rb[32];
            if (per_call) {
              std::snprintf(hb, sizeof hb, "%.2f us", h / 1e3);
              std::snprintf(ab, sizeof ab, "%.2f us", a / 1e3);
              std::snprintf(rb, sizeof rb, "%.2f us", r / 1e3);
            } else {
              std::snprintf(hb, sizeof hb, "%.4f ns/el", h / n);
              std::snprintf(ab, sizeof ab, "%.4f ns/el", a / n);
              std::snprintf(rb, sizeof rb, "%.4f ns/el", r / n);
            }
            std::printf("%-21s %-5s %-20s %3d %12s %12s %12s %7.2fx%s  %s\n", op_name.c_str(),
                        dt.c_str(), spec.ShapeText().c_str(), t, hb, ab, rb, a / h,
                        a / h >= 1.25 ? " " : "<", data->KernelPath().c_str());
            std::fflush(stdout);
            if (csv) {
              std::fprintf(csv, "%s,%s,\"%s\",%d,%.1f,%.1f,%.1f,%.3f,%s,\"%s\"\n", op_name.c_str(),
                           dt.c_str(), spec.ShapeText().c_str(), t, h, a, r, a / h,
                           a / h >= 1.25 ? "met" : "missed", data->KernelPath().c_str());
            }
          }
        }
      }
    }
    return 0;
  };
  for (const Op op : op_list) {
    const int rc = run_op(op);
    if (rc == kNoCall) {
      std::fprintf(stderr, "hostnn_torch_peer: no ATen call for %s (TorchCase::Run); skipped\n",
                   GetOpInfo(op).snake_name);
    } else if (rc != 0) {
      if (csv) std::fclose(csv);
      return rc;
    }
  }
  if (csv) std::fclose(csv);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace hostnn

HOSTNN_GUARDED_MAIN("hostnn_torch_peer", hostnn::bench::Main)
