#!/usr/bin/env bash
# ctest install_cann_*: the CANN-shaped tree of the install (README "Already have a CANN
# project?"), used as a CANN user uses CANN: everything runs in `env -i bash` holding only
# what <prefix>/set_env.sh exports.
#   set_env      set_env.sh in bash and dash: its five variables, idempotent, relocatable
#   exports      nm -D --defined-only of each lib64 library: exactly CANN's share of the API
#   one_runtime  the libraries dlopen'ed RTLD_LOCAL in several orders share one runtime
#   ctypes       examples/cann_project/silu_backward_ctypes.py
# Exit 77 (skipped) for the library checks of a static build, which installs no lib64.
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: cann_tree.sh MODE PREFIX WORK_DIR SHARED(ON|OFF) SOURCE_DIR" >&2
  exit 2
fi
mode=$1 prefix=$2 work=$3 shared=$4 src=$5
case "$shared" in ON | on | 1 | TRUE | true | YES | yes) shared=1 ;; *) shared=0 ;; esac
if [ "$mode" != set_env ] && [ "$shared" = 0 ]; then
  echo "static build: no CANN libraries are installed (README); skipped"
  exit 77
fi
rm -rf "$work"
mkdir -p "$work"
clean() { env -i bash -c "source '$prefix/set_env.sh' && $1"; }
fail() {
  echo "FAIL: $*"
  exit 1
}

case "$mode" in
  set_env)
    want="ASCEND_HOME_PATH=$prefix ASCEND_OPP_PATH=$prefix/opp ASCEND_TOOLKIT_HOME=$prefix LD_LIBRARY_PATH=$prefix/lib64 PATH=$prefix/bin:..."
    for sh in bash sh dash; do
      command -v "$sh" >/dev/null || continue
      # Sourced twice, from another directory, by a relative and an absolute path.
      got=$(cd "$work" && env -i "$(command -v "$sh")" -c \
        ". '$prefix/set_env.sh' && cd '$prefix' && . ./set_env.sh && env" |
        grep -E '^(ASCEND_|LD_LIBRARY_PATH=|PATH=)' | sed "s|^PATH=$prefix/bin:.*|PATH=$prefix/bin:...|" |
        sort | tr '\n' ' ')
      echo "$sh: $got"
      [ "$got" = "$want " ] || fail "$sh: expected $want"
    done
    # An existing LD_LIBRARY_PATH is kept behind lib64, and a moved tree follows itself.
    cp -r "$prefix" "$work/moved"
    got=$(env -i LD_LIBRARY_PATH=/opt/other PATH=/usr/bin:/bin bash -c \
      "source '$work/moved/set_env.sh'; source '$work/moved/set_env.sh'; echo \$ASCEND_HOME_PATH \$LD_LIBRARY_PATH \$PATH")
    echo "moved: $got"
    [ "$got" = "$work/moved $work/moved/lib64:/opt/other $work/moved/bin:/usr/bin:/bin" ] ||
      fail "moved tree: $got"
    # Under `set -eu` it neither trips nor leaves its helper variables behind.
    env -i bash -c "set -eu; source '$prefix/set_env.sh'; [ -z \"\${hostnn_root:-}\" ]" ||
      fail "set_env.sh under set -eu"
    ;;

  exports)
    # What each library must define, and nothing else (CANN's split of the API).
    declare -A want
    want[ascendcl]="aclFinalize aclFloat16ToFloat aclFloatToFloat16 aclGetRecentErrMsg aclInit aclrtCreateStream aclrtDestroyStream aclrtFree aclrtFreeHost aclrtGetDeviceCount aclrtGetSocName aclrtMalloc aclrtMallocHost aclrtMemcpy aclrtMemcpyAsync aclrtMemset aclrtResetDevice aclrtSetDevice aclrtSynchronizeStream"
    want[nnopbase]="aclCreateBoolArray aclCreateFloatArray aclCreateIntArray aclCreateScalar aclCreateTensor aclCreateTensorList aclDestroyAclOpExecutor aclDestroyBoolArray aclDestroyFloatArray aclDestroyIntArray aclDestroyScalar aclDestroyTensor aclDestroyTensorList aclGetBoolArraySize aclGetDataType aclGetFloatArraySize aclGetFormat aclGetIntArraySize aclGetRecentErrMsg aclGetStorageShape aclGetTensorListSize aclGetViewOffset aclGetViewShape aclGetViewStrides aclSetAclOpExecutorRepeatable"
    ops=""  # every operator of the list: its two entry points
    for name in $(bash "$src/scripts/op_list.sh" name); do
      ops="$ops aclnn$name aclnn${name}GetWorkspaceSize"
    done
    # and the entry points written by hand over two of them (src/aclnn/c_api_gelu_v2.cc)
    ops="$ops aclnnGeluV2 aclnnGeluV2GetWorkspaceSize"
    ops="$ops aclnnGeluBackwardV2 aclnnGeluBackwardV2GetWorkspaceSize"
    want[opapi]=$ops
    want[opapi_nn]=$ops
    want[opapi_math]=""
    for lib in ascendcl nnopbase opapi opapi_nn opapi_math; do
      so="$prefix/lib64/lib$lib.so"
      [ -f "$so" ] || fail "$so missing"
      soname=$(objdump -p "$so" | awk '$1 == "SONAME" {print $2}')
      [ "$soname" = "lib$lib.so" ] || fail "lib$lib.so has soname '$soname'"
      got=$(nm -D --defined-only "$so" | awk '{print $3}' | sort | tr '\n' ' ')
      echo "lib$lib.so (soname $soname): ${got:-(none)}"
      [ "$got" = "$(echo ${want[$lib]} | tr ' ' '\n' | sed '/^$/d' | sort | tr '\n' ' ')" ] ||
        fail "lib$lib.so defines '$got', expected '${want[$lib]}'"
      if [ "$lib" != opapi_math ]; then
        objdump -p "$so" | grep -q 'NEEDED *libhostnn\.so' || fail "lib$lib.so does not link libhostnn"
      fi
    done
    ;;

  one_runtime)
    clean "cc -std=c99 -I\"\$ASCEND_HOME_PATH/include\" -o '$work/one_runtime' '$src/tests/scripts/cann_one_runtime.c' -ldl -lm" ||
      fail "cann_one_runtime.c does not build"
    for order in "ascendcl nnopbase opapi opapi_nn" "opapi_nn opapi nnopbase ascendcl" \
      "nnopbase opapi_nn ascendcl opapi"; do
      clean "'$work/one_runtime' $order" || fail "libraries loaded as: $order"
    done
    ;;

  ctypes)
    clean "cd '$work' && python3 '$src/examples/cann_project/silu_backward_ctypes.py'" ||
      fail "the ctypes example"
    ;;

  *)
    echo "unknown mode $mode" >&2
    exit 2
    ;;
esac
echo "install_cann_$mode: OK"
