# shellcheck shell=bash
POWERLINE_ARROW=$'\ue0b0'

powerline_arrow() {
  printf ' %s%s%s ' "$(color_code blue)" "$POWERLINE_ARROW" "$(color_code reset)"
}

theme_separator() {
  powerline_arrow
}

theme_prompt_char() {
  (( $1 == 0 )) && colorize green '>' || colorize red '>'
}
