// Embedding: out[i..., :] = weight[indices[i...], :], a copy. Every element of out is checked
// byte for byte against the weight element it names (the reference: the row-major walk of
// indices and out, independent of the executor's fused layout and core split), over the
// twelve weight dtypes, both index dtypes, index tensors of 0 to 3 dims, strided, offset
// and transposed views, several core counts and teams; the bytes around out's elements stay
// as they were. Then the checks in the op_api's order, the run-time index check (nothing
// written), the empty inputs and the stream path.

#include <gtest/gtest.h>
#include <omp.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "aclnnop/aclnn_embedding.h"
#include "hostnn/ops.h"
#include "tests/util/strided_tensor.h"

namespace hostnn {
namespace test {
namespace {

const DType kWeightTypes[] = {DType::kFloat32, DType::kFloat16,   DType::kBFloat16,
                              DType::kFloat64, DType::kInt64,     DType::kInt32,
                              DType::kInt16,   DType::kInt8,      DType::kUInt8,
                              DType::kBool,    DType::kComplex64, DType::kComplex128};

std::vector<int64_t> Append(std::vector<int64_t> shape, int64_t d) {
  shape.push_back(d);
  return shape;
}

void FillBytes(HostTensor* t, std::mt19937_64& rng) {
  const size_t bytes = DTypeSize(t->dtype());
  for (int64_t i = 0; i < t->numel(); ++i) {
    uint8_t* p = t->Bytes(i);
    for (size_t b = 0; b < bytes; ++b) p[b] = static_cast<uint8_t>(rng());
  }
}

void SetIndex(HostTensor* t, int64_t i, int64_t value) {
  if (t->dtype() == DType::kInt64) {
    std::memcpy(t->Bytes(i), &value, sizeof(value));
  } else {
    const int32_t v = static_cast<int32_t>(value);
    std::memcpy(t->Bytes(i), &v, sizeof(v));
  }
}

OpArgs Args(const HostTensor& weight, const HostTensor& indices, const HostTensor& out) {
  OpArgs a;
  a.op = Op::kEmbedding;
  a.in[0] = &weight.view();
  a.in[1] = &indices.view();
  a.out[0] = &out.view();
  return a;
}

// out's elements hold the weight elements their indices name; every other byte of out's
// storage is as `before` had it.
void ExpectGathered(const HostTensor& weight, const std::vector<int64_t>& index,
                    const HostTensor& out, const std::vector<uint8_t>& before) {
  const int64_t d = weight.shape()[1];
  const size_t bytes = DTypeSize(weight.dtype());
  const uint8_t* base = static_cast<const uint8_t*>(out.view().data);
  std::set<int64_t> written;
  for (int64_t e = 0; e < out.numel(); ++e) {
    const int64_t i = e / d, c = e % d;
    const uint8_t* want = weight.Bytes(index[static_cast<size_t>(i)] * d + c);
    ASSERT_EQ(std::memcmp(out.Bytes(e), want, bytes), 0) << "element " << e;
    const int64_t at = out.Bytes(e) - base;
    for (size_t b = 0; b < bytes; ++b) written.insert(at + static_cast<int64_t>(b));
  }
  const std::vector<uint8_t> after = out.Snapshot();
  for (size_t b = 0; b < after.size(); ++b) {
    if (written.count(static_cast<int64_t>(b)) == 0) {
      ASSERT_EQ(after[b], before[b]) << "byte " << b;
    }
  }
}

struct Case {
  std::vector<int64_t> index_shape;
  int64_t rows, d;
};

TEST(Embedding, CopiesEveryDTypeLayoutAndCoreSplit) {
  const Case cases[] = {
      {{}, 5, 3}, {{4}, 7, 1}, {{3, 5}, 9, 64}, {{2, 3, 4}, 6, 5}, {{37}, 300, 17}};
  const Strides layouts[] = {Strides::kDense, Strides::kStep2, Strides::kTransposed};
  const int threads = omp_get_max_threads();
  std::mt19937_64 rng(7);
  int run = 0;
  for (const DType dtype : kWeightTypes) {
    for (const DType index_dtype : {DType::kInt32, DType::kInt64}) {
      for (const Case& c : cases) {
        // Each (dtype, case) takes one layout triple and one (team, cores) pair, in turn.
        const Strides wl = layouts[run % 3], il = layouts[(run / 3) % 3],
                      ol = layouts[(run / 9) % 3];
        const int team = 1 + run % 3;
        const int64_t cores = std::vector<int64_t>{1, 2, 3, 48}[static_cast<size_t>(run % 4)];
        ++run;
        SCOPED_TRACE(std::string(DTypeName(dtype)) + " " + DTypeName(index_dtype) + " rows " +
                     std::to_string(c.rows) + " d " + std::to_string(c.d) + " run " +
                     std::to_string(run));
        HostTensor weight(dtype, {c.rows, c.d}, wl), indices(index_dtype, c.index_shape, il);
        HostTensor out(dtype, Append(c.index_shape, c.d), ol);
        FillBytes(&weight, rng);
        std::vector<int64_t> index(static_cast<size_t>(indices.numel()));
        for (size_t i = 0; i < index.size(); ++i) {
          // The first and last rows, and repeats.
          index[i] = i == 0 ? c.rows - 1 : i == 1 ? 0 : static_cast<int64_t>(rng() % c.rows);
          SetIndex(&indices, static_cast<int64_t>(i), index[i]);
        }
        const std::vector<uint8_t> before = out.Snapshot();
        omp_set_num_threads(team);
        tiling::Options options;
        options.num_cores = cores;
        options.min_elems_per_core = 1;
        const Status s = hostnn::Run(Args(weight, indices, out), options);
        ASSERT_TRUE(s.ok()) << s.message();
        ExpectGathered(weight, index, out, before);
      }
    }
  }
  omp_set_num_threads(threads);
}

// The plan splits out's [n, D] elements over the cores: with D not a multiple of a core's
// share, rows are cut between cores, and every cut still copies each element once.
TEST(Embedding, RowsCutBetweenCores) {
  std::mt19937_64 rng(11);
  for (const int64_t d : {1, 3, 7, 129}) {
    for (const int64_t cores : {2, 5, 48}) {
      SCOPED_TRACE("d " + std::to_string(d) + " cores " + std::to_string(cores));
      HostTensor weight(DType::kFloat16, {50, d}), indices(DType::kInt64, {41});
      HostTensor out(DType::kFloat16, {41, d}, Strides::kStep2);
      FillBytes(&weight, rng);
      std::vector<int64_t> index(41);
      for (size_t i = 0; i < index.size(); ++i) {
        index[i] = static_cast<int64_t>(rng() % 50);
        SetIndex(&indices, static_cast<int64_t>(i), index[i]);
      }
      const std::vector<uint8_t> before = out.Snapshot();
      tiling::Options options;
      options.num_cores = cores;
      options.min_elems_per_core = 1;
      options.ub_bytes = 8192;
      const Status s = hostnn::Run(Args(weight, indices, out), options);
      ASSERT_TRUE(s.ok()) << s.message();
      ExpectGathered(weight, index, out, before);
    }
  }
}

// An out past HOSTNN_STREAM_MIN_BYTES whose rows are long is written with non-temporal
// stores: the same bytes, rows of every alignment (1204 bytes apart), the rows cut between
// cores included.
TEST(Embedding, StreamedRowsAreTheSameCopy) {
  setenv("HOSTNN_STREAM_MIN_BYTES", "4096", 1);
  std::mt19937_64 rng(5);
  for (const DType dtype : {DType::kFloat32, DType::kBFloat16, DType::kComplex128}) {
    for (const int64_t cores : {1, 3}) {
      const int64_t d = dtype == DType::kBFloat16 ? 602 : dtype == DType::kFloat32 ? 301 : 77;
      HostTensor weight(dtype, {40, d}), indices(DType::kInt32, {33});
      HostTensor out(dtype, {33, d});
      FillBytes(&weight, rng);
      std::vector<int64_t> index(33);
      for (size_t i = 0; i < index.size(); ++i) {
        index[i] = static_cast<int64_t>(rng() % 40);
        SetIndex(&indices, static_cast<int64_t>(i), index[i]);
      }
      const std::vector<uint8_t> before = out.Snapshot();
      tiling::Options options;
      options.num_cores = cores;
      options.min_elems_per_core = 1;
      uint64_t ws = 0;
      ExecutorPtr exec;
      ASSERT_TRUE(hostnn::Prepare(Args(weight, indices, out), options, &ws, &exec).ok());
      EXPECT_NE(KernelPath(*exec).find("stream stores"), std::string::npos) << KernelPath(*exec);
      ASSERT_TRUE(Execute(*exec, nullptr, 0).ok());
      ExpectGathered(weight, index, out, before);
    }
  }
  unsetenv("HOSTNN_STREAM_MIN_BYTES");
}

// Phase 2 checks every index before it writes: a negative one, or one past weight's rows,
// is refused (161002 through the C API), naming the element, and out is untouched.
TEST(Embedding, AnIndexOutsideWeightIsRefusedWhenItRuns) {
  for (const int64_t bad : {int64_t{-1}, int64_t{10}, int64_t{1} << 40}) {
    for (const DType index_dtype : {DType::kInt32, DType::kInt64}) {
      if (index_dtype == DType::kInt32 && bad > INT32_MAX) continue;
      SCOPED_TRACE(std::to_string(bad) + " " + DTypeName(index_dtype));
      HostTensor weight(DType::kFloat32, {10, 3}), indices(index_dtype, {4});
      HostTensor out(DType::kFloat32, {4, 3});
      for (int64_t i = 0; i < 4; ++i) SetIndex(&indices, i, i == 2 ? bad : i);
      const std::vector<uint8_t> before = out.Snapshot();
      uint64_t ws = 0;
      aclOpExecutor* exec = nullptr;
      ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(weight.acl(), indices.acl(), out.acl(), &ws, &exec),
                0);
      EXPECT_EQ(aclnnEmbedding(nullptr, ws, exec, nullptr), 161002);
      const std::string message = aclGetRecentErrMsg();
      EXPECT_NE(message.find("indices element 2"), std::string::npos) << message;
      EXPECT_NE(message.find(std::to_string(bad)), std::string::npos) << message;
      EXPECT_EQ(out.Snapshot(), before);
    }
  }
}

// On a stream the refusal is the run's failure, reported by the synchronize.
TEST(Embedding, OnAStreamTheRefusalComesAtSynchronize) {
  HostTensor weight(DType::kInt8, {10, 3}), indices(DType::kInt32, {2});
  HostTensor out(DType::kInt8, {2, 3});
  SetIndex(&indices, 0, 3);
  SetIndex(&indices, 1, -4);
  const std::vector<uint8_t> before = out.Snapshot();
  aclrtStream stream = nullptr;
  ASSERT_EQ(aclrtCreateStream(&stream), 0);
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(weight.acl(), indices.acl(), out.acl(), &ws, &exec), 0);
  ASSERT_EQ(aclnnEmbedding(nullptr, ws, exec, stream), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream), 161002);
  EXPECT_EQ(out.Snapshot(), before);
  // A good call on the same stream runs.
  SetIndex(&indices, 1, 9);
  ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(weight.acl(), indices.acl(), out.acl(), &ws, &exec), 0);
  ASSERT_EQ(aclnnEmbedding(nullptr, ws, exec, stream), 0);
  EXPECT_EQ(aclrtSynchronizeStream(stream), 0);
  ExpectGathered(weight, {3, 9}, out, before);
  EXPECT_EQ(aclrtDestroyStream(stream), 0);
}

