// Helpers for tests that drive hostnn through its CANN C API: every operator behind one
// signature (tests/util/capi_ops.h), host storage, aclTensor views over it, and Call (one
// phase-1/phase-2 call with sentinels preset and a check against tests/reference). Header-only;
// gtest-based.
#ifndef HOSTNN_TESTS_UTIL_ACL_TEST_UTIL_H_
#define HOSTNN_TESTS_UTIL_ACL_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "hostnn/ops.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/reference/softmax_reference.h"
#include "tests/util/capi_ops.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {

// Bytes per element of the dtypes the tests store (unsupported ones get a plausible size,
// so views of them still describe real memory).
inline size_t ElemSize(aclDataType dt) {
  switch (dt) {
    case ACL_FLOAT16:
    case ACL_BF16:
    case ACL_INT16:
    case ACL_UINT16:
      return 2;
    case ACL_DOUBLE:
    case ACL_INT64:
    case ACL_UINT64:
    case ACL_COMPLEX64:
      return 8;
    case ACL_COMPLEX128:
      return 16;
    case ACL_INT8:
    case ACL_UINT8:
    case ACL_BOOL:
      return 1;
    default:
      return 4;
  }
}

inline std::vector<int64_t> RowMajorStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    s[i] = s[i + 1] * (shape[i + 1] > 0 ? shape[i + 1] : 1);
  }
  return s;
}

inline int64_t NumElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

// Elements a storage needs to hold the view: offset + sum((d - 1) * stride) + 1, or 0 for
// an empty view. Strides empty = row-major.
inline int64_t ReachElems(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                          int64_t offset) {
  for (int64_t d : shape) {
    if (d <= 0) return 0;
  }
  const std::vector<int64_t> st = strides.empty() ? RowMajorStrides(shape) : strides;
  int64_t last = offset;
  for (size_t i = 0; i < shape.size(); ++i) last += (shape[i] - 1) * st[i];
  return last + 1;
}

// Storage index of the view's element with row-major linear index i.
inline int64_t ViewIndex(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                         int64_t offset, int64_t i) {
  const std::vector<int64_t> st = strides.empty() ? RowMajorStrides(shape) : strides;
  int64_t idx = offset;
  for (int64_t k = static_cast<int64_t>(shape.size()) - 1; k >= 0; --k) {
    idx += (i % shape[k]) * st[k];
    i /= shape[k];
  }
  return idx;
}

// Host bytes, 64-byte aligned, filled with a pattern.
class HostStorage {
 public:
  explicit HostStorage(size_t bytes = 0, uint8_t fill = 0) { Resize(bytes, fill); }
  void Resize(size_t bytes, uint8_t fill) {
    words_.assign((bytes + 63) / 64 * 8 + 8, 0);
    bytes_ = bytes;
    std::memset(data(), fill, bytes_);
  }
  void* data() { return words_.data(); }
  const void* data() const { return words_.data(); }
  size_t bytes() const { return bytes_; }
  std::vector<uint8_t> Snapshot() const {
    const uint8_t* p = static_cast<const uint8_t*>(data());
    return std::vector<uint8_t>(p, p + bytes_);
  }

 private:
  std::vector<uint64_t> words_;
  size_t bytes_ = 0;
};

struct TensorDeleter {
  void operator()(aclTensor* t) const { aclDestroyTensor(t); }
};
using TensorPtr = std::unique_ptr<aclTensor, TensorDeleter>;

// An aclTensor over data. strides empty: passes NULL (row-major); storage as given.
inline TensorPtr MakeTensor(void* data, aclDataType dtype, const std::vector<int64_t>& shape,
                            const std::vector<int64_t>& strides, int64_t offset,
                            const std::vector<int64_t>& storage,
                            aclFormat format = ACL_FORMAT_ND) {
  return TensorPtr(aclCreateTensor(shape.data(), shape.size(), dtype,
                                   strides.empty() ? nullptr : strides.data(), offset, format,
                                   storage.data(), storage.size(), data));
}

