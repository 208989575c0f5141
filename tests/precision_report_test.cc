// The precision tables of the release notes, printed to stdout while every element is still
// held to its SPEC §4 tolerance: for every gradient x dtype x SIMD target, the largest error
// in ULP of the output type over a large random, bit-pattern and special-value sweep; and
// for every elementwise operator x 16-bit dtype x target, over every 16-bit input, how far
// results lie from the correctly rounded value and how many are not rounded once.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hostnn/hostnn.h"
#include "kernels/kernels.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

const double kTwoPowMinus21 = std::ldexp(1.0, -21);
// A result is near zero when |exact| < kNearZero * scale, scale being what the SPEC's
// absolute bound is proportional to (|dy|; |dy| + exp(y) sum|dy| for LogSoftmax). There the
// ULP is meaningless (the exact result cancels) and the absolute bound is what applies.
const double kNearZero = std::ldexp(1.0, -10);

// One line of the table.
struct Row {
  std::string op, dtype, target;
  int64_t elements = 0;
  double max_ulp = 0;           // UlpError of the output type, NaN-for-NaN counted as 0
  double max_ulp_off_zero = 0;  // the same over results not near zero (see kNearZero)
  int64_t over_4ulp = 0;        // FLOAT only: elements the SPEC accepts by its absolute bound
  double bound_used = 0;        // max over elements of error / SPEC allowance (<= 1 passes)
  std::string worst;            // the inputs of the element with the largest bound_used
  int64_t out_of_spec = 0;      // elements the reference rejects
};

Row NewRow(const char* op, DType dtype, int64_t target) {
  Row row;
  row.op = op;
  row.dtype = DTypeName(dtype);
  row.target = kernels::TargetName(target);
  return row;
}

// The share of its SPEC allowance an element's error uses: 16-bit |error| over half a
// narrow ULP plus the larger of the midpoint window (2^-21 |exact|) and the FLOAT rule's
// absolute bound (0 when correctly rounded); FLOAT elementwise the better of ULP / 4 and
// the error over 2^-21 |dy|; FLOAT LogSoftmax the error over 2^-21 (|dy| + exp(y) sum|dy|).
double BoundUsed(DType out, double got, double exact, double ulp, double abs_allowance,
                 bool has_ulp_rule) {
  if (std::isnan(got) || std::isnan(exact))
    return std::isnan(got) && std::isnan(exact) ? 0 : INFINITY;
  if (got == exact) return 0;
  if (out == DType::kFloat16 || out == DType::kBFloat16) {
    if (ulp == 0) return 0;
    if (std::isinf(got) || std::isinf(exact)) return INFINITY;
    const double window = std::max(kMidpointWindow * std::fabs(exact), abs_allowance);
    return std::fabs(got - exact) / (0.5 * UlpOf(out, exact) + window);
  }
  const double by_abs = std::fabs(got - exact) / abs_allowance;
  return has_ulp_rule ? std::min(ulp / 4.0, by_abs) : by_abs;
}

void Account(Row* row, DType out, double got, double exact, double abs_allowance, bool has_ulp_rule,
             bool within, double dy, double x) {
  ++row->elements;
  const double ulp = UlpError(out, got, exact);
  if (ulp > row->max_ulp) row->max_ulp = ulp;
  const double scale = abs_allowance / kTwoPowMinus21;
  const bool near_zero = std::isfinite(exact) && std::fabs(exact) < kNearZero * scale;
  if (!near_zero && ulp > row->max_ulp_off_zero) row->max_ulp_off_zero = ulp;
  if (out != DType::kFloat16 && out != DType::kBFloat16 && ulp > 4) ++row->over_4ulp;
  const double used = BoundUsed(out, got, exact, ulp, abs_allowance, has_ulp_rule);
  if (row->worst.empty() || used > row->bound_used) {
    row->bound_used = used;
    char text[96];
    std::snprintf(text, sizeof(text), "dy=%.6g %s=%.6g", dy, has_ulp_rule ? "x" : "y", x);
    row->worst = text;
  }
  if (!within) ++row->out_of_spec;
}

