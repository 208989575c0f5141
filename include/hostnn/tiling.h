// Tiling: the plan that cuts a problem into per-core blocks and UB-sized tiles, as Ascend
// does. A plan is plain data made by pure functions of (problem, platform, options); it
// never depends on threads or SIMD width, so a plan gives the same bits on 1 thread or 64.
#ifndef HOSTNN_TILING_H_
#define HOSTNN_TILING_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hostnn/dtype.h"
#include "hostnn/op.h"
#include "hostnn/status.h"

namespace hostnn {
namespace tiling {

// ---- Platforms ------------------------------------------------------------------------

// A machine to plan for. Ascend profiles describe vector cores; `host` describes this CPU.
struct Platform {
  std::string name;
  int64_t cores = 1;           // logical cores a plan may use (block_dim <= cores)
  int64_t ub_bytes = 0;        // per-core scratch ("unified buffer")
  int64_t block_bytes = 32;    // UB alignment unit: 32 B on Ascend, a 64 B cache line on host
  int64_t vector_bytes = 256;  // one vector register: ARA full-load's A0 tiles are multiples
};

// The host profile: cores = `team` (the threads the plan will run on: the operators pass
// their OpenMP team size; values < 1 count as 1), UB = half the per-core L2 (clamped to
// [64 KiB, 1 MiB]), 64-byte blocks and vectors (a cache line). Tiling itself never asks
// OpenMP. Thread-safe.
Platform HostPlatform(int64_t team);
// Names of the built-in profiles: host, atlas-a2, atlas-a2-40, ascend950.
std::vector<std::string> PlatformNames();
// A built-in profile, or one of `platform_file` (when not empty); `team` is the host
// profile's cores (HostPlatform). Unknown name, unreadable or invalid file -> kInvalid
// naming the problem.
Status FindPlatform(const std::string& name, const std::string& platform_file, int64_t team,
                    Platform* platform);
// The profiles of a platform file: {"platforms": [{"name": ..., "cores": ...,
// "ub_bytes": ..., "block_bytes": ..., "vector_bytes": ...}, ...]} (or one such object).
// Files are parsed once per (path, size, mtime). Thread-safe.
Status ReadPlatformFile(const std::string& path, std::vector<Platform>* platforms);
// The limits every profile (and every override of one) must meet; kInvalid names the field.
//   cores in [1, kMaxCores]; block_bytes and vector_bytes powers of two, block in [16, 256],
//   vector in [16, 2048]; ub_bytes in [MinUbBytes(block_bytes), kMaxUbBytes].
Status ValidatePlatform(const Platform& platform);
constexpr int64_t kMaxCores = 4096;
constexpr int64_t kMaxUbBytes = int64_t{1} << 30;
// The smallest UB: 128 blocks and at least 8192 bytes, so that every template fits.
constexpr int64_t MinUbBytes(int64_t block_bytes) {
  return 128 * block_bytes > 8192 ? 128 * block_bytes : 8192;
}

// ---- Problems and options --------------------------------------------------------------

// AddLayerNorm's biasOptional as its A2 tiling tells it apart, by element count alone.
enum class NormBias : int32_t {
  kNone = 0,  // no bias
  kFull = 1,  // as many elements as x1 (one per element): key + 1
  kRow = 2,   // any other count (one row, broadcast to every row): key + 2
};
// The short name of a bias kind (none, full, row), and the kind of a short name (false when
// unknown).
const char* NormBiasName(NormBias bias);
bool ParseNormBias(const std::string& name, NormBias* bias);

// The optional inputs of a normalisation that its Atlas A2 tiling reads (tiling/norm.cc): they
// change the kernel's tiling key, template or UB split. The defaults are the plain call (gamma
// and beta in the storage dtype, no bias, no additional output, no dsum), so a problem that
// leaves them plans as before. A field an operator's tiling does not read must keep its
// default (kInvalid otherwise).
struct NormInputs {
  // gamma's (and beta's) dtype: kUndefined = the storage dtype; else the storage dtype or, for
  // a 16-bit dtype, kFloat32. LayerNorm, LayerNormWithImplMode (the weight, else the bias, as
  // the op_api fills a missing weight), LayerNormBackward (the weight), RmsNorm, RmsNormGrad,
  // AddLayerNorm.
  DType param_dtype = DType::kUndefined;
  NormBias bias = NormBias::kNone;  // AddLayerNorm's biasOptional
  bool additional_output = false;   // AddLayerNorm's additionalOutput (key + 100)
  bool dsum = false;                // AddLayerNormGrad's dsumOptional (key + 1)
  bool operator==(const NormInputs& o) const {
    return param_dtype == o.param_dtype && bias == o.bias &&
           additional_output == o.additional_output && dsum == o.dsum;
  }
  bool operator!=(const NormInputs& o) const { return !(*this == o); }
  bool IsDefault() const { return *this == NormInputs{}; }
};

// What a plan is for. Operators fill it from their tensors; hostnn-tiling from its
// command line (names parsed with FindOp and ParseDType).
// CrossEntropyLoss's and CrossEntropyLossGrad's optional input and attributes their A2 tiling
// reads: whether weightOptional is given, whether labelSmoothing is above 0 (the forward's UB
// then holds the weights too) and the reduction (the gradient's UB split: 0 none, 1 mean, 2
// sum).
struct SoftmaxLossInputs {
  bool weight = false;
  bool smoothing = false;
  int64_t reduction = 1;
  bool operator==(const SoftmaxLossInputs& o) const {
    return weight == o.weight && smoothing == o.smoothing && reduction == o.reduction;
  }
  bool operator!=(const SoftmaxLossInputs& o) const { return !(*this == o); }
};

struct Problem {
  Op op = Op::kSiluBackward;
  DType dtype = DType::kFloat32;  // storage dtype: kFloat32, kFloat16, kBFloat16, kFloat64
  std::vector<int64_t> shape;     // every extent >= 1; empty = a scalar (the gated units: self's)
  int64_t dim = 0;                // reduction operators: the reduced dim, in [-rank, rank - 1];
                                  // the gated units: the split dim (its extent even)
  // The threads the plan will run on: the host profile's cores (HostPlatform). The
  // operators pass their OpenMP team size (launch::TeamSize()); values < 1 count as 1.
  int64_t team = 1;
  // GroupNorm and GroupNormBackward: the number of groups. With group >= 1, shape is self's
  // [N, C, spatial...] (rank >= 2, C a multiple of group) and dim is not used: a row is one
  // (sample, group), of C / group channels of prod(spatial) elements. 0: the rows are fused
  // around dim as for the other normalisations (no A2 tiling).
  int64_t group = 0;
  // The normalisations: the optional inputs their A2 tiling reads (defaults: none).
  NormInputs norm = {};
  // Embedding: the dtype of its indices (INT32 or INT64), whose bytes its A2 tiling reads;
  // shape is out's [indices, row length] and dtype weight's.
  DType index_dtype = DType::kInt64;
  // EmbeddingDenseBackward: out's rows (numWeights, >= 1) and scaleGradByFreq; shape is
  // grad's [rows, D] (its leading dims fused), dtype grad's. The host plans out's [weight_rows,
  // D] elements; the A2 tiling reads all three.
  int64_t weight_rows = 0;
  bool scale_grad_by_freq = false;
  // CrossEntropyLoss and CrossEntropyLossGrad: what their A2 tiling reads beside input's
  // (logProb's) [rows, classes] and dtype.
  SoftmaxLossInputs softmax_loss = {};
};

// The short name of a storage dtype tiling plans (f32, f16, bf16, f64, i32, i16, i8, u8, i64;
// bool, c64, c128: Embedding's copies); null for others.
const char* ShortDTypeName(DType dtype);
// A dtype from its short name (f32, f16, bf16, f64, i32, i16, i8, u8, i64, bool, c64, c128) or
// CANN's (FLOAT, FLOAT16, BFLOAT16, DOUBLE, INT32, INT8, UINT8, INT64), or float, float32, half,
// bfloat16, float64, double; any case. False when unknown.
bool ParseDType(const std::string& name, DType* dtype);
// Elements of a shape (1 for a scalar).
int64_t NumElements(const std::vector<int64_t>& shape);
// The size class of n elements: the smallest k with n <= 2^k (a tuning-file key).
int SizeClass(int64_t n);

// Tunables. Zero / empty means "not set here". Each knob is resolved in this order: the
// Options field, then its environment variable, then the first matching tuning-file entry,
// then the profile's default. Invalid values are errors, never replaced by a default.
struct Options {
  std::string platform;            // profile name (HOSTNN_PLATFORM; default host)
  std::string platform_file;       // extra profiles (HOSTNN_PLATFORM_FILE)
  std::string tuning_file;         // (op, dtype, size class) -> options (HOSTNN_TUNING_FILE)
  int64_t num_cores = 0;           // overrides the profile's cores (HOSTNN_NUM_CORES)
  int64_t ub_bytes = 0;            // overrides the profile's UB (HOSTNN_UB_BYTES)
  int64_t min_elems_per_core = 0;  // fewer cores for small work (HOSTNN_MIN_ELEMS_PER_CORE;
                                   // default 1024, host 65536 / Work)
  int buffer_num = 0;              // 1 or 2 forces single / double buffering
                                   // (HOSTNN_BUFFER_NUM; default: the planner decides)
};

// One line of a tuning file: match keys, then the options it sets (0 = not set).
struct TuningEntry {
  std::string op;        // snake_case operator name, or "*"
  std::string dtype;     // f32, f16, bf16, f64, i32, i8, u8, i64, or "*"
  int size_class = -1;   // SizeClass(numel), or -1 ("*") for any size
  std::string platform;  // profile name; empty = any
  int64_t num_cores = 0;
  int64_t ub_bytes = 0;
  int64_t min_elems_per_core = 0;
  int buffer_num = 0;
  double measured_us = 0;  // what hostnn-tiling tune measured (informational)
};
// {"hostnn_tuning": 1, "entries": [{"op": ..., "dtype": ..., "size_class": 22 | "*",
// "platform": ..., "num_cores": ..., "ub_bytes": ..., "min_elems_per_core": ...,
// "buffer_num": ..., "measured_us": ...}, ...]}. Unknown keys and bad values -> kInvalid
// naming the entry. Parsed once per (path, size, mtime). Thread-safe.
Status ReadTuningFile(const std::string& path, std::vector<TuningEntry>* entries);
std::string TuningFileJson(const std::vector<TuningEntry>& entries);

// The environment variables Resolve reads: HOSTNN_PLATFORM, HOSTNN_PLATFORM_FILE,
// HOSTNN_TUNING_FILE, HOSTNN_NUM_CORES, HOSTNN_UB_BYTES, HOSTNN_MIN_ELEMS_PER_CORE,
// HOSTNN_BUFFER_NUM, HOSTNN_STREAM_MIN_BYTES.
std::vector<std::string> EnvironmentVariables();

// The profile the environment selects (HOSTNN_PLATFORM, with HOSTNN_PLATFORM_FILE; host
// when unset, with `team` cores), before any override. kInvalid naming the variable when
// it names no profile. Thread-safe.
Status SelectedPlatform(Platform* platform, int64_t team = 1);

// Options resolved against the environment, the tuning file and the profile.
struct Resolved {
  Platform platform;  // cores and ub_bytes after overrides
  int64_t min_elems_per_core = 1024;
  int buffer_num = 0;  // 0 = the planner decides
  // Outputs of at least this many bytes are written with non-temporal stores:
  // HOSTNN_STREAM_MIN_BYTES, else the profile's default (a third of the last-level cache).
  int64_t stream_min_bytes = 0;
  std::string sources;  // where each knob came from, for the plan's printout
};
// Reads the environment and files named by options / environment. kInvalid (naming the
// option, variable or file) on any bad value. Thread-safe.
Status Resolve(const Options& options, const Problem& problem, Resolved* resolved);

// ---- Elementwise plans -----------------------------------------------------------------

// One named buffer of the UB budget (`count` copies of `bytes`, e.g. double buffering).
struct UbBuffer {
  std::string name;
  int64_t bytes = 0;
  int64_t count = 1;
};

// Bytes of a UB budget: the sum of bytes * count.
int64_t UbTotal(const std::vector<UbBuffer>& ub);

struct ElementwisePlan {
  int64_t n = 0;                // elements
  int64_t elem_bytes = 0;       // bytes of the (widest) storage dtype
  int64_t block_elems = 0;      // elements per block
  int64_t blocks = 0;           // ceil(n * elem_bytes / block_bytes)
  int64_t block_dim = 0;        // cores used
  int64_t blocks_per_core = 0;  // q: every core gets q or q+1 blocks
  int64_t big_cores = 0;        // the first big_cores cores take q+1 blocks
  int64_t tile_len = 0;         // elements per tile
  int64_t buffer_num = 1;       // 1 single, 2 double buffered
  std::string buffer_why;       // why single or double
  int64_t ub_divisor = 0;       // tile-sized units in the UB
  std::string ub_divisor_why;   // how the divisor arises from the buffers
  std::vector<UbBuffer> ub;     // the UB budget, by buffer

