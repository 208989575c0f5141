// The PointLoss kind's kernels for every compiled SIMD target, and their dispatch entry
// (GetPointLossKernels): over n contiguous elements of one storage type, each operator a
// term functor and the same two loops, the terms (TermsOf) and their sum (SumOf).
// - MseLoss: (a - b)^2; BinaryCrossEntropyWithLogits and its two gradients: the formulas of
//   kernels/kernels.h. MseLoss's term in double from the exactly widened inputs (no fused
//   multiply-add): the exact one but for its one rounding. The cross entropy's too, but
//   for e^-|x| and log(1 + e^-|x|), taken in f32 lanes (Log1pExpNegAbs, BceGradTerm's sigmoids:
//   within about 3 f32 ULP of themselves, below 2^-21 of the magnitudes the term adds). Those
//   f32 parts are computed first for a chunk of kChunk elements at the full f32 width (twice
//   the double lanes the terms run in; F32Parts), then read by the terms' double pass.
// - MseLossBackward in f32 in the order of CANN's MseLossGradV2 kernel (its bits).
// - The sums are kernels/partial_sums-inl.h's fixed-order sums: the same bits on every target
//   and, as the executor fixes where each sum starts, for any thread count.
// An absent optional input (a null pointer: BinaryCrossEntropyWithLogits's weights) reads as 1.

#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/loss_kernels.cc"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <algorithm>
#include <type_traits>

#include <hwy/contrib/math/math-inl.h>
#include <hwy/highway.h>

#include "kernels/convert-inl.h"
#include "kernels/kernels.h"
#include "kernels/partial_sums-inl.h"

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

constexpr size_t kPad = HWY_MAX_BYTES / sizeof(float);  // a padded copy's elements
using Inputs = const void* const*;                      // kMaxLossInputs pointers

// Input k at element i widened exactly to double lanes: a required input (never null), and
// an optional one (1 where it is absent).
template <class Tag, class DD>
HWY_INLINE hn::Vec<DD> Load(DD dd, const typename Tag::T* const* x, int k, size_t i) {
  const hn::Rebind<float, DD> df;
  return hn::PromoteTo(dd, LoadF32(df, Tag(), x[k] + i));
}
template <class Tag, class DD>
HWY_INLINE hn::Vec<DD> LoadOr1(DD dd, const typename Tag::T* const* x, int k, size_t i) {
  return x[k] == nullptr ? hn::Set(dd, 1.0) : Load<Tag>(dd, x, k, i);
}

// log(1 + e^-|x|) of double lanes holding floats (every loss input is one, widened exactly),
// in f32 lanes: Highway's f32 Exp, within 1 ULP, and Highway's f32 Log1p of it, within 2
// ULP, so log(1 + e^-|x|) (the part softplus(x) and softplus(-x) share: softplus(x) =
// max(x, 0) + it, neither overflowing) within about 3 f32 ULP of itself, which is below
// 2^-21 of the magnitudes each term adds (the terms are then formed in double). A vector with
// a lane past |x| = 80, where e^-|x| nears f32's subnormals and would lose its relative
// accuracy, takes Highway's double Exp and Log1p instead.
constexpr double kF32ExpLimit = 80.0;
template <class DD>
HWY_INLINE bool NeedsDoubleExp(DD dd, hn::Vec<DD> x) {
  return !hn::AllFalse(dd, hn::Not(hn::Le(hn::Abs(x), hn::Set(dd, kF32ExpLimit))));
}

