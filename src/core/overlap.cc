// The front end's memory checks (check.h): a view whose elements overlap (CheckNoSelfOverlap),
// an input meeting the output other than as the same view (CheckAliasing). Each is a bounded
// linear Diophantine equation, decided exactly (pruned search, meet in the middle, or listing).

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <utility>
#include <vector>

#include "hostnn/dtype.h"
#include "src/core/check.h"

namespace hostnn {
namespace core {

namespace {

using Wide = __int128;

Wide FloorDiv(Wide a, Wide b) {  // b != 0
  Wide q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
Wide CeilDiv(Wide a, Wide b) { return -FloorDiv(-a, b); }
Wide Abs(Wide a) { return a < 0 ? -a : a; }
Wide Gcd(Wide a, Wide b) {
  a = Abs(a);
  b = Abs(b);
  while (b != 0) {
    const Wide t = a % b;
    a = b;
    b = t;
  }
  return a;
}
// x with a * x == 1 (mod m), for gcd(a, m) == 1, m >= 1; in [0, m).
Wide InverseMod(Wide a, Wide m) {
  if (m == 1) return 0;
  Wide r0 = ((a % m) + m) % m, r1 = m, x0 = 1, x1 = 0;
  while (r1 != 0) {
    const Wide q = r0 / r1;
    Wide t = r0 - q * r1;
    r0 = r1;
    r1 = t;
    t = x0 - q * x1;
    x0 = x1;
    x1 = t;
  }
  return ((x0 % m) + m) % m;
}

// Exact test of a bounded linear Diophantine equation: is there an integer vector k with
// lo[i] <= k[i] <= hi[i] and sum(k[i] * coef[i]) == target? Variables are taken largest
// |coef| first; each level keeps only the values of its variable that leave a target the
// remaining variables can reach (their interval of sums, and their gcd), and the last two
// are solved in closed form. Every sum of |k[i] * coef[i]| within the box must fit in
// 2^100 (callers' views are bounded by int64 byte extents). `budget` counts search steps;
// when it runs out the answer is kUnknown.
class BoxedEquation {
 public:
  enum Answer { kNo, kYes, kUnknown };

  struct Var {
    Wide coef, lo, hi;
  };

  BoxedEquation(std::vector<Var> vars, int64_t budget) : vars_(std::move(vars)), budget_(budget) {
    // Coefficients made positive; variables of equal coefficient merged into one whose
    // box is the sum of theirs (k * c + l * c takes exactly the values (k + l) * c).
    std::vector<Var> kept;
    for (Var v : vars_) {
      if (v.lo > v.hi) empty_ = true;
      if (v.coef == 0) continue;
      if (v.coef < 0) v = {-v.coef, -v.hi, -v.lo};
      kept.push_back(v);
    }
    std::sort(kept.begin(), kept.end(), [](const Var& a, const Var& b) { return a.coef > b.coef; });
    vars_.clear();
    for (const Var& v : kept) {
      if (!vars_.empty() && vars_.back().coef == v.coef) {
        vars_.back().lo += v.lo;
        vars_.back().hi += v.hi;
      } else {
        vars_.push_back(v);
      }
    }
    const size_t m = vars_.size();
    min_rest_.assign(m + 1, 0);
    max_rest_.assign(m + 1, 0);
    gcd_rest_.assign(m + 1, 0);
    for (size_t i = m; i-- > 0;) {
      const Wide a = vars_[i].lo * vars_[i].coef, b = vars_[i].hi * vars_[i].coef;
      min_rest_[i] = min_rest_[i + 1] + std::min(a, b);
      max_rest_[i] = max_rest_[i + 1] + std::max(a, b);
      gcd_rest_[i] = Gcd(vars_[i].coef, gcd_rest_[i + 1]);
    }
  }

  Answer Solve(Wide target) {
    if (empty_) return kNo;
    return SolveFrom(0, target);
  }

 private:
  Answer SolveFrom(size_t j, Wide target) {
    const size_t m = vars_.size();
    if (j == m) return target == 0 ? kYes : kNo;
    if (target < min_rest_[j] || target > max_rest_[j]) return kNo;
    if (target % gcd_rest_[j] != 0) return kNo;
    const Var& v = vars_[j];
    if (m - j == 1) return InBox(v, target / v.coef) ? kYes : kNo;
    if (m - j == 2) return SolvePair(v, vars_[j + 1], target);
    if (--budget_ < 0) return kUnknown;
    // k * coef must leave target - k * coef within the sums of the rest...
    Wide lo = v.lo, hi = v.hi;
    const Wide rest_lo = target - max_rest_[j + 1], rest_hi = target - min_rest_[j + 1];
    if (v.coef > 0) {
      lo = std::max(lo, CeilDiv(rest_lo, v.coef));
      hi = std::min(hi, FloorDiv(rest_hi, v.coef));
    } else {
      lo = std::max(lo, CeilDiv(rest_hi, v.coef));
      hi = std::min(hi, FloorDiv(rest_lo, v.coef));
    }
    if (lo > hi) return kNo;
    // ... and divisible by their gcd: k == target/h * (coef/h)^-1 (mod step).
    const Wide g = gcd_rest_[j + 1], h = Gcd(v.coef, g), step = g / h;
    const Wide residue = ((target / h) % step + step) % step * InverseMod(v.coef / h, step) % step;
    Wide k = lo + (((residue - lo) % step) + step) % step;
    for (; k <= hi; k += step) {
      const Answer a = SolveFrom(j + 1, target - k * v.coef);
      if (a != kNo) return a;
      if (budget_ < 0) return kUnknown;
    }
    return kNo;
  }

  static bool InBox(const Var& v, Wide k) { return k >= v.lo && k <= v.hi; }

  // a.coef * x + b.coef * y == target within both boxes, in closed form: the solutions are
  // x = x0 + t * (b.coef / g), y = y0 - t * (a.coef / g).
  static Answer SolvePair(const Var& a, const Var& b, Wide target) {
    const Wide g = Gcd(a.coef, b.coef);
    if (target % g != 0) return kNo;
    const Wide ca = a.coef / g, cb = b.coef / g, t = target / g;
    const Wide mb = Abs(cb);
    // x0 in [0, |cb|) with ca * x0 == t (mod cb).
    const Wide x0 = mb == 1 ? 0 : (t % mb + mb) % mb * InverseMod(ca, mb) % mb;
    const Wide y0 = (t - ca * x0) / cb;  // exact
    // x = x0 + s * mb, y = y0 - s * ca * sign(cb).
    Wide s_lo = CeilDiv(a.lo - x0, mb), s_hi = FloorDiv(a.hi - x0, mb);
    const Wide dy = cb > 0 ? -ca : ca;  // y = y0 + s * dy
    if (dy > 0) {
      s_lo = std::max(s_lo, CeilDiv(b.lo - y0, dy));
      s_hi = std::min(s_hi, FloorDiv(b.hi - y0, dy));
    } else {
      s_lo = std::max(s_lo, CeilDiv(b.hi - y0, dy));
      s_hi = std::min(s_hi, FloorDiv(b.lo - y0, dy));
    }
    return s_lo <= s_hi ? kYes : kNo;
  }

  std::vector<Var> vars_;
  int64_t budget_;
  bool empty_ = false;
  std::vector<Wide> min_rest_, max_rest_, gcd_rest_;
};

// The same question by meeting in the middle: the variables are split into two halves of
// about equal box volume, every sum of each half is listed (the second sorted), and a
// target is reached when some sum of the first half plus some sum of the second equals
// it. With `nonzero`, the all-zero vector does not count. Exact whenever each half has
// at most kMaxHalfSums vectors (Ready()); the search above may run out of steps on
// layouts (many dims of similar strides) that take this a few milliseconds.
class HalvedEquation {
 public:
  using Var = BoxedEquation::Var;

  HalvedEquation(const std::vector<Var>& vars, bool nonzero) : nonzero_(nonzero) {
    std::vector<Var> sorted = vars;
    std::sort(sorted.begin(), sorted.end(),
              [](const Var& a, const Var& b) { return a.hi - a.lo > b.hi - b.lo; });
    std::vector<Var> halves[2];
    Wide volume[2] = {1, 1};
    for (const Var& v : sorted) {
      const int h = volume[0] <= volume[1] ? 0 : 1;
      halves[h].push_back(v);
      volume[h] *= v.hi - v.lo + 1;
      if (volume[h] > kMaxHalfSums) return;  // not Ready()
    }
    List(halves[0], &first_);
    List(halves[1], &second_);
    std::sort(second_.begin(), second_.end());
    // One entry per sum, flagged when some non-zero vector gives it.
    size_t out = 0;
    for (size_t i = 0; i < second_.size(); ++i) {
      if (out > 0 && second_[out - 1].first == second_[i].first) {
        second_[out - 1].second = second_[out - 1].second || second_[i].second;
      } else {
        second_[out++] = second_[i];
      }
    }
    second_.resize(out);
    ready_ = true;
  }

  bool Ready() const { return ready_; }

  bool Reaches(Wide target) const {
    for (const auto& a : first_) {
      const auto it =
          std::lower_bound(second_.begin(), second_.end(), std::make_pair(target - a.first, false));
      if (it != second_.end() && it->first == target - a.first &&
          (!nonzero_ || a.second || it->second)) {
        return true;
      }
    }
    return false;
  }

  static constexpr Wide kMaxHalfSums = Wide{1} << 18;

 private:
  // Every (sum, vector is non-zero) of the variables' box.
  static void List(const std::vector<Var>& vars, std::vector<std::pair<Wide, bool>>* sums) {
    sums->assign(1, {0, false});
    for (const Var& v : vars) {
      std::vector<std::pair<Wide, bool>> next;
      next.reserve(sums->size() * static_cast<size_t>(v.hi - v.lo + 1));
      for (const auto& s : *sums) {
        for (Wide k = v.lo; k <= v.hi; ++k)
          next.emplace_back(s.first + k * v.coef, s.second || k != 0);
      }
      sums->swap(next);
    }
  }

  bool nonzero_;
  bool ready_ = false;
  std::vector<std::pair<Wide, bool>> first_, second_;
};

// Search steps one equation may take before the halved listing takes over (each step is
// a few 128-bit divisions); real layouts take a handful.
constexpr int64_t kSearchBudget = int64_t{1} << 14;

// The dims of a view that move (extent > 1), as (stride, extent) pairs.
std::vector<std::pair<int64_t, int64_t>> MovingDims(const TensorView& v, const ViewSpan& span) {
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] > 1) dims.emplace_back(span.strides[i], v.shape[i]);
  }
  return dims;
}

// Views up to this many elements can have their element addresses listed, the last resort
// when the search above runs out of steps.
constexpr int64_t kMaxListedElems = int64_t{1} << 20;

// The distinct start addresses of a view that passed CheckStorage, sorted (dims of stride 0
// add none, so they are skipped). False when there are more than kMaxListedElems to list.
bool SortedElementAddresses(const TensorView& v, const ViewSpan& span,
                            std::vector<uintptr_t>* addrs) {
  std::vector<int64_t> shape, strides;  // the dims that move
  int64_t count = 1;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] > 1 && span.strides[d] != 0) {
      shape.push_back(v.shape[d]);
      strides.push_back(span.strides[d]);
      count *= v.shape[d];  // <= numel: no overflow
    }
  }
  if (count > kMaxListedElems) return false;
  const uintptr_t esize = DTypeSize(v.dtype);
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t off = 0;  // elements from span.first
  addrs->clear();
  addrs->reserve(static_cast<size_t>(count));
  for (int64_t n = 0; n < count; ++n) {
    addrs->push_back(reinterpret_cast<uintptr_t>(span.first) + static_cast<uintptr_t>(off) * esize);
    for (size_t d = shape.size(); d-- > 0;) {  // odometer step, last dim fastest
      if (++idx[d] < shape[d]) {
        off += strides[d];
        break;
      }
      off -= (shape[d] - 1) * strides[d];
      idx[d] = 0;
    }
  }
  std::sort(addrs->begin(), addrs->end());
  return true;
}

