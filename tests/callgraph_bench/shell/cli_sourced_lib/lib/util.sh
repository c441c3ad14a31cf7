# shellcheck shell=bash

function require_cmd {
  command -v "$1" >/dev/null 2>&1 || die "missing command: $1"
}

function human_size() {
  local bytes=$1
  if (( bytes < 1024 )); then
    echo "${bytes}B"
  elif (( bytes < 1048576 )); then
    echo "$(( bytes / 1024 ))K"
  else
    echo "$(( bytes / 1048576 ))M"
  fi
}
