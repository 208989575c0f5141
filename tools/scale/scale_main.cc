// hostnn-scale: times every operator x dtype x size x thread count against the memory
// roofline (a read-two-write-one kernel over the same buffers, interleaved; measure.cc says
// how), prints a table and writes CSV and an SVG plot, marking the cells that are noise.
// Thread counts go through omp_set_num_threads, whose team size the operators hand the
// host profile at Prepare time. The command line is parsed by CLI11; operators come from
// the operator list.

#include <omp.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "bench/cases.h"
#include "bench/cli_util.h"
#include "bench/roofline.h"
#include "bench/timing.h"
#include "hostnn/hostnn.h"
#include "kernels/kernels.h"
#include "tools/scale/measure.h"
#include "tools/scale/svg_plot.h"

namespace hostnn {
namespace scale {
namespace {

// The CPU's model name and the cores the process may run on, for the plots' headers:
// /proc/cpuinfo's first "model name" (x86) or "CPU part" (Arm), else uname's machine.
std::string MachineName() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, model;
  while (model.empty() && std::getline(cpuinfo, line)) {
    for (const char* key : {"model name", "CPU part"}) {
      if (line.rfind(key, 0) == 0 && line.find(':') != std::string::npos) {
        model = line.substr(line.find(':') + 1);
        model.erase(0, model.find_first_not_of(" \t"));
        if (std::string(key) == "CPU part") model = "Arm CPU part " + model;
        break;
      }
    }
  }
  utsname uts{};
  if (model.empty()) model = uname(&uts) == 0 ? uts.machine : "unknown CPU";
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  return model + ", " + std::to_string(cores) + (cores == 1 ? " core" : " cores");
}

// The usage text, with the operators of the operator list.
std::string Usage() {
  const std::string ops = bench::WrapList(OpNames() + " (default: all)", 14);
  return "usage: hostnn-scale [--ops silu_backward,...] [--dtypes f32,bf16,f16]\n"
         "                    [--sizes 4096,262144,4M,...] [--shape 1024x4096 [--dim 0]]...\n"
         "                    [--norm-shapes 4096x64,1024x1024,...]\n"
         "                    [--threads 1,2,...] [--samples N] [--sample-ms MS] [--no-call]\n"
         "                    [--param name=value]... [--csv FILE] [--svg FILE]\n"
         "\n"
         "Times each case in rounds interleaved with the roofline kernel (reads two arrays,\n"
         "writes one, plain stores; same bytes) after one untimed round, and reports the\n"
         "operator's median round and the roofline's best, on the row's threads or on 1 where\n"
         "that is faster. A cell whose median round is over " +
         std::to_string(static_cast<int>(100 * kNoiseSpread + 0.5)) +
         "% slower than its best (op or\n"
         "roof) is noise: marked in the table, the CSV and the plot. Flags take their value\n"
         "as --flag value or --flag=value. HOSTNN_BENCH_TARGET=AVX2 (or another target this\n"
         "build and CPU run) forces hostnn's SIMD target.\n"
         "  --ops       " +
         ops +
         "\n"
         "  --dtypes    f32, f16, bf16, f64 (LogSoftmax and the operators computed in double:\n"
         "              Sigmoid, SigmoidBackward, LeakyRelu, LeakyReluBackward, Elu and their\n"
         "              in-place forms) (default: f32, f16, bf16)\n"
         "  --sizes     elements per tensor; K and M suffixes are powers of two (default\n"
         "              4K,256K,4M). A reduction (LogSoftmax) runs [n/1024,1024] dim -1 and\n"
         "              [1024,n/1024] dim 0; a gated unit (Glu) self [n/1024,2048] dim -1.\n"
         "  --shape     an explicit shape, extents joined by 'x' or ',' (1024x4096, 4Kx1K;\n"
         "              repeatable; replaces --sizes), with\n"
         "  --dim       a reduction's or a gated unit's dim for the --shape just before it\n"
         "              (default -1)\n"
         "  --norm-shapes rows x row length of the normalisation family's cases (LayerNorm,\n"
         "              RmsNorm, AddRmsNorm, GroupNorm and their gradients), in place of --sizes\n"
         "              (default 4096x64,1024x1024,256x16384,64x65536,8192x4096); GroupNorm's\n"
         "              rows are N x group, 8 groups of 4 channels where the extents divide.\n"
         "              A norm's roofline moves each array of x's size its call must move once\n"
         "              (a forward: x read, y written, 2 passes; a gradient: dy and x read, dx\n"
         "              written, 3; AddRmsNorm: 4), its per-row and per-column ones not counted\n"
         "  --threads   OpenMP thread counts (default 1..cores, doubling past 4)\n"
         "  --samples   timed rounds per case (default 11)\n"
         "  --sample-ms length of one sample in ms (default 4)\n"
         "  --no-call   skip timing both phases of one C API call (done for <= 1M elements)\n"
         "  --csv       write one line per case: op,dtype,shape,elements,threads,ns_per_elem,\n"
         "              gbps,roofline_ns_per_elem,roofline_gbps,pct_of_roofline,"
         "speedup_vs_1t,call_us,\n"
         "              kernel_path (SIMD target, direct or gathered, conversions, stores),\n"
         "              roofline_threads,op_spread_pct,roofline_spread_pct,noise\n"
         "  --param     name=value: a scalar parameter of the operators of --ops that have it\n"
         "              (negativeSlope=0.2; repeatable; default: each operator's, PyTorch's)\n"
         "  --svg       plot GB/s against threads (per op, at its largest size) and against\n"
         "              size (its largest thread count), rooflines dashed, noise hollow; 8\n"
         "              ops a figure; more write FILE-1.svg, FILE-2.svg, ... and an index at\n"
         "              FILE\n";
}

struct Args {
  std::vector<Op> ops;
  std::vector<DType> dtypes;
  std::vector<int64_t> sizes;
  std::vector<std::pair<std::vector<int64_t>, int64_t>> shapes;  // shape, dim
  std::vector<bench::NormShape> norm_shapes;                     // the norms' grid
  std::vector<int> threads;
  MeasureOptions measure;
  std::string csv, svg;
  std::vector<std::pair<std::string, double>> params;  // --param name=value
};

using bench::ParseCount;
using bench::Split;

bool Fail(const std::string& message) {
  std::fprintf(stderr, "hostnn-scale: %s\n%s", message.c_str(), Usage().c_str());
  return false;
}

// The command line, parsed by CLI11: every flag but --no-call and --help takes one value;
// --shape repeats, and each --dim applies to the --shape before it.
bool ParseArgs(int argc, char** argv, Args* args) {
  CLI::App app("hostnn-scale", "hostnn-scale");
  app.set_help_flag();  // the tool prints its own usage
  app.allow_extras();   // named below, in the tool's words
  bool help = false, no_call = false;
  std::string samples, sample_ms, norm_shapes;
  // Lists may be given in several flags (--ops a --ops b); each --shape is one shape.
  std::vector<std::string> ops, dtypes, sizes, threads, shapes, dims;
  app.add_flag("-h,--help", help);
  app.add_flag("--no-call", no_call);
  app.add_option("--ops", ops)->allow_extra_args(false);
  app.add_option("--dtypes", dtypes)->allow_extra_args(false);
  app.add_option("--sizes", sizes)->allow_extra_args(false);
  CLI::Option* shape_flag = app.add_option("--shape", shapes)->allow_extra_args(false);
  CLI::Option* dim_flag = app.add_option("--dim", dims)->allow_extra_args(false);
  app.add_option("--threads", threads)->allow_extra_args(false);
  app.add_option("--norm-shapes", norm_shapes)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--samples", samples)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--sample-ms", sample_ms)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--csv", args->csv)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  app.add_option("--svg", args->svg)->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  std::vector<std::string> params;
  app.add_option("--param", params)->allow_extra_args(false);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return Fail(e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("-", 0) != 0) return Fail("unexpected argument '" + extra + "'");
    return Fail("unknown option '" + extra.substr(0, extra.find('=')) + "'");
  }
  if (help) {
    std::fputs(Usage().c_str(), stdout);
    std::exit(0);
  }
  args->measure.time_calls = !no_call;
  // The items of every occurrence of a list flag, in order.
  auto items = [](const std::vector<std::string>& flags) {
    std::vector<std::string> all;
    for (const std::string& f : flags) {
      for (const std::string& item : Split(f, ',')) all.push_back(item);
    }
    return all;
  };
  for (const std::string& name : items(ops)) {
    Op op;
    if (!FindOp(name, &op)) {
      return Fail("unknown operator '" + name + "'; expected one of: " + OpNames());
    }
    args->ops.push_back(op);
  }
  for (const std::string& name : items(dtypes)) {
    DType d;
    if (!bench::ParseShortDType(name, &d)) {
      return Fail("unknown dtype '" + name + "' (f32, f16, bf16, f64)");
    }
    args->dtypes.push_back(d);
  }
  for (const std::string& s : items(sizes)) {
    int64_t n;
    if (!ParseCount(s, &n)) return Fail("bad size '" + s + "'");
    args->sizes.push_back(n);
  }
  // --shape and --dim in the order given: a --dim belongs to the --shape before it.
  size_t next_shape = 0, next_dim = 0;
  for (const CLI::Option* flag : app.parse_order()) {
    if (flag == shape_flag) {
      const std::string& text = shapes[next_shape++];
      std::vector<int64_t> shape;
      bool positive = bench::ParseShape(text, &shape) && !shape.empty();
      for (const int64_t extent : shape) positive = positive && extent > 0;
      if (!positive) return Fail("bad shape '" + text + "'");
      args->shapes.push_back({shape, -1});
    } else if (flag == dim_flag) {
      const std::string& text = dims[next_dim++];
      char* end = nullptr;
      const int64_t dim = std::strtoll(text.c_str(), &end, 10);
      if (text.empty() || *end != '\0') return Fail("bad dim '" + text + "'");
      if (args->shapes.empty()) return Fail("--dim must follow the --shape it applies to");
      args->shapes.back().second = dim;
    }
  }
  if (!norm_shapes.empty() && !bench::ParseNormShapes(norm_shapes, &args->norm_shapes)) {
    return Fail("bad --norm-shapes '" + norm_shapes + "' (rows x length, e.g. 4096x64,1024x1024)");
  }
  for (const std::string& s : items(threads)) {
    int64_t t;
    if (!ParseCount(s, &t) || t > 4096) return Fail("bad thread count '" + s + "'");
    args->threads.push_back(static_cast<int>(t));
  }
  if (!samples.empty()) {
    int64_t n;
    if (!ParseCount(samples, &n)) return Fail("bad sample count '" + samples + "'");
    args->measure.samples = static_cast<int>(n);
  }
  if (!sample_ms.empty()) {
    char* end = nullptr;
    args->measure.sample_ms = std::strtod(sample_ms.c_str(), &end);
    if (*end != '\0' || !(args->measure.sample_ms > 0)) {
      return Fail("bad --sample-ms '" + sample_ms + "'");
    }
  }
  if (args->ops.empty()) {
    for (const Op op : AllOps()) args->ops.push_back(op);
  }
  // Each --param names a scalar parameter of at least one operator of --ops.
  for (const std::string& p : items(params)) {
    const size_t eq = p.find('=');
    const std::string name = p.substr(0, eq);
    char* end = nullptr;
    const double value = eq == std::string::npos ? 0.0 : std::strtod(p.c_str() + eq + 1, &end);
    if (eq == std::string::npos || eq + 1 == p.size() || *end != '\0') {
      return Fail("bad --param '" + p + "' (name=value)");
    }
    bool known = false;
    for (Op op : args->ops) {
      for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
        known = known || name == GetOpInfo(op).scalars[k].name;
      }
    }
    if (!known) return Fail("no operator of --ops has a parameter '" + name + "'");
    args->params.push_back({name, value});
  }
  if (args->dtypes.empty()) args->dtypes = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  if (args->sizes.empty()) args->sizes = {4096, 262144, 4194304};
  if (args->norm_shapes.empty()) args->norm_shapes = bench::DefaultNormShapes();
  if (args->threads.empty()) {
    const int max = std::max(1, omp_get_max_threads());
    for (int t = 1; t <= max; t = t < 4 ? t + 1 : 2 * t) args->threads.push_back(t);
    if (args->threads.back() != max) args->threads.push_back(max);
  }
  return true;
}