// Whether an element [a, a + a_size) of one sorted list meets an element [b, b + b_size)
// of the other.
bool AnyElementsMeet(const std::vector<uintptr_t>& a, uintptr_t a_size,
                     const std::vector<uintptr_t>& b, uintptr_t b_size) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] + a_size <= b[j]) {
      ++i;
    } else if (b[j] + b_size <= a[i]) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

// Whether two distinct index tuples of the moving dims (stride, extent) reach the same
// element: a non-zero k with |k[i]| < extent[i] and sum(k[i] * stride[i]) == 0. The
// first non-zero k (dims taken in order) is made positive, one equation per choice of it.
BoxedEquation::Answer SelfOverlaps(const std::vector<std::pair<int64_t, int64_t>>& dims) {
  bool unknown = false;
  for (size_t first = 0; first < dims.size(); ++first) {
    std::vector<BoxedEquation::Var> vars;
    for (size_t i = first; i < dims.size(); ++i) {
      const Wide reach = dims[i].second - 1;
      vars.push_back({dims[i].first, i == first ? Wide{1} : -reach, reach});
    }
    const BoxedEquation::Answer a = BoxedEquation(vars, kSearchBudget).Solve(0);
    if (a == BoxedEquation::kYes) return a;
    if (a == BoxedEquation::kUnknown) unknown = true;
  }
  if (!unknown) return BoxedEquation::kNo;
  std::vector<BoxedEquation::Var> vars;
  for (const auto& d : dims) vars.push_back({d.first, -Wide{d.second - 1}, d.second - 1});
  const HalvedEquation halves(vars, /*nonzero=*/true);
  if (!halves.Ready()) return BoxedEquation::kUnknown;
  return halves.Reaches(0) ? BoxedEquation::kYes : BoxedEquation::kNo;
}

