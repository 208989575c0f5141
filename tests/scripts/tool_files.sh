#!/usr/bin/env bash
# hostnn-tiling given hostile platform and tuning files (a number too large for a double, a
# path that is not UTF-8): a refusal that names the file, the entry and the key, exit 1; never
# an abort. Arguments: the hostnn-tiling binary, a work folder.
set -u
tool="$1" work="$2"
rm -rf "$work" && mkdir -p "$work" || exit 1
failed=0
expect() {  # exit code, text the output must hold, then the command
  local code="$1" text="$2" out rc
  shift 2
  out=$("$@" 2>&1)
  rc=$?
  if [ "$rc" != "$code" ] || [[ "$out" != *"$text"* ]]; then
    echo "FAIL: exit $rc, expected $code with '$text': $*"
    echo "$out" | head -5
    failed=1
  else
    echo "ok (exit $rc): $*"
  fi
}
problem=(--op silu_backward --dtype f32 --shape 1024)

u1="$work/u1.json"
printf '%s' '{"platforms": [{"name": "u1", "cores": 99999999999999999999, "ub_bytes": 1e400}]}' >"$u1"
overflow="$u1: platforms[0]: \"ub_bytes\": number overflow parsing '1e400'"
expect 1 "HOSTNN_PLATFORM: $overflow" env HOSTNN_PLATFORM=u1 HOSTNN_PLATFORM_FILE="$u1" \
  "$tool" plan "${problem[@]}"
expect 1 "$overflow" "$tool" plan "${problem[@]}" --platform u1 --platform-file "$u1"
expect 1 "$overflow" "$tool" check "${problem[@]}" --platform-file "$u1"
expect 1 "$overflow" "$tool" platforms --platform-file "$u1"

tuning="$work/tuning.json"
printf '%s' '{"entries": [{"op": "*", "dtype": "*", "size_class": "*", "num_cores": 2,
  "measured_us": -1e999}]}' >"$tuning"
expect 1 "$tuning: entries[0]: \"measured_us\": number overflow parsing '-1e999'" \
  "$tool" plan "${problem[@]}" --tuning-file "$tuning"

# A folder whose name holds the byte 0xff: the path goes into the plan's JSON as U+FFFD.
dir="$work/bad"$'\xff'
mkdir -p "$dir"
printf '%s' '{"name": "u2", "cores": 2, "ub_bytes": 65536}' >"$dir/ok.json"
expect 0 $'bad\xef\xbf\xbd/ok.json' "$tool" plan "${problem[@]}" --json --platform u2 \
  --platform-file "$dir/ok.json"

rm -rf "$work"
exit "$failed"
