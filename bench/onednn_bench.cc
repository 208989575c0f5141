// The peer comparison with oneDNN: its eltwise primitives for the operators it has (swish,
// logsigmoid and hardsigmoid backward, and the activation family's relu, logistic,
// gelu_tanh, gelu_erf, hardswish, mish and elu, forward, in place and backward; for the
// operators with scalar parameters relu with a slope, elu, soft_relu, swish and clip_v2,
// with the case's values), its LogSoftmax backward and its layer normalization (LayerNorm and
// its gradient, on the norms' rows x length grid; oneDNN 3.2 has no RMS form of it nor a group
// normalization, so RmsNorm, AddRmsNorm, GroupNorm and their gradients get no row) and its
// batch normalization (BatchNorm and its gradient, on the channel grid of [N, C, ...] shapes;
// f16 has no CPU implementation in 3.2 and says so), on the cases hostnn_bench times, over
// the same buffers, beside hostnn and the roofline so that one run gives all three. hostnn
// is timed as a CANN client pays: both phases of one C API call (GetWorkspaceSize, then the
// run on a null stream), as the speed issues count it. Operators the linked version has no
// primitive for (logsigmoid in 3.x, hardsigmoid in 2.x; FastGelu, SquaredRelu, Erfinv, the
// shrinks and Threshold in any) get no row, nor do parameter values it cannot express;
// cases it cannot create (f16 or bf16 without the instructions) are skipped with its
// message. Built only when oneDNN is found (bench/CMakeLists.txt); the library never links
// it.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "bench/cases.h"
#include "bench/gbench_util.h"
#include "bench/onednn_prims.h"
#include "hostnn/hostnn.h"
#include "tests/util/operand_roles.h"