// Whether an element of view a (bytes [p, p + size_a)) meets one of view b: p - q lies in
// (-size_a, size_b), one equation per byte difference.
BoxedEquation::Answer ViewsMeet(const TensorView& a, const ViewSpan& a_span, const TensorView& b,
                                const ViewSpan& b_span) {
  const Wide size_a = DTypeSize(a.dtype), size_b = DTypeSize(b.dtype);
  std::vector<BoxedEquation::Var> vars;
  for (const auto& d : MovingDims(a, a_span))
    vars.push_back({Wide{d.first} * size_a, 0, d.second - 1});
  for (const auto& d : MovingDims(b, b_span))
    vars.push_back({-Wide{d.first} * size_b, 0, d.second - 1});
  // first_a + sum_a - first_b - sum_b == diff  <=>  sum_a - sum_b == diff - (first_a - first_b)
  const Wide base = static_cast<Wide>(reinterpret_cast<uintptr_t>(a_span.first)) -
                    static_cast<Wide>(reinterpret_cast<uintptr_t>(b_span.first));
  BoxedEquation eq(vars, kSearchBudget);
  std::vector<Wide> undecided;
  for (Wide diff = -size_a + 1; diff < size_b; ++diff) {
    const BoxedEquation::Answer r = eq.Solve(diff - base);
    if (r == BoxedEquation::kYes) return r;
    if (r == BoxedEquation::kUnknown) undecided.push_back(diff - base);
  }
  if (undecided.empty()) return BoxedEquation::kNo;
  const HalvedEquation halves(vars, /*nonzero=*/false);
  if (!halves.Ready()) return BoxedEquation::kUnknown;
  for (Wide target : undecided) {
    if (halves.Reaches(target)) return BoxedEquation::kYes;
  }
  return BoxedEquation::kNo;
}

}  // namespace

