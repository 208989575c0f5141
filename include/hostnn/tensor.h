// TensorView: a non-owning description of a strided view into an allocation, the native
// counterpart of aclTensor. offset and strides count elements. Views are validated by the
// operators, not here.
#ifndef HOSTNN_TENSOR_H_
#define HOSTNN_TENSOR_H_

#include <cstdint>
#include <vector>

#include "hostnn/dtype.h"

namespace hostnn {

constexpr int kMaxDims = 8;

struct TensorView {
  void* data = nullptr;  // start of the storage (offset 0)
  DType dtype = DType::kFloat32;
  std::vector<int64_t> shape;          // view dims; empty = 0-d scalar
  std::vector<int64_t> strides;        // elements; empty = row-major contiguous
  int64_t offset = 0;                  // elements from data to the view's first element
  std::vector<int64_t> storage_shape;  // the allocation, in elements; empty = just the view
  // CANN's aclFormat value (2: ND). The elements are where shape, strides and offset say
  // in every format (no private layout is modelled); operators check the value as their
  // op_api does (docs/errors.md).
  int32_t format = 2;

  // A dense row-major view over `data`.
  static TensorView Dense(void* data, DType dtype, std::vector<int64_t> shape) {
    TensorView v;
    v.data = data;
    v.dtype = dtype;
    v.shape = std::move(shape);
    return v;
  }
};

// Row-major strides of `shape` (the last dim has stride 1).
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape);

}  // namespace hostnn

#endif  // HOSTNN_TENSOR_H_