  int64_t CoreBegin(int64_t core) const;  // first element of `core`
  int64_t CoreLen(int64_t core) const;    // elements of `core` (the last core may be short)
  int64_t CoreTiles(int64_t core) const;  // ceil(CoreLen / tile_len)
  int64_t TileBegin(int64_t core, int64_t tile) const;  // first element of a core's tile
  int64_t TileLen(int64_t core, int64_t tile) const;    // elements (the last may be short)
};

// ---- Reduction plans -------------------------------------------------------------------

// Ascend 950's LogSoftmaxGrad templates, in priority order.
enum class ReductionTemplate { kArFullLoad, kArRecompute, kAraFullLoad, kAraRecompute };
const char* TemplateName(ReductionTemplate t);
int TemplatePriority(ReductionTemplate t);  // 100, 200, 300, 400: lower is tried first

// One template's capability test, as the planner ran it (a printed plan lists them all).
struct TemplateTrial {
  ReductionTemplate tmpl = ReductionTemplate::kArFullLoad;
  bool capable = false;
  std::string why;
};

// LogSoftmaxBackward: the tensor fused to (A1, R, A0) around `dim` (R == 1 folds A1 into
// A0, as on Ascend). A unit is a1_tile rows of A1 by one A0 tile of a0_tile columns, all
// of R; cores own consecutive units, and each core walks its units in tiles of
// units_per_tile, with R in chunks of r_chunk. Each unit is reduced by one core in a fixed
// order, so a plan never changes the bits of the result.
// The shortest A0 whose output goes by rows (ReductionPlan::output_by_rows): a kernel call
// per shorter row would cost more than it saves.
constexpr int64_t kRowSplitMinA0 = 128;
// The forward goes by rows only while a core's share of a row is at most this many bytes
// (a page): its block path reads each block's third pass from the cache, and the rows
// would read it again from memory.
constexpr int64_t kRowSplitMaxForwardShare = 4096;

// PreluBackward's gradWeight, a sum per channel: self's elements are rows of row_len =
// prod(shape[2:]) elements, one row per (n, c), c = row % channels (self of rank <= 1: one
// row, one channel). A row is summed in segments of kChannelSumSegment elements; a unit of
// work is one segment, or as many whole rows as fit in one. The segment is part of the
// numerics, not of the UB or the platform: where a segment starts fixes the order of the
// sum, so gradWeight's bits are the same for any core count and profile. The units go to
// the cores in contiguous ranges; each segment's sum is added per channel in (n, segment)
// order afterwards.
constexpr int64_t kChannelSumSegment = 8192;
struct ChannelSumsPlan {
  int64_t rows = 0, row_len = 0, channels = 0;
  int64_t segs_per_row = 0;   // segments of one row (1 when row_len <= the segment)
  int64_t rows_per_unit = 0;  // whole rows in one unit (1 when a row is segmented)
  int64_t units = 0;          // 0: not a channel sum
  int64_t block_dim = 0;      // cores: min(the elementwise plan's block_dim, units)
  int64_t UnitBegin(int64_t core) const { return core * units / block_dim; }
  int64_t UnitEnd(int64_t core) const { return (core + 1) * units / block_dim; }
  // A unit's first row, its offset in that row and its element count.
  void Unit(int64_t u, int64_t* row, int64_t* offset, int64_t* len) const {
    if (row_len >= kChannelSumSegment) {
      *row = u / segs_per_row;
      *offset = (u % segs_per_row) * kChannelSumSegment;
      *len = row_len - *offset < kChannelSumSegment ? row_len - *offset : kChannelSumSegment;
    } else {
      *row = u * rows_per_unit;
      *offset = 0;
      *len = (rows - *row < rows_per_unit ? rows - *row : rows_per_unit) * row_len;
    }
  }
};

struct ReductionPlan {
  int64_t a1 = 1, r = 1, a0 = 1;
  int64_t elem_bytes = 4;
  ReductionTemplate tmpl = ReductionTemplate::kArFullLoad;
  std::string reason;                 // why this template won
  std::vector<TemplateTrial> trials;  // every template's test, in priority order
  int64_t a1_tile = 1;                // A1 rows per unit (ARA full-load packs several)
  int64_t a0_tile = 1;         // A0 columns per unit (1 for AR); the last A0 tile may be short
  int64_t a0_align = 1;        // a0_tile is a multiple of this (the template's A0 base)
  int64_t r_chunk = 1;         // R per UB pass (r for full-load)
  int64_t r_align = 1;         // AR recompute: r_chunk is a multiple of this
  int64_t units = 0;           // ceil(a1 / a1_tile) * ceil(a0 / a0_tile)
  int64_t units_per_core = 0;  // ceil(units / cores), as Ascend splits
  int64_t block_dim = 0;       // ceil(units / units_per_core)
  int64_t units_per_tile = 1;  // AR full-load: rows per UB pass; else 1
  // Whether the host writes the output by rows. When an ARA plan's cores split each row's
  // columns (block_dim > 1, A0 tiles > 1, A0 >= kRowSplitMinA0; for the forward also a
  // core's share of a row within kRowSplitMaxForwardShare), every core would store to
  // part of every row, and cores storing to one page's disjoint lines slow each other down
  // many times over. Instead the units compute their columns' statistics, and after a
  // barrier each core writes an even share of whole rows. The same bits either way.
  bool output_by_rows = false;
  std::vector<UbBuffer> ub;

