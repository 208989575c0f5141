// AddRelu's and InplaceAddRelu's integer dtypes (rule PromoteIntExact), through the C API
// as a CANN program calls them: self and other of INT8, UINT8, INT16, INT32 or INT64 are
// computed exactly in their promoted dtype, wrapping, then cast to out's dtype; a float
// beside an integer computes in f32 with the integer cast to FLOAT first. Every result is
// compared with the exact references of tests/reference/int_reference.h, on every SIMD
// target, with values over each dtype's whole range (so that sums and products wrap),
// broadcast and transposed operands, and alphas past 2^53. Then the refusals CANN makes:
// a float alpha for an integer promotion, a float promotion into an integer out, BOOL and
// unsigned 16-64 bit inputs; nothing is written on a refusal.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_add_relu.h"
#include "tests/reference/int_reference.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const DType kInts[] = {DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64};

bool IsInt(DType d) {
  for (DType i : kInts) {
    if (i == d) return true;
  }
  return false;
}

// A host tensor: its bytes and its aclTensor, dense or (2-D) transposed over its storage.
class HostTensor {
 public:
  HostTensor(DType dtype, std::vector<int64_t> shape, bool transposed = false)
      : dtype_(dtype), shape_(std::move(shape)), transposed_(transposed && shape_.size() == 2) {
    numel_ = NumelOf(shape_);
    bytes_.assign(static_cast<size_t>(std::max<int64_t>(numel_, 1)) * DTypeSize(dtype), 0xA5);
    std::vector<int64_t> strides = ContiguousStrides(shape_), storage = shape_;
    if (transposed_) {
      storage = {shape_[1], shape_[0]};
      strides = {1, shape_[0]};
    }
    tensor_ = aclCreateTensor(shape_.data(), shape_.size(), static_cast<aclDataType>(dtype),
                              strides.data(), 0, ACL_FORMAT_ND, storage.data(), storage.size(),
                              bytes_.data());
  }
  ~HostTensor() { aclDestroyTensor(tensor_); }
  HostTensor(const HostTensor&) = delete;
  HostTensor& operator=(const HostTensor&) = delete;

