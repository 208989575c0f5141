// What each operand of an operator is, by slot: one table, read from the operator list
// (Kind, shape rule, Inputs and Outputs), for the tools that build every operator's operands
// the same way (the benchmarks' cases, the run-path test). A tool keeps one tensor per Role
// and fills OpArgs' in[] and out[] from RolesOf(op): a new kind costs this table its rows,
// not a branch in every tool.
#ifndef HOSTNN_TESTS_UTIL_OPERAND_ROLES_H_
#define HOSTNN_TESTS_UTIL_OPERAND_ROLES_H_

#include <cstring>

#include "hostnn/op.h"
#include "hostnn/ops.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {

enum class Role : int {
  kNone,         // no operand: an optional one ("...Optional") the generic calls leave out
  kSelf,         // the data: self, x, input, features, Embedding's weight rows; what a gradient
                 // reads of its forward (self, output, result, logProb)
  kGrad,         // a gradient's incoming gradient (one element for a class loss's mean); a
                 // two-input map's first input (Heaviside's input, AddRelu's self)
  kSecond,       // a second input like the data: AddRmsNorm's x2, RReluWithNoise's noise
  kBuffer,       // LogSigmoidBackward's buffer: checked, never read
  kTarget,       // a loss's target of self's shape (values; labels)
  kIndex,        // an integer per row or position: Embedding's indices, a class loss's target
  kOneElement,   // FatreluMul's threshold; CrossEntropyLoss's zlossOut
  kTotalWeight,  // NLLLoss's totalWeightOut, its gradient's totalWeight
  kPerColumn,    // one value per column or channel: gamma, beta, a norm's weight, Prelu's
                 // weight, a class loss's class weights
  kPerRow,       // a row's statistic (mean, rstd; CrossEntropyLoss's lseForZlossOut); the
                 // first one written
  kPerRow2,      // the second statistic written (GroupNorm's, AddLayerNorm's rstdOut)
  kColumnSum,    // a gradient's first per-column sum (dgamma; PreluBackward's gradWeight)
  kColumnSum2,   // its second (dbeta)
  kAux,          // a second tensor of a result's shape: GeGlu's outGelu (its gradient's
                 // gelu), AddRmsNorm's xOut
  kResult,       // the result: out, y, dx
  kLoss,         // a loss's value (its total, or one per row)
  // BatchNorm's per-channel tensors, each its own (the forward writes the saved ones).
  kWeight,
  kBias,
  kRunningMean,
  kRunningVar,
  kSaveMean,
  kSaveInvstd,
  kGradWeight,
  kGradBias,
  kNumRoles
};

struct OperandRoles {
  Role in[kMaxIn] = {};
  Role out[kMaxOut] = {};
};

namespace roles_internal {
// BatchNorm's per-channel operands by their CANN names.
inline Role ChannelRole(const char* name) {
  static const char* const kNames[] = {"weight",   "bias",       "runningMean", "runningVar",
                                       "saveMean", "saveInvstd", "gradWeight",  "gradBias"};
  for (int k = 0; k < 8; ++k) {
    if (std::strcmp(name, kNames[k]) == 0)
      return static_cast<Role>(static_cast<int>(Role::kWeight) + k);
  }
  return Role::kNone;
}
}  // namespace roles_internal

