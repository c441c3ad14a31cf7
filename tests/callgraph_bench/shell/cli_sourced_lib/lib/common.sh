# shellcheck shell=bash
. "${BASH_SOURCE%/*}/util.sh"

check_deps() {
  local c
  for c in tar gzip stat; do
    require_cmd "$c"
  done
}

timestamp() {
  date +%Y%m%d-%H%M%S
}
