// Tiling options: the environment (HOSTNN_PLATFORM, HOSTNN_NUM_CORES, ...), tuning files
// and platform files, their precedence, and the clear errors every bad value gives. Also
// the JSON reading and writing behind the files, and the plan's JSON. Runs no operator kernels
// except through Prepare.

#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>
#include <tuple>
#include <vector>

#include "hostnn/ops.h"
#include "hostnn/tiling.h"
#include "tiling/internal.h"
#include "tiling/json_util.h"

namespace hostnn {
namespace {

class TilingOptions : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    char tmpl[] = "/tmp/hostnn_tiling_options_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    for (const std::string& f : files_) std::remove(f.c_str());
    rmdir(dir_.c_str());
  }

  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = dir_ + "/" + name;
    std::ofstream(path) << text;
    files_.push_back(path);
    return path;
  }

  static tiling::Problem Silu(int64_t n, DType dtype = DType::kFloat32) {
    return {Op::kSiluBackward, dtype, {n}, 0};
  }
  static Status Resolve(const tiling::Options& o, tiling::Resolved* r,
                        const tiling::Problem& problem = Silu(4194304)) {
    return tiling::Resolve(o, problem, r);
  }
  // The error of resolving `o`; fails the test when it resolves.
  static std::string ErrorOf(const tiling::Options& o,
                             const tiling::Problem& problem = Silu(4194304)) {
    tiling::Resolved r;
    const Status s = tiling::Resolve(o, problem, &r);
    EXPECT_FALSE(s.ok());
    EXPECT_EQ(s.code(), StatusCode::kInvalid);
    return s.message();
  }

  std::string dir_;
  std::vector<std::string> files_;
};

#define EXPECT_HAS(text, part) EXPECT_NE(std::string(text).find(part), std::string::npos) << text

TEST_F(TilingOptions, DefaultsComeFromTheProfile) {
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.platform.name, "host");
  EXPECT_EQ(r.platform.block_bytes, 64);
  EXPECT_GE(r.platform.ub_bytes, 64 << 10);
  EXPECT_LE(r.platform.ub_bytes, 1 << 20);
  EXPECT_EQ(r.min_elems_per_core, 65536 / 16);  // SiluBackward's Work is 16
  EXPECT_EQ(r.buffer_num, 0);
  tiling::Options o;
  o.platform = "atlas-a2";
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.cores, 48);
  EXPECT_EQ(r.platform.ub_bytes, 196608);
  EXPECT_EQ(r.platform.block_bytes, 32);
  EXPECT_EQ(r.min_elems_per_core, 1024);
  o.platform = "ascend950";
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.cores, 64);
  EXPECT_EQ(r.platform.ub_bytes, 253952);
  o.platform = "atlas-a2-40";
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.cores, 40);
}

// The host's minimum of elements per core is 65536 over the operator's Work (op_list.def):
// a second core's start is the same for every operator, and a costlier element repays it
// sooner. Ascend's profiles keep their 1024 for every operator; every source overrides it.
TEST_F(TilingOptions, TheHostsMinimumPerCoreFollowsTheOperatorsWork) {
  struct Case {
    Op op;
    int work;
  };
  for (const Case& c : {Case{Op::kRelu, 1}, Case{Op::kHardsigmoidBackward, 2},
                        Case{Op::kHardswish, 4}, Case{Op::kSigmoid, 8}, Case{Op::kGelu, 16}}) {
    SCOPED_TRACE(GetOpInfo(c.op).name);
    EXPECT_EQ(GetOpInfo(c.op).work, c.work);
    const tiling::Problem problem{c.op, DType::kFloat32, {1 << 20}, 0};
    tiling::Resolved r;
    ASSERT_TRUE(Resolve({}, &r, problem).ok());
    EXPECT_EQ(r.min_elems_per_core, 65536 / c.work);
    EXPECT_HAS(r.sources, c.work == 1
                              ? "min_elems_per_core 65536 (default)"
                              : "min_elems_per_core " + std::to_string(65536 / c.work) +
                                    " (default, 65536 / work " + std::to_string(c.work) + ")");
    tiling::Options o;
    o.platform = "atlas-a2";
    ASSERT_TRUE(Resolve(o, &r, problem).ok());
    EXPECT_EQ(r.min_elems_per_core, 1024);
    o = {};
    o.min_elems_per_core = 3000;
    ASSERT_TRUE(Resolve(o, &r, problem).ok());
    EXPECT_EQ(r.min_elems_per_core, 3000);
    setenv("HOSTNN_MIN_ELEMS_PER_CORE", "5000", 1);
    ASSERT_TRUE(Resolve({}, &r, problem).ok());
    EXPECT_EQ(r.min_elems_per_core, 5000);
    unsetenv("HOSTNN_MIN_ELEMS_PER_CORE");
  }
  // On two cores, a call forks past its minimum and not before.
  tiling::Options two;
  two.num_cores = 2;
  for (const auto& [op, n, cores] : {std::tuple<Op, int64_t, int64_t>{Op::kRelu, 65536, 1},
                                     {Op::kRelu, 65537, 2},
                                     {Op::kSigmoid, 8192, 1},
                                     {Op::kSigmoid, 8193, 2},
                                     {Op::kGelu, 4096, 1},
                                     {Op::kGelu, 4097, 2}}) {
    tiling::Plan plan;
    ASSERT_TRUE(tiling::MakePlan({op, DType::kFloat32, {n}, 0}, two, &plan).ok());
    EXPECT_EQ(plan.elementwise.block_dim, cores) << GetOpInfo(op).name << " n " << n;
  }
}

