// Benchmark cases (see cases.h): buffer set-up, the two ways of calling an operator (the
// C++ API, and the C API through the operator list's table), and the roofline over the same
// memory, so a case and its roofline touch the same pages.

#include "bench/cases.h"

#include <sys/mman.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <stdexcept>

#include "bench/cli_util.h"
#include "bench/roofline.h"
#include "kernels/kernels.h"
#include "tests/util/capi_call.h"
#include "tests/util/operand_roles.h"

namespace hostnn {
namespace bench {
namespace {

constexpr size_t kAlign = 64;
constexpr size_t kHugePage = size_t{2} << 20;

void* AllocArray(size_t bytes) {
  // Large arrays start on a 2 MiB boundary and ask for transparent huge pages, so TLB
  // misses cost the same for the operator and the roofline.
  const size_t align = bytes >= 4 * kHugePage ? kHugePage : kAlign;
  const size_t rounded = (std::max<size_t>(bytes, 1) + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded);
  if (p == nullptr) throw std::runtime_error("out of memory for a benchmark array");
#ifdef MADV_HUGEPAGE
  if (align == kHugePage) madvise(p, rounded, MADV_HUGEPAGE);
#endif
  return p;
}

// A fast, deterministic uniform in [lo, hi) (splitmix64); the values only have to
// exercise every branch, not be random in any deep sense.
struct Uniform {
  uint64_t state;
  float Next(float lo, float hi) {
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return lo + (hi - lo) * static_cast<float>(z >> 40) * (1.0f / 16777216.0f);
  }
};

// Fills n elements of `dtype` with values from [lo, hi), narrowed by the library's own
// round-to-nearest-even conversion, a chunk at a time.
void Fill(void* dst, DType dtype, int64_t n, float lo, float hi, uint64_t seed) {
  const kernels::FromF32Fn narrow = kernels::GetFromF32(dtype);
  const size_t es = DTypeSize(dtype);
  constexpr int64_t kChunk = 4096;
  float staging[kChunk];
  Uniform rng{seed};
  for (int64_t i = 0; i < n; i += kChunk) {
    const int64_t len = std::min(kChunk, n - i);
    for (int64_t j = 0; j < len; ++j) staging[j] = rng.Next(lo, hi);
    narrow(staging, static_cast<char*>(dst) + static_cast<size_t>(i) * es,
           static_cast<size_t>(len));
  }
}

}  // namespace

const char* ShortDTypeName(DType dtype) {
  const char* name = tiling::ShortDTypeName(dtype);  // the planner's names, as in plans
  return name != nullptr ? name : "?";
}

bool ParseShortDType(const std::string& text, DType* dtype) {
  for (DType d : {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64}) {
    if (text == ShortDTypeName(d)) {
      *dtype = d;
      return true;
    }
  }
  return false;
}

int64_t CaseSpec::Elements() const {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  return n;
}

double CaseSpec::ScalarValue(int k) const {
  const double v = k < static_cast<int>(scalars.size()) ? scalars[static_cast<size_t>(k)]
                                                        : GetOpInfo(op).scalars[k].default_value;
  return static_cast<double>(static_cast<float>(v));
}

std::string CaseSpec::ShapeText() const {
  std::string text = "[";
  for (size_t i = 0; i < shape.size(); ++i) text += (i ? "," : "") + std::to_string(shape[i]);
  text += "]";
  if ((GetOpInfo(op).is_reduction && !IsChannelStatsOp(op)) || GetOpInfo(op).is_split)
    text += " dim " + std::to_string(dim);
  if (weight_rows > 0) text += " of " + std::to_string(weight_rows) + " rows";
  return text;
}

std::vector<CaseSpec> StandardCases(Op op, DType dtype, int64_t n) {
  constexpr int64_t kRow = 1024;
  if (SplitsLastDim(GetOpInfo(op).kind, GetOpInfo(op).signature)) {
    // GeluMul, FatreluMul: a last dim of at most 1024 (CANN's tilings), so halves of the
    // largest divisor of n up to 512.
    int64_t half = std::min<int64_t>(std::max<int64_t>(n, 1), kRow / 2);
    while (n % half != 0) --half;
    return {CaseSpec{op, dtype, {n / half, 2 * half}, -1, {}}};
  }
  if (GetOpInfo(op).is_split) {
    if (n < kRow || n % kRow != 0) return {CaseSpec{op, dtype, {1, 2 * n}, -1, {}}};
    return {CaseSpec{op, dtype, {n / kRow, 2 * kRow}, -1, {}}};
  }
  if (IsIndexKind(GetOpInfo(op).kind)) {
    // Embedding: out [n / 1024, 1024] (rows of 1024 picked from a weight of as many rows), or
    // [1, n]; EmbeddingDenseBackward: grad of that shape summed into as many rows.
    if (n < kRow || n % kRow != 0) return {CaseSpec{op, dtype, {1, n}, -1, {}}};
    return {CaseSpec{op, dtype, {n / kRow, kRow}, -1, {}}};
  }
  if (GetOpInfo(op).kind == Kind::kClassLoss || GetOpInfo(op).kind == Kind::kSoftmaxLoss) {
    // NLLLoss, CrossEntropyLoss: self [n / 1024, 1024] (rows of 1024 classes) or [1, n];
    // NLLLoss2d: [n / 1024, 4, 16, 16] (pixels of 4 classes) or [1, 1, 1, n].
    const bool whole = n >= kRow && n % kRow == 0;
    if (GetOpInfo(op).shapes == ShapeRule::kClassTarget2d) {
      return {CaseSpec{
          op,
          dtype,
          whole ? std::vector<int64_t>{n / kRow, 4, 16, 16} : std::vector<int64_t>{1, 1, 1, n},
          -1,
          {}}};
    }
    return {CaseSpec{op,
                     dtype,
                     whole ? std::vector<int64_t>{n / kRow, kRow} : std::vector<int64_t>{1, n},
                     -1,
                     {}}};
  }
  if (!GetOpInfo(op).is_reduction) return {CaseSpec{op, dtype, {n}, -1, {}}};
  if (GetOpInfo(op).shapes == ShapeRule::kChannelGroups) {
    // GroupNorm: self [n / 1024, 32, 32] in 8 groups (rows of 4 channels of 32), or [1, 1, n].
    const bool whole = n >= kRow && n % kRow == 0;
    const int64_t batch = whole ? n / kRow : 1, channels = whole ? 32 : 1;
    const int64_t spatial = n / (batch * channels), groups = whole ? 8 : 1;
    return {CaseSpec{op,
                     dtype,
                     {batch, channels, spatial},
                     -1,
                     {static_cast<double>(batch), static_cast<double>(channels),
                      static_cast<double>(spatial), static_cast<double>(groups)}}};
  }
  if (GetOpInfo(op).shapes == ShapeRule::kChannelStats) {
    // BatchNorm: input [n / 4096, 64, 64] (64 channels of 64 elements per sample), or
    // [1, 1, n].
    constexpr int64_t kSample = 64 * 64;
    if (n < kSample || n % kSample != 0) return {CaseSpec{op, dtype, {1, 1, n}, -1, {}}};
    return {CaseSpec{op, dtype, {n / kSample, 64, 64}, -1, {}}};
  }
  if (n < kRow || n % kRow != 0) return {CaseSpec{op, dtype, {1, n}, -1, {}}};
  // A norm normalises the last dim (LayerNorm's normalizedShape, RmsNorm's gamma [1024]):
  // rows of 1024 only.
  if (GetOpInfo(op).shapes == ShapeRule::kTrailingDims) {
    // A norm's flag on (AddLayerNorm's additionalOutput: xOut written, as CANN's example
    // calls it), the other scalars at their defaults.
    std::vector<double> scalars;
    const OpInfo& info = GetOpInfo(op);
    for (int k = 0; k < info.num_scalars(); ++k) {
      if (info.scalars[k].kind == ScalarKind::kFlag) {
        for (int j = 0; j < info.num_scalars(); ++j) {
          scalars.push_back(j == k ? 1.0 : info.scalars[j].default_value);
        }
        break;
      }
    }
    return {CaseSpec{op, dtype, {n / kRow, kRow}, -1, scalars}};
  }
  return {CaseSpec{op, dtype, {n / kRow, kRow}, -1, {}},
          CaseSpec{op, dtype, {kRow, n / kRow}, 0, {}}};
}

void SetShapeScalars(CaseSpec* c) {
  const OpInfo& info = GetOpInfo(c->op);
  if (info.shapes != ShapeRule::kChannelGroups || c->shape.size() < 2) return;
  c->scalars.clear();
  for (int k = 0; k < info.num_scalars(); ++k) c->scalars.push_back(info.scalars[k].default_value);
  int64_t spatial = 1;
  for (size_t i = 2; i < c->shape.size(); ++i) spatial *= c->shape[i];
  c->scalars[0] = static_cast<double>(c->shape[0]);
  c->scalars[1] = static_cast<double>(c->shape[1]);
  c->scalars[2] = static_cast<double>(spatial);
}

std::vector<NormShape> DefaultNormShapes() {
  return {{4096, 64}, {1024, 1024}, {256, 16384}, {64, 65536}, {8192, 4096}};
}

bool ParseNormShapes(const std::string& text, std::vector<NormShape>* shapes) {
  shapes->clear();
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    const size_t x = item.find('x');
    NormShape s;
    if (x == std::string::npos || !ParseCount(item.substr(0, x), &s.rows) ||
        !ParseCount(item.substr(x + 1), &s.length)) {
      return false;
    }
    shapes->push_back(s);
    start = comma + 1;
  }
  return !shapes->empty();
}

std::string NormShapeText(const NormShape& s) {
  return std::to_string(s.rows) + "x" + std::to_string(s.length);
}

std::vector<std::vector<int64_t>> DefaultChannelShapes() {
  return {{32, 64, 56, 56}, {32, 256, 14, 14}, {64, 512, 7, 7}, {256, 1024}};
}

std::vector<std::vector<int64_t>> DefaultClassShapes() {
  return {{64, 32000}, {8192, 1000}, {4096, 128256}, {8, 21, 128, 128}, {4, 150, 64, 64}};
}

bool ParseChannelShapes(const std::string& text, std::vector<std::vector<int64_t>>* shapes) {
  shapes->clear();
  for (const std::string& item : Split(text, ',')) {
    std::vector<int64_t> shape;
    if (!ParseShape(item, &shape) || shape.size() < 2 || shape.size() > 8) return false;
    for (const int64_t extent : shape) {
      if (extent <= 0) return false;
    }
    shapes->push_back(shape);
  }
  return !shapes->empty();
}

std::vector<EmbeddingShape> DefaultEmbeddingShapes() {
  return {{128256, 4096, 8192}, {32000, 4096, 8192}, {50257, 768, 4096}};
}

bool ParseEmbeddingShapes(const std::string& text, std::vector<EmbeddingShape>* shapes) {
  shapes->clear();
  for (const std::string& item : Split(text, ',')) {
    std::vector<int64_t> e;
    if (!ParseShape(item, &e) || e.size() != 3 || e[0] <= 0 || e[1] <= 0 || e[2] <= 0) {
      return false;
    }
    shapes->push_back({e[0], e[1], e[2]});
  }
  return !shapes->empty();
}

CaseSpec EmbeddingCase(Op op, DType dtype, const EmbeddingShape& s) {
  CaseSpec c{op, dtype, {s.indices, s.d}, -1, {}};
  c.weight_rows = s.rows;
  return c;
}

CaseSpec NormCase(Op op, DType dtype, const NormShape& s) {
  if (GetOpInfo(op).shapes != ShapeRule::kChannelGroups) {
    return CaseSpec{op, dtype, {s.rows, s.length}, -1, {}};
  }
  const int64_t group = s.rows % 8 == 0 ? 8 : 1;
  const int64_t per_group = s.length % 4 == 0 ? 4 : 1;  // channels per group
  CaseSpec c{op, dtype, {s.rows / group, group * per_group, s.length / per_group}, -1, {}};
  SetShapeScalars(&c);
  c.scalars[3] = static_cast<double>(group);
  return c;
}

NormShape NormShapeOf(const CaseSpec& spec) {
  const OpInfo& info = GetOpInfo(spec.op);
  if (!IsNormShape(info.shapes) || spec.shape.empty()) return {};
  const int64_t n = spec.Elements();
  if (info.shapes == ShapeRule::kChannelGroups) {
    const int64_t rows = spec.shape[0] * static_cast<int64_t>(spec.ScalarValue(3));
    return rows > 0 ? NormShape{rows, n / rows} : NormShape{};
  }
  const int64_t length = spec.shape.back();
  return length > 0 ? NormShape{n / length, length} : NormShape{};
}

bool ForceBenchTarget(const char* tool) {
  const char* name = std::getenv("HOSTNN_BENCH_TARGET");
  if (name == nullptr || *name == '\0') return true;
  bool found = false;
  for (int64_t target : kernels::AvailableTargets()) {
    if (kernels::TargetName(target) != name) continue;
    kernels::ForceTarget(target);
    found = true;
  }
  if (!found) {
    std::fprintf(stderr, "%s: HOSTNN_BENCH_TARGET=%s: not a target this build and CPU run\n", tool,
                 name);
    return false;
  }
  std::fprintf(stderr, "SIMD target: %s\n", kernels::ActiveTargetName().c_str());
  return true;
}

void CaseData::DrawIndices(int64_t n, int64_t rows) {
  index_.resize(static_cast<size_t>(n));
  uint64_t state = 0x9E3779B97F4A7C15ull;  // a fixed LCG: the same indices every run
  for (int64_t& i : index_) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    i = static_cast<int64_t>((state >> 33) % static_cast<uint64_t>(rows));
  }
  dy_view_ = TensorView::Dense(index_.data(), DType::kInt64, {n});
}

