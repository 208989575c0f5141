// The normalisations' checks (src/aclnn/norm_front_end.h): each in the order of its op_api
// (LayerNorm, AddRmsNorm, LayerNormBackward), or of its generated entry point and kernel
// tiling (RmsNorm, RmsNormGrad, InplaceAddRmsNorm, AddLayerNorm, AddLayerNormGrad).

#include "src/aclnn/norm_front_end.h"

#include <algorithm>
#include <initializer_list>
#include <string>
#include <vector>

#include "src/aclnn/front_end.h"
#include "src/aclnn/norm_checks.h"
#include "src/aclnn/operand_checks.h"
#include "src/core/check.h"
#include "src/exec/executor.h"
#include "src/exec/rows_executor.h"

namespace hostnn {
namespace {

using Item = CheckedOperand;

constexpr std::initializer_list<DType> kNormTypes = {DType::kFloat16, DType::kFloat32,
                                                     DType::kBFloat16};
constexpr int kMaxNormDims = 8;

// One of the norms' dtype combinations: v's dtype `like`'s (like_param names that tensor),
// or FLOAT too where float_too. 161002 otherwise, naming v.
Status CheckDTypeLike(const char* op, const Item& v, DType like, const char* like_param,
                      bool float_too) {
  const DType got = v.view->dtype;
  if (got == like || (float_too && got == DType::kFloat32)) return Status::Ok();
  return core::InvalidParam(op, v.param,
                            std::string("dtype: expected ") + (float_too ? "FLOAT or " : "") +
                                DTypeName(like) + " like " + like_param + ", got " +
                                DTypeName(got));
}
// A FLOAT statistic (rstd, dgamma): 161002 otherwise, naming v.
Status CheckFloatDType(const char* op, const Item& v) {
  if (v.view->dtype == DType::kFloat32) return Status::Ok();
  return core::InvalidParam(op, v.param,
                            std::string("dtype: expected FLOAT, got ") + DTypeName(v.view->dtype));
}
// What a per-row tensor of the wrong size is told (its status is the caller's: the op_api's
// 161002 or the tiling's 561002).
std::string OnePerRow(int64_t rows, const std::vector<int64_t>& shape) {
  return "must hold one element per row: " + std::to_string(rows) + " elements, got " +
         core::ShapeString(shape);
}

// Whether a view's elements lie in row-major order from its first (dims of 1 aside): strides
// the view's effective ones.
bool RowMajor(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides) {
  int64_t expect = 1;
  for (size_t i = shape.size(); i-- > 0;) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

// GroupNorm's and its gradient's groups: group > 0 dividing C (161002).
Status CheckGroups(const char* op, int64_t c, int64_t group) {
  if (group <= 0) {
    return core::InvalidParam(op, "group", "must be > 0, got " + std::to_string(group));
  }
  if (c % group != 0) {
    return core::InvalidParam(op, "group",
                              std::to_string(group) + " must divide C = " + std::to_string(c));
  }
  return Status::Ok();
}

// What CANN's RmsNorm tiling refuses (561002), in its words' order.
Status TilingRefuses(const char* op, const char* param, const std::string& what) {
  return Status::InnerTiling(std::string(op) + ": " + param + " " + what);
}

// The generated norms' first tiling check: x and gamma of 1 to 8 dims.
Status CheckTilingRanks(const char* op, const Item& x, const Item& gamma) {
  for (const Item* v : {&x, &gamma}) {
    const size_t r = v->view->shape.size();
    if (r < 1 || r > static_cast<size_t>(kMaxNormDims)) {
      return TilingRefuses(op, v->param,
                           "must have 1 to 8 dims, got " + std::to_string(r) + " (" +
                               core::ShapeString(v->view->shape) + ")");
    }
  }
  return Status::Ok();
}

// A generated entry point's first checks (AddLayerNorm, AddLayerNormGrad): every tensor but
// `optional` given (161001, in the prototype's order), then each one given FLOAT, FLOAT16 or
// BFLOAT16 (161002).
Status CheckGeneratedOperands(const char* op, std::initializer_list<const Item*> all,
                              const Item* optional) {
  for (const Item* v : all) {
    if (v != optional && !v->given()) {
      return Status::Nullptr(std::string(op) + ": " + v->param + " is null");
    }
  }
  for (const Item* v : all) {
    if (v->given()) {
      HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
    }
  }
  return Status::Ok();
}

// RmsNorm (no aclIntArray: the normalised dims are gamma's). CANN generates its entry point
// from the kernel's definition: nulls (161001) and the five dtype combinations (161002) are
// checked there, the shapes (no empty tensor: the A2 tiling refuses a zero dim) and epsilon
// by its A2 tiling (561002).
Status PrepareRmsNormChecked(const OpArgs& args, const tiling::Options& options,
                             uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item x{info.in_names[0], args.in[0], {}}, gamma{info.in_names[1], args.in[1], {}};
  Item y{info.out_names[0], args.out[0], {}}, rstd{info.out_names[1], args.out[1], {}};
  Item* all[] = {&x, &gamma, &y, &rstd};

  // 1. Null tensors, in the prototype's order: every one is required.
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, all));
  // 2. Dtypes: each FLOAT, FLOAT16 or BFLOAT16, then one of the definition's combinations:
  // gamma FLOAT or x's, yOut x's, rstdOut FLOAT.
  for (const Item* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
  }
  const DType xt = x.view->dtype;
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, gamma, xt, x.param, true));
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, y, xt, x.param, false));
  HOSTNN_RETURN_IF_ERROR(CheckFloatDType(op, rstd));
  for (const Item* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));

  // 3. The tiling's shape checks: x and gamma of 1 to 8 dims, gamma no more than x, yOut as
  // many as x; gamma not empty and equal to x's last dims; x not empty, yOut's dims x's; each
  // of rstdOut's dims 1 or x's, not 0 (as many as x at most); then epsilon >= 0.
  const std::vector<int64_t>&xs = x.view->shape, &gs = gamma.view->shape, &ys = y.view->shape,
        &rs = rstd.view->shape;
  HOSTNN_RETURN_IF_ERROR(CheckTilingRanks(op, x, gamma));
  HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, y.param, *y.view, kMaxNormDims));
  HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, rstd.param, *rstd.view, kMaxNormDims));
  for (const Item* v : {&x, &gamma}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  if (gs.size() > xs.size()) {
    return TilingRefuses(
        op, gamma.param,
        "has " + std::to_string(gs.size()) + " dims, more than x's " + std::to_string(xs.size()));
  }
  if (ys.size() != xs.size()) {
    return TilingRefuses(
        op, y.param, "shape " + core::ShapeString(ys) + ": expected x's " + core::ShapeString(xs));
  }
  const size_t begin = xs.size() - gs.size();
  for (size_t i = 0; i < gs.size(); ++i) {
    if (gs[i] == 0) {
      return TilingRefuses(op, gamma.param, "must not be empty, got " + core::ShapeString(gs));
    }
    if (gs[i] != xs[begin + i]) {
      return TilingRefuses(op, gamma.param,
                           "shape " + core::ShapeString(gs) + ": expected x's last " +
                               std::to_string(gs.size()) + " dims (x " + core::ShapeString(xs) +
                               ")");
    }
  }
  for (size_t i = 0; i < xs.size(); ++i) {
    if (xs[i] == 0) {
      return TilingRefuses(op, x.param, "must not be empty, got " + core::ShapeString(xs));
    }
  }
  if (ys != xs) {
    return TilingRefuses(
        op, y.param, "shape " + core::ShapeString(ys) + ": expected x's " + core::ShapeString(xs));
  }
  if (rs.size() > xs.size()) {
    return TilingRefuses(
        op, rstd.param,
        "shape " + core::ShapeString(rs) + ": at most x's " + std::to_string(xs.size()) + " dims");
  }
  for (size_t i = 0; i < rs.size(); ++i) {
    if (rs[i] == 0 || (rs[i] != 1 && rs[i] != xs[i])) {
      return TilingRefuses(op, rstd.param,
                           "shape " + core::ShapeString(rs) + ": dim " + std::to_string(i) +
                               " must be 1 or x's " + std::to_string(xs[i]) + " (x " +
                               core::ShapeString(xs) + ")");
    }
  }
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // epsilon
  if (o.numbers[0] < 0.0f) {
    return TilingRefuses(op, "epsilon", "must be >= 0, got " + std::to_string(o.numbers[0]));
  }

  // 4. The rows: rows x cols, cols gamma's element count (x has no empty dim); rstdOut
  // holds one element per row, as the kernel writes one.
  const int64_t rows = core::CheckedNumel(std::vector<int64_t>(xs.begin(), xs.begin() + begin));
  const int64_t cols = core::CheckedNumel(gs);
  if (rows < 0 || cols < 0) {
    return core::InvalidParam(op, x.param, "has more rows or columns than int64 holds");
  }
  if (core::CheckedNumel(rs) != rows) {
    return TilingRefuses(op, rstd.param, OnePerRow(rows, rs));
  }

  // 5. Storage and overlap.
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {&x, &gamma}, {&y, &rstd}));
  o.rows_in[0] = {x.view, &x.span};
  o.y = {y.view, &y.span};
  o.cols_in[0] = {gamma.view, &gamma.span};
  o.norm_inputs.param_dtype = gamma.view->dtype;  // the mixed ladder for f32 gamma
  o.stats[0] = {rstd.view, &rstd.span};
  o.rows = rows;
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// RmsNormGrad (dy, x, rstd, gamma -> dxOut, dgammaOut), generated from its kernel's
// definition like RmsNorm: nulls (161001) and the five dtype combinations (161002) there, the
// shapes by its A2 tiling (CheckInputShape4RmsNormGrad, 561002), which also refuses an empty
// dy and an rstd of another element count than the rows.
Status PrepareRmsNormGradChecked(const OpArgs& args, const tiling::Options& options,
                                 uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item dy{info.in_names[0], args.in[0], {}}, x{info.in_names[1], args.in[1], {}},
      rstd{info.in_names[2], args.in[2], {}}, gamma{info.in_names[3], args.in[3], {}};
  Item dx{info.out_names[0], args.out[0], {}}, dgamma{info.out_names[1], args.out[1], {}};
  Item* all[] = {&dy, &x, &rstd, &gamma, &dx, &dgamma};

  // 1. Null tensors, in the prototype's order: every one is required.
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, all));
  // 2. Dtypes: each FLOAT, FLOAT16 or BFLOAT16, then one of the definition's combinations:
  // x and dxOut dy's, gamma FLOAT or dy's, rstd and dgammaOut FLOAT.
  for (const Item* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
  }
  const DType t = dy.view->dtype;
  for (const Item* v : {&x, &dx})
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, t, dy.param, false));
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, gamma, t, dy.param, true));
  for (const Item* v : {&rstd, &dgamma}) HOSTNN_RETURN_IF_ERROR(CheckFloatDType(op, *v));
  for (const Item* v : all) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));

  // 3. The tiling's shape checks, in its order: x and gamma of 1 to 8 dims, gamma no more
  // than x, dy as many as x; dxOut as many as dy, dgammaOut as many as gamma; dy's dims x's
  // and dxOut's dy's, dy's last not 0; rstd's dims x's leading ones (fewer dims: the leading
  // dims it lacks 1); gamma's and dgammaOut's dims dy's last.
  const std::vector<int64_t>&dys = dy.view->shape, &xs = x.view->shape, &rs = rstd.view->shape,
        &gs = gamma.view->shape, &dxs = dx.view->shape, &dgs = dgamma.view->shape;
  HOSTNN_RETURN_IF_ERROR(CheckTilingRanks(op, x, gamma));
  for (const Item* v : all) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const auto rank_mismatch = [&](const Item& a, const Item& b) {
    return TilingRefuses(op, a.param,
                         "has " + std::to_string(a.view->shape.size()) + " dims, " + b.param + " " +
                             std::to_string(b.view->shape.size()) + ": they must be as many");
  };
  if (gs.size() > xs.size()) {
    return TilingRefuses(
        op, gamma.param,
        "has " + std::to_string(gs.size()) + " dims, more than x's " + std::to_string(xs.size()));
  }
  if (dys.size() != xs.size()) return rank_mismatch(dy, x);
  if (dxs.size() != dys.size()) return rank_mismatch(dx, dy);
  if (dgs.size() != gs.size()) return rank_mismatch(dgamma, gamma);
  for (const Item* v : {&x, &dx}) {
    if (v->view->shape != dys) {
      return TilingRefuses(op, v->param,
                           "shape " + core::ShapeString(v->view->shape) + ": expected dy's " +
                               core::ShapeString(dys));
    }
  }
  if (dys.back() == 0) {
    return TilingRefuses(op, dy.param, "last dim must not be 0, got " + core::ShapeString(dys));
  }
  const size_t lead = xs.size() - gs.size();
  const size_t checked = std::min(rs.size(), lead);
  for (size_t i = 0; i < lead; ++i) {
    const bool bad = i < checked ? rs[i] != xs[i] : xs[i] != 1;
    if (bad) {
      return TilingRefuses(op, rstd.param,
                           "shape " + core::ShapeString(rs) + ": its first dims must be x's " +
                               std::to_string(lead) + " leading dims (x " + core::ShapeString(xs) +
                               ", gamma " + core::ShapeString(gs) + ")");
    }
  }
  for (const Item* v : {&gamma, &dgamma}) {
    for (size_t i = 0; i < gs.size(); ++i) {
      if (v->view->shape[i] != dys[lead + i]) {
        return TilingRefuses(op, v->param,
                             "shape " + core::ShapeString(v->view->shape) +
                                 ": expected dy's last " + std::to_string(gs.size()) +
                                 " dims (dy " + core::ShapeString(dys) + ")");
      }
    }
  }

  // 4. The rows: rows x cols, cols gamma's element count. No row: refused (the A2 tiling
  // takes no empty dy); rstd holds one element per row.
  const int64_t rows = core::CheckedNumel(std::vector<int64_t>(xs.begin(), xs.begin() + lead));
  const int64_t cols = core::CheckedNumel(gs);
  if (rows < 0 || cols < 0) {
    return core::InvalidParam(op, x.param, "has more rows or columns than int64 holds");
  }
  if (rows == 0) {
    return TilingRefuses(op, dy.param, "must not be empty, got " + core::ShapeString(dys));
  }
  if (core::CheckedNumel(rs) != rows) {
    return TilingRefuses(op, rstd.param, OnePerRow(rows, rs));
  }

  // 5. Storage and overlap.
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {&dy, &x, &rstd, &gamma}, {&dx, &dgamma}));
  exec::NormRowsOperands o;
  o.rows_in[0] = {dy.view, &dy.span};
  o.rows_in[1] = {x.view, &x.span};
  o.y = {dx.view, &dx.span};
  o.row_in[0] = {rstd.view, &rstd.span};
  o.cols_in[0] = {gamma.view, &gamma.span};
  o.norm_inputs.param_dtype = gamma.view->dtype;
  o.col_sums[0] = {dgamma.view, &dgamma.span};
  o.rows = rows;
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// AddRmsNorm (x1, x2, gamma -> yOut, rstdOut, xOut) in the order of its op_api (norm/
// add_rms_norm/op_host/op_api/aclnn_add_rms_norm.cpp), then of its A2 tiling (561002); and
// InplaceAddRmsNorm (x1Ref, x2Ref, gamma -> rstdOut; x1Ref takes yOut, x2Ref xOut), which CANN
// generates from the kernel's definition (every tensor required: 161001; the three dtype
// combinations: 161002) and tiles alike. The op_api's mode is which outputs are given: both
// rstdOut and xOut (0), xOut alone (1, "pre"), neither (2, "post"); modes 1 and 2 take 16-bit
// dtypes only and a gamma of [1, x1's last dim], which the tiling reads as one row of it.
Status PrepareAddRmsNormChecked(const OpArgs& args, const tiling::Options& options,
                                uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  const bool inplace = IsInplace(info.signature);
  Item x1{info.in_names[0], args.in[0], {}}, x2{info.in_names[1], args.in[1], {}},
      gamma{info.in_names[2], args.in[2], {}};
  // In place, x1Ref takes yOut and x2Ref xOut, whatever OpArgs::out says.
  Item y{info.out_names[0], inplace ? args.in[0] : args.out[0], {}},
      rstd{info.out_names[1], args.out[1], {}},
      x_out{info.out_names[2], inplace ? args.in[1] : args.out[2], {}};
  const auto null = [op](const Item& v) {
    return Status::Nullptr(std::string(op) + ": " + v.param + " is null");
  };

  // 1. Null tensors: the inputs and yOut, then what the mode asks for (InplaceAddRmsNorm:
  // its four tensors, in the prototype's order).
  const int mode = rstd.given() ? 0 : x_out.given() ? 1 : 2;
  if (inplace) {
    for (const Item* v : {&x1, &x2, &gamma, &rstd}) {
      if (!v->given()) return null(*v);
    }
  } else {
    for (const Item* v : {&x1, &x2, &gamma, &y}) {
      if (!v->given()) return null(*v);
    }
    if (mode == 0 && !x_out.given()) {
      return Status::Nullptr(std::string(op) + ": xOut is null where rstdOut is given");
    }
  }

  // 2. Dtypes: x1, x2, gamma in the mode's list (FLOAT, FLOAT16, BFLOAT16; the 16-bit ones
  // without rstdOut), x2 and gamma x1's; yOut in the list and x1's; xOut in the list and
  // yOut's; rstdOut FLOAT.
  const auto in_list = [&](const Item& v) {
    const DType t = v.view->dtype;
    if (mode != 0 && t == DType::kFloat32) {
      return core::InvalidParam(op, v.param,
                                "dtype FLOAT asks for rstdOut and xOut (without rstdOut: FLOAT16 "
                                "or BFLOAT16)");
    }
    return core::CheckDType(op, v.param, t, kNormTypes);
  };
  for (const Item* v : {&x1, &x2, &gamma}) HOSTNN_RETURN_IF_ERROR(in_list(*v));
  const DType xt = x1.view->dtype;
  for (const Item* v : {&x2, &gamma}) {
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, xt, x1.param, false));
  }
  if (!inplace) {
    HOSTNN_RETURN_IF_ERROR(in_list(y));
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, y, xt, x1.param, false));
    if (x_out.given()) {
      HOSTNN_RETURN_IF_ERROR(in_list(x_out));
      HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, x_out, y.view->dtype, y.param, false));
    }
  }
  if (rstd.given()) HOSTNN_RETURN_IF_ERROR(CheckFloatDType(op, rstd));
  Item* all[] = {&x1, &x2, &gamma, &y, &rstd, &x_out};
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }

  // 3. The op_api's shapes: x1, x2, gamma of 1 to 8 dims, x2 x1's shape; yOut and xOut x1's
  // shape (each output at most 8 dims); gamma at most 2 dims in modes 1 and 2.
  // InplaceAddRmsNorm: the tiling's ranks (561002) instead.
  const std::vector<int64_t>&xs = x1.view->shape, &gs = gamma.view->shape;
  const auto not_like_x1 = [&](const Item& v) {
    return "shape " + core::ShapeString(v.view->shape) + ": expected " + x1.param + "'s " +
           core::ShapeString(xs);
  };
  if (inplace) HOSTNN_RETURN_IF_ERROR(CheckTilingRanks(op, x1, gamma));
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  for (const Item* v : {&x1, &x2, &gamma}) {
    if (!inplace && v->view->shape.empty()) {
      return core::InvalidParam(op, v->param, "must have 1 to 8 dims, got 0");
    }
  }
  for (const Item* v : {&x2, &y, &x_out}) {
    if (!inplace && v->given() && v->view->shape != xs) {
      return core::InvalidParam(op, v->param, not_like_x1(*v));
    }
  }
  if (mode != 0 && gs.size() > 2) {
    return core::InvalidParam(
        op, gamma.param, "must have at most 2 dims without rstdOut, got " + core::ShapeString(gs));
  }

  // 4. An empty x1 or gamma: success, nothing runs (the op_api's; InplaceAddRmsNorm's tiling
  // refuses an empty x1, and so a gamma of its dims).
  const int64_t numel = core::CheckedNumel(xs), gamma_numel = core::CheckedNumel(gs);
  if (numel < 0 || gamma_numel < 0) {
    return core::InvalidParam(op, x1.param, "has more elements than int64 holds");
  }
  if (!inplace && (numel == 0 || gamma_numel == 0)) {
    return PrepareEmpty(args.op, xt, workspace_size, executor);
  }

  // 5. The tiling's checks: mode 0, gamma no more dims than x1, rstdOut as many as x1; modes
  // 1 and 2, gamma of 2 dims; x1 not empty; mode 0, rstdOut's first dims x1's leading ones,
  // gamma x1's last dims and rstdOut's last dims 1; modes 1 and 2, gamma [1, x1's last
  // dim]; then epsilon >= 0.
  const std::vector<int64_t>& rs = rstd.given() ? rstd.view->shape : xs;
  if (mode == 0 && gs.size() > xs.size()) {
    return TilingRefuses(op, gamma.param,
                         "has " + std::to_string(gs.size()) + " dims, more than " + x1.param +
                             "'s " + std::to_string(xs.size()));
  }
  if (mode != 0 && gs.size() != 2) {
    return TilingRefuses(op, gamma.param,
                         "must have 2 dims ([1, " + std::string(x1.param) +
                             "'s last dim]) without rstdOut, got " + core::ShapeString(gs));
  }
  if (mode == 0 && rs.size() != xs.size()) {
    return TilingRefuses(op, rstd.param,
                         "shape " + core::ShapeString(rs) + ": expected " +
                             std::to_string(xs.size()) + " dims like " + x1.param);
  }
  if (numel == 0) {
    return TilingRefuses(op, x1.param, "must not be empty, got " + core::ShapeString(xs));
  }
  if (x2.view->shape != xs) return TilingRefuses(op, x2.param, not_like_x1(x2));
  const size_t lead = mode == 0 ? xs.size() - gs.size() : xs.size() - 1;
  if (mode == 0) {
    for (size_t i = 0; i < gs.size(); ++i) {
      if (gs[i] != xs[lead + i]) {
        return TilingRefuses(op, gamma.param,
                             "shape " + core::ShapeString(gs) + ": expected " + x1.param +
                                 "'s last " + std::to_string(gs.size()) + " dims (" + x1.param +
                                 " " + core::ShapeString(xs) + ")");
      }
    }
    for (size_t i = 0; i < rs.size(); ++i) {
      if (rs[i] != (i < lead ? xs[i] : 1)) {
        return TilingRefuses(op, rstd.param,
                             "shape " + core::ShapeString(rs) + ": expected " + x1.param +
                                 "'s first " + std::to_string(lead) +
                                 " dims, then 1 for each normalised dim (" + x1.param + " " +
                                 core::ShapeString(xs) + ", gamma " + core::ShapeString(gs) + ")");
      }
    }
  } else if (gs[0] != 1 || gs[1] != xs.back()) {
    return TilingRefuses(op, gamma.param,
                         "shape " + core::ShapeString(gs) + ": expected [1, " +
                             std::to_string(xs.back()) + "] without rstdOut");
  }
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // epsilon
  if (o.numbers[0] < 0.0f) {
    return TilingRefuses(op, "epsilon", "must be >= 0, got " + std::to_string(o.numbers[0]));
  }

  // 6. The rows: x1's leading dims by cols, the normalised dims' product; storage and overlap
  // (an output may be an input exactly: InplaceAddRmsNorm's are).
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {&x1, &x2, &gamma}, {&y, &rstd, &x_out}));
  o.rows_in[0] = {x1.view, &x1.span};
  o.rows_in[1] = {x2.view, &x2.span};
  o.y = {y.view, &y.span};
  if (x_out.given()) o.y2 = {x_out.view, &x_out.span};
  o.cols_in[0] = {gamma.view, &gamma.span};
  if (rstd.given()) o.stats[0] = {rstd.view, &rstd.span};
  o.rows = core::CheckedNumel(std::vector<int64_t>(xs.begin(), xs.begin() + lead));
  o.cols = numel / o.rows;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// AddLayerNorm (x1, x2, gamma, beta, biasOptional -> yOut, meanOut, rstdOut, xOut), which
