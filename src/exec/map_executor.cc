// The Map executor: every elementwise operator, N inputs and M outputs over one shape.
// Dense operands of one dtype go straight to the kernel tile by tile ("direct"); operands
// of one dtype that walk the fused layout's last dim with stride 1, but for inputs
// constant along it (a per-row broadcast: Prelu's channel weight, a broadcast gradient),
// run the kernel on each row's run in place ("by rows"): the gated units' halves of a
// contiguous self are such rows, [outer, 2, inner] in memory; a constant input is filled
// into a run of the core's scratch once per row. Anything else (strides, mixed dtypes) is
// gathered into the core's f32 scratch in the workspace, computed, and scattered to the
// outputs. Integer inputs that promote to an integer (rule PromoteIntExact: AddRelu) are
// widened to int64 tiles, computed exactly and cast to out's dtype; inputs that promote to
// DOUBLE, of an operator CANN computes in double (ComputesDouble), are widened to f64
// tiles, computed in f64 lanes and rounded once to out's dtype; inputs that promote to a
// complex dtype (TakesComplexInputs) to complex<double> tiles, cast to out's dtype after
// (a real out takes the real part). Each element's result
// depends on its inputs only, so the bits do not depend on the path, the tiling or the
// thread count. The tiles are the plan's (tiling::ElementwisePlan): this file walks them,
// it never cuts its own.

#include "src/exec/map_executor.h"

#include <algorithm>
#include <cstring>

#include "kernels/kernels.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/kernel_path.h"
#include "src/exec/launcher.h"
#include "src/exec/result_cast.h"

namespace hostnn {
namespace exec {
namespace {

// The shortest row the rows path takes when an input must be filled into a run: below it
// a kernel call per row costs more than the gather it saves. Rows every operand walks in
// place take the path at any length.
constexpr int64_t kMinRowRun = 64;

// The dtype the inputs (the layout's first num_in operands) promote to (PromoteType).
DType PromotedInputs(const core::FusedLayout& layout, int num_in) {
  DType p = layout.operands[0].dtype;
  for (int k = 1; k < num_in; ++k) p = PromoteType(p, layout.operands[k].dtype);
  return p;
}

class MapExecutor final : public Executor {
 public:
  // The layout's operands: the inputs, then the outputs.
  MapExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const core::FusedLayout& layout,
              int num_in)
      : Executor(op, std::move(plan)), layout_(layout), num_in_(num_in) {}

  // scratch_elems: the longest tile any core runs; scratch_per_core: bytes for one f32
  // tile per operand, aligned.
  // exact_int: integer operands computed in their own type (dtype rule AllSameOrExactInt):
  // gathered as they are into scratch of that type, never converted to f32.
  // result_dtype: the dtype the operator's result is in before CANN's Cast to out's, when
  // they differ (the kernel's f32 result is first narrowed to it).
  // rows: the per-row path (direct must be false); scratch_per_core then holds one run of
  // scratch_elems elements per input constant along a row.
  // promoted_int: the inputs' integer promotion, computed in it (RunPromotedInt);
  // kUndefined otherwise.
  void Init(bool direct, bool rows, bool exact_int, DType result_dtype, int64_t scratch_elems,
            uint64_t scratch_per_core, const Operands& operands, DType promoted_int) {
    const tiling::Plan& plan = *plan_;
    // The operator's parameters, by name, once (kernels/params.h).
    params_ =
        kernels::InitParams(op_, kernels::ParamValues(op_, operands.scalars, operands.int_scalars));
    if (promoted_int != DType::kUndefined) {
      InitPromotedInt(promoted_int, scratch_elems, scratch_per_core);
      return;
    }
    rows_ = rows;
    direct = direct || rows;  // the same kernel, on the operands' own dtype
    direct_ = direct;
    exact_int_ = exact_int;
    const DType out_dtype = layout_.operands[num_in_].dtype;
    if (result_dtype != out_dtype) {
      const DTypeRule rule = GetOpInfo(op_).dtypes;
      result_cast_ =
          ResultCast(result_dtype, out_dtype,
                     RoundsIntResults(rule) ? FloatToInt::kNearestEven : FloatToInt::kTruncate);
      // An f32 result is cast as it is; a narrower one is rounded to its dtype first.
      if (result_dtype != DType::kFloat32) to_result_ = kernels::GetFromF32(result_dtype);
    }
    target_ = kernels::ChosenTargetName();
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    workspace_bytes_ = direct && !rows ? 0 : scratch_per_core * plan.elementwise.block_dim;
    const DType self_dtype = layout_.operands[0].dtype;
    const DType dtype = direct      ? self_dtype
                        : exact_int ? ComputedSelfDType(GetOpInfo(op_).dtypes, self_dtype)
                                    : DType::kFloat32;
    widen_int16_ = exact_int && dtype != self_dtype;  // an INT16 self computed in INT32
    if (exact_int) elem_bytes_ = DTypeSize(dtype);
    if (direct) {
      elem_bytes_ = DTypeSize(dtype);
      // An output too big to stay in the caches is written with non-temporal stores, by an
      // operator that has a streaming form (kernels::GetMap).
      stream_ =
          !rows && kernels::ChooseStoreMode(layout_.numel * elem_bytes_, plan.stream_min_bytes) ==
                       kernels::StoreMode::kStream;
      if (stream_) fn_ = kernels::GetMap(op_, dtype, params_, kernels::StoreMode::kStream);
      stream_ = fn_ != nullptr;
    } else if (!exact_int) {
      // An integer input is cast to the inputs' promoted dtype (or FLOAT) first.
      const DTypeRule rule = GetOpInfo(op_).dtypes;
      const DType via = PromotesInputs(rule) ? PromotedInputs(layout_, num_in_) : DType::kFloat32;
      for (int k = 0; k < layout_.num_operands; ++k) {
        const DType d = layout_.operands[k].dtype;
        const bool cast =
            k < num_in_ &&
            (((CastsIntInputs(rule) || RoundsIntResults(rule)) && IsPromotableIntType(d)) ||
             (CastsDoubleToFloat(op_) && d == DType::kFloat64));
        codecs_[k] = MakeCodec(d, cast ? via : DType::kUndefined);
      }
    }
    if (fn_ == nullptr) fn_ = kernels::GetMap(op_, dtype, params_);
  }

