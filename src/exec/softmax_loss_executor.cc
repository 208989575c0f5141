// The SoftmaxLoss kind's executor (see the header). A row is the unit of work: its C classes
// are read two or three times (the max, the sum of exp, the output pass; the forward's label
// smoothing or the dense labels' loss once more), so a core takes whole rows. The plan is the
// elementwise plan of the [rows, classes] elements; a core takes the rows that start in its share.
// Each row's loss and weight go to the workspace, and the sums are taken after the team is done, in
// row order: the bits do not depend on the team. A row of an operand whose classes are not
// contiguous is copied to (or from) the core's part of the workspace as it is; the kernels
// always see contiguous rows.

#include "src/exec/softmax_loss_executor.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "kernels/params.h"
#include "src/core/layout.h"
#include "src/exec/executor.h"
#include "src/exec/gather.h"
#include "src/exec/launcher.h"

namespace hostnn {
namespace exec {
namespace {

// One [rows, classes] operand's rows: where each starts, and whether its classes are
// contiguous (else a row goes through the layout's gather and scatter).
struct RowAccess {
  char* first = nullptr;       // the view's first element
  int64_t row_bytes_step = 0;  // from one row's first element to the next's
  bool contiguous = false;     // classes one element apart
  core::FusedLayout layout;    // the operand over its own shape

  char* Row(int64_t r) const { return first + r * row_bytes_step; }
};

Status MakeRowAccess(Op op, const Operand& v, RowAccess* a) {
  HOSTNN_RETURN_IF_ERROR(FuseOwn(op, v, &a->layout));
  // The span the front end checked: its effective strides, and its first element (null for
  // an operand over a null address, which phase 1 takes, as CANN's, and phase 2 refuses, so
  // no arithmetic is done on a null pointer).
  const std::vector<int64_t>& strides = v.span->strides;
  a->first = v.span->first;
  a->row_bytes_step = strides[0] * static_cast<int64_t>(DTypeSize(v.view->dtype));
  a->contiguous = strides[1] == 1 || v.view->shape[1] == 1;
  return Status::Ok();
}

// A float of any of the three storage types, read exactly into a double (to_f32: the
// storage type's widening).
double ElementToDouble(const char* p, kernels::ToF32Fn to_f32) {
  float f = 0.0f;
  to_f32(p, &f, 1);
  return f;
}

class SoftmaxLossExecutor final : public Executor {
 public:
  struct Layouts {
    RowAccess rows_in, rows_out;  // input and logProb (forward); logProb and out (gradient)
    core::FusedLayout target, weight, grad_loss, loss;
    bool has_weight = false;
    // Dense labels (SoftmaxCrossEntropyWithLogits): over [rows, classes], broadcast; a row
    // read in place where it is contiguous FLOAT (labels_step elements from row to row).
    core::FusedLayout labels;
    bool labels_in_place = false;
    const char* labels_first = nullptr;
    int64_t labels_step = 0;
  };

  SoftmaxLossExecutor(Op op, std::shared_ptr<const tiling::Plan> plan, Layouts layouts,
                      const SoftmaxLossOperands& o)
      : Executor(op, std::move(plan)),
        l_(std::move(layouts)),
        forward_(GetOpInfo(op).is_forward),
        dense_(GetOpInfo(op).shapes == ShapeRule::kLabelRows),
        dtype_(o.rows_in.view->dtype),
        es_(DTypeSize(dtype_)),
        target_dtype_(dense_ ? o.labels.view->dtype : o.target.view->dtype),
        rows_(o.rows),
        classes_(o.classes),
        softmax_(kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype_, dtype_)),
        loss_kernels_(kernels::GetSoftmaxLossKernels(dtype_)),
        to_f32_(kernels::GetToF32(dtype_)),
        out_codec_(MakeCodec(dtype_)),
        loss_codec_(forward_ ? MakeCodec(o.loss.view->dtype) : OperandCodec()),
        labels_codec_(dense_ ? MakeCodec(target_dtype_) : OperandCodec()) {
    if (dense_) {  // no attributes: one loss per row, no weights, nothing ignored
      reduction_ = 0;
      ignore_index_ = 0;
    } else {
      InitAttributes(op, o);
    }
    if (rows_ == 0) return;  // nothing runs but the reduced loss's fill
    // The workspace: each row's loss and weight (forward) or scale (gradient), the weights
    // as contiguous f32, then each core's row copies where an operand needs them.
    const uint64_t per_rows = AlignWorkspace(static_cast<uint64_t>(rows_) * sizeof(double));
    weight_at_ = 2 * per_rows;
    scratch_at_ = weight_at_ + AlignWorkspace(static_cast<uint64_t>(classes_) * sizeof(float));
    const uint64_t row_copy = AlignWorkspace(static_cast<uint64_t>(classes_) * es_);
    labels_copy_ = dense_ && !l_.labels_in_place
                       ? AlignWorkspace(static_cast<uint64_t>(classes_) * sizeof(float))
                       : 0;
    scratch_per_core_ = (l_.rows_in.contiguous ? 0 : row_copy) +
                        (l_.rows_out.contiguous ? 0 : row_copy) + labels_copy_;
    workspace_bytes_ =
        scratch_at_ + scratch_per_core_ * static_cast<uint64_t>(plan_->elementwise.block_dim);
  }

