// The dtype rules that cast integer inputs to a float before the kernel:
// - kPromoteOutAnyFloat (GeluBackward): which input pairs it takes (those whose PyTorch
//   promotion is FLOAT, FLOAT16 or BFLOAT16), that a refused pair writes nothing, and that
//   an integer input is cast to the promoted dtype first (one rounding to nearest even);
// - kIntToFloatThenCast (Erfinv): an integer or BOOL self cast to FLOAT, into any compute
//   dtype out.
// Values are checked against the double references on the cast inputs.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/capi_ops.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

using test::TestTensor;

const DType kAll[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64,
                      DType::kBool,    DType::kInt8,    DType::kUInt8,    DType::kInt16,
                      DType::kInt32,   DType::kInt64};
const DType kInts[] = {DType::kBool,  DType::kInt8,  DType::kUInt8,
                       DType::kInt16, DType::kInt32, DType::kInt64};
const DType kCompute[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

std::vector<Op> PromotingOps() { return test::OpsWhereRule(PromotesInputs); }

// Written out, independently of PromoteType: the pair's dtype by PyTorch's table.
DType Expected(DType a, DType b) {
  auto rank = [](DType d) {
    switch (d) {
      case DType::kBool:
        return 1;
      case DType::kInt8:
      case DType::kUInt8:
        return 2;
      case DType::kInt16:
        return 3;
      case DType::kInt32:
        return 4;
      case DType::kInt64:
        return 5;
      case DType::kFloat16:
      case DType::kBFloat16:
        return 6;
      case DType::kFloat32:
        return 7;
      default:
        return 8;  // DOUBLE
    }
  };
  if (a == b) return a;
  if ((a == DType::kInt8 && b == DType::kUInt8) || (a == DType::kUInt8 && b == DType::kInt8))
    return DType::kInt16;
  if ((a == DType::kFloat16 && b == DType::kBFloat16) ||
      (a == DType::kBFloat16 && b == DType::kFloat16))
    return DType::kFloat32;
  return rank(a) >= rank(b) ? a : b;
}

TEST(PromoteType, EveryPairOfTheTable) {
  for (DType a : kAll) {
    for (DType b : kAll) {
      EXPECT_EQ(PromoteType(a, b), Expected(a, b)) << DTypeName(a) << ", " << DTypeName(b);
    }
  }
  EXPECT_EQ(PromoteType(DType::kUInt16, DType::kFloat32), DType::kUndefined);
  EXPECT_EQ(PromoteType(DType::kUInt16, DType::kComplex64), DType::kUndefined);
}

// A complex beats a real: the complex dtype over the promotion of the real parts, as
// PyTorch's and CANN's tables (COMPLEX64 with DOUBLE gives COMPLEX128).
TEST(PromoteType, ComplexOverThePromotionOfTheParts) {
  const DType c64 = DType::kComplex64, c128 = DType::kComplex128;
  for (DType a : kAll) {
    const bool wide = a == DType::kFloat64;
    EXPECT_EQ(PromoteType(a, c64), wide ? c128 : c64) << DTypeName(a);
    EXPECT_EQ(PromoteType(c64, a), wide ? c128 : c64) << DTypeName(a);
    EXPECT_EQ(PromoteType(a, c128), c128) << DTypeName(a);
  }
  EXPECT_EQ(PromoteType(c64, c128), c128);
  EXPECT_EQ(PromoteType(c64, c64), c64);
}

// CanCast, as CANN's: a float never to an integer or BOOL, an integer never to BOOL, a
// complex never to a real dtype; everything else may.
TEST(CanCast, FollowsTheKindOrder) {
  const DType kFloats[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16, DType::kFloat64};
  const DType kInts[] = {DType::kInt8, DType::kUInt8, DType::kInt16, DType::kInt32, DType::kInt64};
  for (DType f : kFloats) {
    for (DType g : kFloats) EXPECT_TRUE(CanCast(f, g)) << DTypeName(f) << " -> " << DTypeName(g);
    for (DType i : kInts) EXPECT_FALSE(CanCast(f, i)) << DTypeName(f) << " -> " << DTypeName(i);
    EXPECT_FALSE(CanCast(f, DType::kBool)) << DTypeName(f);
    EXPECT_TRUE(CanCast(f, DType::kComplex64)) << DTypeName(f);
    EXPECT_FALSE(CanCast(DType::kComplex128, f)) << DTypeName(f);
  }
  for (DType i : kInts) {
    for (DType j : kInts) EXPECT_TRUE(CanCast(i, j)) << DTypeName(i) << " -> " << DTypeName(j);
    for (DType f : kFloats) EXPECT_TRUE(CanCast(i, f)) << DTypeName(i) << " -> " << DTypeName(f);
    EXPECT_FALSE(CanCast(i, DType::kBool)) << DTypeName(i);
    EXPECT_TRUE(CanCast(DType::kBool, i)) << DTypeName(i);
  }
  EXPECT_TRUE(CanCast(DType::kBool, DType::kBool));
  EXPECT_TRUE(CanCast(DType::kComplex64, DType::kComplex128));
}

// Every pair of input dtypes into a FLOAT out: taken where the promotion is a compute
// dtype; otherwise 161002 naming the pair, and out untouched.
TEST(PromotingOps, TakeThePairsThatPromoteToAComputeDType) {
  ASSERT_FALSE(PromotingOps().empty());
  for (Op op : PromotingOps()) {
    for (DType a : kAll) {
      for (DType b : kAll) {
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(a) + ", " + DTypeName(b));
        TestTensor dy = TestTensor::Dense(a, {3, 4}), x = TestTensor::Dense(b, {3, 4});
        TestTensor out = TestTensor::Dense(DType::kFloat32, {3, 4});
        dy.storage().Fill(1);
        x.storage().Fill(0);
        out.storage().FillBytes(0x5A);
        const std::vector<uint8_t> before = out.storage().Snapshot();
        const test::RunResult r = test::RunOp(test::MakeArgs(op, dy, x, out));
        const bool taken = a != DType::kFloat64 && b != DType::kFloat64 &&
                           IsComputeType(Expected(a, b));
        if (taken) {
          EXPECT_TRUE(r.status.ok()) << r.status.message();
          continue;
        }
        EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
        EXPECT_EQ(out.storage().Snapshot(), before) << "written on failure";
        if (a != DType::kFloat64 && b != DType::kFloat64) {
          EXPECT_NE(r.status.message().find(std::string(" promote to ") +
                                            DTypeName(Expected(a, b))),
                    std::string::npos)
              << r.status.message();
        }
      }
    }
  }
}

