// hostnn-scale's timing (see measure.h). Each sample repeats a call until it lasts
// sample_ms, and operator and roofline samples alternate, so a burst of load from other
// processes hits both; the medians then drop what such a burst did to a few samples.

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
  const auto roofline = [data, threads] { data->Roofline(threads); };
  const int64_t op_iters = Calibrate(op, options.sample_ms);
  const int64_t roof_iters = Calibrate(roofline, options.sample_ms);
  std::vector<double> op_ns, roof_ns;
  for (int s = 0; s < std::max(1, options.samples); ++s) {
    // Alternate which goes first, so neither always inherits the other's cache state.
    if (s % 2 == 0) {
      roof_ns.push_back(TimeNs(roofline, roof_iters));
      op_ns.push_back(TimeNs(op, op_iters));
    } else {
      op_ns.push_back(TimeNs(op, op_iters));
      roof_ns.push_back(TimeNs(roofline, roof_iters));
    }
  }
  timing->op_ns = Median(op_ns);
  timing->roofline_ns = Median(roof_ns);
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
