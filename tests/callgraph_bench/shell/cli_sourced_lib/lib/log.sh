# shellcheck shell=bash
# Logging helpers: everything goes to stderr so stdout stays clean.

_log_ts() {
  date '+%Y-%m-%d %H:%M:%S'
}

log() {
  local level=$1
  shift
  printf '%s [%s] %s\n' "$(_log_ts)" "$level" "$*" >&2
}

info() { log INFO "$@"; }
warn() { log WARN "$@"; }

die() {
  log ERROR "$@"
  exit 1
}
