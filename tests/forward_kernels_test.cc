// The forward kernels (GetMap, GetLogSoftmaxForward) on every compiled SIMD target
// against the double references of tests/reference/forward_reference.h: exhaustive 16-bit
// sweeps, a dense f32 sweep, limits, NaN, tails, misaligned and in-place calls, streaming
// stores, chunking, and bitwise agreement across targets. Kernels only: no front end.

#include <gtest/gtest.h>

#include <algorithm>
#include <cfloat>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "kernels/kernels.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

// The forward elementwise operators of the list (their variants, EltwiseBuffer and
// InplaceEltwise, run the same functors).
struct UnaryCase {
  Op kind;
  const char* name;
  double ref(double x) const { return ForwardEltwiseRef(kind, x); }
};
const std::vector<UnaryCase>& UnaryCases() {
  static const std::vector<UnaryCase> cases = [] {
    std::vector<UnaryCase> v;
    for (Op op : AllOps()) {
      if (GetOpInfo(op).is_split) continue;  // tests/split_ops_test.cc
      if (GetOpInfo(op).signature == Signature::kEltwise ||
          GetOpInfo(op).signature == Signature::kEltwiseConstOut)
        v.push_back({op, GetOpInfo(op).name});
    }
    return v;
  }();
  return cases;
}
const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

const char* DTypeText(DType dtype) {
  return dtype == DType::kFloat32 ? "f32" : dtype == DType::kFloat16 ? "f16" : "bf16";
}

size_t ElemSize(DType dtype) { return dtype == DType::kFloat32 ? 4 : 2; }

// Runs fn(target) on every available SIMD target, restoring dispatch afterwards.
template <class Fn>
void ForEachTarget(Fn fn) {
  struct Restore {
    ~Restore() { kernels::ForceTarget(0); }
  } restore;
  for (int64_t target : kernels::AvailableTargets()) {
    kernels::ForceTarget(target);
    SCOPED_TRACE("SIMD target " + kernels::TargetName(target));
    ASSERT_EQ(kernels::ActiveTargetName(), kernels::TargetName(target));
    fn(target);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// The active target's family: 1 where MulAdd rounds once (AVX2, AVX3, NEON, SVE), 0
// where it rounds twice (SSE4, EMU128, SCALAR). Targets of one family give the same bits.
int FusedFamily() { return kernels::ActiveTargetFusesMulAdd() ? 1 : 0; }

// Typed storage as raw bytes, 64-byte aligned plus `offset` elements.
class Raw {
 public:
  Raw(DType dtype, size_t n, size_t offset = 0)
      : dtype_(dtype),
        esize_(ElemSize(dtype)),
        offset_(offset),
        bytes_((n + offset) * esize_ + 128) {}
  void* data() { return Base() + offset_ * esize_; }
  const void* data() const { return const_cast<Raw*>(this)->data(); }
  double Get(size_t i) const { return LoadAsDouble(dtype_, data(), static_cast<int64_t>(i)); }
  void Set(size_t i, double v) { StoreFromDouble(dtype_, data(), static_cast<int64_t>(i), v); }
  void SetBits(size_t i, uint32_t bits) {
    std::memcpy(static_cast<uint8_t*>(data()) + i * esize_, &bits, esize_);
  }
  uint32_t Bits(size_t i) const {
    uint32_t b = 0;
    std::memcpy(&b, static_cast<const uint8_t*>(data()) + i * esize_, esize_);
    return b;
  }

 private:
  uint8_t* Base() {
    const uintptr_t a = reinterpret_cast<uintptr_t>(bytes_.data());
    return bytes_.data() + ((64 - a % 64) % 64);
  }
  DType dtype_;
  size_t esize_, offset_;
  std::vector<uint8_t> bytes_;
};

// The error of one element in ULP of its dtype (0 for matching NaN / infinities).
double ErrUlp(DType dtype, double got, double exact) { return UlpError(dtype, got, exact); }

// v rounded once to FLOAT16 or BFLOAT16, as a double.
double RoundTo16(DType dtype, double v) {
  return dtype == DType::kFloat16 ? F16ToDouble(DoubleToF16(v)) : BF16ToDouble(DoubleToBF16(v));
}

std::string Num(double v) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.9g", v);
  return text;
}

// The two families the bitwise checks below group targets into: MulAdd rounds once on
// AVX2 and up, Armv8's NEON and SVE, twice on SSE4, EMU128 and SCALAR (the probe is a
// kernel).
TEST(ForwardKernels, TargetFamiliesByFusedMulAdd) {
  ForEachTarget([&](int64_t target) {
    const std::string name = kernels::TargetName(target);
#if defined(__aarch64__)
    const bool neon_fuses = true;
#else
    const bool neon_fuses = false;  // Armv7's NEON multiplies and adds apart
#endif
    const bool fused = name.rfind("AVX", 0) == 0 || name.rfind("SVE", 0) == 0 ||
                       (neon_fuses && name.rfind("NEON", 0) == 0);
    EXPECT_EQ(kernels::ActiveTargetFusesMulAdd(), fused) << name;
  });
}

// ---- elementwise --------------------------------------------------------------------

// SPEC 4's 16-bit rule on every 16-bit input of every forward elementwise operator of the
// list, on every target: the result is the exact value rounded to nearest even, except
// within 2^-21 (relative) of a rounding midpoint, where the other neighbour is accepted.
TEST(ForwardUnary, Exhaustive16BitRoundedOnceOnEveryTarget) {
  for (const UnaryCase& op : UnaryCases()) {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      SCOPED_TRACE(std::string(op.name) + " " + DTypeText(dtype));
      const size_t n = 65536;
      Raw x(dtype, n);
      for (size_t i = 0; i < n; ++i) x.SetBits(i, static_cast<uint32_t>(i));
      std::vector<uint32_t> first[2];  // per family (FusedFamily)
      ForEachTarget([&](int64_t) {
        Raw out(dtype, n), out_stream(dtype, n), in_place(dtype, n);
        kernels::MapFn fn = test::MapKernel(op.kind, dtype);
        kernels::MapFn fs = test::MapKernel(op.kind, dtype, kernels::StoreMode::kStream);
        ASSERT_NE(fn, nullptr);
        ASSERT_NE(fs, nullptr);
        test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op.kind));
        test::RunMap(fs, x.data(), out_stream.data(), n, test::KernelParams(op.kind));
        for (size_t i = 0; i < n; ++i) in_place.SetBits(i, static_cast<uint32_t>(i));
        test::RunMap(fn, in_place.data(), in_place.data(), n, test::KernelParams(op.kind));
        double max_ulp = 0, max_raw = 0;
        size_t bad = 0, in_window = 0;
        for (size_t i = 0; i < n; ++i) {
          const double xi = x.Get(i), got = out.Get(i), exact = op.ref(xi);
          // Also unrounded: |got - exact| in ULP of the narrow type at exact (never more
          // than 1).
          if (std::isfinite(got) && std::isfinite(exact)) {
            const double raw = std::fabs(got - exact) / UlpOf(dtype, exact);
            EXPECT_LE(raw, 1.0) << "x bits 0x" << std::hex << i;
            max_raw = std::max(max_raw, raw);
          }
          const Rounding16 r = ClassifyRounding16(dtype, got, exact);
          if (r == Rounding16::kInWindow) ++in_window;
          if (r == Rounding16::kWrong && ++bad <= 5) {
            ADD_FAILURE() << "x bits 0x" << std::hex << i << std::dec << " (" << Num(xi)
                          << "): got " << Num(got) << ", exact " << Num(exact) << ", rounded once "
                          << Num(RoundTo16(dtype, exact));
          }
          max_ulp = std::max(max_ulp, ErrUlp(dtype, got, exact));
          ASSERT_EQ(out.Bits(i), out_stream.Bits(i)) << "stream differs at x bits " << i;
          ASSERT_EQ(out.Bits(i), in_place.Bits(i)) << "in place differs at x bits " << i;
        }
        EXPECT_EQ(bad, 0u) << "inputs not rounded once";
        std::printf(
            "  %-11s %-4s %-6s %.0f ULP at most from the correctly rounded value, %zu inputs "
            "not correctly rounded outside the 2^-21 window, %zu inside; %.3g ULP at most from "
            "the exact value (every 16-bit input)\n",
            op.name, DTypeText(dtype), kernels::ActiveTargetName().c_str(), max_ulp, bad, in_window,
            max_raw);
        std::vector<uint32_t> bits(n);
        for (size_t i = 0; i < n; ++i) bits[i] = out.Bits(i);
        std::vector<uint32_t>& fam = first[FusedFamily()];
        if (fam.empty()) {
          fam = bits;
        } else {
          for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(bits[i], fam[i]) << "differs from its family's first target at x bits " << i;
          }
        }
      });
    }
  }
}

// ops-nn's test_silu_FP16 case: x = -0.668457 (f16 0xB959); the exact -0.2265016 rounds to
// -0.2265625 (0xB340), which an exp of 16-bit accuracy (2^-17.5) missed by one ULP.
TEST(ForwardUnary, SiluF16IsTheF32ResultRoundedOnce) {
  ForEachTarget([&](int64_t) {
    Raw x(DType::kFloat16, 1), out(DType::kFloat16, 1);
    x.SetBits(0, 0xB959);
    ASSERT_EQ(x.Get(0), -0.668457031250);
    test::RunMap(test::MapKernel(Op::kSilu, DType::kFloat16), x.data(), out.data(), 1,
                 test::KernelParams(Op::kSilu));
    EXPECT_EQ(out.Get(0), RoundTo16(DType::kFloat16, ForwardEltwiseRef(Op::kSilu, x.Get(0))));
    EXPECT_EQ(out.Bits(0), 0xB340u) << Num(out.Get(0));
  });
}

