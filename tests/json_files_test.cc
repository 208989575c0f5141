// Hostile platform and tuning files: every exception nlohmann-json can raise while one is read
// (a number too large for a double, a wrong type, a missing member, an iterator misused, invalid
// UTF-8, nesting, duplicate members) ends as a kInvalid Status naming the file, the entry and the
// key, through the tiling API, the native API and the operators' phase 1, never as an exception
// that ends the process. The fuzzer (tests/fuzz/fuzz_json.cc) tries the same readers at random.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "acl/acl.h"
#include "aclnnop/aclnn_silu_backward.h"
#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tiling/json_util.h"

namespace hostnn {
namespace {

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << text

// A profile whose numbers overflow: both an int64, the second a double too (1e400).
constexpr char kOverflowFile[] =
    R"({"platforms": [{"name": "u1", "cores": 99999999999999999999, "ub_bytes": 1e400}]})";

class JsonFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    char tmpl[] = "/tmp/hostnn_json_files_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    for (auto it = paths_.rbegin(); it != paths_.rend(); ++it) std::remove(it->c_str());
    rmdir(dir_.c_str());
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path, std::ios::binary) << text;
    paths_.push_back(path);
    return path;
  }

  // The message of resolving a plan with these files; fails the test unless it is kInvalid.
  static std::string PlatformError(const std::string& file, const char* platform = "u1") {
    tiling::Options o;
    o.platform = platform;
    o.platform_file = file;
    return ErrorOf(o);
  }
  static std::string TuningError(const std::string& file) {
    tiling::Options o;
    o.tuning_file = file;
    return ErrorOf(o);
  }
  static std::string ErrorOf(const tiling::Options& o) {
    tiling::Plan plan;
    const Status s = tiling::MakePlan({Op::kSiluBackward, DType::kFloat32, {1024}, 0, 1}, o, &plan);
    EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
    return s.message();
  }

  std::string dir_;
  std::vector<std::string> paths_;
};

// nlohmann's out_of_range 406 while parsing: this file once aborted the process.
TEST_F(JsonFiles, NumberTooLargeForADoubleIsRefused) {
  const std::string file = Write("u1.json", kOverflowFile);
  const std::string message = PlatformError(file);
  EXPECT_HAS(message, file + ": platforms[0]: \"ub_bytes\": number overflow parsing '1e400'");
  // The same through every reader that takes the file.
  std::vector<tiling::Platform> platforms;
  EXPECT_HAS(tiling::ReadPlatformFile(file, &platforms).message(), "\"ub_bytes\"");
  setenv("HOSTNN_PLATFORM", "u1", 1);
  setenv("HOSTNN_PLATFORM_FILE", file.c_str(), 1);
  tiling::Platform selected;
  EXPECT_HAS(tiling::SelectedPlatform(&selected).message(), "number overflow");
  EXPECT_EQ(aclrtGetSocName(), nullptr);
  EXPECT_HAS(aclGetRecentErrMsg(), "aclrtGetSocName: HOSTNN_PLATFORM: " + file);
  unsetenv("HOSTNN_PLATFORM");
  unsetenv("HOSTNN_PLATFORM_FILE");

  // A tuning file: a key at the top, in an entry, and a negative one.
  for (const char* text :
       {R"({"hostnn_tuning": 1e400, "entries": []})",
        R"({"entries": [{"op": "*", "dtype": "*", "size_class": "*", "num_cores": 2,
                         "measured_us": -1e999}]})",
        R"({"entries": [{"op": "*", "dtype": "*", "size_class": 1E+400, "num_cores": 2}]})"}) {
    const std::string tuning = Write("tuning.json", text);
    const std::string m = TuningError(tuning);
    EXPECT_HAS(m, tuning + ": ");
    EXPECT_HAS(m, "number overflow parsing");
  }
  EXPECT_HAS(TuningError(Write("t2.json", R"({"entries": [{"op": "*", "measured_us": -1e999}]})")),
             "entries[0]: \"measured_us\": number overflow parsing '-1e999'");
}