// Integer values of each dtype, with the roundings that tell one rounding to nearest even
// from truncation or a double rounding: 2^24 + 1 (FLOAT), 2049 and 65520 (FLOAT16), 257
// (BFLOAT16), and each type's extremes.
std::vector<double> IntValues(DType t) {
  switch (t) {
    case DType::kBool:
      return {0, 1};
    case DType::kInt8:
      return {0, 1, -1, 5, -128, 127, -77};
    case DType::kUInt8:
      return {0, 1, 2, 255, 129, 200};
    case DType::kInt16:
      return {0, -1, 257, 259, 2049, 2051, -2049, 32767, -32768};
    case DType::kInt32:
      return {0, 3, -7, 257, 2049, 65504, 65519, 65520, -65520, 16777217, 16777219,
              2147483647, -2147483648.0};
    default:  // INT64: values whose double is exact, beyond 2^53 too
      return {0, -3, 16777217, 9007199254740993.0 - 1, 4611686018427387904.0,
              -9223372036854775808.0, 1099511627777.0};
  }
}

// gradOutput of each integer dtype beside a self of each compute dtype, then the other way
// round, into each float out: the integer cast to the promoted dtype, then the reference.
TEST(PromotingOps, IntegerInputsAreCastToThePromotedDTypeFirst) {
  std::mt19937_64 rng(0x9E01);
  for (Op op : PromotingOps()) {
    for (DType it : kInts) {
      for (DType ft : kCompute) {
        for (bool int_is_dy : {true, false}) {
          for (DType ot : kCompute) {
            SCOPED_TRACE(std::string(GetOpInfo(op).name) + (int_is_dy ? " gradOutput " : " self ") +
                         DTypeName(it) + ", other " + DTypeName(ft) + ", out " + DTypeName(ot));
            const std::vector<double> iv = IntValues(it);
            const int64_t n = static_cast<int64_t>(iv.size());
            TestTensor ints = TestTensor::Dense(it, {n}), floats = TestTensor::Dense(ft, {n});
            for (int64_t i = 0; i < n; ++i) ints.Set(i, iv[i]);
            // Gradients of moderate x (self) or dy (gradOutput).
            test::FillRandom(&floats, rng, int_is_dy ? -4 : -2, int_is_dy ? 4 : 2);
            TestTensor out = TestTensor::Dense(ot, {n});
            const TestTensor& dy = int_is_dy ? ints : floats;
            const TestTensor& x = int_is_dy ? floats : ints;
            test::RunChecked(op, dy, x, out);
            const DType promoted = Expected(it, ft);
            std::vector<double> vdy(n), vx(n);
            for (int64_t i = 0; i < n; ++i) {
              // The float input is exact in the promoted dtype; the integer rounds once.
              vdy[i] = test::RoundTo(promoted, dy.Get(i));
              vx[i] = test::RoundTo(promoted, x.Get(i));
            }
            test::CheckEltwiseValues(op, vdy, vx, out, "promoted");
          }
        }
      }
    }
  }
}

