// libFuzzer target: decodes random bytes into one call of any operator through the C API,
// every C parameter by its slot, as the operator list declares them; no code here branches
// on an operator or a kind. An input is: the operator, a fill byte for the buffers, a
// tensor description (or null) for each of the operator's inputs and then each of its
// outputs (rank 0-10; dims 0, 1, small and huge; strides 0, negative, huge; offsets; every
// dtype value; over one of three exactly-sized heap buffers that the sanitizers guard, or a
// null address, so operands alias each other), the dim, each scalar parameter by its kind
// (a number: the default, null, or a value from a table as DOUBLE, FLOAT or INT64; an int:
// a table value or a signed byte; a flag; a string: null, a mode's name or another), an
// aclIntArray where the prototype has one, and an aclBoolArray (dropped by the prototypes
// without one). It aborts when a refused first phase wrote anything (a buffer, the
// workspace size or executor out-parameters) or left no message; when a successful one is
// followed by a failing run (but for a refusal of an operand over a null address, and an
// operator with an index operand refusing an index or a class outside its range, both of
// which must write nothing); and when a consumed executor is not refused. Reads or writes
// outside a buffer are the sanitizers' to catch.

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "tests/util/capi_call.h"
#include "tests/util/capi_ops.h"
#include "tests/util/operand_roles.h"

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

// A number parameter: byte 0 the default, 1 null, else a value of kNumbers as DOUBLE,
// FLOAT or INT64 (a finite value within INT64's range, else INT64_MAX).
const double kNumbers[] = {0.0,      1.0,       -1.0,  0.5,    2.0,    0.25,  -0.5,
                           3.0,      1e-12,     1e-45, 5e-324, 1e30,   -1e30, 1e300,
                           INFINITY, -INFINITY, NAN,   6.0,    -100.0, 1e-6};
hostnn::OpScalar DecodeNumber(Reader& in) {
  hostnn::OpScalar s;
  const uint8_t b = in.U8();
  if (b == 0) return s;
  s.given = true;
  s.null = b == 1;
  if (s.null) return s;
  const size_t n = sizeof(kNumbers) / sizeof(kNumbers[0]);
  s.value = kNumbers[(b - 2) % n];
  const hostnn::DType dtypes[] = {hostnn::DType::kFloat64, hostnn::DType::kFloat32,
                                  hostnn::DType::kInt64};
  s.dtype = dtypes[(b - 2) / n % 3];
  if (s.dtype == hostnn::DType::kInt64) {
    const bool within = std::isfinite(s.value) && std::fabs(s.value) < 9.2e18;
    s.int_value = within ? static_cast<int64_t>(s.value) : INT64_MAX;
    s.value = static_cast<double>(s.int_value);
  }
  return s;
}

// An int parameter: an odd byte picks a value of kInts, an even one takes the next byte as
// a signed one (every value of -128 to 127: reductions, ignore indices, modes).
const int64_t kInts[] = {0,         1,        2, 3,    4,       -1,         -2,
                         -100,      7,        8, 1000, 1048576, 2147483648, 1099511627776,
                         INT64_MAX, INT64_MIN};
hostnn::OpScalar DecodeInt(Reader& in) {
  hostnn::OpScalar s;
  s.given = true;
  s.dtype = hostnn::DType::kInt64;
  const uint8_t b = in.U8();
  s.int_value = (b & 1) != 0 ? kInts[(b >> 1) % (sizeof(kInts) / sizeof(kInts[0]))]
                             : static_cast<int8_t>(in.U8());
  s.value = static_cast<double>(s.int_value);
  return s;
}

// A string parameter (a reduction's, an approximation's name): null or one of these.
const char* const kStrings[] = {nullptr, "none", "mean", "sum", "tanh", "avg", "", "Mean"};

// The buffers, the tensors and arrays of one input, freed together.
struct Owned {
  std::vector<uint8_t*> buffers;
  std::vector<aclTensor*> tensors;
  std::vector<aclScalar*> scalars;
  aclIntArray* int_array = nullptr;
  aclBoolArray* bool_array = nullptr;
  ~Owned() {
    for (auto* t : tensors) aclDestroyTensor(t);
    for (auto* s : scalars) aclDestroyScalar(s);
    aclDestroyIntArray(int_array);
    aclDestroyBoolArray(bool_array);
    for (auto* b : buffers) std::free(b);
  }
};

// Whether the buffers hold what they held before the call.
bool Unchanged(const Owned& o, const std::vector<std::vector<uint8_t>>& before) {
  for (int k = 0; k < kBuffers; ++k) {
    if (std::memcmp(before[k].data(), o.buffers[k], kBufBytes) != 0) return false;
  }
  return true;
}