  aclTensor* get() const { return tensor_; }
  DType dtype() const { return dtype_; }
  int64_t numel() const { return numel_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  const std::vector<unsigned char>& bytes() const { return bytes_; }
  // Element i in row-major order of the view: an integer's low bytes, or a float value.
  void SetInt(int64_t i, int64_t v) {
    std::memcpy(At(i), &v, DTypeSize(dtype_));  // little-endian: the low bytes
  }
  int64_t GetInt(int64_t i) const {
    int64_t v = 0;
    std::memcpy(&v, At(i), DTypeSize(dtype_));
    return WrapIntRef(v, dtype_);  // sign-extended from its width
  }
  void SetFloat(int64_t i, double v) { StoreFromDouble(dtype_, bytes_.data(), Index(i), v); }
  double GetFloat(int64_t i) const { return LoadAsDouble(dtype_, bytes_.data(), Index(i)); }

 private:
  int64_t Index(int64_t i) const {
    return transposed_ ? (i % shape_[1]) * shape_[0] + i / shape_[1] : i;
  }
  unsigned char* At(int64_t i) { return bytes_.data() + Index(i) * DTypeSize(dtype_); }
  const unsigned char* At(int64_t i) const { return bytes_.data() + Index(i) * DTypeSize(dtype_); }

  DType dtype_;
  std::vector<int64_t> shape_;
  bool transposed_;
  int64_t numel_ = 0;
  std::vector<unsigned char> bytes_;
  aclTensor* tensor_ = nullptr;
};

// A value of `d` over its whole range.
int64_t RandomInt(DType d, std::mt19937_64& rng) {
  const uint64_t u = rng();
  return WrapIntRef(static_cast<int64_t>(u), d);
}

aclScalar* Int64Scalar(int64_t v) { return aclCreateScalar(&v, ACL_INT64); }

// Both phases; the status of the first that fails.
aclnnStatus AddRelu(const HostTensor& self, const HostTensor& other, aclScalar* alpha,
                    const HostTensor& out) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st =
      aclnnAddReluGetWorkspaceSize(self.get(), other.get(), alpha, out.get(), &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnAddRelu(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

aclnnStatus InplaceAddRelu(const HostTensor& self, const HostTensor& other, aclScalar* alpha) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st = aclnnInplaceAddReluGetWorkspaceSize(self.get(), other.get(), alpha, &ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return aclnnInplaceAddRelu(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// out's element i against the exact integer result r.
void ExpectElement(const HostTensor& out, int64_t i, int64_t r) {
  if (IsInt(out.dtype())) {
    ASSERT_EQ(out.GetInt(i), WrapIntRef(r, out.dtype())) << "element " << i << ", exact " << r;
  } else {
    ASSERT_EQ(out.GetFloat(i), CastIntRef(r, out.dtype())) << "element " << i << ", exact " << r;
  }
}

TEST(AddReluInt, EveryIntegerPairIntoEveryOutOnEveryTarget) {
  const std::vector<int64_t> self_shape = {3, 1, 37}, other_shape = {1, 4, 37};
  const std::vector<int64_t> out_shape = {3, 4, 37};
  const DType kOuts[] = {DType::kInt8,  DType::kUInt8,   DType::kInt16,   DType::kInt32,
                         DType::kInt64, DType::kFloat32, DType::kFloat16, DType::kBFloat16};
  const int64_t kAlphas[] = {1, -3, 300, (int64_t{1} << 53) + 1};
  ForEachTarget([&](int64_t) {
    std::mt19937_64 rng(0xADD5EED);
    for (DType ds : kInts) {
      for (DType dother : kInts) {
        const DType promoted = PromoteType(ds, dother);
        HostTensor self(ds, self_shape), other(dother, other_shape);
        for (int64_t i = 0; i < self.numel(); ++i) self.SetInt(i, RandomInt(ds, rng));
        for (int64_t i = 0; i < other.numel(); ++i) other.SetInt(i, RandomInt(dother, rng));
        for (DType dout : kOuts) {
          for (int64_t alpha : kAlphas) {
            SCOPED_TRACE(std::string(DTypeName(ds)) + " + " + DTypeName(dother) + " -> " +
                         DTypeName(dout) + ", alpha " + std::to_string(alpha));
            HostTensor out(dout, out_shape);
            aclScalar* a = Int64Scalar(alpha);
            ASSERT_EQ(AddRelu(self, other, a, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
            aclDestroyScalar(a);
            for (int64_t i = 0; i < out.numel(); ++i) {
              const int64_t r = AddReluIntRef(
                  self.GetInt(BroadcastSource(self.shape(), out_shape, i)),
                  other.GetInt(BroadcastSource(other.shape(), out_shape, i)), alpha, promoted);
              ExpectElement(out, i, r);
            }
          }
        }
      }
    }
  });
}

TEST(AddReluInt, InPlaceTransposedSelfRefWraps) {
  // INT16 selfRef (transposed) and INT8 other promote to INT16: selfRef's own dtype.
  const std::vector<int64_t> shape = {5, 70};
  std::mt19937_64 rng(7);
  for (int64_t alpha : {int64_t{1}, int64_t{-2}, int64_t{1000}}) {
    SCOPED_TRACE("alpha " + std::to_string(alpha));
    HostTensor self(DType::kInt16, shape, /*transposed=*/true), other(DType::kInt8, {70});
    std::vector<int64_t> before(self.numel());
    for (int64_t i = 0; i < self.numel(); ++i) {
      self.SetInt(i, RandomInt(DType::kInt16, rng));
      before[i] = self.GetInt(i);
    }
    for (int64_t i = 0; i < other.numel(); ++i) other.SetInt(i, RandomInt(DType::kInt8, rng));
    aclScalar* a = Int64Scalar(alpha);
    ASSERT_EQ(InplaceAddRelu(self, other, a), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyScalar(a);
    for (int64_t i = 0; i < self.numel(); ++i) {
      ExpectElement(self, i,
                    AddReluIntRef(before[i], other.GetInt(BroadcastSource(other.shape(), shape, i)),
                                  alpha, DType::kInt16));
    }
  }
}

TEST(AddReluInt, BoolAlphaIsOneOrZero) {
  HostTensor self(DType::kUInt8, {4}), other(DType::kInt8, {4}), out(DType::kInt16, {4});
  const int64_t s[] = {255, 0, 7, 200}, o[] = {-128, 127, -8, 100};
  for (int i = 0; i < 4; ++i) {
    self.SetInt(i, s[i]);
    other.SetInt(i, o[i]);
  }
  for (bool b : {true, false}) {
    aclScalar* a = aclCreateScalar(&b, ACL_BOOL);
    ASSERT_EQ(AddRelu(self, other, a, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyScalar(a);
    for (int i = 0; i < 4; ++i) {
      EXPECT_EQ(out.GetInt(i), AddReluIntRef(s[i], o[i], b ? 1 : 0, DType::kInt16)) << i;
    }
  }
}

// A float beside an integer: the integer is cast to FLOAT (rounded once), and the sum is
// computed in f32 as for the float dtypes. The values make every result exact.
TEST(AddReluInt, FloatBesideAnIntegerComputesInFloat) {
  struct Case {
    DType self, other, out;
  };
  const Case cases[] = {{DType::kFloat32, DType::kInt32, DType::kFloat32},
                        {DType::kFloat16, DType::kInt8, DType::kFloat16},
                        {DType::kInt64, DType::kBFloat16, DType::kFloat32},
                        {DType::kInt16, DType::kFloat32, DType::kBFloat16}};
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(DTypeName(c.self)) + " + " + DTypeName(c.other));
    HostTensor self(c.self, {2, 8}), other(c.other, {8}), out(c.out, {2, 8});
    for (int64_t i = 0; i < 16; ++i) {
      if (IsInt(c.self))
        self.SetInt(i, i - 9);
      else
        self.SetFloat(i, 0.25 * (i - 7));
    }
    for (int64_t i = 0; i < 8; ++i) {
      if (IsInt(c.other))
        other.SetInt(i, 3 - i);
      else
        other.SetFloat(i, 0.5 * (i - 3));
    }
    const float alpha = 2.5f;
    aclScalar* a = aclCreateScalar(const_cast<float*>(&alpha), ACL_FLOAT);
    ASSERT_EQ(AddRelu(self, other, a, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    aclDestroyScalar(a);
    for (int64_t i = 0; i < 16; ++i) {
      const double s = IsInt(c.self) ? self.GetInt(i) : self.GetFloat(i);
      const double o = IsInt(c.other) ? other.GetInt(i % 8) : other.GetFloat(i % 8);
      const double exact = s + 2.5 * o;
      EXPECT_EQ(out.GetFloat(i), exact > 0 ? exact : 0.0) << i;
    }
  }
  // An INT32 past 2^24 is rounded once to FLOAT before the sum.
  HostTensor self(DType::kInt32, {1}), other(DType::kFloat32, {1}), out(DType::kFloat32, {1});
  self.SetInt(0, (1 << 24) + 1);
  other.SetFloat(0, 0.0);
  aclScalar* one = Int64Scalar(1);
  ASSERT_EQ(AddRelu(self, other, one, out), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  aclDestroyScalar(one);
  EXPECT_EQ(out.GetFloat(0), 16777216.0);
}

// Phase 1 refuses with 161002 naming `param`, and nothing is written.
void ExpectRefused(const HostTensor& self, const HostTensor& other, aclScalar* alpha,
                   const HostTensor& out, const char* param) {
  const std::vector<unsigned char> before = out.bytes();
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnAddReluGetWorkspaceSize(self.get(), other.get(), alpha, out.get(), &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_NE(msg.find(param), std::string::npos) << msg;
  EXPECT_EQ(out.bytes(), before);
}

TEST(AddReluInt, RefusalsAsCann) {
  HostTensor i32(DType::kInt32, {2, 3}), f32(DType::kFloat32, {2, 3});
  HostTensor out_i32(DType::kInt32, {2, 3}), out_f32(DType::kFloat32, {2, 3});
  const double half = 0.5;
  aclScalar* float_alpha = aclCreateScalar(const_cast<double*>(&half), ACL_DOUBLE);
  aclScalar* int_alpha = Int64Scalar(2);
  // A float alpha cannot be cast to an integer promotion.
  ExpectRefused(i32, i32, float_alpha, out_i32, "alpha");
  // A float promotion cannot be cast to an integer out.
  ExpectRefused(f32, i32, int_alpha, out_i32, "out");
  // BOOL and the unsigned 16-64 bit dtypes are not inputs; DOUBLE is not an out.
  HostTensor b(DType::kBool, {2, 3}), u16(DType::kUInt16, {2, 3}), u32(DType::kUInt32, {2, 3});
  HostTensor f64(DType::kFloat64, {2, 3});
  ExpectRefused(b, i32, int_alpha, out_i32, "self");
  ExpectRefused(i32, u16, int_alpha, out_i32, "other");
  ExpectRefused(u32, i32, int_alpha, out_i32, "self");
  ExpectRefused(i32, i32, int_alpha, f64, "out");
  // In place: a float promotion cannot be written into an integer selfRef.
  const std::vector<unsigned char> before = i32.bytes();
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  EXPECT_EQ(aclnnInplaceAddReluGetWorkspaceSize(i32.get(), f32.get(), int_alpha, &ws, &exec),
            ACLNN_ERR_PARAM_INVALID);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("selfRef"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_EQ(i32.bytes(), before);
  aclDestroyScalar(float_alpha);
  aclDestroyScalar(int_alpha);
}

TEST(AddReluInt, EmptyInputsSucceedWithNothingWritten) {
  HostTensor self(DType::kInt32, {7, 0, 6}), other(DType::kInt32, {7, 1, 6});
  HostTensor out(DType::kInt32, {7, 0, 6});
  aclScalar* a = Int64Scalar(5);
  uint64_t ws = 1;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnAddReluGetWorkspaceSize(self.get(), other.get(), a, out.get(), &ws, &exec),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  EXPECT_EQ(ws, 0u);
  EXPECT_EQ(aclnnAddRelu(nullptr, 0, exec, nullptr), ACLNN_SUCCESS);
  aclDestroyScalar(a);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