// A dense row-major tensor over data (storage = the view's shape).
inline TensorPtr MakeDense(void* data, aclDataType dtype, const std::vector<int64_t>& shape) {
  return MakeTensor(data, dtype, shape, RowMajorStrides(shape), 0, shape);
}

constexpr uint64_t kWsSentinel = 0x5EB71E115EB71E11ull;
inline aclOpExecutor* ExecSentinel() {
  return reinterpret_cast<aclOpExecutor*>(uintptr_t{0x5E5E5E40});
}
constexpr uint8_t kInputFill = 0x3C;   // finite values in FLOAT, FLOAT16 and BFLOAT16
constexpr uint8_t kOutputFill = 0xA5;  // recognisable, so any write shows

// One operand of a call: a view and the storage it lies in.
struct Operand {
  aclDataType dtype = ACL_FLOAT;
  std::vector<int64_t> shape{2, 3};
  std::vector<int64_t> strides;  // empty: NULL stride pointer (row-major)
  int64_t offset = 0;
  std::vector<int64_t> storage;  // empty: {the elements the view reaches}
  bool null_tensor = false;      // pass NULL instead of an aclTensor
  bool null_data = false;        // an aclTensor with a NULL data address
  int share = -1;                // lies in the storage of this slot instead of its own
  aclFormat format = ACL_FORMAT_ND;
};

// One call: four operands (unused slots are ignored) and the other phase-1 arguments.
struct Case {
  Operand v[kNumSlots];
  int64_t dim = -1;
  bool null_workspace_size = false;
  bool null_executor = false;

  Case& AllShape(const std::vector<int64_t>& shape) {
    for (Operand& o : v) o.shape = shape;
    return *this;
  }
  Case& AllDType(aclDataType dt) {
    for (Operand& o : v) o.dtype = dt;
    return *this;
  }
};

// A materialised Case: storages (inputs filled with kInputFill, the result's with
// kOutputFill), tensors, and both phases. Phase 1 presets *workspaceSize and *executor to
// sentinels.
class Call {
 public:
  Call(const CApiOp& op, const Case& c) : op_(op), case_(c) {
    size_t bytes[kNumSlots] = {0, 0, 0, 0};
    for (int s = 0; s < kNumSlots; ++s) {
      const Operand& o = c.v[s];
      int64_t elems = ReachElems(o.shape, o.strides, o.offset);
      if (!o.storage.empty()) elems = std::max(elems, NumElements(o.storage));
      const int owner = o.share >= 0 ? o.share : s;
      bytes[owner] = std::max(bytes[owner],
                              static_cast<size_t>(std::max<int64_t>(elems, 0)) * ElemSize(o.dtype));
    }
    for (int s = 0; s < kNumSlots; ++s) {
      storage_[s].Resize(std::max<size_t>(bytes[s], 64), s == kOut ? kOutputFill : kInputFill);
    }
    for (int s = 0; s < kNumSlots; ++s) {
      const Operand& o = c.v[s];
      if (o.null_tensor) continue;
      std::vector<int64_t> storage = o.storage;
      if (storage.empty()) storage = {ReachElems(o.shape, o.strides, o.offset)};
      void* data = o.null_data ? nullptr : storage_[o.share >= 0 ? o.share : s].data();
      tensor_[s] = MakeTensor(data, o.dtype, o.shape, o.strides, o.offset, storage, o.format);
      EXPECT_NE(tensor_[s], nullptr) << "aclCreateTensor refused slot " << s;
    }
    TakeSnapshot();
  }

  aclnnStatus Phase1() {
    ws_ = kWsSentinel;
    exec_ = ExecSentinel();
    return op_.phase1(tensor_[kDy].get(), tensor_[kSelf].get(), tensor_[kBuffer].get(),
                      tensor_[kOut].get(), case_.dim, case_.null_workspace_size ? nullptr : &ws_,
                      case_.null_executor ? nullptr : &exec_);
  }

