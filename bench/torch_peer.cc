// hostnn against PyTorch's ATen on the same cases, in one process: each case's buffers are
// shared (ATen's tensors are views of hostnn's), and hostnn samples (both phases of a C API
// call: GetWorkspaceSize + the run on a null stream, as a CANN client pays) alternate with
// ATen samples (the out= overloads, as a PyTorch client writing a preallocated output
// pays), so a burst of load hits both. Prints medians and the ratio ATen / hostnn (> 1:
// hostnn is faster), and the plain-store roofline of the same buffers. Before timing a case
// it runs both once and warns (stderr) where their results differ beyond 16-bit rounding
// (a DOUBLE case: beyond 2^-40 relative).
// The operators with scalar parameters run with the list's defaults, or --param values, on
// both sides (the values as CANN reads an aclScalar, rounded to f32). This file is the check
// and the driver; ATen's call for each operator is in bench/torch_peer_calls.cc.
// Benchmark code only, built when HOSTNN_TORCH_DIR names an installed `torch` package
// (site-packages/torch of PyTorch 2.x from PyPI: libtorch_cpu.so, libc10.so, include/).
//   hostnn_torch_peer [--ops a,b] [--dtypes f32,f16,bf16,f64] [--sizes 4K,256K,4M,64M]
//                     [--norm-shapes 4096x64,...] [--channel-shapes 32x64x56x56,...]
//                     [--embedding-shapes 128256x4096x8192,...]
//                     [--class-shapes 64x32000,8x21x128x128,...]
//                     [--threads 1,2] [--samples 11]
//                     [--sample-ms 4] [--csv FILE]
//                     [--param name=value]...    (a scalar parameter, as hostnn-scale's)
//   hostnn_torch_peer --list-ops                 (the operator list, one name a line)
// The normalisation family runs on the --norm-shapes grid of rows x row length (default
// bench::DefaultNormShapes), BatchNorm and its gradient on the --channel-shapes grid of whole
// [N, C, ...] shapes (default bench::DefaultChannelShapes), Embedding and its gradient on the
// --embedding-shapes grid of weight rows x row length x indices (default
// bench::DefaultEmbeddingShapes), NLLLoss and its gradients on the --class-shapes grid of
// self's shapes ([N, C]; NLLLoss2d's [N, C, H, W]; default bench::DefaultClassShapes), the
// other operators at --sizes.
// HOSTNN_BENCH_TARGET=AVX2 forces hostnn's SIMD target (bench::ForceBenchTarget).

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <omp.h>
#include <torch/headeronly/version.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "bench/cases.h"
#include "bench/cli_util.h"
#include "bench/timing.h"
#include "bench/torch_peer_calls.h"
#include "hostnn/hostnn.h"
#include "kernels/kernels.h"

