// The runtime calls CANN programs commonly make beyond the samples' set: tensor queries
// (aclGetViewShape and siblings), tensor lists, int arrays, scalars, aclrtGetSocName,
// host allocations, aclrtMemset and aclrtMemcpyAsync. Each is checked on good input and
// on every refusal: a clear status, a fresh message naming the call, nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "aclnn/aclnn_base.h"
#include "src/aclnn/c_api.h"
#include "tests/util/acl_test_util.h"

namespace hostnn {
namespace test {
namespace {

constexpr int64_t kSentinel = -777;

// A fresh message that names `fn`, after PrimeErrorMessage.
::testing::AssertionResult MessageNames(const std::string& primed, const std::string& fn) {
  const std::string msg = aclGetRecentErrMsg();
  if (msg == primed)
    return ::testing::AssertionFailure() << "no new message (still '" << msg << "')";
  if (msg.find(fn) == std::string::npos) {
    return ::testing::AssertionFailure() << "message '" << msg << "' does not name " << fn;
  }
  return ::testing::AssertionSuccess();
}

std::vector<int64_t> Take(int64_t* values, uint64_t n) {
  std::vector<int64_t> v(values, values + n);
  delete[] values;
  return v;
}

// ---- tensor queries --------------------------------------------------------------------

TEST(TensorQueries, ReportWhatTheTensorWasCreatedWith) {
  float storage[8] = {};
  const int64_t view[2] = {2, 3};
  const int64_t strides[2] = {1, 2};  // transposed
  const int64_t storage_dims[1] = {8};
  aclTensor* t =
      aclCreateTensor(view, 2, ACL_FLOAT16, strides, 1, ACL_FORMAT_NCHW, storage_dims, 1, storage);
  ASSERT_NE(t, nullptr);

  int64_t* dims = nullptr;
  uint64_t n = 0;
  ASSERT_EQ(aclGetViewShape(t, &dims, &n), ACLNN_SUCCESS);
  EXPECT_EQ(Take(dims, n), (std::vector<int64_t>{2, 3}));
  ASSERT_EQ(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
  EXPECT_EQ(Take(dims, n), (std::vector<int64_t>{1, 2}));
  ASSERT_EQ(aclGetStorageShape(t, &dims, &n), ACLNN_SUCCESS);
  EXPECT_EQ(Take(dims, n), (std::vector<int64_t>{8}));
  int64_t offset = kSentinel;
  ASSERT_EQ(aclGetViewOffset(t, &offset), ACLNN_SUCCESS);
  EXPECT_EQ(offset, 1);
  aclDataType dtype = ACL_DT_UNDEFINED;
  ASSERT_EQ(aclGetDataType(t, &dtype), ACLNN_SUCCESS);
  EXPECT_EQ(dtype, ACL_FLOAT16);
  aclFormat format = ACL_FORMAT_UNDEFINED;
  ASSERT_EQ(aclGetFormat(t, &format), ACLNN_SUCCESS);
  EXPECT_EQ(format, ACL_FORMAT_NCHW);
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
}

// CANN's aclFormat values: programs pass them by name (HWCN, NC, NCL in ops-nn's own
// tests); the operators read the ND view whatever the format says.
TEST(TensorQueries, EveryCannFormatNameHasCannsValueAndRoundTrips) {
  const std::pair<aclFormat, int> formats[] = {
      {ACL_FORMAT_NCHW, 0},    {ACL_FORMAT_NHWC, 1},      {ACL_FORMAT_ND, 2},
      {ACL_FORMAT_NC1HWC0, 3}, {ACL_FORMAT_FRACTAL_Z, 4}, {ACL_FORMAT_NC1HWC0_C04, 12},
      {ACL_FORMAT_HWCN, 16},   {ACL_FORMAT_NDHWC, 27},    {ACL_FORMAT_FRACTAL_NZ, 29},
      {ACL_FORMAT_NCDHW, 30},  {ACL_FORMAT_NDC1HWC0, 32}, {ACL_FRACTAL_Z_3D, 33},
      {ACL_FORMAT_NC, 35},     {ACL_FORMAT_NCL, 47}};
  float storage[4] = {};
  const int64_t view[1] = {4};
  for (const auto& f : formats) {
    EXPECT_EQ(static_cast<int>(f.first), f.second);
    aclTensor* t = aclCreateTensor(view, 1, ACL_FLOAT, nullptr, 0, f.first, view, 1, storage);
    ASSERT_NE(t, nullptr);
    aclFormat got = ACL_FORMAT_UNDEFINED;
    ASSERT_EQ(aclGetFormat(t, &got), ACLNN_SUCCESS);
    EXPECT_EQ(got, f.first);
    EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
  }
}

TEST(TensorQueries, NullStridesReadAsRowMajorAndAScalarHasNoDims) {
  float storage[24] = {};
  const int64_t view[3] = {2, 3, 4};
  aclTensor* t = aclCreateTensor(view, 3, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, view, 3, storage);
  ASSERT_NE(t, nullptr);
  int64_t* dims = nullptr;
  uint64_t n = 99;
  ASSERT_EQ(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
  EXPECT_EQ(Take(dims, n), (std::vector<int64_t>{12, 4, 1}));
  EXPECT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);

  aclTensor* scalar =
      aclCreateTensor(nullptr, 0, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, nullptr, 0, storage);
  ASSERT_NE(scalar, nullptr);
  dims = nullptr;
  n = 99;
  ASSERT_EQ(aclGetViewShape(scalar, &dims, &n), ACLNN_SUCCESS);
  EXPECT_NE(dims, nullptr);  // always an array the caller can delete[]
  EXPECT_EQ(Take(dims, n).size(), 0u);
  EXPECT_EQ(aclDestroyTensor(scalar), ACLNN_SUCCESS);
}

TEST(TensorQueries, NullArgumentsAreRefusedAndNothingIsWritten) {
  float storage[6] = {};
  TensorPtr t = MakeDense(storage, ACL_FLOAT, {2, 3});
  int64_t marker = kSentinel;
  int64_t* dims = &marker;  // must stay untouched on refusal
  uint64_t n = 42;
  int64_t offset = kSentinel;
  aclDataType dtype = ACL_DT_UNDEFINED;
  aclFormat format = ACL_FORMAT_UNDEFINED;
  struct Case {
    const char* fn;
    const char* param;
    aclnnStatus (*call)(const aclTensor*, int64_t**, uint64_t*, int64_t*, aclDataType*, aclFormat*);
    bool null_tensor;
  };
  using T = const aclTensor*;
  const Case kCases[] = {
      {"aclGetViewShape", "tensor",
       [](T t, int64_t** d, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewShape(t, d, n);
       },
       true},
      {"aclGetViewShape", "viewDims",
       [](T t, int64_t**, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewShape(t, nullptr, n);
       },
       false},
      {"aclGetViewShape", "viewDimsNum",
       [](T t, int64_t** d, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewShape(t, d, nullptr);
       },
       false},
      {"aclGetViewStrides", "tensor",
       [](T t, int64_t** d, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewStrides(t, d, n);
       },
       true},
      {"aclGetViewStrides", "stridesValue",
       [](T t, int64_t**, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewStrides(t, nullptr, n);
       },
       false},
      {"aclGetViewStrides", "stridesNum",
       [](T t, int64_t** d, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewStrides(t, d, nullptr);
       },
       false},
      {"aclGetStorageShape", "tensor",
       [](T t, int64_t** d, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetStorageShape(t, d, n);
       },
       true},
      {"aclGetStorageShape", "storageDims",
       [](T t, int64_t**, uint64_t* n, int64_t*, aclDataType*, aclFormat*) {
         return aclGetStorageShape(t, nullptr, n);
       },
       false},
      {"aclGetStorageShape", "storageDimsNum",
       [](T t, int64_t** d, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetStorageShape(t, d, nullptr);
       },
       false},
      {"aclGetViewOffset", "tensor",
       [](T t, int64_t**, uint64_t*, int64_t* o, aclDataType*, aclFormat*) {
         return aclGetViewOffset(t, o);
       },
       true},
      {"aclGetViewOffset", "offset",
       [](T t, int64_t**, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetViewOffset(t, nullptr);
       },
       false},
      {"aclGetDataType", "tensor",
       [](T t, int64_t**, uint64_t*, int64_t*, aclDataType* d, aclFormat*) {
         return aclGetDataType(t, d);
       },
       true},
      {"aclGetDataType", "dataType",
       [](T t, int64_t**, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetDataType(t, nullptr);
       },
       false},
      {"aclGetFormat", "tensor",
       [](T t, int64_t**, uint64_t*, int64_t*, aclDataType*, aclFormat* f) {
         return aclGetFormat(t, f);
       },
       true},
      {"aclGetFormat", "format",
       [](T t, int64_t**, uint64_t*, int64_t*, aclDataType*, aclFormat*) {
         return aclGetFormat(t, nullptr);
       },
       false},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(std::string(c.fn) + " with a null " + c.param);
    const std::string primed = PrimeErrorMessage();
    EXPECT_EQ(c.call(c.null_tensor ? nullptr : t.get(), &dims, &n, &offset, &dtype, &format),
              ACLNN_ERR_PARAM_NULLPTR);
    EXPECT_TRUE(MessageNames(primed, c.fn));
    EXPECT_TRUE(MessageNames(primed, c.param));
    EXPECT_EQ(dims, &marker);
    EXPECT_EQ(n, 42u);
    EXPECT_EQ(offset, kSentinel);
    EXPECT_EQ(dtype, ACL_DT_UNDEFINED);
    EXPECT_EQ(format, ACL_FORMAT_UNDEFINED);
  }
}

// ---- tensor lists, int arrays, scalars --------------------------------------------------

TEST(TensorList, OwnsItsTensors) {
  float a[6] = {}, b[4] = {};
  const int64_t sa[2] = {2, 3}, sb[1] = {4};
  const aclTensor* tensors[2] = {
      aclCreateTensor(sa, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, sa, 2, a),
      aclCreateTensor(sb, 1, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, sb, 1, b)};
  aclTensorList* list = aclCreateTensorList(tensors, 2);
  ASSERT_NE(list, nullptr);
  ASSERT_EQ(list->tensors.size(), 2u);
  EXPECT_EQ(list->tensors[1], tensors[1]);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);  // frees both tensors (ASan: no leak)

  aclTensorList* empty = aclCreateTensorList(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclDestroyTensorList(empty), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyTensorList(nullptr), ACLNN_SUCCESS);
}

TEST(TensorList, RefusesNullsAndRepeatsAndTakesNothingOver) {
  float a[6] = {};
  TensorPtr t = MakeDense(a, ACL_FLOAT, {2, 3});
  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateTensorList(nullptr, 2), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclCreateTensorList"));

  const aclTensor* with_null[2] = {t.get(), nullptr};
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateTensorList(with_null, 2), nullptr);
  EXPECT_TRUE(MessageNames(primed, "value[1]"));