CaseData::CaseData(const CaseSpec& spec) : spec_(spec) {
  const int64_t n = spec.Elements();
  bytes_per_array_ = static_cast<size_t>(n) * DTypeSize(spec.dtype);
  dy_ = AllocArray(bytes_per_array_);
  x_ = AllocArray(bytes_per_array_);
  out_ = AllocArray(bytes_per_array_);
  Fill(dy_, spec.dtype, n, -1.0f, 1.0f, 1);
  const OpInfo& info = GetOpInfo(spec.op);
  Fill(x_, spec.dtype, n, static_cast<float>(info.domain_lo), static_cast<float>(info.domain_hi),
       2);
  std::memset(out_, 0, bytes_per_array_);  // first touch, outside any timing
  dy_view_ = TensorView::Dense(dy_, spec.dtype, spec.shape);
  x_view_ = TensorView::Dense(x_, spec.dtype, spec.shape);
  out_view_ = TensorView::Dense(out_, spec.dtype, spec.shape);
  if (info.is_split) {  // every array of self's size; the half-shaped views use half of one
    std::vector<int64_t> half = spec.shape;
    const size_t d =
        static_cast<size_t>(spec.dim < 0 ? spec.dim + static_cast<int64_t>(half.size()) : spec.dim);
    half[d] /= 2;
    act_ = AllocArray(bytes_per_array_);
    Fill(act_, spec.dtype, n, 0.0f, 1.0f, 3);
    dy_view_ = TensorView::Dense(dy_, spec.dtype, half);
    act_view_ = TensorView::Dense(act_, spec.dtype, half);
    if (info.is_forward) out_view_ = TensorView::Dense(out_, spec.dtype, half);
  }
  if (info.kind == Kind::kGather && spec.shape.size() == 2) {
    // Embedding: weight [rows, D] in x_, out [indices, D], an INT64 index per out row drawn
    // uniformly from weight's rows.
    const int64_t indices = spec.shape[0], d = spec.shape[1];
    const int64_t rows = spec.weight_rows > 0 ? spec.weight_rows : indices;
    if (rows != indices) {
      std::free(x_);
      const size_t weight_bytes = static_cast<size_t>(rows * d) * DTypeSize(spec.dtype);
      x_ = AllocArray(weight_bytes);
      Fill(x_, spec.dtype, rows * d, static_cast<float>(info.domain_lo),
           static_cast<float>(info.domain_hi), 2);
    }
    x_view_ = TensorView::Dense(x_, spec.dtype, {rows, d});
    DrawIndices(indices, rows);
  }
  if (info.kind == Kind::kScatterAdd && spec.shape.size() == 2) {
    // EmbeddingDenseBackward: grad [indices, D] in x_, out [rows, D], an INT64 index per grad
    // row drawn uniformly from out's rows.
    const int64_t indices = spec.shape[0], d = spec.shape[1];
    const int64_t rows = spec.weight_rows > 0 ? spec.weight_rows : indices;
    if (rows != indices) {
      std::free(out_);
      out_ = AllocArray(static_cast<size_t>(rows * d) * DTypeSize(spec.dtype));
      std::memset(out_, 0, static_cast<size_t>(rows * d) * DTypeSize(spec.dtype));
    }
    out_view_ = TensorView::Dense(out_, spec.dtype, {rows, d});
    DrawIndices(indices, rows);
  }
  if (info.kind == Kind::kPointLoss && info.is_forward) {
    // A loss's out for its reduction (the list's default, the mean, unless the spec sets it):
    // the terms' shape (none), 0-d (one total) or without dim 0 (MseLossOut).
    const double reduction = spec.scalars.empty() ? info.scalars[0].default_value : spec.scalars[0];
    if (reduction != 0.0 && spec.op != Op::kMseLossOut) {
      out_view_ = TensorView::Dense(out_, spec.dtype, {});
    } else if (reduction != 0.0 && !spec.shape.empty()) {
      out_view_ = TensorView::Dense(out_, spec.dtype,
                                    std::vector<int64_t>(spec.shape.begin() + 1, spec.shape.end()));
    }
  }
  if (info.kind == Kind::kClassLoss && (spec.shape.size() == 2 || spec.shape.size() == 4)) {
    // NLLLoss: self in x_, an INT64 target per position drawn uniformly from the classes
    // (dy_view_), weight [C] (w_view_), out one element (the default mean) or self's shape (a
    // gradient); totalWeightOut, a gradient's gradOutput (1) and totalWeight (as the forward
    // finds it), one element each.
    const bool two_d = spec.shape.size() == 4;
    const int64_t c = spec.shape[1];
    const int64_t positions = n / c;
    DrawIndices(positions, c);
    if (two_d) {
      dy_view_ = TensorView::Dense(index_.data(), DType::kInt64,
                                   {spec.shape[0], spec.shape[2], spec.shape[3]});
    }
    class_aux_.assign(static_cast<size_t>(c + 3), 0.0f);
    Fill(class_aux_.data(), spec.dtype, c, 0.5f, 1.5f, 4);
    float* one = class_aux_.data() + c;
    Fill(one, spec.dtype, 1, 1.0f, 1.0f, 5);                              // gradOutput
    Fill(one + 1, spec.dtype, 1, 0.5f * positions, 0.5f * positions, 6);  // totalWeight
    w_view_ = TensorView::Dense(class_aux_.data(), spec.dtype, {c});
    act_view_ = TensorView::Dense(one, spec.dtype, {1});
    gw_view_ = TensorView::Dense(info.is_forward ? one + 2 : one + 1, spec.dtype, {1});
    const double reduction = spec.scalars.empty() ? info.scalars[0].default_value : spec.scalars[0];
    if (info.is_forward && reduction != 0.0) {
      out_view_ = TensorView::Dense(out_, spec.dtype, {1});
    } else if (info.is_forward) {
      out_view_ = TensorView::Dense(out_, spec.dtype, dy_view_.shape);
    }
  }
  if (info.shapes == ShapeRule::kLabelRows && spec.shape.size() == 2) {
    // SoftmaxCrossEntropyWithLogits: features in x_, labels in dy_ (values in [-1, 1]),
    // backprop in out_, the loss [N] in class_aux_.
    class_aux_.assign(static_cast<size_t>(spec.shape[0]), 0.0f);
    gw_view_ = TensorView::Dense(class_aux_.data(), spec.dtype, {spec.shape[0]});
  } else if (info.kind == Kind::kSoftmaxLoss && spec.shape.size() == 2) {
    // CrossEntropyLoss: input (a gradient's logProb) in x_, an INT64 target per row drawn
    // uniformly from the classes (dy_view_), no weight; logProbOut (a gradient's out) in out_;
    // the loss (the default mean's one element, or [N]), zlossOut and lseForZlossOut [N], and
    // a gradient's gradLoss (1), in class_aux_.
    const int64_t rows = spec.shape[0], c = spec.shape[1];
    // A gradient's logProb as a log-softmax writes it: at most 0 (its exp's fast path).
    if (!info.is_forward) Fill(x_, spec.dtype, n, -8.0f, 0.0f, 2);
    DrawIndices(rows, c);
    class_aux_.assign(static_cast<size_t>(2 * rows + 2), 0.0f);
    float* one = class_aux_.data();
    Fill(one, spec.dtype, 1, 1.0f, 1.0f, 5);  // gradLoss
    const double reduction = spec.scalars.empty() ? info.scalars[0].default_value : spec.scalars[0];
    act_view_ = TensorView::Dense(one, spec.dtype, {1});
    gw_view_ = TensorView::Dense(
        one + 2, spec.dtype,
        reduction != 0.0 ? std::vector<int64_t>{1} : std::vector<int64_t>{rows});  // lossOut
    w_view_ = TensorView::Dense(one + 1, spec.dtype, {1});                         // zlossOut
    stats_view_[0] = TensorView::Dense(one + 2 + rows, spec.dtype, {rows});        // lseForZlossOut
  }
  if (info.kind != Kind::kClassLoss && info.kind != Kind::kSoftmaxLoss) {
    w_view_ = TensorView::Dense(x_, spec.dtype, {1});
    gw_view_ = TensorView::Dense(grad_weight_, spec.dtype, {1});
  }
  const bool groups = info.shapes == ShapeRule::kChannelGroups && spec.shape.size() == 3;
  if ((info.shapes == ShapeRule::kTrailingDims && spec.shape.size() == 2) || groups) {
    // A norm's per-column operand (gamma; GroupNorm's per channel), its per-row values (rstd:
    // 1.0 for a gradient to read) and a gradient's column sums (dgamma), FLOAT; GroupNorm's
    // two statistics in self's dtype, [N, group].
    const int64_t group = groups ? static_cast<int64_t>(spec.ScalarValue(3)) : 1;
    const int64_t rows = groups ? spec.shape[0] * group : spec.shape[0];
    const int64_t cols = groups ? spec.Elements() / rows : spec.shape[1];
    const int64_t col_len = groups ? spec.shape[1] : cols;
    // (GroupNorm's column sums are per channel: C of them, more than a row's length where
    // HxW is under the group count; two column sums' slots.)
    norm_aux_.assign(static_cast<size_t>(rows + 2 * std::max(cols, col_len)), 1.0f);
    // gamma apart from x, which an in-place norm writes (InplaceAddRmsNorm).
    norm_gamma_.assign(static_cast<size_t>(col_len), 0.0f);
    Fill(norm_gamma_.data(), spec.dtype, col_len, 0.5f, 1.5f, 4);
    w_view_ = TensorView::Dense(norm_gamma_.data(), spec.dtype, {col_len});
    // Two statistics outputs apart, 1.0 for a gradient to read (the forward writes them):
    // GroupNorm's in self's dtype, [N, group]; AddLayerNorm's required meanOut and rstdOut,
    // FLOAT [rows, 1].
    int per_row_outs = 0;
    for (int k = 1; k < info.num_out(); ++k) {
      per_row_outs += test::IsRequired(info.out_names[k]) &&
                      test::NormRoleOf(info.out_names[k]) == test::NormRole::kPerRow;
    }
    if (groups || per_row_outs > 1) {
      norm_stats_.assign(static_cast<size_t>(2 * rows), 0.0f);
      Fill(norm_stats_.data(), spec.dtype, 2 * rows, 1.0f, 1.0f, 5);
      for (int k = 0; k < 2; ++k) {
        stats_view_[k] =
            groups ? TensorView::Dense(norm_stats_.data() + k * rows, spec.dtype,
                                       {spec.shape[0], group})
                   : TensorView::Dense(norm_stats_.data() + k * rows, DType::kFloat32, {rows, 1});
      }
    }
    gw_view_ = TensorView::Dense(norm_aux_.data(), DType::kFloat32, {rows, 1});
    // A gradient's column sums: FLOAT, or GroupNormBackward's per channel in self's dtype.
    for (int k = 0; k < 2; ++k) {
      sums_view_[k] = TensorView::Dense(norm_aux_.data() + rows + k * col_len,
                                        groups ? spec.dtype : DType::kFloat32, {col_len});
    }
    if (test::RowResults(info) > 1) {  // a second result of x's shape (AddRmsNorm's xOut)
      act_ = AllocArray(bytes_per_array_);
      std::memset(act_, 0, bytes_per_array_);
      act_view_ = TensorView::Dense(act_, spec.dtype, spec.shape);
    }
  }
  if (info.shapes == ShapeRule::kChannelStats && spec.shape.size() >= 2) {
    // BatchNorm's per-channel tensors: weight and bias drawn, running and saved means 0 and
    // variances 1 (a gradient reads the saved ones), the gradient's sums written.
    const int64_t c = spec.shape[1];
    channel_data_.assign(static_cast<size_t>(kChannelTensors * c), 0.0f);  // room for any dtype
    for (int k = 0; k < kChannelTensors; ++k) {
      float* at = channel_data_.data() + k * c;
      if (k <= 1) Fill(at, spec.dtype, c, 0.5f, 1.5f, 5 + k);
      if (k == 3 || k == 5) Fill(at, spec.dtype, c, 1.0f, 1.0f, 7);
      channel_views_[k] = TensorView::Dense(at, spec.dtype, {c});
    }
  }
  // The C API's operands are the C++ API's, made once (tests/util/capi_call.h).
  capi_ = std::make_unique<test::CApiCallOf>(Args());
}

