// The host runtime of acl/acl.h (memory, devices, streams, per-thread error messages) and
// the second phase of every operator (workspace checks, executor lifetime, stream order),
// through the CANN C API. No timing assertions: ordering is proven by data dependencies.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "src/runtime/runtime.h"
#include "tests/util/acl_test_util.h"

namespace hostnn {
namespace test {
namespace {

// The calling thread's recent message, after priming it, for a fresh-message check.
bool FreshMessage(const std::string& primed) {
  const std::string msg = aclGetRecentErrMsg();
  return !msg.empty() && msg != primed;
}

// ---- devices and init ----------------------------------------------------------------------

TEST(Device, OnlyDeviceZeroExists) {
  EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
  EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
  for (int32_t id : {1, -1, 7}) {
    const std::string primed = PrimeErrorMessage();
    EXPECT_NE(aclrtSetDevice(id), ACL_SUCCESS) << id;
    EXPECT_TRUE(FreshMessage(primed)) << aclGetRecentErrMsg();
  }
  uint32_t count = 0;
  EXPECT_EQ(aclrtGetDeviceCount(&count), ACL_SUCCESS);
  EXPECT_EQ(count, 1u);
}

TEST(Init, RepeatedInitIsReportedAndFinalizeResets) {
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
}

// hostnn needs no initialisation: every call works before aclInit and after aclFinalize
// (they only pair up). aclFinalize without a matching aclInit is CANN's
// ACL_ERROR_REPEAT_FINALIZE.
TEST(Init, CallsWorkBeforeInitAndAfterFinalize) {
  auto run_an_operator = [] {
    std::vector<float> dy(64, 3.f), x(64, 0.f), out(64, -1.f);
    TensorPtr tdy = MakeDense(dy.data(), ACL_FLOAT, {64});
    TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {64});
    TensorPtr tout = MakeDense(out.data(), ACL_FLOAT, {64});
    uint64_t ws = 0;
    aclOpExecutor* e = nullptr;
    EXPECT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(tdy.get(), tx.get(), tout.get(), &ws, &e),
              ACLNN_SUCCESS);
    EXPECT_EQ(aclnnHardsigmoidBackward(nullptr, 0, e, nullptr), ACLNN_SUCCESS);
    EXPECT_EQ(out[0], 0.5f);
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    EXPECT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  };
  const std::string primed = PrimeErrorMessage();
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE) << "aclFinalize before any aclInit";
  EXPECT_TRUE(FreshMessage(primed));
  run_an_operator();  // before aclInit
  ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
  run_an_operator();
  EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
  EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE) << "aclFinalize twice";
  run_an_operator();  // after aclFinalize
}

// ---- memory --------------------------------------------------------------------------------

TEST(Memory, MallocGivesAlignedBlocksAndFreeTakesThemBack) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 100, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  std::memset(p, 0x5A, 100);  // the whole block is writable
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  for (aclrtMemMallocPolicy policy : {ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY}) {
    void* q = nullptr;
    ASSERT_EQ(aclrtMalloc(&q, 1, policy), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(q), ACL_SUCCESS);
  }
}

TEST(Memory, FreeRefusesForeignAndFreedPointers) {
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  int on_stack = 0;
  std::vector<char> on_heap(64);
  for (void* foreign : {static_cast<void*>(&on_stack), static_cast<void*>(on_heap.data()),
                        static_cast<void*>(static_cast<char*>(p) + 64)}) {
    const std::string primed = PrimeErrorMessage();
    EXPECT_NE(aclrtFree(foreign), ACL_SUCCESS);
    EXPECT_TRUE(FreshMessage(primed)) << aclGetRecentErrMsg();
  }
  EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  const std::string primed = PrimeErrorMessage();
  EXPECT_NE(aclrtFree(p), ACL_SUCCESS) << "double free accepted";
  EXPECT_TRUE(FreshMessage(primed)) << aclGetRecentErrMsg();
}