// The operator call: phase 1 refuses the file with 161002, writes nothing, and the
// message names the file, the entry and the key; so does the native API.
TEST_F(JsonFiles, OperatorsRefuseTheOverflowingFile) {
  const std::string file = Write("u1.json", kOverflowFile);
  setenv("HOSTNN_PLATFORM", "u1", 1);
  setenv("HOSTNN_PLATFORM_FILE", file.c_str(), 1);
  std::vector<float> dy(64, 1.0f), x(64, 0.5f), dx(64, -7.0f);
  const int64_t shape[] = {64}, strides[] = {1};
  aclTensor* t[3];
  float* data[3] = {dy.data(), x.data(), dx.data()};
  for (int k = 0; k < 3; ++k) {
    t[k] = aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data[k]);
  }
  uint64_t ws = 12345;
  aclOpExecutor* exec = reinterpret_cast<aclOpExecutor*>(0x1);
  EXPECT_EQ(aclnnSiluBackwardGetWorkspaceSize(t[0], t[1], t[2], &ws, &exec), 161002);
  EXPECT_EQ(ws, 12345u);
  EXPECT_EQ(exec, reinterpret_cast<aclOpExecutor*>(0x1));
  EXPECT_HAS(aclGetRecentErrMsg(), "aclnnSiluBackward: tiling: HOSTNN_PLATFORM: " + file +
                                       ": platforms[0]: \"ub_bytes\": number overflow");
  for (aclTensor* k : t) aclDestroyTensor(k);

  const TensorView vdy = TensorView::Dense(dy.data(), DType::kFloat32, {64});
  const TensorView vx = TensorView::Dense(x.data(), DType::kFloat32, {64});
  const TensorView vdx = TensorView::Dense(dx.data(), DType::kFloat32, {64});
  OpArgs a;
  a.op = Op::kSiluBackward;
  a.in[0] = &vdy;
  a.in[1] = &vx;
  a.out[0] = &vdx;
  const Status s = hostnn::Run(a);
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_HAS(s.message(), "\"ub_bytes\": number overflow");
  for (const float v : dx) EXPECT_EQ(v, -7.0f);
}

// Integers past int64 (a double to nlohmann) and fractions are refused by name, not converted.
TEST_F(JsonFiles, HugeAndNegativeNumbersAreRefusedByName) {
  EXPECT_HAS(PlatformError(Write("a.json", R"({"platforms": [{"name": "u1",
      "cores": 99999999999999999999, "ub_bytes": 65536}]})")),
             "platforms[0]: \"cores\" must be an integer, found a fraction or a huge number");
  EXPECT_HAS(PlatformError(Write("b.json", R"({"name": "u1", "cores": -9223372036854775808,
      "ub_bytes": 65536})")),
             "\"cores\" = -9223372036854775808: expected");
  EXPECT_HAS(PlatformError(Write("c.json", R"({"name": "u1", "cores": 18446744073709551615,
      "ub_bytes": 65536})")),
             "\"cores\" must be an integer, found a fraction or a huge number");
  EXPECT_HAS(TuningError(Write("d.json", R"({"entries": [{"op": "*", "dtype": "*",
      "size_class": "*", "num_cores": 2, "measured_us": -0.5}]})")),
             "entries[0]: \"measured_us\" must be a non-negative number");
}

// nlohmann's type_error 302 (a get<> of the wrong type), out_of_range 403 (at() of a missing
// member) and invalid_iterator 207 (key() of an array's iterator): the readers check types and
// members before reading them, and JsonGuard turns whatever a check misses into the same
// Status as a refused value, naming the entry and the key.
TEST_F(JsonFiles, TypeErrorsMissingMembersAndIteratorsBecomeStatuses) {
  tiling::Json doc;
  ASSERT_TRUE(tiling::ParseJson(R"({"cores": "4", "list": [1, 2]})", &doc).ok());
  int64_t cores = 0;
  Status s = tiling::JsonGuard("f.json: platforms[3]", "cores", [&] {
    cores = doc.at("cores").get<int64_t>();  // a string
    return Status::Ok();
  });
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_EQ(s.message(), "f.json: platforms[3]: \"cores\": type must be number, but is string");
  EXPECT_EQ(cores, 0);
  s = tiling::JsonGuard("f.json: platforms[3]", "ub_bytes",
                        [&] { return doc.at("ub_bytes").is_number() ? Status::Ok() : Status(); });
  EXPECT_EQ(s.message(), "f.json: platforms[3]: \"ub_bytes\": key 'ub_bytes' not found");
  // The typed accessors and the key check stand behind the same guard.
  EXPECT_EQ(tiling::JsonInt(doc, "cores", 1, 8, "f.json", &cores).message(),
            "f.json: \"cores\" must be an integer, found a string");
  s = tiling::JsonOnlyKeys(doc.at("list"), {"a"}, "f.json: entries[0]");
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_HAS(s.message(), "f.json: entries[0]: cannot use key() for non-object iterators");
  // Through the files: wrong types and missing members are named, at the top and in entries.
  EXPECT_HAS(PlatformError(Write("e.json", R"({"platforms": [{"name": "u1", "cores": [4],
      "ub_bytes": 65536}]})")),
             "platforms[0]: \"cores\" must be an integer, found an array");
  EXPECT_HAS(PlatformError(Write("f.json", R"({"platforms": [{"name": 7, "cores": 4,
      "ub_bytes": 65536}]})")),
             "platforms[0]: \"name\" must be a string, found a number");
  EXPECT_HAS(PlatformError(Write("g.json", R"({"platforms": [{"name": "u1", "cores": 4}]})")),
             "platforms[0]: \"ub_bytes\" is missing");
  EXPECT_HAS(PlatformError(Write("h.json", R"({"platforms": [null]})")),
             "platforms[0]: expected an object, found null");
  EXPECT_HAS(PlatformError(Write("i.json", R"({"platforms": {"name": "u1"}})")),
             "\"platforms\" must be a non-empty array");
  EXPECT_HAS(TuningError(Write("j.json", R"({"entries": [{"op": ["*"], "dtype": "*",
      "size_class": "*", "num_cores": 2}]})")),
             "entries[0]: \"op\" must be a string, found an array");
  EXPECT_HAS(TuningError(Write("k.json", R"({"entries": [{"op": "*", "dtype": "*",
      "size_class": null, "num_cores": 2}]})")),
             "entries[0] (or \"*\"): \"size_class\" must be an integer, found null");
  EXPECT_HAS(TuningError(Write("l.json", R"({"entries": [{"op": "*", "dtype": "*",
      "size_class": "*", "num_cores": 2, "measured_us": "fast"}]})")),
             "entries[0]: \"measured_us\" must be a non-negative number");
}

