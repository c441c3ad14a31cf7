# shellcheck shell=bash
fail() {
  printf '    assertion failed: %s\n' "$*" >&2
  return 1
}

assert_eq() {
  [[ $1 == "$2" ]] || fail "expected '$1', got '$2'"
}

assert_status() {
  local want=$1 got
  shift
  "$@" >/dev/null 2>&1
  got=$?
  (( got == want )) || fail "$*: exit status $got, want $want"
}
