#!/usr/bin/env bash
# The test job: installs what is missing, builds with clang++ + libomp (and, with --gcc or
# HOSTNN_TEST_GCC=1, also with g++ + libgomp), and runs the whole ctest suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
jobs=2
run_suite() {  # name, then cmake args
  local build="build-test-$1"; shift
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_BUILD_BENCH=OFF "$@"
  cmake --build "$build" -j"$jobs"
  ctest --test-dir "$build" --output-on-failure -j"$jobs"
}
run_suite clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang
if [ "${1:-}" = "--gcc" ] || [ "${HOSTNN_TEST_GCC:-0}" = "1" ]; then
  run_suite gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc
fi
