// Threshold's dtypes as CANN's op_api takes them on Atlas A2 (rule ExactIntThenCast): an
// INT16 self (ops-nn's l2_test_self_int16) is cast to INT32, the threshold and value are
// converted to INT32 (truncated, saturated), `self > threshold ? self : value` is computed
// exactly and the result cast to out's dtype; out may be any dtype self casts to (CanCast:
// an integer to any integer or float, wrapping or rounding once; a float to a float,
// rounding once). Checked through the C API on every SIMD target against a reference that
// does the same in int64 and double; DOUBLE and complex outs; then the refusals (a float
// self into an integer out, BOOL), nothing written.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_threshold.h"
#include "tests/util/acl_test_util.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

// Both phases (selfRef in place when out is null); the status of the first that fails.
aclnnStatus RunThreshold(aclTensor* self, double threshold, double value, aclTensor* out) {
  aclScalar* t = aclCreateScalar(&threshold, ACL_DOUBLE);
  aclScalar* v = aclCreateScalar(&value, ACL_DOUBLE);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  aclnnStatus st = out == nullptr
                       ? aclnnInplaceThresholdGetWorkspaceSize(self, t, v, &ws, &exec)
                       : aclnnThresholdGetWorkspaceSize(self, t, v, out, &ws, &exec);
  if (st == ACLNN_SUCCESS) {
    std::vector<uint64_t> workspace(static_cast<size_t>((ws + 7) / 8));
    st = (out == nullptr ? aclnnInplaceThreshold : aclnnThreshold)(
        ws ? workspace.data() : nullptr, ws, exec, nullptr);
  }
  aclDestroyScalar(t);
  aclDestroyScalar(v);
  return st;
}

bool IsIntDType(DType d) {
  return d == DType::kInt8 || d == DType::kUInt8 || d == DType::kInt16 || d == DType::kInt32 ||
         d == DType::kInt64;
}

// v truncated toward zero and saturated to INT32, as op_api converts a scalar for the INT32
// computation of an INT16 self.
int64_t ToInt32(double v) {
  if (std::isnan(v)) return 0;
  return static_cast<int64_t>(std::fmin(std::fmax(std::trunc(v), -2147483648.0), 2147483647.0));
}

// r's low bits as the integer dtype d (a two's complement store), as CANN's Cast wraps.
double Wrap(int64_t r, DType d) {
  switch (d) {
    case DType::kInt8: return static_cast<int8_t>(static_cast<uint8_t>(r));
    case DType::kUInt8: return static_cast<uint8_t>(r);
    case DType::kInt16: return static_cast<int16_t>(static_cast<uint16_t>(r));
    case DType::kInt32: return static_cast<int32_t>(static_cast<uint32_t>(r));
    default: return static_cast<double>(r);
  }
}

// The INT16 self's result in out's dtype: computed in int64 from INT32 scalars, then
// wrapped to an integer out or rounded once to a float one (RoundTo: the test's own RNE).
double Int16Ref(int64_t x, double threshold, double value, DType out) {
  const int64_t r = x > ToInt32(threshold) ? x : ToInt32(value);
  return IsIntDType(out) ? Wrap(r, out) : RoundTo(out, static_cast<double>(r));
}

std::vector<int64_t> Int16Values(std::mt19937_64& rng) {
  std::vector<int64_t> v = {-32768, -32767, -40, -5, -2, -1, 0, 1, 2, 3, 4, 5, 6, 100, 32766, 32767};
  std::uniform_int_distribution<int> any(-32768, 32767);
  for (int i = 0; i < 61; ++i) v.push_back(any(rng));
  return v;
}

// ops-nn's l2_test_self_int16 (threshold 4.0, value 5) and thresholds and values past
// INT16's range, whose INT32 results wrap in an INT16 out.
const double kParams[][2] = {{4.0, 5.0},        {0.0, 0.0},        {-2.7, 7.0},
                             {1.5, -40000.0},   {40000.0, 40000.0}, {-40000.0, -1.0},
                             {100.9, 100000.0}, {-32768.5, 3.0}};