CaseData::~CaseData() {
  capi_.reset();  // before the buffers its tensors point into
  std::free(dy_);
  std::free(x_);
  std::free(out_);
  std::free(act_);
}

const TensorView* CaseData::RoleView(test::Role role) const {
  using test::Role;
  const OpInfo& info = GetOpInfo(spec_.op);
  const bool class_loss = info.kind == Kind::kClassLoss || info.kind == Kind::kSoftmaxLoss;
  const TensorView* v = nullptr;
  switch (role) {
    case Role::kNone:
    case Role::kNumRoles:
      return nullptr;
    case Role::kSelf:
    case Role::kBuffer:  // LogSigmoidBackward's, never read: self's array
      v = &x_view_;
      break;
    case Role::kGrad:  // a class loss's gradOutput is one element (the default mean's)
      v = class_loss ? &act_view_ : &dy_view_;
      break;
    case Role::kSecond:
    case Role::kIndex:
      v = &dy_view_;
      break;
    case Role::kTarget:  // a loss gradient's target reads self's array: one array fewer
      v = info.is_forward ? &dy_view_ : &x_view_;
      break;
    case Role::kOneElement:
    case Role::kPerColumn:
      v = &w_view_;
      break;
    case Role::kTotalWeight:
      v = &gw_view_;
      break;
    case Role::kPerRow:
      v = stats_view_[0].data != nullptr ? &stats_view_[0] : &gw_view_;
      break;
    case Role::kPerRow2:
      v = &stats_view_[1];
      break;
    case Role::kColumnSum:  // PreluBackward's gradWeight, one element
      v = info.kind == Kind::kMapColumnSums ? &gw_view_ : &sums_view_[0];
      break;
    case Role::kColumnSum2:
      v = &sums_view_[1];
      break;
    case Role::kAux:
      v = act_ != nullptr ? &act_view_ : nullptr;
      break;
    case Role::kResult:
      v = &out_view_;
      break;
    case Role::kLoss:  // CrossEntropyLoss's lossOut beside its logProbOut
      v = info.kind == Kind::kSoftmaxLoss ? &gw_view_ : &out_view_;
      break;
    default:  // BatchNorm's per-channel tensors, in kChannelTensors' order
      v = &channel_views_[static_cast<int>(role) - static_cast<int>(Role::kWeight)];
      break;
  }
  return v != nullptr && v->data != nullptr ? v : nullptr;
}

