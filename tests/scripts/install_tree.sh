#!/usr/bin/env bash
# ctest install_tree: installs the build into a fresh prefix with `cmake --install` and checks
# that what a client needs is there (library, CANN and native headers, CMake package,
# pkg-config file) and that every installed header's own includes resolve inside the prefix.
set -euo pipefail
if [ $# -ne 5 ]; then
  echo "usage: install_tree.sh CMAKE BUILD_DIR PREFIX LIBDIR INCLUDEDIR" >&2
  exit 2
fi
cmake_bin=$1 build=$2 prefix=$3 libdir=$4 includedir=$5

rm -rf "$prefix"
# The libraries must be current to install them.
"$cmake_bin" --build "$build" --target hostnn cann_tree
"$cmake_bin" --install "$build" --prefix "$prefix"

missing=0
need() {
  if [ -e "$prefix/$1" ]; then
    echo "ok       $1"
  else
    echo "MISSING  $1"
    missing=1
  fi
}
if [ -e "$prefix/$libdir/libhostnn.so" ]; then
  need "$libdir/libhostnn.so"
else
  need "$libdir/libhostnn.a"
fi
need set_env.sh  # the CANN-shaped tree: the prefix itself
if [ -e "$prefix/$libdir/libhostnn.so" ]; then
  for lib in ascendcl nnopbase opapi opapi_nn opapi_math; do
    need "lib64/lib$lib.so"
  done
fi
need "$includedir/acl/acl.h"
need "$includedir/acl/acl_base.h"
need "$includedir/acl/acl_rt.h"
need "$includedir/aclnn/aclnn_base.h"
# Every operator header of the source tree (an operator's variants share its header).
for header in "$(dirname "$0")"/../../include/aclnnop/aclnn_*.h; do
  need "$includedir/aclnnop/$(basename "$header")"
done
need "$includedir/hostnn/ops.h"
need "$includedir/hostnn/hostnn.h"
need "$libdir/cmake/hostnn/hostnnConfig.cmake"
need "$libdir/cmake/hostnn/hostnnConfigVersion.cmake"
need "$libdir/cmake/hostnn/hostnnTargets.cmake"
need "$libdir/pkgconfig/hostnn.pc"
pc="$prefix/$libdir/pkgconfig/hostnn.pc"
if [ -e "$pc" ] && ! grep -q -- '-lhostnn' "$pc"; then
  echo "hostnn.pc does not link -lhostnn"
  missing=1
fi

# Quoted includes of installed headers must name installed headers.
while IFS= read -r header; do
  while IFS= read -r inc; do
    if [ ! -e "$prefix/$includedir/$inc" ]; then
      echo "UNRESOLVED  ${header#"$prefix/"} includes \"$inc\""
      missing=1
    fi
  done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$header")
done < <(find "$prefix/$includedir" -type f \( -name '*.h' -o -name '*.def' \))

if [ "$missing" -ne 0 ]; then
  echo "install_tree: FAILED"
  exit 1
fi
echo "install_tree: OK ($prefix)"