// The f32 parts of a chunk's terms, element j of the chunk at [j]: for the losses
// log(1 + e^-|x|) in p; for the gradient s(|x|) = 1 / (1 + e) in p and s(-|x|) = e / (1 + e)
// in q (e = e^-|x|). Computed a whole f32 vector at a time (FillF32Parts): the same operations
// lane by lane as on the half-width vectors of the double pass, so the same bits.
constexpr size_t kChunk = 256;  // a multiple of kRowPartials and of every target's f32 lanes
struct F32Parts {
  HWY_ALIGN float p[kChunk];
  HWY_ALIGN float q[kChunk];
};
struct Log1pExpPart {  // p = log(1 + e^-|x|)
  template <class DF>
  HWY_INLINE void operator()(DF df, hn::Vec<DF> x, float* p, float* /*q*/) const {
    hn::Store(hn::Log1p(df, hn::Exp(df, hn::Neg(hn::Abs(x)))), df, p);
  }
};
struct SigmoidPairPart {  // p = s(|x|), q = s(-|x|)
  template <class DF>
  HWY_INLINE void operator()(DF df, hn::Vec<DF> x, float* p, float* q) const {
    const auto e = hn::Exp(df, hn::Neg(hn::Abs(x)));
    const auto big = hn::Div(hn::Set(df, 1.0f), hn::Add(hn::Set(df, 1.0f), e));
    hn::Store(big, df, p);
    hn::Store(hn::Mul(e, big), df, q);
  }
};
// The parts of x[0, n) (n <= kChunk), the last partial vector from a zero-padded copy.
template <class Tag, class Part>
HWY_INLINE void FillF32Parts(const typename Tag::T* x, size_t n, Part part, F32Parts* out) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> df;
  const size_t N = hn::Lanes(df);
  size_t i = 0;
  for (; i + N <= n; i += N) part(df, LoadF32(df, Tag(), x + i), out->p + i, out->q + i);
  if (i < n) {  // i + N <= kChunk: kChunk is a multiple of N
    HWY_ALIGN T pad[kPad] = {};
    for (size_t j = 0; j < n - i; ++j) pad[j] = x[i + j];
    part(df, LoadF32(df, Tag(), pad), out->p + i, out->q + i);
  }
}

// log(1 + e^-|x|) for the double lanes x at chunk element `at`: the f32 part, or in double
// where a lane is past the f32 exponential's limit.
template <class DD>
HWY_INLINE hn::Vec<DD> Log1pExpNegAbs(DD dd, hn::Vec<DD> x, const F32Parts* parts, size_t at) {
  if (HWY_UNLIKELY(NeedsDoubleExp(dd, x))) {
    return hn::Log1p(dd, hn::Exp(dd, hn::Neg(hn::Abs(x))));
  }
  const hn::Rebind<float, DD> df;
  return hn::PromoteTo(dd, hn::LoadU(df, parts->p + at));
}

// softplus(x) = max(x, 0) + log(1 + e^-|x|) and softplus(-x) = max(-x, 0) + the same,
// neither overflowing nor cancelling.
template <class DD>
struct SoftplusPair {
  hn::Vec<DD> pos, neg;  // softplus(x), softplus(-x)
  HWY_INLINE SoftplusPair(DD dd, hn::Vec<DD> x, const F32Parts* parts, size_t at) {
    const auto shared = Log1pExpNegAbs(dd, x, parts, at);
    pos = hn::Add(hn::Max(x, hn::Zero(dd)), shared);
    neg = hn::Add(hn::Max(hn::Neg(x), hn::Zero(dd)), shared);
  }
};

// The terms, in double. in: the operator's inputs in the list's order; x[k] + i the vector's
// elements, `at` its first element's place in the chunk (F32Parts). A term with f32 parts
// names them (Part) and the input they are of (kOf).
struct MseTerm {  // (self - target)^2
  template <class Tag, class DD>
  HWY_INLINE hn::Vec<DD> operator()(DD dd, Tag, const typename Tag::T* const* x, size_t i,
                                    size_t /*at*/) const {
    const auto d = hn::Sub(Load<Tag>(dd, x, 0, i), Load<Tag>(dd, x, 1, i));
    return hn::Mul(d, d);
  }
};

// -w [pw t log s(x) + (1 - t) log(1 - s(x))] = w [pw t softplus(-x) + (1 - t) softplus(x)]
// (x self, t target, w weight, pw posWeight), each softplus max(+-x, 0) plus the shared
// log(1 + e^-|x|): for t in [0, 1] and pw >= 0 nothing cancels (the form w [(1 - t) x +
// (1 + (pw - 1) t) softplus(-x)] would take x - x for x << 0 and lose the small result).
struct BceTerm {
  using Part = Log1pExpPart;
  static constexpr int kOf = 0;
  const F32Parts* parts = nullptr;
  template <class Tag, class DD>
  HWY_INLINE hn::Vec<DD> operator()(DD dd, Tag, const typename Tag::T* const* x, size_t i,
                                    size_t at) const {
    const auto one = hn::Set(dd, 1.0);
    const auto v = Load<Tag>(dd, x, 0, i), t = Load<Tag>(dd, x, 1, i);
    const auto pw = LoadOr1<Tag>(dd, x, 3, i);
    const SoftplusPair<DD> sp(dd, v, parts, at);
    const auto l = hn::Add(hn::Mul(hn::Mul(pw, t), sp.neg), hn::Mul(hn::Sub(one, t), sp.pos));
    return hn::Mul(LoadOr1<Tag>(dd, x, 2, i), l);
  }
};

