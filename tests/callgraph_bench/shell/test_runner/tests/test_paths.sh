# shellcheck shell=bash
source "$ROOT/src/paths.sh"

setup() { WORK=$(mktemp -d); }
teardown() { rm -rf "$WORK"; }

test_join() {
  assert_eq "$WORK/a/b" "$(path_join "$WORK" a/ /b)"
}

test_depth() {
  assert_eq 3 "$(path_depth /a/b/c/)"
  ! path_depth "" || fail "an empty path has no depth"
}