// A broadcast, strided INT32 gradOutput (a column of a wider storage, with an offset).
TEST(PromotingOps, BroadcastAndStridedIntegerInput) {
  for (Op op : PromotingOps()) {
    SCOPED_TRACE(GetOpInfo(op).name);
    TestTensor dy = TestTensor::Strided(DType::kInt32, {4, 1}, {3, 1}, 2, {16});
    for (int64_t i = 0; i < 4; ++i) dy.Set(i, 16777217 + 2 * i);
    TestTensor x = TestTensor::Dense(DType::kFloat32, {4, 5});
    std::mt19937_64 rng(7);
    test::FillRandom(&x, rng, -3, 3);
    TestTensor out = TestTensor::Dense(DType::kFloat32, {4, 5});
    test::RunChecked(op, dy, x, out);
    std::vector<double> vdy = test::BroadcastValues(dy, out.shape());
    for (double& v : vdy) v = test::RoundTo(DType::kFloat32, v);
    test::CheckEltwiseValues(op, vdy, x.Values(), out, "broadcast strided INT32");
  }
}

std::vector<Op> IntToFloatOps() {
  return test::OpsWhereRule([](DTypeRule r) { return r == DTypeRule::kIntToFloatThenCast; });
}

// The operators whose op_api lists integer and BOOL selfs and casts them to FLOAT (Sigmoid
// casts them to out's float dtype, which rounds to the same result).
TEST(IntToFloatOps, AreErfinvAndSigmoid) {
  std::vector<std::string> names;
  for (Op op : IntToFloatOps()) names.push_back(GetOpInfo(op).name);
  EXPECT_EQ(names, (std::vector<std::string>{"Sigmoid", "Erfinv"}));
}

// self of every dtype into every out dtype: an integer or a float self into any compute out
// (a float self's result cast: tests/result_cast_test.cc), and DOUBLE where the operator
// takes it (tests/double_test.cc); refusals write nothing.
TEST(IntToFloatOps, TakeIntegerSelfIntoAnyComputeOut) {
  ASSERT_FALSE(IntToFloatOps().empty());
  for (Op op : IntToFloatOps()) {
    for (DType in : kAll) {
      for (DType ot : kAll) {
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(in) + " -> " +
                     DTypeName(ot));
        TestTensor x = TestTensor::Dense(in, {2, 3}), out = TestTensor::Dense(ot, {2, 3});
        x.storage().Fill(0);
        out.storage().FillBytes(0x5A);
        const std::vector<uint8_t> before = out.storage().Snapshot();
        OpArgs a;
        a.op = op;
        a.in[0] = &x.view();
        a.out[0] = &out.view();
        const test::RunResult r = test::RunOp(a);
        // DOUBLE: a self computed in double (ComputesDouble), and an out op_api's list holds.
        const bool self_ok = IsPromotableIntType(in) || IsComputeType(in) ||
                             (in == DType::kFloat64 && ComputesDouble(op));
        const bool out_ok = IsComputeType(ot) || (ot == DType::kFloat64 && OutTakesDouble(op));
        const bool taken = self_ok && out_ok;
        if (taken) {
          EXPECT_TRUE(r.status.ok()) << r.status.message();
        } else {
          EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
          EXPECT_EQ(out.storage().Snapshot(), before) << "written on failure";
        }
      }
    }
  }
}

