# shellcheck shell=bash
# Project helpers.

proj() {
  cd "$HOME/src/$1" && git status -sb
}

serve() {
  python3 -m http.server "${1:-8000}"
}

serve_bg() {
  nohup serve "$@" >/tmp/serve.log 2>&1 &
  echo "serving in the background (pid $!)"
}

tmux() {
  if (( $# )); then command tmux "$@"; else command tmux new-session -A -s main; fi
}

work() {
  exec tmux new-session -A -s work -c "$HOME/src"
}

dev_motd() {
  printf 'projects: %s\n' "$(ls "$HOME/src" | wc -l)"
}

shrink_png() {
  optipng -quiet -o2 "$1"
}

shrink_all() {
  export -f shrink_png
  find . -name '*.png' -print0 | xargs -0 -n1 -P4 bash -c 'shrink_png "$0"'
}
