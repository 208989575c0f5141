#!/usr/bin/env bash
# The main job: installs what is missing, builds Release (clang++ + libomp unless CXX is
# set), runs the four examples, then a short thread-scaling table with hostnn-scale.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${HOSTNN_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_BUILD_TESTS=OFF
cmake --build "$build" -j2
for ex in silu_backward logsigmoid_backward hardsigmoid_backward logsoftmax_backward; do
  echo "== example: $ex"
  "$build/examples/example_$ex"
done
if [ -x "$build/tools/scale/hostnn-scale" ]; then
  echo "== thread scaling (hostnn-scale)"
  "$build/tools/scale/hostnn-scale" --csv "$build/scale.csv" --svg "$build/scale.svg"
  echo "CSV: $build/scale.csv  plot: $build/scale.svg"
fi