// Special f32 values: limits, the far-tail and clamp boundaries, Hardsigmoid's corners.
std::vector<float> F32Specials() {
  return {0.0f,
          -0.0f,
          INFINITY,
          -INFINITY,
          NAN,
          -NAN,
          FLT_MIN,
          -FLT_MIN,
          FLT_MAX,
          -FLT_MAX,
          1e-45f,
          -1e-45f,
          3.0f,
          -3.0f,
          std::nextafter(3.0f, 0.0f),
          std::nextafter(-3.0f, 0.0f),
          80.0f,
          -80.0f,
          -87.3f,
          -91.9f,
          -103.9f,
          -104.0f,
          -104.1f,
          -192.0f,
          -191.9f,
          -1000.0f,
          1000.0f,
          88.7f,
          1.0f,
          -1.0f,
          -1.2785f,
          0.5f,
          1e-20f,
          -1e-20f,
          1e38f,
          -1e38f,
          3.2386221e38f,  // Selu: x * fl(scale) overflowed where scale * x rounds to FLT_MAX
          -1.0f + 5.9604645e-8f,  // Erfinv at both ends of (-1, 1)
          1.0f - 5.9604645e-8f};
}

uint64_t F32Step() {
  const char* env = std::getenv("HOSTNN_FWD_F32_STEP");  // 1: every float (HOSTNN_FWD_OP below)
  return env ? std::max<uint64_t>(1, std::strtoull(env, nullptr, 10)) : 257;
}

// Every step-th f32 bit pattern (all signs and exponents; HOSTNN_FWD_F32_STEP, default
// 257: 16.7M inputs) and the specials, in blocks, on every target: within SPEC §4, the
// streaming variant bitwise the cached one, every target bitwise the first of its family
// (FusedFamily), whose errors are measured.
TEST(ForwardUnary, F32DenseSweepOnEveryTarget) {
  const uint64_t step = F32Step();
  const size_t kBlock = size_t{1} << 24;
  const std::vector<int64_t> targets = kernels::AvailableTargets();
  struct Restore {
    ~Restore() { kernels::ForceTarget(0); }
  } restore;
  // HOSTNN_FWD_OP: one operator's snake name, to sweep every float of that one alone.
  const char* only = std::getenv("HOSTNN_FWD_OP");
  for (const UnaryCase& op : UnaryCases()) {
    if (only != nullptr && GetOpInfo(op.kind).snake_name != std::string(only)) continue;
    SCOPED_TRACE(op.name);
    double max_ulp[2] = {0.0, 0.0}, max_ulp_at[2] = {0.0, 0.0};
    size_t bad = 0, abs_only[2] = {0, 0}, total = 0, family_targets[2] = {0, 0};
    std::vector<float> xs, out, out_stream, first[2];
    int first_target[2] = {-1, -1};
    std::vector<double> exact;
    bool specials_done = false;
    for (uint64_t b0 = 0; b0 < (uint64_t{1} << 32) || !specials_done;) {
      xs.clear();
      if (b0 < (uint64_t{1} << 32)) {
        for (; b0 < (uint64_t{1} << 32) && xs.size() < kBlock; b0 += step) {
          const uint32_t bits = static_cast<uint32_t>(b0);
          float f;
          std::memcpy(&f, &bits, 4);
          xs.push_back(f);
        }
      } else {
        xs = F32Specials();
        specials_done = true;
      }
      const size_t n = xs.size();
      total += n;
      exact.resize(n);
      out.resize(n);
      out_stream.resize(n);
      for (size_t i = 0; i < n; ++i) exact[i] = op.ref(xs[i]);
      for (size_t t = 0; t < targets.size(); ++t) {
        kernels::ForceTarget(targets[t]);
        SCOPED_TRACE("SIMD target " + kernels::TargetName(targets[t]));
        test::RunMap(test::MapKernel(op.kind, DType::kFloat32), xs.data(), out.data(), n,
                     test::KernelParams(op.kind));
        test::RunMap(test::MapKernel(op.kind, DType::kFloat32, kernels::StoreMode::kStream),
                     xs.data(), out_stream.data(), n, test::KernelParams(op.kind));
        ASSERT_EQ(std::memcmp(out.data(), out_stream.data(), n * 4), 0) << "stream != cached";
        const int fam = FusedFamily();
        if (total == n) ++family_targets[fam];
        if (first_target[fam] < 0 || first_target[fam] == static_cast<int>(t)) {
          // The errors, once per family: its other targets must give the same bits.
          first_target[fam] = static_cast<int>(t);
          for (size_t i = 0; i < n; ++i) {
            const double e = ErrUlp(DType::kFloat32, out[i], exact[i]);
            if (!ForwardEltwiseWithinTolerance(DType::kFloat32, out[i], exact[i])) {
              if (++bad <= 5) {
                uint32_t bits;
                std::memcpy(&bits, &xs[i], 4);
                ADD_FAILURE() << "x = " << xs[i] << " (bits 0x" << std::hex << bits << std::dec
                              << "): got " << out[i] << ", exact " << exact[i] << " (" << e
                              << " ULP)";
              }
            } else if (e > 4.0) {
              ++abs_only[fam];
            }
            if (e > max_ulp[fam]) {
              max_ulp[fam] = e;
              max_ulp_at[fam] = xs[i];
            }
          }
          first[fam] = out;
        } else if (std::memcmp(out.data(), first[fam].data(), n * 4) != 0) {
          for (size_t i = 0; i < n; ++i) {
            uint32_t a, b;
            std::memcpy(&a, &out[i], 4);
            std::memcpy(&b, &first[fam][i], 4);
            ASSERT_EQ(a, b) << "differs from " << kernels::TargetName(targets[first_target[fam]])
                            << " at x = " << xs[i];
          }
        }
      }
    }
    EXPECT_EQ(bad, 0u);
    for (int fam = 1; fam >= 0; --fam) {
      if (first_target[fam] < 0) continue;
      std::printf(
          "  %-11s f32  %-6s max error %.3g ULP at x = %.9g (%zu inputs, %zu of them within "
          "2^-21 absolute only; %zu targets with %s MulAdd, bitwise equal)\n",
          op.name, kernels::TargetName(targets[first_target[fam]]).c_str(), max_ulp[fam],
          max_ulp_at[fam], total, abs_only[fam], family_targets[fam],
          fam ? "a fused" : "an unfused");
    }
  }
}

TEST(ForwardUnary, Limits) {
  ForEachTarget([&](int64_t) {
    for (DType dtype : kDTypes) {
      SCOPED_TRACE(DTypeText(dtype));
      const double inputs[] = {-INFINITY, INFINITY, -1000.0, 1000.0, NAN};
      const size_t n = 5;
      Raw x(dtype, n), silu(dtype, n), logsig(dtype, n), hard(dtype, n);
      for (size_t i = 0; i < n; ++i) x.Set(i, inputs[i]);
      test::RunMap(test::MapKernel(Op::kSilu, dtype), x.data(), silu.data(), n,
                   test::KernelParams(Op::kSilu));
      test::RunMap(test::MapKernel(Op::kLogSigmoid, dtype), x.data(), logsig.data(), n,
                   test::KernelParams(Op::kLogSigmoid));
      test::RunMap(test::MapKernel(Op::kHardsigmoid, dtype), x.data(), hard.data(), n,
                   test::KernelParams(Op::kHardsigmoid));
      EXPECT_EQ(silu.Get(0), 0.0);  // -0 or +0
      EXPECT_EQ(silu.Get(1), INFINITY);
      EXPECT_EQ(logsig.Get(0), -INFINITY);
      EXPECT_EQ(logsig.Get(1), 0.0);
      EXPECT_EQ(logsig.Get(2), -1000.0);
      EXPECT_EQ(logsig.Get(3), 0.0);
      EXPECT_EQ(hard.Get(0), 0.0);
      EXPECT_EQ(hard.Get(1), 1.0);
      EXPECT_TRUE(std::isnan(silu.Get(4)));
      EXPECT_TRUE(std::isnan(logsig.Get(4)));
      EXPECT_TRUE(std::isnan(hard.Get(4)));
    }
  });
}

TEST(ForwardUnary, NaNPayloadsStayNaN) {
  const uint32_t nans[] = {0x7FC00000u, 0xFFC00000u, 0x7F800001u, 0xFFBFFFFFu, 0x7FC12345u};
  ForEachTarget([&](int64_t) {
    for (const UnaryCase& op : UnaryCases()) {
      std::vector<float> x(40, 1.0f), out(40);
      for (size_t i = 0; i < 5; ++i) std::memcpy(&x[i * 7], &nans[i], 4);
      test::RunMap(test::MapKernel(op.kind, DType::kFloat32), x.data(), out.data(), x.size(),
                   test::KernelParams(op.kind));
      for (size_t i = 0; i < x.size(); ++i) {
        EXPECT_EQ(std::isnan(out[i]), std::isnan(x[i])) << op.name << " at " << i;
      }
    }
  });
}

