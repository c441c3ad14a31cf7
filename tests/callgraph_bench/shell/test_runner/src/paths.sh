# shellcheck shell=bash
path_join() {
  local out=$1 part
  shift
  for part in "$@"; do
    out="${out%/}/${part#/}"
  done
  printf '%s\n' "$out"
}

path_depth() {
  local p=${1%/} n=0
  [[ -n $p ]] || return 1
  while [[ $p == */* ]]; do p=${p%/*}; n=$((n + 1)); done
  echo "$n"
}
