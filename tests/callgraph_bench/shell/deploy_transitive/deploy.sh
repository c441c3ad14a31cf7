#!/usr/bin/env bash
# deploy.sh [HOST...]: ship build/app.tar.gz to each host and restart the service.
set -euo pipefail
source "${BASH_SOURCE%/*}/lib/remote.sh"

retry() {
  local tries=$1
  shift
  "$@" && return 0
  (( tries > 1 )) || return 1
  sleep 2
  retry $((tries - 1)) "$@"
}

deploy::all() {
  local host failed=()
  for host in "$@"; do
    deploy::host "$host" || failed+=("$host")
  done
  (( ${#failed[@]} == 0 )) || { log "failed: ${failed[*]}"; return 1; }
}

deploy::host() {
  local host=$1 release
  release="$(config_get app.name)-$(date +%Y%m%d%H%M%S)"
  log "deploying $release to $host"
  remote::provision "$host"
  retry 3 remote::upload "$host" build/app.tar.gz "/srv/releases/$release.tar.gz"
  remote::activate "$host" "$release" &&
    ssh::run "$host" sudo systemctl restart "$(config_get app.service)"
}

if (( $# == 0 )); then
  set -- $(config_get deploy.hosts)
fi
deploy::all "$@"
