# shellcheck shell=bash
log_cmd() { printf '\033[2m$ %s\033[0m\n' "$*" >&2; }
log_ok() { printf '\033[32mok\033[0m %s\n' "$*" >&2; }
log_err() { printf '\033[31merror\033[0m %s\n' "$*" >&2; }
