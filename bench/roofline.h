// The memory roofline every hostnn measurement is compared with: a kernel that reads two
// arrays and writes a third of the same size with plain stores, on the same OpenMP team
// the operators use. Benchmark code only; the library never calls it.
#ifndef HOSTNN_BENCH_ROOFLINE_H_
#define HOSTNN_BENCH_ROOFLINE_H_

#include <cstddef>
#include <cstdint>

namespace hostnn {
namespace bench {

// out[i] = a[i] + b[i] over `bytes` bytes (as 32-bit integer lanes, so no floating-point
// assists whatever the bits), split into `threads` contiguous 64-byte-aligned parts that
// run through hostnn's launcher. Pre: the three arrays are 64-byte aligned, bytes % 4 == 0.
void RooflineAdd(const void* a, const void* b, void* out, size_t bytes, int64_t threads);

// The SIMD target the roofline kernel runs on ("AVX2", "AVX3", ...).
const char* RooflineTarget();

}  // namespace bench
}  // namespace hostnn

#endif  // HOSTNN_BENCH_ROOFLINE_H_
