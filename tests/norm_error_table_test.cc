// The normalisation family's measured error table (docs/norm_family.md, "Measured errors"):
// per operator, dtype and output, the largest error in ULP of the output's dtype against a
// long-double reference, and the largest ratio of the error to the SPEC §4 bound the
// operator's own suite checks (tests/*norm*_test.cc), over random inputs in short, long and
// uneven rows on every compiled SIMD target. Every ratio must be at most 1. The table is
// printed; with HOSTNN_WRITE_NORM_ERRORS=1 it also replaces the page below its marker line:
//   HOSTNN_WRITE_NORM_ERRORS=1 build/tests/norm_error_table_test
// The references are the suites' own formulas, written again here in their smallest form.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "aclnnop/aclnn_add_layer_norm.h"
#include "aclnnop/aclnn_add_layer_norm_grad.h"
#include "aclnnop/aclnn_add_rms_norm.h"
#include "aclnnop/aclnn_batch_norm.h"
#include "aclnnop/aclnn_batch_norm_backward.h"
#include "aclnnop/aclnn_group_norm.h"
#include "aclnnop/aclnn_group_norm_backward.h"
#include "aclnnop/aclnn_layer_norm.h"
#include "aclnnop/aclnn_layer_norm_backward.h"
#include "aclnnop/aclnn_rms_norm.h"
#include "aclnnop/aclnn_rms_norm_grad.h"
#include "tests/util/norm_checks.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/strided_tensor.h"

#ifndef HOSTNN_SOURCE_DIR
#define HOSTNN_SOURCE_DIR "."
#endif

namespace hostnn {
namespace test {
namespace {

const DType kDTypes[] = {DType::kFloat32, DType::kFloat16, DType::kBFloat16};

// One row of the table: the largest error of one output over every element and target, in
// ULP of the output's dtype at the exact value (a fraction: 0.5 is correctly rounded).
struct Row {
  std::string op, output;
  DType dtype, out_dtype;
  double max_ulp = 0, max_ratio = 0;
  int64_t elements = 0;
};

class Table {
 public:
  // Records one element: `got` against `exact` under `bound` (a NaN `exact` wants a NaN).
  void Add(const std::string& op, DType dtype, const std::string& output, DType out_dtype,
           double got, double exact, double bound) {
    Row& r = Find(op, dtype, output, out_dtype);
    ++r.elements;
    if (std::isnan(exact)) {
      if (!std::isnan(got)) r.max_ratio = INFINITY;
      return;
    }
    const double err = std::fabs(got - exact);
    const double ratio = std::isnan(err) ? INFINITY : err / bound;
    const double ulp = std::isnan(err) ? INFINITY : err / UlpOf(out_dtype, exact);
    r.max_ratio = std::max(r.max_ratio, ratio);
    r.max_ulp = std::max(r.max_ulp, ulp);
  }
  const std::vector<Row>& rows() const { return rows_; }

 private:
  Row& Find(const std::string& op, DType dtype, const std::string& output, DType out_dtype) {
    for (Row& r : rows_) {
      if (r.op == op && r.dtype == dtype && r.output == output) return r;
    }
    rows_.push_back(Row{op, output, dtype, out_dtype});
    return rows_.back();
  }
  std::vector<Row> rows_;
};

// f32 bound b of an output of dtype d: max(4 ULP of f32, b), plus half an ULP of a 16-bit d.
double Bound(DType d, double exact, double terms) {
  return NormBound(d, exact, std::max(4 * Ulp32(exact), std::ldexp(terms, -21)));
}

aclTensor* Mut(HostTensor& t) { return const_cast<aclTensor*>(t.acl()); }

// Phase 1 (`prepare` gives the workspace size and the executor), then phase 2 on the null
// stream with a workspace of that size.
template <class Prepare>
aclnnStatus TwoPhase(Prepare prepare,
                     aclnnStatus (*run)(void*, uint64_t, aclOpExecutor*, aclrtStream)) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus st = prepare(&ws, &exec);
  if (st != ACLNN_SUCCESS) return st;
  std::vector<char> workspace(ws);
  return run(ws ? workspace.data() : nullptr, ws, exec, nullptr);
}

// A row's exact mean and 1 / sqrt(biased variance + e), two passes in long double.
struct Moments {
  long double mean, rstd;
};
Moments RowMoments(const double* row, int64_t n, long double e) {
  long double sum = 0, sq = 0;
  for (int64_t i = 0; i < n; ++i) sum += row[i];
  const long double m = sum / n;
  for (int64_t i = 0; i < n; ++i) sq += (row[i] - m) * (row[i] - m);
  return {m, 1.0L / std::sqrt(sq / n + e)};
}

struct Rows {
  int64_t rows, cols;
};
// Short, long and uneven rows: about 260 thousand elements per operator and dtype.
const Rows kRowShapes[] = {{4096, 7}, {8, 16384}, {97, 1031}};

// ---- LayerNorm -------------------------------------------------------------------------

aclnnStatus RunLayerNorm(HostTensor& x, int64_t cols, HostTensor& w, HostTensor& b, double eps,
                         HostTensor& y, HostTensor& mean, HostTensor& rstd) {
  aclIntArray* norm = aclCreateIntArray(&cols, 1);
  const aclnnStatus st = TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnLayerNormGetWorkspaceSize(x.acl(), norm, w.acl(), b.acl(), eps, y.acl(),
                                              mean.acl(), rstd.acl(), ws, exec);
      },
      aclnnLayerNorm);
  aclDestroyIntArray(norm);
  return st;
}

void MeasureLayerNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-5;
  const long double e = static_cast<float>(eps);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        HostTensor x(d, {s.rows, s.cols}), w(d, {s.cols}), b(d, {s.cols}), y(d, {s.rows, s.cols}),
            mean(d, {s.rows, 1}), rstd(d, {s.rows, 1});
        x.Fill(rng, -3.0, 5.0);
        w.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        ASSERT_EQ(RunLayerNorm(x, s.cols, w, b, eps, y, mean, rstd), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> xv = x.Values(), wv = w.Values(), bv = b.Values();
        for (int64_t r = 0; r < s.rows; ++r) {
          const double* row = xv.data() + r * s.cols;
          const Moments mo = RowMoments(row, s.cols, e);
          const long double m = mo.mean, rs = mo.rstd;
          const double md = static_cast<double>(m), rd = static_cast<double>(rs);
          table->Add("LayerNorm", d, "mean", d, mean.Get(r), md, Bound(d, md, 0));
          table->Add("LayerNorm", d, "rstd", d, rstd.Get(r), rd, Bound(d, rd, 0));
          for (int64_t c = 0; c < s.cols; ++c) {
            const long double xhat = (row[c] - m) * rs;
            const double exact = static_cast<double>(xhat * wv[c] + bv[c]);
            const double terms = static_cast<double>(std::fabs(xhat * wv[c])) + std::fabs(bv[c]);
            table->Add("LayerNorm", d, "y", d, y.Get(r * s.cols + c), exact,
                       Bound(d, exact, terms));
          }
        }
      }
    }
  });
}

aclnnStatus RunLayerNormBackward(HostTensor& dy, HostTensor& x, int64_t cols, HostTensor& mean,
                                 HostTensor& rstd, HostTensor& w, HostTensor& dx, HostTensor& dw,
                                 HostTensor& db) {
  aclIntArray* norm = aclCreateIntArray(&cols, 1);
  const bool mask[3] = {true, true, true};
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  const aclnnStatus st = TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnLayerNormBackwardGetWorkspaceSize(dy.acl(), x.acl(), norm, mean.acl(),
                                                      rstd.acl(), w.acl(), nullptr, m, dx.acl(),
                                                      dw.acl(), db.acl(), ws, exec);
      },
      aclnnLayerNormBackward);
  aclDestroyBoolArray(m);
  aclDestroyIntArray(norm);
  return st;
}

// mean and rstd FLOAT, weight and the outputs the input's dtype; inputs drawn as the suite
// draws them (the statistics given, not the input's own).
void MeasureLayerNormBackward(Table* table, std::mt19937_64& rng) {
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        const int64_t cols = s.cols;
        HostTensor dy(d, {s.rows, cols}), x(d, {s.rows, cols}), mean(f, {s.rows, 1}),
            rstd(f, {s.rows, 1}), w(d, {cols}), dx(d, {s.rows, cols}), dw(d, {cols}), db(d, {cols});
        dy.Fill(rng, -2.0, 2.0);
        x.Fill(rng, -3.0, 3.0);
        mean.Fill(rng, -1.0, 1.0);
        rstd.Fill(rng, 0.25, 2.0);
        w.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunLayerNormBackward(dy, x, cols, mean, rstd, w, dx, dw, db), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> dyv = dy.Values(), xv = x.Values(), mv = mean.Values(),
                                  rv = rstd.Values(), g = w.Values();
        std::vector<long double> sw(cols, 0.0L), sw_mag(cols, 0.0L), sb(cols, 0.0L),
            sb_mag(cols, 0.0L);
        for (int64_t r = 0; r < s.rows; ++r) {
          const long double m = mv[r], sr = rv[r];
          long double s1 = 0, s2 = 0, mag1 = 0, mag2 = 0;
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const long double dyg = dyv[i] * static_cast<long double>(g[c]);
            const long double xhat = (xv[i] - m) * sr;
            s1 += dyg;
            s2 += dyg * xhat;
            mag1 += std::fabs(dyg);
            mag2 += std::fabs(dyg * xhat);
          }
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const long double dyg = dyv[i] * static_cast<long double>(g[c]);
            const long double xhat = (xv[i] - m) * sr;
            const double exact = static_cast<double>((dyg - (s1 / cols + xhat * (s2 / cols))) * sr);
            const double terms = static_cast<double>(
                (std::fabs(dyg) + mag1 / cols + std::fabs(xhat) * mag2 / cols) * sr);
            table->Add("LayerNormBackward", d, "gradInput", d, dx.Get(i), exact,
                       Bound(d, exact, terms));
            sw[c] += dyv[i] * xhat;
            sw_mag[c] += std::fabs(dyv[i] * xhat) + std::fabs(dyv[i] * xv[i] * sr) +
                         std::fabs(dyv[i] * m * sr);
            sb[c] += dyv[i];
            sb_mag[c] += std::fabs(dyv[i]);
          }
        }
        for (int64_t c = 0; c < cols; ++c) {
          const double ew = static_cast<double>(sw[c]), eb = static_cast<double>(sb[c]);
          table->Add("LayerNormBackward", d, "gradWeight", d, dw.Get(c), ew,
                     Bound(d, ew, static_cast<double>(sw_mag[c])));
          table->Add("LayerNormBackward", d, "gradBias", d, db.Get(c), eb,
                     Bound(d, eb, static_cast<double>(sb_mag[c])));
        }
      }
    }
  });
}

// ---- RmsNorm and RmsNormGrad -----------------------------------------------------------

aclnnStatus RunRmsNorm(HostTensor& x, HostTensor& g, double eps, HostTensor& y, HostTensor& rstd) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnRmsNormGetWorkspaceSize(x.acl(), g.acl(), eps, y.acl(), rstd.acl(), ws, exec);
      },
      aclnnRmsNorm);
}

