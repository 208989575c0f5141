// The planner's internals, shared by the tiling sources (and by the in-tree tools and tests
// that look inside): integer arithmetic, the elementwise UB specs and divisors, the
// planners themselves, the environment snapshot and parsed files cached by their (size,
// mtime, inode) stamp. Internal: not installed; users print, change and time plans through
// hostnn/tiling.h. ReadEnvironment is the one place in hostnn that reads the environment.
#ifndef HOSTNN_TILING_INTERNAL_H_
#define HOSTNN_TILING_INTERNAL_H_

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "hostnn/op.h"
#include "hostnn/status.h"
#include "hostnn/tiling.h"

namespace hostnn {
namespace tiling {

inline int64_t CeilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }
inline int64_t AlignDown(int64_t v, int64_t a) { return v / a * a; }
inline int64_t AlignUp(int64_t v, int64_t a) { return CeilDiv(v, a) * a; }
inline bool IsPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

// "[1024, 4096]" (plan.cc), for messages and printouts.
std::string ShapeText(const std::vector<int64_t>& shape);

// ---- Elementwise UB specs (elementwise.cc) ---------------------------------------------

// What one tile of an elementwise operator holds in the UB, from the operator list: its
// I/O queues (the operands in slots in0, in1 and out, in storage dtype, double-buffered
// when the plan says so; in2, LogSigmoidBackward's `buffer`, is never loaded) and its f32
// work tiles (op_list.def's UbTemps). With 16-bit storage each queue also has an f32 cast
// tile.
struct EltwiseUbSpec {
  Op op = Op::kSiluBackward;
  std::vector<std::string> queues;     // gradOutput, self, gradInput / out
  std::vector<std::string> f32_temps;  // the kernel's f32 intermediates
};
// The operator's spec; null for a reduction or an invalid operator.
const EltwiseUbSpec* FindEltwiseUbSpec(Op op);

// The UB divisor N: how many tile-sized units (of elem_bytes) one tile needs.
//   single = queues + (16-bit ? 2 * queues : 0) + ceil(4 * temps / elem_bytes)
//   double = single + queues
// SiluBackward (3 queues, 2 temps): f32 5 / 8, f16 and bf16 13 / 16, as on Atlas A2.
struct UbDivisor {
  int64_t single_buffered = 0;
  int64_t double_buffered = 0;
  std::string single_why;  // "3 queues + 2 f32 temps = 5"
  std::string double_why;
};
UbDivisor MakeUbDivisor(const EltwiseUbSpec& spec, int64_t elem_bytes);

// ---- The planners -----------------------------------------------------------------------

// The widest A0 tile the host executor takes (its per-column sums live on the stack).
constexpr int64_t kMaxA0Tile = 1024;

// Pure. Pre: n >= 1, elem_bytes in {2, 4, 8}, resolved passed ValidatePlatform.
ElementwisePlan PlanElementwise(int64_t n, int64_t elem_bytes, const EltwiseUbSpec& spec,
                                const Resolved& resolved);

// Pure. Pre: op a reduction, a1, r, a0 >= 1, elem_bytes in {2, 4, 8} (8: DOUBLE, with f64
// intermediates), resolved passed ValidatePlatform;
// row_align: RowChunkAlign(op) (base/row_sums.h: where AR chunks may start, so that a row's
// partial sums and blocks see the same elements whatever the chunking).
// Tries every template in priority order; the first capable one wins. The UB holds a queue
// for each of op's inputs and its output, named as their CANN parameters.
ReductionPlan PlanReduction(Op op, int64_t a1, int64_t r, int64_t a0, int64_t elem_bytes,
                            int64_t row_align, const Resolved& resolved);

// The Atlas A2 profiles (atlas-a2, atlas-a2-<cores>), whose normalisations are planned as
// ops-nn's A2 tiling plans them.
bool IsAtlasA2(const Platform& pf);
// Embedding's A2 tiling (GatherTiling) of `indices` rows of `inner` elements.
GatherTiling PlanGatherA2(int64_t indices, int64_t inner, int64_t x_bytes, int64_t index_bytes,
                          const Platform& pf);
// CrossEntropyLoss's and CrossEntropyLossGrad's A2 tiling (SoftmaxLossTiling, cross_entropy.cc)
// of input's (logProb's) [rows, classes] in `dtype` (f32, f16 or bf16).
SoftmaxLossTiling PlanCrossEntropyA2(int64_t rows, int64_t classes, DType dtype,
                                     const SoftmaxLossInputs& inputs, const Platform& pf);
SoftmaxLossTiling PlanCrossEntropyGradA2(int64_t rows, int64_t classes, DType dtype,
                                         const SoftmaxLossInputs& inputs, const Platform& pf);
// MseLossBackward's A2 tiling (LossTiling) of `total` elements in `dtype`.
LossTiling PlanMseGradA2(int64_t total, DType dtype, const Platform& pf);
// EmbeddingDenseBackward's A2 tiling (ScatterTiling) of grad [grad_rows, dim] in `dtype` into
// num_weights rows. Where pf's UB leaves no room for a row's pass (ops-nn's tiling fails), not
// planned, with why: the host's plan does not depend on it.
ScatterTiling PlanScatterA2(int64_t grad_rows, int64_t dim, int64_t num_weights, bool scale,
                            DType dtype, const Platform& pf);
// Pure (norm.cc). The tiling ops-nn's Atlas A2 code chooses for `op` over [rows, cols] (cols
// the normalised length) in `dtype` (f32, f16 or bf16) with the optional `inputs` (param_dtype
// resolved: never kUndefined) on pf's cores and UB.
// planned is false for an operator without an A2 reading (those keep the reduction plan).
NormTiling PlanNormA2(Op op, DType dtype, const NormInputs& inputs, int64_t rows, int64_t cols,
                      const Platform& pf);
// Pure (norm.cc). GroupNorm's (GroupNormSilu on A2) and GroupNormBackward's (GroupNormGrad)
// A2 tiling of self [n, channels, spatial] in `group` groups; rows = n * group.
NormTiling PlanGroupNormA2(Op op, DType dtype, int64_t n, int64_t channels, int64_t spatial,
                           int64_t group, const Platform& pf);
// Pure (norm.cc). BatchNorm's A2 tiling (BatchNormV3, training, C >= 64) of x [n, channels,
// spatial]: rows = channels of n * spatial. Where the A2 op_api runs a TBE kernel
// (BatchNorm with C < 64, BatchNormBackward) planned is false and kernel and why say so.
NormTiling PlanBatchNormA2(Op op, DType dtype, int64_t n, int64_t channels, int64_t spatial,
                           const Platform& pf);

// ---- The environment, options and files -------------------------------------------------

// The streaming-store threshold a profile defaults to (platform.cc): outputs of at least
// this many bytes are written with non-temporal stores. Plans of every profile run on this
// host's cores, so every profile takes the host's: the smallest output whose `operands`
// (inputs and output, of the output's size) together exceed the last-level cache (sysfs
// first, then sysconf, then 8 MiB): LLC / operands + 1. Read once per process.
// Thread-safe.
int64_t DefaultStreamMinBytes(const Platform& platform, int operands);
// The per-instance size of this host's highest-level data cache (see above).
int64_t LastLevelCacheBytes();

// The largest min_elems_per_core any source may set.
constexpr int64_t kMaxMinElemsPerCore = int64_t{1} << 40;

// Whether a tuning entry applies to `problem` under the profile named `platform`.
bool TuningEntryMatches(const TuningEntry& entry, const Problem& problem,
                        const std::string& platform);

// The HOSTNN_ variables Resolve reads: the one list behind EnvironmentVariables() and
// Environment::values.
constexpr const char* kEnvironmentVariables[] = {"HOSTNN_PLATFORM",    "HOSTNN_PLATFORM_FILE",
                                                 "HOSTNN_TUNING_FILE", "HOSTNN_NUM_CORES",
                                                 "HOSTNN_UB_BYTES",    "HOSTNN_MIN_ELEMS_PER_CORE",
                                                 "HOSTNN_BUFFER_NUM",  "HOSTNN_STREAM_MIN_BYTES"};

// The HOSTNN_ variables of the environment, in kEnvironmentVariables order, read in one
// pass. Unset and set-to-empty both read as "" (and mean "not set").
struct Environment {
  static constexpr int kCount =
      static_cast<int>(sizeof(kEnvironmentVariables) / sizeof(kEnvironmentVariables[0]));
  std::string values[kCount];
  bool set[kCount] = {};
  bool operator==(const Environment& o) const {
    for (int i = 0; i < kCount; ++i) {
      if (values[i] != o.values[i]) return false;
    }
    return true;
  }
};
Environment ReadEnvironment();
// The index of a HOSTNN_ variable in Environment::values (-1 when it is not one).
int VariableIndex(const char* name);
// Files can change between calls (their parsed contents are cached by stamp in
// ReadCached), so a plan that depends on one is never kept by a cache.
bool PlanReadsAFile(const Options& options, const Environment& env);
// Resolve against a snapshot of the environment (Resolve reads a fresh one).
Status ResolveIn(const Environment& env, const Options& options, const Problem& problem,
                 Resolved* resolved);

// "size:mtime_ns:inode" of a file, or empty when it cannot be stat'ed.
std::string FileStamp(const std::string& path);

// `parse(path, out)`, cached per (path, stamp): a file is parsed again only once it
// changes. Thread-safe.
template <typename T>
Status ReadCached(const std::string& path, Status (*parse)(const std::string&, std::vector<T>*),
                  std::vector<T>* out) {
  static std::mutex mu;
  static std::map<std::string, std::pair<std::string, std::vector<T>>> cache;
  const std::string stamp = FileStamp(path);
  if (stamp.empty()) return Status::Invalid(path + ": cannot be read (no such file?)");
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(path);
    if (it != cache.end() && it->second.first == stamp) {
      *out = it->second.second;
      return Status::Ok();
    }
  }
  std::vector<T> parsed;
  HOSTNN_RETURN_IF_ERROR(parse(path, &parsed));
  std::lock_guard<std::mutex> lock(mu);
  cache[path] = {stamp, parsed};
  *out = std::move(parsed);
  return Status::Ok();
}

}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_INTERNAL_H_