namespace hostnn {
namespace bench {
namespace {

dnnl::memory::data_type DnnlType(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return dnnl::memory::data_type::f16;
    case DType::kBFloat16:
      return dnnl::memory::data_type::bf16;
    default:
      return dnnl::memory::data_type::f32;
  }
}

// One oneDNN primitive for a case, with its arguments bound to the case's buffers.
struct DnnlCase {
  dnnl::engine engine{dnnl::engine::kind::cpu, 0};
  dnnl::stream stream{engine};
  dnnl::primitive primitive;
  std::unordered_map<int, dnnl::memory> args;
  std::string impl;  // oneDNN's implementation name ("jit:avx2", "ref:any", ...)
  std::vector<float> scale, diff_scale;  // a layer normalization backward's gamma and dgamma
};

// How oneDNN computes one of hostnn's operators: an eltwise algorithm with its alpha and
// beta, forward (out of place or in place) or backward.
struct DnnlEltwise {
  dnnl::algorithm alg;
  float alpha = 0.0f;
  float beta = 0.0f;
  enum Kind { kForward, kInplace, kBackward } kind = kForward;
};

// torch.selu's alpha. oneDNN has no selu: eltwise_elu with this alpha is Selu without its
// final multiply by the scale (1.0507...), one multiply per element less than Selu; its
// *_use_dst_for_bwd backward reads the result, as SeluBackward does.
constexpr float kSeluAlpha = 1.6732632423543772f;

// The eltwise oneDNN runs for an operator with scalar parameters, keyed on the operator
// list's snake name so that a row compiles before its operator is in the Op enum (and is
// used once it is). s(k) is the case's k-th scalar in CANN's order (CaseSpec::ScalarValue:
// the value hostnn computes with); a row applies only where the list gives the operator as
// many scalars as it reads. False (with the reason) when oneDNN has none.
bool DnnlScalarEltwiseFor(const CaseSpec& spec, DnnlEltwise* e, std::string* why) {
  using dnnl::algorithm;
  using K = DnnlEltwise::Kind;
  const std::string name = GetOpInfo(spec.op).snake_name;
  const int n = GetOpInfo(spec.op).num_scalars();
  const auto s = [&spec](int k) { return static_cast<float>(spec.ScalarValue(k)); };
  // LeakyRelu(negativeSlope): relu's alpha is the slope below 0. LeakyReluBackward's
  // selfIsResult reads the result (relu_use_dst_for_bwd, which needs a slope >= 0, as
  // hostnn's check does).
  if ((name == "leaky_relu" || name == "inplace_leaky_relu") && n == 1) {
    *e = {algorithm::eltwise_relu, s(0), 0.0f, name == "leaky_relu" ? K::kForward : K::kInplace};
    return true;
  }
  if (name == "leaky_relu_backward" && n == 2) {
    *e = {s(1) != 0 ? algorithm::eltwise_relu_use_dst_for_bwd : algorithm::eltwise_relu, s(0), 0.0f,
          K::kBackward};
    return true;
  }
  // HardtanhBackward(min, max): clip_v2's backward passes dy for alpha < x < beta, 0 at the
  // ends and outside, as CANN's (clip's would pass it at x = beta).
  if (name == "hardtanh_backward" && n == 2) {
    *e = {algorithm::eltwise_clip_v2, s(0), s(1), K::kBackward};
    return true;
  }
  // Elu(alpha, scale, inputScale): oneDNN's elu is alpha with scale and inputScale 1 (the
  // defaults); other values get no row. EluBackward's isResult reads the result
  // (elu_use_dst_for_bwd, alpha >= 0); its second input is selfOrResult.
  if ((name == "elu" || name == "inplace_elu" || name == "elu_backward") &&
      n == (name == "elu_backward" ? 4 : 3)) {
    if (s(1) != 1.0f || s(2) != 1.0f) {
      *why = "oneDNN's elu has no scale or input scale";
      return false;
    }
    const bool from_dst = name == "elu_backward" && s(3) != 0;
    *e = {from_dst ? algorithm::eltwise_elu_use_dst_for_bwd : algorithm::eltwise_elu, s(0), 0.0f,
          name == "elu"           ? K::kForward
          : name == "inplace_elu" ? K::kInplace
                                  : K::kBackward};
    return true;
  }
  // Celu(alpha) is elu with alpha and an input scale 1/alpha: oneDNN's elu at alpha 1 (the
  // default); other values get no row.
  if ((name == "celu" || name == "inplace_celu") && n == 1) {
    if (s(0) != 1.0f) {
      *why = "oneDNN's elu has no input scale (Celu's 1/alpha)";
      return false;
    }
    *e = {algorithm::eltwise_elu, 1.0f, 0.0f, name == "celu" ? K::kForward : K::kInplace};
    return true;
  }
  // Softplus(beta, threshold): oneDNN 3's soft_relu is log(1 + exp(alpha x)) / alpha, so
  // alpha = beta; 2.x's ignores alpha (beta 1 only). It has no threshold: it computes the
  // log everywhere where hostnn and PyTorch return x (backward: dy) once beta x > threshold.
  // At the default threshold 20 the two differ by log1p(exp(-20)) / 20 ~ 1e-10 relative,
  // under f32's rounding, so the row computes the same values, only without the shortcut;
  // it is given whatever the threshold.
  if ((name == "softplus" || name == "softplus_backward") && n == 2) {
#if DNNL_VERSION_MAJOR < 3
    if (s(0) != 1.0f) {
      *why = "oneDNN 2's soft_relu has no beta";
      return false;
    }
#endif
    *e = {algorithm::eltwise_soft_relu, s(0), 0.0f,
          name == "softplus" ? K::kForward : K::kBackward};
    return true;
  }
  // Swish(beta): x * sigmoid(alpha x), alpha = beta.
  if ((name == "swish" || name == "swish_backward") && n == 1) {
    *e = {algorithm::eltwise_swish, s(0), 0.0f, name == "swish" ? K::kForward : K::kBackward};
    return true;
  }
  // Hardshrink, Softshrink, Shrink, Threshold and their gradients: no oneDNN primitive.
  *why = "oneDNN has no such primitive";
  return false;
}

// The eltwise oneDNN runs for the case's operator; false (with the reason) when it has none.
bool DnnlEltwiseFor(const CaseSpec& spec, DnnlEltwise* e, std::string* why) {
  using dnnl::algorithm;
  using K = DnnlEltwise::Kind;
  const Op op = spec.op;
  // oneDNN's hardswish is x * clamp(alpha x + beta, 0, 1); 2.x ignores alpha and beta and
  // always uses these.
  const float hs_alpha = 1.0f / 6.0f, hs_beta = 0.5f;
  switch (op) {
    case Op::kSiluBackward:  // x * sigmoid(alpha x), alpha = 1: SiLU
      *e = {algorithm::eltwise_swish, 1.0f, 0.0f, K::kBackward};
      return true;
    case Op::kLogSigmoidBackward:
#if DNNL_VERSION_MAJOR >= 3
      *why = "oneDNN 3 has no logsigmoid";
      return false;
#else
      *e = {algorithm::eltwise_logsigmoid, 1.0f, 0.0f, K::kBackward};
      return true;
#endif
    case Op::kHardsigmoidBackward:
#if DNNL_VERSION_MAJOR >= 3  // clamp(alpha x + beta, 0, 1)
      *e = {algorithm::eltwise_hardsigmoid, 1.0f / 6.0f, 0.5f, K::kBackward};
      return true;
#else
      *why = "oneDNN 2 has no hardsigmoid";
      return false;
#endif
    case Op::kRelu:  // alpha is the slope below 0
      *e = {algorithm::eltwise_relu, 0.0f, 0.0f, K::kForward};
      return true;
    case Op::kInplaceRelu:
      *e = {algorithm::eltwise_relu, 0.0f, 0.0f, K::kInplace};
      return true;
    case Op::kSigmoid:
      *e = {algorithm::eltwise_logistic, 0.0f, 0.0f, K::kForward};
      return true;
    case Op::kInplaceSigmoid:
      *e = {algorithm::eltwise_logistic, 0.0f, 0.0f, K::kInplace};
      return true;
    case Op::kSigmoidBackward:  // from the forward output, as CANN's and ATen's
      *e = {algorithm::eltwise_logistic_use_dst_for_bwd, 0.0f, 0.0f, K::kBackward};
      return true;
    case Op::kGelu:  // CANN's Gelu is the tanh form
      *e = {algorithm::eltwise_gelu_tanh, 0.0f, 0.0f, K::kForward};
      return true;
    case Op::kGeluBackward:
      *e = {algorithm::eltwise_gelu_tanh, 0.0f, 0.0f, K::kBackward};
      return true;
    case Op::kGeluErf:
      *e = {algorithm::eltwise_gelu_erf, 0.0f, 0.0f, K::kForward};
      return true;
    case Op::kGeluErfBackward:
      *e = {algorithm::eltwise_gelu_erf, 0.0f, 0.0f, K::kBackward};
      return true;
    case Op::kHardswish:
      *e = {algorithm::eltwise_hardswish, hs_alpha, hs_beta, K::kForward};
      return true;
    case Op::kInplaceHardswish:
      *e = {algorithm::eltwise_hardswish, hs_alpha, hs_beta, K::kInplace};
      return true;
    case Op::kHardswishBackward:
    case Op::kHardswishBackwardV2:  // one oneDNN backward; V2 differs only at x = +-3
      *e = {algorithm::eltwise_hardswish, hs_alpha, hs_beta, K::kBackward};
      return true;
    case Op::kMish:
      *e = {algorithm::eltwise_mish, 0.0f, 0.0f, K::kForward};
      return true;
    case Op::kInplaceMish:
      *e = {algorithm::eltwise_mish, 0.0f, 0.0f, K::kInplace};
      return true;
    case Op::kMishBackward:
      *e = {algorithm::eltwise_mish, 0.0f, 0.0f, K::kBackward};
      return true;
    case Op::kSelu:
      *e = {algorithm::eltwise_elu, kSeluAlpha, 0.0f, K::kForward};
      return true;
    case Op::kInplaceSelu:
      *e = {algorithm::eltwise_elu, kSeluAlpha, 0.0f, K::kInplace};
      return true;
    case Op::kSeluBackward:
      *e = {algorithm::eltwise_elu_use_dst_for_bwd, kSeluAlpha, 0.0f, K::kBackward};
      return true;
    default:  // the operators with scalar parameters, by name
      return DnnlScalarEltwiseFor(spec, e, why);
  }
}

// The softmax reductions with a oneDNN primitive (softmax_forward / softmax_backward).
bool IsDnnlSoftmax(Op op) {
  return op == Op::kLogSoftmax || op == Op::kLogSoftmaxBackward || op == Op::kSoftmax ||
         op == Op::kSoftmaxBackward;
}

// The norms with a oneDNN primitive: LayerNorm and its gradient (layer_normalization, oneDNN
// 3's API). oneDNN 3.2 has neither an RMS flag for it (RmsNorm, AddRmsNorm, RmsNormGrad) nor
// group_normalization (GroupNorm and its gradient): those get no row.
bool IsDnnlLayerNorm(Op op) {
#if DNNL_VERSION_MAJOR >= 3
  return op == Op::kLayerNorm || op == Op::kLayerNormBackward;
#else
  (void)op;
  return false;
#endif
}

// BatchNorm and its gradient: batch_normalization (oneDNN 3's API).
bool IsDnnlBatchNorm(Op op) {
#if DNNL_VERSION_MAJOR >= 3
  return IsChannelStatsOp(op);
#else
  (void)op;
  return false;
#endif
}

// The operators with a oneDNN row, in the operator list's order: the softmax reductions, the
// layer normalizations and those DnnlEltwiseFor maps at their default scalar parameters.
std::vector<Op> DnnlOps() {
  std::vector<Op> ops;
  for (Op op : AllOps()) {
    CaseSpec spec;  // f32, no shape, the default scalars
    spec.op = op;
    DnnlEltwise e;
    std::string why;
    if (IsDnnlSoftmax(op) || IsDnnlLayerNorm(op) || IsDnnlBatchNorm(op) ||
        DnnlEltwiseFor(spec, &e, &why)) {
      ops.push_back(op);
    }
  }
  return ops;
}

#if DNNL_VERSION_MAJOR >= 3
// LayerNorm: layer_normalization over the last dim, inference without scale or shift (hostnn's
// case has no weight or bias, and writes no statistics). Its gradient: oneDNN's backward with
// a scale of ones, so that it computes dgamma as hostnn's does (hostnn's case has no weight),
// reading hostnn's per-row statistic as mean and variance (FLOAT [rows]).
void MakeDnnlLayerNorm(const CaseData& data, const dnnl::memory::desc& md, DnnlCase* c) {
  const CaseSpec& spec = data.spec();
  using dnnl::normalization_flags;
  const int64_t rows = spec.Elements() / spec.shape.back(), length = spec.shape.back();
  const dnnl::memory::desc stat_md({rows}, dnnl::memory::data_type::f32,
                                   dnnl::memory::format_tag::a);
  dnnl::memory x(md, c->engine, data.self_data());
  dnnl::memory out(md, c->engine, data.out_data());
  if (GetOpInfo(spec.op).is_forward) {
    const dnnl::layer_normalization_forward::primitive_desc pd(
        c->engine, dnnl::prop_kind::forward_inference, md, md, stat_md,
        static_cast<float>(spec.ScalarValue(0)), normalization_flags::none);
    c->primitive = dnnl::layer_normalization_forward(pd);
    c->impl = pd.impl_info_str();
    c->args = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, out}};
    return;
  }
  const float eps = 1e-5f;  // PyTorch's and CANN's default
  const dnnl::layer_normalization_forward::primitive_desc hint(
      c->engine, dnnl::prop_kind::forward_training, md, md, stat_md, eps,
      normalization_flags::use_scale);
  const dnnl::layer_normalization_backward::primitive_desc pd(c->engine, dnnl::prop_kind::backward,
                                                              md, md, md, stat_md, eps,
                                                              normalization_flags::use_scale, hint);
  c->primitive = dnnl::layer_normalization_backward(pd);
  c->impl = pd.impl_info_str();
  c->scale.assign(static_cast<size_t>(length), 1.0f);
  c->diff_scale.assign(static_cast<size_t>(length), 0.0f);
  const dnnl::memory::desc scale_md({length}, dnnl::memory::data_type::f32,
                                    dnnl::memory::format_tag::a);
  dnnl::memory stats(stat_md, c->engine, data.RoleView(test::Role::kPerRow)->data);
  c->args = {{DNNL_ARG_SRC, x},
             {DNNL_ARG_DIFF_DST, dnnl::memory(md, c->engine, data.grad_output_data())},
             {DNNL_ARG_MEAN, stats},
             {DNNL_ARG_VARIANCE, stats},
             {DNNL_ARG_SCALE, dnnl::memory(scale_md, c->engine, c->scale.data())},
             {DNNL_ARG_DIFF_SRC, out},
             {DNNL_ARG_DIFF_SCALE, dnnl::memory(scale_md, c->engine, c->diff_scale.data())}};
}
#endif

