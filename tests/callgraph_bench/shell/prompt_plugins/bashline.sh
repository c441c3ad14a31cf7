# shellcheck shell=bash
# bashline: a small prompt framework. Source it from ~/.bashrc.
BASHLINE_ROOT=${BASHLINE_ROOT:-$HOME/.bashline}
BASHLINE_SEGMENTS=()

source "$BASHLINE_ROOT/lib/colors.sh"

bashline_register() {
  BASHLINE_SEGMENTS+=("$1")
}

bashline_segment() {
  local color=$1 text=$2
  [[ -n $text ]] || return 0
  colorize "$color" "$text"
  theme_separator
}

bashline_load() {
  local f theme
  for f in "$BASHLINE_ROOT"/plugins/*.sh; do
    source "$f"
  done
  if type -t git_prompt_init >/dev/null; then
    git_prompt_init
  fi
  theme="$BASHLINE_ROOT/themes/${BASHLINE_THEME:-minimal}.sh"
  source "$theme"
}

bashline_render() {
  local status=$? seg out=""
  for seg in "${BASHLINE_SEGMENTS[@]}"; do
    out+=$("$seg")
  done
  PS1="${out}$(theme_prompt_char "$status") "
}

bashline_load
PROMPT_COMMAND="bashline_render${PROMPT_COMMAND:+; $PROMPT_COMMAND}"