Status CheckNoSelfOverlap(const char* op, const char* param, const TensorView& v,
                          const ViewSpan& span) {
  if (span.numel <= 1) return Status::Ok();
  // Sort the dims of extent > 1 by stride; each stride must step past everything the
  // smaller dims reach. This proves the usual layouts disjoint at once; anything else
  // (e.g. shape [3, 2], strides [2, 3]) gets the exact test. Size-1 dims never move, so
  // their strides do not matter.
  std::vector<std::pair<int64_t, int64_t>> dims = MovingDims(v, span);  // (stride, size)
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // max offset covered by the smaller dims
  bool proven = true;
  for (const auto& d : dims) {
    if (d.first <= reach) {
      proven = false;
      break;
    }
    reach += (d.second - 1) * d.first;  // <= the view's extent, checked by CheckStorage
  }
  if (proven) return Status::Ok();
  // A stride-0 dim, or more elements than the span has room for, overlap for certain;
  // otherwise the exact test decides (and, should it run out of steps on a small view,
  // listing the addresses).
  // (A view over a null address has no byte range: its room is the extent of its strides.)
  int64_t room = static_cast<int64_t>((span.hi - span.lo) / DTypeSize(v.dtype));
  if (span.unbound) {
    room = 1;
    for (size_t i = 0; i < v.shape.size(); ++i) room += (v.shape[i] - 1) * span.strides[i];
  }
  const char* why = "elements overlap each other";
  if (dims.front().first != 0 && span.numel <= room) {
    const BoxedEquation::Answer a = SelfOverlaps(dims);
    if (a == BoxedEquation::kNo) return Status::Ok();
    if (a == BoxedEquation::kUnknown) {
      std::vector<uintptr_t> addrs;
      if (SortedElementAddresses(v, span, &addrs)) {
        if (std::adjacent_find(addrs.begin(), addrs.end()) == addrs.end()) return Status::Ok();
      } else {
        why =
            "elements could not be proven distinct (the search for two that meet ran out of steps)";
      }
    }
  }
  return InvalidParam(op, param,
                      std::string("view: ") + why + " (shape " + ShapeString(v.shape) +
                          ", strides " + ShapeString(span.strides) +
                          "); an output must not alias itself");
}