// rstdOut is FLOAT whatever x's dtype (CANN's document).
void MeasureRmsNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-6;
  const long double e = static_cast<float>(eps);
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        HostTensor x(d, {s.rows, s.cols}), g(d, {s.cols}), y(d, {s.rows, s.cols}),
            rstd(f, {s.rows, 1});
        x.Fill(rng, -3.0, 5.0);
        g.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunRmsNorm(x, g, eps, y, rstd), ACLNN_SUCCESS) << aclGetRecentErrMsg();
        const std::vector<double> xv = x.Values(), gv = g.Values();
        for (int64_t r = 0; r < s.rows; ++r) {
          const double* row = xv.data() + r * s.cols;
          long double sq = 0;
          for (int64_t c = 0; c < s.cols; ++c) sq += static_cast<long double>(row[c]) * row[c];
          const long double rs = 1.0L / std::sqrt(sq / s.cols + e);
          const double rd = static_cast<double>(rs);
          table->Add("RmsNorm", d, "rstd", f, rstd.Get(r), rd, Bound(f, rd, 0));
          for (int64_t c = 0; c < s.cols; ++c) {
            const long double scaled = row[c] * rs * gv[c];
            const double exact = static_cast<double>(scaled);
            table->Add("RmsNorm", d, "y", d, y.Get(r * s.cols + c), exact,
                       Bound(d, exact, static_cast<double>(std::fabs(scaled))));
          }
        }
      }
    }
  });
}

aclnnStatus RunAddRmsNorm(HostTensor& x1, HostTensor& x2, HostTensor& g, double eps, HostTensor& y,
                          HostTensor& rstd, HostTensor& x_out) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnAddRmsNormGetWorkspaceSize(x1.acl(), x2.acl(), g.acl(), eps, Mut(y), Mut(rstd),
                                               Mut(x_out), ws, exec);
      },
      aclnnAddRmsNorm);
}

// rstdOut FLOAT (CANN's document); xOut = x1 + x2 within half an ULP of f32 (plus half an ULP
// of a 16-bit xOut).
void MeasureAddRmsNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-6;
  const long double e = static_cast<float>(eps);
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        HostTensor x1(d, {s.rows, s.cols}), x2(d, {s.rows, s.cols}), g(d, {s.cols}),
            y(d, {s.rows, s.cols}), x_out(d, {s.rows, s.cols}), rstd(f, {s.rows, 1});
        x1.Fill(rng, -3.0, 5.0);
        x2.Fill(rng, -4.0, 2.0);
        g.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunAddRmsNorm(x1, x2, g, eps, y, rstd, x_out), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> x1v = x1.Values(), x2v = x2.Values(), gv = g.Values();
        for (int64_t r = 0; r < s.rows; ++r) {
          long double sq = 0;
          for (int64_t c = 0; c < s.cols; ++c) {
            const long double x =
                static_cast<long double>(x1v[r * s.cols + c]) + x2v[r * s.cols + c];
            sq += x * x;
          }
          const long double rs = 1.0L / std::sqrt(sq / s.cols + e);
          const double rd = static_cast<double>(rs);
          table->Add("AddRmsNorm", d, "rstdOut", f, rstd.Get(r), rd, Bound(f, rd, 0));
          for (int64_t c = 0; c < s.cols; ++c) {
            const int64_t i = r * s.cols + c;
            const long double x = static_cast<long double>(x1v[i]) + x2v[i];
            const double ex = static_cast<double>(x);
            table->Add("AddRmsNorm", d, "xOut", d, x_out.Get(i), ex,
                       NormBound(d, ex, 0.5 * Ulp32(ex)));
            const long double scaled = x * rs * gv[c];
            const double exact = static_cast<double>(scaled);
            table->Add("AddRmsNorm", d, "yOut", d, y.Get(i), exact,
                       Bound(d, exact, static_cast<double>(std::fabs(scaled))));
          }
        }
      }
    }
  });
}

aclnnStatus RunRmsNormGrad(HostTensor& dy, HostTensor& x, HostTensor& rstd, HostTensor& g,
                           HostTensor& dx, HostTensor& dgamma) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnRmsNormGradGetWorkspaceSize(dy.acl(), x.acl(), rstd.acl(), g.acl(), dx.acl(),
                                                dgamma.acl(), ws, exec);
      },
      aclnnRmsNormGrad);
}

// rstd and dgammaOut FLOAT (CANN's document); rstd drawn in [0.25, 2] as the suite does.
void MeasureRmsNormGrad(Table* table, std::mt19937_64& rng) {
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        HostTensor dy(d, {s.rows, s.cols}), x(d, {s.rows, s.cols}), rstd(f, {s.rows}),
            g(d, {s.cols}), dx(d, {s.rows, s.cols}), dgamma(f, {s.cols});
        dy.Fill(rng, -2.0, 2.0);
        x.Fill(rng, -3.0, 3.0);
        rstd.Fill(rng, 0.25, 2.0);
        g.Fill(rng, -2.0, 2.0);
        ASSERT_EQ(RunRmsNormGrad(dy, x, rstd, g, dx, dgamma), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> dyv = dy.Values(), xv = x.Values(), rv = rstd.Values(),
                                  gv = g.Values();
        std::vector<long double> dg(s.cols, 0.0L), dg_mag(s.cols, 0.0L);
        for (int64_t r = 0; r < s.rows; ++r) {
          const long double sr = rv[r];
          long double sum = 0, mag = 0;
          for (int64_t c = 0; c < s.cols; ++c) {
            const long double t =
                static_cast<long double>(dyv[r * s.cols + c]) * gv[c] * xv[r * s.cols + c];
            sum += t;
            mag += std::fabs(t);
          }
          const long double m = sr * sum / s.cols;
          for (int64_t c = 0; c < s.cols; ++c) {
            const int64_t i = r * s.cols + c;
            const long double dyg = static_cast<long double>(dyv[i]) * gv[c];
            const double exact = static_cast<double>((dyg - xv[i] * sr * m) * sr);
            const double terms = static_cast<double>(
                std::fabs(dyg) * sr + std::fabs(xv[i]) * sr * sr * sr * mag / s.cols);
            table->Add("RmsNormGrad", d, "dx", d, dx.Get(i), exact, Bound(d, exact, terms));
            const long double t = static_cast<long double>(dyv[i]) * xv[i] * sr;
            dg[c] += t;
            dg_mag[c] += std::fabs(t);
          }
        }
        for (int64_t c = 0; c < s.cols; ++c) {
          const double exact = static_cast<double>(dg[c]);
          table->Add("RmsNormGrad", d, "dgamma", f, dgamma.Get(c), exact,
                     Bound(f, exact, static_cast<double>(dg_mag[c])));
        }
      }
    }
  });
}

