// hostnn-tiling tune: builds candidate options around the default plan (core counts, UB
// sizes, buffer counts), drops candidates that would run alike, times the rest (median of
// interleaved passes), re-measures the best few beside the default, and writes the winner
// to a tuning file. The default keeps ties, so the winner is never slower.

#include "tools/tiling/tune.h"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "hostnn/ops.h"
#include "kernels/kernels.h"

namespace hostnn {
namespace tiling_tool {
namespace {

struct Candidate {
  tiling::Options options;
  bool is_default = false;
  tiling::Plan plan;
  double round1_us = 0;
  double final_us = -1;  // re-measured (finalists only)
};

struct FreeDeleter {
  void operator()(void* p) const { std::free(p); }
};
using Buffer = std::unique_ptr<void, FreeDeleter>;

Buffer Allocate(size_t bytes) {
  return Buffer(std::aligned_alloc(64, std::max<size_t>(64, (bytes + 63) / 64 * 64)));
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string Fixed(double v, int digits) {
  std::ostringstream o;
  o.precision(digits);
  o << std::fixed << v;
  return o.str();
}

std::string PlanSummary(const tiling::Plan& plan) {
  if (plan.kind == tiling::Plan::Kind::kElementwise) {
    const tiling::ElementwisePlan& p = plan.elementwise;
    return "block_dim " + std::to_string(p.block_dim) + ", tile " + std::to_string(p.tile_len) +
           " x" + std::to_string(p.buffer_num);
  }
  const tiling::ReductionPlan& p = plan.reduction;
  return std::string(tiling::TemplateName(p.tmpl)) + ", block_dim " + std::to_string(p.block_dim) +
         ", unit " + std::to_string(p.a1_tile) + " x " + std::to_string(p.r_chunk) + "/" +
         std::to_string(p.r) + " x " + std::to_string(p.a0_tile);
}

// What the executor does with a plan: two candidates with equal keys run alike (the UB
// budget and the knobs behind a plan do not reach the host's executors).
std::string RunKey(const tiling::Plan& plan) {
  std::ostringstream key;
  if (plan.kind == tiling::Plan::Kind::kElementwise) {
    const tiling::ElementwisePlan& p = plan.elementwise;
    key << p.block_dim << " " << p.blocks_per_core << " " << p.big_cores << " " << p.tile_len;
  } else {
    const tiling::ReductionPlan& p = plan.reduction;
    key << p.block_dim << " " << p.units_per_core << " " << p.a1_tile << " " << p.a0_tile << " "
        << p.r_chunk;
  }
  return key.str();
}

// One timed problem: the operands, and a prepared executor per candidate.
class Bench {
 public:
  Status Init(const tiling::Problem& problem) {
    if (!FindOp(problem.op, &op_)) return Status::Invalid("op '" + problem.op + "' is unknown");
    std::string dtype;
    int64_t bytes = 0;
    tiling::NormalizeDtype(problem.dtype, &dtype, &bytes);
    if (dtype == "f32") {
      dtype_ = DType::kFloat32;
    } else if (dtype == "f16") {
      dtype_ = DType::kFloat16;
    } else if (dtype == "bf16") {
      dtype_ = DType::kBFloat16;
    } else {
      return Status::Invalid("tune runs f32, f16 or bf16 operands, not " + problem.dtype);
    }
    n_ = tiling::NumElements(problem.shape);
    bytes_per_tensor_ = static_cast<size_t>(n_) * static_cast<size_t>(bytes);
    std::mt19937_64 rng(42);
    std::vector<float> host(static_cast<size_t>(n_));
    const bool reduction = GetOpInfo(op_).is_reduction;
    for (int k = 0; k < 2; ++k) {
      // dy in [-1, 1]; x in [-4, 4]; the LogSoftmax output y in [-10, 0].
      std::uniform_real_distribution<float> u(k == 0      ? -1.f
                                              : reduction ? -10.f
                                                          : -4.f,
                                              k == 0      ? 1.f
                                              : reduction ? 0.f
                                                          : 4.f);
      for (float& v : host) v = u(rng);
      data_[k] = Allocate(bytes_per_tensor_);
      kernels::GetFromF32(dtype_)(host.data(), data_[k].get(), static_cast<size_t>(n_));
    }
    data_[2] = Allocate(bytes_per_tensor_);
    for (int k = 0; k < 3; ++k)
      views_[k] = TensorView::Dense(data_[k].get(), dtype_, problem.shape);
    args_.op = op_;
    args_.grad_output = &views_[0];
    args_.self = &views_[1];
    args_.buffer = &views_[1];
    args_.out = &views_[2];
    args_.dim = problem.dim;
    return Status::Ok();
  }

  size_t bytes_moved() const { return 3 * bytes_per_tensor_; }

  Status Prepare(const tiling::Options& options, ExecutorPtr* exec, Buffer* workspace,
                 uint64_t* ws) {
    HOSTNN_RETURN_IF_ERROR(hostnn::Prepare(args_, options, ws, exec));
    *workspace = Allocate(static_cast<size_t>(*ws));
    return Status::Ok();
  }

  static double TimeOnce(const Executor& exec, void* workspace, uint64_t ws) {
    const auto t0 = std::chrono::steady_clock::now();
    Execute(exec, workspace, ws);
    const auto t1 = std::chrono::steady_clock::now();
    return std::chrono::duration<double, std::micro>(t1 - t0).count();
  }

 private:
  Op op_ = Op::kSiluBackward;
  DType dtype_ = DType::kFloat32;
  int64_t n_ = 0;
  size_t bytes_per_tensor_ = 0;
  Buffer data_[3];
  TensorView views_[3];
  OpArgs args_;
};

class Progress {
 public:
  explicit Progress(int total) : total_(total), tty_(isatty(STDERR_FILENO) != 0) {}
  void Line(const std::string& text) {
    ++done_;
    const std::string line =
        "tune: [" + std::to_string(done_) + "/" + std::to_string(total_) + "] " + text;
    if (tty_) {
      std::fprintf(stderr, "\r%-100.100s", line.c_str());
      if (done_ == total_) std::fprintf(stderr, "\n");
    } else {
      std::fprintf(stderr, "%s\n", line.c_str());
    }
    std::fflush(stderr);
  }

 private:
  int total_, done_ = 0;
  bool tty_;
};

std::string OptionsText(const tiling::Options& o) {
  return "num_cores " + std::to_string(o.num_cores) + ", ub_bytes " + std::to_string(o.ub_bytes) +
         ", min_elems_per_core " + std::to_string(o.min_elems_per_core) +
         (o.buffer_num ? ", buffer_num " + std::to_string(o.buffer_num) : "");
}

Status WriteWinner(const std::string& path, const tiling::TuningEntry& winner) {
  std::vector<tiling::TuningEntry> entries;
  std::ifstream probe(path);
  if (probe.good()) HOSTNN_RETURN_IF_ERROR(tiling::ReadTuningFile(path, &entries));
  std::vector<tiling::TuningEntry> kept;
  for (const tiling::TuningEntry& e : entries) {
    const bool same = e.op == winner.op && e.dtype == winner.dtype &&
                      e.size_class == winner.size_class && e.platform == winner.platform;
    if (!same) kept.push_back(e);
  }
  kept.push_back(winner);
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::trunc);
    out << tiling::TuningFileJson(kept);
    if (!out) return Status::Invalid(tmp + ": cannot be written");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    return Status::Invalid(path + ": cannot be replaced");
  }
  return Status::Ok();
}

}  // namespace

int Tune(const TuneRequest& request) {
  const tiling::Problem& problem = request.problem;
  tiling::Resolved def;
  tiling::Plan default_plan;
  Status s = tiling::Resolve(request.base, problem, &def);
  if (s.ok()) s = tiling::MakePlan(problem, request.base, &default_plan);
  Bench bench;
  if (s.ok()) s = bench.Init(problem);
  if (!s.ok()) {
    std::fprintf(stderr, "hostnn-tiling tune: %s\n", s.message().c_str());
    return 1;
  }
  const bool reduction = default_plan.kind == tiling::Plan::Kind::kReduction;
  const int64_t numel = tiling::NumElements(problem.shape);

  // Candidates: the default first (it keeps ties), then a grid around it.
  std::vector<Candidate> candidates;
  std::vector<std::string> keys;
  auto add = [&](const tiling::Options& options, bool is_default) {
    Candidate c;
    c.options = options;
    c.is_default = is_default;
    if (!tiling::MakePlan(problem, options, &c.plan).ok()) return;
    const std::string key = RunKey(c.plan);
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) return;
    keys.push_back(key);
    candidates.push_back(c);
  };
  add(request.base, true);
  std::vector<int64_t> cores;
  for (int64_t c = 1; c < def.platform.cores; c *= 2) cores.push_back(c);
  cores.push_back(def.platform.cores);
  std::vector<int64_t> ubs;
  const int64_t min_ub = tiling::MinUbBytes(def.platform.block_bytes);
  for (const int64_t scaled :
       {def.platform.ub_bytes / 4, def.platform.ub_bytes / 2, def.platform.ub_bytes,
        def.platform.ub_bytes * 2, def.platform.ub_bytes * 4}) {
    if (scaled >= min_ub && scaled <= tiling::kMaxUbBytes) ubs.push_back(scaled);
  }
  std::vector<int64_t> min_elems = {def.min_elems_per_core};
  if (numel <= (int64_t{1} << 20)) {
    for (const int64_t m : {int64_t{1024}, int64_t{65536}}) {
      if (m != def.min_elems_per_core) min_elems.push_back(m);
    }
  }
  const std::vector<int> buffers = reduction ? std::vector<int>{0} : std::vector<int>{1, 2};
  for (const int64_t c : cores) {
    for (const int64_t ub : ubs) {
      for (const int64_t m : min_elems) {
        for (const int b : buffers) {
          tiling::Options o = request.base;
          o.num_cores = c;
          o.ub_bytes = ub;
          o.min_elems_per_core = m;
          o.buffer_num = b;
          add(o, false);
        }
      }
    }
  }