#if DNNL_VERSION_MAJOR >= 3
// BatchNorm: batch_normalization forward training with scale and shift (oneDNN's are f32;
// its mean and variance outputs f32 [C]; it keeps no running statistics) on hostnn's plain
// [N, C, ...] layout. Its gradient: prop_kind backward with scale and shift, reading the
// mean and the variance (as hostnn's saveMean and saveInvstd: 0 and 1) and writing dx,
// dscale and dshift.
void MakeDnnlBatchNorm(const CaseData& data, const dnnl::memory::desc& md, DnnlCase* c) {
  const CaseSpec& spec = data.spec();
  using dnnl::normalization_flags;
  const int64_t channels = spec.shape[1];
  const dnnl::memory::desc ch_md({channels}, dnnl::memory::data_type::f32,
                                 dnnl::memory::format_tag::a);
  const normalization_flags flags = normalization_flags::use_scale | normalization_flags::use_shift;
  const float eps = static_cast<float>(spec.ScalarValue(GetOpInfo(spec.op).is_forward ? 2 : 1));
  // scale, shift, mean, variance, diff_scale, diff_shift: C floats each.
  c->scale.assign(static_cast<size_t>(6 * channels), 0.0f);
  float* at = c->scale.data();
  std::fill(at, at + 2 * channels, 1.0f);                 // scale 1, shift 1
  std::fill(at + 3 * channels, at + 4 * channels, 1.0f);  // variance 1
  const auto mem = [&](int k) { return dnnl::memory(ch_md, c->engine, at + k * channels); };
  dnnl::memory x(md, c->engine, data.self_data());
  dnnl::memory out(md, c->engine, data.out_data());
  const dnnl::batch_normalization_forward::primitive_desc fwd(
      c->engine, dnnl::prop_kind::forward_training, md, md, eps, flags);
  if (GetOpInfo(spec.op).is_forward) {
    c->primitive = dnnl::batch_normalization_forward(fwd);
    c->impl = fwd.impl_info_str();
    c->args = {{DNNL_ARG_SRC, x},        {DNNL_ARG_DST, out},     {DNNL_ARG_SCALE, mem(0)},
               {DNNL_ARG_SHIFT, mem(1)}, {DNNL_ARG_MEAN, mem(2)}, {DNNL_ARG_VARIANCE, mem(3)}};
    return;
  }
  const dnnl::batch_normalization_backward::primitive_desc pd(c->engine, dnnl::prop_kind::backward,
                                                              md, md, md, eps, flags, fwd);
  c->primitive = dnnl::batch_normalization_backward(pd);
  c->impl = pd.impl_info_str();
  c->args = {{DNNL_ARG_SRC, x},
             {DNNL_ARG_DIFF_DST, dnnl::memory(md, c->engine, data.grad_output_data())},
             {DNNL_ARG_SCALE, mem(0)},
             {DNNL_ARG_MEAN, mem(2)},
             {DNNL_ARG_VARIANCE, mem(3)},
             {DNNL_ARG_DIFF_SRC, out},
             {DNNL_ARG_DIFF_SCALE, mem(4)},
             {DNNL_ARG_DIFF_SHIFT, mem(5)}};
}
#endif

