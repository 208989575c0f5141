// Front-end checks (see check.h): dtypes, ranks, dims and storage; the memory overlap checks
// are in overlap.cc. Nothing here writes to a tensor.

#include "src/core/check.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <limits>
#include <numeric>

#include "hostnn/dtype.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace core {

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

static std::string DTypeList(const DType* dtypes, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) s += (i + 1 == n) ? " or " : ", ";
    s += DTypeName(dtypes[i]);
  }
  return s;
}

std::string DTypeList(std::initializer_list<DType> dtypes) {
  return DTypeList(dtypes.begin(), dtypes.size());
}

static std::string DTypeText(DType d) {
  std::string name = DTypeName(d);
  if (name == "UNKNOWN") name += "(" + std::to_string(static_cast<int>(d)) + ")";
  return name;
}

Status InvalidParam(const char* op, const char* param, const std::string& what) {
  return Status::Invalid(std::string(op) + ": " + param + " " + what);
}

Status CheckDType(const char* op, const char* param, DType got,
                  std::initializer_list<DType> allowed, std::initializer_list<DType> also) {
  for (std::initializer_list<DType> list : {allowed, also}) {
    for (DType d : list) {
      if (d == got) return Status::Ok();
    }
  }
  std::vector<DType> expected(allowed);
  expected.insert(expected.end(), also.begin(), also.end());
  return InvalidParam(
      op, param,
      "dtype: expected " + DTypeList(expected.data(), expected.size()) + ", got " + DTypeText(got));
}

Status CheckRank(const char* op, const char* param, const TensorView& v, int max_rank) {
  if (v.shape.size() > static_cast<size_t>(max_rank)) {
    return InvalidParam(op, param,
                        "rank: expected at most " + std::to_string(max_rank) + " dimensions, got " +
                            std::to_string(v.shape.size()) + " " + ShapeString(v.shape));
  }
  if (!v.strides.empty() && v.strides.size() != v.shape.size()) {
    return InvalidParam(op, param,
                        "strides: expected " + std::to_string(v.shape.size()) +
                            " strides for shape " + ShapeString(v.shape) + ", got " +
                            std::to_string(v.strides.size()));
  }
  return Status::Ok();
}

Status CheckDims(const char* op, const char* param, const TensorView& v) {
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] < 0) {
      return InvalidParam(op, param,
                          "shape: expected non-negative dims, got " + ShapeString(v.shape));
    }
  }
  for (size_t i = 0; i < v.strides.size(); ++i) {
    if (v.strides[i] < 0) {
      return InvalidParam(
          op, param, "strides: negative strides are not supported, got " + ShapeString(v.strides));
    }
  }
  if (v.offset < 0) {
    return InvalidParam(op, param, "offset: expected >= 0, got " + std::to_string(v.offset));
  }
  for (int64_t d : v.storage_shape) {
    if (d < 0) {
      return InvalidParam(
          op, param,
          "storage shape: expected non-negative dims, got " + ShapeString(v.storage_shape));
    }
  }
  if (FormatName(v.format) == nullptr) {
    return InvalidParam(
        op, param,
        "format: " + std::to_string(v.format) + " is no aclFormat value (ND is 2, NCHW 0, NHWC 1)");
  }
  return Status::Ok();
}

const char* FormatName(int32_t format) {
  switch (format) {
    case -1:
      return "UNDEFINED";
    case 0:
      return "NCHW";
    case 1:
      return "NHWC";
    case 2:
      return "ND";
    case 3:
      return "NC1HWC0";
    case 4:
      return "FRACTAL_Z";
    case 12:
      return "NC1HWC0_C04";
    case 16:
      return "HWCN";
    case 27:
      return "NDHWC";
    case 29:
      return "FRACTAL_NZ";
    case 30:
      return "NCDHW";
    case 32:
      return "NDC1HWC0";
    case 33:
      return "FRACTAL_Z_3D";
    case 35:
      return "NC";
    case 47:
      return "NCL";
    default:
      return nullptr;
  }
}

bool IsPrivateFormat(int32_t format) {
  return format == 3 || format == 4 || format == 12 || format == 29 || format == 32 || format == 33;
}

Status CheckNotPrivate(const char* op, const char* param, const TensorView& v, const char* taken) {
  if (!IsPrivateFormat(v.format)) return Status::Ok();
  return InvalidParam(op, param,
                      std::string("format ") + FormatName(v.format) + ": expected " + taken);
}

float ToFloat(double v) {
  // FLT_MAX plus half its ULP, 2^128 - 2^103: from there on nearest-even rounds to infinity
  // (FLT_MAX's last significand bit is odd, so the tie goes up).
  constexpr double kRoundsToInf = 0x1.ffffffp+127;
  if (!(std::fabs(v) > static_cast<double>(FLT_MAX))) return static_cast<float>(v);  // NaN too
  const float big = std::fabs(v) >= kRoundsToInf ? std::numeric_limits<float>::infinity() : FLT_MAX;
  return std::signbit(v) ? -big : big;
}

