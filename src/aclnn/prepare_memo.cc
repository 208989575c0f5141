// Phase 1's memo (see prepare_memo.h): a few entries per thread, so a lookup takes no lock.

#include "src/aclnn/prepare_memo.h"

#include <algorithm>
#include <cstring>

#include "src/exec/launcher.h"
#include "src/exec/plan_environment.h"
#include "src/exec/targets_stamp.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace {

constexpr int kEntries = 8;  // per thread: the shapes a training step's loop repeats

struct Entry {
  int words = 0;  // 0: empty
  uint64_t hash = 0;
  int64_t key[PrepareMemo::kMaxWords];
  exec::PlanEnvironment env;
  uint64_t allocations = 0;  // runtime::AllocationGeneration() when kept
  uint64_t workspace_size = 0;
  std::shared_ptr<const Executor> executor;
  uint64_t last_used = 0;
};

struct Memo {
  Entry entries[kEntries];
  uint64_t tick = 0;
  exec::PlanEnvironment env;  // read by the current call
};

Memo& ThreadMemo() {
  thread_local Memo memo;
  return memo;
}

bool IsDefault(const tiling::Options& o) {
  return o.platform.empty() && o.platform_file.empty() && o.tuning_file.empty() &&
         o.num_cores == 0 && o.ub_bytes == 0 && o.min_elems_per_core == 0 && o.buffer_num == 0;
}

// Appends a count and its values; false when the count is over kMaxDims.
bool PushDims(const std::vector<int64_t>& dims, int64_t* key, int* words) {
  if (dims.size() > static_cast<size_t>(kMaxDims)) return false;
  key[(*words)++] = static_cast<int64_t>(dims.size());
  for (const int64_t d : dims) key[(*words)++] = d;
  return true;
}

}  // namespace

PrepareMemo::PrepareMemo(const OpArgs& args, const tiling::Options& options) {
  if (!IsDefault(options)) return;
  Memo& memo = ThreadMemo();
  memo.env.Read();
  if (memo.env.PlanReadsAFile(options)) return;
  int w = 0;
  key_[w++] = static_cast<int64_t>(args.op);
  key_[w++] = args.dim;
  key_[w++] = launch::TeamSize();
  key_[w++] = exec::TargetsStamp();
  key_[w++] = args.max_rank;
  key_[w++] = args.any_format;
  // The int array (at most 8 values are keyed; a longer one is not cacheable).
  if (args.int_array.size() > static_cast<size_t>(kMaxDims)) return;
  key_[w++] = args.int_array_given ? static_cast<int64_t>(args.int_array.size()) : -1;
  for (const int64_t v : args.int_array) key_[w++] = v;
  // The bool array, the same way.
  if (args.bool_array.size() > static_cast<size_t>(kMaxDims)) return;
  key_[w++] = args.bool_array_given ? static_cast<int64_t>(args.bool_array.size()) : -1;
  for (const bool v : args.bool_array) key_[w++] = v;
  const TensorView* tensors[kMaxIn + kMaxOut];
  for (int k = 0; k < kMaxIn; ++k) tensors[k] = args.in[k];
  for (int k = 0; k < kMaxOut; ++k) tensors[kMaxIn + k] = args.out[k];
  for (const TensorView* v : tensors) {
    key_[w++] = v != nullptr;
    if (v == nullptr) continue;
    key_[w++] = static_cast<int64_t>(reinterpret_cast<uintptr_t>(v->data));
    key_[w++] = static_cast<int64_t>(v->dtype);
    key_[w++] = v->offset;
    key_[w++] = v->format;
    if (!PushDims(v->shape, key_, &w) || !PushDims(v->strides, key_, &w) ||
        !PushDims(v->storage_shape, key_, &w)) {
      return;
    }
  }
  for (const OpScalar& s : args.scalars) {
    // An INT64 scalar by its exact value: past 2^53 two values share one double (seeds).
    int64_t bits = s.int_value;
    if (s.dtype != DType::kInt64) std::memcpy(&bits, &s.value, sizeof(bits));
    key_[w++] = s.given + 2 * s.null;
    key_[w++] = static_cast<int64_t>(s.dtype);
    key_[w++] = bits;
  }
  words_ = w;
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a over the words: most misses end here
  for (int i = 0; i < w; ++i) h = (h ^ static_cast<uint64_t>(key_[i])) * 0x100000001b3ull;
  hash_ = h;
  cacheable_ = true;
}

bool PrepareMemo::Find(uint64_t* workspace_size, std::shared_ptr<const Executor>* executor) const {
  if (!cacheable_) return false;
  Memo& memo = ThreadMemo();
  for (Entry& e : memo.entries) {
    // Phase 1 checks each storage against the aclrtMalloc block its data lies in: an
    // allocation or free since the entry was kept may change that answer.
    if (e.hash == hash_ && e.words == words_ &&
        std::memcmp(e.key, key_, sizeof(int64_t) * words_) == 0 && e.env == memo.env &&
        e.allocations == runtime::AllocationGeneration()) {
      e.last_used = ++memo.tick;
      *workspace_size = e.workspace_size;
      *executor = e.executor;
      return true;
    }
  }
  return false;
}

void PrepareMemo::Keep(uint64_t workspace_size, std::shared_ptr<const Executor> executor) const {
  if (!cacheable_) return;
  Memo& memo = ThreadMemo();
  Entry* slot = &memo.entries[0];
  for (Entry& e : memo.entries) {
    if (e.last_used < slot->last_used) slot = &e;
  }
  slot->words = words_;
  slot->hash = hash_;
  std::memcpy(slot->key, key_, sizeof(int64_t) * words_);
  slot->env = memo.env;
  slot->allocations = runtime::AllocationGeneration();
  slot->workspace_size = workspace_size;
  slot->executor = std::move(executor);
  slot->last_used = ++memo.tick;
}

}  // namespace hostnn
