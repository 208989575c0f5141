// hostnn-scale's SVG plots. Each operator group (an operator; LogSoftmax once per dim) is
// one cell of two panels: GB/s against threads at the group's largest size above, GB/s
// against size at its largest thread count below. Each dtype is a solid line, its roofline
// dashed in its colour; a cell that is noise (Row::Noise) is a hollow marker, and a note
// under the legend lists a figure's noisy cells. Cells are laid out in grids of at most
// kCellsPerFigure (4 columns x 2 rows, 1160 x 900 px: one screen at 100%), one figure per
// grid; a sweep of more groups than one figure holds also gets an index page that links
// the figures. Every figure names the machine, the SIMD target and the roofline.
#ifndef HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
#define HOSTNN_TOOLS_SCALE_SVG_PLOT_H_

#include <cstddef>
#include <cstdint>
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

// What a cell's panels are drawn at, from its group's own rows: the largest element count
// (the threads panel's title and points) and the largest thread count (the size panel's).
// So a panel is titled by a size that was run: Glu's self at --sizes 4M is [4096,2048],
// 8M elements, while the elementwise operators' largest is 4M.
struct CellExtent {
  int64_t elements = 0;
  int threads = 0;
};
CellExtent GroupExtent(const std::vector<Row>& rows, const std::string& group);

// A figure's note on its noise (Row::Noise) for the rows of `groups`: how many of their
// cells are noise and which ("relu f32 4K x2 (roof)"), as many as fit in max_chars, then
// how many more; or that none is.
std::string NoiseNote(const std::vector<Row>& rows, const std::vector<std::string>& groups,
                      size_t max_chars);

// The figures of a sweep for --svg PATH: with at most kCellsPerFigure groups, one figure
// at PATH; with more, figures at PATH's stem + "-1.svg", "-2.svg", ... and at PATH an index
// page listing each figure's operator groups with a link to it.
std::vector<PlotFile> RenderPlots(const std::vector<Row>& rows, const PlotContext& context,
                                  const std::string& path);

}  // namespace scale
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_SCALE_SVG_PLOT_H_
