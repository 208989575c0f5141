// What the loss suites (tests/mse_loss_test.cc, bce_with_logits_test.cc, nll_loss_test.cc,
// cross_entropy_loss_test.cc, softmax_cross_entropy_with_logits_test.cc) share: a loss's
// OpArgs, the NumPy broadcast index their references walk, the (team, cores) splits each
// case runs on, and the check of out against a double-precision expectation over them, out's
// bits the same for each and the bytes around its elements as they were. Every element
// checked also enters the family's error table (LossErrorTable).
#ifndef HOSTNN_TESTS_UTIL_LOSS_CHECK_H_
#define HOSTNN_TESTS_UTIL_LOSS_CHECK_H_

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tests/util/strided_tensor.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {

// A loss's arguments: its inputs in the list's order (null: an absent optional one), out,
// and the reduction (0 none, 1 mean, 2 sum).
inline OpArgs LossArgs(Op op, const std::vector<const HostTensor*>& in, const HostTensor& out,
                       int64_t reduction) {
  OpArgs a;
  a.op = op;
  for (size_t k = 0; k < in.size(); ++k) a.in[k] = in[k] != nullptr ? &in[k]->view() : nullptr;
  a.out[0] = &out.view();
  a.scalars[0] = OpScalar{true, static_cast<double>(reduction), DType::kInt64};
  a.scalars[0].int_value = reduction;
  return a;
}

// The element of a tensor of shape `in` that element e of the broadcast shape `to` reads
// (NumPy rules: the shapes aligned at their last dims, a dim of 1 read at index 0).
inline int64_t BroadcastIndex(const std::vector<int64_t>& to, const std::vector<int64_t>& in,
                              int64_t e) {
  std::vector<int64_t> index(to.size());
  for (size_t d = to.size(); d-- > 0;) {
    index[d] = e % to[d];
    e /= to[d];
  }
  int64_t at = 0;
  for (size_t k = 0; k < in.size(); ++k) {
    const size_t d = to.size() - in.size() + k;
    at = at * in[k] + (in[k] == 1 ? 0 : index[d]);
  }
  return at;
}

// The family's measured error table (docs/loss_embedding_family.md, "Measured errors"): per
// operator, output and dtype, the largest error of an element the suites checked, in ULP of
// the output's dtype at the larger of the exact and the computed value, and the largest ratio of
// that error to the bound the check allowed (which must stay at most 1). With HOSTNN_LOSS_ERRORS
// naming a file, a suite appends its rows to it when it exits; tests/scripts/loss_error_table.py
// runs the suites so and writes the table into the page.
class LossErrorTable {
 public:
  static LossErrorTable& Get() {
    static LossErrorTable table;
    return table;
  }
  void SetOp(Op op) { op_ = op; }
  void Record(const char* output, DType dtype, double error, double exact, double got,
              double bound) {
    if (path_.empty()) return;  // no table asked for: the suites' checks cost nothing more
    Cell& c = cells_[Key{GetOpInfo(op_).name, output, DTypeName(dtype)}];
    const double ulp = UlpOf(dtype, std::max(std::fabs(exact), std::fabs(got)));
    c.max_ulp = std::max(c.max_ulp, error / ulp);
    if (bound > 0.0) c.max_ratio = std::max(c.max_ratio, error / bound);
    ++c.elements;
  }
  ~LossErrorTable() {
    if (cells_.empty()) return;
    std::ofstream f(path_, std::ios::app);
    for (const auto& [key, c] : cells_) {
      f << std::get<0>(key) << '\t' << std::get<1>(key) << '\t' << std::get<2>(key) << '\t'
        << c.max_ulp << '\t' << c.max_ratio << '\t' << c.elements << '\n';
    }
  }

 private:
  using Key = std::tuple<std::string, std::string, std::string>;  // op, output, dtype
  struct Cell {
    double max_ulp = 0.0, max_ratio = 0.0;
    int64_t elements = 0;
  };
  LossErrorTable() {
    const char* path = std::getenv("HOSTNN_LOSS_ERRORS");
    if (path != nullptr) path_ = path;
  }
  std::string path_;  // HOSTNN_LOSS_ERRORS: where the rows go; empty, nothing is recorded
  Op op_ = Op::kSiluBackward;
  std::map<Key, Cell> cells_;
};

// out's expected values and each one's bound (before a 16-bit out's half ULP).
struct LossExpected {
  std::vector<double> value, bound;
};

// out's elements against `want`; every other byte of out's storage as `before` had it.
inline void ExpectLossOut(const LossExpected& want, const HostTensor& out,
                          const std::vector<uint8_t>& before) {
  ASSERT_EQ(static_cast<size_t>(out.numel()), want.value.size());
  for (int64_t e = 0; e < out.numel(); ++e) {
    const size_t k = static_cast<size_t>(e);
    const double got = out.Get(e), exact = want.value[k];
    if (std::isnan(exact)) {
      ASSERT_TRUE(std::isnan(got)) << "element " << e;
    } else {
      const double bound = want.bound[k] + (out.dtype() == DType::kFloat32
                                                ? 0.0
                                                : 0.5 * std::max(UlpOf(out.dtype(), exact),
                                                                 UlpOf(out.dtype(), got)));
      LossErrorTable::Get().Record("out", out.dtype(), std::fabs(got - exact), exact, got, bound);
      ASSERT_LE(std::fabs(got - exact), bound)
          << "element " << e << ": got " << got << ", exact " << exact;
    }
  }
  ASSERT_EQ(out.FirstChangeOutsideElements(before), -1);
}

// A class loss's output (NLLLoss's, CrossEntropyLoss's) against `want`: NaN where it is NaN
// (a mean over no weight), exactly +0 where the value and bound are 0 (an untouched or
// ignored element), else within the bound (a 16-bit output plus half its ULP); every other
// byte of out's storage as `before` had it. `what` names the output.
inline void ExpectClassLossOut(const LossExpected& want, const HostTensor& out,
                               const std::vector<uint8_t>& before, const char* what) {
  ASSERT_EQ(static_cast<size_t>(out.numel()), want.value.size()) << what;
  for (int64_t e = 0; e < out.numel(); ++e) {
    const size_t k = static_cast<size_t>(e);
    const double got = out.Get(e), exact = want.value[k];
    if (std::isnan(exact)) {
      ASSERT_TRUE(std::isnan(got)) << what << " element " << e;
      continue;
    }
    if (exact == 0.0 && want.bound[k] == 0.0) {  // an untouched or ignored element: +0
      ASSERT_EQ(got, 0.0) << what << " element " << e;
      ASSERT_FALSE(std::signbit(got)) << what << " element " << e;
      continue;
    }
    const bool wide = out.dtype() == DType::kFloat32 || out.dtype() == DType::kFloat64;
    const double bound =
        want.bound[k] +
        (wide ? 0.0 : 0.5 * std::max(UlpOf(out.dtype(), exact), UlpOf(out.dtype(), got)));
    LossErrorTable::Get().Record(what, out.dtype(), std::fabs(got - exact), exact, got, bound);
    ASSERT_LE(std::fabs(got - exact), bound)
        << what << " element " << e << ": got " << got << ", exact " << exact;
  }
  ASSERT_EQ(out.FirstChangeOutsideElements(before), -1) << what;
}

// v behind a null data address, its view one element into a storage one element longer:
// what phase 1 takes (CANN's never reads the address) and must compute no address from.
inline TensorView NullDataAtAnOffset(const TensorView& v) {
  TensorView null_view = v;
  null_view.data = nullptr;
  null_view.offset = 1;
  int64_t numel = 1;
  for (int64_t d : v.shape) numel *= d;
  null_view.storage_shape = {numel + 1};
  return null_view;
}

// The (team, cores) splits a loss suite runs each case on: its bits must not depend on them.
struct TeamSplit {
  int team;
  int64_t cores;
};
constexpr TeamSplit kTeamSplits[] = {{1, 1}, {2, 2}, {3, 5}, {2, 48}};

// hostnn::Run of args on a team of split.team threads planned for split.cores cores.
inline Status RunOnSplit(const OpArgs& args, const TeamSplit& split) {
  LossErrorTable::Get().SetOp(args.op);
  const int threads = omp_get_max_threads();
  omp_set_num_threads(split.team);
  tiling::Options options;
  options.num_cores = split.cores;
  options.min_elems_per_core = 1;
  const Status s = hostnn::Run(args, options);
  omp_set_num_threads(threads);
  return s;
}

// Runs op over several (team, cores) splits and checks out against `want` each time, its
// bits the same for every split.
inline void RunLossAllSplits(Op op, const std::vector<const HostTensor*>& in, int64_t reduction,
                             const HostTensor& out, const LossExpected& want) {
  const std::vector<uint8_t> before = out.Snapshot();
  std::vector<uint8_t> first;
  for (const TeamSplit& split : kTeamSplits) {
    const Status s = RunOnSplit(LossArgs(op, in, out, reduction), split);
    ASSERT_TRUE(s.ok()) << s.message();
    ExpectLossOut(want, out, before);
    if (first.empty()) {
      first = out.ElementBytes();
    } else {
      ASSERT_EQ(out.ElementBytes(), first) << "team " << split.team << ", cores " << split.cores;
    }
  }
}

}  // namespace test
}  // namespace hostnn

#endif  // HOSTNN_TESTS_UTIL_LOSS_CHECK_H_