  // CrossEntropyLoss's and its gradient's attributes, from their typed parameters.
  void InitAttributes(Op op, const SoftmaxLossOperands& o) {
    const kernels::OpParams params =
        kernels::InitParams(op, kernels::ParamValues(op, o.numbers, o.exact));
    const kernels::SoftmaxLossParams& p = forward_
                                              ? params.As<kernels::CrossEntropyLossParams>().common
                                              : params.As<kernels::SoftmaxLossParams>();
    reduction_ = p.reduction;
    ignore_index_ = p.ignore_index;
    smoothing_ = static_cast<double>(p.label_smoothing);
  }

  std::string KernelPath() const override {
    std::string what = dense_     ? "softmax rows minus the labels, the loss per row"
                       : forward_ ? "log-softmax rows (LogSoftmax's kernels), the loss per row"
                                  : "gradient rows from logProb";
    if (!l_.rows_in.contiguous || !l_.rows_out.contiguous) what += ", strided rows copied";
    if (dense_) {
      return std::string(kernels::ChosenTargetName()) + ", " + what + ", " +
             DTypeName(target_dtype_) +
             (l_.labels_in_place ? " labels read in place" : " labels widened per row");
    }
    return std::string(kernels::ChosenTargetName()) + ", " + what + ", " +
           DTypeName(target_dtype_) + " targets checked first";
  }

  Status CheckRunValues() const override {
    if (dense_) return Status::Ok();  // labels are values, not classes
    for (int64_t r = 0; r < rows_; ++r) {
      const int64_t t = Target(r);
      if (t != ignore_index_ && (t < 0 || t >= classes_)) {
        return Status::Invalid(
            std::string(GetOpInfo(op_).name) + ": target element " + std::to_string(r) + " is " +
            std::to_string(t) + ", outside the classes [0, " + std::to_string(classes_) +
            ") and not ignoreIndex (" + std::to_string(ignore_index_) + "); nothing was written");
      }
    }
    return Status::Ok();
  }

  void Run(char* workspace) const override {
    if (rows_ == 0) {
      if (forward_ && reduction_ != 0) WriteLoss(0, 1, reduction_ == 1 ? std::nan("") : 0.0);
      return;
    }
    Shared s = Prepare(workspace);
    if (!forward_) {
      // The mean's divisor: the weights of the rows not ignored, in row order.
      s.g = reduction_ == 0 ? 0.0 : ElementToDouble(l_.grad_loss.operands[0].first, to_f32_);
      if (reduction_ == 1) s.g /= TargetWeightSum(s.weight);
    }
    shared_ = &s;
    launch::LaunchRunCore(plan_->elementwise.block_dim, this, &SoftmaxLossExecutor::RunCore,
                          workspace);
    shared_ = nullptr;
    if (!forward_) return;
    const double* terms = reinterpret_cast<const double*>(workspace);
    const double* weights = terms + AlignWorkspace(rows_ * sizeof(double)) / sizeof(double);
    if (reduction_ == 0) {  // the terms as f32 where the weights were: phase 2 allocates nothing
      float* v = reinterpret_cast<float*>(workspace + AlignWorkspace(rows_ * sizeof(double)));
      for (int64_t r = 0; r < rows_; ++r) v[r] = static_cast<float>(terms[r]);
      ScatterF32(l_.loss, l_.loss.operands[0], loss_codec_, 0, rows_, v);
      return;
    }
    double loss = 0.0, total = 0.0;
    for (int64_t r = 0; r < rows_; ++r) loss += terms[r], total += weights[r];
    WriteLoss(0, 1, reduction_ == 1 ? loss / total : loss);
  }

