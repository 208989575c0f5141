// Bitwise reproducibility (SPEC §3, §4): every operator and dtype gives the same bytes on 1, 2
// and 3 OpenMP threads, for 1 or 48 logical cores (Options and HOSTNN_NUM_CORES), and under
// the atlas-a2 and ascend950 profiles as under host, including LogSoftmaxBackward's long-row
// and ARA plans and the gathered (non-contiguous) paths.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdlib>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/hostnn.h"
#include "tests/util/numeric_harness.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace test {
namespace {

// Restores the OpenMP thread count and HOSTNN_NUM_CORES however a test ends.
class EnvScope {
 public:
  EnvScope() : threads_(omp_get_max_threads()) {
    const char* v = std::getenv("HOSTNN_NUM_CORES");
    had_cores_ = v != nullptr;
    if (had_cores_) cores_ = v;
  }
  ~EnvScope() {
    omp_set_num_threads(threads_);
    if (had_cores_) {
      setenv("HOSTNN_NUM_CORES", cores_.c_str(), 1);
    } else {
      unsetenv("HOSTNN_NUM_CORES");
    }
  }

 private:
  int threads_;
  bool had_cores_ = false;
  std::string cores_;
};

// One way of running the same problem.
struct Setting {
  std::string name;
  int threads = 1;
  tiling::Options options;
  const char* env_cores = nullptr;  // HOSTNN_NUM_CORES for this run
};

std::vector<Setting> Settings() {
  std::vector<Setting> s;
  s.push_back({"1 thread", 1, {}});
  s.push_back({"2 threads", 2, {}});
  s.push_back({"3 threads", 3, {}});
  Setting one_core{"num_cores 1, 3 threads", 3, {}};
  one_core.options.num_cores = 1;
  s.push_back(one_core);
  Setting many{"num_cores 48, 2 threads", 2, {}};
  many.options.num_cores = 48;
  many.options.min_elems_per_core = 1;
  s.push_back(many);
  Setting env{"HOSTNN_NUM_CORES=48, 3 threads", 3, {}};
  env.options.min_elems_per_core = 1;
  env.env_cores = "48";
  s.push_back(env);
  for (const char* platform : {"atlas-a2", "ascend950"}) {
    for (int threads : {1, 3}) {
      Setting p{std::string(platform) + ", " + std::to_string(threads) + " threads", threads, {}};
      p.options.platform = platform;
      s.push_back(p);
    }
  }
  return s;
}

// Runs `args` under `setting`; returns the output storage bytes and the plan.
std::vector<uint8_t> RunUnder(const Setting& setting, Op op, const TestTensor& dy,
                              const TestTensor& x, TestTensor* out, int64_t dim,
                              tiling::Plan* plan) {
  omp_set_num_threads(setting.threads);
  if (setting.env_cores != nullptr) {
    setenv("HOSTNN_NUM_CORES", setting.env_cores, 1);
  } else {
    unsetenv("HOSTNN_NUM_CORES");
  }
  out->storage().FillBytes(0xFF);
  *plan = RunChecked(op, dy, x, *out, dim, setting.options);
  return out->storage().Snapshot();
}

int64_t BlockDim(const tiling::Plan& p) {
  return p.kind == tiling::Plan::Kind::kReduction ? p.reduction.block_dim : p.elementwise.block_dim;
}

// Runs the problem under every setting and compares each output with the first one's.
void ExpectSameBytesEverywhere(Op op, const TestTensor& dy, const TestTensor& x, TestTensor* out,
                               int64_t dim, const std::string& what) {
  EnvScope restore;
  const std::vector<Setting> settings = Settings();
  tiling::Plan plan;
  const std::vector<uint8_t> base = RunUnder(settings[0], op, dy, x, out, dim, &plan);
  const int64_t base_block_dim = BlockDim(plan);
  bool plans_differ = false;
  for (size_t k = 1; k < settings.size(); ++k) {
    const std::vector<uint8_t> got = RunUnder(settings[k], op, dy, x, out, dim, &plan);
    plans_differ = plans_differ || BlockDim(plan) != base_block_dim;
    size_t first = 0;
    while (first < got.size() && got[first] == base[first]) ++first;
    EXPECT_EQ(first, got.size()) << what << ": " << settings[k].name << " differs from "
                                 << settings[0].name << " at byte " << first << " (block_dim "
                                 << BlockDim(plan) << " vs " << base_block_dim << ")";
  }
  // Otherwise the comparison above proved nothing about splitting the work.
  EXPECT_TRUE(plans_differ) << what << ": every setting planned " << base_block_dim << " cores";
}

class DeterminismTest : public ::testing::TestWithParam<std::tuple<Op, DType>> {
 protected:
  Op op() const { return std::get<0>(GetParam()); }
  DType dtype() const { return std::get<1>(GetParam()); }
};

TEST_P(DeterminismTest, DenseAcrossThreadsCoresAndPlatforms) {
  std::mt19937_64 rng(0x5EED0301);
  struct Case {
    std::vector<int64_t> shape;
    int64_t dim;
  };
  std::vector<Case> cases;
  if (GetOpInfo(op()).is_reduction) {
    cases = {{{3, 70001}, -1},     // long rows: AR recompute on every profile
             {{300, 257}, 1},      // many short rows: AR full-load
             {{16, 300, 33}, 1},   // ARA
             {{2, 50, 1500}, -2},  // ARA with several A0 tiles per a1
             {{3, 4000, 20}, 1}};  // ARA with R over the smaller UBs
  } else {
    cases = {{{200003}, 0}, {{613, 331}, 0}};
  }
  for (const Case& c : cases) {
    const std::string what = ShapeText(c.shape) + " dim " + std::to_string(c.dim);
    SCOPED_TRACE(what);
    TestTensor dy = TestTensor::Dense(dtype(), c.shape), x = TestTensor::Dense(dtype(), c.shape);
    FillRandom(&dy, rng, -4.0, 4.0);
    if (GetOpInfo(op()).is_reduction) {
      FillReductionOutput(op(), &x, c.dim, rng);
    } else {
      FillRandom(&x, rng, -12.0, 12.0);
    }
    TestTensor out = TestTensor::Dense(dtype(), c.shape);
    ExpectSameBytesEverywhere(op(), dy, x, &out, c.dim, what);
  }
}

// The gathered path (strided operands, scratch in the workspace) splits differently.
TEST_P(DeterminismTest, StridedAcrossThreadsCoresAndPlatforms) {
  std::mt19937_64 rng(0x5EED0302);
  // LogSoftmaxBackward reduces one (a1, A0 tile) unit per core: a1 > 1 gives cores work.
  const bool lsm = GetOpInfo(op()).is_reduction;
  const std::vector<int64_t> shape =
      lsm ? std::vector<int64_t>{6, 65, 77} : std::vector<int64_t>{129, 517};
  for (int64_t dim : {-1, 1}) {
    if (dim == 1 && !lsm) continue;
    const std::string what = ShapeText(shape) + " transposed, dim " + std::to_string(dim);
    SCOPED_TRACE(what);
    TestTensor dy = MakeLayout(Layout::kTransposed, dtype(), shape);
    TestTensor x = MakeLayout(Layout::kStride2, dtype(), shape);
    FillRandom(&dy, rng, -4.0, 4.0);
    if (lsm) {
      FillReductionOutput(op(), &x, dim, rng);
    } else {
      FillRandom(&x, rng, -12.0, 12.0);
    }
    TestTensor out = MakeLayout(Layout::kOffset, dtype(), shape);
    ExpectSameBytesEverywhere(op(), dy, x, &out, dim, what);
  }
}

INSTANTIATE_TEST_SUITE_P(AllOps, DeterminismTest,
                         ::testing::ValuesIn(WithComputeTypes(AllOpsList())),
                         [](const ::testing::TestParamInfo<std::tuple<Op, DType>>& info) {
                           return std::string(GetOpInfo(std::get<0>(info.param)).name) + "_" +
                                  DTypeName(std::get<1>(info.param));
                         });

}  // namespace
}  // namespace test
}  // namespace hostnn