TEST(ThresholdInt16, IsComputedInInt32AndCastToOutOnEveryTarget) {
  std::mt19937_64 rng(0x7E5D);
  const std::vector<int64_t> xs = Int16Values(rng);
  const int64_t n = static_cast<int64_t>(xs.size());
  ForEachTarget([&](int64_t) {
    for (DType out_t : {DType::kInt16, DType::kInt32, DType::kInt8, DType::kInt64, DType::kUInt8,
                        DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      for (const auto& p : kParams) {
        SCOPED_TRACE(std::string("out ") + DTypeName(out_t) + ", threshold " + Num(p[0]) +
                     ", value " + Num(p[1]));
        Buffer bx(DType::kInt16, n), bout(out_t, n);
        for (int64_t i = 0; i < n; ++i) bx.Set(i, static_cast<double>(xs[i]));
        bout.FillBytes(0xA5);
        TensorPtr tx = MakeDense(bx.data(), ACL_INT16, {n});
        TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), {n});
        ASSERT_EQ(RunThreshold(tx.get(), p[0], p[1], tout.get()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < n; ++i) {
          EXPECT_EQ(bout.Get(i), Int16Ref(xs[i], p[0], p[1], out_t)) << "self " << xs[i];
        }
        EXPECT_TRUE(bout.GuardsIntact());
      }
    }
  });
}

// In place (InplaceThreshold on an INT16 selfRef), and a transposed self into a strided out.
TEST(ThresholdInt16, InPlaceAndStrided) {
  std::mt19937_64 rng(0x7E5E);
  const std::vector<int64_t> xs = Int16Values(rng);
  const int64_t n = static_cast<int64_t>(xs.size());
  Buffer bx(DType::kInt16, n);
  for (int64_t i = 0; i < n; ++i) bx.Set(i, static_cast<double>(xs[i]));
  TensorPtr tx = MakeDense(bx.data(), ACL_INT16, {n});
  ASSERT_EQ(RunThreshold(tx.get(), 1.5, -40000.0, nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int64_t i = 0; i < n; ++i) {
    EXPECT_EQ(bx.Get(i), Int16Ref(xs[i], 1.5, -40000.0, DType::kInt16)) << "self " << xs[i];
  }
  // self [4, 3] transposed over a [3, 4] storage; out every other element of a [24] one.
  Buffer sx(DType::kInt16, 12), sout(DType::kInt32, 24);
  for (int64_t i = 0; i < 12; ++i) sx.Set(i, static_cast<double>(xs[static_cast<size_t>(i)]));
  sout.FillBytes(0xA5);
  TensorPtr ts = MakeTensor(sx.data(), ACL_INT16, {4, 3}, {1, 4}, 0, {3, 4});
  TensorPtr to = MakeTensor(sout.data(), ACL_INT32, {4, 3}, {6, 2}, 0, {24});
  ASSERT_EQ(RunThreshold(ts.get(), 4.0, 5.0, to.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  for (int64_t r = 0; r < 4; ++r) {
    for (int64_t c = 0; c < 3; ++c) {
      const int64_t x = static_cast<int64_t>(sx.Get(c * 4 + r));
      EXPECT_EQ(sout.Get(r * 6 + c * 2), Int16Ref(x, 4.0, 5.0, DType::kInt32))
          << "(" << r << ", " << c << ")";
    }
  }
}

// Another self dtype into another out: the result in self's dtype (computed and checked by
// the same-dtype call), then cast as CANN's Cast casts it.
TEST(ThresholdCast, OutIsTheSelfDTypeResultCast) {
  const struct {
    DType self, out;
  } kPairs[] = {{DType::kFloat32, DType::kFloat16},  {DType::kFloat32, DType::kBFloat16},
                {DType::kFloat16, DType::kFloat32},  {DType::kBFloat16, DType::kFloat16},
                {DType::kInt32, DType::kFloat32},    {DType::kInt32, DType::kInt8},
                {DType::kInt8, DType::kInt32},       {DType::kUInt8, DType::kInt16},
                {DType::kInt64, DType::kFloat16},    {DType::kInt16, DType::kFloat32}};
  std::mt19937_64 rng(0x7E5F);
  const int64_t n = 97;
  for (const auto& pr : kPairs) {
    SCOPED_TRACE(std::string(DTypeName(pr.self)) + " -> " + DTypeName(pr.out));
    Buffer bx(pr.self, n), same(pr.self, n), bout(pr.out, n);
    const bool is_int = IsIntDType(pr.self);
    const double lo = pr.self == DType::kUInt8 ? 0 : is_int ? -120 : -3, hi = is_int ? 120 : 3;
    for (int64_t i = 0; i < n; ++i) {
      bx.Set(i, is_int ? std::floor(std::uniform_real_distribution<double>(lo, hi)(rng))
                       : RandomValue(pr.self, rng, lo, hi));
    }
    if (pr.self == DType::kInt32) bx.Set(0, 16777217.0);  // rounds in a FLOAT out
    if (pr.self == DType::kInt64) bx.Set(0, 70001.0);     // past FLOAT16's range: inf
    TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(pr.self), {n});
    TensorPtr ts = MakeDense(same.data(), static_cast<aclDataType>(pr.self), {n});
    TensorPtr to = MakeDense(bout.data(), static_cast<aclDataType>(pr.out), {n});
    ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, ts.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, to.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (int64_t i = 0; i < n; ++i) {
      const double r = same.Get(i);
      EXPECT_EQ(same.Get(i), bx.Get(i) > (is_int ? 0.0 : 0.5) ? bx.Get(i) : -7.0)
          << "self " << Num(bx.Get(i));
      const double want =
          IsIntDType(pr.out) ? Wrap(static_cast<int64_t>(r), pr.out) : RoundTo(pr.out, r);
      EXPECT_EQ(bout.Get(i), want) << "self " << Num(bx.Get(i));
    }
  }
}

// An integer self into an unsigned out of 16 to 64 bits (CanCast takes every integer to
// every integer; no input list holds those dtypes): the self-dtype result's low bits, as
// CANN's Cast wraps; dense and strided.
TEST(ThresholdCast, WideUnsignedOutsKeepTheLowBits) {
  const DType selfs[] = {DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32,
                         DType::kInt64};
  std::mt19937_64 rng(0x7E61);
  const int64_t n = 53;
  for (DType self_t : selfs) {
    for (DType out_t : {DType::kUInt16, DType::kUInt32, DType::kUInt64}) {
      SCOPED_TRACE(std::string(DTypeName(self_t)) + " -> " + DTypeName(out_t));
      Buffer bx(self_t, n), same(self_t, n), bout(out_t, 2 * n);
      const double lo = self_t == DType::kUInt8 ? 0 : -120;
      for (int64_t i = 0; i < n; ++i) {
        bx.Set(i, std::floor(std::uniform_real_distribution<double>(lo, 120)(rng)));
      }
      bout.FillBytes(0xA5);
      TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(self_t), {n});
      TensorPtr ts = MakeDense(same.data(), static_cast<aclDataType>(self_t), {n});
      // out: every other element of its storage.
      TensorPtr to = MakeTensor(bout.data(), static_cast<aclDataType>(out_t), {n}, {2}, 0, {2 * n});
      ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, ts.get()), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, to.get()), ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      const size_t es = DTypeSize(out_t);
      for (int64_t i = 0; i < n; ++i) {
        const uint64_t want = static_cast<uint64_t>(static_cast<int64_t>(same.Get(i)));
        uint64_t got = 0, skipped = 0;
        std::memcpy(&got, static_cast<const char*>(bout.data()) + 2 * i * es, es);
        std::memcpy(&skipped, static_cast<const char*>(bout.data()) + (2 * i + 1) * es, es);
        const uint64_t mask = es == 8 ? ~0ull : (1ull << (8 * es)) - 1;
        EXPECT_EQ(got, want & mask) << "self " << Num(bx.Get(i));
        EXPECT_EQ(skipped, 0xA5A5A5A5A5A5A5A5ull & mask) << "element " << i << " untouched";
      }
    }
  }
}