 private:
  // What every core reads during a run: the weights (contiguous f32; null: none), their sum,
  // and the gradient's reduced factor g.
  struct Shared {
    const float* weight = nullptr;
    double weight_sum = 0.0;
    double g = 0.0;
  };

  // The weights as contiguous f32 (the view itself where it is one), and their sum in order.
  Shared Prepare(char* workspace) const {
    Shared s;
    s.weight_sum = static_cast<double>(classes_);
    if (!l_.has_weight) return s;
    float* w = reinterpret_cast<float*>(workspace + weight_at_);
    GatherF32(l_.weight, l_.weight.operands[0], MakeCodec(DType::kFloat32), 0, classes_, w);
    s.weight = w;
    double sum = 0.0;
    for (int64_t c = 0; c < classes_; ++c) sum += w[c];
    s.weight_sum = sum;
    return s;
  }

  double TargetWeightSum(const float* weight) const {
    double total = 0.0;
    for (int64_t r = 0; r < rows_; ++r) {
      const int64_t t = Target(r);
      if (t != ignore_index_) total += weight == nullptr ? 1.0 : weight[t];
    }
    return total;
  }

  int64_t Target(int64_t r) const {
    const core::FusedLayout& l = l_.target;
    const int64_t off = l.dense ? r : core::ElementOffset(l, 0, r);
    const char* p = l.operands[0].first;
    if (target_dtype_ == DType::kInt32) {
      int32_t v;
      std::memcpy(&v, p + off * 4, 4);
      return v;
    }
    int64_t v;
    std::memcpy(&v, p + off * 8, 8);
    return v;
  }

  void WriteLoss(int64_t at, int64_t n, double v) const {
    const float f = static_cast<float>(v);
    ScatterF32(l_.loss, l_.loss.operands[0], loss_codec_, at, n, &f);
  }

  // The rows that start in this core's share of the [rows, classes] elements.
  void RunCore(int64_t core, char* workspace) const {
    const tiling::ElementwisePlan& p = plan_->elementwise;
    const int64_t begin = p.CoreBegin(core), end = begin + p.CoreLen(core);
    const int64_t r0 = (begin + classes_ - 1) / classes_;
    const int64_t r1 = std::min(rows_, (end + classes_ - 1) / classes_);
    char* scratch = workspace + scratch_at_ + static_cast<uint64_t>(core) * scratch_per_core_;
    char* in_copy = l_.rows_in.contiguous ? nullptr : scratch;
    char* out_copy = l_.rows_out.contiguous
                         ? nullptr
                         : scratch + (in_copy == nullptr ? 0 : AlignWorkspace(classes_ * es_));
    float* labels_copy = labels_copy_ == 0
                             ? nullptr
                             : reinterpret_cast<float*>(scratch + scratch_per_core_ - labels_copy_);
    double* terms = reinterpret_cast<double*>(workspace);
    double* weights = terms + AlignWorkspace(rows_ * sizeof(double)) / sizeof(double);
    for (int64_t r = r0; r < r1; ++r) {
      const char* in = l_.rows_in.contiguous ? l_.rows_in.Row(r) : in_copy;
      if (in_copy != nullptr) {
        GatherRaw(l_.rows_in.layout, l_.rows_in.layout.operands[0], es_, r * classes_, classes_,
                  in_copy);
      }
      char* out = l_.rows_out.contiguous ? l_.rows_out.Row(r) : out_copy;
      if (dense_) {
        LabelsRow(r, in, out, labels_copy, &terms[r]);
      } else if (forward_) {
        ForwardRow(r, in, out, &terms[r], &weights[r]);
      } else {
        GradRow(r, in, out);
      }
      if (out_copy != nullptr) {
        ScatterRaw(l_.rows_out.layout, l_.rows_out.layout.operands[0], es_, r * classes_, classes_,
                   out_copy);
      }
    }
  }

