// Front-end checks (see check.h). Nothing here writes to a tensor.

#include "src/core/check.h"

#include <algorithm>
#include <numeric>

#include "hostnn/dtype.h"

namespace hostnn {
namespace core {

std::string ShapeString(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

std::string DTypeList(std::initializer_list<DType> dtypes) {
  std::string s;
  size_t i = 0;
  for (DType d : dtypes) {
    if (i > 0) s += (i + 1 == dtypes.size()) ? " or " : ", ";
    s += DTypeName(d);
    ++i;
  }
  return s;
}

static std::string DTypeText(DType d) {
  std::string name = DTypeName(d);
  if (name == "UNKNOWN") name += "(" + std::to_string(static_cast<int>(d)) + ")";
  return name;
}

Status InvalidParam(const char* op, const char* param, const std::string& what) {
  return Status::Invalid(std::string(op) + ": " + param + " " + what);
}

Status CheckDType(const char* op, const char* param, DType got, std::initializer_list<DType> allowed) {
  for (DType d : allowed) {
    if (d == got) return Status::Ok();
  }
  return InvalidParam(op, param, "dtype: expected " + DTypeList(allowed) + ", got " + DTypeText(got));
}

Status CheckRank(const char* op, const char* param, const TensorView& v) {
  if (v.shape.size() > static_cast<size_t>(kMaxDims)) {
    return InvalidParam(op, param, "rank: expected at most 8 dimensions, got " +
                                       std::to_string(v.shape.size()) + " " + ShapeString(v.shape));
  }
  if (!v.strides.empty() && v.strides.size() != v.shape.size()) {
    return InvalidParam(op, param, "strides: expected " + std::to_string(v.shape.size()) +
                                       " strides for shape " + ShapeString(v.shape) + ", got " +
                                       std::to_string(v.strides.size()));
  }
  return Status::Ok();
}

Status CheckDims(const char* op, const char* param, const TensorView& v) {
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] < 0) {
      return InvalidParam(op, param, "shape: expected non-negative dims, got " + ShapeString(v.shape));
    }
  }
  for (size_t i = 0; i < v.strides.size(); ++i) {
    if (v.strides[i] < 0) {
      return InvalidParam(op, param, "strides: negative strides are not supported, got " +
                                         ShapeString(v.strides));
    }
  }
  if (v.offset < 0) {
    return InvalidParam(op, param, "offset: expected >= 0, got " + std::to_string(v.offset));
  }
  for (int64_t d : v.storage_shape) {
    if (d < 0) {
      return InvalidParam(op, param, "storage shape: expected non-negative dims, got " +
                                         ShapeString(v.storage_shape));
    }
  }
  return Status::Ok();
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
    return InvalidParam(op, param, "shape: element count of " + ShapeString(v.shape) + " overflows int64");
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
      return InvalidParam(op, param, "strides: the view's extent overflows int64 (shape " +
                                         ShapeString(v.shape) + ", strides " + ShapeString(span->strides) + ")");
    }
  }
  int64_t storage = 0;
  if (v.storage_shape.empty()) {
    // No storage shape: the storage is exactly what the view reaches, elements 0..last.
    if (__builtin_add_overflow(last, int64_t{1}, &storage)) {
      return InvalidParam(op, param, "offset: the view reaches element " + std::to_string(last) +
                                         " (offset " + std::to_string(v.offset) +
                                         "), so its storage size overflows int64");
    }
  } else {
    storage = CheckedNumel(v.storage_shape);
    if (storage < 0) {
      return InvalidParam(op, param, "storage shape: element count of " +
                                         ShapeString(v.storage_shape) + " overflows int64");
    }
    if (last >= storage) {
      return InvalidParam(op, param, "view: reaches element " + std::to_string(last) +
                                         " (offset " + std::to_string(v.offset) + ", shape " +
                                         ShapeString(v.shape) + ", strides " + ShapeString(span->strides) +
                                         ") but the storage " + ShapeString(v.storage_shape) +
                                         " holds " + std::to_string(storage) + " elements");
    }
  }
  int64_t bytes = 0;
  if (__builtin_mul_overflow(storage, esize, &bytes)) {
    return InvalidParam(op, param, "storage: byte size overflows int64");
  }
  if (v.data == nullptr) {
    return InvalidParam(op, param, "data: null address behind a view of " + std::to_string(numel) + " elements");
  }
  const uintptr_t base = reinterpret_cast<uintptr_t>(v.data);
  uintptr_t hi = 0;
  if (__builtin_add_overflow(base, static_cast<uintptr_t>(bytes), &hi)) {
    return InvalidParam(op, param, "storage: address range wraps around");
  }
  span->first = static_cast<char*>(v.data) + v.offset * esize;
  span->lo = base + static_cast<uintptr_t>(v.offset * esize);
  span->hi = base + static_cast<uintptr_t>((last + 1) * esize);
  return Status::Ok();
}

