#!/usr/bin/env bash
# hostnn against PyTorch 2.x's ATen on the speed issue's grid: every operator x dtype (f32,
# f16, bf16) x size (4K, 256K, 4M, 64M; the normalisation family rows x row length,
# --norm-shapes, default 4096x64 to 64x65536 and 8192x4096; BatchNorm whole [N, C, ...] shapes,
# --channel-shapes, default 32x64x56x56 to 256x1024) x threads (1, 2), both phases
# of a C API call per hostnn sample, medians of interleaved samples, ratio ATen / hostnn
# (target >= 1.25).
# Uses a PyTorch 2.x install's libtorch_cpu.so and libc10.so from C++ (hostnn_torch_peer):
#   TORCH_DIR   site-packages/torch of an install; when unset, a wheel fetched once with
#               `pip download --no-deps torch` into .whl/ and unpacked there (~540 MB)
#   BUILD_DIR   the build tree to configure with HOSTNN_TORCH_DIR (default build)
#   OPS, DTYPES space-separated subsets (default: every operator of the operator list,
#               `hostnn_torch_peer --list-ops`, f32 f16 bf16; an operator without an ATen
#               call in bench/torch_peer_calls.cc is skipped with a note; DTYPES=f64 runs
#               the operators hostnn computes in double (ComputesDouble in
#               hostnn/op.h) and LogSoftmax, and skips the others silently)
# HOSTNN_BENCH_TARGET=AVX2 forces hostnn's SIMD target.
# Further arguments go to hostnn_torch_peer (--sizes, --norm-shapes, --channel-shapes, --threads,
# --samples, --sample-ms,
# --param name=value for the operators with scalar parameters, --csv FILE). Bench only:
# nothing of hostnn depends on PyTorch.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build}
torch_dir=${TORCH_DIR:-}
if [ -z "$torch_dir" ]; then
  mkdir -p .whl
  wheel=$(ls .whl/torch-2*.whl 2>/dev/null | head -1 || true)
  if [ -z "$wheel" ]; then
    python3 -m pip download --no-deps -d .whl torch
    wheel=$(ls .whl/torch-2*.whl | head -1)
  fi
  if [ ! -f .whl/unpacked/torch/lib/libtorch_cpu.so ]; then
    python3 -m zipfile -e "$wheel" .whl/unpacked
  fi
  torch_dir=$PWD/.whl/unpacked/torch
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_TORCH_DIR="$torch_dir" >/dev/null
cmake --build "$build" -j2 --target hostnn_torch_peer
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; flags: $(grep -o -w -E 'avx2|fma|f16c|avx512f|avx512bw|avx512_bf16|avx512_fp16|avx512vl' /proc/cpuinfo | sort -u | tr '\n' ' ')"
# ATen's 16-bit LogSoftmax allocates a float temporary per call. Whether glibc serves it
# from the heap or maps fresh pages each time depends on its dynamic mmap threshold, which
# moves with the sizes this process happened to free before: the same case measured 0.5 or
# 5 ns per element from one run to the next. Fixing the thresholds where a warmed-up
# process settles (glibc's 32 MiB ceiling; trimming at twice that) times ATen's kernels,
# not the page faults; hostnn allocates nothing in phase 2 and is unaffected. One process
# per operator and dtype keeps each group's state its own as well.
export MALLOC_MMAP_THRESHOLD_=${MALLOC_MMAP_THRESHOLD_:-33554432}
export MALLOC_TRIM_THRESHOLD_=${MALLOC_TRIM_THRESHOLD_:-67108864}
ops=${OPS:-$("$build/bench/hostnn_torch_peer" --list-ops)}
dtypes=${DTYPES:-f32 f16 bf16}
csv=""
args=()
while [ $# -gt 0 ]; do
  if [ "$1" = "--csv" ]; then csv="$2"; shift 2; else args+=("$1"); shift; fi
done
[ -n "$csv" ] && : > "$csv"
first=1
for op in $ops; do
  for dt in $dtypes; do
    part=$(mktemp)
    "$build/bench/hostnn_torch_peer" --ops "$op" --dtypes "$dt" --csv "$part" "${args[@]}" |
      { if [ $first = 1 ]; then cat; else grep -v -E '^(# hostnn target|# --param|op )'; fi; }
    if [ -n "$csv" ]; then
      if [ $first = 1 ]; then cat "$part" >> "$csv"; else tail -n +2 "$part" >> "$csv"; fi
    fi
    rm -f "$part"
    first=0
  done
done