void PrintHeader(const Args& args) {
  std::printf(
      "hostnn-scale: SIMD target %s (roofline %s), %d OpenMP threads max, %ld online CPUs\n",
      kernels::ActiveTargetName().c_str(), bench::RooflineTarget(), omp_get_max_threads(),
      sysconf(_SC_NPROCESSORS_ONLN));
  std::printf(
      "%d rounds of >= %.1f ms samples after an untimed one, the roofline interleaved over the "
      "same buffers;\nop: median round; roof: best round, on rthr threads (the row's, or 1 "
      "where faster);\npass: arrays of the case's size the call must move and the roofline "
      "moves (a norm's rows x length: 2 for a forward, one read of x and one write of y;\n3 "
      "for a gradient; AddRmsNorm 4; per-row and per-column operands not counted);\n%%roof = "
      "roofline time / op time (over 100%%: faster than the "
      "roofline);\nnoise: median round over %.0f%% slower than the best (op, roof): the cell "
      "may move by as much\n\n",
      args.measure.samples, args.measure.sample_ms, 100 * kNoiseSpread);
  std::printf("%-21s %-5s %-20s %3s %9s %9s %4s %4s %7s %9s %6s %7s %8s %9s  %s\n", "op", "dtype",
              "shape", "thr", "ns/elem", "roof ns", "rthr", "pass", "GB/s", "roof GB/s", "%roof",
              "noise", "speedup", "call us", "kernel path");
}

