// A row's sum of terms in double with bits that depend on nothing but the terms: element i
// goes to partial i % kRowPartials whatever the SIMD width (vectors of at most kRowPartials
// double lanes, so a block of kRowPartials elements is whole vectors on every target), and
// the caller combines the partials pairwise (CombinePartials). The last partial block runs
// on the caller's zero-padded copies with its lanes past the row zeroed, so a term of zero
// inputs that is not 0 (the cross entropy's log 2) never enters the sum. The losses' sums
// (SumOf) and the weighted row sums of the SoftmaxLoss kind (ShiftedSumOf) are this loop
// with their own terms.
// Per-target header: included once per target by foreach_target (toggle guard below).

#if defined(HOSTNN_KERNELS_PARTIAL_SUMS_INL_H_) == defined(HWY_TARGET_TOGGLE)
#ifdef HOSTNN_KERNELS_PARTIAL_SUMS_INL_H_
#undef HOSTNN_KERNELS_PARTIAL_SUMS_INL_H_
#else
#define HOSTNN_KERNELS_PARTIAL_SUMS_INL_H_
#endif

#include <hwy/highway.h>

#include <cstddef>

#include "kernels/kernels.h"  // kRowPartials

HWY_BEFORE_NAMESPACE();
namespace hostnn {
namespace kernels {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

// The double lanes a fixed-order sum runs in.
using PartialsTag = hn::CappedTag<double, kRowPartials>;

// Adds the terms of elements 0..n-1 to partials[i % kRowPartials].
// - term_at(i): the vector of the terms of elements i .. i + Lanes - 1 (i a multiple of the
//   lanes, inside a whole block);
// - with_padded_tail(first, valid, add): copies elements first .. first + valid - 1 into
//   zero-padded blocks of kRowPartials and calls add(padded_at), padded_at(k) giving the
//   terms of the padded elements k .. k + Lanes - 1. Called once, only when n is not a whole
//   number of blocks.
template <class TermAt, class WithPaddedTail>
HWY_INLINE void AddToPartials(size_t n, double* HWY_RESTRICT partials, const TermAt& term_at,
                              const WithPaddedTail& with_padded_tail) {
  const PartialsTag dd;
  const size_t N = hn::Lanes(dd);
  size_t i = 0;
  for (; i + kRowPartials <= n; i += kRowPartials) {
    for (size_t k = 0; k < kRowPartials; k += N) {
      hn::Store(hn::Add(hn::Load(dd, partials + k), term_at(i + k)), dd, partials + k);
    }
  }
  if (i == n) return;
  const size_t valid = n - i;
  with_padded_tail(i, valid, [&](const auto& padded_at) {
    for (size_t k = 0; k < kRowPartials; k += N) {
      const auto v = hn::IfThenElseZero(hn::FirstN(dd, valid > k ? valid - k : 0), padded_at(k));
      hn::Store(hn::Add(hn::Load(dd, partials + k), v), dd, partials + k);
    }
  });
}

}  // namespace HWY_NAMESPACE
}  // namespace kernels
}  // namespace hostnn
HWY_AFTER_NAMESPACE();

#endif  // HOSTNN_KERNELS_PARTIAL_SUMS_INL_H_