// A DOUBLE or complex out (op_api checks out only by CanCast from self, and every dtype
// casts to those): the self-dtype result rounded once from itself, an integer never
// through FLOAT (an INT32 16777217 stays 16777217 in a DOUBLE out, 16777216 in a
// COMPLEX64's real part), the imaginary part +0; dense and strided.
TEST(ThresholdCast, DoubleAndComplexOutsTakeTheResultRoundedOnce) {
  const DType selfs[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kInt8,
                         DType::kUInt8,   DType::kInt16,   DType::kInt32,    DType::kInt64};
  std::mt19937_64 rng(0x7E60);
  const int64_t n = 61;
  for (DType self_t : selfs) {
    Buffer bx(self_t, n), same(self_t, n);
    const bool is_int = IsIntDType(self_t);
    const double lo = self_t == DType::kUInt8 ? 0 : is_int ? -120 : -3, hi = is_int ? 120 : 3;
    for (int64_t i = 0; i < n; ++i) {
      bx.Set(i, is_int ? std::floor(std::uniform_real_distribution<double>(lo, hi)(rng))
                       : RandomValue(self_t, rng, lo, hi));
    }
    if (self_t == DType::kInt32) bx.Set(0, 16777217.0);
    if (self_t == DType::kInt64) bx.Set(0, 9007199254740993.0);  // 2^53 + 1: rounds in DOUBLE
    TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(self_t), {n});
    TensorPtr ts = MakeDense(same.data(), static_cast<aclDataType>(self_t), {n});
    ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, ts.get()), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    for (DType out_t : {DType::kFloat64, DType::kComplex64, DType::kComplex128}) {
      for (bool strided : {false, true}) {
        SCOPED_TRACE(std::string(DTypeName(self_t)) + " -> " + DTypeName(out_t) +
                     (strided ? ", strided" : ""));
        const size_t es = DTypeSize(out_t);
        std::vector<uint8_t> out(static_cast<size_t>(2 * n) * es, 0xA5);
        const std::vector<int64_t> stride = {strided ? 2 : 1};
        TensorPtr to =
            MakeTensor(out.data(), static_cast<aclDataType>(out_t), {n}, stride, 0, {2 * n});
        ASSERT_EQ(RunThreshold(tx.get(), 0.5, -7.0, to.get()), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        for (int64_t i = 0; i < n; ++i) {
          // The self-dtype result, exactly (an INT64 read from its bits, not through double).
          int64_t r_int = 0;
          if (self_t == DType::kInt64)
            std::memcpy(&r_int, static_cast<const char*>(same.data()) + i * 8, 8);
          const double r = same.Get(i);
          const char* at = reinterpret_cast<const char*>(out.data()) + (strided ? 2 * i : i) * es;
          double re = 0, im = 0;
          if (out_t == DType::kComplex64) {
            float v[2];
            std::memcpy(v, at, 8);
            re = v[0], im = v[1];
            const float want =
                self_t == DType::kInt64 ? static_cast<float>(r_int) : static_cast<float>(r);
            EXPECT_EQ(re, static_cast<double>(want)) << "element " << i;
          } else {
            double v[2] = {0, 0};
            std::memcpy(v, at, out_t == DType::kFloat64 ? 8 : 16);
            re = v[0], im = v[1];
            const double want = self_t == DType::kInt64 ? static_cast<double>(r_int) : r;
            EXPECT_EQ(re, want) << "element " << i;
          }
          EXPECT_TRUE(im == 0.0 && !std::signbit(im)) << "element " << i;
        }
        if (self_t == DType::kInt32 && out_t == DType::kFloat64) {
          double v0;
          std::memcpy(&v0, out.data(), 8);
          EXPECT_EQ(v0, 16777217.0);
        }
      }
    }
  }
}