// CANN generates from its kernel's definition (norm/add_layer_norm/op_host/
// add_layer_norm_def.cpp: every tensor but the bias required, 161001; its nine dtype
// combinations, 161002) and checks by its A2 tiling (add_layer_norm_tiling.cpp,
// CheckInputShape4AddLayerNorm, 561002), which takes no empty tensor. xOut is checked always
// and written where additionalOutput is true.
Status PrepareAddLayerNormChecked(const OpArgs& args, const tiling::Options& options,
                                  uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item x1{info.in_names[0], args.in[0], {}}, x2{info.in_names[1], args.in[1], {}},
      gamma{info.in_names[2], args.in[2], {}}, beta{info.in_names[3], args.in[3], {}},
      bias{info.in_names[4], args.in[4], {}};
  Item y{info.out_names[0], args.out[0], {}}, mean{info.out_names[1], args.out[1], {}},
      rstd{info.out_names[2], args.out[2], {}}, x_out{info.out_names[3], args.out[3], {}};
  Item* all[] = {&x1, &x2, &gamma, &beta, &bias, &y, &mean, &rstd, &x_out};

  // 1. Null tensors, in the prototype's order: all but biasOptional required. 2. Dtypes: each
  // FLOAT, FLOAT16 or BFLOAT16, then one of the definition's combinations: x2 x1's, or either
  // of them FLOAT (the compute dtype t then FLOAT, else x1's); gamma FLOAT or t, beta gamma's;
  // biasOptional, yOut and xOut t; meanOut and rstdOut FLOAT.
  HOSTNN_RETURN_IF_ERROR(CheckGeneratedOperands(
      op, {&x1, &x2, &gamma, &beta, &bias, &y, &mean, &rstd, &x_out}, &bias));
  const DType t1 = x1.view->dtype, t2 = x2.view->dtype;
  if (t1 != t2 && t1 != DType::kFloat32 && t2 != DType::kFloat32) {
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, x2, t1, x1.param, true));
  }
  const DType t = t1 == t2 ? t1 : DType::kFloat32;
  const char* t_of = t1 == t2 ? x1.param : "x1 and x2 (FLOAT where they differ)";
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, gamma, t, t_of, true));
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, beta, gamma.view->dtype, gamma.param, false));
  for (const Item* v : {&bias, &y, &x_out}) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, t, t_of, false));
  }
  for (const Item* v : {&mean, &rstd}) HOSTNN_RETURN_IF_ERROR(CheckFloatDType(op, *v));
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }

  // 3. The tiling's shape checks, in its order: x1 and gamma of 1 to 8 dims; x2, yOut, xOut,
  // meanOut and rstdOut as many as x1, beta at least 1, gamma no more than x1; x2, yOut and
  // xOut x1's shape, beta gamma's, rstdOut meanOut's; gamma x1's last dims, meanOut x1's
  // leading dims then 1s; x1 not empty (nor gamma and meanOut, then).
  const std::vector<int64_t>&xs = x1.view->shape, &gs = gamma.view->shape, &ms = mean.view->shape;
  HOSTNN_RETURN_IF_ERROR(CheckTilingRanks(op, x1, gamma));
  for (const Item* v : {&x2, &y, &x_out, &mean, &rstd}) {
    if (v->view->shape.size() != xs.size()) {
      return TilingRefuses(op, v->param,
                           "has " + std::to_string(v->view->shape.size()) + " dims, " + x1.param +
                               " " + std::to_string(xs.size()) + ": they must be as many");
    }
  }
  if (beta.view->shape.empty()) {
    return TilingRefuses(op, beta.param, "must have at least 1 dim, got 0");
  }
  if (gs.size() > xs.size()) {
    return TilingRefuses(op, gamma.param,
                         "has " + std::to_string(gs.size()) + " dims, more than " + x1.param +
                             "'s " + std::to_string(xs.size()));
  }
  const auto unlike = [&](const Item& v, const Item& like) {
    return TilingRefuses(op, v.param,
                         "shape " + core::ShapeString(v.view->shape) + ": expected " + like.param +
                             "'s " + core::ShapeString(like.view->shape));
  };
  for (const Item* v : {&x2, &y, &x_out}) {
    if (v->view->shape != xs) return unlike(*v, x1);
  }
  if (beta.view->shape != gs) return unlike(beta, gamma);
  if (rstd.view->shape != ms) return unlike(rstd, mean);
  const size_t lead = xs.size() - gs.size();
  for (size_t i = 0; i < gs.size(); ++i) {
    if (gs[i] != xs[lead + i]) {
      return TilingRefuses(op, gamma.param,
                           "shape " + core::ShapeString(gs) + ": expected " + x1.param +
                               "'s last " + std::to_string(gs.size()) + " dims (" + x1.param + " " +
                               core::ShapeString(xs) + ")");
    }
  }
  for (size_t i = 0; i < ms.size(); ++i) {
    if (ms[i] != (i < lead ? xs[i] : 1)) {
      return TilingRefuses(op, mean.param,
                           "shape " + core::ShapeString(ms) + ": expected " + x1.param +
                               "'s first " + std::to_string(lead) +
                               " dims, then 1 for each normalised dim (" + x1.param + " " +
                               core::ShapeString(xs) + ", gamma " + core::ShapeString(gs) + ")");
    }
  }
  const int64_t numel = core::CheckedNumel(xs);
  if (numel < 0) return core::InvalidParam(op, x1.param, "has more elements than int64 holds");
  if (numel == 0) {
    return TilingRefuses(op, x1.param, "must not be empty, got " + core::ShapeString(xs));
  }

  // 4. hostnn's: the bias of gamma's shape (per column) or x1's (per element), as the kernel
  // reads it (the tiling tells them apart by element count alone).
  const bool bias_per_column = bias.given() && bias.view->shape == gs;
  if (bias.given() && !bias_per_column && bias.view->shape != xs) {
    return TilingRefuses(op, bias.param,
                         "shape " + core::ShapeString(bias.view->shape) + ": expected gamma's " +
                             core::ShapeString(gs) + " or " + x1.param + "'s " +
                             core::ShapeString(xs));
  }

  // 5. The rows: x1's leading dims by gamma's element count; storage and overlap (an output
  // may be an input exactly).
  HOSTNN_RETURN_IF_ERROR(
      CheckNormStorage(op, {&x1, &x2, &gamma, &beta, &bias}, {&y, &mean, &rstd, &x_out}));
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // epsilon, additionalOutput
  o.rows_in[0] = {x1.view, &x1.span};
  o.rows_in[1] = {x2.view, &x2.span};
  if (bias.given() && !bias_per_column) o.rows_in[2] = {bias.view, &bias.span};
  o.y = {y.view, &y.span};
  if (o.numbers[1] != 0.0f) o.y2 = {x_out.view, &x_out.span};
  o.cols_in[0] = {gamma.view, &gamma.span};
  o.cols_in[1] = {beta.view, &beta.span};
  if (bias_per_column) o.cols_in[2] = {bias.view, &bias.span};
  // The tiling's view: the compute dtype t, gamma's dtype, a bias of x1's element count (else
  // one row, whatever hostnn's kernel reads it as) and additionalOutput.
  o.plan_dtype = t;
  o.norm_inputs.param_dtype = gamma.view->dtype;
  o.norm_inputs.bias = !bias.given()                                   ? tiling::NormBias::kNone
                       : core::CheckedNumel(bias.view->shape) == numel ? tiling::NormBias::kFull
                                                                       : tiling::NormBias::kRow;
  o.norm_inputs.additional_output = o.numbers[1] != 0.0f;
  o.stats[0] = {mean.view, &mean.span};
  o.stats[1] = {rstd.view, &rstd.span};
  o.rows = core::CheckedNumel(std::vector<int64_t>(xs.begin(), xs.begin() + lead));
  o.cols = numel / o.rows;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// AddLayerNormGrad (dy, x1, x2, rstd, mean, gamma, dsumOptional -> dxOut, dgammaOut,