OpArgs CaseData::Args() const {
  OpArgs a;
  const OpInfo& info = GetOpInfo(spec_.op);
  // Every operand by its role (tests/util/operand_roles.h), none of the optional ones.
  test::FillOperands(
      spec_.op, [this](test::Role r) { return RoleView(r); }, &a);
  a.dim = spec_.dim;
  if (HasIntArray(info.signature)) {  // LayerNorm's normalizedShape: the last dim
    a.int_array = {spec_.shape.empty() ? 1 : spec_.shape.back()};
    a.int_array_given = true;
  }
  test::AskForOutputs(&a);
  for (size_t k = 0; k < spec_.scalars.size() && k < kMaxScalars; ++k) {
    a.scalars[k].given = true;
    a.scalars[k].value = spec_.scalars[k];
    a.scalars[k].dtype =
        GetOpInfo(spec_.op).scalars[k].kind == ScalarKind::kFlag ? DType::kBool : DType::kFloat64;
  }
  // EmbeddingDenseBackward's numWeights is out's rows, whatever the spec's scalars say.
  if (info.kind == Kind::kScatterAdd) {
    a.scalars[0] = OpScalar{true, static_cast<double>(out_view_.shape[0]), DType::kInt64};
    a.scalars[0].int_value = out_view_.shape[0];
  }
  return a;
}