TEST_F(TilingOptions, EnvironmentSetsEveryKnob) {
  setenv("HOSTNN_PLATFORM", "atlas-a2", 1);
  setenv("HOSTNN_NUM_CORES", "7", 1);
  setenv("HOSTNN_UB_BYTES", "65536", 1);
  setenv("HOSTNN_MIN_ELEMS_PER_CORE", "4096", 1);
  setenv("HOSTNN_BUFFER_NUM", "1", 1);
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.platform.name, "atlas-a2");
  EXPECT_EQ(r.platform.cores, 7);
  EXPECT_EQ(r.platform.ub_bytes, 65536);
  EXPECT_EQ(r.min_elems_per_core, 4096);
  EXPECT_EQ(r.buffer_num, 1);
  EXPECT_HAS(r.sources, "cores 7 (HOSTNN_NUM_CORES)");
  // An empty variable is unset.
  setenv("HOSTNN_NUM_CORES", "", 1);
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.platform.cores, 48);
}

TEST_F(TilingOptions, OptionsBeatEnvironment) {
  setenv("HOSTNN_PLATFORM", "atlas-a2", 1);
  setenv("HOSTNN_NUM_CORES", "7", 1);
  tiling::Options o;
  o.platform = "ascend950";
  o.num_cores = 3;
  tiling::Resolved r;
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.name, "ascend950");
  EXPECT_EQ(r.platform.cores, 3);
  EXPECT_HAS(r.sources, "cores 3 (Options)");
}

TEST_F(TilingOptions, BadEnvironmentValuesAreErrors) {
  struct Case {
    const char* var;
    const char* value;
    const char* expect;
  };
  for (const Case& c :
       {Case{"HOSTNN_NUM_CORES", "abc", "HOSTNN_NUM_CORES='abc': expected a positive integer"},
        Case{"HOSTNN_NUM_CORES", "0", "HOSTNN_NUM_CORES='0'"},
        Case{"HOSTNN_NUM_CORES", "-4", "HOSTNN_NUM_CORES='-4'"},
        Case{"HOSTNN_NUM_CORES", "8x", "HOSTNN_NUM_CORES='8x'"},
        Case{"HOSTNN_NUM_CORES", " 8", "HOSTNN_NUM_CORES=' 8'"},
        Case{"HOSTNN_NUM_CORES", "99999999999999999999", "expected a positive"},
        Case{"HOSTNN_NUM_CORES", "5000", "HOSTNN_NUM_CORES=5000: expected 1 to 4096"},
        Case{"HOSTNN_UB_BYTES", "4096", "HOSTNN_UB_BYTES=4096: expected 8192 to"},
        Case{"HOSTNN_UB_BYTES", "1.5e5", "HOSTNN_UB_BYTES='1.5e5'"},
        Case{"HOSTNN_MIN_ELEMS_PER_CORE", "lots", "HOSTNN_MIN_ELEMS_PER_CORE='lots'"},
        Case{"HOSTNN_BUFFER_NUM", "3", "HOSTNN_BUFFER_NUM=3: expected 1 or 2"},
        Case{"HOSTNN_STREAM_MIN_BYTES", "abc",
             "HOSTNN_STREAM_MIN_BYTES='abc': expected a byte count"},
        Case{"HOSTNN_STREAM_MIN_BYTES", "-1", "HOSTNN_STREAM_MIN_BYTES='-1'"},
        Case{"HOSTNN_STREAM_MIN_BYTES", "8M", "HOSTNN_STREAM_MIN_BYTES='8M'"},
        Case{"HOSTNN_STREAM_MIN_BYTES", "99999999999999999999", "HOSTNN_STREAM_MIN_BYTES='9999"},
        Case{"HOSTNN_PLATFORM_FILE", "/nonexistent/profiles.json",
             "/nonexistent/profiles.json: cannot be read"},
        Case{"HOSTNN_PLATFORM", "atlas-a3",
             "HOSTNN_PLATFORM: platform 'atlas-a3' is unknown; expected one of: host, atlas-a2, "
             "atlas-a2-40, ascend950"}}) {
    for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
    setenv(c.var, c.value, 1);
    EXPECT_HAS(ErrorOf({}), c.expect);
  }
}

