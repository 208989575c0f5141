// libFuzzer target: decodes random bytes into tensor descriptions (rank 0-10; dims 0, 1,
// small and huge; strides 0, negative, huge; offsets; every dtype value; dims for
// LogSoftmaxBackward; inputs aliasing the output) over exactly-sized heap buffers that the
// sanitizers guard, and calls both phases of every operator through the C API (RReluWithNoise
// in either mode, the norms with their normalizedShape, optional operands and statistics). It
// aborts when a failed first phase wrote anything or a successful one is followed by a failing run
// (but for Embedding's refusal of an index outside weight's rows, which must write nothing);
// reads or writes outside a buffer are the sanitizers' to catch.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "acl/acl.h"
#include "tests/util/capi_ops.h"

namespace {

constexpr size_t kBufBytes = 4096;  // each backing buffer; the storage shapes never claim more
constexpr int kBuffers = 3;

class Reader {
 public:
  Reader(const uint8_t* p, size_t n) : p_(p), n_(n) {}
  uint8_t U8() { return i_ < n_ ? p_[i_++] : 0; }
  template <typename T, size_t N>
  T Pick(const T (&table)[N]) {
    return table[U8() % N];
  }

 private:
  const uint8_t* p_;
  size_t n_, i_ = 0;
};

const int kDTypes[] = {0, 1, 27, 11, 3, 9, 12, -1, 2, 99, 16, 17, 13, 29};
const int64_t kDims[] = {0,
                         1,
                         2,
                         3,
                         4,
                         5,
                         7,
                         8,
                         16,
                         33,
                         -1,
                         -5,
                         int64_t{1} << 20,
                         int64_t{1} << 31,
                         int64_t{1} << 40,
                         INT64_MAX};
const int64_t kStrides[] = {0, 1, 2, 3, -1, -2, 7, 64, int64_t{1} << 40, INT64_MIN, INT64_MAX};
const int64_t kOffsets[] = {0, 1, 3, -1, 100, 511, int64_t{1} << 40, INT64_MAX};
const int64_t kLsmDims[] = {0, 1, -1, 2, -2, 7, 8, -9, INT64_MAX, INT64_MIN};

size_t ElemSize(int dtype) {
  switch (dtype) {
    case 0:
    case 3:
      return 4;
    case 1:
    case 27:
      return 2;
    case 11:
    case 9:
      return 8;
    // COMPLEX64 and COMPLEX128: outs some operators take (OutTakesComplex), and inputs of
    // the complex Sigmoids (TakesComplexInputs).
    case 16:
      return 8;
    case 17:
      return 16;
    default:
      return 1;
  }
}

struct Decoded {
  aclTensor* tensor = nullptr;
};

aclTensor* DecodeTensor(Reader& in, uint8_t* const* buffers) {
  const uint8_t mode = in.U8();
  if (mode == 255) return nullptr;  // a null tensor
  const int dtype = in.Pick(kDTypes);
  const size_t rank = in.U8() % 11;
  std::vector<int64_t> dims(rank), strides(rank);
  for (auto& d : dims) d = in.Pick(kDims);
  const uint8_t stride_mode = in.U8() % 4;
  if (stride_mode == 1 || stride_mode == 3) {  // row-major, wrapping on overflow
    uint64_t s = 1;
    for (size_t i = rank; i-- > 0;) {
      strides[i] = static_cast<int64_t>(s);
      s *= static_cast<uint64_t>(dims[i] > 0 ? dims[i] : 1);
    }
    if (stride_mode == 3 && rank >= 2) std::swap(strides[0], strides[rank - 1]);  // transposed
  } else if (stride_mode == 2) {
    for (auto& s : strides) s = in.Pick(kStrides);
  }
  const int64_t offset = in.Pick(kOffsets);
  const uint8_t which = in.U8() % (kBuffers + 1);
  void* data = which < kBuffers ? buffers[which] : nullptr;
  // The storage never claims more than the real buffer holds.
  const int64_t capacity = static_cast<int64_t>(kBufBytes / ElemSize(dtype));
  std::vector<int64_t> storage;
  switch (in.U8() % 3) {
    case 0:
      storage = {capacity};
      break;
    case 1:
      storage = {2, capacity / 2};
      break;
    default:
      storage = {static_cast<int64_t>(in.U8())};
      break;
  }
  return aclCreateTensor(dims.data(), rank, static_cast<aclDataType>(dtype),
                         stride_mode == 0 ? nullptr : strides.data(), offset, ACL_FORMAT_ND,
                         storage.data(), storage.size(), data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in(data, size);
  const hostnn::test::CApiOp& api =
      hostnn::test::GetCApiOp(static_cast<hostnn::Op>(in.U8() % hostnn::kNumOps));
  // Buffer contents come from one byte, so the input's bytes go to the descriptions.
  const uint8_t fill = in.U8();
  std::vector<uint8_t*> buffers(kBuffers);
  for (int k = 0; k < kBuffers; ++k) {
    buffers[k] = static_cast<uint8_t*>(std::malloc(kBufBytes));
    for (size_t i = 0; i < kBufBytes; ++i)
      buffers[k][i] = static_cast<uint8_t>(fill ^ (i * 31 + k * 7));
  }
  aclTensor* t[4];
  for (auto& x : t) x = DecodeTensor(in, buffers.data());
  const int64_t dim = in.Pick(kLsmDims);

  std::vector<std::vector<uint8_t>> before;
  for (auto* b : buffers) before.emplace_back(b, b + kBufBytes);
  uint64_t ws = 0x5EED;
  aclOpExecutor* exec = reinterpret_cast<aclOpExecutor*>(0x1);
  // t[2] is the output and t[3] the third input of the operators that take one. A
  // NoiseMap operator (RReluWithNoise) runs in training mode, writing its noise (t[1]),
  // where the next byte is odd.
  const hostnn::Op op = api.op;
  const bool training = hostnn::GetOpInfo(op).kind == hostnn::Kind::kNoiseMap && (in.U8() & 1);
  namespace defaults = hostnn::test::capi_ops_internal;
  // The norms (ShapeRule TrailingDims): a normalizedShape of 0 to 9 values (or null) from the
  // next bytes where the prototype takes one (LayerNorm), t[1] and t[3] the per-column
  // operands, and two more tensors for the statistics, each left out where a byte says so;
  // called through the generic caller with every C parameter by its slot.
  const hostnn::OpInfo& info = hostnn::GetOpInfo(op);
  const bool norm = hostnn::IsNormShape(info.shapes);
  aclIntArray* norm_shape = nullptr;
  aclBoolArray* bool_array = nullptr;
  aclTensor* stats[2] = {nullptr, nullptr};
  if (norm) {
    const uint8_t len = in.U8() % 11;  // 10: a null array
    std::vector<int64_t> values;
    for (uint8_t k = 0; k < len && len < 10; ++k) values.push_back(in.Pick(kDims));
    if (len < 10 && hostnn::HasIntArray(info.signature)) {
      norm_shape = aclCreateIntArray(values.data(), values.size());
    }
    for (auto& s : stats) s = in.U8() % 3 == 0 ? nullptr : DecodeTensor(in, buffers.data());
  }
  hostnn::test::CApiCall call = defaults::DefaultCall(op);
  if (norm) {
    const uint8_t optional = in.U8();
    call.in[0] = t[0];
    call.in[1] = optional & 1 ? nullptr : t[1];
    call.in[2] = optional & 2 ? nullptr : t[3];
    call.out[0] = t[2];
    call.out[1] = stats[0];
    call.out[2] = stats[1];
    // The gradients' further inputs (RmsNormGrad's gamma; LayerNormBackward's rstd, weight
    // and bias) from the tensors already decoded, and an outputMask of 0 to 4 values (or
    // null) from the next byte.
    const aclTensor* more[] = {stats[1], stats[0], t[1]};
    for (int k = 3; k < info.num_in() && k < 6; ++k) call.in[k] = more[k - 3];
    const uint8_t mask = in.U8();
    bool mask_values[4] = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0};
    if (mask < 0xF0) bool_array = aclCreateBoolArray(mask_values, (mask >> 4) % 5);
    call.bool_array = bool_array;
    call.int_array = norm_shape;
    call.ints[0] = static_cast<int32_t>(optional >> 2) % 4 - 1;  // implMode
  }
  // EmbeddingDenseBackward (Kind ScatterAdd): grad t[0], indices t[1], out t[2]; numWeights,
  // paddingIdx and scaleGradByFreq from the next bytes.
  const bool scatter = info.kind == hostnn::Kind::kScatterAdd;
  if (scatter) {
    call.in[0] = t[0];
    call.in[1] = t[1];
    call.out[0] = t[2];
    call.ints[0] = in.Pick(kDims);
    call.ints[1] = static_cast<int8_t>(in.U8());
    call.flag = (in.U8() & 1) != 0;
  }
  // A loss (Kind PointLoss): its inputs t[0], t[1] (a gradient's third t[3]), out t[2], the
  // reduction from the next byte (-1 to 3: the refused values too); a weighted loss's
  // optional weights (the forward's in2 and in3, a gradient's in3 and in4) from the byte
  // after: absent, or t[3] and t[0].
  const bool loss = info.kind == hostnn::Kind::kPointLoss;
  if (loss) {
    call.in[0] = t[0];
    call.in[1] = t[1];
    call.in[2] = t[3];
    call.out[0] = t[2];
    call.ints[0] = static_cast<int64_t>(in.U8() % 5) - 1;
    if (info.shapes == hostnn::ShapeRule::kLossWeights) {
      const int first = info.signature == hostnn::Signature::kWeightedLoss ? 2 : 3;
      const uint8_t weights = in.U8();
      call.in[first] = (weights & 1) != 0 ? t[3] : nullptr;
      call.in[first + 1] = (weights & 2) != 0 ? t[0] : nullptr;
    }
  }
  // A class loss (Kind ClassLoss: NLLLoss): two more tensors from the next bytes; the
  // forward's self t[0], target t[1], weight t[3], out t[2], totalWeightOut the first more; a
  // gradient's gradOutput the first more, self, target, weight as the forward's, totalWeight
  // the second more, out t[2]; the reduction (-1 to 3) and ignoreIndex (-128 to 127) from the
  // bytes after.
  const bool class_loss = info.kind == hostnn::Kind::kClassLoss;
  if (class_loss) {
    for (auto& s : stats) s = DecodeTensor(in, buffers.data());
    const int first = info.is_forward ? 0 : 1;
    if (!info.is_forward) call.in[0] = stats[0], call.in[4] = stats[1];
    call.in[first] = t[0];
    call.in[first + 1] = t[1];
    call.in[first + 2] = t[3];
    call.out[0] = t[2];
    if (info.is_forward) call.out[1] = stats[0];
    call.ints[0] = static_cast<int64_t>(in.U8() % 5) - 1;
    call.ints[1] = static_cast<int8_t>(in.U8());
  }
  // A class loss of log-softmax rows (Kind SoftmaxLoss: CrossEntropyLoss): two more tensors
  // from the next bytes; the forward's input t[0], target t[1], lossOut t[2], logProbOut the
  // first more, zlossOut and lseForZlossOut the second; a gradient's gradLoss the first more,
  // logProb t[0], target t[1], out t[2]; weightOptional t[3] or absent, the reduction (a string:
  // "none", "mean", "sum", another, or null) and labelSmoothing (0, 0.25, 1 or 2, the last
  // refused) from the byte after, ignoreIndex (-128 to 127) from the next.
  const bool softmax_loss = info.kind == hostnn::Kind::kSoftmaxLoss;
  if (softmax_loss) {
    for (auto& s : stats) s = DecodeTensor(in, buffers.data());
    const uint8_t b = in.U8();
    const aclTensor* weight = (b & 1) != 0 ? t[3] : nullptr;
    if (info.is_forward) {
      call.in[0] = t[0], call.in[1] = t[1], call.in[2] = weight;
      call.out[0] = t[2], call.out[1] = stats[0], call.out[2] = stats[1], call.out[3] = stats[1];
    } else {
      call.in[0] = stats[0], call.in[1] = t[0], call.in[2] = t[1], call.in[3] = weight;
      call.out[0] = t[2];
    }
    static const char* const kModes[] = {"none", "mean", "sum", "avg", nullptr};
    static const double kSmoothing[] = {0.0, 0.25, 1.0, 2.0};
    call.string = kModes[(b >> 1) % 5];
    call.doubles[0] = kSmoothing[(b >> 4) % 4];
    call.ints[0] = static_cast<int8_t>(in.U8());
  }
  aclnnStatus st =
      norm || scatter || loss || class_loss || softmax_loss ? api.phase1_call(call, &ws, &exec)
      : training ? api.phase1_with(t[0], t[1], t[3], t[2], dim, defaults::DefaultNumber(op, 0),
                                   defaults::DefaultNumber(op, 1), nullptr, true, &ws, &exec)
                 : api.phase1(t[0], t[1], t[3], t[2], dim, &ws, &exec);
  if (st != ACLNN_SUCCESS) {
    // A refused call writes nothing: not the buffers, not the out-parameters.
    for (int k = 0; k < kBuffers; ++k) {
      if (std::memcmp(before[k].data(), buffers[k], kBufBytes) != 0) std::abort();
    }
    if (ws != 0x5EED || exec != reinterpret_cast<aclOpExecutor*>(0x1)) std::abort();
    if (aclGetRecentErrMsg() == nullptr || aclGetRecentErrMsg()[0] == '\0') std::abort();
  } else if (ws > (uint64_t{1} << 28)) {
    if (aclDestroyAclOpExecutor(exec) != ACLNN_SUCCESS) std::abort();
  } else {
    void* workspace = ws > 0 ? std::malloc(ws) : nullptr;
    st = api.phase2(workspace, ws, exec, nullptr);
    std::free(workspace);
    if (st == ACLNN_ERR_PARAM_INVALID &&
        std::strstr(aclGetRecentErrMsg(), "null address") != nullptr) {
      // An operand over a null data address: taken by phase 1, as CANN's, refused by phase 2
      // before anything runs. Nothing written; the executor is still the caller's.
      for (int k = 0; k < kBuffers; ++k) {
        if (std::memcmp(before[k].data(), buffers[k], kBufBytes) != 0) std::abort();
      }
      if (aclDestroyAclOpExecutor(exec) != ACLNN_SUCCESS) std::abort();
      for (auto* x : t) aclDestroyTensor(x);
      for (auto* x : stats) aclDestroyTensor(x);
      aclDestroyIntArray(norm_shape);
      aclDestroyBoolArray(bool_array);
      for (auto* b : buffers) std::free(b);
      return 0;
    }
    // An operator that reads values it must trust (Embedding's and EmbeddingDenseBackward's
    // indices, NLLLoss's and CrossEntropyLoss's targets) refuses a bad one when it runs (161002),
    // before anything is written.
    const bool refused_value =
        st == ACLNN_ERR_PARAM_INVALID &&
        ((hostnn::IsIndexKind(info.kind) &&
          (std::strstr(aclGetRecentErrMsg(), "outside weight's rows") != nullptr ||
           std::strstr(aclGetRecentErrMsg(), "outside out's rows") != nullptr)) ||
         ((class_loss || softmax_loss) &&
          std::strstr(aclGetRecentErrMsg(), "outside the classes") != nullptr));
    if (refused_value) {
      for (int k = 0; k < kBuffers; ++k) {
        if (std::memcmp(before[k].data(), buffers[k], kBufBytes) != 0) std::abort();
      }
    } else if (st != ACLNN_SUCCESS) {
      std::abort();
    }
    // The executor was consumed: a second run is refused, not undefined.
    if (api.phase2(nullptr, 0, exec, nullptr) != ACLNN_ERR_PARAM_INVALID) std::abort();
  }
  for (auto* x : t) aclDestroyTensor(x);
  for (auto* x : stats) aclDestroyTensor(x);
  aclDestroyIntArray(norm_shape);
  aclDestroyBoolArray(bool_array);
  for (auto* b : buffers) std::free(b);
  return 0;
}
