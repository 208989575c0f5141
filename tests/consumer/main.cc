// A client of the installed hostnn through its native C++ API: runs SiluBackward through
// hostnn::Run on a few values, prints them and checks them against the formula in double
// precision. Exits non-zero on any mismatch.
#include <cmath>
#include <cstdio>
#include <vector>

#include "hostnn/ops.h"

int main() {
  std::vector<float> dy = {1.0f, -0.5f, 2.0f, 0.25f, 3.0f};
  std::vector<float> x = {-2.0f, 0.0f, 1.5f, 4.0f, -0.75f};
  std::vector<float> dx(dy.size(), NAN);
  const int64_t n = static_cast<int64_t>(dy.size());
  const hostnn::TensorView vdy = hostnn::TensorView::Dense(dy.data(), hostnn::DType::kFloat32, {n});
  const hostnn::TensorView vx = hostnn::TensorView::Dense(x.data(), hostnn::DType::kFloat32, {n});
  const hostnn::TensorView vdx = hostnn::TensorView::Dense(dx.data(), hostnn::DType::kFloat32, {n});
  hostnn::OpArgs args;
  args.op = hostnn::Op::kSiluBackward;
  args.in[0] = &vdy;
  args.in[1] = &vx;
  args.out[0] = &vdx;
  const hostnn::Status status = hostnn::Run(args);
  if (!status.ok()) {
    std::printf("SiluBackward failed: %d %s\n", status.raw_code(), status.message().c_str());
    return 1;
  }
  int bad = 0;
  for (size_t i = 0; i < dy.size(); ++i) {
    const double s = 1.0 / (1.0 + std::exp(-static_cast<double>(x[i])));
    const double want = dy[i] * s * (1.0 + x[i] * (1.0 - s));
    const bool ok = std::fabs(dx[i] - want) <= 1e-6 * std::fmax(1.0, std::fabs(want));
    std::printf("silu_backward(dy=%g, x=%g) = %.7f  expected %.7f  %s\n", dy[i], x[i], dx[i], want,
                ok ? "ok" : "MISMATCH");
    if (!ok) ++bad;
  }
  std::printf(bad == 0 ? "consumer: OK\n" : "consumer: FAILED\n");
  return bad == 0 ? 0 : 1;
}