  const aclTensor* repeated[2] = {t.get(), t.get()};
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateTensorList(repeated, 2), nullptr);
  EXPECT_TRUE(MessageNames(primed, "already in the list"));
  // t is still the caller's: TensorPtr destroys it once.
}

TEST(IntArray, CopiesItsValues) {
  int64_t values[3] = {4, -1, 7};
  aclIntArray* array = aclCreateIntArray(values, 3);
  ASSERT_NE(array, nullptr);
  values[0] = 0;
  EXPECT_EQ(array->values, (std::vector<int64_t>{4, -1, 7}));
  EXPECT_EQ(aclDestroyIntArray(array), ACLNN_SUCCESS);

  aclIntArray* empty = aclCreateIntArray(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_TRUE(empty->values.empty());
  EXPECT_EQ(aclDestroyIntArray(empty), ACLNN_SUCCESS);

  const std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateIntArray(nullptr, 2), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclCreateIntArray"));
}

// The bool and float arrays (the norms' outputMask and its kin): copies, sizes, refusals.
TEST(BoolAndFloatArrays, CopyTheirValuesAndReportTheirSize) {
  bool mask[3] = {true, false, true};
  aclBoolArray* b = aclCreateBoolArray(mask, 3);
  ASSERT_NE(b, nullptr);
  mask[0] = false;
  EXPECT_EQ(b->values, (std::vector<bool>{true, false, true}));
  float values[2] = {0.5f, -2.0f};
  aclFloatArray* f = aclCreateFloatArray(values, 2);
  ASSERT_NE(f, nullptr);
  values[1] = 0.0f;
  EXPECT_EQ(f->values, (std::vector<float>{0.5f, -2.0f}));
  int64_t ints[4] = {1, 2, 3, 4};
  aclIntArray* i = aclCreateIntArray(ints, 4);
  uint64_t size = 99;
  EXPECT_EQ(aclGetBoolArraySize(b, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 3u);
  EXPECT_EQ(aclGetFloatArraySize(f, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 2u);
  EXPECT_EQ(aclGetIntArraySize(i, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 4u);
  // Null arguments: 161001 naming them, nothing written.
  size = 99;
  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclGetBoolArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_TRUE(MessageNames(primed, "aclGetBoolArraySize"));
  EXPECT_EQ(aclGetFloatArraySize(f, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetIntArraySize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(size, 99u);
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateBoolArray(nullptr, 2), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclCreateBoolArray"));
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateFloatArray(nullptr, 1), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclCreateFloatArray"));
  aclBoolArray* empty = aclCreateBoolArray(nullptr, 0);
  ASSERT_NE(empty, nullptr);
  EXPECT_EQ(aclGetBoolArraySize(empty, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 0u);
  EXPECT_EQ(aclDestroyBoolArray(empty), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(b), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(f), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyIntArray(i), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyBoolArray(nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(aclDestroyFloatArray(nullptr), ACLNN_SUCCESS);
}

TEST(TensorList, ReportsItsSize) {
  float a[6] = {};
  const int64_t sa[2] = {2, 3};
  const aclTensor* tensors[1] = {
      aclCreateTensor(sa, 2, ACL_FLOAT, nullptr, 0, ACL_FORMAT_ND, sa, 2, a)};
  aclTensorList* list = aclCreateTensorList(tensors, 1);
  ASSERT_NE(list, nullptr);
  uint64_t size = 0;
  EXPECT_EQ(aclGetTensorListSize(list, &size), ACLNN_SUCCESS);
  EXPECT_EQ(size, 1u);
  EXPECT_EQ(aclGetTensorListSize(nullptr, &size), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclGetTensorListSize(list, nullptr), ACLNN_ERR_PARAM_NULLPTR);
  EXPECT_EQ(aclDestroyTensorList(list), ACLNN_SUCCESS);
}

TEST(Scalar, CopiesOneValueOfItsType) {
  float f = 0.25f;
  double d = -3.5;
  int64_t i = -9;
  uint16_t bf16 = 0x3F80;  // 1.0
  struct Case {
    void* value;
    aclDataType dtype;
    size_t bytes;
  };
  for (const Case& c : {Case{&f, ACL_FLOAT, 4}, Case{&d, ACL_DOUBLE, 8}, Case{&i, ACL_INT64, 8},
                        Case{&bf16, ACL_BF16, 2}}) {
    aclScalar* s = aclCreateScalar(c.value, c.dtype);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->dtype, c.dtype);
    EXPECT_EQ(std::memcmp(s->bytes, c.value, c.bytes), 0);
    EXPECT_EQ(aclDestroyScalar(s), ACLNN_SUCCESS);
  }
  EXPECT_EQ(aclDestroyScalar(nullptr), ACLNN_SUCCESS);
}

TEST(Scalar, RefusesANullValueAndTypesWithoutASize) {
  float f = 1.0f;
  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclCreateScalar(nullptr, ACL_FLOAT), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclCreateScalar: value is null"));
  for (aclDataType dtype :
       {ACL_STRING, ACL_DT_UNDEFINED, ACL_INT4, static_cast<aclDataType>(1000)}) {
    primed = PrimeErrorMessage();
    EXPECT_EQ(aclCreateScalar(&f, dtype), nullptr);
    EXPECT_TRUE(MessageNames(primed, "dataType"));
  }
}

// ---- aclFloat16ToFloat / aclFloatToFloat16 ---------------------------------------------

// Every binary16 pattern against its value decoded in double (sign, exponent, fraction),
// and back: the same bits (NaN: a NaN).
TEST(Float16Conversions, EveryPatternDecodesExactlyAndRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint32_t exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    const float got = aclFloat16ToFloat(static_cast<aclFloat16>(h));
    if (exp == 0x1F) {
      if (frac != 0) {
        EXPECT_TRUE(std::isnan(got)) << h;
      } else {
        EXPECT_EQ(got, static_cast<float>(sign * HUGE_VAL)) << h;
      }
      continue;
    }
    const double value = exp == 0 ? sign * std::ldexp(frac, -24)
                                  : sign * std::ldexp(1024.0 + frac, static_cast<int>(exp) - 25);
    ASSERT_EQ(static_cast<double>(got), value) << h;
    ASSERT_EQ(aclFloatToFloat16(got), h) << h;
  }
}

// float to binary16 rounds to nearest, ties to even, and overflows to infinity.
TEST(Float16Conversions, FloatRoundsToNearestEven) {
  EXPECT_EQ(aclFloatToFloat16(1.0f + 0x1p-11f), 0x3C00);             // tie: to 1.0 (even)
  EXPECT_EQ(aclFloatToFloat16(1.0f + 3 * 0x1p-11f), 0x3C02);         // tie: up to even
  EXPECT_EQ(aclFloatToFloat16(1.0f + 0x1p-11f + 0x1p-20f), 0x3C01);  // above the tie
  EXPECT_EQ(aclFloatToFloat16(65520.0f), 0x7C00);                    // past the largest: inf
  EXPECT_EQ(aclFloatToFloat16(65519.0f), 0x7BFF);
  EXPECT_EQ(aclFloatToFloat16(0x1p-25f), 0x0000);  // half the least: to 0
  EXPECT_EQ(aclFloatToFloat16(-0x1p-24f), 0x8001);
}

// ---- aclrtGetSocName ---------------------------------------------------------------------

// Sets HOSTNN_PLATFORM for one scope and restores what was there.
class ScopedPlatform {
 public:
  explicit ScopedPlatform(const char* value) {
    const char* old = std::getenv("HOSTNN_PLATFORM");
    had_ = old != nullptr;
    if (had_) old_ = old;
    if (value == nullptr) {
      unsetenv("HOSTNN_PLATFORM");
    } else {
      setenv("HOSTNN_PLATFORM", value, 1);
    }
  }
  ~ScopedPlatform() {
    if (had_) {
      setenv("HOSTNN_PLATFORM", old_.c_str(), 1);
    } else {
      unsetenv("HOSTNN_PLATFORM");
    }
  }

 private:
  bool had_ = false;
  std::string old_;
};

TEST(SocName, NamesTheSocOfTheSelectedProfile) {
  struct Case {
    const char* platform;
    const char* soc;
  };
  for (const Case& c :
       {Case{nullptr, "hostnn-host"}, Case{"host", "hostnn-host"}, Case{"atlas-a2", "Ascend910B1"},
        Case{"atlas-a2-40", "Ascend910B3"}, Case{"ascend950", "Ascend950"}}) {
    SCOPED_TRACE(c.platform == nullptr ? "unset" : c.platform);
    ScopedPlatform platform(c.platform);
    const char* name = aclrtGetSocName();
    ASSERT_NE(name, nullptr) << aclGetRecentErrMsg();
    EXPECT_STREQ(name, c.soc);
    EXPECT_EQ(aclrtGetSocName(), name);  // the same string each time
  }
}

TEST(SocName, AnUnknownProfileGivesNullAndAMessage) {
  ScopedPlatform platform("no-such-npu");
  const std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_TRUE(MessageNames(primed, "aclrtGetSocName"));
  EXPECT_TRUE(MessageNames(primed, "no-such-npu"));
}

// ---- host memory and aclrtMemset ---------------------------------------------------------

TEST(HostMemory, MallocHostGivesAlignedBlocksThatOnlyFreeHostTakesBack) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 100), ACL_SUCCESS);
  ASSERT_NE(host, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(host) % 64, 0u);
  std::memset(host, 1, 100);

  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtFree(host), ACL_ERROR_INVALID_PARAM);  // not aclrtMalloc's: still live
  EXPECT_TRUE(MessageNames(primed, "aclrtFreeHost"));
  EXPECT_EQ(static_cast<unsigned char*>(host)[99], 1);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtFreeHost(host), ACL_ERROR_INVALID_PARAM);  // already freed
  EXPECT_TRUE(MessageNames(primed, "aclrtFreeHost"));

  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtFreeHost(dev), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(MessageNames(primed, "aclrtFree"));
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST(HostMemory, RefusesNullsAndZeroSizes) {
  void* host = reinterpret_cast<void*>(0x1);
  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtMallocHost(nullptr, 16), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(MessageNames(primed, "hostPtr"));
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtMallocHost(&host, 0), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(MessageNames(primed, "aclrtMallocHost"));
  EXPECT_EQ(host, reinterpret_cast<void*>(0x1));
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(MessageNames(primed, "aclrtFreeHost"));
}

TEST(HostMemory, MemsetFillsAHostBlockAndRefusesOverruns) {
  void* host = nullptr;
  ASSERT_EQ(aclrtMallocHost(&host, 32), ACL_SUCCESS);
  auto* bytes = static_cast<unsigned char*>(host);
  EXPECT_EQ(aclrtMemset(host, 32, 0x1AB, 32), ACL_SUCCESS);  // the low byte, as memset
  EXPECT_EQ(bytes[0], 0xAB);
  EXPECT_EQ(bytes[31], 0xAB);
  std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtMemset(host, 16, 0, 32), ACL_ERROR_INVALID_PARAM);  // count > maxCount
  EXPECT_TRUE(MessageNames(primed, "aclrtMemset"));
  primed = PrimeErrorMessage();
  EXPECT_EQ(aclrtMemset(bytes + 16, 32, 0, 32), ACL_ERROR_INVALID_PARAM);  // past the block
  EXPECT_TRUE(MessageNames(primed, "aclrtMemset"));
  for (int i = 0; i < 32; ++i) EXPECT_EQ(bytes[i], 0xAB);
  EXPECT_EQ(aclrtFreeHost(host), ACL_SUCCESS);
}

// ---- aclrtMemcpyAsync ----------------------------------------------------------------------

TEST(MemcpyAsync, CopiesInStreamOrder) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float> a(4096), b(4096, 0.0f), c(4096, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>(i);
  const size_t bytes = a.size() * sizeof(float);
  // b <- a, then c <- b: c holds a only if the copies ran in order.
  ASSERT_EQ(aclrtMemcpyAsync(b.data(), bytes, a.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtMemcpyAsync(c.data(), bytes, b.data(), bytes, ACL_MEMCPY_DEVICE_TO_HOST, stream),
            ACL_SUCCESS);
  ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_EQ(c, a);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(MemcpyAsync, ANullStreamCopiesAtOnce) {
  const int src[3] = {1, 2, 3};
  int dst[3] = {};
  ASSERT_EQ(aclrtMemcpyAsync(dst, sizeof(dst), src, sizeof(src), ACL_MEMCPY_HOST_TO_HOST, nullptr),
            ACL_SUCCESS);
  EXPECT_EQ(dst[2], 3);
}

TEST(MemcpyAsync, RefusalsQueueNothing) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::memset(dev, 0x55, 16);
  const char src[64] = {1};
  int not_a_stream = 0;
  struct Case {
    const char* what;
    void* dst;
    size_t dest_max;
    const void* src;
    size_t count;
    aclrtMemcpyKind kind;
    aclrtStream stream;
  };
  const Case kCases[] = {
      {"dst", nullptr, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream},
      {"src", dev, 16, nullptr, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream},
      {"kind", dev, 16, src, 16, static_cast<aclrtMemcpyKind>(9), stream},
      {"destMax", dev, 8, src, 16, ACL_MEMCPY_HOST_TO_DEVICE, stream},
      {"past the end", dev, 64, src, 64, ACL_MEMCPY_HOST_TO_DEVICE, stream},
      {"stream", dev, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE, &not_a_stream},
  };
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.what);
    const std::string primed = PrimeErrorMessage();
    EXPECT_NE(aclrtMemcpyAsync(c.dst, c.dest_max, c.src, c.count, c.kind, c.stream), ACL_SUCCESS);
    EXPECT_TRUE(MessageNames(primed, "aclrtMemcpyAsync"));
    EXPECT_TRUE(MessageNames(primed, c.what));
  }
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<unsigned char*>(dev)[i], 0x55);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
