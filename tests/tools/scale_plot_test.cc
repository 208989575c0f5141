// hostnn-scale's plot layout (tools/scale/svg_plot.cc) on synthetic rows: how many
// figures a sweep gets, that each fits one screen and names the machine, the SIMD target
// and the roofline, that the index links every figure, that panels are titled by the
// sizes each group ran, and which cells are marked noise (measure.h) and how. Times
// nothing.

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

// Panel titles, from the text of the bold titles after the figure's own.
std::vector<std::string> Titles(const std::string& svg) {
  std::vector<std::string> titles;
  const std::regex re("font-weight=\"bold\">([^<]*)</text>");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), re); it != std::sregex_iterator();
       ++it) {
    titles.push_back((*it)[1]);
  }
  if (!titles.empty()) titles.erase(titles.begin());  // the figure's title
  return titles;
}

Row Cell(const std::string& group, const char* dtype, int64_t n, int threads) {
  Row r;
  r.op = r.group = group;
  r.dtype = dtype;
  r.elements = n;
  r.threads = threads;
  r.bytes = 8.0 * n;
  r.timing.op_ns = r.timing.op_best_ns = 1.0 * n / threads;
  r.timing.roofline_ns = r.timing.roofline_median_ns = 0.5 * n / threads;
  return r;
}

// scripts/main.sh's sweep (--sizes 4K,256K,4M) gives Glu's self twice the elements; a
// group run on one thread only has its size panel at 1 thread.
TEST(ScalePlot, PanelsAreTitledByTheSizesEachGroupRan) {
  std::vector<Row> rows;
  for (int t : {1, 2}) {
    for (int64_t n : {4096, 262144, 4194304}) {
      rows.push_back(Cell("relu", "f32", n, t));
      rows.push_back(Cell("glu", "f32", 2 * n, t));
    }
  }
  for (int64_t n : {4096, 65536}) rows.push_back(Cell("softmax dim 0", "bf16", n, 1));
  const CellExtent relu = GroupExtent(rows, "relu");
  EXPECT_EQ(relu.elements, 4194304);
  EXPECT_EQ(relu.threads, 2);
  EXPECT_EQ(GroupExtent(rows, "glu").elements, 8388608);
  EXPECT_EQ(GroupExtent(rows, "softmax dim 0").threads, 1);
  EXPECT_EQ(GroupExtent(rows, "absent").elements, 0);

  const auto files = RenderPlots(rows, kContext, "s.svg");
  ASSERT_EQ(files.size(), 1u);
  const std::string& svg = files[0].svg;
  EXPECT_EQ(Titles(svg),
            (std::vector<std::string>{"relu, 4M", "relu, 2 threads", "glu, 8M", "glu, 2 threads",
                                      "softmax dim 0, 64K", "softmax dim 0, 1 thread"}));
  EXPECT_EQ(svg.find("no data"), std::string::npos);
  // Every panel drew its one dtype's operator and roofline lines.
  EXPECT_EQ(Count(svg, "<polyline"), 12);
}

// A norm's rows (Row::rows, row_length) are drawn along the row length, each tick labelled
// rows x length, the threads panel titled by its largest cell, and the header says what the
// norm's roofline moves; a figure without a norm says nothing of it.
TEST(ScalePlot, NormGridIsDrawnByRowLength) {
  std::vector<Row> rows;
  const int64_t cells[][2] = {{4096, 64}, {1024, 1024}, {64, 65536}, {8192, 4096}};
  for (int t : {1, 2}) {
    for (const auto& c : cells) {
      Row r = Cell("layer_norm", "f32", c[0] * c[1], t);
      r.rows = c[0];
      r.row_length = c[1];
      r.passes = 2;
      rows.push_back(r);
    }
  }
  const auto files = RenderPlots(rows, kContext, "n.svg");
  ASSERT_EQ(files.size(), 1u);
  const std::string& svg = files[0].svg;
  EXPECT_EQ(Titles(svg),
            (std::vector<std::string>{"layer_norm, 8192x4096", "layer_norm, 2 threads"}));
  for (const auto& c : cells) {
    const std::string tick = ">" + std::to_string(c[0]) + "x" + std::to_string(c[1]) + "<";
    EXPECT_EQ(Count(svg, tick), 1) << tick;  // one tick of the size panel
  }
  EXPECT_NE(svg.find(">rows x row length<"), std::string::npos);
  EXPECT_NE(svg.find("a norm (rows x length)"), std::string::npos);
  // The size panel's points: one per grid cell for the op and for its roofline.
  EXPECT_EQ(Count(svg, "<circle"), 2 + 4);  // the threads panel: 1 and 2 at 8192x4096
  const auto plain = RenderPlots(Sweep(1), kContext, "p.svg");
  EXPECT_EQ(plain[0].svg.find("a norm (rows x length)"), std::string::npos);
  EXPECT_NE(plain[0].svg.find(">elements<"), std::string::npos);
}

