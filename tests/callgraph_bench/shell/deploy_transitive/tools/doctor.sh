#!/usr/bin/env bash
# Check that every configured host answers over ssh.
CONFIG_LIB=${CONFIG_LIB:-lib/config.sh}
source "$CONFIG_LIB"

check_host() {
  ssh -o BatchMode=yes -o ConnectTimeout=5 "$1" true 2>/dev/null && echo "ok    $1" || echo "FAIL  $1"
}

for host in $(config_get deploy.hosts); do
  check_host "$host"
done