// Every length 0..3*lanes+1 (16 lanes at most) at misaligned starts, cached and
// streaming, out of place and in place: each element gives the bits it gives in a long
// aligned call, and nothing outside [0, n) is written.
TEST(ForwardUnary, TailsOffsetsAndInPlace) {
  std::mt19937_64 rng(7);
  ForEachTarget([&](int64_t) {
    for (DType dtype : kDTypes) {
      for (const UnaryCase& op : UnaryCases()) {
        SCOPED_TRACE(std::string(op.name) + " " + DTypeText(dtype));
        const size_t kMax = 3 * 16 + 1 + 64;
        Raw src(dtype, kMax), whole(dtype, kMax);
        for (size_t i = 0; i < kMax; ++i) src.Set(i, RandomValue(dtype, rng, -12.0, 12.0));
        // The rare paths (far tail, NaN, infinities) land in heads, bodies and tails too.
        const double rare[] = {-100.0, NAN, -INFINITY, 1e30, -85.0, INFINITY, -3.0, -1e30};
        for (size_t j = 0; j < 8; ++j) src.Set(5 + 13 * j, rare[j]);
        test::RunMap(test::MapKernel(op.kind, dtype), src.data(), whole.data(), kMax,
                     test::KernelParams(op.kind));
        for (auto mode : {kernels::StoreMode::kCached, kernels::StoreMode::kStream}) {
          kernels::MapFn fn = test::MapKernel(op.kind, dtype, mode);
          for (size_t n = 0; n <= 3 * 16 + 1; ++n) {
            for (size_t off = 0; off < 4; ++off) {
              const size_t start = (n * 7 + off) % 64;  // where in src the piece starts
              Raw x(dtype, n + 2, off), out(dtype, n + 2, off);
              for (size_t i = 0; i < n + 2; ++i) out.SetBits(i, 0xA5A5u);
              for (size_t i = 0; i < n; ++i) x.SetBits(i, src.Bits(start + i));
              test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op.kind));
              for (size_t i = 0; i < n; ++i) {
                ASSERT_EQ(out.Bits(i), whole.Bits(start + i)) << "n " << n << " offset " << off;
              }
              ASSERT_EQ(out.Bits(n), 0xA5A5u) << "wrote past n";
              test::RunMap(fn, x.data(), x.data(), n, test::KernelParams(op.kind));  // in place
              for (size_t i = 0; i < n; ++i) ASSERT_EQ(x.Bits(i), whole.Bits(start + i));
            }
          }
        }
      }
    }
  });
}

// The tails of Gelu's tanh form and FastGelu, x * sigmoid(z(x)) for z < -2, where the f32 z's
// rounding error is carried into exp(z) (ZError: error-free products and sums in f32 lanes
// where MulAdd is fused, f64 lanes elsewhere) and, for z < -80, the result x q exp(z) is
// rounded once from a normal product (MulExpFarTailOnce). Every 13th float of the tail and
// every float around each of its splits (z = -2, -80, where the result turns subnormal,
// -104, -131.7 where the scale's exponent is clamped, -192), on every target, against
// long-double references of their own: each result within kTailUlp of exact (ULP of the
// result, subnormal ones in units of 2^-149; the SPEC's 4 ULP or 2^-21 absolute would let a
// missing correction through below z = -8, where the absolute bound is the looser), and
// every target bitwise the first of its family. Without ZError the errors reach |z| 2^-24
// relative (about 100 ULP at z = -80); the earlier kernel's -0 below z = -104 was 5.2 ULP.
long double TanhGeluZ(long double x) {
  const long double c = 2.0L * std::sqrt(2.0L / 3.141592653589793238462643383279502884L);
  return c * (x + 0.044715L * x * x * x);
}
long double GeluTailRef(Op op, long double x) {
  const long double z = op == Op::kGelu ? TanhGeluZ(x) : 1.702L * x;
  return x / (1.0L + std::exp(-z));
}
// dy s (1 + x z' (1 - s)) with s = e / (1 + e), 1 - s = 1 / (1 + e), e = exp(z) (z < 0).
long double GeluBackwardTailRef(long double dy, long double x) {
  const long double c = 2.0L * std::sqrt(2.0L / 3.141592653589793238462643383279502884L);
  const long double e = std::exp(TanhGeluZ(x));
  const long double dz = c * (1.0L + 3.0L * 0.044715L * x * x);
  return dy * (e / (1.0L + e)) * (1.0L + x * dz / (1.0L + e));
}
// |got - exact| in ULP of exact's f32 binade (2^-149 below 2^-126).
double TailUlp(float got, long double exact) {
  const long double a = std::fabs(exact);
  int exp2 = 0;
  std::frexp(static_cast<double>(a), &exp2);
  const long double ulp =
      a < std::ldexp(1.0L, -126) ? std::ldexp(1.0L, -149) : std::ldexp(1.0L, exp2 - 24);
  return static_cast<double>(std::fabs(static_cast<long double>(got) - exact) / ulp);
}
// Every 13th float of [lo, -1] and 256 consecutive floats around each x where z(x) or the
// result crosses a split.
std::vector<float> GeluTailInputs(Op op, float lo) {
  std::vector<float> xs;
  uint32_t a, b;
  const float minus_one = -1.0f;
  std::memcpy(&a, &minus_one, 4);
  std::memcpy(&b, &lo, 4);
  for (uint32_t bits = a; bits <= b; bits += 13) {
    float f;
    std::memcpy(&f, &bits, 4);
    xs.push_back(f);
  }
  const auto z = [&](long double x) { return op == Op::kGelu ? TanhGeluZ(x) : 1.702L * x; };
  const auto solve = [&](const auto& fn, long double target) {  // fn increasing on [lo, -1]
    long double l = lo, h = -1.0L;
    for (int i = 0; i < 200; ++i) {
      const long double m = (l + h) / 2;
      (fn(m) < target ? l : h) = m;
    }
    return static_cast<float>(l);
  };
  std::vector<float> splits;
  for (long double zb : {-2.0L, -80.0L, -104.0L, -190.0L * 0.6931471805599453L, -192.0L}) {
    splits.push_back(solve(z, zb));
  }
  // Where the result's magnitude (which grows with x) crosses 2^-126.
  splits.push_back(
      solve([&](long double x) { return -GeluTailRef(op, x); }, std::ldexp(1.0L, -126)));
  for (float s : splits) {
    float f = s;
    for (int i = 0; i < 128; ++i) f = std::nextafter(f, 0.0f);
    for (int i = 0; i < 256; ++i, f = std::nextafter(f, -INFINITY)) xs.push_back(f);
  }
  return xs;
}

TEST(ForwardUnary, GeluTanhAndFastGeluTailsOnEveryTarget) {
  // SPEC 4's 4 ULP, here for subnormal results too. Measured: 3.55 ULP at most for Gelu
  // (x = -1.82, AVX3 and AVX2; 3.68 SSE4 and EMU128), 3.86 for FastGelu (x = -3.11).
  constexpr double kTailUlp = 4.0;
  for (Op op : {Op::kGelu, Op::kFastGelu}) {
    SCOPED_TRACE(GetOpInfo(op).name);
    const std::vector<float> xs = GeluTailInputs(op, op == Op::kGelu ? -16.0f : -128.0f);
    std::vector<long double> exact(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) exact[i] = GeluTailRef(op, xs[i]);
    std::vector<float> out(xs.size()), first[2];
    ForEachTarget([&](int64_t) {
      test::RunMap(test::MapKernel(op, DType::kFloat32), xs.data(), out.data(), xs.size(),
                   test::KernelParams(op));
      double worst = 0.0, worst_at = 0.0;
      size_t bad = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const double e = TailUlp(out[i], exact[i]);
        if (e > worst) worst = e, worst_at = xs[i];
        if (!(e <= kTailUlp) && ++bad <= 5) {
          ADD_FAILURE() << "x = " << Num(xs[i]) << ": got " << Num(out[i]) << ", exact "
                        << static_cast<double>(exact[i]) << " (" << e << " ULP)";
        }
      }
      std::printf("  %-9s f32 %-6s tail max error %.3g ULP at x = %.9g (%zu inputs)\n",
                  GetOpInfo(op).name, kernels::ActiveTargetName().c_str(), worst, worst_at,
                  xs.size());
      std::vector<float>& fam = first[FusedFamily()];
      if (fam.empty()) {
        fam = out;
      } else {
        ASSERT_EQ(std::memcmp(out.data(), fam.data(), out.size() * 4), 0)
            << "differs from its family's first target";
      }
    });
  }
}

// GeluBackward over the same inputs, with three dy. From x = -1 to -2 the factor
// 1 + x z' (1 - s) is still near its cancellation at x = -0.7518 (up to 8.3 ULP there, within
// the SPEC's 2^-21 |dy|); below x = -2 each result within kTailUlp, which a missing or wrong
// ZError exceeds from x = -4 on. Measured: 7.65 ULP at most (x = -3.37, SSE4 and EMU128;
// 7.15 AVX2, 6.9 AVX3), the same with ZError in f64 lanes: 1 + x z' (1 - s) is about -8
// there, so its rounding and s's reach the result magnified.
TEST(ForwardUnary, GeluBackwardTailOnEveryTarget) {
  constexpr double kTailUlp = 8.0;
  const std::vector<float> xs = GeluTailInputs(Op::kGelu, -16.0f);
  for (float dy : {1.0f, -0.75f, 3.0517578e-5f}) {
    SCOPED_TRACE("dy " + Num(dy));
    std::vector<float> dys(xs.size(), dy), out(xs.size());
    std::vector<long double> exact(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) exact[i] = GeluBackwardTailRef(dy, xs[i]);
    ForEachTarget([&](int64_t) {
      test::RunMap(test::MapKernel(Op::kGeluBackward, DType::kFloat32), dys.data(), xs.data(),
                   out.data(), xs.size(), test::KernelParams(Op::kGeluBackward));
      double worst = 0.0, worst_at = 0.0;
      size_t bad = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const double e = TailUlp(out[i], exact[i]);
        const bool near_cancellation = xs[i] > -2.0f;
        const bool within = near_cancellation
                                ? e <= 4.0 || std::fabs(static_cast<long double>(out[i]) -
                                                        exact[i]) <= std::ldexp(std::fabs(dy), -21)
                                : e <= kTailUlp;
        if (!near_cancellation && e > worst) worst = e, worst_at = xs[i];
        if (!within && ++bad <= 5) {
          ADD_FAILURE() << "x = " << Num(xs[i]) << ": got " << Num(out[i]) << ", exact "
                        << static_cast<double>(exact[i]) << " (" << e << " ULP)";
        }
      }
      std::printf("  GeluBackward f32 %-6s dy %-9g max error below x = -2 %.3g ULP at x = %.9g\n",
                  kernels::ActiveTargetName().c_str(), dy, worst, worst_at);
    });
  }
}

