// core::Fuse, the layout every executor walks: dims merged where every operand steps over
// them contiguously, and an empty shape (any zero extent, whatever the others) one dim of
// extent 0 that no gather or scatter walks.

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "src/core/layout.h"
#include "src/exec/gather.h"

namespace hostnn {
namespace {

std::vector<int64_t> RowMajor(const std::vector<int64_t>& shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) strides[i - 1] = strides[i] * shape[i];
  return strides;
}

TEST(Fuse, ContiguousOperandsMergeIntoOneDenseDim) {
  float a[24], b[24];
  char* firsts[2] = {reinterpret_cast<char*>(a), reinterpret_cast<char*>(b)};
  const DType dtypes[2] = {DType::kFloat32, DType::kFloat32};
  const std::vector<int64_t> shape{2, 3, 4};
  const std::vector<int64_t> strides[2] = {RowMajor(shape), RowMajor(shape)};
  core::FusedLayout l;
  ASSERT_TRUE(core::Fuse(shape, 2, firsts, dtypes, strides, &l));
  EXPECT_EQ(l.rank, 1);
  EXPECT_EQ(l.shape[0], 24);
  EXPECT_EQ(l.numel, 24);
  EXPECT_TRUE(l.dense);
  // A transposed operand keeps both dims, and the layout is not dense.
  const std::vector<int64_t> shape2{3, 4};
  const std::vector<int64_t> strides2[2] = {RowMajor(shape2), {1, 3}};
  ASSERT_TRUE(core::Fuse(shape2, 2, firsts, dtypes, strides2, &l));
  EXPECT_EQ(l.rank, 2);
  EXPECT_EQ(l.numel, 12);
  EXPECT_FALSE(l.dense);
}

// An empty shape fuses to one dim of extent 0 whatever its other extents, even those whose
// product no int64 holds (a valid empty tensor: BatchNorm's saved outputs may be any empty
// shape), and an empty range over it writes nothing.
TEST(Fuse, EmptyShapesAreOneDimOfExtentZero) {
  float out[4] = {1, 2, 3, 4};
  char* firsts[2] = {nullptr, reinterpret_cast<char*>(out)};
  const DType dtypes[2] = {DType::kFloat32, DType::kFloat32};
  const std::vector<std::vector<int64_t>> shapes = {{0},
                                                    {3, 0},
                                                    {8, 0, 0, 0},
                                                    {0, 4, INT64_MAX},
                                                    {INT64_MAX, 4, 0},
                                                    {2, 0, 5, 1, 1, 1, 1, 1, 1, 7}};
  for (const std::vector<int64_t>& shape : shapes) {
    SCOPED_TRACE(::testing::PrintToString(shape));
    // Strides as a caller may hand them for an empty view: any values.
    const std::vector<int64_t> strides[2] = {std::vector<int64_t>(shape.size(), 0),
                                             std::vector<int64_t>(shape.size(), 7)};
    core::FusedLayout l;
    ASSERT_TRUE(core::Fuse(shape, 2, firsts, dtypes, strides, &l));
    EXPECT_EQ(l.rank, 1);
    EXPECT_EQ(l.shape[0], 0);
    EXPECT_EQ(l.numel, 0);
    EXPECT_FALSE(l.dense);
    EXPECT_EQ(l.operands[1].first, reinterpret_cast<char*>(out));
    const exec::OperandCodec codec = exec::MakeCodec(DType::kFloat32);
    const float values[1] = {9};
    exec::ScatterF32(l, l.operands[1], codec, 0, 0, values);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(out[i], static_cast<float>(i + 1));
  }
}

}  // namespace
}  // namespace hostnn
