// The plan cache behind the operators' phase 1: a shape seen before is not resolved,
// planned and checked again. Resolving builds the knobs' explanations and planning builds
// the UB budget's, which together cost several times what a small tensor's kernel does;
// a lookup is a hash and a few comparisons. A plan is a pure function of what the key
// holds (the problem with its team size, the options and the HOSTNN_ environment), so a
// hit returns exactly what MakePlan would. The team comes with the problem: tiling never
// asks OpenMP.

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include "base/boundary.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {
namespace {

struct Entry {
  uint64_t hash = 0;
  Problem problem;
  Options options;
  Environment env;
  uint64_t last_used = 0;
  std::shared_ptr<const Plan> plan;
};

struct Cache {
  std::mutex mu;
  std::vector<Entry> entries;
  uint64_t tick = 0;
};

Cache& GetCache() {
  static Cache* cache = new Cache();  // never destroyed: phase 1 may run during exit
  return *cache;
}

uint64_t Mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull + (h >> 29); }

uint64_t HashOf(const Problem& p) {
  uint64_t h = Mix(0xcbf29ce484222325ull, static_cast<uint64_t>(p.op));
  h = Mix(h, static_cast<uint64_t>(p.dtype));
  for (const int64_t d : p.shape) h = Mix(h, static_cast<uint64_t>(d));
  h = Mix(h, static_cast<uint64_t>(p.shape.size()));
  h = Mix(h, static_cast<uint64_t>(p.dim));
  h = Mix(h, static_cast<uint64_t>(p.group));
  h = Mix(h, static_cast<uint64_t>(static_cast<int64_t>(p.index_dtype)));
  h = Mix(h, static_cast<uint64_t>(p.weight_rows) * 2 + (p.scale_grad_by_freq ? 1 : 0));
  h = Mix(h, static_cast<uint64_t>(static_cast<int64_t>(p.norm.param_dtype)));
  h = Mix(h, static_cast<uint64_t>(p.norm.bias) * 4 + (p.norm.additional_output ? 2 : 0) +
                 (p.norm.dsum ? 1 : 0));
  h = Mix(h, static_cast<uint64_t>(p.softmax_loss.reduction) * 4 + (p.softmax_loss.weight ? 2 : 0) +
                 (p.softmax_loss.smoothing ? 1 : 0));
  return Mix(h, static_cast<uint64_t>(p.team));
}

bool SameOptions(const Options& a, const Options& b) {
  return a.platform == b.platform && a.platform_file == b.platform_file &&
         a.tuning_file == b.tuning_file && a.num_cores == b.num_cores && a.ub_bytes == b.ub_bytes &&
         a.min_elems_per_core == b.min_elems_per_core && a.buffer_num == b.buffer_num;
}

bool Matches(const Entry& e, uint64_t hash, const Problem& p, const Options& o,
             const Environment& env) {
  return e.hash == hash && e.problem.team == p.team && e.problem.op == p.op &&
         e.problem.dtype == p.dtype && e.problem.shape == p.shape && e.problem.dim == p.dim &&
         e.problem.group == p.group && e.problem.norm == p.norm &&
         e.problem.index_dtype == p.index_dtype && e.problem.weight_rows == p.weight_rows &&
         e.problem.scale_grad_by_freq == p.scale_grad_by_freq &&
         e.problem.softmax_loss == p.softmax_loss && SameOptions(e.options, o) && e.env == env;
}

Status Make(const Environment& env, const Problem& problem, const Options& options,
            std::shared_ptr<const Plan>* plan) {
  Resolved resolved;
  HOSTNN_RETURN_IF_ERROR(ResolveIn(env, options, problem, &resolved));
  auto made = std::make_shared<Plan>();
  HOSTNN_RETURN_IF_ERROR(PlanProblem(problem, resolved, made.get()));
  HOSTNN_RETURN_IF_ERROR(made->Check());
  *plan = std::move(made);
  return Status::Ok();
}

}  // namespace

bool PlanReadsAFile(const Options& o, const Environment& env) {
  static const int kFileVariables[] = {VariableIndex("HOSTNN_PLATFORM_FILE"),
                                       VariableIndex("HOSTNN_TUNING_FILE")};
  for (const int i : kFileVariables) {
    if (!env.values[i].empty()) return true;
  }
  return !o.platform_file.empty() || !o.tuning_file.empty();
}

Status MakeSharedPlan(const Problem& problem, const Options& options,
                      std::shared_ptr<const Plan>* plan) {
  return StatusBoundary("MakeSharedPlan", [&] {
    const Environment env = ReadEnvironment();
    if (PlanReadsAFile(options, env)) return Make(env, problem, options, plan);
    const uint64_t hash = HashOf(problem);
    Cache& cache = GetCache();
    // The kept plan for the key, marked used; null when there is none. Pre: cache.mu held.
    auto find = [&]() -> std::shared_ptr<const Plan> {
      for (Entry& e : cache.entries) {
        if (Matches(e, hash, problem, options, env)) {
          e.last_used = ++cache.tick;
          return e.plan;
        }
      }
      return nullptr;
    };
    {
      std::lock_guard<std::mutex> lock(cache.mu);
      if (std::shared_ptr<const Plan> kept = find()) {
        *plan = std::move(kept);
        return Status::Ok();
      }
    }
    std::shared_ptr<const Plan> made;                            // planned outside the lock
    HOSTNN_RETURN_IF_ERROR(Make(env, problem, options, &made));  // errors are never kept
    std::lock_guard<std::mutex> lock(cache.mu);
    if (std::shared_ptr<const Plan> kept = find()) {  // another caller planned it meanwhile
      *plan = std::move(kept);
      return Status::Ok();
    }
    Entry e;
    e.hash = hash;
    e.problem = problem;
    e.options = options;
    e.env = env;
    e.last_used = ++cache.tick;
    e.plan = made;
    if (cache.entries.size() < static_cast<size_t>(kPlanCacheSize)) {
      cache.entries.push_back(std::move(e));
    } else {
      size_t oldest = 0;
      for (size_t i = 1; i < cache.entries.size(); ++i) {
        if (cache.entries[i].last_used < cache.entries[oldest].last_used) oldest = i;
      }
      cache.entries[oldest] = std::move(e);
    }
    *plan = std::move(made);
    return Status::Ok();
  });
}

}  // namespace tiling
}  // namespace hostnn
