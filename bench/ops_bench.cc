// Google Benchmark suites for hostnn: every operator x dtype x size x thread count, the
// roofline kernel over the same buffers (reads two arrays, writes one, plain stores), and
// phase 1 alone and both phases of one call on small tensors, and the gathered operand
// layouts (layout/...). Counters: bytes/s, elements/s, time per element.
//   hostnn_bench --benchmark_filter='silu_backward/f32/.*' --benchmark_min_time=0.5
// Thread counts go through omp_set_num_threads; Prepare hands that team to the host profile.
// HOSTNN_BENCH_TARGET=AVX2 (a compiled Highway target's name: AVX3, AVX2, SSE4, EMU128)
// dispatches to that target alone, to time a narrower machine's code on this one.

#include <benchmark/benchmark.h>
#include <omp.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "aclnnop/aclnn_silu_backward.h"
#include "bench/cases.h"
#include "bench/gbench_util.h"
#include "hostnn/hostnn.h"

namespace hostnn {
namespace bench {
namespace {

constexpr int64_t kCallSizes[] = {1024, 4096, 16384};

// The shared case of `spec`, prepared for `threads` OpenMP threads (its executor and
// workspace kept); null after skipping the benchmark with the error when Prepare fails.
CaseData* PreparedCase(benchmark::State& state, const CaseSpec& spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  const Status s = data->Prepare();
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return nullptr;
  }
  return data;
}

void BM_Op(benchmark::State& state, CaseSpec spec, int threads) {
  CaseData* data = PreparedCase(state, spec, threads);
  if (data == nullptr) return;
  data->Run();  // warm the pages, the caches and the OpenMP team
  for (auto _ : state) data->Run();
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
  state.counters["threads"] = threads;
}

void BM_Roofline(benchmark::State& state, CaseSpec spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  data->Roofline(threads);
  for (auto _ : state) data->Roofline(threads);
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
  state.counters["threads"] = threads;
}

// Both phases of one call through the CANN C API, tensors made once: what a CANN client
// pays per call on small tensors.
void BM_Call(benchmark::State& state, CaseSpec spec, int threads) {
  CaseData* data = PreparedCase(state, spec, threads);  // its workspace serves the calls
  if (data == nullptr) return;
  int status = data->RunCApiCall();
  for (auto _ : state) status |= data->RunCApiCall();
  if (status != 0) state.SkipWithError("the C API call failed");
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
}

// Phase 1 alone: checks, plan (from the plan cache after the first call) and executor.
void BM_Prepare(benchmark::State& state, CaseSpec spec, int threads) {
  CaseData* data = PreparedCase(state, spec, threads);
  if (data == nullptr) return;
  int status = data->RunCApiPrepare();
  for (auto _ : state) status |= data->RunCApiPrepare();
  if (status != 0) state.SkipWithError("the C API's phase 1 failed");
  state.counters["elements"] = static_cast<double>(spec.Elements());
}

// The same through the native API's one-shot Run (which allocates a workspace when one
// is needed, as a caller without a workspace pool would).
void BM_Run(benchmark::State& state, CaseSpec spec, int threads) {
  omp_set_num_threads(threads);
  CaseData* data = SharedCase(spec);
  const OpArgs args = data->Args();
  Status s = hostnn::Run(args);
  for (auto _ : state) s = hostnn::Run(args);
  if (!s.ok()) state.SkipWithError(s.message().c_str());
  SetCounters(state, static_cast<double>(spec.Elements()), data->Bytes());
}

// Operand layouts the executors gather (see src/exec/gather.h), on SiluBackward at
// [2048, 2048]: gradOutput transposed (strides {1, 2048}), self broadcast from [1, 2048],
// or bfloat16 inputs with a float gradInput (mixed). "dense" is the direct path beside them.
// Phase 1 through the C API when phase 1's memo cannot help: the output tensor's data
// moves among 16 places (more than the memo keeps), as when every call gets fresh tensors.
// Checks, resolve and executor every time; the plan from the plan cache.
void BM_PrepareFresh(benchmark::State& state, CaseSpec spec, int threads) {
  CaseData* data = PreparedCase(state, spec, threads);
  if (data == nullptr) return;
  const aclDataType dtype = static_cast<aclDataType>(spec.dtype);
  const int64_t n = spec.Elements();
  const size_t esize = DTypeSize(spec.dtype);
  std::vector<aclTensor*> outs;
  for (int k = 0; k < 16; ++k) {  // never run: only phase 1 sees these
    outs.push_back(aclCreateTensor(&n, 1, dtype, nullptr, 0, ACL_FORMAT_ND, &n, 1,
                                   static_cast<char*>(data->out_data()) + k * 64 * esize));
  }
  aclTensor* dy =
      aclCreateTensor(&n, 1, dtype, nullptr, 0, ACL_FORMAT_ND, &n, 1, data->grad_output_data());
  aclTensor* x = aclCreateTensor(&n, 1, dtype, nullptr, 0, ACL_FORMAT_ND, &n, 1, data->self_data());
  int status = 0;
  size_t k = 0;
  for (auto _ : state) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    status |= aclnnSiluBackwardGetWorkspaceSize(dy, x, outs[k++ % outs.size()], &ws, &exec);
    status |= aclDestroyAclOpExecutor(exec);
  }
  if (status != 0) state.SkipWithError("the C API's phase 1 failed");
  for (aclTensor* t : outs) aclDestroyTensor(t);
  aclDestroyTensor(dy);
  aclDestroyTensor(x);
}

enum class Layout { kDense, kTransposed, kBroadcast, kMixed };
const char* LayoutName(Layout l) {
  switch (l) {
    case Layout::kDense:
      return "dense";
    case Layout::kTransposed:
      return "transposed";
    case Layout::kBroadcast:
      return "broadcast";
    case Layout::kMixed:
      return "mixed";
  }
  return "?";
}

void BM_Layout(benchmark::State& state, Layout layout, int threads) {
  omp_set_num_threads(threads);
  const int64_t side = 2048, n = side * side;
  const DType in = layout == Layout::kMixed ? DType::kBFloat16 : DType::kFloat32;
  std::vector<float> dy(n), x(n), out(n);  // room for either input dtype
  for (int64_t i = 0; i < n; ++i) {
    const float vdy = 0.001f * static_cast<float>(i % 1000) - 0.5f;
    const float vx = 0.01f * static_cast<float>(i % 2000) - 10.0f;
    if (in == DType::kFloat32) {
      dy[i] = vdy;
      x[i] = vx;
    } else {  // bfloat16: the high half of the float (truncated; any value in range will do)
      uint32_t bits;
      std::memcpy(&bits, &vdy, 4);
      reinterpret_cast<uint16_t*>(dy.data())[i] = static_cast<uint16_t>(bits >> 16);
      std::memcpy(&bits, &vx, 4);
      reinterpret_cast<uint16_t*>(x.data())[i] = static_cast<uint16_t>(bits >> 16);
    }
  }
  TensorView vdy = TensorView::Dense(dy.data(), in, {side, side});
  TensorView vx = TensorView::Dense(x.data(), in, {side, side});
  const TensorView vout = TensorView::Dense(out.data(), DType::kFloat32, {side, side});
  if (layout == Layout::kTransposed) vdy.strides = {1, side};
  if (layout == Layout::kBroadcast) vx.shape = {1, side};
  OpArgs args;
  args.op = Op::kSiluBackward;
  args.in[0] = &vdy;
  args.in[1] = &vx;
  args.out[0] = &vout;
  uint64_t ws = 0;
  ExecutorPtr exec;
  Status s = Prepare(args, {}, &ws, &exec);
  std::vector<char> workspace(ws + 64);
  if (s.ok()) s = Execute(*exec, workspace.data(), ws);
  if (!s.ok()) {
    state.SkipWithError(s.message().c_str());
    return;
  }
  for (auto _ : state) (void)Execute(*exec, workspace.data(), ws);
  const double in_bytes = static_cast<double>(DTypeSize(in));
  SetCounters(state, static_cast<double>(n), static_cast<double>(n) * (2 * in_bytes + 4));
}

std::vector<int> ThreadCounts() {
  std::vector<int> counts;
  const int max = std::max(1, omp_get_max_threads());
  for (int t = 1; t <= max; t = t < 4 ? t + 1 : 2 * t) counts.push_back(t);
  if (counts.back() != max) counts.push_back(max);
  return counts;
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
  const std::vector<int> threads = ThreadCounts();
  const DType dtypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  for (int64_t n : kSizes) {
    // The roofline first at each size, per storage width, so it sits next to the cases
    // it is the reference for.
    for (DType dtype : {DType::kFloat32, DType::kBFloat16}) {
      const CaseSpec spec{Op::kHardsigmoidBackward, dtype, {n}, -1, {}};
      for (int t : threads) {
        const std::string name = std::string("roofline/") +
                                 (dtype == DType::kFloat32 ? "32bit" : "16bit") + "/" +
                                 std::to_string(n) + "/threads:" + std::to_string(t);
        benchmark::RegisterBenchmark(name.c_str(), BM_Roofline, spec, t)->UseRealTime();
      }
    }
    for (const Op op : AllOps()) {
      for (DType dtype : dtypes) {
        if (!BenchTakes(op, dtype)) continue;
        for (const CaseSpec& spec : StandardCases(op, dtype, n)) {
          for (int t : threads) {
            const std::string name = CaseName(spec) + "/threads:" + std::to_string(t);
            benchmark::RegisterBenchmark(name.c_str(), BM_Op, spec, t)->UseRealTime();
          }
        }
      }
    }
  }
  for (Layout l : {Layout::kDense, Layout::kTransposed, Layout::kBroadcast, Layout::kMixed}) {
    for (int t : threads) {
      benchmark::RegisterBenchmark(("layout/silu_backward/2048x2048/" + std::string(LayoutName(l)) +
                                    "/threads:" + std::to_string(t))
                                       .c_str(),
                                   BM_Layout, l, t)
          ->UseRealTime();
    }
  }
  for (int64_t n : kCallSizes) {
    for (const Op op : AllOps()) {
      for (DType dtype : dtypes) {
        if (!BenchTakes(op, dtype)) continue;
        const CaseSpec spec = StandardCases(op, dtype, n).front();
        const int t = threads.back();
        benchmark::RegisterBenchmark(
            ("call/" + CaseName(spec) + "/threads:" + std::to_string(t)).c_str(), BM_Call, spec, t)
            ->UseRealTime();
        benchmark::RegisterBenchmark(
            ("prepare/" + CaseName(spec) + "/threads:" + std::to_string(t)).c_str(), BM_Prepare,
            spec, t)
            ->UseRealTime();
        benchmark::RegisterBenchmark(
            ("run/" + CaseName(spec) + "/threads:" + std::to_string(t)).c_str(), BM_Run, spec, t)
            ->UseRealTime();
        if (spec.op == Op::kSiluBackward) {
          benchmark::RegisterBenchmark(
              ("prepare_fresh/" + CaseName(spec) + "/threads:" + std::to_string(t)).c_str(),
              BM_PrepareFresh, spec, t)
              ->UseRealTime();
        }
      }
    }
  }
}

}  // namespace
}  // namespace bench
}  // namespace hostnn

int main(int argc, char** argv) {
  if (!hostnn::bench::ForceBenchTarget("hostnn_bench")) return 2;
  hostnn::bench::RegisterAll();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