TEST(Memory, MemcpyCopiesEveryKind) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  const char src[16] = "0123456789abcde";
  char back[16] = {};
  EXPECT_EQ(aclrtMemcpy(dev, 16, src, 16, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(back, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(back, src, 16), 0);
  char host2[16] = {};
  EXPECT_EQ(aclrtMemcpy(host2, sizeof(host2), src, 16, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(host2, src, 16), 0);
  void* dev2 = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev2, 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemcpy(static_cast<char*>(dev2) + 16, 16, dev, 16, ACL_MEMCPY_DEVICE_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(std::memcmp(static_cast<char*>(dev2) + 16, src, 16), 0);
  // A copy ending exactly at a block's end, starting inside it.
  EXPECT_EQ(aclrtMemcpy(static_cast<char*>(dev) + 8, 8, src, 8, ACL_MEMCPY_HOST_TO_DEVICE),
            ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
  EXPECT_EQ(aclrtFree(dev2), ACL_SUCCESS);
}

TEST(Memory, MemcpyRefusalsCopyNothing) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  std::memset(dev, 0x11, 16);
  std::vector<char> src(64, 0x22), dst(64, 0x33);
  auto expect_refused = [&](aclError err, const char* what) {
    EXPECT_NE(err, ACL_SUCCESS) << what;
    EXPECT_FALSE(std::string(aclGetRecentErrMsg()).empty()) << what;
    EXPECT_EQ(std::string(dst.begin(), dst.end()), std::string(64, 0x33)) << what;
    for (int i = 0; i < 16; ++i) ASSERT_EQ(static_cast<char*>(dev)[i], 0x11) << what;
  };
  expect_refused(aclrtMemcpy(dst.data(), 8, src.data(), 16, ACL_MEMCPY_HOST_TO_HOST),
                 "destMax < count");
  expect_refused(aclrtMemcpy(nullptr, 64, src.data(), 16, ACL_MEMCPY_HOST_TO_HOST), "null dst");
  expect_refused(aclrtMemcpy(dst.data(), 64, nullptr, 16, ACL_MEMCPY_HOST_TO_HOST), "null src");
  for (int kind : {-1, 4, 99}) {
    expect_refused(aclrtMemcpy(dst.data(), 64, src.data(), 16, static_cast<aclrtMemcpyKind>(kind)),
                   "unknown kind");
  }
  expect_refused(aclrtMemcpy(dev, 32, src.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE),
                 "past the end of the destination block");
  expect_refused(
      aclrtMemcpy(static_cast<char*>(dev) + 8, 64, src.data(), 9, ACL_MEMCPY_HOST_TO_DEVICE),
      "from inside the destination block past its end");
  expect_refused(aclrtMemcpy(dst.data(), 64, dev, 32, ACL_MEMCPY_DEVICE_TO_HOST),
                 "past the end of the source block");
  expect_refused(
      aclrtMemcpy(dst.data(), 64, static_cast<char*>(dev) + 15, 2, ACL_MEMCPY_DEVICE_TO_HOST),
      "from inside the source block past its end");
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

TEST(Memory, MemsetStaysInsideItsBlock) {
  void* dev = nullptr;
  ASSERT_EQ(aclrtMalloc(&dev, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  EXPECT_EQ(aclrtMemset(dev, 16, 0x7F, 16), ACL_SUCCESS);
  EXPECT_EQ(static_cast<unsigned char*>(dev)[15], 0x7F);
  EXPECT_NE(aclrtMemset(dev, 8, 0, 16), ACL_SUCCESS);
  EXPECT_NE(aclrtMemset(dev, 32, 0, 32), ACL_SUCCESS);
  EXPECT_NE(aclrtMemset(nullptr, 16, 0, 16), ACL_SUCCESS);
  for (int i = 0; i < 16; ++i) EXPECT_EQ(static_cast<unsigned char*>(dev)[i], 0x7F);
  EXPECT_EQ(aclrtFree(dev), ACL_SUCCESS);
}

// ---- per-thread error messages -------------------------------------------------------------

// Counts threads in; Wait returns once all have arrived.
class Latch {
 public:
  explicit Latch(int n) : left_(n) {}
  void ArriveAndWait() {
    std::unique_lock<std::mutex> lock(mu_);
    if (--left_ == 0) cv_.notify_all();
    cv_.wait(lock, [this] { return left_ == 0; });
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  int left_;
};

TEST(ErrorMessages, EachThreadSeesItsOwnLastError) {
  const std::string mine = PrimeErrorMessage();
  struct Provoker {
    const char* expect;  // a word the thread's own message names
    void (*provoke)();
  };
  const Provoker kProvokers[] = {
      {"aclrtSetDevice", [] { aclrtSetDevice(3); }},
      {"aclrtFree",
       [] {
         int x = 0;
         aclrtFree(&x);
       }},
      {"aclrtMemcpy",
       [] {
         char c = 0;
         aclrtMemcpy(nullptr, 1, &c, 1, ACL_MEMCPY_HOST_TO_HOST);
       }},
      {"gradInput",
       [] {
         uint64_t ws = 0;
         aclOpExecutor* e = nullptr;
         float d[6] = {};
         TensorPtr t = MakeDense(d, ACL_FLOAT, {2, 3});
         aclnnSiluBackwardGetWorkspaceSize(t.get(), t.get(), nullptr, &ws, &e);
       }},
      {"dim",
       [] {
         uint64_t ws = 0;
         aclOpExecutor* e = nullptr;
         float d[6] = {}, o[6] = {};
         TensorPtr t = MakeDense(d, ACL_FLOAT, {2, 3}), out = MakeDense(o, ACL_FLOAT, {2, 3});
         aclnnLogSoftmaxBackwardGetWorkspaceSize(t.get(), t.get(), 9, out.get(), &ws, &e);
       }},
      {nullptr, [] {}},  // provokes nothing: its message stays empty
  };
  constexpr int kN = sizeof(kProvokers) / sizeof(kProvokers[0]);
  for (int round = 0; round < 20; ++round) {
    Latch provoked(kN);
    std::vector<std::string> seen(kN);
    std::vector<std::thread> threads;
    for (int i = 0; i < kN; ++i) {
      // Rotate which provoker each thread runs, so threads start in different orders.
      const Provoker& p = kProvokers[(i + round) % kN];
      threads.emplace_back([&, i, p] {
        p.provoke();
        provoked.ArriveAndWait();  // every thread has failed before any reads
        seen[i] = aclGetRecentErrMsg();
      });
    }
    for (std::thread& t : threads) t.join();
    for (int i = 0; i < kN; ++i) {
      const Provoker& p = kProvokers[(i + round) % kN];
      if (p.expect == nullptr) {
        EXPECT_EQ(seen[i], "") << "a thread without failures sees another thread's message";
      } else {
        EXPECT_TRUE(NamesParam(seen[i], p.expect)) << p.expect << " vs " << seen[i];
      }
    }
  }
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), mine) << "other threads changed this one's";
}

// A success neither clears nor replaces the thread's message (as in CANN, only failures
// record one); reading it does not clear it here (CANN's read clears it), so it can be
// read twice and stays valid until the thread's next failure.
TEST(ErrorMessages, ASuccessDoesNotClearTheMessage) {
  const std::string primed = PrimeErrorMessage();
  ASSERT_FALSE(primed.empty());
  void* p = nullptr;
  ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  ASSERT_EQ(aclrtFree(p), ACL_SUCCESS);
  float d[4] = {1, 2, 3, 4}, o[4] = {};
  TensorPtr t = MakeDense(d, ACL_FLOAT, {4}), out = MakeDense(o, ACL_FLOAT, {4});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(t.get(), t.get(), out.get(), &ws, &e),
            ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, e, nullptr), ACLNN_SUCCESS);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), primed);
  EXPECT_EQ(std::string(aclGetRecentErrMsg()), primed) << "a second read";
  int x = 0;
  EXPECT_NE(aclrtFree(&x), ACL_SUCCESS);
  EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "aclrtFree")) << "the next failure replaces it";
}

