// Benchmark cases shared by the Google Benchmark suites, hostnn-scale and hostnn-tiling
// tune: an operator, a dtype and a shape, with its buffers filled once from the operator
// list's input domain, prepared executors, and the roofline kernel over the same buffers.
// Benchmark and tool code only; nothing here is installed.
#ifndef HOSTNN_BENCH_CASES_H_
#define HOSTNN_BENCH_CASES_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "hostnn/tiling.h"

namespace hostnn {
namespace test {
class CApiCallOf;       // tests/util/capi_call.h
enum class Role : int;  // tests/util/operand_roles.h
}  // namespace test
namespace bench {

// Short dtype names used on command lines and in CSV: f32, f16, bf16, f64.
const char* ShortDTypeName(DType dtype);
bool ParseShortDType(const std::string& text, DType* dtype);
// Whether op computes dtype (f64: the operators whose rule takes DOUBLE everywhere,
// LogSoftmax, and those computed in double, ComputesDouble; bf16: all but Shrink); the
// tools skip the other pairs of their grids.
inline bool BenchTakes(Op op, DType dtype) {
  if (dtype == DType::kFloat64) {
    return GetOpInfo(op).dtypes == DTypeRule::kAnyFloat || ComputesDouble(op);
  }
  return TakesComputeType(GetOpInfo(op).dtypes, dtype);
}

struct CaseSpec {
  Op op = Op::kSiluBackward;
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;  // 1-d for the elementwise ops
  int64_t dim = -1;            // LogSoftmaxBackward only
  // The operator's scalar parameters in its list order (op_list.def); empty: the defaults.
  std::vector<double> scalars;
  // Embedding (Kind Gather): weight's rows, shape being out's [indices, row length];
  // EmbeddingDenseBackward (ScatterAdd): out's rows (numWeights), shape being grad's [indices,
  // row length]; 0: as many rows as indices.
  int64_t weight_rows = 0;