double CaseData::Bytes() const {
  const OpInfo& info = GetOpInfo(spec_.op);
  if (info.is_split) {  // in halves of self: self 2, out 1 (a gradient's 2), dy 1, gelu 1
    const bool gelu = HasGeluOperand(info);
    const double halves = 2.0 + (info.is_forward ? 1.0 : 3.0) + (gelu ? 1.0 : 0.0);
    return halves * static_cast<double>(bytes_per_array_) / 2.0;
  }
  // EmbeddingDenseBackward reads grad and the indices, and writes out.
  if (info.kind == Kind::kScatterAdd) {
    return static_cast<double>(bytes_per_array_) +
           static_cast<double>(out_view_.shape[0] * out_view_.shape[1]) *
               static_cast<double>(DTypeSize(spec_.dtype)) +
           static_cast<double>(index_.size() * sizeof(int64_t));
  }
  // Embedding reads a weight row per out row and the indices, and writes out.
  if (info.kind == Kind::kGather) {
    return 2.0 * static_cast<double>(bytes_per_array_) +
           static_cast<double>(index_.size() * sizeof(int64_t));
  }
  // A class loss reads a target and self's element per position (a line of self each, at
  // rows of 16 classes or more) and the weight; its gradient writes every element of out.
  if (info.kind == Kind::kClassLoss) {
    const double es = static_cast<double>(DTypeSize(spec_.dtype));
    const double positions = static_cast<double>(index_.size());
    const double classes = static_cast<double>(w_view_.shape[0]);
    const double reads = positions * (8.0 + std::min(64.0, classes * es)) + classes * es;
    return info.is_forward
               ? reads +
                     (out_view_.shape.size() == 1 && out_view_.shape[0] == 1 ? 0.0 : positions * es)
               : reads + static_cast<double>(bytes_per_array_);
  }
  // SoftmaxCrossEntropyWithLogits reads features and labels and writes backprop, and a loss
  // per row.
  if (info.shapes == ShapeRule::kLabelRows) {
    return 3.0 * static_cast<double>(bytes_per_array_) +
           static_cast<double>(spec_.shape[0]) * static_cast<double>(DTypeSize(spec_.dtype));
  }
  // CrossEntropyLoss reads its input and writes logProb (a gradient: reads logProb, writes
  // out), and reads a target per row.
  if (info.kind == Kind::kSoftmaxLoss) {
    return 2.0 * static_cast<double>(bytes_per_array_) +
           static_cast<double>(index_.size() * sizeof(int64_t));
  }
  // A norm reads and writes its rows (AddRmsNorm, AddLayerNorm: x1 and x2 read, y and xOut
  // written).
  if (IsNormShape(info.shapes)) {
    return static_cast<double>(test::RowResults(info) + test::RowInputs(info)) *
           static_cast<double>(bytes_per_array_);
  }
  // A loss reads self and target and writes its terms, or a total (a gradient: three read,
  // one written; the optional weights are not given).
  if (info.kind == Kind::kPointLoss) {
    const double written = out_view_.shape == spec_.shape ? 1.0 : 0.0;
    return (info.is_forward ? 2.0 + written : 4.0) * static_cast<double>(bytes_per_array_);
  }
  // A gradient reads two arrays and writes one; a forward operator reads one and writes one.
  return (info.is_forward ? 2.0 : 3.0) * static_cast<double>(bytes_per_array_);
}