TEST_F(TilingOptions, BadOptionsAreErrors) {
  tiling::Options o;
  o.num_cores = -1;
  EXPECT_HAS(ErrorOf(o), "Options.num_cores = -1: expected 1 to 4096");
  o = {};
  o.ub_bytes = 100;
  EXPECT_HAS(ErrorOf(o), "Options.ub_bytes = 100: expected 8192");
  o = {};
  o.buffer_num = 3;
  EXPECT_HAS(ErrorOf(o), "Options.buffer_num = 3: expected 1 or 2");
  o = {};
  o.min_elems_per_core = -5;
  EXPECT_HAS(ErrorOf(o), "Options.min_elems_per_core = -5");
  o = {};
  o.platform = "gpu";
  EXPECT_HAS(ErrorOf(o), "Options: platform 'gpu' is unknown");
  // The UB floor is 128 blocks: 16384 B for a profile of 128-byte blocks.
  const std::string file = Write("wide.json", R"({"name": "wide", "cores": 4, "ub_bytes": 16384,
                                                  "block_bytes": 128})");
  o = {};
  o.platform = "wide";
  o.platform_file = file;
  o.ub_bytes = 12288;
  EXPECT_HAS(ErrorOf(o), "expected 16384 to");
}

TEST_F(TilingOptions, ProblemErrors) {
  tiling::Plan plan;
  Status s = tiling::MakePlan({static_cast<Op>(kNumOps), DType::kFloat32, {4}, 0}, {}, &plan);
  EXPECT_HAS(s.message(), "is unknown; expected one of: silu_backward");
  s = tiling::MakePlan({Op::kSiluBackward, DType::kUInt16, {4}, 0}, {}, &plan);
  EXPECT_HAS(s.message(), "dtype UINT16 is unknown");
  s = tiling::MakePlan({Op::kSiluBackward, DType::kFloat32, {4, 0}, 0}, {}, &plan);
  EXPECT_HAS(s.message(), "extent < 1");
  s = tiling::MakePlan({Op::kLogSoftmaxBackward, DType::kFloat32, {4, 5}, 2}, {}, &plan);
  EXPECT_HAS(s.message(), "dim 2 is out of range [-2, 1]");
  s = tiling::MakePlan({Op::kLogSoftmaxBackward, DType::kFloat64, {4, 5}, 0}, {}, &plan);
  EXPECT_HAS(s.message(), "reads f32, f16 or bf16");
  // The plan names its operator and dtype as tuning files and command lines do.
  EXPECT_TRUE(tiling::MakePlan({Op::kSiluBackward, DType::kBFloat16, {4}, 0}, {}, &plan).ok());
  EXPECT_EQ(plan.op, "silu_backward");
  EXPECT_EQ(plan.dtype, "bf16");
}