// ---- inputs ------------------------------------------------------------------------------

struct Pairs {
  std::vector<double> dy, x;
  void Add(double a, double b) {
    dy.push_back(a);
    x.push_back(b);
  }
};

// The elementwise sweep for `dtype`: random bands, bit patterns of x, special values.
Pairs EltwiseSweep(Op op, DType t, std::mt19937_64& rng) {
  Pairs p;
  const double max_log2 = t == DType::kFloat16 ? 12 : 20;
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  for (int i = 0; i < 65536; ++i) p.Add(RandomValue(t, rng, -4, 4), RandomValue(t, rng, -12, 12));
  for (int i = 0; i < 32768; ++i) p.Add(RandomValue(t, rng, -4, 4), RandomValue(t, rng, -40, 40));
  for (int i = 0; i < 32768; ++i) {  // |dy| over many binades
    const double mag = std::exp2(max_log2 * (2 * unit(rng) - 1));
    p.Add(RoundTo(t, unit(rng) < 0.5 ? -mag : mag), RandomValue(t, rng, -12, 12));
  }
  // x over its bit patterns: every 16-bit pattern, or every f32 sign/exponent/top-mantissa
  // pattern with random low bits.
  for (uint32_t i = 0; i < 65536; ++i) {
    double x = 0;
    if (t == DType::kFloat16) {
      x = F16ToDouble(static_cast<uint16_t>(i));
    } else if (t == DType::kBFloat16) {
      x = BF16ToDouble(static_cast<uint16_t>(i));
    } else {
      const uint32_t bits = (i << 16) | static_cast<uint32_t>(rng() & 0xFFFF);
      float f;
      std::memcpy(&f, &bits, sizeof(f));
      x = f;
    }
    p.Add(RandomValue(t, rng, -4, 4), x);
  }
  for (double dy : SpecialDy(t)) {
    for (double x : SpecialX(t)) {
      if (!HugeTimesUnderflow(dy, x) && !InfiniteAtSiluRoot(op, t, dy, x)) p.Add(dy, x);
    }
  }
  return p;
}

struct LsmInput {
  std::vector<int64_t> shape;
  int64_t dim;
  bool real_log_softmax;
};

// Rows with a special dy or y planted in each (NaN, ±inf, denormals, huge, y = -100, ...).
void PlantSpecials(TestTensor* dy, TestTensor* y, DType t) {
  const std::vector<double> dys = SpecialDy(t);
  const std::vector<double> ys = {
      0.0, -0.0, -1e-3, -20.0, -88.0, -100.0, -kInf, kNaN, LimitsOf(t).min_sub};
  const int64_t rows = dy->shape()[0], r = dy->shape()[1];
  for (int64_t i = 0; i < rows; ++i) {
    const int64_t at = (i * 5) % r;
    if (i % 2 == 0) {
      dy->Set(i * r + at, dys[(i / 2) % dys.size()]);
    } else {
      y->Set(i * r + at, RoundTo(t, ys[(i / 2) % ys.size()]));
    }
  }
}

// ---- the report --------------------------------------------------------------------------

std::string UlpText(double ulp) {
  char text[32];
  std::snprintf(text, sizeof(text), ulp >= 1e5 ? "%.3g" : "%.2f", ulp);
  return text;
}