TEST(ScaleNoise, CellIsNoiseWhenItsMedianRoundTrailsTheBest) {
  Row r = Cell("relu", "f32", 4096, 2);
  EXPECT_EQ(r.Noise(), "");
  EXPECT_DOUBLE_EQ(r.OpSpread(), 0);

  r.timing.op_best_ns = 95;
  r.timing.op_ns = 100;
  EXPECT_NEAR(r.OpSpread(), 0.05, 1e-12);
  EXPECT_EQ(r.Noise(), "");  // within kNoiseSpread
  r.timing.op_best_ns = 80;
  EXPECT_EQ(r.Noise(), "op");

  r.timing.op_best_ns = 100;
  r.timing.roofline_ns = 40;  // best
  r.timing.roofline_median_ns = 50;
  EXPECT_NEAR(r.RooflineSpread(), 0.2, 1e-12);
  EXPECT_EQ(r.Noise(), "roof");
  r.timing.op_best_ns = 50;
  EXPECT_EQ(r.Noise(), "op+roof");

  // Just over and just under the threshold.
  r.timing.roofline_median_ns = r.timing.roofline_ns = 50;
  r.timing.op_ns = 100;
  r.timing.op_best_ns = 100 * (1 - kNoiseSpread) - 0.01;
  EXPECT_EQ(r.Noise(), "op");
  r.timing.op_best_ns = 100 * (1 - kNoiseSpread) + 0.01;
  EXPECT_EQ(r.Noise(), "");

  // Rounds not measured (0) are never noise.
  EXPECT_DOUBLE_EQ(RoundSpread(0, 100), 0);
  EXPECT_DOUBLE_EQ(RoundSpread(100, 0), 0);
  EXPECT_DOUBLE_EQ(RoundSpread(100, 90), 0);  // a median under the best: no spread
}

TEST(ScaleNoise, NoisyCellsAreHollowAndListedInTheirFigure) {
  std::vector<Row> rows = Sweep(2);
  const std::string hollow = "fill=\"white\" stroke=";
  {
    const std::string svg = RenderPlots(rows, kContext, "s.svg")[0].svg;
    EXPECT_EQ(Count(svg, hollow), 0);
    EXPECT_NE(svg.find("no cell is noise"), std::string::npos);
  }
  // op1 f32 at 256K on 2 threads: the largest size and thread count, so a point of both
  // panels of op1's cell.
  for (Row& r : rows) {
    if (r.group == "op1" && r.dtype == "f32" && r.elements == 262144 && r.threads == 2) {
      r.timing.op_best_ns = 0.5 * r.timing.op_ns;
    }
  }
  const std::string svg = RenderPlots(rows, kContext, "s.svg")[0].svg;
  EXPECT_EQ(Count(svg, hollow), 2);
  EXPECT_NE(svg.find("1 of 16 cells: op1 f32 256K x2 (op)"), std::string::npos);
  EXPECT_EQ(svg.find("no cell is noise"), std::string::npos);
}

TEST(ScaleNoise, NoteCountsItsFigureAndFitsItsLine) {
  std::vector<Row> rows = Sweep(3);
  for (Row& r : rows) r.timing.op_best_ns = 0.5 * r.timing.op_ns;  // every cell noise
  const std::vector<std::string> page = {"op0", "op2"};
  const std::string all = NoiseNote(rows, page, 100000);
  EXPECT_NE(all.find("16 of 16 cells: "), std::string::npos);
  EXPECT_EQ(all.find("op1"), std::string::npos);  // another figure's group
  EXPECT_EQ(Count(all, " (op)"), 16);
  EXPECT_EQ(all.find("more"), std::string::npos);

  for (size_t width : {size_t{200}, size_t{150}}) {
    SCOPED_TRACE(width);
    const std::string note = NoiseNote(rows, page, width);
    EXPECT_LE(note.size(), width);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(note, m, std::regex("and ([0-9]+) more$"))) << note;
    EXPECT_EQ(Count(note, " (op)") + std::stoi(m[1]), 16) << note;
    EXPECT_GT(Count(note, " (op)"), 0) << note;
  }
}

}  // namespace
}  // namespace scale
}  // namespace hostnn