double CaseData::Passes() const {
  return bytes_per_array_ > 0 ? Bytes() / static_cast<double>(bytes_per_array_) : 0;
}

PreparedCall::~PreparedCall() { Reset(); }

void PreparedCall::Reset() {
  executor_.reset();
  std::free(workspace_);
  workspace_ = nullptr;
  workspace_bytes_ = 0;
}

Status PreparedCall::Prepare(const OpArgs& args, const tiling::Options& options) {
  Reset();
  Status s = hostnn::Prepare(args, options, &workspace_bytes_, &executor_);
  if (!s.ok()) {
    Reset();
    return s;
  }
  if (workspace_bytes_ > 0) workspace_ = AllocArray(static_cast<size_t>(workspace_bytes_));
  return Status::Ok();
}

void PreparedCall::Run() const { (void)hostnn::Execute(*executor_, workspace_, workspace_bytes_); }

std::string PreparedCall::KernelPath() const { return hostnn::KernelPath(*executor_); }

Status CaseData::Prepare(const tiling::Options& options) {
  return prepared_.Prepare(Args(), options);
}

void CaseData::Run() const { prepared_.Run(); }

int CaseData::RunCApiPrepare() {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = capi_->Phase1(&ws, &exec);
  if (s != ACLNN_SUCCESS) return s;
  return aclDestroyAclOpExecutor(exec);
}