void PrintTable(const std::vector<Row>& rows) {
  std::printf(
      "\nhostnn precision against the exact (double) result of the same inputs, in ULP of the\n"
      "output dtype. SPEC 4 allows: FLOAT elementwise 4 ULP or 2^-21 |dy|; FLOAT LogSoftmax\n"
      "2^-21 (|dy| + exp(y) sum|dy|); FLOAT16 and BFLOAT16 the FLOAT result rounded once: the\n"
      "correctly rounded value (0 ULP), its neighbour within 2^-21 of a midpoint, or where\n"
      "the FLOAT rule is an absolute bound, that bound plus half a narrow ULP.\n"
      "  max ULP           over every element (near zero, where the exact result cancels, a\n"
      "                    FLOAT ULP is tiny and the SPEC's absolute bound applies instead)\n"
      "  max ULP off zero  over results with |exact| >= 2^-10 * |dy| (LogSoftmax: * (|dy| +\n"
      "                    exp(y) sum|dy|))\n"
      "  > 4 ULP           FLOAT results accepted by the absolute bound only\n"
      "  bound used        the worst error as a share of its SPEC allowance (100%% = at the\n"
      "                    limit), and the inputs where it occurs\n\n");
  std::printf("| %-19s | %-8s | %-6s | %8s | %9s | %16s | %7s | %10s | %-27s |\n", "op", "dtype",
              "target", "elements", "max ULP", "max ULP off zero", "> 4 ULP", "bound used",
              "worst case (by bound)");
  const int widths[] = {19, 8, 6, 8, 9, 16, 7, 10, 27};
  std::string rule = "|";
  for (int w : widths) rule += std::string(static_cast<size_t>(w) + 2, '-') + "|";
  std::printf("%s\n", rule.c_str());
  for (const Row& r : rows) {
    const bool narrow = r.dtype != "FLOAT";
    std::printf("| %-19s | %-8s | %-6s | %8lld | %9s | %16s | %7s | %9.1f%% | %-27s |\n",
                r.op.c_str(), r.dtype.c_str(), r.target.c_str(), static_cast<long long>(r.elements),
                UlpText(r.max_ulp).c_str(), UlpText(r.max_ulp_off_zero).c_str(),
                narrow ? "-" : std::to_string(r.over_4ulp).c_str(), 100.0 * r.bound_used,
                r.worst.c_str());
  }
  std::printf(
      "\nSweep per row: elementwise ops 131072 random pairs (x in [-12, 12] and [-40, 40], |dy|\n"
      "over 2^-20..2^20), 65536 bit patterns of x (every pattern for 16-bit dtypes) and the\n"
      "special-value cross product; LogSoftmaxBackward AR full-load, AR recompute and ARA shapes\n"
      "of real log-softmax y, arbitrary y, and rows with planted special values. Huge |dy| with\n"
      "|x| > 80 and dy = +-inf at SiluBackward's cancellation root are covered by\n"
      "special_values_test instead.\n\n");
  std::fflush(stdout);
}

// ---- every 16-bit input ------------------------------------------------------------

// One line of the 16-bit table: an elementwise operator x dtype x target over every 16-bit
// x (gradients: with dy = 1, -0.75 and 3.5).
struct Row16 {
  std::string op, dtype, target;
  int64_t elements = 0;
  double max_steps = 0;   // from the correctly rounded value, in ULP (0 or 1 allowed)
  double max_raw = 0;     // |got - exact| in ULP of the narrow type at exact
  int64_t in_window = 0;  // the other neighbour, exact within 2^-21 of the midpoint
  int64_t by_abs = 0;     // accepted by the FLOAT rule's absolute bound (cancellation)
  int64_t wrong = 0;      // neither: must be 0
};

void Account16(Row16* row, DType t, double got, double exact, double dy) {
  ++row->elements;
  row->max_steps = std::max(row->max_steps, UlpError(t, got, exact));
  if (std::isfinite(got) && std::isfinite(exact) && exact != 0) {
    row->max_raw = std::max(row->max_raw, std::fabs(got - exact) / UlpOf(t, exact));
  }
  switch (ClassifyRounding16(t, got, exact)) {
    case Rounding16::kCorrect:
      return;
    case Rounding16::kInWindow:
      ++row->in_window;
      return;
    case Rounding16::kWrong:
      if (dy != 0 && WithinF32BoundRounded16(t, got, exact, kTwoPowMinus21 * std::fabs(dy))) {
        ++row->by_abs;
      } else {
        ++row->wrong;
      }
  }
}

