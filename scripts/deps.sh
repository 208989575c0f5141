#!/usr/bin/env bash
# Installs hostnn's build and test dependencies from Debian 12 packages, only when one is
# missing (apt-get update runs at most once). Needs root, or sudo.
set -euo pipefail
packages=(cmake make clang libomp-dev g++ libhwy-dev nlohmann-json3-dev libcli11-dev libgtest-dev
          libbenchmark-dev python3 pkg-config "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  echo "hostnn: installing ${missing[*]}" >&2
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
