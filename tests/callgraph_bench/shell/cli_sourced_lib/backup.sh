#!/usr/bin/env bash
# backup.sh [-n] SRC DEST: write a dated tarball of SRC into DEST.
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
source "$DIR/lib/log.sh"
source "$(dirname "$0")/lib/common.sh"
cd "$DIR"
. ./helpers.sh

usage() {
  cat <<EOT
Usage: $(basename "$0") [-n] SRC DEST
  -n  dry run: check dependencies, write nothing
EOT
}

make_archive() {
  local src=$1 dest=$2 name
  name=$(archive_name)
  info "archiving $src to $dest/$name"
  tar -czf "$dest/$name" -C "$src" . || die "tar failed"
  echo "$dest/$name"
}

report() {
  local file=$1 size
  size=$(stat -c %s "$file")
  info "wrote $file ($(human_size "$size"))"
}

main() {
  local dry_run=0 opt out
  while getopts ":nh" opt; do
    case $opt in
      n) dry_run=1 ;;
      h) usage; exit 0 ;;
      *) >&2 usage; exit 2 ;;
    esac
  done
  shift $((OPTIND - 1))
  [[ $# -eq 2 ]] || { usage >&2; exit 2; }
  check_deps
  if (( dry_run )); then
    warn "dry run: nothing written"
    return 0
  fi
  out=$(make_archive "$1" "$2")
  report "$out"
}

main "$@"