// Builds the primitive; false (with the reason) when oneDNN cannot.
bool MakeDnnlCase(const CaseData& data, DnnlCase* c, std::string* why) {
  const CaseSpec& spec = data.spec();
  const dnnl::memory::dims dims(spec.shape.begin(), spec.shape.end());
  // Plain row-major layouts: a, ab, abc, abcd (BatchNorm's [N, C, H, W]).
  const dnnl::memory::format_tag tag = dims.size() == 1   ? dnnl::memory::format_tag::a
                                       : dims.size() == 2 ? dnnl::memory::format_tag::ab
                                       : dims.size() == 3 ? dnnl::memory::format_tag::abc
                                                          : dnnl::memory::format_tag::abcd;
  const dnnl::memory::desc md(dims, DnnlType(spec.dtype), tag);
  try {
    dnnl::memory dy(md, c->engine, data.grad_output_data());
    dnnl::memory x(md, c->engine, data.self_data());
    dnnl::memory out(md, c->engine, data.out_data());
#if DNNL_VERSION_MAJOR >= 3
    if (IsDnnlLayerNorm(spec.op)) {
      MakeDnnlLayerNorm(data, md, c);
      return true;
    }
    if (IsDnnlBatchNorm(spec.op)) {
      MakeDnnlBatchNorm(data, md, c);
      return true;
    }
#endif
    if (IsDnnlSoftmax(spec.op)) {
      const int axis =
          static_cast<int>(spec.dim < 0 ? spec.dim + static_cast<int64_t>(dims.size()) : spec.dim);
      const bool backward = !GetOpInfo(spec.op).is_forward;
      c->impl = SoftmaxPrimitive(c->engine, md, axis,
                                 spec.op == Op::kLogSoftmax || spec.op == Op::kLogSoftmaxBackward,
                                 backward, &c->primitive);
      c->args = backward ? std::unordered_map<int, dnnl::memory>{{DNNL_ARG_DST, x},
                                                                 {DNNL_ARG_DIFF_DST, dy},
                                                                 {DNNL_ARG_DIFF_SRC, out}}
                         : std::unordered_map<int, dnnl::memory>{{DNNL_ARG_SRC, x},
                                                                 {DNNL_ARG_DST, out}};
      return true;
    }
    DnnlEltwise e;
    if (!DnnlEltwiseFor(spec, &e, why)) return false;
    if (e.kind == DnnlEltwise::kBackward) {
      const auto pd = EltwiseBackwardPd(c->engine, e.alg, md, e.alpha, e.beta);
      c->primitive = dnnl::eltwise_backward(pd);
      c->impl = pd.impl_info_str();
      // The *_use_dst_for_bwd algorithms read the forward's output (hostnn's second input
      // of SigmoidBackward and SeluBackward, and of LeakyReluBackward and EluBackward with
      // their result flag set), the others its input.
      const bool from_dst = e.alg == dnnl::algorithm::eltwise_logistic_use_dst_for_bwd ||
                            e.alg == dnnl::algorithm::eltwise_elu_use_dst_for_bwd ||
                            e.alg == dnnl::algorithm::eltwise_relu_use_dst_for_bwd;
      c->args = {{from_dst ? DNNL_ARG_DST : DNNL_ARG_SRC, x},
                 {DNNL_ARG_DIFF_DST, dy},
                 {DNNL_ARG_DIFF_SRC, out}};
    } else {
      const auto pd = EltwiseForwardPd(c->engine, dnnl::prop_kind::forward_inference, e.alg, md,
                                       e.alpha, e.beta);
      c->primitive = dnnl::eltwise_forward(pd);
      c->impl = pd.impl_info_str();
      c->args = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DST, e.kind == DnnlEltwise::kInplace ? x : out}};
    }
    return true;
  } catch (const dnnl::error& e) {
    *why = std::string("oneDNN: ") + e.what();
    return false;
  }
}