// dbetaOut), generated from its kernel's definition (norm/add_layer_norm_grad/op_host/
// add_layer_norm_grad_def.cpp: every tensor but dsum required, 161001; three combinations,
// 161002) and checked by its A2 tiling (add_layer_norm_grad_tiling.cpp, BasicCheck and
// CheckInputOutputShape, 561002), which takes no empty tensor.
Status PrepareAddLayerNormGradChecked(const OpArgs& args, const tiling::Options& options,
                                      uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item dy{info.in_names[0], args.in[0], {}}, x1{info.in_names[1], args.in[1], {}},
      x2{info.in_names[2], args.in[2], {}}, rstd{info.in_names[3], args.in[3], {}},
      mean{info.in_names[4], args.in[4], {}}, gamma{info.in_names[5], args.in[5], {}},
      dsum{info.in_names[6], args.in[6], {}};
  Item dx{info.out_names[0], args.out[0], {}}, dgamma{info.out_names[1], args.out[1], {}},
      dbeta{info.out_names[2], args.out[2], {}};
  Item* all[] = {&dy, &x1, &x2, &rstd, &mean, &gamma, &dsum, &dx, &dgamma, &dbeta};

  // 1. Null tensors, in the prototype's order: all but dsumOptional required. 2. Dtypes: each
  // FLOAT, FLOAT16 or BFLOAT16, then one of the definition's combinations: x1, x2, gamma,
  // dsumOptional and dxOut dy's; rstd, mean, dgammaOut and dbetaOut FLOAT.
  HOSTNN_RETURN_IF_ERROR(CheckGeneratedOperands(
      op, {&dy, &x1, &x2, &rstd, &mean, &gamma, &dsum, &dx, &dgamma, &dbeta}, &dsum));
  for (const Item* v : {&x1, &x2, &gamma, &dsum, &dx}) {
    if (v->given()) {
      HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, dy.view->dtype, dy.param, false));
    }
  }
  for (const Item* v : {&rstd, &mean, &dgamma, &dbeta}) {
    HOSTNN_RETURN_IF_ERROR(CheckFloatDType(op, *v));
  }
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }

  // 3. The tiling's checks, in its order: gamma not empty; x1 and gamma of 1 to 8 dims; rstd
  // and mean as many dims as dy, dgammaOut and dbetaOut as gamma, gamma no more than dy; x1
  // and mean not empty; x1, x2 and dxOut dy's shape, rstd mean's; gamma dy's last dims and
  // mean dy's leading dims then 1s; dgammaOut and dbetaOut dy's last dims.
  const std::vector<int64_t>&dys = dy.view->shape, &gs = gamma.view->shape, &ms = mean.view->shape;
  const int64_t cols = core::CheckedNumel(gs);
  if (cols == 0) {
    return TilingRefuses(op, gamma.param, "must not be empty, got " + core::ShapeString(gs));
  }
  HOSTNN_RETURN_IF_ERROR(CheckTilingRanks(op, x1, gamma));
  const auto rank_mismatch = [&](const Item& a, const Item& b) {
    return TilingRefuses(op, a.param,
                         "has " + std::to_string(a.view->shape.size()) + " dims, " + b.param + " " +
                             std::to_string(b.view->shape.size()) + ": they must be as many");
  };
  for (const Item* v : {&rstd, &mean}) {
    if (v->view->shape.size() != dys.size()) return rank_mismatch(*v, dy);
  }
  for (const Item* v : {&dgamma, &dbeta}) {
    if (v->view->shape.size() != gs.size()) return rank_mismatch(*v, gamma);
  }
  if (dys.size() < gs.size()) {
    return TilingRefuses(
        op, gamma.param,
        "has " + std::to_string(gs.size()) + " dims, more than dy's " + std::to_string(dys.size()));
  }
  for (const Item* v : {&x1, &mean}) {
    if (core::CheckedNumel(v->view->shape) == 0) {
      return TilingRefuses(op, v->param,
                           "must not be empty, got " + core::ShapeString(v->view->shape));
    }
  }
  for (const Item* v : {&x1, &x2, &dx, &rstd}) {
    const Item& like = v == &rstd ? mean : dy;
    if (v->view->shape != like.view->shape) {
      return TilingRefuses(op, v->param,
                           "shape " + core::ShapeString(v->view->shape) + ": expected " +
                               like.param + "'s " + core::ShapeString(like.view->shape));
    }
  }
  const size_t lead = dys.size() - gs.size();
  for (const Item* v : {&gamma, &dgamma, &dbeta}) {
    for (size_t i = 0; i < gs.size(); ++i) {
      if (v->view->shape[i] != dys[lead + i]) {
        return TilingRefuses(op, v->param,
                             "shape " + core::ShapeString(v->view->shape) +
                                 ": expected dy's last " + std::to_string(gs.size()) +
                                 " dims (dy " + core::ShapeString(dys) + ")");
      }
    }
    if (v != &gamma) continue;
    for (size_t i = 0; i < ms.size(); ++i) {
      if (ms[i] != (i < lead ? dys[i] : 1)) {
        return TilingRefuses(op, mean.param,
                             "shape " + core::ShapeString(ms) + ": expected dy's first " +
                                 std::to_string(lead) +
                                 " dims, then 1 for each normalised dim (dy " +
                                 core::ShapeString(dys) + ", gamma " + core::ShapeString(gs) + ")");
      }
    }
  }

  // 4. hostnn's: dsumOptional of dy's shape, as the kernel reads it (the tiling does not
  // check it).
  if (dsum.given() && dsum.view->shape != dys) {
    return TilingRefuses(op, dsum.param,
                         "shape " + core::ShapeString(dsum.view->shape) + ": expected dy's " +
                             core::ShapeString(dys));
  }

  // 5. The rows: dy's leading dims by gamma's element count; storage and overlap (dxOut may
  // be an input of its shape exactly).
  HOSTNN_RETURN_IF_ERROR(
      CheckNormStorage(op, {&dy, &x1, &x2, &rstd, &mean, &gamma, &dsum}, {&dx, &dgamma, &dbeta}));
  exec::NormRowsOperands o;
  o.rows_in[0] = {dy.view, &dy.span};
  o.rows_in[1] = {x1.view, &x1.span};
  o.rows_in[2] = {x2.view, &x2.span};
  if (dsum.given()) o.rows_in[3] = {dsum.view, &dsum.span};
  o.norm_inputs.dsum = dsum.given();
  o.y = {dx.view, &dx.span};
  o.row_in[0] = {mean.view, &mean.span};
  o.row_in[1] = {rstd.view, &rstd.span};
  o.cols_in[0] = {gamma.view, &gamma.span};
  o.col_sums[0] = {dgamma.view, &dgamma.span};
  o.col_sums[1] = {dbeta.view, &dbeta.span};
  o.rows = core::CheckedNumel(std::vector<int64_t>(dys.begin(), dys.begin() + lead));
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// GroupNorm (self, gamma, beta -> out, meanOut, rstdOut) in the order of its op_api
// (norm/group_norm/op_host/op_api/aclnn_group_norm.cpp): nulls, dtypes, the attributes, the
// shapes, the formats (161001, 161002); then an empty self fills meanOut with 0 and rstdOut
// with NaN, as the op_api does.
Status PrepareGroupNormChecked(const OpArgs& args, const tiling::Options& options,
                               uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item self{info.in_names[0], args.in[0], {}}, gamma{info.in_names[1], args.in[1], {}},
      beta{info.in_names[2], args.in[2], {}};
  Item out{info.out_names[0], args.out[0], {}}, mean{info.out_names[1], args.out[1], {}},
      rstd{info.out_names[2], args.out[2], {}};
  Item* all[] = {&self, &gamma, &beta, &out, &mean, &rstd};

  // 1. Null tensors: self, out, meanOut, rstdOut (gamma and beta are optional: 1 and 0).
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&self, &out, &mean, &rstd}));
  // 2. Dtypes: self FLOAT, FLOAT16 or BFLOAT16; every other tensor given self's.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, self.param, self.view->dtype, kNormTypes));
  for (const Item* v : {&gamma, &beta, &out, &mean, &rstd}) {
    if (v->given()) {
      HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, self.view->dtype, self.param, false));
    }
  }
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }

  // 3. The attributes: group > 0 dividing C, eps > 0 (as the double it is given).
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // N, C, HxW, group; eps
  const int64_t n = o.exact[0], c = o.exact[1], hxw = o.exact[2], group = o.exact[3];
  HOSTNN_RETURN_IF_ERROR(CheckGroups(op, c, group));
  const double eps = args.scalars[4].given ? args.scalars[4].value : info.scalars[4].default_value;
  if (!(eps > 0.0)) {
    return core::InvalidParam(op, "eps", "must be > 0, got " + std::to_string(eps));
  }

  // 4. Shapes: self of 2 to 8 dims, out self's shape, meanOut and rstdOut [N, group]; self's
  // dims N, C and then HxW elements; gamma and beta (given) of C elements in one dim.
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const std::vector<int64_t>& xs = self.view->shape;
  if (xs.size() < 2) {
    return core::InvalidParam(op, self.param,
                              "must have 2 to 8 dims ([N, C, ...]), got " + core::ShapeString(xs));
  }
  if (out.view->shape != xs) {
    return core::InvalidParam(op, out.param,
                              "shape " + core::ShapeString(out.view->shape) + ": expected " +
                                  self.param + "'s " + core::ShapeString(xs));
  }
  const std::vector<int64_t> stats_shape{n, group};
  for (const Item* v : {&mean, &rstd}) {
    if (v->view->shape != stats_shape) {
      return core::InvalidParam(op, v->param,
                                "shape " + core::ShapeString(v->view->shape) +
                                    ": expected [N, group] = " + core::ShapeString(stats_shape));
    }
  }
  const auto attr_unlike = [&](const char* name, const std::string& what) {
    return core::InvalidParam(op, name,
                              what + " (self " + core::ShapeString(xs) + ", N " +
                                  std::to_string(n) + ", C " + std::to_string(c) + ", HxW " +
                                  std::to_string(hxw) + ")");
  };
  if (xs[0] != n) return attr_unlike("N", "must be self's dim 0");
  if (xs[1] != c) return attr_unlike("C", "must be self's dim 1");
  const int64_t spatial = core::CheckedNumel(std::vector<int64_t>(xs.begin() + 2, xs.end()));
  if (spatial != hxw) return attr_unlike("HxW", "must be the element count of self's dims 2 on");
  for (const Item* v : {&gamma, &beta}) {
    if (v->given() && (v->view->shape.size() != 1 || v->view->shape[0] != c)) {
      return core::InvalidParam(op, v->param,
                                "shape " + core::ShapeString(v->view->shape) +
                                    ": expected one value per channel, [" + std::to_string(c) +
                                    "]");
    }
  }
  // 5. Formats: out self's; self not a private one nor channels-last (NHWC, HWCN, NDHWC).
  const int32_t format = self.view->format;
  if (out.view->format != format) {
    return core::InvalidParam(op, out.param,
                              std::string("format ") + core::FormatName(out.view->format) +
                                  ": expected self's " + core::FormatName(format));
  }
  constexpr int32_t kNHWC = 1, kHWCN = 16, kNDHWC = 27;  // aclFormat's values
  if (core::IsPrivateFormat(format) || format == kNHWC || format == kHWCN || format == kNDHWC) {
    return core::InvalidParam(
        op, self.param,
        std::string("format ") + core::FormatName(format) + ": expected ND, NCL, NCHW or NCDHW");
  }

  // 6. The rows: N * group rows of (C / group) channels by HxW elements; storage and overlap
  // (out may be self exactly). An empty self (no row, or rows of no element) runs the empty
  // executor: meanOut 0 and rstdOut NaN.
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {&self, &gamma, &beta}, {&out, &mean, &rstd}));
  o.rows_in[0] = {self.view, &self.span};
  o.y = {out.view, &out.span};
  if (gamma.given()) o.cols_in[0] = {gamma.view, &gamma.span};
  if (beta.given()) o.cols_in[1] = {beta.view, &beta.span};
  o.stats[0] = {mean.view, &mean.span};
  o.stats[1] = {rstd.view, &rstd.span};
  o.rows = core::CheckedNumel({n, group});
  o.cols = core::CheckedNumel({c / group, hxw});
  if (o.rows < 0 || o.cols < 0) {
    return core::InvalidParam(op, self.param, "has more rows or columns than int64 holds");
  }
  o.channel_len = hxw;
  o.groups = group;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// GroupNormBackward in the order of its op_api (norm/group_norm_grad/op_host/op_api/
