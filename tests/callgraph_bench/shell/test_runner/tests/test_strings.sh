# shellcheck shell=bash
source "$ROOT/src/strings.sh"

setup() { export LC_ALL=C; }

test_slugify() {
  assert_eq "hello-world" "$(slugify "  Hello, World!  ")"
}

test_repeat() {
  assert_eq "abab" "$(repeat_str ab 2)"
  assert_eq "" "`repeat_str ab 0`"
}

test_trim_blank() {
  assert_status 0 trim "   "
}