int64_t ToInt64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? static_cast<int64_t>(v) : 0;
}

bool SpansApart(const ViewSpan& a, const ViewSpan& b) {
  return a.numel == 0 || b.numel == 0 || a.hi <= b.lo || b.hi <= a.lo;
}

int64_t CheckedNumel(const std::vector<int64_t>& dims) {
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d == 0) return 0;
  }
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

Status CheckStorage(const char* op, const char* param, const TensorView& v, ViewSpan* span) {
  const int64_t numel = CheckedNumel(v.shape);
  if (numel < 0) {
    return InvalidParam(op, param,
                        "shape: element count of " + ShapeString(v.shape) + " overflows int64");
  }
  span->numel = numel;
  span->strides = v.strides.empty() ? ContiguousStrides(v.shape) : v.strides;
  if (numel == 0) return Status::Ok();  // nothing is read or written
  const int64_t esize = static_cast<int64_t>(DTypeSize(v.dtype));
  // Last element reached: offset + sum((d - 1) * stride).
  int64_t last = v.offset;
  for (size_t i = 0; i < v.shape.size(); ++i) {
    int64_t reach = 0;
    if (__builtin_mul_overflow(v.shape[i] - 1, span->strides[i], &reach) ||
        __builtin_add_overflow(last, reach, &last)) {
      return InvalidParam(op, param,
                          "strides: the view's extent overflows int64 (shape " +
                              ShapeString(v.shape) + ", strides " + ShapeString(span->strides) +
                              ")");
    }
  }
  int64_t storage = 0;
  if (v.storage_shape.empty()) {
    // No storage shape: the storage is exactly what the view reaches, elements 0..last.
    if (__builtin_add_overflow(last, int64_t{1}, &storage)) {
      return InvalidParam(op, param,
                          "offset: the view reaches element " + std::to_string(last) + " (offset " +
                              std::to_string(v.offset) + "), so its storage size overflows int64");
    }
  } else {
    storage = CheckedNumel(v.storage_shape);
    if (storage < 0) {
      return InvalidParam(
          op, param,
          "storage shape: element count of " + ShapeString(v.storage_shape) + " overflows int64");
    }
    if (last >= storage) {
      return InvalidParam(op, param,
                          "view: reaches element " + std::to_string(last) + " (offset " +
                              std::to_string(v.offset) + ", shape " + ShapeString(v.shape) +
                              ", strides " + ShapeString(span->strides) + ") but the storage " +
                              ShapeString(v.storage_shape) + " holds " + std::to_string(storage) +
                              " elements");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(storage, esize, &bytes)) {
    return InvalidParam(op, param, "storage: byte size overflows int64");
  }
  if (v.data == nullptr) {  // taken, as CANN's phase 1 takes it; phase 2 refuses it
    span->first = nullptr;
    span->lo = span->hi = 0;
    span->unbound = true;
    return Status::Ok();
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(v.data);
  uintptr_t hi = 0;
  if (__builtin_add_overflow(base, static_cast<uintptr_t>(bytes), &hi)) {
    return InvalidParam(op, param, "storage: address range wraps around");
  }
  // Data inside an aclrtMalloc block: the whole storage must lie in that block.
  uintptr_t block = 0;
  uint64_t block_bytes = 0;
  if (runtime::FindAllocation(v.data, &block, &block_bytes) &&
      static_cast<uint64_t>(bytes) > block_bytes - (base - block)) {
    return InvalidParam(op, param,
                        "storage: " + std::to_string(storage) + " elements (" +
                            std::to_string(bytes) + " bytes) from byte " +
                            std::to_string(base - block) + " of an aclrtMalloc block of " +
                            std::to_string(block_bytes) + " bytes run past its end");
  }
  span->first = static_cast<char*>(v.data) + v.offset * esize;
  span->lo = base + static_cast<uintptr_t>(v.offset * esize);
  span->hi = base + static_cast<uintptr_t>((last + 1) * esize);
  return Status::Ok();
}

}  // namespace core
}  // namespace hostnn

namespace hostnn {
std::vector<int64_t> ContiguousStrides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (int64_t i = static_cast<int64_t>(shape.size()) - 2; i >= 0; --i) {
    int64_t s = 0;
    const int64_t next = std::max<int64_t>(shape[i + 1], 1);
    if (__builtin_mul_overflow(strides[i + 1], next, &s)) s = INT64_MAX;
    strides[i] = s;
  }
  return strides;
}
}  // namespace hostnn