// The role of every operand of op, in[k] and out[k] as OpArgs holds them (CANN's order);
// kNone past the last and for an optional operand.
inline OperandRoles RolesOf(Op op) {
  const OpInfo& info = GetOpInfo(op);
  const bool fwd = info.is_forward;
  OperandRoles r;
  // Inputs: a forward operator's first is the data, a gradient's the incoming gradient and
  // then the data; the kind names the rest.
  r.in[0] = fwd ? Role::kSelf : Role::kGrad;
  if (info.num_in() > 1 && !fwd) r.in[1] = Role::kSelf;
  r.out[0] = Role::kResult;
  if (IsNormShape(info.shapes)) {
    // A norm's operands by their names (NormRoleOf): its row inputs in turn the data and a
    // second row (a gradient's: dy, x, then x2), its per-column and per-row ones.
    const Role rows[3] = {fwd ? Role::kSelf : Role::kGrad, fwd ? Role::kSecond : Role::kSelf,
                          Role::kSecond};
    int next_row = 0;
    for (int k = 0; k < info.num_in(); ++k) {
      const char* name = info.in_names[k];
      const NormRole role = NormRoleOf(name);
      r.in[k] = !IsRequired(name)              ? Role::kNone
                : role == NormRole::kRow       ? rows[next_row++ % 3]
                : role == NormRole::kPerColumn ? Role::kPerColumn
                                               : Role::kPerRow;
    }
    int column_sums = 0, per_row_outs = 0;
    for (int k = 1; k < info.num_out(); ++k) {
      const char* name = info.out_names[k];
      const NormRole role = NormRoleOf(name);
      r.out[k] = !IsRequired(name) ? Role::kNone
                 : role == NormRole::kPerColumn
                     ? (column_sums++ == 0 ? Role::kColumnSum : Role::kColumnSum2)
                 : role == NormRole::kRow ? Role::kAux
                 : per_row_outs++ == 0    ? Role::kPerRow
                                          : Role::kPerRow2;
    }
    return r;
  }
  if (info.shapes == ShapeRule::kChannelStats) {  // BatchNorm: its per-channel tensors
    for (int k = fwd ? 1 : 2; k < info.num_in(); ++k)
      r.in[k] = roles_internal::ChannelRole(info.in_names[k]);
    for (int k = 1; k < info.num_out(); ++k)
      r.out[k] = roles_internal::ChannelRole(info.out_names[k]);
    return r;
  }
  switch (info.kind) {
    case Kind::kGather:  // weight rows (or a gradient's rows) and their indices
    case Kind::kScatterAdd:
      r.in[0] = Role::kSelf;
      r.in[1] = Role::kIndex;
      break;
    case Kind::kPointLoss:  // (gradOutput,) self, target, the optional weights
      r.in[fwd ? 1 : 2] = Role::kTarget;
      if (fwd) r.out[0] = Role::kLoss;
      break;
    case Kind::kClassLoss:  // (gradOutput,) self, target, weight (, totalWeight)
      r.in[fwd ? 1 : 2] = Role::kIndex;
      r.in[fwd ? 2 : 3] = Role::kPerColumn;
      if (fwd) {
        r.out[0] = Role::kLoss;
        r.out[1] = Role::kTotalWeight;
      } else {
        r.in[4] = Role::kTotalWeight;
      }
      break;
    case Kind::kSoftmaxLoss:
      if (info.shapes == ShapeRule::kLabelRows) {  // features, labels -> loss, backprop
        r.in[1] = Role::kTarget;
        r.out[0] = Role::kLoss;
        r.out[1] = Role::kResult;
      } else if (fwd) {  // input, target -> lossOut, logProbOut, zlossOut, lseForZlossOut
        r.in[1] = Role::kIndex;
        r.out[0] = Role::kLoss;
        r.out[1] = Role::kResult;
        r.out[2] = Role::kOneElement;
        r.out[3] = Role::kPerRow;
      } else {  // gradLoss, logProb, target -> out
        r.in[2] = Role::kIndex;
      }
      break;
    case Kind::kMapColumnSums:  // PreluBackward: its weight in, gradWeight out
      r.in[2] = Role::kPerColumn;
      r.out[1] = Role::kColumnSum;
      break;
    case Kind::kNoiseMap:  // self and its noise
      r.in[1] = Role::kSecond;
      break;
    default:
      if (info.shapes == ShapeRule::kChannelWeight) r.in[1] = Role::kPerColumn;  // Prelu
      if (info.shapes == ShapeRule::kOneElement) r.in[1] = Role::kOneElement;    // FatreluMul
      // A gated unit's forward's outGelu, its gradient's gelu.
      if (info.is_split && HasGeluOperand(info)) (fwd ? r.out[1] : r.in[2]) = Role::kAux;
      if (!info.is_split && !fwd && info.num_in() > 2) r.in[2] = Role::kBuffer;
      break;
  }
  for (int k = 0; k < info.num_in(); ++k) {  // an optional operand: none
    if (!IsRequired(info.in_names[k])) r.in[k] = Role::kNone;
  }
  for (int k = 0; k < info.num_out(); ++k) {
    if (!IsRequired(info.out_names[k])) r.out[k] = Role::kNone;
  }
  return r;
}

// OpArgs' operands from a tool's tensor per role (view(role): a const TensorView*, null for
// none); the other fields (dim, arrays, scalars) are the tool's.
template <class ViewOf>
void FillOperands(Op op, ViewOf view, OpArgs* a) {
  const OperandRoles r = RolesOf(op);
  a->op = op;
  for (int k = 0; k < kMaxIn; ++k) a->in[k] = r.in[k] == Role::kNone ? nullptr : view(r.in[k]);
  for (int k = 0; k < kMaxOut; ++k) a->out[k] = r.out[k] == Role::kNone ? nullptr : view(r.out[k]);
}

// The outputMask (the prototype's aclBoolArray) of a tool's generic call, one rule for the
// benchmarks and the run-path test: the norms' gradients ask for dx and the first column
// sum (LayerNormBackward's gradBias left out: the benchmarks' tables time dx and dgamma),
// BatchNormBackward for all three where the call holds its gradWeight.
inline void AskForOutputs(OpArgs* a) {
  const OpInfo& info = GetOpInfo(a->op);
  if (info.is_forward) return;
  if (IsNormShape(info.shapes) && info.num_out() > 2) {
    a->bool_array = {true, true, false};
    a->bool_array_given = true;
  }
  if (info.shapes == ShapeRule::kChannelStats && a->out[1] != nullptr) {
    a->bool_array = {true, true, true};
    a->bool_array_given = true;
  }
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_OPERAND_ROLES_H_
