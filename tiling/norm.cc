// The normalisations' Atlas A2 tiling: what ops-nn's A2 (Ascend 910B) tiling code chooses for
// a normalisation's [rows, cols] (cols the normalised length), read from its host tiling and
// rewritten here. Each kernel has its own ladder; a plan records the kernel the op_api
// dispatches to, the template and its tiling key, the cores and their rows, the rows per UB
// pass and the UB split of a long row. The A2 kernels keep a row (or a row's chunk) in the
// UB: LayerNorm takes two passes over it (the mean, then the centred squares), RmsNorm one
// (the squares), GroupNormSilu one pass of sums of x and x^2; only BatchNormV3's welford
// templates are Welford (as Ascend 950's regbase templates are).
//   LayerNorm (and WithImplMode): the op_api runs LayerNormV4 where its transpose template
//     (a row of at most 64 elements, not a whole number of blocks) or single-read template
//     (bf16, a row of 1024 or 4096) applies, else LayerNormV3, whose A2 tiling ops-nn does
//     not publish; hostnn plans those shapes with LayerNormV4's own ladder:
//       transpose 100 (key 200 + x's dtype * 10 + gamma's), single_read 1000 (bf16 x and
//       gamma: key 122), merge_n 1220 (key 600 + gamma's dtype, + 1000 for a row <= 1280,
//       + 1000 more for a row of 1), common 2000 (key 700 + gamma's dtype; a long row in UB
//       chunks). Gamma's dtype is the weight's, else the bias's (the op_api fills a missing
//       weight in it), else x's.
//   RmsNorm: normal 0, split_d 1 (a row over 12288 / 10240 elements in chunks), merge_n 2
//     (an aligned row <= 2000: many rows per UB pass); one core per ceil(rows / cores) rows.
//     f32 gamma beside 16-bit x takes the mixed ladder: merge_n 2, normal 0, single_row 3,
//     split_d 1, by what a row's buffers (16 bytes an element) leave of the UB.
//   AddRmsNorm, InplaceAddRmsNorm (the same kernel): key dtype * 10 + mode: normal 0,
//     split_d 1, merge_n 2, single_n 3 (one row per core), multi_n 4 (f16, aligned rows).
//   LayerNormBackward: LayerNormGradV3 (the A2 op_api's one kernel): single_read 1000 (a
//     row in [768, 12176]), transpose 2000 (a row <= 64, not whole blocks), common 3000 (a
//     row <= 768), workspace 4000 (any row, in UB chunks); key template * 100 + 10 + dtypes
//     (f32 1, f16 2, f16 with f32 gamma 3, bf16 4, bf16 with f32 gamma 5).
//     single_read, common and workspace launch every core, the idle ones for the gamma sums.
//   RmsNormGrad: split_n 1 (a row <= 6080: rows per UB pass), split_d 2 (chunks of 4096);
//     its tiling reads dy's dtype alone (f32 gamma plans alike).
//   GroupNorm: the A2 op_api runs GroupNormSilu (SiLU off): groups ceil-split over the cores
//     (all on one core when HxW is under a block), a group in passes of 8192 elements;
//     hw_one 108 / 1071, small_shape 102 / 1011, high_perf 104 / 1031, basic 106 / 1051
//     (f32 / 16-bit).
//   GroupNormBackward: GroupNormGrad: key dtype (f32 0, f16 1, bf16 2) + 10 when N > 2 (the
//     deterministic N sums); its mode (groups, channel(s), hw_chunks, hw_one) is how much of
//     a group one UB pass holds. Its cores take ceil(N * G / cores) groups, the last
//     N * G % cores_used of them one fewer.
//   AddLayerNorm: special_reduce 70 (f16 x and gamma, a row <= 2040), normal_special 60
//     (f16 x and gamma, a row bias), normal 0, single_row 20, single_row_ext 30,
//     single_row_less_tensor 90 (additionalOutput; f32 x and gamma, or f32 gamma beside
//     16-bit x), slice 10, slice_ext 50; big_n 40 / 80 for a row under 500. Key + 100 with
//     additionalOutput, + 1 with a bias of x1's size, + 2 with a row bias; x is the compute
//     dtype (FLOAT where x1 and x2 differ).
//   AddLayerNormGrad: cut_n (whole rows a pass) 10 / 20 / 30, cut_d (a row in chunks) 40 /
//     50 / 60 (f32 / f16 / bf16); + 1 with dsum (one more row buffer). Every core launched.
//   BatchNorm: BatchNormV3 (training, C >= 64; the A2 op_api runs the TBE BNTrainingReduce
//     and BNTrainingUpdate otherwise) over [R1, A, R0] = [N, C, spatial]: rows are the C
//     channels of N x spatial, ceil-split over the cores. full_reduce 2000 / 2001 (R0 1) for
//     a channel under 8192 elements that fits whole, else welford 1000-1003, 1012, 1013.
//   BatchNormBackward: on A2 the TBE BNTrainingUpdateGrad and BNTrainingReduceGrad
//     (BatchNormGradV3 is Ascend 950's): no tiling planned, the kernels named.
// Where the host differs: the host runs whole rows on the reduction plan's cores, one row
// function per row; its split follows the A2 one (ceil(rows / cores) rows a core), so where
// A2 deals the remainder one row to each of the first cores (merge_n), or blocks of rows
// round robin (single_read), the host's last cores differ. The optional inputs these tilings
// read (gamma's dtype, AddLayerNorm's bias and additionalOutput, AddLayerNormGrad's dsum)
// come with the problem (NormInputs); GroupNormSilu's f32-gamma keys are not planned (hostnn
// takes GroupNorm's gamma in self's dtype only). The 2-D/3-D "performance" flags, which pick
// kernel variants and not the tiling, are not recorded. Pure functions.

#include <algorithm>
#include <string>

#include "hostnn/tiling.h"
#include "tiling/internal.h"

