// A host tensor of any layout for the suites that build their own operands (Prelu,
// PreluBackward): its storage, its TensorView for the C++ API and an aclTensor for the C
// API, and element access in the row-major order of its shape.
#ifndef HOSTNN_TESTS_UTIL_STRIDED_TENSOR_H_
#define HOSTNN_TESTS_UTIL_STRIDED_TENSOR_H_

#include <cstdint>
#include <random>
#include <vector>

#include "hostnn/ops.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {

enum class Strides {
  kDense,       // row-major
  kStep2,       // row-major strides doubled, first element at offset 1
  kTransposed,  // the dims' order reversed in memory
};

inline aclDataType AclDType(DType d) {
  switch (d) {
    case DType::kFloat32: return ACL_FLOAT;
    case DType::kFloat16: return ACL_FLOAT16;
    case DType::kBFloat16: return ACL_BF16;
    case DType::kFloat64: return ACL_DOUBLE;
    case DType::kInt32: return ACL_INT32;
    case DType::kInt64:
      return ACL_INT64;
    case DType::kInt16:
      return ACL_INT16;
    case DType::kInt8:
      return ACL_INT8;
    case DType::kUInt8:
      return ACL_UINT8;
    case DType::kUInt16:
      return ACL_UINT16;
    case DType::kBool:
      return ACL_BOOL;
    case DType::kComplex64:
      return ACL_COMPLEX64;
    case DType::kComplex128:
      return ACL_COMPLEX128;
    default: return ACL_DT_UNDEFINED;
  }
}

class HostTensor {
 public:
  HostTensor(DType dtype, std::vector<int64_t> shape, Strides layout = Strides::kDense)
      : dtype_(dtype), shape_(std::move(shape)) {
    const size_t rank = shape_.size();
    strides_.assign(rank, 1);
    int64_t numel = 1;
    for (const int64_t d : shape_) numel *= d;
    int64_t span = numel;
    if (layout == Strides::kTransposed) {
      int64_t s = 1;
      for (size_t i = 0; i < rank; ++i) {
        strides_[i] = s;
        s *= shape_[i];
      }
    } else {
      int64_t s = layout == Strides::kStep2 ? 2 : 1;
      for (size_t i = rank; i-- > 0;) {
        strides_[i] = s;
        s *= shape_[i];
      }
      if (layout == Strides::kStep2) {
        offset_ = 1;
        span = 2 * numel + 1;
      }
    }
    storage_ = {span};
    mem_.Resize(static_cast<size_t>(span) * DTypeSize(dtype) + 8, 0xA5);
    view_.data = mem_.data();
    view_.dtype = dtype;
    view_.shape = shape_;
    view_.strides = strides_;
    view_.offset = offset_;
    view_.storage_shape = storage_;
    acl_ = MakeTensor(mem_.data(), AclDType(dtype), shape_, strides_, offset_, storage_);
  }
  HostTensor(const HostTensor&) = delete;

  int64_t numel() const {
    int64_t n = 1;
    for (const int64_t d : shape_) n *= d;
    return n;
  }
  // Storage index of element i in row-major order.
  int64_t At(int64_t i) const {
    int64_t off = offset_;
    for (size_t k = shape_.size(); k-- > 0;) {
      off += (i % shape_[k]) * strides_[k];
      i /= shape_[k];
    }
    return off;
  }
  double Get(int64_t i) const { return LoadAsDouble(dtype_, mem_.data(), At(i)); }
  void Set(int64_t i, double v) { StoreFromDouble(dtype_, mem_.data(), At(i), v); }
  std::vector<double> Values() const {
    std::vector<double> v(static_cast<size_t>(numel()));
    for (int64_t i = 0; i < numel(); ++i) v[static_cast<size_t>(i)] = Get(i);
    return v;
  }
  void Fill(std::mt19937_64& rng, double lo, double hi) {
    for (int64_t i = 0; i < numel(); ++i) Set(i, RandomValue(dtype_, rng, lo, hi));
  }
  std::vector<uint8_t> Snapshot() const { return mem_.Snapshot(); }
  // The bytes of element i (row-major), DTypeSize(dtype) of them.
  uint8_t* Bytes(int64_t i) const {
    return static_cast<uint8_t*>(view_.data) + At(i) * static_cast<int64_t>(DTypeSize(dtype_));
  }
  // The elements' bytes in row-major order (what must agree bit for bit between runs).
  std::vector<uint8_t> ElementBytes() const {
    std::vector<uint8_t> v;
    for (int64_t i = 0; i < numel(); ++i) v.insert(v.end(), Bytes(i), Bytes(i) + DTypeSize(dtype_));
    return v;
  }
  // The first byte of the storage outside every element that differs from `before` (a
  // Snapshot), or -1: what an operator writing only this tensor's elements leaves alone.
  int64_t FirstChangeOutsideElements(const std::vector<uint8_t>& before) const {
    const std::vector<uint8_t> after = Snapshot();
    std::vector<bool> element(after.size(), false);
    const uint8_t* base = static_cast<const uint8_t*>(view_.data);
    for (int64_t i = 0; i < numel(); ++i) {
      for (size_t b = 0; b < DTypeSize(dtype_); ++b) {
        element[static_cast<size_t>(Bytes(i) - base) + b] = true;
      }
    }
    for (size_t b = 0; b < after.size(); ++b) {
      if (!element[b] && after[b] != before[b]) return static_cast<int64_t>(b);
    }
    return -1;
  }
  // Declares the tensor in another format (the aclTensor and the view; ND by default).
  void SetFormat(aclFormat format) {
    view_.format = static_cast<int32_t>(format);
    acl_ = MakeTensor(mem_.data(), AclDType(dtype_), shape_, strides_, offset_, storage_, format);
  }
  const TensorView& view() const { return view_; }
  aclTensor* acl() const { return acl_.get(); }
  DType dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }

 private:
  DType dtype_;
  std::vector<int64_t> shape_, strides_, storage_;
  int64_t offset_ = 0;
  HostStorage mem_;
  TensorView view_;
  TensorPtr acl_;
};

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_STRIDED_TENSOR_H_
