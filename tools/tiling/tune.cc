// hostnn-tiling tune: builds candidate options around the default plan (core counts, UB
// sizes, buffer counts), drops candidates that would run alike, times the rest (median of
// interleaved passes), re-measures the best few beside the default, and writes the winner
// to a tuning file. The default keeps ties, so the winner is never slower. The operands
// and the timing are the benchmarks' (bench/cases.h, bench/timing.h).

#include "tools/tiling/tune.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/cases.h"
#include "bench/timing.h"
#include "hostnn/ops.h"

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

// One Execute of a prepared call, in microseconds.
double TimeOnceUs(const bench::PreparedCall& call) {
  return bench::TimeNs([&call] { call.Run(); }, 1) / 1000;
}

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

// ---- The steps of a tuning run ----------------------------------------------------------

// The operands of the problem, as the benchmarks fill them. kInvalid for a dtype the
// operators do not compute in.
Status MakeOperands(const tiling::Problem& problem, std::unique_ptr<bench::CaseData>* data) {
  if (problem.dtype != DType::kFloat32 && problem.dtype != DType::kFloat16 &&
      problem.dtype != DType::kBFloat16) {
    const char* name = tiling::ShortDTypeName(problem.dtype);
    return Status::Invalid(std::string("tune runs f32, f16 or bf16 operands, not ") +
                           (name != nullptr ? name : DTypeName(problem.dtype)));
  }
  try {
    data->reset(new bench::CaseData({problem.op, problem.dtype, problem.shape, problem.dim, {}}));
  } catch (const std::exception& e) {
    return Status::Invalid(e.what());
  }
  return Status::Ok();
}

// The default first (it keeps ties), then a grid around it: core counts (powers of two up
// to the profile's), UB sizes (a quarter to four times the profile's), smaller and larger
// minimum elements per core for small problems, single and double buffering. Candidates
// whose plans would run alike are dropped.
std::vector<Candidate> MakeCandidates(const TuneRequest& request, const tiling::Resolved& def,
                                      bool reduction) {
  const int64_t numel = tiling::NumElements(request.problem.shape);
  std::vector<Candidate> candidates;
  std::vector<std::string> keys;
  auto add = [&](const tiling::Options& options, bool is_default) {
    Candidate c;
    c.options = options;
    c.is_default = is_default;
    if (!tiling::MakePlan(request.problem, options, &c.plan).ok()) return;
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
  return candidates;
}

// Phase 1 of every candidate over the same operands, each run twice to warm up.
Status PrepareAll(const bench::CaseData& data, const std::vector<Candidate>& candidates,
                  std::vector<std::unique_ptr<bench::PreparedCall>>* prepared) {
  prepared->clear();
  for (const Candidate& c : candidates) {
    prepared->push_back(std::make_unique<bench::PreparedCall>());
    HOSTNN_RETURN_IF_ERROR(prepared->back()->Prepare(data.Args(), c.options));
    for (int w = 0; w < 2; ++w) TimeOnceUs(*prepared->back());
  }
  return Status::Ok();
}

// Round 1: every candidate, in interleaved passes so that load bursts on the machine hit
// all candidates alike; each candidate's time is the median of its passes (a progress
// line per pass on stderr).
void TimeAll(const std::vector<std::unique_ptr<bench::PreparedCall>>& prepared, int repeats,
             std::vector<Candidate>* candidates) {
  std::vector<Candidate>& cs = *candidates;
  std::vector<std::vector<double>> times(cs.size());
  bench::Progress progress("tune: ", static_cast<size_t>(repeats));
  for (int r = 0; r < repeats; ++r) {
    for (size_t i = 0; i < cs.size(); ++i) times[i].push_back(TimeOnceUs(*prepared[i]));
    size_t best = 0;
    for (size_t i = 0; i < cs.size(); ++i) {
      cs[i].round1_us = bench::Median(times[i]);
      if (cs[i].round1_us < cs[best].round1_us) best = i;
    }
    progress.Update(static_cast<size_t>(r),
                    "pass over " + std::to_string(cs.size()) + " candidates; best " +
                        (best == 0 ? std::string("default") : OptionsText(cs[best].options)) +
                        ": " + Fixed(cs[best].round1_us, 1) + " us, default " +
                        Fixed(cs[0].round1_us, 1) + " us");
  }
  progress.Clear();
}

// Round 2: the best few and the default, interleaved over 2 x repeats passes, so that
// drift hits all alike. Returns the winner: the default unless a finalist is faster.
size_t TimeFinalists(const std::vector<std::unique_ptr<bench::PreparedCall>>& prepared,
                     const TuneRequest& request, std::vector<Candidate>* candidates) {
  std::vector<Candidate>& cs = *candidates;
  std::vector<size_t> order(cs.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return cs[a].round1_us < cs[b].round1_us; });
  std::vector<size_t> finalists = {0};  // the default
  for (size_t i : order) {
    if (static_cast<int>(finalists.size()) > request.finalists) break;
    if (i != 0) finalists.push_back(i);
  }
  std::vector<std::vector<double>> samples(finalists.size());
  for (int r = 0; r < 2 * request.repeats; ++r) {
    for (size_t f = 0; f < finalists.size(); ++f) {
      samples[f].push_back(TimeOnceUs(*prepared[finalists[f]]));
    }
  }
  for (size_t f = 0; f < finalists.size(); ++f) {
    cs[finalists[f]].final_us = bench::Median(samples[f]);
  }
  size_t winner = 0;
  for (size_t i : finalists) {
    if (cs[i].final_us < cs[winner].final_us) winner = i;
  }
  return winner;
}