// ---- streams -------------------------------------------------------------------------------

// A chain of operator runs where each step reads the previous step's result: S[i+1] =
// op_i(S[i], ...). Steps cycle through every operator of the list. Run on the null stream it gives
// the expected bits; queued on a stream it must give the same bits (SPEC: results do not
// depend on threads, and the stream runs in order).
class Chain {
 public:
  // Every operator of the list that writes a separate output (not the in-place ones).
  static const std::vector<Op>& ChainOps() {
    static const std::vector<Op> ops = [] {
      std::vector<Op> v;
      for (Op op : SuiteOps()) {
        const OpInfo& info = GetOpInfo(op);
        // A forward operator defined on a bounded interval only (Erfinv on (-1, 1)) would
        // turn the chain's values into NaN; the others take any finite input.
        const bool bounded = info.is_forward && info.domain_hi <= 1.0;
        if (!IsInplace(info.signature) && !bounded && !HasOwnSuite(op)) v.push_back(op);
      }
      return v;
    }();
    return ops;
  }

  static constexpr int64_t kRows = 16, kCols = 64, kN = kRows * kCols;
  explicit Chain(int steps) : steps_(steps) {
    std::mt19937_64 rng(1234);
    std::uniform_real_distribution<float> u(-2.0f, 2.0f);
    g_.resize(steps);
    for (auto& g : g_) {
      g.resize(kN);
      for (float& v : g) v = u(rng);
    }
    x_.resize(kN);
    for (float& v : x_) v = u(rng) * 2.0f;  // across the Hardsigmoid breakpoints
    y_.assign(kN, std::log(1.0f / kCols));  // LogSoftmax output of a uniform row
    s0_.resize(kN);
    for (float& v : s0_) v = u(rng);
  }