std::string CaseData::KernelPath() const { return prepared_.KernelPath(); }

int CaseData::RunCApiCall() {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = capi_->Phase1(&ws, &exec);
  if (s != ACLNN_SUCCESS) return s;
  // A workspace, when one is needed, comes from the caller as in CANN: the one kept from
  // Prepare, so that the call itself is what is timed.
  if (ws > prepared_.workspace_bytes()) {
    aclDestroyAclOpExecutor(exec);
    return ACLNN_ERR_INNER;
  }
  void* workspace = ws > 0 ? prepared_.workspace() : nullptr;
  return test::GetCApiOp(spec_.op).phase2(workspace, ws, exec, nullptr);
}

void CaseData::Roofline(int64_t threads) const {
  // A forward operator's roofline reads one array (x, twice from the same lines) and
  // writes one: a copy.
  // A gated unit's forward reads self's two halves and writes the half-shaped out (an add of
  // half arrays); its gradient is timed against an add of self-sized arrays.
  if (GetOpInfo(spec_.op).is_split && GetOpInfo(spec_.op).is_forward) {
    const size_t half = bytes_per_array_ / 2;
    RooflineAdd(x_, static_cast<char*>(x_) + half, out_, half, threads);
    return;
  }
  // A norm's: as many arrays as its call must move, each once.
  if (IsNormShape(GetOpInfo(spec_.op).shapes)) {
    const int passes = static_cast<int>(Passes() + 0.5);
    if (passes == 3) {
      RooflineAdd(dy_, x_, out_, bytes_per_array_, threads);
    } else {
      RooflineAdd(x_, x_, out_, bytes_per_array_, threads);
      if (passes == 4 && act_ != nullptr) RooflineAdd(dy_, dy_, act_, bytes_per_array_, threads);
    }
    return;
  }
  RooflineAdd(GetOpInfo(spec_.op).is_forward ? x_ : dy_, x_, out_, bytes_per_array_, threads);
}

}  // namespace bench
}  // namespace hostnn
