// The SVG plots (see svg_plot.h): a minimal line-chart writer, enough for small multiples
// of GB/s curves laid out in grids; axes start at zero so panels compare by eye.

#include "tools/scale/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace hostnn {
namespace scale {
namespace {

struct Point {
  double x, y;
  bool noise = false;  // drawn hollow
};
struct Series {
  std::string name;
  std::string color;
  bool dashed = false;
  std::vector<Point> points;
};
struct Chart {
  std::string title, x_label, y_label;
  bool log_x = false;
  std::vector<Series> series;
  std::map<double, std::string> x_ticks;  // a tick's own label ("4096x64"), where given
};

const char* DTypeColor(const std::string& dtype) {
  if (dtype == "f32") return "#1f77b4";
  if (dtype == "f16") return "#2ca02c";
  if (dtype == "bf16") return "#d62728";
  return "#7f7f7f";
}

std::string Escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

// "4K", "256K", "64M" for power-of-two-ish element counts.
std::string SizeLabel(double n) {
  char buf[32];
  if (n >= 1048576 && std::fmod(n, 1048576) == 0)
    std::snprintf(buf, sizeof(buf), "%.0fM", n / 1048576);
  else if (n >= 1024 && std::fmod(n, 1024) == 0)
    std::snprintf(buf, sizeof(buf), "%.0fK", n / 1024);
  else
    std::snprintf(buf, sizeof(buf), "%.0f", n);
  return buf;
}

// A round step for about `target` ticks over [0, max].
double NiceStep(double max, int target) {
  const double raw = max / target;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= m * mag) return m * mag;
  }
  return 10 * mag;
}

void DrawChart(std::ostringstream& svg, const Chart& chart, double x0, double y0, double w,
               double h) {
  const double left = 48, right = 18, top = 22, bottom = 36;
  const double pw = w - left - right, ph = h - top - bottom;
  std::set<double> xs;
  double y_max = 0;
  for (const Series& s : chart.series) {
    for (const Point& p : s.points) {
      xs.insert(p.x);
      y_max = std::max(y_max, p.y);
    }
  }
  svg << "<g transform=\"translate(" << Num(x0) << "," << Num(y0) << ")\">\n";
  svg << "<text x=\"" << Num(w / 2) << "\" y=\"14\" text-anchor=\"middle\" font-size=\"12\" "
      << "font-weight=\"bold\">" << Escape(chart.title) << "</text>\n";
  if (xs.empty() || y_max <= 0) {
    svg << "<text x=\"" << Num(w / 2) << "\" y=\"" << Num(h / 2) << "\" text-anchor=\"middle\" "
        << "font-size=\"11\">no data</text>\n</g>\n";
    return;
  }
  const double step = NiceStep(y_max, 5);
  const double y_top = std::ceil(y_max / step) * step;
  const double lo = *xs.begin(), hi = *xs.rbegin();
  const auto fx = [&](double x) {
    if (hi == lo) return left + pw / 2;
    const double t = chart.log_x ? std::log(x / lo) / std::log(hi / lo) : (x - lo) / (hi - lo);
    return left + t * pw;
  };
  const auto fy = [&](double y) { return top + ph - y / y_top * ph; };
  for (double y = 0; y <= y_top + step / 2; y += step) {
    svg << "<line x1=\"" << Num(left) << "\" x2=\"" << Num(left + pw) << "\" y1=\"" << Num(fy(y))
        << "\" y2=\"" << Num(fy(y)) << "\" stroke=\"#ddd\"/>\n";
    svg << "<text x=\"" << Num(left - 4) << "\" y=\"" << Num(fy(y) + 4) << "\" text-anchor=\"end\" "
        << "font-size=\"10\">" << (step < 1 ? Num(y) : std::to_string(static_cast<int64_t>(y)))
        << "</text>\n";
  }
  for (double x : xs) {
    svg << "<line x1=\"" << Num(fx(x)) << "\" x2=\"" << Num(fx(x)) << "\" y1=\"" << Num(top + ph)
        << "\" y2=\"" << Num(top + ph + 4) << "\" stroke=\"#333\"/>\n";
    svg << "<text x=\"" << Num(fx(x)) << "\" y=\"" << Num(top + ph + 15)
        << "\" text-anchor=\"middle\" "
        << "font-size=\"10\">"
        << Escape(chart.x_ticks.count(x) ? chart.x_ticks.at(x)
                  : chart.log_x          ? SizeLabel(x)
                                         : std::to_string(static_cast<int64_t>(x)))
        << "</text>\n";
  }
  svg << "<rect x=\"" << Num(left) << "\" y=\"" << Num(top) << "\" width=\"" << Num(pw)
      << "\" height=\"" << Num(ph) << "\" fill=\"none\" stroke=\"#333\"/>\n";
  svg << "<text x=\"" << Num(left + pw / 2) << "\" y=\"" << Num(h - 4)
      << "\" text-anchor=\"middle\" "
      << "font-size=\"10\">" << Escape(chart.x_label) << "</text>\n";
  svg << "<text transform=\"translate(12," << Num(top + ph / 2) << ") rotate(-90)\" "
      << "text-anchor=\"middle\" font-size=\"10\">" << Escape(chart.y_label) << "</text>\n";
  for (const Series& s : chart.series) {
    std::vector<Point> pts = s.points;
    std::sort(pts.begin(), pts.end(), [](const Point& a, const Point& b) { return a.x < b.x; });
    svg << "<polyline fill=\"none\" stroke=\"" << s.color << "\" stroke-width=\""
        << (s.dashed ? "1.2" : "2") << "\"" << (s.dashed ? " stroke-dasharray=\"5,3\"" : "")
        << " points=\"";
    for (const Point& p : pts) svg << Num(fx(p.x)) << "," << Num(fy(p.y)) << " ";
    svg << "\"><title>" << Escape(s.name) << "</title></polyline>\n";
    if (!s.dashed) {
      for (const Point& p : pts) {
        svg << "<circle cx=\"" << Num(fx(p.x)) << "\" cy=\"" << Num(fy(p.y));
        if (p.noise) {
          svg << "\" r=\"3\" fill=\"white\" stroke=\"" << s.color << "\" stroke-width=\"1.5\"/>\n";
        } else {
          svg << "\" r=\"2.5\" fill=\"" << s.color << "\"/>\n";
        }
      }
    }
  }
  svg << "</g>\n";
}