// aclnn_group_norm_backward.cpp) on A2: nulls of the inputs (161001); outputMask and the
// outputs it asks for (161002, as the op_api returns it); dtypes; the attributes; the element
// counts and shapes. Then an empty gradOut or input succeeds writing nothing.
Status PrepareGroupNormBackwardChecked(const OpArgs& args, const tiling::Options& options,
                                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item dy{info.in_names[0], args.in[0], {}}, x{info.in_names[1], args.in[1], {}},
      mean{info.in_names[2], args.in[2], {}}, rstd{info.in_names[3], args.in[3], {}},
      gamma{info.in_names[4], args.in[4], {}};
  Item outs[3] = {{info.out_names[0], args.out[0], {}},
                  {info.out_names[1], args.out[1], {}},
                  {info.out_names[2], args.out[2], {}}};

  // 1. Null inputs (gamma may be null: 1).
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&dy, &x, &mean, &rstd}));
  // 2. outputMask: given, of 3 values; every output it asks for given (161002).
  bool wanted[3];
  HOSTNN_RETURN_IF_ERROR(ReadOutputMask(op, args, outs, false, wanted));
  // 3. Dtypes: gradOut FLOAT, FLOAT16 or BFLOAT16; input, mean, rstd, gamma and the outputs
  // asked for gradOut's.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, dy.param, dy.view->dtype, kNormTypes));
  for (const Item* v : {&x, &mean, &rstd, &gamma}) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, dy.view->dtype, dy.param, false));
  }
  for (int k = 0; k < 3; ++k) {
    if (wanted[k]) {
      HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, outs[k], dy.view->dtype, dy.param, false));
    }
  }
  Item* checked[] = {&dy, &x, &mean, &rstd, &gamma, &outs[0], &outs[1], &outs[2]};
  for (const Item* v : checked) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  // 4. The attributes: group > 0 dividing C; on A2 C / group <= 8000 and C <= 240000.
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // N, C, HxW, group
  const int64_t n = o.exact[0], c = o.exact[1], hxw = o.exact[2], group = o.exact[3];
  HOSTNN_RETURN_IF_ERROR(CheckGroups(op, c, group));
  if (c / group > 8000 || c > 240000) {
    return core::InvalidParam(op, "C",
                              "C / group must be at most 8000 and C at most 240000 (A2), got C " +
                                  std::to_string(c) + " in " + std::to_string(group) + " groups");
  }
  // 5. Shapes: gradOut of at most 8 dims; gradOut and input of N * C * HxW elements, mean and
  // rstd of N * group, gamma of C; gradInput input's shape, gradGammaOut and gradBetaOut
  // gamma's ([C] where gamma is null).
  for (const Item* v : checked) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const int64_t rows = core::CheckedNumel({n, group});
  const int64_t numel = core::CheckedNumel({n, c, hxw});
  if (rows < 0 || numel < 0 || n < 0 || hxw < 0) {
    return core::InvalidParam(op, "N", "N, C and HxW must be >= 0 with N * C * HxW in int64");
  }
  const auto count = [&](const Item& v, int64_t want, const char* what) -> Status {
    if (core::CheckedNumel(v.view->shape) == want) return Status::Ok();
    return core::InvalidParam(op, v.param,
                              "must hold " + std::string(what) + " = " + std::to_string(want) +
                                  " elements, got " + core::ShapeString(v.view->shape));
  };
  HOSTNN_RETURN_IF_ERROR(count(dy, numel, "N * C * HxW"));
  HOSTNN_RETURN_IF_ERROR(count(x, numel, "N * C * HxW"));
  HOSTNN_RETURN_IF_ERROR(count(mean, rows, "N * group"));
  HOSTNN_RETURN_IF_ERROR(count(rstd, rows, "N * group"));
  if (gamma.given()) HOSTNN_RETURN_IF_ERROR(count(gamma, c, "C"));
  const std::vector<int64_t> gamma_shape =
      gamma.given() ? gamma.view->shape : std::vector<int64_t>{c};
  for (int k = 0; k < 3; ++k) {
    if (!wanted[k]) continue;
    const std::vector<int64_t>& want = k == 0 ? x.view->shape : gamma_shape;
    if (outs[k].view->shape != want) {
      return core::InvalidParam(op, outs[k].param,
                                "shape " + core::ShapeString(outs[k].view->shape) + ": expected " +
                                    (k == 0 ? "input's " : "gamma's ") + core::ShapeString(want));
    }
  }
  // 6. An empty gradOut or input, or no output asked for: success, nothing written.
  if (numel == 0 || (!wanted[0] && !wanted[1] && !wanted[2])) {
    return PrepareEmpty(args.op, dy.view->dtype, workspace_size, executor);
  }
  // 7. The rows: N * group rows of (C / group) channels by HxW elements, gradOut and input
  // read as [N, C, HxW] in their own layouts; storage and overlap.
  Item unused;  // an output outputMask leaves out: not checked, not written
  HOSTNN_RETURN_IF_ERROR(
      CheckNormStorage(op, {&dy, &x, &mean, &rstd, &gamma},
                       {wanted[0] ? &outs[0] : &unused, wanted[1] ? &outs[1] : &unused,
                        wanted[2] ? &outs[2] : &unused}));
  // gradOut and input may differ in shape (their element counts agree, as the op_api reshapes
  // both to [N, C, HxW]): then each, and gradInput, is read as its [N * C * HxW] elements in
  // row-major order, which needs them in that order in memory.
  Item* rows_of[3] = {&dy, &x, wanted[0] ? &outs[0] : nullptr};
  TensorView flat[3];
  Item flat_items[3];
  if (dy.view->shape != x.view->shape) {
    for (int k = 0; k < 3; ++k) {
      if (rows_of[k] == nullptr) continue;
      const Item& v = *rows_of[k];
      if (!RowMajor(v.view->shape, v.span.strides)) {
        return core::InvalidParam(op, v.param,
                                  "must be contiguous where gradOut's shape " +
                                      core::ShapeString(dy.view->shape) + " is not input's " +
                                      core::ShapeString(x.view->shape));
      }
      flat[k] = *v.view;
      flat[k].shape = {numel};
      flat[k].strides = {1};
      flat_items[k] = Item{v.param, &flat[k], {}};
      HOSTNN_RETURN_IF_ERROR(core::CheckStorage(op, v.param, flat[k], &flat_items[k].span));
      rows_of[k] = &flat_items[k];
    }
  }
  o.rows_in[0] = {rows_of[0]->view, &rows_of[0]->span};
  o.rows_in[1] = {rows_of[1]->view, &rows_of[1]->span};
  if (wanted[0]) o.y = {rows_of[2]->view, &rows_of[2]->span};
  o.row_in[0] = {mean.view, &mean.span};
  o.row_in[1] = {rstd.view, &rstd.span};
  if (gamma.given()) o.cols_in[0] = {gamma.view, &gamma.span};
  for (int k = 1; k < 3; ++k) {
    if (wanted[k]) o.col_sums[k - 1] = {outs[k].view, &outs[k].span};
  }
  o.rows = rows;
  o.cols = numel / rows;
  o.channel_len = hxw;
  o.groups = group;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