// GeluBackward's far tail (z < -80) with every kind of dy: zeros, subnormals, the extremes
// of f32's range, infinities and NaN, against the double reference: NaN for NaN, the same
// infinity, zeros (of the exact value's sign for finite x), the rest within 8 ULP
// (subnormal results in units of 2^-149). The far tail takes dy apart into mantissa and
// exponent (MulExpFarTailAnyDy) on every target.
TEST(ForwardUnary, GeluBackwardFarTailAnyDyOnEveryTarget) {
  const float xs[] = {-9.7f, -10.0f, -10.7f, -11.7f, -12.5f, -13.3f, -16.0f, -100.0f, -INFINITY};
  const float dys[] = {0.0f,     -0.0f,     1e-45f,  -1.1754942e-38f, 1.1754944e-38f,
                       -0.75f,   3.0e-20f,  7.5e19f, 3.4028235e38f,   -3.4028235e38f,
                       INFINITY, -INFINITY, NAN};
  std::vector<float> dy, x;
  for (float xv : xs) {
    for (float dv : dys) {
      x.push_back(xv);
      dy.push_back(dv);
    }
  }
  std::vector<float> out(x.size());
  ForEachTarget([&](int64_t) {
    test::RunMap(test::MapKernel(Op::kGeluBackward, DType::kFloat32), dy.data(), x.data(),
                 out.data(), x.size(), test::KernelParams(Op::kGeluBackward));
    for (size_t i = 0; i < x.size(); ++i) {
      const double exact = EltwiseRef(Op::kGeluBackward, dy[i], x[i]);
      SCOPED_TRACE("dy " + Num(dy[i]) + ", x " + Num(x[i]) + ": got " + Num(out[i]) + ", exact " +
                   Num(exact));
      if (std::isnan(exact)) {
        EXPECT_TRUE(std::isnan(out[i]));
      } else if (std::isinf(exact) || static_cast<float>(exact) == 0.0f) {
        EXPECT_EQ(out[i], static_cast<float>(exact));
        // At x = -inf the factor's limit is a zero of either sign (the kernel's is -0).
        if (std::isfinite(x[i])) EXPECT_EQ(std::signbit(out[i]), std::signbit(exact));
      } else {
        EXPECT_LE(TailUlp(out[i], exact), 8.0);
      }
    }
  });
}

// ---- the parameterised exponentials ---------------------------------------------------

// Elu, Celu and EluBackward (the Elu family's expm1 and exp: a fitted degree-6 expm1 and,
// where MulAdd is fused, a one-part ln 2 in Expm1NonPositive's reduction; ScaledExpm1's
// hi + lo exponent) and Softplus (Log1pFromSFitted; sigmoid(s) lo where beta != 1), at
// parameter values of scalar_ops_test's sweep, against long-double references of their own:
// every 127th float of the exponent's range (t = x inputScale, x / alpha, beta x: down to
// |x| = 2^-20 on either side of 0, where there is one) and 256 consecutive floats around
// each of its splits (the reduction's k changing at (k + 1/2) ln 2, the clamps, the far
// paths, the threshold; normal inputs), on every target: each result within 4 ULP of
// its own value (subnormal results in units of 2^-149), which a missing or wrong error term
// exceeds where the SPEC's 2^-21 absolute (the scalar sweep's 300 inputs) would let it
// through, and every target bitwise the first of its family. An exact value beyond
// FLT_MAX's rounding must give the infinity of its sign.
struct ParamExpCase {
  Op op;
  std::vector<float> s;    // the parameters in the list's order
  long double t_lo, t_hi;  // the exponent's range
  float dy;                // EluBackward's
  double bound = 4.0;      // ULP
};
// The factor x = t * XPerT(c) turns the exponent back into the input.
long double XPerT(const ParamExpCase& c) {
  switch (c.op) {
    case Op::kCelu:
      return c.s[0];  // t = x / alpha
    case Op::kSoftplus:
      return 1.0L / c.s[0];  // t = beta x
    default:
      return 1.0L / c.s[2];  // Elu, EluBackward: t = x inputScale
  }
}
long double ParamExpRef(const ParamExpCase& c, float xf) {
  const long double x = xf;
  switch (c.op) {
    case Op::kElu:
      return x > 0 ? c.s[1] * x
                   : static_cast<long double>(c.s[0]) * c.s[1] * std::expm1(x * c.s[2]);
    case Op::kCelu:
      return x > 0 ? x : c.s[0] * std::expm1(x / c.s[0]);
    case Op::kEluBackward:
      return x > 0
                 ? c.dy * static_cast<long double>(c.s[1])
                 : c.dy * static_cast<long double>(c.s[2]) * c.s[0] * c.s[1] * std::exp(x * c.s[2]);
    default: {  // Softplus
      const long double s = c.s[0] * x;
      if (c.s[0] * xf > c.s[1]) return x;
      return (std::max(s, 0.0L) + std::log1p(std::exp(-std::fabs(s)))) / c.s[0];
    }
  }
}
std::vector<float> ParamExpInputs(const ParamExpCase& c) {
  const long double k = XPerT(c);
  const long double a = c.t_lo * k, b = c.t_hi * k;
  const float lo = static_cast<float>(std::min(a, b)), hi = static_cast<float>(std::max(a, b));
  std::vector<float> xs;
  const auto sweep = [&](float from, float to) {  // |from| <= |to|, one sign
    uint32_t fa, fb;
    std::memcpy(&fa, &from, 4);
    std::memcpy(&fb, &to, 4);
    for (uint32_t bits = fa; bits <= fb; bits += 127) {
      float f;
      std::memcpy(&f, &bits, 4);
      xs.push_back(f);
    }
  };
  const float tiny = 0x1p-20f;
  if (lo < -tiny) sweep(-tiny, lo);
  if (hi > tiny) sweep(tiny, hi);
  std::vector<long double> splits = {0.0L, -20.0L, -1.0L, -87.34L, -104.0L, 88.5L, 88.72L, 176.5L};
  if (c.op == Op::kSoftplus) splits.push_back(c.s[1]);
  const long double ln2 = 0.6931471805599453094172321214581766L;
  for (int j = -160; j <= 160; ++j) splits.push_back((j + 0.5L) * ln2);
  for (long double t : splits) {
    if (t < c.t_lo || t > c.t_hi) continue;
    float f = static_cast<float>(t * k);
    for (int i = 0; i < 128; ++i) f = std::nextafter(f, -INFINITY);
    for (int i = 0; i < 256; ++i, f = std::nextafter(f, INFINITY)) {
      // Subnormal inputs (around t = 0) give subnormal results, held by the SPEC's 2^-21
      // absolute: Celu's t = x / alpha rounds to 2^-149 before alpha scales it back.
      if (f == 0.0f || std::fabs(f) >= FLT_MIN) xs.push_back(f);
    }
  }
  return xs;
}

