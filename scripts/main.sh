#!/usr/bin/env bash
# The main job: installs what is missing, builds Release (clang++ + libomp unless CXX is
# set), runs the examples (one per operator), then the CANN drop-in (the install's CANN-shaped tree used
# from `env -i` + set_env.sh: examples/cann_project building the seed samples unchanged,
# and the ctypes example), then a short thread-scaling table with hostnn-scale.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${HOSTNN_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_BUILD_TESTS=OFF
cmake --build "$build" -j2
for ex in $(bash scripts/op_list.sh snake); do  # an example per operator that has one
  [ -x "$build/examples/example_$ex" ] || continue
  echo "== example: $ex"
  "$build/examples/example_$ex"
done

# The CANN drop-in: install, then build and run as a CANN user would, in a clean
# environment holding only what set_env.sh exports.
out=$(cd "$build" && pwd -P)
prefix="$out/cann-prefix"
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
clean() { env -i bash -c "source '$prefix/set_env.sh' && $1"; }
seeds=${HOSTNN_SEEDS_DIR:-$PWD/../shared/seeds}
if [ -d "$seeds" ] && [ -e "$prefix/lib64/libascendcl.so" ]; then
  echo "== CANN project (examples/cann_project): env -i bash; source $prefix/set_env.sh; cmake; make"
  python3 tests/scripts/seed_samples.py --seeds "$seeds" --extract "$out/cann-samples" >/dev/null
  clean "cmake -S '$PWD/examples/cann_project' -B '$out/cann-project' \
           -DSAMPLES_DIR='$out/cann-samples' >/dev/null && cmake --build '$out/cann-project' >/dev/null"
  for sample in "$out"/cann-samples/test_aclnn_*.cpp; do
    name=$(basename "$sample" .cpp)
    echo "-- $name"
    clean "'$out/cann-project/$name'"
  done
else
  echo "== CANN project: skipped (no seed documents at $seeds, or a static build)"
fi
if [ -e "$prefix/lib64/libascendcl.so" ]; then
  echo "== ctypes (examples/cann_project/silu_backward_ctypes.py): env -i bash; source set_env.sh; python3"
  clean "python3 '$PWD/examples/cann_project/silu_backward_ctypes.py'"
fi

if [ -x "$build/tools/scale/hostnn-scale" ]; then
  echo "== thread scaling (hostnn-scale)"
  "$build/tools/scale/hostnn-scale" --csv "$build/scale.csv" --svg "$build/scale.svg"
  echo "CSV: $build/scale.csv  plot: $build/scale.svg"
fi