// Invalid UTF-8 inside a file is a parse error naming line and column; in a file's *path* (any
// bytes on Linux) it is written into the plan's JSON as U+FFFD, where nlohmann threw
// type_error 316 and `hostnn-tiling plan --json` aborted.
TEST_F(JsonFiles, InvalidUtf8IsRefusedInFilesAndReplacedInPaths) {
  const std::string bad =
      Write("utf8.json", "{\"name\": \"u1\xff\", \"cores\": 4, \"ub_bytes\": 65536}");
  EXPECT_HAS(PlatformError(bad), bad + ": line 1, column 13: syntax error");
  EXPECT_HAS(PlatformError(bad), "ill-formed UTF-8 byte");
  EXPECT_HAS(TuningError(Write("utf8t.json", "{\"entries\": [{\"op\": \"\xc3\x28\"}]}")),
             "ill-formed UTF-8 byte");

  const std::string sub = dir_ +
                          "/bad\xff"
                          "dir";
  ASSERT_EQ(mkdir(sub.c_str(), 0700), 0);
  const std::string file = sub + "/ok.json";
  std::ofstream(file) << R"({"name": "u2", "cores": 2, "ub_bytes": 65536})";
  tiling::Options o;
  o.platform = "u2";
  o.platform_file = file;
  tiling::Plan plan;
  const Status s = tiling::MakePlan({Op::kSiluBackward, DType::kFloat32, {1024}, 0, 1}, o, &plan);
  ASSERT_TRUE(s.ok()) << s.message();
  std::string json;
  ASSERT_NO_THROW(json = plan.ToJson());
  EXPECT_HAS(json,
             "bad\xef\xbf\xbd"
             "dir/ok.json");  // U+FFFD for the 0xff byte
  tiling::Json parsed;
  EXPECT_TRUE(tiling::ParseJson(json, &parsed).ok());
  std::remove(file.c_str());
  rmdir(sub.c_str());
}

// Nesting past 64 and duplicate members are refused where they are, by entry and key.
TEST_F(JsonFiles, DeepNestingAndDuplicateMembersAreNamed) {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_HAS(PlatformError(Write("deep.json", deep)), "nesting deeper than 64");
  std::string nested = R"({"platforms": [{"name": "u1", "cores": )";
  nested += std::string(70, '[') + "4" + std::string(70, ']') + R"(, "ub_bytes": 65536}]})";
  EXPECT_HAS(PlatformError(Write("nested.json", nested)),
             "platforms[0].cores[0][0]");
  EXPECT_HAS(PlatformError(Write("dup.json", R"({"platforms": [{"name": "u0", "cores": 1,
      "ub_bytes": 65536}, {"name": "u1", "cores": 2, "cores": 3, "ub_bytes": 65536}]})")),
             "platforms[1]: \"cores\": duplicate member \"cores\"");
  EXPECT_HAS(TuningError(Write("dup2.json", R"({"entries": [], "entries": []})")),
             "duplicate member \"entries\"");
}

}  // namespace
}  // namespace hostnn
