// The API's edge: nothing thrown inside hostnn reaches a caller. Every C entry point returns
// ACLNN_ERR_INNER (561000, or null for the creators) with a message naming itself and what
// happened, the native API a kInner Status, a stream's worker reports the run at synchronize;
// std::bad_alloc included, shown by children that run out of address space (RLIMIT_AS).

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "base/boundary.h"
#include "hostnn/ops.h"
#include "src/runtime/runtime.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define HOSTNN_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define HOSTNN_SANITIZED 1
#endif

namespace hostnn {
namespace {

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << text

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// The names exports.def gives the CANN-named libraries, operators aside (they are generated).
std::vector<std::string> ExportedRuntimeNames() {
  const std::string def = ReadText(HOSTNN_SOURCE_DIR "/src/cann/exports.def");
  std::vector<std::string> names;
  const std::string mark = "HOSTNN_CANN_EXPORT(";
  for (size_t at = def.find(mark); at != std::string::npos; at = def.find(mark, at + 1)) {
    if (at > 0 && def[at - 1] != '\n') continue;  // a comment, or the operators' macro
    const size_t end = def.find(')', at);
    std::vector<std::string> fields;  // library, return type, name
    size_t start = at + mark.size();
    for (int k = 0; k < 3 && start < end; ++k) {
      const size_t comma = def.find(',', start);
      std::string field = def.substr(start, comma - start);
      field.erase(0, field.find_first_not_of(" \n"));
      fields.push_back(field);
      start = comma + 1;
    }
    if (fields.size() == 3 && fields[2].rfind("aclnn", 0) != 0) names.push_back(fields[2]);
  }
  return names;
}

// Every extern "C" function libhostnn defines (and so every forwarder of the CANN-named
// libraries) runs its body through runtime::Entry: the operators' two entry points by the one
// macro that generates them, the others each by name. A new entry point without it fails here.
TEST(Boundary, EveryCEntryPointRunsInsideTheEdge) {
  std::string sources;
  for (const char* file :
       {"src/aclnn/c_api.cc", "src/aclnn/meta.cc", "src/runtime/error.cc", "src/runtime/memory.cc",
        "src/runtime/stream.cc", "src/runtime/soc.cc", "src/aclnn/fp16.cc"}) {
    sources += ReadText(std::string(HOSTNN_SOURCE_DIR) + "/" + file);
  }
  const std::vector<std::string> names = ExportedRuntimeNames();
  EXPECT_GE(names.size(), 30u);
  for (const std::string& name : names) {
    EXPECT_NE(sources.find("Entry(\"" + name + "\","), std::string::npos) << name;
  }
  const std::string ops = ReadText(HOSTNN_SOURCE_DIR "/src/aclnn/c_api_ops.cc");
  EXPECT_HAS(ops, "Entry(\"aclnn\" #Name \"GetWorkspaceSize\", ACLNN_ERR_INNER,");
  EXPECT_HAS(ops, "Entry(\"aclnn\" #Name, ACLNN_ERR_INNER,");
}

// What the edges make of an exception: its kind and text, with the function's name.
TEST(Boundary, EdgesNameTheFunctionAndTheException) {
  Status s = StatusBoundary("Prepare", []() -> Status { throw std::bad_alloc(); });
  EXPECT_EQ(s.code(), StatusCode::kInner);
  EXPECT_EQ(s.message(), "Prepare: out of memory (std::bad_alloc)");
  s = StatusBoundary("Execute", []() -> Status { throw std::logic_error("a bug"); });
  EXPECT_EQ(s.message(), "Execute: internal error: a bug");
  s = StatusBoundary("Run", []() -> Status { throw 7; });
  EXPECT_EQ(s.message(), "Run: internal error: an exception that is not a std::exception");
  EXPECT_TRUE(StatusBoundary("Run", [] { return Status::Ok(); }).ok());

  EXPECT_EQ(runtime::Entry("aclFoo", 561000, []() -> int { throw std::bad_alloc(); }), 561000);
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclFoo: out of memory (std::bad_alloc)");
  EXPECT_EQ(runtime::Entry("aclBar", 561000, [] { return 3; }), 3);
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclFoo: out of memory (std::bad_alloc)");  // kept
  runtime::SetLastError("a later failure");  // replaces the edge's message
  EXPECT_STREQ(aclGetRecentErrMsg(), "a later failure");
}

// An array larger than memory: std::bad_alloc out of aclCreateIntArray ended the process; one
// larger than an address can reach is refused before anything is allocated.
TEST(Boundary, CreatorsReturnNullForSizesNothingCanHold) {
  const int64_t values[1] = {5};
  EXPECT_EQ(aclCreateIntArray(values, uint64_t{1} << 62), nullptr);
  EXPECT_STREQ(aclGetRecentErrMsg(),
               "aclCreateIntArray: size 4611686018427387904 is more than memory holds");
#ifndef HOSTNN_SANITIZED  // (their allocators abort on a request of 2^62 bytes)
  EXPECT_EQ(aclCreateIntArray(values, uint64_t{1} << 59), nullptr);  // 2^62 bytes
  EXPECT_STREQ(aclGetRecentErrMsg(), "aclCreateIntArray: out of memory (std::bad_alloc)");
#endif
  aclIntArray* ok = aclCreateIntArray(values, 1);
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(aclDestroyIntArray(ok), 0);
}

// A stream's worker thread is an edge too: a queued task that throws is the run's failure,
// reported by the next synchronize, and the stream goes on.
TEST(Boundary, AQueuedRunThatThrowsIsReportedAtSynchronize) {
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), 0);
  ASSERT_EQ(runtime::Enqueue(stream, []() -> Status { throw std::runtime_error("boom"); }), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream), 561000);
  EXPECT_STREQ(aclGetRecentErrMsg(), "a run queued on a stream: internal error: boom");
  int ran = 0;
  ASSERT_EQ(runtime::Enqueue(stream,
                             [&] {
                               ran = 1;
                               return Status::Ok();
                             }),
            0);
  EXPECT_EQ(aclrtSynchronizeStream(stream), 0);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(aclrtDestroyStream(stream), 0);
}

