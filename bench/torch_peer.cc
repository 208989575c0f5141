// hostnn against PyTorch's ATen on the same cases, in one process: each case's buffers are
// shared (ATen's tensors are views of hostnn's), and hostnn samples (both phases of a C API
// call: GetWorkspaceSize + the run on a null stream, as a CANN client pays) alternate with
// ATen samples (the out= overloads, as a PyTorch client writing a preallocated output
// pays), so a burst of load hits both. Prints medians and the ratio ATen / hostnn (> 1:
// hostnn is faster), and the plain-store roofline of the same buffers.
// Benchmark code only, built when HOSTNN_TORCH_DIR names an installed `torch` package
// (site-packages/torch of PyTorch 2.x from PyPI: libtorch_cpu.so, libc10.so, include/).
//   hostnn_torch_peer [--ops a,b] [--dtypes f32,f16,bf16,f64] [--sizes 4K,256K,4M,64M]
//                     [--threads 1,2] [--samples 11] [--sample-ms 4] [--csv FILE]

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <omp.h>
#include <torch/headeronly/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
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

// ATen's call for one case over the case's buffers.
struct TorchCase {
  at::Tensor dy, x, out, buffer;
  Op op;
  int64_t dim;
  void Run() {
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
    }
  }
};

TorchCase MakeTorchCase(const CaseData& data) {
  const CaseSpec& s = data.spec();
  const auto opts = at::TensorOptions().dtype(TorchType(s.dtype));
  TorchCase t;
  t.op = s.op;
  t.dim = s.dim;
  t.dy = at::from_blob(data.grad_output_data(), s.shape, opts);
  t.x = at::from_blob(data.self_data(), s.shape, opts);
  t.out = at::from_blob(data.out_data(), s.shape, opts);
  // LogSigmoid's backward in ATen reads the forward's buffer; made once, outside the timing.
  if (s.op == Op::kLogSigmoidBackward) t.buffer = std::get<1>(at::log_sigmoid_forward(t.x));
  if (s.op == Op::kLogSigmoid || s.op == Op::kLogSigmoidForward) t.buffer = at::empty_like(t.x);
  return t;
}

int Main(int argc, char** argv) {
  std::vector<std::string> ops;  // default: every operator of the operator list
  for (const Op op : AllOps()) ops.push_back(GetOpInfo(op).snake_name);
  std::vector<std::string> dtypes = {"f32", "f16", "bf16"};
  std::vector<std::string> sizes = {"4K", "256K", "4M", "64M"};
  std::vector<std::string> threads = {"1", "2"};
  int samples = 11;
  double sample_ms = 4;
  const char* csv_path = nullptr;
  // Every flag takes one value, as --flag value or --flag=value (as the tools take them).
  for (int i = 1; i < argc; ++i) {
    std::string k = argv[i], v;
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
    else {
      std::fprintf(stderr, "hostnn_torch_peer: unknown option %s\n", k.c_str());
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
  std::printf("%-21s %-5s %-20s %3s %12s %12s %12s %8s  %s\n", "op", "dtype", "shape", "thr",
              "hostnn", "aten", "roofline", "aten/hn", "hostnn kernel path");
  for (const std::string& op_name : ops) {
    Op op;
    if (!FindOp(op_name, &op)) {
      std::fprintf(stderr, "hostnn_torch_peer: unknown op %s\n", op_name.c_str());
      return 2;
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
        for (const CaseSpec& spec : StandardCases(op, dtype, n)) {
          auto data = std::make_unique<CaseData>(spec);
          TorchCase tc = MakeTorchCase(*data);
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
  }
  if (csv) std::fclose(csv);
  return 0;
}

}  // namespace
}  // namespace bench
}  // namespace hostnn

HOSTNN_GUARDED_MAIN("hostnn_torch_peer", hostnn::bench::Main)