TEST(ForwardUnary, ParamExponentialsOnEveryTarget) {
  const std::vector<ParamExpCase> cases = {
      {Op::kElu, {1, 1, 1}, -24, 0, 0},
      {Op::kElu, {100, 1, 1}, -24, 0, 0},
      {Op::kElu, {-3.5f, 1, 1}, -24, 0, 0},
      {Op::kElu, {1, -0.2f, 1}, -24, 0, 0},
      {Op::kElu, {1.6732632f, 1.0507010f, 1}, -24, 0, 0},
      {Op::kElu, {1, 1, 100}, -24, 0, 0},
      {Op::kElu, {1, 1, -0.2f}, 0, 100, 0},
      {Op::kElu, {1e-30f, 1, -3.5f}, 0, 200, 0},
      {Op::kCelu, {1}, -24, 0, 0},
      {Op::kCelu, {2.5f}, -24, 0, 0},
      {Op::kCelu, {0.3f}, -24, 0, 0},
      {Op::kCelu, {-0.2f}, 0, 100, 0},
      {Op::kCelu, {-3.5f}, 0, 100, 0},
      {Op::kEluBackward, {1, 1, 1, 0}, -110, 0, 1.0f},
      {Op::kEluBackward, {2, 0.5f, 3, 0}, -110, 0, -0.75f},
      {Op::kEluBackward, {1, 1, -0.2f, 0}, 0, 100, 1.0f},
      {Op::kEluBackward, {1, 1, -3.5f, 0}, 0, 100, -0.75f},
      {Op::kSoftplus, {1, 20}, -110, 30, 0},
      // Softplus with beta != 1 divides by beta last: 4.14 ULP at x = -8.59 for beta 0.3 and
      // 4.07 at x = -0.40 for 2.5 (0.24 and 0.12, where the SPEC's 2^-21 absolute is 16 ULP
      // and more), the same before log1p's fitted Q; a missing sigmoid(s) lo gives |s| 2^-24
      // relative, 40 ULP and more below s = -80.
      {Op::kSoftplus, {0.3f, 20}, -110, 30, 0, 4.25},
      {Op::kSoftplus, {2.5f, 20}, -110, 30, 0, 4.25},
      {Op::kSoftplus, {-3.5f, 20}, -110, 30, 0},
      {Op::kSoftplus, {100, 20}, -110, 30, 0},
  };
  for (const ParamExpCase& c : cases) {
    std::string what = GetOpInfo(c.op).name;
    for (float v : c.s) what += " " + Num(v);
    if (c.op == Op::kEluBackward) what += " dy " + Num(c.dy);
    SCOPED_TRACE(what);
    float numbers[kMaxScalars] = {};
    int64_t flags[kMaxScalars] = {};
    for (size_t k = 0; k < c.s.size(); ++k) numbers[k] = c.s[k];
    const kernels::OpParams params =
        kernels::InitParams(c.op, kernels::ParamValues(c.op, numbers, flags));
    const std::vector<float> xs = ParamExpInputs(c);
    std::vector<long double> exact(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) exact[i] = ParamExpRef(c, xs[i]);
    const std::vector<float> dys(xs.size(), c.dy);
    std::vector<float> out(xs.size()), first[2];
    const long double overflow = std::ldexp(2.0L - std::ldexp(1.0L, -24), 127);
    ForEachTarget([&](int64_t) {
      const kernels::MapFn fn = kernels::GetMap(c.op, DType::kFloat32, params);
      ASSERT_NE(fn, nullptr);
      if (c.op == Op::kEluBackward) {
        test::RunMap(fn, dys.data(), xs.data(), out.data(), xs.size(), params);
      } else {
        test::RunMap(fn, xs.data(), out.data(), xs.size(), params);
      }
      double worst = 0.0, worst_at = 0.0;
      size_t bad = 0;
      for (size_t i = 0; i < xs.size(); ++i) {
        const bool over = std::fabs(exact[i]) >= overflow;
        const double e =
            over
                ? (out[i] == std::copysign(INFINITY, static_cast<float>(exact[i])) ? 0.0 : HUGE_VAL)
                : TailUlp(out[i], exact[i]);
        if (e > worst) worst = e, worst_at = xs[i];
        if (!(e <= c.bound) && ++bad <= 5) {
          ADD_FAILURE() << "x = " << Num(xs[i]) << ": got " << Num(out[i]) << ", exact "
                        << static_cast<double>(exact[i]) << " (" << e << " ULP)";
        }
      }
      std::printf("  %-36s f32 %-6s max error %.3g ULP at x = %.9g (%zu inputs)\n", what.c_str(),
                  kernels::ActiveTargetName().c_str(), worst, worst_at, xs.size());
      std::vector<float>& fam = first[FusedFamily()];
      if (fam.empty()) {
        fam = out;
      } else {
        ASSERT_EQ(std::memcmp(out.data(), fam.data(), out.size() * 4), 0)
            << "differs from its family's first target";
      }
    });
  }
}

TEST(ForwardUnary, NullForOtherDTypes) {
  EXPECT_EQ(test::MapKernel(Op::kSilu, DType::kFloat64), nullptr);
  EXPECT_EQ(test::MapKernel(Op::kSilu, DType::kInt32), nullptr);
  EXPECT_EQ(test::MapKernel(Op::kLogSoftmax, DType::kInt32), nullptr);
  EXPECT_NE(test::MapKernel(Op::kHardsigmoid, DType::kInt32), nullptr);
}

// ---- LogSoftmax ---------------------------------------------------------------------

// The AR path over one row: max, sums and output in chunks of `chunk` elements (a multiple
// of 16 for the sums; the max and output chunks are offset by 5 to test any split).
void RunAr(const kernels::SoftmaxForwardKernels& k, const void* x, void* out, size_t n,
           size_t esize, size_t chunk) {
  const uint8_t* xb = static_cast<const uint8_t*>(x);
  uint8_t* ob = static_cast<uint8_t*>(out);
  float max = -INFINITY;
  const size_t max_chunk = chunk > 5 ? chunk - 5 : chunk;
  for (size_t i = 0; i < n; i += max_chunk)
    k.row_max(xb + i * esize, std::min(max_chunk, n - i), &max);
  double partials[kernels::kRowPartials] = {};
  for (size_t i = 0; i < n; i += chunk) {
    k.row_sum_exp(xb + i * esize, std::min(chunk, n - i), max, partials);
  }
  const double log_sum = kernels::RowStat(k, x, n, esize, chunk, max, partials);
  const size_t out_chunk = chunk + 5;
  for (size_t i = 0; i < n; i += out_chunk) {
    k.row_out(xb + i * esize, max, log_sum, ob + i * esize, std::min(out_chunk, n - i));
  }
}

struct LsmStats {
  double worst = 0;  // the largest |err| / bound
  double worst_ulp = 0;
};

// Checks a row against the reference; returns false (and adds a failure) if out of bounds.
void CheckRow(DType dtype, const Raw& x, const Raw& out, size_t n, size_t stride, size_t base,
              LsmStats* stats) {
  std::vector<double> xd(n), ref(n), xm(n);
  for (size_t i = 0; i < n; ++i) xd[i] = x.Get(base + i * stride);
  LogSoftmaxRowRef(xd.data(), static_cast<int64_t>(n), ref.data(), xm.data());
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    const double got = out.Get(base + i * stride);
    if (!LogSoftmaxForwardWithinTolerance(dtype, got, ref[i], xm[i])) {
      if (++bad <= 3) {
        ADD_FAILURE() << "n " << n << " element " << i << ": x " << xd[i] << " got " << got
                      << " exact " << ref[i] << " bound "
                      << LogSoftmaxForwardBound(dtype, ref[i], xm[i]);
      }
    }
    if (std::isfinite(ref[i]) && std::isfinite(got)) {
      stats->worst = std::max(
          stats->worst, std::fabs(got - ref[i]) / LogSoftmaxForwardBound(dtype, ref[i], xm[i]));
      stats->worst_ulp = std::max(stats->worst_ulp, UlpError(dtype, got, ref[i]));
    }
  }
}

double RandomLogit(DType dtype, std::mt19937_64& rng, double scale) {
  std::normal_distribution<double> nd(0.0, scale);
  const double v = nd(rng);
  return dtype == DType::kFloat32   ? static_cast<double>(static_cast<float>(v))
         : dtype == DType::kFloat16 ? F16ToDouble(DoubleToF16(v))
                                    : BF16ToDouble(DoubleToBF16(v));
}

std::vector<size_t> RowLengths(std::mt19937_64& rng) {
  std::vector<size_t> lens;
  for (size_t n = 1; n <= 70; ++n) lens.push_back(n);
  std::uniform_int_distribution<size_t> len(71, 5000);
  for (int i = 0; i < 40; ++i) lens.push_back(len(rng));
  for (size_t n : {kernels::kRowWholeMax - 1, kernels::kRowWholeMax, kernels::kRowWholeMax + 1})
    lens.push_back(n);
  lens.push_back(5000);
  return lens;
}

TEST(ForwardLogSoftmax, ArRowsWithinBoundAndChunkedEqualsWhole) {
  std::mt19937_64 rng(11);
  const std::vector<size_t> lens = RowLengths(rng);
  for (DType dtype : kDTypes) {
    SCOPED_TRACE(DTypeText(dtype));
    const size_t es = ElemSize(dtype);
    std::vector<std::vector<uint8_t>> firsts[2];  // per family, per row: the first target's bits
    ForEachTarget([&](int64_t) {
      std::vector<std::vector<uint8_t>>& first = firsts[FusedFamily()];
      LsmStats stats;
      const kernels::SoftmaxForwardKernels k =
          kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      const kernels::SoftmaxForwardKernels ks = kernels::GetSoftmaxForward(
          kernels::RowFunction::kLogSoftmax, dtype, dtype, kernels::StoreMode::kStream);
      ASSERT_NE(k.row_max, nullptr);
      std::mt19937_64 vals(5);
      size_t row_index = 0;
      for (size_t n : lens) {
        const double scale = (row_index % 3 == 0) ? 1.0 : (row_index % 3 == 1) ? 10.0 : 300.0;
        Raw x(dtype, n, row_index % 3), out(dtype, n), chunked(dtype, n), streamed(dtype, n, 1);
        for (size_t i = 0; i < n; ++i) x.Set(i, RandomLogit(dtype, vals, scale));
        RunAr(k, x.data(), out.data(), n, es, n + 16);
        CheckRow(dtype, x, out, n, 1, 0, &stats);
        RunAr(k, x.data(), chunked.data(), n, es, kernels::kRowSumBlock * (1 + n % 7));
        RunAr(ks, x.data(), streamed.data(), n, es, 64);
        ASSERT_EQ(std::memcmp(out.data(), chunked.data(), n * es), 0) << "chunked, n " << n;
        ASSERT_EQ(std::memcmp(out.data(), streamed.data(), n * es), 0) << "stream, n " << n;
        if (n <= kernels::kRowWholeMax) {  // one call, and in place
          Raw whole(dtype, n, 2), in_place(dtype, n);
          k.row_whole(x.data(), n, whole.data());
          ASSERT_EQ(std::memcmp(out.data(), whole.data(), n * es), 0) << "row_whole, n " << n;
          std::memcpy(in_place.data(), x.data(), n * es);
          k.row_whole(in_place.data(), n, in_place.data());
          ASSERT_EQ(std::memcmp(out.data(), in_place.data(), n * es), 0) << "in place, n " << n;
        }
        std::vector<uint8_t> bits(static_cast<const uint8_t*>(out.data()),
                                  static_cast<const uint8_t*>(out.data()) + n * es);
        if (first.size() <= row_index) {
          first.push_back(bits);
        } else {
          ASSERT_EQ(bits, first[row_index]) << "differs from its family's first target, n " << n;
        }
        ++row_index;
      }
      std::printf("  LogSoftmax  %-4s %-6s AR rows 1..5000: worst |err| / bound %.3g, %.3g ULP\n",
                  DTypeText(dtype), kernels::ActiveTargetName().c_str(), stats.worst,
                  stats.worst_ulp);
    });
  }
}

