// One call's C parameters made from the C++ API's OpArgs, so that a tool that builds its
// operands once (the benchmarks' cases) calls both APIs with the same operands and has no
// second wiring of them for the C API. OpArgs and CANN's prototypes share the slot order
// (OpArgs::in[k] is the prototype's in<k>, out[k] its k-th output: src/aclnn/c_api.h,
// MakeArgs), so the conversion knows nothing of any operator or kind.
#ifndef HOSTNN_TESTS_UTIL_CAPI_CALL_H_
#define HOSTNN_TESTS_UTIL_CAPI_CALL_H_

#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "hostnn/ops.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {

// The scalar parameters of `op` (in the list's order, as OpArgs::scalars: a given value or
// the default) as a CApiCall's attributes: the numbers as aclScalars (null where given null;
// FLOAT or INT64 where given so, else DOUBLE) and as the double attributes, whichever the
// prototype takes; the ints (a given INT64's int_value); the flag; a given string's mode
// name, kept in *mode. The aclScalars made are appended to *owned, the caller's to destroy.
inline void SetCallScalars(Op op, const OpScalar* scalars, CApiCall* call,
                           std::vector<aclScalar*>* owned, std::string* mode) {
  const OpInfo& info = GetOpInfo(op);
  int numbers = 0, ints = 0;
  for (int k = 0; k < info.num_scalars(); ++k) {
    const ScalarParam& p = info.scalars[k];
    const OpScalar& s = scalars[k];
    const double v = s.given ? s.value : p.default_value;
    const bool int64 = s.given && s.dtype == DType::kInt64;  // its value is int_value
    if (p.kind == ScalarKind::kNumber && numbers < 3) {
      aclScalar* made = nullptr;  // a given null stays null
      if (s.given && s.dtype == DType::kFloat32 && !s.null) {
        // Past FLOAT's range, infinity (as IEEE rounds it; a cast would be undefined).
        float f = std::fabs(v) > std::numeric_limits<float>::max()
                      ? static_cast<float>(std::copysign(HUGE_VAL, v))
                      : static_cast<float>(v);
        made = aclCreateScalar(&f, ACL_FLOAT);
      } else if (int64 && !s.null) {
        int64_t i = s.int_value;
        made = aclCreateScalar(&i, ACL_INT64);
      } else if (!(s.given && s.null)) {
        double d = v;
        made = aclCreateScalar(&d, ACL_DOUBLE);
      }
      if (made != nullptr) owned->push_back(made);
      call->scalars[numbers] = made;
      call->doubles[numbers++] = v;
    } else if (p.kind == ScalarKind::kInt && ints < 4) {
      call->ints[ints++] = int64 ? s.int_value : static_cast<int64_t>(v);
    } else if (p.kind == ScalarKind::kFlag) {
      call->flag = v != 0;
    } else if (p.kind == ScalarKind::kString && s.given) {
      *mode = ModeName(p, static_cast<int>(v));
      call->string = mode->c_str();
    }
  }
}

// The aclTensors, arrays and aclScalars of one OpArgs, made once and kept: phase 1 through
// the operator's C entry point (CApiOp::phase1_call) then costs what a CANN client's call
// costs, nothing made per call. The views OpArgs points at must outlive it (the tensors
// point at their data).
class CApiCallOf {
 public:
  explicit CApiCallOf(const OpArgs& a) : op_(a.op) {
    for (int k = 0; k < kMaxIn; ++k) call_.in[k] = TensorOf(a.in[k]);
    for (int k = 0; k < kMaxOut; ++k) call_.out[k] = TensorOf(a.out[k]);
    call_.dim = a.dim;
    if (a.int_array_given) {
      call_.int_array = int_array_ = aclCreateIntArray(a.int_array.data(), a.int_array.size());
    }
    if (a.bool_array_given) {  // (std::vector<bool> has no bool array to hand over)
      const std::unique_ptr<bool[]> values(new bool[a.bool_array.size() + 1]);
      for (size_t k = 0; k < a.bool_array.size(); ++k) values[k] = a.bool_array[k];
      call_.bool_array = bool_array_ = aclCreateBoolArray(values.get(), a.bool_array.size());
    }
    SetCallScalars(a.op, a.scalars, &call_, &scalars_, &string_);
  }
  ~CApiCallOf() {
    for (aclTensor* t : owned_) aclDestroyTensor(t);
    for (aclScalar* s : scalars_) aclDestroyScalar(s);
    if (int_array_ != nullptr) aclDestroyIntArray(int_array_);
    if (bool_array_ != nullptr) aclDestroyBoolArray(bool_array_);
  }
  CApiCallOf(const CApiCallOf&) = delete;
  CApiCallOf& operator=(const CApiCallOf&) = delete;

  const CApiCall& call() const { return call_; }
  // Phase 1 through aclnn<Name>GetWorkspaceSize.
  aclnnStatus Phase1(uint64_t* workspace_size, aclOpExecutor** executor) const {
    return GetCApiOp(op_).phase1_call(call_, workspace_size, executor);
  }

 private:
  // One aclTensor per view (a view in two slots, an in-place operator's, is one tensor).
  aclTensor* TensorOf(const TensorView* v) {
    if (v == nullptr) return nullptr;
    for (size_t k = 0; k < views_.size(); ++k) {
      if (views_[k] == v) return owned_[k];
    }
    std::vector<int64_t> strides = v->strides.empty() ? ContiguousStrides(v->shape) : v->strides;
    std::vector<int64_t> storage = v->storage_shape;
    if (storage.empty() && (!v->strides.empty() || v->offset != 0)) {
      // Just the view: the storage ends at its last element.
      int64_t extent = 1;
      for (size_t d = 0; d < v->shape.size(); ++d) {
        if (v->shape[d] == 0) extent = 0;
        if (extent > 0) extent += (v->shape[d] - 1) * strides[d];
      }
      storage = {v->offset + extent};
    } else if (storage.empty()) {
      storage = v->shape;
    }
    aclTensor* t = aclCreateTensor(
        v->shape.data(), v->shape.size(), static_cast<aclDataType>(v->dtype), strides.data(),
        v->offset, static_cast<aclFormat>(v->format), storage.data(), storage.size(), v->data);
    views_.push_back(v);
    owned_.push_back(t);
    return t;
  }

  Op op_;
  CApiCall call_;
  std::vector<const TensorView*> views_;
  std::vector<aclTensor*> owned_;
  std::vector<aclScalar*> scalars_;
  aclIntArray* int_array_ = nullptr;
  aclBoolArray* bool_array_ = nullptr;
  std::string string_;
};

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_CAPI_CALL_H_
