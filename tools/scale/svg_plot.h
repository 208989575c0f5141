// hostnn-scale's SVG plots. Each operator group (an operator; LogSoftmax once per dim) is
// one cell of two panels: GB/s against threads at the sweep's largest size above, GB/s
// against size at its largest thread count below. Each dtype is a solid line, its roofline
// dashed in its colour. Cells are laid out in grids of at most kCellsPerFigure (4 columns
// x 2 rows, 1160 x 900 px: one screen at 100%), one figure per grid; a sweep of more
// groups than one figure holds also gets an index page that links the figures. Every
// figure names the machine, the SIMD target and the roofline.
#ifndef HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
#define HOSTNN_TOOLS_SCALE_SVG_PLOT_H_

#include <string>
#include <vector>

#include "tools/scale/measure.h"

namespace hostnn {
namespace scale {

constexpr int kCellColumns = 4;
constexpr int kCellRows = 2;
constexpr int kCellsPerFigure = kCellColumns * kCellRows;

// What every figure names besides its panels.
struct PlotContext {
  std::string machine;      // "AMD EPYC 9654, 2 cores"
  std::string simd_target;  // "AVX3"
};

// One SVG document to write (self-contained: no scripts, no external fonts).
struct PlotFile {
  std::string path;
  std::string svg;
};

// The figures of a sweep for --svg PATH: with at most kCellsPerFigure groups, one figure
// at PATH; with more, figures at PATH's stem + "-1.svg", "-2.svg", ... and at PATH an index
// page listing each figure's operator groups with a link to it.
std::vector<PlotFile> RenderPlots(const std::vector<Row>& rows, const PlotContext& context,
                                  const std::string& path);

}  // namespace scale
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