aclnnStatus Prepare(const HostTensor* weight, const HostTensor* indices, const HostTensor* out) {
  uint64_t ws = 0;
  aclOpExecutor* exec = nullptr;
  const aclnnStatus s = aclnnEmbeddingGetWorkspaceSize(weight ? weight->acl() : nullptr,
                                                       indices ? indices->acl() : nullptr,
                                                       out ? out->acl() : nullptr, &ws, &exec);
  if (s == 0) {
    const aclnnStatus run = aclnnEmbedding(ws > 0 ? std::malloc(ws) : nullptr, ws, exec, nullptr);
    EXPECT_EQ(run, 0);
  }
  return s;
}

// The checks in the op_api's order: nulls (161001); dtypes; ranks; out's shape; then the
// empty inputs' success; then weight's 2 dims and out's last dim, storage and overlap.
TEST(Embedding, RefusesInTheOpApiOrder) {
  HostTensor weight(DType::kFloat32, {10, 3}), indices(DType::kInt32, {4});
  HostTensor out(DType::kFloat32, {4, 3});
  for (int64_t i = 0; i < 4; ++i) SetIndex(&indices, i, i);
  const std::vector<uint8_t> before = out.Snapshot();
  EXPECT_EQ(Prepare(nullptr, &indices, &out), 161001);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("weight is null"), std::string::npos);
  EXPECT_EQ(Prepare(&weight, nullptr, &out), 161001);
  EXPECT_EQ(Prepare(&weight, &indices, nullptr), 161001);
  // A null beats a bad dtype elsewhere.
  HostTensor u16(DType::kUInt16, {10, 3});
  EXPECT_EQ(Prepare(&u16, &indices, nullptr), 161001);
  EXPECT_EQ(Prepare(&u16, &indices, &out), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("weight"), std::string::npos);
  HostTensor out_f16(DType::kFloat16, {4, 3});
  EXPECT_EQ(Prepare(&weight, &indices, &out_f16), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("out"), std::string::npos);
  for (const DType bad : {DType::kFloat32, DType::kFloat16, DType::kFloat64, DType::kUInt8,
                          DType::kInt8, DType::kInt16, DType::kBool, DType::kComplex64}) {
    SCOPED_TRACE(DTypeName(bad));
    HostTensor idx(bad, {4});
    EXPECT_EQ(Prepare(&weight, &idx, &out), 161002);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("indices"), std::string::npos);
  }
  // Ranks: indices of 9 dims (with an out that does not match either: the rank comes first).
  HostTensor idx9(DType::kInt32, {1, 1, 1, 1, 1, 1, 1, 1, 2});
  EXPECT_EQ(Prepare(&weight, &idx9, &out), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("indices"), std::string::npos);
  // out: indices' dims and one more.
  HostTensor out_rank(DType::kFloat32, {4, 3, 1}), out_lead(DType::kFloat32, {5, 3});
  EXPECT_EQ(Prepare(&weight, &indices, &out_rank), 161002);
  EXPECT_EQ(Prepare(&weight, &indices, &out_lead), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("followed by one more"), std::string::npos);
  // weight of 3 dims; out's last dim not weight's row length.
  HostTensor weight3(DType::kFloat32, {10, 3, 1}), out_d(DType::kFloat32, {4, 4});
  EXPECT_EQ(Prepare(&weight3, &indices, &out), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("2 dims"), std::string::npos);
  EXPECT_EQ(Prepare(&weight, &indices, &out_d), 161002);
  EXPECT_NE(std::string(aclGetRecentErrMsg()).find("row length 3"), std::string::npos);
  EXPECT_EQ(out.Snapshot(), before);
  // Every weight dtype with either index dtype is taken.
  for (const DType d : kWeightTypes) {
    for (const DType id : {DType::kInt32, DType::kInt64}) {
      HostTensor w(d, {10, 3}), i(id, {4}), o(d, {4, 3});
      for (int64_t k = 0; k < 4; ++k) SetIndex(&i, k, k);
      EXPECT_EQ(Prepare(&w, &i, &o), 0) << DTypeName(d) << " " << DTypeName(id);
    }
  }
  // Formats are not checked: NCHW indices are taken.
  HostTensor idx4(DType::kInt32, {2, 2, 2, 2}), out5(DType::kFloat32, {2, 2, 2, 2, 3});
  for (int64_t k = 0; k < idx4.numel(); ++k) SetIndex(&idx4, k, k % 10);
  idx4.SetFormat(ACL_FORMAT_NCHW);
  EXPECT_EQ(Prepare(&weight, &idx4, &out5), 0);
}

