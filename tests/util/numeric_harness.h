// Shared harness of the numeric suites: tensors under test (a guarded storage buffer plus
// the view over it), running an operator through Prepare/Execute, a loop over every SIMD
// target, and element-by-element checks against the double references in tests/reference/.
#ifndef HOSTNN_TESTS_UTIL_NUMERIC_HARNESS_H_
#define HOSTNN_TESTS_UTIL_NUMERIC_HARNESS_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/hostnn.h"
#include "kernels/kernels.h"
#include "tests/reference/reference.h"
#include "tests/reference/softmax_reference.h"
#include "tests/util/capi_ops.h"
#include "tests/util/op_args.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {

inline int64_t NumelOf(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// A tensor under test: an owned, guarded storage buffer and a (possibly strided) view on it.
class TestTensor {
 public:
  TestTensor() = default;

  // A dense row-major tensor.
  static TestTensor Dense(DType dtype, const std::vector<int64_t>& shape) {
    TestTensor t;
    t.storage_ = std::make_shared<Buffer>(dtype, std::max<int64_t>(NumelOf(shape), 1));
    t.view_ = TensorView::Dense(t.storage_->data(), dtype, shape);
    t.dense_ = true;
    return t;
  }

  // A view of `shape` with element `strides` and `offset` into a fresh storage of
  // `storage_shape` (whose element count must cover the view).
  static TestTensor Strided(DType dtype, const std::vector<int64_t>& shape,
                            const std::vector<int64_t>& strides, int64_t offset,
                            const std::vector<int64_t>& storage_shape) {
    TestTensor t;
    t.storage_ = std::make_shared<Buffer>(dtype, std::max<int64_t>(NumelOf(storage_shape), 1));
    t.view_.data = t.storage_->data();
    t.view_.dtype = dtype;
    t.view_.shape = shape;
    t.view_.strides = strides;
    t.view_.offset = offset;
    t.view_.storage_shape = storage_shape;
    t.dense_ = false;
    return t;
  }

  const TensorView& view() const { return view_; }
  TensorView& view() { return view_; }
  DType dtype() const { return view_.dtype; }
  const std::vector<int64_t>& shape() const { return view_.shape; }
  int64_t numel() const { return NumelOf(view_.shape); }
  Buffer& storage() { return *storage_; }
  const Buffer& storage() const { return *storage_; }

  // Storage element index of the view's element at row-major position `flat`.
  int64_t StorageIndex(int64_t flat) const {
    if (dense_) return flat;
    const std::vector<int64_t> strides =
        view_.strides.empty() ? ContiguousStrides(view_.shape) : view_.strides;
    int64_t index = view_.offset;
    for (int i = static_cast<int>(view_.shape.size()) - 1; i >= 0; --i) {
      index += (flat % view_.shape[i]) * strides[i];
      flat /= view_.shape[i];
    }
    return index;
  }
  double Get(int64_t flat) const { return storage_->Get(StorageIndex(flat)); }
  void Set(int64_t flat, double v) { storage_->Set(StorageIndex(flat), v); }

  // Every element of the view, in row-major order.
  std::vector<double> Values() const {
    std::vector<double> v(static_cast<size_t>(numel()));
    for (int64_t i = 0; i < numel(); ++i) v[i] = Get(i);
    return v;
  }

 private:
  std::shared_ptr<Buffer> storage_;
  TensorView view_;
  bool dense_ = true;
};

// Memory layouts of a view over its storage, for the non-contiguous suites.
enum class Layout {
  kDense,       // row-major, offset 0
  kTransposed,  // the storage is the reversed shape; the view walks it with permuted strides
  kStride2,     // every second element of the last dim
  kStride3,     // every third element of the last dim
  kOffset,      // starts at element (1, 1, ...) of a storage two larger in every dim
  kBroadcast,   // stride 0 along dim 0 (inputs only): every row is the same memory
};

inline const char* LayoutName(Layout l) {
  switch (l) {
    case Layout::kDense:
      return "dense";
    case Layout::kTransposed:
      return "transposed";
    case Layout::kStride2:
      return "stride2";
    case Layout::kStride3:
      return "stride3";
    case Layout::kOffset:
      return "offset";
    case Layout::kBroadcast:
      return "broadcast";
  }
  return "?";
}

// A view of `shape` in `layout` over fresh storage (filled with the 0xA5 pattern).
inline TestTensor MakeLayout(Layout layout, DType dtype, const std::vector<int64_t>& shape) {
  const int rank = static_cast<int>(shape.size());
  if (layout == Layout::kDense || rank == 0) return TestTensor::Dense(dtype, shape);
  std::vector<int64_t> strides(rank), storage;
  int64_t offset = 0;
  switch (layout) {
    case Layout::kTransposed: {
      storage.assign(shape.rbegin(), shape.rend());
      const std::vector<int64_t> cs = ContiguousStrides(storage);
      for (int i = 0; i < rank; ++i) strides[i] = cs[rank - 1 - i];
      break;
    }
    case Layout::kStride2:
    case Layout::kStride3: {
      const int64_t k = layout == Layout::kStride2 ? 2 : 3;
      strides[rank - 1] = k;
      for (int i = rank - 2; i >= 0; --i) strides[i] = strides[i + 1] * shape[i + 1];
      storage = {strides[0] * shape[0]};
      break;
    }
    case Layout::kOffset: {
      for (int64_t d : shape) storage.push_back(d + 2);
      strides = ContiguousStrides(storage);
      for (int64_t st : strides) offset += st;
      break;
    }
    case Layout::kBroadcast: {
      storage.assign(shape.begin() + 1, shape.end());
      const std::vector<int64_t> cs = ContiguousStrides(storage);
      strides[0] = 0;
      for (int i = 1; i < rank; ++i) strides[i] = cs[i - 1];
      if (storage.empty()) storage = {1};
      break;
    }
    default:
      break;
  }
  return TestTensor::Strided(dtype, shape, strides, offset, storage);
}

// The NumPy broadcast of two shapes (the tests' own, not the library's); false when the
// shapes are incompatible.
inline bool BroadcastShapesForTest(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                                   std::vector<int64_t>* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) return false;
    (*out)[i] = da == 1 ? db : da;
  }
  return true;
}

