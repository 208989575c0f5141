#!/usr/bin/env bash
# Reproduces the table in docs/performance.md: the speed issue's nine cases at 2 threads,
# each a median of samples interleaved with the roofline kernel over the same buffers,
# plus oneDNN (when hostnn_bench_onednn was built) and PyTorch (when python3 can import
# torch) on the same cases. Waits for the machine to be idle before each run (up to
# HOSTNN_TABLE_WAIT_S seconds, default 300): on a 2-core box one other busy process halves
# every 2-thread number.
#   usage: bench/table.sh [build-dir] [threads, e.g. 2 or 1,2]
set -euo pipefail
build=${1:-build}
threads=${2:-2}
scale="$build/tools/scale/hostnn-scale"
[ -x "$scale" ] || { echo "table.sh: $scale not built" >&2; exit 2; }

# Waits until the CPUs were at least 90% idle over one second, or the time is up.
wait_idle() {
  local tries=0
  while [ $tries -lt "${HOSTNN_TABLE_WAIT_S:-300}" ]; do
    read -r _ u1 n1 s1 i1 w1 q1 sq1 st1 _ < /proc/stat
    sleep 1
    read -r _ u2 n2 s2 i2 w2 q2 sq2 st2 _ < /proc/stat
    local busy=$(( (u2 + n2 + s2 + q2 + sq2 + st2) - (u1 + n1 + s1 + q1 + sq1 + st1) ))
    local idle=$(( (i2 + w2) - (i1 + w1) ))
    if [ $(( idle * 10 )) -ge $(( (busy + idle) * 9 )) ]; then return 0; fi
    tries=$((tries + 1))
  done
  echo "table.sh: not idle; measuring anyway (load $(cut -d' ' -f1-3 /proc/loadavg))" >&2
}

run() {
  wait_idle
  "$scale" --threads "$threads" --samples 21 "$@"
  echo
}

echo "== elementwise: rows 1-6 (64M: memory-bound; 256K: in cache)"
run --ops silu_backward,hardsigmoid_backward,logsigmoid_backward --dtypes f32,bf16,f16 \
    --sizes 256K,64M --no-call
echo "== LogSoftmaxBackward: rows 7-8 ([4096,1024] dim -1 and [1024,4096] dim 0)"
run --ops logsoftmax_backward --dtypes f32,bf16,f16 --sizes 4M --no-call
echo "== row 9: silu f32, 4096 elements, both phases of one C API call ('call us')"
run --ops silu_backward --dtypes f32 --sizes 4096
peer="$build/bench/hostnn_bench_onednn"
if [ -x "$peer" ]; then
  # oneDNN 2.6 has no f16/bf16 eltwise or logsoftmax backward without AVX-512 (the cases
  # are skipped with its message) and no hardsigmoid: f32 only here.
  echo "== oneDNN on the same cases, f32 (hostnn and the roofline beside it), medians of 5"
  wait_idle
  cases="(67108864|262144|4096x1024/dim-1|1024x4096/dim0)"
  "$peer" --benchmark_min_time=0.5 --benchmark_repetitions=5 \
    --benchmark_report_aggregates_only=true \
    --benchmark_filter="/f32/$cases/threads:(${threads//,/|})/" \
    2>/dev/null | grep -E "^Benchmark|_median"
fi
# PyTorch (ATen) on the same cases when python3 can import torch (Debian: python3-torch).
# Bench only, like oneDNN: nothing of hostnn depends on it.
# The python3 on PATH may not be the system one that python3-torch installs into.
for py in python3 /usr/bin/python3; do
  if "$py" -c "import torch" 2>/dev/null; then
    echo
    echo "== PyTorch on the same cases (out= overloads, preallocated outputs), medians of 11"
    wait_idle
    "$py" "$(dirname "$0")/torch_peer.py" --threads "$threads"
    break
  fi
done