// Every elementwise operator of the list (forward and gradient), every 16-bit input, every
// target, through the kernels the executors call: the rounding table of SPEC 4.
TEST(PrecisionReport, Every16BitInputRoundedOnce) {
  std::vector<Row16> rows;
  const double dys[] = {1.0, -0.75, 3.5};
  for (Op op : SuiteOps()) {
    const OpInfo& info = GetOpInfo(op);
    // PreluBackward's kernel has a sum of its own (tests/prelu_test.cc).
    if (info.is_reduction || info.kind == Kind::kMapColumnSums) continue;
    for (DType t : {DType::kFloat16, DType::kBFloat16}) {
      const size_t n = info.is_forward ? 65536 : 3 * 65536;
      std::vector<uint16_t> x(n), dy(n), out(n);
      for (size_t i = 0; i < n; ++i) {
        x[i] = static_cast<uint16_t>(i & 0xFFFF);
        dy[i] = t == DType::kFloat16 ? DoubleToF16(dys[i >> 16]) : DoubleToBF16(dys[i >> 16]);
      }
      auto value = [t](uint16_t b) {
        return t == DType::kFloat16 ? F16ToDouble(b) : BF16ToDouble(b);
      };
      ForEachTarget([&](int64_t target) {
        Row16 row;
        row.op = info.name;
        row.dtype = DTypeName(t);
        row.target = kernels::TargetName(target);
        if (info.is_forward) {
          const kernels::MapFn fn = test::MapKernel(op, t);
          ASSERT_NE(fn, nullptr) << info.name;
          test::RunMap(fn, x.data(), out.data(), n, test::KernelParams(op));
        } else {
          const kernels::MapFn fn = test::MapKernel(op, t);
          ASSERT_NE(fn, nullptr) << info.name;
          test::RunMap(fn, dy.data(), x.data(), out.data(), n, test::KernelParams(op));
        }
        for (size_t i = 0; i < n; ++i) {
          const double vx = value(x[i]), vdy = value(dy[i]);
          const double exact =
              info.is_forward ? ForwardEltwiseRef(op, vx) : EltwiseRef(op, vdy, vx);
          // Forward operators' FLOAT rule has no cancellation bound: dy = 0 turns it off.
          Account16(&row, t, value(out[i]), exact, info.is_forward ? 0.0 : vdy);
        }
        EXPECT_EQ(row.wrong, 0) << info.name << " " << row.dtype << " on " << row.target;
        rows.push_back(row);
      });
    }
  }
  std::printf(
      "\nFLOAT16 / BFLOAT16, every 16-bit x (gradients with dy = 1, -0.75, 3.5): the FLOAT\n"
      "result rounded once (SPEC 4). ULP from rounded: the largest distance from the\n"
      "correctly rounded exact value; ULP from exact: the largest |got - exact| in ULP at\n"
      "exact; in window: inputs given the other neighbour, exact within 2^-21 of the\n"
      "midpoint; abs bound: accepted by the FLOAT rule's absolute bound 2^-21 |dy| plus half\n"
      "an ULP; outside: inputs not correctly rounded outside the window (must be 0).\n\n");
  std::printf("| %-19s | %-8s | %-6s | %8s | %16s | %14s | %9s | %9s | %7s |\n", "op", "dtype",
              "target", "inputs", "ULP from rounded", "ULP from exact", "in window", "abs bound",
              "outside");
  std::printf("|%s|%s|%s|%s|%s|%s|%s|%s|%s|\n", std::string(21, '-').c_str(),
              std::string(10, '-').c_str(), std::string(8, '-').c_str(),
              std::string(10, '-').c_str(), std::string(18, '-').c_str(),
              std::string(16, '-').c_str(), std::string(11, '-').c_str(),
              std::string(11, '-').c_str(), std::string(9, '-').c_str());
  for (const Row16& r : rows) {
    std::printf("| %-19s | %-8s | %-6s | %8lld | %16.0f | %14.3f | %9lld | %9lld | %7lld |\n",
                r.op.c_str(), r.dtype.c_str(), r.target.c_str(), static_cast<long long>(r.elements),
                r.max_steps, r.max_raw, static_cast<long long>(r.in_window),
                static_cast<long long>(r.by_abs), static_cast<long long>(r.wrong));
  }
  std::printf("\n");
  std::fflush(stdout);
}