TEST_F(TilingOptions, SizeClassesAndDtypes) {
  EXPECT_EQ(tiling::SizeClass(1), 0);
  EXPECT_EQ(tiling::SizeClass(2), 1);
  EXPECT_EQ(tiling::SizeClass(3), 2);
  EXPECT_EQ(tiling::SizeClass(4194304), 22);
  EXPECT_EQ(tiling::SizeClass(4194305), 23);
  DType dtype = DType::kUndefined;
  ASSERT_TRUE(tiling::ParseDType("FLOAT16", &dtype));
  EXPECT_EQ(dtype, DType::kFloat16);
  EXPECT_STREQ(tiling::ShortDTypeName(dtype), "f16");
  ASSERT_TRUE(tiling::ParseDType("double", &dtype));
  EXPECT_STREQ(tiling::ShortDTypeName(dtype), "f64");
  ASSERT_TRUE(tiling::ParseDType("BFLOAT16", &dtype));
  EXPECT_STREQ(tiling::ShortDTypeName(dtype), "bf16");
  EXPECT_FALSE(tiling::ParseDType("f8", &dtype));
  ASSERT_TRUE(tiling::ParseDType("int16", &dtype));  // AddRelu's integer promotion
  EXPECT_STREQ(tiling::ShortDTypeName(dtype), "i16");
  EXPECT_EQ(tiling::ShortDTypeName(DType::kUInt16), nullptr);
}

TEST_F(TilingOptions, TuningFileMatchesOpDtypeAndSizeClass) {
  const std::string file = Write("tuning.json", R"({
    "hostnn_tuning": 1,
    "entries": [
      {"op": "silu_backward", "dtype": "f32", "size_class": 22, "platform": "host",
       "num_cores": 3, "ub_bytes": 131072, "buffer_num": 1, "measured_us": 812.5},
      {"op": "silu_backward", "dtype": "*", "size_class": "*", "min_elems_per_core": 777},
      {"op": "*", "dtype": "f16", "size_class": 10, "num_cores": 5}
    ]})");
  setenv("HOSTNN_TUNING_FILE", file.c_str(), 1);
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r, Silu(4194304)).ok());  // entry 0
  EXPECT_EQ(r.platform.cores, 3);
  EXPECT_EQ(r.platform.ub_bytes, 131072);
  EXPECT_EQ(r.buffer_num, 1);
  EXPECT_EQ(r.min_elems_per_core, 4096);  // entry 0 does not set it: the default (65536 / 16)
  EXPECT_HAS(r.sources, "tuning file " + file + " entry 0");
  ASSERT_TRUE(Resolve({}, &r, Silu(4194305)).ok());  // size class 23: entry 1
  EXPECT_EQ(r.min_elems_per_core, 777);
  ASSERT_TRUE(
      Resolve({}, &r, {Op::kHardsigmoidBackward, DType::kFloat16, {1000}, 0}).ok());  // entry 2
  EXPECT_EQ(r.platform.cores, 5);
  const tiling::Problem none{Op::kHardsigmoidBackward, DType::kFloat32, {1000}, 0, 3};
  ASSERT_TRUE(Resolve({}, &r, none).ok());  // no entry: the host profile's, the team
  EXPECT_EQ(r.platform.cores, tiling::HostPlatform(3).cores);
  EXPECT_EQ(r.platform.cores, 3);
  tiling::Options o;
  o.platform = "atlas-a2";  // entry 0 is for host only; entry 1 still matches
  ASSERT_TRUE(Resolve(o, &r, Silu(4194304)).ok());
  EXPECT_EQ(r.platform.cores, 48);
  EXPECT_EQ(r.min_elems_per_core, 777);

  // Precedence: Options > environment > tuning file > profile.
  setenv("HOSTNN_NUM_CORES", "6", 1);
  ASSERT_TRUE(Resolve({}, &r, Silu(4194304)).ok());
  EXPECT_EQ(r.platform.cores, 6);
  EXPECT_EQ(r.platform.ub_bytes, 131072);
  o = {};
  o.num_cores = 2;
  ASSERT_TRUE(Resolve(o, &r, Silu(4194304)).ok());
  EXPECT_EQ(r.platform.cores, 2);
  // Options.tuning_file names a file without the environment.
  unsetenv("HOSTNN_TUNING_FILE");
  unsetenv("HOSTNN_NUM_CORES");
  o = {};
  o.tuning_file = file;
  ASSERT_TRUE(Resolve(o, &r, Silu(4194304)).ok());
  EXPECT_EQ(r.platform.cores, 3);
}

