#!/usr/bin/env bash
# The test job: installs what is missing, builds with clang++ + libomp and runs the whole
# ctest suite. Options (any order):
#   --gcc        also build and test with g++ + libgomp (the kernels for this machine's
#                best SIMD target and EMU128)
#   --sanitize   also run the suite under clang ASan + UBSan (all but the value sweeps,
#                which the plain builds run) and the concurrency tests (streams, stress)
#                under TSan; everything but the kernel units is instrumented (built for
#                this machine's best SIMD target and EMU128 only)
#   --fuzz N     also run each libFuzzer target (the operators, the JSON readers) for N
#                seconds from its committed corpus, with the library instrumented for coverage
set -euo pipefail
cd "$(dirname "$0")/.."
gcc=0 sanitize=0 fuzz=0
while [ $# -gt 0 ]; do
  case "$1" in
    --gcc) gcc=1 ;;
    --sanitize) sanitize=1 ;;
    --fuzz) fuzz="$2"; shift ;;
    *) echo "unknown option $1" >&2; exit 2 ;;
  esac
  shift
done
[ "${HOSTNN_TEST_GCC:-0}" = "1" ] && gcc=1
bash scripts/deps.sh
[ "$sanitize$fuzz" != "00" ] && bash scripts/deps.sh libclang-rt-14-dev

configure() {  # build dir, then cmake args
  local build="$1"; shift
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DHOSTNN_BUILD_BENCH=OFF "$@" >/dev/null
}
# Each section's heading says how long the job has run: where a slow CI run spent its time.
section() { echo; echo "==== $* ==== (at ${SECONDS} s)"; }
# The sanitizer builds keep line tables only (what their reports print), not full debug
# information: objects a third smaller (checks_test.cc under ASan + UBSan: 2.7 MB against
# 4.1 MB), at the same compile time (26 s against 23 s on a 2-core Cascade Lake).
sanitizer_flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG"
  "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -gline-tables-only -DNDEBUG")
# ctest over a build dir (more ctest arguments follow). On failure the failed tests run
# once more with their output, so that it ends the log (a CI log is often read from its
# tail), and whether they fail again tells a flaky test from a broken one.
run_ctest() {
  local build="$1" rc=0; shift
  ctest --test-dir "$build" --output-on-failure "$@" && return 0 || rc=$?
  section "failed in $build: the failed tests once more"
  ctest --test-dir "$build" --rerun-failed --output-on-failure 2>&1 | tail -200 || true
  echo "ctest failed in $build (exit $rc)"
  return "$rc"
}

section "clang++ + libomp"
configure build-test-clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang
cmake --build build-test-clang -j2
run_ctest build-test-clang -j2

if [ "$gcc" = 1 ]; then
  # g++ compiles the kernels for this machine's best SIMD target and EMU128 only
  # (HOSTNN_HWY_BEST_ONLY): the clang build above runs every target, and this one checks
  # what the compiler and libgomp change. For every target the kernel units were about 450
  # of g++'s 1,320 CPU-seconds of compile (one core of a Zen 5); this halves them.
  section "g++ + libgomp"
  configure build-test-gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_C_COMPILER=gcc \
    -DHOSTNN_HWY_BEST_ONLY=ON
  cmake --build build-test-gcc -j2
  run_ctest build-test-gcc -j2
fi

