// The SVG plot (see svg_plot.h): a minimal line-chart writer, enough for small multiples
// of GB/s curves; axes start at zero so bars of different panels compare by eye.

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
  const double left = 48, right = 10, top = 22, bottom = 36;
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
        << (chart.log_x ? SizeLabel(x) : std::to_string(static_cast<int64_t>(x))) << "</text>\n";
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
        svg << "<circle cx=\"" << Num(fx(p.x)) << "\" cy=\"" << Num(fy(p.y))
            << "\" r=\"2.5\" fill=\"" << s.color << "\"/>\n";
      }
    }
  }
  svg << "</g>\n";
}

}  // namespace

std::string RenderSvg(const std::vector<Row>& rows, const std::string& title) {
  std::vector<std::string> groups;
  std::set<std::string> dtypes_seen;
  std::vector<std::string> dtypes;
  int64_t max_elems = 0;
  int max_threads = 0;
  for (const Row& r : rows) {
    if (std::find(groups.begin(), groups.end(), r.group) == groups.end()) groups.push_back(r.group);
    if (dtypes_seen.insert(r.dtype).second) dtypes.push_back(r.dtype);
    max_elems = std::max(max_elems, r.elements);
    max_threads = std::max(max_threads, r.threads);
  }
  const double cw = 280, ch = 220, header = 58;
  const double width = std::max<double>(1, groups.size()) * cw;
  const double height = header + 2 * ch + 10;
  std::ostringstream svg;
  svg << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << Num(width) << "\" height=\""
      << Num(height) << "\" viewBox=\"0 0 " << Num(width) << " " << Num(height)
      << "\" font-family=\"sans-serif\">\n"
      << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
      << "<text x=\"10\" y=\"18\" font-size=\"14\" font-weight=\"bold\">" << Escape(title)
      << "</text>\n";
  // Legend: one swatch per dtype, and what dashed means.
  double lx = 10;
  for (const std::string& d : dtypes) {
    svg << "<line x1=\"" << Num(lx) << "\" x2=\"" << Num(lx + 20)
        << "\" y1=\"36\" y2=\"36\" stroke=\"" << DTypeColor(d)
        << "\" stroke-width=\"2\"/><text x=\"" << Num(lx + 24) << "\" y=\"40\" font-size=\"11\">"
        << d << "</text>\n";
    lx += 70;
  }
  svg << "<line x1=\"" << Num(lx) << "\" x2=\"" << Num(lx + 20)
      << "\" y1=\"36\" y2=\"36\" stroke=\"#333\" "
      << "stroke-dasharray=\"5,3\"/><text x=\"" << Num(lx + 24) << "\" y=\"40\" font-size=\"11\">"
      << "roofline (reads 2 arrays, writes 1, plain stores; same bytes, threads, run)</text>\n";

  for (size_t g = 0; g < groups.size(); ++g) {
    Chart by_threads, by_size;
    by_threads.title = groups[g] + ", " + SizeLabel(static_cast<double>(max_elems));
    by_threads.x_label = "threads";
    by_threads.y_label = "GB/s";
    by_size.title =
        groups[g] + ", " + std::to_string(max_threads) + " thread" + (max_threads > 1 ? "s" : "");
    by_size.x_label = "elements";
    by_size.y_label = "GB/s";
    by_size.log_x = true;
    for (const std::string& d : dtypes) {
      Series t_op{d, DTypeColor(d), false, {}}, t_roof{d + " roofline", DTypeColor(d), true, {}};
      Series s_op{d, DTypeColor(d), false, {}}, s_roof{d + " roofline", DTypeColor(d), true, {}};
      for (const Row& r : rows) {
        if (r.group != groups[g] || r.dtype != d) continue;
        if (r.elements == max_elems) {
          t_op.points.push_back({static_cast<double>(r.threads), r.Gbps()});
          t_roof.points.push_back({static_cast<double>(r.threads), r.RooflineGbps()});
        }
        if (r.threads == max_threads) {
          s_op.points.push_back({static_cast<double>(r.elements), r.Gbps()});
          s_roof.points.push_back({static_cast<double>(r.elements), r.RooflineGbps()});
        }
      }
      for (Series* s : {&t_roof, &t_op}) {
        if (!s->points.empty()) by_threads.series.push_back(*s);
      }
      for (Series* s : {&s_roof, &s_op}) {
        if (!s->points.empty()) by_size.series.push_back(*s);
      }
    }
    DrawChart(svg, by_threads, g * cw, header, cw, ch);
    DrawChart(svg, by_size, g * cw, header + ch, cw, ch);
  }
  svg << "</svg>\n";
  return svg.str();
}

}  // namespace scale
}  // namespace hostnn