// LayerNormBackward, in the order of its op_api (norm/layer_norm_grad_v3/op_host/op_api/
// aclnn_layer_norm_backward.cpp): nulls (gradOut, input, normalizedShape, mean, rstd,
// outputMask; then each output outputMask asks for), outputMask's length, the dtypes, the
// shapes; then no output asked for, or no row, or rows of no element, succeeds (no row: the
// asked-for gradWeightOut and gradBiasOut are zeroed).
Status PrepareLayerNormBackwardChecked(const OpArgs& args, const tiling::Options& options,
                                       uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  const char* op = info.name;
  Item dy{info.in_names[0], args.in[0], {}}, x{info.in_names[1], args.in[1], {}},
      mean{info.in_names[2], args.in[2], {}}, rstd{info.in_names[3], args.in[3], {}},
      weight{info.in_names[4], args.in[4], {}}, bias{info.in_names[5], args.in[5], {}};
  Item outs[3] = {{info.out_names[0], args.out[0], {}},
                  {info.out_names[1], args.out[1], {}},
                  {info.out_names[2], args.out[2], {}}};
  const std::vector<int64_t>& norm = args.int_array;

  // 1. Null pointers, then outputMask's length and the outputs it asks for.
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&dy, &x}));
  if (!args.int_array_given) return Status::Nullptr(std::string(op) + ": normalizedShape is null");
  HOSTNN_RETURN_IF_ERROR(CheckGiven(op, {&mean, &rstd}));
  bool wanted[3];
  HOSTNN_RETURN_IF_ERROR(ReadOutputMask(op, args, outs, true, wanted));

  // 2. Dtypes: gradOut, input, mean, rstd in the list, gradOut input's; weight in the list and
  // FLOAT or input's; bias in the list; every output given in the list.
  for (const Item* v : {&dy, &x, &mean, &rstd}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
  }
  HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, dy, x.view->dtype, x.param, false));
  if (weight.given()) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, weight.param, weight.view->dtype, kNormTypes));
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, weight, x.view->dtype, x.param, true));
  }
  if (bias.given()) {
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, bias.param, bias.view->dtype, kNormTypes));
  }
  for (const Item& o : outs) {
    if (o.given()) HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, o.param, o.view->dtype, kNormTypes));
  }

  // 3. Shapes: at most 8 dims (the inputs, normalizedShape, the outputs asked for); 1 to 8
  // normalised dims, no more than input has; input's last dims, weight's and bias's dims
  // (their rank normalizedShape's length) normalizedShape's values; gradOut input's shape;
  // mean rstd's shape, one element per row; gradInputOut input's shape; gradWeightOut and
  // gradBiasOut one element per normalised element.
  Item* checked[] = {&dy, &x, &mean, &rstd, &weight, &bias, &outs[0], &outs[1], &outs[2]};
  for (const Item* v : checked) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  for (const Item* v : {&dy, &x, &mean, &rstd}) {
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const size_t k = norm.size(), rank = x.view->shape.size();
  if (k > static_cast<size_t>(kMaxNormDims) || k < 1) {
    return core::InvalidParam(op, "normalizedShape",
                              "must have 1 to 8 values, got " + std::to_string(k));
  }
  for (int j = 0; j < 3; ++j) {
    if (wanted[j]) {
      HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, outs[j].param, *outs[j].view, kMaxNormDims));
    }
  }
  if (rank < k) {
    return core::InvalidParam(
        op, x.param,
        "has " + std::to_string(rank) + " dims, fewer than normalizedShape's " + std::to_string(k));
  }
  const size_t begin = rank - k;
  for (size_t i = 0; i < k; ++i) {
    if (x.view->shape[begin + i] != norm[i]) {
      return core::InvalidParam(op, x.param,
                                "shape " + core::ShapeString(x.view->shape) +
                                    ": its last dims must equal normalizedShape " +
                                    core::ShapeString(norm));
    }
  }
  for (const Item* v : {&weight, &bias}) {
    if (!v->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
    if (v->view->shape != norm) {
      return core::InvalidParam(op, v->param,
                                "shape: expected normalizedShape " + core::ShapeString(norm) +
                                    ", got " + core::ShapeString(v->view->shape));
    }
  }
  if (dy.view->shape != x.view->shape) {
    return core::InvalidParam(op, dy.param,
                              "shape: expected " + core::ShapeString(x.view->shape) +
                                  " like input, got " + core::ShapeString(dy.view->shape));
  }
  if (mean.view->shape != rstd.view->shape) {
    return core::InvalidParam(op, rstd.param,
                              "shape: expected " + core::ShapeString(mean.view->shape) +
                                  " like mean, got " + core::ShapeString(rstd.view->shape));
  }
  const std::vector<int64_t>& shape = x.view->shape;
  const int64_t rows =
      core::CheckedNumel(std::vector<int64_t>(shape.begin(), shape.begin() + begin));
  const int64_t cols = core::CheckedNumel(std::vector<int64_t>(shape.begin() + begin, shape.end()));
  if (rows < 0 || cols < 0) {
    return core::InvalidParam(op, x.param, "has more rows or columns than int64 holds");
  }
  if (core::CheckedNumel(mean.view->shape) != rows) {
    return core::InvalidParam(op, mean.param, OnePerRow(rows, mean.view->shape));
  }
  if (wanted[0] && outs[0].view->shape != shape) {
    return core::InvalidParam(op, outs[0].param,
                              "shape: expected " + core::ShapeString(shape) + " like input, got " +
                                  core::ShapeString(outs[0].view->shape));
  }
  for (int j = 1; j < 3; ++j) {
    if (wanted[j] && core::CheckedNumel(outs[j].view->shape) != cols) {
      return core::InvalidParam(
          op, outs[j].param,
          "must hold one element per normalised element: " + std::to_string(cols) +
              " elements, got " + core::ShapeString(outs[j].view->shape));
    }
  }

  // 4. Nothing asked for: success, nothing runs. Storage and overlap of what is used.
  if (!wanted[0] && !wanted[1] && !wanted[2]) {
    return PrepareEmpty(args.op, x.view->dtype, workspace_size, executor);
  }
  Item unused;  // an output outputMask leaves out: not checked, not written
  HOSTNN_RETURN_IF_ERROR(
      CheckNormStorage(op, {&dy, &x, &mean, &rstd, &weight, &bias},
                       {wanted[0] ? &outs[0] : &unused, wanted[1] ? &outs[1] : &unused,
                        wanted[2] ? &outs[2] : &unused}));
  exec::NormRowsOperands o;
  o.rows_in[0] = {dy.view, &dy.span};
  o.rows_in[1] = {x.view, &x.span};
  if (wanted[0]) o.y = {outs[0].view, &outs[0].span};
  o.row_in[0] = {mean.view, &mean.span};
  o.row_in[1] = {rstd.view, &rstd.span};
  if (weight.given()) o.cols_in[0] = {weight.view, &weight.span};
  // A missing weight is filled in input's dtype by the op_api.
  if (weight.given()) o.norm_inputs.param_dtype = weight.view->dtype;
  for (int j = 1; j < 3; ++j) {
    if (wanted[j]) o.col_sums[j - 1] = {outs[j].view, &outs[j].span};
  }
  o.rows = rows;
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

}  // namespace