  // A row's max and log(sum exp(x - max)), as LogSoftmax's kernels take them.
  double MaxAndLogSum(const char* x, float* max) const {
    const size_t n = static_cast<size_t>(classes_);
    *max = -std::numeric_limits<float>::infinity();
    softmax_.row_max(x, n, max);
    double partials[kernels::kRowPartials] = {0};
    softmax_.row_sum_exp(x, n, *max, partials);
    return kernels::RowStat(softmax_, x, n, es_, n, *max, partials);
  }

  // logProb's row, and the row's loss and target weight.
  void ForwardRow(int64_t r, const char* x, char* lp, double* term, double* weight) const {
    const size_t n = static_cast<size_t>(classes_);
    float max = 0.0f;
    const double log_sum = MaxAndLogSum(x, &max);
    softmax_.row_out(x, max, log_sum, lp, n);
    const int64_t t = Target(r);
    if (t == ignore_index_) {
      *term = 0.0, *weight = 0.0;
      return;
    }
    const Shared& s = *shared_;
    const double w = s.weight == nullptr ? 1.0 : s.weight[t];
    const double lp_t = (ElementToDouble(x + t * es_, to_f32_) - max) - log_sum;
    double l = -(w * lp_t);
    if (smoothing_ > 0.0) {  // (e / C) times minus the row's sum of w_c lp_c
      const double sum = loss_kernels_.shifted_sum(x, s.weight, max, n) - log_sum * s.weight_sum;
      l = (1.0 - smoothing_) * l - smoothing_ / static_cast<double>(classes_) * sum;
    }
    *term = l, *weight = w;
  }

  // backprop's row and the row's loss from features' row x and labels' row y (f32: in place,
  // or widened into y_copy): loss = sum_c y_c (lse - x_c) = -sum_c y_c (x_c - (max + log_sum)).
  void LabelsRow(int64_t r, const char* x, char* backprop, float* y_copy, double* term) const {
    const size_t n = static_cast<size_t>(classes_);
    float max = 0.0f;
    const double log_sum = MaxAndLogSum(x, &max);
    const float* y = y_copy;
    if (y == nullptr) {
      y = reinterpret_cast<const float*>(l_.labels_first) + r * l_.labels_step;
    } else {
      GatherF32(l_.labels, l_.labels.operands[0], labels_codec_, r * classes_, classes_, y_copy);
    }
    *term = -loss_kernels_.shifted_sum(x, y, static_cast<double>(max) + log_sum, n);
    loss_kernels_.label_grad_row(x, y, max, static_cast<float>(log_sum), backprop, n);
  }

  // out's row from logProb's row.
  void GradRow(int64_t r, const char* lp, char* out) const {
    const int64_t t = Target(r);
    if (t == ignore_index_) {
      std::memset(out, 0, static_cast<size_t>(classes_) * es_);
      return;
    }
    const Shared& s = *shared_;
    const double g = reduction_ == 0 ? ElementToDouble(GradLossAt(r), to_f32_) : s.g;
    const double w_t = s.weight == nullptr ? 1.0 : s.weight[t];
    const double a = g * (1.0 - smoothing_) * w_t;
    const double b = g * smoothing_ / static_cast<double>(classes_);
    loss_kernels_.grad_row(lp, s.weight, static_cast<float>(a + b * s.weight_sum),
                           static_cast<float>(b), out, static_cast<size_t>(classes_));
    const double lp_t = ElementToDouble(lp + t * es_, to_f32_);
    const float v =
        static_cast<float>(a * std::expm1(lp_t) + b * (s.weight_sum * std::exp(lp_t) - w_t));
    out_codec_.from_f32(&v, out + t * es_, 1);
  }

