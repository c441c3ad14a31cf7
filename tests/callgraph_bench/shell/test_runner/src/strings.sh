# shellcheck shell=bash
trim() {
  local s=$1
  s=${s#"${s%%[![:space:]]*}"}
  printf '%s' "${s%"${s##*[![:space:]]}"}"
}

slugify() {
  trim "$1" | tr '[:upper:]' '[:lower:]' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//'
}

repeat_str() {
  (( $2 > 0 )) || return 0
  printf '%s' "$1"
  repeat_str "$1" $(($2 - 1))
}