// Cell and page geometry (px). A cell is two panels stacked; a figure is a header and a
// grid of kCellColumns x kCellRows cells.
constexpr double kCellWidth = 290, kPanelHeight = 205, kHeader = 78;
constexpr const char* kRooflineText =
    "roofline: reads 2 arrays, writes 1, plain stores; same bytes and run; best round, "
    "on the row's threads or on 1 where faster";
// Added where a figure has a norm's grid (Row::row_length).
constexpr const char* kNormRooflineText =
    "; a norm (rows x length): each array of x's size its call moves, once (forward: x read, "
    "y written)";

std::string SvgOpen(double width, double height) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" "
         "xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"" +
         Num(width) + "\" height=\"" + Num(height) + "\" viewBox=\"0 0 " + Num(width) + " " +
         Num(height) + "\" font-family=\"sans-serif\">\n" +
         "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
}

// Title, the machine and SIMD target, the legend (one swatch per dtype, the roofline's
// dash with what it measures) and, on a figure, the note on its noisy cells.
void DrawHeader(std::ostringstream& svg, const std::string& title, const PlotContext& context,
                const std::vector<std::string>& dtypes, const std::string& note = "",
                bool norms = false) {
  svg << "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">" << Escape(title)
      << "</text>\n";
  svg << "<text x=\"10\" y=\"40\" font-size=\"12\">machine: " << Escape(context.machine)
      << "; SIMD target: " << Escape(context.simd_target) << "</text>\n";
  double lx = 10;
  for (const std::string& d : dtypes) {
    svg << "<line x1=\"" << Num(lx) << "\" x2=\"" << Num(lx + 20)
        << "\" y1=\"58\" y2=\"58\" stroke=\"" << DTypeColor(d)
        << "\" stroke-width=\"2\"/><text x=\"" << Num(lx + 24) << "\" y=\"62\" font-size=\"11\">"
        << Escape(d) << "</text>\n";
    lx += 70;
  }
  svg << "<line x1=\"" << Num(lx) << "\" x2=\"" << Num(lx + 20)
      << "\" y1=\"58\" y2=\"58\" stroke=\"#333\" stroke-dasharray=\"5,3\"/><text x=\""
      << Num(lx + 24) << "\" y=\"62\" font-size=\"11\">" << kRooflineText
      << (norms ? kNormRooflineText : "") << "</text>\n";
  if (!note.empty()) {
    svg << "<text x=\"10\" y=\"76\" font-size=\"10\" fill=\"#555\">" << Escape(note) << "</text>\n";
  }
}

