#!/usr/bin/env bash
# run_tests.sh [PREFIX]: run the test_* functions of tests/test_*.sh, each file in a subshell.
ROOT=$(cd "$(dirname "$0")" && pwd) && export ROOT
source "$ROOT/lib/assert.sh"
LOG=$(mktemp)

cleanup() { rm -f "$LOG"; }
trap cleanup EXIT

list_tests() {
  declare -F | awk '{ print $3 }' | grep "^test_${1:-}"
}

report() {
  printf '  %-5s %s\n' "$1" "$2"
}

run_file() {
  local t
  (
    source "$1"
    for t in $(list_tests "$2"); do
      if declare -f setup >/dev/null; then setup; fi
      if ( "$t" ); then report ok "$t"; else report FAIL "$t"; fi
      declare -f teardown >/dev/null && teardown
    done
  )
}

main() {
  local f
  for f in "$ROOT"/tests/test_*.sh; do
    run_file "$f" "${1:-}" | tee -a "$LOG"
  done
  ! grep -q FAIL "$LOG"
}

main "$@"
