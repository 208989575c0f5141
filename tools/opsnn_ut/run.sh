#!/usr/bin/env bash
# Runs ops-nn's own op_api unit tests of the activation family (and of the other families
# OPSNN_UT_FAMILIES names) against hostnn's C API.
#
#   tools/opsnn_ut/run.sh OPS_NN_PATH [HOSTNN_BUILD_DIR]
#
# OPS_NN_PATH is an ops-nn checkout; HOSTNN_BUILD_DIR (default: build, relative to the
# current directory or else to the repository root) a built hostnn (its lib64/libopapi.so).
# Every test file is compiled, linked and run on its own. A file that does not compile, or
# needs more than missing aclnn entry points to link, is reported "not built" and the others
# still run; a file missing only aclnn entry points is linked with stubs for them, and its
# cases that call one are counted as "miss", not as failures. Prints one row per test file,
# then every failing case with its gtest failure line and the message hostnn recorded.
# Exit status: 0 every case that ran passed, 1 a case failed or a test binary crashed, 2 the
# harness itself could not be built, 77 no checkout given (skipped).
#
# Environment: CXX (default clang++, else g++), OPSNN_UT_JOBS (parallel builds, default 2),
# OPSNN_UT_WORK (work directory, default HOSTNN_BUILD_DIR/opsnn_ut), OPSNN_UT_TIMEOUT
# (seconds per test binary, default 600), OPSNN_UT_FILTER (a regex on the test files'
# paths: only those run), OPSNN_UT_FAMILIES (the ops-nn folders whose operators' tests run,
# space-separated, default "activation"; "activation norm" adds the normalisations),
# HOSTNN_PLATFORM (default atlas-a2), OPSNN_UT_STORAGE=1 (give
# the tensors the framework creates without data a host buffer; by default NULL passes
# through, as CANN receives it).
set -euo pipefail
export LC_ALL=C  # plain quotes in compiler messages, byte order in sorts

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo=$(cd "$here/../.." && pwd)

ops=${1:-}
if [[ -z "$ops" || ! -d "$ops/activation" ]]; then
  echo "skipped: no ops-nn checkout given"
  exit 77
fi
ops=$(cd "$ops" && pwd)