  int64_t A1Tiles() const;  // ceil(a1 / a1_tile)
  int64_t A0Tiles() const;  // ceil(a0 / a0_tile)

  int64_t CoreBegin(int64_t core) const;  // first unit
  int64_t CoreLen(int64_t core) const;    // units
  int64_t CoreTiles(int64_t core) const;  // ceil(CoreLen / units_per_tile)
  int64_t RChunks() const;                // ceil(r / r_chunk)
  // The elements of unit u: rows [a1_begin, a1_begin + a1_len) of A1, columns
  // [a0_begin, a0_begin + a0_len) of A0, all of R.
  struct Unit {
    int64_t a1_begin, a1_len, a0_begin, a0_len;
  };
  Unit GetUnit(int64_t u) const;
  // The part of a gathered tensor's numel elements (in row-major order) that core `core`
  // gathers and scatters: an even split among block_dim cores, [*begin, *begin + *len).
  void ElementPart(int64_t numel, int64_t core, int64_t* begin, int64_t* len) const;
};

// ---- Normalisation tilings on Atlas A2 ---------------------------------------------------

// What ops-nn's Atlas A2 tiling chooses for a normalisation (tiling/norm.cc): the CANN kernel
// the operator's op_api dispatches to, its template and tiling key, the cores and the rows
// each takes, the rows per UB pass and the UB split of a row. Planned on the atlas-a2
// profiles (atlas-a2, atlas-a2-40 and their overrides) for the normalisations with an A2
// reading; elsewhere `planned` is false and only the reduction plan applies. The host runs
// the rows on the reduction plan's cores, whose split follows this one where it can
// (Plan::reduction.units_per_core = rows_per_core when every core but the last takes that
// many rows).
struct NormTiling {
  bool planned = false;        // false with a kernel named: A2 runs a kernel whose tiling
                               // ops-nn does not publish (why says which)
  std::string kernel;          // CANN kernel: LayerNormV4, RmsNorm, AddRmsNorm, RmsNormGrad, ...
  std::string tmpl;            // the template: merge_n, single_read, split_d, ...
  int64_t tiling_key = 0;      // the kernel's tiling key
  std::string why;             // why this template, with the numbers
  std::string passed_over;     // the templates tried before it and why each was not capable
  int64_t rows = 0, cols = 0;  // the fused [rows, cols] (cols: the normalised length)
  int64_t block_dim = 0;       // cores with rows
  int64_t launched_cores = 0;  // cores launched (SetBlockDim): >= block_dim
  int64_t rows_per_core = 0;   // the former cores' rows (blockFactor, nRow)
  int64_t former_cores = 0;    // cores taking rows_per_core rows
  int64_t tail_rows = 0;       // the other cores' rows each (0 when none)
  int64_t leftover_rows = 0;   // rows after the cores' shares (single_read's tail)
  int64_t rows_per_loop = 0;   // rows per UB pass (rowFactor, ubFactor of rows)
  int64_t col_chunk = 0;       // a row's elements per UB pass (cols when it fits)
  int64_t col_chunks = 1;      // UB passes over a row: > 1 when a row is split
                               // (ceil(cols / col_chunk), or more where a row's
                               // channels are chunked apart: GroupNormGrad)
  bool welford = false;        // Welford statistics (BatchNormV3's welford templates)
  std::string stats;           // how the kernel takes a row's statistics
  std::string ub_note;         // how the UB budget gives rows_per_loop / col_chunk
};

// Embedding's Atlas A2 tiling (ops-nn's GatherV2 for A2, which the op_api calls along dim 0;
// experimental/index/gather_v2/op_host/gather_v2_tiling.cpp): out's total = indices x inner
// elements cut into block_dim = min(total, cores) equal shares of per_core = ceil(total /
// block_dim), the last core taking what is left (0 when the shares already cover it), each
// copied in UB passes of tile_count elements: (UB - 8 KiB reserved) / (x bytes + index
// bytes), down to a multiple of 32 (at least 1).
struct GatherTiling {
  bool planned = false;
  std::string kernel;  // GatherV2
  int64_t indices = 0, inner = 0, total = 0;
  int64_t x_bytes = 0, index_bytes = 0;
  int64_t block_dim = 0, per_core = 0, last_core = 0;
  int64_t tile_count = 0;
};

// EmbeddingDenseBackward's Atlas A2 tiling (ops-nn's EmbeddingDenseGradV2 for A2, which the
// op_api runs after casting grad to FLOAT unless grad and out together hold 100 MiB or more in
// 16 bits, with 512 rows or more and no scaleGradByFreq; index/embedding_dense_grad_v2/op_host/
// embedding_dense_grad_v2_tiling.cpp). Two kernels by D: "small dim" (D <= 512 and numWeights
// <= 2^24: the indices unsorted, grad's rows cut evenly, the last core taking the rest, copied
// in UB passes of max_rows_in_ub rows) and "sorted" (the op_api sorts the indices first; grad's
// rows cut former_cores x former_rows, then tail_rows). A row wider than max_dim (the UB's
// share: (UB - 20480 - 96) / (64 B x 3 buffers, 4 for a 16-bit grad) x 16) is taken in
// dim_reps passes of dim_pass elements and a last of dim_tail. With scaleGradByFreq the out
// rows are cut among the cores too (scale_*). tiling_key: scale + 100 x small dim (the
// deterministic digit 0: A2's default).
struct ScatterTiling {
  bool planned = false;
  std::string kernel;  // EmbeddingDenseGradV2
  std::string why;     // not planned on an A2 profile: why (a UB too small for a row pass)
  std::string mode;    // "small dim" or "sorted"
  int64_t tiling_key = 0;
  int64_t grad_rows = 0, dim = 0, num_weights = 0;
  bool scale = false;
  int64_t grad_bytes = 0;  // 4 where the op_api casts grad to FLOAT, else grad's own
  int64_t block_dim = 0;   // min(cores, grad_rows), and numWeights with scale
  int64_t max_dim = 0, dim_pass = 0, dim_reps = 0, dim_tail = 0;
  // sorted: former_cores x former_rows, then tail_rows each.
  int64_t former_rows = 0, tail_rows = 0, former_cores = 0;
  // small dim: copy_rows each, the last core last_core_rows, in passes of max_rows_in_ub.
  int64_t copy_rows = 0, last_core_rows = 0, max_rows_in_ub = 0;
  int64_t copy_passes = 0, last_core_passes = 0, last_pass_rows = 0, last_core_last_pass_rows = 0;
  // scaleGradByFreq: out rows per core, scale_former_cores taking one more.
  int64_t scale_rows = 0, scale_former_cores = 0;
  int64_t workspace_bytes = 0;  // the kernel's workspace (16 MiB of the system's included)
};

// MseLossBackward's Atlas A2 tiling (ops-nn's MseLossGradV2, which the A2 op_api runs when
// gradOutput, self and target have one shape; loss/mse_loss_grad_v2/op_host/
// mse_loss_grad_v2_tiling.cpp): the elements cut evenly over the cores, a tile of
// max_tile_length = ceil(UB / bytes_per_element) elements (four queues of the dtype, and four
// f32 casts for a 16-bit one). loops = ceil(total / max_tile_length) tiles in all; block_dim =
// min(cores, loops). Where the elements do not divide evenly, full_cores = block_dim - 1 cores
// take block_length elements each and the last core the pad_length left (if that leaves
// nothing, block_dim is full_cores); tile_num = ceil(loops / full_cores) tiles per core. Double
// buffered above 65536 elements. tiling_key: 1 FLOAT, 2 FLOAT16, 3 BFLOAT16. MseLoss's own A2
// tiling is not published (ops-nn's is arch35's): not planned, with why.
// CrossEntropyLoss's and CrossEntropyLossGrad's Atlas A2 tiling (tiling/cross_entropy.cc):
// ops-nn's cross_entropy_loss_tiling.cpp and cross_entropy_loss_grad_tiling.cpp. Both cut the
// rows over the cores, front_cores of front_rows and tail_cores of tail_rows (block_dim their
// sum). The forward then cuts a row into UB passes of input_ub_size elements (ub_loops whole
// ones and a tail of ub_tail), each reduced in vector repeats of 8192 (vec_loops and vec_tail;
// the tail pass's tail_vec_loops and tail_vec_tail); the gradient into column passes of
// col_tile elements (a multiple of 512 bytes: col_loops whole ones and col_tail). tiling_key:
// the forward's 1 BFLOAT16, 2 FLOAT16, 3 FLOAT; the gradient's that times 10 plus 1 with a
// weight. Not planned, with why, where the rows a core holds leave the UB no room (ops-nn's
// unsigned arithmetic would wrap).
struct SoftmaxLossTiling {
  bool planned = false;
  std::string kernel;  // CrossEntropyLoss, CrossEntropyLossGrad
  std::string why;     // not planned: why
  int64_t tiling_key = 0;
  int64_t block_dim = 0, front_cores = 0, tail_cores = 0, front_rows = 0, tail_rows = 0;
  // The forward's UB (the gradient's row_buf_bytes: every buffer but the column passes): an
  // f32 buffer of a core's rows (three are kept: losses, weights, smoothing sums; bytes), the
  // input pass (elements), a 16-bit pass's f32 cast and logProb's pass, the weights label
  // smoothing reads (bytes), in all.
  int64_t row_buf_bytes = 0, input_ub_size = 0, cast_buf_bytes = 0, smoothing_weight_bytes = 0;
  int64_t total_buf_bytes = 0;
  int64_t ub_loops = 0, ub_tail = 0, vec_loops = 0, vec_tail = 0, tail_vec_loops = 0,
          tail_vec_tail = 0;
  // The gradient's column passes.
  int64_t col_tile = 0, col_loops = 0, col_tail = 0;
  int64_t workspace_bytes = 0;  // the kernel's own (the gradient's without the library's)
};

struct LossTiling {
  bool planned = false;
  std::string kernel;  // MseLossGradV2, or the kernel not planned
  std::string why;     // not planned: why
  int64_t tiling_key = 0;
  int64_t total_length = 0;
  int64_t bytes_per_element = 0, max_tile_length = 0, loops = 0;
  int64_t block_dim = 0, full_cores = 0, block_length = 0, pad_length = 0, tile_num = 0;
  bool double_buffer = false;
};

// ---- Plans ------------------------------------------------------------------------------

struct Plan {
  enum class Kind { kElementwise, kReduction };
  Kind kind = Kind::kElementwise;
  std::string op;     // snake_case operator name (OpInfo::snake_name)
  std::string dtype;  // short name of the storage dtype (ShortDTypeName)
  std::vector<int64_t> shape;
  int64_t dim = 0;    // reduction, the gated units' split: normalised to [0, rank)
  NormInputs norm_inputs = {};  // Problem::norm, param_dtype resolved (the storage dtype if unset)
  DType index_dtype = DType::kUndefined;  // Problem::index_dtype (Embedding's); else undefined
  Platform platform;  // after overrides
  int64_t min_elems_per_core = 0;
  int64_t stream_min_bytes = 0;  // Resolved::stream_min_bytes: outputs this large stream
  std::string sources;           // where the knobs came from
  ElementwisePlan elementwise;   // kind == kElementwise
  ReductionPlan reduction;       // kind == kReduction
  ChannelSumsPlan channel_sums;  // PreluBackward's gradWeight (kind kElementwise)
  NormTiling norm;               // a normalisation's Atlas A2 tiling (kind kReduction)
  GatherTiling gather;           // Embedding's Atlas A2 tiling (kind kElementwise)
  int64_t weight_rows = 0;       // Problem::weight_rows (EmbeddingDenseBackward's); else 0
  ScatterTiling scatter;         // EmbeddingDenseBackward's Atlas A2 tiling (kElementwise)
  LossTiling loss;               // MseLossBackward's Atlas A2 tiling (kElementwise)
  SoftmaxLossInputs softmax_loss_inputs;  // Problem::softmax_loss (CrossEntropyLoss's)
  SoftmaxLossTiling softmax_loss;         // CrossEntropyLoss's Atlas A2 tiling (kElementwise)

