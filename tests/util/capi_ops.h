// Every operator's CANN C API behind one phase-1 signature, generated from the operator
// list: phase1(in0, in1, in2, out, dim, ...) calls aclnn<Name>GetWorkspaceSize with the
// operands its Signature takes (src/aclnn/signatures.h) and ignores the rest (an in-place
// operator's result is in0). For the
// tests, the benchmarks and the fuzzer, which drive every operator the same way.
#ifndef HOSTNN_TESTS_UTIL_CAPI_OPS_H_
#define HOSTNN_TESTS_UTIL_CAPI_OPS_H_

#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hostnn/aclnnop_all.h"
#include "hostnn/op.h"
#include "src/aclnn/c_api.h"
#include "src/aclnn/signatures.h"

namespace hostnn {
namespace test {

// The suites' four operand slots of every operator, by what the suites put there: kDy the
// first input (a gradient's gradOutput, a forward operator's self), kSelf the second (x, or
// the forward's output where CANN takes that: SigmoidBackward, LogSoftmaxBackward,
// SoftmaxBackward), kBuffer a third tensor (LogSigmoidBackward's buffer; a gated unit's
// outGelu or gelu; PreluBackward's weight), kOut the result. SlotName maps them onto the
// operator's Inputs and Outputs (OpArgs::in[], out[]).
enum Slot : int { kDy = 0, kSelf = 1, kBuffer = 2, kOut = 3, kNumSlots = 4 };

// A slot's CANN name from the operator's Inputs and Outputs (hostnn/op.h); nullptr where
// it has none.
constexpr const char* SlotName(const OpInfo& info, Slot s) {
  return s == kDy     ? info.in_names[0]
         : s == kSelf ? info.in_names[1]
         : s == kOut  ? info.out_names[0]
         : info.in_names[2] != nullptr ? info.in_names[2]
         : info.is_forward             ? info.out_names[1]
                                       : nullptr;
}

// One call's C parameters by the names of src/aclnn/signatures.h: the tensors in0-in6 and
// out, out1, out2, out3 (OpArgs::in[], out[]), the dim, the aclIntArray ia0, the aclBoolArray ba0,
// the aclScalars s0-s2, the flag f0, the int attributes i0-i3, the double attributes d0-d2
// and the string c0.
// An operator reads those its prototype has (CApiOp::phase1_call); DefaultCall fills the
// attributes with the list's defaults.
struct CApiCall {
  const aclTensor* in[kMaxIn] = {};
  aclTensor* out[kMaxOut] = {};
  int64_t dim = 0;
  const aclIntArray* int_array = nullptr;
  const aclBoolArray* bool_array = nullptr;
  const aclScalar* scalars[3] = {};
  bool flag = false;
  int64_t ints[4] = {};
  double doubles[3] = {};
  const char* string = nullptr;
};

struct CApiOp {
  Op op;
  const char* name;               // "SiluBackward"
  const char* params[kNumSlots];  // the CANN parameter names; nullptr where absent
  aclnnStatus (*phase1)(const aclTensor* in0, const aclTensor* in1, const aclTensor* in2,
                        aclTensor* out, int64_t dim, uint64_t* workspace_size,
                        aclOpExecutor** executor);
  aclnnStatus (*phase2)(void* workspace, uint64_t workspace_size, aclOpExecutor* executor,
                        aclrtStream stream);
  // phase1 with the scalar parameters given: the numbers s0, s1, s2 and the flag f0, in the
  // order of the operator's Scalars column (ignored by an operator without them).
  aclnnStatus (*phase1_with)(const aclTensor* in0, const aclTensor* in1, const aclTensor* in2,
                             aclTensor* out, int64_t dim, const aclScalar* s0,
                             const aclScalar* s1, const aclScalar* s2, bool f0,
                             uint64_t* workspace_size, aclOpExecutor** executor);
  // phase 1 with every C parameter as a CApiCall names it (the norms' aclIntArray, optional
  // operands and statistics outputs too).
  aclnnStatus (*phase1_call)(const CApiCall& call, uint64_t* workspace_size,
                             aclOpExecutor** executor);

