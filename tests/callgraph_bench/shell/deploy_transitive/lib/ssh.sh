# shellcheck shell=bash
. "$(dirname "${BASH_SOURCE[0]}")/config.sh"

SSH_OPTS=(-o BatchMode=yes -o ConnectTimeout=10)

log() {
  printf '[ssh] %s\n' "$*" >&2
}

ssh::user() {
  config_get ssh.user || echo deploy
}

ssh::run() {
  local host=$1
  shift
  log "$host: $*"
  ssh "${SSH_OPTS[@]}" "$(ssh::user)@$host" "$@"
}

ssh::copy() {
  log "copy $2 -> $1:$3"
  scp -q "${SSH_OPTS[@]}" "$2" "$(ssh::user)@$1:$3"
}