Status PrepareNormChecked(const OpArgs& args, const tiling::Options& options,
                          uint64_t* workspace_size, ExecutorPtr* executor) {
  const OpInfo& info = GetOpInfo(args.op);
  if (info.signature == Signature::kRmsNormGrad) {
    return PrepareRmsNormGradChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kGroupNormBackward) {
    return PrepareGroupNormBackwardChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kGroupNorm) {
    return PrepareGroupNormChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kAddRmsNorm || info.signature == Signature::kInplaceAddRmsNorm) {
    return PrepareAddRmsNormChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kAddLayerNorm) {
    return PrepareAddLayerNormChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kAddLayerNormGrad) {
    return PrepareAddLayerNormGradChecked(args, options, workspace_size, executor);
  }
  if (info.signature == Signature::kLayerNormBackward) {
    return PrepareLayerNormBackwardChecked(args, options, workspace_size, executor);
  }
  if (!HasIntArray(info.signature)) {
    return PrepareRmsNormChecked(args, options, workspace_size, executor);
  }
  const char* op = info.name;
  Item input{info.in_names[0], args.in[0], {}}, weight{info.in_names[1], args.in[1], {}},
      bias{info.in_names[2], args.in[2], {}};
  Item out{info.out_names[0], args.out[0], {}}, mean{info.out_names[1], args.out[1], {}},
      rstd{info.out_names[2], args.out[2], {}};
  const std::vector<int64_t>& norm = args.int_array;

  // 1. Null pointers: input, normalizedShape, out (the others are optional).
  if (!input.given()) return Status::Nullptr(std::string(op) + ": input is null");
  if (!args.int_array_given) return Status::Nullptr(std::string(op) + ": normalizedShape is null");
  if (!out.given()) return Status::Nullptr(std::string(op) + ": out is null");

  // 2. The inputs' dtypes, then the outputs'.
  HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, input.param, input.view->dtype, kNormTypes));
  for (const Item* v : {&weight, &bias}) {
    if (!v->given()) continue;
    HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
    HOSTNN_RETURN_IF_ERROR(CheckDTypeLike(op, *v, input.view->dtype, input.param, true));
  }
  if (weight.given() && bias.given() && weight.view->dtype != bias.view->dtype) {
    return core::InvalidParam(op, bias.param,
                              std::string("dtype: expected ") + DTypeName(weight.view->dtype) +
                                  " like weightOptional, got " + DTypeName(bias.view->dtype));
  }
  for (const Item* v : {&out, &mean, &rstd}) {
    if (v->given()) {
      HOSTNN_RETURN_IF_ERROR(core::CheckDType(op, v->param, v->view->dtype, kNormTypes));
    }
  }

  // 3. Descriptors, ranks, normalizedShape, then the shapes.
  const Item* all[] = {&input, &out, &weight, &bias, &mean, &rstd};
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckDims(op, v->param, *v->view));
  }
  for (const Item* v : all) {
    if (v->given()) HOSTNN_RETURN_IF_ERROR(core::CheckRank(op, v->param, *v->view, kMaxNormDims));
  }
  const size_t k = norm.size(), rank = input.view->shape.size();
  if (k > static_cast<size_t>(kMaxNormDims) || k < 1) {
    return core::InvalidParam(op, "normalizedShape",
                              "must have 1 to 8 values, got " + std::to_string(k));
  }
  if (rank < k) {
    return core::InvalidParam(
        op, input.param,
        "has " + std::to_string(rank) + " dims, fewer than normalizedShape's " + std::to_string(k));
  }
  for (const Item* v : {&weight, &bias}) {
    if (v->given() && v->view->shape.size() != k) {
      return core::InvalidParam(op, v->param,
                                "must have normalizedShape's " + std::to_string(k) + " dims, got " +
                                    core::ShapeString(v->view->shape));
    }
  }
  const size_t begin = rank - k;
  for (size_t i = 0; i < k; ++i) {
    if (input.view->shape[begin + i] != norm[i]) {
      return core::InvalidParam(op, input.param,
                                "shape " + core::ShapeString(input.view->shape) +
                                    ": its last dims must equal normalizedShape " +
                                    core::ShapeString(norm));
    }
    for (const Item* v : {&weight, &bias}) {
      if (v->given() && v->view->shape[i] != norm[i]) {
        return core::InvalidParam(op, v->param,
                                  "shape: expected normalizedShape " + core::ShapeString(norm) +
                                      ", got " + core::ShapeString(v->view->shape));
      }
    }
  }
  if (out.view->shape != input.view->shape) {
    return core::InvalidParam(op, out.param,
                              "shape: expected " + core::ShapeString(input.view->shape) +
                                  " like input, got " + core::ShapeString(out.view->shape));
  }

  // 4. implMode (LayerNormWithImplMode): 0 high precision, 1 high performance, 2 keep
  // FLOAT16, which asks for FLOAT16 inputs. Every mode is computed alike.
  exec::NormRowsOperands o;
  ScalarValuesOf(args, o.numbers, o.exact);  // eps; implMode
  if (info.num_scalars() > 1) {
    const int64_t mode = o.exact[1];
    if (mode < 0 || mode > 2) {
      return core::InvalidParam(op, "implMode", "must be 0, 1 or 2, got " + std::to_string(mode));
    }
    if (mode == 2) {
      for (const Item* v : {&input, &weight, &bias}) {
        if (v->given() && v->view->dtype != DType::kFloat16) {
          return core::InvalidParam(
              op, v->param,
              std::string("implMode 2 (keep FLOAT16) asks for FLOAT16, got ") +
                  DTypeName(v->view->dtype));
        }
      }
    }
  }

  // 5. The rows: rows x cols, cols the normalised dims' product. No row: nothing runs.
  const std::vector<int64_t>& shape = input.view->shape;
  const int64_t rows =
      core::CheckedNumel(std::vector<int64_t>(shape.begin(), shape.begin() + begin));
  const int64_t cols = core::CheckedNumel(std::vector<int64_t>(shape.begin() + begin, shape.end()));
  if (rows < 0 || cols < 0) {
    return core::InvalidParam(op, input.param, "has more rows or columns than int64 holds");
  }
  if (rows == 0) {
    return PrepareEmpty(args.op, input.view->dtype, workspace_size, executor);
  }
  for (const Item* v : {&mean, &rstd}) {
    if (v->given() && core::CheckedNumel(v->view->shape) != rows) {
      return core::InvalidParam(op, v->param, OnePerRow(rows, v->view->shape));
    }
  }

  // 6. Storage and overlap.
  HOSTNN_RETURN_IF_ERROR(CheckNormStorage(op, {&input, &weight, &bias}, {&out, &mean, &rstd}));
  o.rows_in[0] = {input.view, &input.span};
  o.y = {out.view, &out.span};
  if (weight.given()) o.cols_in[0] = {weight.view, &weight.span};
  if (bias.given()) o.cols_in[1] = {bias.view, &bias.span};
  // The A2 op_api fills a missing weight in bias's dtype (else input's): gamma's dtype.
  if (weight.given() || bias.given()) {
    o.norm_inputs.param_dtype = (weight.given() ? weight : bias).view->dtype;
  }
  if (mean.given()) o.stats[0] = {mean.view, &mean.span};
  if (rstd.given()) o.stats[1] = {rstd.view, &rstd.span};
  o.rows = rows;
  o.cols = cols;
  return exec::PrepareNormRows(args.op, o, options, workspace_size, executor);
}

}  // namespace hostnn
