// hostnn-scale's timing (see measure.h). Each sample repeats a call until it lasts
// sample_ms; a round is one sample of the operator and one of the roofline per team
// size, in alternating order, so a burst of load from other processes hits both.
//
// The roofline is the ceiling the operator is held against, so it is the best the memory
// system gave in this run, measured so that nothing but the bytes sets it:
// - one untimed round first, on the same team size, so that pages, caches and the OpenMP
//   team are warm before anything counts;
// - the fastest round, not the median: a round that other load slowed down says nothing
//   about the bytes;
// - on the row's thread count and on one thread, whichever is faster: T threads may always
//   leave all but one idle. A small call on a busy machine otherwise pays a fork and a
//   join whose other thread may be off the CPU (on a shared 2-vCPU guest a 2-thread copy
//   of 4K f32 elements took 31 us, 7.7 ns per element, against 0.03 on one thread), and
//   the operators themselves run such calls inline.
// The operator is reported as its median round, what a caller sees; the spread of both
// sets of rounds says whether the cell is noise (Row::Noise).

#include "tools/scale/measure.h"

#include <omp.h>

#include <algorithm>
#include <vector>

#include "bench/timing.h"

namespace hostnn {
namespace scale {

using bench::Calibrate;
using bench::Median;
using bench::TimeNs;

Status MeasureCase(bench::CaseData* data, int threads, const MeasureOptions& options,
                   Timing* timing) {
  omp_set_num_threads(threads);
  HOSTNN_RETURN_IF_ERROR(data->Prepare());
  timing->kernel_path = data->KernelPath();
  const auto op = [data] { data->Run(); };
  // The roofline's team sizes: the row's, and one thread below it.
  std::vector<int> teams = {threads};
  if (threads > 1) teams.push_back(1);
  const int64_t op_iters = Calibrate(op, options.sample_ms);
  std::vector<int64_t> roof_iters;
  for (const int team : teams) {
    roof_iters.push_back(Calibrate([data, team] { data->Roofline(team); }, options.sample_ms));
  }
  std::vector<double> op_ns;
  std::vector<std::vector<double>> roof_ns(teams.size());
  const int rounds = std::max(1, options.samples);
  for (int s = -1; s < rounds; ++s) {  // round -1 warms up and is not kept
    const auto time_roofline = [&] {
      for (size_t t = 0; t < teams.size(); ++t) {
        const int team = teams[t];
        const double ns = TimeNs([data, team] { data->Roofline(team); }, roof_iters[t]);
        if (s >= 0) roof_ns[t].push_back(ns);
      }
    };
    // Alternate which goes first, so neither always inherits the other's cache state.
    if (s % 2 == 0) time_roofline();
    const double ns = TimeNs(op, op_iters);
    if (s >= 0) op_ns.push_back(ns);
    if (s % 2 != 0) time_roofline();
  }
  timing->op_ns = Median(op_ns);
  timing->op_best_ns = *std::min_element(op_ns.begin(), op_ns.end());
  timing->roofline_ns = 0;
  for (size_t t = 0; t < teams.size(); ++t) {
    const double best = *std::min_element(roof_ns[t].begin(), roof_ns[t].end());
    if (timing->roofline_ns == 0 || best < timing->roofline_ns) {
      timing->roofline_ns = best;
      timing->roofline_median_ns = Median(roof_ns[t]);
      timing->roofline_threads = teams[t];
    }
  }
  timing->call_ns = 0;
  if (options.time_calls && data->spec().Elements() <= options.max_call_elems) {
    int status = 0;
    const auto call = [data, &status] { status |= data->RunCApiCall(); };
    const int64_t call_iters = Calibrate(call, options.sample_ms);
    std::vector<double> call_ns;
    for (int s = 0; s < std::max(1, options.samples); ++s)
      call_ns.push_back(TimeNs(call, call_iters));
    if (status != 0)
      return Status::Inner("the C API call failed with status " + std::to_string(status));
    timing->call_ns = Median(call_ns);
  }
  return Status::Ok();
}

}  // namespace scale
}  // namespace hostnn