  // Buffers S[0..steps] from aclrtMalloc: S[0] the start values, the rest NaN.
  std::vector<float*> MakeBuffers() const {
    std::vector<float*> s(steps_ + 1);
    for (int i = 0; i <= steps_; ++i) {
      void* p = nullptr;
      EXPECT_EQ(aclrtMalloc(&p, kN * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
      s[i] = static_cast<float*>(p);
      std::fill(s[i], s[i] + kN, std::numeric_limits<float>::quiet_NaN());
    }
    EXPECT_EQ(aclrtMemcpy(s[0], kN * sizeof(float), s0_.data(), kN * sizeof(float),
                          ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_SUCCESS);
    return s;
  }
  static void FreeBuffers(const std::vector<float*>& s) {
    for (float* p : s) EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
  }

  // Makes every step's executor, then runs (stream null) or queues them all in order.
  // Tensors and workspaces are kept until Release, after the stream is drained.
  void Launch(const std::vector<float*>& s, aclrtStream stream) {
    std::vector<aclOpExecutor*> execs;
    std::vector<uint64_t> sizes;
    for (int i = 0; i < steps_; ++i) {
      const Op op = ChainOps()[i % ChainOps().size()];
      const CApiOp& api = GetCApiOp(op);
      TensorPtr dy, self, out = MakeDense(s[i + 1], ACL_FLOAT, {kRows, kCols});
      if (GetOpInfo(op).is_forward) {  // the chain through its one input
        dy = MakeDense(s[i], ACL_FLOAT, {kRows, kCols});
        self = nullptr;
      } else if (!GetOpInfo(op).is_reduction && i % 2 == 0) {  // the chain through self
        dy = MakeDense(g_[i].data(), ACL_FLOAT, {kRows, kCols});
        self = MakeDense(s[i], ACL_FLOAT, {kRows, kCols});
      } else {  // through gradOutput
        dy = MakeDense(s[i], ACL_FLOAT, {kRows, kCols});
        self = MakeDense(GetOpInfo(op).is_reduction ? y_.data() : x_.data(), ACL_FLOAT,
                         {kRows, kCols});
      }
      uint64_t ws = 0;
      aclOpExecutor* exec = nullptr;
      ASSERT_EQ(api.phase1(dy.get(), self.get(), self.get(), out.get(), 1, &ws, &exec),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
      execs.push_back(exec);
      sizes.push_back(ws);
      tensors_.push_back(std::move(dy));
      tensors_.push_back(std::move(self));
      tensors_.push_back(std::move(out));
    }
    for (int i = 0; i < steps_; ++i) {
      void* workspace = nullptr;
      if (sizes[i] > 0) {
        ASSERT_EQ(aclrtMalloc(&workspace, sizes[i], ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        workspaces_.push_back(workspace);
      }
      ASSERT_EQ(GetCApiOp(ChainOps()[i % ChainOps().size()])
                    .phase2(workspace, sizes[i], execs[i], stream),
                ACLNN_SUCCESS)
          << aclGetRecentErrMsg();
    }
  }

  void Release() {
    tensors_.clear();
    for (void* w : workspaces_) EXPECT_EQ(aclrtFree(w), ACL_SUCCESS);
    workspaces_.clear();
  }

  // The expected buffers: the chain run step by step on the null stream.
  std::vector<std::vector<float>> Expected() {
    std::vector<float*> s = MakeBuffers();
    Launch(s, nullptr);
    Release();
    std::vector<std::vector<float>> e;
    for (float* p : s) e.emplace_back(p, p + kN);
    FreeBuffers(s);
    return e;
  }

  void ExpectSame(const std::vector<float*>& s, const std::vector<std::vector<float>>& e) const {
    for (int i = 0; i <= steps_; ++i) {
      EXPECT_EQ(std::memcmp(s[i], e[i].data(), kN * sizeof(float)), 0) << "step " << i;
    }
    // The chain carries information to the end: the last result is finite and not all 0.
    bool any = false;
    for (float v : e[steps_]) {
      EXPECT_TRUE(std::isfinite(v));
      any = any || v != 0.0f;
    }
    EXPECT_TRUE(any);
  }

 private:
  int steps_;
  std::vector<std::vector<float>> g_;
  std::vector<float> x_, y_, s0_;
  std::vector<TensorPtr> tensors_;
  std::vector<void*> workspaces_;
};

TEST(Stream, QueuedChainGivesTheResultsOfRunningInOrder) {
  Chain chain(64);
  const std::vector<std::vector<float>> expected = chain.Expected();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float*> s = chain.MakeBuffers();
  chain.Launch(s, stream);  // all 64 runs queued before one synchronize
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
  chain.ExpectSame(s, expected);
  chain.Release();
  Chain::FreeBuffers(s);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(Stream, TwoStreamsRunTheirOwnChains) {
  Chain chain(24);
  const std::vector<std::vector<float>> expected = chain.Expected();
  aclrtStream a = nullptr, b = nullptr;
  ASSERT_EQ(aclrtCreateStream(&a), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&b), ACL_SUCCESS);
  Chain other(24);
  std::vector<float*> sa = chain.MakeBuffers(), sb = other.MakeBuffers();
  chain.Launch(sa, a);
  other.Launch(sb, b);
  EXPECT_EQ(aclrtSynchronizeStream(b), ACL_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
  chain.ExpectSame(sa, expected);
  other.ExpectSame(sb, expected);
  chain.Release();
  other.Release();
  Chain::FreeBuffers(sa);
  Chain::FreeBuffers(sb);
  EXPECT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
}

TEST(Stream, DestroyingAStreamDrainsItsQueueFirst) {
  Chain chain(48);
  const std::vector<std::vector<float>> expected = chain.Expected();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  std::vector<float*> s = chain.MakeBuffers();
  chain.Launch(s, stream);
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);  // no synchronize
  chain.ExpectSame(s, expected);
  chain.Release();
  Chain::FreeBuffers(s);
}

TEST(Stream, NullStreamRunsAtOnce) {
  for (Op op : SuiteOps()) {
    SCOPED_TRACE(GetCApiOp(op).name);
    Case c;
    c.dim = 1;
    Call call(GetCApiOp(op), c);
    call.FillValues();
    const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
    ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(call.ws(), 0u);
    ASSERT_EQ(GetCApiOp(op).phase2(nullptr, 0, call.exec(), nullptr), ACLNN_SUCCESS);
    call.ExpectResult(dy, x);  // read back with no synchronize at all
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
  }
}

TEST(Stream, AFailingQueuedRunIsReportedBySynchronize) {
  // No run that phase 2 accepts can fail, so the failing run is queued through the
  // runtime's own queue, the one phase 2 uses.
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Case c;
  Call before(GetCApiOp(Op::kSiluBackward), c), after(GetCApiOp(Op::kSiluBackward), c);
  before.FillValues();
  after.FillValues(1);
  const std::vector<double> dy = before.Values(kDy), x = before.Values(kSelf);
  ASSERT_EQ(before.Phase1(), ACLNN_SUCCESS);
  ASSERT_EQ(after.Phase1(), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnSiluBackward(nullptr, 0, before.exec(), stream), ACLNN_SUCCESS);
  ASSERT_EQ(runtime::Enqueue(stream, [] { return Status::Runtime("queued run one failed"); }),
            ACL_SUCCESS);
  ASSERT_EQ(runtime::Enqueue(stream, [] { return Status::Inner("queued run two failed"); }),
            ACL_SUCCESS);
  ASSERT_EQ(aclnnSiluBackward(nullptr, 0, after.exec(), stream), ACLNN_SUCCESS);
  const std::string primed = PrimeErrorMessage();
  EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("queued run one failed"), std::string::npos)
      << "not the first failure: " << aclGetRecentErrMsg();
  before.ExpectResult(dy, x);  // the run queued before the failure ran
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << "a failure is reported once";
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST(Stream, UnknownStreamsAreRefused) {
  int not_a_stream = 0;
  EXPECT_NE(aclrtSynchronizeStream(&not_a_stream), ACL_SUCCESS);
  EXPECT_NE(aclrtDestroyStream(&not_a_stream), ACL_SUCCESS);
  EXPECT_NE(aclrtCreateStream(nullptr), ACL_SUCCESS);
}

// ---- phase 2: workspace checks -------------------------------------------------------------

// A case per operator whose run needs a workspace: gradOutput is a transposed view.
Case GatheredCase() {
  Case c;
  c.AllShape({8, 16});
  c.dim = 1;
  c.v[kDy].strides = {1, 8};
  return c;
}

class PhaseTwoTest : public ::testing::TestWithParam<Op> {
 protected:
  const CApiOp& op() const { return GetCApiOp(GetParam()); }
};

TEST_P(PhaseTwoTest, AnUnknownStreamIsRefusedAndTheExecutorKept) {
  int not_a_stream = 0;
  Case c;
  c.dim = 1;
  Call call(op(), c);
  call.FillValues();
  const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  const std::string primed = PrimeErrorMessage();
  EXPECT_NE(op().phase2(nullptr, 0, call.exec(), &not_a_stream), ACLNN_SUCCESS);
  EXPECT_TRUE(FreshMessage(primed));
  EXPECT_TRUE(call.Unchanged());
  // The run never started, so the executor is still the caller's to run.
  EXPECT_EQ(op().phase2(nullptr, 0, call.exec(), nullptr), ACLNN_SUCCESS) << aclGetRecentErrMsg();
  call.ExpectResult(dy, x);
}

TEST_P(PhaseTwoTest, WorkspaceSmallerThanAskedIsInvalidAndWritesNothing) {
  for (bool on_stream : {false, true}) {
    SCOPED_TRACE(on_stream ? "stream" : "null stream");
    Call call(op(), GatheredCase());
    call.FillValues();
    const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
    ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS) << aclGetRecentErrMsg();
    const uint64_t ws = call.ws();
    ASSERT_GT(ws, 0u) << "the transposed gradOutput was expected to need scratch";
    aclrtStream stream = nullptr;
    if (on_stream) {
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    }
    void* workspace = nullptr;
    ASSERT_EQ(aclrtMalloc(&workspace, ws, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

    std::string primed = PrimeErrorMessage();
    EXPECT_EQ(op().phase2(workspace, ws - 1, call.exec(), stream), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(FreshMessage(primed));
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "workspaceSize")) << aclGetRecentErrMsg();
    primed = PrimeErrorMessage();
    EXPECT_EQ(op().phase2(nullptr, ws, call.exec(), stream), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(FreshMessage(primed));
    EXPECT_TRUE(NamesParam(aclGetRecentErrMsg(), "workspace")) << aclGetRecentErrMsg();
    EXPECT_EQ(op().phase2(nullptr, 0, call.exec(), stream), ACLNN_ERR_PARAM_INVALID);
    // A block from aclrtMalloc smaller than the size claimed for it.
    void* half = nullptr;
    ASSERT_EQ(aclrtMalloc(&half, ws / 2 + 1, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(op().phase2(half, ws, call.exec(), stream), ACLNN_ERR_PARAM_INVALID);
    if (on_stream) {
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    EXPECT_TRUE(call.Unchanged()) << "a refused phase 2 wrote";

    // The refused calls did not consume the executor: it runs with a proper workspace.
    EXPECT_EQ(op().phase2(workspace, ws, call.exec(), stream), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    if (on_stream) {
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    call.ExpectResult(dy, x);
    EXPECT_EQ(aclrtFree(half), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
    if (on_stream) {
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
  }
}

TEST_P(PhaseTwoTest, LargerWorkspaceThanAskedIsFine) {
  Call call(op(), GatheredCase());
  call.FillValues();
  const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  std::vector<uint64_t> big((call.ws() + 4096) / 8 + 1);
  EXPECT_EQ(op().phase2(big.data(), big.size() * 8, call.exec(), nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  call.ExpectResult(dy, x);
}

TEST_P(PhaseTwoTest, NullWorkspaceWithANonZeroSizeIsInvalid) {
  Case c;
  c.dim = 1;
  Call call(op(), c);  // dense, one dtype: no workspace needed
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  ASSERT_EQ(call.ws(), 0u);
  const std::string primed = PrimeErrorMessage();
  EXPECT_EQ(op().phase2(nullptr, 16, call.exec(), nullptr), ACLNN_ERR_PARAM_INVALID);
  EXPECT_TRUE(FreshMessage(primed));
  EXPECT_TRUE(call.Unchanged());
  EXPECT_EQ(op().phase2(nullptr, 0, call.exec(), nullptr), ACLNN_SUCCESS);
}

// ---- phase 2: executor lifetime ------------------------------------------------------------

TEST_P(PhaseTwoTest, AnExecutorRunsOnceUnlessRepeatable) {
  for (bool on_stream : {false, true}) {
    SCOPED_TRACE(on_stream ? "stream" : "null stream");
    aclrtStream stream = nullptr;
    if (on_stream) {
      ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    }
    Case c;
    c.dim = 1;
    Call call(op(), c);
    call.FillValues();
    ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
    EXPECT_EQ(op().phase2(nullptr, 0, call.exec(), stream), ACLNN_SUCCESS);
    if (on_stream) {
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    call.TakeSnapshot();
    const std::string primed = PrimeErrorMessage();
    EXPECT_NE(op().phase2(nullptr, 0, call.exec(), stream), ACLNN_SUCCESS) << "a second run";
    EXPECT_TRUE(FreshMessage(primed));
    if (on_stream) {
      EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    }
    EXPECT_TRUE(call.Unchanged());
    if (on_stream) {
      EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
    }
  }
}

TEST_P(PhaseTwoTest, NullExecutorIsRefused) {
  const std::string primed = PrimeErrorMessage();
  EXPECT_NE(op().phase2(nullptr, 0, nullptr, nullptr), ACLNN_SUCCESS);
  EXPECT_TRUE(FreshMessage(primed));
}

TEST_P(PhaseTwoTest, RepeatableExecutorRunsManyTimesUntilDestroyed) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Call call(op(), GatheredCase());
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(call.exec()), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (call.ws() > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, call.ws(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  for (int run = 0; run < 6; ++run) {
    SCOPED_TRACE("run " + std::to_string(run));
    call.FillValues(run);  // new inputs each time: the executor reads them at run time
    const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
    aclrtStream s = run % 2 ? stream : nullptr;
    ASSERT_EQ(op().phase2(workspace, call.ws(), call.exec(), s), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    if (s != nullptr) {
      ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    }
    call.ExpectResult(dy, x);
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
  call.TakeSnapshot();
  EXPECT_NE(op().phase2(workspace, call.ws(), call.exec(), nullptr), ACLNN_SUCCESS)
      << "a run after aclDestroyAclOpExecutor";
  EXPECT_NE(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS) << "destroyed twice";
  EXPECT_NE(aclSetAclOpExecutorRepeatable(call.exec()), ACLNN_SUCCESS);
  EXPECT_TRUE(call.Unchanged());
  if (workspace != nullptr) {
    EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_P(PhaseTwoTest, RepeatableExecutorDestroyedWhileRunsAreQueued) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  Call call(op(), GatheredCase());
  call.FillValues(2);
  const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(call.exec()), ACLNN_SUCCESS);
  void* workspace = nullptr;
  if (call.ws() > 0) {
    ASSERT_EQ(aclrtMalloc(&workspace, call.ws(), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
  }
  // An in-place operator would apply itself to its own result: it runs once.
  const int runs = op().in_place() ? 1 : 4;
  for (int run = 0; run < runs; ++run) {
    ASSERT_EQ(op().phase2(workspace, call.ws(), call.exec(), stream), ACLNN_SUCCESS);
  }
  EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
  EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
  call.ExpectResult(dy, x);
  if (workspace != nullptr) {
    EXPECT_EQ(aclrtFree(workspace), ACL_SUCCESS);
  }
  EXPECT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
}

TEST_P(PhaseTwoTest, AnotherOperatorsExecutorIsRefused) {
  for (Op other : SuiteOps()) {
    if (other == GetParam()) continue;
    SCOPED_TRACE(std::string("executor of ") + GetCApiOp(other).name);
    Case c;
    c.dim = 1;
    Call call(GetCApiOp(other), c);
    call.FillValues();
    const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
    ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
    const std::string primed = PrimeErrorMessage();
    EXPECT_NE(op().phase2(nullptr, call.ws(), call.exec(), nullptr), ACLNN_SUCCESS);
    EXPECT_TRUE(FreshMessage(primed));
    EXPECT_TRUE(call.Unchanged());
    // Still its own operator's to run.
    EXPECT_EQ(GetCApiOp(other).phase2(nullptr, call.ws(), call.exec(), nullptr), ACLNN_SUCCESS)
        << aclGetRecentErrMsg();
    call.ExpectResult(dy, x);
  }
}

// ---- handles that outlive their objects -----------------------------------------------------

// A run queued on a destroyed stream is refused with ACL_ERROR_INVALID_PARAM (100000), as
// docs/errors.md says, writes nothing, and leaves the executor the caller's to run.
TEST_P(PhaseTwoTest, RunOnADestroyedStreamIsInvalidParam) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(stream), ACL_SUCCESS);
  Case c;
  c.dim = 1;
  Call call(op(), c);
  call.FillValues();
  const std::vector<double> dy = call.Values(kDy), x = call.Values(kSelf);
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  const std::string primed = PrimeErrorMessage();
  EXPECT_EQ(op().phase2(nullptr, call.ws(), call.exec(), stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(FreshMessage(primed));
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("stream"), std::string::npos)
      << aclGetRecentErrMsg();
  EXPECT_TRUE(call.Unchanged());
  EXPECT_EQ(op().phase2(nullptr, call.ws(), call.exec(), nullptr), ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  call.ExpectResult(dy, x);
}

// A destroyed stream's handle stays dead: streams created afterwards (which may well be
// allocated where it was) get other handles, and the stale one is refused by every call.
TEST(Stream, ADestroyedStreamsHandleNeverNamesALaterStream) {
  aclrtStream old_stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&old_stream), ACL_SUCCESS);
  ASSERT_EQ(aclrtDestroyStream(old_stream), ACL_SUCCESS);
  std::vector<aclrtStream> later(16, nullptr);
  for (aclrtStream& s : later) {
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    EXPECT_NE(s, old_stream);
  }
  EXPECT_EQ(aclrtSynchronizeStream(old_stream), ACL_ERROR_INVALID_PARAM);
  EXPECT_EQ(aclrtDestroyStream(old_stream), ACL_ERROR_INVALID_PARAM);
  Case c;
  Call call(GetCApiOp(Op::kSiluBackward), c);
  call.FillValues();
  ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
  EXPECT_EQ(aclnnSiluBackward(nullptr, call.ws(), call.exec(), old_stream),
            ACL_ERROR_INVALID_PARAM);
  EXPECT_TRUE(call.Unchanged());
  EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
  for (aclrtStream s : later) EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// Likewise a consumed or destroyed executor's handle: executors made afterwards (each
// destroyed again, so their memory cycles through the allocator) get other handles, and
// the stale one is refused (161002) by phase 2, repeatable and destroy.
TEST_P(PhaseTwoTest, AConsumedExecutorsHandleNeverNamesALaterExecutor) {
  Case c;
  c.dim = 1;
  for (bool destroy : {false, true}) {
    SCOPED_TRACE(destroy ? "destroyed" : "consumed by a run");
    Call call(op(), c);
    call.FillValues();
    ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
    aclOpExecutor* stale = call.exec();
    if (destroy) {
      ASSERT_EQ(aclDestroyAclOpExecutor(stale), ACLNN_SUCCESS);
    } else {
      ASSERT_EQ(op().phase2(nullptr, call.ws(), stale, nullptr), ACLNN_SUCCESS);
    }
    int same = 0;
    for (int i = 0; i < 64; ++i) {
      ASSERT_EQ(call.Phase1(), ACLNN_SUCCESS);
      if (call.exec() == stale) ++same;
      if (i < 63) EXPECT_EQ(aclDestroyAclOpExecutor(call.exec()), ACLNN_SUCCESS);
    }
    EXPECT_EQ(same, 0) << "a later executor got the stale handle";
    aclOpExecutor* live = call.exec();  // the last one, still live
    call.TakeSnapshot();
    EXPECT_EQ(op().phase2(nullptr, call.ws(), stale, nullptr), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclSetAclOpExecutorRepeatable(stale), ACLNN_ERR_PARAM_INVALID);
    EXPECT_EQ(aclDestroyAclOpExecutor(stale), ACLNN_ERR_PARAM_INVALID);
    EXPECT_TRUE(call.Unchanged()) << "a stale handle ran a later executor";
    EXPECT_EQ(aclDestroyAclOpExecutor(live), ACLNN_SUCCESS) << "the stale handle destroyed it";
  }
}

// One repeatable executor run from two threads at once (null stream, or two streams):
// the runs are serialised, never interleaved. The executor works in place (out is
// gradOutput), so each run must see the whole result of the one before it: two runs
// give exactly what two runs one after the other give, while interleaved runs would
// leave elements that only one run reached.
TEST(ConcurrentRuns, OneExecutorFromTwoThreadsRunsOneAfterTheOther) {
  constexpr int64_t kN = int64_t{1} << 21;
  std::vector<float> dy(kN), x(kN, 0.5f);
  TensorPtr tdy = MakeDense(dy.data(), ACL_FLOAT, {kN});
  TensorPtr tx = MakeDense(x.data(), ACL_FLOAT, {kN});
  uint64_t ws = 0;
  aclOpExecutor* e = nullptr;
  ASSERT_EQ(aclnnHardsigmoidBackwardGetWorkspaceSize(tdy.get(), tx.get(), tdy.get(), &ws, &e),
            ACLNN_SUCCESS)
      << aclGetRecentErrMsg();
  ASSERT_EQ(ws, 0u);
  ASSERT_EQ(aclSetAclOpExecutorRepeatable(e), ACLNN_SUCCESS);
  auto fill = [&] {
    for (int64_t i = 0; i < kN; ++i) dy[i] = 36.f + static_cast<float>(i % 7);
  };
  fill();
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, e, nullptr), ACLNN_SUCCESS);
  ASSERT_EQ(aclnnHardsigmoidBackward(nullptr, 0, e, nullptr), ACLNN_SUCCESS);
  const std::vector<float> twice = dy;  // two runs, one after the other
  ASSERT_NE(twice[0], 36.f);
  aclrtStream streams[2] = {};
  ASSERT_EQ(aclrtCreateStream(&streams[0]), ACL_SUCCESS);
  ASSERT_EQ(aclrtCreateStream(&streams[1]), ACL_SUCCESS);
  for (int round = 0; round < 16; ++round) {
    const bool on_streams = round % 2 == 1;
    SCOPED_TRACE(std::string("round ") + std::to_string(round) +
                 (on_streams ? ", two streams" : ", null stream"));
    fill();
    Latch start(2);
    aclnnStatus status[2] = {-1, -1};
    std::vector<std::thread> threads;
    for (int t = 0; t < 2; ++t) {
      threads.emplace_back([&, t] {
        start.ArriveAndWait();
        status[t] = aclnnHardsigmoidBackward(nullptr, 0, e, on_streams ? streams[t] : nullptr);
      });
    }
    for (std::thread& th : threads) th.join();
    EXPECT_EQ(status[0], ACLNN_SUCCESS);
    EXPECT_EQ(status[1], ACLNN_SUCCESS);
    if (on_streams) {
      EXPECT_EQ(aclrtSynchronizeStream(streams[0]), ACL_SUCCESS);
      EXPECT_EQ(aclrtSynchronizeStream(streams[1]), ACL_SUCCESS);
    }
    int64_t differ = 0;
    for (int64_t i = 0; i < kN; ++i) differ += std::memcmp(&dy[i], &twice[i], sizeof(float)) != 0;
    EXPECT_EQ(differ, 0) << "elements that saw only one of the two runs";
  }
  EXPECT_EQ(aclrtDestroyStream(streams[0]), ACL_SUCCESS);
  EXPECT_EQ(aclrtDestroyStream(streams[1]), ACL_SUCCESS);
  EXPECT_EQ(aclDestroyAclOpExecutor(e), ACLNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(AllOps, PhaseTwoTest, ::testing::ValuesIn(AllOpsVector()),
                         [](const ::testing::TestParamInfo<Op>& info) {
                           return OpTestName(info.param);
                         });

}  // namespace
}  // namespace test
}  // namespace hostnn
