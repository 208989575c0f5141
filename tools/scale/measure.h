// hostnn-scale's timing: one case at one thread count, in rounds that time the operator
// and the roofline kernel over the same buffers; the operator reported as the median
// round, the roofline as the best. No plotting or printing here.
#ifndef HOSTNN_TOOLS_SCALE_MEASURE_H_
#define HOSTNN_TOOLS_SCALE_MEASURE_H_

#include <cstdint>
#include <string>

#include "bench/cases.h"

namespace hostnn {
namespace scale {

struct MeasureOptions {
  int samples = 11;        // timed rounds: one sample of the operator and of the roofline each
  double sample_ms = 4.0;  // each sample repeats the call until it lasts this long
  bool time_calls = true;  // also time both phases of one call (small cases only)
  int64_t max_call_elems = int64_t{1} << 20;
};

struct Timing {
  double op_ns = 0;               // median round's ns per Execute
  double op_best_ns = 0;          // fastest round's; 0 when not measured
  double roofline_ns = 0;         // fastest round's ns per roofline pass over the same bytes
  double roofline_median_ns = 0;  // that team's median round; 0 when not measured
  int roofline_threads = 0;       // the team the roofline ran on: the row's, or 1 if faster
  double call_ns = 0;             // median ns per C API call, both phases; 0 when not timed
  std::string kernel_path;        // what ran (hostnn::KernelPath)
};

// Sets the OpenMP thread count, prepares the case's executor and times it. kOk or the
// operator's error from phase 1.
Status MeasureCase(bench::CaseData* data, int threads, const MeasureOptions& options,
                   Timing* timing);

// A cell is noise when its rounds disagree: the median round more than kNoiseSpread
// slower than the best, for the operator or for the roofline. On a quiet machine rounds
// agree within a few percent; a wider spread means other load took some of them, and
// the cell's ratios (%roof, speed-up) can move by as much between runs.
constexpr double kNoiseSpread = 0.10;

// (median - best) / median of a cell's rounds; 0 when either is unknown (0).
inline double RoundSpread(double best_ns, double median_ns) {
  return best_ns > 0 && median_ns > best_ns ? (median_ns - best_ns) / median_ns : 0;
}

// One row of a sweep, as the table, the CSV and the plot see it.
struct Row {
  std::string op;     // snake_case name
  std::string dtype;  // f32, f16, bf16
  std::string shape;  // "[262144]" or "[4096,1024] dim -1"
  std::string group;  // what a plot panel collects: the op, plus the dim for LogSoftmax
  int64_t elements = 0;
  int threads = 0;
  double bytes = 0;  // bytes one call moves at the least
  double passes = 0;  // bytes in arrays of the case's size: the roofline's passes over memory
  // A norm's case (bench::IsNormOp): its rows x row length, the grid the plot draws; 0 else.
  int64_t rows = 0;
  int64_t row_length = 0;
  Timing timing;
  double speedup = 0;  // over the same case on 1 thread; 0 when 1 thread was not run

  double NsPerElem() const { return timing.op_ns / static_cast<double>(elements); }
  double RooflineNsPerElem() const { return timing.roofline_ns / static_cast<double>(elements); }
  double Gbps() const { return bytes / timing.op_ns; }
  double RooflineGbps() const { return bytes / timing.roofline_ns; }
  double PercentOfRoofline() const { return 100.0 * timing.roofline_ns / timing.op_ns; }
  double OpSpread() const { return RoundSpread(timing.op_best_ns, timing.op_ns); }
  double RooflineSpread() const {
    return RoundSpread(timing.roofline_ns, timing.roofline_median_ns);
  }
  // Why the cell is noise: "op", "roof" or "op+roof" (whose rounds spread more than
  // kNoiseSpread); "" when they agree.
  std::string Noise() const {
    const bool op = OpSpread() > kNoiseSpread, roof = RooflineSpread() > kNoiseSpread;
    return op && roof ? "op+roof" : op ? "op" : roof ? "roof" : "";
  }
};

}  // namespace scale
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_SCALE_MEASURE_H_