  bool has(Slot s) const { return params[s] != nullptr; }
  // An in-place operator's result is its in0: it has no separate out operand.
  bool in_place() const { return IsInplace(GetOpInfo(op).signature); }
  // The operands this operator takes, in slot order (an in-place one's out is in0).
  std::vector<Slot> slots() const {
    std::vector<Slot> v;
    for (int s = 0; s < kNumSlots; ++s) {
      if (has(static_cast<Slot>(s)) && !(in_place() && s == kOut))
        v.push_back(static_cast<Slot>(s));
    }
    return v;
  }
};

namespace capi_ops_internal {
// The k-th number parameter of `op` at its default, as a DOUBLE aclScalar (kept for the
// process, and reachable until its end: the table is never destroyed, so no leak checker
// sees the scalars orphaned at exit); null past the last.
inline const aclScalar* DefaultNumber(Op op, int k) {
  static const auto* table = new std::vector<std::vector<aclScalar*>>([] {
    std::vector<std::vector<aclScalar*>> t;
    for (Op o : AllOps()) {
      std::vector<aclScalar*> v;
      for (int i = 0; i < GetOpInfo(o).num_scalars(); ++i) {
        if (GetOpInfo(o).scalars[i].kind != ScalarKind::kNumber) continue;
        double value = GetOpInfo(o).scalars[i].default_value;
        v.push_back(aclCreateScalar(&value, ACL_DOUBLE));
      }
      t.push_back(v);
    }
    return t;
  }());
  const auto& v = (*table)[static_cast<size_t>(op)];
  return k < static_cast<int>(v.size()) ? v[static_cast<size_t>(k)] : nullptr;
}
// The value of a FLOAT or DOUBLE aclScalar (a double attribute's, SituGlu's beta); 0 for
// null.
inline double NumberOf(const aclScalar* s) {
  if (s == nullptr) return 0.0;
  if (s->dtype == ACL_FLOAT) {
    float f;
    std::memcpy(&f, s->bytes, sizeof(f));
    return f;
  }
  double d = 0.0;
  if (s->dtype == ACL_DOUBLE) std::memcpy(&d, s->bytes, sizeof(d));
  return d;
}
// The flag parameter of `op` at its default (false where it has none).
inline bool DefaultFlag(Op op) {
  for (int i = 0; i < GetOpInfo(op).num_scalars(); ++i) {
    if (GetOpInfo(op).scalars[i].kind == ScalarKind::kFlag)
      return GetOpInfo(op).scalars[i].default_value != 0;
  }
  return false;
}

// The int attribute of `op` at its default (GeGlu's approximate; 0 where it has none).
inline int64_t DefaultInt(Op op) {
  for (int i = 0; i < GetOpInfo(op).num_scalars(); ++i) {
    if (GetOpInfo(op).scalars[i].kind == ScalarKind::kInt)
      return static_cast<int64_t>(GetOpInfo(op).scalars[i].default_value);
  }
  return 0;
}

// A call with no operands and every attribute at the list's default: the int attributes
// (GeGlu's approximate, LayerNormWithImplMode's implMode; RReluWithNoise's seed and offset)
// in order, the numbers as the double attributes d0, d1, d2 (SituGlu's beta, LayerNorm's eps)
// and as s0, s1, s2, and the flag.
inline CApiCall DefaultCall(Op op) {
  CApiCall c;
  int ints = 0, numbers = 0;
  for (int i = 0; i < GetOpInfo(op).num_scalars(); ++i) {
    const ScalarParam& p = GetOpInfo(op).scalars[i];
    if (p.kind == ScalarKind::kInt && ints < 4) {
      c.ints[ints++] = static_cast<int64_t>(p.default_value);
    }
    if (p.kind == ScalarKind::kNumber && numbers < 3) {
      c.scalars[numbers] = DefaultNumber(op, numbers);
      c.doubles[numbers++] = p.default_value;
    }
  }
  c.flag = DefaultFlag(op);
  return c;
}

// The scalar parameters of `op` in its list order (values; past their end, the defaults)
// as a CApiCall's attributes: the ints i0-i3, the numbers d0-d2, the flag.
inline void SetScalars(Op op, const std::vector<double>& values, CApiCall* c) {
  int ints = 0, numbers = 0;
  for (int i = 0; i < GetOpInfo(op).num_scalars(); ++i) {
    const ScalarParam& p = GetOpInfo(op).scalars[i];
    const double v =
        i < static_cast<int>(values.size()) ? values[static_cast<size_t>(i)] : p.default_value;
    if (p.kind == ScalarKind::kInt && ints < 4) c->ints[ints++] = static_cast<int64_t>(v);
    if (p.kind == ScalarKind::kNumber && numbers < 3) c->doubles[numbers++] = v;
    if (p.kind == ScalarKind::kFlag) c->flag = v != 0;
  }
}

// Phase1<Name>Call: the generic caller. Every C parameter of every Signature is named
// (src/aclnn/signatures.h) and taken from a CApiCall; those the prototype lacks are
// dropped. Phase1<Name>With takes the operator's numbers (s0, s1, s2) and flag (f0), with an
// int attribute at its default and no aclIntArray or third output; Phase1<Name> passes the
// numbers' defaults too.
#define HOSTNN_OP(Name, snake, sig, ...)                                                           \
  inline aclnnStatus Phase1##Name##Call(const CApiCall& c, uint64_t* workspace_size,               \
                                        aclOpExecutor** executor) {                                \
    aclTensor* in0 = const_cast<aclTensor*>(c.in[0]); /* an in-place operator's selfRef */         \
    aclTensor* in1 = const_cast<aclTensor*>(c.in[1]); /* InplaceAddRmsNorm's x2Ref */              \
    aclTensor* in2 = const_cast<aclTensor*>(c.in[2]);                                              \
    aclTensor* in3 = const_cast<aclTensor*>(c.in[3]); /* BatchNorm's runningMean, runningVar */    \
    aclTensor* in4 = const_cast<aclTensor*>(c.in[4]);                                              \
    const aclTensor *in5 = c.in[5], *in6 = c.in[6];                                                \
    aclTensor* buffer = in2; /* LogSigmoidForward's */                                             \
    aclTensor *out = c.out[0], *out1 = c.out[1], *out2 = c.out[2], *out3 = c.out[3];               \
    aclScalar* s0 = const_cast<aclScalar*>(c.scalars[0]); /* AddRelu's aclScalar* alpha */         \
    const aclScalar *s1 = c.scalars[1], *s2 = c.scalars[2];                                        \
    const bool f0 = c.flag;                                                                        \
    const int64_t dim = c.dim, i0 = c.ints[0], i1 = c.ints[1], i2 = c.ints[2], i3 = c.ints[3];     \
    const aclIntArray* ia0 = c.int_array;                                                          \
    const aclBoolArray* ba0 = c.bool_array;                                                        \
    const double d0 = c.doubles[0], d1 = c.doubles[1], d2 = c.doubles[2];                          \
    char* c0 = const_cast<char*>(c.string);                                                        \
    (void)in0, (void)in1, (void)in2, (void)in3, (void)in4, (void)in5, (void)in6, (void)ba0,        \
        (void)buffer, (void)out, (void)out1, (void)out2, (void)out3, (void)s0, (void)s1, (void)s2, \
        (void)f0, (void)dim, (void)i0, (void)i1, (void)i2, (void)i3, (void)ia0, (void)d0,          \
        (void)d1, (void)d2, (void)c0;                                                              \
    return aclnn##Name##GetWorkspaceSize(HOSTNN_SIG_ARGS_##sig, workspace_size, executor);         \
  }                                                                                                \
  inline aclnnStatus Phase1##Name##With(                                                           \
      const aclTensor* a0, const aclTensor* a1, const aclTensor* a2, aclTensor* o, int64_t d,      \
      const aclScalar* q0, const aclScalar* s1, const aclScalar* s2, bool f0,                      \
      uint64_t* workspace_size, aclOpExecutor** executor) {                                        \
    CApiCall c = DefaultCall(Op::k##Name);                                                         \
    c.in[0] = a0, c.in[1] = a1, c.in[2] = a2, c.out[0] = o, c.dim = d;                             \
    /* GeGlu's outGelu; PreluBackward's gradWeight has its own suite */                            \
    c.out[1] = GetOpInfo(Op::k##Name).kind == Kind::kMapColumnSums ? nullptr                       \
                                                                   : const_cast<aclTensor*>(a2);   \
    c.scalars[0] = q0, c.scalars[1] = s1, c.scalars[2] = s2, c.flag = f0;                          \
    c.doubles[0] = NumberOf(q0), c.doubles[1] = NumberOf(s1), c.doubles[2] = NumberOf(s2);         \
    return Phase1##Name##Call(c, workspace_size, executor);                                        \
  }                                                                                                \
  inline aclnnStatus Phase1##Name(const aclTensor* a0, const aclTensor* a1, const aclTensor* a2,   \
                                  aclTensor* o, int64_t d, uint64_t* workspace_size,               \
                                  aclOpExecutor** executor) {                                      \
    return Phase1##Name##With(a0, a1, a2, o, d, DefaultNumber(Op::k##Name, 0),                     \
                              DefaultNumber(Op::k##Name, 1), DefaultNumber(Op::k##Name, 2),        \
                              DefaultFlag(Op::k##Name), workspace_size, executor);                 \
  }
#include "hostnn/op_list.def"
#undef HOSTNN_OP
}  // namespace capi_ops_internal

inline const CApiOp& GetCApiOp(Op op) {
  static const CApiOp kOps[] = {
#define HOSTNN_OP(Name, ...)                                                            \
  {Op::k##Name,                                                                         \
   #Name,                                                                               \
   {SlotName(GetOpInfo(Op::k##Name), kDy), SlotName(GetOpInfo(Op::k##Name), kSelf),     \
    SlotName(GetOpInfo(Op::k##Name), kBuffer), SlotName(GetOpInfo(Op::k##Name), kOut)}, \
   capi_ops_internal::Phase1##Name,                                                     \
   aclnn##Name,                                                                         \
   capi_ops_internal::Phase1##Name##With,                                               \
   capi_ops_internal::Phase1##Name##Call},
#include "hostnn/op_list.def"
#undef HOSTNN_OP
  };
  return kOps[static_cast<int>(op)];
}

// Whether a CANN parameter name is of a required operand: CANN names every optional one
// "...Optional" (LayerNorm's weightOptional, meanOutOptional); null is no operand.
inline bool IsRequired(const char* name) { return name != nullptr && !IsOptionalName(name); }

// What a norm's operand is, by its CANN name: a per-column operand or column sum (gamma,
// beta, weight, bias: "dgammaOut", "gradWeightOut" too), a per-row one (the statistics:
// mean, rstd), or a row operand of x's shape (x, x1, x2, dy and the results).
enum class NormRole { kRow, kPerColumn, kPerRow };
inline NormRole NormRoleOf(const char* name) {
  std::string n(name);
  for (char& c : n) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  for (const char* col : {"gamma", "beta", "weight", "bias"}) {
    if (n.find(col) != std::string::npos) return NormRole::kPerColumn;
  }
  for (const char* row : {"mean", "rstd"}) {
    if (n.find(row) != std::string::npos) return NormRole::kPerRow;
  }
  return NormRole::kRow;
}

// A norm's row operands: its required inputs of x's shape (x; x1 and x2; dy and x; not
// AddLayerNormGrad's dsumOptional, which the generic calls leave out) and its results (y or
// dx, and AddRmsNorm's xOut).
inline int RowInputs(const OpInfo& info) {
  int n = 0;
  for (int k = 0; k < info.num_in(); ++k) {
    n += IsRequired(info.in_names[k]) && NormRoleOf(info.in_names[k]) == NormRole::kRow;
  }
  return n;
}
inline int RowResults(const OpInfo& info) {
  int n = 1;
  for (int k = 1; k < info.num_out(); ++k) n += NormRoleOf(info.out_names[k]) == NormRole::kRow;
  return n;
}

// The operands a norm's generic call takes (the benchmarks', run_path's): rows[0] its first
// input (x, or a gradient's dy), rows[1] a second row operand (x2, a gradient's x); column a
// per-column operand (gamma), per_row a per-row one (a statistic, FLOAT, [rows, 1]; the
// outputs per_row_out, then per_row_out2: GroupNorm's mean and rstd),
// column_sum a gradient's first column sum (FLOAT), row_out a second result of x's shape
// (AddRmsNorm's xOut). FillNorm gives each input and each output after the first (the
// caller's) the one its role takes, and an optional one ("...Optional") none.
template <class In, class Out>
struct NormOperands {
  In rows[2] = {};
  In column = {}, per_row = {};
  Out per_row_out = {}, per_row_out2 = {}, column_sum = {}, row_out = {};
  Out column_sum2 = {};  // a second column sum apart (AddLayerNormGrad's dbetaOut); null: none
};
template <class In, class Out>
void FillNorm(const OpInfo& info, const NormOperands<In, Out>& v, In* in, Out* out) {
  int next_row = 0;
  for (int k = 0; k < info.num_in(); ++k) {
    const char* name = info.in_names[k];
    const NormRole role = NormRoleOf(name);
    in[k] = !IsRequired(name)              ? In{}
            : role == NormRole::kRow       ? v.rows[next_row++ % 2]
            : role == NormRole::kPerColumn ? v.column
                                           : v.per_row;
  }
  bool sum_given = false;
  int per_row_outs = 0;
  for (int k = 1; k < info.num_out(); ++k) {
    const char* name = info.out_names[k];
    const NormRole role = NormRoleOf(name);
    out[k] = Out{};
    if (role == NormRole::kPerColumn && !sum_given) {  // LayerNormBackward: dgamma, no dbeta
      out[k] = v.column_sum;
      sum_given = true;
    } else if (role == NormRole::kPerColumn) {  // AddLayerNormGrad's dbetaOut
      out[k] = v.column_sum2;
    } else if (IsRequired(name) && role == NormRole::kRow) {
      out[k] = v.row_out;
    } else if (IsRequired(name) && role == NormRole::kPerRow) {  // GroupNorm's two: apart
      out[k] = per_row_outs++ == 0 ? v.per_row_out : v.per_row_out2;
    }
  }
}

// The operators the list-driven suites run, in list order: every one but the gated linear
// units (IsSplit: tests/split_ops_test.cc, split_checks_test.cc) and Prelu and
// PreluBackward (a weight of C elements applied along dim 1, a second output:
// tests/prelu_test.cc, prelu_backward_test.cc) and RReluWithNoise (random numbers, a noise
// tensor written: tests/rrelu_with_noise_test.cc), whose operands or results those suites
// cannot build, and the norms (per-column operands, statistics outputs, LayerNorm's
// aclIntArray: tests/layer_norm_test.cc, rms_norm_test.cc), the index kinds (an index
// tensor read when phase 2 runs: tests/embedding_test.cc, embedding_dense_backward_test.cc)
// and the losses (a reduction that sums, a target of classes: tests/mse_loss_test.cc,
// nll_loss_test.cc).
inline bool InListSuites(Op op) {
  return !GetOpInfo(op).is_split && GetOpInfo(op).shapes != ShapeRule::kChannelWeight &&
         GetOpInfo(op).kind != Kind::kNoiseMap && !IsIndexKind(GetOpInfo(op).kind) &&
         !IsLossKind(GetOpInfo(op).kind) && !IsNormFamily(GetOpInfo(op).shapes);
}
inline bool HasOwnSuite(Op op) { return !InListSuites(op); }
inline std::vector<Op> SuiteOps() {
  std::vector<Op> ops;
  for (Op op : AllOps()) {
    if (InListSuites(op)) ops.push_back(op);
  }
  return ops;
}
inline std::vector<Op> AllOpsVector() { return SuiteOps(); }

// The operators for which pred(op) holds, in list order (not those with their own suite).
template <class Pred>
std::vector<Op> OpsWhere(Pred pred) {
  std::vector<Op> ops;
  for (Op op : SuiteOps()) {
    if (pred(op)) ops.push_back(op);
  }
  return ops;
}
// The operators whose dtype rule satisfies rule_pred (AdmitsInt32, AdmitsExactInt, ...).
inline std::vector<Op> OpsWhereRule(bool (*rule_pred)(DTypeRule)) {
  return OpsWhere([rule_pred](Op op) { return rule_pred(GetOpInfo(op).dtypes); });
}

// The gradients (the two-input operators with an output of their own; an in-place two-input
// operator, InplaceAddRelu, has its own suite: tests/inplace_binary_test.cc), and the
// forward operators, in list order.
inline bool IsGradLike(Op op) {
  return !GetOpInfo(op).is_forward && !IsInplace(GetOpInfo(op).signature);
}
inline std::vector<Op> GradOpsVector() { return OpsWhere(IsGradLike); }
inline std::vector<Op> ForwardOpsVector() {
  return OpsWhere([](Op op) { return GetOpInfo(op).is_forward; });
}

// Both phases of a forward operator on (self, out) on the null stream (out ignored for an
// in-place operator): phase 1's status, or phase 2's.
inline aclnnStatus RunBoth(Op op, aclTensor* self, aclTensor* out) {
  const CApiOp& c = GetCApiOp(op);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = c.phase1(self, nullptr, nullptr, out, 0, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return c.phase2(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// gtest parameter names.
inline std::string OpTestName(Op op) { return GetOpInfo(op).name; }

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_CAPI_OPS_H_