void BM_OneDnn(benchmark::State& state, CaseSpec spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  DnnlCase c;
  std::string why;
  if (!MakeDnnlCase(*data, &c, &why)) {
    state.SkipWithError(why.c_str());
    return;
  }
  c.primitive.execute(c.stream, c.args);
  c.stream.wait();
  for (auto _ : state) {
    c.primitive.execute(c.stream, c.args);
    c.stream.wait();
  }
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
  state.SetLabel(c.impl);
}

void BM_Hostnn(benchmark::State& state, CaseSpec spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  // Prepare keeps the workspace the C API call reuses, as a CANN client keeps its own.
  const Status s = data->Prepare();
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  int status = data->RunCApiCall();
  for (auto _ : state) status |= data->RunCApiCall();
  if (status != 0) state.SkipWithError("the C API call failed");
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
}

void BM_Roofline(benchmark::State& state, CaseSpec spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  data->Roofline(threads);
  for (auto _ : state) data->Roofline(threads);
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
}

std::string CaseName(const CaseSpec& spec) {
  std::string shape;
  for (size_t i = 0; i < spec.shape.size(); ++i)
    shape += (i ? "x" : "") + std::to_string(spec.shape[i]);
  std::string name =
      std::string(GetOpInfo(spec.op).snake_name) + "/" + ShortDTypeName(spec.dtype) + "/" + shape;
  if (GetOpInfo(spec.op).is_reduction && !IsNormOp(spec.op) && !IsChannelStatsOp(spec.op)) {
    name += "/dim" + std::to_string(spec.dim);
  }
  return name;
}