  // The integer path: the promoted dtype's width, the exact parameters, out's cast.
  void InitPromotedInt(DType promoted, int64_t scratch_elems, uint64_t scratch_per_core) {
    target_ = kernels::ChosenTargetName();
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    workspace_bytes_ = scratch_per_core * plan_->elementwise.block_dim;
    const int bits = static_cast<int>(DTypeSize(promoted)) * 8;
    int_wrap_.mask = bits == 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
    int_wrap_.offset = promoted == DType::kUInt8 ? 0 : uint64_t{1} << (bits - 1);
    promoted_fn_ = kernels::GetPromotedInt(op_);
    result_cast_ =
        ResultCast(DType::kInt64, layout_.operands[num_in_].dtype, FloatToInt::kTruncate);
  }

  // The double path (ComputesDouble with inputs promoting to DOUBLE): the f64 kernel on
  // the operands themselves when all are dense DOUBLE, else on f64 tiles in scratch.
  void InitF64(bool direct, int64_t scratch_elems, uint64_t scratch_per_core,
               const Operands& operands) {
    params_ =
        kernels::InitParams(op_, kernels::ParamValues(op_, operands.scalars, operands.int_scalars));
    target_ = kernels::ChosenTargetName();
    f64_ = true;
    direct_ = direct;
    elem_bytes_ = sizeof(double);
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    workspace_bytes_ = direct ? 0 : scratch_per_core * plan_->elementwise.block_dim;
    fn_ = kernels::GetF64Map(op_);
    // A narrower out: the result rounded once to it (a COMPLEX64's real part to FLOAT),
    // held in f32, then stored; COMPLEX128 takes the double as its real part.
    const DType out_dtype = layout_.operands[num_in_].dtype;
    if (out_dtype != DType::kFloat64 && out_dtype != DType::kComplex128) {
      const DType via = out_dtype == DType::kComplex64 ? DType::kFloat32 : out_dtype;
      from_f64_ = kernels::GetToF32Via(DType::kFloat64, via);
      to_result_ = kernels::GetFromF32(out_dtype);
    }
  }

  // The complex path (TakesComplexInputs with inputs promoting to a complex dtype): always
  // gathered, to complex<double> tiles in scratch (scratch_per_core holds one per input and
  // one for the result, and one of raw bytes).
  void InitComplex(int64_t scratch_elems, uint64_t scratch_per_core) {
    target_ = kernels::ChosenTargetName();
    complex_ = true;
    elem_bytes_ = 2 * sizeof(double);
    scratch_elems_ = scratch_elems;
    scratch_per_core_ = scratch_per_core;
    workspace_bytes_ = scratch_per_core * plan_->elementwise.block_dim;
    fn_ = kernels::GetComplexMap(op_);
    // A real out narrower than DOUBLE: the real part rounded once to it, held in f32.
    const DType out_dtype = layout_.operands[num_in_].dtype;
    if (!IsComplexType(out_dtype) && out_dtype != DType::kFloat64) {
      from_f64_ = kernels::GetToF32Via(DType::kFloat64, out_dtype);
      to_result_ = kernels::GetFromF32(out_dtype);
    }
  }

  int num_out() const { return layout_.num_operands - num_in_; }

  // The row counts' elements (an INT64 view: first element, count, stride in elements),
  // read by every run; row_elems elements a row.
  // zero_rest: the elements past them are set to +0 in every output.
  void SetRowCounts(const char* first, int64_t count, int64_t stride, int64_t row_elems,
                    bool zero_rest) {
    has_counts_ = true;
    zero_rest_ = zero_rest;
    counts_ = first;
    counts_n_ = count;
    counts_stride_ = stride;
    row_elems_ = row_elems;
  }