TEST_F(TilingOptions, TuningFileRoundTrip) {
  tiling::TuningEntry e;
  e.op = "logsoftmax_backward";
  e.dtype = "bf16";
  e.size_class = 20;
  e.platform = "host";
  e.num_cores = 2;
  e.ub_bytes = 262144;
  e.min_elems_per_core = 1024;
  e.measured_us = 1234.5;
  tiling::TuningEntry any;
  any.op = "*";
  any.dtype = "*";
  any.buffer_num = 2;
  const std::string file = Write("round.json", tiling::TuningFileJson({e, any}));
  std::vector<tiling::TuningEntry> read;
  ASSERT_TRUE(tiling::ReadTuningFile(file, &read).ok());
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].op, e.op);
  EXPECT_EQ(read[0].dtype, "bf16");
  EXPECT_EQ(read[0].size_class, 20);
  EXPECT_EQ(read[0].platform, "host");
  EXPECT_EQ(read[0].num_cores, 2);
  EXPECT_EQ(read[0].ub_bytes, 262144);
  EXPECT_EQ(read[0].min_elems_per_core, 1024);
  EXPECT_DOUBLE_EQ(read[0].measured_us, 1234.5);
  EXPECT_EQ(read[1].size_class, -1);
  EXPECT_EQ(read[1].buffer_num, 2);
}

TEST_F(TilingOptions, BadTuningFilesAreErrors) {
  struct Case {
    const char* text;
    const char* expect;
  };
  const std::string head =
      R"({"entries": [{"op": "silu_backward", "dtype": "f32", "size_class": 22, )";
  for (const Case& c : {
           Case{"{\"entries\": [", "line 1, column 14: syntax error while parsing value"},
           Case{"[]", "expected an object with \"entries\""},
           Case{"{\"entries\": [], \"extra\": 1}", "unknown key \"extra\""},
           Case{"{\"hostnn_tuning\": 2, \"entries\": []}",
                "\"hostnn_tuning\" = 2: expected 1 to 1"},
           Case{"{\"entries\": {}}", "\"entries\" must be an array"},
           Case{R"({"entries": [{"op": "silu_backward", "dtype": "f32", "num_cores": 2}]})",
                "\"size_class\" is missing"},
           Case{R"({"entries": [{"op": "nop", "dtype": "f32", "size_class": 1, "num_cores": 2}]})",
                "op 'nop' is unknown"},
           Case{R"({"entries": [{"op": "*", "dtype": "uint16", "size_class": 1, "num_cores": 2}]})",
                "dtype 'uint16' is unknown"},
           Case{R"({"entries": [{"op": "*", "dtype": "*", "size_class": "big", "num_cores": 2}]})",
                "\"size_class\" must be an integer, found a string"},
           Case{R"({"entries": [{"op": "*", "dtype": "*", "size_class": 3}]})", "sets no option"},
       }) {
    const std::string file = Write("bad.json", c.text);
    tiling::Options o;
    o.tuning_file = file;
    EXPECT_HAS(ErrorOf(o), c.expect);
  }
  for (const Case& c : {Case{"\"num_cores\": 0}]}", "\"num_cores\" = 0: expected 1 to 4096"},
                        Case{"\"buffer_num\": 3}]}", "\"buffer_num\" = 3: expected 1 to 2"},
                        Case{"\"ub_bytes\": 1.5}]}", "\"ub_bytes\" must be an integer"},
                        Case{"\"ub_bytes\": 100}]}", "\"ub_bytes\" = 100: expected 8192"},
                        Case{"\"cores\": 4}]}", "unknown key \"cores\""},
                        Case{"\"num_cores\": 2, \"num_cores\": 3}]}", "duplicate member"}}) {
    const std::string file = Write("bad_entry.json", head + c.text);
    tiling::Options o;
    o.tuning_file = file;
    const std::string message = ErrorOf(o);
    EXPECT_HAS(message, c.expect);
    EXPECT_HAS(message, file);
  }
  tiling::Options o;
  o.tuning_file = dir_ + "/missing.json";
  EXPECT_HAS(ErrorOf(o), "missing.json: cannot be read");
}

