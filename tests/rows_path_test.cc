// The elementwise executor's rows path (src/exec/eltwise_executor.cc): operands of one dtype
// that walk the fused layout's last dim with stride 1, but for an input constant along it
// (stride 0: a per-row broadcast, Prelu's channel weight), run the kernel on each row in
// place. Its results must be the gathered path's bit for bit: the same inputs with an out
// strided along its last dim take the gathered path, and every element is compared.

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "hostnn/ops.h"
#include "kernels/kernels.h"
#include "tests/util/capi_ops.h"

namespace hostnn {
namespace test {
namespace {

// n values of dtype drawn from [lo, hi), as raw bytes.
std::vector<uint8_t> Random(DType dtype, int64_t n, double lo, double hi, std::mt19937_64& rng) {
  std::uniform_real_distribution<float> u(static_cast<float>(lo), static_cast<float>(hi));
  std::vector<float> f(static_cast<size_t>(n));
  for (float& v : f) v = u(rng);
  std::vector<uint8_t> bytes(static_cast<size_t>(n) * DTypeSize(dtype));
  kernels::GetFromF32(dtype)(f.data(), bytes.data(), static_cast<size_t>(n));
  return bytes;
}

TensorView View(void* data, DType dtype, std::vector<int64_t> shape, std::vector<int64_t> strides) {
  TensorView v = TensorView::Dense(data, dtype, std::move(shape));
  v.strides = std::move(strides);
  return v;
}

// Both phases of a, whose kernel path must name `path`.
void ExpectPath(const OpArgs& a, const char* path, const std::string& what) {
  uint64_t ws = 0;
  ExecutorPtr exec;
  Status s = Prepare(a, {}, &ws, &exec);
  ASSERT_TRUE(s.ok()) << what << ": " << s.message();
  EXPECT_NE(KernelPath(*exec).find(path), std::string::npos) << what << ": " << KernelPath(*exec);
  std::vector<char> workspace(ws);
  s = Execute(*exec, ws ? workspace.data() : nullptr, ws);
  ASSERT_TRUE(s.ok()) << what << ": " << s.message();
}

// Runs op on (in0, in1) into a dense out (the rows path) and into one strided along its
// last dim (the gathered path); expects the same bytes.
void ExpectRowsEqualGathered(Op op, const TensorView& in0, const TensorView& in1,
                             const std::vector<int64_t>& shape, const std::string& what) {
  const DType dtype = in0.dtype;
  const int64_t rows = shape[0], cols = shape[1];
  const size_t es = DTypeSize(dtype);
  std::vector<uint8_t> dense(static_cast<size_t>(rows * cols) * es, 0xAB);
  std::vector<uint8_t> strided(static_cast<size_t>(rows * cols * 2) * es, 0xAB);
  const TensorView out_rows = View(dense.data(), dtype, shape, {cols, 1});
  const TensorView out_gathered = View(strided.data(), dtype, shape, {2 * cols, 2});
  for (const TensorView* out : {&out_rows, &out_gathered}) {
    OpArgs a;
    a.op = op;
    a.in[0] = &in0;
    a.in[1] = &in1;
    a.out[0] = out;
    ExpectPath(a, out == &out_rows ? "by rows" : "gathered", what);
  }
  int64_t differ = 0;
  for (int64_t i = 0; i < rows * cols; ++i) {
    differ += std::memcmp(&dense[static_cast<size_t>(i) * es],
                          &strided[static_cast<size_t>(2 * i) * es], es) != 0;
  }
  EXPECT_EQ(differ, 0) << what << ": elements where the rows path and the gathered path differ";
}

// Every two-input operator that broadcasts, with either input constant along each row
// ([rows, 1] broadcast) or along each column ([1, cols]), every compute dtype.
TEST(RowsPath, BroadcastInputsGiveTheGatheredBits) {
  std::mt19937_64 rng(0x50A5);
  const int64_t rows = 37, cols = 300;  // rows of at least the path's 64 elements, a tail
  for (Op op : OpsWhere([](Op o) {
         return IsGradLike(o) && GetOpInfo(o).shapes == ShapeRule::kBroadcast &&
                GetOpInfo(o).dtypes != DTypeRule::kPromoteOutAnyFloat;
       })) {
    const OpInfo& info = GetOpInfo(op);
    for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
      std::vector<uint8_t> full0 = Random(dtype, rows * cols, -4.0, 4.0, rng);
      std::vector<uint8_t> full1 = Random(dtype, rows * cols, info.domain_lo, info.domain_hi, rng);
      std::vector<uint8_t> per_row = Random(dtype, rows, -4.0, 4.0, rng);
      std::vector<uint8_t> per_col = Random(dtype, cols, info.domain_lo, info.domain_hi, rng);
      const TensorView d0 = View(full0.data(), dtype, {rows, cols}, {cols, 1});
      const TensorView d1 = View(full1.data(), dtype, {rows, cols}, {cols, 1});
      const TensorView r0 = View(per_row.data(), dtype, {rows, cols}, {1, 0});
      const TensorView c1 = View(per_col.data(), dtype, {rows, cols}, {0, 1});
      const std::string name = std::string(info.name) + " " + DTypeName(dtype);
      ExpectRowsEqualGathered(op, r0, d1, {rows, cols}, name + ", in0 constant along rows");
      ExpectRowsEqualGathered(op, d0, c1, {rows, cols}, name + ", in1 broadcast over rows");
    }
  }
}

// Prelu's channel weight over [N, C, H*W]: the weight constant along each (n, c) row.
TEST(RowsPath, PreluChannelWeightGivesTheGatheredBits) {
  std::mt19937_64 rng(0x9E1);
  const int64_t n = 3, c = 5, hw = 130;
  for (DType dtype : {DType::kFloat32, DType::kFloat16, DType::kBFloat16}) {
    std::vector<uint8_t> self = Random(dtype, n * c * hw, -4.0, 4.0, rng);
    std::vector<uint8_t> weight = Random(dtype, c, -2.0, 2.0, rng);
    const TensorView s = View(self.data(), dtype, {n * c, hw}, {hw, 1});
    const size_t es = DTypeSize(dtype);
    // As [N, C, HW] with out dense and out strided.
    std::vector<uint8_t> dense(self.size(), 0), strided(2 * self.size(), 0);
    const TensorView x3 = View(self.data(), dtype, {n, c, hw}, {c * hw, hw, 1});
    const TensorView w = View(weight.data(), dtype, {c}, {1});
    const TensorView o_rows = View(dense.data(), dtype, {n, c, hw}, {c * hw, hw, 1});
    const TensorView o_gath = View(strided.data(), dtype, {n, c, hw}, {2 * c * hw, 2 * hw, 2});
    for (const TensorView* out : {&o_rows, &o_gath}) {
      OpArgs a;
      a.op = Op::kPrelu;
      a.in[0] = &x3;
      a.in[1] = &w;
      a.out[0] = out;
      ExpectPath(a, out == &o_rows ? "by rows" : "gathered", DTypeName(dtype));
    }
    int64_t differ = 0;
    for (int64_t i = 0; i < s.shape[0] * hw; ++i) {
      differ += std::memcmp(&dense[static_cast<size_t>(i) * es],
                            &strided[static_cast<size_t>(2 * i) * es], es) != 0;
    }
    EXPECT_EQ(differ, 0) << DTypeName(dtype);
  }
}

}  // namespace
}  // namespace test
}  // namespace hostnn