  std::string KernelPath() const override {
    DType dtypes[core::kMaxOperands];
    for (int k = 0; k < layout_.num_operands; ++k) dtypes[k] = layout_.operands[k].dtype;
    return DescribeKernelPath(target_, direct_, layout_.dense, dtypes, layout_.num_operands, stream_) +
           (rows_ ? ", by rows" : "") + (promoted_fn_ != nullptr ? ", in int64 lanes" : "") +
           (f64_ ? ", in f64 lanes" : "") + (complex_ ? ", in complex<double>" : "");
  }

  void Run(char* workspace) const override {
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &MapExecutor::RunCore, workspace);
  }

 private:
  // One tile of n elements at the operand pointers (dense, or scratch): the inputs in[],
  // the outputs out[].
  void Compute(const void* const* in, void* const* out, int64_t n) const {
    fn_(in, out, static_cast<size_t>(n), params_);
  }

  // n INT16 values at the start of tile widened to INT32 over the whole tile, from the last
  // one down: element i's four bytes cover only INT16 elements at i and above, read already.
  static void WidenInt16InPlace(char* tile, int64_t n) {
    for (int64_t i = n - 1; i >= 0; --i) {
      int16_t v;
      std::memcpy(&v, tile + i * 2, sizeof(v));
      const int32_t w = v;
      std::memcpy(tile + i * 4, &w, sizeof(w));
    }
  }

  // n copies of the es-byte element at `value` (a compute dtype: 2 or 4 bytes) into run.
  static void FillRun(const char* value, int64_t es, int64_t n, char* run) {
    if (es == 4) {
      uint32_t v;
      std::memcpy(&v, value, 4);
      std::fill_n(reinterpret_cast<uint32_t*>(run), n, v);
    } else {
      uint16_t v;
      std::memcpy(&v, value, 2);
      std::fill_n(reinterpret_cast<uint16_t*>(run), n, v);
    }
  }

  // The elements this run computes, from the start in out[0]'s order: all, or the rows the
  // row counts sum to (saturated; a negative sum computes none), read now.
  int64_t ElemLimit() const {
    if (!has_counts_) return layout_.numel;
    int64_t sum = 0;
    for (int64_t i = 0; i < counts_n_; ++i) {
      int64_t c;
      std::memcpy(&c, counts_ + i * counts_stride_ * 8, sizeof(c));
      if (__builtin_add_overflow(sum, c, &sum)) sum = c < 0 ? INT64_MIN : INT64_MAX;
    }
    const int64_t rows = layout_.numel / row_elems_;
    return std::min(std::max<int64_t>(sum, 0), rows) * row_elems_;
  }
  // A tile [s, s + len) cut at limit; false when nothing of it is left.
  static bool Clip(int64_t limit, int64_t s, int64_t* len) {
    *len = std::min(*len, limit - s);
    return *len > 0;
  }

  // Row counts with zero_rest: this core's tiles past limit, +0 in every output (all-zero
  // bytes in each dtype), written through the outputs' own strides.
  void ZeroPastLimit(int64_t core, int64_t limit) const {
    static const char kZeros[4096] = {};
    const tiling::ElementwisePlan& p = plan_->elementwise;
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t end = p.TileBegin(core, t) + p.TileLen(core, t);
      for (int k = num_in_; k < layout_.num_operands; ++k) {
        const core::FusedOperand& op = layout_.operands[k];
        const size_t es = DTypeSize(op.dtype);
        const int64_t chunk = static_cast<int64_t>(sizeof(kZeros) / es);
        for (int64_t s = std::max(p.TileBegin(core, t), limit); s < end; s += chunk) {
          ScatterRaw(layout_, op, es, s, std::min(chunk, end - s), kZeros);
        }
      }
    }
  }