// d/dself, times dy and the scale: dy w [(1 + (pw - 1) t) s(x) - pw t] scale (in: dy, x, t,
// w, pw), formed as dy w [(1 - t) s(x) - pw t s(-x)] so that no 1 - s(x) is taken by a
// subtraction (which would lose s(-x) = e^-x / (1 + e^-x) for large x): s(|x|) = 1 / (1 + e)
// and s(-|x|) = e / (1 + e) from e = e^-|x|, which never overflows, in f32 lanes (in double
// past |x| = 80, as Log1pExpNegAbs).
struct BceGradTerm {
  using Part = SigmoidPairPart;
  static constexpr int kOf = 1;
  double scale;
  const F32Parts* parts = nullptr;
  template <class Tag, class DD>
  HWY_INLINE hn::Vec<DD> operator()(DD dd, Tag, const typename Tag::T* const* x, size_t i,
                                    size_t at) const {
    const auto one = hn::Set(dd, 1.0);
    const auto v = Load<Tag>(dd, x, 1, i), t = Load<Tag>(dd, x, 2, i);
    const auto pw = LoadOr1<Tag>(dd, x, 4, i);
    hn::Vec<DD> big, small;  // s(|x|), s(-|x|)
    if (HWY_UNLIKELY(NeedsDoubleExp(dd, v))) {
      const auto e = hn::Exp(dd, hn::Neg(hn::Abs(v)));
      big = hn::Div(one, hn::Add(one, e)), small = hn::Mul(e, big);
    } else {  // the f32 parts: each within about 3 f32 ULP of itself
      const hn::Rebind<float, DD> df;
      big = hn::PromoteTo(dd, hn::LoadU(df, parts->p + at));
      small = hn::PromoteTo(dd, hn::LoadU(df, parts->q + at));
    }
    const auto negative = hn::Lt(v, hn::Zero(dd));
    const auto s_x = hn::IfThenElse(negative, small, big);
    const auto s_neg_x = hn::IfThenElse(negative, big, small);
    const auto g = hn::Sub(hn::Mul(hn::Sub(one, t), s_x), hn::Mul(hn::Mul(pw, t), s_neg_x));
    const auto dyw = hn::Mul(Load<Tag>(dd, x, 0, i), LoadOr1<Tag>(dd, x, 3, i));
    return hn::Mul(hn::Mul(dyw, g), hn::Set(dd, scale));
  }
};

// d/dtarget, times dy and the scale: dy w [log(1 - s(x)) - pw log s(x)] scale =
// dy w [pw softplus(-x) - softplus(x)] scale (in: dy, x, t, w, pw; t is not read).
struct BceTargetGradTerm {
  using Part = Log1pExpPart;
  static constexpr int kOf = 1;
  double scale;
  const F32Parts* parts = nullptr;
  template <class Tag, class DD>
  HWY_INLINE hn::Vec<DD> operator()(DD dd, Tag, const typename Tag::T* const* x, size_t i,
                                    size_t at) const {
    const auto v = Load<Tag>(dd, x, 1, i), pw = Load<Tag>(dd, x, 4, i);
    const SoftplusPair<DD> sp(dd, v, parts, at);
    const auto g = hn::Sub(hn::Mul(pw, sp.neg), sp.pos);
    const auto dyw = hn::Mul(Load<Tag>(dd, x, 0, i), LoadOr1<Tag>(dd, x, 3, i));
    return hn::Mul(hn::Mul(dyw, g), hn::Set(dd, scale));
  }
};
// The same without a posWeight: softplus(-x) - softplus(x) is -x exactly, so the term is
// dy w (-x) scale, no exponential.
struct BceTargetGradNoPosWeightTerm {
  double scale;
  template <class Tag, class DD>
  HWY_INLINE hn::Vec<DD> operator()(DD dd, Tag, const typename Tag::T* const* x, size_t i,
                                    size_t /*at*/) const {
    const auto dyw = hn::Mul(Load<Tag>(dd, x, 0, i), LoadOr1<Tag>(dd, x, 3, i));
    return hn::Mul(hn::Mul(dyw, hn::Neg(Load<Tag>(dd, x, 1, i))), hn::Set(dd, scale));
  }
};