// out sharing memory with weight or indices is refused: the copy would read what it wrote.
TEST(Embedding, OutApartFromWhatItReads) {
  HostTensor weight(DType::kInt32, {4, 4}), indices(DType::kInt32, {4});
  for (int64_t i = 0; i < 4; ++i) SetIndex(&indices, i, 3 - i);
  OpArgs a = Args(weight, indices, weight);  // out is weight's very view
  Status s = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
  TensorView idx_as_out = indices.view();  // out over indices' memory
  idx_as_out.shape = {4, 1};
  idx_as_out.strides = {1, 1};
  HostTensor weight1(DType::kInt32, {4, 1});
  a = Args(weight1, indices, weight1);
  a.out[0] = &idx_as_out;
  s = hostnn::Run(a, tiling::Options());
  EXPECT_EQ(s.code(), StatusCode::kInvalid) << s.message();
  EXPECT_NE(s.message().find("indices"), std::string::npos) << s.message();
}

// An empty weight or indices succeeds and writes nothing (CANN returns before computing):
// weight [10, 0], indices [0], and weight [0, 3] whose indices could name no row.
TEST(Embedding, EmptyInputsWriteNothing) {
  struct Shapes {
    std::vector<int64_t> weight, indices, out;
  } shapes[] = {{{10, 0}, {4}, {4, 0}},
                {{10, 3}, {0}, {0, 3}},
                {{0, 3}, {4}, {4, 3}},
                {{10, 3}, {2, 0}, {2, 0, 3}}};
  for (const Shapes& sh : shapes) {
    HostTensor weight(DType::kFloat32, sh.weight), indices(DType::kInt64, sh.indices);
    HostTensor out(DType::kFloat32, sh.out);
    for (int64_t i = 0; i < indices.numel(); ++i) SetIndex(&indices, i, 7);
    const std::vector<uint8_t> before = out.Snapshot();
    uint64_t ws = 1;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(weight.acl(), indices.acl(), out.acl(), &ws, &exec),
              0);
    EXPECT_EQ(ws, 0u);
    EXPECT_EQ(aclnnEmbedding(nullptr, 0, exec, nullptr), 0);
    EXPECT_EQ(out.Snapshot(), before);
  }
}