  // The rows path: each tile cut at row ends; an input constant along the row (stride 0)
  // is copied into a run of this core's scratch when the element it repeats changes (once
  // per row for Prelu's channel weight, once per core for FatreluMul's threshold).
  void RunRows(int64_t core, char* workspace, int64_t limit) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int rank = layout_.rank;
    const int64_t row_len = layout_.shape[rank - 1];
    const int64_t es = static_cast<int64_t>(elem_bytes_);
    char* runs = workspace + core * scratch_per_core_;
    const char* filled_from[kMaxMapInputs] = {};
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t end = std::min(p.TileBegin(core, t) + p.TileLen(core, t), limit);
      for (int64_t i = p.TileBegin(core, t); i < end;) {
        const int64_t row = i / row_len, col = i % row_len;
        const int64_t n = std::min(row_len - col, end - i);
        const void* in[kMaxMapInputs] = {};
        void* out[kMaxMapOutputs] = {};
        for (int k = 0; k < num_in_; ++k) {
          const core::FusedOperand& op = layout_.operands[k];
          const char* at = op.first + core::RowOffset(layout_, k, row) * es;
          if (op.strides[rank - 1] != 0) {
            in[k] = at + col * es;
            continue;
          }
          char* run = runs + k * scratch_elems_ * es;
          if (filled_from[k] != at) {
            FillRun(at, es, std::min(row_len, scratch_elems_), run);
            filled_from[k] = at;
          }
          in[k] = run;
        }
        for (int k = num_in_; k < layout_.num_operands; ++k) {
          out[k - num_in_] =
              layout_.operands[k].first + (core::RowOffset(layout_, k, row) + col) * es;
        }
        Compute(in, out, n);
        i += n;
      }
    }
  }

  // Integer inputs promoting to an integer: each input tile gathered in its dtype and
  // widened to int64, computed (wrapped to the promoted width), and cast to out's dtype as
  // CANN's Cast (an integer's low bits, or rounded once to a float).
  void RunPromotedInt(int64_t core, char* workspace, int64_t limit) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const core::FusedOperand& out_op = layout_.operands[num_in_];
    int64_t* tiles = reinterpret_cast<int64_t*>(workspace + core * scratch_per_core_);
    int64_t* result = tiles + num_in_ * scratch_elems_;
    char* raw = reinterpret_cast<char*>(result + scratch_elems_);
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t);
      int64_t len = p.TileLen(core, t);
      if (!Clip(limit, s, &len)) break;
      for (int k = 0; k < num_in_; ++k) {
        const core::FusedOperand& in = layout_.operands[k];
        GatherRaw(layout_, in, DTypeSize(in.dtype), s, len, raw);
        IntToInt64(in.dtype, raw, tiles + k * scratch_elems_, static_cast<size_t>(len));
      }
      const int64_t* b = tiles + (num_in_ > 1 ? scratch_elems_ : 0);
      promoted_fn_(tiles, b, result, static_cast<size_t>(len), params_, int_wrap_);
      result_cast_.Run(result, raw, static_cast<size_t>(len));  // an INT64 out: a copy
      ScatterRaw(layout_, out_op, DTypeSize(out_op.dtype), s, len, raw);
    }
  }

  // n elements of operand `op` from element s into tile as doubles (exactly), through raw
  // for a dtype other than DOUBLE.
  void GatherToF64(const core::FusedOperand& op, int64_t s, int64_t len, double* tile,
                   char* raw) const {
    if (op.dtype == DType::kFloat64) {
      GatherRaw(layout_, op, sizeof(double), s, len, tile);
      return;
    }
    GatherRaw(layout_, op, DTypeSize(op.dtype), s, len, raw);
    kernels::GetToF64(op.dtype)(raw, tile, static_cast<size_t>(len));
  }
  // len real doubles to `op`, a DOUBLE out as they are, a narrower one rounded once to its
  // dtype (held exactly in f32 in raw, then written over values).
  void ScatterRealF64(const core::FusedOperand& op, int64_t s, int64_t len, double* values,
                      char* raw) const {
    if (op.dtype == DType::kFloat64) {
      ScatterRaw(layout_, op, sizeof(double), s, len, values);
      return;
    }
    const size_t n = static_cast<size_t>(len);
    float* rounded = reinterpret_cast<float*>(raw);
    from_f64_(values, rounded, n);
    to_result_(rounded, values, n);
    ScatterRaw(layout_, op, DTypeSize(op.dtype), s, len, values);
  }

  // The double path, gathered: each input tile gathered in its dtype and widened to
  // double (exactly), computed, and stored to out: as it is for a DOUBLE out, else rounded
  // once to out's dtype (CANN's Cast of the double result).
  // A gated gradient's two outputs (GluBackward's da and db) are both DOUBLE, as its
  // inputs.
  void RunF64(int64_t core, char* workspace, int64_t limit) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const core::FusedOperand& out_op = layout_.operands[num_in_];
    const int outs = num_out();
    double* tiles = reinterpret_cast<double*>(workspace + core * scratch_per_core_);
    double* result = tiles + num_in_ * scratch_elems_;
    char* raw = reinterpret_cast<char*>(result + outs * scratch_elems_);
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t);
      int64_t len = p.TileLen(core, t);
      if (!Clip(limit, s, &len)) break;
      const size_t n = static_cast<size_t>(len);
      const void* in[kMaxMapInputs] = {};
      for (int k = 0; k < num_in_; ++k) {
        double* tile = tiles + k * scratch_elems_;
        GatherToF64(layout_.operands[k], s, len, tile, raw);
        in[k] = tile;
      }
      void* out[kMaxMapOutputs] = {};
      for (int j = 0; j < outs; ++j) out[j] = result + j * scratch_elems_;
      Compute(in, out, len);
      if (out_op.dtype == DType::kComplex128) {  // (result, +0)
        double* pairs = reinterpret_cast<double*>(raw);
        for (size_t i = 0; i < n; ++i) pairs[2 * i] = result[i], pairs[2 * i + 1] = 0.0;
        ScatterRaw(layout_, out_op, 2 * sizeof(double), s, len, pairs);
        continue;
      }
      // (A narrower out is the only output: two outputs are both DOUBLE.)
      for (int j = 0; j < outs; ++j) {
        ScatterRealF64(layout_.operands[num_in_ + j], s, len, static_cast<double*>(out[j]), raw);
      }
    }
  }

  // The complex path: each input tile gathered in its dtype and widened to complex<double>
  // (exactly; a real input with an imaginary part of +0), computed, and stored to out: as
  // it is for COMPLEX128, each part rounded once for COMPLEX64, the real part for a real
  // out (CANN's Cast of a complex to a real dtype), rounded once to it.
  void RunComplex(int64_t core, char* workspace, int64_t limit) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const core::FusedOperand& out_op = layout_.operands[num_in_];
    double* tiles = reinterpret_cast<double*>(workspace + core * scratch_per_core_);
    const int64_t pair_elems = 2 * scratch_elems_;  // doubles of one complex tile
    double* result = tiles + num_in_ * pair_elems;
    char* raw = reinterpret_cast<char*>(result + pair_elems);
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t);
      int64_t len = p.TileLen(core, t);
      if (!Clip(limit, s, &len)) break;
      const size_t n = static_cast<size_t>(len);
      const void* in[kMaxMapInputs] = {};
      for (int k = 0; k < num_in_; ++k) {
        const core::FusedOperand& op = layout_.operands[k];
        double* tile = tiles + k * pair_elems;
        if (op.dtype == DType::kComplex128) {
          GatherRaw(layout_, op, 2 * sizeof(double), s, len, tile);
        } else if (op.dtype == DType::kComplex64) {
          GatherRaw(layout_, op, 2 * sizeof(float), s, len, raw);
          const float* parts = reinterpret_cast<const float*>(raw);
          for (size_t i = 0; i < 2 * n; ++i) tile[i] = parts[i];
        } else {
          // The real values into the tile's first n doubles, then spread to (value, +0)
          // from the last one down (pair i covers doubles 2i and 2i + 1, at or past i).
          GatherToF64(op, s, len, tile, raw);
          for (size_t i = n; i-- > 0;) tile[2 * i + 1] = 0.0, tile[2 * i] = tile[i];
        }
        in[k] = tile;
      }
      void* out[kMaxMapOutputs] = {result};
      Compute(in, out, len);
      const DType od = out_op.dtype;
      if (od == DType::kComplex128) {
        ScatterRaw(layout_, out_op, 2 * sizeof(double), s, len, result);
        continue;
      }
      if (od == DType::kComplex64) {
        float* parts = reinterpret_cast<float*>(raw);
        for (size_t i = 0; i < 2 * n; ++i) parts[i] = static_cast<float>(result[i]);
        ScatterRaw(layout_, out_op, 2 * sizeof(float), s, len, raw);
        continue;
      }
      for (size_t i = 0; i < n; ++i) result[i] = result[2 * i];  // the real parts
      ScatterRealF64(out_op, s, len, result, raw);
    }
  }

  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const core::FusedOperand& out_op = layout_.operands[num_in_];
    const int64_t limit = ElemLimit();
    if (zero_rest_ && limit < layout_.numel) ZeroPastLimit(core, limit);
    if (promoted_fn_ != nullptr) {
      RunPromotedInt(core, workspace, limit);
      return;
    }
    if (f64_ && !direct_) {
      RunF64(core, workspace, limit);
      return;
    }
    if (complex_) {
      RunComplex(core, workspace, limit);
      return;
    }
    if (rows_) {
      RunRows(core, workspace, limit);
      return;
    }
    if (direct_) {
      const int64_t es = static_cast<int64_t>(elem_bytes_);
      for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
        const int64_t s = p.TileBegin(core, t);
        int64_t len = p.TileLen(core, t);
        if (!Clip(limit, s, &len)) break;
        const void* in[kMaxMapInputs] = {};
        void* out[kMaxMapOutputs] = {};
        for (int k = 0; k < num_in_; ++k) in[k] = layout_.operands[k].first + s * es;
        for (int k = num_in_; k < layout_.num_operands; ++k) {
          out[k - num_in_] = layout_.operands[k].first + s * es;
        }
        Compute(in, out, len);
      }
      return;
    }
    if (exact_int_) {  // one tile of the operands' own dtype per operand, copied as is
      char* scratch = workspace + core * scratch_per_core_;
      const int64_t tile_bytes = scratch_elems_ * static_cast<int64_t>(elem_bytes_);
      for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
        const int64_t s = p.TileBegin(core, t);
        int64_t len = p.TileLen(core, t);
        if (!Clip(limit, s, &len)) break;
        const void* in[kMaxMapInputs] = {};
        for (int k = 0; k < num_in_; ++k) {
          char* tile = scratch + k * tile_bytes;
          if (widen_int16_) {
            GatherRaw(layout_, layout_.operands[k], sizeof(int16_t), s, len, tile);
            WidenInt16InPlace(tile, len);
          } else {
            GatherRaw(layout_, layout_.operands[k], elem_bytes_, s, len, tile);
          }
          in[k] = tile;
        }
        char* o = scratch + num_in_ * tile_bytes;  // one output: the exact integer operators
        void* out[kMaxMapOutputs] = {o};
        Compute(in, out, len);
        if (result_cast_.active()) {
          char* cast = o + tile_bytes;
          result_cast_.Run(o, cast, static_cast<size_t>(len));
          ScatterRaw(layout_, out_op, DTypeSize(out_op.dtype), s, len, cast);
        } else {
          ScatterRaw(layout_, out_op, elem_bytes_, s, len, o);
        }
      }
      return;
    }
    // One f32 tile per operand in this core's scratch: the inputs, then the outputs, then
    // two for a cast result (the result in its own dtype, and cast to out's).
    float* scratch = reinterpret_cast<float*>(workspace + core * scratch_per_core_);
    const int num = layout_.num_operands;
    for (int64_t t = 0; t < p.CoreTiles(core); ++t) {
      const int64_t s = p.TileBegin(core, t);
      int64_t len = p.TileLen(core, t);
      if (!Clip(limit, s, &len)) break;
      const void* in[kMaxMapInputs] = {};
      void* out[kMaxMapOutputs] = {};
      for (int k = 0; k < num_in_; ++k) {
        float* tile = scratch + k * scratch_elems_;
        GatherF32(layout_, layout_.operands[k], codecs_[k], s, len, tile);
        in[k] = tile;
      }
      for (int k = num_in_; k < num; ++k) out[k - num_in_] = scratch + k * scratch_elems_;
      Compute(in, out, len);
      for (int k = num_in_; k < num; ++k) {
        const core::FusedOperand& op = layout_.operands[k];
        float* o = static_cast<float*>(out[k - num_in_]);
        if (k == num_in_ && result_cast_.active()) {  // narrowed to the result's dtype, then
                                                      // CANN's Cast
          char* result = reinterpret_cast<char*>(o);
          char* cast = reinterpret_cast<char*>(scratch + (num + 1) * scratch_elems_);
          if (to_result_ != nullptr) {
            result = reinterpret_cast<char*>(scratch + num * scratch_elems_);
            to_result_(o, result, static_cast<size_t>(len));
          }
          result_cast_.Run(result, cast, static_cast<size_t>(len));
          ScatterRaw(layout_, op, DTypeSize(op.dtype), s, len, cast);
        } else {
          ScatterF32(layout_, op, codecs_[k], s, len, o);
        }
      }
    }
  }

  core::FusedLayout layout_;
  int num_in_ = 2;
  bool direct_ = false;
  bool rows_ = false;
  bool exact_int_ = false;
  bool widen_int16_ = false;  // the exact integer path gathers INT16 and computes INT32
  bool stream_ = false;
  const char* target_ = "";
  size_t elem_bytes_ = 0;
  int64_t scratch_elems_ = 0;
  uint64_t scratch_per_core_ = 0;
  kernels::MapFn fn_ = nullptr;
  OperandCodec codecs_[core::kMaxOperands];
  kernels::OpParams params_;  // the operator's parameters (kernels/params.h)
  ResultCast result_cast_;    // inactive unless out's dtype differs; the integer path's INT64
                              // result to out's dtype
  kernels::FromF32Fn to_result_ = nullptr;  // f32 to the result's dtype (null: f32); on the
                                            // double path, to out's
  bool f64_ = false;                        // the double path (InitF64)
  bool complex_ = false;                    // the complex path (InitComplex)
  kernels::ToF32Fn from_f64_ = nullptr;     // the double path: its result rounded to out's
                                            // dtype (as f32); null for DOUBLE, COMPLEX128
  kernels::PromotedIntFn promoted_fn_ = nullptr;  // set: the integer path (RunPromotedInt)
  kernels::IntWrap int_wrap_;                     // the promoted dtype's width
  bool has_counts_ = false;       // row counts given (SetRowCounts); else every element
  bool zero_rest_ = false;        // the elements past them zeroed
  const char* counts_ = nullptr;  // their first element (null when there are none)
  int64_t counts_n_ = 0, counts_stride_ = 0, row_elems_ = 0;
};

}  // namespace