// body() for a child: an exception it lets out ends the child in std::terminate, as it ends a
// program that does not catch (gtest's own catch in the copied test would hide it).
template <typename Body>
int NoThrow(Body& body) noexcept {
  return body();
}

// Runs body() in a child process whose address space may grow by only `headroom` bytes past
// what it maps at the fork; returns the child's exit code (body's value), or 128 + the signal
// that ended it (an exception escaping hostnn ends in std::terminate: SIGABRT, 134).
template <typename Body>
int InChildWithLittleMemory(uint64_t headroom, Body body) {
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t pid = fork();
  if (pid == 0) {
    unsigned long pages = 0;
    FILE* statm = std::fopen("/proc/self/statm", "r");
    if (statm == nullptr || std::fscanf(statm, "%lu", &pages) != 1) _exit(90);
    std::fclose(statm);
    const rlim_t limit = static_cast<rlim_t>(pages) * sysconf(_SC_PAGESIZE) + headroom;
    const rlimit lim{limit, limit};
    if (setrlimit(RLIMIT_AS, &lim) != 0) _exit(91);
    _exit(NoThrow(body));
  }
  int status = 0;
  if (pid < 0 || waitpid(pid, &status, 0) != pid) return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// A platform file whose parse cannot fit in 48 MiB: an array of 8M numbers (16 MiB of text,
// 128 MiB as nlohmann values).
std::string WriteHugeArrayFile() {
  const std::string path = "/tmp/hostnn_boundary_" + std::to_string(getpid()) + ".json";
  std::ofstream out(path, std::ios::binary);
  std::string chunk;  // 1M numbers
  for (int i = 0; i < (1 << 20); ++i) chunk += "0,";
  out << '[';
  for (int k = 0; k < 8; ++k) out << chunk;
  out << "0]";
  return path;
}

constexpr uint64_t kHeadroom = uint64_t{48} << 20;

// Out of memory while phase 1 reads a platform file: std::bad_alloc from inside nlohmann's
// parser ended the process; now 561000 from the C API and kInner from the native one, with
// the file and "out of memory" in the message and nothing written.
TEST(Boundary, OutOfMemoryInPhaseOneIsReported) {
#ifdef HOSTNN_SANITIZED
  GTEST_SKIP() << "the sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply";
#endif
  const std::string file = WriteHugeArrayFile();
  setenv("HOSTNN_PLATFORM", "u1", 1);
  setenv("HOSTNN_PLATFORM_FILE", file.c_str(), 1);
  std::vector<float> dy(64, 1.0f), x(64, 0.5f), dx(64, -7.0f);
  const int64_t shape[] = {64}, strides[] = {1};
  aclTensor* t[3];
  float* data[3] = {dy.data(), x.data(), dx.data()};
  for (int k = 0; k < 3; ++k) {
    t[k] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data[k]);
  }
  const int c_api = InChildWithLittleMemory(kHeadroom, [&] {
    uint64_t ws = 12345;
    aclOpExecutor* exec = nullptr;
    const aclnnStatus s = aclnnSiluBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &exec);
    const std::string message = aclGetRecentErrMsg();
    std::fprintf(stderr, "child: %d %s\n", s, message.c_str());
    if (s != 561000) return 10;
    if (message.find("aclnnSiluBackward: tiling: HOSTNN_PLATFORM: " + file +
                     ": out of memory (std::bad_alloc)") == std::string::npos) {
      return 11;
    }
    return ws == 12345 && exec == nullptr ? 0 : 12;
  });
  EXPECT_EQ(c_api, 0) << "10: not 561000; 11: message; 12: wrote; 134: the exception escaped";
  unsetenv("HOSTNN_PLATFORM");
  unsetenv("HOSTNN_PLATFORM_FILE");

  const int native = InChildWithLittleMemory(kHeadroom, [&] {
    OpArgs a;
    a.op = Op::kSiluBackward;
    const TensorView vdy = TensorView::Dense(dy.data(), DType::kFloat32, {64});
    const TensorView vx = TensorView::Dense(x.data(), DType::kFloat32, {64});
    const TensorView vdx = TensorView::Dense(dx.data(), DType::kFloat32, {64});
    a.in[0] = &vdy;
    a.in[1] = &vx;
    a.out[0] = &vdx;
    tiling::Options options;
    options.platform = "u1";
    options.platform_file = file;
    const Status s = hostnn::Run(a, options);
    std::fprintf(stderr, "child: %d %s\n", s.raw_code(), s.message().c_str());
    if (s.code() != StatusCode::kInner) return 10;
    if (s.message().find(file + ": out of memory (std::bad_alloc)") == std::string::npos) return 11;
    for (const float v : dx) {
      if (v != -7.0f) return 12;
    }
    return 0;
  });
  EXPECT_EQ(native, 0) << "10: not kInner; 11: message; 12: wrote; 134: the exception escaped";
  for (aclTensor* k : t) aclDestroyTensor(k);
  std::remove(file.c_str());
}

// A stream whose worker thread cannot start: std::system_error ended the process.
TEST(Boundary, AStreamThatCannotStartIsReported) {
#ifdef HOSTNN_SANITIZED
  GTEST_SKIP() << "the sanitizers reserve terabytes of address space: RLIMIT_AS cannot apply";
#endif
  const int code = InChildWithLittleMemory(uint64_t{1} << 20, [] {
    // Streams until one cannot start (the first may reuse a thread stack the C library kept).
    aclrtStream streams[64];
    for (aclrtStream& stream : streams) {
      stream = reinterpret_cast<aclrtStream>(0x40);
      const aclError s = aclrtCreateStream(&stream);
      if (s == 0) continue;
      std::fprintf(stderr, "child: %d %s\n", s, aclGetRecentErrMsg());
      if (s != 561000) return 10;
      if (std::strstr(aclGetRecentErrMsg(), "aclrtCreateStream: ") == nullptr) return 11;
      return stream == reinterpret_cast<aclrtStream>(0x40) ? 0 : 12;
    }
    return 13;
  });
  EXPECT_EQ(code, 0) << "10: not 561000; 11: message; 12: wrote; 13: no stream failed; 134: the "
                        "exception escaped";
}

}  // namespace
}  // namespace hostnn
