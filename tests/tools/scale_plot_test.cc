// hostnn-scale's plot layout (tools/scale/svg_plot.cc) on synthetic rows: how many
// figures a sweep gets, that each fits one screen and names the machine, the SIMD target
// and the roofline, and that the index links every figure. Times nothing.

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "tools/scale/svg_plot.h"

namespace hostnn {
namespace scale {
namespace {

std::vector<Row> Sweep(int groups) {
  std::vector<Row> rows;
  for (int g = 0; g < groups; ++g) {
    for (const char* dtype : {"f32", "bf16"}) {
      for (int64_t n : {4096, 262144}) {
        for (int t : {1, 2}) {
          Row r;
          r.op = r.group = "op" + std::to_string(g);
          r.dtype = dtype;
          r.elements = n;
          r.threads = t;
          r.bytes = 8.0 * n;
          r.timing.op_ns = 1.0 * n / t;
          r.timing.roofline_ns = 0.5 * n / t;
          rows.push_back(r);
        }
      }
    }
  }
  return rows;
}

double Attr(const std::string& svg, const char* name) {
  std::smatch m;
  const std::regex re(std::string("<svg [^>]*") + name + "=\"([0-9.]+)\"");
  EXPECT_TRUE(std::regex_search(svg, m, re)) << name;
  return m.empty() ? 0 : std::stod(m[1]);
}

int Count(const std::string& s, const std::string& what) {
  int n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
  return n;
}

const PlotContext kContext{"Test CPU 9000, 2 cores", "AVX2"};

TEST(ScalePlot, OneFigureUpToAGridThenAnIndex) {
  for (int groups : {1, 3, kCellsPerFigure, kCellsPerFigure + 1, 60}) {
    SCOPED_TRACE(groups);
    const auto files = RenderPlots(Sweep(groups), kContext, "out/scale.svg");
    const int figures = (groups + kCellsPerFigure - 1) / kCellsPerFigure;
    if (figures == 1) {
      ASSERT_EQ(files.size(), 1u);
      EXPECT_EQ(files[0].path, "out/scale.svg");
    } else {
      ASSERT_EQ(files.size(), static_cast<size_t>(figures) + 1);
      EXPECT_EQ(files[0].path, "out/scale-1.svg");
      EXPECT_EQ(files[figures - 1].path, "out/scale-" + std::to_string(figures) + ".svg");
      const std::string& index = files.back().svg;
      EXPECT_EQ(files.back().path, "out/scale.svg");
      for (int f = 1; f <= figures; ++f) {
        EXPECT_NE(index.find("href=\"scale-" + std::to_string(f) + ".svg\""), std::string::npos);
      }
      EXPECT_NE(index.find("op" + std::to_string(groups - 1)), std::string::npos);
    }
    int panels = 0;
    for (int f = 0; f < figures; ++f) {
      const std::string& svg = files[f].svg;
      EXPECT_LE(Attr(svg, "width"), 1200);  // one 1920 x 1080 screen at 100%
      EXPECT_LE(Attr(svg, "height"), 920);
      EXPECT_NE(svg.find("Test CPU 9000, 2 cores"), std::string::npos);
      EXPECT_NE(svg.find("SIMD target: AVX2"), std::string::npos);
      EXPECT_NE(svg.find("roofline: reads 2 arrays, writes 1"), std::string::npos);
      panels += Count(svg, "font-weight=\"bold\">op");
    }
    EXPECT_EQ(panels, 2 * groups);  // every group: threads and size panels, once
  }
}

TEST(ScalePlot, FigureNamesWithoutExtensionOrInFolders) {
  const auto files = RenderPlots(Sweep(kCellsPerFigure + 1), kContext, "a.b/plot");
  ASSERT_EQ(files.size(), 3u);
  EXPECT_EQ(files[0].path, "a.b/plot-1.svg");
  EXPECT_EQ(files[2].path, "a.b/plot");
}

TEST(ScalePlot, EmptySweepStillWritesAFigure) {
  const auto files = RenderPlots({}, kContext, "s.svg");
  ASSERT_EQ(files.size(), 1u);
  EXPECT_NE(files[0].svg.find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace scale
}  // namespace hostnn
