#!/usr/bin/env bash
# hostnn against oneDNN 3.2 on the speed issue's grid: every operator oneDNN has a primitive
# for (hostnn_bench_onednn's rows; of the norms LayerNorm, BatchNorm and their gradients) x
# dtype x size (4K, 256K, 4M, 64M; a norm's rows x row length; BatchNorm's [N, C, ...] shapes,
# bench::DefaultChannelShapes) x threads (1 and all
# cores), oneDNN, hostnn (both phases of a C API call) and the roofline run back to back on
# the same buffers, one process per operator; Google Benchmark's medians.
#   DNNL_DIR    a oneDNN prefix, or the folder both wheels are unpacked into; when unset,
#               onednn-cpu-gomp and onednn-devel-cpu-gomp 2023.2.0 (oneDNN 3.2, ~40 MB)
#               fetched once with `pip download --no-deps` into .whl/onednn and unpacked there
#   BUILD_DIR   the build tree to configure with HOSTNN_DNNL_DIR (default build-onednn)
#   OPS, DTYPES space-separated subsets (default: every operator the binary has; f32 bf16
#               f16; oneDNN 3.2 has no f16 eltwise without AVX512-FP16 and says so)
#   SIZES       a regex of shapes, e.g. 262144|67108864 (default: all, 4K to 64M; a norm's
#               rows x length, 4096x64|1024x1024, of bench::DefaultNormShapes; BatchNorm's
#               32x64x56x56|256x1024)
#   HOSTNN_BENCH_TARGET  AVX2 (or another target this build and CPU run): hostnn's SIMD target
#   OUT         a folder for one CSV per operator (default: none, the console only)
# Further arguments go to hostnn_bench_onednn (--benchmark_repetitions, --benchmark_min_time).
# Bench only: nothing of hostnn depends on oneDNN.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${BUILD_DIR:-build-onednn}
dnnl_dir=${DNNL_DIR:-}
if [ -z "$dnnl_dir" ]; then
  dnnl_dir=$PWD/.whl/onednn/unpacked
  if ! ls "$dnnl_dir"/*.data/data/lib/libdnnl.so >/dev/null 2>&1; then
    mkdir -p .whl/onednn
    python3 -m pip download --no-deps -d .whl/onednn onednn-cpu-gomp==2023.2.0 \
      onednn-devel-cpu-gomp==2023.2.0
    for w in .whl/onednn/onednn_*-2023.2.0-*.whl; do python3 -m zipfile -e "$w" "$dnnl_dir"; done
  fi
fi
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_DNNL_DIR="$dnnl_dir" >/dev/null
cmake --build "$build" -j2 --target hostnn_bench_onednn
bin="$build/bench/hostnn_bench_onednn"
echo "# $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs"
ops=${OPS:-$("$bin" --benchmark_list_tests | cut -d/ -f2 | uniq | sort -u)}
dtypes=${DTYPES:-f32 bf16 f16}
[ -n "${OUT:-}" ] && mkdir -p "$OUT"
for op in $ops; do
  out_args=()
  [ -n "${OUT:-}" ] && out_args=(--benchmark_out="$OUT/$op.csv" --benchmark_out_format=csv)
  "$bin" --benchmark_filter="^[a-z]+/$op/(${dtypes// /|})/${SIZES:+($SIZES)/}" \
    --benchmark_counters_tabular=true "${out_args[@]}" "$@"
done
