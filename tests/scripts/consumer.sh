#!/usr/bin/env bash
# ctest consumer_find_package: configures tests/consumer against the install prefix of
# install_tree, checks that find_package(hostnn) found that prefix (not another install),
# builds it and runs it; the program checks a SiluBackward result itself.
set -euo pipefail
if [ $# -ne 6 ]; then
  echo "usage: consumer.sh CMAKE GENERATOR SOURCE_DIR BUILD_DIR PREFIX CXX" >&2
  exit 2
fi
cmake_bin=$1 generator=$2 src=$3 build=$4 prefix=$5 cxx=$6

rm -rf "$build"
"$cmake_bin" -S "$src" -B "$build" -G "$generator" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF
found=$(sed -n 's/^hostnn_DIR:PATH=//p' "$build/CMakeCache.txt")
case "$found" in
  "$prefix"/*) echo "find_package(hostnn) found $found" ;;
  *)
    echo "find_package(hostnn) found '$found', not the test install under $prefix"
    exit 1
    ;;
esac
"$cmake_bin" --build "$build"
"$build/hostnn_consumer"