  int64_t Elements() const;
  // The k-th scalar parameter as hostnn is passed it: scalars[k], or the operator's default
  // where the case gives none, rounded to f32 as CANN's op_api reads an aclScalar (ToFloat),
  // so that a peer given it computes with the same value. A flag is 0 or 1.
  double ScalarValue(int k) const;
  // "[262144]", or "[4096,1024] dim -1" for a reduction or a gated unit.
  std::string ShapeText() const;
};

// The standard cases of one operator at n elements: a 1-d tensor for the elementwise
// ops; for LogSoftmaxBackward two, [n/1024, 1024] dim -1 (AR) and [1024, n/1024] dim 0
// (ARA), so both reduction templates are timed (n < 1024 gives [1, n] dim -1 only); for a
// gated unit self [n/1024, 2048] split along the last dim into two [n/1024, 1024] halves
// (n elements per half; [1, 2n] below 1024).
std::vector<CaseSpec> StandardCases(Op op, DType dtype, int64_t n);
// A case made from a shape alone: GroupNorm's N, C and HxW (its first three scalars) read
// from that shape ([N, C, ...]), its group the list's default; other operators unchanged.
void SetShapeScalars(CaseSpec* c);

// The normalisation family (IsNormShape: LayerNorm, RmsNorm, AddRmsNorm, GroupNorm and their
// gradients) is timed on a grid of rows x row length, the extent each row is normalised over,
// not on element counts alone: a norm's cost per element moves with the row length (a row of
// 64 is all reduction overhead; a row of 65536 leaves few rows to share among threads).
struct NormShape {
  int64_t rows = 0;
  int64_t length = 0;  // elements a row normalises
};
inline bool IsNormOp(Op op) { return IsNormShape(GetOpInfo(op).shapes); }
// The default grid: 4096x64, 1024x1024, 256x16384, 64x65536 (short to long rows) and
// 8192x4096 (32M elements, far out of cache).
std::vector<NormShape> DefaultNormShapes();
// "4096x64,1024x1024": rows x length pairs, each extent positive (K and M suffixes as
// ParseCount's); false on anything else.
bool ParseNormShapes(const std::string& text, std::vector<NormShape>* shapes);
// "4096x64".
std::string NormShapeText(const NormShape& s);
// A norm's case of s.rows rows of s.length elements: [rows, length] normalised over the last
// dim; GroupNorm's self [N, C, HxW] in `group` groups with N * group = rows and
// C / group * HxW = length (8 groups of 4 channels where rows and length divide, else 1).
// Pre: IsNormOp(op).
CaseSpec NormCase(Op op, DType dtype, const NormShape& s);
// The rows x length of a norm's case (NormCase's inverse; any [.., length] shape, GroupNorm's
// [N, C, ...] with its group); {0, 0} for another operator's.
NormShape NormShapeOf(const CaseSpec& spec);

// BatchNorm (ShapeRule ChannelStats) normalises each channel over every dim but 1, so its
// cost moves with the spatial extent per sample as well as N: it is timed on a grid of whole
// shapes [N, C, ...]. The default CNN grid: [32, 64, 56, 56] (long spatial rows, 6.4M
// elements), [32, 256, 14, 14], [64, 512, 7, 7] (short rows) and [256, 1024] (2-D, one
// element per sample and channel).
inline bool IsChannelStatsOp(Op op) { return GetOpInfo(op).shapes == ShapeRule::kChannelStats; }
std::vector<std::vector<int64_t>> DefaultChannelShapes();
// "32x64x56x56,256x1024": shapes of 2 to 8 positive extents, each as ParseShape reads one
// with 'x' between extents; false on anything else.
bool ParseChannelShapes(const std::string& text, std::vector<std::vector<int64_t>>* shapes);

// Embedding (Kind Gather) is timed on whole lookups: a weight of `rows` rows of `d` elements
// and `indices` indices drawn uniformly from its rows (out [indices, d]). The default grid:
// 128256x4096x8192 (a large language model's vocabulary, 2 GiB of f32 weight),
// 32000x4096x8192 and 50257x768x4096.
struct EmbeddingShape {
  int64_t rows = 0, d = 0, indices = 0;
};
inline bool IsGatherOp(Op op) { return GetOpInfo(op).kind == Kind::kGather; }
// The index kinds (Embedding, EmbeddingDenseBackward), timed on the same grid (the gradient:
// grad [indices, d] summed into `rows` rows).
inline bool IsIndexOp(Op op) { return IsIndexKind(GetOpInfo(op).kind); }
// The class losses (Kinds ClassLoss, SoftmaxLoss: NLLLoss, CrossEntropyLoss) run on a grid of
// self's shapes: [N, C] for NLLLoss, CrossEntropyLoss and their gradients, [N, C, H, W] for
// NLLLoss2d's. The default: a language model's [64, 32000], [8192, 1000] and [4096, 128256]
// (a 2 GiB f32 self) and a segmenter's [8, 21, 128, 128], [4, 150, 64, 64].
inline bool IsClassLossOp(Op op) {
  return GetOpInfo(op).kind == Kind::kClassLoss || GetOpInfo(op).kind == Kind::kSoftmaxLoss;
}
std::vector<std::vector<int64_t>> DefaultClassShapes();
std::vector<EmbeddingShape> DefaultEmbeddingShapes();
// "128256x4096x8192,32000x4096x8192": rows x d x indices triples of positive extents.
bool ParseEmbeddingShapes(const std::string& text, std::vector<EmbeddingShape>* shapes);
CaseSpec EmbeddingCase(Op op, DType dtype, const EmbeddingShape& s);

// The SIMD target HOSTNN_BENCH_TARGET names ("AVX2", "AVX3", ...), forced for the whole
// process (kernels::ForceTarget) and said on stderr; nothing when it is unset or empty. False
// (with a message naming `tool`) when this build and CPU do not run that target.
bool ForceBenchTarget(const char* tool);

// One executor prepared (phase 1 done) with its workspace, to run again and again.
class PreparedCall {
 public:
  PreparedCall() = default;
  ~PreparedCall();
  PreparedCall(const PreparedCall&) = delete;
  PreparedCall& operator=(const PreparedCall&) = delete;

  // Phase 1 of `args` under `options`, for the current OpenMP thread count. kOk or the
  // operator's error (then nothing is kept).
  Status Prepare(const OpArgs& args, const tiling::Options& options);
  // Phase 2. Pre: Prepare succeeded.
  void Run() const;
  // What the executor runs (hostnn::KernelPath). Pre: Prepare succeeded.
  std::string KernelPath() const;
  uint64_t workspace_bytes() const { return workspace_bytes_; }
  void* workspace() const { return workspace_; }

 private:
  void Reset();
  ExecutorPtr executor_;
  void* workspace_ = nullptr;
  uint64_t workspace_bytes_ = 0;
};

// The buffers of one case (64-byte aligned, huge pages asked for when large), filled
// once: gradOutput from [-1, 1), the second input from the operator's domain
// (op_list.def), and one executor.
class CaseData {
 public:
  explicit CaseData(const CaseSpec& spec);
  ~CaseData();
  CaseData(const CaseData&) = delete;
  CaseData& operator=(const CaseData&) = delete;