namespace {

// The very same elements in the same order: same first address and dtype, and the same
// (extent, stride) for every dim that moves (size-1 dims, whatever their strides, and
// leading size-1 dims an input has fewer of, do not change which elements are meant).
bool SameView(const TensorView& a, const ViewSpan& a_span, const TensorView& b,
              const ViewSpan& b_span) {
  return a_span.first == b_span.first && a.dtype == b.dtype &&
         MovingDims(a, a_span) == MovingDims(b, b_span);
}

}  // namespace

Status CheckAliasing(const char* op, const char* out_param, const TensorView& out,
                     const ViewSpan& out_span, const char* in_param, const TensorView& in,
                     const ViewSpan& in_span) {
  // A view over a null address has no place yet: nothing to compare (phase 2 refuses it).
  if (out_span.numel == 0 || in_span.numel == 0 || out_span.unbound || in_span.unbound)
    return Status::Ok();
  const bool disjoint = in_span.hi <= out_span.lo || out_span.hi <= in_span.lo;
  if (disjoint) return Status::Ok();
  if (SameView(in, in_span, out, out_span)) return Status::Ok();
  // Interleaved views share a range without sharing an element: the exact test tells
  // (and, should it run out of steps on small views, listing their addresses).
  BoxedEquation::Answer meet = ViewsMeet(out, out_span, in, in_span);
  if (meet == BoxedEquation::kUnknown) {
    std::vector<uintptr_t> out_addrs, in_addrs;
    if (SortedElementAddresses(out, out_span, &out_addrs) &&
        SortedElementAddresses(in, in_span, &in_addrs)) {
      meet = AnyElementsMeet(out_addrs, DTypeSize(out.dtype), in_addrs, DTypeSize(in.dtype))
                 ? BoxedEquation::kYes
                 : BoxedEquation::kNo;
    }
  }
  if (meet == BoxedEquation::kNo) return Status::Ok();
  return InvalidParam(
      op, in_param,
      std::string("memory: partly overlaps ") + out_param +
          "; an input may share memory with the output only as the same view (in place)");
}

}  // namespace core
}  // namespace hostnn