build=${2:-build}
if [[ "$build" != /* ]]; then
  if [[ -d "$PWD/$build" ]]; then build="$PWD/$build"; else build="$repo/$build"; fi
fi
libdir=""
for d in "$build/lib64" "$build"; do
  if [[ -f "$d/libopapi.so" ]]; then libdir=$(cd "$d" && pwd); break; fi
done
if [[ -z "$libdir" ]]; then
  echo "opsnn_ut: no libopapi.so under $build/lib64 or $build: build hostnn first" >&2
  exit 2
fi

fw="$ops/tests/ut/op_api/op_api_ut_common"
if [[ ! -d "$fw/src" || ! -d "$fw/inc" ]]; then
  echo "opsnn_ut: $fw (the op_api test framework) is missing from the checkout" >&2
  exit 2
fi

if [[ -z "${CXX:-}" ]]; then
  if command -v clang++ > /dev/null; then CXX=clang++; else CXX=g++; fi
fi
cxx=("$CXX")
if command -v ccache > /dev/null; then cxx=(ccache "$CXX"); fi
jobs=${OPSNN_UT_JOBS:-2}
timeout_s=${OPSNN_UT_TIMEOUT:-600}
export HOSTNN_PLATFORM=${HOSTNN_PLATFORM:-atlas-a2}

work=${OPSNN_UT_WORK:-$build/opsnn_ut}
if [[ -d "$work" && ! -f "$work/.opsnn_ut" && -n "$(ls -A "$work")" ]]; then
  echo "opsnn_ut: $work is not empty and not a work directory of this harness" >&2
  exit 2
fi
rm -rf "$work"
mkdir -p "$work/gen" "$work/obj" "$work/bin" "$work/res" "$work/run"
touch "$work/.opsnn_ut"

# The test files: op_api tests of every operator of the families, in path order (some
# operators keep theirs in tests/ut/op_host/, named test_aclnn_*: EmbeddingDenseBackward).
families=${OPSNN_UT_FAMILIES:-activation}
globs=()
for family in $families; do
  globs+=("$family/*/tests/ut/op_api/test_*.cpp" "$family/*/tests/ut/op_host/op_api/test_*.cpp"
          "$family/*/tests/ut/op_host/test_aclnn_*.cpp")
done
mapfile -t tests < <(cd "$ops" && ls ${globs[@]} 2> /dev/null | sort)
if [[ -n "${OPSNN_UT_FILTER:-}" ]]; then
  mapfile -t tests < <(printf '%s\n' "${tests[@]}" | grep -E -- "$OPSNN_UT_FILTER" || true)
fi
if [[ ${#tests[@]} -eq 0 ]]; then
  echo "opsnn_ut: no op_api test files of $families in $ops" >&2
  exit 2
fi

# A header a test includes that is not where the include says (CANN's installed
# level2/aclnn_*.h, or a path relative to another layout): a forwarder, found by the name,
# to the checkout's header of the test's operator, else any operator's in the checkout,
# else hostnn's, else an empty header. The forwarders sit where the include resolves from the include directory
# <work>/gen/<file>/1/2/3/4 (level2/x.h there, ../../../op_host/op_api/x.h at 1/...).
find_header() {
  local name=$1 opdir=$2 d hit
  for d in "$ops/$opdir/op_api" "$ops/$opdir/op_host/op_api"; do
    if [[ -f "$d/$name" ]]; then echo "$d/$name"; return 0; fi
  done
  hit=$(cd "$ops" && find . -path ./tests -prune -o -path "*/op_api/$name" -print 2> /dev/null \
    | sort | head -n 1)
  if [[ -n "$hit" ]]; then echo "$ops/${hit#./}"; return 0; fi
  if [[ -f "$repo/include/aclnnop/$name" ]]; then echo "$repo/include/aclnnop/$name"; fi
}

forward_headers() {
  local rel=$1 g=$2 dir inc target at
  dir=$(dirname "$ops/$rel")
  mkdir -p "$g/1/2/3/4"
  while read -r inc; do
    [[ -n "$inc" && ! -f "$dir/$inc" ]] || continue
    target=$(find_header "${inc##*/}" "${rel%%/tests/*}")
    at=$(realpath -m "$g/1/2/3/4/$inc")
    [[ "$at" == "$g"/* ]] || continue
    mkdir -p "$(dirname "$at")"
    if [[ -n "$target" ]]; then
      printf '#include "%s"\n' "$target" > "$at"
    else
      # Found nowhere: empty, so only a use of what it declares stops the build.
      echo "// ${inc##*/}: neither the checkout nor hostnn has this header." > "$at"
    fi
  done < <(sed -nE 's/^[[:space:]]*#[[:space:]]*include[[:space:]]+"([^"]*aclnn_[A-Za-z0-9_]*\.h)".*/\1/p' \
    "$ops/$rel")
}

# Every hostnn operator header, included ahead of each test file: an operator whose
# declaration in ops-nn differs from hostnn's fails to compile (signature differs).
{
  echo "// Generated by tools/opsnn_ut/run.sh: every hostnn operator header."
  for h in "$repo"/include/aclnnop/*.h; do printf '#include "aclnnop/%s"\n' "${h##*/}"; done
} > "$work/gen/hostnn_aclnnop_all.h"

# The checkout's common/inc last: its plain constants (op_api/op_api_def_nn.h, which some test
# files include) where nothing ahead of it has the header.
flags=(-std=c++17 -O0 -g0 -w -pthread -fno-access-control
  -I"$here/shim/include" -I"$work/gen" -I"$repo/include" -I"$fw/inc" -I"$ops/common/inc")
ldflags=(-pthread -L"$libdir" -Wl,-rpath,"$libdir" -lopapi -lnnopbase -lascendcl -lgtest)

# The framework: the checkout's op_api_ut_common sources (its array_desc.cpp builds CANN's
# C++ arrays, replaced by the shim's), and the shim's sources (platform query, tensor
# storage, the gtest main).
common_src=()
for f in "$fw"/src/*.cpp "$fw"/src/inner/*.cpp; do
  [[ "${f##*/}" == array_desc.cpp ]] || common_src+=("$f")
done
common_src+=("$here"/shim/src/*.cpp)
common_objs=()
for f in "${common_src[@]}"; do
  o="$work/obj/common_$(basename "$(dirname "$f")")_$(basename "${f%.cpp}").o"
  if ! "${cxx[@]}" "${flags[@]}" -c "$f" -o "$o" > "$work/obj/common.log" 2>&1; then
    echo "opsnn_ut: the test framework does not build: $f" >&2
    head -n 30 "$work/obj/common.log" >&2
    exit 2
  fi
  common_objs+=("$o")
done
ar rcs "$work/obj/libopsnn_ut_common.a" "${common_objs[@]}"

# The operators hostnn declares, and those a test file calls (OP_API_UT's first argument).
grep -ohE "aclnn[A-Za-z0-9_]+GetWorkspaceSize" "$repo"/include/aclnnop/*.h \
  | sed 's/GetWorkspaceSize$//' | sort -u > "$work/hostnn_ops.txt"
lacking_ops() {
  tr '\n' ' ' < "$1" | grep -oE "OP_API_UT\([[:space:]]*aclnn[A-Za-z0-9_]+" \
    | grep -oE "aclnn[A-Za-z0-9_]+" | sort -u | comm -23 - "$work/hostnn_ops.txt" \
    | tr '\n' ' ' || true
}

# Builds and runs one test file; leaves <id>.state (ran | not built), .reason, .out.
build_and_run() {
  local rel=$1 id=$2
  local src="$ops/$rel" obj="$work/obj/$id.o" bin="$work/bin/$id" res="$work/res/$id"
  forward_headers "$rel" "$work/gen/$id"
  if ! "${cxx[@]}" "${flags[@]}" -I"$work/gen/$id/1/2/3/4" -include hostnn_aclnnop_all.h \
    -c "$src" -o "$obj" > "$res.build" 2>&1; then
    echo "not built" > "$res.state"
    echo "$(compile_reason "$res.build")$(lacks "$src")" > "$res.reason"
    return 0
  fi
  if ! "${cxx[@]}" -o "$bin" "$obj" "$work/obj/libopsnn_ut_common.a" "${ldflags[@]}" \
    > "$res.link" 2>&1; then
    cat "$res.link" >> "$res.build"
    # Only aclnn entry points missing: link stubs for them (each reports its call and
    # returns 561000), so the file's other cases run; the cases that call one are counted
    # as "miss". Anything else missing: not built.
    local missing others
    missing=$(undefined_symbols "$res.link")
    others=$(printf '%s\n' $missing | grep -v '^aclnn' || true)
    if [[ -z "$missing" || -n "$others" ]] || ! link_with_stubs "$id" "$missing" "$obj" "$bin" \
      >> "$res.build" 2>&1; then
      echo "not built" > "$res.state"
      echo "$(link_reason "$res.build")$(lacks "$src")" > "$res.reason"
      return 0
    fi
    echo "$missing" | grep -v 'GetWorkspaceSize$' | tr '\n' ' ' | sed 's/ $//' > "$res.stubs"
  fi
  local rc=0
  (cd "$work/run" && timeout "$timeout_s" "$bin") > "$res.out" 2>&1 || rc=$?
  echo "ran" > "$res.state"
  echo "$rc" > "$res.rc"
}

# " (hostnn has no aclnnX, ...)" when the file calls operators hostnn does not declare.
lacks() {
  local l
  l=$(lacking_ops "$1")
  if [[ -n "$l" ]]; then echo " (hostnn has no ${l% })"; fi
}

# The first compiler error, shortened; aclnn names it leaves undeclared, when that is why.
compile_reason() {
  local log=$1 missing conflict
  missing=$(grep -E "(use of undeclared identifier|was not declared in this scope)" "$log" \
    | sed -nE "s/^[^']*'(aclnn[A-Za-z0-9_]+)'.*/\1/p" | sed 's/GetWorkspaceSize$//' | sort -u \
    | tr '\n' ' ' || true)
  conflict=$(grep -E "conflicting (types|declaration)" "$log" \
    | grep -oE "[' ]aclnn[A-Za-z0-9_]+['(]" | tr -d "'( " | sort -u | tr '\n' ' ' || true)
  if [[ -n "$conflict" ]]; then
    echo "signature differs from hostnn's: ${conflict% }"
  elif grep -qE "fatal error: .*(aclnn|level2)[^ ]*\.h.* (file not found|No such file)" "$log"; then
    echo "header missing: $(grep -oE "[A-Za-z0-9_/.]*aclnn[A-Za-z0-9_]*\.h" "$log" | head -n 1)"
  elif [[ -n "$missing" ]]; then
    echo "undeclared (no header of the checkout or hostnn declares it): ${missing% }"
  else
    grep -m 1 -E "(error|Error):" "$log" | sed -E 's|^.*/([^/]+:[0-9]+:[0-9]+:)|\1|' | cut -c 1-160
  fi
}

# The undefined symbols a link reports, one a line.
undefined_symbols() {
  grep -oE "(undefined reference to .|undefined symbol: )[A-Za-z0-9_]+" "$1" \
    | grep -oE "[A-Za-z0-9_]+$" | sort -u || true
}

# Links $bin again with a stub for each of the names in $2.
link_with_stubs() {
  local id=$1 names=$2 obj=$3 bin=$4 stub="$work/obj/$id.stubs.cpp" n
  {
    echo "// Generated by tools/opsnn_ut/run.sh: entry points hostnn does not have."
    echo 'extern "C" void OpsnnUtStubCalled(const char* name);'
    for n in $names; do
      printf 'extern "C" int %s(...) { OpsnnUtStubCalled("%s"); return 561000; }\n' "$n" \
        "${n%GetWorkspaceSize}"
    done
  } > "$stub"
  "${cxx[@]}" -std=c++17 -w -c "$stub" -o "${stub%.cpp}.o" &&
    "${cxx[@]}" -o "$bin" "$obj" "${stub%.cpp}.o" "$work/obj/libopsnn_ut_common.a" "${ldflags[@]}"
}

# Undefined entry points, else the first linker error.
link_reason() {
  local log=$1 missing
  missing=$(undefined_symbols "$log" | tr '\n' ' ')
  if [[ -n "$missing" ]]; then
    echo "undefined at link: ${missing% }"
  else
    grep -m 1 -E "error" "$log" | cut -c 1-160
  fi
}

# Build and run every file, $jobs at a time.
ids=()
for rel in "${tests[@]}"; do
  id=$(echo "${rel%.cpp}" | tr '/' '_')
  ids+=("$id")
  while [[ $(jobs -rp | wc -l) -ge $jobs ]]; do wait -n || true; done
  build_and_run "$rel" "$id" &
done
wait

# Counts from a gtest log: cases, passed, failed, calling a stub, and the case that was
# running at a crash ("-" when none). The shim reports a stub call before gtest's OK or
# FAILED line of the case (gtest ends a case in its listeners' reverse order).
count_cases() {
  awk '
    /^\[ RUN      \] / { run++; cur = $4; stubbed = 0 }
    /^\[       OK \] / { if (stubbed) miss++; else ok++; cur = ""; stubbed = 0 }
    /^\[  FAILED  \] .*\([0-9]+ ms\)$/ { if (stubbed) miss++; else bad++; cur = ""; stubbed = 0 }
    /^opsnn_ut: entry point missing: / { if (cur != "") stubbed = 1 }
    END { printf "%d %d %d %d %s\n", run, ok, bad, miss, (cur == "" ? "-" : cur) }' "$1"
}

# Failing cases from a gtest log: "case<TAB>location<TAB>failure text<TAB>hostnn message".
failures() {
  awk '
    function flush() {
      if (loc != "") { gsub(/  +/, " ", text); printf "%s\t%s\t%s\t%s\n", cur, loc, text, msg }
      loc = ""; text = ""; msg = ""; grab = 0
    }
    /^\[ RUN      \] / { flush(); cur = $4; next }
    /: Failure$/ { flush(); loc = $0; sub(/: Failure$/, "", loc); sub(/^.*\//, "", loc); grab = 1; next }
    /^hostnn: entry point missing: / { loc = ""; flush(); next }
    /^hostnn: / { if (grab) { msg = substr($0, 9); flush() } next }
    /^\[/ { flush(); next }
    grab { t = $0; sub(/^ +/, "", t); text = (text == "" ? t : text " " t) }
    END { flush() }' "$1"
}

total_run=0 total_ok=0 total_bad=0 total_miss=0 not_built=0 crashed=0
row() { printf '%-80s %5s %5s %5s %5s  %s\n' "$@"; }
row "test file" cases pass fail miss note
for i in "${!tests[@]}"; do
  rel=${tests[$i]} res="$work/res/${ids[$i]}"
  state=$(cat "$res.state" 2> /dev/null || echo "not built")
  if [[ "$state" != ran ]]; then
    not_built=$((not_built + 1))
    row "$rel" - - - - "not built: $(cat "$res.reason" 2> /dev/null)"
    continue
  fi
  read -r n ok bad miss cur < <(count_cases "$res.out")
  rc=$(cat "$res.rc")
  note=""
  if [[ -f "$res.stubs" ]]; then note="stubbed (hostnn has no $(cat "$res.stubs"))"; fi
  if [[ $((ok + bad + miss)) -lt $n || $rc -gt 1 ]]; then
    crashed=$((crashed + 1))
    note="crashed (exit $rc) in $cur${note:+; $note}"
  fi
  total_run=$((total_run + n)) total_ok=$((total_ok + ok)) total_bad=$((total_bad + bad))
  total_miss=$((total_miss + miss))
  row "$rel" "$n" "$ok" "$bad" "$miss" "$note"
done
row "total (${#tests[@]} files, $not_built not built)" "$total_run" "$total_ok" "$total_bad" \
  "$total_miss" "$([[ $crashed -gt 0 ]] && echo "$crashed crashed")"
echo "(miss: cases that call an operator hostnn does not have, through a stub)"

if [[ $total_bad -gt 0 ]]; then
  echo
  echo "failing cases (file, case, failure line | what hostnn recorded):"
  for i in "${!tests[@]}"; do
    res="$work/res/${ids[$i]}"
    [[ -f "$res.out" ]] || continue
    while IFS=$'\t' read -r case loc text msg; do
      echo "${tests[$i]}  $case"
      echo "    $loc: $text"
      echo "    hostnn: $msg"
    done < <(failures "$res.out")
  done
fi
echo
echo "logs: $work/res (<file>.build: compiler and linker output, <file>.out: the test run)"

if [[ $total_bad -gt 0 || $crashed -gt 0 ]]; then exit 1; fi
exit 0