namespace hostnn {
namespace bench {
namespace {

// Runs hostnn (one C API call) and ATen once each on the case's buffers, outside the
// timing, and compares what they wrote over the first 1M elements: a warning on stderr names
// the case where a result differs by more than 2^-6 relative (a few 16-bit roundings, as
// ATen's compositions round each step) plus 1e-5, or is NaN on one side only. A DOUBLE case
// is held to 2^-40 relative plus 2^-50 absolute instead (both compute in double, within a
// few ULP of the exact value: 2^-6 would pass a result computed in f32). An in-place
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
  const bool f64 = data.spec().dtype == DType::kFloat64;
  const double rel_tol = f64 ? std::ldexp(1.0, -40) : 1.0 / 64;
  const double abs_tol = f64 ? std::ldexp(1.0, -50) : 1e-5;
  const at::Tensor tol = at::maximum(aten.abs(), hn.abs()) * rel_tol + abs_tol;
  const at::Tensor bad = aten.ne(hn)
                             .logical_and((aten - hn).abs().le(tol).logical_not())
                             .logical_and(aten.isnan().logical_and(hn.isnan()).logical_not());
  const int64_t n_bad = bad.sum().item<int64_t>();
  if (n_bad > 0) {
    const int64_t i = bad.to(at::kInt).argmax().item<int64_t>();  // the first
    const int digits = f64 ? 17 : 9;
    std::fprintf(stderr,
                 "hostnn_torch_peer: warning: %s: ATen and hostnn differ beyond %s "
                 "at %lld of %lld elements; the first at %lld: x %.*g, hostnn %.*g, ATen %.*g\n",
                 label.c_str(), f64 ? "2^-40 relative" : "16-bit rounding",
                 static_cast<long long>(n_bad), static_cast<long long>(m),
                 static_cast<long long>(i), digits, x0[i].item<double>(), digits,
                 hn[i].item<double>(), digits, aten[i].item<double>());
  }
  return n_bad;
}

int Main(int argc, char** argv) {
  std::vector<std::string> ops;  // default: every operator of the operator list
  for (const Op op : AllOps()) ops.push_back(GetOpInfo(op).snake_name);
  std::vector<std::string> dtypes = {"f32", "f16", "bf16"};
  std::vector<std::string> sizes = {"4K", "256K", "4M", "64M"};
  std::vector<std::string> threads = {"1", "2"};
  std::vector<NormShape> norm_shapes = DefaultNormShapes();  // the norms' grid (cases.h)
  std::vector<std::vector<int64_t>> channel_shapes = DefaultChannelShapes();  // BatchNorm's
  std::vector<EmbeddingShape> embedding_shapes = DefaultEmbeddingShapes();
  std::vector<std::vector<int64_t>> class_shapes = DefaultClassShapes();  // NLLLoss's
  std::vector<std::pair<std::string, double>> params;                     // --param name=value
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
    else if (k == "--norm-shapes") {
      if (!ParseNormShapes(v, &norm_shapes)) {
        std::fprintf(stderr, "hostnn_torch_peer: bad --norm-shapes '%s' (rows x length)\n",
                     v.c_str());
        return 2;
      }
    } else if (k == "--embedding-shapes") {
      if (!ParseEmbeddingShapes(v, &embedding_shapes)) {
        std::fprintf(stderr,
                     "hostnn_torch_peer: bad --embedding-shapes '%s' (rows x d x indices)\n",
                     v.c_str());
        return 2;
      }
    } else if (k == "--channel-shapes") {
      if (!ParseChannelShapes(v, &channel_shapes)) {
        std::fprintf(stderr, "hostnn_torch_peer: bad --channel-shapes '%s' (NxCx...)\n", v.c_str());
        return 2;
      }
    } else if (k == "--class-shapes") {
      if (!ParseChannelShapes(v, &class_shapes)) {
        std::fprintf(stderr, "hostnn_torch_peer: bad --class-shapes '%s' (NxC or NxCxHxW)\n",
                     v.c_str());
        return 2;
      }
    } else if (k == "--threads")
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
  if (!ForceBenchTarget("hostnn_torch_peer")) return 2;
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
    std::vector<bool> given;
    for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
      scalars.push_back(GetOpInfo(op).scalars[k].default_value);
      given.push_back(false);
      for (const auto& p : params) {
        if (p.first == GetOpInfo(op).scalars[k].name)
          scalars.back() = p.second, given.back() = true;
      }
    }
    for (const std::string& dt : dtypes) {
      DType dtype;
      if (!ParseShortDType(dt, &dtype)) {
        std::fprintf(stderr, "hostnn_torch_peer: unknown dtype %s\n", dt.c_str());
        return 2;
      }
      if (!BenchTakes(op, dtype)) continue;
      // The operator's cases: a norm's on the rows x length grid, BatchNorm's on the channel
      // grid, the others' at each size.
      std::vector<CaseSpec> specs;
      if (IsNormOp(op)) {
        for (const NormShape& cell : norm_shapes) specs.push_back(NormCase(op, dtype, cell));
      }
      if (IsChannelStatsOp(op)) {
        for (const auto& shape : channel_shapes)
          specs.push_back(CaseSpec{op, dtype, shape, -1, {}});
      }
      if (IsIndexOp(op)) {
        for (const EmbeddingShape& e : embedding_shapes)
          specs.push_back(EmbeddingCase(op, dtype, e));
      }
      if (IsClassLossOp(op)) {  // NLLLoss's [N, C], NLLLoss2d's [N, C, H, W]
        const size_t rank = GetOpInfo(op).shapes == ShapeRule::kClassTarget2d ? 4 : 2;
        for (const auto& shape : class_shapes) {
          if (shape.size() == rank) specs.push_back(CaseSpec{op, dtype, shape, -1, {}});
        }
      }
      const bool gridded =
          IsNormOp(op) || IsChannelStatsOp(op) || IsIndexOp(op) || IsClassLossOp(op);
      for (const std::string& size : gridded ? std::vector<std::string>{} : sizes) {
        int64_t n = 0;
        if (!ParseCount(size, &n)) {
          std::fprintf(stderr, "hostnn_torch_peer: bad size %s\n", size.c_str());
          return 2;
        }
        for (const CaseSpec& spec : StandardCases(op, dtype, n)) specs.push_back(spec);
      }
      for (CaseSpec spec : specs) {
        // The --param values and the defaults, where the case has no value of its own
        // (GroupNorm's N, C, HxW and group come from its shape).
        for (size_t k = 0; k < scalars.size(); ++k) {
          if (k >= spec.scalars.size()) {
            spec.scalars.push_back(scalars[k]);
          } else if (given[k]) {
            spec.scalars[k] = scalars[k];
          }
        }
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