  const CaseSpec& spec() const { return spec_; }
  OpArgs Args() const;
  // The case's tensor of an operand role (tests/util/operand_roles.h), null where it has
  // none: what Args() puts in each slot.
  const TensorView* RoleView(test::Role role) const;
  // The dense buffers, for peers that run the same case (gradOutput, self / y, out).
  void* grad_output_data() const { return dy_; }
  void* self_data() const { return x_; }
  void* out_data() const { return out_; }
  // out's view: EmbeddingDenseBackward's [rows, D] is not the spec's shape. The other
  // operands: RoleView.
  const TensorView& out_view() const { return out_view_; }
  // Bytes one call must move at the least: the inputs read (two for a gradient, one for a
  // forward operator), one output written; a gated unit's own operands.
  double Bytes() const;
  // Bytes() in arrays of self's size: the passes over memory the roofline is held to (2: one
  // read and one write, a forward's; 3: a gradient's dy and x read, dx written; a norm's
  // per-row and per-column operands are not counted; AddRmsNorm 4).
  double Passes() const;

  // Phase 1 for the current OpenMP thread count (omp_set_num_threads), keeping the
  // executor and its workspace for Run. kOk or the operator's error.
  Status Prepare(const tiling::Options& options = {});
  // Phase 2 of the prepared executor. Pre: Prepare succeeded.
  void Run() const;
  // What the prepared executor runs (hostnn::KernelPath). Pre: Prepare succeeded.
  std::string KernelPath() const;
  // Both phases of one call through the CANN C API (GetWorkspaceSize, then the run on a
  // null stream), the way a CANN client calls it. Returns the aclnn status.
  int RunCApiCall();
  // Phase 1 alone through the C API (GetWorkspaceSize, then the executor destroyed):
  // what a call costs before any element is computed.
  int RunCApiPrepare();
  // The roofline kernel over this case's buffers: reads gradOutput and self, writes out; a
  // norm's moves Passes() arrays (a copy for 2, a read-two-write-one for 3, two copies for 4).
  void Roofline(int64_t threads) const;

 private:
  CaseSpec spec_;
  size_t bytes_per_array_ = 0;
  void* dy_ = nullptr;
  void* x_ = nullptr;
  void* out_ = nullptr;
  void* act_ = nullptr;  // a gated unit's half-shaped second operand (GeGlu's outGelu, gelu)
  TensorView dy_view_, x_view_, out_view_, act_view_;
  // A channel weight (Prelu, PreluBackward; shape rule ChannelWeight): one element, x's
  // first, and PreluBackward's gradWeight of one element.
  double grad_weight_[1] = {};
  TensorView w_view_, gw_view_;
  // A norm's per-row values (a forward's statistic written, a gradient's rstd read: gw_view_)
  // and a gradient's column sums (sums_view_: dgamma, dbeta), FLOAT, in norm_aux_.
  std::vector<float> norm_aux_;
  std::vector<float> norm_gamma_;  // a norm's gamma (room for any dtype)
  // GroupNorm's meanOut and rstdOut, [N, group] in self's dtype.
  std::vector<float> norm_stats_;
  TensorView stats_view_[2];
  // A gradient's column sums (dgamma; AddLayerNormGrad's dbeta beside it), in norm_aux_.
  TensorView sums_view_[2];
  // BatchNorm's per-channel tensors in the order of BatchNormBackward's prototype and
  // outputs (ShapeRule ChannelStats): weight, bias, runningMean, runningVar, saveMean,
  // saveInvstd, gradWeight, gradBias; C values each in x's dtype, apart (the forward writes
  // the running and saved ones).
  static constexpr int kChannelTensors = 8;
  std::vector<float> channel_data_;
  TensorView channel_views_[kChannelTensors];
  // Embedding (Kind Gather): x_ is weight [rows, D] and dy_view_ the INT64 indices, one per
  // row of out [rows, D], each a row drawn uniformly.
  std::vector<int64_t> index_;
  // A class loss's per-class weight and its one-element tensors (totalWeightOut, or a
  // gradient's gradOutput and totalWeight), in self's dtype.
  std::vector<float> class_aux_;
  // index_ := n INT64 indices drawn uniformly from [0, rows), dy_view_ over them.
  void DrawIndices(int64_t n, int64_t rows);
  PreparedCall prepared_;
  // The C API's operands for RunCApiCall and RunCApiPrepare: Args()'s, made once.
  std::unique_ptr<test::CApiCallOf> capi_;
};

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_CASES_H_
