// The gated linear units' checks, in CANN's order (docs/activation_family3.md): null
// operands (161001); dtypes; ranks (at most 8, but any for GeGluBackward and
// GeGluV3Backward, whose op_api checks none: MaxRank; self at least 1: a 0-d tensor has no
// dim to split); dim in [-rank, rank - 1]; self's extent along dim even; the half-shaped
// operands (the forwards' out and outGelu, the gradients' incoming gradient and gelu) equal to
// self's shape with that extent halved, the gradients' out equal to self's; GeGlu's
// approximate 0 or 1; then storage, overlap and aliasing (161002). An empty self passes
// the checks and runs nothing. GeluMul and FatreluMul have no dim (they split the last) and
// their own limits, refused as their CANN kernels' tilings refuse them (561002,
// CheckLastDimTiling); FatreluMul's threshold is a one-element tensor of any rank. SituGlu's
// and SituGluGrad's tilings check the split (dim, the extent, the half-shaped operands):
// those refusals are 561002 for them (TilingChecksSplit); ClippedSwiglu's too, with its
// optional groupIndexOptional (INT64; 1-D and at most 12152 long, its tiling's 561002).
//
// Then the halves: self (and a gradient's out) become two views of their own over the half
// shape, the second starting half the dim's extent further on, and every operand is handed
// to the Map executor (src/exec/map_executor.cc) as one of its views, which knows nothing
// of splits. activateLeft makes the first half the gate: the halves swap (and so do the
// gradient's), so the kernel always gates with its second input. A one-element input
// (FatreluMul's threshold) becomes a view over the half shape whose strides are all 0: the
// kernel reads it as a third input, element by element, at run time. ClippedSwiglu's
// groupIndexOptional is handed over as row counts (the Map computes only the rows they sum
// to, read at run time); its interleaved halves are the even and odd elements of the dims
// from dim on taken as one axis (PrepareInterleaved).

#include "src/aclnn/split_front_end.h"

#include <cmath>
#include <initializer_list>
#include <string>
#include <vector>

#include "src/core/check.h"
#include "src/exec/map_executor.h"