void PrintRow(const Row& r) {
  char speedup[16] = "-", call[16] = "-";
  if (r.speedup > 0) std::snprintf(speedup, sizeof(speedup), "%.2fx", r.speedup);
  if (r.timing.call_ns > 0) std::snprintf(call, sizeof(call), "%.2f", r.timing.call_ns / 1000);
  const std::string noise = r.Noise().empty() ? "-" : r.Noise();
  std::printf("%-21s %-5s %-20s %3d %9.4f %9.4f %4d %4.0f %7.1f %9.1f %5.0f%% %7s %8s %9s  %s\n",
              r.op.c_str(), r.dtype.c_str(), r.shape.c_str(), r.threads, r.NsPerElem(),
              r.RooflineNsPerElem(), r.timing.roofline_threads, r.passes, r.Gbps(),
              r.RooflineGbps(), r.PercentOfRoofline(), noise.c_str(), speedup, call,
              r.timing.kernel_path.c_str());
  std::fflush(stdout);
}

bool WriteCsv(const std::string& path, const std::vector<Row>& rows) {
  std::ofstream f(path);
  if (!f) return false;
  f << "op,dtype,shape,elements,threads,ns_per_elem,gbps,roofline_ns_per_elem,roofline_gbps,"
       "pct_of_roofline,speedup_vs_1t,call_us,kernel_path,roofline_threads,op_spread_pct,"
       "roofline_spread_pct,noise,rows,row_length,roofline_passes\n";
  char line[640];
  for (const Row& r : rows) {
    std::snprintf(
        line, sizeof(line),
        "%s,%s,\"%s\",%lld,%d,%.5f,%.3f,%.5f,%.3f,%.1f,%.3f,%.3f,\"%s\",%d,%.1f,%.1f,%s,%s,%s,%g\n",
        r.op.c_str(), r.dtype.c_str(), r.shape.c_str(), static_cast<long long>(r.elements),
        r.threads, r.NsPerElem(), r.Gbps(), r.RooflineNsPerElem(), r.RooflineGbps(),
        r.PercentOfRoofline(), r.speedup, r.timing.call_ns / 1000, r.timing.kernel_path.c_str(),
        r.timing.roofline_threads, 100 * r.OpSpread(), 100 * r.RooflineSpread(), r.Noise().c_str(),
        r.rows > 0 ? std::to_string(r.rows).c_str() : "",
        r.row_length > 0 ? std::to_string(r.row_length).c_str() : "", r.passes);
    f << line;
  }
  return static_cast<bool>(f);
}