TEST_F(TilingOptions, PlatformFilesAddProfiles) {
  const std::string one = Write("one.json", R"({"name": "edge-npu", "cores": 6,
      "ub_bytes": 131072, "block_bytes": 32, "vector_bytes": 128})");
  setenv("HOSTNN_PLATFORM_FILE", one.c_str(), 1);
  setenv("HOSTNN_PLATFORM", "edge-npu", 1);
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.platform.name, "edge-npu");
  EXPECT_EQ(r.platform.cores, 6);
  EXPECT_EQ(r.platform.ub_bytes, 131072);
  EXPECT_EQ(r.platform.vector_bytes, 128);
  EXPECT_EQ(r.min_elems_per_core, 1024);

  const std::string many = Write("many.json", R"({"platforms": [
      {"name": "a", "cores": 2, "ub_bytes": 65536},
      {"name": "b", "cores": 3, "ub_bytes": 65536, "block_bytes": 64, "vector_bytes": 64}]})");
  tiling::Options o;
  o.platform = "b";
  o.platform_file = many;  // Options beat HOSTNN_PLATFORM_FILE
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.cores, 3);
  EXPECT_EQ(r.platform.block_bytes, 64);
  o.platform = "a";
  ASSERT_TRUE(Resolve(o, &r).ok());
  EXPECT_EQ(r.platform.block_bytes, 32);  // Ascend's block when none is given
  o.platform = "c";
  EXPECT_HAS(ErrorOf(o),
             "platform 'c' is unknown; expected one of: host, atlas-a2, atlas-a2-40, "
             "ascend950, a, b");
  // Built-in names still work with a file.
  o.platform = "atlas-a2";
  ASSERT_TRUE(Resolve(o, &r).ok());
}

TEST_F(TilingOptions, BadPlatformFilesAreErrors) {
  struct Case {
    const char* text;
    const char* expect;
  };
  for (const Case& c : {
           Case{R"({"name": "x", "cores": 4})", "\"ub_bytes\" is missing"},
           Case{R"({"name": "x", "cores": 4, "ub_bytes": 65536, "block_bytes": 48})",
                "block_bytes = 48: expected a power of two from 16 to 256"},
           Case{R"({"name": "x", "cores": 4, "ub_bytes": 65536, "vector_bytes": 4096})",
                "vector_bytes = 4096: expected a power of two from 16 to 2048"},
           Case{R"({"name": "x", "cores": 0, "ub_bytes": 65536})", "cores = 0: expected 1 to 4096"},
           Case{R"({"name": "x", "cores": 4, "ub_bytes": 4096})", "ub_bytes = 4096: expected 8192"},
           Case{R"({"name": "x", "cores": "4", "ub_bytes": 65536})",
                "\"cores\" must be an integer"},
           Case{R"({"name": "host", "cores": 4, "ub_bytes": 65536})",
                "'host' is a built-in profile"},
           Case{R"({"name": "a b", "cores": 4, "ub_bytes": 65536})", "name 'a b' must be"},
           Case{R"({"name": "x", "cores": 4, "ub_bytes": 65536, "l2": 1})", "unknown key \"l2\""},
           Case{R"({"platforms": []})", "\"platforms\" must be a non-empty array"},
           Case{R"({"platforms": [{"name": "x", "cores": 1, "ub_bytes": 65536},
                                  {"name": "x", "cores": 2, "ub_bytes": 65536}]})",
                "profile 'x' is defined twice"},
           Case{R"({"name": "x", "cores": 4, "ub_bytes": 65536,})",
                "syntax error while parsing object key"},
       }) {
    const std::string file = Write("platform.json", c.text);
    tiling::Options o;
    o.platform = "x";
    o.platform_file = file;
    EXPECT_HAS(ErrorOf(o), c.expect);
  }
}

// A platform file is read and checked whenever one is named, also when the chosen
// profile is a built-in one (it used to be ignored then).
TEST_F(TilingOptions, PlatformFileIsCheckedForBuiltInProfiles) {
  const std::string garbage = Write("garbage.json", "this is not json");
  const std::string missing = dir_ + "/missing.json";
  for (const char* platform : {"", "host", "atlas-a2"}) {
    for (const std::string& file : {garbage, missing}) {
      for (const std::string& v : tiling::EnvironmentVariables()) unsetenv(v.c_str());
      setenv("HOSTNN_PLATFORM", platform, 1);
      setenv("HOSTNN_PLATFORM_FILE", file.c_str(), 1);
      EXPECT_HAS(ErrorOf({}), file);
      unsetenv("HOSTNN_PLATFORM_FILE");
      tiling::Options o;
      o.platform_file = file;
      EXPECT_HAS(ErrorOf(o), file);
    }
  }
  // A valid file with a built-in profile chosen still resolves to the built-in.
  const std::string good = Write("good.json", R"({"name": "edge", "cores": 2, "ub_bytes": 65536})");
  setenv("HOSTNN_PLATFORM", "atlas-a2", 1);
  setenv("HOSTNN_PLATFORM_FILE", good.c_str(), 1);
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.platform.name, "atlas-a2");
}

