// Stress: 8 user threads feed 4 streams (two threads per stream) with a random mix of the
// operators the list-driven suites run (test::AllOpsVector: all but the gated linear units,
// Prelu and PreluBackward) for HOSTNN_STRESS_SECONDS (default 10) seconds; every result is
// checked against the double reference. Exercises concurrent phase-1 calls, shared streams,
// per-thread error messages and executor consumption under load.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "acl/acl.h"
#include "tests/reference/forward_reference.h"
#include "tests/reference/softmax_reference.h"
#include "tests/reference/reference.h"
#include "tests/util/capi_ops.h"
#include "tests/util/test_util.h"

namespace hostnn {
namespace {

constexpr int kThreads = 8;
constexpr int kStreams = 4;

double StressSeconds() {
  const char* s = std::getenv("HOSTNN_STRESS_SECONDS");
  return s != nullptr ? std::atof(s) : 10.0;
}

// One queued call: device buffers, tensors, and the host copies to check against.
struct Job {
  Op op;
  int64_t rows, cols;
  std::vector<float> dy, x, out;
  void *dy_dev = nullptr, *x_dev = nullptr, *out_dev = nullptr, *ws = nullptr;
  aclTensor *dy_t = nullptr, *x_t = nullptr, *out_t = nullptr;
};

aclTensor* Make(std::vector<float>& host, int64_t rows, int64_t cols, void** dev) {
  const size_t bytes = host.size() * sizeof(float);
  if (aclrtMalloc(dev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return nullptr;
  aclrtMemcpy(*dev, bytes, host.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
  const int64_t shape[2] = {rows, cols}, strides[2] = {cols, 1};
  return aclCreateTensor(shape, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 2, *dev);
}

// Queues `job` on `stream`; returns the status of phase 1 + 2.
int Queue(Job& job, aclrtStream stream) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const test::CApiOp& api = test::GetCApiOp(job.op);
  // A gradient reads (dy, x); a forward operator x alone (an in-place one writes it).
  const int st = GetOpInfo(job.op).is_forward
                     ? api.phase1(job.x_t, nullptr, nullptr, job.out_t, -1, &ws, &exec)
                     : api.phase1(job.dy_t, job.x_t, job.x_t, job.out_t, -1, &ws, &exec);
  if (st != 0) return st;
  if (ws > 0 && aclrtMalloc(&job.ws, ws, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return -1;
  return api.phase2(job.ws, ws, exec, stream);
}

// Counts elements outside the SPEC tolerance.
int64_t CheckJob(Job& job) {
  const OpInfo& info = GetOpInfo(job.op);
  // An in-place operator writes its first input: self, or a two-input one's selfRef (dy).
  const void* result =
      IsInplace(info.signature) ? (info.is_forward ? job.x_dev : job.dy_dev) : job.out_dev;
  aclrtMemcpy(job.out.data(), job.out.size() * 4, result, job.out.size() * 4,
              ACL_MEMCPY_DEVICE_TO_HOST);
  int64_t bad = 0;
  if (info.is_forward && info.is_reduction) {
    std::vector<double> x(job.x.begin(), job.x.end()), ref, aux;
    test::ReductionForwardRef(job.op, x, {job.rows, job.cols}, 1, &ref, &aux);
    for (size_t i = 0; i < ref.size(); ++i) {
      bad += !test::ReductionForwardWithinTolerance(job.op, DType::kFloat32, job.out[i], ref[i],
                                                    aux[i]);
    }
  } else if (info.is_forward) {
    for (size_t i = 0; i < job.out.size(); ++i) {
      bad += !test::ForwardEltwiseWithinTolerance(DType::kFloat32, job.out[i],
                                                  test::ForwardEltwiseRef(job.op, job.x[i]));
    }
  } else if (info.is_reduction) {
    std::vector<double> dy(job.dy.begin(), job.dy.end()), y(job.x.begin(), job.x.end()), ref, aux;
    test::ReductionBackwardRef(job.op, dy, y, {job.rows, job.cols}, 1, &ref, &aux);
    for (size_t i = 0; i < ref.size(); ++i) {
      bad += !test::ReductionBackwardWithinTolerance(job.op, DType::kFloat32, job.out[i], ref[i],
                                                     dy[i], y[i], aux[i]);
    }
  } else {
    for (size_t i = 0; i < job.out.size(); ++i) {
      bad += !test::EltwiseWithinTolerance(
          DType::kFloat32, job.out[i], test::EltwiseRef(job.op, job.dy[i], job.x[i]), job.dy[i]);
    }
  }
  return bad;
}

void Release(Job& job) {
  for (aclTensor* t : {job.dy_t, job.x_t, job.out_t}) aclDestroyTensor(t);
  for (void* p : {job.dy_dev, job.x_dev, job.out_dev, job.ws}) {
    if (p != nullptr) aclrtFree(p);
  }
}

TEST(Stress, ThreadsStreamsMixedOperators) {
  std::vector<aclrtStream> streams(kStreams);
  for (auto& s : streams) ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::milliseconds(static_cast<int64_t>(StressSeconds() * 1000));
  std::atomic<int64_t> calls{0}, failures{0}, wrong{0};
  std::vector<std::thread> threads;
  const std::vector<Op> ops = test::AllOpsVector();
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937_64 rng(1234 + t);
      aclrtStream stream = streams[t % kStreams];
      while (std::chrono::steady_clock::now() < deadline) {
        std::vector<Job> batch(1 + rng() % 4);
        for (Job& job : batch) {
          job.op = ops[rng() % ops.size()];
          job.rows = 1 + rng() % 8;
          job.cols = 1 + rng() % 3000;
          const size_t n = static_cast<size_t>(job.rows * job.cols);
          job.dy.resize(n);
          job.x.resize(n);
          job.out.assign(n, 0.0f);
          for (size_t i = 0; i < n; ++i) {
            job.dy[i] = static_cast<float>(test::RandomValue(DType::kFloat32, rng, -2, 2));
            job.x[i] = static_cast<float>(test::RandomValue(
                DType::kFloat32, rng, -8, GetOpInfo(job.op).is_reduction ? 0 : 8));
          }
          job.dy_t = Make(job.dy, job.rows, job.cols, &job.dy_dev);
          job.x_t = Make(job.x, job.rows, job.cols, &job.x_dev);
          job.out_t = Make(job.out, job.rows, job.cols, &job.out_dev);
          if (Queue(job, stream) != 0) {
            ++failures;
            ADD_FAILURE() << "thread " << t << ": " << aclGetRecentErrMsg();
          }
          ++calls;
        }
        if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) ++failures;
        for (Job& job : batch) {
          wrong += CheckJob(job);
          Release(job);
        }
      }
    });
  }
  for (auto& th : threads) th.join();
  for (auto& s : streams) ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
  std::printf("stress: %lld calls on %d threads x %d streams, %lld failures, %lld wrong elements\n",
              static_cast<long long>(calls.load()), kThreads, kStreams,
              static_cast<long long>(failures.load()), static_cast<long long>(wrong.load()));
  EXPECT_GT(calls.load(), kThreads);
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
}  // namespace hostnn