Status PlanOp(Op op, const tiling::Problem& problem, bool empty, const tiling::Options& options,
              std::shared_ptr<const tiling::Plan>* plan) {
  Status s;
  if (empty) {
    tiling::Resolved resolved;
    s = tiling::Resolve(options, problem, &resolved);
  } else {
    s = tiling::MakeSharedPlan(problem, options, plan);
  }
  if (!s.ok())
    return Status(s.code(), std::string(GetOpInfo(op).name) + ": tiling: " + s.message());
  return Status::Ok();
}

Status FuseOperands(Op op, const std::vector<int64_t>& shape, int num, char* const* firsts,
                    const DType* dtypes, const std::vector<int64_t>* strides,
                    core::FusedLayout* layout) {
  if (core::Fuse(shape, num, firsts, dtypes, strides, layout)) return Status::Ok();
  return Status::Invalid(std::string(GetOpInfo(op).name) + ": rank: the view of shape " +
                         core::ShapeString(shape) +
                         " keeps more than 8 dims after its adjacent dims are merged; a view "
                         "of more than 8 dims is taken when its strides merge into 8 or "
                         "fewer dims (a contiguous one merges into 1)");
}

Status FuseOwn(Op op, const Operand& o, core::FusedLayout* layout) {
  char* first = o.span->first;
  const DType dtype = o.view->dtype;
  const std::vector<int64_t> strides = o.span->strides;
  return FuseOperands(op, o.view->shape, 1, &first, &dtype, &strides, layout);
}

