// The peer comparison: oneDNN's eltwise swish and logsigmoid backward and logsoftmax
// backward on the cases hostnn_bench times, over the same buffers, beside hostnn and the
// roofline so that one run gives all three. oneDNN has no hardsigmoid in 2.6, and no f16
// or (without AVX-512) fast bf16 eltwise on most hosts: cases it cannot create are skipped
// with its message. Built only when libdnnl-dev is found; the library never links it.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/cases.h"
#include "bench/gbench_util.h"
#include "hostnn/hostnn.h"
#include "oneapi/dnnl/dnnl.hpp"

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
};

// Builds the primitive; false (with the reason) when oneDNN cannot.
bool MakeDnnlCase(const CaseData& data, DnnlCase* c, std::string* why) {
  const CaseSpec& spec = data.spec();
  const dnnl::memory::dims dims(spec.shape.begin(), spec.shape.end());
  const dnnl::memory::format_tag tag =
      dims.size() == 1 ? dnnl::memory::format_tag::a : dnnl::memory::format_tag::ab;
  const dnnl::memory::desc md(dims, DnnlType(spec.dtype), tag);
  using dnnl::algorithm;
  try {
    dnnl::memory dy(md, c->engine, data.grad_output_data());
    dnnl::memory x(md, c->engine, data.self_data());
    dnnl::memory dx(md, c->engine, data.out_data());
    if (spec.op == Op::kLogSoftmaxBackward) {
      const int axis =
          static_cast<int>(spec.dim < 0 ? spec.dim + static_cast<int64_t>(dims.size()) : spec.dim);
      const dnnl::logsoftmax_forward::primitive_desc fwd(
          dnnl::logsoftmax_forward::desc(dnnl::prop_kind::forward_training, md, axis), c->engine);
      const dnnl::logsoftmax_backward::primitive_desc pd(
          dnnl::logsoftmax_backward::desc(md, md, axis), c->engine, fwd);
      c->primitive = dnnl::logsoftmax_backward(pd);
      c->impl = pd.impl_info_str();
      c->args = {{DNNL_ARG_DST, x}, {DNNL_ARG_DIFF_DST, dy}, {DNNL_ARG_DIFF_SRC, dx}};
      return true;
    }
    algorithm alg;
    if (spec.op == Op::kSiluBackward) {
      alg = algorithm::eltwise_swish;  // x * sigmoid(alpha * x), alpha = 1: SiLU
    } else if (spec.op == Op::kLogSigmoidBackward) {
      alg = algorithm::eltwise_logsigmoid;
    } else {
      *why = "oneDNN 2.6 has no hardsigmoid";
      return false;
    }
    const dnnl::eltwise_forward::primitive_desc fwd(
        dnnl::eltwise_forward::desc(dnnl::prop_kind::forward_training, alg, md, 1.0f, 0.0f),
        c->engine);
    const dnnl::eltwise_backward::primitive_desc pd(
        dnnl::eltwise_backward::desc(alg, md, md, 1.0f, 0.0f), c->engine, fwd);
    c->primitive = dnnl::eltwise_backward(pd);
    c->impl = pd.impl_info_str();
    c->args = {{DNNL_ARG_SRC, x}, {DNNL_ARG_DIFF_DST, dy}, {DNNL_ARG_DIFF_SRC, dx}};
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
  const Status s = data->Prepare();
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  data->Run();
  for (auto _ : state) data->Run();
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
  if (GetOpInfo(spec.op).is_reduction) name += "/dim" + std::to_string(spec.dim);
  return name;
}

void RegisterAll() {
  std::vector<int> threads;
  const int max = std::max(1, omp_get_max_threads());
  for (int t = 1; t <= max; t = t < 4 ? t + 1 : 2 * t) threads.push_back(t);
  if (threads.back() != max) threads.push_back(max);
  for (int64_t n : kSizes) {
    for (Op op : {Op::kSiluBackward, Op::kLogSigmoidBackward, Op::kLogSoftmaxBackward}) {
      for (DType dtype : {DType::kFloat32, DType::kBFloat16, DType::kFloat16}) {
        for (const CaseSpec& spec : StandardCases(op, dtype, n)) {
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
  hostnn::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
