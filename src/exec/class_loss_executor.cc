// The ClassLoss kind's executor (see the header). A position reads three elements at most
// (its target, its class's weight, self's element there), so the work is the reads, not
// arithmetic: no SIMD kernel, scalar reads of each operand at its own strides. The forward's
// plan is the elementwise plan of the positions: each core writes its positions' terms
// (none), or sums the fixed chunks of positions that start in its share into the workspace,
// added in chunk order after the team is done (mean, sum). The gradient's plan is the
// elementwise plan of out's elements, in the order [outer, classes, inner]: each core zeroes its
// share (memset, or non-temporal stores for an out past the caches) and then writes the
// picked elements that fall in it, so no element is written by two cores.

#include "src/exec/class_loss_executor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

constexpr int64_t kSumChunk = 1024;  // positions summed into one partial (fixed: the bits)
constexpr int64_t kTermChunk = 256;  // terms rounded and stored at a time (on the stack)

// Self's, weight's and gradOutput's storage types, each read exactly into a double.
struct F16Bits {
  uint16_t bits;
};
struct BF16Bits {
  uint16_t bits;
};
inline double ToDouble(float v) { return v; }
inline double ToDouble(BF16Bits h) {
  const uint32_t bits = static_cast<uint32_t>(h.bits) << 16;
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}
inline double ToDouble(F16Bits h) {
  const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
  const uint32_t exp = (h.bits >> 10) & 0x1Fu, mant = h.bits & 0x3FFu;
  if (exp == 0) {  // zero or subnormal: mant * 2^-24
    const double v = static_cast<double>(mant) * (1.0 / 16777216.0);
    return sign != 0 ? -v : v;
  }
  const uint32_t bits = sign | ((exp == 31 ? 255u : exp + 112u) << 23) | (mant << 13);
  float v;
  std::memcpy(&v, &bits, 4);
  return v;
}

// Element i (row-major over its own shape) of a one-operand layout of storage type X: at i
// where the operand is contiguous, else at its strides.
template <class X>
inline X At(const core::FusedLayout& l, int64_t i) {
  const int64_t off = l.dense ? i : core::ElementOffset(l, 0, i);
  X v;
  std::memcpy(&v, l.operands[0].first + off * static_cast<int64_t>(sizeof(X)), sizeof(X));
  return v;
}

class ClassLossExecutor final : public Executor {
 public:
  struct Layouts {  // each operand over its own shape
    core::FusedLayout self, target, weight, grad_output, total_weight, out, total_weight_out;
  };

  ClassLossExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, const Layouts& layouts,
                    const ClassLossOperands& o, bool empty)
      : Executor(op, std::move(plan)),
        l_(layouts),
        forward_(GetOpInfo(op).is_forward),
        empty_(empty),
        self_dtype_(o.self.view->dtype),
        target_dtype_(o.target.view->dtype),
        out_codec_(MakeCodec(o.out.view->dtype)),
        total_codec_(forward_ ? MakeCodec(o.total_weight_out.view->dtype) : OperandCodec()),
        classes_(o.classes),
        inner_(o.inner),
        positions_(o.outer * o.inner) {
    const auto params = kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact))
                            .As<kernels::ClassLossParams>();
    reduction_ = params.reduction;
    ignore_index_ = params.ignore_index;
    if (empty_) return;
    if (forward_ && reduction_ != 0) {
      chunks_ = (positions_ + kSumChunk - 1) / kSumChunk;
      workspace_bytes_ = AlignWorkspace(static_cast<uint64_t>(chunks_) * 2 * sizeof(double));
    }
    if (!forward_) {
      const uint64_t out_bytes =
          static_cast<uint64_t>(positions_ * classes_) * out_codec_.elem_bytes;
      // Non-temporal zeros leave out's lines outside the caches, so each pick written after
      // them misses: they pay off where the picks are sparse (a pick per 8 lines at most: a
      // row of classes per position), not per pixel (NLLLoss2d's few classes).
      const bool sparse_picks = static_cast<uint64_t>(positions_) * 8 * 64 <= out_bytes;
      stream_zero_ = RowStreamCopy(l_.out.dense && sparse_picks, static_cast<int64_t>(out_bytes),
                                   out_bytes, plan_->stream_min_bytes);
    }
  }

  std::string KernelPath() const override {
    std::string what = forward_ ? (reduction_ == 0 ? "terms per position"
                                                   : "chunked sums in double, chunks in order")
                                : (stream_zero_ != nullptr ? "zeros streamed, then the picks"
                                                           : "zeros, then the picks");
    return "class pick (" + what + ", " + DTypeName(target_dtype_) + " targets checked first)";
  }

  Status CheckRunValues() const override {
    if (empty_) return Status::Ok();
    for (int64_t p = 0; p < positions_; ++p) {
      const int64_t t = Target(p);
      if (t != ignore_index_ && (t < 0 || t >= classes_)) {
        return Status::Invalid(std::string(GetOpInfo(op_).name) + ": target element " +
                               std::to_string(p) + " (row-major) is " + std::to_string(t) +
                               ", outside the classes [0, " + std::to_string(classes_) +
                               ") and not ignoreIndex (" + std::to_string(ignore_index_) +
                               "); nothing was written");
      }
    }
    return Status::Ok();
  }

  void Run(char* workspace) const override {
    if (empty_) {
      if (forward_ && reduction_ != 0) {
        WriteOne(l_.out, out_codec_, reduction_ == 1 ? std::nan("") : 0.0);
        WriteOne(l_.total_weight_out, total_codec_, 0.0);
      }
      return;
    }
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &ClassLossExecutor::RunCore,
                          workspace);
    if (!forward_ || reduction_ == 0) return;
    const double* partial = reinterpret_cast<const double*>(workspace);
    double loss = 0.0, total = 0.0;
    for (int64_t c = 0; c < chunks_; ++c) {
      loss += partial[2 * c];
      total += partial[2 * c + 1];
    }
    WriteOne(l_.out, out_codec_, reduction_ == 1 ? loss / total : loss);
    WriteOne(l_.total_weight_out, total_codec_, total);
  }

 private:
  int64_t Target(int64_t p) const {
    switch (target_dtype_) {
      case DType::kInt64:
        return At<int64_t>(l_.target, p);
      case DType::kInt32:
        return At<int32_t>(l_.target, p);
      default:  // UINT8
        return At<uint8_t>(l_.target, p);
    }
  }
  static void WriteOne(const core::FusedLayout& l, const OperandCodec& codec, double v) {
    const float f = static_cast<float>(v);
    ScatterF32(l, l.operands[0], codec, 0, 1, &f);
  }

  // The storage types resolved once per core: self's (weight's, gradOutput's) X, the
  // target's T.
  void RunCore(int64_t core, char* workspace) const {
    switch (self_dtype_) {
      case DType::kFloat16:
        return RunCoreX<F16Bits>(core, workspace);
      case DType::kBFloat16:
        return RunCoreX<BF16Bits>(core, workspace);
      default:
        return RunCoreX<float>(core, workspace);
    }
  }
  template <class X>
  void RunCoreX(int64_t core, char* workspace) const {
    switch (target_dtype_) {
      case DType::kInt64:
        return RunCoreT<X, int64_t>(core, workspace);
      case DType::kInt32:
        return RunCoreT<X, int32_t>(core, workspace);
      default:
        return RunCoreT<X, uint8_t>(core, workspace);
    }
  }
  template <class X, class T>
  void RunCoreT(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    if (!forward_) return GradCore<X, T>(begin, end);
    if (reduction_ == 0) return TermsCore<X, T>(begin, end);
    double* partial = reinterpret_cast<double*>(workspace);
    for (int64_t c = (begin + kSumChunk - 1) / kSumChunk; c * kSumChunk < end; ++c) {
      double loss = 0.0, total = 0.0;
      const int64_t last = std::min(positions_, (c + 1) * kSumChunk);
      ForPositions<X, T>(c * kSumChunk, last, [&](int64_t, int64_t t, double w, double x, int64_t) {
        if (t == ignore_index_) return;
        loss -= w * x;  // -weight[t] x, exact in double (two floats' product)
        total += w;
      });
      partial[2 * c] = loss;
      partial[2 * c + 1] = total;
    }
  }

  // f(q, t, w, x, e) for each position q in [q0, q1): its target t and, unless t is
  // ignoreIndex, its class's weight w, self's element x there and its index e in self's
  // [outer, classes, inner] (0, 0, -1 where ignored; x 0 where kReadsSelf is false: the
  // gradient's picks do not read self). The (outer, inner) index walks along
  // with q, no division per position. Where self and the target are contiguous, self's
  // element kAhead positions ahead is asked for early: each position reads another row (or
  // another class's plane), which the hardware prefetcher cannot guess from the targets, and
  // the time of a position is that read's latency otherwise.
  template <class X, class T, bool kReadsSelf = true, class F>
  void ForPositions(int64_t q0, int64_t q1, const F& f) const {
    constexpr int64_t kAhead = 24;
    int64_t o = q0 / inner_, i = q0 - o * inner_;
    const bool ahead = kReadsSelf && l_.self.dense && l_.target.dense && q1 - q0 > kAhead;
    int64_t oa = (q0 + kAhead) / inner_, ia = q0 + kAhead - oa * inner_;
    const char* self = l_.self.operands[0].first;
    const T* target = reinterpret_cast<const T*>(l_.target.operands[0].first);
    for (int64_t q = q0; q < q1; ++q) {
      if (ahead && q + kAhead < q1) {
        const int64_t ta = static_cast<int64_t>(target[q + kAhead]);
        if (ta >= 0 && ta < classes_) {
          __builtin_prefetch(self + ((oa * classes_ + ta) * inner_ + ia) *
                                        static_cast<int64_t>(sizeof(X)));
        }
        if (++ia == inner_) ia = 0, ++oa;
      }
      const int64_t t = static_cast<int64_t>(At<T>(l_.target, q));
      if (t == ignore_index_) {
        f(q, t, 0.0, 0.0, int64_t{-1});
      } else {
        const int64_t e = (o * classes_ + t) * inner_ + i;
        f(q, t, ToDouble(At<X>(l_.weight, t)), kReadsSelf ? ToDouble(At<X>(l_.self, e)) : 0.0, e);
      }
      if (++i == inner_) i = 0, ++o;
    }
  }

  // out[q] = -weight[t] x (+0 where ignored), rounded once, for q in [begin, end).
  template <class X, class T>
  void TermsCore(int64_t begin, int64_t end) const {
    alignas(64) float terms[kTermChunk];
    for (int64_t q0 = begin; q0 < end; q0 += kTermChunk) {
      const int64_t m = std::min(kTermChunk, end - q0);
      ForPositions<X, T>(q0, q0 + m, [&](int64_t q, int64_t t, double w, double x, int64_t) {
        terms[q - q0] = t == ignore_index_ ? 0.0f : static_cast<float>(-(w * x));
      });
      ScatterF32(l_.out, l_.out.operands[0], out_codec_, q0, m, terms);
    }
  }

  // out's elements [begin, end) of [outer, classes, inner]: zeros, then the picks among them,
  // rounded a batch at a time and stored at their places.
  template <class X, class T>
  void GradCore(int64_t begin, int64_t end) const {
    Zero(begin, end);
    // A reduced gradient's one factor: gradOutput's element (over totalWeight's for the mean).
    double g_all = reduction_ == 0 ? 0.0 : ToDouble(At<X>(l_.grad_output, 0));
    if (reduction_ == 1) g_all /= ToDouble(At<X>(l_.total_weight, 0));
    const int64_t per_outer = classes_ * inner_;
    const int64_t q0 = begin / per_outer * inner_;
    const int64_t q1 = std::min(positions_, ((end - 1) / per_outer + 1) * inner_);
    alignas(64) float values[kTermChunk];
    int64_t places[kTermChunk];
    int64_t m = 0;
    for (int64_t qc = q0; qc < q1; qc += kTermChunk) {
      ForPositions<X, T, false>(qc, std::min(q1, qc + kTermChunk),
                                [&](int64_t q, int64_t t, double w, double, int64_t e) {
                                  if (t == ignore_index_ || e < begin || e >= end) return;
                                  const double g =
                                      reduction_ == 0 ? ToDouble(At<X>(l_.grad_output, q)) : g_all;
                                  values[m] = static_cast<float>(-(w * g));
                                  places[m++] = e;
                                });
      StorePicks(values, places, m);
      m = 0;
    }
  }

  // out[places[j]] = values[j], each rounded once to out's dtype.
  void StorePicks(const float* values, const int64_t* places, int64_t m) const {
    if (m == 0) return;
    if (!l_.out.dense) {
      for (int64_t j = 0; j < m; ++j) {
        ScatterF32(l_.out, l_.out.operands[0], out_codec_, places[j], 1, values + j);
      }
      return;
    }
    const size_t es = out_codec_.elem_bytes;
    alignas(64) char stored[kTermChunk * 16];  // COMPLEX128 at most
    out_codec_.from_f32(values, stored, static_cast<size_t>(m));
    char* out = l_.out.operands[0].first;
    switch (es) {  // a constant size: the copy is one store, not a call
      case 2:
        return StoreEach<2>(out, stored, places, m);
      case 4:
        return StoreEach<4>(out, stored, places, m);
      case 8:
        return StoreEach<8>(out, stored, places, m);
      default:
        return StoreEach<16>(out, stored, places, m);
    }
  }
  template <size_t kBytes>
  static void StoreEach(char* out, const char* stored, const int64_t* places, int64_t m) {
    for (int64_t j = 0; j < m; ++j) {
      std::memcpy(out + places[j] * static_cast<int64_t>(kBytes), stored + j * kBytes, kBytes);
    }
  }

  // out's elements [e0, e1) (row-major) set to +0.
  void Zero(int64_t e0, int64_t e1) const {
    ZeroElements(l_.out, out_codec_.elem_bytes, e0, e1, stream_zero_);
    if (stream_zero_ != nullptr) kernels::StoreFence();  // the picks' plain stores land after
  }

  Layouts l_;
  bool forward_, empty_;
  DType self_dtype_, target_dtype_;
  OperandCodec out_codec_, total_codec_;
  int64_t classes_, inner_, positions_;
  int64_t reduction_ = 0, ignore_index_ = 0;
  int64_t chunks_ = 0;                     // the forward's sums: partials in the workspace
  kernels::CopyFn stream_zero_ = nullptr;  // the gradient's zeros of an out past the caches
};

}  // namespace

Status PrepareClassLoss(Op op, const ClassLossOperands& o, const tiling::Options& options,
                        uint64_t* workspace_size, ExecutorPtr* executor) {
  const bool forward = GetOpInfo(op).is_forward;
  const int64_t positions = o.outer * o.inner;
  const bool empty = positions == 0 || o.classes == 0;
  tiling::Problem problem{op,
                          o.self.view->dtype,
                          {std::max<int64_t>(positions, 1), std::max<int64_t>(o.classes, 1)},
                          0,
                          launch::TeamSize()};
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, empty, options, &plan));
  ClassLossExecutor::Layouts l;
  HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.out, &l.out));
  if (forward) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.total_weight_out, &l.total_weight_out));
  if (!empty) {
    HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.self, &l.self));
    HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.target, &l.target));
    HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.weight, &l.weight));
    if (!forward) {
      HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.grad_output, &l.grad_output));
      HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.total_weight, &l.total_weight));
    }
  }
  auto* exec = new ClassLossExecutor(op, std::move(plan), l, o, empty);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