// 161002 naming `param`, nothing written.
void ExpectRefused(DType self_t, DType out_t, const std::string& param) {
  SCOPED_TRACE(std::string(DTypeName(self_t)) + " -> " + DTypeName(out_t));
  Buffer bx(self_t, 6), bout(out_t, 6);
  bout.FillBytes(0xA5);
  const std::vector<uint8_t> before = bout.Snapshot();
  TensorPtr tx = MakeDense(bx.data(), static_cast<aclDataType>(self_t), {2, 3});
  TensorPtr tout = MakeDense(bout.data(), static_cast<aclDataType>(out_t), {2, 3});
  EXPECT_EQ(RunThreshold(tx.get(), 0.0, 1.0, tout.get()), ACLNN_ERR_PARAM_INVALID);
  const std::string msg = aclGetRecentErrMsg();
  EXPECT_TRUE(NamesParam(msg, param)) << msg;
  EXPECT_EQ(bout.Snapshot(), before);
}

// CanCast refuses a float self into an integer out, and anything but BOOL into a BOOL out;
// UINT32 and BOOL are in no list of self (Atlas A2's list has no BOOL).
TEST(ThresholdCast, RefusalsAsCANNsOpApi) {
  ExpectRefused(DType::kFloat32, DType::kInt32, "out");
  ExpectRefused(DType::kFloat32, DType::kUInt16, "out");
  ExpectRefused(DType::kBFloat16, DType::kUInt64, "out");
  ExpectRefused(DType::kFloat16, DType::kInt8, "out");
  ExpectRefused(DType::kBFloat16, DType::kInt16, "out");
  ExpectRefused(DType::kBool, DType::kBool, "self");
  ExpectRefused(DType::kUInt32, DType::kUInt32, "self");
  ExpectRefused(DType::kInt16, DType::kBool, "out");
}

}  // namespace
}  // namespace test
}  // namespace hostnn
