// Streams: each a worker thread with an ordered queue. aclrtSynchronizeStream waits for
// everything queued before it and returns the first failure since the previous
// synchronize; destroying a stream drains it first. Also the device / init calls, which
// keep no state beyond a flag.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "acl/acl_rt.h"
#include "aclnn/acl_meta.h"
#include "base/boundary.h"
#include "base/entry_alias.h"
#include "src/runtime/runtime.h"

namespace hostnn {
namespace runtime {
namespace {

class Stream {
 public:
  Stream() : worker_([this] { Loop(); }) {}
  ~Stream() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  void Push(std::function<Status()> task) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      queue_.push_back(std::move(task));
      ++enqueued_;
    }
    cv_.notify_all();
  }

  // Waits for every task queued before the call (not for tasks other threads queue
  // meanwhile, so a busy stream cannot starve a synchronize); returns and clears the
  // first failure recorded so far.
  Status Sync() {
    std::unique_lock<std::mutex> lock(mu_);
    const uint64_t target = enqueued_;
    idle_cv_.wait(lock, [this, target] { return completed_ >= target; });
    Status s = first_error_;
    first_error_ = Status::Ok();
    return s;
  }

 private:
  void Loop() {
    std::unique_lock<std::mutex> lock(mu_);
    for (;;) {
      cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
      if (queue_.empty()) return;  // stop_ and drained
      std::function<Status()> task = std::move(queue_.front());
      queue_.pop_front();
      lock.unlock();
      // The worker is an edge too: an exception escaping a thread would end the process.
      Status s = StatusBoundary("a run queued on a stream", task);
      lock.lock();
      if (!s.ok() && first_error_.ok()) first_error_ = s;
      ++completed_;
      idle_cv_.notify_all();
    }
  }

  std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::deque<std::function<Status()>> queue_;
  uint64_t enqueued_ = 0;   // tasks ever queued
  uint64_t completed_ = 0;  // tasks ever finished (they finish in queue order)
  bool stop_ = false;
  Status first_error_;
  std::thread worker_;  // last: starts after the members above exist
};

// Live streams by handle (a NewHandle token, not the Stream's address, so a destroyed
// stream's handle never names a later one). Users of a stream hold a shared_ptr, so a
// concurrent aclrtDestroyStream cannot free it under them; the last holder joins its
// worker.
struct Streams {
  std::mutex mu;
  std::map<uintptr_t, std::shared_ptr<Stream>> live;
};
Streams& GetStreams() {
  static Streams* s = new Streams();
  return *s;
}

std::shared_ptr<Stream> Lookup(void* handle) {
  Streams& all = GetStreams();
  std::lock_guard<std::mutex> lock(all.mu);
  auto it = all.live.find(reinterpret_cast<uintptr_t>(handle));
  return it == all.live.end() ? nullptr : it->second;
}

aclError Fail(aclError code, const std::string& message) {
  SetLastError(message);
  return code;
}

std::mutex g_init_mu;
bool g_initialized = false;

}  // namespace

uintptr_t NewHandle() {
  // Multiples of 64 from 2^20 up: aligned like an allocation, never a small integer.
  static std::atomic<uintptr_t> next{1};
  return (uintptr_t{1} << 20) + next.fetch_add(1, std::memory_order_relaxed) * 64;
}

int Enqueue(void* stream, std::function<Status()> task) {
  std::shared_ptr<Stream> s = Lookup(stream);
  if (s == nullptr) {
    return Fail(ACL_ERROR_INVALID_PARAM, "stream is not a live stream from aclrtCreateStream");
  }
  s->Push(std::move(task));
  return ACL_SUCCESS;
}

}  // namespace runtime
}  // namespace hostnn

using hostnn::runtime::Entry;
using hostnn::runtime::Fail;
using hostnn::runtime::Stream;