// Zero-padded copies of the inputs' `valid` elements from i, in pad (kW each); padded[k] points
// at input k's copy, null where the input is absent.
template <class T, size_t kW>
HWY_INLINE void PadInputs(const T* const* in, size_t i, size_t valid, T (&pad)[kMaxLossInputs][kW],
                          const T* (&padded)[kMaxLossInputs]) {
  for (int k = 0; k < kMaxLossInputs; ++k) {
    padded[k] = in[k] == nullptr ? nullptr : pad[k];
    for (size_t j = 0; in[k] != nullptr && j < valid; ++j) pad[k][j] = in[k][i + j];
  }
}

// n elements a vector of `lanes` at a time, the last partial vector on zero-padded copies
// (an absent input stays absent): step(x, i, out + i, at) computes the vector at element i of
// the inputs x[k], element `at` of the n.
template <class T, class Step>
HWY_INLINE void ForVectors(size_t n, size_t lanes, Inputs vin, T* out, Step step) {
  const T* in[kMaxLossInputs];
  for (int k = 0; k < kMaxLossInputs; ++k) in[k] = static_cast<const T*>(vin[k]);
  size_t i = 0;
  for (; i + lanes <= n; i += lanes) step(in, i, out + i, i);
  if (i < n) {
    HWY_ALIGN T pad[kMaxLossInputs][kPad] = {};
    HWY_ALIGN T pad_out[kPad] = {};
    const T* padded[kMaxLossInputs];
    PadInputs(in, i, n - i, pad, padded);
    step(padded, 0, pad_out, i);
    for (size_t j = 0; j < n - i; ++j) out[i + j] = pad_out[j];
  }
}

// Whether a term has f32 parts (names a Part).
template <class Term, class = void>
struct HasF32Parts : std::false_type {};
template <class Term>
struct HasF32Parts<Term, std::void_t<typename Term::Part>> : std::true_type {};

// run(inputs, first, len, term) over n elements: in one go for a term without f32 parts;
// else a chunk of kChunk at a time, the chunk's parts filled first and the term pointed at
// them (the inputs and `first` advanced to the chunk).
template <class Tag, class Term, class Run>
HWY_INLINE void ForChunks(Inputs in, size_t n, const Term& term, Run run) {
  using T = typename Tag::T;
  if constexpr (!HasF32Parts<Term>::value) {
    run(in, 0, n, term);
  } else {
    F32Parts parts = {};  // a sum's padded block reads past the filled vectors: zeros there
    Term t = term;
    t.parts = &parts;
    for (size_t first = 0; first < n; first += kChunk) {
      const size_t len = std::min(kChunk, n - first);
      const void* at[kMaxLossInputs];
      for (int k = 0; k < kMaxLossInputs; ++k) {
        at[k] = in[k] == nullptr ? nullptr : static_cast<const T*>(in[k]) + first;
      }
      FillF32Parts<Tag>(static_cast<const T*>(at[Term::kOf]), len, typename Term::Part(), &parts);
      run(at, first, len, t);
    }
  }
}

// out[i] = the term at i in double, rounded once to f32 (and to Tag's storage).
template <class Tag, class Term>
HWY_INLINE void TermsOf(Inputs in, void* vout, size_t n, const Term& term) {
  using T = typename Tag::T;
  const hn::CappedTag<double, kRowPartials> dd;
  const hn::Rebind<float, decltype(dd)> df;
  T* out = static_cast<T*>(vout);
  ForChunks<Tag>(in, n, term, [&](Inputs x, size_t first, size_t len, const Term& t) {
    ForVectors<T>(len, hn::Lanes(dd), x, out + first,
                  [&](const T* const* xs, size_t i, T* o, size_t at) {
                    StoreF32(df, Tag(), hn::DemoteTo(df, t(dd, Tag(), xs, i, at)), o);
                  });
  });
}