TEST_F(TilingOptions, StreamThresholdComesFromTheEnvironmentOrTheProfile) {
  tiling::Resolved r;
  ASSERT_TRUE(Resolve({}, &r).ok());
  // Three operands (SiluBackward): past a third of the LLC.
  const int64_t profile = tiling::DefaultStreamMinBytes(r.platform, 3);
  EXPECT_EQ(profile, tiling::LastLevelCacheBytes() / 3 + 1);
  EXPECT_GT(profile, 0);
  EXPECT_EQ(r.stream_min_bytes, profile);
  EXPECT_HAS(r.sources, "stream_min_bytes " + std::to_string(profile) + " (profile)");
  // Two operands (a forward operator): past half of it.
  ASSERT_TRUE(Resolve({}, &r, {Op::kHardsigmoid, DType::kFloat32, {4194304}, 0}).ok());
  EXPECT_EQ(r.stream_min_bytes, tiling::LastLevelCacheBytes() / 2 + 1);
  setenv("HOSTNN_STREAM_MIN_BYTES", "0", 1);
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.stream_min_bytes, 0);
  setenv("HOSTNN_STREAM_MIN_BYTES", "1048576", 1);
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.stream_min_bytes, 1048576);
  EXPECT_HAS(r.sources, "stream_min_bytes 1048576 (HOSTNN_STREAM_MIN_BYTES)");
  setenv("HOSTNN_STREAM_MIN_BYTES", "", 1);  // empty = not set
  ASSERT_TRUE(Resolve({}, &r).ok());
  EXPECT_EQ(r.stream_min_bytes, profile);
}

// The JSON behind the files: nlohmann-json's parser, with duplicate members and deep
// nesting refused and errors saying where; and the one layout files and plans are written in.
TEST_F(TilingOptions, JsonReadingAndWriting) {
  tiling::Json v;
  ASSERT_TRUE(tiling::ParseJson(R"( {"a": [1, -2, 3.5, true, null], "s": "q\"\u00e9",
      "big": 123456789012345678901234} )",
                                &v)
                  .ok());
  int64_t i = 0;
  EXPECT_HAS(tiling::JsonInt(v, "big", 0, 1, "f", &i).message(),
             "\"big\" must be an integer, found a fraction or a huge number");
  EXPECT_HAS(tiling::JsonInt(v, "s", 0, 1, "f", &i).message(), "found a string");
  EXPECT_HAS(tiling::JsonOnlyKeys(v, {"a", "s"}, "f").message(), "f: unknown key \"big\"");
  struct Case {
    const char* text;
    const char* expect;
  };
  for (const Case& c :
       {Case{"", "line 1, column 1: syntax error"}, Case{"[1,]", "line 1, column 4: syntax error"},
        Case{"{\"a\": 1, \"a\": 2}", "duplicate member \"a\""},
        Case{"[1]\n x", "line 2, column 2: syntax error"}, Case{"\"\\x\"", "syntax error"}}) {
    const Status s = tiling::ParseJson(c.text, &v);
    EXPECT_FALSE(s.ok()) << c.text;
    EXPECT_HAS(s.message(), c.expect);
  }
  EXPECT_HAS(tiling::ParseJson(std::string(100, '['), &v).message(), "nesting deeper than 64");
  const std::string file = Write("bad.json", "{\"a\": }");
  EXPECT_HAS(tiling::ParseJsonFile(file, &v).message(), file + ": line 1, column 7");

  tiling::Json doc;
  doc["name"] = "a\"b";
  doc["shape"] = std::vector<int64_t>{2, 3};
  doc["empty"] = tiling::Json::array();
  doc["rows"] = {{{"k", 1}}, {{"k", 2.5}}};
  EXPECT_EQ(tiling::WriteJson(doc, {"rows"}),
            "{\n  \"name\": \"a\\\"b\",\n  \"shape\": [2, 3],\n  \"empty\": [],\n"
            "  \"rows\": [\n    {\"k\": 1},\n    {\"k\": 2.5}\n  ]\n}\n");
}