if [ "$sanitize" = 1 ] || [ "$fuzz" != 0 ]; then
  section "clang ASan + UBSan: the suite but the value sweeps"
  configure build-test-asan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DHOSTNN_SANITIZE=address,undefined -DHOSTNN_BUILD_FUZZ=ON -DHOSTNN_BUILD_TOOLS=OFF \
    -DHOSTNN_BUILD_EXAMPLES=OFF -DHOSTNN_HWY_BEST_ONLY=ON "${sanitizer_flags[@]}"
  cmake --build build-test-asan -j2
  if [ "$sanitize" = 1 ]; then
    # Every test but the value sweeps (every 16-bit input, every shape, tail length,
    # template, thread count and target of every operator): they take the paths the other
    # tests take, over more values, and spend their time in the kernels, which are not
    # instrumented. Under the sanitizers they were 1,200 of the suite's 2,000 CPU-seconds;
    # the plain builds above run them all.
    sweeps="DenseSweep|WholeRange|EveryShapeOnEveryTarget|Exhaustive16Bit|PrecisionReport"
    sweeps+="|AcrossThreadsCoresAndPlatforms|SameBitsForAnyThreadCountAndTarget"
    sweeps+="|EveryTailLengthOnEveryTarget|EveryTemplateOnEveryTarget"
    sweeps+="|EveryDTypePairOnEveryTemplateAndTarget"
    # And the two 1.2-million-element overlap cases of each C API signature: their
    # decision is the front end's (run here by LargeOutputWhoseElementsOverlapIsInvalid),
    # their time the instrumented gather of 600,000 rows of two (270 of the 850
    # CPU-seconds here).
    sweeps+="|LargeInputInterleavedWithTheOutputIsDecidedExactly"
    sweeps+="|LargeOutputWithInterleavedButDistinctElementsIsAccepted"
    # And loss_error_table, which runs the loss suites again to merge their error rows.
    sweeps+="|loss_error_table"
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 HOSTNN_STRESS_SECONDS=5 \
      LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
      run_ctest build-test-asan -j2 -E "seed_samples|consumer|install|$sweeps"
  fi
  if [ "$fuzz" != 0 ]; then
    # One target from a copy of its committed corpus (new inputs land in the copy), printing
    # libFuzzer's progress and final stats (executions, "cov:" coverage); a crash fails the job
    # and prints the sanitizer's report line and the input in base64 (for tests/fuzz/regressions).
    run_fuzzer() {  # target, corpus folder, then more libFuzzer arguments
      local target="$1" corpus="$2" work; shift 2
      section "libFuzzer: $target for $fuzz s"
      work=$(mktemp -d)
      cp "$corpus"/* "$work"/
      LSAN_OPTIONS="suppressions=$PWD/tests/lsan.supp" \
        build-test-asan/tests/fuzz/"$target" -max_total_time="$fuzz" -timeout=20 \
        -print_final_stats=1 "$work" "$@" 2>&1 |
        grep -E "^(#|stat::|INFO: (Running|Seed|Loaded))|ERROR|SUMMARY|runtime error|^Base64" |
        tail -24
      rm -rf "$work"
    }
    run_fuzzer fuzz_ops tests/fuzz/corpus tests/fuzz/regressions
    run_fuzzer fuzz_json tests/fuzz/corpus_json -dict=tests/fuzz/json.dict
  fi
fi

if [ "$sanitize" = 1 ]; then
  section "clang TSan: concurrency tests"
  # The kernel units are not instrumented: the ASan build's objects are this build's too.
  configure build-test-tsan -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
    -DHOSTNN_SANITIZE=thread -DHOSTNN_BUILD_TOOLS=OFF -DHOSTNN_BUILD_EXAMPLES=OFF \
    -DHOSTNN_HWY_BEST_ONLY=ON "${sanitizer_flags[@]}" -DHOSTNN_KERNELS_FROM="$PWD/build-test-asan"
  cmake --build build-test-tsan -j2 --target stress_test runtime_test plan_cache_test
  # libomp is not TSan-instrumented: one OpenMP thread keeps its internals out of the
  # report, while hostnn's own threads (streams, callers) stay concurrent.
  OMP_NUM_THREADS=1 HOSTNN_STRESS_SECONDS=5 TSAN_OPTIONS=halt_on_error=1 \
    run_ctest build-test-tsan -R "Stress|Stream|ErrorMessages|PhaseTwo|ConcurrentRuns|Init"
fi
section "done"