void RegisterAll() {
  std::vector<int> threads;
  const int max = std::max(1, omp_get_max_threads());
  for (int t = 1; t <= max; t = t < 4 ? t + 1 : 2 * t) threads.push_back(t);
  if (threads.back() != max) threads.push_back(max);
  // The norms run on the rows x length grid (bench::DefaultNormShapes), BatchNorm on the
  // channel grid (bench::DefaultChannelShapes), once each; the others at each size.
  struct Size {
    int64_t n = 0;
    NormShape cell;
    std::vector<int64_t> shape;
  };
  std::vector<Size> sizes;
  for (int64_t n : kSizes) sizes.push_back({n, {}, {}});
  for (const NormShape& cell : DefaultNormShapes()) sizes.push_back({0, cell, {}});
  for (const auto& shape : DefaultChannelShapes()) sizes.push_back({0, {}, shape});
  for (const Size& size : sizes) {
    for (Op op : DnnlOps()) {
      if (IsNormOp(op) != (size.cell.rows != 0)) continue;
      if (IsChannelStatsOp(op) != !size.shape.empty()) continue;
      for (DType dtype : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
        const std::vector<CaseSpec> specs =
            IsNormOp(op)           ? std::vector<CaseSpec>{NormCase(op, dtype, size.cell)}
            : IsChannelStatsOp(op) ? std::vector<CaseSpec>{CaseSpec{op, dtype, size.shape, -1, {}}}
                                   : StandardCases(op, dtype, size.n);
        for (const CaseSpec& spec : specs) {
          for (int t : threads) {
            const std::string suffix = CaseName(spec) + "/threads:" + std::to_string(t);
            benchmark::RegisterBenchmark(("onednn/" + suffix).c_str(), BM_OneDnn, spec, t)
                ->UseRealTime();
            benchmark::RegisterBenchmark(("hostnn/" + suffix).c_str(), BM_Hostnn, spec, t)
                ->UseRealTime();
            benchmark::RegisterBenchmark(("roofline/" + suffix).c_str(), BM_Roofline, spec, t)
                ->UseRealTime();
          }
        }
      }
    }
  }
}

}  // namespace
}  // namespace bench
}  // namespace hostnn

int main(int argc, char** argv) {
  if (!hostnn::bench::ForceBenchTarget("hostnn_bench_onednn")) return 2;
  hostnn::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