// A plan's JSON is valid JSON with the fields a reader needs.
TEST_F(TilingOptions, PlanJsonParses) {
  tiling::Options o;
  o.platform = "ascend950";
  for (const tiling::Problem& problem :
       {tiling::Problem{Op::kSiluBackward, DType::kFloat16, {100000}, 0},
        tiling::Problem{Op::kLogSoftmaxBackward, DType::kFloat32, {32, 512, 64}, 1}}) {
    tiling::Plan plan;
    ASSERT_TRUE(tiling::MakePlan(problem, o, &plan).ok());
    tiling::Json v;
    const Status s = tiling::ParseJson(plan.ToJson(), &v);
    ASSERT_TRUE(s.ok()) << s.message() << "\n" << plan.ToJson();
    EXPECT_EQ(v["op"], GetOpInfo(problem.op).snake_name);
    EXPECT_EQ(v["platform"]["cores"], 64);
    EXPECT_EQ(v["stream_min_bytes"], plan.stream_min_bytes);
    EXPECT_EQ(v["block_dim"], plan.kind == tiling::Plan::Kind::kElementwise
                                  ? plan.elementwise.block_dim
                                  : plan.reduction.block_dim);
    if (plan.kind == tiling::Plan::Kind::kReduction) {
      EXPECT_EQ(v["template"], "ara_recompute");
      EXPECT_EQ(v["trials"].size(), 4u);
    }
    EXPECT_FALSE(plan.ToTable().empty());
  }
}

// The operators read the same settings: a bad value fails phase 1 with kInvalid and a
// message, and a profile changes the plan the executor keeps.
TEST_F(TilingOptions, OperatorsUseTheSettings) {
  std::vector<float> dy(100000, 1.f), x(100000, 0.5f), out(100000);
  const TensorView vdy = TensorView::Dense(dy.data(), DType::kFloat32, {100000});
  const TensorView vx = TensorView::Dense(x.data(), DType::kFloat32, {100000});
  const TensorView vout = TensorView::Dense(out.data(), DType::kFloat32, {100000});
  OpArgs args;
  args.op = Op::kSiluBackward;
  args.in[0] = &vdy;
  args.in[1] = &vx;
  args.out[0] = &vout;
  uint64_t ws = 0;
  ExecutorPtr exec;
  setenv("HOSTNN_NUM_CORES", "zero", 1);
  Status s = Prepare(args, {}, &ws, &exec);
  EXPECT_EQ(s.code(), StatusCode::kInvalid);
  EXPECT_HAS(s.message(), "SiluBackward: tiling: HOSTNN_NUM_CORES='zero'");
  unsetenv("HOSTNN_NUM_CORES");
  // Every HOSTNN_ variable fails phase 1 the same way, writing nothing: also the store
  // threshold and a platform file that is not used by the chosen (default) profile.
  const std::string garbage = Write("garbage.json", "{");
  for (const auto& bad : {std::make_pair("HOSTNN_STREAM_MIN_BYTES", std::string("abc")),
                          std::make_pair("HOSTNN_PLATFORM_FILE", dir_ + "/missing.json"),
                          std::make_pair("HOSTNN_PLATFORM_FILE", garbage)}) {
    setenv(bad.first, bad.second.c_str(), 1);
    uint64_t ws_kept = 12345;
    ExecutorPtr none;
    s = Prepare(args, {}, &ws_kept, &none);
    EXPECT_EQ(s.code(), StatusCode::kInvalid) << bad.first << "=" << bad.second;
    EXPECT_HAS(s.message(), "SiluBackward: tiling: ");
    EXPECT_HAS(s.message(), bad.first == std::string("HOSTNN_STREAM_MIN_BYTES")
                                ? std::string("HOSTNN_STREAM_MIN_BYTES='abc'")
                                : bad.second);
    EXPECT_EQ(ws_kept, 12345u);
    EXPECT_TRUE(none == nullptr);
    unsetenv(bad.first);
  }
  setenv("HOSTNN_STREAM_MIN_BYTES", "4096", 1);
  ASSERT_TRUE(Prepare(args, {}, &ws, &exec).ok());
  EXPECT_EQ(GetPlan(*exec).stream_min_bytes, 4096);
  unsetenv("HOSTNN_STREAM_MIN_BYTES");
  setenv("HOSTNN_PLATFORM", "atlas-a2", 1);
  ASSERT_TRUE(Prepare(args, {}, &ws, &exec).ok());
  EXPECT_EQ(GetPlan(*exec).platform.name, "atlas-a2");
  EXPECT_EQ(GetPlan(*exec).elementwise.block_dim, 48);
  tiling::Options o;
  o.platform = "host";
  o.num_cores = 1;
  ASSERT_TRUE(Prepare(args, o, &ws, &exec).ok());
  EXPECT_EQ(GetPlan(*exec).elementwise.block_dim, 1);
}

}  // namespace
}  // namespace hostnn
