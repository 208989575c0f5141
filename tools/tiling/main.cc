// hostnn-tiling: print, check and tune tiling plans from the command line (parsed by
// CLI11). Plans come from the library's own planner (tiling::MakePlan), so what this prints
// is what the operators run; the tool adds no planning logic of its own. Operators,
// profiles and help texts come from the operator list and the built-in profiles.

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "bench/cli_util.h"
#include "hostnn/op.h"
#include "hostnn/tiling.h"
#include "src/exec/launcher.h"
#include "tools/tiling/help.h"
#include "tools/tiling/ops_table.h"
#include "tools/tiling/random_case.h"
#include "tools/tiling/tune.h"
#include "tools/tiling/ub_table.h"

namespace hostnn {
namespace tiling_tool {
namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1;
constexpr int kExitUsage = 2;

// A command's flags as given: --name value or --name=value, each at most once.
struct CommandLine {
  std::string command;
  std::map<std::string, std::string> values;  // --name value, for the flags given
  bool json = false;
  bool help = false;
  bool additional_output = false;  // --additional-output (the commands that read a problem)
  bool dsum = false;               // --dsum
  bool scale_grad_by_freq = false;  // --scale-grad-by-freq
  bool weight = false;              // --weight (cross_entropy_loss: weightOptional given)
  bool label_smoothing = false;     // --label-smoothing (cross_entropy_loss: above 0)
};

// A library message in the tool's words: Options fields are command-line flags here.
std::string InFlags(std::string message) {
  static const char* const kNames[][2] = {{"Options.num_cores", "--num-cores"},
                                          {"Options.ub_bytes", "--ub-bytes"},
                                          {"Options.min_elems_per_core", "--min-elems-per-core"},
                                          {"Options.buffer_num", "--buffer-num"},
                                          {"Options: ", "--platform: "}};
  for (const auto& name : kNames) {
    const size_t at = message.find(name[0]);
    if (at != std::string::npos) message.replace(at, std::string(name[0]).size(), name[1]);
  }
  return message;
}

int Usage(const std::string& message) {
  std::fprintf(stderr, "hostnn-tiling: %s (see hostnn-tiling --help)\n", message.c_str());
  return kExitUsage;
}

bool ParseInt(const std::string& text, int64_t* value) {
  if (text.empty()) return false;
  size_t i = text[0] == '-' ? 1 : 0;
  if (i == text.size()) return false;
  for (; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return false;
  }
  errno = 0;
  const long long v = std::strtoll(text.c_str(), nullptr, 10);
  if (errno != 0) return false;
  *value = v;
  return true;
}

// Parses argv[2...] (argv[1] is the command) with CLI11: the flags in `allowed` take one
// value each, at most once; --json is a flag of plan, --additional-output, --dsum,
// --scale-grad-by-freq, --weight and --label-smoothing of plan and check (the commands with
// --param-dtype), -h / --help of every command.
int ParseCommandLine(int argc, char** argv, const std::vector<std::string>& allowed,
                     CommandLine* cl) {
  CLI::App app("hostnn-tiling " + cl->command, "hostnn-tiling " + cl->command);
  app.set_help_flag();  // the tool prints its own help texts
  app.allow_extras();   // named below, in the tool's words
  app.add_flag("-h,--help", cl->help);
  if (cl->command == "plan") app.add_flag("--json", cl->json);
  if (std::find(allowed.begin(), allowed.end(), "param-dtype") != allowed.end()) {
    app.add_flag("--additional-output", cl->additional_output);
    app.add_flag("--dsum", cl->dsum);
    app.add_flag("--scale-grad-by-freq", cl->scale_grad_by_freq);
    app.add_flag("--weight", cl->weight);
    app.add_flag("--label-smoothing", cl->label_smoothing);
  }
  std::map<std::string, CLI::Option*> options;
  std::map<std::string, std::string> values;
  for (const std::string& name : allowed) {
    options[name] = app.add_option("--" + name, values[name])
                        ->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  }
  try {
    app.parse(argc - 1, argv + 1);
  } catch (const CLI::ParseError& e) {
    return Usage(cl->command + ": " + e.what());
  }
  for (const std::string& extra : app.remaining()) {
    if (extra.rfind("-", 0) != 0) return Usage("unexpected argument '" + extra + "'");
    return Usage(cl->command + ": unknown option '" + extra.substr(0, extra.find('=')) + "'");
  }
  for (const auto& kv : options) {
    if (kv.second->count() > 1) return Usage("--" + kv.first + " is given twice");
    if (kv.second->count() > 0) cl->values[kv.first] = values[kv.first];
  }
  return kExitOk;
}

const std::vector<std::string> kProblemFlags = {"op",         "dtype",         "shape",
                                                "dim",        "group",         "param-dtype",
                                                "bias",       "index-dtype",   "num-weights",
                                                "platform",   "platform-file", "tuning-file",
                                                "num-cores",  "ub-bytes",      "min-elems-per-core",
                                                "buffer-num", "reduction"};

// Fills the problem and options from the command line: kExitUsage (with a message) for a
// malformed flag; an unknown operator or dtype is the plan's failure, in *invalid.
int ReadProblem(const CommandLine& cl, tiling::Problem* problem, tiling::Options* options,
                Status* invalid) {
  auto get = [&](const char* name) {
    auto it = cl.values.find(name);
    return it == cl.values.end() ? std::string() : it->second;
  };
  for (const char* required : {"op", "dtype", "shape"}) {
    if (get(required).empty()) return Usage(cl.command + ": --" + required + " is required");
  }
  if (!bench::ParseShape(get("shape"), &problem->shape)) {
    return Usage("--shape '" + get("shape") + "': expected extents like 1024,4096 or 1024x4096");
  }
  problem->dim = -1;
  if (!get("dim").empty() && !ParseInt(get("dim"), &problem->dim)) {
    return Usage("--dim '" + get("dim") + "': expected an integer");
  }
  if (!get("group").empty() && (!ParseInt(get("group"), &problem->group) || problem->group < 1)) {
    return Usage("--group '" + get("group") + "': expected a positive integer");
  }
  if (!get("bias").empty() && !tiling::ParseNormBias(get("bias"), &problem->norm.bias)) {
    return Usage("--bias '" + get("bias") + "': expected none, full or row");
  }
  problem->norm.additional_output = cl.additional_output;
  problem->norm.dsum = cl.dsum;
  problem->scale_grad_by_freq = cl.scale_grad_by_freq;
  problem->softmax_loss.weight = cl.weight;
  problem->softmax_loss.smoothing = cl.label_smoothing;
  if (!get("reduction").empty()) {
    const std::string r = get("reduction");
    if (r != "none" && r != "mean" && r != "sum") {
      return Usage("--reduction '" + r + "': expected none, mean or sum");
    }
    problem->softmax_loss.reduction = r == "none" ? 0 : r == "mean" ? 1 : 2;
  }
  if (!get("num-weights").empty() &&
      (!ParseInt(get("num-weights"), &problem->weight_rows) || problem->weight_rows < 1)) {
    return Usage("--num-weights '" + get("num-weights") + "': expected a positive integer");
  }
  problem->team = launch::TeamSize();  // the host profile's cores, as the operators see them
  options->platform = get("platform");
  options->platform_file = get("platform-file");
  options->tuning_file = get("tuning-file");
  struct IntFlag {
    const char* name;
    int64_t* value;
  };
  int64_t buffer_num = 0;
  for (const IntFlag& f :
       {IntFlag{"num-cores", &options->num_cores}, IntFlag{"ub-bytes", &options->ub_bytes},
        IntFlag{"min-elems-per-core", &options->min_elems_per_core},
        IntFlag{"buffer-num", &buffer_num}}) {
    const std::string text = get(f.name);
    if (text.empty()) continue;
    if (!ParseInt(text, f.value) || *f.value < 1) {
      return Usage(std::string("--") + f.name + " '" + text + "': expected a positive integer");
    }
  }
  if (buffer_num > 2) {
    return Usage("--buffer-num " + std::to_string(buffer_num) + ": expected 1 or 2");
  }
  options->buffer_num = static_cast<int>(buffer_num);
  *invalid = Status::Ok();
  if (!FindOp(get("op"), &problem->op)) {
    *invalid = Status::Invalid("op '" + get("op") + "' is unknown; expected one of: " + OpNames());
  } else if (!tiling::ParseDType(get("dtype"), &problem->dtype)) {
    *invalid = Status::Invalid("dtype '" + get("dtype") +
                               "' is unknown; expected f32, f16, bf16, f64, i32, i16, i8, u8, i64, "
                               "bool, c64 or c128");
  } else if (!get("index-dtype").empty() &&
             (!tiling::ParseDType(get("index-dtype"), &problem->index_dtype) ||
              (problem->index_dtype != DType::kInt32 && problem->index_dtype != DType::kInt64))) {
    *invalid =
        Status::Invalid("index dtype '" + get("index-dtype") + "' is unknown; expected i32 or i64");
  } else if (!get("param-dtype").empty() &&
             !tiling::ParseDType(get("param-dtype"), &problem->norm.param_dtype)) {
    *invalid = Status::Invalid("param dtype '" + get("param-dtype") +
                               "' is unknown; expected f32, " + "f16 or bf16");
  }
  return kExitOk;
}

// ReadProblem, then MakePlan: kExitOk with the plan, kExitUsage, or kExitFailed with *s.
int ReadAndPlan(const CommandLine& cl, tiling::Plan* plan, Status* s) {
  tiling::Problem problem;
  tiling::Options options;
  if (int rc = ReadProblem(cl, &problem, &options, s)) return rc;
  if (s->ok()) *s = tiling::MakePlan(problem, options, plan);  // MakePlan runs Check
  return s->ok() ? kExitOk : kExitFailed;
}

int RunPlan(const CommandLine& cl) {
  tiling::Plan plan;
  Status s;
  if (int rc = ReadAndPlan(cl, &plan, &s)) {
    if (rc != kExitFailed) return rc;
    std::fprintf(stderr, "hostnn-tiling plan: %s\n", InFlags(s.message()).c_str());
    return kExitFailed;
  }
  std::fputs((cl.json ? plan.ToJson() : plan.ToTable()).c_str(), stdout);
  return kExitOk;
}

int RunSweep(const CommandLine& cl) {
  int64_t count = 0, seed = 1;
  if (!ParseInt(cl.values.at("sweep"), &count) || count < 1) {
    return Usage("--sweep '" + cl.values.at("sweep") + "': expected a positive integer");
  }
  if (cl.values.count("seed") && !ParseInt(cl.values.at("seed"), &seed)) {
    return Usage("--seed '" + cl.values.at("seed") + "': expected an integer");
  }
  for (const auto& kv : cl.values) {
    if (kv.first != "sweep" && kv.first != "seed") {
      return Usage("check --sweep takes no --" + kv.first);
    }
  }
  std::mt19937_64 rng(static_cast<uint64_t>(seed));
  std::map<std::string, int64_t> kinds;
  int64_t failed = 0;
  for (int64_t i = 0; i < count; ++i) {
    const tiling_sweep::Case c = tiling_sweep::RandomCase(rng);
    tiling::Plan plan;
    const Status s = tiling_sweep::PlanCase(c, &plan);
    if (!s.ok()) {
      if (++failed <= 10) {
        std::printf("FAIL %s: %s\n", c.Describe().c_str(), s.message().c_str());
      }
      continue;
    }
    ++kinds[plan.kind == tiling::Plan::Kind::kElementwise
                ? std::string("elementwise")
                : std::string(tiling::TemplateName(plan.reduction.tmpl))];
  }
  std::printf("%lld random plans (seed %lld): %lld passed, %lld failed\n",
              static_cast<long long>(count), static_cast<long long>(seed),
              static_cast<long long>(count - failed), static_cast<long long>(failed));
  for (const auto& kv : kinds) {
    std::printf("  %-14s %lld\n", kv.first.c_str(), static_cast<long long>(kv.second));
  }
  return failed == 0 ? kExitOk : kExitFailed;
}

// The (core, tile) pairs of a plan.
template <class CorePlan>
int64_t CountTiles(const CorePlan& p) {
  int64_t tiles = 0;
  for (int64_t c = 0; c < p.block_dim; ++c) tiles += p.CoreTiles(c);
  return tiles;
}

int RunCheck(const CommandLine& cl) {
  if (cl.values.count("sweep")) return RunSweep(cl);
  if (cl.values.count("seed")) return Usage("check: --seed goes with --sweep");
  tiling::Plan plan;
  Status s;
  if (int rc = ReadAndPlan(cl, &plan, &s)) {
    if (rc != kExitFailed) return rc;
    std::printf("FAIL: %s\n", InFlags(s.message()).c_str());
    return kExitFailed;
  }
  if (plan.kind == tiling::Plan::Kind::kElementwise) {
    const tiling::ElementwisePlan& p = plan.elementwise;
    std::printf(
        "ok: %lld elements owned once by %lld (core, tile) pairs over %lld cores; "
        "UB %lld of %lld B\n",
        static_cast<long long>(p.n), static_cast<long long>(CountTiles(p)),
        static_cast<long long>(p.block_dim), static_cast<long long>(tiling::UbTotal(p.ub)),
        static_cast<long long>(plan.platform.ub_bytes));
  } else {
    const tiling::ReductionPlan& p = plan.reduction;
    std::printf(
        "ok: %s; %lld units of (A1, R, A0) = (%lld, %lld, %lld) owned once by %lld "
        "(core, tile) pairs over %lld cores; UB %lld of %lld B\n",
        tiling::TemplateName(p.tmpl), static_cast<long long>(p.units), static_cast<long long>(p.a1),
        static_cast<long long>(p.r), static_cast<long long>(p.a0),
        static_cast<long long>(CountTiles(p)), static_cast<long long>(p.block_dim),
        static_cast<long long>(tiling::UbTotal(p.ub)),
        static_cast<long long>(plan.platform.ub_bytes));
    if (plan.norm.planned) {
      const tiling::NormTiling& t = plan.norm;
      std::printf("ok: Atlas A2 %s %s (tiling key %lld): %lld rows of %lld on %lld cores\n",
                  t.kernel.c_str(), t.tmpl.c_str(), static_cast<long long>(t.tiling_key),
                  static_cast<long long>(t.rows), static_cast<long long>(t.cols),
                  static_cast<long long>(t.block_dim));
    }
  }
  return kExitOk;
}

int RunTune(const CommandLine& cl) {
  TuneRequest request;
  tiling::Options options;
  Status invalid;
  if (int rc = ReadProblem(cl, &request.problem, &options, &invalid)) return rc;
  if (!invalid.ok()) {
    std::fprintf(stderr, "hostnn-tiling tune: %s\n", invalid.message().c_str());
    return kExitFailed;
  }
  request.base.platform = options.platform;
  request.base.platform_file = options.platform_file;
  if (cl.values.count("repeats")) {
    int64_t repeats = 0;
    if (!ParseInt(cl.values.at("repeats"), &repeats) || repeats < 1 || repeats > 1000) {
      return Usage("--repeats '" + cl.values.at("repeats") + "': expected 1 to 1000");
    }
    request.repeats = static_cast<int>(repeats);
  }
  if (cl.values.count("out")) request.out_path = cl.values.at("out");
  return Tune(request);
}

int RunPlatforms(const CommandLine& cl) {
  std::vector<tiling::Platform> platforms;
  for (const std::string& name : tiling::PlatformNames()) {
    tiling::Platform p;
    tiling::FindPlatform(name, "", launch::TeamSize(), &p);
    platforms.push_back(p);
  }
  if (cl.values.count("platform-file")) {
    std::vector<tiling::Platform> user;
    const Status s = tiling::ReadPlatformFile(cl.values.at("platform-file"), &user);
    if (!s.ok()) {
      std::fprintf(stderr, "hostnn-tiling platforms: %s\n", s.message().c_str());
      return kExitFailed;
    }
    platforms.insert(platforms.end(), user.begin(), user.end());
  }
  std::printf("%-14s %6s %9s %12s %13s\n", "name", "cores", "ub_bytes", "block_bytes",
              "vector_bytes");
  for (const tiling::Platform& p : platforms) {
    std::printf("%-14s %6lld %9lld %12lld %13lld\n", p.name.c_str(),
                static_cast<long long>(p.cores), static_cast<long long>(p.ub_bytes),
                static_cast<long long>(p.block_bytes), static_cast<long long>(p.vector_bytes));
  }
  return kExitOk;
}

int RunUb(const CommandLine& cl) {
  const std::string only = cl.values.count("op") ? cl.values.at("op") : "";
  bool any = false;
  for (const Op op : AllOps()) {
    if (!only.empty() && only != GetOpInfo(op).snake_name) continue;
    const std::string table = UbTable(op);
    any = any || !table.empty();
    std::fputs(table.c_str(), stdout);
  }
  if (!any) {
    std::fprintf(stderr, "hostnn-tiling ub: '%s' is not an elementwise operator\n", only.c_str());
    return kExitFailed;
  }
  return kExitOk;
}

int Main(int argc, char** argv) {
  if (argc < 2 || std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h" ||
      std::string(argv[1]) == "help") {
    std::fputs(kUsage, argc < 2 ? stderr : stdout);
    return argc < 2 ? kExitUsage : kExitOk;
  }
  CommandLine cl;
  cl.command = argv[1];
  struct Command {
    const char* name;
    const char* help;
    bool problem_help;
    std::vector<std::string> flags;
    int (*run)(const CommandLine&);
  };
  std::vector<std::string> check_flags = kProblemFlags;
  check_flags.push_back("sweep");
  check_flags.push_back("seed");
  const Command commands[] = {
      {"plan", kPlanHelp, true, kProblemFlags, RunPlan},
      {"check", kCheckHelp, true, check_flags, RunCheck},
      {"tune",
       kTuneHelp,
       false,
       {"op", "dtype", "shape", "dim", "platform", "platform-file", "repeats", "out"},
       RunTune},
      {"platforms", kPlatformsHelp, false, {"platform-file"}, RunPlatforms},
      {"ub", kUbHelp, false, {"op"}, RunUb},
      {"ops", kOpsHelp, false, {}, [](const CommandLine&) { return std::fputs(OpsTable().c_str(), stdout) < 0 ? kExitFailed : kExitOk; }},
  };
  for (const Command& c : commands) {
    if (cl.command != c.name) continue;
    if (int rc = ParseCommandLine(argc, argv, c.flags, &cl)) return rc;
    if (cl.help) {
      std::fputs(c.help, stdout);
      if (c.problem_help) std::printf("\n%s", ProblemHelp().c_str());
      return kExitOk;
    }
    return c.run(cl);
  }
  return Usage("unknown command '" + cl.command + "'");
}

}  // namespace
}  // namespace tiling_tool
}  // namespace hostnn

HOSTNN_GUARDED_MAIN("hostnn-tiling", hostnn::tiling_tool::Main)