TEST(ForwardLogSoftmax, LongRowsWithinBound) {
  std::mt19937_64 rng(3);
  for (DType dtype : kDTypes) {
    SCOPED_TRACE(DTypeText(dtype));
    const size_t n = size_t{1} << 20;
    const size_t es = ElemSize(dtype);
    Raw x(dtype, n);
    for (size_t i = 0; i < n; ++i) x.Set(i, RandomLogit(dtype, rng, i % 2 ? 1.0 : 0.01));
    std::vector<uint8_t> firsts[2];  // per family
    ForEachTarget([&](int64_t) {
      std::vector<uint8_t>& first = firsts[FusedFamily()];
      const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      Raw out(dtype, n), in_place(dtype, n);
      RunAr(k, x.data(), out.data(), n, es, n);
      LsmStats stats;
      CheckRow(dtype, x, out, n, 1, 0, &stats);
      std::memcpy(in_place.data(), x.data(), n * es);
      RunAr(k, in_place.data(), in_place.data(), n, es, 4096);
      ASSERT_EQ(std::memcmp(out.data(), in_place.data(), n * es), 0) << "in place / chunked";
      std::printf("  LogSoftmax  %-4s %-6s AR row of 2^20: worst |err| / bound %.3g, %.3g ULP\n",
                  DTypeText(dtype), kernels::ActiveTargetName().c_str(), stats.worst,
                  stats.worst_ulp);
      std::vector<uint8_t> bits(static_cast<const uint8_t*>(out.data()),
                                static_cast<const uint8_t*>(out.data()) + n * es);
      if (first.empty()) first = bits;
      ASSERT_EQ(bits, first) << "differs from its family's first target";
    });
  }
}

// ARA: an (R x A0) slab reduced along R, in column tiles of any width: within the bound,
// the tiles' results bitwise those of one whole-width call, and the same on every target
// of a family.
TEST(ForwardLogSoftmax, AraBlocksWithinBoundAndTiledEqualsWhole) {
  std::mt19937_64 rng(17);
  const size_t shapes[][2] = {{1, 1},    {1, 37},   {2, 3},   {3, 16},   {7, 33},   {64, 5},
                              {129, 70}, {1000, 3}, {5, 600}, {4097, 2}, {33, 1100}};
  for (DType dtype : kDTypes) {
    SCOPED_TRACE(DTypeText(dtype));
    const size_t es = ElemSize(dtype);
    std::vector<std::vector<uint8_t>> firsts[2];  // per family, per shape
    ForEachTarget([&](int64_t) {
      std::vector<std::vector<uint8_t>>& first = firsts[FusedFamily()];
      const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      const auto ks = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype,
                                                 kernels::StoreMode::kStream);
      ASSERT_NE(k.ara_block, nullptr);
      LsmStats stats;
      std::mt19937_64 vals(23);
      size_t si = 0;
      for (const auto& s : shapes) {
        const size_t r = s[0], a0 = s[1];
        Raw x(dtype, r * a0), out(dtype, r * a0), tiled(dtype, r * a0), streamed(dtype, r * a0);
        const double scale = si % 2 ? 5.0 : 100.0;
        for (size_t i = 0; i < r * a0; ++i) x.Set(i, RandomLogit(dtype, vals, scale));
        std::vector<float> max(a0);
        std::vector<double> acc(a0);
        k.ara_block(x.data(), out.data(), r, a0, a0, max.data(), acc.data());
        ks.ara_block(x.data(), streamed.data(), r, a0, a0, max.data(), acc.data());
        for (size_t c = 0; c < a0; ++c) CheckRow(dtype, x, out, r, a0, c, &stats);
        // Column tiles of width 1, 5, 17, ...
        const size_t tile = 1 + (si * 4) % 17;
        for (size_t c0 = 0; c0 < a0; c0 += tile) {
          const size_t w = std::min(tile, a0 - c0);
          k.ara_block(static_cast<const uint8_t*>(x.data()) + c0 * es,
                      static_cast<uint8_t*>(tiled.data()) + c0 * es, r, a0, w, max.data(),
                      acc.data());
        }
        ASSERT_EQ(std::memcmp(out.data(), tiled.data(), r * a0 * es), 0)
            << "tiled " << r << "x" << a0;
        ASSERT_EQ(std::memcmp(out.data(), streamed.data(), r * a0 * es), 0) << "stream";
        // Statistics, then the output row by row (the executor's by-rows path); the
        // column kernels give the narrow kernel's bits too.
        Raw by_rows(dtype, r * a0);
        std::vector<float> smax(a0), ls(a0);
        k.ara_stats(x.data(), r, a0, a0, smax.data(), acc.data(), ls.data());
        for (size_t row = 0; row < r; ++row) {
          k.cols_out(static_cast<const uint8_t*>(x.data()) + row * a0 * es, smax.data(), ls.data(),
                     static_cast<uint8_t*>(by_rows.data()) + row * a0 * es, a0);
        }
        ASSERT_EQ(std::memcmp(out.data(), by_rows.data(), r * a0 * es), 0) << "by rows";
        // In place.
        Raw inplace(dtype, r * a0);
        std::memcpy(inplace.data(), x.data(), r * a0 * es);
        k.ara_block(inplace.data(), inplace.data(), r, a0, a0, max.data(), acc.data());
        ASSERT_EQ(std::memcmp(out.data(), inplace.data(), r * a0 * es), 0) << "in place";
        std::vector<uint8_t> bits(static_cast<const uint8_t*>(out.data()),
                                  static_cast<const uint8_t*>(out.data()) + r * a0 * es);
        if (first.size() <= si) {
          first.push_back(bits);
        } else {
          ASSERT_EQ(bits, first[si])
              << "differs from its family's first target, " << r << "x" << a0;
        }
        ++si;
      }
      std::printf("  LogSoftmax  %-4s %-6s ARA blocks: worst |err| / bound %.3g, %.3g ULP\n",
                  DTypeText(dtype), kernels::ActiveTargetName().c_str(), stats.worst,
                  stats.worst_ulp);
    });
  }
}

// The AR and ARA paths over the same values (a row, and the same values as a column)
// both meet the bound; their sums differ only in rounding order.
TEST(ForwardLogSoftmax, ArAndAraAgree) {
  std::mt19937_64 rng(29);
  for (DType dtype : kDTypes) {
    const size_t es = ElemSize(dtype);
    for (size_t n : {1, 15, 16, 17, 250, 3000}) {
      Raw x(dtype, n), ar(dtype, n), ara(dtype, n);
      for (size_t i = 0; i < n; ++i) x.Set(i, RandomLogit(dtype, rng, 20.0));
      const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      RunAr(k, x.data(), ar.data(), n, es, kernels::kRowSumBlock);
      float max = 0;
      double acc = 0;
      k.ara_block(x.data(), ara.data(), n, 1, 1, &max, &acc);  // a column of n rows
      LsmStats stats;
      CheckRow(dtype, x, ar, n, 1, 0, &stats);
      CheckRow(dtype, x, ara, n, 1, 0, &stats);
      double pmax = -INFINITY;
      for (size_t i = 0; i < n; ++i) pmax = std::max(pmax, x.Get(i));
      EXPECT_EQ(max, static_cast<float>(pmax));
      for (size_t i = 0; i < n; ++i) {
        EXPECT_LE(std::fabs(ar.Get(i) - ara.Get(i)),
                  2 * LogSoftmaxForwardBound(dtype, ar.Get(i), x.Get(i) - pmax));
      }
    }
  }
}