namespace hostnn {
namespace tiling {
namespace {

constexpr int64_t kF32 = 4;
constexpr int64_t kA2Block = 32;  // ops-nn's A2 code aligns to 32-byte blocks by constant
constexpr const char* kGiven = "inputs (a gradient)";
constexpr const char* kTwoPass = "two passes: the mean, then the centred squares";
constexpr const char* kSquares = "one pass: the sum of squares";

std::string S(int64_t v) { return std::to_string(v); }

struct Shape {
  DType dtype;
  int64_t rows, cols, elem;  // elem: bytes of the storage dtype
  int64_t cores, ub;
  NormInputs in = {};  // the optional inputs, param_dtype resolved (PlanNormA2)
  int64_t BlockElems() const { return kA2Block / elem; }
  int64_t ColsAligned() const { return AlignUp(cols, BlockElems()); }
  DType Param() const { return in.param_dtype == DType::kUndefined ? dtype : in.param_dtype; }
  int64_t ParamBytes() const { return static_cast<int64_t>(DTypeSize(Param())); }
  // A 16-bit x beside f32 gamma (and beta).
  bool MixedParam() const { return elem == 2 && Param() == DType::kFloat32; }
};

// Cores take ceil(rows / cores) rows each, the last the rest: RmsNorm's, AddRmsNorm's and
// RmsNormGrad's blockFactor split.
void CeilSplit(const Shape& s, NormTiling* t) {
  t->rows_per_core = CeilDiv(s.rows, s.cores);
  t->block_dim = CeilDiv(s.rows, t->rows_per_core);
  const int64_t last = s.rows - t->rows_per_core * (t->block_dim - 1);
  t->former_cores = last == t->rows_per_core ? t->block_dim : t->block_dim - 1;
  t->tail_rows = last == t->rows_per_core ? 0 : last;
}

void WholeRows(const Shape& s, NormTiling* t) {
  t->col_chunk = s.cols;
  t->col_chunks = 1;
}

void Chunked(const Shape& s, int64_t chunk, NormTiling* t) {
  t->col_chunk = std::min(chunk, s.cols);
  t->col_chunks = CeilDiv(s.cols, t->col_chunk);
}

// ---- LayerNorm: LayerNormV4's A2 ladder -------------------------------------------------

// ops-nn's dtype key: the input's dtype * 10 + gamma's (f32 0, f16 1, bf16 2).
int64_t LnDTypeDigit(DType d) { return d == DType::kFloat16 ? 1 : d == DType::kBFloat16 ? 2 : 0; }
int64_t LnDTypeKey(const Shape& s) { return LnDTypeDigit(s.dtype) * 10 + LnDTypeDigit(s.Param()); }
std::string GammaNote(const Shape& s) { return s.MixedParam() ? "; f32 gamma" : ""; }

bool LnTranspose(const Shape& s, NormTiling* t) {
  constexpr int64_t kRowLimit = 64, kC0 = 16, kReserved = 1024;
  if (s.cols > kRowLimit || s.cols == s.ColsAligned()) {
    t->why = "transpose needs a row <= 64 that is not a whole number of blocks";
    return false;
  }
  t->tiling_key = 200 + LnDTypeKey(s);
  // Block split: ceil(rows / cores) rows a core.
  int64_t former = CeilDiv(s.rows, s.cores);
  int64_t blocks = CeilDiv(s.rows, former);
  // UB: gamma and beta in f32 (twice; a row aligned to gamma's own blocks), 1 KiB reserved;
  // rows per pass from the transposed tiles of 16 rows, the largest that fits.
  const int64_t gamma = AlignUp(s.cols, kA2Block / s.ParamBytes()) * kF32;
  const int64_t room = s.ub - 2 * gamma - kReserved;
  const int64_t max_former = room / (s.cols * kF32 * 4 + kF32);
  auto fit = [&](int64_t block_rows) -> int64_t {
    for (int64_t f = std::min(max_former, block_rows); f > 0; --f) {
      const int64_t b = CeilDiv(f, kC0);
      const int64_t need = b * kC0 * kF32 + kC0 * AlignUp(b * s.cols, kC0) * kF32 * 4 +
                           AlignUp(b, kC0) * kC0 * kF32 * 2;
      if (need <= room) return f;
    }
    return 0;
  };
  int64_t per_loop = fit(former);
  if (per_loop == 0) {  // one core takes everything
    former = s.rows;
    blocks = 1;
    per_loop = fit(former);
  }
  t->tmpl = "transpose";
  t->kernel = "LayerNormV4";
  t->rows_per_core = former;
  t->block_dim = blocks;
  const int64_t tail = s.rows - (blocks - 1) * former;
  t->former_cores = tail == former ? blocks : blocks - 1;
  t->tail_rows = tail == former ? 0 : tail;
  t->rows_per_loop = per_loop;
  WholeRows(s, t);
  t->why = "a row of " + S(s.cols) + " <= 64, not a multiple of " + S(s.BlockElems()) +
           " elements: rows transposed in tiles of 16" + GammaNote(s);
  t->ub_note = "UB " + S(s.ub) + " - 2 x gamma " + S(gamma) + " - 1024 = " + S(room) + " B; " +
               S(per_loop) + " rows a pass (at most " + S(room) + " / (16 x " + S(s.cols) +
               " + 4) = " + S(max_former) + ")";
  return true;
}

bool LnSingleRead(const Shape& s, NormTiling* t) {
  constexpr int64_t kRowLimit = 32;
  const int64_t row_max = (s.ub - 8 * kA2Block) / kF32 / 2;
  if ((s.cols != 1024 && s.cols != 4096) || s.dtype != DType::kBFloat16 ||
      s.Param() != DType::kBFloat16) {
    t->why = "single_read needs bf16 x and gamma and a row of 1024 or 4096";
    return false;
  }
  if (s.ColsAligned() > row_max) {
    t->why = "single_read needs a row <= " + S(row_max);
    return false;
  }
  t->tiling_key = 122;
  t->tmpl = "single_read";
  t->kernel = "LayerNormV4";
  int64_t n_row = 1;
  t->block_dim = s.rows;
  if (s.rows > s.cores) {
    n_row = std::min(row_max / s.ColsAligned(), kRowLimit);
    t->block_dim = s.cores;
  }
  // Blocks of n_row rows dealt round robin; the rows short of a block go to one more core.
  const int64_t blocks = s.rows / n_row;
  const int64_t loops = blocks / t->block_dim, extra = blocks % t->block_dim;
  t->rows_per_loop = n_row;
  t->rows_per_core = (loops + (extra > 0 ? 1 : 0)) * n_row;
  t->former_cores = extra > 0 ? extra : t->block_dim;
  t->tail_rows = extra > 0 ? loops * n_row : 0;
  t->leftover_rows = s.rows - blocks * n_row;
  WholeRows(s, t);
  t->why = "bf16, a row of " + S(s.cols) + ": each row read once; blocks of " + S(n_row) +
           " rows dealt round robin";
  t->ub_note = "(UB " + S(s.ub) + " - 256) / 4 / 2 = " + S(row_max) +
               " f32 a pass: " + S(row_max / s.ColsAligned()) + " rows, at most 32";
  return true;
}

bool LnMergeN(const Shape& s, NormTiling* t) {
  constexpr int64_t kReserved = 2048, kShortRow = 1280;
  const int64_t per_core = CeilDiv(s.rows, s.cores);
  const int64_t row_max = (s.ub - kReserved) / kF32 / 2;
  if (per_core <= 2 || !(s.cols < row_max || s.cols <= kShortRow)) {
    t->why = per_core <= 2 ? "merge_n needs more than 2 rows a core (" + S(per_core) + ")"
                           : "merge_n needs a row < " + S(row_max);
    return false;
  }
  t->tiling_key =
      600 + LnDTypeDigit(s.Param()) + (s.cols <= kShortRow ? 1000 : 0) + (s.cols == 1 ? 1000 : 0);
  t->tmpl = "merge_n";
  t->block_dim = s.cores;
  const int64_t rem = s.rows % s.cores;
  t->rows_per_core = per_core;
  t->former_cores = rem == 0 ? s.cores : rem;
  t->tail_rows = rem == 0 ? 0 : s.rows / s.cores;
  int64_t able = (s.ub - kReserved) / kF32 / (1 + s.ColsAligned()) / 2;
  if (s.ColsAligned() <= 32) able = able / 64 * 64;
  t->rows_per_loop = std::min(per_core, able);
  WholeRows(s, t);
  t->why = S(per_core) + " > 2 rows a core, a row of " + S(s.cols) + " < " + S(row_max) +
           (s.cols <= kShortRow ? " (<= 1280: the short-row kernel)" : "") + GammaNote(s);
  t->ub_note = "(UB " + S(s.ub) + " - 2048) / 4 / (1 + " + S(s.ColsAligned()) +
               ") / 2 = " + S(able) + " rows a pass" +
               (s.ColsAligned() <= 32 ? " (a multiple of 64)" : "");
  return true;
}

bool LnCommon(const Shape& s, NormTiling* t) {
  constexpr int64_t kOthers = 3 * 1024;
  t->tiling_key = 700 + LnDTypeDigit(s.Param());
  t->tmpl = "common";
  CeilSplit(s, t);  // the kernel deals the rows (hostnn assumes by ceil)
  t->launched_cores = std::min(s.rows, s.cores);
  const int64_t max_tile = (s.ub - kOthers) / kF32;
  Chunked(s, max_tile / 2 > s.cols ? s.cols : max_tile / 2, t);
  t->rows_per_loop = 1;
  t->why = "the fallback: one row at a time" + std::string(t->col_chunks > 1 ? ", in chunks" : "") +
           GammaNote(s);
  t->ub_note = "(UB " + S(s.ub) + " - 3072) / 4 / 2 = " + S(max_tile / 2) + " elements a chunk";
  return true;
}

void PlanLayerNorm(const Shape& s, NormTiling* t) {
  t->stats = kTwoPass;
  std::string tried;
  for (bool (*f)(const Shape&, NormTiling*) : {LnTranspose, LnSingleRead, LnMergeN, LnCommon}) {
    NormTiling trial = *t;
    if (f(s, &trial)) {
      const bool v4 = trial.kernel == "LayerNormV4";
      *t = trial;
      if (!v4) {
        t->kernel = "LayerNormV3";
        t->why += "; LayerNormV3's A2 tiling is not in ops-nn: LayerNormV4's ladder";
      }
      t->passed_over = tried;
      return;
    }
    tried += (tried.empty() ? "" : "; ") + trial.why;
  }
}

// ---- RmsNorm, AddRmsNorm, RmsNormGrad ---------------------------------------------------

constexpr int64_t kRmsReserved = 1024;
constexpr int64_t kSmallReduce = 2000;   // merge_n: an aligned row at most this long
constexpr int64_t kFloatPerRepeat = 64;  // f32 a repeat: the multi_n row budget

// RmsNorm's mixed ladder (16-bit x, f32 gamma): a row holds x and y (16-bit), gamma (f32) and
// two f32 temporaries, 16 bytes an aligned element; merge_n 2 (an aligned row <= 2000, with
// 288 B a row for rstd and the reduce), normal 0 (a row and the reduce plus 64 rows' rstd:
// 512 B), single_row 3 (y shares x's buffer: 14 bytes an element), split_d 1 (chunks of
// (UB - 1024 - 2560) / 16 elements, to 16).
void PlanRmsNormMixed(const Shape& s, NormTiling* t) {
  constexpr int64_t kPerElem = 16, kMergeRow = 288, kRstdRows = 512, kSplitConsts = 2560;
  const int64_t ub = s.ub - kRmsReserved;
  const int64_t aligned = AlignUp(s.cols, 16);
  const std::string base = "(UB " + S(s.ub) + " - 1024)";
  t->rows_per_loop = 1;
  if (aligned <= kSmallReduce) {
    t->tmpl = "merge_n";
    t->tiling_key = 2;
    t->rows_per_loop = ub / (aligned * kPerElem + kMergeRow);
    t->why = "an aligned row of " + S(aligned) + " <= 2000: many rows a pass";
    t->ub_note =
        base + " / (" + S(aligned) + " x 16 + 288) = " + S(t->rows_per_loop) + " rows a pass";
  } else if (aligned * kPerElem + kRstdRows < ub) {
    t->tmpl = "normal";
    t->tiling_key = 0;
    t->why = "an aligned row of " + S(aligned) + " > 2000 whose buffers fit";
    t->ub_note = S(aligned) + " x 16 + 512 < " + base + ": a row a pass, rstd kept for 64 rows";
  } else if (aligned * (kPerElem - 2) + kRstdRows < ub) {
    t->tmpl = "single_row";
    t->tiling_key = 3;
    t->why = "an aligned row of " + S(aligned) + ": y shares x's buffer";
    t->ub_note = S(aligned) + " x 14 + 512 < " + base + ": a row a pass";
  } else {
    t->tmpl = "split_d";
    t->tiling_key = 1;
    Chunked(s, AlignDown(std::max<int64_t>(ub - kSplitConsts, 0) / kPerElem, 16), t);
    t->why = "an aligned row of " + S(aligned) + " over the UB: in chunks";
    t->ub_note = "(" + base + " - 2560) / 16, to 16 = " + S(t->col_chunk) + " elements a chunk";
  }
  t->why += "; f32 gamma (the mixed-dtype ladder)";
}

void PlanRmsNorm(const Shape& s, NormTiling* t) {
  const int64_t ub = s.ub - kRmsReserved;
  const int64_t aligned = s.ColsAligned();
  int64_t ub_factor = s.elem == kF32 ? 10240 : 12288;
  t->kernel = "RmsNorm";
  t->stats = kSquares;
  CeilSplit(s, t);
  WholeRows(s, t);
  if (s.MixedParam()) {
    PlanRmsNormMixed(s, t);
  } else if (aligned <= kSmallReduce) {
    t->tmpl = "merge_n";
    t->tiling_key = 2;
    t->rows_per_loop = ub / (aligned * 16 + 260);
    t->why = "an aligned row of " + S(aligned) + " <= 2000: many rows a pass";
    t->ub_note = "(UB " + S(s.ub) + " - 1024) / (" + S(aligned) +
                 " x 16 + 260) = " + S(t->rows_per_loop) + " rows a pass";
  } else if (aligned > ub_factor) {
    t->tmpl = "split_d";
    t->tiling_key = 1;
    const int64_t tiles = CeilDiv(s.cols, ub_factor);
    int64_t chunk = CeilDiv(s.cols, tiles * 16) * 16;
    while (chunk > 16 && s.cols % chunk != 0 && s.cols % chunk < 16) chunk -= 16;
    Chunked(s, chunk, t);
    t->rows_per_loop = 1;
    t->why = "an aligned row of " + S(aligned) + " > " + S(ub_factor) + ": in chunks";
    t->ub_note = S(tiles) + " chunks of at most " + S(ub_factor) + ": ceil(" + S(s.cols) + " / (" +
                 S(tiles) + " x 16)) x 16 = " + S(t->col_chunk) + " (no tail under 16)";
  } else {
    t->tmpl = "normal";
    t->tiling_key = 0;
    t->rows_per_loop = 1;
    t->why = "an aligned row of " + S(aligned) + " in (2000, " + S(ub_factor) + "]";
    t->ub_note = "a row of at most " + S(ub_factor) + " a pass, rstd kept for 64 rows";
  }
}

void PlanAddRmsNorm(const Shape& s, NormTiling* t) {
  const int64_t ub = s.ub - kRmsReserved;
  const int64_t aligned = s.ColsAligned();
  const int64_t dtype_key = s.dtype == DType::kFloat16 ? 1 : s.dtype == DType::kBFloat16 ? 3 : 2;
  int64_t mode = 0;
  const int64_t ub_factor = s.elem == kF32 ? 10240 : 12288;
  t->kernel = "AddRmsNorm";
  t->stats = kSquares;
  CeilSplit(s, t);
  WholeRows(s, t);
  if (s.cols > ub_factor) {
    mode = 1;
    t->tmpl = "split_d";
    const int64_t cut = s.elem == kF32 ? 9696 : 12096;
    const int64_t tiles = CeilDiv(s.cols, cut);
    Chunked(s, CeilDiv(s.cols, tiles * s.BlockElems()) * s.BlockElems(), t);
    t->rows_per_loop = 1;
    t->why = "a row of " + S(s.cols) + " > " + S(ub_factor) + ": in chunks";
    t->ub_note =
        S(tiles) + " chunks of at most " + S(cut) + ", rounded to blocks: " + S(t->col_chunk);
  } else if (t->rows_per_core == 1) {
    mode = 3;
    t->tmpl = "single_n";
    t->rows_per_loop = 1;
    t->why = "one row a core (" + S(s.rows) + " rows <= " + S(s.cores) + " cores)";
    t->ub_note = "one row a pass";
  } else if (aligned <= kSmallReduce) {
    mode = 2;
    t->tmpl = "merge_n";
    const int64_t weight = s.elem == kF32 ? 24 : 18;
    t->rows_per_loop = ub / (aligned * weight + 260);
    t->why = "an aligned row of " + S(aligned) + " <= 2000: many rows a pass";
    t->ub_note = "(UB " + S(s.ub) + " - 1024) / (" + S(aligned) + " x " + S(weight) +
                 " + 260) = " + S(t->rows_per_loop) + " rows a pass";
  } else if (s.dtype == DType::kFloat16 && s.cols == aligned &&
             (ub - 256 - aligned * 2) / (aligned * 16 + kFloatPerRepeat) > 0) {
    mode = 4;
    t->tmpl = "multi_n";
    t->rows_per_loop = (ub - 256 - aligned * 2) / (aligned * 16 + kFloatPerRepeat);
    t->why = "f16, a row of " + S(s.cols) + " of whole blocks: several rows a pass";
    t->ub_note = "(UB " + S(s.ub) + " - 1024 - 256 - 2 x " + S(aligned) + ") / (" + S(aligned) +
                 " x 16 + 64) = " + S(t->rows_per_loop) + " rows a pass";
  } else {
    t->tmpl = "normal";
    t->rows_per_loop = 1;
    t->why = "a row of " + S(s.cols) + " in (2000, " + S(ub_factor) + "]";
    t->ub_note = "a row of at most " + S(ub_factor) + " a pass, rstd kept for 64 rows";
  }
  t->tiling_key = dtype_key * 10 + mode;
}

void PlanRmsNormGrad(const Shape& s, NormTiling* t) {
  constexpr int64_t kSplitN = 6080, kSplitD = 4096, kSmallD = 640, kUsedUb = 195584;
  const int64_t aligned = s.ColsAligned();
  t->kernel = "RmsNormGrad";
  t->stats = kGiven;
  CeilSplit(s, t);
  if (s.cols <= kSplitN) {
    t->tmpl = "split_n";
    t->tiling_key = 1;
    int64_t buffer = kSplitN;
    std::string how = "a buffer of 6080 elements";
    if (aligned <= kSmallD) {
      const int64_t rows = (kUsedUb - aligned * 10) / (aligned * 24 + 268);
      buffer = rows * aligned;
      how = "(195584 - " + S(aligned) + " x 10) / (" + S(aligned) + " x 24 + 268) = " + S(rows) +
            " rows";
    }
    t->rows_per_loop = std::min(buffer / aligned, t->rows_per_core);
    WholeRows(s, t);
    t->why = "a row of " + S(s.cols) + " <= 6080: whole rows, several a pass";
    t->ub_note = how + "; " + S(t->rows_per_loop) + " rows a pass";
  } else {
    t->tmpl = "split_d";
    t->tiling_key = 2;
    t->rows_per_loop = 1;
    Chunked(s, kSplitD, t);
    t->why = "a row of " + S(s.cols) + " > 6080: in chunks of 4096";
    t->ub_note = "chunks of 4096 elements";
  }
}

// ---- LayerNormBackward: LayerNormGradV3's A2 ladder ------------------------------------

// ops-nn's key: template * 100 + 10 (deterministic, always on) + dtypes (f32 1, f16 2, f16
// with f32 gamma 3, bf16 4, bf16 with f32 gamma 5). Gamma's dtype changes nothing else.
int64_t LngKey(const Shape& s, int64_t tmpl) {
  const int64_t d = s.dtype == DType::kFloat16 ? 2 : s.dtype == DType::kBFloat16 ? 4 : 1;
  return tmpl * 100 + 10 + d + (s.MixedParam() ? 1 : 0);
}

// The rows of cores past the ceil split take no rows, but single_read, common and workspace
// launch every core: the idle ones join the gamma and beta sums.
void LngSplit(const Shape& s, bool all_cores, NormTiling* t) {
  CeilSplit(s, t);
  t->launched_cores = all_cores ? s.cores : t->block_dim;
}

bool LngSingleRead(const Shape& s, NormTiling* t) {
  const int64_t buffer = (s.ub - 64 * 5 - 512 * 2) / kF32 / 4;
  if (s.cols < 768 || s.cols > 12176 || buffer < s.ColsAligned()) {
    t->why = "single_read needs a row in [768, 12176] within " + S(buffer) + " elements";
    return false;
  }
  t->tmpl = "single_read";
  t->tiling_key = LngKey(s, 1);
  LngSplit(s, true, t);
  t->rows_per_loop = buffer / s.ColsAligned();
  WholeRows(s, t);
  t->why = "a row of " + S(s.cols) + " in [768, 12176]: each row read once";
  t->ub_note = "(UB " + S(s.ub) + " - 320 - 1024) / 4 / 4 = " + S(buffer) +
               " f32 a buffer: " + S(t->rows_per_loop) + " rows a pass";
  return true;
}

bool LngTranspose(const Shape& s, NormTiling* t) {
  constexpr int64_t kC0 = 16;
  if (s.cols > 64 || s.cols == s.ColsAligned()) {
    t->why = "transpose needs a row <= 64 that is not a whole number of blocks";
    return false;
  }
  t->tmpl = "transpose";
  t->tiling_key = LngKey(s, 3);
  LngSplit(s, false, t);
  const int64_t room = s.ub - 64 * kF32 * 3 - s.ColsAligned() * kA2Block;
  const int64_t max_former = room / (s.cols * 4 * kF32 + 3 * kF32);
  int64_t per_loop = std::min(max_former, t->rows_per_core);
  for (; per_loop > 1; --per_loop) {
    const int64_t b = CeilDiv(per_loop, kC0);
    if (AlignUp(b, kC0) * kC0 * kF32 * 3 + AlignUp(b * s.cols, kC0) * kC0 * kF32 * 4 <= room) break;
  }
  t->rows_per_loop = std::max<int64_t>(per_loop, 1);
  WholeRows(s, t);
  t->why = "a row of " + S(s.cols) + " <= 64, not a multiple of " + S(s.BlockElems()) +
           " elements: rows transposed in tiles of 16";
  t->ub_note = "UB " + S(s.ub) + " - 768 - " + S(s.ColsAligned()) + " x 32 = " + S(room) + " B; " +
               S(t->rows_per_loop) + " rows a pass";
  return true;
}

bool LngCommon(const Shape& s, NormTiling* t) {
  if (s.cols > 768) {
    t->why = "common needs a row <= 768";
    return false;
  }
  t->tmpl = "common";
  t->tiling_key = LngKey(s, 4);
  LngSplit(s, true, t);
  const int64_t aligned = s.ColsAligned();
  const int64_t room = s.ub - aligned * kF32 * 3;
  int64_t f = room / (aligned * kF32 * 4 + kF32 * 3 + kA2Block);
  for (; f > 0; --f) {
    const int64_t whole = f * aligned * kF32;
    const int64_t last_r = AlignUp(f * kF32, kA2Block);
    const int64_t brcb = AlignUp(f, 8) * kA2Block;
    if (whole * 4 + last_r * 3 + brcb <= room && brcb <= whole) break;
  }
  if (f < 1) {
    t->why = "common: no row fits the UB";
    return false;
  }
  t->rows_per_loop = f;
  WholeRows(s, t);
  t->why = "a row of " + S(s.cols) + " <= 768: several rows a pass";
  t->ub_note = "UB " + S(s.ub) + " - 3 x " + S(aligned * kF32) + " = " + S(room) + " B: " + S(f) +
               " rows of 4 f32 buffers and their broadcasts";
  return true;
}

bool LngWorkspace(const Shape& s, NormTiling* t) {
  t->tmpl = "workspace";
  t->tiling_key = LngKey(s, 2);
  LngSplit(s, true, t);
  const int64_t buffer = (s.ub - 64 * 3) / 6 / kF32 / 16 * 16;
  t->rows_per_loop = 1;
  Chunked(s, std::min(buffer, AlignUp(s.cols, 16)), t);
  t->why = "the fallback: a row at a time through the workspace" +
           std::string(t->col_chunks > 1 ? ", in chunks" : "");
  t->ub_note = "(UB " + S(s.ub) + " - 192) / 6 / 4, to 16 = " + S(buffer) + " elements a chunk";
  return true;
}

void PlanLayerNormBackward(const Shape& s, NormTiling* t) {
  t->kernel = "LayerNormGradV3";
  t->stats = kGiven;
  std::string tried;
  for (bool (*f)(const Shape&, NormTiling*) :
       {LngSingleRead, LngTranspose, LngCommon, LngWorkspace}) {
    NormTiling trial = *t;
    if (f(s, &trial)) {
      *t = trial;
      t->why += GammaNote(s);
      t->passed_over = tried;
      return;
    }
    tried += (tried.empty() ? "" : "; ") + trial.why;
  }
}

// ---- AddLayerNorm, AddLayerNormGrad ------------------------------------------------------

// AddLayerNorm's A2 tiling. x is the compute dtype (FLOAT where x1 and x2 differ), gamma and
// beta its dtype or f32 (g bytes), a row bias (held whole beside gamma) and additionalOutput
// (a fourth row queue) in the budgets. The ladder: special_reduce (f16 x and gamma, no bias or
// a row bias, a row of at most 2040 elements), normal_special (f16 x and gamma with a row bias,
// where normal takes under 2 rows a pass and it over 2), normal, single_row, single_row_ext,
// single_row_less_tensor (additionalOutput with f32 x and gamma and no bias, or 16-bit x, f32
// gamma and no or a row bias), slice, slice_ext; a row under 500 takes the big_n variant of
// normal or special_reduce (at most 255 rows a pass). Key: the template's, + 100 with
// additionalOutput, + 1 for a bias of x1's size, + 2 for a row bias. The rows budget aligns a
// row to 32 elements.
void PlanAddLayerNorm(const Shape& s, NormTiling* t) {
  constexpr int64_t kReserved = 256, kStats = 4 * 64, kBrcb = 4 * 64 * 8;
  constexpr int64_t kSpecialMax = 255 * 8, kBigNMax = 500, kMaxRepeat = 255, kMinSlice = 2048;
  const int64_t e = s.elem, g = s.ParamBytes(), cols = s.cols, blk = s.BlockElems();
  const int64_t c32 = AlignUp(cols, 32);
  const NormBias bias = s.in.bias;
  const bool row_bias = bias == NormBias::kRow, xout = s.in.additional_output;
  const int64_t nb = row_bias ? 1 : 0, nq = 3 + (xout ? 1 : 0);  // row-bias rows, row queues
  const bool all16 = s.dtype == DType::kFloat16 && s.Param() == DType::kFloat16;
  const bool all32 = s.dtype == DType::kFloat32 && s.Param() == DType::kFloat32;
  t->kernel = "AddLayerNorm";
  t->stats = kTwoPass;
  CeilSplit(s, t);
  WholeRows(s, t);
  t->rows_per_loop = 1;
  int64_t key = -1;
  std::string room_text;
  // special_reduce: x1, x2, y (16-bit), mean and rstd a row; two f32 rows and a reduce row.
  if (all16 && bias != NormBias::kFull && s.ColsAligned() <= kSpecialMax) {
    const int64_t fixed = kF32 * 2 * c32 + e * nb * c32 + kReserved + kBrcb;
    const int64_t room = s.ub - fixed;
    const int64_t per_row = e * 3 * c32 + kF32 * 2 + kF32 * 2 * c32 + kStats;
    if (room > per_row) {
      key = 70;
      t->rows_per_loop = room / per_row;
      t->tmpl = "special_reduce";
      room_text = "(UB " + S(s.ub) + " - " + S(fixed) + ") / (" + S(per_row) + " B a row)";
    }
  }
  if (key < 0) {  // normal: the row queues, 3 f32 rows, gamma and beta (and a row bias)
    const int64_t fixed = g * 2 * c32 + e * nb * c32 + kStats + kReserved;
    const int64_t room = s.ub - fixed;
    const int64_t per_row = e * nq * c32 + kF32 * 2 + kF32 * 3 * c32;
    // normal_special: x1, x2, y and 2 f32 rows, gamma and beta in f32 and the row bias.
    const int64_t fixed_sp = kF32 * 2 * c32 + e * c32 + kStats + kReserved;
    const int64_t per_row_sp = e * 3 * c32 + kF32 * 2 + kF32 * 2 * c32;
    if (row_bias && all16 && room > 0 && room < 2 * per_row && s.ub - fixed_sp > 2 * per_row_sp) {
      key = 60;
      t->rows_per_loop = (s.ub - fixed_sp) / per_row_sp;
      t->tmpl = "normal_special";
      room_text = "normal's " + S(room) + " / " + S(per_row) + " under 2 rows; (UB " + S(s.ub) +
                  " - " + S(fixed_sp) + ") / (" + S(per_row_sp) + " B a row)";
    } else if (room > per_row) {
      key = 0;
      t->rows_per_loop = room / per_row;
      t->tmpl = "normal";
      room_text = "(UB " + S(s.ub) + " - " + S(fixed) + ") / (" + S(per_row) + " B a row)";
    }
  }
  const int64_t row_consts = kF32 * 2 + kStats + kReserved;
  if (key < 0 && e * nq * cols + (kF32 * 2 + g * 2) * cols + row_consts < s.ub) {
    key = 20;
    t->tmpl = "single_row";
    room_text = "one row: " + S(e * nq + kF32 * 2 + g * 2) + " x " + S(cols) + " + 520 B";
  }
  if (key < 0 && e * 2 * cols + (kF32 * 2 + g * 2) * cols + row_consts < s.ub) {
    key = 30;
    t->tmpl = "single_row_ext";
    room_text = "one row, x sharing y's queue: " + S(e * 2 + kF32 * 2 + g * 2) + " x " + S(cols) +
                " + 520 B";
  }
  if (key < 0 && xout &&
      ((all32 && bias == NormBias::kNone) || (s.MixedParam() && bias != NormBias::kFull))) {
    // single_row_less_tensor: one row queue (f32 x: x1, x2, y in turn; 16-bit x: with an f32
    // row beside it), two f32 rows and the constants; gamma and beta read from memory.
    const int64_t per_col = e + (all32 ? 0 : kF32) + kF32 * 2;
    if (per_col * cols + kF32 * 2 + kStats + kReserved < s.ub) {
      key = 90;
      t->tmpl = "single_row_less_tensor";
      room_text = "one row, one row queue: " + S(per_col) + " x " + S(cols) + " + 520 B";
    }
  }
  if (key < 0) {  // slice: gamma, beta, a row bias and an f32 row whole; the row queues chunked
    const int64_t per_col = e * nq + kF32 * 2;
    const int64_t room =
        s.ub - (g * 2 * cols + e * nb * cols + e * 2 + kF32 * cols + kStats + kReserved);
    const int64_t col = room / per_col;
    // ops-nn takes slice only when its chunk (over 2048) is not whole blocks, then aligns it.
    if (room > kMinSlice * per_col && col % blk != 0) {
      key = 10;
      t->tmpl = "slice";
      Chunked(s, col / blk * blk, t);
      room_text = "(UB " + S(s.ub) + " - " + S(s.ub - room) + ") / " + S(per_col) + " = " + S(col) +
                  " elements, to blocks";
    }
  }
  if (key < 0) {  // slice_ext: everything in chunks
    const int64_t per_col = e * nq + g * 2 + e * nb + kF32 * 3;
    const int64_t col = (s.ub - row_consts) / per_col;
    key = 50;
    t->tmpl = "slice_ext";
    Chunked(s, std::max<int64_t>(col / blk * blk, 0), t);
    room_text =
        "(UB " + S(s.ub) + " - 520) / " + S(per_col) + " = " + S(col) + " elements, to blocks";
  }
  t->rows_per_loop = std::min(t->rows_per_loop, t->rows_per_core);
  if ((key == 0 || key == 70) && cols < kBigNMax) {
    key += key == 0 ? 40 : 10;
    t->tmpl = key == 40 ? "big_n" : "big_n_special_reduce";
    t->rows_per_loop = std::min(t->rows_per_loop, kMaxRepeat);
  }
  t->tiling_key = key + (xout ? 100 : 0) + static_cast<int64_t>(bias);
  t->why = "a row of " + S(cols) + (t->col_chunks > 1 ? ": in chunks" : "") +
           (key == 40 || key == 80 ? " < 500: big_n, at most 255 rows a pass" : "") + "; " +
           (bias == NormBias::kNone   ? "no bias"
            : bias == NormBias::kFull ? "a bias of x1's size"
                                      : "a row bias") +
           (xout ? ", additionalOutput on" : ", additionalOutput off") + GammaNote(s);
  t->ub_note = room_text + "; " + S(t->rows_per_loop) + " rows a pass";
}

// ops-nn's round-down here, (x - f + 1) / f * f, takes a whole block off a multiple of f.
int64_t AlnRoundDown(int64_t x, int64_t f) { return x < f ? 0 : (x - f + 1) / f * f; }

// AddLayerNormGrad (A2): key dtype (f32 1, f16 2, bf16 3) x 10, + 30 when a row is cut, + 1
// with dsum (one more row buffer: dsum beside dy, x1, x2 and dx, in the dtype and, for 16-bit
// data, its f32 copy). Rows: the ceil split, every core launched (the idle ones join the gamma
// sums); a pass holds nAvailInUb rows, or one row in chunks of dInnerLength.
void PlanAddLayerNormGrad(const Shape& s, NormTiling* t) {
  constexpr int64_t kSpare = 512 + 512 + 64 * 4;
  const int64_t avail = s.ub - kSpare;
  const int64_t c8 = AlignUp(s.cols, 8), c16 = AlignUp(s.cols, 16);
  const int64_t dk = s.dtype == DType::kFloat16 ? 2 : s.dtype == DType::kBFloat16 ? 3 : 1;
  const bool dsum = s.in.dsum;
  const int64_t rb = 4 + (dsum ? 1 : 0);  // row buffers (f32, or each 16-bit one's copy)
  t->kernel = "AddLayerNormGrad";
  t->stats = kGiven;
  LngSplit(s, true, t);
  int64_t n = 0, chunk = 0;
  std::string how;
  if (s.elem == kF32) {  // gamma + 3 sums whole; dy, x1, x2, dx (dsum), x a row; mean, rstd
    const int64_t nd = avail / kF32 - c8 * 4;
    n = nd < 0 ? 0 : nd / (c8 * (rb + 1) + 16);
    how = "(" + S(avail) + " / 4 - 4 x " + S(c8) + ") / (" + S(rb + 1) + " x " + S(c8) +
          " + 16) = " + S(n);
    if (n < 1) {
      chunk = AlnRoundDown((avail / kF32 - 16) / (rb + 5), 8);
      how = "(" + S(avail) + " / 4 - 16) / " + S(rb + 5) + ", rounded down = " + S(chunk) +
            " elements a chunk";
    }
  } else {  // the 16-bit rows and their f32 copies
    const int64_t nd = avail - (c8 * 3 * kF32 + c16 * 2);
    n = nd < 0 ? 0 : nd / (64 + c8 * rb * kF32 + c16 * rb * 2);
    how = "(" + S(avail) + " - " + S(c8 * 12 + c16 * 2) + ") / (64 + " + S(rb * 4) + " x " + S(c8) +
          " + " + S(rb * 2) + " x " + S(c16) + ") = " + S(n);
    if (n < 1) {
      const int64_t per = (rb + 1) * 2 + (rb + 3) * kF32;
      chunk = AlnRoundDown(avail / per, 16);
      how = S(avail) + " / " + S(per) + ", rounded down = " + S(chunk) + " elements a chunk";
    }
  }
  if (n >= 1) {
    t->tmpl = "cut_n";
    t->tiling_key = dk * 10;
    t->rows_per_loop = std::min(n, t->rows_per_core);
    WholeRows(s, t);
    t->why = "whole rows of " + S(s.cols) + " fit the UB";
    t->ub_note = "UB " + S(s.ub) + " - 1280 = " + S(avail) + " B: " + how + " rows a pass";
  } else {
    t->tmpl = "cut_d";
    t->tiling_key = dk * 10 + 30;
    t->rows_per_loop = 1;
    Chunked(s, chunk, t);
    t->why = "a row of " + S(s.cols) + " over the UB: in chunks";
    t->ub_note = "UB " + S(s.ub) + " - 1280 = " + S(avail) + " B: " + how;
  }
  t->tiling_key += dsum ? 1 : 0;
  t->why += dsum ? "; with dsum" : "; no dsum";
}

// ---- GroupNorm (GroupNormSilu on A2), GroupNormBackward (GroupNormGrad) -----------------

struct Groups {
  DType dtype;
  int64_t n, c, hw, g, elem, cores, ub;
  int64_t Rows() const { return n * g; }
  int64_t ChannelsPerGroup() const { return c / g; }
  int64_t Cols() const { return c / g * hw; }
  int64_t BlockElems() const { return kA2Block / elem; }
};

// Cores of `per` units each, the last the rest: `units` of `unit_rows` rows each.
void UnitSplit(int64_t units, int64_t per, int64_t cores_used, int64_t unit_rows, NormTiling* t) {
  const int64_t last = units - per * (cores_used - 1);
  t->block_dim = cores_used;
  t->rows_per_core = (cores_used == 1 ? units : per) * unit_rows;
  t->former_cores = cores_used == 1 || last == per ? cores_used : cores_used - 1;
  t->tail_rows = cores_used == 1 || last == per ? 0 : last * unit_rows;
}

void PlanGroupNorm(const Groups& s, NormTiling* t) {
  constexpr int64_t kProcess = 8192, kHwCap = 4096;
  const int64_t blk = s.BlockElems(), d = s.ChannelsPerGroup();
  const bool b32 = s.elem == kF32;
  t->kernel = "GroupNormSilu";
  t->stats = "one pass: the sums of x and x^2 (variance E[x^2] - mean^2)";
  // Block split: ceil(N * G / cores) groups a core; a spatial extent under a block (but for
  // one element with whole-block groups) puts everything on one core.
  const int64_t total = s.Rows();
  int64_t per = CeilDiv(total, s.cores);
  int64_t used = CeilDiv(total, per);
  if (s.hw < blk && (s.hw != 1 || d < blk)) used = 1;
  std::string split = S(per) + " groups a core";
  if (s.hw == 1 && s.g == s.c) {  // one channel a group: a core takes whole samples
    if (s.c % blk != 0) {
      used = 1;
      UnitSplit(s.n, per, 1, s.g, t);
    } else {
      per = CeilDiv(s.n, s.cores);
      used = CeilDiv(s.n, per);
      UnitSplit(s.n, per, used, s.g, t);
    }
    split = "whole samples (a channel a group)";
  } else {
    UnitSplit(total, per, used, 1, t);
  }
  if (used == 1) split = "one core";
  int64_t key;
  if (s.hw < blk) {
    t->tmpl = s.hw == 1 ? "hw_one" : "basic";
    key = s.hw == 1 ? (b32 ? 108 : 1071) : (b32 ? 106 : 1051);
    t->why = "HxW " + S(s.hw) + " under a block of " + S(blk) + "; " + split;
  } else if (s.hw % (b32 ? 8 : 16) == 0 && s.hw <= kHwCap && s.c + per <= (b32 ? 4000 : 2700)) {
    t->tmpl = "small_shape";
    key = b32 ? 102 : 1011;
    t->why = "HxW " + S(s.hw) + " of whole blocks <= 4096, C + groups a core = " + S(s.c + per) +
             " <= " + S(b32 ? 4000 : 2700) + "; " + split;
  } else if (s.c + per <= (b32 ? 4000 : 2700)) {
    t->tmpl = "high_perf";
    key = b32 ? 104 : 1031;
    t->why = "C + groups a core = " + S(s.c + per) + " <= " + S(b32 ? 4000 : 2700) + "; " + split;
  } else {
    t->tmpl = "basic";
    key = b32 ? 106 : 1051;
    t->why = "C + groups a core = " + S(s.c + per) + " over " + S(b32 ? 4000 : 2700) + "; " + split;
  }
  t->tiling_key = key;
  t->rows_per_loop = 1;
  Chunked(Shape{s.dtype, s.Rows(), s.Cols(), s.elem, s.cores, s.ub}, kProcess, t);
  t->ub_note = "a group's " + S(s.Cols()) + " elements in passes of 8192";
}

void PlanGroupNormBackward(const Groups& s, NormTiling* t) {
  constexpr int64_t kReserve = 1024, kMaxChannels = 8000;
  // 16-bit data is held with its f32 copy: 6 bytes an element, 16 elements a block.
  const int64_t bytes = s.elem == kF32 ? 4 : 6, blk = s.BlockElems();
  const int64_t cpg = s.ChannelsPerGroup();
  t->kernel = "GroupNormGrad";
  t->stats = kGiven;
  if (AlignUp(cpg, blk) > kMaxChannels) return;  // ops-nn refuses: rows_per_loop stays 0
  const int64_t reserve = kReserve + AlignUp(cpg, blk) * bytes * 3;
  // Tasks (groups) per core: ceil; the first nxg % cores_used cores take one more.
  const int64_t nxg = s.Rows();
  const int64_t per = CeilDiv(nxg, s.cores), used = CeilDiv(nxg, per);
  t->block_dim = used;
  t->rows_per_core = per;
  t->former_cores = nxg % used == 0 ? used : nxg % used;
  t->tail_rows = nxg % used == 0 ? 0 : per - 1;
  const int64_t extra = s.hw % 8 == 0 || cpg == 1 ? 0 : 2 * AlignUp(s.hw, blk) * kF32;
  const int64_t groups_cap =
      s.ub < reserve + extra ? 0
                             : (s.ub - reserve - extra) / (AlignUp(cpg * s.hw, blk) * bytes * 3);
  const int64_t channels_cap = (s.ub - reserve) / (AlignUp(s.hw, blk) * bytes * 3);
  t->tiling_key = (s.dtype == DType::kFloat16    ? 1
                   : s.dtype == DType::kBFloat16 ? 2
                                                 : 0) +
                  (s.n > 2 ? 10 : 0);
  const std::string ub = "UB " + S(s.ub) + " - " + S(reserve) + " reserved";
  t->rows_per_loop = 1;
  WholeRows(Shape{s.dtype, s.Rows(), s.Cols(), s.elem, s.cores, s.ub}, t);
  if (s.hw == 1) {
    t->tmpl = "hw_one";
    t->rows_per_loop = std::max<int64_t>(groups_cap, 1);
    t->why = "HxW 1";
    t->ub_note = ub + ": " + S(groups_cap) + " groups a pass";
  } else if (groups_cap > 0) {
    t->tmpl = "groups";
    t->rows_per_loop = groups_cap;
    t->why = "whole groups fit the UB: " + S(groups_cap) + " a pass";
    t->ub_note = ub + (extra ? " - " + S(extra) + " for unaligned HxW" : "") + " over 3 x " +
                 S(AlignUp(cpg * s.hw, blk)) + " x " + S(bytes) + " B a group";
  } else if (channels_cap >= 1) {
    t->tmpl = channels_cap == 1 ? "channel" : "channels";
    Chunked(Shape{s.dtype, s.Rows(), s.Cols(), s.elem, s.cores, s.ub}, channels_cap * s.hw, t);
    t->why = "a group over the UB: " + S(channels_cap) +
             (channels_cap == 1 ? " channel" : " channels") + " a pass";
    t->ub_note = ub + " over 3 x " + S(AlignUp(s.hw, blk)) + " x " + S(bytes) + " B a channel";
  } else {
    t->tmpl = "hw_chunks";
    const int64_t cap = AlignDown((s.ub - reserve) / (bytes * 3), blk * 8);
    Chunked(Shape{s.dtype, s.Rows(), s.Cols(), s.elem, s.cores, s.ub}, cap, t);
    t->col_chunks = cpg * CeilDiv(s.hw, t->col_chunk);  // each channel's HxW apart
    t->why = "a channel over the UB: each channel's HxW in " + S(CeilDiv(s.hw, cap)) +
             " chunks of up to " + S(cap);
    t->ub_note = ub + " / (3 x " + S(bytes) + " B), to " + S(blk * 8) + " = " + S(cap);
  }
  t->why += "; " + S(per) + " groups a core" +
            (t->former_cores < used ? " (" + S(used - t->former_cores) + " cores one fewer)" : "") +
            (s.n > 2 ? "; deterministic (N > 2)" : "");
}

// ---- BatchNorm (BatchNormV3 on A2), BatchNormBackward ------------------------------------

// BatchNormV3's pattern [R1, A, R0]: x [N, C, spatial...] with R1 = N, A = C, R0 = the
// spatial product; the cores split the channels (A), not the N * C segments the host runs.
struct Channels {
  DType dtype;
  int64_t r1, a, r0, elem, cores, ub;
  int64_t R0Align() const { return AlignUp(r0, elem == kF32 ? 8 : 16); }
};

// full_reduce (ops-nn's priority 1000): a channel's R1 x R0 elements whole in the UB, when
// fewer than 8192; counted in 16-bit elements: 20 A-sized and 8 (f32) or 7 (16-bit) R-sized
// buffers. The channels a pass start at min(blockFactor, UB / 2 / rUbNum / (R1 R0)) and drop
// until they fit; none fitting leaves the template.
bool BnFullReduce(const Channels& s, int64_t per_core, NormTiling* t) {
  constexpr int64_t kRLimit = 8192, kAUbNum = 20;
  const int64_t r = s.r1 * s.r0;
  if (r >= kRLimit) {
    t->why = "full_reduce needs a channel of R1 x R0 = " + S(r) + " < 8192";
    return false;
  }
  const int64_t ele = s.ub / 2, r_num = s.elem == kF32 ? 8 : 7;
  int64_t a_ub = std::min(per_core, ele / r_num / r), a_size = 0, r_size = 0;
  for (; a_ub > 0; --a_ub) {
    a_size = AlignUp(a_ub, 16);
    r_size = s.r0 == 1 ? AlignUp(s.r1 * AlignUp(a_ub, s.R0Align()), 16)
                       : AlignUp(a_ub * s.r1 * s.R0Align(), 16);
    if (a_size * kAUbNum + r_size * r_num <= ele) break;
  }
  if (a_ub < 1) {
    t->why = "full_reduce: no channel of " + S(r) + " fits the UB";
    return false;
  }
  t->tmpl = s.r0 == 1 ? "full_reduce_a_parallel" : "full_reduce";
  t->tiling_key = s.r0 == 1 ? 2001 : 2000;
  t->rows_per_loop = a_ub;
  t->col_chunk = r;
  t->col_chunks = 1;
  t->stats = "a channel whole in the UB: sums by a dichotomy of adds";
  t->why = "a channel of R1 x R0 = " + S(r) + " < 8192 fits whole" +
           (s.r0 == 1 ? " (R0 1: the channels side by side)" : "");
  t->ub_note = S(a_ub) + " channels a pass: 20 x " + S(a_size) + " + " + S(r_num) + " x " +
               S(r_size) + " <= " + S(ele) + " 16-bit elements";
  return true;
}

// welford (priority 2000, always capable): Welford statistics over R0 chunks of
// floorAlign((UB / 4 - 10 aUbFactor) / 5, 16) f32 elements, aUbFactor = the core's channels
// aligned to 16 (at most 512); whole samples of R0 a chunk when R0 aligned is at most half
// a chunk and N > 1. Keys: 1000 / 1001 (R0 chunks, a ragged / even last), 1002 / 1003
// (samples a chunk, ragged / even), + 10 when R0 is whole blocks.
void BnWelford(const Channels& s, int64_t per_core, NormTiling* t) {
  constexpr int64_t kALimit = 512, kAUbNum = 10, kR0UbNum = 5;
  const int64_t ele = s.ub / kF32;
  const int64_t a_ub = per_core > kALimit ? kALimit : AlignUp(per_core, 16);
  const int64_t r0_ub = AlignDown((ele - a_ub * kAUbNum) / kR0UbNum, 16);
  t->welford = true;
  t->stats = "Welford, chunk by chunk";
  t->rows_per_loop = a_ub;
  t->ub_note = "(" + S(ele) + " - 10 x " + S(a_ub) + ") / 5, to 16 = " + S(r0_ub) +
               " f32 a chunk; " + S(a_ub) + " channels a pass";
  if (r0_ub < 1) return;  // leaves rows_per_loop to Finish: no chunk fits
  const int64_t loops = CeilDiv(s.r0, r0_ub), tail = s.r0 - (loops - 1) * r0_ub;
  t->tmpl = "welford_r0_split";
  t->tiling_key = loops == 1 || tail == r0_ub ? 1001 : 1000;
  t->col_chunk = std::min(r0_ub, s.r0);
  t->col_chunks = s.r1 * loops;
  t->why = "R0 = " + S(s.r0) + " in " + S(loops) + (loops == 1 ? " chunk" : " chunks") +
           " of up to " + S(r0_ub);
  if (s.R0Align() <= r0_ub / 2 && s.r1 > 1) {
    const int64_t per = r0_ub / s.R0Align(), n_loops = CeilDiv(s.r1, per);
    const int64_t last = s.r1 - (n_loops - 1) * per;
    t->tmpl = "welford_r1_split";
    t->tiling_key = (n_loops == 1 || last == per ? 1003 : 1002) + (s.r0 == s.R0Align() ? 10 : 0);
    t->col_chunk = std::min(per, s.r1) * s.r0;
    t->col_chunks = n_loops;
    t->why = "R0 aligned " + S(s.R0Align()) + " <= half a chunk of " + S(r0_ub) + ": " + S(per) +
             " samples a chunk, " + S(n_loops) + (n_loops == 1 ? " chunk" : " chunks") +
             (s.r0 == s.R0Align() ? "; R0 whole blocks" : "");
  }
}

void PlanBatchNorm(const Channels& s, NormTiling* t) {
  constexpr int64_t kMinChannels = 64;
  t->rows = s.a;
  t->cols = s.r1 * s.r0;
  if (s.a < kMinChannels) {
    t->kernel = "BNTrainingReduce + BNTrainingUpdate";
    t->why = "C = " + S(s.a) +
             " < 64: the A2 op_api runs the TBE kernels, whose tiling ops-nn does not publish";
    return;
  }
  t->kernel = "BatchNormV3";
  const int64_t per_core = CeilDiv(s.a, s.cores);
  t->block_dim = CeilDiv(s.a, per_core);
  t->rows_per_core = per_core;
  const int64_t tail = s.a - (t->block_dim - 1) * per_core;
  t->former_cores = tail == per_core ? t->block_dim : t->block_dim - 1;
  t->tail_rows = tail == per_core ? 0 : tail;
  NormTiling trial = *t;
  if (BnFullReduce(s, per_core, &trial)) {
    *t = trial;
    return;
  }
  t->passed_over = trial.why;
  BnWelford(s, per_core, t);
  t->why += "; C = " + S(s.a) + " >= 64, training";
}

// A UB overridden below what the A2 kernels assume leaves no row (or chunk) a pass: ops-nn's
// tiling fails there, and only the host's reduction plan stands.
NormTiling Finish(NormTiling t) {
  if (t.rows_per_loop < 1 || t.col_chunk < 1) return NormTiling{};
  if (t.launched_cores == 0) t.launched_cores = t.block_dim;
  t.planned = true;
  return t;
}

}  // namespace

bool IsAtlasA2(const Platform& pf) {
  return pf.name == "atlas-a2" || pf.name.rfind("atlas-a2-", 0) == 0;
}

NormTiling PlanNormA2(Op op, DType dtype, const NormInputs& inputs, int64_t rows, int64_t cols,
                      const Platform& pf) {
  NormTiling t;
  const int64_t elem = static_cast<int64_t>(DTypeSize(dtype));
  if (rows < 1 || cols < 1 || (elem != 2 && elem != 4)) return t;
  const Shape s{dtype, rows, cols, elem, pf.cores, pf.ub_bytes, inputs};
  t.rows = rows;
  t.cols = cols;
  switch (op) {
    case Op::kLayerNorm:
    case Op::kLayerNormWithImplMode:
      PlanLayerNorm(s, &t);
      break;
    case Op::kRmsNorm:
      PlanRmsNorm(s, &t);
      break;
    case Op::kAddRmsNorm:
    case Op::kInplaceAddRmsNorm:
      PlanAddRmsNorm(s, &t);
      break;
    case Op::kRmsNormGrad:
      PlanRmsNormGrad(s, &t);
      break;
    case Op::kLayerNormBackward:
      PlanLayerNormBackward(s, &t);
      break;
    case Op::kAddLayerNorm:
      PlanAddLayerNorm(s, &t);
      break;
    case Op::kAddLayerNormGrad:
      PlanAddLayerNormGrad(s, &t);
      break;
    default:
      return NormTiling{};
  }
  return Finish(t);
}

NormTiling PlanGroupNormA2(Op op, DType dtype, int64_t n, int64_t channels, int64_t spatial,
                           int64_t group, const Platform& pf) {
  NormTiling t;
  const int64_t elem = static_cast<int64_t>(DTypeSize(dtype));
  if (n < 1 || channels < 1 || spatial < 1 || group < 1 || channels % group != 0 ||
      (elem != 2 && elem != 4)) {
    return t;
  }
  const Groups s{dtype, n, channels, spatial, group, elem, pf.cores, pf.ub_bytes};
  t.rows = s.Rows();
  t.cols = s.Cols();
  if (op == Op::kGroupNorm) {
    PlanGroupNorm(s, &t);
  } else if (op == Op::kGroupNormBackward) {
    PlanGroupNormBackward(s, &t);
  } else {
    return NormTiling{};
  }
  return Finish(t);
}

NormTiling PlanBatchNormA2(Op op, DType dtype, int64_t n, int64_t channels, int64_t spatial,
                           const Platform& pf) {
  NormTiling t;
  const int64_t elem = static_cast<int64_t>(DTypeSize(dtype));
  if (n < 1 || channels < 1 || spatial < 1 || (elem != 2 && elem != 4)) return t;
  if (op == Op::kBatchNormBackward) {
    // The A2 op_api runs BatchNormGradV3 only on Ascend 950; on A2 the TBE kernels.
    t.rows = channels;
    t.cols = n * spatial;
    t.kernel = "BNTrainingUpdateGrad + BNTrainingReduceGrad";
    t.why = "the A2 op_api runs the TBE kernels, whose tiling ops-nn does not publish";
    return t;
  }
  if (op != Op::kBatchNorm) return t;
  PlanBatchNorm(Channels{dtype, n, channels, spatial, elem, pf.cores, pf.ub_bytes}, &t);
  if (t.block_dim == 0) return t;  // the TBE kernels: a note, no tiling
  return Finish(t);
}

}  // namespace tiling
}  // namespace hostnn
