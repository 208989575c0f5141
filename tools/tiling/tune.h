// hostnn-tiling tune: times candidate tiling options for one problem on this machine and
// picks the fastest, never slower than the default plan. Only this tool measures; the
// library's planners stay pure.
#ifndef HOSTNN_TOOLS_TILING_TUNE_H_
#define HOSTNN_TOOLS_TILING_TUNE_H_

#include <string>

#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling_tool {

struct TuneRequest {
  tiling::Problem problem;
  tiling::Options base;  // platform / platform file; the knobs are what tuning varies
  int repeats = 15;      // timed runs per candidate (median); finalists get twice as many
  int finalists = 3;     // re-measured beside the default
  std::string out_path;  // tuning file to write the winner to (merged); empty = none
};

// Prints the candidates best first on stdout and progress on stderr. Returns 0 on
// success, 1 on failure (with a message on stderr).
int Tune(const TuneRequest& request);

}  // namespace tiling_tool
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_TILING_TUNE_H_
