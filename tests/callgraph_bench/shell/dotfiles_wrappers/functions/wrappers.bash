# shellcheck shell=bash
# Wrappers around everyday commands.

ls() {
  command ls --color=auto -F "$@"
}

grep() {
  command grep --color=auto "$@"
}

cd() {
  builtin cd "$@" && ls
}

mkcd() {
  mkdir -p -- "$1" && cd -- "$1"
}

count_lines() {
  LC_ALL=C grep -c '' "$@"
}

todo() {
  git ls-files -z -- '*.sh' '*.bash' | xargs -0 grep -n 'TODO'
}

etcgrep() { sudo grep -rn -- "$1" /etc; }
lsplain() { env ls -l "$@"; }