TEST(PrecisionReport, EveryOpDTypeAndTarget) {
  std::vector<Row> rows;
  for (Op op : GradOpsList()) {
    for (DType t : kComputeTypes) {
      std::mt19937_64 rng(0x5EED0401 + 31 * static_cast<int>(op) + static_cast<int>(t));
      const char* op_name = GetOpInfo(op).name;
      if (!GetOpInfo(op).is_reduction) {
        const Pairs p = EltwiseSweep(op, t, rng);
        const int64_t n = static_cast<int64_t>(p.dy.size());
        TestTensor dy = TestTensor::Dense(t, {n}), x = TestTensor::Dense(t, {n});
        for (int64_t i = 0; i < n; ++i) {
          dy.Set(i, p.dy[i]);
          x.Set(i, p.x[i]);
        }
        ForEachTarget([&](int64_t target) {
          Row row = NewRow(op_name, t, target);
          TestTensor out = TestTensor::Dense(t, {n});
          RunChecked(op, dy, x, out);
          for (int64_t i = 0; i < n; ++i) {
            const double vdy = dy.Get(i), vx = x.Get(i), got = out.Get(i);
            const double exact = EltwiseRef(op, vdy, vx);
            Account(&row, t, got, exact, kTwoPowMinus21 * std::fabs(vdy), true,
                    EltwiseWithinTolerance(t, got, exact, vdy), vdy, vx);
          }
          EXPECT_EQ(row.out_of_spec, 0)
              << op_name << " " << DTypeName(t) << " on " << row.target << ", worst " << row.worst;
          rows.push_back(row);
        });
        continue;
      }
      const std::vector<LsmInput> inputs = {{{256, 1000}, -1, true},
                                            {{2, 70001}, -1, true},
                                            {{32, 100, 33}, 1, true},
                                            {{128, 257}, -1, false},
                                            {{96, 41}, -1, true}};
      std::vector<TestTensor> dys, ys;
      for (size_t k = 0; k < inputs.size(); ++k) {
        dys.push_back(TestTensor::Dense(t, inputs[k].shape));
        ys.push_back(TestTensor::Dense(t, inputs[k].shape));
        FillRandom(&dys.back(), rng, -4, 4);
        if (inputs[k].real_log_softmax) {
          FillReductionOutput(op, &ys.back(), inputs[k].dim, rng);
        } else if (op == Op::kSoftmaxBackward) {
          FillRandom(&ys.back(), rng, 0, 1);
        } else {
          FillRandom(&ys.back(), rng, -10, 1.5);
        }
      }
      PlantSpecials(&dys.back(), &ys.back(), t);
      ForEachTarget([&](int64_t target) {
        Row row = NewRow(op_name, t, target);
        for (size_t k = 0; k < inputs.size(); ++k) {
          TestTensor out = TestTensor::Dense(t, inputs[k].shape);
          RunChecked(op, dys[k], ys[k], out, inputs[k].dim);
          const std::vector<double> vdy = dys[k].Values(), vy = ys[k].Values();
          std::vector<double> exact, aux;
          const int64_t rank = static_cast<int64_t>(inputs[k].shape.size());
          ReductionBackwardRef(op, vdy, vy, inputs[k].shape, (inputs[k].dim + rank) % rank, &exact,
                               &aux);
          const bool softmax = op == Op::kSoftmaxBackward;
          for (int64_t i = 0; i < out.numel(); ++i) {
            const double got = out.Get(i);
            const double allowance =
                softmax ? kTwoPowMinus21 * std::fabs(vy[i]) * (std::fabs(vdy[i]) + aux[i])
                        : kTwoPowMinus21 * (std::fabs(vdy[i]) + std::exp(vy[i]) * aux[i]);
            Account(&row, t, got, exact[i], allowance, false,
                    ReductionBackwardWithinTolerance(op, t, got, exact[i], vdy[i], vy[i], aux[i]),
                    vdy[i], vy[i]);
          }
        }
        EXPECT_EQ(row.out_of_spec, 0)
            << op_name << " " << DTypeName(t) << " on " << row.target << ", worst " << row.worst;
        rows.push_back(row);
      });
    }
  }
  PrintTable(rows);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
