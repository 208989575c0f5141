#!/usr/bin/env bash
# Prints the operators of include/hostnn/op_list.def, one per line, for the scripts:
#   op_list.sh snake   silu_backward ...   (default)
#   op_list.sh name    SiluBackward ...
set -euo pipefail
def="$(dirname "$0")/../include/hostnn/op_list.def"
case "${1:-snake}" in
  snake) sed -n 's/^HOSTNN_OP( *[A-Za-z0-9]*, *\([a-z0-9_]*\),.*/\1/p' "$def" ;;
  name) sed -n 's/^HOSTNN_OP( *\([A-Za-z0-9]*\),.*/\1/p' "$def" ;;
  *) echo "usage: op_list.sh [snake|name]" >&2; exit 2 ;;
esac