// Whether the operator reads values it must trust (an index tensor: Embedding's indices, a
// class loss's target), which it refuses, when a bad one is there, as the call runs.
bool HasIndexOperand(hostnn::Op op) {
  const hostnn::test::OperandRoles roles = hostnn::test::RolesOf(op);
  for (hostnn::test::Role r : roles.in) {
    if (r == hostnn::test::Role::kIndex) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Reader in(data, size);
  const hostnn::Op op = static_cast<hostnn::Op>(in.U8() % hostnn::kNumOps);
  const hostnn::OpInfo& info = hostnn::GetOpInfo(op);
  const hostnn::test::CApiOp& api = hostnn::test::GetCApiOp(op);
  Owned owned;
  // Buffer contents come from one byte, so the input's bytes go to the descriptions.
  const uint8_t fill = in.U8();
  for (int k = 0; k < kBuffers; ++k) {
    owned.buffers.push_back(static_cast<uint8_t*>(std::malloc(kBufBytes)));
    for (size_t i = 0; i < kBufBytes; ++i)
      owned.buffers[k][i] = static_cast<uint8_t>(fill ^ (i * 31 + k * 7));
  }
  // Every attribute is set below, from the input or the list's defaults.
  hostnn::test::CApiCall call;
  for (int k = 0; k < info.num_in(); ++k) {
    call.in[k] = DecodeTensor(in, owned.buffers.data());
    owned.tensors.push_back(const_cast<aclTensor*>(call.in[k]));
  }
  for (int k = 0; k < info.num_out(); ++k) {
    call.out[k] = DecodeTensor(in, owned.buffers.data());
    owned.tensors.push_back(call.out[k]);
  }
  call.dim = in.Pick(kLsmDims);
  hostnn::OpScalar scalars[hostnn::kMaxScalars];  // a string is not given to SetCallScalars
  for (int k = 0; k < info.num_scalars(); ++k) {
    switch (info.scalars[k].kind) {
      case hostnn::ScalarKind::kNumber:
        scalars[k] = DecodeNumber(in);
        break;
      case hostnn::ScalarKind::kInt:
        scalars[k] = DecodeInt(in);
        break;
      case hostnn::ScalarKind::kFlag:
        scalars[k] = hostnn::OpScalar{true, static_cast<double>(in.U8() & 1), hostnn::DType::kBool};
        break;
      case hostnn::ScalarKind::kString:
        call.string = in.Pick(kStrings);
        break;
    }
  }
  std::string mode;
  hostnn::test::SetCallScalars(op, scalars, &call, &owned.scalars, &mode);
  if (hostnn::HasIntArray(info.signature)) {
    const uint8_t len = in.U8() % 11;  // 10: a null array
    std::vector<int64_t> values;
    for (uint8_t k = 0; k < len && len < 10; ++k) values.push_back(in.Pick(kDims));
    if (len < 10)
      call.int_array = owned.int_array = aclCreateIntArray(values.data(), values.size());
  }
  // 0 to 4 values from the low bits, or null.
  const uint8_t mask = in.U8();
  bool mask_values[4] = {(mask & 1) != 0, (mask & 2) != 0, (mask & 4) != 0, (mask & 8) != 0};
  if (mask < 0xF0) {
    call.bool_array = owned.bool_array = aclCreateBoolArray(mask_values, (mask >> 4) % 5);
  }

  std::vector<std::vector<uint8_t>> before;
  for (auto* b : owned.buffers) before.emplace_back(b, b + kBufBytes);
  uint64_t ws = 0x5EED;
  aclOpExecutor* exec = reinterpret_cast<aclOpExecutor*>(0x1);
  aclnnStatus st = api.phase1_call(call, &ws, &exec);
  if (st != ACLNN_SUCCESS) {
    // A refused call writes nothing: not the buffers, not the out-parameters.
    if (!Unchanged(owned, before)) std::abort();
    if (ws != 0x5EED || exec != reinterpret_cast<aclOpExecutor*>(0x1)) std::abort();
    if (aclGetRecentErrMsg() == nullptr || aclGetRecentErrMsg()[0] == '\0') std::abort();
    return 0;
  }
  if (ws > (uint64_t{1} << 28)) {
    if (aclDestroyAclOpExecutor(exec) != ACLNN_SUCCESS) std::abort();
    return 0;
  }
  void* workspace = ws > 0 ? std::malloc(ws) : nullptr;
  st = api.phase2(workspace, ws, exec, nullptr);
  std::free(workspace);
  const char* message = aclGetRecentErrMsg();
  if (st == ACLNN_ERR_PARAM_INVALID && std::strstr(message, "null address") != nullptr) {
    // An operand over a null data address: taken by phase 1, as CANN's, refused by phase 2
    // before anything runs. Nothing written; the executor is still the caller's.
    if (!Unchanged(owned, before)) std::abort();
    if (aclDestroyAclOpExecutor(exec) != ACLNN_SUCCESS) std::abort();
    return 0;
  }
  // An operator that reads values it must trust (Embedding's and EmbeddingDenseBackward's
  // indices, NLLLoss's and CrossEntropyLoss's targets) refuses a bad one when it runs
  // (161002), before anything is written.
  const bool refused_value = st == ACLNN_ERR_PARAM_INVALID && HasIndexOperand(op) &&
                             (std::strstr(message, "outside weight's rows") != nullptr ||
                              std::strstr(message, "outside out's rows") != nullptr ||
                              std::strstr(message, "outside the classes") != nullptr);
  if (refused_value) {
    if (!Unchanged(owned, before)) std::abort();
  } else if (st != ACLNN_SUCCESS) {
    std::abort();
  }
  // The executor was consumed: a second run is refused, not undefined.
  if (api.phase2(nullptr, 0, exec, nullptr) != ACLNN_ERR_PARAM_INVALID) std::abort();
  return 0;
}