  const char* GradLossAt(int64_t r) const {
    const core::FusedLayout& l = l_.grad_loss;
    const int64_t off = l.dense ? r : core::ElementOffset(l, 0, r);
    return l.operands[0].first + off * static_cast<int64_t>(es_);
  }

  Layouts l_;
  bool forward_;
  bool dense_;  // dense labels (SoftmaxCrossEntropyWithLogits)
  DType dtype_;
  size_t es_;
  DType target_dtype_;
  int64_t rows_, classes_;
  kernels::SoftmaxForwardKernels softmax_;
  kernels::SoftmaxLossKernels loss_kernels_;
  kernels::ToF32Fn to_f32_;
  OperandCodec out_codec_, loss_codec_, labels_codec_;
  int64_t reduction_ = 0, ignore_index_ = 0;
  double smoothing_ = 0.0;
  uint64_t weight_at_ = 0, scratch_at_ = 0, scratch_per_core_ = 0, labels_copy_ = 0;
  // The run's shared values while the team runs (runs never overlap: Executor::run_mutex).
  mutable const Shared* shared_ = nullptr;
};

// Dense labels over [rows, classes], broadcast (the front end checked that they broadcast).
Status MakeLabels(Op op, const SoftmaxLossOperands& o, SoftmaxLossExecutor::Layouts* l) {
  const TensorView& t = *o.labels.view;
  const std::vector<int64_t> shape = {o.rows, o.classes};
  std::vector<int64_t> strides;
  if (!core::BroadcastStrides(t.shape, o.labels.span->strides, shape, &strides)) {
    return Status::Inner(std::string(GetOpInfo(op).name) + ": labels do not broadcast");
  }
  char* first = o.labels.span->first;
  const DType dtype = t.dtype;
  HOSTNN_RETURN_IF_ERROR(FuseOperands(op, shape, 1, &first, &dtype, &strides, &l->labels));
  l->labels_in_place = dtype == DType::kFloat32 && (strides[1] == 1 || o.classes == 1);
  l->labels_first = first;
  l->labels_step = strides[0];
  return Status::Ok();
}

}  // namespace

Status PrepareSoftmaxLoss(Op op, const SoftmaxLossOperands& o, const tiling::Options& options,
                          uint64_t* workspace_size, ExecutorPtr* executor) {
  const bool forward = GetOpInfo(op).is_forward;
  const bool dense = GetOpInfo(op).shapes == ShapeRule::kLabelRows;
  const bool empty = o.rows == 0;
  tiling::Problem problem{
      op, o.rows_in.view->dtype, {std::max<int64_t>(o.rows, 1), o.classes}, 0, launch::TeamSize()};
  // What the A2 tiling reads: the weight, label smoothing above 0, the reduction's mode.
  problem.softmax_loss.weight = o.weight.view != nullptr;
  problem.softmax_loss.smoothing = o.numbers[2] > 0.0f;
  problem.softmax_loss.reduction = o.exact[0];
  std::shared_ptr<const tiling::Plan> plan;
  HOSTNN_RETURN_IF_ERROR(PlanOp(op, problem, empty, options, &plan));
  SoftmaxLossExecutor::Layouts l;
  if (forward) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.loss, &l.loss));
  if (!empty) {
    HOSTNN_RETURN_IF_ERROR(MakeRowAccess(op, o.rows_in, &l.rows_in));
    HOSTNN_RETURN_IF_ERROR(MakeRowAccess(op, forward ? o.log_prob : o.out, &l.rows_out));
    if (dense) {
      HOSTNN_RETURN_IF_ERROR(MakeLabels(op, o, &l));
    } else {
      HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.target, &l.target));
    }
    l.has_weight = o.weight.view != nullptr;
    if (l.has_weight) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.weight, &l.weight));
    if (!forward) HOSTNN_RETURN_IF_ERROR(FuseOwn(op, o.grad_loss, &l.grad_loss));
  } else {
    l.rows_in.contiguous = l.rows_out.contiguous = true;
  }
  auto* exec = new SoftmaxLossExecutor(op, std::move(plan), std::move(l), o);
  *workspace_size = exec->workspace_bytes();
  executor->reset(exec);
  return Status::Ok();
}

}  // namespace exec
}  // namespace hostnn