// A null data address behind weight or indices with elements: phase 1 takes it (CANN's never
// reads the address), phase 2 refuses it before any index is read, writing nothing.
TEST(Embedding, NullDataIsRefusedWhenItRuns) {
  HostTensor weight(DType::kFloat32, {10, 3}), indices(DType::kInt32, {4});
  HostTensor out(DType::kFloat32, {4, 3});
  for (int64_t i = 0; i < 4; ++i) SetIndex(&indices, i, i);
  const int64_t wdims[] = {10, 3}, wstrides[] = {3, 1}, idims[] = {4}, istrides[] = {1};
  aclTensor* null_weight =
      aclCreateTensor(wdims, 2, ACL_FLOAT, wstrides, 0, ACL_FORMAT_ND, wdims, 2, nullptr);
  aclTensor* null_indices =
      aclCreateTensor(idims, 1, ACL_INT32, istrides, 0, ACL_FORMAT_ND, idims, 1, nullptr);
  const std::vector<uint8_t> before = out.Snapshot();
  for (int k = 0; k < 2; ++k) {
    uint64_t ws = 0;
    aclOpExecutor* exec = nullptr;
    ASSERT_EQ(aclnnEmbeddingGetWorkspaceSize(k == 0 ? null_weight : weight.acl(),
                                             k == 1 ? null_indices : indices.acl(), out.acl(), &ws,
                                             &exec),
              0);
    EXPECT_EQ(aclnnEmbedding(nullptr, ws, exec, nullptr), 161002);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("null address"), std::string::npos);
    EXPECT_EQ(out.Snapshot(), before);
    aclDestroyAclOpExecutor(exec);
  }
  aclDestroyTensor(null_weight);
  aclDestroyTensor(null_indices);
}

}  // namespace
}  // namespace test
}  // namespace hostnn