  // Phase 2 of a successful phase 1 with a workspace of the size asked for (from
  // aclrtMalloc); on a stream it also synchronizes.
  aclnnStatus Phase2(aclrtStream stream = nullptr) {
    void* workspace = nullptr;
    if (ws_ > 0 && aclrtMalloc(&workspace, ws_, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) {
      return ACLNN_ERR_INNER;
    }
    aclnnStatus st = op_.phase2(workspace, ws_, exec_, stream);
    if (st == ACLNN_SUCCESS && stream != nullptr) st = aclrtSynchronizeStream(stream);
    if (workspace != nullptr) aclrtFree(workspace);
    return st;
  }

  // Whether every storage byte is as it was at the last snapshot (construction, FillValues
  // or TakeSnapshot).
  bool Unchanged() const {
    for (int s = 0; s < kNumSlots; ++s) {
      if (storage_[s].Snapshot() != before_[s]) return false;
    }
    return true;
  }
  void TakeSnapshot() {
    for (int s = 0; s < kNumSlots; ++s) before_[s] = storage_[s].Snapshot();
  }

  // Fills every storage with deterministic values of its dtype, varied by seed: gradOutput
  // values of both signs, self across (-4, 4), LogSoftmax outputs in [-4, 0).
  void FillValues(int seed = 0) {
    for (int s = 0; s < kNumSlots; ++s) {
      const Operand& o = case_.v[s];
      if (o.share >= 0) continue;
      const int64_t n = static_cast<int64_t>(storage_[s].bytes() / ElemSize(o.dtype));
      for (int64_t k = 0; k < n; ++k) {
        const int64_t j = k + 3 * seed;
        double v = (j % 2 ? -1.0 : 1.0) * (0.25 + 0.125 * ((j * 7 + 1) % 13));
        if (s == kSelf) v = -4.0 + 0.5 * ((j * 5 + 3) % 17);
        if (s == kSelf && GetOpInfo(op_.op).is_reduction) v = -4.0 + 0.25 * ((j * 5 + 3) % 16);
        StoreFromDouble(static_cast<DType>(o.dtype), storage_[s].data(), k, v);
      }
    }
    TakeSnapshot();
  }

  // Slot s's view elements, row-major, as double.
  std::vector<double> Values(Slot s) const {
    const Operand& o = case_.v[s];
    const void* data = storage_[o.share >= 0 ? o.share : s].data();
    std::vector<double> vals(static_cast<size_t>(NumElements(o.shape)));
    for (int64_t i = 0; i < static_cast<int64_t>(vals.size()); ++i) {
      vals[i] = LoadAsDouble(static_cast<DType>(o.dtype), data,
                             ViewIndex(o.shape, o.strides, o.offset, i));
    }
    return vals;
  }

  // Runs phase 1 and phase 2 (null stream) and checks the result against the reference,
  // for cases where all shapes are equal.
  void ExpectComputes() {
    const std::vector<double> dy = Values(kDy), x = Values(kSelf);
    ASSERT_EQ(Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(Phase2(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ExpectResult(dy, x);
  }

  // Checks the result against the reference computed from the inputs dy and x (read
  // before the run, as Values(kDy) and Values(kSelf)).
  void ExpectResult(const std::vector<double>& dy, const std::vector<double>& x) const {
    if (GetOpInfo(op_.op).is_forward) return ExpectForwardResult(dy);
    const Slot result = op_.in_place() ? kDy : kOut;  // InplaceAddRelu writes its selfRef
    const std::vector<double> got = Values(result);
    ASSERT_EQ(got.size(), dy.size());
    const DType out_dtype = static_cast<DType>(case_.v[result].dtype);
    std::vector<double> exact(dy.size()), aux(dy.size());
    if (GetOpInfo(op_.op).is_reduction) {
      const std::vector<int64_t>& shape = case_.v[kOut].shape;
      const int64_t rank = static_cast<int64_t>(shape.size());
      ReductionBackwardRef(op_.op, dy, x, shape, case_.dim < 0 ? case_.dim + rank : case_.dim,
                           &exact, &aux);
    } else {
      for (size_t i = 0; i < dy.size(); ++i) exact[i] = EltwiseRef(op_.op, dy[i], x[i]);
    }
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i) {
      const bool ok =
          GetOpInfo(op_.op).is_reduction
              ? ReductionBackwardWithinTolerance(op_.op, out_dtype, got[i], exact[i], dy[i], x[i],
                                                 aux[i])
              : EltwiseWithinTolerance(out_dtype, got[i], exact[i], dy[i]);
      if (!ok) ++bad;
      EXPECT_TRUE(ok) << op_.name << " element " << i << ": got " << got[i] << ", exact "
                      << exact[i];
    }
  }

  // A forward operator's result from its one input x (slot kDy, read before the run),
  // in out (or in x itself, in place).
  void ExpectForwardResult(const std::vector<double>& x) const {
    const Slot result = op_.in_place() ? kDy : kOut;
    const std::vector<double> got = Values(result);
    ASSERT_EQ(got.size(), x.size());
    const DType out_dtype = static_cast<DType>(case_.v[result].dtype);
    std::vector<double> exact(x.size()), aux(x.size());
    const bool reduction = GetOpInfo(op_.op).is_reduction;
    if (reduction) {
      const std::vector<int64_t>& shape = case_.v[kDy].shape;
      const int64_t rank = static_cast<int64_t>(shape.size());
      const int64_t d = rank == 0 ? 0 : (case_.dim < 0 ? case_.dim + rank : case_.dim);
      ReductionForwardRef(op_.op, x, shape, d, &exact, &aux);
    } else {
      for (size_t i = 0; i < x.size(); ++i) exact[i] = ForwardEltwiseRef(op_.op, x[i]);
    }
    int bad = 0;
    for (size_t i = 0; i < got.size() && bad < 5; ++i) {
      const bool ok =
          reduction ? ReductionForwardWithinTolerance(op_.op, out_dtype, got[i], exact[i], aux[i])
                    : ForwardEltwiseWithinTolerance(out_dtype, got[i], exact[i]);
      if (!ok) ++bad;
      EXPECT_TRUE(ok) << op_.name << " element " << i << ": got " << got[i] << ", exact "
                      << exact[i];
    }
  }

  void* data(Slot s) { return storage_[case_.v[s].share >= 0 ? case_.v[s].share : s].data(); }
  aclTensor* tensor(Slot s) { return tensor_[s].get(); }
  const CApiOp& op() const { return op_; }
  uint64_t ws() const { return ws_; }
  aclOpExecutor* exec() const { return exec_; }

 private:
  const CApiOp& op_;
  Case case_;
  HostStorage storage_[kNumSlots];
  TensorPtr tensor_[kNumSlots];
  std::vector<uint8_t> before_[kNumSlots];
  uint64_t ws_ = kWsSentinel;
  aclOpExecutor* exec_ = ExecSentinel();
};

// True when msg contains name as a whole word (not inside a longer identifier), so "out"
// is not found in "output" nor "self" in "itself".
inline bool NamesParam(const std::string& msg, const std::string& name) {
  auto is_ident = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  };
  for (size_t pos = msg.find(name); pos != std::string::npos; pos = msg.find(name, pos + 1)) {
    const bool left = pos == 0 || !is_ident(msg[pos - 1]);
    const size_t end = pos + name.size();
    const bool right = end == msg.size() || !is_ident(msg[end]);
    if (left && right) return true;
  }
  return false;
}

// Sets this thread's recent error message to a known one (so a later check proves the
// message was written by the call under test).
inline std::string PrimeErrorMessage() {
  aclrtSetDevice(12345);
  return aclGetRecentErrMsg();
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_ACL_TEST_UTIL_H_