namespace hostnn {
namespace {

constexpr std::initializer_list<DType> kComputeTypes = {DType::kFloat32, DType::kFloat16,
                                                        DType::kBFloat16};
constexpr std::initializer_list<DType> kDoubleOnly = {DType::kFloat64};
constexpr std::initializer_list<DType> kNoTypes = {};

// One operand: its CANN name, its view, whether it has self's full shape (else the half
// shape; or any shape with one element: `one`), whether it is written, and where it lies
// once checked.
struct SplitOperand {
  const char* param = nullptr;
  const TensorView* view = nullptr;
  bool full = false;
  bool output = false;
  core::ViewSpan span;
  bool one = false;
  bool counts = false;  // ClippedSwiglu's groupIndexOptional: INT64 row counts, 1-D
};

// A checked operand's half along dim as a view of its own over the half shape: its
// elements from index `start` (0 or the half extent) of dim on. An operand of the half
// shape is its own half 0. Only what the Map executor reads is set (dtype, shape; the
// span's first element, strides and count). An empty one keeps its first element (which
// may be null) whatever start is.
struct HalfView {
  TensorView view;
  core::ViewSpan span;
};
void MakeHalf(const SplitOperand& v, const std::vector<int64_t>& half_shape, int64_t dim,
              int64_t start, HalfView* h) {
  h->view.dtype = v.view->dtype;
  h->view.shape = half_shape;
  h->span.strides = v.span.strides;
  // Counted as the checks count (a 0 extent first): a plain product of an empty shape's
  // extents may overflow before it reaches the 0 ([2^63 - 1, 8, 0]).
  h->span.numel = core::CheckedNumel(half_shape);
  h->span.first = v.span.first;
  h->span.unbound = v.span.unbound;
  if (v.one) {  // its one element under every index
    h->span.strides.assign(half_shape.size(), 0);
    return;
  }
  if (h->span.numel > 0 && !h->span.unbound) {  // (no address to move from a null one)
    h->span.first += start * v.span.strides[static_cast<size_t>(dim)] *
                     static_cast<int64_t>(DTypeSize(v.view->dtype));
  }
}

// The stride of a tensor's dims from d on as one run of elements in row-major order (dims
// of extent 1 take any stride): false when they are not one strided run.
bool MergedStride(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                  int64_t d, int64_t* stride) {
  int64_t s = 1, run = 0;  // run: the elements the dims walked so far span (0: none yet)
  for (int64_t k = static_cast<int64_t>(shape.size()) - 1; k >= d; --k) {
    const size_t i = static_cast<size_t>(k);
    if (shape[i] == 1) continue;
    if (run == 0) {
      s = strides[i];
      run = shape[i];
    } else if (strides[i] != s * run) {
      return false;
    } else {
      run *= shape[i];
    }
  }
  *stride = s;
  return true;
}

// ClippedSwiglu's interleaved pairs (2j, 2j + 1) of each row of M elements (the dims from
// dim on taken as one axis) lie within the dims from k on for the first k >= dim whose dims
// are one strided run of an even number P of elements: the pairs' shape is
// [shape[0 .. k - 1], P / 2], over which x's even (start 0: the gate) and odd elements are
// views (every second element of the run). -1 when no such k exists.
int64_t PairsFrom(const SplitOperand& x, int64_t dim) {
  const std::vector<int64_t>& shape = x.view->shape;
  for (int64_t k = dim; k < static_cast<int64_t>(shape.size()); ++k) {
    int64_t p = 1, stride = 1;
    for (size_t i = static_cast<size_t>(k); i < shape.size(); ++i) p *= shape[i];
    if (p % 2 == 0 && MergedStride(shape, x.span.strides, k, &stride)) return k;
  }
  return -1;
}
void MakePairs(const SplitOperand& x, const std::vector<int64_t>& pair_shape, int64_t k,
               int64_t start, HalfView* h) {
  int64_t stride = 1;
  MergedStride(x.view->shape, x.span.strides, k, &stride);
  h->view.dtype = x.view->dtype;
  h->view.shape = pair_shape;
  h->span.strides.assign(x.span.strides.begin(), x.span.strides.begin() + k);
  // Twice a stride the storage check bounded, unless the view is empty (whose strides no
  // check bounds: then any stride will do).
  int64_t pair_stride = 0;
  if (__builtin_mul_overflow(stride, int64_t{2}, &pair_stride)) pair_stride = 0;
  h->span.strides.push_back(pair_stride);
  h->span.numel = core::CheckedNumel(pair_shape);  // as MakeHalf counts
  h->span.first = x.span.first;
  h->span.unbound = x.span.unbound;
  if (h->span.numel > 0 && !h->span.unbound) {
    h->span.first += start * stride * static_cast<int64_t>(DTypeSize(x.view->dtype));
  }
}
// out over the pairs' shape: its dims from dim on must be one strided run (each row of M / 2
// results, in the pairs' order); false otherwise.
bool MakePairsOut(const SplitOperand& out, const std::vector<int64_t>& pair_shape, int64_t dim,
                  HalfView* h) {
  int64_t stride = 1;
  if (!MergedStride(out.view->shape, out.span.strides, dim, &stride)) return false;
  h->view.dtype = out.view->dtype;
  h->view.shape = pair_shape;
  h->span.strides.assign(out.span.strides.begin(), out.span.strides.begin() + dim);
  h->span.numel = core::CheckedNumel(pair_shape);  // as MakeHalf counts
  const size_t rank = pair_shape.size();
  std::vector<int64_t> tail(rank - static_cast<size_t>(dim));  // dims dim .. rank - 1
  int64_t run = stride;
  for (size_t i = rank; i-- > static_cast<size_t>(dim);) {
    tail[i - static_cast<size_t>(dim)] = run;
    // Past int64 only for an empty out, whose strides nothing reads.
    if (__builtin_mul_overflow(run, pair_shape[i], &run)) run = 0;
  }
  h->span.strides.insert(h->span.strides.end(), tail.begin(), tail.end());
  h->span.first = out.span.first;
  return true;
}

// CANN's aclnnGeluMul and aclnnFatreluMul are generated from their kernels' definitions
// (they have no op_api): past the null operands (161001) and the dtypes (161002), what they
// refuse is refused by their kernels' tilings, as ACLNN_ERR_INNER_TILING_ERROR (561002).
// The same refusals, in the tilings' order: a mode approximateOptional does not name; fewer
// than 2 dims; a last dim of 0; a threshold of other than one element; a last dim over 1024
// or odd; over 200000 rows (the product of the other dims).
constexpr int64_t kLastDimMinRank = 2;
constexpr int64_t kLastDimMaxExtent = 1024;
constexpr int64_t kLastDimMaxRows = 200000;

Status TilingRefusal(const char* op, const char* param, const std::string& what) {
  return Status::InnerTiling(std::string(op) + ": " + param + " " + what);
}

Status CheckLastDimTiling(const OpInfo& info, const OpArgs& args, const char* param,
                          const std::vector<int64_t>& shape, const SplitOperand* one) {
  const char* op = info.name;
  for (int k = 0; k < info.num_scalars(); ++k) {
    const ScalarParam& p = info.scalars[k];
    if (p.kind != ScalarKind::kString || !args.scalars[k].given) continue;
    int count = 0;  // the modes p names, quoted: "none" or "tanh"
    std::string names;
    for (; !ModeName(p, count).empty(); ++count) {
      names += (count > 0 ? " or \"" : "\"") + ModeName(p, count) + "\"";
    }
    const std::string first = "\"" + ModeName(p, 0) + "\"";
    const double v = args.scalars[k].value;
    if (!(v >= 0.0 && v < count && v == static_cast<double>(static_cast<int64_t>(v)))) {
      return TilingRefusal(op, p.name,
                           "must be " + names + " (a null pointer is " + first +
                               "), got another string");
    }
  }
  const int64_t rank = static_cast<int64_t>(shape.size());
  if (rank < kLastDimMinRank) {
    return TilingRefusal(op, param,
                         "rank: expected 2 to 8 dims (split along the last), got " +
                             core::ShapeString(shape));
  }
  const int64_t last = shape.back();
  // The rows: the product of the other dims, counted up to one past the limit.
  int64_t rows = 1;
  for (int64_t k = 0; k + 1 < rank; ++k) {
    const int64_t d = shape[static_cast<size_t>(k)];
    if (d == 0) {
      rows = 0;
      break;
    }
    rows = d > kLastDimMaxRows / rows ? kLastDimMaxRows + 1 : rows * d;
  }
  const auto last_dim_refusal = [&] {
    return TilingRefusal(op, param,
                         "shape: the last dim of " + core::ShapeString(shape) +
                             " must be even and in [2, 1024] (two halves), got " +
                             std::to_string(last));
  };
  if (last == 0) return last_dim_refusal();
  if (one != nullptr && core::CheckedNumel(one->view->shape) != 1) {
    return TilingRefusal(op, one->param,
                         "shape: must hold one element, got " +
                             core::ShapeString(one->view->shape));
  }
  if (last > kLastDimMaxExtent || last % 2 != 0) return last_dim_refusal();
  if (rows > kLastDimMaxRows) {
    return TilingRefusal(op, param,
                         "shape: the dims before the last of " + core::ShapeString(shape) +
                             " hold more than 200000 rows");
  }
  return Status::Ok();
}

}  // namespace

// ClippedSwiglu with interleaved: the gate the even elements of each row of M (the dims from
// dim on as one axis), the other half the odd ones (PairsFrom: views over the pairs' shape),
// out a view of its rows over that shape; the planner halves [shape[0 .. k - 1], P]. x
// without such a run (its last dims padded and of an odd count) or out whose dims from dim
// on are not one strided run is refused (161002): any contiguous tensor has them. Its
// gradient (dy given) reads dy's rows as the forward writes out's, and writes gradXOut's
// even and odd elements as x's are read: gradXOut's dims from k on must be one run too.
static Status PrepareInterleaved(const OpInfo& info, const SplitOperand& self,
                                 const SplitOperand* dy, const SplitOperand& out, int64_t dim,
                                 const tiling::Options& options, exec::Operands* operands,
                                 uint64_t* workspace_size, ExecutorPtr* executor) {
  const char* op = info.name;
  const std::vector<int64_t>& shape = self.view->shape;
  const int64_t k = PairsFrom(self, dim);
  if (k < 0) {
    return core::InvalidParam(op, self.param,
                              "layout: interleaved pairs neighbouring elements of the dims from "
                              "dim " + std::to_string(dim) + " on, and these strides hold no "
                              "run of an even count of them (a contiguous tensor's do)");
  }
  std::vector<int64_t> plan(shape.begin(), shape.begin() + k);
  int64_t p = 1;
  for (size_t i = static_cast<size_t>(k); i < shape.size(); ++i) p *= shape[i];
  plan.push_back(p);
  std::vector<int64_t> pairs = plan;
  pairs.back() /= 2;
  const auto not_a_run = [&](const SplitOperand& v, const char* what, int64_t from) {
    return core::InvalidParam(op, v.param,
                              std::string("layout: interleaved ") + what + ", and the dims from "
                              "dim " + std::to_string(from) + " on of these strides are not one "
                              "strided run (a contiguous tensor's are)");
  };
  HalfView gate, value, rows, out_value, out_gate;
  MakePairs(self, pairs, k, 0, &gate);
  MakePairs(self, pairs, k, 1, &value);
  const SplitOperand& row_operand = dy != nullptr ? *dy : out;
  if (!MakePairsOut(row_operand, pairs, dim, &rows)) {
    return not_a_run(row_operand, dy != nullptr ? "reads each row's gradients in order"
                                                : "writes each row's results in order", dim);
  }
  int64_t out_stride = 1;
  if (dy != nullptr && !MergedStride(out.view->shape, out.span.strides, k, &out_stride)) {
    return not_a_run(out, "writes neighbouring elements as x's are read", k);
  }
  operands->num_in = 0;
  if (dy != nullptr) operands->in[operands->num_in++] = exec::Operand{&rows.view, &rows.span};
  operands->in[operands->num_in++] = exec::Operand{&value.view, &value.span};
  operands->in[operands->num_in++] = exec::Operand{&gate.view, &gate.span};
  if (dy != nullptr) {
    MakePairs(out, pairs, k, 1, &out_value);
    MakePairs(out, pairs, k, 0, &out_gate);
    operands->num_out = 2;
    operands->out[0] = exec::Operand{&out_value.view, &out_value.span};
    operands->out[1] = exec::Operand{&out_gate.view, &out_gate.span};
  } else {
    operands->num_out = 1;
    operands->out[0] = exec::Operand{&rows.view, &rows.span};
  }
  operands->plan_shape = plan;
  operands->plan_dim = k;
  return exec::PrepareMap(info.op, *operands, options, workspace_size, executor);
}

Status PrepareSplitChecked(const OpArgs& args, const tiling::Options& options,
                           uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  // Slots: a forward's in[0] is self, its in[1] FatreluMul's threshold, its out[1] GeGlu's
  // outGelu (written); a gradient's in[0] is the incoming gradient, in[1] self, in[2]
  // GeGluBackward's gelu (read).
  const bool forward = info.is_forward;
  const int self_slot = forward ? 0 : 1;
  SplitOperand self{info.in_names[self_slot], args.in[self_slot], true, false, {}};
  SplitOperand dy{info.in_names[0], args.in[0], false, false, {}};
  const bool has_act = HasGeluOperand(info);
  SplitOperand act = forward ? SplitOperand{info.out_names[1], args.out[1], false, true, {}}
                             : SplitOperand{info.in_names[2], args.in[2], false, false, {}};
  SplitOperand out{info.out_names[0], args.out[0], !forward, true, {}};
  // A forward's second input of one element (FatreluMul's threshold), or the optional row
  // counts (ClippedSwiglu's and ClippedSwigluGrad's groupIndexOptional: absent when null).
  const bool has_one = info.shapes == ShapeRule::kOneElement;
  SplitOperand one{has_one ? info.in_names[1] : nullptr, args.in[1], false, false, {}, true};
  const int counts_slot = CountsSlot(info);
  const bool has_counts = counts_slot > 0 && args.in[counts_slot] != nullptr;
  SplitOperand counts{has_counts ? info.in_names[counts_slot] : nullptr,
                      has_counts ? args.in[counts_slot] : nullptr,
                      false, false, {}, false, true};
  // CANN's parameter order.
  SplitOperand* const order[] = {forward ? nullptr : &dy,
                                 &self,
                                 has_one ? &one : nullptr,
                                 has_act && !forward ? &act : nullptr,
                                 has_counts ? &counts : nullptr,
                                 &out,
                                 has_act && forward ? &act : nullptr};
  std::vector<SplitOperand*> all;
  for (SplitOperand* v : order) {
    if (v != nullptr) all.push_back(v);
  }
  for (const SplitOperand* v : all) {
    if (v->view == nullptr) return Status::Nullptr(std::string(op) + ": " + v->param + " is null");
  }
  // Dtypes: self FLOAT, FLOAT16 or BFLOAT16, and DOUBLE where op_api lists it (Glu and
  // GluBackward: computed in double, ComputesDouble). Glu's out any of them (computed in
  // self's, then cast); every other operand self's; ClippedSwiglu's row counts INT64.
  for (const SplitOperand* v : all) {
    HOSTNN_RETURN_IF_ERROR(
        core::CheckDType(op, v->param, v->view->dtype,
                         v->counts ? std::initializer_list<DType>{DType::kInt64} : kComputeTypes,
                         !v->counts && TakesDoubleInputs(args.op) ? kDoubleOnly : kNoTypes));
  }
  if (info.dtypes != DTypeRule::kFloatThenCast) {
    for (const SplitOperand* v : all) {
      if (!v->counts && v->view->dtype != self.view->dtype) {
        return core::InvalidParam(op, v->param,
                                  std::string("dtype: expected ") + DTypeName(self.view->dtype) +
                                      " like " + self.param + ", got " + DTypeName(v->view->dtype));
      }
    }
  }
  // GeGluBackward's op_api checks no rank (MaxRank); the others' refuse a ninth dim.
  for (const SplitOperand* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, MaxRank(args.op)));
  }
  for (const SplitOperand* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  const std::vector<int64_t>& shape = self.view->shape;
  const int64_t rank = static_cast<int64_t>(shape.size());
  const bool last_dim = SplitsLastDim(info.kind, info.signature);
  if (last_dim) {
    HOSTNN_RETURN_IF_ERROR(
        CheckLastDimTiling(info, args, self.param, shape, has_one ? &one : nullptr));
  }
  // The split's own refusals: an op_api's (161002), or for SituGlu and SituGluGrad their
  // tilings' (561002; their tilings check dim, the extent, then the half-shaped operands).
  const auto refuse = [&](const char* param, const std::string& what) {
    return TilingChecksSplit(info.signature) ? TilingRefusal(op, param, what)
                                             : core::InvalidParam(op, param, what);
  };
  // ClippedSwigluGrad's tiling checks limit first, as the f32 value it reads.
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].check != ScalarCheck::kPositive) continue;
    const OpScalar& a = args.scalars[k];
    const float v = core::ToFloat(a.given ? a.value : info.scalars[k].default_value);
    if (v <= 0.0f) {
      return TilingRefusal(op, info.scalars[k].name,
                           "must be above 0 as a FLOAT, got " + std::to_string(v));
    }
  }
  if (rank == 0) {
    return refuse(self.param, "rank: a 0-d tensor has no dim to split; expected 1 to 8 dims");
  }
  if (!last_dim && (args.dim < -rank || args.dim >= rank)) {
    return refuse("dim", "out of range: expected [" + std::to_string(-rank) + ", " +
                             std::to_string(rank - 1) + "] for shape " + core::ShapeString(shape) +
                             ", got " + std::to_string(args.dim));
  }
  const int64_t dim = last_dim ? rank - 1 : args.dim < 0 ? args.dim + rank : args.dim;
  if (shape[dim] % 2 != 0) {
    return refuse(self.param, "shape: the split dim " + std::to_string(dim) + " of " +
                                  core::ShapeString(shape) +
                                  " has an odd extent; expected an even one (two halves)");
  }
  std::vector<int64_t> half = shape;
  half[dim] /= 2;
  // The shapes in CANN's parameter order: ClippedSwiglu's tiling checks groupIndexOptional's
  // rank where it stands, after the split and the gradient's gradY, before the output.
  for (const SplitOperand* v : all) {
    if (v->counts && v->view->shape.size() != 1) {
      return TilingRefusal(op, v->param,
                           "rank: expected 1 dim, got " + core::ShapeString(v->view->shape));
    }
    if (v == &self || v->one || v->counts) continue;
    const std::vector<int64_t>& want = v->full ? shape : half;
    if (v->view->shape != want) {
      return refuse(v->param, "shape: expected " + core::ShapeString(want) + " (" + self.param +
                                  " " + core::ShapeString(shape) +
                                  (v->full ? "" : " halved along dim " + std::to_string(dim)) +
                                  "), got " + core::ShapeString(v->view->shape));
    }
  }
  // ClippedSwiglu's row counts: its tiling keeps two copies of them in Atlas A2's UB (196608
  // bytes, 1024 reserved) beside at least one 32-byte block of pairs, which caps their
  // number (12152; its document says 8192). ClippedSwigluGrad's kernel sums them from
  // memory: any number.
  if (has_counts && forward) {
    constexpr int64_t kA2UbBytes = 196608, kUbReserve = 1024, kBytesPerPair = 18;
    const int64_t n = counts.view->shape[0];
    const int64_t counts_bytes = n > kA2UbBytes ? kA2UbBytes : 2 * ((n * 8 + 31) / 32 * 32);
    const int64_t room = kA2UbBytes - kUbReserve - counts_bytes;
    if (room <= 0 || ((room / kBytesPerPair) / 32 * 32 - 31) / 2 <= 0) {
      return TilingRefusal(op, counts.param,
                           "shape: " + std::to_string(n) +
                               " groups leave no room for a tile in the UB (at most 12152)");
    }
  }
  // GeGlu's approximate, after the shapes as CANN checks it. The message quotes the integer
  // the call passed (an INT64 scalar's exact value: past 2^53 its double copy is not it).
  for (int k = 0; k < info.num_scalars(); ++k) {
    if (info.scalars[k].check != ScalarCheck::kZeroOrOne) continue;
    const OpScalar& a = args.scalars[k];
    const double v = a.given ? a.value : info.scalars[k].default_value;
    if (v != 0.0 && v != 1.0) {
      const bool whole = std::fabs(v) < 9.2e18 && v == std::trunc(v);  // NaN is not
      const std::string got = a.given && a.dtype == DType::kInt64
                                  ? std::to_string(a.int_value)
                                  : whole ? std::to_string(static_cast<long long>(v))
                                          : std::to_string(v);
      return core::InvalidParam(op, info.scalars[k].name,
                                "must be 0 (gelu's erf form) or 1 (its tanh form), got " + got);
    }
  }
  for (SplitOperand* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v->param, *v->view, &v->span));
  }
  // Every output against itself, the inputs and the other output. An output may be an
  // input's very view (the gradients into self); two outputs may not share an element.
  for (const SplitOperand* o : all) {
    if (!o->output) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckNoSelfOverlap(op, o->param, *o->view, o->span));
    for (const SplitOperand* v : all) {
      if (v == o) continue;
      HOSTNN_RETURN_IF_ERROR(
          core::CheckAliasing(op, o->param, *o->view, o->span, v->param, *v->view, v->span));
      if (v->output && o->span.numel > 0 && !o->span.unbound && o->span.first == v->span.first) {
        return core::InvalidParam(
            op, o->param,
            std::string("overlaps ") + v->param + ": the two outputs may not share an element");
      }
    }
  }

  // The flag: activateLeft, or ClippedSwiglu's interleaved (whose gate is the first half or
  // the even elements).
  bool flag = false;
  exec::Operands operands;
  for (int k = 0; k < info.num_scalars(); ++k) {
    const double v = args.scalars[k].given ? args.scalars[k].value : info.scalars[k].default_value;
    operands.scalars[k] = core::ToFloat(v);
    if (info.scalars[k].kind == ScalarKind::kFlag) flag = v != 0.0;
  }
  const bool group_rows = info.shapes == ShapeRule::kGroupRows;
  const bool interleaved = group_rows && flag;
  const bool activate_left = group_rows || flag;
  if (group_rows) {
    int64_t row_elems = 1;
    for (size_t k = static_cast<size_t>(dim); k < half.size(); ++k) row_elems *= half[k];
    operands.row_elems = row_elems;
    if (has_counts) operands.row_counts = exec::Operand{counts.view, &counts.span};
    operands.zero_rest = !forward;  // CANN's gradient zeroes the rows past the counts' sum
  }
  if (interleaved) {
    return PrepareInterleaved(info, self, forward ? nullptr : &dy, out, dim, options, &operands,
                              workspace_size, executor);
  }
  const int64_t h = half[static_cast<size_t>(dim)];
  const int64_t gate = activate_left ? 0 : h, value = activate_left ? h : 0;
  HalfView halves[exec::kMaxMapInputs + exec::kMaxMapOutputs];
  int used = 0;
  const auto add = [&](const SplitOperand& v, int64_t start) {
    MakeHalf(v, half, dim, start, &halves[used]);
    const HalfView& made = halves[used++];
    return exec::Operand{&made.view, &made.span};
  };
  operands.num_in = 0;
  if (!forward) operands.in[operands.num_in++] = add(dy, 0);
  operands.in[operands.num_in++] = add(self, value);
  operands.in[operands.num_in++] = add(self, gate);
  if (has_one) operands.in[operands.num_in++] = add(one, 0);
  if (!forward && has_act) operands.in[operands.num_in++] = add(act, 0);
  operands.num_out = 0;
  if (forward) {
    operands.out[operands.num_out++] = add(out, 0);
    if (has_act) operands.out[operands.num_out++] = add(act, 0);
  } else {
    operands.out[operands.num_out++] = add(out, value);
    operands.out[operands.num_out++] = add(out, gate);
  }
  operands.plan_shape = shape;  // the planner halves it along dim (tiling/plan.cc)
  operands.plan_dim = dim;
  if (rank > kMaxDims) {  // planned as [before dim, dim, after dim], the same split
    int64_t before = 1, after = 1;
    for (int64_t i = 0; i < dim; ++i) before *= shape[i];
    for (int64_t i = dim + 1; i < rank; ++i) after *= shape[i];
    operands.plan_shape = {before, shape[dim], after};
    operands.plan_dim = 1;
  }
  return exec::PrepareMap(args.op, operands, options, workspace_size, executor);
}

}  // namespace hostnn