// Rows with +inf, -inf, NaN and huge values, through both paths, on every target.
TEST(ForwardLogSoftmax, SpecialRows) {
  const double inf = INFINITY;
  const std::vector<std::vector<double>> rows = {
      {1.0, inf, 2.0},                   // +inf: NaN throughout
      {-inf, -inf, -inf},                // all -inf: NaN
      {-inf},                            //
      {1.0, NAN, 3.0},                   // NaN: NaN throughout
      {-inf, 0.5, -inf, 2.0},            // -inf beside finite: -inf there
      {1e38, 1e38, -1e38, 3e38, -3e38},  // never overflows (f32); -6e38 rounds to -inf
      {3e38, 3e38, 3e38},                // log(3) each
      {-1e38, -1e38},                    //
      {0.0, -0.0},                       //
      {-200.0, 0.0},                     //
      {0.0, -60.0},                      // 1 + 8.8e-27: the max's result is -8.8e-27
      {3.0, -40.0, -41.0, -45.0},        //
  };
  ForEachTarget([&](int64_t) {
    for (DType dtype : kDTypes) {
      SCOPED_TRACE(DTypeText(dtype));
      const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      const size_t es = ElemSize(dtype);
      for (size_t ri = 0; ri < rows.size(); ++ri) {
        const auto& row = rows[ri];
        const size_t n = row.size();
        Raw x(dtype, n), ar(dtype, n), ara(dtype, n), whole(dtype, n);
        for (size_t i = 0; i < n; ++i) x.Set(i, row[i]);
        RunAr(k, x.data(), ar.data(), n, es, kernels::kRowSumBlock);
        k.row_whole(x.data(), n, whole.data());
        ASSERT_EQ(std::memcmp(ar.data(), whole.data(), n * es), 0) << "row_whole";
        std::vector<float> max(1);
        std::vector<double> acc(1);
        k.ara_block(x.data(), ara.data(), n, 1, 1, max.data(), acc.data());
        LsmStats stats;
        SCOPED_TRACE("row " + std::to_string(ri));
        CheckRow(dtype, x, ar, n, 1, 0, &stats);
        CheckRow(dtype, x, ara, n, 1, 0, &stats);
      }
      // Expectations spelled out for the SPEC's cases.
      Raw x(dtype, 3), out(dtype, 3);
      x.Set(0, 1.0), x.Set(1, inf), x.Set(2, 2.0);
      RunAr(k, x.data(), out.data(), 3, es, 16);
      for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(out.Get(i))) << "+inf row";
      x.Set(0, -inf), x.Set(1, -inf), x.Set(2, -inf);
      RunAr(k, x.data(), out.data(), 3, es, 16);
      for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(std::isnan(out.Get(i))) << "-inf row";
      x.Set(0, -inf), x.Set(1, 0.0), x.Set(2, -inf);
      RunAr(k, x.data(), out.data(), 3, es, 16);
      EXPECT_EQ(out.Get(0), -inf);
      EXPECT_EQ(out.Get(1), 0.0);
      if (dtype != DType::kFloat16) {
        // A sum of 1 + 8.8e-27: -8.8e-27 at the max (f16 has no such value), not 0; both
        // paths.
        x.Set(0, -60.0), x.Set(1, 0.0), x.Set(2, -70.0);
        RunAr(k, x.data(), out.data(), 3, es, kernels::kRowSumBlock);
        const double tiny = -(std::exp(-60.0) + std::exp(-70.0));
        EXPECT_NEAR(out.Get(1) / tiny, 1.0, 1e-2) << out.Get(1);
        float col_max = 0;
        double col_acc = 0;
        k.ara_block(x.data(), out.data(), 3, 1, 1, &col_max, &col_acc);
        EXPECT_NEAR(out.Get(1) / tiny, 1.0, 1e-2) << out.Get(1);
        x.Set(0, 1e38), x.Set(1, 1e38), x.Set(2, -1e38);
        RunAr(k, x.data(), out.data(), 3, es, 16);
        EXPECT_NEAR(out.Get(0), -std::log(2.0), 1e-2);
        EXPECT_TRUE(std::isfinite(out.Get(2)));
      }
    }
  });
}

// One element at the max and the rest between 2^-24 and 2^-12 of it: -log of the sum is
// the max's own (small) result, so the sums may not round the rest against the max's
// exp(0) = 1 in f32 (the f32 group sums once gave -9.5e-7 for -1.0e-6 in bf16). Rows of
// 64 and more elements (whole f32 groups) and columns, with the second element in each
// position of a group, and a row of equal maxima.
TEST(ForwardLogSoftmax, MaxBesideSmallTermsKeepsItsResult) {
  ForEachTarget([&](int64_t) {
    for (DType dtype : kDTypes) {
      SCOPED_TRACE(DTypeText(dtype));
      const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
      const size_t es = ElemSize(dtype);
      LsmStats stats;
      for (size_t n : {64, 128, 200, 4096, 5000}) {
        for (double v : {-11.0, -12.0, -13.5, -13.8, -16.0}) {
          for (size_t pos : {1, 16, 33, 63}) {
            Raw x(dtype, n), ar(dtype, n), whole(dtype, n), ara(dtype, n);
            for (size_t i = 0; i < n; ++i) x.Set(i, -300.0);
            x.Set(0, 0.5), x.Set(pos, 0.5 + v);
            SCOPED_TRACE("n " + std::to_string(n) + " v " + std::to_string(v) + " at " +
                         std::to_string(pos));
            RunAr(k, x.data(), ar.data(), n, es, kernels::kRowSumBlock);
            CheckRow(dtype, x, ar, n, 1, 0, &stats);
            if (n <= kernels::kRowWholeMax) {
              k.row_whole(x.data(), n, whole.data());
              CheckRow(dtype, x, whole, n, 1, 0, &stats);
            }
            float max = 0;
            double acc = 0;
            k.ara_block(x.data(), ara.data(), n, 1, 1, &max, &acc);
            CheckRow(dtype, x, ara, n, 1, 0, &stats);
            // The same column beside 20 others (the block and narrow kernels).
            for (size_t w : {2, 21}) {
              Raw xs(dtype, n * w), outs(dtype, n * w);
              for (size_t i = 0; i < n * w; ++i) xs.Set(i, x.Get(i / w));
              std::vector<float> mx(w);
              std::vector<double> ac(w);
              k.ara_block(xs.data(), outs.data(), n, w, w, mx.data(), ac.data());
              CheckRow(dtype, xs, outs, n, w, w - 1, &stats);
            }
          }
        }
        Raw x(dtype, n), ar(dtype, n);  // equal maxima: log(n) each
        for (size_t i = 0; i < n; ++i) x.Set(i, 2.0);
        RunAr(k, x.data(), ar.data(), n, es, kernels::kRowSumBlock);
        CheckRow(dtype, x, ar, n, 1, 0, &stats);
      }
    }
  });
}

TEST(ForwardLogSoftmax, NullForMixedOrOtherDTypes) {
  EXPECT_EQ(kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, DType::kFloat32,
                                       DType::kFloat16)
                .row_max,
            nullptr);
  EXPECT_EQ(kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, DType::kFloat64,
                                       DType::kFloat64)
                .ara_block,
            nullptr);
}

// The forward's output through the existing backward kernels (GetLogSoftmax) against the
// composition in double: dx = dy - exp(y) sum(dy), y = LogSoftmax(x) exact. Tolerance:
// the backward's SPEC rule, 2^-21 (|dy| + exp(y) sum|dy|). (The forward's own error, carried
// through exp(y), adds up to exp(y) sum|dy| times the forward bound of y; the rows here
// stay within the backward rule alone, which the test asserts.)
TEST(ForwardLogSoftmax, RoundTripThroughBackward) {
  std::mt19937_64 rng(41);
  const DType dtype = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    const auto fwd = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
    const auto bwd = kernels::GetSoftmaxBackward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
    ASSERT_NE(bwd.row_sum, nullptr);
    double worst = 0;
    for (size_t n : {1, 7, 16, 100, 1000, 4097}) {
      std::vector<float> x(n), y(n), dy(n), dx(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(RandomLogit(dtype, rng, n % 2 ? 4.0 : 30.0));
        dy[i] = static_cast<float>(RandomLogit(dtype, rng, 1.0));
      }
      RunAr(fwd, x.data(), y.data(), n, 4, 64);
      double partials[kernels::kRowPartials] = {};
      bwd.row_sum(dy.data(), y.data(), n, partials);
      bwd.row_out(dy.data(), y.data(), kernels::CombinePartials(partials), dx.data(), n);
      std::vector<double> xd(x.begin(), x.end()), yref(n), xm(n);
      LogSoftmaxRowRef(xd.data(), static_cast<int64_t>(n), yref.data(), xm.data());
      double sum = 0, abs_sum = 0;
      for (size_t i = 0; i < n; ++i) sum += dy[i], abs_sum += std::fabs(dy[i]);
      for (size_t i = 0; i < n; ++i) {
        const double exact = dy[i] - std::exp(yref[i]) * sum;
        const double p = std::exp(yref[i]) * abs_sum;
        const double bound = std::ldexp(1.0, -21) * (std::fabs(dy[i]) + p);
        const double err = std::fabs(dx[i] - exact);
        EXPECT_LE(err, bound) << "n " << n << " i " << i;
        worst = std::max(worst, err / bound);
      }
    }
    std::printf("  LogSoftmax round trip %-6s worst |err| / bound %.3g\n",
                kernels::ActiveTargetName().c_str(), worst);
  });
}

// ---- Relu in a 16-bit dtype's own bits ------------------------------------------------