// The terms' sum in double, in the fixed order of AddToPartials (chunks are whole blocks).
template <class Tag, class Term>
HWY_INLINE double SumOf(Inputs vin, size_t n, const Term& term) {
  using T = typename Tag::T;
  const PartialsTag dd;
  HWY_ALIGN double partials[kRowPartials] = {0};
  ForChunks<Tag>(vin, n, term, [&](Inputs xin, size_t /*first*/, size_t len, const Term& t) {
    const T* in[kMaxLossInputs];
    for (int k = 0; k < kMaxLossInputs; ++k) in[k] = static_cast<const T*>(xin[k]);
    AddToPartials(
        len, partials, [&](size_t i) { return t(dd, Tag(), in, i, i); },
        [&](size_t first, size_t valid, const auto& add) {
          HWY_ALIGN T pad[kMaxLossInputs][kRowPartials] = {};
          const T* x[kMaxLossInputs];
          PadInputs(in, first, valid, pad, x);
          add([&](size_t k) { return t(dd, Tag(), x, k, first + k); });
        });
  });
  return CombinePartials(partials);
}

// acc[j] += (a[j] - b[j])^2 in double: one row's MseLoss terms added to its columns' totals.
// The tail runs on padded copies through the same vector operations, so a column's bits do
// not depend on where a block of columns ends.
void MseAddColumns(const float* a, const float* b, double* acc, size_t n) {
  const hn::CappedTag<double, kRowPartials> dd;
  const size_t N = hn::Lanes(dd);
  size_t j = 0;
  for (; j + N <= n; j += N) {
    const float* x[2] = {a + j, b + j};
    hn::StoreU(hn::Add(hn::LoadU(dd, acc + j), MseTerm()(dd, F32(), x, 0, 0)), dd, acc + j);
  }
  if (j < n) {
    HWY_ALIGN float pa[kRowPartials] = {0}, pb[kRowPartials] = {0};
    HWY_ALIGN double pacc[kRowPartials] = {0};
    for (size_t k = 0; k < n - j; ++k) pa[k] = a[j + k], pb[k] = b[j + k], pacc[k] = acc[j + k];
    const float* x[2] = {pa, pb};
    hn::Store(hn::Add(hn::Load(dd, pacc), MseTerm()(dd, F32(), x, 0, 0)), dd, pacc);
    for (size_t k = 0; k < n - j; ++k) acc[j + k] = pacc[k];
  }
}

// out[i] = ((a[i] - b[i]) * cof) * dy[i] in f32 (in: dy, a, b), each operation rounded once,
// in the order of CANN's MseLossGradV2 kernel (Sub, Muls, Mul; a 16-bit dtype widened first
// and the result rounded once to it): its bits, within 2 ULP of the exact value.
template <class Tag>
void MseGradOf(Inputs in, double cof, void* vout, size_t n) {
  using T = typename Tag::T;
  const hn::ScalableTag<float> df;
  const auto vc = hn::Set(df, static_cast<float>(cof));
  ForVectors<T>(n, hn::Lanes(df), in, static_cast<T*>(vout),
                [&](const T* const* x, size_t i, T* o, size_t /*at*/) {
                  const auto d =
                      hn::Sub(LoadF32(df, Tag(), x[1] + i), LoadF32(df, Tag(), x[2] + i));
                  StoreF32(df, Tag(), hn::Mul(hn::Mul(d, vc), LoadF32(df, Tag(), x[0] + i)), o);
                });
}

