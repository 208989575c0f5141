# hostnn's CANN-shaped tree: `source <prefix>/set_env.sh` (bash, zsh, dash or another POSIX
# sh), then build and run CANN programs as with CANN's <toolkit>/set_env.sh. It exports
# ASCEND_HOME_PATH, ASCEND_TOOLKIT_HOME, ASCEND_OPP_PATH, puts <prefix>/lib64 first in
# LD_LIBRARY_PATH and <prefix>/bin (hostnn-tiling, hostnn-scale) first in PATH. It finds its own directory, so the tree may be moved or copied, and
# sourcing it again changes nothing.

hostnn_set_env_file=
if [ -n "${BASH_VERSION:-}" ]; then
  eval 'hostnn_set_env_file=${BASH_SOURCE[0]:-}'
elif [ -n "${ZSH_VERSION:-}" ]; then
  eval 'hostnn_set_env_file=${(%):-%x}'
fi
if [ -z "$hostnn_set_env_file" ] && [ -d "/proc/$$/fd" ]; then
  # dash and other POSIX shells say nothing of the file they source, but keep it open:
  # look for it among the shell's descriptors.
  for hostnn_fd in /proc/$$/fd/*; do
    hostnn_target=$(readlink "$hostnn_fd" 2>/dev/null) || continue
    case "$hostnn_target" in
      */set_env.sh) hostnn_set_env_file=$hostnn_target; break ;;
    esac
  done
fi
if [ -z "$hostnn_set_env_file" ]; then
  case "$0" in */set_env.sh) hostnn_set_env_file=$0 ;; esac  # run rather than sourced
fi

if [ -n "$hostnn_set_env_file" ]; then
  case "$hostnn_set_env_file" in
    */*) hostnn_root=${hostnn_set_env_file%/*} ;;
    *) hostnn_root=. ;;
  esac
  hostnn_root=$(CDPATH= cd -- "$hostnn_root" && pwd -P)
  export ASCEND_TOOLKIT_HOME="$hostnn_root"
  export ASCEND_HOME_PATH="$hostnn_root"
  export ASCEND_OPP_PATH="$hostnn_root/opp"
  case ":${LD_LIBRARY_PATH:-}:" in
    *":$hostnn_root/lib64:"*) ;;
    *) export LD_LIBRARY_PATH="$hostnn_root/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" ;;
  esac
  # In a shell started without PATH this also exports the shell's default search path.
  case ":${PATH:-}:" in
    *":$hostnn_root/bin:"*) ;;
    *) export PATH="$hostnn_root/bin${PATH:+:$PATH}" ;;
  esac
else
  echo "set_env.sh: cannot tell where this file is in this shell; source it from bash, zsh or dash" >&2
fi
unset hostnn_set_env_file hostnn_fd hostnn_target hostnn_root