// ---- AddLayerNorm ----------------------------------------------------------------------

aclnnStatus RunAddLayerNorm(HostTensor& x1, HostTensor& x2, HostTensor& g, HostTensor& b,
                            HostTensor& bias, double eps, HostTensor& y, HostTensor& mean,
                            HostTensor& rstd, HostTensor& x_out) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnAddLayerNormGetWorkspaceSize(x1.acl(), x2.acl(), g.acl(), b.acl(), bias.acl(),
                                                 eps, true, y.acl(), mean.acl(), rstd.acl(),
                                                 x_out.acl(), ws, exec);
      },
      aclnnAddLayerNorm);
}

// x = x1 + x2 + bias (one per column); mean and rstd FLOAT (CANN's document), the mean's
// bound 4 ULP plus 2^-45 mean|x| as the suite's.
void MeasureAddLayerNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-5;
  const long double e = static_cast<float>(eps);
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        const int64_t cols = s.cols;
        HostTensor x1(d, {s.rows, cols}), x2(d, {s.rows, cols}), g(d, {cols}), b(d, {cols}),
            bias(d, {cols}), y(d, {s.rows, cols}), x_out(d, {s.rows, cols}), mean(f, {s.rows, 1}),
            rstd(f, {s.rows, 1});
        x1.Fill(rng, -3.0, 5.0);
        x2.Fill(rng, -4.0, 2.0);
        g.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        bias.Fill(rng, -1.0, 1.0);
        ASSERT_EQ(RunAddLayerNorm(x1, x2, g, b, bias, eps, y, mean, rstd, x_out), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> x1v = x1.Values(), x2v = x2.Values(), gv = g.Values(),
                                  bv = b.Values(), biasv = bias.Values();
        std::vector<long double> x(cols);
        for (int64_t r = 0; r < s.rows; ++r) {
          long double sum = 0, mag = 0;
          for (int64_t c = 0; c < cols; ++c) {
            x[c] = static_cast<long double>(x1v[r * cols + c]) + x2v[r * cols + c] + biasv[c];
            sum += x[c];
            mag += std::fabs(x[c]);
          }
          const long double m = sum / cols;
          long double sq = 0;
          for (int64_t c = 0; c < cols; ++c) sq += (x[c] - m) * (x[c] - m);
          const long double rs = 1.0L / std::sqrt(sq / cols + e);
          const double md = static_cast<double>(m), rd = static_cast<double>(rs);
          table->Add("AddLayerNorm", d, "meanOut", f, mean.Get(r), md,
                     4 * Ulp32(md) + std::ldexp(static_cast<double>(mag / cols), -45));
          table->Add("AddLayerNorm", d, "rstdOut", f, rstd.Get(r), rd, Bound(f, rd, 0));
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const double ex = static_cast<double>(x[c]);
            table->Add("AddLayerNorm", d, "xOut", d, x_out.Get(i), ex,
                       NormBound(d, ex, 0.5 * Ulp32(ex)));
            const long double xhat = (x[c] - m) * rs;
            const double exact = static_cast<double>(xhat * gv[c] + bv[c]);
            const double terms = static_cast<double>(std::fabs(xhat * gv[c])) + std::fabs(bv[c]);
            table->Add("AddLayerNorm", d, "yOut", d, y.Get(i), exact, Bound(d, exact, terms));
          }
        }
      }
    }
  });
}

aclnnStatus RunAddLayerNormGrad(HostTensor& dy, HostTensor& x1, HostTensor& x2, HostTensor& rstd,
                                HostTensor& mean, HostTensor& g, HostTensor& dsum, HostTensor& dx,
                                HostTensor& dgamma, HostTensor& dbeta) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnAddLayerNormGradGetWorkspaceSize(dy.acl(), x1.acl(), x2.acl(), rstd.acl(),
                                                     mean.acl(), g.acl(), dsum.acl(), dx.acl(),
                                                     dgamma.acl(), dbeta.acl(), ws, exec);
      },
      aclnnAddLayerNormGrad);
}

