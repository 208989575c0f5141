// docs/activation_parity.md: one row per operator of the list, in its order, beside the
// ops-nn op_api file it follows. The accepted dtypes are probed through the real phase 1
// of the C API; the rule, rank and empty-input columns come from the list's predicates
// (hostnn/op.h); the op_api path and the note on differences come from OpApiRows() below.
// The test renders the table and compares it with the committed page, so the page cannot
// drift from the library. After a change that moves it:
//   HOSTNN_WRITE_PARITY=1 build/tests/parity_table_test
// rewrites the page below its marker line (everything above the marker is kept).

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_prelu_backward.h"
#include "hostnn/op.h"
#include "tests/util/capi_ops.h"

#ifndef HOSTNN_SOURCE_DIR
#define HOSTNN_SOURCE_DIR "."
#endif

namespace hostnn {
namespace test {
namespace {

// The dtypes probed, in the order the cells list them.
struct ProbedDType {
  aclDataType dtype;
  const char* name;
};
constexpr ProbedDType kProbed[] = {
    {ACL_FLOAT, "FLOAT"},   {ACL_FLOAT16, "FLOAT16"},     {ACL_BF16, "BFLOAT16"},
    {ACL_DOUBLE, "DOUBLE"}, {ACL_INT8, "INT8"},           {ACL_UINT8, "UINT8"},
    {ACL_INT16, "INT16"},   {ACL_INT32, "INT32"},         {ACL_INT64, "INT64"},
    {ACL_BOOL, "BOOL"},     {ACL_COMPLEX64, "COMPLEX64"}, {ACL_COMPLEX128, "COMPLEX128"},
};
constexpr int kNumProbed = sizeof(kProbed) / sizeof(kProbed[0]);
// Storage bytes per element: enough for the widest probed dtype (COMPLEX128).
constexpr size_t kMaxElemBytes = 16;

// A set of probed dtypes, bit k for kProbed[k].
using DTypeSet = uint32_t;
constexpr DTypeSet kFloatOnly = 1u;  // kProbed[0]

int ProbedIndex(aclDataType t) {
  for (int k = 0; k < kNumProbed; ++k) {
    if (kProbed[k].dtype == t) return k;
  }
  return -1;
}

std::string ListOf(DTypeSet set) {
  std::string s;
  for (int k = 0; k < kNumProbed; ++k) {
    if ((set >> k & 1u) == 0) continue;
    if (!s.empty()) s += ", ";
    s += kProbed[k].name;
  }
  return s.empty() ? "none" : s;
}

// A dtype CANN's op_api takes for one operand and hostnn refuses: the test checks that the
// probe still refuses it (alone and with every operand alike), and the note says so.
struct Gap {
  const char* operand;              // CANN's name
  std::vector<aclDataType> dtypes;  // refused by hostnn, taken by CANN
};

// Per operator: the CANN entry points beyond aclnn<Name> (nullptr: none; starting with
// "(": a note on aclnn<Name> itself, then the others), the ops-nn file
// its checks follow, whether that file is an op_api (false: CANN generates the entry point
// from the kernel's definition, the file named), the dtypes CANN takes that hostnn refuses,
// and what else differs from the file and why ("equal" where nothing does).
struct OpApiRow {
  Op op;
  const char* entry_points;
  const char* path;
  bool op_api;
  std::vector<Gap> gaps;
  const char* note;
};

const std::vector<OpApiRow>& OpApiRows() {
  static const auto* rows = new std::vector<OpApiRow>{
      {Op::kSiluBackward,
       nullptr,
       "activation/silu_grad/op_api/aclnn_silu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kLogSigmoidBackward,
       nullptr,
       "activation/logsigmoid_grad/op_api/aclnn_logsigmoid_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kHardsigmoidBackward,
       nullptr,
       "activation/hard_sigmoid_grad/op_api/aclnn_hardsigmoid_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kLogSoftmaxBackward,
       nullptr,
       "activation/log_softmax_grad/op_api/aclnn_logsoftmax_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSilu, nullptr, "activation/swish/op_api/aclnn_silu.cpp", true, {}, "equal"},
      {Op::kLogSigmoid,
       nullptr,
       "activation/log_sigmoid/op_api/aclnn_logsigmoid.cpp",
       true,
       {},
       "equal"},
      {Op::kLogSigmoidForward,
       nullptr,
       "activation/log_sigmoid/op_api/aclnn_logsigmoid.cpp",
       true,
       {},
       "equal"},
      {Op::kHardsigmoid,
       nullptr,
       "activation/hard_sigmoid/op_api/aclnn_hardsigmoid.cpp",
       true,
       {},
       "equal"},
      {Op::kInplaceHardsigmoid,
       nullptr,
       "activation/hard_sigmoid/op_api/aclnn_hardsigmoid.cpp",
       true,
       {},
       "equal"},
      {Op::kLogSoftmax,
       nullptr,
       "activation/log_softmax_v2/op_api/aclnn_log_softmax.cpp",
       true,
       {},
       "equal"},
      {Op::kRelu, nullptr, "activation/relu/op_api/aclnn_relu.cpp", true, {}, "equal"},
      {Op::kInplaceRelu, nullptr, "activation/relu/op_api/aclnn_relu.cpp", true, {}, "equal"},
      {Op::kSigmoid, nullptr, "activation/sigmoid/op_api/aclnn_sigmoid.cpp", true, {}, "equal"},
      {Op::kInplaceSigmoid,
       nullptr,
       "activation/sigmoid/op_api/aclnn_sigmoid.cpp",
       true,
       {},
       "equal"},
      {Op::kSigmoidBackward,
       nullptr,
       "activation/sigmoid_grad/op_api/aclnn_sigmoid_backward.cpp",
       true,
       {},
       "CANN computes 16-bit inputs in their promoted dtype before the cast to gradInput; "
       "hostnn computes in f32 and rounds once (more accurate)"},
      {Op::kGelu,
       "`aclnnGeluV2` (approximate 1)",
       "activation/gelu/op_api/aclnn_gelu.cpp",
       true,
       {},
       "equal"},
      {Op::kGeluBackward,
       "`aclnnGeluBackwardV2` (\"tanh\")",
       "activation/gelu_grad/op_api/aclnn_gelu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kFastGelu,
       nullptr,
       "activation/fast_gelu/op_api/aclnn_fast_gelu.cpp",
       true,
       {},
       "equal"},
      {Op::kGeluErf,
       "(hostnn's own name); `aclnnGeluV2` (approximate 0)",
       "activation/gelu_v2/op_api/aclnn_gelu_v2.cpp",
       true,
       {},
       "CANN's op_api reads every approximate but 1 as the erf form; hostnn refuses values other "
       "than 0 and 1 (161002), the two its document names"},
      {Op::kGeluErfBackward,
       "(hostnn's own name); `aclnnGeluBackwardV2` (\"none\")",
       "activation/gelu_grad_v2/op_api/aclnn_gelu_backward_v2.cpp",
       true,
       {},
       "equal"},
      {Op::kFastGeluBackward,
       nullptr,
       "activation/fast_gelu_grad/op_api/aclnn_fast_gelu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kHardswish,
       nullptr,
       "activation/hard_swish/op_host/op_api/aclnn_hardswish.cpp",
       true,
       {},
       "equal"},
      {Op::kInplaceHardswish,
       nullptr,
       "activation/hard_swish/op_host/op_api/aclnn_hardswish.cpp",
       true,
       {},
       "equal"},
      {Op::kHardswishBackward,
       nullptr,
       "activation/hard_swish_grad/op_host/op_api/aclnn_hardswish_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kHardswishBackwardV2,
       nullptr,
       "activation/hard_swish_grad_v2/op_host/op_api/aclnn_hardswish_backward_v2.cpp",
       true,
       {},
       "equal"},
      {Op::kMish, nullptr, "activation/mish/op_api/aclnn_mish.cpp", true, {}, "equal"},
      {Op::kInplaceMish, nullptr, "activation/mish/op_api/aclnn_mish.cpp", true, {}, "equal"},
      {Op::kMishBackward,
       nullptr,
       "activation/mish_grad/op_api/aclnn_mish_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSelu, nullptr, "activation/selu/op_api/aclnn_selu.cpp", true, {}, "equal"},
      {Op::kInplaceSelu, nullptr, "activation/selu/op_api/aclnn_selu.cpp", true, {}, "equal"},
      {Op::kSeluBackward,
       nullptr,
       "activation/selu_grad/op_api/aclnn_selu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSquaredRelu,
       nullptr,
       "activation/squared_relu/op_host/squared_relu_def.cpp",
       false,
       {},
       "CANN's document asks for 1 to 8 dims; hostnn also takes a 0-d input (one element), as "
       "every operator of the list"},
      {Op::kErfinv, nullptr, "activation/erfinv/op_api/aclnn_erfinv.cpp", true, {}, "equal"},
      {Op::kInplaceErfinv, nullptr, "activation/erfinv/op_api/aclnn_erfinv.cpp", true, {}, "equal"},
      {Op::kLeakyRelu,
       nullptr,
       "activation/leaky_relu/op_api/aclnn_leaky_relu.cpp",
       true,
       {},
       "equal"},
      {Op::kInplaceLeakyRelu,
       nullptr,
       "activation/leaky_relu/op_api/aclnn_leaky_relu.cpp",
       true,
       {},
       "equal"},
      {Op::kLeakyReluBackward,
       nullptr,
       "activation/leaky_relu_grad/op_api/aclnn_leaky_relu_backward.cpp",
       true,
       {},
       "CANN computes 16-bit inputs in their promoted 16-bit dtype before the cast to out; "
       "hostnn computes in f32 and rounds once (more accurate)"},
      {Op::kHardshrink,
       nullptr,
       "activation/hard_shrink/op_api/aclnn_hardshrink.cpp",
       true,
       {},
       "equal"},
      {Op::kHardshrinkBackward,
       nullptr,
       "activation/hard_shrink_grad/op_api/aclnn_hardshrink_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSoftshrink,
       nullptr,
       "activation/softshrink/op_api/aclnn_softshrink.cpp",
       true,
       {},
       "equal"},
      {Op::kSoftshrinkBackward,
       nullptr,
       "activation/soft_shrink_grad/op_api/aclnn_softshrink_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kHardtanhBackward,
       nullptr,
       "activation/hardtanh_grad/op_api/aclnn_hardtanh_backward.cpp",
       true,
       {},
       "CANN lets out's dtype differ from the inputs'; hostnn asks for one dtype for the three"},
      {Op::kElu, nullptr, "activation/elu/op_api/aclnn_elu.cpp", true, {}, "equal"},
      {Op::kInplaceElu, nullptr, "activation/elu/op_api/aclnn_elu.cpp", true, {}, "equal"},
      {Op::kCelu, nullptr, "activation/celu_v2/op_api/aclnn_celu.cpp", true, {}, "equal"},
      {Op::kInplaceCelu, nullptr, "activation/celu_v2/op_api/aclnn_celu.cpp", true, {}, "equal"},
      {Op::kEluBackward,
       nullptr,
       "activation/elu_grad_v2/op_api/aclnn_elu_backward.cpp",
       true,
       {},
       "CANN computes in gradOutput's dtype, then casts to gradInput; hostnn computes in f32 and "
       "rounds once"},
      {Op::kSoftplus,
       nullptr,
       "activation/softplus_v2/op_api/aclnn_softplus.cpp",
       true,
       {},
       "equal"},
      {Op::kSoftplusBackward,
       nullptr,
       "activation/softplus_v2_grad/op_api/aclnn_softplus_backward.cpp",
       true,
       {},
       "CANN's op_api does not check a null beta or threshold; hostnn refuses them (161001), as "
       "CANN's document says"},
      {Op::kShrink,
       nullptr,
       "activation/shrink/op_api/aclnn_shrink.cpp",
       true,
       {},
       "a NaN self gives NaN (SPEC: NaN in, NaN out) where CANN's kernel gives 0"},
      {Op::kThreshold,
       nullptr,
       "activation/threshold/op_host/op_api/aclnn_threshold.cpp",
       true,
       {},
       "equal (an integer self into UINT16, UINT32 or UINT64 out keeps the low bits, which the "
       "probe's FLOAT self does not show)"},
      {Op::kInplaceThreshold,
       nullptr,
       "activation/threshold/op_host/op_api/aclnn_threshold.cpp",
       true,
       {},
       "equal"},
      {Op::kThresholdBackward,
       nullptr,
       "activation/threshold_grad_v2_d/op_api/aclnn_threshold_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSwish, nullptr, "activation/swish/op_api/aclnn_swish.cpp", true, {}, "equal"},
      {Op::kSwishBackward,
       nullptr,
       "activation/swish_grad/op_api/aclnn_swish_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSoftmax, nullptr, "activation/softmax_v2/op_api/aclnn_softmax.cpp", true, {}, "equal"},
      {Op::kSoftmaxBackward,
       nullptr,
       "activation/softmax_grad/op_api/aclnn_softmax_backward.cpp",
       true,
       {},
       "CANN checks no dtype of out (it casts the result to it); hostnn takes the float dtypes. "
       "CANN computes 16-bit inputs in their dtype; hostnn in f32, rounded once"},
      {Op::kHeaviside,
       nullptr,
       "activation/heaviside/op_host/op_api/aclnn_heaviside.cpp",
       true,
       {},
       "CANN checks each dtype on its own (a mix fails later, in its kernel) and out by its "
       "element count; hostnn asks for one dtype and out of the broadcast shape, as PyTorch. A NaN "
       "input gives NaN where CANN's kernel gives 0"},
      {Op::kAddRelu,
       nullptr,
       "activation/relu/op_api/aclnn_add_relu.cpp",
       true,
       {{"out", {ACL_DOUBLE, ACL_COMPLEX64, ACL_COMPLEX128}}},
       "not implemented. An INT32 promotion with alpha other than 1 is computed exactly, as "
       "PyTorch's add (CANN's Axpy kernel does not document its integer rounding)"},
      {Op::kInplaceAddRelu,
       nullptr,
       "activation/relu/op_api/aclnn_add_relu.cpp",
       true,
       {},
       "an INT32 promotion with alpha other than 1 is computed exactly, as AddRelu's"},
      {Op::kGlu, nullptr, "activation/glu/op_host/op_api/aclnn_glu.cpp", true, {}, "equal"},
      {Op::kGluBackward,
       nullptr,
       "activation/glu_grad/op_api/aclnn_glu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kSwiGlu,
       nullptr,
       "activation/swi_glu/op_host/swi_glu_def.cpp",
       false,
       {},
       "CANN's tiling checks the split (561002); hostnn checks it in phase 1 (161002)"},
      {Op::kSwiGluGrad,
       nullptr,
       "activation/swi_glu_grad/op_host/swi_glu_grad_def.cpp",
       false,
       {},
       "CANN never checks yGrad's shape; hostnn asks for x's with dim halved, the elements it "
       "reads"},
      {Op::kGeGlu,
       nullptr,
       "activation/ge_glu_v2/op_host/op_api/aclnn_geglu.cpp",
       true,
       {},
       "CANN skips the outputs' dtype check for an empty or 0-d self; hostnn always checks it"},
      {Op::kGeGluV3,
       nullptr,
       "activation/ge_glu_v2/op_host/op_api/aclnn_geglu.cpp",
       true,
       {},
       "as GeGlu"},
      {Op::kGeGluBackward,
       nullptr,
       "activation/ge_glu_grad_v2/op_host/op_api/aclnn_geglu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kGeGluV3Backward,
       nullptr,
       "activation/ge_glu_grad_v2/op_host/op_api/aclnn_geglu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kGeluMul,
       nullptr,
       "activation/gelu_mul/op_host/gelu_mul_def.cpp",
       false,
       {},
       "CANN checks neither out's shape nor its memory; hostnn asks for input's shape with the "
       "last dim halved and refuses an out in input's memory (161002)"},
      {Op::kFatreluMul,
       nullptr,
       "activation/fatrelu_mul/op_host/fatrelu_mul_def.cpp",
       false,
       {},
       "a NaN first half gives NaN (SPEC: NaN in, NaN out) where CANN's select gives 0 times the "
       "second half"},
      {Op::kSituGlu, nullptr, "activation/situ_glu/op_host/situ_glu_def.cpp", false, {}, "equal"},
      {Op::kSituGluGrad,
       nullptr,
       "activation/situ_glu_grad/op_host/situ_glu_grad_def.cpp",
       false,
       {},
       "CANN checks out nowhere; hostnn asks for x's shape (561002), the elements it writes"},
      {Op::kClippedSwiglu,
       nullptr,
       "activation/clipped_swiglu/op_host/clipped_swiglu_def.cpp",
       false,
       {},
       "CANN's kernel sums groupIndexOptional in FLOAT (exact below 2^24); hostnn sums the INT64 "
       "counts exactly, saturating"},
      {Op::kClippedSwigluGrad,
       nullptr,
       "activation/clipped_swiglu_grad/op_host/clipped_swiglu_grad_def.cpp",
       false,
       {},
       "CANN checks only gradXOut's rank; hostnn asks for x's shape (561002), the elements it "
       "writes"},
      {Op::kPrelu,
       nullptr,
       "activation/p_relu/op_api/aclnn_prelu.cpp",
       true,
       {},
       "CANN computes two 16-bit inputs in their promoted dtype before the cast to out; hostnn "
       "computes in f32 (a FLOAT out gets the exact f32 product)"},
      {Op::kPreluBackward,
       nullptr,
       "activation/p_relu_grad_update/op_api/aclnn_prelu_backward.cpp",
       true,
       {},
       "equal"},
      {Op::kRReluWithNoise,
       nullptr,
       "activation/leaky_relu/op_api/aclnn_rrelu_with_noise.cpp",
       true,
       {},
       "the numbers drawn differ: CANN's come from the device's random unit, hostnn's from its "
       "documented Philox4x32-10 stream (the same bits for a seed and offset on every machine); "
       "noise is written where self is below 0 (op_api's Less; the document says at or below)"},
      {Op::kInplaceRReluWithNoise,
       nullptr,
       "activation/leaky_relu/op_api/aclnn_rrelu_with_noise.cpp",
       true,
       {},
       "as RReluWithNoise"},
  };
  return *rows;
}

// ---- The probe -------------------------------------------------------------------------

// One operand of a phase-1 call: where it goes (0..2 the C API table's in0..in2, 3 its out,
// 4 PreluBackward's gradWeight), its CANN name, shape and baseline dtype. An index operand
// (groupIndexOptional, INT64) keeps its dtype when the others are set alike.
struct Operand {
  int position;
  const char* name;
  std::vector<int64_t> shape;
  aclDataType base = ACL_FLOAT;
  bool index = false;
};

// The operands of a valid call with every tensor FLOAT: [4, 6] (a gated unit's self, split
// along its last dim into two [4, 3] halves), a channel weight of 6, a one-element
// threshold, one group count.
std::vector<Operand> Operands(Op op) {
  const OpInfo& info = GetOpInfo(op);
  const std::vector<int64_t> full = {4, 6}, half = {4, 3}, channels = {6}, one = {1};
  std::vector<Operand> v;
  for (int i = 0; i < info.num_in(); ++i) {
    Operand o{i, info.in_names[i], full};
    if (info.shapes == ShapeRule::kChannelWeight && i == info.num_in() - 1) o.shape = channels;
    if (info.is_split) {
      if (info.is_forward) {
        o.shape = i == 0 ? full : one;  // FatreluMul's threshold, ClippedSwiglu's counts
      } else {
        o.shape = i == 0 ? half : i == 1 ? full : CountsSlot(info) == i ? one : half;
      }
    }
    if (CountsSlot(info) == i) o.base = ACL_INT64, o.index = true;
    v.push_back(o);
  }
  if (!IsInplace(info.signature)) {
    for (int j = 0; j < info.num_out(); ++j) {
      Operand o{j == 0 ? 3 : 2, info.out_names[j], full};
      if (info.is_split && info.is_forward) o.shape = half;
      if (info.kind == Kind::kMapColumnSums && j == 1) o.position = 4, o.shape = channels;
      v.push_back(o);
    }
  }
  return v;
}

// Phase 1 with the operands' dtypes `dt` (one per operand): whether it succeeds.
bool Accepts(Op op, const std::vector<Operand>& operands, const std::vector<aclDataType>& dt) {
  std::vector<std::vector<uint64_t>> storage(operands.size());
  aclTensor* at[5] = {nullptr, nullptr, nullptr, nullptr, nullptr};
  for (size_t k = 0; k < operands.size(); ++k) {
    const Operand& o = operands[k];
    int64_t n = 1;
    for (int64_t d : o.shape) n *= d;
    storage[k].assign(static_cast<size_t>(n) * kMaxElemBytes / sizeof(uint64_t), 0);
    std::vector<int64_t> strides(o.shape.size(), 1);
    for (size_t i = o.shape.size(); i-- > 1;) strides[i - 1] = strides[i] * o.shape[i];
    at[o.position] =
        aclCreateTensor(o.shape.data(), o.shape.size(), dt[k], strides.data(), 0, ACL_FORMAT_ND,
                        o.shape.data(), o.shape.size(), storage[k].data());
  }
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st =
      op == Op::kPreluBackward
          ? aclnnPreluBackwardGetWorkspaceSize(at[0], at[1], at[2], at[3], at[4], &ws, &exec)
          : GetCApiOp(op).phase1(at[0], at[1], at[2], at[3], -1, &ws, &exec);
  if (st == ACLNN_SUCCESS) aclDestroyAclOpExecutor(exec);
  for (aclTensor* t : at) {
    if (t != nullptr) aclDestroyTensor(t);
  }
  return st == ACLNN_SUCCESS;
}

struct Probe {
  std::vector<Operand> operands;
  bool baseline_ok = false;
  std::vector<DTypeSet> alone;  // per operand: the others at their baseline
  DTypeSet alike = 0;           // every operand (but an index) set to the dtype
};

Probe ProbeOp(Op op) {
  Probe p;
  p.operands = Operands(op);
  std::vector<aclDataType> base;
  for (const Operand& o : p.operands) base.push_back(o.base);
  p.baseline_ok = Accepts(op, p.operands, base);
  p.alone.assign(p.operands.size(), 0);
  for (int k = 0; k < kNumProbed; ++k) {
    for (size_t s = 0; s < p.operands.size(); ++s) {
      std::vector<aclDataType> dt = base;
      dt[s] = kProbed[k].dtype;
      if (Accepts(op, p.operands, dt)) p.alone[s] |= 1u << k;
    }
    std::vector<aclDataType> dt = base;
    for (size_t s = 0; s < p.operands.size(); ++s) {
      if (!p.operands[s].index) dt[s] = kProbed[k].dtype;
    }
    if (Accepts(op, p.operands, dt)) p.alike |= 1u << k;
  }
  return p;
}

// The dtypes cell: "all alike: ..." when no operand takes anything but FLOAT beside the
// others' FLOAT; else one line per operand: what it takes alone, and what it takes only
// with every operand alike.
std::string DTypesCell(const Probe& p) {
  bool all_tied = p.operands.size() > 1;
  for (size_t s = 0; s < p.operands.size(); ++s) {
    if (!p.operands[s].index && p.alone[s] != kFloatOnly) all_tied = false;
  }
  std::string cell;
  if (all_tied) {
    cell = "all alike: " + ListOf(p.alike);
    for (size_t s = 0; s < p.operands.size(); ++s) {
      if (p.operands[s].index)
        cell += "<br>`" + std::string(p.operands[s].name) + "`: " + ListOf(p.alone[s]);
    }
    return cell;
  }
  for (size_t s = 0; s < p.operands.size(); ++s) {
    const DTypeSet alone = p.alone[s], extra = p.alike & ~alone;
    std::string text;
    if (p.operands[s].index || extra == 0) {
      text = ListOf(alone);
    } else if (alone == kFloatOnly) {
      text = "same as the others: " + ListOf(p.alike);
    } else {
      text = ListOf(alone) + "; with the others alike also " + ListOf(extra);
    }
    if (!cell.empty()) cell += "<br>";
    cell += "`" + std::string(p.operands[s].name) + "`: " + text;
  }
  return cell;
}

// ---- The rule columns, from the list's predicates ----------------------------------------

const char* RuleName(DTypeRule r) {
  switch (r) {
    case DTypeRule::kAllSame:
      return "AllSame";
    case DTypeRule::kAllSameOrInt32:
      return "AllSameOrInt32";
    case DTypeRule::kInt32Int8ThenCast:
      return "Int32Int8ThenCast";
    case DTypeRule::kAllSameOrInt32Int8Rint:
      return "AllSameOrInt32Int8Rint";
    case DTypeRule::kAllSameOrExactInt:
      return "AllSameOrExactInt";
    case DTypeRule::kExactIntThenCast:
      return "ExactIntThenCast";
    case DTypeRule::kAllSameOrSelectInt:
      return "AllSameOrSelectInt";
    case DTypeRule::kAllSameOrFloatOut:
      return "AllSameOrFloatOut";
    case DTypeRule::kInputsAnyOutAnyFloat:
      return "InputsAnyOutAnyFloat";
    case DTypeRule::kInputsSameOutAnyFloat:
      return "InputsSameOutAnyFloat";
    case DTypeRule::kAnyFloat:
      return "AnyFloat";
    case DTypeRule::kInputsAnyOutAny:
      return "InputsAnyOutAny";
    case DTypeRule::kInputsAnyIntSelfOutAny:
      return "InputsAnyIntSelfOutAny";
    case DTypeRule::kFloatThenCast:
      return "FloatThenCast";
    case DTypeRule::kFloatOrHalfThenCast:
      return "FloatOrHalfThenCast";
    case DTypeRule::kIntToFloatThenCast:
      return "IntToFloatThenCast";
    case DTypeRule::kPromoteIntExact:
      return "PromoteIntExact";
    case DTypeRule::kPromoteOutAnyFloat:
      return "PromoteOutAnyFloat";
    case DTypeRule::kNormFloat:
      return "NormFloat";
    case DTypeRule::kNormOutLikeInput:
      return "NormOutLikeInput";
    case DTypeRule::kNormGradLikeDy:
      return "NormGradLikeDy";
    case DTypeRule::kNormGradAny:
      return "NormGradAny";
    case DTypeRule::kNormLikeInput:
      return "NormLikeInput";
    case DTypeRule::kNormChannelAny:
      return "NormChannelAny";
    case DTypeRule::kNormAddMixed:
      return "NormAddMixed";
    case DTypeRule::kNormGradLikeAll:
      return "NormGradLikeAll";
    case DTypeRule::kGatherAny:
      return "GatherAny";
    case DTypeRule::kScatterFloat:
      return "ScatterFloat";
    case DTypeRule::kInputsSameOutAny:
      return "InputsSameOutAny";
    case DTypeRule::kInputsAnyOutLikeTarget:
      return "InputsAnyOutLikeTarget";
    case DTypeRule::kClassFloat:
      return "ClassFloat";
    case DTypeRule::kSoftmaxLossFloat:
      return "SoftmaxLossFloat";
  }
  return "?";
}

// What the rule implies for the computing dtype (hostnn/op.h has the full comments).
const char* Promotion(DTypeRule r) {
  switch (r) {
    case DTypeRule::kAllSame:
      return "no promotion: one dtype throughout";
    case DTypeRule::kAllSameOrInt32:
      return "no promotion: one dtype throughout (INT32 computed in f32, truncated)";
    case DTypeRule::kInt32Int8ThenCast:
      return "computed in self's dtype (INT32 in f32, truncated; INT8 in int8 lanes), then cast "
             "to out's";
    case DTypeRule::kAllSameOrInt32Int8Rint:
      return "no promotion: one dtype throughout (INT32, INT8 computed in f32, rounded to nearest "
             "even)";
    case DTypeRule::kAllSameOrExactInt:
      return "no promotion: one dtype throughout (integers computed exactly)";
    case DTypeRule::kExactIntThenCast:
      return "computed in self's dtype (integers exactly, INT16 in INT32), then cast to out's "
             "where CanCast allows";
    case DTypeRule::kAllSameOrSelectInt:
      return "no promotion: one dtype throughout (integers selected exactly)";
    case DTypeRule::kAllSameOrFloatOut:
      return "no promotion: inputs one dtype, out that one or FLOAT";
    case DTypeRule::kInputsAnyOutAnyFloat:
      return "inputs promoted, computed in f32, cast to out's dtype";
    case DTypeRule::kInputsSameOutAnyFloat:
      return "inputs one dtype, computed in f32, cast to out's dtype";
    case DTypeRule::kAnyFloat:
      return "self cast to out's dtype first";
    case DTypeRule::kInputsAnyOutAny:
      return "inputs promoted, computed in f32, cast to out's dtype";
    case DTypeRule::kInputsAnyIntSelfOutAny:
      return "inputs promoted (an integer or BOOL self cast to FLOAT first), computed in f32, "
             "cast to out's dtype";
    case DTypeRule::kFloatThenCast:
    case DTypeRule::kFloatOrHalfThenCast:
      return "computed in self's dtype, then cast to out's";
    case DTypeRule::kIntToFloatThenCast:
      return "computed in self's dtype (an integer or BOOL self cast to FLOAT first), then cast "
             "to out's";
    case DTypeRule::kPromoteIntExact:
      return "PromoteType of the inputs: a float one computed in f32, an integer one exactly "
             "(wrapping); cast to out's dtype";
    case DTypeRule::kNormFloat:
      return "input a compute dtype, weight and bias FLOAT or input's, computed in f32 with double "
             "statistics; each output any compute dtype";
    case DTypeRule::kNormOutLikeInput:
      return "x a compute dtype, gamma FLOAT or x's, y x's, rstd FLOAT; computed in f32 with "
             "double statistics";
    case DTypeRule::kNormGradLikeDy:
      return "dy, x and dxOut one compute dtype, gamma FLOAT or that, rstd and dgammaOut FLOAT; "
             "computed in f32 with double sums";
    case DTypeRule::kNormLikeInput:
      return "x1 a compute dtype, x2, gamma, yOut and xOut x1's, rstdOut FLOAT; computed in f32 "
             "with double statistics";
    case DTypeRule::kNormAddMixed:
      return "x1 and x2 a compute dtype t, or one of them FLOAT (t FLOAT); gamma FLOAT or t, beta "
             "gamma's, bias, yOut and xOut t, meanOut and rstdOut FLOAT; computed in f32 with "
             "double statistics";
    case DTypeRule::kNormGradLikeAll:
      return "dy, x1, x2, gamma, dsum and dxOut one compute dtype, rstd, mean, dgammaOut and "
             "dbetaOut FLOAT; computed in f32 with double sums";
    case DTypeRule::kGatherAny:
      return "weight and out one dtype, copied exactly; indices INT32 or INT64";
    case DTypeRule::kScatterFloat:
      return "grad and out each a compute dtype, indices any of nine; summed in double, cast to "
             "out's dtype";
    case DTypeRule::kInputsSameOutAny:
      return "inputs one compute dtype, computed in double, cast to out's dtype";
    case DTypeRule::kInputsAnyOutLikeTarget:
      return "inputs any compute dtypes, computed in double, rounded once to target's dtype "
             "(out's)";
    case DTypeRule::kNormGradAny:
      return "gradOut and input one compute dtype, weight FLOAT or input's, mean, rstd, bias and "
             "every output any compute dtype; computed in f32 with double sums";
    case DTypeRule::kNormChannelAny:
      return "input (and gradOut, alike) a compute dtype, every other tensor any compute dtype; "
             "computed in f32 with double statistics";
    case DTypeRule::kPromoteOutAnyFloat:
      return "PromoteType of the inputs (integer inputs cast to it), computed in f32, cast to "
             "out's dtype";
    case DTypeRule::kClassFloat:
      return "self a compute dtype, weight self's, target INT64, INT32 or UINT8; computed in "
             "double, rounded once to each output's dtype (any self's casts to)";
    case DTypeRule::kSoftmaxLossFloat:
      return "input a compute dtype, weight FLOAT, target INT64 or INT32 (dense labels: any "
             "compute dtype); computed in f32 and double, rounded once to input's dtype";
  }
  return "?";
}

std::string RuleCell(Op op) {
  const DTypeRule r = GetOpInfo(op).dtypes;
  std::string s = "`" + std::string(RuleName(r)) + "`: " + Promotion(r);
  if (ComputesDouble(op)) s += "; DOUBLE computed in f64";
  if (CastsDoubleToFloat(op)) s += "; DOUBLE inputs cast to FLOAT";
  // An in-place operator's out is its input: the probed cell says what it takes.
  if (!IsInplace(GetOpInfo(op).signature)) {
    if (OutTakesDouble(op)) s += "; out may be DOUBLE";
    if (OutTakesComplex(op)) s += "; out may be complex";
  }
  return s;
}

const char* EmptyCell(Op op) {
  if (EmptyInputSkipsChecks(op)) return "succeeds before the checks";
  if (EmptyInputSkipsShapes(op))
    return "dtypes and ranks checked, then succeeds (before the shapes)";
  return "checked, then succeeds";
}

std::string EntryCell(Op op, const OpApiRow& row) {
  std::string s = "`aclnn" + std::string(GetOpInfo(op).name) + "`";
  // A note on the first name ("(hostnn's own name)") follows it without a separator.
  if (row.entry_points != nullptr)
    s += (row.entry_points[0] == '(' ? " " : "; ") + std::string(row.entry_points);
  return s;
}

std::string FileCell(const OpApiRow& row) {
  return row.op_api ? "`" + std::string(row.path) + "`"
                    : "none (generated from `" + std::string(row.path) + "`)";
}

std::string GapText(const Gap& g) {
  std::string s;
  for (size_t k = 0; k < g.dtypes.size(); ++k) {
    if (k > 0) s += k + 1 == g.dtypes.size() ? " and " : ", ";
    s += kProbed[ProbedIndex(g.dtypes[k])].name;
  }
  return s + " " + g.operand;
}

std::string NoteCell(const OpApiRow& row) {
  if (row.gaps.empty()) return row.note;
  std::string s = "refuses ";
  for (size_t k = 0; k < row.gaps.size(); ++k) {
    if (k > 0) s += "; ";
    s += GapText(row.gaps[k]);
  }
  return s + " (161002), which CANN's op_api takes: " + row.note;
}

// The operators of ops-nn's activation/ folder, the page's: not the normalisations
// (docs/norm_family.md), the embedding and the losses (docs/loss_embedding_family.md), which
// the list holds after them.
bool InActivationFamily(Op op) {
  return !IsNormFamily(GetOpInfo(op).shapes) && !IsIndexKind(GetOpInfo(op).kind) &&
         !IsLossKind(GetOpInfo(op).kind);
}

const OpApiRow* RowOf(Op op) {
  for (const OpApiRow& r : OpApiRows()) {
    if (r.op == op) return &r;
  }
  return nullptr;
}

struct Rendered {
  std::string table;
  std::vector<std::string> problems;  // what makes the table wrong, whatever the page holds
};

Rendered Render() {
  Rendered out;
  std::ostringstream t;
  t << "| operator | CANN entry points | ops-nn file (op_api) | dtypes phase 1 accepts (probed) "
       "| dtype rule: promotion | rank | empty input | difference from op_api, and why |\n"
       "|---|---|---|---|---|---|---|---|\n";
  int family_ops = 0;
  for (Op op : AllOps()) {
    const OpInfo& info = GetOpInfo(op);
    if (!InActivationFamily(op)) continue;
    ++family_ops;
    const OpApiRow* row = RowOf(op);
    if (row == nullptr) {
      out.problems.push_back(std::string(info.name) + " has no row in OpApiRows()");
      continue;
    }
    const Probe p = ProbeOp(op);
    if (!p.baseline_ok)
      out.problems.push_back(std::string(info.name) + ": the all-FLOAT baseline is refused");
    for (const Gap& g : row->gaps) {
      size_t s = 0;
      while (s < p.operands.size() && std::string(p.operands[s].name) != g.operand) ++s;
      if (s == p.operands.size()) {
        out.problems.push_back(std::string(info.name) + ": no operand " + g.operand);
        continue;
      }
      for (aclDataType d : g.dtypes) {
        const int k = ProbedIndex(d);
        if (k < 0 || ((p.alone[s] | p.alike) >> k & 1u) != 0) {
          out.problems.push_back(std::string(info.name) + ": " + g.operand + " now takes " +
                                 (k < 0 ? "?" : kProbed[k].name) +
                                 ": drop it from its gaps in OpApiRows()");
        }
      }
    }
    t << "| " << info.name << " | " << EntryCell(op, *row) << " | " << FileCell(*row) << " | "
      << DTypesCell(p) << " | " << RuleCell(op) << " | "
      << (MaxRank(op) == kAnyRank ? "any" : std::to_string(MaxRank(op))) << " | " << EmptyCell(op)
      << " | " << NoteCell(*row) << " |\n";
  }
  int k = 0;
  for (const OpApiRow& r : OpApiRows()) {
    if (!IsValidOp(r.op) || static_cast<int>(r.op) != k++) {
      out.problems.push_back("OpApiRows() is not in the list's order, one row an operator (row " +
                             std::to_string(k - 1) + ")");
      break;
    }
  }
  if (k != family_ops) {
    out.problems.push_back("OpApiRows() has a row count other than the family's operators'");
  }
  out.table = t.str();
  return out;
}

constexpr const char kMarker[] =
    "<!-- Generated below this line by tests/parity_table_test.cc "
    "(HOSTNN_WRITE_PARITY=1 build/tests/parity_table_test); edit above it only. -->";
constexpr const char kPage[] = HOSTNN_SOURCE_DIR "/docs/activation_parity.md";
constexpr const char kRegenerate[] = "HOSTNN_WRITE_PARITY=1 build/tests/parity_table_test";

bool ReadFile(const char* path, std::string* text) {
  std::ifstream f(path, std::ios::binary);
  if (!f) return false;
  std::ostringstream s;
  s << f.rdbuf();
  *text = s.str();
  return true;
}

TEST(ParityTable, MatchesDocsActivationParity) {
  const Rendered r = Render();
  for (const std::string& p : r.problems) ADD_FAILURE() << p;

  std::string page;
  const bool have_page = ReadFile(kPage, &page);
  const size_t at = have_page ? page.find(kMarker) : std::string::npos;
  const std::string head = at == std::string::npos
                               ? std::string(kMarker) + "\n"
                               : page.substr(0, at + sizeof(kMarker) - 1) + "\n";
  const std::string want = head + "\n" + r.table;

  const char* write = std::getenv("HOSTNN_WRITE_PARITY");
  if (write != nullptr && std::string(write) == "1") {
    std::ofstream f(kPage, std::ios::binary | std::ios::trunc);
    f << want;
    ASSERT_TRUE(f.good()) << "cannot write " << kPage;
    std::cout << "wrote " << kPage << "\n";
    return;
  }
  ASSERT_TRUE(have_page) << kPage << " is missing; run `" << kRegenerate << "` from the source dir";
  ASSERT_NE(at, std::string::npos) << kPage << " has no marker line; run `" << kRegenerate << "`";
  if (page == want) return;
  // The first line that differs, to show what moved.
  std::istringstream a(page), b(want);
  std::string la, lb;
  int line = 0;
  while (true) {
    const bool ga = static_cast<bool>(std::getline(a, la));
    const bool gb = static_cast<bool>(std::getline(b, lb));
    ++line;
    if (!ga && !gb) break;
    if (!ga || !gb || la != lb) {
      ADD_FAILURE() << kPage << " is out of date (line " << line
                    << ").\n  page:      " << (ga ? la : "<end>")
                    << "\n  generated: " << (gb ? lb : "<end>")
                    << "\nRegenerate it from the source dir: " << kRegenerate;
      return;
    }
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