Status FuseGiven(Op op, const std::vector<int64_t>& shape, const Operand* const* operands,
                 int count, core::FusedLayout* layout) {
  char* firsts[kMaxFusedGiven] = {};
  DType dtypes[kMaxFusedGiven] = {};
  std::vector<int64_t> strides[kMaxFusedGiven];
  int fused = 0;
  for (int k = 0; k < count; ++k) {
    const Operand* v = operands[k];
    if (v->view == nullptr) continue;
    if (fused == kMaxFusedGiven) {
      return Status::Inner(std::string(GetOpInfo(op).name) + ": too many operands");
    }
    firsts[fused] = v->span->first;
    dtypes[fused] = v->view->dtype;
    strides[fused++] = v->span->strides;
  }
  return FuseOperands(op, shape, fused, firsts, dtypes, strides, layout);
}
Status FuseGiven(Op op, const std::vector<int64_t>& shape,
                 std::initializer_list<const Operand*> operands, core::FusedLayout* layout) {
  return FuseGiven(op, shape, operands.begin(), static_cast<int>(operands.size()), layout);
}

Status PrepareMap(Op op, const Operands& operands, const tiling::Options& options,
                  uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(op);
  const int num_in = operands.num_in;
  const int num = num_in + operands.num_out;  // the inputs, then the outputs
  const Operand* all[core::kMaxOperands];
  for (int k = 0; k < num; ++k) {
    all[k] = k < num_in ? &operands.in[k] : &operands.out[k - num_in];
  }
  const TensorView& out = *operands.out[0].view;
  const core::ViewSpan& out_span = *operands.out[0].span;
  DType dtypes[core::kMaxOperands];
  // The plan counts elements of the widest storage dtype the operator computes from or
  // into: a complex out is planned as its real part's dtype, as CANN's Cast to it is an
  // operator of its own, and an unsigned out of 16 to 64 bits (Threshold's) as the signed
  // dtype of its width.
  const auto planned = [](DType d) {
    switch (d) {
      case DType::kComplex64: return DType::kFloat32;
      case DType::kComplex128: return DType::kFloat64;
      case DType::kUInt16: return DType::kInt16;
      case DType::kUInt32: return DType::kInt32;
      case DType::kUInt64: return DType::kInt64;
      default: return d;
    }
  };
  DType widest = planned(out.dtype);
  bool same_dtype = true;
  for (int k = 0; k < num; ++k) {
    dtypes[k] = all[k]->view->dtype;
    if (DTypeSize(planned(dtypes[k])) > DTypeSize(widest)) widest = planned(dtypes[k]);
    same_dtype = same_dtype && dtypes[k] == dtypes[0];
  }
  const bool own_plan_shape = !operands.plan_shape.empty();
  tiling::Problem problem{op, widest, own_plan_shape ? operands.plan_shape : out.shape,
                          own_plan_shape ? operands.plan_dim : 0, launch::TeamSize()};
  // A tensor of more than 8 dims (an operator that takes any rank) is planned as one flat
  // row, as CANN reshapes it to 1-D for its kernel.
  if (!own_plan_shape && out.shape.size() > static_cast<size_t>(kMaxDims)) {
    problem.shape = {out_span.numel};
  }
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, out_span.numel == 0, options, &plan));
  if (out_span.numel == 0) {
    return PrepareEmpty(op, own_plan_shape ? dtypes[0] : out.dtype, workspace_size, executor);
  }
  std::vector<int64_t> strides[core::kMaxOperands];
  char* firsts[core::kMaxOperands];
  for (int k = 0; k < num; ++k) {
    const core::ViewSpan& span = *all[k]->span;
    firsts[k] = span.first;
    if (!core::BroadcastStrides(all[k]->view->shape, span.strides, out.shape, &strides[k])) {
      return Status::Inner(std::string(info.name) + ": operands do not broadcast to the output");
    }
  }
  core::FusedLayout layout;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, out.shape, num, firsts, dtypes, strides, &layout));

  // A core's scratch holds one tile per operand (f32, the operands' own dtype on the exact
  // integer path, f64 on the double path), of its longest tile: the plan's tile length, or
  // all the core owns when that is less (a small tensor, or a large UB, must not ask for
  // the UB).
  const tiling::ElementwisePlan& ep = plan->elementwise;
  int64_t most = 0;  // elements of the busiest core
  for (int64_t core = 0; core < ep.block_dim; ++core) most = std::max(most, ep.CoreLen(core));
  const int64_t scratch_elems = std::min(ep.tile_len, most);

  // An operator CANN computes in double (ComputesDouble) whose inputs promote to DOUBLE:
  // the f64 kernel, on the operands when all are dense DOUBLE, else on f64 tiles (one per
  // input and one per output, and one of raw bytes for the conversions, as wide as the
  // widest of a DOUBLE input and out's element).
  // An operator CANN computes in complex arithmetic (TakesComplexInputs) whose inputs
  // promote to a complex dtype: complex<double> tiles, one per input and one for the
  // result, and one of raw bytes for the conversions (at most 16 bytes an element).
  if (TakesComplexInputs(op) && IsComplexType(PromotedInputs(layout, num_in))) {
    auto* exec = new MapExecutor(op, std::move(plan), layout, num_in);
    exec->InitComplex(scratch_elems, AlignWorkspace((static_cast<uint64_t>(num_in) + 2) * 2 *
                                                    sizeof(double) * scratch_elems));
    *workspace_size = exec->workspace_bytes();
    executor->reset(exec);
    return Status::Ok();
  }
  if (ComputesDouble(op) && PromotedInputs(layout, num_in) == DType::kFloat64) {
    const bool direct = layout.dense && same_dtype;
    auto* exec = new MapExecutor(op, std::move(plan), layout, num_in);
    exec->InitF64(direct, scratch_elems,
                  direct ? 0
                         : AlignWorkspace((static_cast<uint64_t>(num) * sizeof(double) +
                                           std::max(sizeof(double), DTypeSize(out.dtype))) *
                                          scratch_elems),
                  operands);
    *workspace_size = exec->workspace_bytes();
    executor->reset(exec);
    return Status::Ok();
  }

  // The dtype the result is in before out's: self's for the operators that compute in it
  // and then cast (FLOAT for an integer self cast to it, or for integers computed in f32).
  DType result_dtype = out.dtype;
  if (CastsResultToOut(info.dtypes)) {
    result_dtype = CastsIntInputs(info.dtypes) && IsPromotableIntType(dtypes[0])
                       ? DType::kFloat32
                       : ComputedSelfDType(info.dtypes, dtypes[0]);
  } else if (RoundsIntResults(info.dtypes) && !IsComputeType(out.dtype)) {
    result_dtype = DType::kFloat32;
  }
  // Rule PromoteIntExact: inputs promoting to an integer are computed exactly in it.
  const DType promoted = PromotedInputs(layout, num_in);
  const DType promoted_int =
      RunsIntLanes(info.dtypes) && !IsFloatType(promoted) ? promoted : DType::kUndefined;
  const bool int_path = promoted_int != DType::kUndefined;
  const bool casts_result = result_dtype != out.dtype;
  // (DOUBLE operands here are cast to FLOAT: CastsDoubleToFloat.)
  const bool direct =
      layout.dense && same_dtype && !casts_result && !int_path && dtypes[0] != DType::kFloat64;
  // An INT16 self of rule ExactIntThenCast is gathered and widened to INT32 (its computed
  // dtype), as op_api casts it.
  const DType computed = ComputedSelfDType(info.dtypes, dtypes[0]);
  const bool exact_int = (AdmitsExactInt(info.dtypes) && kernels::IsExactIntDType(computed)) ||
                         (AdmitsInt8Lanes(info.dtypes) && dtypes[0] == DType::kInt8);
  // Rows: one compute dtype, every output and every input with stride 1 along the last
  // fused dim but for inputs constant along it (stride 0), which need rows of at least
  // kMinRowRun elements.
  bool rows = !direct && !exact_int && !int_path && same_dtype && !casts_result &&
              IsComputeType(dtypes[0]) && layout.rank >= 1;
  bool fills = false;  // an input is constant along the rows
  for (int k = 0; rows && k < num; ++k) {
    const int64_t last = layout.operands[k].strides[layout.rank - 1];
    rows = last == 1 || (last == 0 && k < num_in);
    fills = fills || last == 0;
  }
  rows = rows && (!fills || layout.shape[layout.rank - 1] >= kMinRowRun);
  // A cast result needs two more tiles: the result in its own dtype (at most 4 bytes an
  // element), and cast to out's (8 for a DOUBLE out).
  // The integer path: an int64 tile per operand, and one of the inputs' and out's own dtypes.
  const uint64_t tiles_bytes =
      int_path
          ? (static_cast<uint64_t>(num) + 1) * scratch_elems * sizeof(int64_t)
          : static_cast<uint64_t>(num) * scratch_elems *
                    (exact_int || rows ? DTypeSize(computed) : sizeof(float)) +
                (casts_result
                     ? (sizeof(float) + std::max<size_t>(sizeof(float), DTypeSize(out.dtype))) *
                           scratch_elems
                     : 0);
  // Rows every operand walks in place need no scratch at all.
  const uint64_t scratch =
      rows && !fills ? 0 : AlignWorkspace(tiles_bytes);
  auto* exec = new MapExecutor(op, std::move(plan), layout, num_in);
  exec->Init(direct, rows, exact_int, result_dtype, scratch_elems, scratch, operands, promoted_int);
  if (operands.row_counts.view != nullptr && operands.row_elems > 0) {
    const core::ViewSpan& c = *operands.row_counts.span;
    exec->SetRowCounts(c.first, c.numel, c.strides.empty() ? 1 : c.strides[0],
                       operands.row_elems, operands.zero_rest);
  }
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