// With dsum; mean and rstd (FLOAT) the statistics of x1 + x2 rounded to f32, dgammaOut and
// dbetaOut FLOAT (CANN's document).
void MeasureAddLayerNormGrad(Table* table, std::mt19937_64& rng) {
  const DType f = DType::kFloat32;
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const Rows& s : kRowShapes) {
        const int64_t cols = s.cols;
        HostTensor dy(d, {s.rows, cols}), x1(d, {s.rows, cols}), x2(d, {s.rows, cols}),
            g(d, {cols}), dsum(d, {s.rows, cols}), mean(f, {s.rows, 1}), rstd(f, {s.rows, 1}),
            dx(d, {s.rows, cols}), dgamma(f, {cols}), dbeta(f, {cols});
        dy.Fill(rng, -2.0, 2.0);
        x1.Fill(rng, -3.0, 5.0);
        x2.Fill(rng, -4.0, 2.0);
        g.Fill(rng, -2.0, 2.0);
        dsum.Fill(rng, -1.0, 1.0);
        const std::vector<double> dyv = dy.Values(), x1v = x1.Values(), x2v = x2.Values(),
                                  gv = g.Values(), dsv = dsum.Values();
        for (int64_t r = 0; r < s.rows; ++r) {
          long double sum = 0, sq = 0;
          for (int64_t c = 0; c < cols; ++c)
            sum += x1v[r * cols + c] + static_cast<long double>(x2v[r * cols + c]);
          const long double m = sum / cols;
          for (int64_t c = 0; c < cols; ++c) {
            const long double v =
                x1v[r * cols + c] + static_cast<long double>(x2v[r * cols + c]) - m;
            sq += v * v;
          }
          mean.Set(r, static_cast<double>(m));
          rstd.Set(r, static_cast<double>(1.0L / std::sqrt(sq / cols + 1e-5L)));
        }
        ASSERT_EQ(RunAddLayerNormGrad(dy, x1, x2, rstd, mean, g, dsum, dx, dgamma, dbeta),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> mv = mean.Values(), rv = rstd.Values();
        std::vector<long double> dg(cols, 0.0L), dg_mag(cols, 0.0L), db(cols, 0.0L),
            db_mag(cols, 0.0L);
        for (int64_t r = 0; r < s.rows; ++r) {
          const long double m = mv[r], sr = rv[r];
          long double s1 = 0, s2 = 0, mag1 = 0, mag2 = 0;
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const long double xhat = (static_cast<long double>(x1v[i]) + x2v[i] - m) * sr;
            const long double dyg = dyv[i] * static_cast<long double>(gv[c]);
            s1 += dyg, s2 += dyg * xhat, mag1 += std::fabs(dyg), mag2 += std::fabs(dyg * xhat);
          }
          for (int64_t c = 0; c < cols; ++c) {
            const int64_t i = r * cols + c;
            const long double x = static_cast<long double>(x1v[i]) + x2v[i];
            const long double xhat = (x - m) * sr;
            const long double dyg = dyv[i] * static_cast<long double>(gv[c]);
            const double exact =
                static_cast<double>((dyg - (s1 / cols + xhat * (s2 / cols))) * sr + dsv[i]);
            const double terms = static_cast<double>(
                (std::fabs(dyg) + mag1 / cols + std::fabs(xhat) * mag2 / cols) * sr +
                std::fabs(dsv[i]));
            table->Add("AddLayerNormGrad", d, "dxOut", d, dx.Get(i), exact, Bound(d, exact, terms));
            dg[c] += dyv[i] * xhat;
            dg_mag[c] +=
                std::fabs(dyv[i] * xhat) + std::fabs(dyv[i] * x * sr) + std::fabs(dyv[i] * m * sr);
            db[c] += dyv[i];
            db_mag[c] += std::fabs(dyv[i]);
          }
        }
        for (int64_t c = 0; c < cols; ++c) {
          const double eg = static_cast<double>(dg[c]), eb = static_cast<double>(db[c]);
          table->Add("AddLayerNormGrad", d, "dgammaOut", f, dgamma.Get(c), eg,
                     Bound(f, eg, static_cast<double>(dg_mag[c])));
          table->Add("AddLayerNormGrad", d, "dbetaOut", f, dbeta.Get(c), eb,
                     Bound(f, eb, static_cast<double>(db_mag[c])));
        }
      }
    }
  });
}

// ---- GroupNorm -------------------------------------------------------------------------

aclnnStatus RunGroupNorm(HostTensor& x, HostTensor& g, HostTensor& b, int64_t n, int64_t c,
                         int64_t hxw, int64_t group, double eps, HostTensor& y, HostTensor& mean,
                         HostTensor& rstd) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnGroupNormGetWorkspaceSize(
            x.acl(), g.acl(), b.acl(), n, c, hxw, group, eps, const_cast<aclTensor*>(y.acl()),
            const_cast<aclTensor*>(mean.acl()), const_cast<aclTensor*>(rstd.acl()), ws, exec);
      },
      aclnnGroupNorm);
}

// [N, C, HxW] with `group` groups: short (3 elements a group), long and uneven groups.
struct GroupShape {
  int64_t n, c, hxw, group;
};
const GroupShape kGroupShapes[] = {{512, 96, 1, 32}, {2, 8, 16384, 2}, {3, 30, 1031, 5}};

void MeasureGroupNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-5;
  const long double e = static_cast<float>(eps);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const GroupShape& s : kGroupShapes) {
        HostTensor x(d, {s.n, s.c, s.hxw}), y(d, {s.n, s.c, s.hxw}), g(d, {s.c}), b(d, {s.c}),
            mean(d, {s.n, s.group}), rstd(d, {s.n, s.group});
        x.Fill(rng, -3.0, 5.0);
        g.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        ASSERT_EQ(RunGroupNorm(x, g, b, s.n, s.c, s.hxw, s.group, eps, y, mean, rstd),
                  ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> xv = x.Values(), gv = g.Values(), bv = b.Values();
        const int64_t cg = s.c / s.group, len = cg * s.hxw;
        for (int64_t r = 0; r < s.n * s.group; ++r) {
          const double* row = xv.data() + r * len;
          const Moments mo = RowMoments(row, len, e);
          const long double m = mo.mean, rs = mo.rstd;
          const double md = static_cast<double>(m), rd = static_cast<double>(rs);
          table->Add("GroupNorm", d, "mean", d, mean.Get(r), md, Bound(d, md, 0));
          table->Add("GroupNorm", d, "rstd", d, rstd.Get(r), rd, Bound(d, rd, 0));
          for (int64_t i = 0; i < len; ++i) {
            const int64_t ch = (r % s.group) * cg + i / s.hxw;
            const long double xhat = (row[i] - m) * rs;
            const double exact = static_cast<double>(xhat * gv[ch] + bv[ch]);
            const double terms = static_cast<double>(std::fabs(xhat * gv[ch])) + std::fabs(bv[ch]);
            table->Add("GroupNorm", d, "out", d, y.Get(r * len + i), exact, Bound(d, exact, terms));
          }
        }
      }
    }
  });
}

aclnnStatus RunGroupNormBackward(HostTensor& dy, HostTensor& x, HostTensor& mean, HostTensor& rstd,
                                 HostTensor& g, const GroupShape& s, HostTensor& dx,
                                 HostTensor& dgamma, HostTensor& dbeta) {
  const bool mask[3] = {true, true, true};
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  const aclnnStatus st = TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnGroupNormBackwardGetWorkspaceSize(dy.acl(), x.acl(), mean.acl(), rstd.acl(),
                                                      g.acl(), s.n, s.c, s.hxw, s.group, m, Mut(dx),
                                                      Mut(dgamma), Mut(dbeta), ws, exec);
      },
      aclnnGroupNormBackward);
  aclDestroyBoolArray(m);
  return st;
}

// mean and rstd the forward's own, rounded to the input's dtype, as the suite stores them.
void MeasureGroupNormBackward(Table* table, std::mt19937_64& rng) {
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const GroupShape& s : kGroupShapes) {
        const std::vector<int64_t> shape{s.n, s.c, s.hxw};
        HostTensor dy(d, shape), x(d, shape), g(d, {s.c}), mean(d, {s.n, s.group}),
            rstd(d, {s.n, s.group}), dx(d, shape), dgamma(d, {s.c}), dbeta(d, {s.c});
        dy.Fill(rng, -2.0, 2.0);
        x.Fill(rng, -3.0, 5.0);
        g.Fill(rng, -2.0, 2.0);
        const std::vector<double> xv = x.Values(), dyv = dy.Values(), gv = g.Values();
        const int64_t cg = s.c / s.group, len = cg * s.hxw;
        for (int64_t r = 0; r < s.n * s.group; ++r) {
          const Moments mo = RowMoments(xv.data() + r * len, len, 1e-5L);
          mean.Set(r, static_cast<double>(mo.mean));
          rstd.Set(r, static_cast<double>(mo.rstd));
        }
        ASSERT_EQ(RunGroupNormBackward(dy, x, mean, rstd, g, s, dx, dgamma, dbeta), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> mv = mean.Values(), rv = rstd.Values();
        std::vector<long double> sg(s.c, 0), sb(s.c, 0), mg(s.c, 0), mb(s.c, 0);
        for (int64_t r = 0; r < s.n * s.group; ++r) {
          const long double m = mv[r], sr = rv[r];
          long double s1 = 0, s2 = 0, a1 = 0, a2 = 0;
          for (int64_t i = 0; i < len; ++i) {
            const int64_t ch = (r % s.group) * cg + i / s.hxw, at = r * len + i;
            const long double xhat = (xv[at] - m) * sr, dyg = dyv[at] * gv[ch];
            s1 += dyg, s2 += dyg * xhat, a1 += std::fabs(dyg), a2 += std::fabs(dyg * xhat);
            sg[ch] += dyv[at] * xhat, mg[ch] += std::fabs(dyv[at] * xhat);
            sb[ch] += dyv[at], mb[ch] += std::fabs(dyv[at]);
          }
          for (int64_t i = 0; i < len; ++i) {
            const int64_t ch = (r % s.group) * cg + i / s.hxw, at = r * len + i;
            const long double xhat = (xv[at] - m) * sr, dyg = dyv[at] * gv[ch];
            const double exact = static_cast<double>((dyg - (s1 / len + xhat * (s2 / len))) * sr);
            const double terms =
                static_cast<double>((std::fabs(dyg) + a1 / len + std::fabs(xhat) * a2 / len) * sr);
            table->Add("GroupNormBackward", d, "gradInput", d, dx.Get(at), exact,
                       Bound(d, exact, terms));
          }
        }
        for (int64_t ch = 0; ch < s.c; ++ch) {
          const double eg = static_cast<double>(sg[ch]), eb = static_cast<double>(sb[ch]);
          table->Add("GroupNormBackward", d, "gradGammaOut", d, dgamma.Get(ch), eg,
                     Bound(d, eg, static_cast<double>(mg[ch])));
          table->Add("GroupNormBackward", d, "gradBetaOut", d, dbeta.Get(ch), eb,
                     Bound(d, eb, static_cast<double>(mb[ch])));
        }
      }
    }
  });
}

// ---- BatchNorm -------------------------------------------------------------------------

aclnnStatus RunBatchNorm(HostTensor& x, HostTensor& w, HostTensor& b, HostTensor& rm,
                         HostTensor& rv, double momentum, double eps, HostTensor& y,
                         HostTensor& save_mean, HostTensor& save_var) {
  return TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnBatchNormGetWorkspaceSize(x.acl(), w.acl(), b.acl(), Mut(rm), Mut(rv), true,
                                              momentum, eps, Mut(y), Mut(save_mean), Mut(save_var),
                                              ws, exec);
      },
      aclnnBatchNorm);
}