// The two panels of one operator group, at the sizes its own rows ran.
void DrawCell(std::ostringstream& svg, const std::vector<Row>& rows, const std::string& group,
              const std::vector<std::string>& dtypes, double x0, double y0) {
  const CellExtent extent = GroupExtent(rows, group);
  const int64_t max_elems = extent.elements;
  const int max_threads = extent.threads;
  // A norm's grid (Row::row_length): its size panel runs along the row length, each tick
  // labelled rows x length; the threads panel is titled by its largest cell's.
  std::string largest = SizeLabel(static_cast<double>(max_elems));
  Chart by_threads, by_size;
  for (const Row& r : rows) {
    if (r.group != group || r.row_length <= 0) continue;
    const double x = static_cast<double>(r.row_length);
    const std::string cell = std::to_string(r.rows) + "x" + std::to_string(r.row_length);
    std::string& tick = by_size.x_ticks[x];
    if (tick.find(cell) == std::string::npos) tick += (tick.empty() ? "" : "/") + cell;
    if (r.elements == max_elems) largest = cell;
  }
  const bool grid = !by_size.x_ticks.empty();
  by_threads.title = group + ", " + largest;
  by_threads.x_label = "threads";
  by_threads.y_label = "GB/s";
  by_size.title = group + ", " + std::to_string(max_threads) + " thread" +
                  (max_threads > 1 ? "s" : "");
  by_size.x_label = grid ? "rows x row length" : "elements";
  by_size.y_label = "GB/s";
  by_size.log_x = true;
  for (const std::string& d : dtypes) {
    Series t_op{d, DTypeColor(d), false, {}}, t_roof{d + " roofline", DTypeColor(d), true, {}};
    Series s_op{d, DTypeColor(d), false, {}}, s_roof{d + " roofline", DTypeColor(d), true, {}};
    for (const Row& r : rows) {
      if (r.group != group || r.dtype != d) continue;
      const bool noise = !r.Noise().empty();
      if (r.elements == max_elems) {
        t_op.points.push_back({static_cast<double>(r.threads), r.Gbps(), noise});
        t_roof.points.push_back({static_cast<double>(r.threads), r.RooflineGbps()});
      }
      if (r.threads == max_threads) {
        const double x = static_cast<double>(grid ? r.row_length : r.elements);
        s_op.points.push_back({x, r.Gbps(), noise});
        s_roof.points.push_back({x, r.RooflineGbps()});
      }
    }
    for (Series* s : {&t_roof, &t_op}) {
      if (!s->points.empty()) by_threads.series.push_back(*s);
    }
    for (Series* s : {&s_roof, &s_op}) {
      if (!s->points.empty()) by_size.series.push_back(*s);
    }
  }
  DrawChart(svg, by_threads, x0, y0, kCellWidth, kPanelHeight);
  DrawChart(svg, by_size, x0, y0 + kPanelHeight, kCellWidth, kPanelHeight);
}

// "scale.svg" -> "scale-2.svg"; the stem keeps any folder.
std::string FigurePath(const std::string& path, size_t figure) {
  const size_t slash = path.find_last_of('/');
  const size_t dot = path.find_last_of('.');
  const bool has_ext = dot != std::string::npos && (slash == std::string::npos || dot > slash);
  return (has_ext ? path.substr(0, dot) : path) + "-" + std::to_string(figure + 1) + ".svg";
}

