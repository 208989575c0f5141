// Harness main: runs the linked gtest cases and, after each failed assertion, prints what
// hostnn recorded for the case's failing call (aclGetRecentErrMsg), as "hostnn: <message>".
// hostnn keeps the last failure's message until the next failure, so each case starts by
// making one known failing call; its message is the marker for "nothing failed since".
//
// When run.sh links a test file with stubs for operators hostnn lacks, a stub reports its
// call here (OpsnnUtStubCalled); a case that called one is marked after its result with
// "opsnn_ut: entry point missing: <names>" and counted apart from passes and failures.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "acl/acl.h"

namespace {
std::string g_stub_calls;

class HostnnMessage : public testing::EmptyTestEventListener {
  void OnTestStart(const testing::TestInfo&) override {
    g_stub_calls.clear();
    aclCreateScalar(nullptr, ACL_FLOAT);  // fails: NULL value
    const char* msg = aclGetRecentErrMsg();
    marker_ = msg != nullptr ? msg : "";
  }
  void OnTestPartResult(const testing::TestPartResult& result) override {
    if (!result.failed()) return;
    std::string text;
    if (!g_stub_calls.empty()) {
      text = "entry point missing: " + g_stub_calls + " (harness stub)";
    } else {
      const char* msg = aclGetRecentErrMsg();
      text = msg != nullptr ? msg : "";
      if (text == marker_) text = "(no hostnn call failed in this case)";
    }
    std::printf("hostnn: %s\n", text.c_str());
  }
  void OnTestEnd(const testing::TestInfo&) override {
    if (!g_stub_calls.empty()) std::printf("opsnn_ut: entry point missing: %s\n", g_stub_calls.c_str());
    std::fflush(stdout);
  }
  std::string marker_;
};
}  // namespace

extern "C" void OpsnnUtStubCalled(const char* name) {
  if ((' ' + g_stub_calls + ' ').find(' ' + std::string(name) + ' ') != std::string::npos) return;
  if (!g_stub_calls.empty()) g_stub_calls += ' ';
  g_stub_calls += name;
}

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  testing::UnitTest::GetInstance()->listeners().Append(new HostnnMessage);
  return RUN_ALL_TESTS();
}
