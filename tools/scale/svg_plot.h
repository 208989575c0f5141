// hostnn-scale's SVG plot: one column per operator (LogSoftmax once per dim); the top row
// is GB/s against threads at the sweep's largest size, the bottom row GB/s against size at
// its largest thread count. Each dtype is a solid line, its roofline dashed in its colour.
#ifndef HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
#define HOSTNN_TOOLS_SCALE_SVG_PLOT_H_

#include <string>
#include <vector>

#include "tools/scale/measure.h"

namespace hostnn {
namespace scale {

// A self-contained SVG document (no scripts, no external fonts) for the rows of a sweep.
std::string RenderSvg(const std::vector<Row>& rows, const std::string& title);

}  // namespace scale
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