// [N, C, S]: an [N, C] input (one element per segment), long channels and uneven segments.
struct ChannelShape {
  int64_t n, c, s;
};
const ChannelShape kChannelShapes[] = {{4096, 24, 1}, {2, 4, 16384}, {7, 13, 1031}};

// Training: saveMean, saveInvstd (the variance, as on Atlas A2), the running statistics and
// the output, every per-channel tensor of the input's dtype.
void MeasureBatchNorm(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-5, momentum = 0.1;
  const long double e = static_cast<float>(eps), mom = static_cast<float>(momentum);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ChannelShape& s : kChannelShapes) {
        const std::vector<int64_t> shape =
            s.s == 1 ? std::vector<int64_t>{s.n, s.c} : std::vector<int64_t>{s.n, s.c, s.s};
        HostTensor x(d, shape), y(d, shape), w(d, {s.c}), b(d, {s.c}), rm(d, {s.c}), rv(d, {s.c}),
            sm(d, {s.c}), sv(d, {s.c});
        x.Fill(rng, -3.0, 5.0);
        w.Fill(rng, -2.0, 2.0);
        b.Fill(rng, -1.0, 1.0);
        rm.Fill(rng, -1.0, 1.0);
        rv.Fill(rng, 0.5, 2.0);
        const std::vector<double> xv = x.Values(), wv = w.Values(), bv = b.Values(),
                                  rm0 = rm.Values(), rv0 = rv.Values();
        ASSERT_EQ(RunBatchNorm(x, w, b, rm, rv, momentum, eps, y, sm, sv), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const long double count = static_cast<long double>(s.n * s.s);
        for (int64_t ch = 0; ch < s.c; ++ch) {
          long double sum = 0, sq = 0;
          for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t k = 0; k < s.s; ++k) sum += xv[(n * s.c + ch) * s.s + k];
          }
          const long double m = sum / count;
          for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t k = 0; k < s.s; ++k) {
              const long double c = xv[(n * s.c + ch) * s.s + k] - m;
              sq += c * c;
            }
          }
          const long double var = sq / count, rs = 1.0L / std::sqrt(var + e);
          const double md = static_cast<double>(m), vd = static_cast<double>(var);
          table->Add("BatchNorm", d, "saveMean", d, sm.Get(ch), md, Bound(d, md, 0));
          table->Add("BatchNorm", d, "saveInvstd (variance)", d, sv.Get(ch), vd, Bound(d, vd, 0));
          const long double am = (1 - mom) * rm0[ch], tm = mom * m;
          const double erm = static_cast<double>(am + tm);
          table->Add("BatchNorm", d, "runningMean", d, rm.Get(ch), erm,
                     Bound(d, erm, static_cast<double>(std::fabs(am) + std::fabs(tm))));
          const long double av = (1 - mom) * rv0[ch], tv = mom * var * count / (count - 1);
          const double erv = static_cast<double>(av + tv);
          table->Add("BatchNorm", d, "runningVar", d, rv.Get(ch), erv,
                     Bound(d, erv, static_cast<double>(std::fabs(av) + std::fabs(tv))));
          for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t k = 0; k < s.s; ++k) {
              const int64_t i = (n * s.c + ch) * s.s + k;
              const long double xhat = (xv[i] - m) * rs;
              const double exact = static_cast<double>(xhat * wv[ch] + bv[ch]);
              const double terms =
                  static_cast<double>(std::fabs(xhat * wv[ch])) + std::fabs(bv[ch]);
              table->Add("BatchNorm", d, "output", d, y.Get(i), exact, Bound(d, exact, terms));
            }
          }
        }
      }
    }
  });
}

aclnnStatus RunBatchNormBackward(HostTensor& dy, HostTensor& x, HostTensor& w, HostTensor& rm,
                                 HostTensor& rv, HostTensor& sm, HostTensor& sv, double eps,
                                 HostTensor& dx, HostTensor& dw, HostTensor& db) {
  const bool mask[3] = {true, true, true};
  aclBoolArray* m = aclCreateBoolArray(mask, 3);
  const aclnnStatus st = TwoPhase(
      [&](uint64_t* ws, aclOpExecutor** exec) {
        return aclnnBatchNormBackwardGetWorkspaceSize(dy.acl(), x.acl(), w.acl(), rm.acl(),
                                                      rv.acl(), sm.acl(), sv.acl(), true, eps, m,
                                                      Mut(dx), Mut(dw), Mut(db), ws, exec);
      },
      aclnnBatchNormBackward);
  aclDestroyBoolArray(m);
  return st;
}

