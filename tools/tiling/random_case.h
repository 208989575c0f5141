// Random tiling problems for `hostnn-tiling check --sweep` and the property tests: an
// operator of the operator list, a shape, dtype, dim, platform (built-in or a random valid
// profile) and options. Header-only so both can share it; it plans and checks but never
// runs an operator.
#ifndef HOSTNN_TOOLS_TILING_RANDOM_CASE_H_
#define HOSTNN_TOOLS_TILING_RANDOM_CASE_H_

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hostnn/op.h"
#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling_sweep {

struct Case {
  tiling::Problem problem;
  tiling::Options options;  // named profiles: planned through MakePlan
  bool custom = false;      // a random profile: planned with `resolved` directly
  tiling::Resolved resolved;

  std::string Describe() const {
    std::string shape = "[";
    for (size_t i = 0; i < problem.shape.size(); ++i) {
      shape += (i ? "," : "") + std::to_string(problem.shape[i]);
    }
    shape += "]";
    const OpInfo& info = GetOpInfo(problem.op);
    std::string text =
        std::string(info.snake_name) + " " + tiling::ShortDTypeName(problem.dtype) + " " + shape;
    if (info.is_reduction) text += " dim " + std::to_string(problem.dim);
    if (custom) {
      const tiling::Platform& p = resolved.platform;
      text += " on a profile of " + std::to_string(p.cores) + " cores, UB " +
              std::to_string(p.ub_bytes) + ", block " + std::to_string(p.block_bytes) +
              ", vector " + std::to_string(p.vector_bytes) + ", min_elems " +
              std::to_string(resolved.min_elems_per_core) + ", buffer_num " +
              std::to_string(resolved.buffer_num);
    } else {
      text += " --platform " + options.platform;
      if (options.num_cores) text += " --num-cores " + std::to_string(options.num_cores);
      if (options.ub_bytes) text += " --ub-bytes " + std::to_string(options.ub_bytes);
      if (options.min_elems_per_core) {
        text += " --min-elems-per-core " + std::to_string(options.min_elems_per_core);
      }
      if (options.buffer_num) text += " --buffer-num " + std::to_string(options.buffer_num);
    }
    return text;
  }
};

// A value in [lo, hi], log-uniformly distributed (small values as likely as large ones).
inline int64_t LogUniform(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  std::uniform_real_distribution<double> u(std::log2(static_cast<double>(lo)),
                                           std::log2(static_cast<double>(hi) + 1));
  return std::min(hi, std::max(lo, static_cast<int64_t>(std::exp2(u(rng)))));
}

inline int64_t Pick(std::mt19937_64& rng, std::initializer_list<int64_t> values) {
  std::uniform_int_distribution<size_t> i(0, values.size() - 1);
  return *(values.begin() + i(rng));
}

// The host profile's cores in random cases: a fixed team, so a sweep plans alike on every
// machine.
constexpr int64_t kSweepTeam = 8;

