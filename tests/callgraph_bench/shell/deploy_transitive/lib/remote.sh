# shellcheck shell=bash
source "${BASH_SOURCE%/*}/ssh.sh"

_provision() {
  id -u app >/dev/null 2>&1 || useradd --system app
  mkdir -p /srv/app /srv/releases
}

remote::provision() {
  ssh::run "$1" "$(declare -f _provision); _provision"
}

remote::upload() {
  ssh::copy "$1" "$2" "$3"
}

remote::activate() {
  local host=$1 rel=$2
  ssh::run "$host" "mkdir -p /srv/app/$rel && tar -xzf /srv/releases/$rel.tar.gz -C /srv/app/$rel &&
    ln -sfn /srv/app/$rel /srv/app/current"
}