// The entries, one per operator and storage type (HWY_EXPORT takes plain names).
#define HOSTNN_LOSS_ENTRIES(Tag)                                                                \
  void MseTerms##Tag(Inputs in, double, void* out, size_t n) {                                  \
    TermsOf<Tag>(in, out, n, MseTerm());                                                        \
  }                                                                                             \
  double MseSum##Tag(Inputs in, size_t n) { return SumOf<Tag>(in, n, MseTerm()); }              \
  void MseGrad##Tag(Inputs in, double cof, void* out, size_t n) {                               \
    MseGradOf<Tag>(in, cof, out, n);                                                            \
  }                                                                                             \
  void BceTerms##Tag(Inputs in, double, void* out, size_t n) {                                  \
    TermsOf<Tag>(in, out, n, BceTerm());                                                        \
  }                                                                                             \
  double BceSum##Tag(Inputs in, size_t n) { return SumOf<Tag>(in, n, BceTerm()); }              \
  void BceGrad##Tag(Inputs in, double scale, void* out, size_t n) {                             \
    TermsOf<Tag>(in, out, n, BceGradTerm{scale});                                               \
  }                                                                                             \
  void BceTargetGrad##Tag(Inputs in, double scale, void* out, size_t n) {                       \
    if (in[4] == nullptr) return TermsOf<Tag>(in, out, n, BceTargetGradNoPosWeightTerm{scale}); \
    TermsOf<Tag>(in, out, n, BceTargetGradTerm{scale});                                         \
  }
HOSTNN_LOSS_ENTRIES(F32)
HOSTNN_LOSS_ENTRIES(F16)
HOSTNN_LOSS_ENTRIES(BF16)
#undef HOSTNN_LOSS_ENTRIES

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
#include "kernels/dispatch.h"

namespace hostnn {
namespace kernels {

#define HOSTNN_LOSS_EXPORTS(Tag) \
  HWY_EXPORT(MseTerms##Tag);     \
  HWY_EXPORT(MseSum##Tag);       \
  HWY_EXPORT(MseGrad##Tag);      \
  HWY_EXPORT(BceTerms##Tag);     \
  HWY_EXPORT(BceSum##Tag);       \
  HWY_EXPORT(BceGrad##Tag);      \
  HWY_EXPORT(BceTargetGrad##Tag);
HOSTNN_LOSS_EXPORTS(F32)
HOSTNN_LOSS_EXPORTS(F16)
HOSTNN_LOSS_EXPORTS(BF16)
#undef HOSTNN_LOSS_EXPORTS
HWY_EXPORT(MseAddColumns);

namespace {
template <class Terms, class Sum>
PointLossKernels ForOp(Op op, Terms mse, Sum mse_sum, Terms mse_grad, Terms bce, Sum bce_sum,
                       Terms bce_grad, Terms bce_target_grad) {
  PointLossKernels k;
  switch (op) {
    case Op::kMseLoss:
    case Op::kMseLossOut:
      k.terms = mse, k.sum = mse_sum;
      k.add_columns = HOSTNN_PICK(MseAddColumns);
      break;
    case Op::kMseLossBackward:
      k.terms = mse_grad;
      break;
    case Op::kBinaryCrossEntropyWithLogits:
      k.terms = bce, k.sum = bce_sum;
      break;
    case Op::kBinaryCrossEntropyWithLogitsBackward:
      k.terms = bce_grad;
      break;
    case Op::kBinaryCrossEntropyWithLogitsTargetBackward:
      k.terms = bce_target_grad;
      break;
    default:  // not a PointLoss operator
      break;
  }
  return k;
}
}  // namespace

#define HOSTNN_LOSS_PICK(Tag)                                                                \
  ForOp(op, HOSTNN_PICK(MseTerms##Tag), HOSTNN_PICK(MseSum##Tag), HOSTNN_PICK(MseGrad##Tag), \
        HOSTNN_PICK(BceTerms##Tag), HOSTNN_PICK(BceSum##Tag), HOSTNN_PICK(BceGrad##Tag),     \
        HOSTNN_PICK(BceTargetGrad##Tag))

PointLossKernels GetPointLossKernels(Op op, DType storage) {
  switch (storage) {
    case DType::kFloat32:
      return HOSTNN_LOSS_PICK(F32);
    case DType::kFloat16:
      return HOSTNN_LOSS_PICK(F16);
    case DType::kBFloat16:
      return HOSTNN_LOSS_PICK(BF16);
    default:  // no loss kernel stores another dtype
      return PointLossKernels();
  }
}
#undef HOSTNN_LOSS_PICK

}  // namespace kernels
}  // namespace hostnn
#endif  // HWY_ONCE