extern "C" {

aclError aclInit(const char*) {
  return Entry("aclInit", ACLNN_ERR_INNER, [&]() -> aclError {
    std::lock_guard<std::mutex> lock(hostnn::runtime::g_init_mu);
    if (hostnn::runtime::g_initialized) {
      return Fail(ACL_ERROR_REPEAT_INITIALIZE, "aclInit: already initialised");
    }
    hostnn::runtime::g_initialized = true;
    return ACL_SUCCESS;
  });
}

aclError aclFinalize(void) {
  return Entry("aclFinalize", ACLNN_ERR_INNER, [&]() -> aclError {
    std::lock_guard<std::mutex> lock(hostnn::runtime::g_init_mu);
    if (!hostnn::runtime::g_initialized) {
      return Fail(ACL_ERROR_REPEAT_FINALIZE,
                  "aclFinalize: not initialised (no aclInit since the last aclFinalize)");
    }
    hostnn::runtime::g_initialized = false;
    return ACL_SUCCESS;
  });
}

aclError aclrtSetDevice(int32_t deviceId) {
  return Entry("aclrtSetDevice", ACLNN_ERR_INNER, [&]() -> aclError {
    if (deviceId != 0)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtSetDevice: hostnn has one device, id 0; got " + std::to_string(deviceId));
    return ACL_SUCCESS;
  });
}

aclError aclrtResetDevice(int32_t deviceId) {
  return Entry("aclrtResetDevice", ACLNN_ERR_INNER, [&]() -> aclError {
    if (deviceId != 0)
      return Fail(ACL_ERROR_INVALID_PARAM,
                  "aclrtResetDevice: hostnn has one device, id 0; got " + std::to_string(deviceId));
    return ACL_SUCCESS;
  });
}

aclError aclrtGetDeviceCount(uint32_t* count) {
  return Entry("aclrtGetDeviceCount", ACLNN_ERR_INNER, [&]() -> aclError {
    if (count == nullptr)
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null");
    *count = 1;
    return ACL_SUCCESS;
  });
}

aclError aclrtCreateStream(aclrtStream* stream) {
  return Entry("aclrtCreateStream", ACLNN_ERR_INNER, [&]() -> aclError {
    if (stream == nullptr)
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtCreateStream: stream is null");
    auto s = std::make_shared<Stream>();
    const uintptr_t handle = hostnn::runtime::NewHandle();
    auto& all = hostnn::runtime::GetStreams();
    {
      std::lock_guard<std::mutex> lock(all.mu);
      all.live[handle] = s;
    }
    *stream = reinterpret_cast<aclrtStream>(handle);
    return ACL_SUCCESS;
  });
}

aclError aclrtDestroyStream(aclrtStream stream) {
  return Entry("aclrtDestroyStream", ACLNN_ERR_INNER, [&]() -> aclError {
    std::shared_ptr<Stream> s;
    auto& all = hostnn::runtime::GetStreams();
    {
      std::lock_guard<std::mutex> lock(all.mu);
      auto it = all.live.find(reinterpret_cast<uintptr_t>(stream));
      if (it == all.live.end())
        return Fail(ACL_ERROR_INVALID_PARAM, "aclrtDestroyStream: not a live stream");
      s = std::move(it->second);
      all.live.erase(it);
    }
    s->Sync();  // drain what was queued; the worker is joined when the last holder lets go
    return ACL_SUCCESS;
  });
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
  return Entry("aclrtSynchronizeStream", ACLNN_ERR_INNER, [&]() -> aclError {
    if (stream == nullptr) return ACL_SUCCESS;  // the null stream runs everything at once
    std::shared_ptr<Stream> s = hostnn::runtime::Lookup(stream);
    if (s == nullptr)
      return Fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStream: not a live stream");
    hostnn::Status st = s->Sync();
    if (!st.ok()) {
      hostnn::runtime::SetLastError(st.message());
      return st.raw_code();
    }
    return ACL_SUCCESS;
  });
}

// The names the CANN-named libraries forward to (base/entry_alias.h).
HOSTNN_ENTRY_ALIAS(aclInit)
HOSTNN_ENTRY_ALIAS(aclFinalize)
HOSTNN_ENTRY_ALIAS(aclrtSetDevice)
HOSTNN_ENTRY_ALIAS(aclrtResetDevice)
HOSTNN_ENTRY_ALIAS(aclrtGetDeviceCount)
HOSTNN_ENTRY_ALIAS(aclrtCreateStream)
HOSTNN_ENTRY_ALIAS(aclrtDestroyStream)
HOSTNN_ENTRY_ALIAS(aclrtSynchronizeStream)

}  // extern "C"