// A random case with at most `max_elements` elements.
inline Case RandomCase(std::mt19937_64& rng, int64_t max_elements = int64_t{1} << 26) {
  static const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16,
                                  DType::kFloat64};
  std::uniform_int_distribution<int> coin(0, 1);
  Case c;
  // A quarter of the cases are reductions however many elementwise operators the list has,
  // so that every reduction template stays well covered as the list grows.
  static const std::array<std::vector<Op>, 2> kOpsByKind = [] {
    std::array<std::vector<Op>, 2> kinds;
    for (Op op : AllOps()) kinds[GetOpInfo(op).is_reduction ? 1 : 0].push_back(op);
    return kinds;
  }();
  const std::vector<Op>& ops = kOpsByKind[std::uniform_int_distribution<int>(0, 3)(rng) == 0];
  c.problem.op = ops[std::uniform_int_distribution<size_t>(0, ops.size() - 1)(rng)];
  c.problem.team = kSweepTeam;
  // LogSoftmaxBackward computes in f32: no f64 storage (LogSoftmax computes DOUBLE in double);
  // nor a norm or BatchNorm, which take no DOUBLE (and whose many inputs a small UB holds no
  // f64 chunk of).
  const OpInfo& info = GetOpInfo(c.problem.op);
  const bool f32_reduction = info.is_reduction && (!info.is_forward || IsNormFamily(info.shapes));
  c.problem.dtype = kDTypes[std::uniform_int_distribution<int>(0, f32_reduction ? 2 : 3)(rng)];

  const int rank = std::uniform_int_distribution<int>(0, 4)(rng);
  int64_t budget = LogUniform(rng, 1, max_elements);
  for (int i = 0; i < rank; ++i) {
    const int64_t extent = i + 1 == rank ? budget : LogUniform(rng, 1, budget);
    c.problem.shape.push_back(extent);
    budget = std::max<int64_t>(1, budget / extent);
  }
  std::shuffle(c.problem.shape.begin(), c.problem.shape.end(), rng);
  const int64_t n = std::max(rank, 1);
  c.problem.dim = std::uniform_int_distribution<int64_t>(-n, n - 1)(rng);
  if (info.kind == Kind::kGather) {  // Embedding: out's [indices, row length]
    const int64_t rows = LogUniform(rng, 1, max_elements);
    c.problem.shape = {rows, LogUniform(rng, 1, std::max<int64_t>(1, max_elements / rows))};
    c.problem.index_dtype = coin(rng) == 0 ? DType::kInt32 : DType::kInt64;
  }
  if (info.kind == Kind::kScatterAdd) {  // EmbeddingDenseBackward: grad's [rows, D] into
    // weight_rows rows of D, grad f32, f16 or bf16
    const int64_t d = LogUniform(rng, 1, max_elements);
    c.problem.shape = {LogUniform(rng, 1, std::max<int64_t>(1, max_elements / d)), d};
    c.problem.weight_rows = LogUniform(rng, 1, std::max<int64_t>(1, max_elements / d));
    c.problem.scale_grad_by_freq = coin(rng) == 0;
    c.problem.dtype = kDTypes[std::uniform_int_distribution<int>(0, 2)(rng)];
  }
  // NLLLoss: self's [positions, classes]; CrossEntropyLoss: input's [rows, classes]; f32, f16
  // or bf16.
  if (info.kind == Kind::kClassLoss || info.kind == Kind::kSoftmaxLoss) {
    const int64_t classes = LogUniform(rng, 1, max_elements);
    c.problem.shape = {LogUniform(rng, 1, std::max<int64_t>(1, max_elements / classes)), classes};
    c.problem.dtype = kDTypes[std::uniform_int_distribution<int>(0, 2)(rng)];
    if (info.kind == Kind::kSoftmaxLoss) {  // what its A2 tiling reads
      c.problem.softmax_loss.weight = coin(rng) == 0;
      c.problem.softmax_loss.smoothing = coin(rng) == 0;
      c.problem.softmax_loss.reduction = std::uniform_int_distribution<int64_t>(0, 2)(rng);
    }
  }
  if (info.is_split) {  // a gated unit splits a dim of even extent (at least 1-d)
    if (c.problem.shape.empty()) c.problem.shape.push_back(2);
    int64_t& extent = c.problem.shape[static_cast<size_t>(c.problem.dim < 0 ? c.problem.dim + n
                                                                            : c.problem.dim)];
    if (extent % 2 != 0) extent = extent > 1 ? extent - 1 : 2;
  }

  if (coin(rng) == 0) {  // a random valid profile, planned directly
    c.custom = true;
    tiling::Platform& p = c.resolved.platform;
    p.name = "random";
    p.cores = LogUniform(rng, 1, tiling::kMaxCores);
    p.block_bytes = Pick(rng, {16, 32, 64, 128, 256});
    p.vector_bytes = Pick(rng, {16, 32, 64, 128, 256, 512, 1024, 2048});
    p.ub_bytes = LogUniform(rng, tiling::MinUbBytes(p.block_bytes), int64_t{4} << 20);
    c.resolved.min_elems_per_core = LogUniform(rng, 1, 1 << 20);
    c.resolved.buffer_num = static_cast<int>(Pick(rng, {0, 0, 1, 2}));
    c.resolved.sources = "random profile";
    return c;
  }
  const std::vector<std::string> platforms = tiling::PlatformNames();
  c.options.platform =
      platforms[std::uniform_int_distribution<size_t>(0, platforms.size() - 1)(rng)];
  if (coin(rng)) c.options.num_cores = LogUniform(rng, 1, 4096);
  if (coin(rng)) c.options.ub_bytes = LogUniform(rng, 16384, int64_t{4} << 20);
  if (coin(rng)) c.options.min_elems_per_core = LogUniform(rng, 1, 1 << 20);
  c.options.buffer_num = static_cast<int>(Pick(rng, {0, 0, 1, 2}));
  return c;
}

// Plans a case and checks the plan (MakePlan, or PlanProblem + Check for a random profile).
inline Status PlanCase(const Case& c, tiling::Plan* plan) {
  if (!c.custom) return tiling::MakePlan(c.problem, c.options, plan);
  HOSTNN_RETURN_IF_ERROR(tiling::ValidatePlatform(c.resolved.platform));
  HOSTNN_RETURN_IF_ERROR(tiling::PlanProblem(c.problem, c.resolved, plan));
  return plan->Check();
}

}  // namespace tiling_sweep
}  // namespace hostnn

#endif  // HOSTNN_TOOLS_TILING_RANDOM_CASE_H_
