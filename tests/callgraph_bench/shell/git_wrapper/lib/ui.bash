# shellcheck shell=bash
# Terminal output for git-sync: colored when stderr is a terminal.

log() {
  local color=$1
  shift
  if [[ -t 2 ]]; then
    printf '\033[%sm%s\033[0m\n' "$color" "$*" >&2
  else
    printf '%s\n' "$*" >&2
  fi
}

ui_note() { log 90 "$*"; }
ui_ok() { log 32 "ok    $*"; }
ui_warn() { log 33 "warn  $*"; }

ui_fail() {
  log 31 "fail  $*"
  exit 1
}