  std::printf(
      "tune %s %s, %lld elements (size class %d) on %s: %lld cores, %zu candidates, "
      "median of %d runs\n",
      problem.op.c_str(), default_plan.dtype.c_str(), static_cast<long long>(numel),
      tiling::SizeClass(numel), def.platform.name.c_str(),
      static_cast<long long>(def.platform.cores), candidates.size(), request.repeats);
  std::fflush(stdout);

  // Round 1: every candidate, in interleaved passes so that load bursts on the machine hit
  // all candidates alike; each candidate's time is the median of its passes.
  struct Prepared {
    ExecutorPtr exec;
    Buffer workspace;
    uint64_t ws = 0;
  };
  std::vector<Prepared> prepared(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    Prepared& p = prepared[i];
    s = bench.Prepare(candidates[i].options, &p.exec, &p.workspace, &p.ws);
    if (!s.ok()) {
      std::fprintf(stderr, "hostnn-tiling tune: %s\n", s.message().c_str());
      return 1;
    }
    for (int w = 0; w < 2; ++w) Bench::TimeOnce(*p.exec, p.workspace.get(), p.ws);  // warm up
  }
  std::vector<std::vector<double>> times(candidates.size());
  Progress progress(request.repeats);
  for (int r = 0; r < request.repeats; ++r) {
    for (size_t i = 0; i < candidates.size(); ++i) {
      const Prepared& p = prepared[i];
      times[i].push_back(Bench::TimeOnce(*p.exec, p.workspace.get(), p.ws));
    }
    size_t best = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      candidates[i].round1_us = Median(times[i]);
      if (candidates[i].round1_us < candidates[best].round1_us) best = i;
    }
    progress.Line("pass over " + std::to_string(candidates.size()) + " candidates; best " +
                  (best == 0 ? std::string("default") : OptionsText(candidates[best].options)) +
                  ": " + Fixed(candidates[best].round1_us, 1) + " us, default " +
                  Fixed(candidates[0].round1_us, 1) + " us");
  }

  // Round 2: the best few and the default, interleaved, so that drift hits all alike.
  std::vector<size_t> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return candidates[a].round1_us < candidates[b].round1_us;
  });
  std::vector<size_t> finalists = {0};  // the default
  for (size_t i : order) {
    if (static_cast<int>(finalists.size()) > request.finalists) break;
    if (i != 0) finalists.push_back(i);
  }
  std::vector<std::vector<double>> samples(finalists.size());
  for (int r = 0; r < 2 * request.repeats; ++r) {
    for (size_t f = 0; f < finalists.size(); ++f) {
      const Prepared& p = prepared[finalists[f]];
      samples[f].push_back(Bench::TimeOnce(*p.exec, p.workspace.get(), p.ws));
    }
  }
  for (size_t f = 0; f < finalists.size(); ++f)
    candidates[finalists[f]].final_us = Median(samples[f]);
  size_t winner = 0;
  for (size_t i : finalists) {
    if (candidates[i].final_us < candidates[winner].final_us) winner = i;
  }

  // The table, best first: finalists by their re-measured median, then the rest.
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const Candidate &x = candidates[a], &y = candidates[b];
    const bool fx = x.final_us >= 0, fy = y.final_us >= 0;
    if (fx != fy) return fx;
    return fx ? x.final_us < y.final_us : x.round1_us < y.round1_us;
  });
  int plan_width = 4;
  for (const Candidate& c : candidates) {
    plan_width = std::max(plan_width, static_cast<int>(PlanSummary(c.plan).size()));
  }
  std::printf("%4s %9s %9s %9s %10s  %-*s %10s %10s %7s\n", "rank", "num_cores", "ub_bytes",
              "buffers", "min_elems", plan_width, "plan", "median_us", "final_us", "GB/s");
  for (size_t rank = 0; rank < order.size(); ++rank) {
    const Candidate& c = candidates[order[rank]];
    const double best_us = c.final_us >= 0 ? c.final_us : c.round1_us;
    const std::string buffers = reduction ? "-"
                                          : std::to_string(c.plan.elementwise.buffer_num) +
                                                (c.options.buffer_num == 0 ? " (auto)" : "");
    std::printf("%4zu %9lld %9lld %9s %10lld  %-*s %10s %10s %7s%s%s\n", rank + 1,
                static_cast<long long>(c.plan.platform.cores),
                static_cast<long long>(c.plan.platform.ub_bytes), buffers.c_str(),
                static_cast<long long>(c.plan.min_elems_per_core), plan_width,
                PlanSummary(c.plan).c_str(), Fixed(c.round1_us, 1).c_str(),
                c.final_us >= 0 ? Fixed(c.final_us, 1).c_str() : "-",
                Fixed(bench.bytes_moved() / (best_us * 1e3), 2).c_str(),
                c.is_default ? "  default" : "", order[rank] == winner ? "  winner" : "");
  }
  const Candidate& w = candidates[winner];
  const Candidate& d = candidates[0];
  std::printf(
      "winner: num_cores %lld, ub_bytes %lld, min_elems_per_core %lld, buffer_num %s: "
      "%s us against the default's %s us (%s%% faster)\n",
      static_cast<long long>(w.plan.platform.cores),
      static_cast<long long>(w.plan.platform.ub_bytes),
      static_cast<long long>(w.plan.min_elems_per_core),
      reduction ? "-" : std::to_string(w.plan.elementwise.buffer_num).c_str(),
      Fixed(w.final_us, 1).c_str(), Fixed(d.final_us, 1).c_str(),
      Fixed(100.0 * (d.final_us - w.final_us) / d.final_us, 1).c_str());

  if (!request.out_path.empty()) {
    tiling::TuningEntry e;
    e.op = problem.op;
    e.dtype = default_plan.dtype;
    e.size_class = tiling::SizeClass(numel);
    e.platform = w.plan.platform.name;
    e.num_cores = w.plan.platform.cores;
    e.ub_bytes = w.plan.platform.ub_bytes;
    e.min_elems_per_core = w.plan.min_elems_per_core;
    e.buffer_num = reduction ? 0 : static_cast<int>(w.plan.elementwise.buffer_num);
    e.measured_us = w.final_us;
    s = WriteWinner(request.out_path, e);
    if (!s.ok()) {
      std::fprintf(stderr, "hostnn-tiling tune: %s\n", s.message().c_str());
      return 1;
    }
    std::printf("wrote %s: %s %s size class %d on %s\n", request.out_path.c_str(), e.op.c_str(),
                e.dtype.c_str(), e.size_class, e.platform.c_str());
  }
  return 0;
}

}  // namespace tiling_tool
}  // namespace hostnn