// The table, best first: finalists by their re-measured median, then the rest; then the
// winner against the default.
void PrintResults(const std::vector<Candidate>& candidates, size_t winner, bool reduction,
                  double bytes_moved) {
  std::vector<size_t> order(candidates.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
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
                Fixed(bytes_moved / (best_us * 1e3), 2).c_str(), c.is_default ? "  default" : "",
                order[rank] == winner ? "  winner" : "");
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
}

// The winner as the tuning-file entry of (op, dtype, size class, profile).
tiling::TuningEntry WinnerEntry(const tiling::Plan& default_plan, const Candidate& w, int64_t numel,
                                bool reduction) {
  tiling::TuningEntry e;
  e.op = default_plan.op;
  e.dtype = default_plan.dtype;
  e.size_class = tiling::SizeClass(numel);
  e.platform = w.plan.platform.name;
  e.num_cores = w.plan.platform.cores;
  e.ub_bytes = w.plan.platform.ub_bytes;
  e.min_elems_per_core = w.plan.min_elems_per_core;
  e.buffer_num = reduction ? 0 : static_cast<int>(w.plan.elementwise.buffer_num);
  e.measured_us = w.final_us;
  return e;
}

int Fail(const Status& s) {
  std::fprintf(stderr, "hostnn-tiling tune: %s\n", s.message().c_str());
  return 1;
}

}  // namespace

int Tune(const TuneRequest& request) {
  const tiling::Problem& problem = request.problem;
  tiling::Resolved def;
  tiling::Plan default_plan;
  Status s = tiling::Resolve(request.base, problem, &def);
  if (s.ok()) s = tiling::MakePlan(problem, request.base, &default_plan);
  std::unique_ptr<bench::CaseData> data;
  if (s.ok()) s = MakeOperands(problem, &data);
  if (!s.ok()) return Fail(s);
  const bool reduction = default_plan.kind == tiling::Plan::Kind::kReduction;
  const int64_t numel = tiling::NumElements(problem.shape);

  std::vector<Candidate> candidates = MakeCandidates(request, def, reduction);
  std::printf(
      "tune %s %s, %lld elements (size class %d) on %s: %lld cores, %zu candidates, "
      "median of %d runs\n",
      default_plan.op.c_str(), default_plan.dtype.c_str(), static_cast<long long>(numel),
      tiling::SizeClass(numel), def.platform.name.c_str(),
      static_cast<long long>(def.platform.cores), candidates.size(), request.repeats);
  std::fflush(stdout);

  std::vector<std::unique_ptr<bench::PreparedCall>> prepared;
  s = PrepareAll(*data, candidates, &prepared);
  if (!s.ok()) return Fail(s);
  TimeAll(prepared, request.repeats, &candidates);
  const size_t winner = TimeFinalists(prepared, request, &candidates);
  PrintResults(candidates, winner, reduction, data->Bytes());

  if (!request.out_path.empty()) {
    const tiling::TuningEntry e = WinnerEntry(default_plan, candidates[winner], numel, reduction);
    s = WriteWinner(request.out_path, e);
    if (!s.ok()) return Fail(s);
    std::printf("wrote %s: %s %s size class %d on %s\n", request.out_path.c_str(), e.op.c_str(),
                e.dtype.c_str(), e.size_class, e.platform.c_str());
  }
  return 0;
}

}  // namespace tiling_tool
}  // namespace hostnn