// Training: from saveMean and saveInvstd (the variance, as the A2 forward writes it), drawn as
// the suite draws them.
void MeasureBatchNormBackward(Table* table, std::mt19937_64& rng) {
  const double eps = 1e-5;
  const long double e = static_cast<float>(eps);
  ForEachTarget([&](int64_t) {
    for (const DType d : kDTypes) {
      for (const ChannelShape& s : kChannelShapes) {
        const std::vector<int64_t> shape =
            s.s == 1 ? std::vector<int64_t>{s.n, s.c} : std::vector<int64_t>{s.n, s.c, s.s};
        HostTensor dy(d, shape), x(d, shape), dx(d, shape), w(d, {s.c}), rm(d, {s.c}), rv(d, {s.c}),
            sm(d, {s.c}), sv(d, {s.c}), dw(d, {s.c}), db(d, {s.c});
        dy.Fill(rng, -1.0, 1.0);
        x.Fill(rng, -3.0, 3.0);
        w.Fill(rng, -2.0, 2.0);
        rm.Fill(rng, -1.0, 1.0);
        rv.Fill(rng, 0.5, 2.0);
        sm.Fill(rng, -1.0, 1.0);
        sv.Fill(rng, 0.25, 3.0);
        ASSERT_EQ(RunBatchNormBackward(dy, x, w, rm, rv, sm, sv, eps, dx, dw, db), ACLNN_SUCCESS)
            << aclGetRecentErrMsg();
        const std::vector<double> dyv = dy.Values(), xv = x.Values(), wv = w.Values(),
                                  mv = sm.Values(), vv = sv.Values();
        const long double count = static_cast<long double>(s.n * s.s);
        for (int64_t ch = 0; ch < s.c; ++ch) {
          const long double invstd = 1.0L / std::sqrt(vv[ch] + e);
          long double sum_dy = 0, sum_dy_xhat = 0, mag_dy = 0, mag_dy_xhat = 0;
          for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t k = 0; k < s.s; ++k) {
              const int64_t i = (n * s.c + ch) * s.s + k;
              const long double xhat = (xv[i] - mv[ch]) * invstd;
              sum_dy += dyv[i], mag_dy += std::fabs(dyv[i]);
              sum_dy_xhat += dyv[i] * xhat, mag_dy_xhat += std::fabs(dyv[i] * xhat);
            }
          }
          const double ew = static_cast<double>(sum_dy_xhat), eb = static_cast<double>(sum_dy);
          table->Add("BatchNormBackward", d, "gradWeight", d, dw.Get(ch), ew,
                     Bound(d, ew, static_cast<double>(mag_dy_xhat)));
          table->Add("BatchNormBackward", d, "gradBias", d, db.Get(ch), eb,
                     Bound(d, eb, static_cast<double>(mag_dy)));
          const long double scale = invstd * wv[ch];
          for (int64_t n = 0; n < s.n; ++n) {
            for (int64_t k = 0; k < s.s; ++k) {
              const int64_t i = (n * s.c + ch) * s.s + k;
              const long double xhat = (xv[i] - mv[ch]) * invstd;
              const long double a = sum_dy / count, b = xhat * sum_dy_xhat / count;
              const double exact = static_cast<double>((dyv[i] - (a + b)) * scale);
              const double terms = static_cast<double>(
                  (std::fabs(dyv[i]) + std::fabs(a) + std::fabs(b)) * std::fabs(scale));
              table->Add("BatchNormBackward", d, "gradInput", d, dx.Get(i), exact,
                         Bound(d, exact, terms));
            }
          }
        }
      }
    }
  });
}

// ---- The table and the page -------------------------------------------------------------

std::string Render(const Table& table) {
  std::ostringstream t;
  t << "| Operator | dtype | Output | Output dtype | Values checked | Largest error (ULP) | "
       "Largest error / bound |\n";
  t << "|---|---|---|---|---:|---:|---:|\n";
  char buf[64];
  for (const Row& r : table.rows()) {
    t << "| " << r.op << " | " << DTypeName(r.dtype) << " | " << r.output << " | "
      << DTypeName(r.out_dtype) << " | " << r.elements << " | ";
    std::snprintf(buf, sizeof(buf), "%.2f | %.4f |\n", r.max_ulp, r.max_ratio);
    t << buf;
  }
  return t.str();
}

constexpr const char kMarker[] =
    "<!-- Generated below this line by tests/norm_error_table_test.cc "
    "(HOSTNN_WRITE_NORM_ERRORS=1 build/tests/norm_error_table_test); edit above it only. -->";
constexpr const char kPage[] = HOSTNN_SOURCE_DIR "/docs/norm_family.md";

// The page up to and with its marker line, then the table.
void WritePage(const std::string& table) {
  std::ifstream in(kPage, std::ios::binary);
  ASSERT_TRUE(in.good()) << "cannot read " << kPage;
  std::ostringstream s;
  s << in.rdbuf();
  const std::string page = s.str();
  const size_t at = page.find(kMarker);
  ASSERT_NE(at, std::string::npos) << kPage << " has no marker line";
  std::ofstream out(kPage, std::ios::binary | std::ios::trunc);
  out << page.substr(0, at + sizeof(kMarker) - 1) << "\n\n" << table;
  ASSERT_TRUE(out.good()) << "cannot write " << kPage;
  std::cout << "wrote " << kPage << "\n";
}

TEST(NormErrorTable, EveryOperatorDTypeAndOutputWithinItsBound) {
  std::mt19937_64 rng(0x4E0Bu);
  Table table;
  MeasureLayerNorm(&table, rng);
  MeasureLayerNormBackward(&table, rng);
  MeasureRmsNorm(&table, rng);
  MeasureRmsNormGrad(&table, rng);
  MeasureAddRmsNorm(&table, rng);
  MeasureAddLayerNorm(&table, rng);
  MeasureAddLayerNormGrad(&table, rng);
  MeasureGroupNorm(&table, rng);
  MeasureGroupNormBackward(&table, rng);
  MeasureBatchNorm(&table, rng);
  MeasureBatchNormBackward(&table, rng);
  ASSERT_FALSE(::testing::Test::HasFatalFailure());
  for (const Row& r : table.rows()) {
    EXPECT_LE(r.max_ratio, 1.0) << r.op << " " << DTypeName(r.dtype) << " " << r.output
                                << ": largest error " << r.max_ratio << " of its bound";
  }
  const std::string rendered = Render(table);
  std::cout << rendered;
  const char* write = std::getenv("HOSTNN_WRITE_NORM_ERRORS");
  if (write != nullptr && std::string(write) == "1") WritePage(rendered);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