std::string BaseName(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// The index: one line per figure, its operator groups, linked to the figure's file
// (relative, so the files move together).
std::string RenderIndex(const std::vector<std::vector<std::string>>& pages,
                        const std::vector<std::string>& paths, const PlotContext& context,
                        const std::vector<std::string>& dtypes) {
  const double line = 22, width = kCellColumns * kCellWidth;
  std::ostringstream svg;
  svg << SvgOpen(width, kHeader + line * pages.size() + 20);
  DrawHeader(svg, "hostnn-scale: GB/s against threads and size, " +
                      std::to_string(pages.size()) + " figures",
             context, dtypes);
  for (size_t p = 0; p < pages.size(); ++p) {
    std::string names;
    for (const std::string& g : pages[p]) names += (names.empty() ? "" : ", ") + g;
    svg << "<a xlink:href=\"" << Escape(BaseName(paths[p])) << "\" href=\""
        << Escape(BaseName(paths[p])) << "\"><text x=\"10\" y=\""
        << Num(kHeader + line * (p + 0.5)) << "\" font-size=\"12\" fill=\"#1a0dab\">"
        << Escape(BaseName(paths[p])) << ": " << Escape(names) << "</text></a>\n";
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace

CellExtent GroupExtent(const std::vector<Row>& rows, const std::string& group) {
  CellExtent extent;
  for (const Row& r : rows) {
    if (r.group != group) continue;
    extent.elements = std::max(extent.elements, r.elements);
    extent.threads = std::max(extent.threads, r.threads);
  }
  return extent;
}

std::string NoiseNote(const std::vector<Row>& rows, const std::vector<std::string>& groups,
                      size_t max_chars) {
  const std::string pct = std::to_string(static_cast<int>(100 * kNoiseSpread + 0.5)) + "%";
  std::vector<std::string> noisy;
  size_t cells = 0;
  for (const Row& r : rows) {
    if (std::find(groups.begin(), groups.end(), r.group) == groups.end()) continue;
    ++cells;
    if (r.Noise().empty()) continue;
    noisy.push_back(r.group + " " + r.dtype + " " + SizeLabel(static_cast<double>(r.elements)) +
                    " x" + std::to_string(r.threads) + " (" + r.Noise() + ")");
  }
  if (noisy.empty()) return "no cell is noise (median rounds within " + pct + " of the best)";
  std::string note = "hollow = noise (median round over " + pct +
                     " slower than the best): " + std::to_string(noisy.size()) + " of " +
                     std::to_string(cells) + " cells: ";
  // As many cells as fit, keeping room for the count of those left out.
  for (size_t i = 0; i < noisy.size(); ++i) {
    const std::string item = (i ? ", " : "") + noisy[i];
    const size_t after = noisy.size() - i - 1;
    const std::string tail = after ? ", and " + std::to_string(after) + " more" : "";
    if (note.size() + item.size() + tail.size() > max_chars) {
      note += i ? ", and " + std::to_string(noisy.size() - i) + " more" : "see the table";
      break;
    }
    note += item;
  }
  return note;
}

std::vector<PlotFile> RenderPlots(const std::vector<Row>& rows, const PlotContext& context,
                                  const std::string& path) {
  std::vector<std::string> groups;
  std::set<std::string> dtypes_seen;
  std::vector<std::string> dtypes;
  for (const Row& r : rows) {
    if (std::find(groups.begin(), groups.end(), r.group) == groups.end()) groups.push_back(r.group);
    if (dtypes_seen.insert(r.dtype).second) dtypes.push_back(r.dtype);
  }
  std::vector<std::vector<std::string>> pages;
  for (size_t g = 0; g < groups.size(); g += kCellsPerFigure) {
    pages.emplace_back(groups.begin() + g,
                       groups.begin() + std::min(groups.size(), g + kCellsPerFigure));
  }
  if (pages.empty()) pages.emplace_back();  // an empty sweep still gets its (empty) figure
  const bool indexed = pages.size() > 1;
  std::vector<PlotFile> files;
  std::vector<std::string> paths;
  for (size_t p = 0; p < pages.size(); ++p) {
    const std::vector<std::string>& page = pages[p];
    const size_t columns = std::min<size_t>(kCellColumns, std::max<size_t>(1, page.size()));
    const size_t grid_rows = std::max<size_t>(1, (page.size() + kCellColumns - 1) / kCellColumns);
    std::ostringstream svg;
    svg << SvgOpen(columns * kCellWidth,
                   std::max(kHeader + grid_rows * 2 * kPanelHeight + 10, 120.0));
    std::string title = "hostnn-scale: GB/s against threads and size";
    if (indexed) {
      title += " (figure " + std::to_string(p + 1) + " of " + std::to_string(pages.size()) + ")";
    }
    // The note takes one line: about 5.4 px a character at font-size 10.
    bool norms = false;
    for (const Row& r : rows) {
      norms =
          norms || (r.row_length > 0 && std::find(page.begin(), page.end(), r.group) != page.end());
    }
    DrawHeader(svg, title, context, dtypes,
               NoiseNote(rows, page, static_cast<size_t>(columns * kCellWidth / 5.4)), norms);
    for (size_t r = 1; r < grid_rows; ++r) {  // a rule between rows of cells
      const double y = kHeader + r * 2 * kPanelHeight - 2;
      svg << "<line x1=\"4\" x2=\"" << Num(columns * kCellWidth - 4) << "\" y1=\"" << Num(y)
          << "\" y2=\"" << Num(y) << "\" stroke=\"#999\"/>\n";
    }
    for (size_t c = 0; c < page.size(); ++c) {
      DrawCell(svg, rows, page[c], dtypes, (c % kCellColumns) * kCellWidth,
               kHeader + (c / kCellColumns) * 2 * kPanelHeight);
    }
    svg << "</svg>\n";
    paths.push_back(indexed ? FigurePath(path, p) : path);
    files.push_back({paths.back(), svg.str()});
  }
  if (indexed) files.push_back({path, RenderIndex(pages, paths, context, dtypes)});
  return files;
}

}  // namespace scale
}  // namespace hostnn