// Row-major position in `in_shape` of the element that broadcasts (NumPy rules) to
// position `out_flat` of `out_shape`.
inline int64_t BroadcastSource(const std::vector<int64_t>& in_shape,
                               const std::vector<int64_t>& out_shape, int64_t out_flat) {
  const size_t lead = out_shape.size() - in_shape.size();
  int64_t in_flat = 0, in_mul = 1;
  for (int i = static_cast<int>(out_shape.size()) - 1; i >= 0; --i) {
    const int64_t idx = out_flat % out_shape[i];
    out_flat /= out_shape[i];
    if (i >= static_cast<int>(lead)) {
      const int64_t d = in_shape[i - lead];
      in_flat += (d == 1 ? 0 : idx) * in_mul;
      in_mul *= d;
    }
  }
  return in_flat;
}

// Fills the view with values of its dtype drawn from [lo, hi].
inline void FillRandom(TestTensor* t, std::mt19937_64& rng, double lo, double hi) {
  for (int64_t i = 0; i < t->numel(); ++i) t->Set(i, RandomValue(t->dtype(), rng, lo, hi));
}

// The (A1, R, A0) view of a row-major shape around dim (negative dims count from the end;
// a 0-d shape is one row of one): element (i, j, k) is at (i * R + j) * A0 + k.
inline void SplitAroundDim(const std::vector<int64_t>& shape, int64_t dim, int64_t* a1, int64_t* r,
                           int64_t* a0) {
  const int64_t rank = static_cast<int64_t>(shape.size());
  const int64_t d = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  *a1 = *r = *a0 = 1;
  for (int64_t i = 0; i < rank; ++i) *(i < d ? a1 : i == d ? r : a0) *= shape[i];
}

// Fills y with a real log-softmax along `dim` of random logits in [-8, 8], each value
// rounded once to y's dtype: the inputs LogSoftmaxBackward sees in training (with
// `probabilities`, their exp: the softmax SoftmaxBackward sees).
inline void FillLogSoftmax(TestTensor* y, int64_t dim, std::mt19937_64& rng,
                           bool probabilities = false) {
  int64_t a1, r, a0;
  SplitAroundDim(y->shape(), dim, &a1, &r, &a0);
  std::uniform_real_distribution<double> logit(-8.0, 8.0);
  std::vector<double> row(static_cast<size_t>(r));
  for (int64_t i = 0; i < a1; ++i) {
    for (int64_t k = 0; k < a0; ++k) {
      double mx = -INFINITY;
      for (int64_t j = 0; j < r; ++j) mx = std::max(mx, row[j] = logit(rng));
      double s = 0;
      for (int64_t j = 0; j < r; ++j) s += std::exp(row[j] - mx);
      const double lse = mx + std::log(s);
      for (int64_t j = 0; j < r; ++j) {
        y->Set((i * r + j) * a0 + k, probabilities ? std::exp(row[j] - lse) : row[j] - lse);
      }
    }
  }
}
// The y a backward reduction sees: FillLogSoftmax's, as its forward's output.
inline void FillReductionOutput(Op op, TestTensor* y, int64_t dim, std::mt19937_64& rng) {
  FillLogSoftmax(y, dim, rng, op == Op::kSoftmaxBackward);
}

