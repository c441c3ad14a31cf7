#!/usr/bin/env bash
# Install the tk toolkit:  curl -fsSL https://get.example.com/tk/install.sh | bash
set -eu

TK_VERSION=${TK_VERSION:-1.4.2}
PREFIX=${PREFIX:-$HOME/.local}
cd "$(dirname "$0")"
. ./lib/platform.sh
source lib/fetch.sh

if [ -t 1 ]; then
  say() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
else
  say() { printf '==> %s\n' "$*"; }
fi

abort() {
  say "error: $*" >&2
  exit 1
}

function install_tree {
  local src=$1 f
  link_one() {
    ln -sf "$1" "$PREFIX/bin/${1##*/}" || abort "cannot link $1 into $PREFIX/bin"
  }
  mkdir -p "$PREFIX/bin" "$PREFIX/share/tk"
  cp -R "$src"/. "$PREFIX/share/tk/"
  for f in "$PREFIX"/share/tk/bin/*; do
    link_one "$f"
  done
}

function main() {
  local os arch url
  os=$(LC_ALL=C os_name)
  arch=`cpu_arch`
  [ -n "$os" ] && [ -n "$arch" ] || abort "unsupported platform: $(uname -sm)"
  url="https://get.example.com/tk/$TK_VERSION/tk-$os-$arch.tar.gz"
  TMP=$(mktemp -d)
  trap 'rm -rf "$TMP"' EXIT
  say "downloading $url"
  until download "$url" "$TMP/tk.tar.gz"; do
    retry_wait || abort "download failed"
  done
  if ! verify "$TMP/tk.tar.gz" "$url.sha256"; then
    abort "checksum mismatch"
  fi
  tar -xzf "$TMP/tk.tar.gz" -C "$TMP"
  install_tree "$TMP/tk-$TK_VERSION"
  in_path "$PREFIX/bin" || say "add $PREFIX/bin to your PATH"
}

main