// Relu and InplaceRelu on FLOAT16 and BFLOAT16 run in the storage type's bits (ApplyBits):
// every input's result, bit for bit, is what the f32 path stores: the input where its value
// is above 0, +0 where it is 0, -0 or negative, and a NaN as a NaN input comes back through
// the f32 path (FLOAT16: sign | 0x7E00; BFLOAT16: its own bits), on every target, with plain
// and streaming stores, in place, and from an unaligned start with a partial last vector.
TEST(ForwardUnary, ReluSixteenBitBitsOnEveryTarget) {
  for (Op op : {Op::kRelu, Op::kInplaceRelu}) {
    for (DType dtype : {DType::kFloat16, DType::kBFloat16}) {
      SCOPED_TRACE(std::string(GetOpInfo(op).name) + " " + DTypeText(dtype));
      const size_t n = 65536;
      std::vector<uint16_t> x(n), want(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = static_cast<uint16_t>(i);
        const double v = dtype == DType::kFloat16 ? F16ToDouble(x[i]) : BF16ToDouble(x[i]);
        if (std::isnan(v)) {
          want[i] =
              dtype == DType::kFloat16 ? static_cast<uint16_t>((x[i] & 0x8000) | 0x7E00) : x[i];
        } else {
          want[i] = v > 0.0 ? x[i] : 0;
        }
      }
      ForEachTarget([&](int64_t) {
        for (kernels::StoreMode mode : {kernels::StoreMode::kCached, kernels::StoreMode::kStream}) {
          const kernels::MapFn fn = test::MapKernel(op, dtype, mode);
          ASSERT_NE(fn, nullptr);
          std::vector<uint16_t> out(n + 1, 0x5555), in_place(x);
          test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op));
          test::RunMap(fn, in_place.data(), in_place.data(), n, test::KernelParams(op));
          // From element 1 (2 bytes off every vector boundary), 65533 elements.
          std::vector<uint16_t> shifted(n + 1, 0x5555);
          test::RunMap(fn, x.data() + 1, shifted.data() + 1, n - 3, test::KernelParams(op));
          for (size_t i = 0; i < n; ++i) {
            ASSERT_EQ(out[i], want[i]) << "x bits 0x" << std::hex << i;
            ASSERT_EQ(in_place[i], want[i]) << "in place, x bits 0x" << std::hex << i;
            if (i >= 1 && i < n - 2)
              ASSERT_EQ(shifted[i], want[i]) << "shifted, x bits 0x" << std::hex << i;
          }
          EXPECT_EQ(out[n], 0x5555);  // nothing written past the end
          EXPECT_EQ(shifted[0], 0x5555);
          EXPECT_EQ(shifted[n - 2], 0x5555);
        }
      });
    }
  }
}

// ---- The softmax backward's row sums ---------------------------------------------------

// The row sum's definition, written out one partial at a time in scalar code: partial p
// takes, for each whole block of kRowSumBlock elements from the row's first, the f32 sum
// (t0 + t1) + (t2 + t3) of its four terms (dy, or dy * y rounded to f32) where that sum is
// finite, else the four terms in double, in order; then the term of every element past
// the last whole block, in double, in order.
void RowSumModel(bool softmax, const std::vector<float>& dy, const std::vector<float>& y,
                 double* partials) {
  const size_t n = dy.size(), block = kernels::kRowSumBlock, groups = 4;
  const auto term = [&](size_t i) {
    return softmax ? static_cast<double>(dy[i]) * y[i] : static_cast<double>(dy[i]);
  };
  const auto term_f32 = [&](size_t i) {
    const float t = softmax ? dy[i] * y[i] : dy[i];
    return t;
  };
  const size_t whole = n / block * block;
  for (size_t p = 0; p < kernels::kRowPartials; ++p) {
    for (size_t b = 0; b < whole; b += block) {
      float t[4];
      for (size_t g = 0; g < groups; ++g) t[g] = term_f32(b + g * kernels::kRowPartials + p);
      const float f = (t[0] + t[1]) + (t[2] + t[3]);
      if (std::isfinite(f)) {
        partials[p] += static_cast<double>(f);
      } else {
        for (size_t g = 0; g < groups; ++g) partials[p] += term(b + g * kernels::kRowPartials + p);
      }
    }
  }
  for (size_t i = whole; i < n; ++i) partials[i % kernels::kRowPartials] += term(i);
}

// Stored as dtype and read back, so that the model sees what the kernel loads.
std::vector<uint16_t> Narrow(DType dtype, std::vector<float>* v) {
  std::vector<uint16_t> bits(v->size());
  for (size_t i = 0; i < v->size(); ++i) {
    bits[i] = dtype == DType::kFloat16 ? DoubleToF16((*v)[i]) : DoubleToBF16((*v)[i]);
    (*v)[i] =
        static_cast<float>(dtype == DType::kFloat16 ? F16ToDouble(bits[i]) : BF16ToDouble(bits[i]));
  }
  return bits;
}

// Every target's row_sum gives the model's partials bit for bit (so every target gives the
// same bits), for either row function and every input dtype, whole and in chunks of any
// multiple of kRowSumBlock; with lanes whose block sum is not finite (dy's sum beyond f32's
// range, an infinite or NaN input) beside lanes whose sum is, in the same vectors.
TEST(SoftmaxBackwardRowSums, TheDefinitionOnEveryTarget) {
  std::mt19937_64 rng(77);
  std::uniform_real_distribution<double> u(-4.0, 4.0), prob(0.0, 1.0);
  struct Row {
    size_t n;
    int special;  // 0 none; 1 dy = +-2e38 in partial 3's blocks; 2 inf in one; 3 NaN in one
  };
  const Row rows[] = {{1, 0},    {15, 0},   {63, 0},  {64, 0},   {65, 0},  {200, 0},
                      {1000, 0}, {4097, 0}, {256, 1}, {1000, 1}, {300, 2}, {300, 3}};
  ForEachTarget([&](int64_t) {
    for (bool softmax : {false, true}) {
      const auto fn = softmax ? kernels::RowFunction::kSoftmax : kernels::RowFunction::kLogSoftmax;
      for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
        const auto k = kernels::GetSoftmaxBackward(fn, dtype, dtype);
        ASSERT_NE(k.row_sum, nullptr);
        for (const Row& row : rows) {
          const size_t n = row.n;
          std::vector<float> dy(n), y(n);
          for (size_t i = 0; i < n; ++i) {
            dy[i] = static_cast<float>(u(rng));
            y[i] = static_cast<float>(softmax ? prob(rng) : -prob(rng) * 8.0);
          }
          if (row.special == 1) {  // partial 3: four 2e38 a block (8e38 in double); partial 4 too,
                                   // with signs that cancel
            for (size_t i = 3; i < n; i += kernels::kRowPartials) dy[i] = 2e38f, y[i] = 1.0f;
            for (size_t i = 4; i < n; i += kernels::kRowPartials) {
              dy[i] = (i / kernels::kRowPartials) % 2 ? 3e38f : -3e38f, y[i] = 1.0f;
            }
          }
          if (row.special == 2) dy[70] = -INFINITY;
          if (row.special == 3) y[133] = NAN, dy[133] = softmax ? 1.0f : NAN;
          std::vector<uint16_t> dy16, y16;
          const void* pdy = dy.data();
          const void* py = y.data();
          if (dtype != DType::kFloat32) {
            dy16 = Narrow(dtype, &dy);
            y16 = Narrow(dtype, &y);
            pdy = dy16.data(), py = y16.data();
          }
          const size_t es = dtype == DType::kFloat32 ? 4 : 2;
          double want[kernels::kRowPartials] = {};
          RowSumModel(softmax, dy, y, want);
          for (size_t chunk : {n, size_t{64}, size_t{192}, size_t{1024}}) {
            double got[kernels::kRowPartials] = {};
            for (size_t c0 = 0; c0 < n; c0 += chunk) {
              k.row_sum(static_cast<const char*>(pdy) + c0 * es,
                        static_cast<const char*>(py) + c0 * es, std::min(chunk, n - c0), got);
            }
            for (size_t p = 0; p < kernels::kRowPartials; ++p) {
              ASSERT_EQ(std::memcmp(&got[p], &want[p], sizeof(double)), 0)
                  << (softmax ? "Softmax " : "LogSoftmax ") << DTypeName(dtype) << " n " << n
                  << " special " << row.special << " chunk " << chunk << " partial " << p
                  << ": got " << got[p] << ", the definition " << want[p];
            }
          }
        }
      }
    }
  });
}

// ---- timing (run with --gtest_also_run_disabled_tests) --------------------------------

double MedianNs(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

TEST(ForwardTiming, DISABLED_NsPerElement1M) {
  const size_t n = size_t{1} << 20;
  std::mt19937_64 rng(1);
  for (DType dtype : kDTypes) {
    Raw x(dtype, n), out(dtype, n);
    for (size_t i = 0; i < n; ++i) x.Set(i, RandomValue(dtype, rng, -10.0, 10.0));
    for (const UnaryCase& op : UnaryCases()) {
      const auto fn = test::MapKernel(op.kind, dtype);
      std::vector<double> t;
      test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op.kind));
      for (int rep = 0; rep < 7; ++rep) {
        const auto t0 = std::chrono::steady_clock::now();
        test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op.kind));
        t.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                        .count());
      }
      std::printf("  %-11s %-4s %-6s %.3f ns/element (1M, median of 7, one thread)\n", op.name,
                  DTypeText(dtype), kernels::ActiveTargetName().c_str(), MedianNs(t) / n);
    }
    const auto k = kernels::GetSoftmaxForward(kernels::RowFunction::kLogSoftmax, dtype, dtype);
    std::vector<double> t;
    for (int rep = 0; rep < 8; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      RunAr(k, x.data(), out.data(), n, ElemSize(dtype), n);
      const double ns =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0) t.push_back(ns);
    }
    std::printf("  LogSoftmax  %-4s %-6s %.3f ns/element (AR, one row of 1M, median of 7)\n",
                DTypeText(dtype), kernels::ActiveTargetName().c_str(), MedianNs(t) / n);
    t.clear();
    std::vector<float> max(1024);
    std::vector<double> acc(1024);
    for (int rep = 0; rep < 8; ++rep) {
      const auto t0 = std::chrono::steady_clock::now();
      k.ara_block(x.data(), out.data(), 1024, 1024, 1024, max.data(), acc.data());
      const double ns =
          std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
      if (rep > 0) t.push_back(ns);
    }
    std::printf("  LogSoftmax  %-4s %-6s %.3f ns/element (ARA, 1024 x 1024 block, median of 7)\n",
                DTypeText(dtype), kernels::ActiveTargetName().c_str(), MedianNs(t) / n);
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