namespace {

// Views up to this many elements get an exact overlap test (their element addresses are
// listed) when the quick stride tests cannot prove them disjoint; larger ones are refused.
constexpr int64_t kMaxListedElems = int64_t{1} << 20;

// The distinct start addresses of a view that passed CheckStorage, sorted (dims of stride 0
// add none, so they are skipped). False when there are more than kMaxListedElems to list.
bool SortedElementAddresses(const TensorView& v, const ViewSpan& span,
                            std::vector<uintptr_t>* addrs) {
  std::vector<int64_t> shape, strides;  // the dims that move
  int64_t count = 1;
  for (size_t d = 0; d < v.shape.size(); ++d) {
    if (v.shape[d] > 1 && span.strides[d] != 0) {
      shape.push_back(v.shape[d]);
      strides.push_back(span.strides[d]);
      count *= v.shape[d];  // <= numel: no overflow
    }
  }
  if (count > kMaxListedElems) return false;
  const uintptr_t esize = DTypeSize(v.dtype);
  std::vector<int64_t> idx(shape.size(), 0);
  int64_t off = 0;  // elements from span.first
  addrs->clear();
  addrs->reserve(static_cast<size_t>(count));
  for (int64_t n = 0; n < count; ++n) {
    addrs->push_back(reinterpret_cast<uintptr_t>(span.first) +
                     static_cast<uintptr_t>(off) * esize);
    for (size_t d = shape.size(); d-- > 0;) {  // odometer step, last dim fastest
      if (++idx[d] < shape[d]) {
        off += strides[d];
        break;
      }
      off -= (shape[d] - 1) * strides[d];
      idx[d] = 0;
    }
  }
  std::sort(addrs->begin(), addrs->end());
  return true;
}

// Whether an element [a, a + a_size) of one sorted list meets an element [b, b + b_size)
// of the other.
bool AnyElementsMeet(const std::vector<uintptr_t>& a, uintptr_t a_size,
                     const std::vector<uintptr_t>& b, uintptr_t b_size) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i] + a_size <= b[j]) {
      ++i;
    } else if (b[j] + b_size <= a[i]) {
      ++j;
    } else {
      return true;
    }
  }
  return false;
}

}  // namespace

Status CheckNoSelfOverlap(const char* op, const char* param, const TensorView& v, const ViewSpan& span) {
  if (span.numel <= 1) return Status::Ok();
  // Sort the dims of extent > 1 by stride; each stride must step past everything the
  // smaller dims reach. This proves the usual layouts disjoint at once; anything else
  // (e.g. shape [3, 2], strides [2, 3]) gets the exact test.
  std::vector<std::pair<int64_t, int64_t>> dims;  // (stride, size)
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] > 1) dims.emplace_back(span.strides[i], v.shape[i]);
  }
  std::sort(dims.begin(), dims.end());
  int64_t reach = 0;  // max offset covered by the smaller dims
  bool proven = true;
  for (const auto& d : dims) {
    if (d.first <= reach) {
      proven = false;
      break;
    }
    reach += (d.second - 1) * d.first;
  }
  if (proven) return Status::Ok();
  // A stride-0 dim, or more elements than the span has room for, overlap for certain;
  // otherwise listing the addresses decides.
  const int64_t room = static_cast<int64_t>((span.hi - span.lo) / DTypeSize(v.dtype));
  std::vector<uintptr_t> addrs;
  if (dims.front().first != 0 && span.numel <= room && SortedElementAddresses(v, span, &addrs) &&
      std::adjacent_find(addrs.begin(), addrs.end()) == addrs.end()) {
    return Status::Ok();
  }
  return InvalidParam(op, param,
                      "view: elements overlap each other (shape " + ShapeString(v.shape) +
                          ", strides " + ShapeString(span.strides) +
                          "); an output must not alias itself");
}

namespace {

// The dims of a view that move (extent > 1), as (stride, extent) pairs.
std::vector<std::pair<int64_t, int64_t>> MovingDims(const TensorView& v, const ViewSpan& span) {
  std::vector<std::pair<int64_t, int64_t>> dims;
  for (size_t i = 0; i < v.shape.size(); ++i) {
    if (v.shape[i] > 1) dims.emplace_back(span.strides[i], v.shape[i]);
  }
  return dims;
}

// The very same elements in the same order: same first address and dtype, and the same
// (extent, stride) for every dim that moves (size-1 dims, whatever their strides, and
// leading size-1 dims an input has fewer of, do not change which elements are meant).
bool SameView(const TensorView& a, const ViewSpan& a_span, const TensorView& b,
              const ViewSpan& b_span) {
  return a_span.first == b_span.first && a.dtype == b.dtype &&
         MovingDims(a, a_span) == MovingDims(b, b_span);
}

}  // namespace

Status CheckAliasing(const char* op, const char* out_param, const TensorView& out,
                     const ViewSpan& out_span, const char* in_param, const TensorView& in,
                     const ViewSpan& in_span) {
  if (out_span.numel == 0 || in_span.numel == 0) return Status::Ok();
  const bool disjoint = in_span.hi <= out_span.lo || out_span.hi <= in_span.lo;
  if (disjoint) return Status::Ok();
  if (SameView(in, in_span, out, out_span)) return Status::Ok();
  // Interleaved views share a range without sharing an element: list them to tell.
  std::vector<uintptr_t> out_addrs, in_addrs;
  if (SortedElementAddresses(out, out_span, &out_addrs) &&
      SortedElementAddresses(in, in_span, &in_addrs) &&
      !AnyElementsMeet(out_addrs, DTypeSize(out.dtype), in_addrs, DTypeSize(in.dtype))) {
    return Status::Ok();
  }
  return InvalidParam(op, in_param, std::string("memory: partly overlaps ") + out_param +
                                        "; an input may share memory with the output only as the same view (in place)");
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
