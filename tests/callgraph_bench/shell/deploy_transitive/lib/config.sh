# shellcheck shell=bash
CONFIG_FILE=${CONFIG_FILE:-deploy.conf}

log() {
  printf '[config] %s\n' "$*" >&2
}

config_get() {
  local key=$1 value
  value=$(awk -F' *= *' -v k="$key" '$1 == k { print $2; exit }' "$CONFIG_FILE")
  if [[ -z $value ]]; then
    log "missing key $key in $CONFIG_FILE"
    return 1
  fi
  printf '%s\n' "$value"
}