// Restricts dispatch to each available SIMD target in turn (executors resolve kernels at
// Prepare time, so each body must prepare its own), then restores the full set.
class TargetScope {
 public:
  ~TargetScope() { kernels::ForceTarget(0); }
};
template <class Fn>
void ForEachTarget(Fn fn) {
  TargetScope restore;
  for (int64_t target : kernels::AvailableTargets()) {
    kernels::ForceTarget(target);
    const std::string name = kernels::TargetName(target);
    SCOPED_TRACE("SIMD target " + name);
    ASSERT_EQ(kernels::ActiveTargetName(), name) << "ForceTarget did not take effect";
    fn(target);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The active target's family for the forward operators' bitwise checks: 1 where MulAdd
// rounds once (AVX2, AVX3, NEON, SVE), 0 where it rounds twice (SSE4, EMU128, SCALAR).
inline int FusedFamily() { return kernels::ActiveTargetFusesMulAdd() ? 1 : 0; }

struct RunResult {
  Status status;
  tiling::Plan plan;
};

// Both phases of `args` with a workspace of exactly the size phase 1 asked for.
inline RunResult RunOp(const OpArgs& args, const tiling::Options& options = {}) {
  RunResult result;
  uint64_t ws = 0;
  ExecutorPtr exec;
  result.status = Prepare(args, options, &ws, &exec);
  if (!result.status.ok()) return result;
  result.plan = GetPlan(*exec);
  std::vector<uint64_t> workspace(static_cast<size_t>((ws + 7) / 8));
  result.status = Execute(*exec, ws ? workspace.data() : nullptr, ws);
  return result;
}

inline OpArgs MakeArgs(Op op, const TestTensor& dy, const TestTensor& x, const TestTensor& out,
                       int64_t dim = 0) {
  return GradOrForwardArgs(op, &dy.view(), &x.view(), &out.view(), dim);
}

// Prepares and runs `op` on (dy, x) -> out, failing the test on a non-OK status.
inline tiling::Plan RunChecked(Op op, const TestTensor& dy, const TestTensor& x,
                               const TestTensor& out, int64_t dim = 0,
                               const tiling::Options& options = {}) {
  const RunResult r = RunOp(MakeArgs(op, dy, x, out, dim), options);
  EXPECT_TRUE(r.status.ok()) << GetOpInfo(op).name << ": " << r.status.message();
  return r.plan;
}

inline std::string Num(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

// Reports at most this many mismatching elements per check, then a count.
constexpr int kMaxReported = 8;

// Checks every element of `out` against the elementwise reference, element i computed from
// dy[i] and x[i] (the inputs as they were before the run, broadcast to out's shape).
// Returns the number of elements out of tolerance.
inline int64_t CheckEltwiseValues(Op op, const std::vector<double>& dy,
                                  const std::vector<double>& x, const TestTensor& out,
                                  const std::string& what) {
  int64_t bad = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double got = out.Get(i);
    const double exact = EltwiseRef(op, dy[i], x[i]);
    if (EltwiseWithinTolerance(out.dtype(), got, exact, dy[i])) continue;
    if (++bad <= kMaxReported) {
      ADD_FAILURE() << GetOpInfo(op).name << " " << what << " out " << DTypeName(out.dtype())
                    << " element " << i << ": dy=" << Num(dy[i]) << " x=" << Num(x[i])
                    << " got=" << Num(got) << " exact=" << Num(exact)
                    << " ulp=" << UlpError(out.dtype(), got, exact);
    }
  }
  if (bad > kMaxReported) ADD_FAILURE() << what << ": " << bad << " elements out of tolerance";
  return bad;
}

// The values of `in` broadcast to `out_shape`, in row-major order.
inline std::vector<double> BroadcastValues(const TestTensor& in,
                                           const std::vector<int64_t>& out_shape) {
  if (in.shape() == out_shape) return in.Values();
  std::vector<double> v(static_cast<size_t>(NumelOf(out_shape)));
  for (int64_t i = 0; i < NumelOf(out_shape); ++i) {
    v[i] = in.Get(BroadcastSource(in.shape(), out_shape, i));
  }
  return v;
}

// CheckEltwiseValues with dy and x read from their (possibly broadcast) views now.
inline int64_t CheckEltwise(Op op, const TestTensor& dy, const TestTensor& x, const TestTensor& out,
                            const std::string& what) {
  return CheckEltwiseValues(op, BroadcastValues(dy, out.shape()), BroadcastValues(x, out.shape()),
                            out, what);
}

// Checks every element of a backward reduction's `out` (LogSoftmaxBackward's unless `op`
// says otherwise) against the reference along `dim`, from the row-major values of dy and y
// as they were before the run.
inline int64_t CheckLogSoftmaxValues(const std::vector<double>& vdy, const std::vector<double>& vy,
                                     const TestTensor& out, int64_t dim, const std::string& what,
                                     Op op = Op::kLogSoftmaxBackward) {
  const int64_t rank = static_cast<int64_t>(out.shape().size());
  const int64_t d = rank == 0 ? 0 : (dim < 0 ? dim + rank : dim);
  std::vector<double> exact, aux;
  ReductionBackwardRef(op, vdy, vy, out.shape(), d, &exact, &aux);
  int64_t bad = 0;
  for (int64_t i = 0; i < out.numel(); ++i) {
    const double got = out.Get(i);
    if (ReductionBackwardWithinTolerance(op, out.dtype(), got, exact[i], vdy[i], vy[i], aux[i]))
      continue;
    if (++bad <= kMaxReported) {
      ADD_FAILURE() << GetOpInfo(op).name << " " << what << " dim " << dim << " out "
                    << DTypeName(out.dtype()) << " element " << i << ": dy=" << Num(vdy[i])
                    << " y=" << Num(vy[i]) << " row sum=" << Num(aux[i]) << " got=" << Num(got)
                    << " exact=" << Num(exact[i])
                    << " ulp=" << UlpError(out.dtype(), got, exact[i]);
    }
  }
  if (bad > kMaxReported) ADD_FAILURE() << what << ": " << bad << " elements out of tolerance";
  return bad;
}

inline int64_t CheckLogSoftmax(const TestTensor& dy, const TestTensor& y, const TestTensor& out,
                               int64_t dim, const std::string& what,
                               Op op = Op::kLogSoftmaxBackward) {
  return CheckLogSoftmaxValues(dy.Values(), y.Values(), out, dim, what, op);
}

// The representable value of `dtype` next to v, towards +inf (up) or -inf.
inline double Adjacent(DType dtype, double v, bool up) {
  if (dtype == DType::kFloat32) {
    return std::nextafter(static_cast<float>(v), up ? INFINITY : -INFINITY);
  }
  if (dtype == DType::kFloat64) return std::nextafter(v, up ? INFINITY : -INFINITY);
  const bool f16 = dtype == DType::kFloat16;
  const uint16_t bits = f16 ? DoubleToF16(v) : DoubleToBF16(v);
  // Sign-magnitude to a monotonic integer and back.
  int32_t ord = (bits & 0x8000) ? -static_cast<int32_t>(bits & 0x7FFF) : (bits & 0x7FFF);
  ord += up ? 1 : -1;
  const uint16_t next = static_cast<uint16_t>(ord < 0 ? (0x8000 | -ord) : ord);
  return f16 ? F16ToDouble(next) : BF16ToDouble(next);
}

// v rounded once to `dtype`.
inline double RoundTo(DType dtype, double v) {
  switch (dtype) {
    case DType::kFloat32:
      return static_cast<float>(v);
    case DType::kFloat16:
      return F16ToDouble(DoubleToF16(v));
    case DType::kBFloat16:
      return BF16ToDouble(DoubleToBF16(v));
    default:
      return v;
  }
}

// ---- special values ----------------------------------------------------------------------

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Smallest and largest subnormal, smallest normal and largest finite value of a dtype.
struct Limits {
  double min_sub, max_sub, min_normal, max_finite;
};
inline Limits LimitsOf(DType dtype) {
  switch (dtype) {
    case DType::kFloat16:
      return {std::ldexp(1.0, -24), std::ldexp(1023.0, -24), std::ldexp(1.0, -14), 65504.0};
    case DType::kBFloat16:
      return {std::ldexp(1.0, -133), std::ldexp(127.0, -133), std::ldexp(1.0, -126),
              BF16ToDouble(0x7F7F)};
    default:
      return {std::numeric_limits<float>::denorm_min(),
              std::ldexp(static_cast<double>((1 << 23) - 1), -149),
              std::numeric_limits<float>::min(), std::numeric_limits<float>::max()};
  }
}

// SiluBackward's cancellation root, where 1 + x(1 - s(x)) = 0 (tests round it to each dtype).
constexpr double kSiluRoot = -1.2784645;
// |dy| from which a gradient counts as huge (special_values_test's
// HugeGradientWithUnderflowingExp).
constexpr double kHugeDy = 1e20;

// x values: every branch point and saturation of the three formulas.
inline std::vector<double> SpecialX(DType t) {
  const Limits l = LimitsOf(t);
  std::vector<double> v = {0.0,
                           -0.0,
                           3.0,
                           -3.0,
                           Adjacent(t, 3.0, false),
                           Adjacent(t, 3.0, true),
                           Adjacent(t, -3.0, false),
                           Adjacent(t, -3.0, true),
                           kInf,
                           -kInf,
                           kNaN,
                           100.0,
                           -100.0,
                           1.0,
                           -1.0,
                           RoundTo(t, kSiluRoot),
                           RoundTo(t, -2.3993572),  // Silu' zero, min
                           12.0,
                           -12.0,
                           20.0,
                           -20.0,
                           40.0,
                           -40.0,
                           88.0,
                           -88.0,
                           l.min_sub,
                           -l.min_sub,
                           l.max_sub,
                           -l.max_sub,
                           l.min_normal,
                           -l.min_normal,
                           l.max_finite,
                           -l.max_finite};
  for (double& x : v) x = RoundTo(t, x);
  return v;
}

// dy values: signed zeros, unit, infinities, NaN, denormals and the largest magnitudes.
inline std::vector<double> SpecialDy(DType t) {
  const Limits l = LimitsOf(t);
  const double large = t == DType::kFloat16 ? 60000.0 : 1e30;
  std::vector<double> v = {0.0,          -0.0,  1.0,    -1.0,         0.75,         -3.0,
                           kInf,         -kInf, kNaN,   l.min_sub,    -l.min_sub,   l.max_sub,
                           l.min_normal, large, -large, l.max_finite, -l.max_finite};
  for (double& x : v) x = RoundTo(t, x);
  return v;
}

// Two corners that special_values_test isolates in tests of their own, so that a failure
// there names its cause: huge |dy| where exp(-|x|) underflows f32, and dy = ±inf at
// SiluBackward's cancellation root.
inline bool HugeTimesUnderflow(double dy, double x) {
  return std::fabs(dy) >= kHugeDy && std::fabs(x) > 80 && std::isfinite(x);
}
inline bool InfiniteAtSiluRoot(Op op, DType t, double dy, double x) {
  return op == Op::kSiluBackward && std::isinf(dy) && x == RoundTo(t, kSiluRoot);
}

constexpr DType kComputeTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};
// The operators of the list: every one, and subsets by kind.
inline const std::vector<Op>& AllOpsList() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (Op op : SuiteOps()) v.push_back(op);
    return v;
  }();
  return ops;
}
// Whether op's operands take the compute dtype t (Shrink's stop at FLOAT16).
inline bool TakesDType(Op op, DType t) { return TakesComputeType(GetOpInfo(op).dtypes, t); }
// Each of ops with each compute dtype it takes: a suite's (operator, dtype) parameters.
inline std::vector<std::tuple<Op, DType>> WithComputeTypes(const std::vector<Op>& ops) {
  std::vector<std::tuple<Op, DType>> v;
  for (Op op : ops) {
    for (DType t : kComputeTypes) {
      if (TakesDType(op, t)) v.emplace_back(op, t);
    }
  }
  return v;
}
// The elementwise gradients (out = f(dy, x)): what the gradient suites run.
inline const std::vector<Op>& EltwiseOpsList() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (Op op : SuiteOps()) {
      if (!GetOpInfo(op).is_reduction && IsGradLike(op)) v.push_back(op);
    }
    return v;
  }();
  return ops;
}
// The gradients, elementwise and reductions (IsGradLike).
inline const std::vector<Op>& GradOpsList() {
  static const std::vector<Op> ops = [] {
    std::vector<Op> v;
    for (Op op : SuiteOps()) {
      if (IsGradLike(op)) v.push_back(op);
    }
    return v;
  }();
  return ops;
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_NUMERIC_HARNESS_H_