int Main(int argc, char** argv) {
  Args args;
  if (!ParseArgs(argc, argv, &args)) return 2;
  if (!bench::ForceBenchTarget("hostnn-scale")) return 2;
  std::vector<bench::CaseSpec> specs;
  for (Op op : args.ops) {
    // The operator's scalar parameters: the defaults, then the --param values it has.
    // A case's own values (GroupNorm's N, C, HxW and group, from its shape) stand where no
    // --param names the parameter.
    std::vector<double> scalars;
    std::vector<bool> given;
    for (int k = 0; k < GetOpInfo(op).num_scalars(); ++k) {
      scalars.push_back(GetOpInfo(op).scalars[k].default_value);
      given.push_back(false);
      for (const auto& p : args.params) {
        if (p.first == GetOpInfo(op).scalars[k].name)
          scalars.back() = p.second, given.back() = true;
      }
    }
    for (DType dtype : args.dtypes) {
      if (!bench::BenchTakes(op, dtype)) continue;
      std::vector<bench::CaseSpec> cases;
      if (!args.shapes.empty()) {
        for (const auto& s : args.shapes) {
          cases.push_back(bench::CaseSpec{op, dtype, s.first, s.second, {}});
          bench::SetShapeScalars(&cases.back());
        }
      } else if (bench::IsNormOp(op)) {  // the norms' grid, rows x length
        for (const bench::NormShape& s : args.norm_shapes) {
          cases.push_back(bench::NormCase(op, dtype, s));
        }
      } else {
        for (int64_t n : args.sizes) {
          for (const bench::CaseSpec& c : bench::StandardCases(op, dtype, n)) cases.push_back(c);
        }
      }
      for (bench::CaseSpec& c : cases) {
        const std::vector<double> own = c.scalars;
        c.scalars = scalars;
        for (size_t k = 0; k < own.size() && k < c.scalars.size(); ++k) {
          if (!given[k]) c.scalars[k] = own[k];
        }
        specs.push_back(c);
      }
    }
  }
  PrintHeader(args);
  std::vector<Row> rows;
  // One line on stderr, rewritten on a terminal; in a log, a line every 5 seconds at most.
  bench::Progress progress("", specs.size() * args.threads.size(), 5.0);
  size_t done = 0;
  int failures = 0;
  for (const bench::CaseSpec& spec : specs) {
    const std::string op = GetOpInfo(spec.op).snake_name;
    progress.Update(
        done, op + " " + bench::ShortDTypeName(spec.dtype) + " " + spec.ShapeText() + ": filling");
    std::unique_ptr<bench::CaseData> data;
    try {
      data = std::make_unique<bench::CaseData>(spec);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "hostnn-scale: %s %s: %s\n", op.c_str(), spec.ShapeText().c_str(),
                   e.what());
      ++failures;
      done += args.threads.size();
      continue;
    }
    double one_thread_ns = 0;
    for (int threads : args.threads) {
      progress.Update(done++, op + " " + bench::ShortDTypeName(spec.dtype) + " " +
                                  spec.ShapeText() + " x" + std::to_string(threads) + " threads");
      Row row;
      row.op = op;
      row.dtype = bench::ShortDTypeName(spec.dtype);
      row.shape = spec.ShapeText();
      row.group = GetOpInfo(spec.op).is_reduction && !bench::IsNormOp(spec.op)
                      ? op + " dim " + std::to_string(spec.dim)
                      : op;
      row.elements = spec.Elements();
      row.threads = threads;
      row.bytes = data->Bytes();
      row.passes = data->Passes();
      const bench::NormShape grid = bench::NormShapeOf(spec);
      row.rows = grid.rows;
      row.row_length = grid.length;
      Status s = MeasureCase(data.get(), threads, args.measure, &row.timing);
      if (!s.ok()) {
        progress.Clear();
        std::fprintf(stderr, "hostnn-scale: %s %s: %s\n", op.c_str(), row.shape.c_str(),
                     s.message().c_str());
        ++failures;
        continue;
      }
      if (threads == 1) one_thread_ns = row.timing.op_ns;
      if (one_thread_ns > 0) row.speedup = one_thread_ns / row.timing.op_ns;
      progress.Clear();
      PrintRow(row);
      rows.push_back(row);
    }
  }
  progress.Clear();
  omp_set_num_threads(args.threads.back());
  if (!args.csv.empty() && !WriteCsv(args.csv, rows)) {
    std::fprintf(stderr, "hostnn-scale: cannot write %s\n", args.csv.c_str());
    ++failures;
  }
  if (!args.svg.empty()) {
    const PlotContext context{MachineName(), kernels::ActiveTargetName()};
    for (const PlotFile& plot : RenderPlots(rows, context, args.svg)) {
      std::ofstream f(plot.path);
      f << plot.svg;
      if (!f) {
        std::fprintf(stderr, "hostnn-scale: cannot write %s\n", plot.path.c_str());
        ++failures;
      }
    }
  }
  return failures == 0 ? 0 : 1;
}

}  // namespace
}  // namespace scale
}  // namespace hostnn

HOSTNN_GUARDED_MAIN("hostnn-scale", hostnn::scale::Main)