  std::string ToJson() const;
  std::string ToTable() const;
  // Proves the plan: every element owned by exactly one (core, tile), no tile over the UB
  // budget, alignment to the platform's block (and, for reductions, to the template's A0
  // base and the row partials). kInner with the first violation. O(cores + tiles).
  Status Check() const;
};

// Pure: plans `problem` under `resolved`. kInvalid for an unknown operator, a dtype it
// does not compute, an extent < 1 or a dim out of range.
Status PlanProblem(const Problem& problem, const Resolved& resolved, Plan* plan);
// Resolve + PlanProblem + Check: what hostnn-tiling calls.
Status MakePlan(const Problem& problem, const Options& options, Plan* plan);

// MakePlan for the operators' phase 1, with the plans kept: a problem (team included)
// planned before under the same options and HOSTNN_ environment returns
// the same immutable plan without resolving or planning again. At most kPlanCacheSize
// plans are kept, the least recently used dropped first. Settings that name a file
// (platform_file, tuning_file or their variables) bypass the cache, so an edited file
// takes effect on the next call; errors are never kept. Thread-safe.
constexpr int kPlanCacheSize = 64;
Status MakeSharedPlan(const Problem& problem, const Options& options,
                      std::shared_ptr<const Plan>* plan);

}  // namespace tiling
}  // namespace hostnn

#endif  // HOSTNN_TILING_H_