// Each integer dtype's values (0, +-1 and beyond, 2^24 + 1 rounding to FLOAT), strided with
// an offset, into each compute out: the reference of the value cast to FLOAT.
TEST(IntToFloatOps, IntegerSelfIsCastToFloatFirst) {
  for (Op op : IntToFloatOps()) {
    for (DType it : kInts) {
      for (DType ot : kCompute) {
        SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeName(it) + " -> " +
                     DTypeName(ot));
        const std::vector<double> iv = IntValues(it);
        const int64_t n = static_cast<int64_t>(iv.size());
        TestTensor x = TestTensor::Strided(it, {n}, {2}, 1, {2 * n + 1});
        for (int64_t i = 0; i < n; ++i) x.Set(i, iv[i]);
        TestTensor out = TestTensor::Dense(ot, {n});
        OpArgs a;
        a.op = op;
        a.in[0] = &x.view();
        a.out[0] = &out.view();
        const test::RunResult r = test::RunOp(a);
        ASSERT_TRUE(r.status.ok()) << r.status.message();
        for (int64_t i = 0; i < n; ++i) {
          const double exact = test::ForwardEltwiseRef(op, test::RoundTo(DType::kFloat32, iv[i]));
          EXPECT_TRUE(test::ForwardEltwiseWithinTolerance(ot, out.Get(i), exact))
              << "x " << test::Num(iv[i]) << ": got " << test::Num(out.Get(i)) << ", exact "
              << test::Num(exact);
        }
      }
    }
  }
}

std::vector<Op> IntSelfOps() {
  return test::OpsWhereRule([](DTypeRule r) { return r == DTypeRule::kInputsAnyIntSelfOutAny; });
}

// SoftplusBackward's op_api lists integer and BOOL dtypes for self only, and casts both
// inputs to FLOAT then: self of each integer dtype (values that round in FLOAT, strided with
// an offset) beside a gradOutput of each compute dtype, into each compute out, against the
// reference of self cast to FLOAT. An integer gradOutput or out is refused, nothing written.
TEST(IntSelfOps, IntegerSelfIsCastToFloatBesideAnyGradOutput) {
  ASSERT_EQ(IntSelfOps(), std::vector<Op>{Op::kSoftplusBackward});
  std::mt19937_64 rng(0x9E02);
  for (Op op : IntSelfOps()) {
    for (DType it : kInts) {
      for (DType ft : kCompute) {
        for (DType ot : kCompute) {
          SCOPED_TRACE(std::string(GetOpInfo(op).name) + " self " + DTypeName(it) +
                       ", gradOutput " + DTypeName(ft) + ", out " + DTypeName(ot));
          const std::vector<double> iv = IntValues(it);
          const int64_t n = static_cast<int64_t>(iv.size());
          TestTensor x = TestTensor::Strided(it, {n}, {2}, 1, {2 * n + 1});
          for (int64_t i = 0; i < n; ++i) x.Set(i, iv[i]);
          TestTensor dy = TestTensor::Dense(ft, {n});
          test::FillRandom(&dy, rng, -4, 4);
          TestTensor out = TestTensor::Dense(ot, {n});
          test::RunChecked(op, dy, x, out);
          std::vector<double> vx(n);
          for (int64_t i = 0; i < n; ++i) vx[i] = test::RoundTo(DType::kFloat32, iv[i]);
          test::CheckEltwiseValues(op, dy.Values(), vx, out, "self cast to FLOAT");
        }
      }
    }
    for (DType it : kInts) {
      for (bool int_out : {false, true}) {
        SCOPED_TRACE(std::string(DTypeName(it)) + (int_out ? " out" : " gradOutput"));
        TestTensor ints = TestTensor::Dense(it, {4}), floats = TestTensor::Dense(DType::kFloat32, {4});
        ints.storage().Fill(0);
        floats.storage().Fill(0);
        TestTensor out = TestTensor::Dense(int_out ? it : DType::kFloat32, {4});
        out.storage().FillBytes(0x5A);
        const std::vector<uint8_t> before = out.storage().Snapshot();
        const test::RunResult r =
            test::RunOp(test::MakeArgs(op, int_out ? floats : ints, floats, out));
        EXPECT_EQ(r.status.code(), StatusCode::kInvalid);
        EXPECT_EQ(out.storage().Snapshot(), before) << "written on failure";
      }
    }
  }
}

}  // namespace
}  // namespace hostnn
